//! The principal-variation search loop, written once for the exact solver
//! ([`crate::endgame`]: its inner nodes and its root) and the strong search
//! ([`crate::strong`]). What differs between them — the leaf, the table,
//! the ordering, the limits — stays with the caller: it orders the moves
//! and passes the recursion as a closure. The loop is `#[inline(always)]`
//! and generic over the closures, so each caller gets its own copy compiled
//! into its hot path (the solver's x86-64-v3 copy included: the closure
//! inherits the features of the function that defines it). The play AI
//! ([`crate::search`]) is plain minimax with α–β, not PVS, and keeps its
//! own loop (docs/ENGINE.md).

/// No move (the loop found none, or the list was empty).
pub(crate) const NO_MOVE: u8 = 64;

/// Searches the ordered `moves` of `p` against `o` (each `(key, square,
/// flipped discs)`) with principal-variation search in the window
/// `(alpha, beta)`: the first move with the full window, the others with a
/// null window first and again with the full window when they land inside
/// it (with `first_searched`, a move searched before the loop already had
/// the full window: every move here gets the null window first). `child(player, opponent, alpha, beta)` is the recursion (the side to
/// move after the move, its window); it returns `None` when the search was
/// stopped by a limit, and then so does the loop. `seen(index, square,
/// value)` is told each move's value. Fail-soft: returns the best value
/// (`floor` when there are no moves) and its move; a value `>= beta`
/// stops the loop.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn pvs_loop(
    p: u64,
    o: u64,
    moves: &[(i32, u8, u64)],
    mut alpha: i32,
    beta: i32,
    floor: i32,
    first_searched: bool,
    mut child: impl FnMut(u64, u64, i32, i32) -> Option<i32>,
    mut seen: impl FnMut(usize, u8, i32),
) -> Option<(i32, u8)> {
    let mut best = floor;
    let mut best_move = NO_MOVE;
    for (i, &(_, sq, f)) in moves.iter().enumerate() {
        let np = p | f | (1u64 << sq);
        let no = o & !f;
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

/// One move of a principal-variation loop (this one and
/// [`crate::split::deferring_loop`]): the resulting position `(no, np)`
/// with the full window when it is the `principal` move, else with a null
/// window first and again with the full window when the value lands inside
/// it. Its value for the side that moved; `None` when `child` was stopped.
#[inline(always)]
pub(crate) fn search_move(
    no: u64,
    np: u64,
    principal: bool,
    alpha: i32,
    beta: i32,
    child: &mut impl FnMut(u64, u64, i32, i32) -> Option<i32>,
) -> Option<i32> {
    if principal {
        return Some(-child(no, np, -beta, -alpha)?);
    }
    let v = -child(no, np, -alpha - 1, -alpha)?;
    Some(if v > alpha && v < beta {
        -child(no, np, -beta, -alpha)?
    } else {
        v
    })
}
