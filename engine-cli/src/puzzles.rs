//! `othello puzzles`: a reproducible, resumable puzzle generator, and
//! `othello puzzles-stats`: the distribution of a puzzle file
//! (docs/ENGINE.md, "Puzzles"). (Over 600 lines: the generator's steps,
//! its themes, its own JSON lines and their unit tests are one job.)
//!
//! * **Games.** Game `g` is line `g` of the `--games` file (a move
//!   transcript such as `f5d6c3…`) while there are lines, else self-play
//!   game `g − lines` of the seed: its own generator ([`Rng`], SplitMix64 of
//!   the seed and the game number), 8–20 opening plies picked among the best
//!   four moves of a 2-ply search, then a 2–4-ply search on the trained
//!   weights (depth drawn per colour) with, 15 % of the time, another move
//!   within 5 discs of the best instead.
//! * **Candidates.** Every position of a game whose side to move has at
//!   least 3 legal moves and whose empties lie in the configured ranges.
//!   Prefilter: [`score_all_moves`] at depth 4 (no solver); the best must
//!   lead the second by 3 discs. Then the judgment: exact (all children
//!   solved) up to [`EXACT_LIMIT`] empties, else [`score_all_moves`]
//!   at [`Config::midgame_depth`]. Kept when the best move beats every other
//!   by at least [`MIN_GAP`] discs.
//! * **Lines.** An exact puzzle continues while the opponent's best reply
//!   (ties: lowest square) again leaves the player a unique best move by
//!   [`MIN_GAP`] among at least [`FOLLOW_MIN_MOVES`] moves: up to
//!   [`MAX_PLAYER_MOVES`] player moves.
//! * **Output.** One JSON object per line ([`Puzzle::to_json`]); the sidecar
//!   `<out>.progress` records the next game to process. Games are written
//!   in index order whatever the thread count, so a seed gives the same file.

use engine::{
    parse_moves, score_all_moves, solve_with, Limits, PatternWeights, Position, SolveOptions,
    Square,
};
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// The best move must beat every other move by at least this many discs.
pub const MIN_GAP: i32 = 4;
/// A line holds at most this many moves of the player.
pub const MAX_PLAYER_MOVES: usize = 3;
/// A later player move of a line needs at least this many legal moves (as
/// the first: each player move of a line is a puzzle by the same rules).
pub const FOLLOW_MIN_MOVES: u32 = 3;
/// The recorded best line is at most this many plies long.
pub const PV_PLIES: usize = 10;
/// The cheap prefilter: depth of [`score_all_moves`] and the lead it needs.
pub const PREFILTER_DEPTH: u32 = 4;
/// Lead (discs) of the best move in the prefilter.
pub const PREFILTER_GAP: f32 = 3.0;
/// The largest number of empties judged exactly that the code supports.
pub const EXACT_LIMIT: u32 = 22;

/// `othello puzzles` settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Seed of the self-play games.
    pub seed: u64,
    /// Stop once the output holds this many puzzles.
    pub count: usize,
    /// The JSON Lines output (appended to; `<out>.progress` beside it).
    pub out: PathBuf,
    /// Games to take positions from first (one transcript per line).
    pub games: Option<PathBuf>,
    /// Worker threads (the output does not depend on it).
    pub threads: usize,
    /// Exact puzzles have `exact_min..=`[`EXACT_LIMIT`] empties.
    pub exact_min: u32,
    /// Per mille of the positions with `exact_min..=20` empties tried (by a
    /// hash of the seed, game and ply: spreads the puzzles over more games).
    pub exact_permille: u32,
    /// Per mille of the positions with 21 or 22 empties tried (their proofs
    /// cost seconds).
    pub sparse_permille: u32,
    /// Per mille of the midgame positions tried.
    pub midgame_permille: u32,
    /// Per mille of the exact puzzles (by a hash of the position) whose
    /// line is tried for more player moves (about half of those tried get
    /// one).
    pub multi_permille: u32,
    /// Midgame puzzles have `EXACT_LIMIT + 1..=midgame_max` empties.
    pub midgame_max: u32,
    /// Depth of the midgame judgment ([`score_all_moves`]).
    pub midgame_depth: u32,
    /// Solver node budget for proving one exact candidate (all its
    /// children); a candidate over it is dropped (node counts are
    /// deterministic, so is the drop).
    pub exact_budget: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            seed: 1,
            count: 100,
            out: PathBuf::from("puzzles/puzzles.jsonl"),
            games: None,
            threads: 1,
            exact_min: 8,
            exact_permille: 500,
            sparse_permille: 150,
            midgame_permille: 400,
            multi_permille: 400,
            midgame_max: 44,
            midgame_depth: 8,
            exact_budget: 50_000_000,
        }
    }
}

/// SplitMix64 (its own copy, so that puzzles do not change with the
/// training code's generator).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The generator of stream `stream` of `seed`.
    #[must_use]
    pub fn new(seed: u64, stream: u64) -> Rng {
        let mut r = Rng(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03) ^ 0x5EED_0F9A_2713);
        r.next_u64();
        r
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// FNV-1a 64 of `bytes`.
#[must_use]
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A puzzle's id: the first 12 hex digits of FNV-1a 64 of its OBF.
#[must_use]
pub fn puzzle_id(obf: &str) -> String {
    format!("{:016x}", fnv1a64(obf.as_bytes()))[..12].to_string()
}

/// One puzzle (see [`Puzzle::to_json`] for the file form).
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// [`puzzle_id`] of `obf`.
    pub id: String,
    /// The start position ([`Position::to_obf`]).
    pub obf: String,
    /// Empty squares of the start position.
    pub empties: u32,
    /// The player's moves interleaved with the opponent's replies (odd
    /// length, player moves at even indices).
    pub line: Vec<Square>,
    /// Every legal move of the start position and its value (discs for the
    /// side to move, in tenths), best first, ties by square index.
    pub values: Vec<(Square, i32)>,
    /// Exact values (solved) or a search's (`depth`).
    pub exact: bool,
    /// The search depth of a midgame puzzle.
    pub depth: Option<u32>,
    /// Themes, in the order of [`THEMES`].
    pub themes: Vec<&'static str>,
    /// Initial rating estimate (Glicko-2 scale).
    pub rating: u32,
    /// The best line from the start position as far as known (passes left
    /// out).
    pub pv: Vec<Square>,
    /// Where the position comes from.
    pub source: String,
}

impl Puzzle {
    /// Best value minus the second best, in tenths of a disc.
    #[must_use]
    pub fn gap_tenths(&self) -> i32 {
        match self.values.as_slice() {
            [a, b, ..] => a.1 - b.1,
            _ => 0,
        }
    }

