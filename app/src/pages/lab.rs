//! The AI lab's game page (docs/PRODUCT.md, The AI lab; the lab's home `/lab` is
//! in `lab_home.rs`): `/lab/:id` shows two engines playing, one step at a time
//! (**Next turn**, key **N**) or with **Autoplay**, an explanation and lesson
//! after every placement, a sidebar of earlier moves, an evaluation graph and
//! exports. Only the game's owner steps it; others watch it follow the owner's
//! steps and may **Make my own copy**. The step and autoplay decisions are the
//! state machine in `crate::lab::autoplay`; what the page shows (the board,
//! the status line, the move under review) is decided in `lab/state.rs`.

mod controls;
mod state;

use crate::api::CommandError;
use crate::lab::autoplay::{Controller, Effect, Event, Game, Wait};
use crate::lab::{lab_get, lab_next_turn, lab_retry_explanation, lab_wait, LabStatus, LabView};
pub use crate::pages::lab_home::LabHomePage;
use crate::pages::lab_home::{provider_line, NewLabForm};
use crate::pages::lab_parts::{eval_graph, move_card, play_from_here};
use crate::takeover::MainBoard;
use controls::{LabControls, LabWatching};
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};
use std::time::Duration;

/// `/lab/:id`.
#[component]
pub fn LabPage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let params = use_params_map();
    let id = move || crate::protocol::LabId::new(params.read().get("id").unwrap_or_default());
    let loaded = Resource::new(id, lab_get);
    view! {
        <Suspense fallback=move || view! { <main class="page"><p>{t!(lang, "lab-loading")}</p></main> }>
            {move || Suspend::new(async move {
                let Some(loaded) = super::settled(loaded).await else { return ().into_any() };
                match loaded {
                    Ok(view) => view! { <LabScreen initial=view /> }.into_any(),
                    Err(error) => view! {
                        <crate::pages::LoadFailed
                            title=t!(lang, "lab-not-found")
                            error=error
                            back_href="/lab"
                            back_label=t!(lang, "lab-back")
                        />
                    }
                    .into_any(),
                }
            })}
        </Suspense>
    }
}

/// The page's moving parts, all `Copy`, so plain functions can drive them.
/// The decisions (when to step, wait, freeze or stop) are the
/// [`Controller`]'s; this carries out its effects.
#[derive(Clone, Copy)]
struct Ctl {
    id: StoredValue<crate::protocol::LabId>,
    view: RwSignal<LabView>,
    machine: RwSignal<Controller>,
    reading: RwSignal<f64>,
    /// The page's last refusal, in the page's language.
    error: RwSignal<Option<String>>,
    /// The earlier move under review (`None`: the live game).
    selected: RwSignal<Option<u32>>,
    lang: crate::i18n::Lang,
}

/// What the controller needs to know about a lab game.
fn game_of(view: &LabView) -> Game {
    Game {
        over: view.is_over(),
        failed: view.explanation_failed(),
        can_step: view.can_step(),
    }
}

impl Ctl {
    fn accept(self, incoming: LabView) {
        self.view.try_update(|current| {
            if incoming.moves.len() >= current.moves.len() {
                *current = incoming;
            }
        });
    }

    fn game(self) -> Game {
        self.view.try_with_untracked(game_of).unwrap_or_default()
    }

    fn busy(self) -> bool {
        self.machine.with(|m| m.busy())
    }

    fn autoplay(self) -> bool {
        self.machine.with(|m| m.autoplay())
    }

    /// Hands an event to the controller and carries out what it answers.
    fn send(self, event: Event) {
        let effects = self
            .machine
            .try_update(|m| m.handle(event))
            .unwrap_or_default();
        for effect in effects {
            self.run(effect);
        }
    }

    fn run(self, effect: Effect) {
        match effect {
            Effect::ClearError => {
                let _ = self.error.try_set(None);
            }
            Effect::ShowError(message) => {
                let _ = self.error.try_set(Some(message));
            }
            Effect::Step => leptos::task::spawn_local(async move {
                let result = self.step().await;
                self.finish(result);
            }),
            Effect::RetryExplanation => leptos::task::spawn_local(async move {
                let result = match lab_retry_explanation(self.id.get_value()).await {
                    Ok(view) => {
                        self.accept(view.clone());
                        self.settle(view).await
                    }
                    Err(e) => Err(e),
                };
                self.finish(result);
            }),
            Effect::Schedule { run, wait } => {
                let tick = move || {
                    self.send(Event::Tick {
                        run,
                        game: self.game(),
                    })
                };
                match wait {
                    Wait::Now => tick(),
                    Wait::Reading => set_timeout(tick, self.reading_time()),
                    Wait::Poll => set_timeout(tick, Duration::from_millis(200)),
                }
            }
        }
    }

