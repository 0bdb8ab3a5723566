//! Practise your mistakes. The practice's rules (which positions, how a
//! guess is judged, what the banner and the card say) and their tests are
//! in `practice/state.rs`.
//!
//! From a game's analysis, the positions where the player lost the most,
//! one at a time, on the page's main board (a [`Takeover`]: a banner over
//! the board with the verdict and the buttons, "Back to the game" returns
//! its position; the card keeps what was asked, the answer and the line).
//! "Find a better move": a click on a legal square asks the browser's engine
//! worker to score every legal move (the same all-move hint
//! as the Hint button, on the trained evaluation, exact near the end) and
//! judges the guess — good when it is within 1 disc of the best move's value
//! where both are exact, within 2 where either is an estimate. A wrong guess
//! may be followed by another (the values are kept, so it is judged at once)
//! or by "Show the answer"; the answer writes every move's value on the board
//! and shows the best line the engine finds from there.
//!
//! It works wherever the analysis card is: live tables, archived games and
//! the lab. Nothing is sent to the server.

mod state;

use crate::i18n::Lang;
use crate::pages::hint::{board_labels, disc_text, HINT_DEPTH, HINT_NODES};
use crate::protocol::square_name;
use crate::takeover::{BoardTakeover, Takeover};
use crate::worker::MoveValue;
use leptos::prelude::*;
use state::{best_of, AfterGuess, Judgement, Verdict};
pub use state::{exercises, Exercise};

/// Plies of the best line shown with an answer.
const LINE_PLIES: usize = 6;
/// The search of each ply of the best line after the first (small: it is
/// an illustration, the judged values come from the full hint).
const LINE_DEPTH: u32 = 4;
const LINE_NODES: u64 = 150_000;

/// The best line from `cells` (`side` to move), its first move `first`:
/// squares' names, passes left out. Stops at the game's end or on an error.
async fn best_line(cells: Vec<i8>, side: i8, first: u8) -> Vec<String> {
    let mut line = Vec::new();
    let (mut cells, mut side, mut next) = (cells, side, Some(first));
    while let Some(square) = next {
        line.push(square_name(square));
        if line.len() >= LINE_PLIES {
            break;
        }
        let Ok(step) = crate::worker::play(cells, side, i32::from(square)).await else {
            break;
        };
        let step = step.result;
        if step.to_move == 0 {
            break;
        }
        cells = step.cells;
        side = step.to_move;
        next = crate::worker::hint_all(cells.clone(), side, LINE_DEPTH, LINE_NODES)
            .await
            .ok()
            .and_then(|t| t.result.moves.first().map(|m| m.square));
    }
    line
}

/// The practice's moving parts, all `Copy`, so that its banner and plain
/// functions can drive them.
#[derive(Clone, Copy)]
struct Drill {
    exercises: StoredValue<Vec<Exercise>>,
    total: usize,
    active: RwSignal<bool>,
    index: RwSignal<usize>,
    /// Every legal move's value in the current position, once scored.
    values: RwSignal<Option<Vec<MoveValue>>>,
    judged: RwSignal<Option<Judgement>>,
    revealed: RwSignal<bool>,
    line: RwSignal<Option<Vec<String>>>,
    busy: RwSignal<bool>,
    error: RwSignal<Option<String>>,
    /// Positions where the first good move came before the answer was shown.
    found: RwSignal<usize>,
    helped: RwSignal<bool>,
    done: RwSignal<bool>,
    takeover: RwSignal<Option<Takeover>>,
    lang: Lang,
}

impl Drill {
    fn current(self) -> Option<Exercise> {
        self.exercises
            .with_value(|e| e.get(self.index.get()).cloned())
    }

    fn reset_position(self) {
        self.values.set(None);
        self.judged.set(None);
        self.revealed.set(false);
        self.line.set(None);
        self.error.set(None);
        self.helped.set(false);
    }

    /// Shows the answer, and asks the engine for the best line from there.
    fn reveal(self) {
        if self.revealed.get_untracked() {
            return;
        }
        self.revealed.set(true);
        let (Some(exercise), Some(moves)) = (self.current(), self.values.get_untracked()) else {
            return;
        };
        let Some(best) = best_of(&moves) else {
            return;
        };
        let (at, index, line) = (self.index.get_untracked(), self.index, self.line);
        leptos::task::spawn_local(async move {
            let squares = best_line(exercise.cells, exercise.side.cell(), best.square).await;
            if index.try_get_untracked() == Some(at) {
                let _ = line.try_set(Some(squares));
            }
        });
    }

    fn judge_now(self, guess: u8) {
        let Some(j) = self
            .values
            .with_untracked(|v| v.as_deref().and_then(|v| state::judge(v, guess)))
        else {
            return;
        };
        self.judged.set(Some(j));
        match state::after_guess(&j, self.helped.get_untracked()) {
            AfterGuess::Found => {
                self.found.update(|f| *f += 1);
                self.reveal();
            }
            AfterGuess::Good => self.reveal(),
            AfterGuess::Wrong => self.helped.set(true),
        }
    }