    /// The JSON line (no trailing newline):
    /// `{"id":…,"obf":…,"empties":N,"line":[…],"values":[["c4",12],…],
    /// "exact":true,"depth":null,"gap":6,"themes":[…],"rating":1450,
    /// "pv":[…],"source":…}`. Values and gap are integers when exact, one
    /// decimal otherwise.
    #[must_use]
    pub fn to_json(&self) -> String {
        let num = |t: i32| format_tenths(t, self.exact);
        let squares = |v: &[Square]| {
            let items: Vec<String> = v.iter().map(|s| format!("\"{s}\"")).collect();
            format!("[{}]", items.join(","))
        };
        let values: Vec<String> = self
            .values
            .iter()
            .map(|(s, v)| format!("[\"{s}\",{}]", num(*v)))
            .collect();
        let themes: Vec<String> = self.themes.iter().map(|t| format!("\"{t}\"")).collect();
        format!(
            "{{\"id\":{},\"obf\":{},\"empties\":{},\"line\":{},\"values\":[{}],\"exact\":{},\"depth\":{},\"gap\":{},\"themes\":[{}],\"rating\":{},\"pv\":{},\"source\":{}}}",
            json_string(&self.id),
            json_string(&self.obf),
            self.empties,
            squares(&self.line),
            values.join(","),
            self.exact,
            self.depth.map_or("null".to_string(), |d| d.to_string()),
            num(self.gap_tenths()),
            themes.join(","),
            self.rating,
            squares(&self.pv),
            json_string(&self.source),
        )
    }

    /// Reads a line written by [`Puzzle::to_json`].
    pub fn from_json(text: &str) -> Result<Puzzle, String> {
        let v = Json::parse(text)?;
        let field = |k: &str| v.get(k).ok_or_else(|| format!("missing field '{k}'"));
        let string = |k: &str| -> Result<String, String> {
            field(k)?
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("'{k}' is not a string"))
        };
        let squares = |k: &str| -> Result<Vec<Square>, String> {
            field(k)?
                .as_array()
                .ok_or_else(|| format!("'{k}' is not an array"))?
                .iter()
                .map(|s| {
                    s.as_str()
                        .and_then(|s| s.parse::<Square>().ok())
                        .ok_or_else(|| format!("'{k}' holds a non-square"))
                })
                .collect()
        };
        let exact = field("exact")?.as_bool().ok_or("'exact' is not a bool")?;
        let values = field("values")?
            .as_array()
            .ok_or("'values' is not an array")?
            .iter()
            .map(|pair| match pair.as_array() {
                Some([s, n]) => {
                    let sq = s.as_str().and_then(|s| s.parse::<Square>().ok());
                    let n = n.as_f64();
                    match (sq, n) {
                        (Some(sq), Some(n)) => Ok((sq, (n * 10.0).round() as i32)),
                        _ => Err("bad 'values' entry".to_string()),
                    }
                }
                _ => Err("bad 'values' entry".to_string()),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let depth = match field("depth")? {
            Json::Null => None,
            d => Some(d.as_u64().ok_or("'depth' is not a number")? as u32),
        };
        let themes = field("themes")?
            .as_array()
            .ok_or("'themes' is not an array")?
            .iter()
            .map(|t| {
                t.as_str()
                    .and_then(|t| THEMES.iter().find(|&&k| k == t).copied())
                    .ok_or_else(|| "unknown theme".to_string())
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Puzzle {
            id: string("id")?,
            obf: string("obf")?,
            empties: field("empties")?
                .as_u64()
                .ok_or("'empties' is not a number")? as u32,
            line: squares("line")?,
            values,
            exact,
            depth,
            themes,
            rating: field("rating")?
                .as_u64()
                .ok_or("'rating' is not a number")? as u32,
            pv: squares("pv")?,
            source: string("source")?,
        })
    }
}

/// Tenths of a disc as JSON: an integer when `exact`, else one decimal.
fn format_tenths(t: i32, exact: bool) -> String {
    if exact {
        (t / 10).to_string()
    } else {
        let sign = if t < 0 { "-" } else { "" };
        format!("{sign}{}.{}", t.unsigned_abs() / 10, t.unsigned_abs() % 10)
    }
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A parsed JSON value (just enough for the puzzle and progress files;
/// numbers keep their text so that a `u64` seed reads back exactly).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number, as written.
    Num(String),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Json>),
    /// An object, fields in order.
    Obj(Vec<(String, Json)>),
}

impl Json {
    /// Parses one JSON value (surrounding whitespace allowed).
    pub fn parse(text: &str) -> Result<Json, String> {
        let b = text.as_bytes();
        let mut i = 0;
        let v = Json::value(b, &mut i)?;
        Json::ws(b, &mut i);
        if i != b.len() {
            return Err(format!("trailing text at byte {i}"));
        }
        Ok(v)
    }

    fn ws(b: &[u8], i: &mut usize) {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    }

    fn value(b: &[u8], i: &mut usize) -> Result<Json, String> {
        Json::ws(b, i);
        let err = |i: usize| format!("bad JSON at byte {i}");
        match b.get(*i) {
            Some(b'{') => {
                *i += 1;
                let mut fields = Vec::new();
                Json::ws(b, i);
                if b.get(*i) == Some(&b'}') {
                    *i += 1;
                    return Ok(Json::Obj(fields));
                }
                loop {
                    Json::ws(b, i);
                    let Json::Str(k) = Json::value(b, i)? else {
                        return Err(err(*i));
                    };
                    Json::ws(b, i);
                    if b.get(*i) != Some(&b':') {
                        return Err(err(*i));
                    }
                    *i += 1;
                    fields.push((k, Json::value(b, i)?));
                    Json::ws(b, i);
                    match b.get(*i) {
                        Some(b',') => *i += 1,
                        Some(b'}') => {
                            *i += 1;
                            return Ok(Json::Obj(fields));
                        }
                        _ => return Err(err(*i)),
                    }
                }
            }
            Some(b'[') => {
                *i += 1;
                let mut items = Vec::new();
                Json::ws(b, i);
                if b.get(*i) == Some(&b']') {
                    *i += 1;
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(Json::value(b, i)?);
                    Json::ws(b, i);
                    match b.get(*i) {
                        Some(b',') => *i += 1,
                        Some(b']') => {
                            *i += 1;
                            return Ok(Json::Arr(items));
                        }
                        _ => return Err(err(*i)),
                    }
                }
            }
            Some(b'"') => {
                *i += 1;
                let mut s = String::new();
                loop {
                    match b.get(*i) {
                        None => return Err(err(*i)),
                        Some(b'"') => {
                            *i += 1;
                            return Ok(Json::Str(s));
                        }
                        Some(b'\\') => {
                            let c = match b.get(*i + 1) {
                                Some(b'"') => '"',
                                Some(b'\\') => '\\',
                                Some(b'/') => '/',
                                Some(b'n') => '\n',
                                Some(b'r') => '\r',
                                Some(b't') => '\t',
                                Some(b'b') => '\u{8}',
                                Some(b'f') => '\u{c}',
                                Some(b'u') => {
                                    let hex = b.get(*i + 2..*i + 6).ok_or_else(|| err(*i))?;
                                    let code = std::str::from_utf8(hex)
                                        .ok()
                                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                                        .ok_or_else(|| err(*i))?;
                                    *i += 4;
                                    char::from_u32(code).unwrap_or('\u{fffd}')
                                }
                                _ => return Err(err(*i)),
                            };
                            s.push(c);
                            *i += 2;
                        }
                        Some(_) => {
                            // Copy one UTF-8 character.
                            let start = *i;
                            *i += 1;
                            while *i < b.len() && (b[*i] & 0xC0) == 0x80 {
                                *i += 1;
                            }
                            s.push_str(std::str::from_utf8(&b[start..*i]).map_err(|_| err(start))?);
                        }
                    }
                }
            }
            Some(b't') if b[*i..].starts_with(b"true") => {
                *i += 4;
                Ok(Json::Bool(true))
            }
            Some(b'f') if b[*i..].starts_with(b"false") => {
                *i += 5;
                Ok(Json::Bool(false))
            }
            Some(b'n') if b[*i..].starts_with(b"null") => {
                *i += 4;
                Ok(Json::Null)
            }
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let start = *i;
                while *i < b.len()
                    && matches!(b[*i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    *i += 1;
                }
                let t = std::str::from_utf8(&b[start..*i]).map_err(|_| err(start))?;
                t.parse::<f64>().map_err(|_| err(start))?;
                Ok(Json::Num(t.to_string()))
            }
            _ => Err(err(*i)),
        }
    }

    /// The field `k` of an object.
    #[must_use]
    pub fn get(&self, k: &str) -> Option<&Json> {
        match self {
            Json::Obj(f) => f.iter().find(|(n, _)| n == k).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if one.
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The items, if an array.
    #[must_use]
    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Arr(a) => Some(a),
            _ => None,
        }
    }

    /// The number, if one.
    #[must_use]
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Num(n) => n.parse().ok(),
            _ => None,
        }
    }

