//! The AI lab's game page (docs/PRODUCT.md, The AI lab; the lab's home `/lab` is
//! in `lab_home.rs`): `/lab/:id` shows two engines playing, one step at a time
//! (**Next turn**, key **N**) or with **Autoplay**, an explanation and lesson
//! after every placement, a sidebar of earlier moves, an evaluation graph and
//! exports. Only the game's owner steps it; others watch it follow the owner's
//! steps and may **Make my own copy**. The step and autoplay decisions are the
//! state machine in `crate::lab::autoplay`.
//!
//! (Over 600 lines: the lab game page, its review, move list and autoplay share one set of signals.)
//!

use crate::api::CommandError;
use crate::lab::autoplay::{Controller, Effect, Event, Game, Wait};
use crate::lab::{
    lab_copy, lab_get, lab_next_turn, lab_retry_explanation, lab_wait, ExplanationView, LabStatus,
    LabView,
};
pub use crate::pages::lab_home::LabHomePage;
use crate::pages::lab_home::{provider_line, NewLabForm};
use crate::pages::lab_parts::{
    eval_graph, format_seconds, move_card, play_from_here, reviewed_position,
};
use crate::protocol::Side;
use crate::takeover::MainBoard;
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};
use std::time::Duration;

/// Reading times offered between autoplay moves, in seconds.
const READING_CHOICES: [f64; 4] = [2.0, 5.0, 10.0, 20.0];

/// `/lab/:id`.
#[component]
pub fn LabPage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let params = use_params_map();
    let id = move || params.read().get("id").unwrap_or_default();
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
    id: StoredValue<String>,
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

