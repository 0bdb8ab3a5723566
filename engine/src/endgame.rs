//! Exact endgame solver (standard scoring: empty squares go to the winner).
//!
//! (Over 600 lines: the solver's portable and x86-64-v3 copies share one
//! macro-generated body; its table, selective passes and threads are that
//! body's; splitting would separate them.)
//!
//! Negamax with α–β and principal-variation (null-window) search
//! ([`crate::pvs`]), a transposition table of score bounds in two-way
//! buckets (shared by a solve's threads, which split the work by ABDADA:
//! [`crate::split`]), fastest-first move
//! ordering (fewest opponent replies, corners counted double), with the
//! pattern evaluation also ordering by shallow searches and, from 20
//! empties, probable-cut selective passes before the exact one; parity
//! ordering with a static square order when few squares are empty, and
//! dedicated last-two/last-one empty-square code. Scores are final disc
//! differences for the side to move, in −64..=64.
//!
use crate::bitboard::{count_last_flips, flips, legal_moves, neighbours, Bitboard};
use crate::pattern::{PatternWeights, EVAL_SCALE};
use crate::position::Position;
use crate::pvs::{pvs_loop, NO_MOVE};
use crate::split::{deferring_loop, Busy, DEFER_EMPTIES};
use crate::square::Square;
use std::marker::PhantomData;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::OnceLock;

/// What [`solve`] found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SolveResult {
    /// Exact final disc difference for the side to move with perfect play
    /// (empty squares counted for the winner).
    pub score: i32,
    /// A move reaching that score; `None` when the side must pass or the
    /// game is over.
    pub best_move: Option<Square>,
    /// Positions visited.
    pub nodes: u64,
}

/// Below this many empty squares the solver drops the transposition table
/// and mobility ordering.
const SHALLOW_EMPTIES: u32 = 7;
/// The same with the evaluation ([`SolveOptions::with_eval`]): the table
/// and fastest-first ordering down to 4 empties visit far fewer positions
/// (FFO #40–#49: 0.78 G → 0.42 G nodes) for about the same CPU time there;
/// the plain solver keeps 7, where they cost it 30 % more time
/// (docs/BENCHMARKS.md, "Fewer endgame nodes, second round").
const EVAL_SHALLOW_EMPTIES: u32 = 4;
/// A solve at E empties gets a table of at most 2^(E − this) entries
/// (small endgames, engine/tests/data/small14-20.obf: 2^19 entries cost
/// 0.08 s CPU at 14 empties, 2^11 0.01 s; at 20 empties 2^17 is as fast as
/// 2^19 with 1 % more nodes).
const TABLE_EMPTIES_OFFSET: u32 = 3;
/// Default transposition table size (entries, a power of two).
const TT_BITS: u32 = 19;
const INF: i32 = 127;
/// From this many empties on, children are probed in the table first.
const ETC_EMPTIES: u32 = 10;
/// The same with the evaluation, whose table reaches 4 empties
/// ([`EVAL_SHALLOW_EMPTIES`]; FFO #40–#49: 390.8 M → 378.7 M nodes).
const EVAL_ETC_EMPTIES: u32 = 6;
/// Fastest-first key units per empty square next to the mover's discs
/// after the move (potential mobility; 16 per opponent move). 2 before the
/// table reached 4 empties; 4–8 equal on FFO #40–#49 since.
const POT_W: i32 = 6;
/// Key units taken off a move into a quadrant with an odd number of
/// empties, where the evaluation does not order.
const PARITY_W: i32 = 4;
/// Key units added to a move on an X-square next to an empty corner (any
/// X-square: FFO #40–#49 352.4 M nodes with 8, 361.6 M with none, 357.3 M
/// with 16, 360.3 M with C-squares +4 as well; only next to an empty
/// corner, with probable cuts from 8: 324.5 M → 323.4 M).
const X_SQUARE_W: i32 = 8;
/// From this many empties on, [`SolveOptions::with_eval`] orders moves by the
/// pattern evaluation as well.
const EVAL_ORDER_EMPTIES: u32 = 12;
/// Ordering key units per evaluated disc (the mobility part counts 16 per
/// opponent move; 8 before the table reached 4 empties, FFO #40–#49 since:
/// 4 → 380.6 M nodes, 6 → 361.6 M, 8 → 370.9 M, 12 → 391.7 M).
const EVAL_ORDER_WEIGHT: i32 = 6;
/// From this many empties on, [`SolveOptions::with_eval`] orders moves by a
/// shallow search on the pattern evaluation (Edax's and Egaroucid's
/// evaluation-ordered shallow searches).
const SORT_SEARCH_EMPTIES: u32 = 13;
/// The ordering search gets one more ply every this many empties (13–15
/// empties: 1 ply, 16–18: 2, 19–21: 3, 22–24: 4, 25–27: 5; 12/3 tuned on
/// FFO #40–#44, 13/3 since the table reaches 4 empties on #40–#49,
/// docs/BENCHMARKS.md).
const SORT_STEP: u32 = 3;
/// The selectivity of an exact search.
const EXACT: u8 = 255;
/// Probable-cut confidences of the selective passes, in tenths of a
/// standard deviation (Edax's iterative selectivity).
const SELECTIVITY: [i32; 3] = [10, 15, 20];
/// Selective passes run from this many empties on, probable cuts at nodes
/// with at least [`PROBCUT_EMPTIES`] empties.
const SELECTIVE_FROM: u32 = 20;
/// (10 before the table reached 4 empties; since, on FFO #40–#49: 12 →
/// 367.5 M nodes, 10 → 352.4 M, 8 → 324.5 M, 6 → 330.6 M; the gain of 8
/// is #49's, whose exact pass gets better moves from the passes' table.)
const PROBCUT_EMPTIES: u32 = 8;

/// The probable-cut shallow search's depth at `empties` (tuned on FFO
/// #40–#44 with [`PROBCUT_EMPTIES`], docs/BENCHMARKS.md).
fn probcut_depth(empties: u32) -> u32 {
    (empties / 4).max(1)
}

