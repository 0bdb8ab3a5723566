//! Building the opening book ([`crate::book`]) with the strong search:
//! best-first expansion of the positions reached by good play.
//! (Over 600 lines: the build, its progress format and their tests stay
//! together.)
//!
//! * Every position met is valued once by the strong search at a fixed
//!   depth ([`BuildParams::depth`]); that search value (the *leaf* value)
//!   never changes.
//! * Expanding a position values all its moves (the positions after them)
//!   and queues those within a window of the best move — 4 discs at the
//!   start, narrowing with the ply ([`BuildParams::window`]) — that have
//!   not been queued before, unless they lie [`BuildParams::plies`] plies
//!   from the start. A queued position's priority is its parent's plus the
//!   move's loss against the best plus a cost per ply: the cheapest is
//!   expanded first, so the main lines go deep first and the side lines
//!   fill in as the budget grows.
//! * The book written out negamaxes the expanded positions from the leaf
//!   values (deepest first).
//!
//! The build is deterministic (one search thread, integer priorities,
//! insertion order breaking ties) and its whole state serialises
//! ([`Builder::to_progress_bytes`]), so a build stopped after N expansions
//! and resumed to M gives the same bytes as one run to M.

use crate::book::{lookup_key, Book, BookInfo, Entry, Kind, Lookup, MAX_VALUE};
use crate::pattern::{fnv1a64, PatternWeights};
use crate::strong::{evaluate_position, Limits};
use crate::{Bitboard, Color, Position};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// What the build explores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildParams {
    /// Depth of the strong search valuing each position.
    pub depth: u32,
    /// Positions at most this many plies from the start are stored; those
    /// before the last ply may be expanded.
    pub plies: u32,
    /// Window at the start (1/100 disc): moves within it of the best are
    /// followed.
    pub window_first: i32,
    /// Window at the last expanded ply (linear in between).
    pub window_last: i32,
    /// Priority added per ply (1/100 disc): more favours breadth.
    pub ply_cost: i32,
}

impl Default for BuildParams {
    fn default() -> BuildParams {
        BuildParams {
            depth: 10,
            plies: 12,
            window_first: 400,
            window_last: 100,
            ply_cost: 30,
        }
    }
}

impl BuildParams {
    /// The window (1/100 disc) for the moves of a position `ply` plies
    /// from the start.
    #[must_use]
    pub fn window(&self, ply: u32) -> i32 {
        let last = self.plies.saturating_sub(2).max(1) as i32;
        let ply = (ply as i32).min(last);
        self.window_first + (self.window_last - self.window_first) * ply / last
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    leaf: i16,
    depth: u8,
    exact: bool,
    expanded: bool,
    queued: bool,
}

/// One expansion's figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Plies from the start of the position expanded.
    pub ply: u32,
    /// Its priority.
    pub cost: i64,
    /// Searches it took (moves not valued before).
    pub searches: u32,
}

/// A book build in progress.
#[derive(Clone, Debug)]
pub struct Builder {
    params: BuildParams,
    nodes: HashMap<(u64, u64), Node>,
    queue: BinaryHeap<Reverse<(i64, u64, u64, u64)>>,
    seq: u64,
    expanded: u64,
    searches: u64,
    search_nodes: u64,
}

const PROGRESS_MAGIC: &[u8; 8] = b"O3DBKPR\0";
const PROGRESS_VERSION: u32 = 1;

fn position_of(key: (u64, u64)) -> Position {
    Position {
        black: Bitboard(key.0),
        white: Bitboard(key.1),
        side_to_move: Color::Black,
    }
}

fn ply_of(key: (u64, u64)) -> u32 {
    (key.0 | key.1).count_ones().saturating_sub(4)
}

