//! The command line of the strong evaluation: `othello evaluate`, `match`,
//! `train` and `accuracy` (argument parsing, the match runner, the accuracy
//! benchmark). Parsing returns `Err(message)`; `main` prints it with the
//! usage and exits with code 2. (Over 600 lines: four commands share their
//! engine specs, position sampling and argument parsing.)

use crate::train::{self_play_game, Rng, TrainConfig};
use engine::{
    evaluate_position, search, solve_with, Limits, PatternWeights, Position, Report, SolveOptions,
    Square,
};
use std::path::PathBuf;

/// An engine in `othello match`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The play AI (`engine::search`) at this depth.
    Spec(u32),
    /// The strong search with this many milliseconds per move.
    Strongest(u64),
    /// The strong search at this fixed depth, exact from
    /// [`STRONG_DEPTH_EXACT`] empties (independent of the machine's load).
    StrongDepth(u32),
    /// A strong engine on weights read from a file (named for display);
    /// loaded once and kept for the life of the process.
    Weighted(&'static Engine, &'static PatternWeights, &'static str),
}

/// `strongest:dD` solves exactly from this many empties.
pub const STRONG_DEPTH_EXACT: u32 = 14;

impl Engine {
    /// Parses `spec:D` (D = 1..12), `strongest[:MS]` (MS ≥ 1, default 100)
    /// or `strongest:dD` (D = 1..30), the strong ones optionally followed by
    /// `@FILE` (weights from FILE instead of the shipped ones).
    pub fn parse(text: &str) -> Result<Engine, String> {
        if let Some((inner, file)) = text.split_once('@') {
            let engine = Engine::parse(inner)?;
            if matches!(engine, Engine::Spec(_) | Engine::Weighted(..)) {
                return Err(format!("only a strongest engine takes @FILE, got '{text}'"));
            }
            let bytes = std::fs::read(file).map_err(|e| format!("cannot read {file}: {e}"))?;
            let weights = PatternWeights::from_bytes(&bytes)
                .map_err(|e| format!("{file}: not a weights file: {e}"))?;
            return Ok(Engine::Weighted(
                Box::leak(Box::new(engine)),
                Box::leak(Box::new(weights)),
                Box::leak(file.to_string().into_boxed_str()),
            ));
        }
        if let Some(d) = text.strip_prefix("spec:") {
            return match d.parse::<u32>() {
                Ok(d) if (1..=12).contains(&d) => Ok(Engine::Spec(d)),
                _ => Err(format!(
                    "spec depth must be a number from 1 to 12, got '{d}'"
                )),
            };
        }
        if text == "strongest" {
            return Ok(Engine::Strongest(100));
        }
        if let Some(d) = text.strip_prefix("strongest:d") {
            return match d.parse::<u32>() {
                Ok(d) if (1..=30).contains(&d) => Ok(Engine::StrongDepth(d)),
                _ => Err(format!(
                    "strongest:dD needs a depth from 1 to 30, got '{d}'"
                )),
            };
        }
        if let Some(ms) = text.strip_prefix("strongest:") {
            return match ms.parse::<u64>() {
                Ok(ms) if (1..=600_000).contains(&ms) => Ok(Engine::Strongest(ms)),
                _ => Err(format!(
                    "strongest needs a time in ms from 1 to 600000, got '{ms}'"
                )),
            };
        }
        Err(format!(
            "an engine is spec:D, strongest[:MS] or strongest:dD (optionally @FILE), got '{text}'"
        ))
    }

    /// The move this engine plays in `pos` (which has a legal move).
    #[must_use]
    pub fn choose(&self, pos: &Position, weights: &PatternWeights) -> Option<Square> {
        match *self {
            Engine::Spec(d) => search(pos, d).best_move,
            Engine::Strongest(ms) => evaluate_position(pos, weights, Limits::time_ms(ms)).best_move,
            Engine::StrongDepth(d) => {
                let limits = Limits {
                    exact_from_empties: STRONG_DEPTH_EXACT,
                    ..Limits::depth(d)
                };
                evaluate_position(pos, weights, limits).best_move
            }
            Engine::Weighted(engine, w, _) => engine.choose(pos, w),
        }
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Engine::Spec(d) => write!(f, "spec:{d}"),
            Engine::Strongest(ms) => write!(f, "strongest:{ms}"),
            Engine::StrongDepth(d) => write!(f, "strongest:d{d}"),
            Engine::Weighted(e, _, file) => write!(f, "{e}@{file}"),
        }
    }
}