/// Standard deviation (in discs) of the exact score around a `depth`-ply
/// value of the pattern evaluation (from `othello label-bias`: mean
/// absolute errors of 7.0, 5.7, 5.7, 4.8, 4.0, 3.9 discs for 0–5 plies at
/// 20–22 empties, × 1.25).
fn probcut_sigma(depth: u32) -> i32 {
    [9, 7, 7, 6, 5, 5][depth.min(5) as usize]
}

/// Beyond any evaluation (1/32 disc).
const EVAL_INF: i32 = 1 << 20;

/// The depth of the ordering search at `empties` (1 at `from` empties):
/// one more ply every `step` empties.
fn sort_depth(empties: u32, from: u32, step: u32) -> u32 {
    1 + (empties - from) / step
}

/// α–β on the pattern evaluation (1/32 disc), `depth` plies, no table;
/// counts its nodes in `nodes`.
fn eval_search(
    w: &PatternWeights,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    depth: u32,
    nodes: &mut u64,
) -> i32 {
    crate::strong::plain(w, p, o, alpha, beta, depth, false, nodes)
}

/// A table entry as the search reads and writes it.
#[derive(Clone, Copy, Default)]
struct Entry {
    player: u64,
    opponent: u64,
    lower: i8,
    upper: i8,
    best: u8,
    /// Empty squares of the position: the work a replacement would lose.
    empties: u8,
    /// The selectivity of the search that stored the bounds ([`EXACT`]:
    /// none); a search trusts only bounds at least as exact as its own.
    sel: u8,
}

impl Entry {
    #[inline(always)]
    fn data(&self) -> u64 {
        u64::from(self.lower as u8)
            | u64::from(self.upper as u8) << 8
            | u64::from(self.best) << 16
            | u64::from(self.empties) << 24
            | u64::from(self.sel) << 32
    }
}

/// One entry of the table shared by the solve's threads, as three atomic
/// words (Hyatt's lockless hashing: the two key words are stored XORed with
/// the data word, so an entry torn by two threads writing at once reads
/// back as another position and is ignored). Relaxed atomic loads and
/// stores compile to plain ones: one thread pays nothing for the sharing.
/// 32 bytes, aligned so that an entry never straddles two cache lines (a
/// probe is one memory access).
#[derive(Default)]
#[repr(align(32))]
struct Slot {
    p: AtomicU64,
    o: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    #[inline(always)]
    fn load(&self) -> Entry {
        let d = self.data.load(Relaxed);
        Entry {
            player: self.p.load(Relaxed) ^ d,
            opponent: self.o.load(Relaxed) ^ d,
            lower: d as u8 as i8,
            upper: (d >> 8) as u8 as i8,
            best: (d >> 16) as u8,
            empties: (d >> 24) as u8,
            sel: (d >> 32) as u8,
        }
    }

    #[inline(always)]
    fn store(&self, e: &Entry) {
        let d = e.data();
        self.p.store(e.player ^ d, Relaxed);
        self.o.store(e.opponent ^ d, Relaxed);
        self.data.store(d, Relaxed);
    }
}

/// Quadrant masks for parity ordering.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// The bit of each square's quadrant (its index in [`QUADRANTS`]).
static QUADRANT_ID: [u8; 64] = quadrant_ids();

const fn quadrant_ids() -> [u8; 64] {
    let mut out = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        out[sq] = 1 << (((sq >> 5) & 1) * 2 + ((sq >> 2) & 1));
        sq += 1;
    }
    out
}

/// Static square priority groups for shallow ordering: corners, then
/// A/B-squares, then the rest, C-squares, X-squares last.
const STATIC_GROUPS: [u64; 5] = [
    0x8100_0000_0000_0081, // corners
    0x003c_7e7e_7e7e_3c00, // interior
    0x3c00_8181_8181_003c, // edges (A/B squares)
    0x4281_0000_0000_8142, // C-squares
    0x0042_0000_0000_4200, // X-squares
];

/// Diagonal lines (both orientations) with at least 3 squares.
const DIAGONALS: [u64; 22] = diagonals();

const fn diagonals() -> [u64; 22] {
    let mut out = [0u64; 22];
    let mut n = 0;
    // a1-h8 orientation: col - row = k; a8-h1 orientation: col + row = k.
    let mut k: i32 = -5;
    while k <= 5 {
        let mut m = 0u64;
        let mut sq: u32 = 0;
        while sq < 64 {
            if (sq % 8) as i32 - (sq / 8) as i32 == k {
                m |= 1 << sq;
            }
            sq += 1;
        }
        out[n] = m;
        n += 1;
        k += 1;
    }
    let mut k: i32 = 2;
    while k <= 12 {
        let mut m = 0u64;
        let mut sq: u32 = 0;
        while sq < 64 {
            if (sq % 8) as i32 + (sq / 8) as i32 == k {
                m |= 1 << sq;
            }
            sq += 1;
        }
        out[n] = m;
        n += 1;
        k += 1;
    }
    out
}

const EDGES: u64 = 0xff81_8181_8181_81ff;
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;

