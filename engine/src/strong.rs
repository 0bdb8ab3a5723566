//! The strong search: negamax α–β (principal variation search) on the
//! pattern evaluation ([`crate::pattern`]), separate from the play AI
//! ([`crate::search`]) which keeps its own rules and figures.
//!
//! (Over 600 lines: the search, its limits, the all-moves scoring and the training searches share the table and the evaluation.)
//!
//! * Iterative deepening from depth 1, aspiration windows around the
//!   previous iteration's value, a transposition table (depth, bounds, best
//!   move), move ordering by the table move then by the evaluation of the
//!   child (fewest opponent moves first near the leaves).
//! * From [`Limits::exact_from_empties`] empties on (counting at the root)
//!   the exact solver ([`crate::solve_with`] with the weights and a budget, its move ordering
//!   helped by the same evaluation) is tried first within half the
//!   node budget; its score is exact (`exact: true`).
//! * A node budget ([`Limits::max_nodes`]) works everywhere; a time limit
//!   ([`Limits::time_ms`]) only on native targets (wasm has no clock — there
//!   it is ignored, set a node budget). When a limit stops an iteration the
//!   result of the last finished iteration is returned.
//! * A cancellation flag ([`Limits::stop`]) works everywhere too: once
//!   another thread sets it, the search stops within about a thousand
//!   positions (well under a millisecond) and returns as a spent budget
//!   does — a server sets it when the search's requester has gone.
//! * Values in discs for the side to move; internally in
//!   1/[`EVAL_SCALE`] disc.

use crate::bitboard::{flips, legal_moves};
use crate::endgame::{solve_with, SolveOptions};
use crate::pattern::{PatternWeights, EVAL_SCALE};
use crate::position::Position;
use crate::pvs::{pvs_loop, NO_MOVE};
use crate::square::Square;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};

/// What limits a strong search.
#[derive(Clone, Copy, Debug)]
pub struct Limits<'s> {
    /// Maximum nominal depth (plies; a forced pass does not count).
    pub depth: u32,
    /// Node budget for the whole call (search and exact solves together).
    pub max_nodes: u64,
    /// Solve exactly when the root has at most this many empty squares
    /// (and the solve fits half the node budget; the other half is left to
    /// the search should it not).
    pub exact_from_empties: u32,
    /// Wall-clock limit in milliseconds (native targets only; ignored on
    /// wasm).
    pub time_ms: Option<u64>,
    /// Threads searching at once on a shared table (lazy SMP, native
    /// only): helpers run the same iterative deepening, every other one a
    /// ply deeper, and stop when the main thread is done. With more than
    /// one the result may vary from run to run; `nodes` counts every
    /// thread's.
    pub threads: usize,
    /// Cancellation: once another thread sets the flag, the search stops
    /// within about a thousand positions and answers what it has (the last
    /// finished iteration, else the static evaluation and the first legal
    /// move), as when the node budget runs out. `None`: never cancelled.
    pub stop: Option<&'s AtomicBool>,
}

impl PartialEq for Limits<'_> {
    /// Equal settings, and the same cancellation flag (by address) or none.
    fn eq(&self, other: &Self) -> bool {
        self.depth == other.depth
            && self.max_nodes == other.max_nodes
            && self.exact_from_empties == other.exact_from_empties
            && self.time_ms == other.time_ms
            && self.threads == other.threads
            && match (self.stop, other.stop) {
                (Some(a), Some(b)) => std::ptr::eq(a, b),
                (a, b) => a.is_none() && b.is_none(),
            }
    }
}

impl Eq for Limits<'_> {}

impl Limits<'static> {
    /// A fixed depth with no node or time limit; exact from 20 empties.
    #[must_use]
    pub const fn depth(depth: u32) -> Limits<'static> {
        Limits {
            depth,
            max_nodes: u64::MAX,
            exact_from_empties: 20,
            time_ms: None,
            threads: 1,
            stop: None,
        }
    }

    /// A time limit (native), depth up to 60; exact from 20 empties.
    #[must_use]
    pub const fn time_ms(ms: u64) -> Limits<'static> {
        Limits {
            depth: 60,
            max_nodes: u64::MAX,
            exact_from_empties: 20,
            time_ms: Some(ms),
            threads: 1,
            stop: None,
        }
    }
}

