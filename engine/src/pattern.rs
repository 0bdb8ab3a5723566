//! Pattern evaluation (Logistello / Edax style): a trained, table-driven
//! estimate of the final disc difference, separate from the play AI's
//! hand-written [`evaluate`](crate::evaluate).
//!
//! (Over 600 lines: the features, their symmetric images, the weights file format and its checks belong together.)
//!
//! * **Features.** Eleven base patterns — the corner 3×3, the corner 2×5,
//!   an edge with its two X-squares, the horizontal/vertical lines 2, 3 and
//!   4, and the diagonals of length 8, 7, 6, 5 and 4 — each placed on the
//!   board in all its distinct images under the 8 board symmetries (46
//!   instances), plus the side to move's mobility, the opponent's mobility
//!   and the parity of the empty squares. Every instance of a base pattern
//!   shares that pattern's table; a pattern that is its own mirror image
//!   (the edge, a line, the 3×3 corner) gives a configuration and its mirror
//!   the same weight (*canonical* indices), so the evaluation is exactly
//!   invariant under the 8 symmetries (tested).
//! * **Index.** Each square of an instance is a ternary digit: 0 empty,
//!   1 the side to move, 2 the opponent; the first square is the most
//!   significant digit.
//! * **Stages.** One weight set per group of [`STAGE_WIDTH`] empties counts
//!   (stage = empties / 4, 16 stages). A stage that was not trained uses the
//!   nearest trained one.
//! * **Units.** Weights are `i16` in 1/[`EVAL_SCALE`] disc; the evaluation
//!   is the sum, in 1/[`EVAL_SCALE`] disc, of the final disc difference
//!   expected for the side to move (standard scoring).
//!
//! The weights come from bytes ([`PatternWeights::from_bytes`]), so native
//! code can `include_bytes!` them and a browser worker can fetch them; the
//! format is described at [`PatternWeights::to_bytes`].

use crate::bitboard::{legal_moves, neighbours};
use crate::position::Position;
use std::fmt;
use std::sync::OnceLock;

/// Evaluation units per disc.
pub const EVAL_SCALE: i32 = 32;
/// Empties counts per stage.
pub const STAGE_WIDTH: u32 = 4;
/// Number of stages (empties 0..=60).
pub const STAGE_COUNT: usize = 16;
/// Feature instances per position: 46 pattern instances, 2 mobility terms,
/// the parity term (the version-1 layout), then each side's potential
/// mobility and the pair of mobilities (version 2).
pub const FEATURE_COUNT: usize = 52;
/// The version-1 features among them (patterns, mobilities, parity).
pub const FEATURE_COUNT_V1: usize = 49;
/// Mobility counts above this share one weight.
const MOBILITY_CAP: u32 = 31;

/// The stage of a position with `empties` empty squares.
#[must_use]
pub const fn stage_of(empties: u32) -> usize {
    let s = (empties / STAGE_WIDTH) as usize;
    if s >= STAGE_COUNT {
        STAGE_COUNT - 1
    } else {
        s
    }
}

/// Base patterns, squares given as (column, row) in the a1 corner.
const BASE_PATTERNS: [(&str, &[(u8, u8)]); 11] = [
    (
        "corner3x3",
        &[
            (0, 0),
            (1, 0),
            (2, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (0, 2),
            (1, 2),
            (2, 2),
        ],
    ),
    (
        "corner2x5",
        &[
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (4, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 1),
            (4, 1),
        ],
    ),
    (
        "edge2x",
        &[
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (4, 0),
            (5, 0),
            (6, 0),
            (7, 0),
            (1, 1),
            (6, 1),
        ],
    ),
    (
        "line2",
        &[
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 1),
            (4, 1),
            (5, 1),
            (6, 1),
            (7, 1),
        ],
    ),
    (
        "line3",
        &[
            (0, 2),
            (1, 2),
            (2, 2),
            (3, 2),
            (4, 2),
            (5, 2),
            (6, 2),
            (7, 2),
        ],
    ),
    (
        "line4",
        &[
            (0, 3),
            (1, 3),
            (2, 3),
            (3, 3),
            (4, 3),
            (5, 3),
            (6, 3),
            (7, 3),
        ],
    ),
    (
        "diag8",
        &[
            (0, 0),
            (1, 1),
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (6, 6),
            (7, 7),
        ],
    ),
    (
        "diag7",
        &[(1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6)],
    ),
    ("diag6", &[(2, 0), (3, 1), (4, 2), (5, 3), (6, 4), (7, 5)]),
    ("diag5", &[(3, 0), (4, 1), (5, 2), (6, 3), (7, 4)]),
    ("diag4", &[(4, 0), (5, 1), (6, 2), (7, 3)]),
];