    /// Runs `then` once the current position's moves are scored: at once
    /// when they are, else after asking the engine worker (a reply for a
    /// position left meanwhile is dropped).
    fn score(self, then: impl FnOnce() + 'static) {
        if self.values.with_untracked(Option::is_some) {
            then();
            return;
        }
        let Some(exercise) = self.current() else {
            return;
        };
        self.busy.set(true);
        self.error.set(None);
        let at = self.index.get_untracked();
        leptos::task::spawn_local(async move {
            let reply = crate::worker::hint_all(
                exercise.cells,
                exercise.side.cell(),
                HINT_DEPTH,
                HINT_NODES,
            )
            .await;
            if self.index.try_get_untracked() != Some(at) {
                return;
            }
            let _ = self.busy.try_set(false);
            match reply {
                Ok(timed) => {
                    let _ = self.values.try_set(Some(timed.result.moves));
                    then();
                }
                Err(e) => {
                    let _ = self
                        .error
                        .try_set(Some(t!(self.lang, "practice-failed", error = e)));
                }
            }
        });
    }

    fn guess(self, square: u8) {
        let Some(exercise) = self.current() else {
            return;
        };
        let (revealed, busy, done) = (
            self.revealed.get_untracked(),
            self.busy.get_untracked(),
            self.done.get_untracked(),
        );
        if state::takes_guess(&exercise, square, revealed, busy, done) {
            self.score(move || self.judge_now(square));
        }
    }

    fn show(self) {
        self.helped.set(true);
        self.score(move || self.reveal());
    }

    fn next(self) {
        crate::worker::cancel();
        self.busy.set(false);
        self.reset_position();
        match state::next_index(self.index.get_untracked(), self.total) {
            Some(_) => self.index.update(|i| *i += 1),
            None => self.done.set(true),
        }
    }

    fn restart(self) {
        self.reset_position();
        self.index.set(0);
        self.found.set(0);
        self.done.set(false);
    }

    fn stop(self) {
        crate::worker::cancel();
        self.busy.set(false);
        self.reset_position();
        self.active.set(false);
        let _ = self.takeover.try_set(None);
    }
}

/// The "Practise your mistakes" button and, once started, the practice.
#[component]
pub fn Practice(exercises: Vec<Exercise>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let total = exercises.len();
    let d = Drill {
        exercises: StoredValue::new(exercises),
        total,
        active: RwSignal::new(false),
        index: RwSignal::new(0usize),
        values: RwSignal::new(None),
        judged: RwSignal::new(None),
        revealed: RwSignal::new(false),
        line: RwSignal::new(None),
        busy: RwSignal::new(false),
        error: RwSignal::new(None),
        found: RwSignal::new(0usize),
        helped: RwSignal::new(false),
        done: RwSignal::new(false),
        takeover: use_context::<BoardTakeover>()
            .map(|t| t.0)
            .unwrap_or_else(|| RwSignal::new(None)),
        lang,
    };
    let takeover = d.takeover;
    on_cleanup(move || {
        let _ = takeover.try_set(None);
    });
    let on_square = Callback::new(move |square: u8| d.guess(square));
    let (revealed, values, done) = (d.revealed, d.values, d.done);
    let snapshot =
        Signal::derive(move || state::board(d.current().filter(|_| !done.get()), revealed.get()));
    let labels = Signal::derive(move || {
        if !revealed.get() {
            return Vec::new();
        }
        values.with(|v| board_labels(v.as_deref().unwrap_or_default()))
    });
    let best_square = Signal::derive(move || {
        revealed
            .get()
            .then(|| values.with(|v| v.as_deref().and_then(best_of).map(|m| m.square)))
            .flatten()
    });
    let banner = StoredValue::new(ViewFn::from(move || view! { <PracticeBanner d /> }));
    // Starts on the main board: its position, clicks and values are the
    // practice's until "Back to the game"; on a phone the page scrolls to it.
    let begin = move |_| {
        d.restart();
        d.active.set(true);
        let _ = takeover.try_set(Some(Takeover {
            snapshot,
            on_square,
            hint: best_square,
            labels,
            banner: banner.get_value(),
        }));
        #[cfg(feature = "hydrate")]
        bring_board_into_view();
    };
    // In the card: what the position asks, then the answer and the best line.
    let ask = move || {
        let e = d.current().filter(|_| !done.get())?;
        Some(view! { <p id="practice-ask">{state::ask_text(lang, &e)}</p> })
    };
    let answer = move || {
        if !revealed.get() {
            return None;
        }
        let moves = values.get()?;
        let best = best_of(&moves)?;
        let line = d.line;
        Some(view! {
            <p id="practice-answer" data-best=best.square.to_string()>{state::answer_text(lang, &best)}</p>
            <p id="practice-line" data-ready=move || line.with(Option::is_some).to_string()>
                {move || line.with(|l| state::line_text(lang, l.as_deref()))}
            </p>
        })
    };
    view! {
        <div class="practice" id="practice">
            {move || {
                if !d.active.get() {
                    return view! {
                        <button class="secondary" id="practise" on:click=begin>
                            {t!(lang, "practice-button", count = total)}
                        </button>
                    }
                    .into_any();
                }
                view! {
                    <h3>{t!(lang, "practice-title")}</h3>
                    <p class="muted">{t!(lang, "practice-on-board")}</p>
                    {ask}
                    {answer}
                }
                .into_any()
            }}
        </div>
    }
}

