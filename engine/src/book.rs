//! The opening book: positions reached by good play in the first plies,
//! each with its value, built by the engine itself ([`crate::book_build`],
//! the `othello book build` command) and looked up by the strongest level,
//! the analysis and NBoard. (Over 600 lines: the format, the lookup and their
//! tests, ~280 lines, belong together.)
//!
//! * **Keys.** A position is stored once for its 8 symmetric images: under
//!   its canonical form, the smallest `(player, opponent)` pair of bitboards
//!   (side to move first, so colours do not matter) over the symmetries of
//!   [`crate::pattern::symmetric_square`]. A position whose side to move
//!   must pass is looked up as the position after the pass (value negated);
//!   a finished game is scored exactly and never stored.
//! * **Values** are in 1/100 disc for the side to move: a leaf's is the
//!   strong search's at the book's depth, an expanded position's the best
//!   of its moves (negamax over the book, every move of an expanded
//!   position being in it).
//! * **Lookup of a move** plays it and looks the position after it up, so
//!   move values come out on the real squares whatever image was stored.
//!
//! File (little-endian): `O3DBOOK\0`, version (u32), entry count (u32),
//! search depth (u8), plies (u8), 2 reserved bytes, expanded positions
//! (u32); then the entries sorted by key, 20 bytes each: player (u64),
//! opponent (u64), value (i16), depth (u8), kind (u8: 0 leaf, 1 expanded,
//! 2 exact); then the FNV-1a 64 of all the bytes before it. The same book
//! always gives the same bytes. A file that is not one is refused at load
//! with a [`BookError`], never a panic.

use crate::pattern::fnv1a64;
use crate::position::Position;
use crate::square::Square;
use std::fmt;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"O3DBOOK\0";
/// The format version this code reads and writes.
pub const VERSION: u32 = 1;
const HEADER_LEN: usize = 24;
const ENTRY_LEN: usize = 20;
/// Largest magnitude of a value (64 discs, in 1/100 disc).
pub const MAX_VALUE: i16 = 6400;

/// Where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// The strong search of the position at the book's depth.
    Leaf,
    /// An expanded position: the best of its moves, all in the book.
    Expanded,
    /// The exact score (solved or a finished game).
    Exact,
}

impl Kind {
    fn code(self) -> u8 {
        match self {
            Kind::Leaf => 0,
            Kind::Expanded => 1,
            Kind::Exact => 2,
        }
    }

    fn from_code(code: u8) -> Option<Kind> {
        match code {
            0 => Some(Kind::Leaf),
            1 => Some(Kind::Expanded),
            2 => Some(Kind::Exact),
            _ => None,
        }
    }
}

/// One stored position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Discs of the side to move (canonical image).
    pub player: u64,
    /// Discs of the other side (canonical image).
    pub opponent: u64,
    /// Value for the side to move, 1/100 disc.
    pub value: i16,
    /// Search depth of the leaf the value comes from (for an expanded
    /// position: plies to that leaf plus its depth).
    pub depth: u8,
    /// Where the value comes from.
    pub kind: Kind,
}

/// How a book was built (from its header).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BookInfo {
    /// Depth of the leaves' strong search.
    pub depth: u8,
    /// Most plies from the start of a stored position.
    pub plies: u8,
    /// Positions expanded (all their moves valued).
    pub expanded: u32,
}

/// The value of a position or a move from the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookValue {
    /// For the side to move at the position (for a move: the mover),
    /// 1/100 disc.
    pub centi: i32,
    /// Depth of the search behind it.
    pub depth: u8,
    /// Where it comes from.
    pub kind: Kind,
}

impl BookValue {
    /// The value in discs.
    #[must_use]
    pub fn discs(&self) -> f32 {
        self.centi as f32 / 100.0
    }
}

/// A legal move's value from the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move (real square of the position asked about).
    pub square: Square,
    /// Its value for the mover.
    pub value: BookValue,
}