impl<'s> Limits<'s> {
    /// These limits, cancelled once `stop` is set ([`Limits::stop`]).
    #[must_use]
    pub fn until<'t>(self, stop: Option<&'t AtomicBool>) -> Limits<'t>
    where
        's: 't,
    {
        Limits { stop, ..self }
    }

    /// Whether the cancellation flag is set.
    fn cancelled(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Relaxed))
    }
}

/// What [`evaluate_position`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Value in discs for the side to move (final disc difference expected;
    /// an integer when `exact`).
    pub value: f32,
    /// The best move found; `None` when the side must pass or the game is
    /// over.
    pub best_move: Option<Square>,
    /// Positions visited (search nodes plus solver nodes).
    pub nodes: u64,
    /// True when `value` is the exact game-theoretic score.
    pub exact: bool,
    /// Depth of the last finished iteration (0 when exact or game over).
    pub depth: u32,
    /// Expected continuation (from the transposition table), best move
    /// first.
    pub pv: Vec<Square>,
}

/// One move's value from [`score_all_moves`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveScore {
    /// The move.
    pub square: Square,
    /// Value in discs for the side to move after playing it.
    pub value: f32,
    /// True when the value is exact.
    pub exact: bool,
}

const INF: i32 = 1 << 20;
/// Transposition table entries (2^bits, 32 bytes each): 8 MB natively,
/// 2 MB on wasm, allocated per call.
#[cfg(not(target_arch = "wasm32"))]
const TT_BITS: u32 = 18;
#[cfg(target_arch = "wasm32")]
const TT_BITS: u32 = 16;
/// Conservative solver speed used to turn a time limit into a node budget
/// (the evaluation-ordered solver's: about 7 M nodes/s natively here since
/// its table reaches 4 empties, where a node costs twice what it did;
/// docs/BENCHMARKS.md, "Fewer endgame nodes, second round").
const SOLVE_NODES_PER_MS: u64 = 5_000;

#[derive(Clone, Copy, Default)]
struct Entry {
    p: u64,
    o: u64,
    lower: i32,
    upper: i32,
    depth: u8,
    best: u8,
}

/// One table entry shared by the search's threads: four relaxed atomic
/// words, the key words XORed with the two data words (lockless hashing:
/// a torn entry reads back as another position). One thread pays nothing:
/// relaxed loads and stores are plain ones.
#[derive(Default)]
#[repr(align(32))]
struct Slot {
    p: AtomicU64,
    o: AtomicU64,
    bounds: AtomicU64,
    info: AtomicU64,
}

impl Slot {
    fn load(&self) -> Entry {
        let b = self.bounds.load(Relaxed);
        let i = self.info.load(Relaxed);
        Entry {
            p: self.p.load(Relaxed) ^ b,
            o: self.o.load(Relaxed) ^ i,
            lower: b as u32 as i32,
            upper: (b >> 32) as u32 as i32,
            depth: i as u8,
            best: (i >> 8) as u8,
        }
    }

    fn store(&self, e: &Entry) {
        let b = u64::from(e.lower as u32) | u64::from(e.upper as u32) << 32;
        let i = u64::from(e.depth) | u64::from(e.best) << 8;
        self.p.store(e.p ^ b, Relaxed);
        self.o.store(e.o ^ i, Relaxed);
        self.bounds.store(b, Relaxed);
        self.info.store(i, Relaxed);
    }
}

/// A clock that only exists on native targets.
#[derive(Clone, Copy)]
struct Deadline {
    #[cfg(not(target_arch = "wasm32"))]
    at: Option<std::time::Instant>,
}

