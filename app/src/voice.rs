//! What the board says to a player who listens: each move with the discs it
//! flipped and who is to move next, passes and results, and the keys that
//! read the board without moving (row, column, diagonals, legal moves,
//! discs, last move, clocks). See PRODUCT.md, "Playing by ear and keyboard".
//!
//! The board component reaches this through a [`BoardVoice`] that the pages
//! with a game hand it (`voice=VOICE`), so the lobby's decorative board —
//! in the app's main wasm module — carries none of it: wasm-split leaves
//! these functions in the chunks of the pages that use them.

use crate::board::{starts_celebration, PassLog};
use crate::i18n::Lang;
pub use crate::protocol::legal_squares;
use crate::protocol::{square_name, BoardSnapshot};

/// What to say when the board goes from `before` to `after`; the last
/// argument is the round's pass log before and after, when the page keeps one.
pub type SpeakChange =
    fn(Lang, &BoardSnapshot, &BoardSnapshot, Option<(&PassLog, &PassLog)>) -> Option<String>;

/// The board's voice, as the board component calls it.
#[derive(Clone, Copy)]
pub struct BoardVoice {
    /// What to say when the board changes.
    pub change: SpeakChange,
    /// What a reading key says with the cursor on a square; `None` for other keys.
    pub key: fn(Lang, &str, &BoardSnapshot, u8) -> Option<String>,
}

/// The voice of every page with a game.
pub const VOICE: BoardVoice = BoardVoice {
    change: speak_change,
    key: speak_key,
};

fn speak_change(
    lang: Lang,
    before: &BoardSnapshot,
    after: &BoardSnapshot,
    passes: Option<(&PassLog, &PassLog)>,
) -> Option<String> {
    let passed = match passes {
        Some((was, now)) => pass_announcement(lang, was, now),
        None => implied_pass(lang, before, after),
    };
    let text = [
        announcement(lang, before, after),
        passed,
        to_move_announcement(lang, before, after),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" ");
    (!text.is_empty()).then_some(text)
}

fn speak_key(lang: Lang, key: &str, snapshot: &BoardSnapshot, cursor: u8) -> Option<String> {
    // The clocks are read off the page (only when T is pressed).
    let is_t = key.eq_ignore_ascii_case("t");
    #[cfg(feature = "hydrate")]
    let clocks = if is_t { clocks_text() } else { None };
    #[cfg(not(feature = "hydrate"))]
    let clocks = {
        let _ = is_t;
        None
    };
    read_key(lang, key, snapshot, cursor, clocks)
}

fn side_name(colour: i8) -> &'static str {
    if colour > 0 {
        "Black"
    } else {
        "White"
    }
}

