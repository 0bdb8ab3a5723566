//! The practice's rules, as pure functions: which positions to practise, how
//! a guess is judged, and what the practice does and says at each step (the
//! board it shows, the verdict, the question and the answer). The component
//! (`practice.rs`) keeps them in signals and asks the engine worker.

use crate::i18n::Lang;
use crate::pages::hint::disc_text;
use crate::protocol::{
    flips, legal_squares, square_index, square_name, BoardSnapshot, GameAnalysis, Side,
};
use crate::worker::MoveValue;

/// At most this many positions in one practice.
pub const MAX_EXERCISES: usize = 5;
/// A move must have lost at least this many discs to be practised.
pub const MIN_LOSS: i32 = 2;

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
pub fn best_of(values: &[MoveValue]) -> Option<MoveValue> {
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
pub fn verdict_text(lang: Lang, j: &Judgement, revealed: bool) -> String {
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

/// What a judged guess does to the practice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterGuess {
    /// A good move found without help: counted, and the answer shown.
    Found,
    /// A good move after a wrong one or the answer: the answer shown.
    Good,
    /// A wrong move: the position now counts as helped.
    Wrong,
}

/// What `judgement` does, `helped` telling whether the position was already
/// missed once (or its answer asked for).
pub fn after_guess(judgement: &Judgement, helped: bool) -> AfterGuess {
    match (judgement.good, helped) {
        (true, false) => AfterGuess::Found,
        (true, true) => AfterGuess::Good,
        (false, _) => AfterGuess::Wrong,
    }
}

/// The position after `index` (0-based) of `total`: `None` when the
/// practice is done.
pub fn next_index(index: usize, total: usize) -> Option<usize> {
    (index + 1 < total).then_some(index + 1)
}

/// Whether a click on `square` is a guess to judge: while the answer is
/// not shown, nothing is being scored, the practice is not done, and only
/// on a legal move of the position.
pub fn takes_guess(
    exercise: &Exercise,
    square: u8,
    revealed: bool,
    busy: bool,
    done: bool,
) -> bool {
    !(revealed || busy || done)
        && legal_squares(&exercise.cells, exercise.side.cell()).contains(&square)
}

/// The position on the main board: version 0, so the board neither
/// animates nor announces the jump from one position to the next; its
/// legal moves until the answer is shown. Empty once the practice is done.
pub fn board(exercise: Option<Exercise>, revealed: bool) -> BoardSnapshot {
    let mut s = BoardSnapshot::empty();
    if let Some(e) = exercise {
        s.legal = if revealed {
            Vec::new()
        } else {
            legal_squares(&e.cells, e.side.cell())
        };
        s.cells = e.cells;
    }
    s
}

/// What the banner's verdict line shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The engine is scoring the moves.
    Checking,
    /// The engine failed, with the text to show.
    Failed(String),
    /// A guess, judged.
    Judged(Judgement),
    /// The answer without a guess: the best move.
    Best(MoveValue),
    /// Waiting for a guess.
    Prompt,
}

/// The verdict line's state: scoring first, then an error, then a judged
/// guess, then the answer shown, else the prompt (each asked only when
/// the ones before have nothing to say).
pub fn verdict(
    busy: bool,
    error: impl FnOnce() -> Option<String>,
    judged: impl FnOnce() -> Option<Judgement>,
    best: impl FnOnce() -> Option<MoveValue>,
) -> Verdict {
    if busy {
        return Verdict::Checking;
    }
    if let Some(e) = error() {
        return Verdict::Failed(e);
    }
    if let Some(j) = judged() {
        return Verdict::Judged(j);
    }
    best().map_or(Verdict::Prompt, Verdict::Best)
}

/// The card's question: who played what here, and what it lost.
pub fn ask_text(lang: Lang, e: &Exercise) -> String {
    let loss_word = if e.exact {
        t!(lang, "practice-loss-exact", loss = e.loss)
    } else {
        t!(lang, "practice-loss-estimate", loss = e.loss)
    };
    t!(
        lang,
        "practice-ask",
        side = e.side.name(),
        square = e.played.clone(),
        loss = loss_word
    )
}

/// The card's answer: the best move, its value and whether it is exact.
pub fn answer_text(lang: Lang, best: &MoveValue) -> String {
    let kind = if best.exact {
        t!(lang, "hint-tag-exact")
    } else {
        t!(lang, "hint-tag-estimate")
    };
    t!(
        lang,
        "practice-answer",
        best = square_name(best.square),
        value = disc_text(best.value),
        kind = kind
    )
}