impl Deadline {
    fn new(ms: Option<u64>) -> Deadline {
        #[cfg(not(target_arch = "wasm32"))]
        {
            Deadline {
                at: ms.map(|ms| std::time::Instant::now() + std::time::Duration::from_millis(ms)),
            }
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = ms;
            Deadline {}
        }
    }

    fn passed(&self) -> bool {
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.at.is_some_and(|at| std::time::Instant::now() >= at)
        }
        #[cfg(target_arch = "wasm32")]
        {
            false
        }
    }
}

struct Searcher<'w> {
    w: &'w PatternWeights,
    table: &'w [Slot],
    /// Set when a helper thread is no longer needed.
    stop: Option<&'w AtomicBool>,
    /// The caller's cancellation flag ([`Limits::stop`]).
    cancel: Option<&'w AtomicBool>,
    nodes: u64,
    max_nodes: u64,
    deadline: Deadline,
    aborted: bool,
}

#[inline]
fn final_score(p: u64, o: u64) -> i32 {
    let own = p.count_ones() as i32;
    let opp = o.count_ones() as i32;
    let diff = own - opp;
    let empties = 64 - own - opp;
    if diff > 0 {
        diff + empties
    } else if diff < 0 {
        diff - empties
    } else {
        0
    }
}

impl<'w> Searcher<'w> {
    fn new(
        w: &'w PatternWeights,
        table: &'w [Slot],
        limits: &Limits<'w>,
        deadline: Deadline,
    ) -> Searcher<'w> {
        Searcher {
            w,
            table,
            stop: None,
            cancel: limits.stop,
            nodes: 0,
            max_nodes: limits.max_nodes,
            deadline,
            aborted: false,
        }
    }

    #[inline]
    fn slot(p: u64, o: u64) -> usize {
        let h = (p ^ o.rotate_left(23).wrapping_mul(0xD6E8_FEB8_6659_FD93))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> (64 - TT_BITS)) as usize
    }

    fn check_limits(&mut self) -> bool {
        if self.nodes > self.max_nodes
            || (self.nodes & 1023 == 0
                && (self.deadline.passed()
                    || self.stop.is_some_and(|s| s.load(Relaxed))
                    || self.cancel.is_some_and(|s| s.load(Relaxed))))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Moves of `p` ordered best first: table move, then (from depth 3) the
    /// child's evaluation, else the opponent's mobility.
    fn order(&self, p: u64, o: u64, moves: u64, tt_move: u8, depth: u32) -> Vec<(i32, u8, u64)> {
        let mut list = Vec::with_capacity(moves.count_ones() as usize);
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as u8;
            m &= m - 1;
            let f = flips(p, o, sq as usize);
            let np = p | f | (1u64 << sq);
            let no = o & !f;
            let key = if sq == tt_move {
                -INF
            } else if depth >= 3 {
                self.w.eval_raw(no, np)
            } else {
                let replies = legal_moves(no, np);
                (replies.count_ones() + (replies & 0x8100_0000_0000_0081).count_ones()) as i32
            };
            list.push((key, sq, f));
        }
        list.sort_by_key(|&(k, sq, _)| (k, sq));
        list
    }

    fn search(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        mut beta: i32,
        depth: u32,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.check_limits() {
            return 0;
        }
        if depth == 0 {
            if p | o == !0 {
                return final_score(p, o) * EVAL_SCALE;
            }
            return self.w.eval_raw(p, o);
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if passed {
                return final_score(p, o) * EVAL_SCALE;
            }
            return -self.search(o, p, -beta, -alpha, depth, true);
        }
        let slot = Self::slot(p, o);
        let e = self.table[slot].load();
        let mut tt_move = NO_MOVE;
        if e.p == p && e.o == o {
            tt_move = e.best;
            if u32::from(e.depth) >= depth {
                if e.lower >= beta {
                    return e.lower;
                }
                if e.upper <= alpha {
                    return e.upper;
                }
                if e.lower == e.upper {
                    return e.lower;
                }
                alpha = alpha.max(e.lower);
                beta = beta.min(e.upper);
            }
        }
        let alpha0 = alpha;
        let list = self.order(p, o, moves, tt_move, depth);
        let searched = pvs_loop(
            p,
            o,
            &list,
            alpha,
            beta,
            -INF,
            false,
            |p, o, alpha, beta| {
                let v = self.search(p, o, alpha, beta, depth - 1, false);
                (!self.aborted).then_some(v)
            },
            |_, _, _| {},
        );
        let Some((best, best_move)) = searched else {
            return 0;
        };
        let (lower, upper) = if best <= alpha0 {
            (-INF, best)
        } else if best >= beta {
            (best, INF)
        } else {
            (best, best)
        };
        // Depth-preferred replacement (one search per table, so no aging):
        // the same position or a search at least as deep replaces.
        let old = self.table[slot].load();
        if (old.p == p && old.o == o) || depth + 1 >= u32::from(old.depth) {
            self.table[slot].store(&Entry {
                p,
                o,
                lower,
                upper,
                depth: depth.min(255) as u8,
                best: best_move,
            });
        }
        best
    }

    /// The value with a window around `guess` (widened on failure).
    fn aspiration(&mut self, p: u64, o: u64, depth: u32, guess: Option<i32>) -> i32 {
        let Some(guess) = guess else {
            return self.search(p, o, -INF, INF, depth, false);
        };
        let mut delta = 2 * EVAL_SCALE;
        let (mut lo, mut hi) = (guess - delta, guess + delta);
        loop {
            let v = self.search(p, o, lo, hi, depth, false);
            if self.aborted {
                return 0;
            }
            if v <= lo {
                lo = v - delta;
            } else if v >= hi {
                hi = v + delta;
            } else {
                return v;
            }
            delta *= 2;
            if delta > 16 * EVAL_SCALE {
                lo = lo.min(-INF);
                hi = hi.max(INF);
            }
        }
    }

    /// The principal variation from the table, at most `max` moves.
    fn pv(&self, mut p: u64, mut o: u64, max: usize) -> Vec<Square> {
        let mut out = Vec::new();
        while out.len() < max {
            let moves = legal_moves(p, o);
            if moves == 0 {
                if legal_moves(o, p) == 0 {
                    break;
                }
                std::mem::swap(&mut p, &mut o);
                continue;
            }
            let e = self.table[Self::slot(p, o)].load();
            if e.p != p || e.o != o || e.best == NO_MOVE || moves & (1u64 << e.best) == 0 {
                break;
            }
            let f = flips(p, o, e.best as usize);
            let np = p | f | (1u64 << e.best);
            out.extend(Square::new(e.best as usize));
            p = o & !f;
            o = np;
        }
        out
    }
}

