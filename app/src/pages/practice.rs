//! Practise your mistakes. (Over 600 lines: the practice's rules — which
//! positions, how a guess is judged — and their tests sit beside the one
//! component that uses them.)
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

use crate::i18n::Lang;
use crate::pages::hint::{board_labels, disc_text, HINT_DEPTH, HINT_NODES};
use crate::protocol::{
    flips, legal_squares, square_index, square_name, BoardSnapshot, GameAnalysis, Side,
};
use crate::takeover::{BoardTakeover, Takeover};
use crate::worker::MoveValue;
use leptos::prelude::*;

/// At most this many positions in one practice.
pub const MAX_EXERCISES: usize = 5;
/// A move must have lost at least this many discs to be practised.
pub const MIN_LOSS: i32 = 2;
/// Plies of the best line shown with an answer.
const LINE_PLIES: usize = 6;
/// The search of each ply of the best line after the first (small: it is
/// an illustration, the judged values come from the full hint).
const LINE_DEPTH: u32 = 4;
const LINE_NODES: u64 = 150_000;

/// One position to practise: the one before a costly move.
#[derive(Clone, Debug, PartialEq)]
pub struct Exercise {
    /// The placement's count in the game (1 = first placement).
    pub ply: u32,
    /// Its number in the page's move list.
    pub number: u32,
    /// The side that was to move (and made the mistake).
    pub side: Side,
    /// The position before the move (64 cells).
    pub cells: Vec<i8>,
    /// The square played.
    pub played: String,
    /// Discs it lost against the best move, by the analysis.
    pub loss: i32,
    /// Whether that loss is exact.
    pub exact: bool,
}

/// The positions to practise, worst first: the moves of `yours` (every side
/// when the viewer played both or neither) that lost at least [`MIN_LOSS`]
/// discs, at most [`MAX_EXERCISES`]. `numbers` maps placements to the
/// page's move-list numbers, as in the analysis card.
pub fn exercises(analysis: &GameAnalysis, yours: &[Side], numbers: &[u32]) -> Vec<Exercise> {
    let mut cells = if analysis.start.len() == 64 {
        analysis.start.clone()
    } else {
        crate::protocol::start_cells()
    };
    let mut all = Vec::new();
    for m in &analysis.moves {
        let Some(square) = square_index(&m.square) else {
            break;
        };
        let me = m.side.cell();
        let flipped = flips(&cells, square, me);
        if cells[usize::from(square)] != 0 || flipped.is_empty() {
            // The moves do not replay from this start: practise nothing
            // rather than a wrong position.
            return Vec::new();
        }
        let mine = yours.len() != 1 || yours[0] == m.side;
        if mine && m.loss >= MIN_LOSS {
            all.push(Exercise {
                ply: m.ply,
                number: numbers
                    .get((m.ply as usize).wrapping_sub(1))
                    .copied()
                    .unwrap_or(m.ply),
                side: m.side,
                cells: cells.clone(),
                played: m.square.clone(),
                loss: m.loss,
                exact: m.exact,
            });
        }
        for i in flipped {
            cells[i] = me;
        }
        cells[usize::from(square)] = me;
    }
    all.sort_by(|a, b| b.loss.cmp(&a.loss).then(a.ply.cmp(&b.ply)));
    all.truncate(MAX_EXERCISES);
    all
}

/// A guess judged against every move's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judgement {
    /// Within the tolerance of the best.
    pub good: bool,
    pub guess: MoveValue,
    pub best: MoveValue,
    /// Discs the guess is below the best (as shown, whole discs).
    pub behind: i32,
    /// The tolerance applied: 1 disc where both values are exact, else 2.
    pub tolerance: i32,
}

/// The best of every legal move's values (any order).
fn best_of(values: &[MoveValue]) -> Option<MoveValue> {
    values
        .iter()
        .max_by(|a, b| a.value.total_cmp(&b.value))
        .copied()
}

/// Judges `guess` against `values` (every legal move's value, any order).
/// `None` when the guess is not among them (not a legal move).
pub fn judge(values: &[MoveValue], guess: u8) -> Option<Judgement> {
    let best = best_of(values)?;
    let guessed = *values.iter().find(|m| m.square == guess)?;
    let tolerance = if best.exact && guessed.exact { 1 } else { 2 };
    let behind = (best.value.round() - guessed.value.round()).max(0.0) as i32;
    Some(Judgement {
        good: behind <= tolerance,
        guess: guessed,
        best,
        behind,
        tolerance,
    })
}

