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
    let (p, o) = (pos.player().0, pos.opponent().0);
    #[cfg(target_arch = "x86_64")]
    if crate::endgame::x86_v3() {
        #[allow(unsafe_code)]
        // SAFETY: `perft_v3` is compiled for popcnt, lzcnt, bmi1, bmi2 and
        // avx2, and `x86_v3()` has just checked that this CPU has them all.
        return unsafe { perft_v3(p, o, depth, false) };
    }
    perft_raw(p, o, depth, false)
}

/// [`perft`] on the portable copy of the recursion (tests compare the two).
#[doc(hidden)]
#[must_use]
pub fn perft_portable(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_raw(pos.player().0, pos.opponent().0, depth, false)
}

/// The recursion, once plain and (on x86-64) once compiled for x86-64-v3.
macro_rules! perft_recursion {
    ($name:ident $(, $features:literal)?) => {
$(#[target_feature(enable = $features)])?
fn $name(p: u64, o: u64, depth: u32, passed: bool) -> u64 {
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
            $name(o, p, depth - 1, true)
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
        total += $name(o & !f, p | f | (1 << sq), depth - 1, false);
    }
    total
}
    };
}

perft_recursion!(perft_raw);
#[cfg(target_arch = "x86_64")]
perft_recursion!(perft_v3, "popcnt,lzcnt,bmi1,bmi2,avx2");