/// `othello match` settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchConfig {
    /// Games in all.
    pub games: usize,
    /// Distinct openings; game `i` plays opening `(i / 2) % openings`, A
    /// black when `i` is even.
    pub openings: usize,
    /// Seed of the random openings.
    pub seed: u64,
    /// Plies of each random opening.
    pub opening_plies: u32,
}

/// `--flag value` pairs and the positional arguments.
pub(crate) type Parsed<'a> = (Vec<(&'a str, &'a str)>, Vec<&'a str>);

/// Reads `--flag value` pairs; `Err` on an unknown flag or a missing value.
/// Returns the pairs and the remaining positional arguments.
pub(crate) fn flags<'a>(args: &'a [String], known: &[&str]) -> Result<Parsed<'a>, String> {
    let mut pairs = Vec::new();
    let mut rest = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        // An option is `--` and a lower-case word (an OBF board may start
        // with `--`, empty squares).
        if a.starts_with("--") && a[2..].starts_with(|c: char| c.is_ascii_lowercase()) {
            if !known.contains(&a) {
                return Err(format!("unknown option '{a}'"));
            }
            let Some(v) = args.get(i + 1) else {
                return Err(format!("option '{a}' needs a value"));
            };
            if pairs.iter().any(|(k, _)| *k == a) {
                return Err(format!("option '{a}' given twice"));
            }
            pairs.push((a, v.as_str()));
            i += 2;
        } else {
            rest.push(a);
            i += 1;
        }
    }
    Ok((pairs, rest))
}

pub(crate) fn number<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    name: &str,
    v: &str,
    lo: T,
    hi: T,
) -> Result<T, String> {
    match v.parse::<T>() {
        Ok(n) if n >= lo && n <= hi => Ok(n),
        _ => Err(format!(
            "{name} must be a number from {lo} to {hi}, got '{v}'"
        )),
    }
}

/// `othello evaluate [--depth N | --time-ms T] [--exact-from E] [--weights FILE] OBF`.
pub fn parse_evaluate(
    args: &[String],
) -> Result<(Limits<'static>, Option<PathBuf>, String), String> {
    let (pairs, rest) = flags(
        args,
        &[
            "--depth",
            "--time-ms",
            "--exact-from",
            "--weights",
            "--threads",
        ],
    )?;
    let [obf] = rest.as_slice() else {
        return Err("evaluate needs exactly one OBF position (quote it)".into());
    };
    let mut limits = Limits::depth(10);
    let mut weights = None;
    let (mut depth, mut time) = (false, false);
    for (k, v) in pairs {
        match k {
            "--depth" => {
                limits.depth = number("evaluate depth", v, 1u32, 60)?;
                depth = true;
            }
            "--time-ms" => {
                limits = Limits {
                    time_ms: Some(number("evaluate time", v, 1u64, 3_600_000)?),
                    depth: 60,
                    ..limits
                };
                time = true;
            }
            "--exact-from" => limits.exact_from_empties = number("exact-from", v, 0u32, 60)?,
            "--threads" => limits.threads = number("threads", v, 1usize, 256)?,
            _ => weights = Some(PathBuf::from(v)),
        }
    }
    if depth && time {
        return Err("evaluate takes --depth or --time-ms, not both".into());
    }
    Ok((limits, weights, (*obf).to_string()))
}