/// The best line, or that it is being found.
pub fn line_text(lang: Lang, line: Option<&[String]>) -> String {
    match line {
        None => t!(lang, "practice-line-thinking"),
        Some(squares) => t!(lang, "practice-line", line = squares.join(" ")),
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

    fn exercise(side: Side, exact: bool) -> Exercise {
        Exercise {
            ply: 2,
            number: 3,
            side,
            cells: crate::protocol::start_cells(),
            played: "c4".into(),
            loss: 3,
            exact,
        }
    }

    #[test]
    fn a_guess_counts_only_when_found_without_help() {
        let values = [value(19, 4.0, true), value(26, 1.0, true)];
        let good = judge(&values, 19).unwrap();
        let wrong = judge(&values, 26).unwrap();
        assert_eq!(after_guess(&good, false), AfterGuess::Found);
        assert_eq!(after_guess(&good, true), AfterGuess::Good);
        assert_eq!(after_guess(&wrong, false), AfterGuess::Wrong);
        assert_eq!(after_guess(&wrong, true), AfterGuess::Wrong);
        assert_eq!(next_index(0, 3), Some(1));
        assert_eq!(next_index(1, 3), Some(2));
        assert_eq!(next_index(2, 3), None, "the last position finishes");
        assert_eq!(next_index(0, 1), None);
    }

    #[test]
    fn only_a_legal_square_of_an_open_position_is_a_guess() {
        // Black to move from the start: d3 (19) is legal, a1 (0) is not.
        let e = exercise(Side::Black, true);
        assert!(takes_guess(&e, 19, false, false, false));
        assert!(!takes_guess(&e, 0, false, false, false));
        assert!(!takes_guess(&e, 19, true, false, false), "answer shown");
        assert!(!takes_guess(&e, 19, false, true, false), "scoring");
        assert!(!takes_guess(&e, 19, false, false, true), "done");
        // White's moves from the start differ: e6 (44) is black's, not white's.
        assert!(!takes_guess(
            &exercise(Side::White, true),
            44,
            false,
            false,
            false
        ));
    }

    #[test]
    fn the_board_shows_the_position_and_its_moves_until_the_answer() {
        let e = exercise(Side::Black, true);
        let open = board(Some(e.clone()), false);
        assert_eq!(open.cells, e.cells);
        assert_eq!(open.legal, legal_squares(&e.cells, 1));
        assert_eq!(open.version, 0, "no animation between positions");
        assert!(board(Some(e), true).legal.is_empty());
        assert_eq!(board(None, false), BoardSnapshot::empty());
        let values = [value(26, 1.0, true), value(19, 4.0, true)];
        assert_eq!(best_of(&values).map(|m| m.square), Some(19));
        assert_eq!(best_of(&[]), None);
    }

    #[test]
    fn the_verdict_line_says_one_thing_at_a_time() {
        let values = [value(19, 4.0, true), value(26, 1.0, true)];
        let j = judge(&values, 26).unwrap();
        let (no_error, no_guess, no_best) = (|| None, || None, || None);
        let unasked = || -> Option<String> { panic!("not asked while scoring") };
        assert_eq!(
            verdict(true, unasked, || Some(j), no_best),
            Verdict::Checking
        );
        assert_eq!(
            verdict(false, || Some("x".into()), || Some(j), no_best),
            Verdict::Failed("x".into())
        );
        assert_eq!(
            verdict(false, no_error, || Some(j), no_best),
            Verdict::Judged(j)
        );
        assert_eq!(
            verdict(false, no_error, no_guess, || Some(values[0])),
            Verdict::Best(values[0])
        );
        assert_eq!(verdict(false, no_error, no_guess, no_best), Verdict::Prompt);
        assert_eq!(
            verdict_text(Lang::En, &j, false),
            "Not quite: c4 scores +1, 3 discs below the best. Try another move, or show the answer."
        );
        assert_eq!(
            verdict_text(Lang::En, &j, true),
            "c4 scores +1, 3 discs below the best."
        );
        let best = judge(&values, 19).unwrap();
        assert_eq!(
            verdict_text(Lang::En, &best, false),
            "Well found: d3 is the best move (+4)."
        );
    }

    #[test]
    fn the_card_asks_and_answers_in_words() {
        assert_eq!(
            ask_text(Lang::En, &exercise(Side::White, true)),
            "White played c4 here and lost 3 discs (exact). Find a better move: click a square."
        );
        assert_eq!(
            ask_text(Lang::En, &exercise(Side::Black, false)),
            "Black played c4 here and lost about 3 discs. Find a better move: click a square."
        );
        assert_eq!(
            answer_text(Lang::En, &value(19, 4.2, false)),
            "The best move is d3: +4 (estimate). Every move's value is on the board."
        );
        assert_eq!(line_text(Lang::En, None), "Finding the best line…");
        assert_eq!(
            line_text(Lang::En, Some(&["d3".to_string(), "c5".to_string()])),
            "Best line: d3 c5"
        );
    }
}
