//! The table page: the 3D board, score, turn, messages, tally, rematch votes,
//! resign, export and the rules sidebar. Commands go through server functions;
//! the table's WebSocket pushes every change.
//! Over 600 lines: the page's cards share one `Table` of signals; its state logic lives in table/state.rs.
//!
//! The page's decisions (which view to keep, the board to draw, the turn,
//! presence and mode lines, which buttons to offer) are pure functions in
//! `table/state.rs`; the components here share one `Copy` set of signals,
//! [`Table`], and wire those decisions to it.

mod actions;
mod load;
mod state;

use crate::api::{get_table, play_move, resign, take_seat, vote_rematch};
use crate::i18n::Lang;
use crate::pages::rules::RulesSidebar;
use crate::protocol::{replay, square_name, RoundStatus, Side, TableMode, TableView};
use crate::takeover::MainBoard;
use actions::ActionsCard;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

/// `/table/:id`.
#[component]
pub fn TablePage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let params = use_params_map();
    let id = move || crate::protocol::TableId::new(params.read().get("id").unwrap_or_default());
    let loaded = Resource::new(id, load::get_table_soon);
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

/// "Review this game": brings the analysis into view and starts it (a
/// finished game's review is otherwise below the fold on a laptop).
fn review_game(requests: RwSignal<u32>) {
    requests.update(|n| *n += 1);
    #[cfg(feature = "hydrate")]
    if let Some(card) = document().get_element_by_id("analysis") {
        card.scroll_into_view();
    }
}

/// Arriving from the lobby ("Play vs AI"), the keyboard focus would stay on
/// the page body: puts it on the board, where play starts.
fn focus_board_if_idle() {
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
}

/// The table page's shared parts, all `Copy`, so that its panels and plain
/// functions can use them.
#[derive(Clone, Copy)]
struct Table {
    id: StoredValue<crate::protocol::TableId>,
    view: RwSignal<TableView>,
    /// The page's last refusal, in the page's language.
    message: RwSignal<Option<String>>,
    /// The move-list entry (1-based, passes counted) whose position the
    /// board shows instead of the game's, while the player reviews it.
    review: RwSignal<Option<usize>>,
    /// Presses of "Review this game" (the game's one entry to its review).
    review_requests: RwSignal<u32>,
    lang: Lang,
}

impl Table {
    /// Accepts a view only if it is not older than the one shown.
    fn accept(self, incoming: TableView) {
        self.view.try_update(|current| {
            if let Some(next) = state::merged(current, incoming) {
                *current = next;
            }
        });
    }

    fn seated(self) -> bool {
        self.view.with(|v| !v.you.is_empty())
    }

    fn mode(self) -> TableMode {
        self.view.with(|v| v.mode)
    }

    fn over(self) -> bool {
        self.view
            .with(|v| matches!(v.status, RoundStatus::Over { .. }))
    }

    fn refused(self, error: crate::api::CommandError) {
        let _ = self.message.try_set(Some(error.text(self.lang)));
    }

    fn play(self, square: u8) {
        let (table, lang, message) = (self.id.get_value(), self.lang, self.message);
        message.set(None);
        leptos::task::spawn_local(async move {
            match play_move(table, square).await {
                Ok(view) => self.accept(view),
                Err(error) => message.set(Some(t!(
                    lang,
                    "table-square-error",
                    square = square_name(square),
                    error = error.text(lang),
                ))),
            }
        });
    }

    fn resign(self, side: Option<Side>) {
        let table = self.id.get_value();
        leptos::task::spawn_local(async move {
            match resign(table, side).await {
                Ok(view) => self.accept(view),
                Err(error) => self.refused(error),
            }
        });
    }

    fn berserk(self) {
        let table = self.id.get_value();
        leptos::task::spawn_local(async move {
            match crate::tournaments::berserk(table).await {
                Ok(view) => self.accept(view),
                Err(error) => self.refused(error),
            }
        });
    }

    fn vote(self, side: Option<Side>, vote: bool) {
        let table = self.id.get_value();
        leptos::task::spawn_local(async move {
            match vote_rematch(table, side, vote).await {
                Ok(view) => self.accept(view),
                Err(error) => self.refused(error),
            }
        });
    }
}

