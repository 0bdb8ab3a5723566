//! The table page: the 3D board, score, turn, messages, tally, rematch votes,
//! resign, export and the rules sidebar. Commands go through server functions;
//! the table's WebSocket pushes every change.
//!
//! (Over 600 lines: the table page's panels share the table's signals and the socket; split further they would pass a dozen signals around.)
//!

use crate::api::{get_table, new_table, play_move, resign, take_seat, vote_rematch};
use crate::board::PassLog;
use crate::pages::rules::RulesSidebar;
use crate::protocol::{
    replay, square_name, BoardSnapshot, EndReason, RoundStatus, Side, TableMode, TableView,
};
use crate::takeover::MainBoard;
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_params_map};

/// `/table/:id`.
#[component]
pub fn TablePage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let params = use_params_map();
    let id = move || params.read().get("id").unwrap_or_default();
    let loaded = Resource::new(id, get_table);
    view! {
        <Suspense fallback=move || view! { <main class="page"><p>{t!(lang, "table-loading")}</p></main> }>
            {move || Suspend::new(async move {
                let Some(loaded) = super::settled(loaded).await else { return ().into_any() };
                match loaded {
                    Ok(view) => view! { <TableScreen initial=view /> }.into_any(),
                    Err(error) => view! {
                        <crate::pages::LoadFailed
                            title=t!(lang, "table-not-found")
                            error=error
                            back_href="/"
                            back_label=t!(lang, "back-to-lobby")
                        />
                    }
                    .into_any(),
                }
            })}
        </Suspense>
    }
}

/// Moves the keyboard focus to the element with this id, once it is drawn.
/// "Review this game": brings the analysis into view and starts it (a
/// finished game's review is otherwise below the fold on a laptop).
fn review_game() {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        if let Some(card) = document().get_element_by_id("analysis") {
            card.scroll_into_view();
        }
        if let Some(button) = document()
            .get_element_by_id("analyse")
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            button.click();
        }
    }
}

