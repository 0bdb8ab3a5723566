//! An independent, exhaustive MiniMax (no pruning) used to check the α–β
//! play search.
//!
//! It shares only the public rules ([`Position::flips`] per square, not the
//! bitboard move generator), the evaluation and the move order definition
//! (weight descending, ties to the lower index) so that "the same move" is
//! well defined when values tie. Exponential: keep depths small.

use crate::color::Color;
use crate::eval::{evaluate, terminal_score, WEIGHTS};
use crate::position::Position;
use crate::square::Square;

/// Legal moves by scanning every square, in the play AI's order.
fn moves_in_order(pos: &Position) -> Vec<(Square, Position)> {
    let mut list: Vec<(Square, Position)> = Square::all()
        .filter_map(|sq| pos.play(sq).ok().map(|o| (sq, o.position)))
        .collect();
    list.sort_by_key(|(sq, _)| (-WEIGHTS[sq.index()], sq.index()));
    list
}

/// Plain MiniMax value of `pos` for `ai` at `depth` placed discs (docs/PRODUCT.md
/// pseudo-code without α–β).
#[must_use]
pub fn minimax(pos: &Position, ai: Color, depth: u32) -> i32 {
    let moves = moves_in_order(pos);
    if moves.is_empty() {
        let passed = Position {
            side_to_move: pos.side_to_move.opponent(),
            ..*pos
        };
        if moves_in_order(&passed).is_empty() {
            return terminal_score(pos, ai);
        }
        return minimax(&passed, ai, depth);
    }
    if depth == 0 {
        return evaluate(pos, ai);
    }
    let values = moves.iter().map(|(_, next)| minimax(next, ai, depth - 1));
    if pos.side_to_move == ai {
        values.max().unwrap_or(0)
    } else {
        values.min().unwrap_or(0)
    }
}

/// The reference choice at the root.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ReferenceChoice {
    /// Highest value, ties to the earlier move in the order.
    pub best_move: Square,
    /// Its value.
    pub value: i32,
    /// Every legal move with its value, in the play AI's order.
    pub root_moves: Vec<(Square, i32)>,
}

/// Plain MiniMax at the root; `None` when the side to move has no legal move.
#[must_use]
pub fn best_move(pos: &Position, depth: u32) -> Option<ReferenceChoice> {
    let depth = depth.max(1);
    let ai = pos.side_to_move;
    let root_moves: Vec<(Square, i32)> = moves_in_order(pos)
        .into_iter()
        .map(|(sq, next)| (sq, minimax(&next, ai, depth - 1)))
        .collect();
    let mut best: Option<(Square, i32)> = None;
    for &(sq, v) in &root_moves {
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((sq, v));
        }
    }
    best.map(|(best_move, value)| ReferenceChoice {
        best_move,
        value,
        root_moves,
    })
}

/// Exhaustive exact endgame score (standard scoring) for the side to move,
/// by plain negamax over the public rules. Exponential: ≤ 10 empties.
#[must_use]
pub fn solve_exhaustive(pos: &Position) -> i32 {
    let moves = moves_in_order(pos);
    if moves.is_empty() {
        let passed = Position {
            side_to_move: pos.side_to_move.opponent(),
            ..*pos
        };
        if moves_in_order(&passed).is_empty() {
            return pos.final_score(pos.side_to_move);
        }
        return -solve_exhaustive(&passed);
    }
    moves
        .iter()
        .map(|(_, next)| -solve_exhaustive(next))
        .max()
        .unwrap_or(0)
}

/// Discs of `o` flipped by the owner of `p` playing on `index`, found the
/// slow way: walk each of the eight directions square by square (row and
/// column arithmetic, no bit tricks) and flip a run of opponent discs that
/// ends on an own disc. The reference for the fast kernels.
#[must_use]
pub fn flips_naive(p: u64, o: u64, index: usize) -> u64 {
    if index >= 64 || (p | o) & (1 << index) != 0 {
        return 0;
    }
    let (row, col) = ((index / 8) as i32, (index % 8) as i32);
    let mut all = 0u64;
    for (dr, dc) in [
        (0, 1),
        (0, -1),
        (1, 0),
        (-1, 0),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ] {
        let mut run = 0u64;
        let (mut r, mut c) = (row + dr, col + dc);
        while (0..8).contains(&r) && (0..8).contains(&c) {
            let bit = 1u64 << (r * 8 + c);
            if o & bit != 0 {
                run |= bit;
            } else {
                if p & bit != 0 {
                    all |= run;
                }
                break;
            }
            r += dr;
            c += dc;
        }
    }
    all
}

/// Legal moves of `p` against `o` by trying every empty square with
/// [`flips_naive`].
#[must_use]
pub fn legal_moves_naive(p: u64, o: u64) -> u64 {
    (0..64)
        .filter(|&i| flips_naive(p, o, i) != 0)
        .fold(0u64, |m, i| m | (1 << i))
}