/// `othello match A B [--games N] [--openings K] [--seed S]`.
pub fn parse_match(args: &[String]) -> Result<(Engine, Engine, MatchConfig), String> {
    let (pairs, rest) = flags(args, &["--games", "--openings", "--seed"])?;
    let [a, b] = rest.as_slice() else {
        return Err("match needs two engines (spec:D or strongest[:MS])".into());
    };
    let (a, b) = (Engine::parse(a)?, Engine::parse(b)?);
    let mut games = None;
    let mut openings = None;
    let mut seed = 2024;
    for (k, v) in pairs {
        match k {
            "--games" => games = Some(number("games", v, 1usize, 100_000)?),
            "--openings" => openings = Some(number("openings", v, 1usize, 100_000)?),
            _ => seed = number("seed", v, 0u64, u64::MAX)?,
        }
    }
    let (games, openings) = match (games, openings) {
        (Some(g), Some(k)) => (g, k),
        (Some(g), None) => (g, g.div_ceil(2)),
        (None, Some(k)) => (2 * k, k),
        (None, None) => (20, 10),
    };
    Ok((
        a,
        b,
        MatchConfig {
            games,
            openings,
            seed,
            opening_plies: 8,
        },
    ))
}

/// `othello train [--seed S] [--out FILE] [--games G] [--threads T]
/// [--exact-empties E] [--label-depth D] [--iterations I] [--label-parities 1|2]
/// [--resume DIR] [--max-stage K] [--lambdas L,L,…] [--below N] [--base FILE]
/// [--huber D] [--huber-rounds R]`.
pub fn parse_train(args: &[String]) -> Result<(TrainConfig, PathBuf), String> {
    let (pairs, rest) = flags(
        args,
        &[
            "--seed",
            "--out",
            "--games",
            "--threads",
            "--exact-empties",
            "--label-depth",
            "--iterations",
            "--label-parities",
            "--resume",
            "--max-stage",
            "--lambdas",
            "--below",
            "--base",
            "--huber",
            "--huber-rounds",
        ],
    )?;
    if let Some(extra) = rest.first() {
        return Err(format!("train: unexpected argument '{extra}'"));
    }
    let mut c = TrainConfig::default();
    let mut out = PathBuf::from("engine/weights/eval.bin");
    for (k, v) in pairs {
        match k {
            "--seed" => c.seed = number("seed", v, 0u64, u64::MAX)?,
            "--out" => out = PathBuf::from(v),
            "--games" => c.games = number("games", v, 10usize, 10_000_000)?,
            "--threads" => c.threads = number("threads", v, 1usize, 256)?,
            "--exact-empties" => c.exact_empties = number("exact-empties", v, 3u32, 24)?,
            "--label-depth" => {
                c.label_depth = number("label-depth", v, engine::pattern::STAGE_WIDTH, 12)?;
            }
            "--label-parities" => c.label_parities = number("label-parities", v, 1u32, 2)?,
            "--resume" => c.resume = Some(PathBuf::from(v)),
            "--max-stage" => {
                c.max_stage = number("max-stage", v, 0usize, engine::pattern::STAGE_COUNT - 1)?;
            }
            "--lambdas" => {
                c.lambdas = v
                    .split(',')
                    .map(|l| number("lambdas", l, 1u32, 1_000_000))
                    .collect::<Result<_, _>>()?;
            }
            "--below" => c.below = number("below", v, 0u32, engine::pattern::STAGE_WIDTH)?,
            "--base" => c.base = Some(PathBuf::from(v)),
            "--huber" => c.huber = number("huber", v, 0u32, 64)?,
            "--huber-rounds" => c.huber_rounds = number("huber-rounds", v, 1u32, 20)?,
            _ => c.iterations = number("iterations", v, 1usize, 10_000)?,
        }
    }
    Ok((c, out))
}

/// `othello accuracy` settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccuracyConfig {
    /// Seed of the self-play games the positions come from.
    pub seed: u64,
    /// Number of positions.
    pub positions: usize,
    /// Empties range (inclusive).
    pub empties: (u32, u32),
    /// Search depth of `evaluate`.
    pub depth: u32,
    /// Threads for the exact solves.
    pub threads: usize,
    /// Weights file (the shipped weights when `None`).
    pub weights: Option<PathBuf>,
    /// Leave out the first this many positions (to resume a stopped run).
    pub skip: usize,
    /// An earlier run's log (`--labels FILE`): its exact scores are reused
    /// instead of solving again (see [`read_accuracy_log`]).
    pub labels: Option<PathBuf>,
}

