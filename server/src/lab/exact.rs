//! Exact endgame truth for fact sheets and game analysis: from a configured
//! number of empty squares down, the exact solver gives every legal move's
//! final disc difference with perfect play by both sides, within a node
//! budget. When the budget runs out the result says so and the values stay
//! the search's estimates.

use engine::{Position, SolveResult, Square};
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;

/// The default: exact values from this many empty squares down.
pub const DEFAULT_EXACT_EMPTIES: u32 = 20;
/// The default node budget of one position's exact values (all moves).
pub const DEFAULT_EXACT_NODES: u64 = 200_000_000;

/// Settings of the exact solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactLimits {
    /// Solve when the position before the move has at most this many empties.
    pub empties: u32,
    /// Positions the solver may visit for one position (all its moves).
    pub max_nodes: u64,
}

impl Default for ExactLimits {
    fn default() -> Self {
        ExactLimits {
            empties: DEFAULT_EXACT_EMPTIES,
            max_nodes: DEFAULT_EXACT_NODES,
        }
    }
}

/// Solves `pos` exactly unless it needs more than `max_nodes` positions.
pub fn solve_within(pos: &Position, max_nodes: u64) -> Option<SolveResult> {
    solve_until(pos, max_nodes, None)
}

/// [`solve_within`], given up (`None`) once `stop` is set: the AI pool
/// sets it when the search's requester has gone.
pub fn solve_until(
    pos: &Position,
    max_nodes: u64,
    stop: Option<&AtomicBool>,
) -> Option<SolveResult> {
    let options = engine::SolveOptions::default()
        .within(max_nodes)
        .until(stop);
    engine::solve_with(pos, options).map(|s| s.result)
}

/// One legal move's exact final disc difference, from the mover's side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExactMove {
    #[serde(rename = "move")]
    pub square: String,
    /// Final disc difference for the mover with perfect play after this move
    /// (empty squares go to the winner): +6 wins by 6, 0 draws.
    pub final_disc_difference: i32,
}

/// The exact endgame facts of one position (for one mover).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndgameTruth {
    /// `exact` when the solver finished: every value below is perfect play.
    /// `estimate` when the node budget ran out: no exact values are given and
    /// the search values elsewhere on the sheet are estimates only.
    pub status: String,
    /// A sentence saying which, for the reader and the model.
    pub note: String,
    /// Empty squares before the move.
    pub empties: u32,
    pub node_budget: u64,
    /// Positions the solver visited.
    pub nodes: u64,
    /// The played move's exact result (mover's side), when exact.
    pub played: Option<i32>,
    /// The best result the mover could have reached, when exact.
    pub best: Option<i32>,
    /// Every legal move's exact result, best first, when exact.
    pub moves: Vec<ExactMove>,
}

impl EndgameTruth {
    pub fn is_exact(&self) -> bool {
        self.status == "exact"
    }
}

/// Every legal move of `before` solved exactly within `limits.max_nodes`
/// positions in all: `(square, final disc difference for the mover)`, best
/// first, and the nodes used; `None` (with the nodes used) when the budget ran
/// out.
pub fn solve_moves(before: &Position, max_nodes: u64) -> (Option<Vec<(Square, i32)>>, u64) {
    solve_moves_until(before, max_nodes, None)
}

/// [`solve_moves`], given up (`None`) once `stop` is set.
pub fn solve_moves_until(
    before: &Position,
    max_nodes: u64,
    stop: Option<&AtomicBool>,
) -> (Option<Vec<(Square, i32)>>, u64) {
    let mut used = 0u64;
    let mut out = Vec::new();
    for square in before.legal_moves().iter() {
        let Ok(outcome) = before.play(square) else {
            continue;
        };
        let left = max_nodes.saturating_sub(used);
        if left == 0 {
            return (None, used);
        }
        match solve_until(&outcome.position, left, stop) {
            // The child is solved for the opponent (or for the mover again
            // after a pass, which the solver handles at its root).
            Some(result) => {
                used += result.nodes;
                let to_move = outcome.position.side_to_move;
                let value = if to_move == before.side_to_move {
                    result.score
                } else {
                    -result.score
                };
                out.push((square, value));
            }
            None => return (None, max_nodes),
        }
    }
    out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.index().cmp(&b.0.index())));
    (Some(out), used)
}