/// The positions after each legal move of `pos`: the canonical key and
/// the sign turning its stored value into the mover's (`None` and the
/// mover's exact score, 1/100 disc, for a finished game).
fn children(pos: &Position) -> Vec<(Option<(u64, u64)>, i32)> {
    pos.legal_moves()
        .iter()
        .filter_map(|sq| pos.play(sq).ok())
        .map(|after| match lookup_key(&after.position) {
            Lookup::Over(centi) => (None, -centi),
            Lookup::Key(key, sign) => (Some(key), -sign),
        })
        .collect()
}

impl Builder {
    /// A fresh build: the start position valued and queued.
    #[must_use]
    pub fn new(params: BuildParams, weights: &PatternWeights) -> Builder {
        let mut b = Builder {
            params,
            nodes: HashMap::new(),
            queue: BinaryHeap::new(),
            seq: 0,
            expanded: 0,
            searches: 0,
            search_nodes: 0,
        };
        if let Lookup::Key(root, _) = lookup_key(&Position::initial()) {
            b.ensure(root, weights);
            b.enqueue(root, 0);
        }
        b
    }

    /// Queues every position of `line` (moves from the start, a forced
    /// pass played where due) before the last ply, at priority 0: they are expanded first,
    /// so the book holds the line whatever its values (the named openings).
    /// Positions already queued or expanded are left as they are. `Err`
    /// names the first illegal move.
    pub fn add_line(
        &mut self,
        line: &[crate::Square],
        weights: &PatternWeights,
    ) -> Result<(), String> {
        let mut pos = Position::initial();
        for &sq in line {
            if ply_of((pos.black.0, pos.white.0)) >= self.params.plies {
                break;
            }
            if pos.must_pass() {
                pos = pos.pass().map_err(|e| e.to_string())?;
            }
            pos = pos.play(sq).map_err(|e| format!("{sq}: {e}"))?.position;
            if let Lookup::Key(key, _) = lookup_key(&pos) {
                self.ensure(key, weights);
                let fresh = self
                    .nodes
                    .get(&key)
                    .is_some_and(|n| !n.queued && !n.expanded);
                if fresh && ply_of(key) < self.params.plies {
                    self.enqueue(key, 0);
                }
            }
        }
        Ok(())
    }

    /// The parameters it runs with.
    #[must_use]
    pub fn params(&self) -> BuildParams {
        self.params
    }

    /// Positions expanded so far.
    #[must_use]
    pub fn expanded(&self) -> u64 {
        self.expanded
    }

    /// Positions valued so far (the book's entries).
    #[must_use]
    pub fn positions(&self) -> usize {
        self.nodes.len()
    }

    /// Positions waiting to be expanded.
    #[must_use]
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Strong searches run so far, and the nodes they visited.
    #[must_use]
    pub fn searches(&self) -> (u64, u64) {
        (self.searches, self.search_nodes)
    }

    fn enqueue(&mut self, key: (u64, u64), cost: i64) {
        if let Some(node) = self.nodes.get_mut(&key) {
            node.queued = true;
        }
        self.queue.push(Reverse((cost, self.seq, key.0, key.1)));
        self.seq += 1;
    }

    /// The node of `key`, valued by the strong search when new.
    fn ensure(&mut self, key: (u64, u64), weights: &PatternWeights) -> (Node, bool) {
        if let Some(node) = self.nodes.get(&key) {
            return (*node, false);
        }
        let limits = Limits {
            depth: self.params.depth.max(1),
            max_nodes: u64::MAX,
            exact_from_empties: 0,
            time_ms: None,
            threads: 1,
            stop: None,
        };
        let r = evaluate_position(&position_of(key), weights, limits);
        self.searches += 1;
        self.search_nodes += r.nodes;
        let centi = (r.value * 100.0).round() as i32;
        let max = i32::from(MAX_VALUE);
        let node = Node {
            leaf: centi.clamp(-max, max) as i16,
            depth: r.depth.min(255) as u8,
            exact: r.exact,
            expanded: false,
            queued: false,
        };
        self.nodes.insert(key, node);
        (node, true)
    }