/// Sizes of the three non-pattern features (mobility of the side to move,
/// mobility of the opponent, parity of the empties).
const EXTRA_SIZES: [usize; 3] = [MOBILITY_CAP as usize + 1, MOBILITY_CAP as usize + 1, 2];

/// Potential mobility (empty squares next to the other side's discs)
/// counts above this share one weight.
const POTENTIAL_CAP: u32 = 31;
/// Mobility counts above this share one cell of the mobility-pair table.
const PAIR_CAP: u32 = 15;
/// Sizes of the version-2 features (each side's potential mobility, the
/// pair of mobilities capped at [`PAIR_CAP`]), after the version-1 tables.
const V2_SIZES: [usize; 3] = [
    POTENTIAL_CAP as usize + 1,
    POTENTIAL_CAP as usize + 1,
    (PAIR_CAP as usize + 1) * (PAIR_CAP as usize + 1),
];

/// The square (index) that symmetry `s` (0..8) maps `sq` to.
#[must_use]
pub const fn symmetric_square(s: usize, sq: usize) -> usize {
    let (c, r) = (sq % 8, sq / 8);
    let (c, r) = if s & 4 != 0 { (r, c) } else { (c, r) };
    let c = if s & 1 != 0 { 7 - c } else { c };
    let r = if s & 2 != 0 { 7 - r } else { r };
    r * 8 + c
}

/// `pos` under symmetry `s` (0..8; 0 is the identity).
#[must_use]
pub fn symmetric_position(pos: &Position, s: usize) -> Position {
    let map = |b: u64| {
        let mut out = 0u64;
        let mut m = b;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            out |= 1 << symmetric_square(s, sq);
        }
        out
    };
    Position {
        black: crate::Bitboard(map(pos.black.0)),
        white: crate::Bitboard(map(pos.white.0)),
        side_to_move: pos.side_to_move,
    }
}

/// The feature layout, built once.
struct Layout {
    /// Per instance: (base pattern, squares in digit order).
    instances: Vec<(usize, Vec<u8>)>,
    /// Start of each table (11 patterns then the 3 extra features) in a
    /// stage's weight vector; the last entry is the total length.
    offsets: Vec<usize>,
    /// For each entry of a stage vector, its canonical entry (the smallest
    /// index among the configuration and its mirror images).
    canon: Vec<u32>,
    /// Hash of the layout (pattern squares, sizes, stages), written in the
    /// weights file so that a file for another layout is refused.
    hash: u64,
    /// Hash of the version-1 layout (without the version-2 tables) and its
    /// length: a version-1 file reads with zero version-2 weights.
    hash_v1: u64,
    len_v1: usize,
}

fn pow3(n: usize) -> usize {
    3usize.pow(n as u32)
}