#[component]
fn TableScreen(initial: TableView) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let table_id = initial.id.clone();
    let t = Table {
        id: StoredValue::new(table_id.clone()),
        view: RwSignal::new(initial),
        message: RwSignal::new(None),
        review: RwSignal::new(None),
        review_requests: RwSignal::new(0),
        lang,
    };
    let (view_state, review) = (t.view, t.review);
    // The players card's last answer (ratings and their changes), for the
    // result line.
    let players_seen = RwSignal::new(None::<crate::ratings::PlayersView>);
    let rules_open = RwSignal::new(false);
    let (connected, set_connected) = signal(false);
    #[cfg(feature = "hydrate")]
    crate::live::connect(
        table_id.clone(),
        Callback::new(move |v| t.accept(v)),
        set_connected,
    );
    #[cfg(not(feature = "hydrate"))]
    let _ = set_connected;

    // A new state of the game ends a review only when the round changes (a
    // rematch); a move played meanwhile is seen on "Back to the game".
    Effect::new(move |round: Option<u32>| {
        let now = view_state.with(|v| v.round);
        if round.is_some_and(|r| r != now) {
            review.set(None);
        }
        now
    });
    // The tab's title says when it is this player's move (state::tab_title);
    // the next page's title is the app's to set (`TabTitle`).
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        let title = view_state.with(|v| state::tab_title(lang, v));
        if document().title() != title {
            document().set_title(&title);
        }
    });
    let positions = Memo::new(move |_| view_state.with(|v| replay(&v.start, &v.history)));
    let snapshot = Signal::derive(move || {
        let v = view_state.get();
        let reviewed = review
            .get()
            .and_then(|n| positions.with(|p| p.get(n.wrapping_sub(1)).cloned()));
        state::shown_board(&v, reviewed)
    });
    let hint = RwSignal::new(None::<u8>);
    // The game's analysis once ready, and the better move of the entry under
    // review (drawn on the board where the hint is, named in the banner).
    let analysed = RwSignal::new(None::<crate::protocol::GameAnalysis>);
    let better = Memo::new(move |_| {
        let n = review.get()?;
        analysed.with(|a| {
            let a = a.as_ref()?;
            view_state.with(|v| state::better_move(&v.history, a, n))
        })
    });
    let marked = Signal::derive(move || {
        better
            .with(|b| {
                b.as_ref()
                    .and_then(|(sq, _)| crate::protocol::square_index(sq))
            })
            .or_else(|| hint.get())
    });
    // Every legal move's value from the Hint, written on the board.
    let hint_values = RwSignal::new(Vec::<crate::worker::MoveValue>::new());
    let labels =
        Signal::derive(move || hint_values.with(|moves| crate::pages::hint::board_labels(moves)));
    let on_square = Callback::new(move |square: u8| t.play(square));
    focus_board_if_idle();
    let passes = Signal::derive(move || view_state.with(state::pass_log));
    let celebrate = Signal::derive(move || view_state.with(state::celebrates));
    // The arrow keys step through a finished game while the focus is in its
    // review (the analysis or the move list): ← the move before, → the one
    // after; past the last move, the game's own end again.
    let step = move |ev: leptos::ev::KeyboardEvent| {
        #[cfg(feature = "hydrate")]
        {
            use wasm_bindgen::JsCast;
            let forward = match ev.key().as_str() {
                "ArrowRight" => true,
                "ArrowLeft" => false,
                _ => return,
            };
            let in_review = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|e| e.closest("#analysis, #history").ok().flatten())
                .is_some();
            let last = positions.with_untracked(Vec::len);
            if !in_review || last == 0 || !view_state.with_untracked(state::reviewable) {
                return;
            }
            ev.prevent_default();
            let now = review.get_untracked().unwrap_or(last);
            let next = if forward {
                now + 1
            } else {
                now.saturating_sub(1).max(1)
            };
            review.set((!forward || now < last).then_some(next.min(last)));
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = ev;
    };

    view! {
        <main class="table-page">
            <TableHeader t rules_open />
            <section class="table-board">
                <MainBoard snapshot on_square passes hint=marked labels celebrate />
                {move || review.get().map(|n| view! {
                    <p class="review-banner" id="table-review" role="status">
                        <span class="review-text">
                            {t!(lang, "table-reviewing", number = n)}
                            {move || better.get().map(|(square, loss)| view! {
                                " " <span id="review-better">{t!(lang, "table-review-better", square = square, loss = loss)}</span>
                            })}
                        </span>
                        " "
                        <button class="secondary small" id="review-back" on:click=move |_| review.set(None)>
                            {t!(lang, "table-review-back")}
                        </button>
                    </p>
                })}
            </section>
            <aside class="hud" on:keydown=step>
                <ScoreCard t snapshot players_seen />
                <crate::pages::players::PlayersCard table=table_id.clone() view=view_state seen=players_seen />
                <crate::pages::hint::HintPanel view=view_state hint values=hint_values />
                <crate::pages::clocks::ClockPanel
                    clocks=Signal::derive(move || view_state.with(|v| v.clocks))
                    you=Signal::derive(move || view_state.with(|v| v.you.clone()))
                />
                <SeatCards t />
                <MessagesCard t />
                <AiBusyCard t />
                <TallyCard t />
                <ActionsCard t />
                <crate::pages::analysis::AnalysisPanel
                    kind=crate::protocol::GameKind::Table
                    id=table_id.to_string()
                    over=Signal::derive(move || view_state.with(state::reviewable))
                    numbers=Signal::derive(move || view_state.with(|v| state::placement_numbers(&v.history)))
                    on_pick=Callback::new(move |number: u32| review.set(Some(number as usize)))
                    yours=Signal::derive(move || view_state.with(|v| v.you.clone()))
                    requests=t.review_requests
                    analysed=analysed
                    open=Signal::derive({
                        let id = table_id.to_string();
                        move || crate::pages::analysis_board::state::with_review(view_state.with(analysis_link), crate::protocol::GameKind::Table, &id)
                    })
                />
                <HistoryCard t />
                <p class="connection" data-connected=move || connected.get().to_string()>
                    {move || if connected.get() { t!(lang, "table-live") } else { t!(lang, "table-connecting") }}
                </p>
            </aside>
            <RulesSidebar open=rules_open on_close=Callback::new(move |_| rules_open.set(false)) />
        </main>
    }
}