    /// The number, if a whole non-negative one.
    #[must_use]
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Num(n) => n.parse().ok(),
            _ => None,
        }
    }

    /// The boolean, if one.
    #[must_use]
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------
// Games

/// A game's positions: `(ply, position)` for each position in which the
/// side to move has a legal move (`ply` = moves played before it, passes
/// not counted).
pub type GamePositions = Vec<(usize, Position)>;

/// Moves of `pos` with the value of a `depth`-ply α–β search on `w` (discs,
/// side to move), best first, ties by square index.
fn shallow_values(pos: &Position, w: &PatternWeights, depth: u32) -> Vec<(Square, f32)> {
    let mut out: Vec<(Square, f32)> = pos
        .legal_moves()
        .iter()
        .filter_map(|sq| {
            let child = pos.play(sq).ok()?.position;
            let (v, _) = engine::fixed_depth_value(&child, w, depth.saturating_sub(1));
            Some((sq, -v))
        })
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

/// The moves of self-play game `game` of `seed` (see the module docs).
#[must_use]
pub fn self_play_moves(seed: u64, game: u64, w: &PatternWeights) -> Vec<Square> {
    let mut rng = Rng::new(seed, game);
    let opening = 8 + rng.below(13) as usize;
    let depths = [2 + rng.below(3) as u32, 2 + rng.below(3) as u32];
    let mut pos = Position::initial();
    let mut moves = Vec::new();
    while !pos.is_game_over() {
        if pos.legal_moves().is_empty() {
            match pos.pass() {
                Ok(p) => pos = p,
                Err(_) => break,
            }
            continue;
        }
        let mv = if moves.len() < opening {
            let values = shallow_values(&pos, w, 2);
            let best = values[0].1;
            let near: Vec<Square> = values
                .iter()
                .take(4)
                .filter(|m| m.1 >= best - 8.0)
                .map(|m| m.0)
                .collect();
            near[rng.below(near.len() as u64) as usize]
        } else {
            let depth = depths[moves.len() % 2];
            let values = shallow_values(&pos, w, depth);
            let best = values[0].1;
            if rng.below(100) < 15 {
                let near: Vec<Square> = values[1..]
                    .iter()
                    .filter(|m| m.1 >= best - 5.0)
                    .map(|m| m.0)
                    .collect();
                if near.is_empty() {
                    values[0].0
                } else {
                    near[rng.below(near.len() as u64) as usize]
                }
            } else {
                values[0].0
            }
        };
        match pos.play(mv) {
            Ok(o) => pos = o.position,
            Err(_) => break,
        }
        moves.push(mv);
    }
    moves
}

/// Replays `moves` from the start (passes inserted): each position where the
/// side to move has a legal move, with its ply. `Err` on an illegal move.
pub fn game_positions(moves: &[Square]) -> Result<GamePositions, String> {
    let mut pos = Position::initial();
    let mut out = Vec::new();
    for (ply, &mv) in moves.iter().enumerate() {
        if pos.legal_moves().is_empty() && !pos.is_game_over() {
            pos = pos.pass().map_err(|e| e.to_string())?;
        }
        out.push((ply, pos));
        pos = pos
            .play(mv)
            .map_err(|e| format!("move {} ({mv}): {e}", ply + 1))?
            .position;
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Judging

/// Exact value of every legal move of `pos` (discs, side to move), best
/// first, ties by square index: each child solved by [`solve_with`] (with
/// the weights' move ordering). `None` when the solves together pass
/// `budget` nodes. Empty when the side to move must pass.
#[must_use]
pub fn exact_values(
    pos: &Position,
    w: &PatternWeights,
    budget: Option<u64>,
) -> Option<Vec<(Square, i32)>> {
    let mut used = 0u64;
    let mut out = Vec::new();
    for sq in pos.legal_moves().iter() {
        let child = pos.play(sq).ok()?.position;
        let mut options = SolveOptions::with_eval(w);
        if let Some(b) = budget {
            options = options.within(b.checked_sub(used)?);
        }
        let r = solve_with(&child, options)?.result;
        used += r.nodes;
        out.push((sq, -r.score));
    }
    out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    Some(out)
}

/// Every legal move's value by [`score_all_moves`] at `depth` without the
/// solver (discs, side to move), best first, ties by square index.
#[must_use]
pub fn search_values(pos: &Position, w: &PatternWeights, depth: u32) -> Vec<(Square, f32)> {
    let limits = Limits {
        depth,
        max_nodes: u64::MAX,
        exact_from_empties: 0,
        time_ms: None,
        threads: 1,
        stop: None,
    };
    score_all_moves(pos, w, limits)
        .into_iter()
        .map(|m| (m.square, m.value))
        .collect()
}

/// Rounds discs to tenths.
fn tenths(v: f32) -> i32 {
    (f64::from(v) * 10.0).round() as i32
}

/// The unique best move of `values` (best first) when it leads the second by
/// at least `gap` (same unit as the values).
fn unique_best<T: Copy + std::ops::Sub<Output = T> + PartialOrd>(
    values: &[(Square, T)],
    gap: T,
) -> Option<Square> {
    match values {
        [a, b, ..] if a.1 - b.1 >= gap => Some(a.0),
        _ => None,
    }
}

/// A judged puzzle before its themes and rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// Start position.
    pub pos: Position,
    /// Values of the start position's moves (tenths), best first.
    pub values: Vec<(Square, i32)>,
    /// Solved or searched.
    pub exact: bool,
    /// Depth of the search when not exact.
    pub depth: Option<u32>,
    /// Player, opponent, player … (odd length).
    pub line: Vec<Square>,
    /// Best line (passes left out).
    pub pv: Vec<Square>,
}

/// What judging spent, for the progress figures.
#[derive(Clone, Copy, Debug, Default)]
pub struct Effort {
    /// Candidates through the prefilter, exact and midgame.
    pub prefiltered: [u64; 2],
    /// Candidates seen (≥ 3 moves, in range).
    pub candidates: u64,
    /// Exact candidates dropped for the budget.
    pub over_budget: u64,
    /// Seconds in exact and midgame judging.
    pub secs: [f64; 2],
}

/// Plays `line` from `pos`; `None` when a move is illegal (a forced pass
/// is played, not written).
fn play_line(pos: &Position, line: &[Square]) -> Option<Position> {
    let mut p = *pos;
    for &mv in line {
        if p.legal_moves().is_empty() && !p.is_game_over() {
            p = p.pass().ok()?;
        }
        p = p.play(mv).ok()?.position;
    }
    Some(p)
}

/// Continues `line` from `pos` with solved best moves up to `PV_PLIES`.
fn exact_pv(pos: &Position, line: &[Square], w: &PatternWeights) -> Vec<Square> {
    let mut pv = line.to_vec();
    let Some(mut p) = play_line(pos, line) else {
        return pv;
    };
    while pv.len() < PV_PLIES && !p.is_game_over() {
        if p.legal_moves().is_empty() {
            match p.pass() {
                Ok(q) => p = q,
                Err(_) => break,
            }
            continue;
        }
        let Some(best) =
            solve_with(&p, SolveOptions::with_eval(w)).and_then(|s| s.result.best_move)
        else {
            break;
        };
        pv.push(best);
        match p.play(best) {
            Ok(o) => p = o.position,
            Err(_) => break,
        }
    }
    pv
}

/// Extends an exact line (one player move, `first`) while the opponent's
/// best reply (ties: lowest square) leaves the player a unique best move by
/// [`MIN_GAP`] among at least [`FOLLOW_MIN_MOVES`] moves, up to
/// [`MAX_PLAYER_MOVES`].
fn extend_line(pos: &Position, first: Square, w: &PatternWeights, budget: u64) -> Vec<Square> {
    let mut line = vec![first];
    let Some(mut p) = play_line(pos, &line) else {
        return line;
    };
    while line.len() < 2 * MAX_PLAYER_MOVES - 1 {
        // The opponent must have a move (no pass inside a line).
        if p.legal_moves().is_empty() {
            break;
        }
        let Some(replies) = exact_values(&p, w, Some(budget)) else {
            break;
        };
        let reply = replies[0].0;
        let Ok(after) = p.play(reply) else { break };
        let q = after.position;
        if q.legal_moves().count() < FOLLOW_MIN_MOVES {
            break;
        }
        let Some(values) = exact_values(&q, w, Some(budget)) else {
            break;
        };
        let Some(next) = unique_best(&values, MIN_GAP) else {
            break;
        };
        line.push(reply);
        line.push(next);
        p = match q.play(next) {
            Ok(o) => o.position,
            Err(_) => break,
        };
    }
    line
}

/// Judges `pos` (see the module docs): `Some` when it makes a puzzle.
#[must_use]
pub fn judge(
    pos: &Position,
    cfg: &Config,
    w: &PatternWeights,
    effort: &mut Effort,
) -> Option<Judged> {
    let moves = pos.legal_moves().count();
    let empties = pos.empty_count();
    if moves < 3 {
        return None;
    }
    let exact = empties <= EXACT_LIMIT;
    effort.candidates += 1;
    let pre = search_values(pos, w, PREFILTER_DEPTH);
    if pre.len() < 2 || pre[0].1 - pre[1].1 < PREFILTER_GAP {
        return None;
    }
    effort.prefiltered[usize::from(!exact)] += 1;
    let t = Instant::now();
    let judged = if exact {
        let values = exact_values(pos, w, Some(cfg.exact_budget));
        if values.is_none() {
            effort.over_budget += 1;
        }
        let values = values?;
        let best = unique_best(&values, MIN_GAP);
        let judged = best.map(|best| {
            let h = fnv1a64(pos.to_obf().as_bytes()) >> 20;
            let line = if h % 1000 < u64::from(cfg.multi_permille) {
                extend_line(pos, best, w, cfg.exact_budget / 4)
            } else {
                vec![best]
            };
            let pv = exact_pv(pos, &line, w);
            Judged {
                pos: *pos,
                values: values.iter().map(|&(s, v)| (s, 10 * v)).collect(),
                exact: true,
                depth: None,
                line,
                pv,
            }
        });
        effort.secs[0] += t.elapsed().as_secs_f64();
        judged
    } else {
        let raw = search_values(pos, w, cfg.midgame_depth);
        let values: Vec<(Square, i32)> = raw.iter().map(|&(s, v)| (s, tenths(v))).collect();
        let ok = unique_best(&raw, MIN_GAP as f32).is_some()
            && unique_best(&values, 10 * MIN_GAP).is_some();
        let judged = ok.then(|| {
            let best = values[0].0;
            let mut pv = vec![best];
            if let Ok(after) = pos.play(best) {
                let limits = Limits {
                    depth: cfg.midgame_depth.saturating_sub(1).max(1),
                    max_nodes: u64::MAX,
                    exact_from_empties: 0,
                    time_ms: None,
                    threads: 1,
                    stop: None,
                };
                let r = engine::evaluate_position(&after.position, w, limits);
                pv.extend(r.pv.iter().take(PV_PLIES - 1));
            }
            Judged {
                pos: *pos,
                values,
                exact: false,
                depth: Some(cfg.midgame_depth),
                line: vec![best],
                pv,
            }
        });
        effort.secs[1] += t.elapsed().as_secs_f64();
        judged
    };
    judged
}

// ---------------------------------------------------------------------------
// Themes and rating

/// Every theme, in the order they are listed in a puzzle.
pub const THEMES: [&str; 11] = [
    "corner",
    "x-square",
    "c-square",
    "trap",
    "parity",
    "wipe-out",
    "tempo",
    "quiet",
    "exact",
    "midgame",
    "multi-move",
];

/// Corners a1, h1, a8, h8.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;
/// X-squares b2, g2, b7, g7.
pub const X_SQUARES: u64 = 0x0042_0000_0000_4200;
/// C-squares a2, b1, g1, h2, a7, b8, g8, h7.
pub const C_SQUARES: u64 = 0x4281_0000_0000_8142;

/// The regions of `empties`: groups of empty squares connected by a king's
/// step (8-connected: sides and diagonals), lowest square first.
#[must_use]
pub fn regions(empties: u64) -> Vec<u64> {
    let mut left = empties;
    let mut out = Vec::new();
    while left != 0 {
        let mut region = left & left.wrapping_neg();
        loop {
            let grown = (king_neighbours(region) | region) & empties;
            if grown == region {
                break;
            }
            region = grown;
        }
        left &= !region;
        out.push(region);
    }
    out
}

/// Squares one king's step from `b`.
fn king_neighbours(b: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let h = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let row = b | h;
    h | (row << 8) | (row >> 8)
}

/// Discs `sq` flips in `pos`.
fn flip_count(pos: &Position, sq: Square) -> u32 {
    pos.flips(sq).count()
}

/// The themes of a judged puzzle (docs/ENGINE.md, "Puzzles"), in the order
/// of [`THEMES`].
#[must_use]
pub fn themes(j: &Judged) -> Vec<&'static str> {
    let mut out = Vec::new();
    let Some(&answer) = j.line.first() else {
        return out;
    };
    let bit = 1u64 << answer.index();
    let pos = &j.pos;
    let best = j.values.first().map_or(0, |v| v.1);
    let value_of = |sq: Square| j.values.iter().find(|v| v.0 == sq).map(|v| v.1);
    let flips: Vec<(Square, u32)> = pos
        .legal_moves()
        .iter()
        .map(|sq| (sq, flip_count(pos, sq)))
        .collect();
    let most = flips.iter().map(|f| f.1).max().unwrap_or(0);
    let fewest = flips.iter().map(|f| f.1).min().unwrap_or(0);
    let answer_flips = flip_count(pos, answer);
    if bit & CORNERS != 0 {
        out.push("corner");
    }
    if bit & X_SQUARES != 0 {
        out.push("x-square");
    }
    if bit & C_SQUARES != 0 {
        out.push("c-square");
    }
    let trap = answer_flips < most
        && flips
            .iter()
            .filter(|f| f.1 == most)
            .all(|f| value_of(f.0).is_some_and(|v| v <= best - 80));
    if trap {
        out.push("trap");
    }
    if j.exact && pos.empty_count() <= 14 {
        let regions = regions(pos.empties().0);
        let odd_answer = regions
            .iter()
            .any(|r| r & bit != 0 && r.count_ones() % 2 == 1);
        let some_even = regions.iter().any(|r| r.count_ones() % 2 == 0);
        if odd_answer && some_even {
            out.push("parity");
        }
    }
    let end = play_line(pos, &j.line);
    let wiped = end.is_some_and(|e| {
        let mover = pos.side_to_move;
        e.count(mover.opponent()) == 0
    });
    if (j.exact && best == 640) || wiped {
        out.push("wipe-out");
    }
    if let Ok(after) = pos.play(answer) {
        let a = after.position;
        if a.legal_moves().is_empty() && !a.is_game_over() {
            out.push("tempo");
        }
    }
    if answer_flips == fewest && answer_flips <= 2 {
        out.push("quiet");
    }
    out.push(if j.exact { "exact" } else { "midgame" });
    if j.line.len() >= 3 {
        out.push("multi-move");
    }
    out
}

/// The initial rating estimate (Glicko-2 scale, clamped to 800..=2600),
/// from 1200:
///
/// * 25 per legal move beyond 3 (at most 250);
/// * 100 when the answer is not a greedy move (one flipping the most discs);
/// * 75 for a trap, 100 for an X-square answer, 75 for a C-square answer,
///   50 for a quiet answer, −150 for a corner answer;
/// * 150 per player move after the first;
/// * 100 for a midgame (judged) puzzle;
/// * 15 per disc the gap falls short of 8 (a narrow margin is harder to
///   see);
/// * −100 with at most 10 empties.
#[must_use]
pub fn rating(j: &Judged, themes: &[&str]) -> u32 {
    let pos = &j.pos;
    let has = |t: &str| themes.contains(&t);
    let mut r: i64 = 1200;
    let moves = i64::from(pos.legal_moves().count());
    r += (25 * (moves - 3)).clamp(0, 250);
    if let Some(&answer) = j.line.first() {
        let most = pos
            .legal_moves()
            .iter()
            .map(|sq| flip_count(pos, sq))
            .max()
            .unwrap_or(0);
        if flip_count(pos, answer) < most {
            r += 100;
        }
    }
    for (theme, points) in [
        ("trap", 75),
        ("x-square", 100),
        ("c-square", 75),
        ("quiet", 50),
        ("corner", -150),
    ] {
        if has(theme) {
            r += points;
        }
    }
    r += 150 * (j.line.len() as i64 / 2);
    if !j.exact {
        r += 100;
    }
    let gap = match j.values.as_slice() {
        [a, b, ..] => i64::from(a.1 - b.1),
        _ => 80,
    };
    // Tenths of a disc: 15 points per disc.
    r += (15 * (80 - gap) / 10).max(0);
    if pos.empty_count() <= 10 {
        r -= 100;
    }
    r.clamp(800, 2600) as u32
}

/// The puzzle of a judged position.
#[must_use]
pub fn make_puzzle(j: &Judged, source: String) -> Puzzle {
    let themes = themes(j);
    let rating = rating(j, &themes);
    let obf = j.pos.to_obf();
    Puzzle {
        id: puzzle_id(&obf),
        obf,
        empties: j.pos.empty_count(),
        line: j.line.clone(),
        values: j.values.clone(),
        exact: j.exact,
        depth: j.depth,
        themes,
        rating,
        pv: j.pv.clone(),
        source,
    }
}

// ---------------------------------------------------------------------------
// The generator

/// Whether the candidate at `ply` of game `game` is tried: empties in
/// `exact_min..=midgame_max`, and then a share of them by the per-mille
/// settings (a hash of the seed, game and ply against the share).
fn wanted(cfg: &Config, game: u64, ply: usize, pos: &Position) -> bool {
    let e = pos.empty_count();
    let permille = if e < cfg.exact_min || e > cfg.midgame_max.max(EXACT_LIMIT) {
        0
    } else if e <= 20 {
        cfg.exact_permille
    } else if e <= EXACT_LIMIT {
        cfg.sparse_permille
    } else {
        cfg.midgame_permille
    };
    let h = fnv1a64(format!("{}:{game}:{ply}", cfg.seed).as_bytes());
    h % 1000 < u64::from(permille)
}

/// The games of the `--games` file: one transcript per line (blank lines
/// and lines starting with `#` give no positions but keep their index).
fn read_games(path: &Path) -> Result<Vec<Option<Vec<Square>>>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(text
        .lines()
        .map(|l| {
            let l = l.trim();
            if l.is_empty() || l.starts_with('#') {
                None
            } else {
                parse_moves(l).ok()
            }
        })
        .collect())
}