fn build_layout() -> Layout {
    let mut instances = Vec::new();
    let mut offsets = vec![0usize];
    let mut canon = Vec::new();
    let mut hash = Fnv::new();
    for (b, (name, squares)) in BASE_PATTERNS.iter().enumerate() {
        hash.write(name.as_bytes());
        let base: Vec<usize> = squares
            .iter()
            .map(|&(c, r)| r as usize * 8 + c as usize)
            .collect();
        hash.write(&base.iter().map(|&s| s as u8).collect::<Vec<_>>());
        let n = base.len();
        // Distinct images (as square sets), first ordering kept.
        let mut seen: Vec<u64> = Vec::new();
        // Permutations under which the pattern maps onto itself.
        let mut self_perms: Vec<Vec<usize>> = Vec::new();
        let set_of = |v: &[usize]| v.iter().fold(0u64, |m, &s| m | 1 << s);
        for s in 0..8 {
            let image: Vec<usize> = base.iter().map(|&q| symmetric_square(s, q)).collect();
            let set = set_of(&image);
            if set == set_of(&base) {
                // image[i] = base[perm[i]]
                let perm: Vec<usize> = image
                    .iter()
                    .map(|q| base.iter().position(|b| b == q).unwrap_or(0))
                    .collect();
                self_perms.push(perm);
            }
            if !seen.contains(&set) {
                seen.push(set);
                instances.push((b, image.iter().map(|&q| q as u8).collect()));
            }
        }
        let size = pow3(n);
        let start = canon.len() as u32;
        for idx in 0..size {
            // Digits, most significant first.
            let mut digits = vec![0usize; n];
            let mut x = idx;
            for i in (0..n).rev() {
                digits[i] = x % 3;
                x /= 3;
            }
            let mut best = idx;
            for perm in &self_perms {
                // The board mapped by the symmetry puts digit i on square
                // image[i] = base[perm[i]], i.e. on position perm[i].
                let mut moved = vec![0usize; n];
                for i in 0..n {
                    moved[perm[i]] = digits[i];
                }
                let v = moved.iter().fold(0usize, |a, &d| a * 3 + d);
                best = best.min(v);
            }
            canon.push(start + best as u32);
        }
        offsets.push(canon.len());
    }
    for &size in &EXTRA_SIZES {
        let start = canon.len() as u32;
        canon.extend((0..size as u32).map(|i| start + i));
        offsets.push(canon.len());
    }
    let len_v1 = canon.len();
    let mut hash_v1 = hash;
    hash_v1.write(&(len_v1 as u64).to_le_bytes());
    hash_v1.write(&[STAGE_WIDTH as u8, STAGE_COUNT as u8, EVAL_SCALE as u8]);
    for &size in &V2_SIZES {
        let start = canon.len() as u32;
        canon.extend((0..size as u32).map(|i| start + i));
        offsets.push(canon.len());
    }
    hash.write(b"potential-mobility mobility-pair");
    hash.write(&(canon.len() as u64).to_le_bytes());
    hash.write(&[STAGE_WIDTH as u8, STAGE_COUNT as u8, EVAL_SCALE as u8]);
    Layout {
        instances,
        offsets,
        canon,
        hash: hash.finish(),
        hash_v1: hash_v1.finish(),
        len_v1,
    }
}

fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(build_layout)
}

/// Length of one stage's weight vector (all tables).
#[must_use]
pub fn stage_len() -> usize {
    *layout().offsets.last().unwrap_or(&0)
}

/// The canonical entry of entry `i` of a stage vector (a configuration and
/// its mirror images share one weight; see the module notes).
#[must_use]
pub fn canonical_entry(i: usize) -> usize {
    layout().canon[i] as usize
}

/// Length of the version-1 part of a stage vector (the patterns,
/// mobilities and parity); the version-2 tables follow it.
#[must_use]
pub fn stage_len_v1() -> usize {
    layout().len_v1
}

/// Hash identifying the feature layout (written into weight files).
#[must_use]
pub fn layout_hash() -> u64 {
    layout().hash
}

/// The entries of a stage vector that the position (`p` to move, `o` the
/// opponent) activates: one per feature, [`FEATURE_COUNT`] in all. The
/// evaluation is the sum of the weights at these entries.
pub fn feature_entries(p: u64, o: u64, out: &mut [u32; FEATURE_COUNT]) {
    let (mp, mo) = version_1_entries(p, o, out);
    version_2_entries(p, o, mp, mo, out);
}

/// The first [`FEATURE_COUNT_V1`] entries of [`feature_entries`] (the
/// version-1 features): what an evaluation whose version-2 tables are all
/// zero needs, without computing the rest.
fn version_1_entries(p: u64, o: u64, out: &mut [u32; FEATURE_COUNT]) -> (u32, u32) {
    let l = layout();
    for (k, (b, squares)) in l.instances.iter().enumerate() {
        let mut idx = 0u32;
        for &sq in squares {
            let d = ((p >> sq) & 1) | (((o >> sq) & 1) << 1);
            idx = idx * 3 + d as u32;
        }
        out[k] = l.offsets[*b] as u32 + idx;
    }
    let n = l.instances.len();
    let pat = BASE_PATTERNS.len();
    let mp = legal_moves(p, o).count_ones().min(MOBILITY_CAP);
    let mo = legal_moves(o, p).count_ones().min(MOBILITY_CAP);
    let empties = (!(p | o)).count_ones();
    out[n] = l.offsets[pat] as u32 + mp;
    out[n + 1] = l.offsets[pat + 1] as u32 + mo;
    out[n + 2] = l.offsets[pat + 2] as u32 + (empties & 1);
    (mp, mo)
}

