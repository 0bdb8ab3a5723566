//! The lobby: the site's front page, where a player starts a game.

use crate::api::{create_table, create_table_from};
use crate::board::Board3D;
use crate::protocol::{BoardSnapshot, Side, TableMode, TimeControl};
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};

/// Whether a failed call means the server could not be reached at all (the
/// key `CommandError` gives a request that never got an answer).
pub fn server_unreachable(error: &crate::api::CommandError) -> bool {
    error.msg.key == "srv-unreachable"
}

/// The lobby page.
#[component]
pub fn LobbyPage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let snapshot = Signal::derive(BoardSnapshot::empty);
    let on_square = Callback::new(|_square: u8| {});
    let (depth, set_depth) = signal(3u8);
    let (human, set_human) = signal(Side::Black);
    let (error, set_error) = signal(None::<String>);
    let (busy, set_busy) = signal(false);
    // The server cannot be reached: offer the offline game (see offline.rs).
    let (server_down, set_server_down) = signal(false);
    // Only offline practice can work: the page is the service worker's app
    // shell (the server could not be reached when it was asked for) or the
    // browser has no network. The buttons that need the server are disabled.
    let (offline_only, set_offline_only) = signal(false);
    #[cfg(feature = "hydrate")]
    {
        let shell = document()
            .query_selector(&format!("meta[name={}]", crate::assets::SHELL_META))
            .ok()
            .flatten()
            .is_some();
        Effect::new(move |_| {
            if shell || web_sys::window().is_some_and(|w| !w.navigator().on_line()) {
                set_server_down.set(true);
                set_offline_only.set(true);
            }
        });
        let handle = window_event_listener(leptos::ev::offline, move |_| {
            let _ = set_server_down.try_set(true);
            let _ = set_offline_only.try_set(true);
        });
        let back = window_event_listener(leptos::ev::online, move |_| {
            if !shell {
                let _ = set_offline_only.try_set(false);
            }
        });
        on_cleanup(move || {
            handle.remove();
            back.remove();
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = set_offline_only;
    let unavailable = move || busy.get() || offline_only.get();
    // The time control for online play: a preset label or "untimed". A test
    // server (`--test-time-controls`) also accepts `/?tc=6s+0`.
    let query_tc = use_query_map().with_untracked(|q| {
        q.get("tc")
            .and_then(|t| TimeControl::parse(&t))
            .map(|t| t.label())
    });
    let (control, set_control) = signal(query_tc.clone().unwrap_or_else(|| "3+2".to_string()));
    // Rated play: offered to a signed-in player only.
    let signed_in = crate::accounts::signed_in();
    let (rated, set_rated) = signal(false);
    let navigate = use_navigate();
    let start = move |mode: TableMode| {
        let navigate = navigate.clone();
        set_busy.set(true);
        set_error.set(None);
        leptos::task::spawn_local(async move {
            match create_table(mode).await {
                Ok(id) => navigate(&format!("/table/{id}"), Default::default()),
                Err(e) => {
                    if server_unreachable(&e) {
                        let _ = set_server_down.try_set(true);
                    }
                    let _ = set_error.try_set(Some(e.text(lang)));
                    let _ = set_busy.try_set(false);
                }
            }
        });
    };
    let start_ai = {
        let start = start.clone();
        move |_| {
            start(TableMode::VsAi {
                depth: depth.get_untracked(),
                human: human.get_untracked(),
            })
        }
    };
    let start_hot_seat = {
        let start = start.clone();
        move |_| start(TableMode::HotSeat)
    };
    let start_private = {
        let start = start.clone();
        move |_| {
            start(TableMode::Online {
                private: true,
                time: TimeControl::parse(&control.get_untracked()),
                rated: rated.get_untracked(),
            })
        }
    };

    // Start from a position: OBF pasted, or passed as `/?from=<OBF>` (the
    // lab's "play from here").
    let query = use_query_map();
    let (obf, set_obf) = signal(query.with_untracked(|q| q.get("from").unwrap_or_default()));
    let navigate_from = use_navigate();
    let start_from = move |mode: TableMode| {
        let navigate = navigate_from.clone();
        let text = obf.get_untracked();
        set_busy.set(true);
        set_error.set(None);
        leptos::task::spawn_local(async move {
            match create_table_from(mode, text).await {
                Ok(id) => navigate(&format!("/table/{id}"), Default::default()),
                Err(e) => {
                    let _ = set_error.try_set(Some(e.text(lang)));
                    let _ = set_busy.try_set(false);
                }
            }
        });
    };
    let start_from_ai = {
        let start_from = start_from.clone();
        move |_| {
            start_from(TableMode::VsAi {
                depth: depth.get_untracked(),
                human: human.get_untracked(),
            })
        }
    };
    let start_from_hot_seat = move |_| start_from(TableMode::HotSeat);

    // Quick match: waiting while the queue socket is open.
    let (queued, set_queued) = signal(false);
    #[cfg(feature = "hydrate")]
    let queue_socket: StoredValue<Option<web_sys::WebSocket>, LocalStorage> =
        StoredValue::new_local(None);
    // Created here, owned by the page (not by the button, which unmounts).
    let navigate_matched = use_navigate();
    let on_matched = Callback::new(move |table: String| {
        let _ = set_queued.try_set(false);
        navigate_matched(&format!("/table/{table}"), Default::default());
    });
    let on_queue_error = Callback::new(move |message: crate::i18n::Msg| {
        let _ = set_queued.try_set(false);
        let _ = set_error.try_set(Some(message.text(lang)));
    });
    let join_queue = move |_| {
        set_error.set(None);
        let Some(chosen) = TimeControl::parse(&control.get_untracked()) else {
            set_error.set(Some(t!(lang, "srv-quick-timed")));
            return;
        };
        #[cfg(feature = "hydrate")]
        {
            match crate::live::join_queue(chosen, rated.get_untracked(), on_matched, on_queue_error)
            {
                Some(socket) => {
                    queue_socket.set_value(Some(socket));
                    set_queued.set(true);
                }
                None => {
                    set_server_down.set(true);
                    set_error.set(Some(t!(lang, "lobby-cannot-reach")))
                }
            }
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = (chosen, on_matched, on_queue_error);
    };
    let mut controls: Vec<(String, String)> = TimeControl::PRESETS
        .iter()
        .map(|t| (t.label(), t.label()))
        .collect();
    if let Some(extra) = query_tc.filter(|l| !controls.iter().any(|(v, _)| v == l)) {
        controls.push((extra.clone(), t!(lang, "lobby-tc-test", label = &extra)));
    }
    controls.push(("untimed".into(), t!(lang, "lobby-untimed")));
    let leave_queue = move |_| {
        #[cfg(feature = "hydrate")]
        queue_socket.update_value(|socket| {
            if let Some(socket) = socket.take() {
                let _ = socket.close();
            }
        });
        set_queued.set(false);
    };
    #[cfg(feature = "hydrate")]
    on_cleanup(move || {
        queue_socket.update_value(|socket| {
            if let Some(socket) = socket.take() {
                let _ = socket.close();
            }
        })
    });
    view! {
        <main class="lobby">
            <header class="topbar">
                <h1>{t!(lang, "site-title")}</h1>
                <crate::accounts::AccountLink />
                <crate::i18n::LangSwitch />
            </header>
            <section class="lobby-panel">
                <Show when=move || server_down.get()>
                    <div class="card offline-offer" id="offline-offer" role="status">
                        <h2>{t!(lang, "lobby-offline-title")}</h2>
                        <p>{t!(lang, "lobby-offline-text")}</p>
                        <a class="button" id="play-offline" href="/offline">{t!(lang, "lobby-offline-play")}</a>
                    </div>
                </Show>
                <div class="card" id="vs-ai">
                    <h2>{t!(lang, "lobby-ai-title")}</h2>
                    <p>{t!(lang, "lobby-ai-text")}</p>
                    <label>
                        {t!(lang, "lobby-depth")}
                        <select
                            id="ai-depth"
                            on:change=move |ev| {
                                if let Ok(d) = event_target_value(&ev).parse::<u8>() {
                                    if crate::protocol::AI_LEVELS.contains(&d) {
                                        set_depth.set(d);
                                    }
                                }
                            }
                        >
                            {crate::protocol::AI_LEVELS
                                .into_iter()
                                .map(|d| {
                                    let label = if d == crate::protocol::STRONGEST {
                                        t!(lang, "lobby-depth-strongest")
                                    } else {
                                        d.to_string()
                                    };
                                    view! {
                                        <option value=d.to_string() selected=move || depth.get() == d>
                                            {label}
                                        </option>
                                    }
                                })
                                .collect_view()}
                        </select>
                    </label>
                    <fieldset class="row colour-choice">
                        <legend>{t!(lang, "lobby-you-play")}</legend>
                        <label>
                            <input
                                type="radio"
                                name="colour"
                                value="black"
                                id="play-black"
                                checked=move || human.get() == Side::Black
                                on:change=move |_| set_human.set(Side::Black)
                            />
                            {t!(lang, "lobby-black-first")}
                        </label>
                        <label>
                            <input
                                type="radio"
                                name="colour"
                                value="white"
                                id="play-white"
                                checked=move || human.get() == Side::White
                                on:change=move |_| set_human.set(Side::White)
                            />
                            {t!(lang, "lobby-white-second")}
                        </label>
                    </fieldset>
                    <button id="start-ai" on:click=start_ai disabled=unavailable>
                        {t!(lang, "lobby-start-ai")}
                    </button>
                </div>
                <div class="card" id="hot-seat">
                    <h2>{t!(lang, "lobby-hot-seat-title")}</h2>
                    <p>{t!(lang, "lobby-hot-seat-text")}</p>
                    <button id="start-hot-seat" on:click=start_hot_seat disabled=unavailable>
                        {t!(lang, "lobby-start-hot-seat")}
                    </button>
                </div>
                <div class="card" id="online">
                    <h2>{t!(lang, "lobby-online-title")}</h2>
                    <p>{t!(lang, "lobby-online-text")}</p>
                    {signed_in.clone().map(|name| view! { <crate::pages::players::RatingLinks name /> })}
                    <label class="row">
                        {t!(lang, "lobby-time-control")} " "
                        <select
                            id="time-control"
                            on:change=move |ev| set_control.set(event_target_value(&ev))
                            prop:value=move || control.get()
                        >
                            {controls
                                .into_iter()
                                .map(|(value, label)| {
                                    let selected = value == control.get_untracked();
                                    view! {
                                        <option value=value selected=selected>
                                            {label}
                                        </option>
                                    }
                                })
                                .collect_view()}
                        </select>
                    </label>
                    {signed_in.is_some().then(|| view! {
                        <label class="check">
                            <input
                                type="checkbox"
                                id="rated"
                                prop:checked=move || rated.get()
                                on:change=move |ev| set_rated.set(event_target_checked(&ev))
                            />
                            <span>{t!(lang, "lobby-rated")}</span>
                        </label>
                    })}
                    <div class="row">
                        <Show
                            when=move || queued.get()
                            fallback=move || {
                                view! {
                                    <button id="quick-match" on:click=join_queue disabled=unavailable>
                                        {t!(lang, "lobby-quick-match")}
                                    </button>
                                }
                            }
                        >
                            <span id="queue-status" role="status">{t!(lang, "lobby-waiting")}</span>
                            <button class="secondary" id="leave-queue" on:click=leave_queue>
                                {t!(lang, "lobby-leave-queue")}
                            </button>
                        </Show>
                        <button
                            class="secondary"
                            id="private-table"
                            on:click=start_private
                            disabled=unavailable
                        >
                            {t!(lang, "lobby-private-table")}
                        </button>
                    </div>
                </div>
                <div class="card" id="from-position">
                    <h2>{t!(lang, "lobby-from-title")}</h2>
                    <p>{t!(lang, "lobby-from-text")}</p>
                    <textarea
                        id="start-obf"
                        rows="2"
                        spellcheck="false"
                        aria-label=t!(lang, "lobby-from-label")
                        prop:value=move || obf.get()
                        on:input=move |ev| set_obf.set(event_target_value(&ev))
                    ></textarea>
                    <div class="row">
                        <button id="start-obf-ai" on:click=start_from_ai disabled=unavailable>
                            {t!(lang, "lobby-from-ai")}
                        </button>
                        <button
                            class="secondary"
                            id="start-obf-hot-seat"
                            on:click=start_from_hot_seat
                            disabled=unavailable
                        >
                            {t!(lang, "lobby-from-hot-seat")}
                        </button>
                    </div>
                </div>
                <p class="error" role="alert">
                    {move || error.get()}
                </p>
                <div class="card" id="ai-lab">
                    <h2>{t!(lang, "lobby-lab-title")}</h2>
                    <p>{t!(lang, "lobby-lab-text")}</p>
                    <a class="button" id="open-lab" href="/lab">{t!(lang, "lobby-lab-open")}</a>
                </div>
            </section>
            <section class="lobby-board">
                <Board3D snapshot on_square />
            </section>
        </main>
    }
}
