//! The engine for the browser: the same `engine` crate the server runs,
//! compiled to its own wasm module and run in a Web Worker
//! (`engine-worker.js`, served as `/pkg/engine-worker.js`).
//!
//! The page never loads this module itself: the worker fetches it the first
//! time a hint or an offline game asks for it, so the lobby's bytes do not
//! grow. The exports are small and typed:
//!
//! * [`search`]: the play AI's α–β search to a depth (what the server's AI
//!   plays), [`solve`]: the exact endgame solver, [`hint`]: the solver when at
//!   most [`HINT_EXACT_EMPTIES`] squares are empty, else the search;
//! * [`hint_all`]: every legal move's value in discs, by the strong search
//!   on the trained pattern evaluation (exact where the solver finishes
//!   within the budget); the weights are not part of this module: the worker
//!   fetches them (`/pkg/eval.<hash>.bin`) and hands them to
//!   [`load_weights`] the first time a hint needs them, so neither the page
//!   nor offline practice ever downloads them;
//! * [`play`]: the rules for a game kept in the browser (offline practice):
//!   a move, the automatic pass that may follow, the legal moves, the end.
//!
//! Boards are the interchange form: 64 cells, a1 = 0 … h8 = 63, 0 empty,
//! +1 black, −1 white; a side is +1 (black) or −1 (white).

use engine::{Color, Position, Square};
use wasm_bindgen::prelude::*;

/// A hint is exact (the solver) from this many empty squares down.
pub const HINT_EXACT_EMPTIES: u32 = 20;

/// What a search or a solve found.
#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Analysis {
    /// The best move's square (0..64), or −1 when the side to move must pass
    /// or the game is over.
    pub square: i32,
    /// The value from the side to move's view: the play AI's MiniMax value
    /// for a search, the final disc difference with perfect play for a solve.
    pub value: i32,
    /// Positions visited (exact integer below 2^53).
    pub nodes: f64,
    /// Plies searched: the depth, or the number of empty squares for a solve.
    pub depth: u32,
    /// Whether this is the solver's exact result.
    pub exact: bool,
}

/// Every legal move's value, best first (see [`hint_all`]).
#[wasm_bindgen(getter_with_clone)]
#[derive(Clone, Debug, PartialEq)]
pub struct MoveValues {
    /// The legal squares (0..64), best first.
    pub squares: Vec<u8>,
    /// Each move's value in discs for the side to move (the final disc
    /// difference expected after it).
    pub values: Vec<f32>,
    /// 1 where the value is exact (solved), else 0.
    pub exact: Vec<u8>,
    /// The search depth in the midgame.
    pub depth: u32,
}

/// Hints score every move exactly from this many empty squares down (within
/// the node budget).
pub const HINT_ALL_EXACT_EMPTIES: u32 = 18;

/// Every legal move of `pos` scored in discs by the strong search at
/// `depth` on `weights`, within `max_nodes` for all moves together.
pub fn hint_all_position(
    pos: &Position,
    weights: &engine::PatternWeights,
    depth: u32,
    max_nodes: u64,
) -> MoveValues {
    let limits = engine::Limits {
        depth: depth.clamp(1, 20),
        max_nodes: max_nodes.max(1),
        exact_from_empties: HINT_ALL_EXACT_EMPTIES,
        time_ms: None,
        threads: 1,
        stop: None,
    };
    let scores = engine::score_all_moves(pos, weights, limits);
    MoveValues {
        squares: scores.iter().map(|m| m.square.index() as u8).collect(),
        values: scores.iter().map(|m| m.value).collect(),
        exact: scores.iter().map(|m| u8::from(m.exact)).collect(),
        depth: limits.depth,
    }
}

/// A position after a move in a game kept in the browser.
#[wasm_bindgen(getter_with_clone)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The 64 cells after the move.
    pub cells: Vec<i8>,
    /// Discs the move flipped.
    pub flipped: Vec<u8>,
    /// Who moves next (+1 black, −1 white), 0 when the game is over. When the
    /// other side has no move, it passes and the mover moves again.
    pub to_move: i8,
    /// The side that had to pass after this move (+1/−1), else 0.
    pub passed: i8,
    /// The legal moves of `to_move` (empty when the game is over).
    pub legal: Vec<u8>,
    /// Disc counts.
    pub black: u8,
    pub white: u8,
}

fn color(side: i8) -> Result<Color, String> {
    match side {
        1 => Ok(Color::Black),
        -1 => Ok(Color::White),
        other => Err(format!("side must be 1 (black) or -1 (white), not {other}")),
    }
}

