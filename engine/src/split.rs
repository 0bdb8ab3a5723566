//! Sharing an exact solve between threads: ABDADA ("alpha-bêta distribué
//! avec droit d'aînesse", Weill 1996, in its simplified form).
//!
//! Every thread searches the same tree from the root on the solver's shared
//! transposition table, as in lazy SMP, but threads avoid searching the
//! same subtree at once: a thread entering a node with at least
//! [`DEFER_EMPTIES`]` − 1` empty squares records it in a small shared table
//! of positions in progress ([`Busy`]), and at a node with at least
//! [`DEFER_EMPTIES`] empties it *defers* a move whose resulting position
//! another thread is searching: it goes on with the next moves and comes
//! back to the deferred ones after them, when the other thread has usually
//! finished and left the child's bounds in the table. The first move of a
//! node (the table's move, else the best ordered one) is never deferred
//! (the young-brothers-wait condition: the others are searched with the
//! bound it gives), so near the principal variation the threads first
//! agree, then spread over the younger brothers.
//!
//! Every thread's search is complete (a deferred move is searched in the
//! end, only later), so each thread's root result is exact; the first
//! thread to finish the solve posts its result, the others stop at their
//! next check. Selective passes and the root's aspiration windows run in
//! each thread as with one thread; the in-progress table keys include the
//! pass, so a thread does not defer to one searching another pass. With
//! one thread there is no in-progress table and the search is exactly the
//! serial one.
//!
//! Why ABDADA rather than YBWC's explicit split points: the solver already
//! shares its table between threads, the recursion stays one function per
//! kernel copy (no split-point objects, no waiting master, no locks), a
//! cut-off needs no message to the other threads (each thread's window is
//! its own), and it scales to more threads without change.

use crate::pvs::{search_move, NO_MOVE};
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

/// At nodes with at least this many empty squares a thread defers moves
/// another thread is searching.
pub(crate) const DEFER_EMPTIES: u32 = 12;
/// The in-progress table holds `2^BUSY_BITS` positions.
const BUSY_BITS: u32 = 13;

/// The positions the threads of a solve are searching (a hash per slot,
/// 0 when free). A collision only makes a thread defer a move needlessly
/// or search one at the same time as another thread: never a wrong value.
pub(crate) struct Busy {
    slots: Vec<AtomicU64>,
}

impl Busy {
    pub(crate) fn new() -> Busy {
        Busy {
            slots: (0..1usize << BUSY_BITS)
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }

    /// The key of `(p, o)` in the pass `sel` (never 0).
    #[inline(always)]
    pub(crate) fn key(p: u64, o: u64, sel: u8) -> u64 {
        ((p ^ o.rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F) ^ u64::from(sel))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15))
            | 1
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key >> (64 - BUSY_BITS)) as usize]
    }

    /// Records that a thread is searching the position of `key`.
    #[inline(always)]
    pub(crate) fn enter(&self, key: u64) {
        self.slot(key).store(key, Relaxed);
    }

    /// Clears the record of `key` (unless another position took its slot).
    #[inline(always)]
    pub(crate) fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }

    /// Whether some thread is searching the position of `key`.
    #[inline(always)]
    pub(crate) fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Relaxed) == key
    }
}

/// [`crate::pvs::pvs_loop`] with deferral: the same principal-variation
/// search of the ordered `moves`, except that a move other than the first
/// one searched (the first of `moves` unless `first_searched`) whose
/// resulting position `(opponent, player)` is `busy` is put off until the
/// other moves have been searched; the deferred moves then go in their
/// order, busy or not (taking first those no longer busy made no
/// difference beyond the noise on FFO #40–#44 with 2 threads). Same
/// results as `pvs_loop` up to the order of the moves: fail-soft, the best
/// value (`floor` without moves) and its move, `None` when `child` was
/// stopped.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn deferring_loop(
    p: u64,
    o: u64,
    moves: &[(i32, u8, u64)],
    mut alpha: i32,
    beta: i32,
    floor: i32,
    first_searched: bool,
    busy: impl Fn(u64, u64) -> bool,
    mut child: impl FnMut(u64, u64, i32, i32) -> Option<i32>,
    mut seen: impl FnMut(usize, u8, i32),
) -> Option<(i32, u8)> {
    let mut best = floor;
    let mut best_move = NO_MOVE;
    let after = |i: usize| {
        let (_, sq, f) = moves[i];
        (o & !f, p | f | (1u64 << sq))
    };
    // Moves deferred (bit i: `moves[i]`).
    let mut deferred = 0u64;
    let mut next = 0;
    loop {
        let i = if next < moves.len() {
            next += 1;
            let i = next - 1;
            let (no, np) = after(i);
            if (i > 0 || first_searched) && i < 64 && busy(no, np) {
                deferred |= 1 << i;
                continue;
            }
            i
        } else if deferred != 0 {
            let i = deferred.trailing_zeros() as usize;
            deferred &= deferred - 1;
            i
        } else {
            break;
        };
        let (no, np) = after(i);
        let sq = moves[i].1;
        let v = search_move(no, np, i == 0 && !first_searched, alpha, beta, &mut child)?;
        seen(i, sq, v);
        if v > best {
            best = v;
            best_move = sq;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    Some((best, best_move))
}