/// One line of an `othello accuracy` log: the position, its exact score,
/// the move chosen then and whether that move keeps the exact score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedLabel {
    /// The position (OBF).
    pub obf: String,
    /// Its exact score.
    pub exact: i32,
    /// The move chosen in that run (`pass` when none).
    pub chosen: String,
    /// Whether that move keeps the exact score.
    pub chosen_ok: bool,
}

/// The labelled positions of an `othello accuracy` log, by position number
/// (1-based, as logged); other lines are skipped.
#[must_use]
pub fn read_accuracy_log(text: &str) -> std::collections::HashMap<usize, LoggedLabel> {
    let mut out = std::collections::HashMap::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("position ") else {
            continue;
        };
        let parse = || -> Option<(usize, LoggedLabel)> {
            let (num, rest) = rest.split_once(' ')?;
            let (_, rest) = rest.split_once(") ")?;
            let (obf, rest) = rest.split_once(": value ")?;
            let exact = rest.split(" exact ").nth(1)?.split(' ').next()?;
            let (_, best) = rest.split_once(" best ")?;
            let (chosen, verdict) = best.split_once(' ')?;
            Some((
                num.parse().ok()?,
                LoggedLabel {
                    obf: obf.to_string(),
                    exact: exact.trim_start_matches('+').parse().ok()?,
                    chosen: chosen.to_string(),
                    chosen_ok: verdict.starts_with("exactly best"),
                },
            ))
        };
        if let Some((k, v)) = parse() {
            out.insert(k, v);
        }
    }
    out
}

/// `othello accuracy [--seed S] [--positions N] [--empties A-B] [--depth D] [--threads T]
/// [--weights FILE] [--skip K] [--labels LOG]`.
pub fn parse_accuracy(args: &[String]) -> Result<AccuracyConfig, String> {
    let (pairs, rest) = flags(
        args,
        &[
            "--seed",
            "--positions",
            "--empties",
            "--depth",
            "--threads",
            "--weights",
            "--skip",
            "--labels",
        ],
    )?;
    if let Some(extra) = rest.first() {
        return Err(format!("accuracy: unexpected argument '{extra}'"));
    }
    let mut c = AccuracyConfig {
        seed: 777,
        positions: 200,
        empties: (24, 30),
        depth: 8,
        threads: 2,
        weights: None,
        skip: 0,
        labels: None,
    };
    for (k, v) in pairs {
        match k {
            "--seed" => c.seed = number("seed", v, 0u64, u64::MAX)?,
            "--positions" => c.positions = number("positions", v, 1usize, 100_000)?,
            "--empties" => {
                let (a, b) = v
                    .split_once('-')
                    .ok_or_else(|| format!("empties must be A-B, got '{v}'"))?;
                let a = number("empties", a, 1u32, 40)?;
                let b = number("empties", b, a, 40)?;
                c.empties = (a, b);
            }
            "--depth" => c.depth = number("depth", v, 1u32, 30)?,
            "--weights" => c.weights = Some(PathBuf::from(v)),
            "--skip" => c.skip = number("skip", v, 0usize, 100_000)?,
            "--labels" => c.labels = Some(PathBuf::from(v)),
            _ => c.threads = number("threads", v, 1usize, 256)?,
        }
    }
    Ok(c)
}

/// `value V best M nodes N [exact] depth D pv …`.
#[must_use]
pub fn format_report(r: &Report) -> String {
    let best = r.best_move.map_or("pass".to_string(), |s| s.to_string());
    let pv: Vec<String> = r.pv.iter().map(ToString::to_string).collect();
    if r.exact {
        format!(
            "value {:+} best {best} nodes {} exact",
            r.value.round() as i32,
            r.nodes
        )
    } else {
        format!(
            "value {:+.2} best {best} nodes {} depth {} pv {}",
            r.value,
            r.nodes,
            r.depth,
            pv.join(" ")
        )
    }
}

/// Totals of a match, from engine A's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchResult {
    /// Games A won.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// Games A lost.
    pub losses: usize,
    /// Sum of A's final disc differences (standard scoring).
    pub margin_sum: i64,
}