/// The puzzles of game `g` (file games first, then self-play), in ply
/// order; `None` when `stop` was raised meanwhile.
fn game_puzzles(
    g: u64,
    cfg: &Config,
    file_games: &[Option<Vec<Square>>],
    w: &PatternWeights,
    stop: &AtomicBool,
    effort: &mut Effort,
) -> Option<Vec<Puzzle>> {
    let (moves, tag) = match file_games.get(g as usize) {
        Some(moves) => {
            let name = cfg
                .games
                .as_deref()
                .and_then(Path::file_name)
                .map_or("games".into(), |n| n.to_string_lossy().into_owned());
            (
                moves.clone().unwrap_or_default(),
                format!("games:{name}:{}", g + 1),
            )
        }
        None => {
            let n = g - file_games.len() as u64;
            (
                self_play_moves(cfg.seed, n, w),
                format!("self-play:{}:{n}", cfg.seed),
            )
        }
    };
    let positions = game_positions(&moves).unwrap_or_default();
    let mut out = Vec::new();
    for (ply, pos) in positions {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if !wanted(cfg, g, ply, &pos) {
            continue;
        }
        if let Some(j) = judge(&pos, cfg, w, effort) {
            out.push(make_puzzle(&j, format!("{tag}:{ply}")));
        }
    }
    Some(out)
}