/// Over the board: where we are, the verdict, and the buttons (or, once
/// done, the count of positions found and the way back).
#[component]
fn PracticeBanner(d: Drill) -> impl IntoView {
    let (lang, total, index) = (d.lang, d.total, d.index);
    let title = move || {
        let e = d.current()?;
        let side = e.side;
        Some(view! {
            <p id="practice-position" data-ply=e.ply.to_string() data-number=e.number.to_string() data-side=side.name()>
                <strong>{t!(lang, "practice-position", n = index.get() + 1, total = total, number = e.number, side = side.name())}</strong>
            </p>
        })
    };
    let verdict = move || {
        let best = move || {
            d.revealed
                .get()
                .then(|| d.values.with(|v| v.as_deref().and_then(best_of)))
                .flatten()
        };
        match state::verdict(d.busy.get(), || d.error.get(), || d.judged.get(), best) {
            Verdict::Checking => {
                view! { <span class="muted">{t!(lang, "practice-checking")}</span> }.into_any()
            }
            Verdict::Failed(e) => view! { <span class="error">{e}</span> }.into_any(),
            Verdict::Judged(j) => view! {
                <span
                    class=if j.good { "verdict good" } else { "verdict wrong" }
                    data-verdict=if j.good { "good" } else { "wrong" }
                    data-square=j.guess.square.to_string()
                    data-value=format!("{:.2}", j.guess.value)
                    data-best-value=format!("{:.2}", j.best.value)
                    data-tolerance=j.tolerance.to_string()
                >
                    {state::verdict_text(lang, &j, d.revealed.get())}
                </span>
            }
            .into_any(),
            Verdict::Best(best) => t!(
                lang,
                "practice-best",
                best = square_name(best.square),
                value = disc_text(best.value)
            )
            .into_any(),
            Verdict::Prompt => t!(lang, "practice-prompt").into_any(),
        }
    };
    view! {
        <div class="practice-banner" id="practice-banner" role="region" aria-label=t!(lang, "practice-title")>
            {move || {
                if d.done.get() {
                    return view! {
                        <p id="practice-done" role="status" data-found=d.found.get().to_string() data-total=total.to_string()>
                            {t!(lang, "practice-done", found = d.found.get(), total = total)}
                        </p>
                        <div class="practice-actions">
                            <button class="secondary" id="practise-again" on:click=move |_| d.restart()>{t!(lang, "practice-again")}</button>
                            <button id="practice-stop" on:click=move |_| d.stop()>{t!(lang, "practice-stop")}</button>
                        </div>
                    }
                    .into_any();
                }
                view! {
                    {title}
                    <p id="practice-verdict" aria-live="polite">{verdict}</p>
                    <div class="practice-actions">
                        <Show when=move || !d.revealed.get()>
                            <button class="secondary" id="practice-show" on:click=move |_| d.show() disabled=move || d.busy.get()>
                                {t!(lang, "practice-show")}
                            </button>
                        </Show>
                        <button id="practice-next" on:click=move |_| d.next()>
                            {move || if state::next_index(index.get(), total).is_none() { t!(lang, "practice-finish") } else { t!(lang, "practice-next") }}
                        </button>
                        <button class="secondary" id="practice-stop" on:click=move |_| d.stop()>{t!(lang, "practice-stop")}</button>
                    </div>
                }
                .into_any()
            }}
        </div>
    }
}

/// Scrolls the main board into view where it is above the card (a phone's
/// one column) and gives it the focus, for the keyboard's guesses.
#[cfg(feature = "hydrate")]
fn bring_board_into_view() {
    use wasm_bindgen::JsCast;
    let Some(window) = web_sys::window() else {
        return;
    };
    let narrow = window
        .inner_width()
        .ok()
        .and_then(|w| w.as_f64())
        .is_some_and(|w| w <= 760.0);
    let Some(canvas) = window
        .document()
        .and_then(|d| d.get_element_by_id("board-canvas"))
    else {
        return;
    };
    if narrow {
        canvas.scroll_into_view_with_bool(true);
    }
    if let Ok(canvas) = canvas.dyn_into::<web_sys::HtmlElement>() {
        let _ = canvas.focus();
    }
}