fn focus_by_id(id: &'static str) {
    #[cfg(feature = "hydrate")]
    request_animation_frame(move || {
        use wasm_bindgen::JsCast;
        if let Some(element) = document()
            .get_element_by_id(id)
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = element.focus();
        }
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = id;
}

#[component]
fn TableScreen(initial: TableView) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let table_id = initial.id.clone();
    let view_state = RwSignal::new(initial);
    // The players card's last answer (ratings and their changes), for the
    // result line.
    let players_seen = RwSignal::new(None::<crate::ratings::PlayersView>);
    let (message, set_message) = signal(None::<String>);
    let (rules_open, set_rules_open) = signal(false);
    let (connected, set_connected) = signal(false);

    // Accept a view only if it is not older than the one shown.
    let accept = move |incoming: TableView| {
        view_state.try_update(|current| {
            if incoming.board.version >= current.board.version {
                let you = if incoming.you.is_empty() {
                    current.you.clone()
                } else {
                    incoming.you.clone()
                };
                *current = TableView { you, ..incoming };
            }
        });
    };
    #[cfg(feature = "hydrate")]
    crate::live::connect(table_id.clone(), Callback::new(accept), set_connected);
    #[cfg(not(feature = "hydrate"))]
    let _ = set_connected;

    // The move-list entry (1-based, passes counted) whose position the
    // board shows instead of the game's, while the player reviews it.
    let review = RwSignal::new(None::<usize>);
    // A new state of the game ends a review only when the round changes (a
    // rematch); a move played meanwhile is seen on "Back to the game".
    Effect::new(move |round: Option<u32>| {
        let now = view_state.with(|v| v.round);
        if round.is_some_and(|r| r != now) {
            review.set(None);
        }
        now
    });
    let positions = Memo::new(move |_| view_state.with(|v| replay(&v.start, &v.history)));
    let snapshot = Signal::derive(move || {
        let v = view_state.get();
        let mut board: BoardSnapshot = v.board.clone();
        if let Some((cells, square)) = review
            .get()
            .and_then(|n| positions.with(|p| p.get(n.wrapping_sub(1)).cloned()))
        {
            board.cells = cells;
            board.last_move = square;
            board.flipped.clear();
            board.legal.clear();
            return board;
        }
        if !v.viewer_to_move() {
            board.legal.clear();
        }
        board
    });
    let hint = RwSignal::new(None::<u8>);
    // Every legal move's value from the Hint, written on the board.
    let hint_values = RwSignal::new(Vec::<crate::worker::MoveValue>::new());
    let labels =
        Signal::derive(move || hint_values.with(|moves| crate::pages::hint::board_labels(moves)));
    let id_for_click = table_id.clone();
    let on_square = Callback::new(move |square: u8| {
        let table = id_for_click.clone();
        set_message.set(None);
        leptos::task::spawn_local(async move {
            match play_move(table, square).await {
                Ok(view) => accept(view),
                Err(error) => set_message.set(Some(t!(
                    lang,
                    "table-square-error",
                    square = square_name(square),
                    error = error.text(lang),
                ))),
            }
        });
    });

    let id_for_resign = table_id.clone();
    let do_resign = move |side: Option<Side>| {
        let table = id_for_resign.clone();
        leptos::task::spawn_local(async move {
            match resign(table, side).await {
                Ok(view) => accept(view),
                Err(error) => set_message
                    .try_set(Some(error.text(lang)))
                    .map_or((), |_| ()),
            }
        });
    };
    let id_for_vote = table_id.clone();
    let do_vote = move |side: Option<Side>, vote: bool| {
        let table = id_for_vote.clone();
        leptos::task::spawn_local(async move {
            match vote_rematch(table, side, vote).await {
                Ok(view) => accept(view),
                Err(error) => set_message
                    .try_set(Some(error.text(lang)))
                    .map_or((), |_| ()),
            }
        });
    };
    let id_for_seat = table_id.clone();
    let (seating_busy, set_seating_busy) = signal(false);
    let do_take_seat = move |_| {
        let table = id_for_seat.clone();
        set_seating_busy.set(true);
        set_message.set(None);
        leptos::task::spawn_local(async move {
            match take_seat(table).await {
                Ok(view) => accept(view),
                Err(error) => {
                    let _ = set_message.try_set(Some(error.text(lang)));
                }
            }
            let _ = set_seating_busy.try_set(false);
        });
    };
    let navigate = use_navigate();
    let id_for_new = table_id.clone();
    let do_new_table = move |_| {
        let table = id_for_new.clone();
        let navigate = navigate.clone();
        leptos::task::spawn_local(async move {
            match new_table(table).await {
                Ok(id) => navigate(&format!("/table/{id}"), Default::default()),
                Err(error) => set_message
                    .try_set(Some(error.text(lang)))
                    .map_or((), |_| ()),
            }
        });
    };

    // The AI's search refused (the server's AI queue is full): say so, and
    // let the player ask again (opening the table asks the AI again).
    let id_for_ai = table_id.clone();
    let (ai_retrying, set_ai_retrying) = signal(false);
    let (ai_retry_note, set_ai_retry_note) = signal(None::<String>);
    let ask_ai_again = move |_| {
        let table = id_for_ai.clone();
        set_ai_retrying.set(true);
        set_ai_retry_note.set(None);
        leptos::task::spawn_local(async move {
            match get_table(table).await {
                Ok(view) => {
                    let still = view.ai_refused();
                    accept(view);
                    if still {
                        let _ = set_ai_retry_note.try_set(Some(t!(lang, "table-ai-busy-still")));
                    }
                }
                Err(error) => {
                    let _ = set_ai_retry_note.try_set(Some(error.text(lang)));
                }
            }
            let _ = set_ai_retrying.try_set(false);
        });
    };

    // Arriving from the lobby ("Play vs AI"), the keyboard focus would stay
    // on the page body: put it on the board, where play starts.
    #[cfg(feature = "hydrate")]
    request_animation_frame(|| {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let idle = document
            .active_element()
            .is_none_or(|e| e.tag_name() == "BODY");
        if idle {
            use wasm_bindgen::JsCast;
            if let Some(board) = document
                .query_selector("#board-2d button[tabindex=\"0\"], #board-canvas")
                .ok()
                .flatten()
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = board.focus();
            }
        }
    });
    let mode = move || view_state.with(|v| v.mode);
    let seated = move || view_state.with(|v| !v.you.is_empty());
    let is_online = move || matches!(mode(), TableMode::Online { .. });

    // A clock for the grace countdown: seconds since the last state arrived.
    let (elapsed, set_elapsed) = signal(0u32);
    Effect::new(move |_| {
        view_state.track();
        set_elapsed.set(0);
    });
    #[cfg(feature = "hydrate")]
    {
        if let Ok(handle) = set_interval_with_handle(
            move || set_elapsed.update(|e| *e += 1),
            std::time::Duration::from_secs(1),
        ) {
            on_cleanup(move || handle.clear());
        }
    }
    // The seats' state; `count_down` subtracts the seconds gone since the
    // view came (the visible line), else the line changes only when the
    // server's view does (the live region a screen reader hears: once per
    // leave or return, not every second of a grace).
    let presence = move |count_down: bool| {
        let v = view_state.get();
        let seats = v.seats?;
        let mut lines = Vec::new();
        for side in [Side::Black, Side::White] {
            let seat = seats.get(side);
            let who = if v.you.contains(&side) {
                "You"
            } else {
                side.name()
            };
            if !seat.taken {
                lines.push(t!(lang, "table-seat-free", side = side.name()));
            } else if let Some(left) = seat.grace_left {
                let left = if count_down {
                    left.saturating_sub(elapsed.get())
                } else {
                    left
                };
                lines.push(t!(lang, "table-left", who = who, left = left));
            }
        }
        (!lines.is_empty()).then(|| lines.join(" "))
    };
    let presence_text = move || presence(true);
    let presence_heard = move || presence(false);
    // The seat a spectator may take (a private table's free seat).
    let free_seat = move || {
        view_state.with(|v| match (v.mode, v.seats) {
            (TableMode::Online { .. }, Some(seats)) if v.you.is_empty() => {
                [Side::Black, Side::White]
                    .into_iter()
                    .find(|&side| !seats.get(side).taken)
            }
            _ => None,
        })
    };
    let passes = Signal::derive(move || {
        view_state.with(|v| PassLog {
            round: v.round,
            passers: v
                .history
                .iter()
                .filter(|h| h.square.is_none())
                .map(|h| h.side)
                .collect(),
        })
    });
    let waiting_for_opponent =
        move || view_state.with(|v| v.seats.is_some_and(|s| !(s.black.taken && s.white.taken)));
    let share_url = move || {
        #[cfg(feature = "hydrate")]
        {
            web_sys::window()
                .and_then(|w| w.location().href().ok())
                .unwrap_or_default()
        }
        #[cfg(not(feature = "hydrate"))]
        {
            String::new()
        }
    };
    let is_hot_seat = move || matches!(mode(), TableMode::HotSeat);
    let status = move || view_state.with(|v| v.status);
    let over = move || matches!(status(), RoundStatus::Over { .. });
    let turn_text = move || {
        let v = view_state.get();
        match v.status {
            RoundStatus::Playing { to_move } => {
                let side = crate::i18n::side_name(lang, to_move);
                if v.ai_thinking {
                    t!(lang, "table-ai-thinking", side = side)
                } else if v.ai_refused() {
                    t!(lang, "table-ai-waiting", side = side)
                } else if v.you.contains(&to_move) && v.you.len() == 1 {
                    t!(lang, "table-your-move", side = side)
                } else {
                    t!(lang, "table-to-move", side = to_move.name())
                }
            }
            RoundStatus::Over { winner, reason } => {
                let result = match (winner, reason) {
                    (_, EndReason::Abandoned) => t!(lang, "table-abandoned"),
                    (_, EndReason::Aborted) => t!(lang, "table-aborted"),
                    (Some(w), EndReason::Resigned) => {
                        t!(lang, "table-wins-resigned", side = w.name())
                    }
                    (Some(w), EndReason::Timeout) => {
                        t!(lang, "table-wins-timeout", side = w.name())
                    }
                    (Some(w), EndReason::Time) => t!(lang, "table-wins-time", side = w.name()),
                    (Some(w), EndReason::Finished) => t!(lang, "table-wins", side = w.name()),
                    (None, _) => t!(lang, "table-draw"),
                };
                // A player in one seat reads first what it means for them,
                // and after a rated game their new rating and its change.
                let said = match (winner, v.you.as_slice()) {
                    (Some(w), [me]) if *me == w => t!(lang, "table-you-won", result = result),
                    (Some(_), [_]) => t!(lang, "table-you-lost", result = result),
                    _ => result,
                };
                let mine = match v.you.as_slice() {
                    [me] => players_seen.with(|p| {
                        p.as_ref().filter(|p| p.rated).and_then(|p| {
                            let seat = if *me == Side::Black {
                                &p.black
                            } else {
                                &p.white
                            };
                            seat.rating.zip(seat.change)
                        })
                    }),
                    _ => None,
                };
                match mine {
                    Some((rating, change)) => t!(
                        lang,
                        "table-result-rated",
                        result = said,
                        rating = rating.text(),
                        change = crate::ratings::change_text(change)
                    ),
                    None => said,
                }
            }
        }
    };
    // The end-of-round celebration is for a win or a draw the viewer can be
    // glad of: never for a player's own loss (to the AI or online).
    let celebrate = Signal::derive(move || {
        view_state.with(|v| match v.status {
            RoundStatus::Over {
                winner: Some(winner),
                ..
            } => !(v.you.len() == 1 && v.you[0] != winner),
            _ => true,
        })
    });
    // The score of the position on the board: the reviewed one while the
    // player looks back, else the game's.
    let shown_counts = move || match review.get() {
        Some(_) => snapshot.with(|b| {
            let count = |v: i8| b.cells.iter().filter(|&&c| c == v).count() as u8;
            (count(1), count(-1))
        }),
        None => view_state.with(|v| (v.black_count, v.white_count)),
    };
    let to_move_class = move || match status() {
        RoundStatus::Playing { to_move } => to_move.key(),
        RoundStatus::Over { .. } => "over",
    };
    let export_href = format!("/table/{table_id}/export.txt");
    // Resign asks first ("Resign? Yes / No", inline), and only once the
    // round has started: at an online table that means both seats taken.
    let confirming = RwSignal::new(false);
    let resign_button = {
        let do_resign = do_resign.clone();
        move || {
            let do_resign = do_resign.clone();
            (!over() && seated() && !waiting_for_opponent()).then(|| {
                if confirming.get() {
                    view! {
                        <span class="resign-confirm" id="resign-confirm" role="group" aria-labelledby="resign-question">
                            <span id="resign-question">
                                {move || if is_hot_seat() {
                                    let side = view_state.with(|v| match v.status {
                                        RoundStatus::Playing { to_move } => to_move,
                                        RoundStatus::Over { .. } => Side::Black,
                                    });
                                    t!(lang, "table-resign-confirm-side", side = crate::i18n::side_name(lang, side))
                                } else {
                                    t!(lang, "table-resign-confirm")
                                }}
                            </span>
                            <button class="danger" id="resign-yes" on:click=move |_| {
                                confirming.set(false);
                                do_resign(None);
                            }>{t!(lang, "table-resign-yes")}</button>
                            <button class="secondary" id="resign-no" on:click=move |_| {
                                confirming.set(false);
                                focus_by_id("resign");
                            }>{t!(lang, "table-resign-no")}</button>
                        </span>
                    }
                    .into_any()
                } else {
                    view! {
                        <button class="secondary" id="resign" on:click=move |_| {
                            confirming.set(true);
                            focus_by_id("resign-no");
                        }>
                            {move || if is_hot_seat() { t!(lang, "table-resign-hot-seat") } else { t!(lang, "table-resign") }}
                        </button>
                    }
                    .into_any()
                }
            })
        }
    };
    // A confirmation left open does not outlive the round it was asked in.
    Effect::new(move |_| {
        if over() {
            confirming.set(false);
        }
    });
    let vote_buttons = move || {
        let do_vote = do_vote.clone();
        (over() && seated()).then(move || {
            let v = view_state.get();
            if is_hot_seat() {
                [Side::Black, Side::White]
                    .into_iter()
                    .map(|side| {
                        let voted = match side {
                            Side::Black => v.votes.black,
                            Side::White => v.votes.white,
                        };
                        let do_vote = do_vote.clone();
                        let name = crate::i18n::side_name(lang, side);
                        let label = if voted {
                            t!(lang, "table-vote-withdraw-side", side = name)
                        } else {
                            t!(lang, "table-vote-side", side = name)
                        };
                        view! {
                            <button
                                id=format!("vote-{}", side.key())
                                class:voted=voted
                                on:click=move |_| do_vote(Some(side), !voted)
                            >
                                {label}
                            </button>
                        }
                    })
                    .collect_view()
                    .into_any()
            } else if is_online() {
                let mine = v.you.first().copied().unwrap_or(Side::Black);
                let (my_vote, their_vote) = match mine {
                    Side::Black => (v.votes.black, v.votes.white),
                    Side::White => (v.votes.white, v.votes.black),
                };
                view! {
                    <button
                        id="rematch"
                        class:voted=my_vote
                        on:click=move |_| do_vote(None, !my_vote)
                    >
                        {if my_vote { t!(lang, "table-vote-withdraw") } else { t!(lang, "table-vote") }}
                    </button>
                    {their_vote.then(|| view! { <span class="their-vote">{t!(lang, "table-their-vote")}</span> })}
                }
                .into_any()
            } else {
                view! {
                    <button id="rematch" on:click=move |_| do_vote(None, true)>
                        {t!(lang, "table-rematch")}
                    </button>
                }
                .into_any()
            }
        })
    };

    let spectator_card = move || {
        let do_take_seat = do_take_seat.clone();
        match free_seat() {
            Some(side) => view! {
                <p>{t!(lang, "table-watching-free", side = side.name())}</p>
                <button
                    id="take-seat"
                    on:click=do_take_seat
                    disabled=move || seating_busy.get()
                >
                    {t!(lang, "table-take-seat")}
                </button>
            }
            .into_any(),
            None => view! { <p>{t!(lang, "table-watching")}</p> }.into_any(),
        }
    };

    view! {
        <main class="table-page">
            <header class="topbar">
                <h1><a href="/">{t!(lang, "site-title")}</a></h1>
                <span class="mode" id="mode">{move || match mode() {
                    // A visitor who is not seated watches: the human is "a player", not "you".
                    TableMode::VsAi { depth, human } if !seated() && depth == crate::protocol::STRONGEST => t!(
                        lang,
                        "mode-vs-ai-strongest-watch",
                        side = crate::i18n::side_name(lang, human)
                    ),
                    TableMode::VsAi { depth, human } if !seated() => t!(
                        lang,
                        "mode-vs-ai-watch",
                        side = crate::i18n::side_name(lang, human),
                        depth = depth
                    ),
                    m => crate::i18n::mode_text(lang, &m),
                }}</span>
                <button
                    class="help"
                    id="rules-toggle"
                    aria-label=t!(lang, "table-rules")
                    aria-expanded=move || rules_open.get().to_string()
                    on:click=move |_| set_rules_open.update(|o| *o = !*o)
                >
                    "?"
                </button>
                <crate::i18n::LangSwitch />
            </header>
            <section class="table-board">
                <MainBoard snapshot on_square passes hint labels celebrate />
                {move || review.get().map(|n| view! {
                    <p class="review-banner" id="table-review" role="status">
                        {t!(lang, "table-reviewing", number = n)}
                        " "
                        <button class="secondary small" id="review-back" on:click=move |_| review.set(None)>
                            {t!(lang, "table-review-back")}
                        </button>
                    </p>
                })}
            </section>
            <aside class="hud">
                <div class="card score">
                    <div class="count black-count" id="black-count">
                        <span class="disc black"></span>
                        {move || shown_counts().0}
                    </div>
                    <div class="count white-count" id="white-count">
                        <span class="disc white"></span>
                        {move || shown_counts().1}
                    </div>
                    <p id="turn" class=move || format!("turn {}", to_move_class())>{turn_text}</p>
                    // A one-off game has no rounds to count: "Round" and the tally
                    // appear once a rematch is played.
                    <p class="round" hidden=move || view_state.with(|v| v.round <= 1)>
                        {move || t!(lang, "table-round", round = view_state.with(|v| v.round))}
                    </p>
                    <Show when=move || over() && view_state.with(|v| v.history.iter().any(|h| h.square.is_some()))>
                        <button class="secondary" id="review-game" on:click=|_| review_game()>
                            {t!(lang, "table-review-game")}
                        </button>
                    </Show>
                    <p class="ai-search" id="ai-search">
                        {move || {
                            view_state
                                .with(|v| v.ai_search)
                                .map(|s| {
                                    t!(lang, "table-ai-search", depth = s.depth, nodes = s.nodes)
                                })
                        }}
                    </p>
                </div>
                <crate::pages::players::PlayersCard table=table_id.clone() view=view_state seen=players_seen />
                <crate::pages::hint::HintPanel view=view_state hint values=hint_values />
                <crate::pages::clocks::ClockPanel
                    clocks=Signal::derive(move || view_state.with(|v| v.clocks))
                    you=Signal::derive(move || view_state.with(|v| v.you.clone()))
                />
                <Show when=move || is_online() && !seated()>
                    <div class="card spectator" id="spectator">{spectator_card.clone()}</div>
                </Show>
                <Show when=move || waiting_for_opponent() && seated()>
                    <div class="card share" id="share">
                        <h2>{t!(lang, "table-share-title")}</h2>
                        <p>{t!(lang, "table-share-text")}</p>
                        <input id="share-link" readonly value=share_url aria-label=t!(lang, "table-share-label") />
                    </div>
                </Show>
                <p id="presence" class="presence">{presence_text}</p>
                <p id="presence-live" class="sr-only" aria-live="polite">{presence_heard}</p>
                <div class="card messages">
                    <p id="notice">
                        {move || view_state.with(|v| v.notice.as_ref().map(|n| n.text(lang)))}
                    </p>
                    // Heard once: what the board's announcer already says
                    // (a pass, a result, a new round) is left out here.
                    <p id="notice-live" class="sr-only" aria-live="polite">
                        {move || view_state.with(|v| {
                            v.notice
                                .as_ref()
                                .filter(|n| !crate::voice::ANNOUNCED_NOTICES.contains(&n.key.as_str()))
                                .map(|n| n.text(lang))
                        })}
                    </p>
                    <p id="message" class="error" role="alert">
                        {move || message.get()}
                    </p>
                </div>
                <Show when=move || view_state.with(|v| v.ai_refused())>
                    <div class="card ai-busy" id="ai-busy" role="alert">
                        <h2>{t!(lang, "table-ai-busy-title")}</h2>
                        <p>{t!(lang, "table-ai-busy-text")}</p>
                        <button id="ai-retry" on:click=ask_ai_again.clone() disabled=move || ai_retrying.get()>
                            {t!(lang, "table-ai-busy-retry")}
                        </button>
                        <p id="ai-retry-note" class="muted" aria-live="polite">{move || ai_retry_note.get()}</p>
                    </div>
                </Show>
                <div class="card tally" id="tally" hidden=move || view_state.with(|v| v.round <= 1)>
                    <h2>{t!(lang, "table-tally")}</h2>
                    <p>
                        {t!(lang, "table-tally-black")} " " <strong id="tally-black">{move || view_state.with(|v| v.tally.black_wins)}</strong>
                        " · " {t!(lang, "table-tally-white")} " " <strong id="tally-white">{move || view_state.with(|v| v.tally.white_wins)}</strong>
                        " · " {t!(lang, "table-tally-draws")} " " <strong id="tally-draws">{move || view_state.with(|v| v.tally.draws)}</strong>
                    </p>
                </div>
                <div class="card actions row">
                    {resign_button}
                    {vote_buttons}
                    <a class="button secondary" id="export" href=export_href download>{t!(lang, "table-export")}</a>
                    <Show when=seated>
                        <button class="secondary" id="new-table" on:click=do_new_table.clone()>
                            {t!(lang, "table-new-table")}
                        </button>
                    </Show>
                </div>
                <crate::pages::analysis::AnalysisPanel
                    kind=crate::protocol::GameKind::Table
                    id=table_id.clone()
                    over=Signal::derive(move || over() && view_state.with(|v| v.history.iter().any(|h| h.square.is_some())))
                    numbers=Signal::derive(move || view_state.with(|v| {
                        v.history
                            .iter()
                            .enumerate()
                            .filter(|(_, h)| h.square.is_some())
                            .map(|(i, _)| i as u32 + 1)
                            .collect::<Vec<_>>()
                    }))
                    on_pick=Callback::new(move |number: u32| review.set(Some(number as usize)))
                    yours=Signal::derive(move || view_state.with(|v| v.you.clone()))
                />
                <details class="card history">
                    <summary>
                        {move || t!(lang, "table-moves", count = view_state.with(|v| v.history.len()))}
                        " "
                        <crate::pages::analysis::OpeningName moves=Signal::derive(move || view_state.with(|v| v.history.iter().filter_map(|h| h.square.clone()).collect::<Vec<_>>())) />
                    </summary>
                    <ol id="history" class="move-list">
                        {move || {
                            let reviewed = review.get();
                            view_state
                                .with(|v| v.history.clone())
                                .into_iter()
                                .enumerate()
                                .map(|(i, h)| {
                                    let number = i + 1;
                                    let pass = h.square.is_none();
                                    let text = match &h.square {
                                        Some(sq) => t!(lang, "table-move", side = crate::i18n::side_name(lang, h.side), square = sq, flipped = h.flipped),
                                        None => t!(lang, "table-pass", side = crate::i18n::side_name(lang, h.side)),
                                    };
                                    view! {
                                        <li class:pass=pass data-number=number.to_string()>
                                            <button
                                                class="move-link"
                                                data-mark=h.square.clone()
                                                class:selected=reviewed == Some(number)
                                                aria-pressed=(reviewed == Some(number)).to_string()
                                                on:click=move |_| review.set(Some(number))
                                            >
                                                <span class="move-number">{format!("{number}.")}</span>
                                                " "
                                                {text}
                                            </button>
                                        </li>
                                    }
                                })
                                .collect_view()
                        }}
                    </ol>
                </details>
                <p class="connection" data-connected=move || connected.get().to_string()>
                    {move || if connected.get() { t!(lang, "table-live") } else { t!(lang, "table-connecting") }}
                </p>
            </aside>
            <RulesSidebar open=rules_open on_close=Callback::new(move |_| set_rules_open.set(false)) />
        </main>
    }
}