    fn finish(self, result: Result<LabView, CommandError>) {
        match result {
            Ok(view) => self.send(Event::Done(game_of(&view))),
            Err(e) => self.send(Event::Failed(e.text(self.lang))),
        }
    }

    /// Waits until the latest explanation is written (or failed).
    async fn settle(self, mut view: LabView) -> Result<LabView, CommandError> {
        while view.explaining() {
            view = lab_wait(self.id.get_value(), view.version).await?;
            self.accept(view.clone());
        }
        Ok(view)
    }

    /// One Next turn: place a disc, then wait for its explanation.
    async fn step(self) -> Result<LabView, CommandError> {
        let current = self.view.get_untracked();
        if current.explaining() {
            return self.settle(current).await;
        }
        let view = lab_next_turn(self.id.get_value()).await?;
        self.accept(view.clone());
        self.settle(view).await
    }

    /// Next turn from the button or the N key. While an earlier move is
    /// under review it only brings back the live game, so that no move is
    /// played where the viewer cannot see it; the next press plays.
    fn next(self) {
        if self.back_to_live() {
            return;
        }
        self.send(Event::Next(self.game()));
    }

    /// Autoplay plays the live game: it leaves a review first.
    fn start_autoplay(self) {
        self.back_to_live();
        self.send(Event::Start(self.game()));
    }

    /// Leaves the review of an earlier move, if any; says whether it did.
    fn back_to_live(self) -> bool {
        let reviewing = self.selected.get_untracked().is_some();
        if reviewing {
            self.selected.set(None);
        }
        reviewing
    }

    fn pause(self) {
        self.send(Event::Pause);
    }

    fn retry(self) {
        self.send(Event::Retry);
    }

    fn reading_time(self) -> Duration {
        Duration::from_millis((self.reading.get_untracked() * 1000.0).max(0.0) as u64)
    }

    /// For a watcher: follows the game as its owner steps it, until the page
    /// goes (`alive` turns false).
    #[cfg(feature = "hydrate")]
    fn watch(self, alive: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        use std::sync::atomic::Ordering::Relaxed;
        leptos::task::spawn_local(async move {
            while alive.load(Relaxed) {
                let Some(since) = self.view.try_with_untracked(|v| v.version) else {
                    break;
                };
                let Some(id) = self.id.try_get_value() else {
                    break;
                };
                // The game gone or the network down: stop following (a
                // reload starts again).
                let Ok(view) = lab_wait(id, since).await else {
                    break;
                };
                if !alive.load(Relaxed) {
                    break;
                }
                self.accept(view);
            }
        });
    }
}

/// Opens a lab game with a full page load: the copy is another game, with the
/// owner's controls, so nothing of the watched page is kept.
fn open_lab(id: &str) {
    #[cfg(feature = "hydrate")]
    if let Some(window) = web_sys::window() {
        let _ = window.location().assign(&format!("/lab/{id}"));
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = id;
}

/// The N key plays the next turn (the owner's), except while typing.
#[cfg(feature = "hydrate")]
fn next_on_n_key(ctl: Ctl, yours: bool) {
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        if !ev.key().eq_ignore_ascii_case("n") {
            return;
        }
        use wasm_bindgen::JsCast;
        let typing = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
        if !typing && yours {
            ev.prevent_default();
            ctl.next();
        }
    });
    on_cleanup(move || handle.remove());
}