    /// Expands the cheapest queued position; `None` when none is left.
    pub fn step(&mut self, weights: &PatternWeights) -> Option<Step> {
        let Reverse((cost, _, p, o)) = self.queue.pop()?;
        let key = (p, o);
        let ply = ply_of(key);
        let mut searches = 0;
        let mut valued = Vec::new();
        for (child, sign) in children(&position_of(key)) {
            match child {
                None => valued.push((None, sign)),
                Some(k) => {
                    let (node, new) = self.ensure(k, weights);
                    searches += u32::from(new);
                    valued.push((Some(k), sign * i32::from(node.leaf)));
                }
            }
        }
        if let Some(node) = self.nodes.get_mut(&key) {
            node.expanded = true;
        }
        self.expanded += 1;
        let best = valued.iter().map(|&(_, v)| v).max().unwrap_or(0);
        if ply + 1 < self.params.plies {
            let window = self.params.window(ply);
            for (child, value) in valued {
                let Some(k) = child else { continue };
                let loss = best - value;
                let fresh = self.nodes.get(&k).is_some_and(|n| !n.queued && !n.expanded);
                if loss <= window && fresh {
                    let c = cost + i64::from(loss) + i64::from(self.params.ply_cost);
                    self.enqueue(k, c);
                }
            }
        }
        Some(Step {
            ply,
            cost,
            searches,
        })
    }

    /// The book so far: the leaf values, negamaxed through the expanded
    /// positions (those with the most discs first).
    #[must_use]
    pub fn book(&self) -> Book {
        let mut values: HashMap<(u64, u64), (i16, u8, Kind)> = self
            .nodes
            .iter()
            .map(|(&k, n)| {
                let kind = if n.exact { Kind::Exact } else { Kind::Leaf };
                (k, (n.leaf, n.depth, kind))
            })
            .collect();
        let mut expanded: Vec<(u64, u64)> = self
            .nodes
            .iter()
            .filter(|(_, n)| n.expanded)
            .map(|(&k, _)| k)
            .collect();
        expanded.sort_by_key(|&k| (Reverse((k.0 | k.1).count_ones()), k));
        for key in expanded {
            let mut best: Option<(i32, u8)> = None;
            for (child, sign) in children(&position_of(key)) {
                let (value, depth) = match child {
                    None => (sign, 0),
                    Some(k) => match values.get(&k) {
                        Some(&(v, d, _)) => (sign * i32::from(v), d.saturating_add(1)),
                        None => continue,
                    },
                };
                if best.is_none_or(|(b, _)| value > b) {
                    best = Some((value, depth));
                }
            }
            if let Some((v, d)) = best {
                values.insert(key, (v as i16, d, Kind::Expanded));
            }
        }
        let entries = values
            .into_iter()
            .map(|((player, opponent), (value, depth, kind))| Entry {
                player,
                opponent,
                value,
                depth,
                kind,
            })
            .collect();
        Book::new(
            BookInfo {
                depth: self.params.depth.min(255) as u8,
                plies: self.params.plies.min(255) as u8,
                expanded: self.expanded.min(u64::from(u32::MAX)) as u32,
            },
            entries,
        )
    }