/// What the announcer says when the board goes from `before` to `after`: the
/// move just played and, when the round has just ended, the result.
pub fn announcement(lang: Lang, before: &BoardSnapshot, after: &BoardSnapshot) -> Option<String> {
    if before.version == after.version {
        return None;
    }
    let mut parts = Vec::new();
    if let Some(square) = after.last_move {
        let at = usize::from(square);
        let placed = after.cells.get(at).copied().unwrap_or(0);
        if placed != 0 && before.cells.get(at).copied().unwrap_or(0) == 0 {
            parts.push(t!(
                lang,
                "announce-move",
                side = side_name(placed),
                square = square_name(square),
                count = after.flipped.len(),
                flips = square_list(&after.flipped)
            ));
        }
    }
    if starts_celebration(before, after) {
        let (black, white) = after.counts();
        parts.push(match after.outcome {
            Some(0) => t!(lang, "announce-draw", black = black, white = white),
            Some(o) => t!(
                lang,
                "announce-win",
                side = side_name(o),
                black = black,
                white = white
            ),
            None => unreachable!("starts_celebration checked the outcome"),
        });
    } else if before.outcome.is_some() && after.outcome.is_none() {
        parts.push(t!(lang, "announce-new-round"));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// Squares as a spoken list: "d4, e5".
fn square_list(squares: &[u8]) -> String {
    squares
        .iter()
        .map(|&q| square_name(q))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Who moves after the last move of `snapshot` and how many moves they
/// have: the other side, or the same one when the other must pass. `None`
/// when the round is over or no move has been played.
pub fn next_to_move(snapshot: &BoardSnapshot) -> Option<(i8, usize)> {
    if snapshot.outcome.is_some() {
        return None;
    }
    let mover = snapshot
        .cells
        .get(usize::from(snapshot.last_move?))
        .copied()
        .filter(|&c| c != 0)?;
    [-mover, mover].into_iter().find_map(|side| {
        let n = legal_squares(&snapshot.cells, side).len();
        (n > 0).then_some((side, n))
    })
}

/// What the announcer adds after a move: who is to move and how many legal
/// moves they have ("White to move, 4 legal moves.").
pub fn to_move_announcement(
    lang: Lang,
    before: &BoardSnapshot,
    after: &BoardSnapshot,
) -> Option<String> {
    if before.version == after.version || before.last_move == after.last_move {
        return None;
    }
    let (side, count) = next_to_move(after)?;
    Some(t!(
        lang,
        "announce-to-move",
        side = side_name(side),
        count = count
    ))
}

/// A pass the board itself shows (for pages without a pass log): the side
/// that just moved moves again.
pub fn implied_pass(lang: Lang, before: &BoardSnapshot, after: &BoardSnapshot) -> Option<String> {
    if before.version == after.version || before.last_move == after.last_move {
        return None;
    }
    let mover = after.cells.get(usize::from(after.last_move?)).copied()?;
    let (side, _) = next_to_move(after)?;
    (side == mover && mover != 0).then(|| t!(lang, "lab-pass", side = side_name(-mover)))
}

/// The squares of a line through `square`: its row, its column, or one of
/// its diagonals (down-right, up-right), from one edge to the other.
fn line_through(square: u8, step: (i8, i8)) -> Vec<u8> {
    let (row, col) = ((square / 8) as i8, (square % 8) as i8);
    let inside = |r: i8, c: i8| (0..8).contains(&r) && (0..8).contains(&c);
    let (mut r, mut c) = (row, col);
    while inside(r - step.0, c - step.1) {
        (r, c) = (r - step.0, c - step.1);
    }
    let mut out = Vec::new();
    while inside(r, c) {
        out.push((r * 8 + c) as u8);
        (r, c) = (r + step.0, c + step.1);
    }
    out
}

/// A line of squares read as runs: "a4 to c4 empty, d4 white, e4 black, f4 to h4 empty".
fn read_squares(lang: Lang, cells: &[i8], squares: &[u8]) -> String {
    let mut runs: Vec<(u8, u8, i8, usize)> = Vec::new();
    for &q in squares {
        let c = cells.get(usize::from(q)).copied().unwrap_or(0);
        match runs.last_mut() {
            Some(run) if run.2 == c => {
                run.1 = q;
                run.3 += 1;
            }
            _ => runs.push((q, q, c, 1)),
        }
    }
    runs.into_iter()
        .map(|(from, to, c, count)| {
            let squares = if from == to {
                square_name(from)
            } else {
                t!(
                    lang,
                    "read-range",
                    from = square_name(from),
                    to = square_name(to)
                )
            };
            let what = match c {
                1 => t!(lang, "read-black", count = count),
                -1 => t!(lang, "read-white", count = count),
                _ => t!(lang, "read-empty", count = count),
            };
            format!("{squares} {what}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The table notices the board's announcer already says in its own words
/// (a pass, a finished game's result, a new round): the page's live copy
/// of the notice leaves them out, so each event is heard once.
pub const ANNOUNCED_NOTICES: [&str; 4] =
    ["srv-pass", "srv-game-over-win", "srv-draw", "srv-rematch"];

/// The reading key a key press means, by its physical key (`KeyR` is `r` on
/// any layout: on a Greek layout the same key types «ρ»); other keys by
/// what they type (arrows, Enter).
pub fn reading_key(code: &str, key: &str) -> String {
    match code.strip_prefix("Key") {
        Some(letter) if letter.len() == 1 => letter.to_ascii_lowercase(),
        _ => key.to_string(),
    }
}

/// The keys that read the board without moving (see `board-keys`): what the
/// announcer says for `key` with the cursor on `cursor`; `None` for other
/// keys. `clocks` is the clocks' text, when the page has clocks.
pub fn read_key(
    lang: Lang,
    key: &str,
    snapshot: &BoardSnapshot,
    cursor: u8,
    clocks: Option<String>,
) -> Option<String> {
    let cells = &snapshot.cells;
    let name = |line: &[u8]| {
        let first = line.first().copied().unwrap_or(0);
        let last = line.last().copied().unwrap_or(0);
        format!("{}–{}", square_name(first), square_name(last))
    };
    Some(match key.to_ascii_lowercase().as_str() {
        "r" => t!(
            lang,
            "read-row",
            row = (cursor / 8 + 1).to_string(),
            cells = read_squares(lang, cells, &line_through(cursor, (0, 1)))
        ),
        "c" => t!(
            lang,
            "read-column",
            column = ((b'a' + cursor % 8) as char).to_string(),
            cells = read_squares(lang, cells, &line_through(cursor, (1, 0)))
        ),
        "d" => [(1, 1), (-1, 1)]
            .into_iter()
            .map(|step| {
                let line = line_through(cursor, step);
                t!(
                    lang,
                    "read-diagonal",
                    name = name(&line),
                    cells = read_squares(lang, cells, &line)
                )
            })
            .collect::<Vec<_>>()
            .join(" "),
        "l" if snapshot.legal.is_empty() => t!(lang, "read-no-legal"),
        "l" => {
            let mut legal = snapshot.legal.clone();
            legal.sort_unstable();
            t!(lang, "read-legal", squares = square_list(&legal))
        }
        "s" => {
            let (black, white) = snapshot.counts();
            t!(
                lang,
                "read-score",
                black = black,
                white = white,
                empty = 64 - black - white
            )
        }
        "m" => match snapshot.last_move {
            Some(square) => t!(
                lang,
                "read-last",
                side = side_name(cells.get(usize::from(square)).copied().unwrap_or(0)),
                square = square_name(square),
                count = snapshot.flipped.len(),
                flips = square_list(&snapshot.flipped)
            ),
            None => t!(lang, "read-no-last"),
        },
        "t" => clocks.unwrap_or_else(|| t!(lang, "read-no-clocks")),
        _ => return None,
    })
}

/// The clocks as the page shows them ("Black (you) 2:31, White 2:45."), or
/// `None` when the page has none.
#[cfg(feature = "hydrate")]
fn clocks_text() -> Option<String> {
    let doc = leptos::prelude::document();
    let text = ["clock-black", "clock-white"]
        .into_iter()
        .filter_map(|id| doc.get_element_by_id(id))
        .map(|clock| {
            let part = |class: &str| {
                clock
                    .query_selector(class)
                    .ok()
                    .flatten()
                    .and_then(|e| e.text_content())
                    .unwrap_or_default()
            };
            let low = part(".clock-low");
            let mut text = format!("{} {}", part(".clock-side"), part(".clock-time"));
            if !low.is_empty() {
                text.push_str(&format!(" ({low})"));
            }
            text
        })
        .collect::<Vec<_>>();
    (!text.is_empty()).then(|| format!("{}.", text.join(", ")))
}

/// What the announcer adds about passes when the round's passes go from
/// `before` to `after` ("White has no legal move and passes.").
pub fn pass_announcement(lang: Lang, before: &PassLog, after: &PassLog) -> Option<String> {
    let new = if after.round != before.round {
        &after.passers[..]
    } else {
        after.passers.get(before.passers.len()..).unwrap_or(&[])
    };
    (!new.is_empty()).then(|| {
        new.iter()
            .map(|side| t!(lang, "lab-pass", side = side.name()))
            .collect::<Vec<_>>()
            .join(" ")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::ends_celebration;
    use crate::protocol::Side;

    fn start() -> BoardSnapshot {
        let mut s = BoardSnapshot::empty();
        s.cells[27] = -1;
        s.cells[28] = 1;
        s.cells[35] = 1;
        s.cells[36] = -1;
        s.legal = vec![19, 26, 37, 44];
        s.version = 1;
        s
    }

    #[test]
    fn a_move_is_announced_with_its_flips() {
        let before = start();
        let mut after = before.clone();
        after.cells[37] = 1;
        after.cells[36] = 1;
        after.last_move = Some(37);
        after.flipped = vec![36];
        after.version = 2;
        assert_eq!(
            announcement(Lang::En, &before, &after).as_deref(),
            Some("Black f5 flips 1: e5.")
        );
        assert_eq!(
            to_move_announcement(Lang::En, &before, &after).as_deref(),
            Some("White to move, 3 legal moves.")
        );
        assert_eq!(announcement(Lang::En, &after, &after), None);
        assert_eq!(to_move_announcement(Lang::En, &after, &after), None);
        assert_eq!(
            announcement(Lang::El, &before, &after).as_deref(),
            Some("Μαύρα f5, γυρίζει 1: e5.")
        );
    }

    #[test]
    fn the_result_is_announced_once() {
        let before = start();
        let mut after = before.clone();
        after.version = 2;
        after.outcome = Some(-1);
        assert_eq!(
            announcement(Lang::En, &before, &after).as_deref(),
            Some("Game over: White wins. Black 2, white 2.")
        );
        assert!(starts_celebration(&before, &after));
        let mut vote = after.clone();
        vote.version = 3;
        assert!(!starts_celebration(&after, &vote));
        assert!(!ends_celebration(&after, &vote));
        assert_eq!(announcement(Lang::En, &after, &vote), None);
        let mut rematch = start();
        rematch.version = 4;
        assert!(ends_celebration(&vote, &rematch));
        assert_eq!(
            announcement(Lang::En, &vote, &rematch).as_deref(),
            Some("A new round begins.")
        );
    }

    #[test]
    fn each_new_pass_is_announced_once() {
        let none = PassLog {
            round: 1,
            passers: vec![],
        };
        let one = PassLog {
            round: 1,
            passers: vec![Side::White],
        };
        assert_eq!(
            pass_announcement(Lang::En, &none, &one).as_deref(),
            Some("White has no legal move and passes.")
        );
        assert_eq!(pass_announcement(Lang::En, &one, &one), None);
        let two = PassLog {
            round: 1,
            passers: vec![Side::White, Side::Black],
        };
        assert_eq!(
            pass_announcement(Lang::En, &one, &two).as_deref(),
            Some("Black has no legal move and passes.")
        );
        let next_round = PassLog {
            round: 2,
            passers: vec![Side::Black],
        };
        assert_eq!(
            pass_announcement(Lang::En, &two, &next_round).as_deref(),
            Some("Black has no legal move and passes.")
        );
        let fresh = PassLog {
            round: 3,
            passers: vec![],
        };
        assert_eq!(pass_announcement(Lang::En, &next_round, &fresh), None);
    }

    #[test]
    fn legal_moves_and_passes_follow_the_rules() {
        let s = start();
        assert_eq!(legal_squares(&s.cells, 1), vec![19, 26, 37, 44]);
        assert_eq!(legal_squares(&s.cells, -1), vec![20, 29, 34, 43]);
        // Black a1 and b1, white c1, black just played a1: white cannot
        // move (nothing of black's is flanked), black can (d1).
        let before = BoardSnapshot {
            version: 1,
            ..start()
        };
        let mut pass = BoardSnapshot::empty();
        pass.cells[0] = 1;
        pass.cells[1] = 1;
        pass.cells[2] = -1;
        pass.last_move = Some(0);
        pass.version = 2;
        assert_eq!(legal_squares(&pass.cells, -1), Vec::<u8>::new());
        assert_eq!(legal_squares(&pass.cells, 1), vec![3]);
        assert_eq!(next_to_move(&pass), Some((1, 1)));
        assert_eq!(
            implied_pass(Lang::En, &before, &pass).as_deref(),
            Some("White has no legal move and passes.")
        );
    }

    #[test]
    fn the_board_is_read_by_lines() {
        let mut s = start();
        s.last_move = Some(37);
        s.flipped = vec![36];
        s.cells[37] = 1;
        s.cells[36] = 1;
        let read = |key: &str| read_key(Lang::En, key, &s, 36, None).unwrap();
        assert_eq!(
            read("r"),
            "Row 5: a5 to c5 empty, d5 to f5 black, g5 to h5 empty."
        );
        assert_eq!(
            read("C"),
            "Column e: e1 to e3 empty, e4 to e5 black, e6 to e8 empty."
        );
        assert_eq!(
            read("d"),
            "Diagonal a1–h8: a1 to c3 empty, d4 white, e5 black, f6 to h8 empty. \
             Diagonal b8–h2: b8 to d6 empty, e5 black, f4 to h2 empty."
        );
        assert_eq!(read("l"), "Legal moves: d3, c4, f5, e6.");
        assert_eq!(read("s"), "Discs: black 4, white 1; empty squares: 59.");
        assert_eq!(read("m"), "Last move: Black f5 flips 1: e5.");
        assert_eq!(read("t"), "This game has no clocks.");
        assert_eq!(read_key(Lang::En, "x", &s, 36, None), None);
        assert_eq!(
            read_key(Lang::El, "s", &s, 36, None).as_deref(),
            Some("Πούλια: μαύρα 4, λευκά 1· κενά τετράγωνα: 59.")
        );
        // By the physical key: the Greek layout's «ρ» is the R key.
        assert_eq!(reading_key("KeyR", "ρ"), "r");
        assert_eq!(reading_key("KeyM", "M"), "m");
        assert_eq!(reading_key("ArrowUp", "ArrowUp"), "ArrowUp");
        assert_eq!(reading_key("Enter", "Enter"), "Enter");
        assert_eq!(line_through(0, (-1, 1)), vec![0]);
        assert_eq!(line_through(63, (1, 1)).len(), 8);
    }
}