/// A lower bound of the discs of `o` that can never flip: a disc is stable
/// when, along each of the four axes, its line is full or one neighbour on
/// that axis is the board edge or a stable disc of its colour.
#[inline(always)]
fn stable_discs(o: u64, occupied: u64) -> u64 {
    let mut full_h = 0u64;
    let mut full_v = occupied;
    full_v &= full_v >> 8;
    full_v &= full_v >> 16;
    full_v &= full_v >> 32;
    full_v = (full_v & 0xff).wrapping_mul(0x0101_0101_0101_0101);
    let mut row = 0;
    while row < 8 {
        let m = 0xffu64 << (8 * row);
        if occupied & m == m {
            full_h |= m;
        }
        row += 1;
    }
    let mut full_d9 = 0u64;
    let mut full_d7 = 0u64;
    for (i, m) in DIAGONALS.iter().enumerate() {
        if occupied & m == *m {
            if i < 11 {
                full_d9 |= m;
            } else {
                full_d7 |= m;
            }
        }
    }
    // Short corner diagonals (1–2 squares) count as full or edge-bounded anyway.
    let mut stable = 0u64;
    loop {
        let h = ((stable << 1) & !FILE_A) | ((stable >> 1) & !FILE_H) | FILE_A | FILE_H | full_h;
        let v = (stable << 8) | (stable >> 8) | 0xff00_0000_0000_00ff | full_v;
        let d9 = ((stable << 9) & !FILE_A) | ((stable >> 9) & !FILE_H) | EDGES | full_d9;
        let d7 = ((stable << 7) & !FILE_H) | ((stable >> 7) & !FILE_A) | EDGES | full_d7;
        let next = stable | (o & h & v & d9 & d7);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The solver's recursion compiled for any CPU.
struct Portable;
/// The solver's recursion compiled for x86-64 CPUs with POPCNT, LZCNT,
/// BMI1/2 and AVX2 (x86-64-v3), chosen at run time.
#[cfg(target_arch = "x86_64")]
struct X86V3;

/// Squares next to each square (a move must touch an opponent disc).
static NEIGHBOURS: [u64; 64] = neighbour_table();

const fn neighbour_table() -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        out[sq] = neighbours(1 << sq);
        sq += 1;
    }
    out
}

struct Solver<'w, K> {
    /// Pattern weights for move ordering from [`EVAL_ORDER_EMPTIES`] on
    /// ([`SolveOptions::with_eval`]); `None` for the plain solver.
    eval: Option<&'w PatternWeights>,
    /// Ordering by evaluation from this many empties on.
    eval_empties: u32,
    /// Below this many empties: [`Self::shallow`], without table.
    shallow_empties: u32,
    /// Enhanced transposition cutoffs from this many empties on.
    etc_empties: u32,
    /// Ordering key units per evaluated disc.
    eval_weight: i32,
    /// With the evaluation: order by a shallow search from this many
    /// empties on.
    sort_empties: u32,
    sort_step: u32,
    /// The transposition table (shared by the threads of a solve).
    table: &'w [Slot],
    shift: u32,
    /// With several threads: the positions they are searching (ABDADA,
    /// [`crate::split`]; `None`: one thread, the serial search), and the
    /// flag that stops the threads once one of them has the result.
    busy: Option<&'w Busy>,
    stop: Option<&'w AtomicBool>,
    /// The caller's cancellation flag ([`SolveOptions::stop`]): once set,
    /// the search unwinds as when the budget runs out.
    cancel: Option<&'w AtomicBool>,
    nodes: u64,
    /// Node budget; once `nodes` passes it the search unwinds with junk
    /// values and `aborted` is set (the result is then discarded).
    limit: u64,
    aborted: bool,
    /// A root move to search first with a full window (`NO_MOVE`: none),
    /// and its exact value once searched.
    root_first: u8,
    first_value: Option<i32>,
    /// The current pass: an index into [`SELECTIVITY`], or [`EXACT`].
    sel: u8,
    kernel: PhantomData<K>,
}

#[inline(always)]
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

impl<'w, K> Solver<'w, K> {
    fn new(table: &'w [Slot]) -> Solver<'w, K> {
        Solver {
            eval: None,
            eval_empties: EVAL_ORDER_EMPTIES,
            shallow_empties: SHALLOW_EMPTIES,
            etc_empties: ETC_EMPTIES,
            eval_weight: EVAL_ORDER_WEIGHT,
            sort_empties: SORT_SEARCH_EMPTIES,
            sort_step: SORT_STEP,
            table,
            shift: 64 - table.len().trailing_zeros(),
            busy: None,
            stop: None,
            cancel: None,
            nodes: 0,
            limit: u64::MAX,
            aborted: false,
            root_first: NO_MOVE,
            first_value: None,
            sel: EXACT,
            kernel: PhantomData,
        }
    }

    /// The entry of `(p, o)` in the bucket of `slot` (an entry of another
    /// position when it is in neither).
    #[inline(always)]
    fn probe(&self, slot: usize, p: u64, o: u64) -> Entry {
        let e = self.table[slot].load();
        if e.player == p && e.opponent == o {
            e
        } else {
            self.table[slot ^ 1].load()
        }
    }

    #[inline(always)]
    fn slot(&self, p: u64, o: u64) -> usize {
        let h = (p ^ o.rotate_left(23).wrapping_mul(0xD6E8_FEB8_6659_FD93))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> self.shift) as usize
    }
}

