//! The move-generation kernels the search, the solver and perft run on,
//! exposed so that tests can check them against the naive reference
//! ([`crate::reference::flips_naive`], [`crate::reference::legal_moves_naive`]).
//!
//! One source for every target: portable `u64` code (no tables larger than
//! a few KiB, no `unsafe`). On x86-64 CPUs with POPCNT, LZCNT, BMI1/2 and
//! AVX2 the solver and perft run a copy of their recursion compiled for
//! those features (`is_x86_feature_detected!` picks it at run time), which
//! inlines these same functions with single-instruction popcounts and bit
//! scans; the results are identical by construction and by test.

/// Legal moves of the side owning `p` against `o` (bit set per square).
#[must_use]
pub fn legal_moves(p: u64, o: u64) -> u64 {
    crate::bitboard::legal_moves(p, o)
}

/// Discs of `o` flipped when the owner of `p` plays the empty square
/// `index` (0 when the move is illegal).
#[must_use]
pub fn flips(p: u64, o: u64, index: usize) -> u64 {
    crate::bitboard::flips(p, o, index)
}

/// Twice the number of discs `p` flips by playing `index` when it is the
/// last empty square (every other square not in `p` holds an opponent disc).
#[must_use]
pub fn count_last_flips(p: u64, index: usize) -> i32 {
    crate::bitboard::count_last_flips(p, index)
}
