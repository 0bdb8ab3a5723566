//! `/puzzles`: positions where one move is clearly best, on the main board.
//! (Over 600 lines: the page's pure state, its four components and their
//! tests stay together; the last 140 lines are tests.)
//!
//! A puzzle near the player's puzzle rating (or of a theme, the puzzle of
//! the day with `?daily`, one by id with `?id=`, or a streak's next); a click
//! or Enter on a square plays a move, which the server judges at once (right,
//! wrong, or right with more to find: the opponent's reply is played on the
//! board). Once over, the solution is played on the board from the start
//! (where every legal move's value is written, the best marked), ending on
//! its last position, and again on demand; the themes, the solution and the
//! best line are shown (the themes only then: they give the answer away).
//! The address bar shows `/puzzles/<id>`. The page's state is [`Run`], pure and
//! tested below; the components draw it.

use crate::i18n::Lang;
use crate::pages::hint::{board_labels, disc_text};
use crate::protocol::{flips, square_name, BoardSnapshot, Side};
use crate::puzzles::{
    puzzle, puzzle_history, puzzle_move, PuzzleChoice, PuzzleStep, PuzzleView, StepOutcome, Theme,
    Unrated,
};
use crate::worker::MoveValue;
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};

/// Where a puzzle stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The player's move.
    Solving,
    /// A move sent, the server's answer awaited.
    Waiting,
    /// Over: every move found, or a wrong one.
    Over { solved: bool },
}

/// A puzzle being solved: what the board shows and what was played.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub view: PuzzleView,
    /// The player's moves so far.
    pub played: Vec<u8>,
    pub cells: Vec<i8>,
    pub legal: Vec<u8>,
    pub last: Option<u8>,
    /// Grows with every change the board should animate.
    pub version: u64,
    pub phase: Phase,
    /// The server's last answer.
    pub step: Option<PuzzleStep>,
    /// Once over, the solution's positions from the start (the board and
    /// its last move), played on the board one after another.
    pub frames: Vec<(Vec<i8>, Option<u8>)>,
    /// Which of `frames` the board shows.
    pub frame: usize,
}

/// The positions along `line` from `cells` (`side` to move), forced passes
/// played between: the start first, then one after each move.
pub fn solution_frames(cells: &[i8], side: Side, line: &[u8]) -> Vec<(Vec<i8>, Option<u8>)> {
    let color = if side == Side::Black {
        engine::Color::Black
    } else {
        engine::Color::White
    };
    let mut frames = vec![(cells.to_vec(), None)];
    let Ok(mut pos) = engine::Position::from_cells(cells, color) else {
        return frames;
    };
    for &square in line {
        pos = crate::puzzles::forced_passes(pos);
        let Some(after) = engine::Square::new(usize::from(square)).and_then(|s| pos.play(s).ok())
        else {
            break;
        };
        pos = after.position;
        frames.push((pos.to_cells().to_vec(), Some(square)));
    }
    frames
}

impl Run {
    pub fn new(view: PuzzleView) -> Run {
        Run {
            cells: view.cells.clone(),
            legal: view.legal.clone(),
            view,
            played: Vec::new(),
            last: None,
            version: 1,
            phase: Phase::Solving,
            step: None,
            frames: Vec::new(),
            frame: 0,
        }
    }

    /// Plays `square` on the board while it is the player's move and
    /// legal; the moves to send to the server.
    pub fn try_move(&mut self, square: u8) -> Option<Vec<u8>> {
        if self.phase != Phase::Solving || !self.legal.contains(&square) {
            return None;
        }
        let me = self.view.side.cell();
        for i in flips(&self.cells, square, me) {
            self.cells[i] = me;
        }
        self.cells[usize::from(square)] = me;
        self.legal.clear();
        self.last = Some(square);
        self.version += 1;
        self.played.push(square);
        self.phase = Phase::Waiting;
        Some(self.played.clone())
    }