#[component]
fn LabScreen(initial: LabView) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let query = use_query_map();
    let url_reading = query.with_untracked(|q| state::url_reading(q.get("reading").as_deref()));
    let lab_id = initial.id.clone();
    // The game the analysis board's link names for its review's marks.
    let review_id = StoredValue::new(lab_id.to_string());
    let ctl = Ctl {
        id: StoredValue::new(lab_id.clone()),
        view: RwSignal::new(initial.clone()),
        machine: RwSignal::new(Controller::new()),
        reading: RwSignal::new(url_reading.unwrap_or(5.0)),
        error: RwSignal::new(None),
        selected: RwSignal::new(None),
        lang,
    };
    let selected = ctl.selected;
    let yours = initial.yours;

    #[cfg(feature = "hydrate")]
    {
        next_on_n_key(ctl, yours);
        on_cleanup(move || ctl.pause());
        if !yours {
            // Watchers follow the owner's steps.
            let alive = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
            ctl.watch(alive.clone());
            on_cleanup(move || alive.store(false, std::sync::atomic::Ordering::Relaxed));
        }
    }

    let view_state = ctl.view;
    let snapshot =
        Signal::derive(move || view_state.with(|v| state::shown_board(v, selected.get())));
    let on_square = Callback::new(|_square: u8| {});
    let explanation_card = move || {
        let m = view_state.with(|v| state::shown_move(v, selected.get()));
        let is_latest = view_state.with(|v| state::is_latest(v, m.as_ref()));
        let retry = yours.then(|| {
            (
                Callback::new(move |()| ctl.retry()),
                Signal::derive(move || ctl.busy()),
            )
        });
        move_card(m, is_latest, retry)
    };
    let depths = (initial.black_depth, initial.white_depth);

    view! {
        <main class="lab-page">
            <header class="topbar">
                <h1><a href="/">{t!(lang, "site-title")}</a></h1>
                <a class="mode" href="/lab">{t!(lang, "lobby-lab-title")}</a>
                <span class="mode" id="lab-depths">
                    {t!(lang, "lab-depths", black = depths.0, white = depths.1)}
                </span>
                <crate::i18n::LangSwitch />
            </header>
            <LabMoves ctl />
            <section class="lab-board">
                <MainBoard snapshot on_square />
                {move || selected.get().map(|p| view! {
                    <p class="review-banner" id="review-banner">
                        {t!(lang, "lab-reviewing", ply = p)}
                        <button class="secondary small" on:click=move |_| selected.set(None)>{t!(lang, "lab-back-live")}</button>
                    </p>
                })}
            </section>
            <aside class="lab-hud">
                <LabScore ctl />
                {if yours {
                    view! { <LabControls ctl url_reading /> }.into_any()
                } else {
                    view! { <LabWatching ctl /> }.into_any()
                }}
                {explanation_card}
                <div class="card graph">
                    <h2>{t!(lang, "lab-evaluation")}</h2>
                    {move || view_state.with(|v| eval_graph(&v.moves, selected.get()))}
                    <p class="graph-legend">{t!(lang, "lab-graph-legend")}</p>
                </div>
                <crate::pages::analysis::AnalysisPanel kind=crate::protocol::GameKind::Lab id=lab_id.to_string() over=Signal::derive(move || view_state.with(|v| v.is_over()))
                    open=Signal::derive(move || view_state.with(|v| {
                        let squares: Vec<String> = v.moves.iter().map(|m| m.square.clone()).collect();
                        let link = crate::pages::analysis_board::state::game_link(&[], crate::protocol::Side::Black, &squares);
                        crate::pages::analysis_board::state::with_review(link, crate::protocol::GameKind::Lab, &review_id.get_value())
                    })) />
                <LabExports ctl />
                <div class="card">
                    <h2>{t!(lang, "lab-another")}</h2>
                    <NewLabForm initial=depths />
                </div>
            </aside>
        </main>
    }
}