/// Exact score by the solver within half of what is left of the budget
/// (the other half is the search's when the solve does not finish; with the
/// whole budget a failed solve left the search nothing, and the result was
/// the bare static evaluation).
fn try_exact(
    pos: &Position,
    weights: &PatternWeights,
    limits: &Limits,
    used: u64,
) -> (Option<(i32, Option<Square>)>, u64) {
    if pos.empty_count() > limits.exact_from_empties {
        return (None, 0);
    }
    let mut budget = limits.max_nodes.saturating_sub(used) / 2;
    if let Some(ms) = limits.time_ms {
        // With a clock, the solve may take about half the time (the solver
        // runs 5–15 M nodes/s natively); the rest is left to the
        // search if it does not finish.
        budget = budget.min(ms.saturating_mul(SOLVE_NODES_PER_MS / 2));
    }
    let options = SolveOptions::with_eval(weights)
        .within(budget)
        .until(limits.stop);
    match solve_with(pos, options).map(|s| s.result) {
        Some(r) => (Some((r.score, r.best_move)), r.nodes),
        None => (None, budget),
    }
}

/// Iterative deepening from depth 1 + `skew` to `max_depth`: the value
/// and depth of the last finished iteration (`None`: not even the first).
fn deepen(s: &mut Searcher<'_>, p: u64, o: u64, max_depth: u32, skew: u32) -> Option<(i32, u32)> {
    let mut result = None;
    // Values of the finished iterations, by depth. The window of an
    // iteration is centred on the value two plies shallower: values of odd
    // and even depths can differ by a disc or two (a small side-to-move bias;
    // about 6 discs in the opening with the weights trained before the
    // two-parity labels, docs/ENGINE.md), so the previous iteration's value
    // would make a ±2-disc window fail more often.
    let mut values: Vec<i32> = Vec::new();
    for depth in (1 + skew).min(max_depth)..=max_depth {
        let guess = if values.len() >= 2 {
            values.get(values.len() - 2).copied()
        } else {
            None
        };
        let v = s.aspiration(p, o, depth, guess);
        if s.aborted {
            break;
        }
        values.push(v);
        result = Some((v, depth));
    }
    result
}