impl MatchResult {
    /// One line: wins, draws, losses and the average margin for A.
    #[must_use]
    pub fn summary(&self, a: &Engine, b: &Engine) -> String {
        let n = self.wins + self.draws + self.losses;
        format!(
            "{a} vs {b}: {n} games, {a} wins {} draws {} losses {} ({:.1}% won), average disc margin {:+.2} for {a}",
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.wins as f64 / n.max(1) as f64,
            self.margin_sum as f64 / n.max(1) as f64
        )
    }
}

/// `count` distinct random openings of `plies` plies (no game over).
#[must_use]
pub fn openings(seed: u64, count: usize, plies: u32) -> Vec<Position> {
    let mut out: Vec<Position> = Vec::new();
    let mut stream = 0u64;
    while out.len() < count {
        let mut rng = Rng::new(seed, stream);
        stream += 1;
        let mut pos = Position::initial();
        for _ in 0..plies {
            let moves: Vec<Square> = pos.legal_moves().iter().collect();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            pos = match pos.play(mv) {
                Ok(o) => o.position,
                Err(_) => break,
            };
        }
        if !pos.is_game_over() && !pos.legal_moves().is_empty() && !out.contains(&pos) {
            out.push(pos);
        }
    }
    out
}

/// Plays `first` (moving first from `start`) against `second` to the end;
/// the final score for the side to move at `start`.
#[must_use]
pub fn play_game(
    start: &Position,
    first: &Engine,
    second: &Engine,
    weights: &PatternWeights,
) -> i32 {
    let me = start.side_to_move;
    let mut pos = *start;
    while !pos.is_game_over() {
        if pos.legal_moves().is_empty() {
            match pos.pass() {
                Ok(p) => pos = p,
                Err(_) => break,
            }
            continue;
        }
        let engine = if pos.side_to_move == me {
            first
        } else {
            second
        };
        let mv = engine
            .choose(&pos, weights)
            .or_else(|| pos.legal_moves().first());
        let Some(mv) = mv else { break };
        match pos.play(mv) {
            Ok(o) => pos = o.position,
            Err(_) => break,
        }
    }
    pos.final_score(me)
}

/// Plays the match; `log` gets one line per game.
pub fn play_match(
    a: &Engine,
    b: &Engine,
    config: &MatchConfig,
    log: &mut dyn FnMut(&str),
) -> MatchResult {
    let weights = engine::default_weights();
    let starts = openings(config.seed, config.openings, config.opening_plies);
    let mut r = MatchResult::default();
    for i in 0..config.games {
        let start = &starts[(i / 2) % starts.len()];
        let a_first = i % 2 == 0;
        let score = if a_first {
            play_game(start, a, b, weights)
        } else {
            -play_game(start, b, a, weights)
        };
        match score.signum() {
            1 => r.wins += 1,
            0 => r.draws += 1,
            _ => r.losses += 1,
        }
        r.margin_sum += i64::from(score);
        log(&format!(
            "game {} (opening {}, {a} {}): {a} {score:+}",
            i + 1,
            (i / 2) % starts.len() + 1,
            if a_first {
                "moves first"
            } else {
                "moves second"
            }
        ));
    }
    r
}

/// Figures of `othello accuracy`.
#[derive(Clone, Debug, Default)]
pub struct AccuracyResult {
    /// Positions measured.
    pub positions: usize,
    /// Mean absolute error of the value, in discs.
    pub mae: f64,
    /// Share of positions whose chosen move is exactly best (0..1).
    pub best_share: f64,
}