/// The recursion of the solver, instantiated once per kernel set: plain
/// for every target, and on x86-64 once more with the x86-64-v3 features
/// enabled so that the same code compiles to single-instruction popcounts,
/// bit scans and shifts.
macro_rules! solver_methods {
    ($kernel:ty $(, $features:literal)?) => {
impl Solver<'_, $kernel> {
    /// Asks for the table's bucket of `(p, o)` ahead of its probe (the
    /// x86-64-v3 copy; a no-op in the portable one, where the prefetch
    /// intrinsic would need `unsafe`).
    $(#[target_feature(enable = $features)])?
    #[inline]
    fn prefetch(&self, p: u64, o: u64) {
        let slot = self.slot(p, o);
        $(
            let _: &str = $features;
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                std::ptr::from_ref(&self.table[slot]).cast::<i8>(),
            );
        )?
        let _ = slot;
    }

    /// Score of the last empty square `sq` with `p` to move (Edax's
    /// `count_last_flip`: the flip count alone, from the line tables), or
    /// an upper bound of it at most `alpha` (Edax's lazy cut-off: when `p`
    /// cannot move, the opponent's flips only lower the score, and they
    /// are not counted when the score without them already fails low).
    $(#[target_feature(enable = $features)])?
    fn last1(&mut self, p: u64, sq: usize, alpha: i32) -> i32 {
        self.nodes += 1;
        // 63 discs on the board: p − o = 2p − 63, never 0.
        let base = 2 * p.count_ones() as i32 - 63;
        let f = count_last_flips(p, sq);
        if f > 0 {
            return base + f + 1;
        }
        let upper = if base > 0 { base + 1 } else { base - 1 };
        if upper <= alpha {
            return upper;
        }
        let f = count_last_flips(!p & !(1 << sq), sq);
        if f > 0 {
            return base - f - 1;
        }
        upper
    }

    #[allow(clippy::too_many_arguments)]
    $(#[target_feature(enable = $features)])?
    fn last2(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        a: usize,
        b: usize,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        let f = if NEIGHBOURS[a] & o != 0 { flips(p, o, a) } else { 0 };
        if f != 0 {
            best = -self.last1(o & !f, b, -beta);
            if best > alpha {
                alpha = best;
                if best >= beta {
                    return best;
                }
            }
        }
        let f = if NEIGHBOURS[b] & o != 0 { flips(p, o, b) } else { 0 };
        if f != 0 {
            let v = -self.last1(o & !f, a, -beta);
            if v > best {
                best = v;
            }
        }
        if best == -INF {
            if passed {
                return final_score(p, o);
            }
            return -self.last2(o, p, -beta, -alpha, a, b, true);
        }
        best
    }

    /// Search without table or mobility ordering, for few empties: the
    /// empty squares are listed once, in static order (corners, interior,
    /// A/B-squares, C-squares, X-squares; bit order within a group), and
    /// each node tries those in quadrants with an odd number of empties
    /// first, then the others (Edax's `search_shallow`: the list and the
    /// quadrant parity passed down and updated per move, no move
    /// generation).
    $(#[target_feature(enable = $features)])?
    fn shallow(&mut self, p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
        let empty = !(p | o);
        debug_assert!(empty.count_ones() <= 8, "the shallow list holds 8 squares");
        let mut list = 0u64;
        let mut n = 0;
        for group in STATIC_GROUPS {
            let mut m = empty & group;
            while m != 0 {
                list |= u64::from(m.trailing_zeros()) << (8 * n);
                n += 1;
                m &= m - 1;
            }
        }
        let mut parity = 0u8;
        for (i, q) in QUADRANTS.iter().enumerate() {
            parity |= (((empty & q).count_ones() & 1) as u8) << i;
        }
        self.shallow_list(p, o, alpha, beta, list, n, parity, passed)
    }

    /// [`Self::shallow`] on `n` empty squares listed one per byte of
    /// `list`, `parity` holding a bit per quadrant ([`QUADRANT_ID`]) with an
    /// odd number of them.
    #[allow(clippy::too_many_arguments)]
    $(#[target_feature(enable = $features)])?
    fn shallow_list(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        list: u64,
        n: usize,
        parity: u8,
        passed: bool,
    ) -> i32 {
        match n {
            0 => {
                self.nodes += 1;
                return final_score(p, o);
            }
            1 => return self.last1(p, list as usize & 63, alpha),
            2 => {
                let (a, b) = (list as usize & 63, (list >> 8) as usize & 63);
                return self.last2(p, o, alpha, beta, a, b, passed);
            }
            _ => {}
        }
        self.nodes += 1;
        let mut best = -INF;
        for odd in [true, false] {
            for i in 0..n {
                let sq = (list >> (8 * i)) as usize & 63;
                if (parity & QUADRANT_ID[sq] != 0) != odd || NEIGHBOURS[sq] & o == 0 {
                    continue;
                }
                let f = flips(p, o, sq);
                if f == 0 {
                    continue;
                }
                // The list without its i-th square.
                let rest = (list & ((1u64 << (8 * i)) - 1)) | ((list >> (8 * i) >> 8) << (8 * i));
                let v = -self.shallow_list(
                    o & !f,
                    p | f | (1 << sq),
                    -beta,
                    -alpha,
                    rest,
                    n - 1,
                    parity ^ QUADRANT_ID[sq],
                    false,
                );
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            return v;
                        }
                    }
                }
            }
        }
        if best == -INF {
            if passed {
                return final_score(p, o);
            }
            return -self.shallow_list(o, p, -beta, -alpha, list, n, parity, true);
        }
        best
    }

    /// Moves of `p` ordered best first by key — fastest-first (fewest
    /// opponent replies, corners counted double, few empty neighbours,
    /// corners first, X-squares next to an empty corner later and, without
    /// the evaluation, moves into odd quadrants first), plus with the
    /// evaluation (from
    /// `eval_empties` on) the opponent's value after the move: its static
    /// evaluation, or from `sort_empties` on a shallow α–β search on the
    /// evaluation ([`sort_depth`] plies; its nodes count).
    $(#[target_feature(enable = $features)])?
    #[inline]
    fn ordered_moves(&mut self, p: u64, o: u64, moves: u64, out: &mut [(i32, u8, u64); 32]) -> usize {
        let empties = (!(p | o)).count_ones();
        let eval = self.eval.filter(|_| empties >= self.eval_empties);
        let depth = if empties >= self.sort_empties { sort_depth(empties, self.sort_empties, self.sort_step) } else { 0 };
        // Parity: a move into a quadrant with an odd number of empties.
        let mut odd = 0u64;
        if eval.is_none() {
            let empty = !(p | o);
            for q in QUADRANTS {
                if (empty & q).count_ones() & 1 == 1 {
                    odd |= q;
                }
            }
        }
        // X-squares next to an empty corner.
        let ec = !(p | o) & Bitboard::CORNERS.0;
        let x_bad = ((ec & 1) << 9) | ((ec & 0x80) << 7) | ((ec & (1 << 56)) >> 7) | ((ec & (1 << 63)) >> 9);
        let mut n = 0;
        let mut m = moves;
        while m != 0 && n < 32 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(p, o, sq);
            let np = p | f | (1 << sq);
            let no = o & !f;
            if empties > self.shallow_empties {
                // The child probes the table: fetch its bucket while the
                // other moves are ordered and searched.
                self.prefetch(no, np);
            }
            let replies = legal_moves(no, np);
            let empty = !(np | no);
            let potential = (neighbours(np) & empty).count_ones() as i32;
            let fastest = (replies.count_ones() + (replies & Bitboard::CORNERS.0).count_ones())
                as i32
                * 16
                + potential * POT_W
                - if (1u64 << sq) & Bitboard::CORNERS.0 != 0 {
                    8
                } else {
                    0
                }
                - if (1u64 << sq) & odd != 0 { PARITY_W } else { 0 }
                + if (1u64 << sq) & x_bad != 0 { X_SQUARE_W } else { 0 };
            let key = match eval {
                // The opponent's value after the move (lower is
                // better for the mover), in 1/32 disc, plus mobility.
                Some(w) if depth > 0 => {
                    let v = eval_search(w, no, np, -EVAL_INF, EVAL_INF, depth - 1, &mut self.nodes);
                    v * self.eval_weight / 32 + fastest
                }
                Some(w) => w.eval_raw(no, np) * self.eval_weight / 32 + fastest,
                None => fastest,
            };
            // Insertion into sorted position (stable: equal keys keep bit order).
            let mut i = n;
            while i > 0 && out[i - 1].0 > key {
                out[i] = out[i - 1];
                i -= 1;
            }
            out[i] = (key, sq as u8, f);
            n += 1;
        }
        n
    }

    $(#[target_feature(enable = $features)])?
    fn search(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32, passed: bool) -> i32 {
        let empty = !(p | o);
        if empty.count_ones() < self.shallow_empties {
            return self.shallow(p, o, alpha, beta, passed);
        }
        self.nodes += 1;
        if self.nodes > self.limit
            || (self.nodes & 4095 == 0
                && (self.stop.is_some_and(|s| s.load(Relaxed))
                    || self.cancel.is_some_and(|s| s.load(Relaxed))))
        {
            // Out of budget (or another thread has the result, or the
            // caller cancelled): unwind;
            // the caller discards the whole result.
            self.aborted = true;
            return 0;
        }
        let slot = self.slot(p, o);
        let mut tt_move = NO_MOVE;
        let entry = self.probe(slot, p, o);
        if entry.player == p && entry.opponent == o && entry.sel < self.sel {
            tt_move = entry.best;
        } else if entry.player == p && entry.opponent == o {
            let (lower, upper) = (i32::from(entry.lower), i32::from(entry.upper));
            if lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            if lower == upper {
                return lower;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
            tt_move = entry.best;
        }
        // Stability cutoff: p can score at most 64 − 2 × (stable discs of o).
        if alpha >= 64 - 2 * o.count_ones() as i32 {
            let bound = 64 - 2 * stable_discs(o, p | o).count_ones() as i32;
            if bound <= alpha {
                return bound;
            }
            beta = beta.min(bound.max(alpha + 1));
        }
        if self.sel != EXACT && empty.count_ones() >= PROBCUT_EMPTIES {
            if let Some(v) = self.probcut(p, o, alpha, beta) {
                return v;
            }
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if passed {
                return final_score(p, o);
            }
            return -self.search(o, p, -beta, -alpha, true);
        }
        // Enhanced transposition cutoff: a child already known to refute
        // (the children's buckets all asked for first, then probed).
        if empty.count_ones() >= self.etc_empties {
            let mut children = [(0u64, 0u64); 32];
            let mut n = 0;
            let mut m = moves;
            while m != 0 && n < 32 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                let f = flips(p, o, sq);
                let (np, no) = (p | f | (1u64 << sq), o & !f);
                self.prefetch(no, np);
                children[n] = (no, np);
                n += 1;
            }
            for &(no, np) in &children[..n] {
                let child = self.probe(self.slot(no, np), no, np);
                if child.player == no
                    && child.opponent == np
                    && child.sel >= self.sel
                    && -i32::from(child.upper) >= beta
                {
                    return -i32::from(child.upper);
                }
            }
        }
        let alpha0 = alpha;
        // With several threads: this position is being searched.
        let busy = self
            .busy
            .filter(|_| empty.count_ones() + 1 >= DEFER_EMPTIES)
            .map(|b| (b, Busy::key(p, o, self.sel)));
        if let Some((b, key)) = busy {
            b.enter(key);
        }
        // The table's move first, before the others are ordered: when it
        // refutes, their ordering (shallow searches) is never paid for.
        let mut floor = -INF;
        let mut rest = moves;
        if tt_move != NO_MOVE && moves & (1u64 << tt_move) != 0 {
            let sq = usize::from(tt_move);
            let f = flips(p, o, sq);
            let v = -self.search(o & !f, p | f | (1u64 << sq), -beta, -alpha, false);
            if self.aborted {
                if let Some((b, key)) = busy {
                    b.leave(key);
                }
                return 0;
            }
            floor = v;
            rest &= !(1u64 << sq);
            alpha = alpha.max(v);
        }
        let searched = if floor >= beta || rest == 0 {
            Some((floor, tt_move))
        } else {
            let mut list = [(0i32, 0u8, 0u64); 32];
            let n = self.ordered_moves(p, o, rest, &mut list);
            match busy.filter(|_| empty.count_ones() >= DEFER_EMPTIES) {
                Some((b, _)) => {
                    let sel = self.sel;
                    deferring_loop(
                        p,
                        o,
                        &list[..n],
                        alpha,
                        beta,
                        floor,
                        floor > -INF,
                        |p, o| b.is_busy(Busy::key(p, o, sel)),
                        |p, o, alpha, beta| {
                            let v = self.search(p, o, alpha, beta, false);
                            (!self.aborted).then_some(v)
                        },
                        |_, _, _| {},
                    )
                }
                None => pvs_loop(
                    p,
                    o,
                    &list[..n],
                    alpha,
                    beta,
                    floor,
                    floor > -INF,
                    |p, o, alpha, beta| {
                        let v = self.search(p, o, alpha, beta, false);
                        (!self.aborted).then_some(v)
                    },
                    |_, _, _| {},
                ),
            }
            .map(|(v, sq)| (v, if sq == NO_MOVE { tt_move } else { sq }))
        };
        if let Some((b, key)) = busy {
            b.leave(key);
        }
        let Some((best, best_move)) = searched else {
            return 0;
        };
        let (mut lower, mut upper) = if best <= alpha0 {
            (-64, best)
        } else if best >= beta {
            (best, 64)
        } else {
            (best, best)
        };
        // Two-way buckets: the position's own entry, else the one of the
        // pair holding fewer empties (less work lost).
        let (e0, e1) = (self.table[slot].load(), self.table[slot ^ 1].load());
        let (slot, old) = if e0.player == p && e0.opponent == o {
            (slot, e0)
        } else if e1.player == p && e1.opponent == o {
            (slot ^ 1, e1)
        } else if e1.empties < e0.empties {
            (slot ^ 1, e1)
        } else {
            (slot, e0)
        };
        if old.player == p && old.opponent == o && old.sel == self.sel {
            lower = lower.max(i32::from(old.lower));
            upper = upper.min(i32::from(old.upper));
        }
        self.table[slot].store(&Entry {
            player: p,
            opponent: o,
            lower: lower.clamp(-64, 64) as i8,
            upper: upper.clamp(-64, 64) as i8,
            best: best_move,
            empties: empty.count_ones() as u8,
            sel: self.sel,
        });
        best
    }

    /// A probable cut (selective passes only): `Some(beta)` when a shallow
    /// search on the evaluation says the score is above `beta` with the
    /// pass's confidence, `Some(alpha)` when it is below `alpha`.
    #[inline(never)]
    fn probcut(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> Option<i32> {
        let w = self.eval?;
        let empties = (!(p | o)).count_ones();
        let depth = probcut_depth(empties);
        let margin = (SELECTIVITY[usize::from(self.sel)] * probcut_sigma(depth) + 5) / 10;
        if beta + margin <= 64 {
            let b = (beta + margin) * EVAL_SCALE;
            if eval_search(w, p, o, b - 1, b, depth, &mut self.nodes) >= b {
                return Some(beta);
            }
        }
        if alpha - margin >= -64 {
            let a = (alpha - margin) * EVAL_SCALE;
            if eval_search(w, p, o, a, a + 1, depth, &mut self.nodes) <= a {
                return Some(alpha);
            }
        }
        None
    }

    /// The root: exact score and best move. With the evaluation and from
    /// [`SELECTIVE_FROM`] empties on, selective passes with probable cuts
    /// at rising confidence come first (Edax's iterative selectivity):
    /// each leaves best moves in the table and a score around which the
    /// next pass's window is centred; the last pass is exact, trusts only
    /// exact bounds, and its score is the result.
    $(#[target_feature(enable = $features)])?
    fn root(&mut self, p: u64, o: u64) -> (i32, Option<Square>) {
        let empties = (!(p | o)).count_ones();
        if self.eval.is_none() || self.root_first != NO_MOVE || empties < SELECTIVE_FROM {
            self.sel = EXACT;
            return self.root_window(p, o, -INF, INF, self.root_first);
        }
        let mut guess = None;
        let mut first = NO_MOVE;
        for sel in (0..SELECTIVITY.len() as u8).chain([EXACT]) {
            self.sel = sel;
            let (v, m) = self.aspiration(p, o, guess, first);
            if self.aborted || sel == EXACT {
                return (v, m);
            }
            guess = Some(v);
            first = m.map_or(NO_MOVE, |m| m.index() as u8);
        }
        unreachable!("the exact pass returns")
    }

    /// The root searched with a window around `guess` (±2 discs), widened
    /// towards the side it fails on; a second failure gets the full window.
    $(#[target_feature(enable = $features)])?
    fn aspiration(&mut self, p: u64, o: u64, guess: Option<i32>, first: u8) -> (i32, Option<Square>) {
        let Some(g) = guess else {
            return self.root_window(p, o, -INF, INF, first);
        };
        let (mut lo, mut hi) = (g - 3, g + 3);
        for tries in 0.. {
            let (v, m) = self.root_window(p, o, lo, hi, first);
            if self.aborted {
                return (v, m);
            }
            if tries >= 1 && (v <= lo || v >= hi) {
                // Failed on both sides (a selective pass's probable cuts
                // can disagree between windows): the full window ends it.
                (lo, hi) = (-INF, INF);
            } else if v <= lo {
                (lo, hi) = (-INF, v + 1);
            } else if v >= hi {
                (lo, hi) = (v - 1, INF);
            } else {
                return (v, m);
            }
        }
        unreachable!("the full window always holds the value")
    }

    /// Principal-variation search of the root's moves in the window
    /// `(alpha, beta)` (`first`, if legal, first; fail-soft).
    $(#[target_feature(enable = $features)])?
    fn root_window(&mut self, p: u64, o: u64, alpha: i32, beta: i32, first: u8) -> (i32, Option<Square>) {
        self.nodes += 1;
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return (final_score(p, o), None);
            }
            return (-self.search(o, p, -beta, -alpha, true), None);
        }
        let mut list = [(0i32, 0u8, 0u64); 32];
        let n = self.ordered_moves(p, o, moves, &mut list);
        if let Some(k) = list[..n].iter().position(|m| m.1 == first) {
            list[..=k].rotate_right(1);
        }
        let root_first = self.root_first;
        let mut first_value = None;
        let searched = match self.busy {
            // With several threads, moves another thread is searching are
            // deferred at the root too ([`crate::split`]).
            Some(b) => {
                let sel = self.sel;
                deferring_loop(
                    p,
                    o,
                    &list[..n],
                    alpha,
                    beta,
                    -INF,
                    false,
                    |p, o| b.is_busy(Busy::key(p, o, sel)),
                    |p, o, alpha, beta| {
                        let v = self.search(p, o, alpha, beta, false);
                        (!self.aborted).then_some(v)
                    },
                    |i, sq, v| {
                        if i == 0 && sq == root_first {
                            first_value = Some(v);
                        }
                    },
                )
            }
            None => pvs_loop(
                p,
                o,
                &list[..n],
                alpha,
                beta,
                -INF,
                false,
                |p, o, alpha, beta| {
                    let v = self.search(p, o, alpha, beta, false);
                    (!self.aborted).then_some(v)
                },
                |i, sq, v| {
                    if i == 0 && sq == root_first {
                        first_value = Some(v);
                    }
                },
            ),
        };
        if first_value.is_some() {
            self.first_value = first_value;
        }
        let best = searched.map_or((-INF, None), |(v, sq)| (v, Square::new(usize::from(sq))));
        best
    }
}
    };
}

solver_methods!(Portable);
#[cfg(target_arch = "x86_64")]
solver_methods!(X86V3, "popcnt,lzcnt,bmi1,bmi2,avx2");

/// Whether this CPU runs the x86-64-v3 copy of the recursions.
#[cfg(target_arch = "x86_64")]
pub(crate) fn x86_v3() -> bool {
    std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("avx2")
}

/// The evaluation a solve orders its moves with: weights, from how many
/// empties on, and key units per disc.
type EvalOrder<'w> = Option<(&'w PatternWeights, u32, i32)>;

/// What one solve runs with.
#[derive(Clone, Copy)]
struct Run<'w> {
    bits: u32,
    limit: u64,
    portable: bool,
    eval: EvalOrder<'w>,
    first: u8,
    threads: usize,
    cancel: Option<&'w AtomicBool>,
}

/// Runs the solver on `pos`: the result (nodes of every thread), whether
/// the budget ran out, and the value of `first` searched first at the
/// root with a full window (`None` if it is not a legal move or is
/// `NO_MOVE`). With several threads every thread searches the whole
/// solve on the shared table, deferring moves another thread is searching
/// (ABDADA, [`crate::split`]); the first thread to finish gives the result
/// (each thread's is exact) and the others stop.
fn run(pos: &Position, run: Run<'_>) -> (SolveResult, bool, Option<i32>) {
    let (p, o) = (pos.player().0, pos.opponent().0 & !pos.player().0);
    // A table no larger than the search can fill: clearing 2^19 slots
    // (16 MiB) costs more than a whole solve at 14 empties, and a table
    // that fits the caches misses less.
    let empties = (!(p | o)).count_ones();
    let bits = run
        .bits
        .min(empties.saturating_sub(TABLE_EMPTIES_OFFSET).max(10));
    // One slot more, so that the table can start on a 64-byte boundary:
    // a bucket (two slots) is then one cache line.
    let storage: Vec<Slot> = (0..=1usize << bits).map(|_| Slot::default()).collect();
    let skip = usize::from((storage.as_ptr() as usize) % 64 != 0);
    let table = &storage[skip..skip + (1usize << bits)];
    let stop = AtomicBool::new(false);
    // wasm has no threads; a node budget is one thread's.
    let threads = if cfg!(target_arch = "wasm32") || run.limit != u64::MAX {
        1
    } else {
        run.threads.max(1)
    };
    let busy = (threads > 1).then(Busy::new);
    let shared = Shared {
        table,
        stop: &stop,
        busy: busy.as_ref(),
        threads,
    };
    #[cfg(target_arch = "x86_64")]
    if !run.portable && x86_v3() {
        return run_threads::<X86V3>(shared, p, o, run, root_v3);
    }
    // Elsewhere there is only the portable copy to run.
    let _ = run.portable;
    run_threads::<Portable>(shared, p, o, run, Solver::<Portable>::root)
}

/// What the threads of a solve share: the table, the flag that stops them,
/// the positions in progress (with several threads) and how many there are.
#[derive(Clone, Copy)]
struct Shared<'w> {
    table: &'w [Slot],
    stop: &'w AtomicBool,
    busy: Option<&'w Busy>,
    threads: usize,
}