/// Why bytes are not a book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// Too short, or not starting with [`MAGIC`].
    NotABook,
    /// Another format version.
    Version(u32),
    /// The length does not match the entry count.
    Length {
        /// Bytes expected for the count in the header.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// The checksum does not match (a damaged file).
    Checksum,
    /// Entry `index` is malformed (overlapping discs, a key that is not
    /// canonical or out of order, a bad kind or value).
    Entry {
        /// The entry's index.
        index: usize,
        /// What is wrong.
        reason: &'static str,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::NotABook => write!(f, "not an opening book file"),
            BookError::Version(v) => {
                write!(f, "opening book version {v}, this program reads {VERSION}")
            }
            BookError::Length { expected, found } => write!(
                f,
                "opening book of {found} bytes, its header announces {expected}"
            ),
            BookError::Checksum => write!(f, "opening book checksum mismatch (damaged file)"),
            BookError::Entry { index, reason } => {
                write!(f, "opening book entry {index}: {reason}")
            }
        }
    }
}

impl std::error::Error for BookError {}

/// Columns reversed (a ↔ h).
#[must_use]
const fn mirror_columns(b: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let x = ((b >> 1) & K1) | ((b & K1) << 1);
    let x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Rows and columns exchanged (the a1–h8 diagonal fixed).
#[must_use]
const fn transpose(b: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut x = b;
    let t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// A set of squares under symmetry `s` (0..8), the same mapping as
/// [`crate::pattern::symmetric_square`].
#[must_use]
pub const fn symmetric_bits(s: usize, b: u64) -> u64 {
    let mut x = b;
    if s & 4 != 0 {
        x = transpose(x);
    }
    if s & 1 != 0 {
        x = mirror_columns(x);
    }
    if s & 2 != 0 {
        x = x.swap_bytes();
    }
    x
}

/// The canonical image of `(player, opponent)`: the smallest pair over the
/// 8 symmetries.
#[must_use]
pub fn canonical(player: u64, opponent: u64) -> (u64, u64) {
    (0..8)
        .map(|s| (symmetric_bits(s, player), symmetric_bits(s, opponent)))
        .min()
        .unwrap_or((player, opponent))
}

/// How a position is looked up: the canonical key and the sign of the
/// stored value for the side to move at the position (−1 after a forced
/// pass), or the exact score of a finished game (1/100 disc).
pub(crate) enum Lookup {
    Key((u64, u64), i32),
    Over(i32),
}

pub(crate) fn lookup_key(pos: &Position) -> Lookup {
    let (p, o) = (pos.player().0, pos.opponent().0);
    if pos.is_game_over() {
        return Lookup::Over(pos.final_score(pos.side_to_move) * 100);
    }
    if pos.legal_moves().is_empty() {
        return Lookup::Key(canonical(o, p), -1);
    }
    Lookup::Key(canonical(p, o), 1)
}

/// An opening book in memory (entries sorted by key; binary search).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Book {
    info: BookInfo,
    entries: Vec<Entry>,
}

impl Book {
    /// A book of `entries` (any order; they are sorted here, a key seen
    /// twice keeps its last entry). Keys must be canonical.
    #[must_use]
    pub fn new(info: BookInfo, mut entries: Vec<Entry>) -> Book {
        entries.reverse();
        entries.sort_by_key(|e| (e.player, e.opponent));
        entries.dedup_by_key(|e| (e.player, e.opponent));
        Book { info, entries }
    }

    /// How it was built.
    #[must_use]
    pub fn info(&self) -> BookInfo {
        self.info
    }

    /// The entries, sorted by key.
    #[must_use]
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Number of positions stored.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing is stored.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The stored entry of a canonical key.
    #[must_use]
    pub fn entry(&self, key: (u64, u64)) -> Option<&Entry> {
        self.entries
            .binary_search_by_key(&key, |e| (e.player, e.opponent))
            .ok()
            .and_then(|i| self.entries.get(i))
    }

    /// The value of `pos` for its side to move, when stored (a finished
    /// game: its exact score).
    #[must_use]
    pub fn value(&self, pos: &Position) -> Option<BookValue> {
        match lookup_key(pos) {
            Lookup::Over(centi) => Some(BookValue {
                centi,
                depth: 0,
                kind: Kind::Exact,
            }),
            Lookup::Key(key, sign) => self.entry(key).map(|e| BookValue {
                centi: sign * i32::from(e.value),
                depth: e.depth,
                kind: e.kind,
            }),
        }
    }

    /// True when `pos` was expanded: every legal move has a book value, so
    /// the book can play it.
    #[must_use]
    pub fn is_expanded(&self, pos: &Position) -> bool {
        match lookup_key(pos) {
            Lookup::Over(_) => false,
            Lookup::Key(key, _) => self.entry(key).is_some_and(|e| e.kind == Kind::Expanded),
        }
    }

    /// The legal moves of `pos` that lead to a stored position, with their
    /// values for the mover, best first (ties by square). Empty when the
    /// side to move must pass.
    #[must_use]
    pub fn moves(&self, pos: &Position) -> Vec<BookMove> {
        let mut out: Vec<BookMove> = pos
            .legal_moves()
            .iter()
            .filter_map(|square| {
                let after = pos.play(square).ok()?.position;
                let v = self.value(&after)?;
                Some(BookMove {
                    square,
                    value: BookValue {
                        centi: -v.centi,
                        ..v
                    },
                })
            })
            .collect();
        out.sort_by(|a, b| {
            b.value
                .centi
                .cmp(&a.value.centi)
                .then(a.square.cmp(&b.square))
        });
        out
    }

    /// The moves a player from the book may choose at `pos`: those within
    /// `window` (1/100 disc) of the best, best first; empty unless `pos`
    /// was expanded.
    #[must_use]
    pub fn candidates(&self, pos: &Position, window: i32) -> Vec<BookMove> {
        if !self.is_expanded(pos) {
            return Vec::new();
        }
        let moves = self.moves(pos);
        let Some(best) = moves.first().map(|m| m.value.centi) else {
            return Vec::new();
        };
        moves
            .into_iter()
            .filter(|m| m.value.centi >= best - window.max(0))
            .collect()
    }

    /// A move to play from the book: candidate number `pick` modulo their
    /// number (the caller draws `pick` at random), `None` out of book.
    #[must_use]
    pub fn choose(&self, pos: &Position, window: i32, pick: u64) -> Option<BookMove> {
        let c = self.candidates(pos, window);
        if c.is_empty() {
            return None;
        }
        c.get((pick % c.len() as u64) as usize).copied()
    }

    /// The file bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + ENTRY_LEN * self.entries.len() + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        out.push(self.info.depth);
        out.push(self.info.plies);
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(&self.info.expanded.to_le_bytes());
        for e in &self.entries {
            out.extend_from_slice(&e.player.to_le_bytes());
            out.extend_from_slice(&e.opponent.to_le_bytes());
            out.extend_from_slice(&e.value.to_le_bytes());
            out.push(e.depth);
            out.push(e.kind.code());
        }
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a book file; every entry is checked (disjoint discs, canonical
    /// key, strictly increasing, a known kind, a value within ±64 discs).
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < HEADER_LEN + 8 || &bytes[..8] != MAGIC {
            return Err(BookError::NotABook);
        }
        let u32_at = |i: usize| {
            let mut b = [0u8; 4];
            b.copy_from_slice(&bytes[i..i + 4]);
            u32::from_le_bytes(b)
        };
        let u64_at = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[i..i + 8]);
            u64::from_le_bytes(b)
        };
        let version = u32_at(8);
        if version != VERSION {
            return Err(BookError::Version(version));
        }
        let count = u32_at(12) as usize;
        let expected = count
            .checked_mul(ENTRY_LEN)
            .and_then(|n| n.checked_add(HEADER_LEN + 8))
            .unwrap_or(usize::MAX);
        if bytes.len() != expected {
            return Err(BookError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let body = bytes.len() - 8;
        if fnv1a64(&bytes[..body]) != u64_at(body) {
            return Err(BookError::Checksum);
        }
        let info = BookInfo {
            depth: bytes[16],
            plies: bytes[17],
            expanded: u32_at(20),
        };
        let mut entries = Vec::with_capacity(count);
        let mut last: Option<(u64, u64)> = None;
        for index in 0..count {
            let at = HEADER_LEN + index * ENTRY_LEN;
            let (player, opponent) = (u64_at(at), u64_at(at + 8));
            let value = i16::from_le_bytes([bytes[at + 16], bytes[at + 17]]);
            let bad = |reason| Err(BookError::Entry { index, reason });
            let Some(kind) = Kind::from_code(bytes[at + 19]) else {
                return bad("unknown kind");
            };
            if player & opponent != 0 {
                return bad("overlapping discs");
            }
            if value.abs() > MAX_VALUE {
                return bad("value beyond 64 discs");
            }
            if canonical(player, opponent) != (player, opponent) {
                return bad("key not in canonical form");
            }
            if last.is_some_and(|l| l >= (player, opponent)) {
                return bad("keys not in increasing order");
            }
            last = Some((player, opponent));
            entries.push(Entry {
                player,
                opponent,
                value,
                depth: bytes[at + 18],
                kind,
            });
        }
        Ok(Book { info, entries })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::{symmetric_position, symmetric_square};
    use crate::{parse_moves, Bitboard, Color, Game};

    fn after(moves: &str) -> Position {
        *Game::replay(&parse_moves(moves).unwrap())
            .unwrap()
            .position()
    }

    #[test]
    fn fast_symmetries_match_the_square_mapping() {
        for s in 0..8 {
            for sq in 0..64 {
                assert_eq!(
                    symmetric_bits(s, 1 << sq),
                    1 << symmetric_square(s, sq),
                    "s {s} sq {sq}"
                );
            }
        }
        let pos = after("f5d6c3d3c4f4");
        for s in 0..8 {
            let image = symmetric_position(&pos, s);
            assert_eq!(image.black.0, symmetric_bits(s, pos.black.0));
            assert_eq!(image.white.0, symmetric_bits(s, pos.white.0));
        }
    }

    /// A small hand-made book: the start expanded, its four (symmetric)
    /// moves' single position valued, and f5 d6's two replies.
    fn small_book() -> (Book, Position) {
        let start = Position::initial();
        let key = |p: &Position| canonical(p.player().0, p.opponent().0);
        let f5 = after("f5");
        let mut entries = vec![
            Entry {
                player: key(&start).0,
                opponent: key(&start).1,
                value: 0,
                depth: 5,
                kind: Kind::Expanded,
            },
            Entry {
                player: key(&f5).0,
                opponent: key(&f5).1,
                value: 0,
                depth: 4,
                kind: Kind::Expanded,
            },
        ];
        for (moves, value) in [("f5d6", -50), ("f5f6", 120), ("f5f4", -300)] {
            let p = after(moves);
            entries.push(Entry {
                player: key(&p).0,
                opponent: key(&p).1,
                value,
                depth: 4,
                kind: Kind::Leaf,
            });
        }
        (
            Book::new(
                BookInfo {
                    depth: 4,
                    plies: 2,
                    expanded: 2,
                },
                entries,
            ),
            f5,
        )
    }

    #[test]
    fn moves_come_back_on_the_real_squares_under_every_symmetry() {
        let (book, f5) = small_book();
        let moves = book.moves(&f5);
        let names: Vec<String> = moves.iter().map(|m| m.square.to_string()).collect();
        // Values for white (the mover): f5f4 is worth +3 to white, d6 +0.5,
        // f6 −1.2.
        assert_eq!(names, ["f4", "d6", "f6"]);
        assert_eq!(moves[0].value.centi, 300);
        assert_eq!(moves[2].value.centi, -120);
        for s in 0..8 {
            let image = symmetric_position(&f5, s);
            assert_eq!(book.value(&image), book.value(&f5));
            let mapped: Vec<(usize, i32)> = book
                .moves(&image)
                .iter()
                .map(|m| (m.square.index(), m.value.centi))
                .collect();
            let expected: Vec<(usize, i32)> = moves
                .iter()
                .map(|m| (symmetric_square(s, m.square.index()), m.value.centi))
                .collect();
            assert_eq!(mapped, expected, "symmetry {s}");
            // Colours swapped with the side to move: the same entry.
            let swapped = Position {
                black: image.white,
                white: image.black,
                side_to_move: Color::Black,
            };
            assert_eq!(book.value(&swapped), book.value(&f5));
        }
        // All four first moves are the same position.
        let start = Position::initial();
        let first = book.moves(&start);
        assert_eq!(first.len(), 4);
        assert!(first.iter().all(|m| m.value.centi == 0));
        assert!(book.is_expanded(&start) && !book.is_expanded(&after("f5d6")));
    }

    #[test]
    fn candidates_keep_the_moves_near_the_best() {
        let (book, f5) = small_book();
        let c = book.candidates(&f5, 100);
        assert_eq!(c.len(), 1);
        let c = book.candidates(&f5, 250);
        assert_eq!(c.len(), 2);
        let picks: Vec<Square> = (0..4)
            .filter_map(|i| book.choose(&f5, 250, i))
            .map(|m| m.square)
            .collect();
        assert_eq!(picks.len(), 4);
        assert_ne!(picks[0], picks[1]);
        assert!(book.choose(&after("f5d6"), 100, 0).is_none());
    }

    #[test]
    fn the_file_round_trips_and_damage_is_refused() {
        let (book, _) = small_book();
        let bytes = book.to_bytes();
        assert_eq!(bytes.len(), HEADER_LEN + ENTRY_LEN * 5 + 8);
        let back = Book::from_bytes(&bytes).unwrap();
        assert_eq!(back, book);
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(Book::from_bytes(b"nonsense"), Err(BookError::NotABook));
        assert!(matches!(
            Book::from_bytes(&bytes[..bytes.len() - 1]),
            Err(BookError::Length { .. })
        ));
        let mut damaged = bytes.clone();
        damaged[HEADER_LEN + 3] ^= 1;
        assert_eq!(Book::from_bytes(&damaged), Err(BookError::Checksum));
        let mut version = bytes.clone();
        version[8] = 9;
        assert_eq!(Book::from_bytes(&version), Err(BookError::Version(9)));
        // A huge announced count is a length error, not an allocation.
        let mut huge = bytes.clone();
        huge[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            Book::from_bytes(&huge),
            Err(BookError::Length { .. })
        ));
        // A non-canonical key with a good checksum is still refused.
        let f5 = after("f5");
        let (p, o) = (f5.player().0, f5.opponent().0);
        let image = (0..8)
            .map(|s| (symmetric_bits(s, p), symmetric_bits(s, o)))
            .find(|&k| k != canonical(p, o))
            .unwrap();
        let raw = Book {
            info: BookInfo::default(),
            entries: vec![Entry {
                player: image.0,
                opponent: image.1,
                value: 0,
                depth: 1,
                kind: Kind::Leaf,
            }],
        };
        assert!(matches!(
            Book::from_bytes(&raw.to_bytes()),
            Err(BookError::Entry { index: 0, .. })
        ));
    }

    #[test]
    fn passes_and_finished_games() {
        let book = Book::default();
        // A finished game is scored exactly even in an empty book.
        let over = Position {
            black: Bitboard(0xFFFF),
            white: Bitboard(0),
            side_to_move: Color::White,
        };
        let v = book.value(&over).unwrap();
        assert_eq!((v.centi, v.kind), (-6400, Kind::Exact));
        assert!(book.moves(&Position::initial()).is_empty());
    }
}
