//! The archived game page's replay, as pure functions of the game and the
//! number of placements shown (`at`: 0 for the start ..= the game's
//! length): the board, the position line, the keys that step, each move's
//! label and a rated game's rating lines. The page (`game.rs`) wires them to
//! its signals.

use crate::archive::{GamePly, GameView};
use crate::i18n::Lang;
use crate::protocol::{square_name, BoardSnapshot, Side};

/// The board after `at` placements; `version` tells the island a new
/// position from a redraw. At the end it carries the game's outcome.
pub fn board_at(g: &GameView, at: usize, version: u64) -> BoardSnapshot {
    let total = g.plies.len();
    let (cells, last_move, flipped) = match at.checked_sub(1).and_then(|i| g.plies.get(i)) {
        Some(ply) => (ply.cells.clone(), Some(ply.square), ply.flipped.clone()),
        None => (g.start.clone(), None, Vec::new()),
    };
    BoardSnapshot {
        cells,
        legal: Vec::new(),
        last_move,
        flipped,
        version,
        outcome: (at == total).then_some(match g.winner {
            Some(Side::Black) => 1,
            Some(Side::White) => -1,
            None => 0,
        }),
    }
}

/// Where the replay stands, in words.
pub fn position_text(lang: Lang, g: &GameView, at: usize) -> String {
    let total = g.plies.len();
    match at.checked_sub(1).and_then(|i| g.plies.get(i)) {
        None => t!(lang, "game-at-start", total = total),
        Some(ply) => t!(
            lang,
            "game-at-move",
            number = at,
            total = total,
            side = ply.side.name(),
            square = square_name(ply.square)
        ),
    }
}

/// The placement count a key steps to from `at` (arrow keys one step,
/// Home the start, End the end); `None` for other keys. The caller keeps
/// it within the game. (Keys are listened to in the browser only.)
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
pub fn step_key(key: &str, at: usize, total: usize) -> Option<usize> {
    match key {
        "ArrowLeft" => Some(at.saturating_sub(1)),
        "ArrowRight" => Some(at + 1),
        "Home" => Some(0),
        "End" => Some(total),
        _ => None,
    }
}

/// A move list entry: its number, square and, in a timed game, the time
/// it took.
pub fn ply_label(number: usize, ply: &GamePly) -> String {
    format!(
        "{number}. {}{}",
        square_name(ply.square),
        ply.time_ms
            .map(|ms| format!(" ({:.1} s)", ms as f64 / 1000.0))
            .unwrap_or_default()
    )
}

/// A side's rating before → after a rated game, with the change.
pub fn rating_line((before, after): (i32, i32)) -> String {
    format!(
        "{before} → {after} ({})",
        crate::ratings::change_text(after - before)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::PlayerView;
    use crate::protocol::{EndReason, TableMode};

    fn ply(side: Side, square: u8, time_ms: Option<i64>) -> GamePly {
        let mut cells = crate::protocol::start_cells();
        cells[usize::from(square)] = side.cell();
        GamePly {
            side,
            square,
            cells,
            flipped: vec![28],
            time_ms,
            pass_after: None,
        }
    }

    fn game(winner: Option<Side>) -> GameView {
        let nobody = PlayerView {
            name: None,
            ai_depth: None,
            deleted: false,
        };
        GameView {
            id: crate::ids::GameId::new("g1"),
            mode: TableMode::HotSeat,
            black: nobody.clone(),
            white: nobody,
            start: crate::protocol::start_cells(),
            plies: vec![ply(Side::Black, 19, None), ply(Side::White, 18, Some(1234))],
            winner,
            reason: EndReason::Resigned,
            black_discs: 3,
            white_discs: 3,
            ended_at: 0,
            you: Vec::new(),
            ratings: None,
            synchro: None,
        }
    }

    #[test]
    fn the_board_is_the_start_a_placement_or_the_end_with_its_outcome() {
        let g = game(Some(Side::White));
        let start = board_at(&g, 0, 5);
        assert_eq!(start.cells, g.start);
        assert_eq!(
            (start.last_move, start.outcome, start.version),
            (None, None, 5)
        );
        assert!(start.flipped.is_empty());
        let first = board_at(&g, 1, 6);
        assert_eq!(first.cells, g.plies[0].cells);
        assert_eq!((first.last_move, first.outcome), (Some(19), None));
        assert_eq!(first.flipped, vec![28]);
        let end = board_at(&g, 2, 7);
        assert_eq!((end.last_move, end.outcome), (Some(18), Some(-1)));
        assert!(end.legal.is_empty());
        assert_eq!(board_at(&game(None), 2, 1).outcome, Some(0));
        assert_eq!(board_at(&game(Some(Side::Black)), 2, 1).outcome, Some(1));
    }

    #[test]
    fn the_position_line_counts_the_moves() {
        let g = game(None);
        assert_eq!(
            position_text(Lang::En, &g, 0),
            "The start position, before 2 moves."
        );
        assert_eq!(position_text(Lang::En, &g, 2), "Move 2 of 2: White c3.");
        let mut one = g.clone();
        one.plies.truncate(1);
        assert_eq!(
            position_text(Lang::En, &one, 0),
            "The start position, before the only move."
        );
    }

    #[test]
    fn keys_step_through_the_game() {
        assert_eq!(step_key("ArrowLeft", 0, 2), Some(0));
        assert_eq!(step_key("ArrowLeft", 2, 2), Some(1));
        assert_eq!(step_key("ArrowRight", 1, 2), Some(2));
        assert_eq!(step_key("Home", 2, 2), Some(0));
        assert_eq!(step_key("End", 0, 2), Some(2));
        assert_eq!(step_key("a", 0, 2), None);
    }

    #[test]
    fn labels_and_rating_lines() {
        let g = game(None);
        assert_eq!(ply_label(1, &g.plies[0]), "1. d3");
        assert_eq!(ply_label(2, &g.plies[1]), "2. c3 (1.2 s)");
        assert_eq!(rating_line((1500, 1512)), "1500 → 1512 (+12)");
        assert_eq!(rating_line((1500, 1493)), "1500 → 1493 (−7)");
        assert_eq!(rating_line((1500, 1500)), "1500 → 1500 (±0)");
    }
}