/// `<out>.progress`.
#[must_use]
pub fn progress_path(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".progress");
    PathBuf::from(s)
}

/// The sidecar's content.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Seed of the run.
    pub seed: u64,
    /// First game not yet (completely) written.
    pub next_game: u64,
    /// Puzzles in the file.
    pub puzzles: usize,
    /// Seconds spent over all runs.
    pub elapsed_s: f64,
}

impl Progress {
    fn to_json(self) -> String {
        format!(
            "{{\"seed\":{},\"next_game\":{},\"puzzles\":{},\"elapsed_s\":{:.1}}}\n",
            self.seed, self.next_game, self.puzzles, self.elapsed_s
        )
    }

    fn read(path: &Path) -> Result<Option<Progress>, String> {
        let Ok(text) = std::fs::read_to_string(path) else {
            return Ok(None);
        };
        let v = Json::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let bad = || format!("{}: not a progress file", path.display());
        Ok(Some(Progress {
            seed: v.get("seed").and_then(Json::as_u64).ok_or_else(bad)?,
            next_game: v.get("next_game").and_then(Json::as_u64).ok_or_else(bad)?,
            puzzles: v.get("puzzles").and_then(Json::as_u64).ok_or_else(bad)? as usize,
            elapsed_s: v.get("elapsed_s").and_then(Json::as_f64).ok_or_else(bad)?,
        }))
    }