/// The x86-64-v3 copy of the root.
#[cfg(target_arch = "x86_64")]
fn root_v3(solver: &mut Solver<'_, X86V3>, p: u64, o: u64) -> (i32, Option<Square>) {
    assert!(
        x86_v3(),
        "the x86-64-v3 solver needs a CPU with its features"
    );
    #[allow(unsafe_code)]
    // SAFETY: `Solver<X86V3>`'s methods are compiled for popcnt, lzcnt,
    // bmi1, bmi2 and avx2, and `x86_v3()` has just checked that this CPU
    // has every one of them. No other unsafe operation is involved.
    unsafe {
        solver.root(p, o)
    }
}

/// One kernel copy's root search.
type RootFn<'w, K> = fn(&mut Solver<'w, K>, u64, u64) -> (i32, Option<Square>);

fn run_threads<'w, K>(
    shared: Shared<'w>,
    p: u64,
    o: u64,
    run: Run<'w>,
    root: RootFn<'w, K>,
) -> (SolveResult, bool, Option<i32>) {
    let configure = |solver: &mut Solver<'w, K>| {
        solver.limit = run.limit;
        solver.cancel = run.cancel;
        solver.root_first = run.first;
        if let Some((w, empties, weight)) = run.eval {
            solver.eval = Some(w);
            solver.shallow_empties = EVAL_SHALLOW_EMPTIES;
            solver.etc_empties = EVAL_ETC_EMPTIES;
            solver.eval_empties = empties;
            solver.eval_weight = weight;
        }
    };
    let Shared {
        table,
        stop,
        busy,
        threads,
    } = shared;
    let mut solver = Solver::<K>::new(table);
    configure(&mut solver);
    let Some(busy) = busy.filter(|_| threads > 1) else {
        let (score, best_move) = root(&mut solver, p, o);
        let result = SolveResult {
            score,
            best_move,
            nodes: solver.nodes,
        };
        return (result, solver.aborted, solver.first_value);
    };
    // The first thread to finish: its score, move and first move's value.
    let done: OnceLock<(i32, Option<Square>, Option<i32>)> = OnceLock::new();
    let finish = |s: &Solver<'w, K>, (score, best_move): (i32, Option<Square>)| {
        if !s.aborted && done.set((score, best_move, s.first_value)).is_ok() {
            stop.store(true, Relaxed);
        }
    };
    solver.busy = Some(busy);
    solver.stop = Some(stop);
    let helper_nodes: u64 = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut h = Solver::<K>::new(table);
                    configure(&mut h);
                    h.busy = Some(busy);
                    h.stop = Some(stop);
                    let r = root(&mut h, p, o);
                    finish(&h, r);
                    h.nodes
                })
            })
            .collect();
        let r = root(&mut solver, p, o);
        finish(&solver, r);
        helpers
            .into_iter()
            .map(|h| h.join().expect("a solver thread panicked"))
            .sum()
    });
    // A thread stops only once another has posted its result, so there is
    // one (and with no budget nothing else aborts).
    let (score, best_move, first_value, aborted) = match done.get() {
        Some(&(score, best_move, first_value)) => (score, best_move, first_value, false),
        None => (0, None, None, true),
    };
    let result = SolveResult {
        score,
        best_move,
        nodes: solver.nodes + helper_nodes,
    };
    (result, aborted, first_value)
}