/// The top bar: the site's name, the table's mode and the rules' "?".
#[component]
fn TableHeader(t: Table, rules_open: RwSignal<bool>) -> impl IntoView {
    let lang = t.lang;
    view! {
        <header class="topbar">
            <h1><a href="/">{t!(lang, "site-title")}</a></h1>
            <span class="mode" id="mode">{move || t.view.with(|v| state::mode_line(lang, v))}</span>
            <button
                class="help"
                id="rules-toggle"
                aria-label=t!(lang, "table-rules")
                aria-expanded=move || rules_open.get().to_string()
                on:click=move |_| rules_open.update(|o| *o = !*o)
            >
                "?"
            </button>
            <crate::i18n::LangSwitch />
        </header>
    }
}

/// The score of the position on the board (the reviewed one while the
/// player looks back), the turn or result line, the round and the AI's
/// search.
#[component]
fn ScoreCard(
    t: Table,
    snapshot: Signal<crate::protocol::BoardSnapshot>,
    players_seen: RwSignal<Option<crate::ratings::PlayersView>>,
) -> impl IntoView {
    let (lang, view_state) = (t.lang, t.view);
    let shown_counts = move || match t.review.get() {
        Some(_) => snapshot.with(|b| {
            let count = |v: i8| b.cells.iter().filter(|&&c| c == v).count() as u8;
            (count(1), count(-1))
        }),
        None => view_state.with(|v| (v.black_count, v.white_count)),
    };
    let turn_text = move || {
        let v = view_state.get();
        state::turn_text(lang, &v, |me| {
            players_seen.with(|p| state::rated_change(p.as_ref(), me))
        })
    };
    let to_move_class = move || view_state.with(|v| state::to_move_class(v.status));
    view! {
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
            <Show when=move || view_state.with(state::reviewable)>
                <button class="secondary" id="review-game" on:click=move |_| review_game(t.review_requests)>
                    {t!(lang, "table-review-game")}
                </button>
            </Show>
            <p class="ai-search" id="ai-search">
                {move || {
                    view_state
                        .with(|v| v.ai_search)
                        .map(|s| {
                            if s.book {
                                t!(lang, "table-ai-book")
                            } else {
                                t!(lang, "table-ai-search", depth = s.depth, nodes = s.nodes)
                            }
                        })
                }}
            </p>
        </div>
    }
}

/// At an online table: a spectator's card (with a free seat to take), the
/// link to share while a seat is free, and the seats' presence.
#[component]
fn SeatCards(t: Table) -> impl IntoView {
    let (lang, view_state) = (t.lang, t.view);
    let is_online = move || matches!(t.mode(), TableMode::Online { .. });
    let (seating_busy, set_seating_busy) = signal(false);
    let take_a_seat = move |_| {
        let table = t.id.get_value();
        set_seating_busy.set(true);
        t.message.set(None);
        leptos::task::spawn_local(async move {
            match take_seat(table).await {
                Ok(view) => t.accept(view),
                Err(error) => t.refused(error),
            }
            let _ = set_seating_busy.try_set(false);
        });
    };
    let spectator_card = move || match view_state.with(state::free_seat) {
        Some(side) => view! {
            <p>{t!(lang, "table-watching-free", side = side.name())}</p>
            <button id="take-seat" on:click=take_a_seat disabled=move || seating_busy.get()>
                {t!(lang, "table-take-seat")}
            </button>
        }
        .into_any(),
        None => view! { <p>{t!(lang, "table-watching")}</p> }.into_any(),
    };
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
    // The visible line counts a grace down; the one a screen reader hears
    // changes only when the server's view does (once per leave or return,
    // not every second of a grace).
    let presence_text = move || view_state.with(|v| state::presence(lang, v, || elapsed.get()));
    let presence_heard = move || view_state.with(|v| state::presence(lang, v, || 0));
    view! {
        <Show when=move || is_online() && !t.seated()>
            <div class="card spectator" id="spectator">{spectator_card}</div>
        </Show>
        <Show when=move || view_state.with(state::waiting_for_opponent) && t.seated()>
            <div class="card share" id="share">
                <h2>{t!(lang, "table-share-title")}</h2>
                <p>{t!(lang, "table-share-text")}</p>
                <input id="share-link" readonly value=share_url aria-label=t!(lang, "table-share-label") />
            </div>
        </Show>
        <p id="presence" class="presence">{presence_text}</p>
        <p id="presence-live" class="sr-only" aria-live="polite">{presence_heard}</p>
    }
}

