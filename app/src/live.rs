//! The browser end of a table's WebSocket: applies pushed states and
//! reconnects after a drop, or when the connection is not open after
//! [`CONNECT_TIMEOUT_MS`] (a handshake that never completes — a stalled
//! proxy, a server that took the TCP connection but never answered — would
//! otherwise leave the page "Connecting…" for as long as the browser waits,
//! minutes, with no pushed moves).

use crate::protocol::{ServerMessage, TableView};
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// How long a table socket may stay connecting before it is closed and
/// opened again (the usual back-off follows).
const CONNECT_TIMEOUT_MS: i32 = 10_000;

/// A WebSocket to `path` (`/ws/…`) on the page's own host, `wss` when the
/// page came over HTTPS; None outside a browser or when the address is bad.
pub fn open_socket(path: &str) -> Option<web_sys::WebSocket> {
    let location = web_sys::window()?.location();
    let scheme = if location.protocol().ok().as_deref() == Some("https:") {
        "wss"
    } else {
        "ws"
    };
    let host = location.host().ok()?;
    web_sys::WebSocket::new(&format!("{scheme}://{host}{path}")).ok()
}
/// Opens `/ws/table/{id}` and feeds every pushed state to `on_state`.
pub fn connect(
    id: crate::protocol::TableId,
    on_state: Callback<TableView>,
    connected: WriteSignal<bool>,
) {
    let link = Link {
        id,
        on_state,
        connected,
        alive: Rc::new(RefCell::new(true)),
        slot: Rc::new(RefCell::new(None)),
    };
    let handles = StoredValue::new_local((link.alive.clone(), link.slot.clone()));
    open(link, 0);
    on_cleanup(move || {
        handles.with_value(|(alive, slot)| {
            *alive.borrow_mut() = false;
            if let Some(socket) = slot.borrow_mut().take() {
                let _ = socket.close();
            }
        });
    });
}

/// A page's link to its table: what every (re)opened socket reports to,
/// whether the page still wants it, and the socket now open.
#[derive(Clone)]
struct Link {
    id: crate::protocol::TableId,
    on_state: Callback<TableView>,
    connected: WriteSignal<bool>,
    alive: Rc<RefCell<bool>>,
    slot: Rc<RefCell<Option<web_sys::WebSocket>>>,
}

/// Runs `f` once after `ms` milliseconds.
fn after(ms: i32, f: impl FnOnce() + 'static) {
    let f = Closure::once_into_js(f);
    if let Some(window) = web_sys::window() {
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(f.unchecked_ref(), ms);
    }
}

fn open(link: Link, attempt: u32) {
    let Some(socket) = open_socket(&format!("/ws/table/{}", link.id)) else {
        // No socket could even be created: try again later, as after a drop.
        retry_later(link, attempt);
        return;
    };
    let on_state = link.on_state;
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            let Some(text) = event.data().as_string() else {
                return;
            };
            match serde_json::from_str::<ServerMessage>(&text) {
                Ok(ServerMessage::State { table }) => {
                    let _ = on_state.try_run(*table);
                }
                Ok(_) => {}
                Err(error) => web_sys::console::warn_1(&format!("bad message: {error}").into()),
            }
        });
    socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let connected = link.connected;
    let on_open = Closure::<dyn FnMut()>::new(move || {
        let _ = connected.try_set(true);
    });
    socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
    on_open.forget();
    let retry = {
        let link = link.clone();
        Closure::<dyn FnMut()>::new(move || retry_later(link.clone(), attempt))
    };
    socket.set_onclose(Some(retry.as_ref().unchecked_ref()));
    retry.forget();
    // Still connecting after the timeout: close it; its `onclose` retries.
    let stalled = socket.clone();
    after(CONNECT_TIMEOUT_MS, move || {
        if stalled.ready_state() == web_sys::WebSocket::CONNECTING {
            web_sys::console::warn_1(&"table socket: no answer, connecting again".into());
            let _ = stalled.close();
        }
    });
    *link.slot.borrow_mut() = Some(socket);
}

/// Marks the table offline and opens its socket again after a back-off
/// (0.5 s doubling to 8 s), unless the page has left the table.
fn retry_later(link: Link, attempt: u32) {
    if !*link.alive.borrow() {
        return;
    }
    let _ = link.connected.try_set(false);
    let delay = (500 * 2u32.pow(attempt.min(4))) as i32;
    after(delay, move || open(link, attempt + 1));
}

/// Joins the quick-match queue: `on_matched` gets the table id. Dropping or
/// closing the returned socket leaves the queue.
pub fn join_queue(
    control: crate::protocol::TimeControl,
    rated: bool,
    lang: crate::i18n::Lang,
    queued: RwSignal<bool>,
    on_matched: Callback<crate::protocol::TableId>,
    on_error: Callback<crate::i18n::Msg>,
) -> Option<web_sys::WebSocket> {
    let socket = open_socket(&format!(
        "/ws/queue?base={}&inc={}{}",
        control.base_s,
        control.increment_s,
        if rated { "&rated=1" } else { "" }
    ))?;
    let offered_on = socket.clone();
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            let Some(text) = event.data().as_string() else {
                return;
            };
            match crate::protocol::QueueMessage::parse(&text) {
                Some(crate::protocol::QueueMessage::Matched { table }) => {
                    let _ = on_matched.try_run(table);
                }
                Some(crate::protocol::QueueMessage::Error { msg }) => {
                    let _ = on_error.try_run(msg);
                }
                Some(crate::protocol::QueueMessage::BotOffer {
                    bot,
                    rating,
                    waited_s,
                }) => crate::pages::bot_offer::show(
                    lang,
                    crate::pages::bot_offer::Offered {
                        bot,
                        rating,
                        waited_s,
                        control,
                        rated,
                    },
                    offered_on.clone(),
                    queued,
                ),
                _ => {}
            }
        });
    socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    Some(socket)
}
