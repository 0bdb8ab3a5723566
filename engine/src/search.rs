//! The play AI: α–β MiniMax exactly as docs/PRODUCT.md ("The board, the
//! rules and the play AI") describes it.
//!
//! * Values are always from the AI's side (the side to move at the root):
//!   the AI maximises on its turns, the opponent minimises.
//! * Moves are tried in [`MOVE_ORDER`](crate::eval::MOVE_ORDER): highest
//!   positional weight first, ties to the lower square index.
//! * Depth counts placed discs; a forced pass recurses with the opponent at
//!   the same depth. A finished game scores [`terminal_score`]; depth 0
//!   scores [`evaluate`]. There is no time limit.
//! * The root is plain α–β like every other node: α starts at −∞ and is
//!   raised to the best value found so far, β stays +∞; a later root move
//!   replaces the best only when strictly better (ties keep the earlier
//!   move). So [`search`] knows the exact value of the move it plays, but
//!   for the moves it did not choose only an upper bound
//!   ([`RootMove::exact`] says which).
//! * [`SearchReport::nodes`] counts the MiniMax calls below the root: a
//!   forced pass is its own call (same depth) and counts, the root call
//!   does not. Same position and depth → same report.
//! * [`analyse_root`] is the separate analysis search: every root move with
//!   a full window, so each gets its exact value (the AI lab's fact sheet).
//!   It picks the same move and value as [`search`] but visits more
//!   positions; [`search_parallel`] is the same analysis on several threads.

use crate::bitboard;
use crate::color::Color;
use crate::eval::{evaluate, terminal_score, WEIGHT_GROUPS};
use crate::position::Position;
use crate::square::Square;

/// Larger than any evaluation or terminal score.
const INF: i32 = 1_000_000;

/// The value the search gave one legal root move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RootMove {
    /// The move.
    pub square: Square,
    /// Its MiniMax value from the AI's side at the searched depth when
    /// `exact`; otherwise an upper bound of it (the α–β root proved the move
    /// no better than an earlier one and stopped).
    pub value: i32,
    /// Whether `value` is the move's exact MiniMax value. Always true in
    /// [`analyse_root`] and [`search_parallel`].
    pub exact: bool,
}

/// What a search found.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchReport {
    /// The move to play; `None` when the side to move must pass or the game
    /// is over.
    pub best_move: Option<Square>,
    /// MiniMax value of the position from the side to move's view.
    pub value: i32,
    /// Positions searched: the MiniMax calls below the root (a forced pass
    /// re-call counts, the root call does not). Deterministic. For
    /// [`analyse_root`] and [`search_parallel`] the count of that analysis,
    /// not of the play AI.
    pub nodes: u64,
    /// Expected continuation, best move first (passes are not listed).
    pub principal_variation: Vec<Square>,
    /// Every legal root move with its value, in search order (exact for the
    /// chosen move; see [`RootMove::exact`] for the others).
    pub root_moves: Vec<RootMove>,
    /// The depth searched (placed discs).
    pub depth: u32,
}

/// Calls `f` for each square of `moves` in the play AI's order; stops when
/// `f` returns false.
#[inline]
fn for_each_ordered(moves: u64, mut f: impl FnMut(usize) -> bool) {
    for &(_, group) in &WEIGHT_GROUPS {
        let mut m = moves & group;
        while m != 0 {
            let index = m.trailing_zeros() as usize;
            m &= m - 1;
            if !f(index) {
                return;
            }
        }
    }
}

const MAX_PLY: usize = 66;