/// Every setting of the one solve call, [`solve_with`]. The default is a
/// plain exact solve: the usual table, no budget, mobility ordering only.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions<'w> {
    /// The transposition table holds at most `2^table_bits` entries
    /// (clamped to 10..=26; 32 bytes each), and at most `2^(E − 3)` (at
    /// least 2^10) for a position with E empty squares. Smaller tables suit
    /// memory-tight targets.
    pub table_bits: u32,
    /// Give up after this many visited positions (`None`: no budget). The
    /// search stops cleanly (no panic, no clock), so a server can solve any
    /// position at a bounded cost; the budget may be overshot by at most
    /// one small subtree (fewer than 7 empty squares, 4 with `eval`) before it notices.
    pub max_nodes: Option<u64>,
    /// Pattern weights added to the move ordering (fewer nodes on hard
    /// positions; the score is as exact, the move and the node count may
    /// differ).
    pub eval: Option<&'w PatternWeights>,
    /// With `eval`: from how many empty squares on it orders moves.
    pub eval_from_empties: u32,
    /// With `eval`: key units per disc of its value.
    pub eval_weight: i32,
    /// Search this move first at the root, with a full window, and report
    /// its exact value too ([`Solved::first_value`]).
    pub first: Option<Square>,
    /// Run the portable copy even where the CPU could run the x86-64-v3
    /// one (the tests compare the two).
    pub portable: bool,
    /// Threads searching at once on a shared table (ABDADA: a thread
    /// defers moves another is searching; the score is as exact, the move
    /// one reaching it, the node count every thread's). 1 on wasm and
    /// with a node budget.
    pub threads: usize,
    /// Cancellation: once the flag is set (by another thread) the solve
    /// stops within a few thousand positions and gives up as when the
    /// budget runs out (`None`). A server sets it when the search's
    /// requester has gone.
    pub stop: Option<&'w AtomicBool>,
}