    fn write(self, path: &Path) -> Result<(), String> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        std::fs::write(&tmp, self.to_json())
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

/// What a run did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Puzzles in the file at the end.
    pub puzzles: usize,
    /// Of them written by this run.
    pub written: usize,
    /// Games finished by this run.
    pub games: u64,
    /// The next game index.
    pub next_game: u64,
    /// Wall seconds of this run.
    pub secs: f64,
}

/// The ids of the puzzles in `out`; a last line cut short (a killed run) is
/// removed from the file first.
fn existing_ids(out: &Path) -> Result<Vec<String>, String> {
    let Ok(text) = std::fs::read_to_string(out) else {
        return Ok(Vec::new());
    };
    let complete = text.rfind('\n').map_or(0, |i| i + 1);
    if complete < text.len() {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(out)
            .map_err(|e| format!("cannot open {}: {e}", out.display()))?;
        f.set_len(complete as u64)
            .map_err(|e| format!("cannot truncate {}: {e}", out.display()))?;
    }
    text[..complete]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(n, l)| {
            Json::parse(l)
                .ok()
                .and_then(|v| v.get("id").and_then(Json::as_str).map(str::to_string))
                .ok_or_else(|| format!("{} line {}: not a puzzle", out.display(), n + 1))
        })
        .collect()
}

/// Runs the generator (see the module docs): resumes from `<out>.progress`,
/// appends to `out` until it holds `cfg.count` puzzles. `log` gets the
/// progress lines.
pub fn generate(
    cfg: &Config,
    w: &PatternWeights,
    log: &mut dyn FnMut(&str),
) -> Result<Summary, String> {
    let started = Instant::now();
    if let Some(dir) = cfg.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let file_games = match &cfg.games {
        Some(path) => read_games(path)?,
        None => Vec::new(),
    };
    let ids_in_order = existing_ids(&cfg.out)?;
    let mut ids: HashSet<String> = ids_in_order.iter().cloned().collect();
    let progress_file = progress_path(&cfg.out);
    let previous = if ids_in_order.is_empty() && !cfg.out.exists() {
        None
    } else {
        Progress::read(&progress_file)?
    };
    if let Some(p) = previous {
        if p.seed != cfg.seed {
            return Err(format!(
                "{} is for seed {}, not {} (use another --out)",
                progress_file.display(),
                p.seed,
                cfg.seed
            ));
        }
    }
    let start_game = previous.map_or(0, |p| p.next_game);
    let elapsed_before = previous.map_or(0.0, |p| p.elapsed_s);
    let mut total = ids_in_order.len();
    let mut summary = Summary {
        puzzles: total,
        written: 0,
        games: 0,
        next_game: start_game,
        secs: 0.0,
    };
    if total >= cfg.count {
        log(&format!(
            "{} already holds {total} puzzles (asked {}); nothing to do",
            cfg.out.display(),
            cfg.count
        ));
        return Ok(summary);
    }
    log(&format!(
        "puzzles: seed {} into {} from game {start_game} ({total} puzzles there), {} thread(s)",
        cfg.seed,
        cfg.out.display(),
        cfg.threads.max(1)
    ));
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&cfg.out)
        .map_err(|e| format!("cannot open {}: {e}", cfg.out.display()))?;
    let next = AtomicU64::new(start_game);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(u64, Vec<Puzzle>, Effort)>();
    let mut result: Result<(), String> = Ok(());
    let mut effort = Effort::default();
    let mut last_log = Instant::now();
    let mut want = start_game;
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.max(1) {
            let tx = tx.clone();
            let (next, stop, file_games) = (&next, &stop, &file_games);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    let mut e = Effort::default();
                    let Some(puzzles) = game_puzzles(g, cfg, file_games, w, stop, &mut e) else {
                        break;
                    };
                    if tx.send((g, puzzles, e)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<u64, Vec<Puzzle>> = BTreeMap::new();
        'receive: for (g, puzzles, e) in rx.iter() {
            pending.insert(g, puzzles);
            effort.candidates += e.candidates;
            effort.over_budget += e.over_budget;
            for k in 0..2 {
                effort.prefiltered[k] += e.prefiltered[k];
                effort.secs[k] += e.secs[k];
            }
            while let Some(puzzles) = pending.remove(&want) {
                let mut text = String::new();
                let mut complete = true;
                for p in puzzles {
                    if total >= cfg.count {
                        complete = false;
                        break;
                    }
                    if ids.insert(p.id.clone()) {
                        text.push_str(&p.to_json());
                        text.push('\n');
                        total += 1;
                        summary.written += 1;
                    }
                }
                if let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
                    result = Err(format!("cannot write {}: {e}", cfg.out.display()));
                    break 'receive;
                }
                // A game cut short by the count is done again on resume
                // (its written puzzles are then skipped as duplicates).
                if complete {
                    want += 1;
                    summary.games += 1;
                }
                let secs = started.elapsed().as_secs_f64();
                let progress = Progress {
                    seed: cfg.seed,
                    next_game: want,
                    puzzles: total,
                    elapsed_s: elapsed_before + secs,
                };
                if let Err(e) = progress.write(&progress_file) {
                    result = Err(e);
                    break 'receive;
                }
                let done = total >= cfg.count;
                if done || last_log.elapsed().as_secs_f64() >= 10.0 {
                    last_log = Instant::now();
                    let rate = summary.written as f64 / secs.max(1e-9) * 60.0;
                    let eta = (cfg.count - total) as f64 / (rate / 60.0).max(1e-9);
                    log(&format!(
                        "games {} (next {want}), puzzles {total}/{} (+{} this run), {rate:.1}/min, ETA {:.0}s; candidates {} through prefilter exact {} midgame {} (over budget {}), judging {:.0}s exact {:.0}s midgame",
                        summary.games,
                        cfg.count,
                        summary.written,
                        if done { 0.0 } else { eta },
                        effort.candidates,
                        effort.prefiltered[0],
                        effort.prefiltered[1],
                        effort.over_budget,
                        effort.secs[0],
                        effort.secs[1],
                    ));
                }
                if done {
                    break 'receive;
                }
            }
        }
        stop.store(true, Ordering::Relaxed);
        drop(rx);
    });
    result?;
    summary.puzzles = total;
    summary.next_game = want;
    summary.secs = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// `othello puzzles --seed S --count N --out FILE [--games FILE] [--threads T]
