//! Sets of squares packed into a `u64` (bit index = 8 × row + column, a1 = bit 0).
//!
//! Besides the public [`Bitboard`] type this module holds the crate-internal
//! kernels (masked directional shifts, legal-move generation and flip
//! computation) that every other module builds on.

use crate::square::Square;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares. Bit `8 * row + col` stands for the square in column
/// `col` (a = 0) and row `row` (row "1" = 0).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The four corners a1, h1, a8, h8.
    pub const CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0081);

    /// The set holding just `square`.
    #[must_use]
    pub const fn from_square(square: Square) -> Bitboard {
        Bitboard(1u64 << square.index())
    }

    /// The raw bits.
    #[must_use]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Number of squares in the set.
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set holds no square.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when `square` is in the set.
    #[must_use]
    pub const fn contains(self, square: Square) -> bool {
        self.0 & (1u64 << square.index()) != 0
    }

    /// The set with `square` added.
    #[must_use]
    pub const fn with(self, square: Square) -> Bitboard {
        Bitboard(self.0 | (1u64 << square.index()))
    }

    /// The set with `square` removed.
    #[must_use]
    pub const fn without(self, square: Square) -> Bitboard {
        Bitboard(self.0 & !(1u64 << square.index()))
    }

    /// The square with the lowest index, if any.
    #[must_use]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::new(self.0.trailing_zeros() as usize)
        }
    }

    /// Iterates over the squares in increasing index order.
    #[must_use]
    pub const fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest index first.
#[derive(Clone, Debug)]
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = Square;
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Square::new(index)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl From<Square> for Bitboard {
    fn from(square: Square) -> Bitboard {
        Bitboard::from_square(square)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

// ---------------------------------------------------------------------------
// Internal kernels on raw u64 boards.

/// Column a.
pub(crate) const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Column h.
pub(crate) const FILE_H: u64 = 0x8080_8080_8080_8080;
/// Columns b..g.
const INNER_FILES: u64 = !(FILE_A | FILE_H);

/// Shifts every square one step in direction `dir` (0..8), dropping squares
/// that would leave the board or wrap onto another row.
///
/// Directions: 0 east (+1), 1 west (−1), 2 north (+8), 3 south (−8),
/// 4 north-east (+9), 5 north-west (+7), 6 south-east (−7), 7 south-west (−9).
#[inline(always)]
pub(crate) const fn shift(x: u64, dir: usize) -> u64 {
    match dir {
        0 => (x << 1) & !FILE_A,
        1 => (x >> 1) & !FILE_H,
        2 => x << 8,
        3 => x >> 8,
        4 => (x << 9) & !FILE_A,
        5 => (x << 7) & !FILE_H,
        6 => (x >> 7) & !FILE_A,
        _ => (x >> 9) & !FILE_H,
    }
}

/// Union of the eight one-step shifts of `x`: every square adjacent to a
/// square of `x` (squares of `x` are included only when adjacent to another).
#[inline(always)]
pub(crate) const fn neighbours(x: u64) -> u64 {
    let h = ((x << 1) & !FILE_A) | ((x >> 1) & !FILE_H);
    let hx = h | x;
    h | (hx << 8) | (hx >> 8)
}

/// Legal moves for the player owning `p` against the opponent owning `o`.
/// Legal moves of `p` against `o`: for each of the four axes, both
/// directions, the runs of opponent discs that start next to an own disc are
/// grown by parallel prefix (1, 2, 4 steps at once: Edax's `get_moves`), and
/// the empty square just past a run is a move.
#[inline(always)]
pub const fn legal_moves(p: u64, o: u64) -> u64 {
    let masked = o & INNER_FILES;
    (axis_moves(p, masked, 1)
        | axis_moves(p, o, 8)
        | axis_moves(p, masked, 7)
        | axis_moves(p, masked, 9))
        & !(p | o)
}

/// Moves along one axis (shift `s`), both directions; `m` = the opponent
/// discs that may sit inside a run on this axis.
#[inline(always)]
const fn axis_moves(p: u64, m: u64, s: u32) -> u64 {
    let d = 2 * s;
    let mut up = m & (p << s);
    up |= m & (up << s);
    let pre_up = m & (m << s);
    up |= pre_up & (up << d);
    up |= pre_up & (up << d);
    let mut down = m & (p >> s);
    down |= m & (down >> s);
    let pre_down = pre_up >> s;
    down |= pre_down & (down >> d);
    down |= pre_down & (down >> d);
    (up << s) | (down >> s)
}

/// The squares from each square to the board's edge in each direction, in
/// the order [`RAY_DIRS`]: the four towards higher indices, then the four
/// towards lower ones (each half one 32-byte vector for [`flips`], each
/// square's eight one cache line).
static RAYS: Aligned<[[u64; 8]; 64]> = Aligned(rays());

/// A table on a 64-byte boundary.
#[repr(align(64))]
struct Aligned<T>(T);

/// The directions ([`shift`]) of [`RAYS`]' columns.
const RAY_DIRS: [usize; 8] = [0, 2, 4, 5, 1, 3, 6, 7];

const fn rays() -> [[u64; 8]; 64] {
    let mut out = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut k = 0;
        while k < 8 {
            let dir = RAY_DIRS[k];
            let mut x = shift(1u64 << sq, dir);
            let mut ray = 0u64;
            while x != 0 {
                ray |= x;
                x = shift(x, dir);
            }
            out[sq][k] = ray;
            k += 1;
        }
        sq += 1;
    }
    out
}

/// Discs of `o` flipped when the owner of `p` plays on the (empty) square
/// `index`. Zero when the move flips nothing.
///
/// Branch-free per direction (a scalar form of Edax's `flip_avx_acepck`):
/// towards higher indices the lowest non-opponent square of the ray must be
/// an own disc; towards lower indices the highest one must be.
#[inline(always)]
pub fn flips(p: u64, o: u64, index: usize) -> u64 {
    let rays = &RAYS.0[index & 63];
    let mut all = 0u64;
    // Towards higher indices (east, north, north-east, north-west): the run
    // up to and including the first non-opponent square.
    for &ray in &rays[..4] {
        let stop = !o & ray;
        let run = (stop ^ stop.wrapping_sub(1)) & ray;
        let hit = u64::from(run & p != 0).wrapping_neg();
        all |= run & !p & hit;
    }
    // Towards lower indices (west, south, south-east, south-west): the
    // highest non-opponent square must be own (own > empty there), and
    // the run is the ray above the highest own disc: the own discs'
    // shadow, filled along the ray by three shifts, is what is not
    // flipped (Edax's `flip_avx_acepck`; a leading-zero count instead
    // has no AVX2 form and took ~25 vector instructions).
    // (No lower ray holds bit 63: the signed comparison is the unsigned one.)
    for (&ray, step) in rays[4..].iter().zip([1, 8, 7, 9]) {
        let own = p & ray;
        let empty = (!o & ray) ^ own;
        let hit = u64::from(own as i64 > empty as i64).wrapping_neg();
        let mut shadow = own | (own >> step);
        shadow |= shadow >> (2 * step);
        shadow |= shadow >> (4 * step);
        all |= ray & !shadow & hit;
    }
    all
}

/// Twice the number of discs flipped along a line of 8 squares, indexed by
/// the mover's position in the line and the mover's discs in the line
/// (bit i = square i of the line), every other square of the line holding
/// an opponent disc. Squares past the end of a short line read as
/// opponent discs, which can never close a run, so short lines work too.
static LINE_FLIPS: [[u8; 256]; 8] = line_flips();

const fn line_flips() -> [[u8; 256]; 8] {
    let mut out = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut pattern = 0;
        while pattern < 256 {
            let mut n = 0;
            // Upwards.
            let mut i = pos + 1;
            let mut run = 0;
            while i < 8 && pattern & (1 << i) == 0 {
                run += 1;
                i += 1;
            }
            if i < 8 {
                n += run;
            }
            // Downwards.
            let mut i = pos as i32 - 1;
            let mut run = 0;
            while i >= 0 && pattern & (1 << i) == 0 {
                run += 1;
                i -= 1;
            }
            if i >= 0 {
                n += run;
            }
            out[pos][pattern] = 2 * n as u8;
            pattern += 1;
        }
        pos += 1;
    }
    out
}

