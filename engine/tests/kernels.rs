//! The fast move-generation kernels against the naive reference (walk the
//! eight directions square by square) on 100,000 random reachable
//! positions.

use engine::kernels::{count_last_flips, flips, legal_moves};
use engine::reference::{flips_naive, legal_moves_naive};

/// xorshift64*: deterministic, no dependencies.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// `count` positions reached by random play from the start (all stages of
/// the game, passes included), as (side to move, opponent) bitboards.
fn reachable_positions(count: usize, seed: u64) -> Vec<(u64, u64)> {
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        loop {
            out.push((p, o));
            let moves = legal_moves_naive(p, o);
            if moves == 0 {
                if legal_moves_naive(o, p) == 0 {
                    break;
                }
                (p, o) = (o, p);
                continue;
            }
            let k = rng.next() % u64::from(moves.count_ones());
            let mut m = moves;
            for _ in 0..k {
                m &= m - 1;
            }
            let sq = m.trailing_zeros() as usize;
            let f = flips_naive(p, o, sq);
            (p, o) = (o & !f, p | f | (1 << sq));
            if out.len() >= count {
                break;
            }
        }
    }
    out
}

#[test]
fn fast_kernels_equal_the_naive_reference_on_100000_positions() {
    let positions = reachable_positions(100_000, 0x9e37_79b9_7f4a_7c15);
    assert_eq!(positions.len(), 100_000);
    let mut moves_seen = 0u64;
    for &(p, o) in &positions {
        for (a, b) in [(p, o), (o, p)] {
            let naive = legal_moves_naive(a, b);
            assert_eq!(legal_moves(a, b), naive, "moves of {a:#x} vs {b:#x}");
            moves_seen += u64::from(naive.count_ones());
            let empty = !(a | b);
            for sq in (0..64).filter(|&i| empty & (1 << i) != 0) {
                assert_eq!(flips(a, b, sq), flips_naive(a, b, sq), "{a:#x} {b:#x} {sq}");
            }
        }
    }
    assert!(moves_seen > 1_000_000, "{moves_seen}");
}

#[test]
fn count_last_flips_equals_the_naive_count_on_every_last_square() {
    // Every square as the last empty one, with random owners elsewhere,
    // plus the last empty squares of the reachable positions' random fills.
    let mut rng = Rng(42);
    for _ in 0..20_000 {
        let bits = rng.next();
        for sq in 0..64 {
            let p = bits & !(1u64 << sq);
            let o = !p & !(1u64 << sq);
            let naive = 2 * flips_naive(p, o, sq).count_ones() as i32;
            assert_eq!(count_last_flips(p, sq), naive, "{p:#x} {sq}");
            assert_eq!(
                count_last_flips(o, sq),
                2 * flips_naive(o, p, sq).count_ones() as i32
            );
        }
    }
}