/// [--midgame-depth D]`.
pub fn parse_args(args: &[String]) -> Result<Config, String> {
    let mut cfg = Config::default();
    let (mut seed, mut count, mut out) = (false, false, false);
    let mut i = 0;
    while i < args.len() {
        let k = args[i].as_str();
        let v = args
            .get(i + 1)
            .ok_or_else(|| format!("option '{k}' needs a value"))?;
        let num = |lo: u64, hi: u64| -> Result<u64, String> {
            match v.parse::<u64>() {
                Ok(n) if (lo..=hi).contains(&n) => Ok(n),
                _ => Err(format!("{k} must be a number from {lo} to {hi}, got '{v}'")),
            }
        };
        match k {
            "--seed" => {
                cfg.seed = num(0, u64::MAX)?;
                seed = true;
            }
            "--count" => {
                cfg.count = num(1, 10_000_000)? as usize;
                count = true;
            }
            "--out" => {
                cfg.out = PathBuf::from(v);
                out = true;
            }
            "--games" => cfg.games = Some(PathBuf::from(v)),
            "--threads" => cfg.threads = num(1, 64)? as usize,
            "--midgame-depth" => cfg.midgame_depth = num(2, 20)? as u32,
            _ => return Err(format!("puzzles: unknown option '{k}'")),
        }
        i += 2;
    }
    if !(seed && count && out) {
        return Err("puzzles needs --seed S --count N --out FILE".into());
    }
    Ok(cfg)
}

// ---------------------------------------------------------------------------
// Statistics