    /// Takes the server's answer: the reply played and the next move
    /// asked, or the end — the solution to play on the board from the
    /// start (every move's value written on it), ending on its last
    /// position.
    pub fn answered(&mut self, step: PuzzleStep) {
        self.version += 1;
        match step.outcome {
            StepOutcome::Continue { reply } => {
                self.cells = step.cells.clone();
                self.legal = step.legal.clone();
                self.last = reply.or(self.last);
                self.phase = Phase::Solving;
            }
            StepOutcome::Solved | StepOutcome::Failed => {
                if let Some((after, _)) = step.rated {
                    self.view.you = after;
                }
                let line = step
                    .solution
                    .as_ref()
                    .map(|s| s.line.as_slice())
                    .unwrap_or_default();
                self.frames = solution_frames(&self.view.cells, self.view.side, line);
                self.legal.clear();
                self.phase = Phase::Over {
                    solved: step.outcome == StepOutcome::Solved,
                };
                self.show(0);
            }
        }
        self.step = Some(step);
    }

    /// Shows the solution's `frame` on the board (once over).
    fn show(&mut self, frame: usize) {
        let Some((cells, last)) = self.frames.get(frame) else {
            return;
        };
        self.frame = frame;
        self.cells = cells.clone();
        self.last = *last;
        self.version += 1;
    }

    /// The solution's next position, when the board shows `frame` (a
    /// timer's step: one set for an older replay finds another frame and
    /// does nothing); whether there is one after it.
    pub fn advance(&mut self, frame: usize) -> bool {
        if !matches!(self.phase, Phase::Over { .. }) || self.frame != frame || self.replayed() {
            return false;
        }
        self.show(frame + 1);
        !self.replayed()
    }

    /// The solution played from the start again.
    pub fn replay(&mut self) {
        if matches!(self.phase, Phase::Over { .. }) {
            self.show(0);
        }
    }

    /// The board shows the solution's last position.
    pub fn replayed(&self) -> bool {
        self.frame + 1 >= self.frames.len()
    }

    /// Whether the board shows the start of the solution (where the values
    /// are written).
    fn at_start(&self) -> bool {
        matches!(self.phase, Phase::Over { .. }) && self.frame == 0
    }

    /// The move could not be sent: the puzzle starts again (the server
    /// judged nothing, so nothing is lost).
    pub fn not_sent(&mut self) {
        if self.phase != Phase::Waiting {
            return;
        }
        *self = Run {
            version: self.version + 1,
            ..Run::new(self.view.clone())
        };
    }

    pub fn snapshot(&self) -> BoardSnapshot {
        let mut s = BoardSnapshot::empty();
        s.cells = self.cells.clone();
        s.legal = self.legal.clone();
        s.last_move = self.last;
        s.version = self.version;
        s
    }

    /// Every legal move's value of the start, once over.
    pub fn values(&self) -> Vec<MoveValue> {
        let Some(solution) = self.step.as_ref().and_then(|s| s.solution.as_ref()) else {
            return Vec::new();
        };
        if !self.at_start() {
            return Vec::new();
        }
        solution
            .values
            .iter()
            .map(|&(square, value)| MoveValue {
                square,
                value,
                exact: solution.exact,
            })
            .collect()
    }

    /// The answer's first move, once over.
    pub fn best(&self) -> Option<u8> {
        self.solution_best().filter(|_| self.at_start())
    }

    /// The answer's first move, once over, on any frame.
    fn solution_best(&self) -> Option<u8> {
        self.step
            .as_ref()
            .and_then(|s| s.solution.as_ref())
            .and_then(|s| s.line.first().copied())
    }
}

/// What the player is asked.
pub fn task_text(lang: Lang, view: &PuzzleView) -> String {
    t!(
        lang,
        "puzzles-task",
        side = view.side.name(),
        count = view.to_find
    )
}

/// The verdict after the server's answer.
pub fn verdict_text(lang: Lang, run: &Run) -> Option<String> {
    let step = run.step.as_ref()?;
    let played = run
        .played
        .last()
        .map(|&s| square_name(s))
        .unwrap_or_default();
    Some(match &step.outcome {
        StepOutcome::Continue { reply: Some(reply) } => {
            t!(
                lang,
                "puzzles-continue",
                square = played,
                reply = square_name(*reply)
            )
        }
        StepOutcome::Continue { reply: None } => t!(lang, "puzzles-continue-pass", square = played),
        StepOutcome::Solved => t!(lang, "puzzles-solved"),
        StepOutcome::Failed => t!(
            lang,
            "puzzles-failed",
            square = played,
            best = step
                .solution
                .as_ref()
                .and_then(|s| s.line.get(run.played.len().saturating_sub(1) * 2).copied())
                .map(square_name)
                .unwrap_or_default()
        ),
    })
}

