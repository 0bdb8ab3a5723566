//! The browser end of a tournament's socket (`/ws/tournament/{id}`): keeps
//! the page's live view up to date, and reconnects after a drop.

use crate::tournaments::{TournamentMessage, TournamentView};
use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Opens `/ws/tournament/{id}` and keeps `live` up to date with what it
/// pushes; reconnects after a drop (while the page is open).
pub fn open(
    id: crate::protocol::TournamentId,
    live: RwSignal<Option<TournamentView>>,
    connected: RwSignal<bool>,
) {
    let alive = Rc::new(Cell::new(true));
    let slot: Rc<std::cell::RefCell<Option<web_sys::WebSocket>>> = Default::default();
    connect(id, live, connected, alive.clone(), slot.clone(), 0);
    let handles = StoredValue::new_local((alive, slot));
    on_cleanup(move || {
        handles.with_value(|(alive, slot)| {
            alive.set(false);
            if let Some(socket) = slot.borrow_mut().take() {
                let _ = socket.close();
            }
        });
    });
}

fn connect(
    id: crate::protocol::TournamentId,
    live: RwSignal<Option<TournamentView>>,
    connected: RwSignal<bool>,
    alive: Rc<Cell<bool>>,
    slot: Rc<std::cell::RefCell<Option<web_sys::WebSocket>>>,
    attempt: u32,
) {
    let Some(socket) = crate::live::open_socket(&format!("/ws/tournament/{id}")) else {
        return;
    };
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            let text = event.data().as_string().unwrap_or_default();
            if let Some(TournamentMessage::Page { view }) = TournamentMessage::parse(&text) {
                live.try_set(Some(*view));
                connected.try_set(true);
            }
        });
    socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let on_close = {
        let alive = alive.clone();
        let slot = slot.clone();
        Closure::<dyn FnMut()>::new(move || {
            connected.try_set(false);
            if !alive.get() {
                return;
            }
            let (id, alive, slot) = (id.clone(), alive.clone(), slot.clone());
            let again = Closure::once_into_js(move || {
                if alive.get() {
                    connect(id, live, connected, alive, slot, attempt + 1)
                }
            });
            if let Some(window) = web_sys::window() {
                let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                    again.unchecked_ref(),
                    (1000 * 2u32.pow(attempt.min(4))) as i32,
                );
            }
        })
    };
    socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
    on_close.forget();
    *slot.borrow_mut() = Some(socket);
}
