//! The play AI's evaluation (docs/PRODUCT.md, "The board, the rules and
//! the play AI"), always from the AI's side.
//!
//! `evaluate = positional + 12 × mobility + 4 × frontier + w × discs` where
//! * positional: sum of [`WEIGHTS`] over the AI's discs minus the opponent's;
//! * mobility: AI legal moves − opponent legal moves (whoever is to move);
//! * frontier: opponent frontier discs − AI frontier discs (a frontier disc
//!   touches an empty square in any of the eight directions);
//! * discs: AI discs − opponent discs, weighted `w` = 1, or 8 when fewer
//!   than 16 squares are empty.
//!
//! Finished games are scored by [`terminal_score`] instead.

use crate::bitboard::{self, Bitboard};
use crate::color::Color;
use crate::position::Position;
use crate::square::Square;

/// Positional weights, index = 8 × row + column (symmetric; corners +120,
/// X-squares −50, C-squares −30). The one source of the weight values:
/// [`WEIGHT_GROUPS`] (the evaluation's positional term and the search's move
/// ordering) and [`MOVE_ORDER`] are derived from this table.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 64] = [
    120, -30,  20,   5,   5,  20, -30, 120,
    -30, -50,  -5,  -5,  -5,  -5, -50, -30,
     20,  -5,  15,   3,   3,  15,  -5,  20,
      5,  -5,   3,   3,   3,   3,  -5,   5,
      5,  -5,   3,   3,   3,   3,  -5,   5,
     20,  -5,  15,   3,   3,  15,  -5,  20,
    -30, -50,  -5,  -5,  -5,  -5, -50, -30,
    120, -30,  20,   5,   5,  20, -30, 120,
];

/// Number of distinct values in [`WEIGHTS`].
pub const WEIGHT_GROUP_COUNT: usize = distinct_weights();

/// The squares of each distinct weight, highest weight first: `(weight,
/// squares as a bit mask)`. Derived from [`WEIGHTS`], so every square is in
/// exactly one group whatever the table holds. Within a group the search
/// tries squares in increasing index (bit) order.
pub const WEIGHT_GROUPS: [(i32, u64); WEIGHT_GROUP_COUNT] = weight_groups();

const fn distinct_weights() -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < 64 {
        let mut seen = false;
        let mut j = 0;
        while j < i {
            if WEIGHTS[j] == WEIGHTS[i] {
                seen = true;
            }
            j += 1;
        }
        if !seen {
            n += 1;
        }
        i += 1;
    }
    n
}

const fn weight_groups() -> [(i32, u64); WEIGHT_GROUP_COUNT] {
    let mut out = [(0i32, 0u64); WEIGHT_GROUP_COUNT];
    let mut k = 0;
    // Each round takes the largest weight below the previous group's.
    let mut ceiling = i32::MAX;
    while k < WEIGHT_GROUP_COUNT {
        let mut value = i32::MIN;
        let mut i = 0;
        while i < 64 {
            if WEIGHTS[i] < ceiling && WEIGHTS[i] > value {
                value = WEIGHTS[i];
            }
            i += 1;
        }
        let mut mask = 0u64;
        let mut i = 0;
        while i < 64 {
            if WEIGHTS[i] == value {
                mask |= 1 << i;
            }
            i += 1;
        }
        out[k] = (value, mask);
        ceiling = value;
        k += 1;
    }
    out
}

/// Weight of one mobility unit.
pub const MOBILITY_WEIGHT: i32 = 12;
/// Weight of one frontier unit.
pub const FRONTIER_WEIGHT: i32 = 4;
/// Disc-difference weight when fewer than [`LATE_EMPTIES`] squares are empty.
pub const LATE_DISC_WEIGHT: i32 = 8;
/// Empty-square count below which discs weigh [`LATE_DISC_WEIGHT`].
pub const LATE_EMPTIES: u32 = 16;
/// Base of a won (or, negated, lost) terminal score.
pub const WIN_SCORE: i32 = 100_000;