/// The table's notice (seen, and heard unless the board says it) and the
/// page's last refusal.
#[component]
fn MessagesCard(t: Table) -> impl IntoView {
    let (lang, view_state) = (t.lang, t.view);
    view! {
        <div class="card messages">
            <p id="notice">
                {move || view_state.with(|v| v.notice.as_ref().map(|n| n.text(lang)))}
            </p>
            // Heard once: what the board's announcer already says
            // (a pass, a result, a new round) is left out here.
            <p id="notice-live" class="sr-only" aria-live="polite">
                {move || view_state.with(|v| state::notice_heard(lang, v))}
            </p>
            <p id="message" class="error" role="alert">
                {move || t.message.get()}
            </p>
        </div>
    }
}

/// The AI's search refused (the server's AI queue is full): says so, and
/// lets the player ask again (opening the table asks the AI again).
#[component]
fn AiBusyCard(t: Table) -> impl IntoView {
    let lang = t.lang;
    let (ai_retrying, set_ai_retrying) = signal(false);
    let (ai_retry_note, set_ai_retry_note) = signal(None::<String>);
    let ask_ai_again = move |_| {
        let table = t.id.get_value();
        set_ai_retrying.set(true);
        set_ai_retry_note.set(None);
        leptos::task::spawn_local(async move {
            match get_table(table).await {
                Ok(view) => {
                    let still = view.ai_refused();
                    t.accept(view);
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
    view! {
        <Show when=move || t.view.with(|v| v.ai_refused())>
            <div class="card ai-busy" id="ai-busy" role="alert">
                <h2>{t!(lang, "table-ai-busy-title")}</h2>
                <p>{t!(lang, "table-ai-busy-text")}</p>
                <button id="ai-retry" on:click=ask_ai_again disabled=move || ai_retrying.get()>
                    {t!(lang, "table-ai-busy-retry")}
                </button>
                <p id="ai-retry-note" class="muted" aria-live="polite">{move || ai_retry_note.get()}</p>
            </div>
        </Show>
    }
}

/// Wins and draws across the table's rounds (from the second round on).
#[component]
fn TallyCard(t: Table) -> impl IntoView {
    let (lang, view_state) = (t.lang, t.view);
    view! {
        <div class="card tally" id="tally" hidden=move || view_state.with(|v| v.round <= 1)>
            <h2>{t!(lang, "table-tally")}</h2>
            <p>
                {t!(lang, "table-tally-black")} " " <strong id="tally-black">{move || view_state.with(|v| v.tally.black_wins)}</strong>
                " · " {t!(lang, "table-tally-white")} " " <strong id="tally-white">{move || view_state.with(|v| v.tally.white_wins)}</strong>
                " · " {t!(lang, "table-tally-draws")} " " <strong id="tally-draws">{move || view_state.with(|v| v.tally.draws)}</strong>
            </p>
        </div>
    }
}

/// The move list: every entry shows its position on the board when picked.
#[component]
fn HistoryCard(t: Table) -> impl IntoView {
    let (lang, view_state, review) = (t.lang, t.view, t.review);
    let placed = Signal::derive(move || {
        view_state.with(|v| {
            v.history
                .iter()
                .filter_map(|h| h.square.clone())
                .collect::<Vec<_>>()
        })
    });
    view! {
        <details class="card history">
            <summary>
                {move || t!(lang, "table-moves", count = view_state.with(|v| v.history.len()))}
                " "
                <crate::pages::analysis::OpeningName moves=placed />
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
                            let text = state::history_text(lang, &h);
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
    }
}

/// The analysis board's link to the round: its start and its moves.
fn analysis_link(v: &TableView) -> String {
    let first = v.history.first().map_or(Side::Black, |h| h.side);
    let squares: Vec<String> = v.history.iter().filter_map(|h| h.square.clone()).collect();
    crate::pages::analysis_board::state::game_link(&v.start, first, &squares)
}