/// The distribution of a puzzle file as text (`othello puzzles-stats`).
pub fn stats(text: &str) -> Result<String, String> {
    let puzzles: Vec<Puzzle> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(n, l)| Puzzle::from_json(l).map_err(|e| format!("line {}: {e}", n + 1)))
        .collect::<Result<_, _>>()?;
    let n = puzzles.len();
    let pct = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
    let mut out = String::new();
    let exact = puzzles.iter().filter(|p| p.exact).count();
    let multi = puzzles.iter().filter(|p| p.line.len() >= 3).count();
    out.push_str(&format!(
        "puzzles {n}: exact {exact} ({:.1}%), midgame {} ({:.1}%); multi-move {multi} ({:.1}% of all, {:.1}% of exact)\n",
        pct(exact),
        n - exact,
        pct(n - exact),
        pct(multi),
        100.0 * multi as f64 / exact.max(1) as f64
    ));
    let mut lines: BTreeMap<usize, usize> = BTreeMap::new();
    for p in &puzzles {
        *lines.entry(p.line.len().div_ceil(2)).or_default() += 1;
    }
    let l: Vec<String> = lines.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    out.push_str(&format!("player moves per line: {}\n", l.join(", ")));
    out.push_str("themes:\n");
    for t in THEMES {
        let k = puzzles.iter().filter(|p| p.themes.contains(&t)).count();
        out.push_str(&format!("  {t:<10} {k:>6} ({:.1}%)\n", pct(k)));
    }
    out.push_str("rating:\n");
    let mut buckets: BTreeMap<u32, usize> = BTreeMap::new();
    for p in &puzzles {
        *buckets.entry(p.rating / 200 * 200).or_default() += 1;
    }
    for (b, k) in &buckets {
        out.push_str(&format!("  {b}-{} {k:>6} ({:.1}%)\n", b + 199, pct(*k)));
    }
    if n > 0 {
        let mut r: Vec<u32> = puzzles.iter().map(|p| p.rating).collect();
        r.sort_unstable();
        let mean = r.iter().map(|&x| f64::from(x)).sum::<f64>() / n as f64;
        out.push_str(&format!(
            "  min {} median {} mean {mean:.0} max {}\n",
            r[0],
            r[n / 2],
            r[n - 1]
        ));
    }
    out.push_str("empties:\n");
    let ranges: [(u32, u32); 9] = [
        (0, 10),
        (11, 14),
        (15, 18),
        (19, 20),
        (21, 22),
        (23, 28),
        (29, 34),
        (35, 40),
        (41, 60),
    ];
    for (lo, hi) in ranges {
        let k = puzzles
            .iter()
            .filter(|p| (lo..=hi).contains(&p.empties))
            .count();
        if k > 0 {
            out.push_str(&format!("  {lo:>2}-{hi:<2} {k:>6} ({:.1}%)\n", pct(k)));
        }
    }
    let mut depths: BTreeMap<u32, usize> = BTreeMap::new();
    for p in puzzles.iter().filter_map(|p| p.depth) {
        *depths.entry(p).or_default() += 1;
    }
    let d: Vec<String> = depths
        .iter()
        .map(|(k, v)| format!("depth {k}: {v}"))
        .collect();
    out.push_str(&format!(
        "midgame depths: {}\n",
        if d.is_empty() {
            "-".into()
        } else {
            d.join(", ")
        }
    ));
    let mut gaps: BTreeMap<i32, usize> = BTreeMap::new();
    for p in &puzzles {
        let g = p.gap_tenths() / 10;
        *gaps.entry(if g >= 12 { 12 } else { g }).or_default() += 1;
    }
    let g: Vec<String> = gaps
        .iter()
        .map(|(k, v)| {
            if *k >= 12 {
                format!("12+: {v}")
            } else {
                format!("{k}: {v}")
            }
        })
        .collect();
    out.push_str(&format!("gap (discs): {}\n", g.join(", ")));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_are_8_connected() {
        // a1, b2 (diagonal neighbours) and h8 alone.
        let e = 1u64 | (1 << 9) | (1 << 63);
        let r = regions(e);
        assert_eq!(r, vec![1 | (1 << 9), 1 << 63]);
        assert_eq!(regions(0), Vec::<u64>::new());
        // a row wrapping is not a neighbour: h1 and a2.
        let e = (1u64 << 7) | (1 << 8);
        assert_eq!(regions(e).len(), 2);
    }

    #[test]
    fn tenths_print_with_one_decimal() {
        assert_eq!(format_tenths(-5, false), "-0.5");
        assert_eq!(format_tenths(0, false), "0.0");
        assert_eq!(format_tenths(123, false), "12.3");
        assert_eq!(format_tenths(-120, true), "-12");
    }

    /// All black (X, to move) but `white` squares and `empty` ones.
    fn board(empty: &[&str], white: &[&str]) -> Position {
        let mut cells = [1i8; 64];
        for (list, v) in [(empty, 0i8), (white, -1)] {
            for s in list {
                cells[s.parse::<Square>().expect("square").index()] = v;
            }
        }
        Position::from_cells(&cells, engine::Color::Black).expect("position")
    }

    fn sq(s: &str) -> Square {
        s.parse().expect("square")
    }

    fn judged(pos: Position, line: &[&str], values: &[(&str, i32)], exact: bool) -> Judged {
        Judged {
            pos,
            values: values.iter().map(|&(s, v)| (sq(s), 10 * v)).collect(),
            exact,
            depth: (!exact).then_some(8),
            line: line.iter().map(|s| sq(s)).collect(),
            pv: line.iter().map(|s| sq(s)).collect(),
        }
    }

    /// Empties a1 (alone: an odd region) and h7, h8 (an even region); black
    /// takes a1 over b1, h8 over g8 (and f8 with `long`), h7 over g6.
    fn corner_board(long: bool) -> Position {
        let white: &[&str] = if long {
            &["b1", "g8", "f8", "g6"]
        } else {
            &["b1", "g8", "g6"]
        };
        board(&["a1", "h7", "h8"], white)
    }

    #[test]
    fn corner_parity_tempo_quiet() {
        let pos = corner_board(false);
        assert_eq!(pos.legal_moves().count(), 3);
        let j = judged(pos, &["a1"], &[("a1", 10), ("h7", 2), ("h8", 0)], true);
        // After a1 white has no move but black has: tempo. Every move flips
        // one disc: quiet, and no trap.
        assert_eq!(
            themes(&j),
            vec!["corner", "parity", "tempo", "quiet", "exact"]
        );
        // h8 is in the even region: no parity; not exact: no parity either.
        let j = judged(pos, &["h8"], &[("h8", 10), ("h7", 2), ("a1", 0)], true);
        assert!(!themes(&j).contains(&"parity"));
        let j = judged(pos, &["a1"], &[("a1", 10), ("h7", 2), ("h8", 0)], false);
        assert_eq!(themes(&j), vec!["corner", "tempo", "quiet", "midgame"]);
    }

    #[test]
    fn trap_needs_the_greedy_move_8_worse() {
        let pos = corner_board(true);
        assert_eq!(pos.flips(sq("h8")).count(), 2);
        let trap = judged(pos, &["a1"], &[("a1", 10), ("h7", 4), ("h8", 2)], true);
        assert!(themes(&trap).contains(&"trap"));
        let no_trap = judged(pos, &["a1"], &[("a1", 10), ("h8", 3), ("h7", 2)], true);
        assert!(!themes(&no_trap).contains(&"trap"));
        // The greedy move itself as the answer is no trap.
        let greedy = judged(pos, &["h8"], &[("h8", 10), ("h7", 4), ("a1", 2)], true);
        assert!(!themes(&greedy).contains(&"trap"));
        assert!(!themes(&greedy).contains(&"quiet"), "h8 flips the most");
        // Rating: the trap's answer is not greedy, so it rates higher.
        let (t, g) = (themes(&trap), themes(&greedy));
        assert!(rating(&trap, &t) > rating(&greedy, &g));
    }

    #[test]
    fn x_and_c_squares_and_wipe_out() {
        let pos = board(&["b2", "b1", "h8"], &["c3", "c1", "g7"]);
        let x = judged(pos, &["b2"], &[("b2", 64), ("b1", 10), ("h8", 0)], true);
        let t = themes(&x);
        assert!(t.contains(&"x-square") && !t.contains(&"corner") && t.contains(&"wipe-out"));
        let c = judged(pos, &["b1"], &[("b1", 20), ("b2", 10), ("h8", 0)], true);
        let t = themes(&c);
        assert!(t.contains(&"c-square") && !t.contains(&"x-square") && !t.contains(&"wipe-out"));
        // A line that ends with white wiped out (h8 takes the only white
        // disc), whatever the value.
        let lone = board(&["h8", "a1", "a8"], &["g7"]);
        let w = judged(lone, &["h8"], &[("h8", 30), ("a1", 20), ("a8", 10)], false);
        assert!(themes(&w).contains(&"wipe-out"));
        let corner = judged(pos, &["h8"], &[("h8", 20), ("b2", 10), ("b1", 0)], true);
        let ct = themes(&corner);
        let xt = themes(&x);
        assert!(rating(&corner, &ct) < rating(&x, &xt));
    }

    #[test]
    fn multi_move_theme_and_rating() {
        let pos = corner_board(false);
        let one = judged(pos, &["a1"], &[("a1", 10), ("h7", 2), ("h8", 0)], true);
        let mut three = one.clone();
        three.line = vec![sq("a1"), sq("h8"), sq("h7")];
        assert!(themes(&three).contains(&"multi-move"));
        assert!(!themes(&one).contains(&"multi-move"));
        assert_eq!(
            rating(&three, &themes(&three)),
            rating(&one, &themes(&one)) + 150
        );
    }

    #[test]
    fn puzzle_json_round_trip() {
        let pos = corner_board(false);
        let j = judged(pos, &["a1"], &[("a1", 10), ("h7", 2), ("h8", 0)], true);
        let p = make_puzzle(&j, "test:1".into());
        let text = p.to_json();
        assert!(text.starts_with(&format!("{{\"id\":\"{}\",\"obf\":", p.id)));
        assert!(text.contains("\"values\":[[\"a1\",10],[\"h7\",2],[\"h8\",0]],\"exact\":true,\"depth\":null,\"gap\":8,"));
        assert_eq!(Puzzle::from_json(&text).expect("parses"), p);
        let mut m = judged(pos, &["a1"], &[("a1", 1), ("h7", 0), ("h8", 0)], false);
        m.values = vec![(sq("a1"), 15), (sq("h7"), -31), (sq("h8"), -40)];
        let p = make_puzzle(&m, "test:2".into());
        assert!(p.to_json().contains(
            "[[\"a1\",1.5],[\"h7\",-3.1],[\"h8\",-4.0]],\"exact\":false,\"depth\":8,\"gap\":4.6,"
        ));
        assert_eq!(Puzzle::from_json(&p.to_json()).expect("parses"), p);
        assert_eq!(p.id.len(), 12);
    }

    #[test]
    fn json_round_trip() {
        let v = Json::parse(r#"{"a":[1,-2.5,"x\"y"],"b":null,"c":true,"s":18446744073709551615}"#)
            .unwrap();
        assert_eq!(v.get("s").and_then(Json::as_u64), Some(u64::MAX));
        assert_eq!(
            v.get("a").unwrap().as_array().unwrap()[2].as_str(),
            Some("x\"y")
        );
        assert!(Json::parse("{\"a\":1,}").is_err());
    }
}