/// The version-2 entries (each side's potential mobility, the mobility
/// pair) after the version-1 ones.
fn version_2_entries(p: u64, o: u64, mp: u32, mo: u32, out: &mut [u32; FEATURE_COUNT]) {
    let l = layout();
    let n = l.instances.len();
    let pat = BASE_PATTERNS.len();
    let empty = !(p | o);
    let pp = (neighbours(o) & empty).count_ones().min(POTENTIAL_CAP);
    let po = (neighbours(p) & empty).count_ones().min(POTENTIAL_CAP);
    out[n + 3] = l.offsets[pat + 3] as u32 + pp;
    out[n + 4] = l.offsets[pat + 4] as u32 + po;
    out[n + 5] = l.offsets[pat + 5] as u32 + mp.min(PAIR_CAP) * (PAIR_CAP + 1) + mo.min(PAIR_CAP);
}

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// Shorter than its header or its declared contents.
    Truncated,
    /// Not a weights file (wrong magic bytes).
    BadMagic,
    /// A format version this code does not read.
    UnsupportedVersion(u32),
    /// Written for another feature layout, scale or stage division.
    LayoutMismatch,
    /// The checksum does not match the contents (damaged file).
    Checksum,
    /// The stage data does not decode to the expected number of weights.
    Corrupt(&'static str),
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Truncated => write!(f, "weights file truncated"),
            WeightsError::BadMagic => write!(f, "not an evaluation weights file"),
            WeightsError::UnsupportedVersion(v) => {
                write!(f, "unsupported weights file version {v}")
            }
            WeightsError::LayoutMismatch => {
                write!(f, "weights file written for another feature layout")
            }
            WeightsError::Checksum => write!(f, "weights file checksum mismatch (damaged)"),
            WeightsError::Corrupt(why) => write!(f, "weights file corrupt: {why}"),
        }
    }
}

impl std::error::Error for WeightsError {}

/// FNV-1a, 64 bits.
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn finish(self) -> u64 {
        self.0
    }
}

/// FNV-1a 64 of `bytes` (the weights file checksum).
#[must_use]
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = Fnv::new();
    h.write(bytes);
    h.finish()
}

const MAGIC: &[u8; 8] = b"O3DEVAL\0";
/// Version 2 added the potential-mobility and mobility-pair tables; a
/// version-1 file still reads (those weights zero).
const VERSION: u32 = 2;

/// Trained weights for every stage.
#[derive(Clone, PartialEq, Eq)]
pub struct PatternWeights {
    /// Per stage, the full table vector (mirror entries expanded), in
    /// 1/[`EVAL_SCALE`] disc.
    stages: Vec<Vec<i16>>,
    /// Bit `s` set when stage `s` was trained (the others copy the nearest
    /// trained stage).
    trained: u64,
    /// Whether any version-2 weight is non-zero: if not (the shipped
    /// weights), the evaluation does not compute those features at all.
    version_2: bool,
}

impl fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "PatternWeights {{ trained stages: {:#x}, {} weights per stage }}",
            self.trained,
            stage_len()
        )
    }
}

fn push_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn read_varint(bytes: &[u8], pos: &mut usize) -> Result<u64, WeightsError> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*pos).ok_or(WeightsError::Corrupt("varint"))?;
        *pos += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err(WeightsError::Corrupt("varint too long"))
}

