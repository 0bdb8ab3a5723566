//! `othello book build | show | stats`: the opening book's command line
//! (the book itself and its build are in `engine::book` and
//! `engine::book_build`).
//!
//! `build` is resumable: its whole state goes to `FILE.progress` every
//! `--save-every` expansions and at the end (written to a temporary file,
//! then renamed), with the book itself to `FILE`; a rerun continues from
//! the progress file, so a budget of `--positions N` (expanded positions
//! in all, not per run) gives the same bytes in one run or in several, and
//! a larger N grows the book.

use crate::strong_cli::{flags, number};
use engine::book::{Book, Kind};
use engine::book_build::{BuildParams, Builder};
use engine::{default_weights, parse_moves, Game, Position};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where the book lives by default (the server embeds this file).
pub const DEFAULT_BOOK: &str = "book/book.bin";

/// A parsed `othello book …` command.
#[derive(Clone, Debug, PartialEq)]
pub enum BookCommand {
    /// Build or grow the book.
    Build(BuildConfig),
    /// The book moves of a position (OBF or moves from the start).
    Show(PathBuf, String),
    /// Figures of a book file.
    Stats(PathBuf),
}

/// `othello book build`'s options.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildConfig {
    /// The book file; the progress goes to `out` + `.progress`.
    pub out: PathBuf,
    /// Parameters given on the command line (`None`: the default, or the
    /// progress file's when resuming).
    pub depth: Option<u32>,
    pub plies: Option<u32>,
    pub window: Option<(i32, i32)>,
    pub ply_cost: Option<i32>,
    /// Stop once this many positions are expanded in all.
    pub positions: Option<u64>,
    /// Stop after this many minutes of this run.
    pub minutes: Option<f64>,
    /// Save every this many expansions.
    pub save_every: u64,
    /// Lines to hold whatever their values (`moves | name` lines, `#`
    /// comments: the named openings' file), queued first in a fresh build.
    pub lines: Option<PathBuf>,
}

/// Parses the words after `othello book`.
pub fn parse(args: &[String]) -> Result<BookCommand, String> {
    let Some((sub, rest)) = args.split_first() else {
        return Err("book needs build, show or stats".into());
    };
    match sub.as_str() {
        "build" => parse_build(rest).map(BookCommand::Build),
        "show" => {
            let (pairs, rest) = flags(rest, &["--book"])?;
            let [what] = rest.as_slice() else {
                return Err("book show needs one position: OBF (quoted) or moves like f5d6".into());
            };
            Ok(BookCommand::Show(book_path(&pairs), (*what).to_string()))
        }
        "stats" => {
            let (pairs, rest) = flags(rest, &["--book"])?;
            if !rest.is_empty() {
                return Err(format!("book stats: unexpected '{}'", rest.join(" ")));
            }
            Ok(BookCommand::Stats(book_path(&pairs)))
        }
        other => Err(format!("book needs build, show or stats, got '{other}'")),
    }
}

fn book_path(pairs: &[(&str, &str)]) -> PathBuf {
    pairs
        .iter()
        .find(|(k, _)| *k == "--book")
        .map_or_else(|| PathBuf::from(DEFAULT_BOOK), |(_, v)| PathBuf::from(v))
}

fn parse_build(args: &[String]) -> Result<BuildConfig, String> {
    let (pairs, rest) = flags(
        args,
        &[
            "--out",
            "--depth",
            "--plies",
            "--window",
            "--ply-cost",
            "--positions",
            "--minutes",
            "--save-every",
            "--lines",
        ],
    )?;
    if !rest.is_empty() {
        return Err(format!("book build: unexpected '{}'", rest.join(" ")));
    }
    let mut c = BuildConfig {
        out: PathBuf::from(DEFAULT_BOOK),
        depth: None,
        plies: None,
        window: None,
        ply_cost: None,
        positions: None,
        minutes: None,
        save_every: 50,
        lines: None,
    };
    for (k, v) in pairs {
        match k {
            "--out" => c.out = PathBuf::from(v),
            "--depth" => c.depth = Some(number("book depth", v, 1u32, 30)?),
            "--plies" => c.plies = Some(number("book plies", v, 1u32, 40)?),
            "--window" => {
                let (a, b) = v.split_once('-').unwrap_or((v, v));
                let a: f64 = number("book window", a, 0.0, 64.0)?;
                let b: f64 = number("book window", b, 0.0, 64.0)?;
                c.window = Some(((a * 100.0).round() as i32, (b * 100.0).round() as i32));
            }
            "--ply-cost" => {
                let d: f64 = number("book ply cost", v, 0.0, 64.0)?;
                c.ply_cost = Some((d * 100.0).round() as i32);
            }
            "--positions" => c.positions = Some(number("book positions", v, 1u64, 100_000_000)?),
            "--minutes" => c.minutes = Some(number("book minutes", v, 0.0, 100_000.0)?),
            "--save-every" => c.save_every = number("book save-every", v, 1u64, 1_000_000)?,
            "--lines" => c.lines = Some(PathBuf::from(v)),
            _ => {}
        }
    }
    Ok(c)
}

