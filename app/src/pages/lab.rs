//! The AI lab pages (docs/PRODUCT.md, The AI lab): `/lab` lists lab games and starts new ones;
//! `/lab/:id` shows two engines playing, one step at a time (**Next turn**,
//! key **N**) or with **Autoplay**, an explanation and lesson after every
//! placement, a sidebar of earlier moves, an evaluation graph and exports.

use crate::api::CommandError;
use crate::board::Board3D;
use crate::lab::{
    lab_create, lab_get, lab_list, lab_next_turn, lab_provider, lab_retry_explanation, lab_wait,
    ExplanationView, LabMoveView, LabStatus, LabView, ProviderStatus, LAB_DEPTHS,
};
use crate::protocol::Side;
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_params_map, use_query_map};
use std::time::Duration;

/// Reading times offered between autoplay moves, in seconds.
const READING_CHOICES: [f64; 4] = [2.0, 5.0, 10.0, 20.0];

fn side_class(side: Side) -> &'static str {
    match side {
        Side::Black => "black",
        Side::White => "white",
    }
}

/// Depth pickers and the button that starts a lab game.
#[component]
fn NewLabForm(#[prop(optional)] initial: Option<(u8, u8)>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let (black, white) = initial.unwrap_or((3, 2));
    let black_depth = RwSignal::new(black);
    let white_depth = RwSignal::new(white);
    let (error, set_error) = signal(None::<String>);
    let (busy, set_busy) = signal(false);
    let navigate = use_navigate();
    let start = move |_| {
        let navigate = navigate.clone();
        set_busy.set(true);
        set_error.set(None);
        leptos::task::spawn_local(async move {
            match lab_create(black_depth.get_untracked(), white_depth.get_untracked()).await {
                Ok(id) => navigate(&format!("/lab/{id}"), Default::default()),
                Err(e) => set_error.set(Some(e.message)),
            }
            set_busy.set(false);
        });
    };
    let picker = move |id: &'static str, label: String, depth: RwSignal<u8>| {
        view! {
            <label>
                {label}
                <select
                    id=id
                    on:change=move |ev| {
                        if let Ok(d) = event_target_value(&ev).parse::<u8>() {
                            depth.set(d.clamp(*LAB_DEPTHS.start(), *LAB_DEPTHS.end()));
                        }
                    }
                >
                    {LAB_DEPTHS
                        .map(|d| {
                            view! {
                                <option value=d.to_string() selected=move || depth.get() == d>
                                    {d.to_string()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
        }
    };
    view! {
        <div class="lab-new">
            <div class="row">
                {picker("black-depth", t!(lang, "lab-black-depth"), black_depth)}
                {picker("white-depth", t!(lang, "lab-white-depth"), white_depth)}
            </div>
            <button id="new-lab" on:click=start disabled=move || busy.get()>
                {t!(lang, "lab-new-game")}
            </button>
            <p class="error" role="alert">{move || error.get().map(|e| crate::i18n::localize(lang, &e))}</p>
        </div>
    }
}

fn provider_line(provider: ProviderStatus) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let class = if provider.ready {
        "provider-status ready"
    } else {
        "provider-status not-ready"
    };
    view! {
        <p id="provider-status" class=class data-kind=provider.kind.clone() data-ready=provider.ready.to_string()>
            <strong>{crate::i18n::localize(lang, &provider.name)}</strong>
            {if provider.ready { t!(lang, "lab-provider-ready") } else { t!(lang, "lab-provider-not-ready") }}
            <span class="detail">{crate::i18n::localize(lang, &provider.detail)}</span>
        </p>
    }
}

/// `/lab`: start a lab game or open one.
#[component]
pub fn LabHomePage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let games = Resource::new(|| (), |_| lab_list());
    let provider = Resource::new(|| (), |_| lab_provider());
    view! {
        <main class="lab-home page">
            <header class="topbar">
                <h1><a href="/">{t!(lang, "site-title")}</a></h1>
                <span class="mode">{t!(lang, "lobby-lab-title")}</span>
                <crate::i18n::LangSwitch />
            </header>
            <div class="card">
                <h2>{t!(lang, "lobby-lab-title")}</h2>
                <p>{t!(lang, "lab-intro")}</p>
                <NewLabForm />
            </div>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    provider.await.ok().map(|p| view! { <div class="card">{provider_line(p)}</div> })
                })}
            </Suspense>
            <div class="card">
                <h2>{t!(lang, "lab-games")}</h2>
                <Suspense fallback=move || view! { <p>{t!(lang, "offline-loading")}</p> }>
                    {move || Suspend::new(async move {
                        match games.await {
                            Ok(list) if list.is_empty() => view! { <p id="lab-empty">{t!(lang, "lab-none")}</p> }.into_any(),
                            Ok(list) => view! {
                                <ul id="lab-games" class="lab-games">
                                    {list
                                        .into_iter()
                                        .map(|g| {
                                            let text = t!(
                                                lang,
                                                "lab-game-line",
                                                black = g.black_depth,
                                                white = g.white_depth,
                                                plies = g.plies,
                                                score = format!("{}–{}", g.black_count, g.white_count),
                                                over = if g.over { "yes" } else { "no" },
                                            );
                                            view! { <li><a href=format!("/lab/{}", g.id)>{text}</a></li> }
                                        })
                                        .collect_view()}
                                </ul>
                            }
                            .into_any(),
                            Err(e) => view! { <p class="error">{crate::i18n::localize(lang, &e.message)}</p> }.into_any(),
                        }
                    })}
                </Suspense>
            </div>
        </main>
    }
}

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
                match loaded.await {
                    Ok(view) => view! { <LabScreen initial=view /> }.into_any(),
                    Err(error) => view! {
                        <crate::pages::LoadFailed
                            title=t!(lang, "lab-not-found")
                            message=error.message
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
#[derive(Clone, Copy)]
struct Ctl {
    id: StoredValue<String>,
    view: RwSignal<LabView>,
    busy: RwSignal<bool>,
    autoplay: RwSignal<bool>,
    /// Autoplay generation: a pause or a restart invalidates pending timers.
    run: RwSignal<u64>,
    reading: RwSignal<f64>,
    error: RwSignal<Option<String>>,
}

impl Ctl {
    fn accept(self, incoming: LabView) {
        self.view.update(|current| {
            if incoming.moves.len() >= current.moves.len() {
                *current = incoming;
            }
        });
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

    /// Next turn from the button or the N key.
    fn next(self) {
        if self.busy.get_untracked() || self.autoplay.get_untracked() {
            return;
        }
        if !self.view.with_untracked(|v| v.can_step()) {
            return;
        }
        self.busy.set(true);
        self.error.set(None);
        leptos::task::spawn_local(async move {
            if let Err(e) = self.step().await {
                self.error.set(Some(e.message));
            }
            self.busy.set(false);
        });
    }

    fn reading_time(self) -> Duration {
        Duration::from_millis((self.reading.get_untracked() * 1000.0).max(0.0) as u64)
    }

    /// One autoplay step, then the reading time, then the next.
    fn tick(self, generation: u64) {
        if !self.autoplay.get_untracked() || self.run.get_untracked() != generation {
            return;
        }
        let current = self.view.get_untracked();
        if current.is_over() || current.explanation_failed() {
            if current.is_over() {
                self.autoplay.set(false);
            }
            return;
        }
        if self.busy.get_untracked() {
            // A manual step is in flight: look again shortly.
            set_timeout(move || self.tick(generation), Duration::from_millis(200));
            return;
        }
        self.busy.set(true);
        self.error.set(None);
        leptos::task::spawn_local(async move {
            let result = self.step().await;
            self.busy.set(false);
            match result {
                Ok(view) if view.is_over() => self.autoplay.set(false),
                // Frozen: the page shows the failure and Retry explanation.
                Ok(view) if view.explanation_failed() => {}
                Ok(_) => set_timeout(move || self.tick(generation), self.reading_time()),
                Err(e) => {
                    self.error.set(Some(e.message));
                    self.autoplay.set(false);
                }
            }
        });
    }

    fn start_autoplay(self) {
        self.run.update(|r| *r += 1);
        self.autoplay.set(true);
        self.tick(self.run.get_untracked());
    }

    fn pause(self) {
        self.run.update(|r| *r += 1);
        self.autoplay.set(false);
    }

    fn retry(self) {
        if self.busy.get_untracked() {
            return;
        }
        self.busy.set(true);
        self.error.set(None);
        leptos::task::spawn_local(async move {
            let result = match lab_retry_explanation(self.id.get_value()).await {
                Ok(view) => {
                    self.accept(view.clone());
                    self.settle(view).await
                }
                Err(e) => Err(e),
            };
            self.busy.set(false);
            match result {
                Ok(view) if !view.explanation_failed() && self.autoplay.get_untracked() => {
                    // Autoplay was frozen on the failure: it goes on.
                    let generation = self.run.get_untracked();
                    set_timeout(move || self.tick(generation), self.reading_time());
                }
                Ok(_) => {}
                Err(e) => self.error.set(Some(e.message)),
            }
        });
    }
}

fn format_seconds(seconds: f64) -> String {
    if seconds.fract() == 0.0 {
        format!("{seconds:.0} s")
    } else {
        format!("{seconds} s")
    }
}

/// The evaluation graph: each move's search value from black's side.
fn eval_graph(moves: &[LabMoveView], selected: Option<u32>) -> impl IntoView {
    const W: f64 = 300.0;
    const H: f64 = 110.0;
    const CAP: f64 = 300.0;
    let n = moves.len();
    let x = move |i: usize| {
        6.0 + (W - 12.0)
            * if n > 1 {
                i as f64 / (n - 1) as f64
            } else {
                0.5
            }
    };
    let y = |v: i32| H / 2.0 - (f64::from(v).clamp(-CAP, CAP) / CAP) * (H / 2.0 - 6.0);
    let points: String = moves
        .iter()
        .enumerate()
        .map(|(i, m)| format!("{:.1},{:.1}", x(i), y(m.value_black)))
        .collect::<Vec<_>>()
        .join(" ");
    let marker = selected
        .and_then(|p| moves.get(p as usize - 1).map(|m| (p as usize - 1, m.value_black)))
        .or_else(|| moves.last().map(|m| (n - 1, m.value_black)))
        .map(|(i, v)| view! { <circle class="eval-marker" cx=format!("{:.1}", x(i)) cy=format!("{:.1}", y(v)) r="4"></circle> });
    view! {
        <svg
            id="eval-graph"
            class="eval-graph"
            viewBox=format!("0 0 {W} {H}")
            preserveAspectRatio="none"
            role="img"
            aria-label=t!(crate::i18n::use_lang(), "lab-graph-label")
            data-points=n.to_string()
        >
            <rect class="eval-black-zone" x="0" y="0" width=W.to_string() height=(H / 2.0).to_string()></rect>
            <line class="eval-zero" x1="0" y1=(H / 2.0).to_string() x2=W.to_string() y2=(H / 2.0).to_string()></line>
            <polyline class="eval-line" points=points></polyline>
            {marker}
        </svg>
    }
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
        busy: RwSignal::new(false),
        autoplay: RwSignal::new(false),
        run: RwSignal::new(0),
        reading: RwSignal::new(url_reading.unwrap_or(5.0)),
        error: RwSignal::new(None),
    };
    let selected = RwSignal::new(None::<u32>);

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
            if !typing {
                ev.prevent_default();
                ctl.next();
            }
        });
        on_cleanup(move || handle.remove());
        on_cleanup(move || ctl.pause());
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
    let status_text = move || {
        let v = view_state.get();
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
                } else if ctl.busy.get() && !v.explanation_failed() {
                    t!(lang, "lab-searching", side = to_move.name(), depth = depth)
                } else {
                    t!(lang, "lab-to-move", side = to_move.name(), depth = depth)
                }
            }
        }
    };
    let status_class = move || match view_state.with(|v| v.status) {
        LabStatus::Playing { to_move } => side_class(to_move),
        LabStatus::Over { .. } => "over",
    };
    let pass_notice = move || {
        view_state.with(|v| {
            v.last_move()
                .and_then(|m| m.pass_after)
                .map(|s| t!(lang, "lab-pass", side = s.name()))
        })
    };
    let can_next =
        move || view_state.with(|v| v.can_step()) && !ctl.busy.get() && !ctl.autoplay.get();
    let frozen = move || ctl.autoplay.get() && view_state.with(|v| v.explanation_failed());

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
        let Some(m) = shown_move() else {
            return view! {
                <div class="card explanation" id="explanation-card" data-state="none">
                    <h2>{t!(lang, "lab-explanations")}</h2>
                    <p>{t!(lang, "lab-explanations-intro")}</p>
                </div>
            }
            .into_any();
        };
        let heading = t!(
            lang,
            "lab-move-heading",
            ply = m.ply,
            side = crate::i18n::side_name(lang, m.side),
            square = &m.square,
            captured = m.flipped.len()
        );
        let search = t!(
            lang,
            "lab-search-facts",
            depth = m.depth,
            value = format!("{:+}", m.value),
            nodes = m.nodes,
            alternatives = m.alternatives
        );
        let exact = m.exact.map(|e| match (e.exact, e.played, e.best) {
            (true, Some(played), Some(best)) => {
                let words = |d: i32| match d.cmp(&0) {
                    std::cmp::Ordering::Greater => t!(lang, "explain-result-wins", by = d),
                    std::cmp::Ordering::Less => t!(lang, "explain-result-loses", by = -d),
                    std::cmp::Ordering::Equal => t!(lang, "explain-result-draws"),
                };
                let mut text = t!(lang, "lab-exact", result = words(played));
                if best > played {
                    text.push_str(&t!(lang, "lab-exact-best", result = words(best)));
                }
                view! { <p class="search-facts exact-facts" id="exact-facts" data-exact="true">{text}</p> }
                    .into_any()
            }
            _ => view! {
                <p class="search-facts exact-facts" id="exact-facts" data-exact="false">
                    {t!(lang, "lab-estimate")}
                </p>
            }
            .into_any(),
        });
        let is_latest = view_state.with(|v| v.moves.len() as u32 == m.ply);
        let body = match m.explanation.clone() {
            ExplanationView::Pending => view! {
                <p class="pending" id="explanation-pending">{t!(lang, "lab-writing")}</p>
            }
            .into_any(),
            ExplanationView::Ready { explanation, lesson, provider, unverified } => view! {
                {(!unverified.is_empty()).then(|| view! {
                    <p id="unverified" class="unverified" data-squares=unverified.join(" ")>
                        <strong>{t!(lang, "lab-unverified")} " "</strong>
                        {t!(lang, "lab-unverified-text", squares = unverified.join(", "))}
                    </p>
                })}
                <p id="explanation" class="explanation-text">{explanation}</p>
                <p id="lesson" class="lesson"><strong>{t!(lang, "lab-lesson")} " "</strong>{lesson}</p>
                <p id="explained-by" class="provider">{t!(lang, "lab-written-by")} " " {crate::i18n::localize(lang, &provider)}</p>
            }
            .into_any(),
            ExplanationView::Failed { message } => view! {
                <p id="explain-error" class="error" role="alert">
                    {t!(lang, "lab-explain-failed")} " " {crate::i18n::localize(lang, &message)}
                </p>
                {is_latest.then(|| view! {
                    <button id="retry" on:click=move |_| ctl.retry() disabled=move || ctl.busy.get()>
                        {t!(lang, "lab-retry")}
                    </button>
                })}
            }
            .into_any(),
        };
        let state = match &m.explanation {
            ExplanationView::Pending => "pending",
            ExplanationView::Ready { .. } => "ready",
            ExplanationView::Failed { .. } => "failed",
        };
        view! {
            <div class="card explanation" id="explanation-card" data-state=state data-ply=m.ply.to_string()>
                <h2 class=format!("move-heading {}", side_class(m.side))>{heading}</h2>
                <p class="search-facts">{search}</p>
                {exact}
                {body}
            </div>
        }
        .into_any()
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
                let text = format!(
                    "{}. {} {}",
                    m.ply,
                    crate::i18n::side_name(lang, m.side),
                    m.square
                );
                let captured = format!("+{}", m.flipped.len());
                view! {
                    <li>
                        <button
                            class=format!("lab-move {}", side_class(m.side))
                            class:selected=chosen == Some(ply)
                            data-ply=ply.to_string()
                            on:click=move |_| selected.set(Some(ply))
                        >
                            <span class="dot"></span>
                            <span class="name">{text}</span>
                            <span class="captured">{captured}</span>
                            <span class="flag">{marker}</span>
                        </button>
                    </li>
                }
            })
            .collect_view()
    };

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
                <ol id="lab-moves">{moves_list}</ol>
            </aside>
            <section class="lab-board">
                <Board3D snapshot on_square />
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
                        {move || view_state.with(|v| v.black_count)}
                    </div>
                    <div class="count white-count" id="white-count">
                        <span class="disc white"></span>
                        {move || view_state.with(|v| v.white_count)}
                    </div>
                    <p id="lab-status" class=move || format!("turn {}", status_class())>{status_text}</p>
                    <p id="pass-notice" class="notice">{pass_notice}</p>
                </div>
                <div class="card controls">
                    <div class="row">
                        <button id="next-turn" on:click=move |_| ctl.next() disabled=move || !can_next()>
                            {t!(lang, "lab-next-turn")} " " <kbd>"N"</kbd>
                        </button>
                        {move || if ctl.autoplay.get() {
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
                    <p id="autoplay-state" class="muted" data-autoplay=move || ctl.autoplay.get().to_string()>
                        {move || if frozen() {
                            t!(lang, "lab-frozen")
                        } else if ctl.autoplay.get() {
                            t!(lang, "lab-autoplay-on", reading = format_seconds(ctl.reading.get()))
                        } else {
                            String::new()
                        }}
                    </p>
                    <p id="lab-error" class="error" role="alert">{move || ctl.error.get().map(|e| crate::i18n::localize(lang, &e))}</p>
                </div>
                {explanation_card}
                <div class="card graph">
                    <h2>{t!(lang, "lab-evaluation")}</h2>
                    {move || view_state.with(|v| eval_graph(&v.moves, selected.get()))}
                    <p class="graph-legend">{t!(lang, "lab-graph-legend")}</p>
                </div>
                <crate::pages::analysis::AnalysisPanel kind="lab" id=lab_id.clone() over=Signal::derive(move || view_state.with(|v| v.is_over())) />
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

/// The lobby's "start from a position" link for the lab's current position:
/// `/?from=` and the position in OBF (64 cells a1…h8, a space, the side to move).
fn play_from_here(cells: &[i8], status: LabStatus) -> String {
    let to_move = match status {
        LabStatus::Playing {
            to_move: Side::White,
        } => 'O',
        _ => 'X',
    };
    let board: String = cells
        .iter()
        .map(|&c| match c {
            1 => 'X',
            -1 => 'O',
            _ => '-',
        })
        .collect();
    format!("/?from={board}%20{to_move}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_from_here_links_the_lobby_with_the_position_in_obf() {
        let mut cells = vec![0i8; 64];
        cells[27] = -1; // d4
        cells[28] = 1; // e4
        cells[35] = 1; // d5
        cells[36] = -1; // e5
        let href = play_from_here(
            &cells,
            LabStatus::Playing {
                to_move: Side::White,
            },
        );
        let obf = href.strip_prefix("/?from=").expect("lobby link");
        let (board, side) = obf.split_once("%20").expect("side after a space");
        assert_eq!(board.len(), 64);
        assert_eq!(&board[27..29], "OX");
        assert_eq!(&board[35..37], "XO");
        assert_eq!(board.matches('-').count(), 60);
        assert_eq!(side, "O");
    }
}