fn read_u32(bytes: &[u8], at: usize) -> Result<u32, WeightsError> {
    let b = bytes.get(at..at + 4).ok_or(WeightsError::Truncated)?;
    Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn read_u64(bytes: &[u8], at: usize) -> Result<u64, WeightsError> {
    let b = bytes.get(at..at + 8).ok_or(WeightsError::Truncated)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(b);
    Ok(u64::from_le_bytes(a))
}

impl PatternWeights {
    /// Weights from per-stage vectors in discs (length [`stage_len`], or
    /// `None` for an untrained stage); each canonical entry's value is used
    /// for all its mirror entries, rounded to 1/[`EVAL_SCALE`] disc.
    ///
    /// # Panics
    /// When a vector has the wrong length or every stage is `None`.
    #[must_use]
    pub fn from_discs(stages: &[Option<Vec<f32>>]) -> PatternWeights {
        assert_eq!(stages.len(), STAGE_COUNT);
        let l = layout();
        let mut trained = 0u64;
        let mut out: Vec<Option<Vec<i16>>> = Vec::with_capacity(STAGE_COUNT);
        for (s, stage) in stages.iter().enumerate() {
            out.push(stage.as_ref().map(|w| {
                assert_eq!(w.len(), l.canon.len());
                trained |= 1 << s;
                l.canon
                    .iter()
                    .map(|&c| {
                        (w[c as usize] * EVAL_SCALE as f32)
                            .round()
                            .clamp(-32767.0, 32767.0) as i16
                    })
                    .collect()
            }));
        }
        assert!(trained != 0, "no trained stage");
        let stages = fill_untrained(out);
        PatternWeights {
            version_2: uses_version_2(&stages),
            stages,
            trained,
        }
    }

    /// Bit `s` set when stage `s` holds trained weights.
    #[must_use]
    pub fn trained_stages(&self) -> u64 {
        self.trained
    }

    /// The weight (1/[`EVAL_SCALE`] disc) of entry `i` of stage `stage`.
    #[must_use]
    pub fn weight(&self, stage: usize, i: usize) -> i16 {
        self.stages[stage][i]
    }

    /// Evaluation of `p` to move against `o`, in 1/[`EVAL_SCALE`] disc
    /// (positive: good for `p`).
    #[must_use]
    pub fn eval_raw(&self, p: u64, o: u64) -> i32 {
        let mut f = [0u32; FEATURE_COUNT];
        let (mp, mo) = version_1_entries(p, o, &mut f);
        let count = if self.version_2 {
            version_2_entries(p, o, mp, mo, &mut f);
            FEATURE_COUNT
        } else {
            FEATURE_COUNT_V1
        };
        let w = &self.stages[stage_of((!(p | o)).count_ones())];
        f[..count].iter().map(|&i| i32::from(w[i as usize])).sum()
    }

    /// Evaluation of `pos` for the side to move, in discs.
    #[must_use]
    pub fn evaluate(&self, pos: &Position) -> f32 {
        self.eval_raw(pos.player().0, pos.opponent().0) as f32 / EVAL_SCALE as f32
    }

    /// The file form:
    ///
    /// | bytes | contents |
    /// |---|---|
    /// | 8 | magic `O3DEVAL\0` |
    /// | 4 | version: 2, or 1 (the layout before the potential-mobility and mobility-pair tables, whose weights are then all zero and not written; still read), little-endian like every number here |
    /// | 8 | layout hash ([`layout_hash`]: pattern squares, table sizes, stage division, scale) |
    /// | 4 | scale ([`EVAL_SCALE`]) |
    /// | 4 | stage width, 4 stage count |
    /// | 8 | trained-stage mask |
    /// | per trained stage | 4 bytes length, then the canonical weights in entry order: a nonzero weight `w` as the varint of zigzag(`w`) + 1, a run of `n` zeros as a 0 byte and the varint of `n` |
    /// | 8 | FNV-1a 64 of everything before |
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let l = layout();
        // Weights that leave every version-2 table at zero are written in
        // the version-1 form (byte for byte what the older code wrote).
        let v1 = self
            .stages
            .iter()
            .all(|w| w[l.len_v1..].iter().all(|&x| x == 0));
        let (version, hash, count) = if v1 {
            (1u32, l.hash_v1, l.len_v1)
        } else {
            (VERSION, l.hash, l.canon.len())
        };
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&hash.to_le_bytes());
        out.extend_from_slice(&(EVAL_SCALE as u32).to_le_bytes());
        out.extend_from_slice(&STAGE_WIDTH.to_le_bytes());
        out.extend_from_slice(&(STAGE_COUNT as u32).to_le_bytes());
        out.extend_from_slice(&self.trained.to_le_bytes());
        for s in 0..STAGE_COUNT {
            if self.trained & (1 << s) == 0 {
                continue;
            }
            let mut data = Vec::new();
            let mut zeros = 0u64;
            for (i, &w) in self.stages[s][..count].iter().enumerate() {
                if l.canon[i] as usize != i {
                    continue;
                }
                if w == 0 {
                    zeros += 1;
                    continue;
                }
                if zeros > 0 {
                    data.push(0);
                    push_varint(&mut data, zeros);
                    zeros = 0;
                }
                let z = ((i32::from(w) << 1) ^ (i32::from(w) >> 31)) as u32;
                push_varint(&mut data, u64::from(z) + 1);
            }
            if zeros > 0 {
                data.push(0);
                push_varint(&mut data, zeros);
            }
            out.extend_from_slice(&(data.len() as u32).to_le_bytes());
            out.extend_from_slice(&data);
        }
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads the file form written by [`to_bytes`](Self::to_bytes),
    /// checking the magic, version, layout hash and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternWeights, WeightsError> {
        const HEADER: usize = 8 + 4 + 8 + 4 + 4 + 4 + 8;
        if bytes.len() < 8 {
            return Err(WeightsError::Truncated);
        }
        if &bytes[..8] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        if bytes.len() < HEADER + 8 {
            return Err(WeightsError::Truncated);
        }
        let version = read_u32(bytes, 8)?;
        if version != VERSION && version != 1 {
            return Err(WeightsError::UnsupportedVersion(version));
        }
        let body = &bytes[..bytes.len() - 8];
        if fnv1a64(body) != read_u64(bytes, bytes.len() - 8)? {
            return Err(WeightsError::Checksum);
        }
        let l = layout();
        let (hash, count) = if version == 1 {
            (l.hash_v1, l.len_v1)
        } else {
            (l.hash, l.canon.len())
        };
        if read_u64(bytes, 12)? != hash
            || read_u32(bytes, 20)? != EVAL_SCALE as u32
            || read_u32(bytes, 24)? != STAGE_WIDTH
            || read_u32(bytes, 28)? != STAGE_COUNT as u32
        {
            return Err(WeightsError::LayoutMismatch);
        }
        let trained = read_u64(bytes, 32)?;
        if trained == 0 || trained >> STAGE_COUNT != 0 {
            return Err(WeightsError::Corrupt("trained-stage mask"));
        }
        let mut at = HEADER;
        let mut stages: Vec<Option<Vec<i16>>> = Vec::with_capacity(STAGE_COUNT);
        for s in 0..STAGE_COUNT {
            if trained & (1 << s) == 0 {
                stages.push(None);
                continue;
            }
            let len = read_u32(body, at)? as usize;
            at += 4;
            let data = body.get(at..at + len).ok_or(WeightsError::Truncated)?;
            at += len;
            let mut canonical = Vec::new();
            let mut p = 0;
            while p < data.len() {
                let v = read_varint(data, &mut p)?;
                if v == 0 {
                    let n = read_varint(data, &mut p)? as usize;
                    if n > count {
                        return Err(WeightsError::Corrupt("zero run"));
                    }
                    canonical.extend(std::iter::repeat_n(0i16, n));
                } else {
                    let z = (v - 1) as u32;
                    let w = ((z >> 1) as i32) ^ -((z & 1) as i32);
                    let w = i16::try_from(w).map_err(|_| WeightsError::Corrupt("weight"))?;
                    canonical.push(w);
                }
                if canonical.len() > count {
                    return Err(WeightsError::Corrupt("too many weights"));
                }
            }
            // Expand: canonical entries in order, then mirrors copy them.
            // (A version-1 file has none of the later tables: zeros.)
            let mut full = vec![0i16; l.canon.len()];
            let mut next = canonical.iter();
            for i in 0..count {
                let c = l.canon[i] as usize;
                full[i] = if c == i {
                    *next
                        .next()
                        .ok_or(WeightsError::Corrupt("too few weights"))?
                } else {
                    full[c]
                };
            }
            if next.next().is_some() {
                return Err(WeightsError::Corrupt("too many weights"));
            }
            stages.push(Some(full));
        }
        if at != body.len() {
            return Err(WeightsError::Corrupt("trailing bytes"));
        }
        let stages = fill_untrained(stages);
        Ok(PatternWeights {
            version_2: uses_version_2(&stages),
            stages,
            trained,
        })
    }
}