/// The four weighted terms of [`evaluate`] and their sum.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct EvaluationTerms {
    /// Positional weights (AI − opponent).
    pub positional: i32,
    /// 12 × (AI legal moves − opponent legal moves).
    pub mobility: i32,
    /// 4 × (opponent frontier discs − AI frontier discs).
    pub frontier: i32,
    /// Disc difference × 1 (or × 8 when fewer than 16 squares are empty).
    pub discs: i32,
    /// Sum of the four terms; equals [`evaluate`].
    pub total: i32,
}

#[inline]
fn positional(own: u64, opp: u64) -> i32 {
    let mut sum = 0;
    for &(w, mask) in &WEIGHT_GROUPS {
        sum += w * ((own & mask).count_ones() as i32 - (opp & mask).count_ones() as i32);
    }
    sum
}

/// The four terms of the evaluation of `pos` from `ai`'s side.
#[must_use]
pub fn evaluation_terms(pos: &Position, ai: Color) -> EvaluationTerms {
    let own = pos.discs(ai).0;
    let opp = pos.discs(ai.opponent()).0;
    let empty = !(own | opp);
    let positional = positional(own, opp);
    let mobility = MOBILITY_WEIGHT
        * (bitboard::legal_moves(own, opp).count_ones() as i32
            - bitboard::legal_moves(opp, own).count_ones() as i32);
    let near_empty = bitboard::neighbours(empty);
    let frontier = FRONTIER_WEIGHT
        * ((opp & near_empty).count_ones() as i32 - (own & near_empty).count_ones() as i32);
    let disc_weight = if empty.count_ones() < LATE_EMPTIES {
        LATE_DISC_WEIGHT
    } else {
        1
    };
    let discs = disc_weight * (own.count_ones() as i32 - opp.count_ones() as i32);
    EvaluationTerms {
        positional,
        mobility,
        frontier,
        discs,
        total: positional + mobility + frontier + discs,
    }
}

/// Heuristic value of `pos` for `ai` (higher is better for `ai`).
#[must_use]
pub fn evaluate(pos: &Position, ai: Color) -> i32 {
    evaluation_terms(pos, ai).total
}

/// Value of a finished game for `ai`: +100000 + disc difference for a win,
/// −100000 + disc difference for a loss, 0 for a draw (empties not counted).
#[must_use]
pub const fn terminal_score(pos: &Position, ai: Color) -> i32 {
    let diff = pos.disc_difference(ai);
    if diff > 0 {
        WIN_SCORE + diff
    } else if diff < 0 {
        -WIN_SCORE + diff
    } else {
        0
    }
}

/// All squares in the play AI's move order: highest weight first, ties to
/// the lower index.
pub const MOVE_ORDER: [Square; 64] = move_order();

const fn move_order() -> [Square; 64] {
    let mut idx = [0usize; 64];
    let mut i = 0;
    while i < 64 {
        idx[i] = i;
        i += 1;
    }
    // Insertion sort (const-friendly): weight descending, index ascending.
    let mut a = 1;
    while a < 64 {
        let mut b = a;
        while b > 0 && WEIGHTS[idx[b]] > WEIGHTS[idx[b - 1]] {
            let t = idx[b];
            idx[b] = idx[b - 1];
            idx[b - 1] = t;
            b -= 1;
        }
        a += 1;
    }
    let mut out = [Square::from_index_unchecked(0); 64];
    let mut k = 0;
    while k < 64 {
        out[k] = Square::from_index_unchecked(idx[k]);
        k += 1;
    }
    out
}

/// The squares of `moves` in the play AI's order (highest weight first,
/// ties to the lower index).
#[must_use]
pub fn ordered_moves(moves: Bitboard) -> Vec<Square> {
    MOVE_ORDER
        .iter()
        .copied()
        .filter(|&sq| moves.contains(sq))
        .collect()
}
