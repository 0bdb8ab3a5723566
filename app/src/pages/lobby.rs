//! The lobby: the site's front page, where a player starts a game. The page
//! holds what the cards share (the busy flag, the error line, whether the
//! server can be reached); each way to start is its own card.

use crate::api::CommandError;
use crate::board::Board3D;
#[cfg(feature = "hydrate")]
use crate::board::NotLoaded;
use crate::protocol::{BoardSnapshot, Side, TableId, TableMode, TimeControl};
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};

/// Whether a failed call means the server could not be reached at all (a
/// request that never got an answer, or [`code_unreachable`]).
pub fn server_unreachable(error: &crate::api::CommandError) -> bool {
    error.kind == crate::api::ErrorKind::Unreachable
}

/// A chunk of the lobby's code could not be fetched (the server is gone and
/// nothing is cached): said as "Cannot reach the server", like a call that got
/// no answer.
#[cfg(feature = "hydrate")]
fn code_unreachable() -> CommandError {
    CommandError::unreachable(crate::msg!("lobby-cannot-reach"))
}

/// A table being started, as the chunk gives it back.
#[cfg(feature = "hydrate")]
type Starting = std::pin::Pin<Box<dyn std::future::Future<Output = Result<TableId, CommandError>>>>;

/// The call behind Start: a chunk of its own (the server functions' client,
/// the request, the answer's and the error's decoding: ~15 KB of brotli),
/// which the lobby does not need to be seen or hydrated, so it is fetched at
/// the first press (docs/BENCHMARKS.md, "The lobby on its way to 350 KB").
#[cfg(feature = "hydrate")]
#[leptos::wasm_split::wasm_split(lobby_start_table, wasm_split_path = ::leptos::wasm_split, fallible)]
fn start_table_chunk(mode: TableMode, obf: Option<String>) -> Result<Starting, NotLoaded> {
    Ok(Box::pin(create_table(mode, obf)))
}

async fn create_table(mode: TableMode, obf: Option<String>) -> Result<TableId, CommandError> {
    match obf {
        None => crate::api::create_table(mode).await,
        Some(obf) => crate::api::create_table_from(mode, obf).await,
    }
}

/// Starts a table (from a position in OBF, when given) and returns its id.
async fn start_table(mode: TableMode, obf: Option<String>) -> Result<TableId, CommandError> {
    #[cfg(feature = "hydrate")]
    return match start_table_chunk(mode, obf).await {
        Ok(starting) => starting.await,
        Err(NotLoaded) => Err(code_unreachable()),
    };
    #[cfg(not(feature = "hydrate"))]
    create_table(mode, obf).await
}

/// The lobby page.
#[component]
pub fn LobbyPage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    // The starting position, so the first screen is a board ready to play.
    let snapshot = Signal::derive(|| BoardSnapshot {
        cells: crate::protocol::start_cells(),
        ..BoardSnapshot::empty()
    });
    let on_square = Callback::new(|_square: u8| {});
    let depth = RwSignal::new(3u8);
    let human = RwSignal::new(Side::Black);
    let error = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    // The server cannot be reached: offer the offline game (see offline.rs).
    let server_down = RwSignal::new(false);
    // Only offline practice can work (the service worker's app shell, or no
    // network): the buttons that need the server are disabled.
    let offline_only = RwSignal::new(false);
    watch_connectivity(server_down, offline_only);
    let unavailable = Signal::derive(move || busy.get() || offline_only.get());
    let navigate = use_navigate();
    let start = Callback::new(move |mode: TableMode| {
        let navigate = navigate.clone();
        busy.set(true);
        error.set(None);
        leptos::task::spawn_local(async move {
            match start_table(mode, None).await {
                Ok(id) => navigate(&format!("/table/{id}"), Default::default()),
                Err(e) => {
                    if server_unreachable(&e) {
                        let _ = server_down.try_set(true);
                    }
                    let _ = error.try_set(Some(e.text(lang)));
                    let _ = busy.try_set(false);
                }
            }
        });
    });
    // "Start from a position" opens by itself when the link carries one
    // (`/?from=<OBF>`, the lab's "play from here").
    let from_given = use_query_map().with_untracked(|q| q.get("from").is_some());
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
                <AiCard depth human start unavailable />
                <div class="card" id="hot-seat">
                    <h2>{t!(lang, "lobby-hot-seat-title")}</h2>
                    <p>{t!(lang, "lobby-hot-seat-text")}</p>
                    <button id="start-hot-seat" on:click=move |_| start.run(TableMode::HotSeat) disabled=unavailable>
                        {t!(lang, "lobby-start-hot-seat")}
                    </button>
                </div>
                <OnlineCard start unavailable error server_down />
                <details class="card more-choices" id="more-choices" open=from_given>
                    <summary>{t!(lang, "lobby-more")}</summary>
                    <FromPosition depth human unavailable busy error />
                </details>
                <p class="error" role="alert">
                    {move || error.get()}
                </p>
                <div class="card" id="lobby-puzzles">
                    <h2>{t!(lang, "lobby-puzzles")}</h2>
                    <p>{t!(lang, "lobby-puzzles-text")}</p>
                    <a class="button" id="puzzle-of-the-day" href="/puzzles?daily">{t!(lang, "puzzles-daily")}</a>
                    " "
                    <a class="button secondary" id="open-tournaments" href="/tournaments">{t!(lang, "lobby-tournaments-open")}</a>
                </div>
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