/// Evaluates self-play positions (seed `config.seed`, one per game, empties
/// drawn in the range) at `config.depth` (no exact solving) and compares
/// with the exact solver: the value error and whether the chosen move keeps
/// the exact score.
pub fn accuracy(
    config: &AccuracyConfig,
    weights: &PatternWeights,
    log: &mut dyn FnMut(&str),
) -> AccuracyResult {
    let mut picks = Vec::new();
    let mut g = 0u64;
    while picks.len() < config.positions {
        let game = self_play_game(config.seed, g);
        let mut rng = Rng::new(config.seed ^ 0x5eed, g);
        g += 1;
        let (lo, hi) = config.empties;
        let want = lo + rng.below(u64::from(hi - lo + 1)) as u32;
        if let Some(p) = game.iter().find(|p| p.empty_count() == want) {
            picks.push(*p);
        }
    }
    // Each thread takes the next position when it is done with one, and
    // every result is logged as soon as it arrives (in the order they
    // finish, numbered as picked), so a long run that is stopped still
    // leaves its figures.
    let logged = match &config.labels {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => read_accuracy_log(&text),
            Err(error) => {
                log(&format!(
                    "labels {} unreadable ({error}); solving",
                    path.display()
                ));
                std::collections::HashMap::new()
            }
        },
        None => std::collections::HashMap::new(),
    };
    let logged = &logged;
    let mut rows = Vec::new();
    let mut abs = 0.0;
    let mut best = 0usize;
    let next = std::sync::atomic::AtomicUsize::new(config.skip);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            let tx = tx.clone();
            let next = &next;
            let picks = &picks;
            scope.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(pos) = picks.get(i) else { break };
                let t = std::time::Instant::now();
                let limits = Limits {
                    exact_from_empties: 0,
                    ..Limits::depth(config.depth)
                };
                let r = evaluate_position(pos, weights, limits);
                // A logged label for the same position gives the exact
                // score; the chosen move's value comes from the log when
                // it is the logged move, else from a solve of the child.
                let logged = logged
                    .get(&(i + 1))
                    .filter(|l| l.obf == pos.to_obf())
                    .map(|l| (l.exact, l));
                let (exact, chosen_ok) = match (logged, r.best_move) {
                    (Some((exact, l)), Some(m)) if l.chosen == m.to_string() => {
                        (exact, l.chosen_ok)
                    }
                    (Some((exact, _)), Some(m)) => {
                        let child = pos.play(m).expect("legal").position;
                        let v = -solve_with(&child, SolveOptions::with_eval(weights))
                            .expect("no budget")
                            .result
                            .score;
                        (exact, v == exact)
                    }
                    (Some((exact, _)), None) => (exact, true),
                    // One solve gives the exact score and the chosen move's
                    // exact value (the chosen move is searched first, full
                    // window).
                    (None, Some(m)) => {
                        let first = SolveOptions {
                            first: Some(m),
                            ..SolveOptions::with_eval(weights)
                        };
                        let solved = solve_with(pos, first).expect("no budget");
                        (
                            solved.result.score,
                            solved.first_value == Some(solved.result.score),
                        )
                    }
                    (None, None) => (
                        solve_with(pos, SolveOptions::with_eval(weights))
                            .expect("no budget")
                            .result
                            .score,
                        true,
                    ),
                };
                if tx
                    .send((i, r, exact, chosen_ok, t.elapsed().as_secs_f64()))
                    .is_err()
                {
                    break;
                }
            });
        }
        drop(tx);
        for (i, r, score, ok, secs) in rx {
            let err = f64::from(r.value) - f64::from(score);
            abs += err.abs();
            best += usize::from(ok);
            rows.push(ok);
            log(&format!(
                "position {} ({} empties) {}: value {:+.2} exact {score:+} error {:+.2} best {} {} ({secs:.1}s; so far {} done, mean abs error {:.2}, exactly best {})",
                i + 1,
                picks[i].empty_count(),
                picks[i].to_obf(),
                r.value,
                err,
                r.best_move.map_or("pass".to_string(), |m| m.to_string()),
                if ok { "exactly best" } else { "not best" },
                rows.len(),
                abs / rows.len() as f64,
                best,
            ));
        }
    });
    let n = rows.len().max(1) as f64;
    let res = AccuracyResult {
        positions: rows.len(),
        mae: abs / n,
        best_share: best as f64 / n,
    };
    log(&format!(
        "accuracy: {} positions ({}-{} empties, seed {}), evaluate --depth {}: mean abs error {:.2} discs, exactly-best moves {:.1}%",
        res.positions,
        config.empties.0,
        config.empties.1,
        config.seed,
        config.depth,
        res.mae,
        100.0 * res.best_share
    ));
    res
}