fn progress_path(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".progress");
    PathBuf::from(s)
}

/// Writes `bytes` to `path` through a temporary file and a rename.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Runs a book command; lines of output go to `say`.
pub fn run(command: &BookCommand, say: &mut dyn FnMut(&str)) -> Result<(), String> {
    match command {
        BookCommand::Build(c) => build(c, say),
        BookCommand::Show(path, what) => show(&load(path)?, what, say),
        BookCommand::Stats(path) => {
            let book = load(path)?;
            let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            stats(&book, size, say);
            Ok(())
        }
    }
}

/// Reads a book file.
pub fn load(path: &Path) -> Result<Book, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Book::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

fn build(c: &BuildConfig, say: &mut dyn FnMut(&str)) -> Result<(), String> {
    let weights = default_weights();
    let progress = progress_path(&c.out);
    let mut builder = if progress.exists() {
        let bytes = std::fs::read(&progress)
            .map_err(|e| format!("cannot read {}: {e}", progress.display()))?;
        let b = Builder::from_progress_bytes(&bytes)
            .map_err(|e| format!("{}: {e}", progress.display()))?;
        let p = b.params();
        let clash = c.depth.is_some_and(|d| d != p.depth)
            || c.plies.is_some_and(|d| d != p.plies)
            || c.window
                .is_some_and(|w| w != (p.window_first, p.window_last))
            || c.ply_cost.is_some_and(|x| x != p.ply_cost);
        if clash {
            return Err(format!(
                "{} was built with other parameters ({}); remove it to start afresh",
                progress.display(),
                describe(&p)
            ));
        }
        if c.lines.is_some() {
            say("book: --lines only counts in a fresh build; ignored when resuming");
        }
        say(&format!(
            "book: resuming {} at {} expanded, {} positions, {} queued",
            progress.display(),
            b.expanded(),
            b.positions(),
            b.queued()
        ));
        b
    } else {
        let d = BuildParams::default();
        let p = BuildParams {
            depth: c.depth.unwrap_or(d.depth),
            plies: c.plies.unwrap_or(d.plies),
            window_first: c.window.map_or(d.window_first, |w| w.0),
            window_last: c.window.map_or(d.window_last, |w| w.1),
            ply_cost: c.ply_cost.unwrap_or(d.ply_cost),
        };
        say(&format!("book: new build, {}", describe(&p)));
        let mut b = Builder::new(p, weights);
        if let Some(path) = &c.lines {
            let lines = read_lines(path)?;
            for (n, line) in lines.iter().enumerate() {
                b.add_line(line, weights)
                    .map_err(|e| format!("{} line {}: {e}", path.display(), n + 1))?;
            }
            say(&format!(
                "book: {} lines from {} queued first ({} positions)",
                lines.len(),
                path.display(),
                b.queued()
            ));
        }
        b
    };
    if let Some(dir) = c.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let started = Instant::now();
    let at_start = builder.expanded();
    let target = c.positions.unwrap_or(u64::MAX);
    let deadline = c.minutes.map(|m| m * 60.0);
    let mut max_ply = 0;
    let save = |b: &Builder, say: &mut dyn FnMut(&str), max_ply: u32| -> Result<(), String> {
        write_atomic(&progress, &b.to_progress_bytes())?;
        let book = b.book();
        let bytes = book.to_bytes();
        write_atomic(&c.out, &bytes)?;
        let secs = started.elapsed().as_secs_f64();
        let (searches, nodes) = b.searches();
        say(&format!(
            "book: {} expanded ({} this run, deepest ply {max_ply}), {} positions, {} queued, {searches} searches ({nodes} nodes), {} bytes, {secs:.0}s this run ({:.1} expansions/min)",
            b.expanded(),
            b.expanded() - at_start,
            book.len(),
            b.queued(),
            bytes.len(),
            (b.expanded() - at_start) as f64 * 60.0 / secs.max(1e-9)
        ));
        Ok(())
    };
    while builder.expanded() < target {
        if deadline.is_some_and(|d| started.elapsed().as_secs_f64() >= d) {
            say("book: time is up");
            break;
        }
        let Some(step) = builder.step(weights) else {
            say("book: nothing left to expand within the plies and windows");
            break;
        };
        max_ply = max_ply.max(step.ply);
        if builder.expanded() % c.save_every == 0 {
            save(&builder, say, max_ply)?;
        }
    }
    save(&builder, say, max_ply)?;
    say(&format!(
        "book: wrote {} and {}",
        c.out.display(),
        progress.display()
    ));
    Ok(())
}