/// Reads a board in the interchange form.
pub fn position(cells: &[i8], side: i8) -> Result<Position, String> {
    if cells.len() != 64 {
        return Err(format!("a board has 64 cells, not {}", cells.len()));
    }
    Position::from_cells(cells, color(side)?).map_err(|e| e.to_string())
}

fn square_of(square: Option<Square>) -> i32 {
    square.map_or(-1, |s| s.index() as i32)
}

/// The play AI's search to `depth` (1..=60; 0 counts as 1), as the server's
/// AI runs it.
pub fn search_position(pos: &Position, depth: u32) -> Analysis {
    let report = engine::search(pos, depth.min(60));
    Analysis {
        square: square_of(report.best_move),
        value: report.value,
        nodes: report.nodes as f64,
        depth: report.depth,
        exact: false,
    }
}

/// The exact solver.
pub fn solve_position(pos: &Position) -> Analysis {
    let result = engine::solve(pos);
    Analysis {
        square: square_of(result.best_move),
        value: result.score,
        nodes: result.nodes as f64,
        depth: pos.empty_count(),
        exact: true,
    }
}

/// Exact in the last [`HINT_EXACT_EMPTIES`] empties, else a search to `depth`.
pub fn hint_position(pos: &Position, depth: u32) -> Analysis {
    if pos.empty_count() <= HINT_EXACT_EMPTIES {
        solve_position(pos)
    } else {
        search_position(pos, depth)
    }
}

fn squares(board: engine::Bitboard) -> Vec<u8> {
    board.iter().map(|s| s.index() as u8).collect()
}

/// Plays `square` (or, with −1, only describes the position) and the forced
/// pass that may follow.
pub fn play_position(pos: &Position, square: i32) -> Result<Step, String> {
    let (after, flipped) = if square < 0 {
        (*pos, Vec::new())
    } else {
        let sq = usize::try_from(square)
            .ok()
            .and_then(Square::new)
            .ok_or_else(|| format!("no square {square}"))?;
        let outcome = pos.play(sq).map_err(|e| e.to_string())?;
        (outcome.position, squares(outcome.flipped))
    };
    let (next, passed) = if after.is_game_over() {
        (after, 0)
    } else if after.must_pass() {
        let passer = after.side_to_move.cell_value();
        (after.pass().map_err(|e| e.to_string())?, passer)
    } else {
        (after, 0)
    };
    let over = next.is_game_over();
    Ok(Step {
        cells: next.to_cells().to_vec(),
        flipped,
        to_move: if over {
            0
        } else {
            next.side_to_move.cell_value()
        },
        passed,
        legal: if over {
            Vec::new()
        } else {
            squares(next.legal_moves())
        },
        black: next.count(Color::Black) as u8,
        white: next.count(Color::White) as u8,
    })
}

/// [`search_position`] on a board in the interchange form.
#[wasm_bindgen]
pub fn search(cells: &[i8], side: i8, depth: u32) -> Result<Analysis, JsError> {
    Ok(search_position(&position(cells, side).map_err(js)?, depth))
}

/// [`solve_position`] on a board in the interchange form.
#[wasm_bindgen]
pub fn solve(cells: &[i8], side: i8) -> Result<Analysis, JsError> {
    Ok(solve_position(&position(cells, side).map_err(js)?))
}

/// [`hint_position`] on a board in the interchange form.
#[wasm_bindgen]
pub fn hint(cells: &[i8], side: i8, depth: u32) -> Result<Analysis, JsError> {
    Ok(hint_position(&position(cells, side).map_err(js)?, depth))
}

thread_local! {
    /// The weights [`load_weights`] was given (the worker is one thread).
    static WEIGHTS: std::cell::OnceCell<engine::PatternWeights> = const { std::cell::OnceCell::new() };
}

/// Whether the weights are loaded.
#[wasm_bindgen]
pub fn weights_loaded() -> bool {
    WEIGHTS.with(|w| w.get().is_some())
}

/// Loads the trained weights (the bytes of `eval.bin`); refused when they
/// are not a valid weights file (wrong layout, bad checksum).
#[wasm_bindgen]
pub fn load_weights(bytes: &[u8]) -> Result<(), JsError> {
    let weights = engine::PatternWeights::from_bytes(bytes).map_err(|e| js(e.to_string()))?;
    WEIGHTS.with(|w| {
        let _ = w.set(weights);
    });
    Ok(())
}