fn names(squares: &[u8]) -> String {
    squares
        .iter()
        .map(|&s| square_name(s))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The choice in the page's address: `/puzzles/<id>` (or `?id=`),
/// `?daily`, `?streak`, `?theme=`.
fn choice_of(id: Option<String>, daily: bool, streak: bool, theme: Option<String>) -> PuzzleChoice {
    match (id, daily, streak) {
        (Some(id), _, _) => PuzzleChoice::Id { id },
        (None, true, _) => PuzzleChoice::Daily,
        (None, false, true) => PuzzleChoice::Streak { n: 0 },
        _ => PuzzleChoice::Next {
            theme: theme.as_deref().and_then(Theme::parse),
        },
    }
}

/// The page: the first puzzle is rendered by the server.
#[component]
pub fn PuzzlesPage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let query = use_query_map();
    let path_id = use_params_map().with_untracked(|p| p.get("id"));
    let first = query.with_untracked(|q| {
        choice_of(
            path_id.or_else(|| q.get("id")),
            q.get("daily").is_some(),
            q.get("streak").is_some(),
            q.get("theme"),
        )
    });
    let streak = matches!(first, PuzzleChoice::Streak { .. });
    let theme = match &first {
        PuzzleChoice::Next { theme } => *theme,
        _ => None,
    };
    let loaded = Resource::new(move || first.clone(), puzzle);
    view! {
        <Suspense fallback=move || view! { <main class="page"><p>{t!(lang, "puzzles-loading")}</p></main> }>
            {move || Suspend::new(async move {
                let Some(loaded) = super::settled(loaded).await else { return ().into_any() };
                match loaded {
                    Ok(view) => view! { <PuzzleScreen first=view streak theme /> }.into_any(),
                    Err(error) => view! {
                        <crate::pages::LoadFailed
                            title=t!(lang, "puzzles-not-found")
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

/// Puts `/puzzles/<id>` in the address bar (the router's state is left
/// alone: the page is the same).
fn show_address(id: &str) {
    #[cfg(feature = "hydrate")]
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let path = format!("/puzzles/{id}");
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path));
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = id;
}

#[component]
fn PuzzleScreen(first: PuzzleView, streak: bool, theme: Option<Theme>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let run = RwSignal::new(Run::new(first));
    // The streak's count of puzzles solved, while in one.
    let streak = RwSignal::new(streak.then_some(0_u32));
    let theme = RwSignal::new(theme);
    let error = RwSignal::new(None::<String>);
    let finished = RwSignal::new(0_u32);
    let load = move |choice: PuzzleChoice| {
        error.set(None);
        leptos::task::spawn_local(async move {
            match puzzle(choice).await {
                Ok(view) => run.set(Run::new(view)),
                Err(e) => error.set(Some(e.text(lang))),
            }
        });
    };
    let next = Callback::new(move |()| {
        load(match streak.get_untracked() {
            Some(n) => PuzzleChoice::Streak { n },
            None => PuzzleChoice::Next {
                theme: theme.get_untracked(),
            },
        })
    });
    let on_square = Callback::new(move |square: u8| {
        let Some(moves) = run.try_update(|r| r.try_move(square)).flatten() else {
            return;
        };
        let (id, in_streak) = (
            run.with_untracked(|r| r.view.id.clone()),
            streak.get_untracked().is_some(),
        );
        error.set(None);
        leptos::task::spawn_local(async move {
            match puzzle_move(id, moves, in_streak).await {
                Ok(step) => {
                    let over = !matches!(step.outcome, StepOutcome::Continue { .. });
                    let solved = step.outcome == StepOutcome::Solved;
                    run.update(|r| r.answered(step));
                    if over {
                        finished.update(|f| *f += 1);
                        if in_streak {
                            streak.update(|s| *s = s.map(|n| if solved { n + 1 } else { n }));
                        }
                    }
                }
                Err(e) => {
                    run.update(Run::not_sent);
                    error.set(Some(e.text(lang)));
                }
            }
        });
    });
    // The puzzle's own address in the bar (`/puzzles/<id>`), the query
    // (a theme, the daily puzzle) left behind: a reload or a copied link
    // opens this puzzle.
    let id = Memo::new(move |_| run.with(|r| r.view.id.clone()));
    Effect::new(move |_| id.with(|id| show_address(id)));
    // Once over, the solution is played on the board one move at a time.
    Effect::new(move |_| {
        let (over, frame, done) =
            run.with(|r| (matches!(r.phase, Phase::Over { .. }), r.frame, r.replayed()));
        if over && !done {
            let wait = if frame == 0 { 1500 } else { 900 };
            set_timeout(
                move || {
                    // The page may be gone: then nothing to show.
                    run.try_update(|r| r.advance(frame));
                },
                std::time::Duration::from_millis(wait),
            );
        }
    });
    let snapshot = Signal::derive(move || run.with(Run::snapshot));
    let labels = Signal::derive(move || run.with(|r| board_labels(&r.values())));
    let hint = Signal::derive(move || run.with(Run::best));
    view! {
        <main class="table-page puzzles-page">
            <header class="topbar">
                <h1><a href="/">{t!(lang, "site-title")}</a></h1>
                <span class="mode" id="mode">{t!(lang, "puzzles-title")}</span>
                <crate::i18n::LangSwitch />
            </header>
            <section class="table-board">
                <crate::board::Board3D snapshot on_square hint labels voice=crate::voice::VOICE />
            </section>
            <aside class="hud">
                <PuzzleCard run error streak next />
                <PuzzleChoices streak theme load />
                <PuzzleHistory finished />
            </aside>
        </main>
    }
}

/// The puzzle: what is asked, the verdict, the answer, the rating.
#[component]
fn PuzzleCard(
    run: RwSignal<Run>,
    error: RwSignal<Option<String>>,
    streak: RwSignal<Option<u32>>,
    next: Callback<()>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let state = move || match run.with(|r| r.phase) {
        Phase::Solving => "solving",
        Phase::Waiting => "waiting",
        Phase::Over { solved: true } => "solved",
        Phase::Over { solved: false } => "failed",
    };
    let over = move || matches!(run.with(|r| r.phase), Phase::Over { .. });
    let meta = move || {
        run.with(|r| {
            let how = match r.view.depth.filter(|_| !r.view.exact) {
                Some(depth) => t!(lang, "puzzles-judged", depth = depth),
                None => t!(lang, "puzzles-proved"),
            };
            t!(lang, "puzzles-meta", rating = r.view.rating, how = how)
        })
    };
    let solution = move || {
        run.with(|r| {
            let step = r.step.as_ref()?;
            let s = step.solution.as_ref()?;
            let kind = if s.exact { t!(lang, "hint-tag-exact") } else { t!(lang, "hint-tag-estimate") };
            let best = s.values.first().map(|&(sq, v)| (square_name(sq), disc_text(v)))?;
            Some(view! {
                <p id="puzzle-solution" data-best=s.line.first().copied().unwrap_or_default().to_string()>
                    {t!(lang, "puzzles-answer", best = best.0, value = best.1, kind = kind)}
                    " "
                    {t!(lang, "puzzles-line", line = names(&s.line))}
                    {(s.pv.len() > s.line.len()).then(|| format!(" {}", t!(lang, "puzzles-pv", line = names(&s.pv))))}
                </p>
                {(!s.themes.is_empty()).then(|| {
                    let keys = s.themes.iter().map(|t| t.key()).collect::<Vec<_>>().join(" ");
                    let names = s.themes.iter().map(|t| theme_name(lang, *t)).collect::<Vec<_>>().join(", ");
                    view! { <p class="muted" id="puzzle-themes" data-themes=keys>{t!(lang, "puzzles-themes", themes = names)}</p> }
                })}
            })
        })
    };
    let rating = move || {
        run.with(|r| {
            let step = r.step.as_ref()?;
            if step.streak || !matches!(r.phase, Phase::Over { .. }) {
                return None;
            }
            Some(match step.rated {
                Some((after, change)) => view! {
                    <p id="puzzle-rating" data-rating=after.rating.to_string() data-change=change.to_string()>
                        {t!(lang, "puzzles-rating-after", rating = after.text(), change = crate::ratings::change_text(change))}
                    </p>
                }
                .into_any(),
                None => {
                    let why = step.unrated.unwrap_or(Unrated::Answered);
                    view! { <p id="puzzle-rating" class="muted" data-unrated=why.key()>{crate::i18n::tr(lang, why.key(), &[])}</p> }.into_any()
                }
            })
        })
    };
    let streak_line = move || {
        streak.get().map(|n| {
            let ended = run.with(|r| r.phase == Phase::Over { solved: false });
            view! {
                <p id="puzzle-streak" data-count=n.to_string() data-over=ended.to_string()>
                    {if ended { t!(lang, "puzzles-streak-over", count = n) } else { t!(lang, "puzzles-streak", count = n) }}
                </p>
            }
        })
    };
    view! {
        <div class="card puzzle" id="puzzle" data-id=move || run.with(|r| r.view.id.clone()) data-state=state
            data-replayed=move || run.with(|r| (over() && r.replayed()).to_string())>
            <p id="puzzle-task"><strong>{move || run.with(|r| task_text(lang, &r.view))}</strong></p>
            <p class="muted" id="puzzle-meta">
                {move || run.with(|r| r.view.daily).then(|| view! { <strong>{t!(lang, "puzzles-daily")}</strong> " · " })}
                {meta}
            </p>
            <p class="muted" id="puzzle-you" data-unrated=move || run.with(|r| r.view.unrated.map(|u| u.key()))>
                {move || run.with(|r| match r.view.unrated {
                    Some(why @ (Unrated::SignedOut | Unrated::NotServed | Unrated::Marked)) => crate::i18n::tr(lang, why.key(), &[]),
                    _ => t!(lang, "puzzles-you", rating = r.view.you.text()),
                })}
            </p>
            {move || run.with(|r| r.view.unrated.is_none() && r.view.you.provisional).then(|| view! {
                <p class="muted provisional-note" id="puzzle-provisional">{t!(lang, "puzzles-provisional")}</p>
            })}
            {streak_line}
            <p id="puzzle-verdict" aria-live="polite" data-outcome=state>
                {move || run.with(|r| verdict_text(lang, r))}
            </p>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            {solution}
            {rating}
            <div class="actions" hidden=move || !over()>
                <button class="secondary" id="puzzle-replay" on:click=move |_| run.update(Run::replay)>
                    {t!(lang, "puzzles-replay")}
                </button>
                <button class="secondary" id="puzzle-retry" hidden=move || streak.get().is_some()
                    on:click=move |_| run.update(|r| *r = Run { version: r.version + 1, ..Run::new(r.view.clone()) })>
                    {t!(lang, "puzzles-retry")}
                </button>
                <button id="puzzle-next" on:click=move |_| next.run(())>
                    {move || if streak.get().is_some() && run.with(|r| r.phase == Phase::Over { solved: false }) {
                        t!(lang, "puzzles-streak-again")
                    } else {
                        t!(lang, "puzzles-next")
                    }}
                </button>
            </div>
        </div>
    }
    .into_any()
}

fn theme_name(lang: Lang, theme: Theme) -> String {
    match theme {
        Theme::Corner => t!(lang, "puzzles-theme-corner"),
        Theme::XSquare => t!(lang, "puzzles-theme-x-square"),
        Theme::CSquare => t!(lang, "puzzles-theme-c-square"),
        Theme::Trap => t!(lang, "puzzles-theme-trap"),
        Theme::Parity => t!(lang, "puzzles-theme-parity"),
        Theme::WipeOut => t!(lang, "puzzles-theme-wipe-out"),
        Theme::Tempo => t!(lang, "puzzles-theme-tempo"),
        Theme::Quiet => t!(lang, "puzzles-theme-quiet"),
        Theme::Exact => t!(lang, "puzzles-theme-exact"),
        Theme::Midgame => t!(lang, "puzzles-theme-midgame"),
        Theme::MultiMove => t!(lang, "puzzles-theme-multi-move"),
    }
}

/// A theme to practise, the streak, the puzzle of the day.
#[component]
fn PuzzleChoices(
    streak: RwSignal<Option<u32>>,
    theme: RwSignal<Option<Theme>>,
    load: impl Fn(PuzzleChoice) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let options = Theme::ALL
        .into_iter()
        .map(|t| view! { <option value=t.key() selected=move || theme.get() == Some(t)>{theme_name(lang, t)}</option> })
        .collect_view();
    let pick = move |ev: leptos::ev::Event| {
        let chosen = Theme::parse(&event_target_value(&ev));
        theme.set(chosen);
        streak.set(None);
        load(PuzzleChoice::Next { theme: chosen });
    };
    let toggle_streak = move |_| {
        if streak.get_untracked().is_some() {
            streak.set(None);
            load(PuzzleChoice::Next {
                theme: theme.get_untracked(),
            });
        } else {
            streak.set(Some(0));
            load(PuzzleChoice::Streak { n: 0 });
        }
    };
    view! {
        <div class="card puzzle-choices" id="puzzle-choices">
            <label>
                {t!(lang, "puzzles-theme-label")} " "
                <select id="puzzle-theme" on:change=pick>
                    <option value="" selected=move || theme.get().is_none()>{t!(lang, "puzzles-theme-any")}</option>
                    {options}
                </select>
            </label>
            <div class="actions">
                <button class="secondary" id="puzzle-streak-toggle" on:click=toggle_streak>
                    {move || if streak.get().is_some() { t!(lang, "puzzles-streak-leave") } else { t!(lang, "puzzles-streak-start") }}
                </button>
                <button class="secondary" id="puzzle-daily" on:click=move |_| { streak.set(None); load(PuzzleChoice::Daily) }>
                    {t!(lang, "puzzles-daily")}
                </button>
            </div>
            <p class="muted">{t!(lang, "puzzles-streak-help")}</p>
        </div>
    }
    .into_any()
}

/// The player's latest tries, read again after each puzzle.
#[component]
fn PuzzleHistory(finished: RwSignal<u32>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let tries = Resource::new(move || finished.get(), |_| puzzle_history());
    view! {
        <div class="card puzzle-history" id="puzzle-history">
            <h2>{t!(lang, "puzzles-history")}</h2>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    let list = super::settled(tries).await.and_then(Result::ok).unwrap_or_default();
                    if list.is_empty() {
                        return view! { <p class="muted" id="puzzle-history-empty">{t!(lang, "puzzles-history-empty")}</p> }.into_any();
                    }
                    let rows = list
                        .into_iter()
                        .map(|t| {
                            let word = if t.solved { t!(lang, "puzzles-history-solved") } else { t!(lang, "puzzles-history-failed") };
                            let rating = t.rating.map(|(after, change)| format!(" · {after} ({})", crate::ratings::change_text(change)));
                            view! {
                                <li data-id=t.id.clone() data-solved=t.solved.to_string()>
                                    <a href=format!("/puzzles/{}", t.id) rel="external">{t.id.clone()}</a>
                                    " " {word} {rating}
                                </li>
                            }
                        })
                        .collect_view();
                    view! { <ol class="puzzle-tries">{rows}</ol> }.into_any()
                })}
            </Suspense>
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Side;
    use crate::puzzles::PuzzleSolution;
    use crate::ratings::ShownRating;

    fn view() -> PuzzleView {
        let cells = crate::protocol::start_cells();
        PuzzleView {
            id: "p".into(),
            legal: crate::protocol::legal_squares(&cells, 1),
            cells,
            side: Side::Black,
            to_find: 2,
            rating: 1500,
            exact: true,
            depth: None,
            daily: false,
            you: ShownRating::new(1500.0, 350.0),
            tried: false,
            unrated: None,
        }
    }

    #[test]
    fn a_run_plays_sends_and_ends_on_the_solution_played_from_the_start() {
        let mut run = Run::new(view());
        assert_eq!(run.try_move(0), None, "not legal");
        assert_eq!(run.try_move(37), Some(vec![37]));
        assert_eq!(run.phase, Phase::Waiting);
        assert_eq!(run.cells[36], 1, "f5 flipped e5");
        assert_eq!(run.try_move(19), None, "waiting for the answer");
        // The reply d6, then the end.
        let mut after = run.cells.clone();
        after[43] = -1;
        after[35] = -1;
        run.answered(PuzzleStep {
            outcome: StepOutcome::Continue { reply: Some(43) },
            cells: after.clone(),
            legal: vec![18, 34],
            solution: None,
            rated: None,
            unrated: None,
            streak: false,
        });
        assert_eq!(
            (run.phase, run.last, run.legal.clone()),
            (Phase::Solving, Some(43), vec![18, 34])
        );
        assert_eq!(
            verdict_text(Lang::En, &run).unwrap(),
            "Right: f5. The opponent answered d6: find the next move."
        );
        assert_eq!(run.try_move(34), Some(vec![37, 34]));
        run.answered(PuzzleStep {
            outcome: StepOutcome::Failed,
            cells: after,
            legal: vec![],
            solution: Some(PuzzleSolution {
                values: vec![(37, 4.0), (19, -2.0)],
                exact: true,
                line: vec![37, 43, 18],
                pv: vec![37, 43, 18, 20],
                themes: vec![Theme::MultiMove],
            }),
            rated: Some((ShownRating::new(1450.0, 300.0), -50)),
            unrated: None,
            streak: false,
        });
        assert_eq!(run.phase, Phase::Over { solved: false });
        assert_eq!(
            run.cells,
            view().cells,
            "the solution starts from the start"
        );
        assert_eq!(run.last, None, "no highlight on an empty square");
        assert_eq!(run.best(), Some(37));
        assert_eq!(run.values().len(), 2, "the values written on the start");
        assert_eq!(run.frames.len(), 4, "the start and the line's three moves");
        assert!(!run.replayed());
        // The solution, move by move; a stale timer's step does nothing.
        assert!(run.advance(0));
        assert!(!run.advance(0), "frame 0 is no longer shown");
        assert_eq!((run.frame, run.last), (1, Some(37)));
        assert_eq!(run.cells[36], 1, "f5 played");
        assert!(run.values().is_empty(), "values only on the start");
        assert_eq!(run.best(), None);
        assert!(run.advance(1));
        assert!(!run.advance(2), "the last position");
        assert!(run.replayed());
        assert_eq!(
            run.last,
            Some(18),
            "ends on the final position, its last move marked"
        );
        assert_eq!(run.cells[18], 1);
        assert_eq!(run.cells[27], 1, "c3 flipped d4");
        assert!(run.legal.is_empty());
        // Played again from the start on demand.
        let version = run.version;
        run.replay();
        assert_eq!((run.frame, run.cells.clone()), (0, view().cells));
        assert!(run.version > version);
        assert_eq!(
            verdict_text(Lang::En, &run).unwrap(),
            "c5 is not it: the move was c3."
        );
    }

    #[test]
    fn a_move_not_sent_is_taken_back() {
        let mut run = Run::new(view());
        run.try_move(37);
        run.not_sent();
        assert_eq!(run.phase, Phase::Solving);
        assert!(run.played.is_empty());
        assert_eq!(run.cells, view().cells);
    }

    #[test]
    fn the_address_chooses_the_puzzle() {
        assert_eq!(
            choice_of(Some("x".into()), true, true, None),
            PuzzleChoice::Id { id: "x".into() }
        );
        assert_eq!(choice_of(None, true, false, None), PuzzleChoice::Daily);
        assert_eq!(
            choice_of(None, false, true, None),
            PuzzleChoice::Streak { n: 0 }
        );
        assert_eq!(
            choice_of(None, false, false, Some("corner".into())),
            PuzzleChoice::Next {
                theme: Some(Theme::Corner)
            }
        );
        assert_eq!(
            choice_of(None, false, false, Some("nonsense".into())),
            PuzzleChoice::Next { theme: None }
        );
    }
}
