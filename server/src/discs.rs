//! Moves valued in discs by the strong search: the one scoring the game
//! analysis and the lab's fact sheets share, so they speak the same numbers
//! (a module of its own, below both, so neither depends on the other).

use engine::{Position, Square};

/// Positions the midgame search may visit for one placement (all its moves
/// together): a few tenths of a second at most.
pub const SEARCH_NODES: u64 = 4_000_000;

/// Every legal move of `before` scored by the strong search on the trained
/// pattern evaluation at `depth`: values in whole discs (estimates) from the
/// mover's side, best first. The analysis and the lab's fact sheets both use
/// it, so they speak the same numbers.
pub fn midgame_scores(before: &Position, depth: u32) -> Vec<(Square, i32)> {
    midgame_scores_until(before, depth, None)
}

/// [`midgame_scores`], stopped early once `stop` is set (the AI pool sets
/// it when the search's requester has gone; the scores are then partial,
/// and nobody reads them).
pub fn midgame_scores_until(
    before: &Position,
    depth: u32,
    stop: Option<&std::sync::atomic::AtomicBool>,
) -> Vec<(Square, i32)> {
    let limits = engine::strong::Limits {
        depth,
        max_nodes: SEARCH_NODES,
        // The exact solver has its own range and budget.
        exact_from_empties: 0,
        time_ms: None,
        threads: 1,
        stop,
    };
    engine::strong::score_all_moves(before, engine::default_weights(), limits)
        .into_iter()
        .map(|m| (m.square, m.value.round() as i32))
        .collect()
}