/// [`hint_all_position`] on a board in the interchange form (`max_nodes` a
/// whole number of positions), with the loaded weights.
#[wasm_bindgen]
pub fn hint_all(cells: &[i8], side: i8, depth: u32, max_nodes: f64) -> Result<MoveValues, JsError> {
    let budget = if max_nodes.is_finite() && max_nodes >= 1.0 {
        max_nodes as u64
    } else {
        1
    };
    let position = position(cells, side).map_err(js)?;
    WEIGHTS.with(|w| match w.get() {
        Some(weights) => Ok(hint_all_position(&position, weights, depth, budget)),
        None => Err(js("the evaluation's weights are not loaded".to_string())),
    })
}

/// [`play_position`] on a board in the interchange form.
#[wasm_bindgen]
pub fn play(cells: &[i8], side: i8, square: i32) -> Result<Step, JsError> {
    play_position(&position(cells, side).map_err(js)?, square).map_err(js)
}

fn js(message: String) -> JsError {
    JsError::new(&message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_is_described() {
        let start = Position::initial().to_cells();
        let step = play_position(&position(&start, 1).unwrap(), -1).unwrap();
        assert_eq!(step.to_move, 1);
        assert_eq!(step.legal, vec![19, 26, 37, 44]);
        assert_eq!((step.black, step.white), (2, 2));
        assert!(step.flipped.is_empty());
    }

    #[test]
    fn a_move_flips_and_hands_over() {
        let start = Position::initial().to_cells();
        let step = play_position(&position(&start, 1).unwrap(), 37).unwrap();
        assert_eq!(step.flipped, vec![36]);
        assert_eq!(step.to_move, -1);
        assert_eq!((step.black, step.white), (4, 1));
        assert!(play_position(&position(&start, 1).unwrap(), 0).is_err());
        assert!(play_position(&position(&start, 1).unwrap(), 64).is_err());
    }

    #[test]
    fn every_move_is_scored_and_exact_values_match_the_solver() {
        let start = Position::initial();
        let weights = engine::default_weights();
        let all = hint_all_position(&start, weights, 6, 2_000_000);
        assert_eq!(all.squares.len(), 4, "four legal moves at the start");
        assert!(all.values.windows(2).all(|w| w[0] >= w[1]), "best first");
        assert!(
            all.values.iter().all(|v| v.abs() < 20.0),
            "{:?}",
            all.values
        );
        // Near the end every value is exact and equals the solver's.
        let endgame = Position::from_obf(
            "XXXXXXXXXXXXXXXXOOOOOOOOXXXXXXXXOOOOOOXXXXXXXX--OOOOOO----XXXXX- X",
        )
        .unwrap();
        let all = hint_all_position(&endgame, weights, 8, 10_000_000);
        assert!(!all.squares.is_empty());
        for (i, &sq) in all.squares.iter().enumerate() {
            assert_eq!(all.exact[i], 1);
            let after = endgame
                .play(Square::new(usize::from(sq)).unwrap())
                .unwrap()
                .position;
            assert_eq!(all.values[i], -(engine::solve(&after).score as f32));
        }
    }

    #[test]
    fn bad_boards_are_refused() {
        assert!(position(&[0; 63], 1).is_err());
        assert!(position(&[0; 64], 0).is_err());
        assert!(position(&[2; 64], 1).is_err());
    }

    #[test]
    fn a_forced_pass_is_played_and_the_end_is_seen() {
        // Black a1, white b1, the rest empty except h8 black: black plays c1
        // and white has no disc left: the game is over.
        let mut cells = [0i8; 64];
        cells[0] = 1;
        cells[1] = -1;
        let pos = position(&cells, 1).unwrap();
        let step = play_position(&pos, 2).unwrap();
        assert_eq!(step.to_move, 0);
        assert!(step.legal.is_empty());
        assert_eq!((step.black, step.white), (3, 0));
    }

    #[test]
    fn hints_are_exact_near_the_end_only() {
        let start = Position::initial();
        let early = hint_position(&start, 2);
        assert!(!early.exact);
        assert_eq!(early.depth, 2);
        assert_eq!(early, search_position(&start, 2));
        // Fill all but 10 squares along a legal game.
        let mut pos = start;
        while pos.empty_count() > 10 && !pos.is_game_over() {
            pos = match pos.legal_moves().first() {
                Some(sq) => pos.play(sq).unwrap().position,
                None => pos.pass().unwrap(),
            };
        }
        let late = hint_position(&pos, 2);
        assert!(late.exact);
        assert_eq!(late.depth, pos.empty_count());
        assert_eq!(late.value, engine::solve(&pos).score);
    }
}