#[component]
fn LabScreen(initial: LabView) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let query = use_query_map();
    let url_reading = query
        .with_untracked(|q| q.get("reading"))
        .and_then(|r| r.parse::<f64>().ok())
        .filter(|r| r.is_finite() && *r >= 0.0 && *r <= 600.0);
    let lab_id = initial.id.clone();
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
    let (copying, set_copying) = signal(false);
    let copy = move |_| {
        set_copying.set(true);
        ctl.error.set(None);
        leptos::task::spawn_local(async move {
            match lab_copy(ctl.id.get_value()).await {
                Ok(id) => open_lab(&id),
                Err(e) => {
                    let _ = ctl.error.try_set(Some(e.text(ctl.lang)));
                }
            }
            let _ = set_copying.try_set(false);
        });
    };

    #[cfg(feature = "hydrate")]
    {
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
                .is_some_and(|el| {
                    matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA")
                });
            if !typing && yours {
                ev.prevent_default();
                ctl.next();
            }
        });
        on_cleanup(move || handle.remove());
        on_cleanup(move || ctl.pause());
        if !yours {
            // Watchers follow the owner's steps.
            let alive = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
            ctl.watch(alive.clone());
            on_cleanup(move || alive.store(false, std::sync::atomic::Ordering::Relaxed));
        }
    }

    let view_state = ctl.view;
    let snapshot = Signal::derive(move || {
        let v = view_state.get();
        match selected.get() {
            Some(ply) => v
                .moves
                .get(ply as usize - 1)
                .map(|m| m.board.clone())
                .unwrap_or(v.board),
            None => v.board,
        }
    });
    let on_square = Callback::new(|_square: u8| {});
    let shown_move = move || {
        let v = view_state.get();
        match selected.get() {
            Some(ply) => v.moves.get(ply as usize - 1).cloned(),
            None => v.moves.last().cloned(),
        }
    };
    // The position the board shows: an earlier move's under review, else
    // the live one. The score card and the side to move follow it.
    let reviewed = move || view_state.with(|v| reviewed_position(v, selected.get()));
    let black_count =
        move || reviewed().map_or_else(|| view_state.with(|v| v.black_count), |r| r.black);
    let white_count =
        move || reviewed().map_or_else(|| view_state.with(|v| v.white_count), |r| r.white);
    let status_text = move || {
        let v = view_state.get();
        if let Some(r) = reviewed() {
            let depth = match r.to_move {
                Side::Black => v.black_depth,
                Side::White => v.white_depth,
            };
            return t!(
                lang,
                "lab-review-status",
                ply = r.ply,
                status = t!(lang, "lab-to-move", side = r.to_move.name(), depth = depth)
            );
        }
        match v.status {
            LabStatus::Over { winner } => {
                let (b, w) = (v.black_count, v.white_count);
                match winner {
                    Some(Side::Black) => t!(
                        lang,
                        "lab-over-win",
                        side = "Black",
                        score = format!("{b}–{w}")
                    ),
                    Some(Side::White) => t!(
                        lang,
                        "lab-over-win",
                        side = "White",
                        score = format!("{w}–{b}")
                    ),
                    None => t!(lang, "lab-over-draw", score = format!("{b}–{w}")),
                }
            }
            LabStatus::Playing { to_move } => {
                let depth = match to_move {
                    Side::Black => v.black_depth,
                    Side::White => v.white_depth,
                };
                if v.explaining() {
                    t!(lang, "lab-writing")
                } else if ctl.busy() && !v.explanation_failed() {
                    t!(lang, "lab-searching", side = to_move.name(), depth = depth)
                } else {
                    t!(lang, "lab-to-move", side = to_move.name(), depth = depth)
                }
            }
        }
    };
    let status_class = move || match reviewed() {
        Some(r) => r.to_move.key(),
        None => match view_state.with(|v| v.status) {
            LabStatus::Playing { to_move } => to_move.key(),
            LabStatus::Over { .. } => "over",
        },
    };
    let pass_notice = move || {
        let shown = shown_move();
        shown
            .and_then(|m| m.pass_after)
            .map(|s| t!(lang, "lab-pass", side = s.name()))
    };
    let can_next = move || {
        let game = view_state.with(game_of);
        ctl.machine.with(|m| m.can_next(game))
    };
    let frozen = move || {
        let game = view_state.with(game_of);
        ctl.machine.with(|m| m.frozen(game))
    };

    let reading_options = move || {
        let mut choices: Vec<f64> = READING_CHOICES.to_vec();
        if let Some(r) = url_reading {
            if !choices.contains(&r) {
                choices.insert(0, r);
            }
        }
        choices
            .into_iter()
            .map(|c| {
                view! {
                    <option value=c.to_string() selected=move || ctl.reading.get() == c>
                        {format_seconds(c)}
                    </option>
                }
            })
            .collect_view()
    };

    let explanation_card = move || {
        let m = shown_move();
        let is_latest = m
            .as_ref()
            .is_some_and(|m| view_state.with(|v| v.moves.len() as u32 == m.ply));
        let retry = yours.then(|| {
            (
                Callback::new(move |()| ctl.retry()),
                Signal::derive(move || ctl.busy()),
            )
        });
        move_card(m, is_latest, retry)
    };

    let moves_list = move || {
        let v = view_state.get();
        let chosen = selected.get();
        v.moves
            .iter()
            .map(|m| {
                let ply = m.ply;
                let marker = match m.explanation {
                    ExplanationView::Pending => "…",
                    ExplanationView::Ready { .. } => "",
                    ExplanationView::Failed { .. } => "!",
                };
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

    let export_txt = format!("/lab/{lab_id}/export.txt");
    let export_json = format!("/lab/{lab_id}/export.json");
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
                <crate::pages::analysis::OpeningName moves=Signal::derive(move || view_state.with(|v| v.moves.iter().map(|m| m.square.clone()).collect::<Vec<_>>())) />
                <ol id="lab-moves" node_ref=list_ref>{moves_list}</ol>
            </aside>
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
                <div class="card score">
                    <div class="count black-count" id="black-count">
                        <span class="disc black"></span>
                        {black_count}
                    </div>
                    <div class="count white-count" id="white-count">
                        <span class="disc white"></span>
                        {white_count}
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
                {if yours {
                    view! {
                        <div class="card controls">
                            <div class="row">
                                <button
                                    id="next-turn"
                                    on:click=move |_| ctl.next()
                                    disabled=move || selected.get().is_none() && !can_next()
                                    title=move || selected.get().map(|p| t!(lang, "lab-review-next", ply = p))
                                >
                                    {t!(lang, "lab-next-turn")} " " <kbd>"N"</kbd>
                                </button>
                                {move || if ctl.autoplay() {
                                    view! { <button id="pause" class="secondary" on:click=move |_| ctl.pause()>{t!(lang, "lab-pause")}</button> }.into_any()
                                } else {
                                    view! {
                                        <button
                                            id="autoplay"
                                            class="secondary"
                                            on:click=move |_| ctl.start_autoplay()
                                            disabled=move || view_state.with(|v| v.is_over() || v.explanation_failed())
                                        >
                                            {t!(lang, "lab-autoplay")}
                                        </button>
                                    }
                                    .into_any()
                                }}
                            </div>
                            <label>
                                {t!(lang, "lab-reading")}
                                <select
                                    id="reading"
                                    on:change=move |ev| {
                                        if let Ok(r) = event_target_value(&ev).parse::<f64>() {
                                            ctl.reading.set(r);
                                        }
                                    }
                                >
                                    {reading_options}
                                </select>
                            </label>
                            {move || selected.get().map(|p| view! {
                                <p id="review-note" class="muted">{t!(lang, "lab-review-next", ply = p)}</p>
                            })}
                            <p id="autoplay-state" class="muted" data-autoplay=move || ctl.autoplay().to_string()>
                                {move || if frozen() {
                                    t!(lang, "lab-frozen")
                                } else if ctl.autoplay() {
                                    t!(lang, "lab-autoplay-on", reading = format_seconds(ctl.reading.get()))
                                } else {
                                    String::new()
                                }}
                            </p>
                            <p id="lab-error" class="error" role="alert">{move || ctl.error.get()}</p>
                        </div>
                    }
                    .into_any()
                } else {
                    view! {
                        <div class="card controls watching" id="watching">
                            <p>
                                <strong>{t!(lang, "lab-watching")}</strong>
                                " " {t!(lang, "lab-watching-text")}
                            </p>
                            <button id="copy-lab" on:click=copy disabled=move || copying.get()>
                                {t!(lang, "lab-copy")}
                            </button>
                            <p class="muted">{t!(lang, "lab-copy-note")}</p>
                            <p id="lab-error" class="error" role="alert">{move || ctl.error.get()}</p>
                        </div>
                    }
                    .into_any()
                }}
                {explanation_card}
                <div class="card graph">
                    <h2>{t!(lang, "lab-evaluation")}</h2>
                    {move || view_state.with(|v| eval_graph(&v.moves, selected.get()))}
                    <p class="graph-legend">{t!(lang, "lab-graph-legend")}</p>
                </div>
                <crate::pages::analysis::AnalysisPanel kind=crate::protocol::GameKind::Lab id=lab_id.clone() over=Signal::derive(move || view_state.with(|v| v.is_over())) />
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
                <div class="card">
                    <h2>{t!(lang, "lab-another")}</h2>
                    <NewLabForm initial=depths />
                </div>
            </aside>
        </main>
    }
}