impl Default for SolveOptions<'_> {
    fn default() -> Self {
        SolveOptions {
            table_bits: TT_BITS,
            max_nodes: None,
            eval: None,
            eval_from_empties: EVAL_ORDER_EMPTIES,
            eval_weight: EVAL_ORDER_WEIGHT,
            first: None,
            portable: false,
            threads: 1,
            stop: None,
        }
    }
}

impl<'w> SolveOptions<'w> {
    /// The default settings with `weights` in the move ordering.
    #[must_use]
    pub fn with_eval(weights: &'w PatternWeights) -> Self {
        SolveOptions {
            eval: Some(weights),
            ..SolveOptions::default()
        }
    }

    /// These settings within a budget of `max_nodes` visited positions.
    #[must_use]
    pub fn within(self, max_nodes: u64) -> Self {
        SolveOptions {
            max_nodes: Some(max_nodes),
            ..self
        }
    }

    /// These settings, cancelled once `stop` is set ([`SolveOptions::stop`]).
    #[must_use]
    pub fn until(self, stop: Option<&'w AtomicBool>) -> Self {
        SolveOptions { stop, ..self }
    }
}

/// What [`solve_with`] found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Solved {
    /// The exact result.
    pub result: SolveResult,
    /// The exact score of playing [`SolveOptions::first`] (`None` when not
    /// asked or not a legal move).
    pub first_value: Option<i32>,
}