/// The a1–h8 and a8–h1 diagonals through each square.
static DIAGONALS_OF: [(u64, u64); 64] = diagonals_of();

const fn diagonals_of() -> [(u64, u64); 64] {
    let mut out = [(0u64, 0u64); 64];
    let mut sq = 0;
    while sq < 64 {
        let r = &RAYS.0[sq];
        // North-east + south-west, north-west + south-east.
        out[sq] = (r[2] | r[7] | (1 << sq), r[3] | r[6] | (1 << sq));
        sq += 1;
    }
    out
}

/// Twice the number of discs `p` flips by playing the last empty square
/// `index` (every other square is occupied, so the opponent holds exactly
/// the squares `p` does not). Edax's `count_last_flip`: four table look-ups,
/// one per line through the square, with the line's discs gathered into a
/// byte by a shift (rows) or a multiplication (columns, diagonals).
#[inline(always)]
pub fn count_last_flips(p: u64, index: usize) -> i32 {
    let index = index & 63;
    let (row, col) = (index >> 3, index & 7);
    let row_bits = (p >> (row * 8)) as u8;
    let col_bits = (((p >> col) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    let (d9, d7) = DIAGONALS_OF[index];
    let d9_bits = ((p & d9).wrapping_mul(FILE_A) >> 56) as u8;
    let d7_bits = ((p & d7).wrapping_mul(FILE_A) >> 56) as u8;
    i32::from(LINE_FLIPS[col][row_bits as usize])
        + i32::from(LINE_FLIPS[row][col_bits as usize])
        + i32::from(LINE_FLIPS[col][d9_bits as usize])
        + i32::from(LINE_FLIPS[col][d7_bits as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Move generation agrees with the per-square flip computation, and
    /// shifts never wrap between rows.
    #[test]
    fn legal_moves_agree_with_flips() {
        let mut state = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let a = state;
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let b = state;
            let (p, o) = (a & !b & (b >> 3 | a >> 7), b & !a);
            let expected = (0..64)
                .filter(|&i| (p | o) & (1 << i) == 0 && flips(p, o, i) != 0)
                .fold(0u64, |m, i| m | (1 << i));
            assert_eq!(legal_moves(p, o), expected);
        }
        for dir in 0..8 {
            for sq in 0..64usize {
                let moved = shift(1 << sq, dir);
                if moved != 0 {
                    let to = moved.trailing_zeros() as usize;
                    assert!((to % 8).abs_diff(sq % 8) <= 1 && (to / 8).abs_diff(sq / 8) <= 1);
                }
            }
        }
    }

    #[test]
    fn neighbours_are_the_eight_shifts() {
        for sq in 0..64usize {
            let x = 1u64 << sq;
            let union = (0..8).fold(0, |m, d| m | shift(x, d));
            assert_eq!(neighbours(x), union);
        }
    }
}