/// What the card says about a judged guess (`revealed`: the answer is
/// shown, so a wrong guess no longer invites another).
fn verdict_text(lang: Lang, j: &Judgement, revealed: bool) -> String {
    if j.good && j.guess.square == j.best.square {
        t!(
            lang,
            "practice-right-best",
            square = square_name(j.guess.square),
            value = disc_text(j.guess.value)
        )
    } else if j.good {
        t!(
            lang,
            "practice-right",
            square = square_name(j.guess.square),
            value = disc_text(j.guess.value),
            best = square_name(j.best.square),
            best_value = disc_text(j.best.value)
        )
    } else if revealed {
        t!(
            lang,
            "practice-wrong-shown",
            square = square_name(j.guess.square),
            value = disc_text(j.guess.value),
            behind = j.behind
        )
    } else {
        t!(
            lang,
            "practice-wrong",
            square = square_name(j.guess.square),
            value = disc_text(j.guess.value),
            behind = j.behind
        )
    }
}

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

/// The "Practise your mistakes" button and, once started, the practice.
#[component]
pub fn Practice(exercises: Vec<Exercise>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let total = exercises.len();
    let exercises = StoredValue::new(exercises);
    let active = RwSignal::new(false);
    let index = RwSignal::new(0usize);
    // Every legal move's value in the current position, once scored.
    let values = RwSignal::new(None::<Vec<MoveValue>>);
    let judged = RwSignal::new(None::<Judgement>);
    let revealed = RwSignal::new(false);
    let line = RwSignal::new(None::<Vec<String>>);
    let busy = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    // Positions where the first good move came before the answer was shown.
    let found = RwSignal::new(0usize);
    let helped = RwSignal::new(false);
    let done = RwSignal::new(false);
    let takeover = use_context::<BoardTakeover>()
        .map(|t| t.0)
        .unwrap_or_else(|| RwSignal::new(None));

    let current = move || exercises.with_value(|e| e.get(index.get()).cloned());
    let reset_position = move || {
        values.set(None);
        judged.set(None);
        revealed.set(false);
        line.set(None);
        error.set(None);
        helped.set(false);
    };
    let reveal = move || {
        if revealed.get_untracked() {
            return;
        }
        revealed.set(true);
        let (Some(exercise), Some(moves)) = (current(), values.get_untracked()) else {
            return;
        };
        let Some(best) = best_of(&moves) else {
            return;
        };
        let at = index.get_untracked();
        leptos::task::spawn_local(async move {
            let squares = best_line(exercise.cells, exercise.side.cell(), best.square).await;
            if index.try_get_untracked() == Some(at) {
                let _ = line.try_set(Some(squares));
            }
        });
    };
    let judge_now = move |guess: u8| {
        let Some(j) = values.with_untracked(|v| v.as_deref().and_then(|v| judge(v, guess))) else {
            return;
        };
        judged.set(Some(j));
        if j.good {
            if !helped.get_untracked() {
                found.update(|f| *f += 1);
            }
            reveal();
        } else {
            helped.set(true);
        }
    };
    // Runs `then` once the current position's moves are scored: at once when
    // they are, else after asking the engine worker (a reply for a position
    // left meanwhile is dropped).
    let score = move |then: Box<dyn FnOnce()>| {
        if values.with_untracked(Option::is_some) {
            then();
            return;
        }
        let Some(exercise) = current() else {
            return;
        };
        busy.set(true);
        error.set(None);
        let at = index.get_untracked();
        leptos::task::spawn_local(async move {
            let reply = crate::worker::hint_all(
                exercise.cells,
                exercise.side.cell(),
                HINT_DEPTH,
                HINT_NODES,
            )
            .await;
            if index.try_get_untracked() != Some(at) {
                return;
            }
            let _ = busy.try_set(false);
            match reply {
                Ok(timed) => {
                    let _ = values.try_set(Some(timed.result.moves));
                    then();
                }
                Err(e) => {
                    let _ = error.try_set(Some(t!(lang, "practice-failed", error = e)));
                }
            }
        });
    };
    let on_square = Callback::new(move |square: u8| {
        if revealed.get_untracked() || busy.get_untracked() || done.get_untracked() {
            return;
        }
        let Some(exercise) = current() else {
            return;
        };
        let me = exercise.side.cell();
        if !legal_squares(&exercise.cells, me).contains(&square) {
            return;
        }
        score(Box::new(move || judge_now(square)));
    });
    let show = move |_| {
        helped.set(true);
        score(Box::new(reveal));
    };
    let next = move |_| {
        crate::worker::cancel();
        busy.set(false);
        reset_position();
        if index.get_untracked() + 1 >= total {
            done.set(true);
        } else {
            index.update(|i| *i += 1);
        }
    };
    let restart = move || {
        reset_position();
        index.set(0);
        found.set(0);
        done.set(false);
    };
    let stop = move |_| {
        crate::worker::cancel();
        busy.set(false);
        reset_position();
        active.set(false);
        let _ = takeover.try_set(None);
    };
    on_cleanup(move || {
        let _ = takeover.try_set(None);
    });

    // The position on the main board: version 0, so the board neither
    // animates nor announces the jump from one position to the next.
    let snapshot = Signal::derive(move || {
        let mut s = BoardSnapshot::empty();
        if let Some(e) = current().filter(|_| !done.get()) {
            s.legal = if revealed.get() {
                Vec::new()
            } else {
                legal_squares(&e.cells, e.side.cell())
            };
            s.cells = e.cells;
        }
        s
    });
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

    // Over the board: where we are, the verdict, and the buttons.
    let title = move || {
        let e = current()?;
        let side = e.side;
        Some(view! {
            <p id="practice-position" data-ply=e.ply.to_string() data-number=e.number.to_string() data-side=side.name()>
                <strong>{t!(lang, "practice-position", n = index.get() + 1, total = total, number = e.number, side = side.name())}</strong>
            </p>
        })
    };
    let verdict = move || {
        if busy.get() {
            return view! { <span class="muted">{t!(lang, "practice-checking")}</span> }.into_any();
        }
        if let Some(e) = error.get() {
            return view! { <span class="error">{e}</span> }.into_any();
        }
        if let Some(j) = judged.get() {
            return view! {
                <span
                    class=if j.good { "verdict good" } else { "verdict wrong" }
                    data-verdict=if j.good { "good" } else { "wrong" }
                    data-square=j.guess.square.to_string()
                    data-value=format!("{:.2}", j.guess.value)
                    data-best-value=format!("{:.2}", j.best.value)
                    data-tolerance=j.tolerance.to_string()
                >
                    {verdict_text(lang, &j, revealed.get())}
                </span>
            }
            .into_any();
        }
        let best = revealed
            .get()
            .then(|| values.with(|v| v.as_deref().and_then(best_of)))
            .flatten();
        match best {
            Some(best) => t!(
                lang,
                "practice-best",
                best = square_name(best.square),
                value = disc_text(best.value)
            )
            .into_any(),
            None => t!(lang, "practice-prompt").into_any(),
        }
    };
    let banner = StoredValue::new(ViewFn::from(move || {
        view! {
            <div class="practice-banner" id="practice-banner" role="region" aria-label=t!(lang, "practice-title")>
                {move || {
                    if done.get() {
                        return view! {
                            <p id="practice-done" role="status" data-found=found.get().to_string() data-total=total.to_string()>
                                {t!(lang, "practice-done", found = found.get(), total = total)}
                            </p>
                            <div class="practice-actions">
                                <button class="secondary" id="practise-again" on:click=move |_| restart()>{t!(lang, "practice-again")}</button>
                                <button id="practice-stop" on:click=stop>{t!(lang, "practice-stop")}</button>
                            </div>
                        }
                        .into_any();
                    }
                    view! {
                        {title}
                        <p id="practice-verdict" aria-live="polite">{verdict}</p>
                        <div class="practice-actions">
                            <Show when=move || !revealed.get()>
                                <button class="secondary" id="practice-show" on:click=show disabled=move || busy.get()>
                                    {t!(lang, "practice-show")}
                                </button>
                            </Show>
                            <button id="practice-next" on:click=next>
                                {move || if index.get() + 1 >= total { t!(lang, "practice-finish") } else { t!(lang, "practice-next") }}
                            </button>
                            <button class="secondary" id="practice-stop" on:click=stop>{t!(lang, "practice-stop")}</button>
                        </div>
                    }
                    .into_any()
                }}
            </div>
        }
    }));
    // Starts on the main board: its position, clicks and values are the
    // practice's until "Back to the game"; on a phone the page scrolls to it.
    let begin = move |_| {
        restart();
        active.set(true);
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
        let e = current().filter(|_| !done.get())?;
        let loss_word = if e.exact {
            t!(lang, "practice-loss-exact", loss = e.loss)
        } else {
            t!(lang, "practice-loss-estimate", loss = e.loss)
        };
        Some(view! {
            <p id="practice-ask">
                {t!(lang, "practice-ask", side = e.side.name(), square = e.played.clone(), loss = loss_word)}
            </p>
        })
    };
    let answer = move || {
        if !revealed.get() {
            return None;
        }
        let moves = values.get()?;
        let best = best_of(&moves)?;
        let kind = if best.exact {
            t!(lang, "hint-tag-exact")
        } else {
            t!(lang, "hint-tag-estimate")
        };
        let line_text = move || match line.get() {
            None => t!(lang, "practice-line-thinking"),
            Some(squares) => t!(lang, "practice-line", line = squares.join(" ")),
        };
        Some(view! {
            <p id="practice-answer" data-best=best.square.to_string()>
                {t!(lang, "practice-answer", best = square_name(best.square), value = disc_text(best.value), kind = kind)}
            </p>
            <p id="practice-line" data-ready=move || line.with(Option::is_some).to_string()>{line_text}</p>
        })
    };

    view! {
        <div class="practice" id="practice">
            {move || {
                if !active.get() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pages::analysis::tests::entry_at as entry;
    use crate::protocol::MoveAnalysis;

    fn value(square: u8, value: f32, exact: bool) -> MoveValue {
        MoveValue {
            square,
            value,
            exact,
        }
    }

    #[test]
    fn a_guess_is_good_within_one_disc_exact_and_two_estimated() {
        let exact = [
            value(19, 4.0, true),
            value(26, 3.0, true),
            value(37, 2.0, true),
        ];
        let j = judge(&exact, 26).unwrap();
        assert!(j.good && j.behind == 1 && j.tolerance == 1);
        assert_eq!(j.best.square, 19);
        let j = judge(&exact, 37).unwrap();
        assert!(!j.good && j.behind == 2);
        // The best itself is always good.
        assert!(judge(&exact, 19).unwrap().good);
        // An estimate allows 2 discs, not 3 (values as shown, rounded).
        let estimated = [
            value(44, 1.6, false),
            value(19, 6.2, false),
            value(26, 3.7, false),
        ];
        let j = judge(&estimated, 26).unwrap();
        assert!(j.good && j.behind == 2 && j.tolerance == 2);
        let j = judge(&estimated, 44).unwrap();
        assert!(!j.good && j.behind == 4);
        // A square that is not a legal move is not judged.
        assert_eq!(judge(&estimated, 0), None);
        assert_eq!(judge(&[], 19), None);
    }

    fn analysis(moves: Vec<MoveAnalysis>) -> GameAnalysis {
        GameAnalysis {
            moves,
            depth: 8,
            exact_empties: 20,
            discs: true,
            worst: Vec::new(),
            opening: None,
            start: Vec::new(),
        }
    }

    #[test]
    fn the_positions_are_the_ones_before_the_costly_moves_worst_first() {
        // f5 d6 c3 d3 c4: black f5 (0), white d6 (5), black c3 (2), white d3 (1), black c4 (7).
        let game = analysis(vec![
            entry(1, Side::Black, "f5", 0),
            entry(2, Side::White, "d6", 5),
            entry(3, Side::Black, "c3", 2),
            entry(4, Side::White, "d3", 1),
            entry(5, Side::Black, "c4", 7),
        ]);
        let all = exercises(&game, &[], &[]);
        assert_eq!(
            all.iter().map(|e| e.ply).collect::<Vec<_>>(),
            vec![5, 2, 3],
            "losses of 2 discs or more, worst first"
        );
        // The position before white's d6 is the start after black's f5.
        let before_d6 = &all[1];
        let mut expected = crate::protocol::start_cells();
        expected[37] = 1; // f5
        expected[36] = 1; // e5 flipped
        assert_eq!(before_d6.cells, expected);
        assert_eq!(before_d6.side, Side::White);
        // d6 (43) is among white's moves there.
        assert!(legal_squares(&before_d6.cells, -1).contains(&43));
        // Only the viewer's side when they played one; numbers from the move list.
        let black = exercises(&game, &[Side::Black], &[1, 2, 3, 5, 6]);
        assert_eq!(
            black.iter().map(|e| (e.ply, e.number)).collect::<Vec<_>>(),
            vec![(5, 6), (3, 3)]
        );
        assert_eq!(exercises(&game, &[Side::White], &[]).len(), 1);
        // Moves that do not replay from the start practise nothing.
        let broken = analysis(vec![entry(1, Side::Black, "a1", 9)]);
        assert!(exercises(&broken, &[], &[]).is_empty());
        // A set-up start is honoured: from an empty-but-two board, a1 is no move either.
        let mut from = game.clone();
        from.start = vec![0; 64];
        assert!(exercises(&from, &[], &[]).is_empty());
    }
}