/// Solves `pos` exactly with `options`: `None` only when the node budget
/// ran out (or [`SolveOptions::stop`] was set) before the exact score was
/// known.
#[must_use]
pub fn solve_with(pos: &Position, options: SolveOptions<'_>) -> Option<Solved> {
    let limit = options.max_nodes.unwrap_or(u64::MAX);
    let eval = options
        .eval
        .map(|w| (w, options.eval_from_empties, options.eval_weight));
    let first = options
        .first
        .and_then(|sq| u8::try_from(sq.index()).ok())
        .unwrap_or(NO_MOVE);
    let (result, aborted, first_value) = run(
        pos,
        Run {
            bits: options.table_bits.clamp(10, 26),
            limit,
            portable: options.portable,
            eval,
            first,
            threads: options.threads,
            cancel: options.stop,
        },
    );
    (!aborted && result.nodes <= limit).then_some(Solved {
        result,
        first_value,
    })
}

/// Solves `pos` exactly: final disc difference for the side to move with
/// perfect play by both sides, and a move that achieves it
/// ([`solve_with`] with the default [`SolveOptions`]).
#[must_use]
pub fn solve(pos: &Position) -> SolveResult {
    run(
        pos,
        Run {
            bits: TT_BITS,
            limit: u64::MAX,
            portable: false,
            eval: None,
            first: NO_MOVE,
            threads: 1,
            cancel: None,
        },
    )
    .0
}