/// Whether any stage has a non-zero weight in the version-2 tables.
fn uses_version_2(stages: &[Vec<i16>]) -> bool {
    let v1 = layout().len_v1;
    stages.iter().any(|w| w[v1..].iter().any(|&x| x != 0))
}

/// Untrained stages copy the nearest trained one (the lower on a tie).
fn fill_untrained(stages: Vec<Option<Vec<i16>>>) -> Vec<Vec<i16>> {
    let trained: Vec<usize> = (0..stages.len()).filter(|&s| stages[s].is_some()).collect();
    (0..stages.len())
        .map(|s| {
            let near = trained
                .iter()
                .copied()
                .min_by_key(|&t| (t.abs_diff(s), t))
                .unwrap_or(0);
            stages[near].clone().unwrap_or_default()
        })
        .collect()
}

/// The trained weights shipped with the engine (`engine/weights/eval.bin`).
pub const DEFAULT_WEIGHTS_BYTES: &[u8] = include_bytes!("../weights/eval.bin");

/// The shipped weights, decoded once.
///
/// # Panics
/// Never in a correct build: the shipped file is checked by the tests.
#[must_use]
pub fn default_weights() -> &'static PatternWeights {
    static W: OnceLock<PatternWeights> = OnceLock::new();
    W.get_or_init(|| {
        PatternWeights::from_bytes(DEFAULT_WEIGHTS_BYTES).expect("shipped weights are valid")
    })
}