/// Evaluates `pos` for the side to move: the exact score when the solver
/// can reach it (see [`Limits::exact_from_empties`]), else the value of an
/// iterative-deepening search on the pattern evaluation.
#[must_use]
pub fn evaluate_position(pos: &Position, weights: &PatternWeights, limits: Limits) -> Report {
    let deadline = Deadline::new(limits.time_ms);
    let (p, o) = (pos.player().0, pos.opponent().0);
    if legal_moves(p, o) == 0 && legal_moves(o, p) == 0 {
        return Report {
            value: final_score(p, o) as f32,
            best_move: None,
            nodes: 1,
            exact: true,
            depth: 0,
            pv: Vec::new(),
        };
    }
    // Not even depth 1: the static evaluation and the first legal move.
    let unsearched = |nodes: u64| {
        let moves = legal_moves(p, o);
        let first = if moves == 0 {
            None
        } else {
            Square::new(moves.trailing_zeros() as usize)
        };
        Report {
            value: weights.eval_raw(p, o) as f32 / EVAL_SCALE as f32,
            best_move: first,
            nodes,
            exact: false,
            depth: 0,
            pv: first.into_iter().collect(),
        }
    };
    if limits.cancelled() {
        return unsearched(0);
    }
    let (exact, used) = try_exact(pos, weights, &limits, 0);
    if let Some((score, best_move)) = exact {
        return Report {
            value: score as f32,
            best_move,
            nodes: used,
            exact: true,
            depth: 0,
            pv: best_move.into_iter().collect(),
        };
    }
    if limits.cancelled() {
        // Cancelled during the solve: no table to allocate.
        return unsearched(used);
    }
    let table: Vec<Slot> = (0..1usize << TT_BITS).map(|_| Slot::default()).collect();
    let mut s = Searcher::new(weights, &table, &limits, deadline);
    s.nodes = used;
    let max_depth = limits.depth.max(1).min(pos.empty_count().max(1));
    let threads = if cfg!(target_arch = "wasm32") {
        1
    } else {
        limits.threads.max(1)
    };
    let result = if threads == 1 {
        deepen(&mut s, p, o, max_depth, 0)
    } else {
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|helper| {
                    let (table, stop, limits) = (&table, &stop, &limits);
                    scope.spawn(move || {
                        let mut h = Searcher::new(weights, table, limits, deadline);
                        h.stop = Some(stop);
                        // Every other helper a ply deeper, so that the
                        // threads fill the table ahead of the main one.
                        deepen(&mut h, p, o, max_depth, (helper % 2) as u32);
                        h.nodes
                    })
                })
                .collect();
            let result = deepen(&mut s, p, o, max_depth, 0);
            stop.store(true, Relaxed);
            for h in helpers {
                s.nodes += h.join().expect("a search thread panicked");
            }
            result
        })
    };
    let Some((v, depth)) = result else {
        // Not even depth 1 finished.
        return unsearched(s.nodes);
    };
    let pv = s.pv(p, o, depth as usize);
    let best_move = if legal_moves(p, o) == 0 {
        None
    } else {
        pv.first().copied()
    };
    // A game decided inside the horizon gives a whole number of discs.
    Report {
        value: v as f32 / EVAL_SCALE as f32,
        best_move,
        nodes: s.nodes,
        exact: false,
        depth,
        pv,
    }
}