    /// The whole state, to resume from ([`Builder::from_progress_bytes`]);
    /// the same state always gives the same bytes.
    #[must_use]
    pub fn to_progress_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(PROGRESS_MAGIC);
        out.extend_from_slice(&PROGRESS_VERSION.to_le_bytes());
        let p = &self.params;
        for v in [p.depth, p.plies] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in [p.window_first, p.window_last, p.ply_cost] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in [self.seq, self.expanded, self.searches, self.search_nodes] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let mut nodes: Vec<(&(u64, u64), &Node)> = self.nodes.iter().collect();
        nodes.sort_by_key(|(k, _)| **k);
        out.extend_from_slice(&(nodes.len() as u64).to_le_bytes());
        for (k, n) in nodes {
            out.extend_from_slice(&k.0.to_le_bytes());
            out.extend_from_slice(&k.1.to_le_bytes());
            out.extend_from_slice(&n.leaf.to_le_bytes());
            out.push(n.depth);
            out.push(u8::from(n.exact) | u8::from(n.expanded) << 1 | u8::from(n.queued) << 2);
        }
        let mut queue: Vec<(i64, u64, u64, u64)> = self.queue.iter().map(|r| r.0).collect();
        queue.sort_unstable();
        out.extend_from_slice(&(queue.len() as u64).to_le_bytes());
        for (cost, seq, p, o) in queue {
            out.extend_from_slice(&cost.to_le_bytes());
            out.extend_from_slice(&seq.to_le_bytes());
            out.extend_from_slice(&p.to_le_bytes());
            out.extend_from_slice(&o.to_le_bytes());
        }
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// A build resumed from [`Builder::to_progress_bytes`]; a damaged or
    /// foreign file is an error.
    pub fn from_progress_bytes(bytes: &[u8]) -> Result<Builder, String> {
        let body = bytes
            .len()
            .checked_sub(8)
            .filter(|&n| n >= 12 && &bytes[..8] == PROGRESS_MAGIC)
            .ok_or("not a book progress file")?;
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&bytes[body..]);
        if fnv1a64(&bytes[..body]) != u64::from_le_bytes(sum) {
            return Err("book progress file checksum mismatch (damaged file)".into());
        }
        let mut r = Reader {
            bytes: &bytes[..body],
            at: 8,
        };
        let version = r.u32()?;
        if version != PROGRESS_VERSION {
            return Err(format!(
                "book progress version {version}, this program reads {PROGRESS_VERSION}"
            ));
        }
        let params = BuildParams {
            depth: r.u32()?,
            plies: r.u32()?,
            window_first: r.u32()? as i32,
            window_last: r.u32()? as i32,
            ply_cost: r.u32()? as i32,
        };
        let (seq, expanded, searches, search_nodes) = (r.u64()?, r.u64()?, r.u64()?, r.u64()?);
        let count = r.u64()?;
        let mut nodes = HashMap::new();
        for _ in 0..count {
            let key = (r.u64()?, r.u64()?);
            let leaf = r.u16()? as i16;
            let depth = r.u8()?;
            let flags = r.u8()?;
            nodes.insert(
                key,
                Node {
                    leaf,
                    depth,
                    exact: flags & 1 != 0,
                    expanded: flags & 2 != 0,
                    queued: flags & 4 != 0,
                },
            );
        }
        let count = r.u64()?;
        let mut queue = BinaryHeap::new();
        for _ in 0..count {
            let item = (r.u64()? as i64, r.u64()?, r.u64()?, r.u64()?);
            if !nodes.contains_key(&(item.2, item.3)) {
                return Err("book progress file: a queued position was never valued".into());
            }
            queue.push(Reverse(item));
        }
        if r.at != r.bytes.len() {
            return Err("book progress file: trailing bytes".into());
        }
        Ok(Builder {
            params,
            nodes,
            queue,
            seq,
            expanded,
            searches,
            search_nodes,
        })
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let end = self.at.checked_add(N).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or("book progress file: truncated")?;
        let mut out = [0u8; N];
        out.copy_from_slice(&self.bytes[self.at..end]);
        self.at = end;
        Ok(out)
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take::<1>()?[0])
    }
    fn u16(&mut self) -> Result<u16, String> {
        self.take().map(u16::from_le_bytes)
    }
    fn u32(&mut self) -> Result<u32, String> {
        self.take().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Result<u64, String> {
        self.take().map(u64::from_le_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::symmetric_position;
    use crate::{default_weights, parse_moves, Game};

    fn params() -> BuildParams {
        BuildParams {
            depth: 1,
            plies: 5,
            window_first: 300,
            window_last: 100,
            ply_cost: 30,
        }
    }

    fn build(steps: usize) -> Builder {
        let w = default_weights();
        let mut b = Builder::new(params(), w);
        for _ in 0..steps {
            b.step(w);
        }
        b
    }

    #[test]
    fn a_resumed_build_gives_the_same_bytes_as_one_run() {
        let w = default_weights();
        let whole = build(14);
        let mut resumed =
            Builder::from_progress_bytes(&build(6).to_progress_bytes()).expect("progress");
        for _ in 0..8 {
            resumed.step(w);
        }
        assert_eq!(resumed.to_progress_bytes(), whole.to_progress_bytes());
        assert_eq!(resumed.book().to_bytes(), whole.book().to_bytes());
        assert_eq!(whole.expanded(), 14);
        // And a second run from scratch too.
        assert_eq!(build(14).book().to_bytes(), whole.book().to_bytes());
    }

    #[test]
    fn a_damaged_progress_file_is_refused() {
        let bytes = build(2).to_progress_bytes();
        assert!(Builder::from_progress_bytes(&bytes[..bytes.len() - 3]).is_err());
        let mut bad = bytes.clone();
        bad[20] ^= 1;
        assert!(Builder::from_progress_bytes(&bad).is_err());
        assert!(Builder::from_progress_bytes(b"").is_err());
    }

    #[test]
    fn the_book_values_every_move_of_an_expanded_position() {
        let b = build(20);
        let book = b.book();
        assert_eq!(book.len(), b.positions());
        let expanded: Vec<_> = book
            .entries()
            .iter()
            .filter(|e| e.kind == Kind::Expanded)
            .collect();
        assert_eq!(expanded.len() as u64, b.expanded());
        assert!(b.expanded() > 10);
        for e in expanded {
            let pos = position_of((e.player, e.opponent));
            let moves = book.moves(&pos);
            assert_eq!(moves.len(), pos.legal_moves().count() as usize);
            // Negamax: the position's value is its best move's.
            assert_eq!(i32::from(e.value), moves[0].value.centi);
            assert!(pos.empty_count() > 60 - params().plies);
        }
        // The start is expanded and its value is the same for its four
        // (symmetric) moves, as for every image of a later position.
        let start = Position::initial();
        assert!(book.is_expanded(&start));
        let first = book.moves(&start);
        assert_eq!(first.len(), 4);
        assert!(first.iter().all(|m| m.value == first[0].value));
        let pos = *Game::replay(&parse_moves("f5d6").unwrap())
            .unwrap()
            .position();
        let v = book.value(&pos).expect("f5 d6 is in the book");
        for s in 0..8 {
            assert_eq!(book.value(&symmetric_position(&pos, s)), Some(v));
        }
        // Nothing is stored beyond the plies.
        assert!(book
            .entries()
            .iter()
            .all(|e| ply_of((e.player, e.opponent)) <= params().plies));
    }

    #[test]
    fn a_line_added_is_expanded_first_and_kept() {
        let w = default_weights();
        let mut b = Builder::new(params(), w);
        // Any line, whether or not the windows would follow it.
        let line = parse_moves("f5f4e3f6d3").unwrap();
        b.add_line(&line, w).unwrap();
        assert!(b.add_line(&parse_moves("a1").unwrap(), w).is_err());
        for _ in 0..5 {
            b.step(w);
        }
        let book = b.book();
        let mut pos = Position::initial();
        for (i, &sq) in line.iter().enumerate() {
            assert!(book.is_expanded(&pos), "ply {i}");
            pos = pos.play(sq).unwrap().position;
            assert!(book.value(&pos).is_some(), "ply {}", i + 1);
        }
    }

    #[test]
    fn the_window_narrows_with_the_ply() {
        let p = BuildParams::default();
        assert_eq!(p.window(0), 400);
        assert_eq!(p.window(p.plies - 2), 100);
        assert!(p.window(5) < p.window(4));
    }
}