/// Marks the server unreachable when the page is the service worker's app
/// shell or the browser goes offline, and reachable again when it comes back.
fn watch_connectivity(server_down: RwSignal<bool>, offline_only: RwSignal<bool>) {
    #[cfg(feature = "hydrate")]
    {
        let shell = document()
            .query_selector(&format!("meta[name={}]", crate::assets::SHELL_META))
            .ok()
            .flatten()
            .is_some();
        Effect::new(move |_| {
            if shell || web_sys::window().is_some_and(|w| !w.navigator().on_line()) {
                server_down.set(true);
                offline_only.set(true);
            }
        });
        let handle = window_event_listener(leptos::ev::offline, move |_| {
            let _ = server_down.try_set(true);
            let _ = offline_only.try_set(true);
        });
        let back = window_event_listener(leptos::ev::online, move |_| {
            if !shell {
                let _ = offline_only.try_set(false);
            }
        });
        on_cleanup(move || {
            handle.remove();
            back.remove();
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (server_down, offline_only);
}

/// A game against the AI at the chosen depth and colour.
fn vs_ai(depth: RwSignal<u8>, human: RwSignal<Side>) -> TableMode {
    TableMode::VsAi {
        depth: depth.get_untracked(),
        human: human.get_untracked(),
    }
}

/// "Play the AI": the depth and the colour (shared with "from a position").
#[component]
fn AiCard(
    depth: RwSignal<u8>,
    human: RwSignal<Side>,
    start: Callback<TableMode>,
    unavailable: Signal<bool>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let colour = move |side: Side, id: &'static str, label: String| {
        view! {
            <label>
                <input
                    type="radio"
                    name="colour"
                    value=side.key()
                    id=id
                    checked=move || human.get() == side
                    on:change=move |_| human.set(side)
                />
                {label}
            </label>
        }
    };
    view! {
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
                                depth.set(d);
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
                {colour(Side::Black, "play-black", t!(lang, "lobby-black-first"))}
                {colour(Side::White, "play-white", t!(lang, "lobby-white-second"))}
            </fieldset>
            <button
                id="start-ai"
                on:click=move |_| start.run(vs_ai(depth, human))
                disabled=unavailable
            >
                {t!(lang, "lobby-start-ai")}
            </button>
        </div>
    }
    .into_any()
}

/// "Play online": the time control, rated or not, the quick-match queue and
/// private tables.
#[component]
fn OnlineCard(
    start: Callback<TableMode>,
    unavailable: Signal<bool>,
    error: RwSignal<Option<String>>,
    server_down: RwSignal<bool>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    // The time control: a preset label or "untimed". A test server
    // (`--test-time-controls`) also accepts `/?tc=6s+0`.
    let query_tc = use_query_map().with_untracked(|q| {
        q.get("tc")
            .and_then(|t| TimeControl::parse(&t))
            .map(|t| t.label())
    });
    let control = RwSignal::new(query_tc.clone().unwrap_or_else(|| "3+2".to_string()));
    let signed_in = crate::accounts::signed_in();
    let rated = RwSignal::new(false);
    let queued = RwSignal::new(false);
    let mut controls: Vec<(String, String)> = TimeControl::PRESETS
        .iter()
        .map(|t| (t.label(), t.label()))
        .collect();
    if let Some(extra) = query_tc.filter(|l| !controls.iter().any(|(v, _)| v == l)) {
        controls.push((extra.clone(), t!(lang, "lobby-tc-test", label = &extra)));
    }
    controls.push(("untimed".into(), t!(lang, "lobby-untimed")));
    let start_private = move |_| {
        start.run(TableMode::Online {
            private: true,
            time: TimeControl::parse(&control.get_untracked()),
            rated: rated.get_untracked(),
            tournament: false,
        })
    };
    let rated_choice = match signed_in {
        Some(name) => view! {
            <crate::pages::players::RatingLinks name />
            <label class="check">
                <input
                    type="checkbox"
                    id="rated"
                    prop:checked=move || rated.get()
                    on:change=move |ev| rated.set(event_target_checked(&ev))
                />
                <span>{t!(lang, "lobby-rated")}</span>
            </label>
        }
        .into_any(),
        // Signed out: the choice is there, disabled, with the way to it.
        None => view! {
            <label class="check disabled">
                <input type="checkbox" id="rated" disabled aria-describedby="rated-signed-out" />
                <span>{t!(lang, "lobby-rated")}</span>
            </label>
            <p class="muted" id="rated-signed-out">
                {t!(lang, "lobby-rated-signed-out")} " "
                <a href="/account#sign-up-form" id="rated-create">{t!(lang, "lobby-rated-create")}</a>
                " · "
                <a href="/players" id="rated-leaderboard">{t!(lang, "players-leaderboard")}</a>
            </p>
        }
        .into_any(),
    };
    view! {
        <div class="card" id="online">
            <h2>{t!(lang, "lobby-online-title")}</h2>
            <p>{t!(lang, "lobby-online-text")}</p>
            <label class="row">
                {t!(lang, "lobby-time-control")} " "
                <select
                    id="time-control"
                    on:change=move |ev| control.set(event_target_value(&ev))
                    prop:value=move || control.get()
                >
                    {controls
                        .into_iter()
                        .map(|(value, label)| {
                            let selected = value == control.get_untracked();
                            view! { <option value=value selected=selected>{label}</option> }
                        })
                        .collect_view()}
                </select>
            </label>
            {rated_choice}
            <div class="row">
                <QuickMatch control rated queued unavailable error server_down />
                <button class="secondary" id="private-table" on:click=start_private disabled=unavailable>
                    {t!(lang, "lobby-private-table")}
                </button>
                <a class="button secondary" id="play-bot" href="/bots">{t!(lang, "lobby-play-bot")}</a>
            </div>
            // Quick match's offer of a bot appears here (`pages::bot_offer`).
            <div id="bot-offer-slot"></div>
        </div>
    }
    .into_any()
}

/// Opens the quick-match queue's socket ([`crate::live::join_queue`]): a
/// chunk of its own (the socket's handlers and the queue's messages), so the
/// lobby loads it at the first press of "Quick match", not with the page.
/// `Err` when the chunk could not be fetched ([`NotLoaded`]).
#[cfg(feature = "hydrate")]
#[leptos::wasm_split::wasm_split(lobby_open_queue, wasm_split_path = ::leptos::wasm_split, fallible)]
fn open_queue(
    control: TimeControl,
    rated: bool,
    lang: crate::i18n::Lang,
    queued: RwSignal<bool>,
    on_matched: Callback<TableId>,
    on_error: Callback<crate::i18n::Msg>,
) -> Result<Option<web_sys::WebSocket>, NotLoaded> {
    Ok(crate::live::join_queue(
        control, rated, lang, queued, on_matched, on_error,
    ))
}

/// The quick-match button, or "waiting" with a way out while the queue's
/// socket is open.
#[component]
fn QuickMatch(
    control: RwSignal<String>,
    rated: RwSignal<bool>,
    queued: RwSignal<bool>,
    unavailable: Signal<bool>,
    error: RwSignal<Option<String>>,
    server_down: RwSignal<bool>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    #[cfg(feature = "hydrate")]
    let queue_socket: StoredValue<Option<web_sys::WebSocket>, LocalStorage> =
        StoredValue::new_local(None);
    // Created here, owned by the page (not by the button, which unmounts).
    let navigate_matched = use_navigate();
    let on_matched = Callback::new(move |table: crate::protocol::TableId| {
        let _ = queued.try_set(false);
        navigate_matched(&format!("/table/{table}"), Default::default());
    });
    let on_queue_error = Callback::new(move |message: crate::i18n::Msg| {
        let _ = queued.try_set(false);
        let _ = error.try_set(Some(message.text(lang)));
    });
    let join_queue = move |_| {
        error.set(None);
        let Some(chosen) = TimeControl::parse(&control.get_untracked()) else {
            error.set(Some(t!(lang, "srv-quick-timed")));
            return;
        };
        // "Waiting" at once: the queue's code is a chunk of its own
        // ([`open_queue`]), fetched at the first press.
        queued.set(true);
        #[cfg(feature = "hydrate")]
        leptos::task::spawn_local(async move {
            let rated = rated.get_untracked();
            // No chunk, or no socket: the server cannot be reached.
            let socket = open_queue(chosen, rated, lang, queued, on_matched, on_queue_error).await;
            match socket.unwrap_or(None) {
                // Left meanwhile (the page, or the queue with "Leave"): the
                // socket is closed at once, which leaves the queue.
                Some(socket) if !queued.try_get_untracked().unwrap_or(false) => {
                    let _ = socket.close();
                }
                Some(socket) => {
                    if let Some(Some(socket)) = queue_socket.try_set_value(Some(socket)) {
                        let _ = socket.close();
                    }
                }
                None => {
                    let _ = queued.try_set(false);
                    let _ = server_down.try_set(true);
                    let _ = error.try_set(Some(t!(lang, "lobby-cannot-reach")));
                }
            }
        });
        #[cfg(not(feature = "hydrate"))]
        let _ = (chosen, rated, server_down, on_matched, on_queue_error);
    };
    let close = move || {
        #[cfg(feature = "hydrate")]
        queue_socket.update_value(|socket| {
            if let Some(socket) = socket.take() {
                let _ = socket.close();
            }
        });
    };
    on_cleanup(close);
    view! {
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
            <button class="secondary" id="leave-queue" on:click=move |_| {
                close();
                queued.set(false);
            }>
                {t!(lang, "lobby-leave-queue")}
            </button>
        </Show>
    }
    .into_any()
}

/// "Start from a position": OBF pasted, or passed as `/?from=<OBF>`; against
/// the AI with the depth and colour of "Play the AI".
#[component]
fn FromPosition(
    depth: RwSignal<u8>,
    human: RwSignal<Side>,
    unavailable: Signal<bool>,
    busy: RwSignal<bool>,
    error: RwSignal<Option<String>>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let query = use_query_map();
    let obf = RwSignal::new(query.with_untracked(|q| q.get("from").unwrap_or_default()));
    let navigate = use_navigate();
    let start_from = Callback::new(move |mode: TableMode| {
        let navigate = navigate.clone();
        let text = obf.get_untracked();
        busy.set(true);
        error.set(None);
        leptos::task::spawn_local(async move {
            match start_table(mode, Some(text)).await {
                Ok(id) => navigate(&format!("/table/{id}"), Default::default()),
                Err(e) => {
                    let _ = error.try_set(Some(e.text(lang)));
                    let _ = busy.try_set(false);
                }
            }
        });
    });
    view! {
        <div id="from-position">
            <h2>{t!(lang, "lobby-from-title")}</h2>
            <p>{t!(lang, "lobby-from-text")}</p>
            <textarea
                id="start-obf"
                rows="2"
                spellcheck="false"
                aria-label=t!(lang, "lobby-from-label")
                prop:value=move || obf.get()
                on:input=move |ev| obf.set(event_target_value(&ev))
            ></textarea>
            <div class="row">
                <button
                    id="start-obf-ai"
                    on:click=move |_| start_from.run(vs_ai(depth, human))
                    disabled=unavailable
                >
                    {t!(lang, "lobby-from-ai")}
                </button>
                <button
                    class="secondary"
                    id="start-obf-hot-seat"
                    on:click=move |_| start_from.run(TableMode::HotSeat)
                    disabled=unavailable
                >
                    {t!(lang, "lobby-from-hot-seat")}
                </button>
            </div>
        </div>
    }
    .into_any()
}