/// The sidebar of earlier moves: a click reviews one, "Live" comes back.
#[component]
fn LabMoves(ctl: Ctl) -> impl IntoView {
    let (lang, view_state, selected) = (ctl.lang, ctl.view, ctl.selected);
    let moves_list = move || {
        let v = view_state.get();
        let chosen = selected.get();
        v.moves
            .iter()
            .map(|m| {
                let ply = m.ply;
                let marker = state::explanation_flag(&m.explanation);
                let side = crate::i18n::side_name(lang, m.side);
                let number = format!("{}.", m.ply);
                let square = m.square.clone();
                let mark = m.square.clone();
                let captured = t!(lang, "lab-move-flips", count = m.flipped.len());
                view! {
                    <li>
                        <button
                            class=format!("lab-move {}", m.side.key())
                            class:selected=chosen == Some(ply)
                            data-ply=ply.to_string()
                            data-mark=mark
                            on:click=move |_| selected.set(Some(ply))
                        >
                            <span class="dot"></span>
                            <span class="name">
                                <span class="ply">{number}</span>
                                " "
                                <span class="side">{side}</span>
                                " "
                                <span class="square">{square}</span>
                            </span>
                            <span class="captured">{captured}</span>
                            <span class="flag">{marker}</span>
                        </button>
                    </li>
                }
            })
            .collect_view()
    };
    // The list follows the live game: its latest move stays in sight (the
    // list scrolls, down on a wide screen, sideways on a phone).
    let list_ref = NodeRef::<leptos::html::Ol>::new();
    #[cfg(feature = "hydrate")]
    leptos::prelude::Effect::new(move |_| {
        let count = view_state.with(|v| v.moves.len());
        if selected.get().is_some() || count == 0 {
            return;
        }
        if let Some(list) = list_ref.get() {
            list.set_scroll_top(list.scroll_height());
            list.set_scroll_left(list.scroll_width());
        }
    });
    let squares = Signal::derive(move || {
        view_state.with(|v| v.moves.iter().map(|m| m.square.clone()).collect::<Vec<_>>())
    });
    view! {
        <aside class="lab-moves card">
            <div class="lab-moves-head">
                <h2>{t!(lang, "lab-moves")}</h2>
                <button
                    class="secondary small"
                    id="live"
                    on:click=move |_| selected.set(None)
                    disabled=move || selected.get().is_none()
                >
                    {t!(lang, "lab-live")}
                </button>
            </div>
            <crate::pages::analysis::OpeningName moves=squares />
            <ol id="lab-moves" node_ref=list_ref>{moves_list}</ol>
        </aside>
    }
}

/// The score and status of the position shown, and its pass notice.
#[component]
fn LabScore(ctl: Ctl) -> impl IntoView {
    let (lang, view_state, selected) = (ctl.lang, ctl.view, ctl.selected);
    let counts = move || view_state.with(|v| state::shown_counts(v, selected.get()));
    let status_text = move || {
        let busy = ctl.busy();
        view_state.with(|v| state::status_text(lang, v, selected.get(), busy))
    };
    let status_class = move || view_state.with(|v| state::status_class(v, selected.get()));
    let pass_notice = move || view_state.with(|v| state::pass_notice(lang, v, selected.get()));
    view! {
        <div class="card score">
            <div class="count black-count" id="black-count">
                <span class="disc black"></span>
                {move || counts().0}
            </div>
            <div class="count white-count" id="white-count">
                <span class="disc white"></span>
                {move || counts().1}
            </div>
            <p
                id="lab-status"
                class=move || format!("turn {}", status_class())
                data-reviewing=move || selected.get().map(|p| p.to_string())
            >
                {status_text}
            </p>
            <p id="pass-notice" class="notice">{pass_notice}</p>
        </div>
    }
}

/// Who writes the explanations, the exports and "play from here".
#[component]
fn LabExports(ctl: Ctl) -> impl IntoView {
    let (lang, view_state) = (ctl.lang, ctl.view);
    let lab_id = ctl.id.get_value();
    let export_txt = format!("/lab/{lab_id}/export.txt");
    let export_json = format!("/lab/{lab_id}/export.json");
    view! {
        <div class="card">
            {move || provider_line(view_state.with(|v| v.provider.clone()))}
            <div class="row exports">
                <a class="button secondary" id="export-txt" href=export_txt.clone() download>{t!(lang, "lab-export-text")}</a>
                <a class="button secondary" id="export-json" href=export_json.clone() download>{t!(lang, "lab-export-json")}</a>
                <Show when=move || view_state.with(|v| matches!(v.status, LabStatus::Playing { .. }))>
                    <a
                        class="button secondary"
                        id="play-from-here"
                        href=move || view_state.with(|v| play_from_here(&v.board.cells, v.status))
                        title=t!(lang, "lab-play-from-title")
                    >
                        {t!(lang, "lab-play-from")}
                    </a>
                </Show>
            </div>
        </div>
    }
}