/// The exact facts of `square` played in `before`, or `None` when `before`
/// has more empties than `limits.empties`.
pub fn truth(before: &Position, square: Square, limits: ExactLimits) -> Option<EndgameTruth> {
    truth_until(before, square, limits, None)
}

/// [`truth`], the solves given up (an estimate) once `stop` is set.
pub fn truth_until(
    before: &Position,
    square: Square,
    limits: ExactLimits,
    stop: Option<&AtomicBool>,
) -> Option<EndgameTruth> {
    let empties = before.empty_count();
    if empties > limits.empties || before.legal_moves().is_empty() {
        return None;
    }
    let (solved, nodes) = solve_moves_until(before, limits.max_nodes, stop);
    Some(match solved {
        Some(moves) => {
            let played = moves.iter().find(|(s, _)| *s == square).map(|(_, v)| *v);
            EndgameTruth {
                status: "exact".into(),
                note: "Exact: the endgame solver played every legal move out with perfect play by both sides; values are final disc differences for the mover.".into(),
                empties,
                node_budget: limits.max_nodes,
                nodes,
                played,
                best: moves.first().map(|(_, v)| *v),
                moves: moves
                    .into_iter()
                    .map(|(s, v)| ExactMove {
                        square: s.to_string(),
                        final_disc_difference: v,
                    })
                    .collect(),
            }
        }
        None => EndgameTruth {
            status: "estimate".into(),
            note: format!(
                "Estimates only: the endgame solver ran out of its budget of {} positions, so the values on this sheet are the depth-limited search's estimates, not perfect play.",
                limits.max_nodes
            ),
            empties,
            node_budget: limits.max_nodes,
            nodes,
            played: None,
            best: None,
            moves: Vec::new(),
        },
    })
}

/// "wins by 6" / "loses by 2" / "draws".
pub fn result_words(diff: i32) -> String {
    match diff.cmp(&0) {
        std::cmp::Ordering::Greater => format!("wins by {diff}"),
        std::cmp::Ordering::Less => format!("loses by {}", -diff),
        std::cmp::Ordering::Equal => "draws".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Game;

    /// A real game played to `empties` empty squares by always taking the
    /// first legal move.
    pub(crate) fn position_with(empties: u32) -> Position {
        let mut game = Game::new();
        while game.position().empty_count() > empties {
            let position = *game.position();
            let first = position.legal_moves().iter().next().expect("a move");
            game.play(first).expect("legal");
        }
        *game.position()
    }

    #[test]
    fn small_endgames_are_solved_for_every_move() {
        let before = position_with(10);
        let square = before.legal_moves().iter().next().expect("a move");
        let truth = truth(&before, square, ExactLimits::default()).expect("in range");
        assert!(truth.is_exact(), "{truth:?}");
        assert_eq!(truth.moves.len() as u32, before.legal_moves().count());
        // The best move's value is the solver's value of the position.
        let whole = engine::solve(&before);
        assert_eq!(truth.best, Some(whole.score));
        assert!(truth.played.is_some_and(|p| p <= whole.score));
    }

    #[test]
    fn a_spent_budget_says_estimate_and_gives_no_values() {
        let before = position_with(14);
        let square = before.legal_moves().iter().next().expect("a move");
        let limits = ExactLimits {
            empties: 20,
            max_nodes: 5,
        };
        let truth = truth(&before, square, limits).expect("in range");
        assert_eq!(truth.status, "estimate");
        assert!(truth.played.is_none() && truth.moves.is_empty());
        assert!(truth.note.contains("Estimates only"));
    }

    #[test]
    fn positions_above_the_threshold_get_no_truth() {
        let before = position_with(30);
        let square = before.legal_moves().iter().next().expect("a move");
        assert!(truth(&before, square, ExactLimits::default()).is_none());
    }
}
