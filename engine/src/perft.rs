//! Move-path enumeration for rule testing and speed measurement.
//!
//! Conventions: a forced pass counts as a ply, and a finished game counts
//! as one leaf at every deeper depth. From the initial position depths 1–11
//! give 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284,
//! 212258800.

use crate::bitboard::{flips, legal_moves};
use crate::position::Position;

/// Number of leaves `depth` plies below `pos`.
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_raw(pos.player().0, pos.opponent().0, depth, false)
}

fn perft_raw(p: u64, o: u64, depth: u32, passed: bool) -> u64 {
    let mut moves = legal_moves(p, o);
    if moves == 0 {
        if passed {
            // Neither side can move: the game is over, one leaf.
            return 1;
        }
        if legal_moves(o, p) == 0 {
            return 1;
        }
        return if depth == 1 {
            1
        } else {
            perft_raw(o, p, depth - 1, true)
        };
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = flips(p, o, sq);
        total += perft_raw(o & !f, p | f | (1 << sq), depth - 1, false);
    }
    total
}