struct Searcher {
    ai: Color,
    nodes: u64,
    pv: Vec<[Square; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
}

impl Searcher {
    fn new(ai: Color) -> Searcher {
        Searcher {
            ai,
            nodes: 0,
            pv: vec![[Square::from_index_unchecked(0); MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
        }
    }

    fn pv_at(&self, ply: usize) -> Vec<Square> {
        self.pv[ply][..self.pv_len[ply]].to_vec()
    }

    fn set_pv(&mut self, ply: usize, square: Square) {
        let child_len = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let row = &mut head[ply];
        row[0] = square;
        row[1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// The MiniMax with α–β (fail-soft). `ply` counts placed discs from
    /// the root (always < 65).
    fn minimax(
        &mut self,
        pos: &Position,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        self.pv_len[ply] = 0;
        let p = pos.player().0;
        let o = pos.opponent().0;
        let moves = bitboard::legal_moves(p, o);
        if moves == 0 {
            if bitboard::legal_moves(o, p) == 0 {
                return terminal_score(pos, self.ai);
            }
            return self.minimax(&pos.passed(), depth, alpha, beta, ply);
        }
        if depth == 0 {
            return evaluate(pos, self.ai);
        }
        let maximizing = pos.side_to_move == self.ai;
        let mut best = if maximizing { -INF } else { INF };
        for_each_ordered(moves, |index| {
            let square = Square::from_index_unchecked(index);
            let flipped = bitboard::Bitboard(bitboard::flips(p, o, index));
            let child = pos.apply(square, flipped);
            let value = self.minimax(&child, depth - 1, alpha, beta, ply + 1);
            if maximizing {
                if value > best {
                    best = value;
                    self.set_pv(ply, square);
                }
                alpha = alpha.max(best);
            } else {
                if value < best {
                    best = value;
                    self.set_pv(ply, square);
                }
                beta = beta.min(best);
            }
            alpha < beta
        });
        best
    }

    /// Value of the root move `square` searched with the window (α, +∞).
    fn root_move(&mut self, pos: &Position, square: Square, depth: u32, alpha: i32) -> i32 {
        let flipped = pos.flips(square);
        let child = pos.apply(square, flipped);
        self.minimax(&child, depth - 1, alpha, INF, 1)
    }
}

/// The root moves of `pos` in search order.
fn root_order(pos: &Position) -> Vec<Square> {
    let mut out = Vec::new();
    for_each_ordered(pos.legal_moves().0, |index| {
        out.push(Square::from_index_unchecked(index));
        true
    });
    out
}

/// The play AI: searches `pos` to `depth` placed discs (a depth of 0 is
/// treated as 1) for the side to move, with a plain α–β root.
#[must_use]
pub fn search(pos: &Position, depth: u32) -> SearchReport {
    search_root(pos, depth, false)
}

/// The analysis search: like [`search`], but every root move is searched
/// with a full window, so [`SearchReport::root_moves`] holds the exact
/// depth-limited MiniMax value of every legal move. It returns the same
/// best move and value as [`search`] (the first move of the highest
/// value); its node count is that of the analysis, larger than the play
/// AI's.
#[must_use]
pub fn analyse_root(pos: &Position, depth: u32) -> SearchReport {
    search_root(pos, depth, true)
}

fn search_root(pos: &Position, depth: u32, full_window: bool) -> SearchReport {
    let depth = depth.max(1);
    let mut searcher = Searcher::new(pos.side_to_move);
    let moves = root_order(pos);
    if moves.is_empty() {
        return pass_or_end_report(&mut searcher, pos, depth);
    }
    let mut root_moves = Vec::with_capacity(moves.len());
    let mut alpha = -INF;
    let mut best: Option<(Square, Vec<Square>)> = None;
    for square in moves {
        let window = if full_window { -INF } else { alpha };
        let value = searcher.root_move(pos, square, depth, window);
        // Fail-soft: a value above the window's α is exact, one at or below
        // it only bounds the move from above.
        root_moves.push(RootMove {
            square,
            value,
            exact: value > window,
        });
        if value > alpha {
            alpha = value;
            let mut pv = vec![square];
            pv.extend(searcher.pv_at(1));
            best = Some((square, pv));
        }
    }
    let Some((square, principal_variation)) = best else {
        // Unreachable: every value exceeds −∞.
        return pass_or_end_report(&mut Searcher::new(pos.side_to_move), pos, depth);
    };
    SearchReport {
        best_move: Some(square),
        value: alpha,
        nodes: searcher.nodes,
        principal_variation,
        root_moves,
        depth,
    }
}

/// No legal move at the root: the root call passes (or scores the finished
/// game); the root call itself is not counted.
fn pass_or_end_report(searcher: &mut Searcher, pos: &Position, depth: u32) -> SearchReport {
    let value = searcher.minimax(pos, depth, -INF, INF, 0);
    SearchReport {
        best_move: None,
        value,
        nodes: searcher.nodes - 1,
        principal_variation: searcher.pv_at(0),
        root_moves: Vec::new(),
        depth,
    }
}

/// [`analyse_root`] with the root moves shared among `threads` worker
/// threads (native targets; wasm32 runs it on the calling thread). Returns
/// exactly what [`analyse_root`] returns — the same move and value as the
/// play AI's [`search`], exact root values — because each root move is
/// searched independently with a full window; the threads only share the
/// work queue. A parallel α–β root cannot reproduce the serial α–β node
/// count (which depends on the order moves finish), so the play AI and the
/// sample games use the serial [`search`].
#[must_use]
pub fn search_parallel(pos: &Position, depth: u32, threads: usize) -> SearchReport {
    #[cfg(target_arch = "wasm32")]
    {
        let _ = threads;
        analyse_root(pos, depth)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        parallel::search_parallel(pos, depth, threads)
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod parallel {
    use super::{root_order, RootMove, SearchReport, Searcher, INF};
    use crate::position::Position;
    use crate::square::Square;
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Done {
        index: usize,
        value: i32,
        nodes: u64,
        pv: Vec<Square>,
    }

    pub(super) fn search_parallel(pos: &Position, depth: u32, threads: usize) -> SearchReport {
        let depth = depth.max(1);
        let moves = root_order(pos);
        let threads = threads.clamp(1, moves.len().max(1));
        if moves.len() <= 1 || threads == 1 {
            return super::analyse_root(pos, depth);
        }
        let next = AtomicUsize::new(0);
        let mut done: Vec<Done> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut searcher = Searcher::new(pos.side_to_move);
                        let mut out = Vec::new();
                        loop {
                            let index = next.fetch_add(1, Ordering::Relaxed);
                            let Some(&square) = moves.get(index) else {
                                break;
                            };
                            let before = searcher.nodes;
                            let value = searcher.root_move(pos, square, depth, -INF);
                            let mut pv = vec![square];
                            pv.extend(searcher.pv_at(1));
                            out.push(Done {
                                index,
                                value,
                                nodes: searcher.nodes - before,
                                pv,
                            });
                        }
                        out
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().unwrap_or_default())
                .collect()
        });
        if done.len() != moves.len() {
            // A worker died (cannot happen without a bug); stay correct.
            return super::analyse_root(pos, depth);
        }
        done.sort_by_key(|d| d.index);
        let mut best = 0;
        for (i, d) in done.iter().enumerate() {
            if d.value > done[best].value {
                best = i;
            }
        }
        SearchReport {
            best_move: Some(moves[best]),
            value: done[best].value,
            nodes: done.iter().map(|d| d.nodes).sum::<u64>(),
            principal_variation: std::mem::take(&mut done[best].pv),
            root_moves: done
                .iter()
                .map(|d| RootMove {
                    square: moves[d.index],
                    value: d.value,
                    exact: true,
                })
                .collect(),
            depth,
        }
    }
}