/// Every legal move's value (discs, side to move at `pos`), best first:
/// exact when the position after the move is within
/// [`Limits::exact_from_empties`] and its solve fits the budget, else the
/// negated value of a search of the child to `depth − 1` (full window per
/// move). Empty when the side to move must pass. The node budget and time
/// limit are shared by all moves (each move gets an equal share of the
/// budget). Cancelled ([`Limits::stop`]), it returns at once with the moves
/// scored so far (those scored when the flag was set may be unfinished
/// estimates).
#[must_use]
pub fn score_all_moves(pos: &Position, weights: &PatternWeights, limits: Limits) -> Vec<MoveScore> {
    let moves = pos.legal_moves();
    let n = u64::from(moves.count()).max(1);
    let mut out = Vec::new();
    for sq in moves.iter() {
        if limits.cancelled() {
            break;
        }
        let Ok(after) = pos.play(sq) else { continue };
        let child = after.position;
        let mut l = limits;
        l.depth = limits.depth.saturating_sub(1).max(1);
        l.max_nodes = limits.max_nodes / n;
        l.time_ms = limits.time_ms.map(|t| (t / n).max(1));
        let r = evaluate_position(&child, weights, l);
        out.push(MoveScore {
            square: sq,
            value: -r.value,
            exact: r.exact,
        });
    }
    out.sort_by(|a, b| b.value.total_cmp(&a.value).then(a.square.cmp(&b.square)));
    out
}

/// Plain α–β without table (fewest opponent moves first), `depth` plies on
/// the pattern evaluation; a finished game scores exactly. For labelling
/// training positions (many small searches, no table to allocate).
#[allow(clippy::too_many_arguments)]
pub(crate) fn plain(
    w: &PatternWeights,
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
    depth: u32,
    passed: bool,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if depth == 0 {
        if p | o == !0 {
            return final_score(p, o) * EVAL_SCALE;
        }
        return w.eval_raw(p, o);
    }
    let moves = legal_moves(p, o);
    if moves == 0 {
        if passed {
            return final_score(p, o) * EVAL_SCALE;
        }
        return -plain(w, o, p, -beta, -alpha, depth, true, nodes);
    }
    let mut list = [(0i32, 0u8, 0u64); 32];
    let mut n = 0;
    let mut m = moves;
    while m != 0 && n < 32 {
        let sq = m.trailing_zeros() as u8;
        m &= m - 1;
        let f = flips(p, o, sq as usize);
        let np = p | f | (1u64 << sq);
        let no = o & !f;
        let key = if depth >= 3 {
            w.eval_raw(no, np)
        } else {
            let r = legal_moves(no, np);
            (r.count_ones() + (r & 0x8100_0000_0000_0081).count_ones()) as i32
        };
        let mut i = n;
        while i > 0 && list[i - 1].0 > key {
            list[i] = list[i - 1];
            i -= 1;
        }
        list[i] = (key, sq, f);
        n += 1;
    }
    let mut best = -INF;
    for &(_, sq, f) in &list[..n] {
        let np = p | f | (1u64 << sq);
        let no = o & !f;
        let v = -plain(w, no, np, -beta, -alpha, depth - 1, false, nodes);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The `depth`-ply α–β value of `pos` (discs, side to move) on the pattern
/// evaluation, without transposition table or limits, and the nodes
/// visited. Meant for many small searches (training labels).
#[must_use]
pub fn fixed_depth_value(pos: &Position, weights: &PatternWeights, depth: u32) -> (f32, u64) {
    let mut nodes = 0;
    let v = plain(
        weights,
        pos.player().0,
        pos.opponent().0,
        -INF,
        INF,
        depth,
        false,
        &mut nodes,
    );
    (v as f32 / EVAL_SCALE as f32, nodes)
}