/// The move lists of a `moves | name` file (`#` comments, blank lines
/// skipped; the name is optional).
fn read_lines(path: &Path) -> Result<Vec<Vec<engine::Square>>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .map(|(n, l)| (n, l.split('|').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(n, l)| parse_moves(l).map_err(|e| format!("{} line {}: {e}", path.display(), n + 1)))
        .collect()
}

fn describe(p: &BuildParams) -> String {
    format!(
        "depth {}, plies {}, window {:.2}-{:.2} discs, ply cost {:.2}",
        p.depth,
        p.plies,
        f64::from(p.window_first) / 100.0,
        f64::from(p.window_last) / 100.0,
        f64::from(p.ply_cost) / 100.0
    )
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Leaf => "leaf",
        Kind::Expanded => "book",
        Kind::Exact => "exact",
    }
}

/// A position from OBF or from moves played from the start.
pub fn position_of(text: &str) -> Result<Position, String> {
    if let Ok(pos) = Position::from_obf(text) {
        return Ok(pos);
    }
    let moves = parse_moves(text).map_err(|e| format!("'{text}' is neither OBF nor moves: {e}"))?;
    Game::replay(&moves)
        .map(|g| *g.position())
        .map_err(|e| format!("moves '{text}': {e}"))
}

fn show(book: &Book, what: &str, say: &mut dyn FnMut(&str)) -> Result<(), String> {
    let pos = position_of(what)?;
    say(&pos.to_obf());
    match book.value(&pos) {
        Some(v) => say(&format!(
            "value {:+.2} ({}, depth {}){}",
            v.discs(),
            kind_name(v.kind),
            v.depth,
            if book.is_expanded(&pos) {
                ", every move in the book"
            } else {
                ""
            }
        )),
        None => say("not in the book"),
    }
    for m in book.moves(&pos) {
        say(&format!(
            "{} {:+.2} ({}, depth {})",
            m.square,
            m.value.discs(),
            kind_name(m.value.kind),
            m.value.depth
        ));
    }
    Ok(())
}

/// The figures of a book: how it was built, entries by kind and by ply.
pub fn stats(book: &Book, size: u64, say: &mut dyn FnMut(&str)) {
    let info = book.info();
    say(&format!(
        "book: {} positions, {} expanded, {size} bytes; leaves searched at depth {}, up to {} plies",
        book.len(),
        info.expanded,
        info.depth,
        info.plies
    ));
    let mut by_ply = std::collections::BTreeMap::<u32, (usize, usize)>::new();
    for e in book.entries() {
        let ply = (e.player | e.opponent).count_ones().saturating_sub(4);
        let slot = by_ply.entry(ply).or_default();
        slot.0 += 1;
        slot.1 += usize::from(e.kind == Kind::Expanded);
    }
    for (ply, (n, expanded)) in by_ply {
        say(&format!("ply {ply}: {n} positions, {expanded} expanded"));
    }
    if let Some(v) = book.value(&Position::initial()) {
        say(&format!(
            "start: {:+.2} ({}, depth {})",
            v.discs(),
            kind_name(v.kind),
            v.depth
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn parses_the_subcommands() {
        let BookCommand::Build(c) = parse(&args(
            "build --out x.bin --depth 8 --window 3-1 --positions 10",
        ))
        .unwrap() else {
            panic!("build");
        };
        assert_eq!(c.out, PathBuf::from("x.bin"));
        assert_eq!(c.depth, Some(8));
        assert_eq!(c.window, Some((300, 100)));
        assert_eq!(c.positions, Some(10));
        assert_eq!(
            parse(&args("show f5d6")).unwrap(),
            BookCommand::Show(PathBuf::from(DEFAULT_BOOK), "f5d6".into())
        );
        assert_eq!(
            parse(&args("stats --book b.bin")).unwrap(),
            BookCommand::Stats(PathBuf::from("b.bin"))
        );
        assert!(parse(&args("build --depth 0")).is_err());
        assert!(parse(&args("frob")).is_err());
        assert!(parse(&[]).is_err());
    }
}
