//! `othello`: command-line front end to the engine. (Over 600 lines: every
//! command's argument parsing and its tests are here; the work is in the library.)
//!
//! ```text
//! othello perft N                 leaf count N plies below the start
//! othello solve "<OBF>"           exact score for the side to move and a best move
//! othello search --depth D "<OBF>" play-AI search: best move, value, nodes
//! othello bench [perft|search|ffo] speed figures (CPU time)
//! othello report [--out-dir DIR]  sample games vs the script (docs/PRODUCT.md)
//! othello evaluate [--depth N | --time-ms T] "<OBF>"  strong search on the pattern evaluation
//! othello match A B --games N [--openings K]          engines against each other
//! othello train [--seed S] [--out FILE] [--games G] ...  train the pattern evaluation
//! othello accuracy [--seed S] [--positions N] ...      evaluation vs exact scores
//! othello gen-positions [--seed S] [--count N] ...   OBF test positions with exact scores
//! othello nboard                                       NBoard protocol on stdin/stdout
//! othello bot --server URL --token FILE --engine CMD   the site's Bot API to an NBoard engine
//! othello puzzles --seed S --count N --out FILE ...    puzzle generator (docs/ENGINE.md)
//! othello puzzles-stats FILE                           distribution of a puzzle file
//! othello book build|show|stats ...                    the opening book (docs/ARCHITECTURE.md)
//! ```

use engine::{
    analyse_root, default_weights, evaluate_position, perft, search, solve, Limits, PatternWeights,
    Position,
};
use engine_cli::puzzles;
use engine_cli::report::PUBLISHED;
use engine_cli::strong_cli::{self, Engine, MatchConfig};
use engine_cli::train::{train, TrainConfig};
use engine_cli::SampleReport;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage:
  othello perft N                   count leaves N plies below the initial position (N <= 14)
  othello solve \"<OBF>\"             exact endgame score for the side to move and a best move
                                    (solver ordered with the pattern evaluation)
  othello solve-file FILE [--eval] [--tt-bits B] [--threads T]
                                    solve every OBF line of FILE and check it against the scores
                                    listed after ';' (FFO format); exit 1 on a mismatch; --eval:
                                    the evaluation-ordered solver (as `solve`), --tt-bits: table
                                    of 2^B entries, --threads: T threads per solve (ABDADA); a last line
                                    sums the nodes, CPU and wall seconds
  othello search --depth D \"<OBF>\"  play-AI search (D = 1..12): best move, value, nodes
  othello bench [perft|search|ffo]  speed figures: perft 9-11, depth-6 search medians, FFO #40-#44
                                    exact (all three without an argument); perft and FFO times are
                                    CPU seconds, the search medians wall time
  othello report [--out-dir DIR]    play the depth-3 AI against the script as black and as white;
                                    write DIR/sample-games.json and DIR/sample-games.txt (DIR = docs)
  othello evaluate [--depth N | --time-ms T] [--exact-from E] [--weights FILE] [--threads T] \"<OBF>\"
                                    strong search on the pattern evaluation (default depth 10, exact
                                    from 20 empties; --threads: lazy SMP): value V (discs, side to
                                    move) best M nodes N [exact] depth D pv ...
  othello match A B [--games N] [--openings K] [--seed S]
                                    engine A against engine B from K random openings, both colours
                                    each (N = 2K by default); A, B = spec:D (play AI, depth D = 1..12)
                                    or strongest[:MS] (strong search, MS ms per move, default 100)
                                    or strongest:dD (strong search at depth D, exact from 14
                                    empties); a strongest engine may end in @FILE (other weights)
  othello train [--seed S] [--out FILE] [--games G] [--threads T] [--exact-empties E]
                [--label-depth D] [--iterations I] [--label-parities 1|2] [--resume DIR]
                [--max-stage K] [--lambdas L,L,...] [--below N] [--base FILE]
                                    train the pattern evaluation from self-play (docs/ENGINE.md);
                                    writes FILE (default engine/weights/eval.bin); --resume keeps
                                    labels in DIR as they are computed, and a run started again
                                    with the same settings labels only what is missing; stages
                                    0..=K only, the others from FILE; ridge strengths tried
                                    (default 8,32,128,512); N latest empties counts of the stage
                                    below also train a stage (default 2)
  othello compare-solvers FILE      solve every OBF line of FILE with solve and with solve_with_eval
                                    (pattern-evaluation move ordering): scores, nodes, CPU times
  othello accuracy [--seed S] [--positions N] [--empties A-B] [--depth D] [--threads T]
                   [--weights FILE] [--skip K] [--labels LOG]
                                    evaluate --depth D on N self-play positions with A..B empties
                                    against the exact solver: mean abs error, exactly-best moves
                                    (each logged as it finishes; --skip K leaves out the first K;
                                    --labels reuses the exact scores of an earlier run's log and
                                    solves only a chosen move that differs from the logged one)
  othello nboard [--weights FILE] [--book FILE]
                                    speak the NBoard protocol (version 2) on stdin/stdout, for the
                                    NBoard GUI (docs/ENGINE.md); answers from the opening book
                                    (default book/book.bin when present) where it can
  othello bot --server URL --token FILE --engine \"CMD ARGS\" [--accept blitz,rapid]
              [--rated|--casual|--any] [--max-depth D]
                                    play as a bot account on the site (docs/PRODUCT.md, Bots):
                                    accepts matching challenges, plays each game with the NBoard
                                    engine CMD (e.g. \"othello nboard\" or \"edax -nboard\"),
                                    reconnects when the site or the network drops
  othello label-bias [--seed S] [--positions N] [--empties A-B] [--max-depth D] [--threads T]
                     [--weights FILE] [--no-exact]
                                    mean value of the static evaluation and of 1..D-ply searches
                                    on N self-play positions (and their error against exact scores)
  othello gen-positions [--seed S] [--count N] [--empties A-B] [--threads T]
                                    N self-play positions of seed S (default 1420, 98, 14-20),
                                    one per game, empties cycling A..B, each with a legal move;
                                    prints OBF lines with the best move and exact score
                                    (engine/tests/data/small14-20.obf)
  othello balanced-starts [--count N] [--seed S] [--plies A-B] [--depth D] [--within W]
                                    N random balanced starts (default 100, seed 1, 8-12 plies,
                                    depth 12, within 2 discs): random legal moves from the initial
                                    position, kept when the strong search values them within W
                                    discs of even; prints their moves and value
                                    (book/balanced-starts.txt)
  othello puzzles --seed S --count N --out FILE [--games FILE] [--threads T] [--midgame-depth D]
                                    generate puzzles (JSON Lines) from self-play games of seed S
                                    (and first from the transcripts of --games FILE, one per line);
                                    resumes from FILE.progress; docs/ENGINE.md, \"Puzzles\"
  othello puzzles-stats FILE        themes, ratings, empties, exact/midgame of a puzzle file
  othello book build [--out FILE] [--depth D] [--plies P] [--window A-B] [--ply-cost C]
                     [--positions N] [--minutes M] [--save-every K] [--lines FILE]
                                    build or grow the opening book (default book/book.bin): the
                                    positions reached by good play to P plies (default 12), each
                                    valued by a depth-D strong search (default 10), moves within
                                    A discs of the best followed at the start narrowing to B
                                    (default 4-1); resumes from FILE.progress; stops after N
                                    positions expanded in all or M minutes of this run; --lines:
                                    every line of FILE (moves | name, e.g. app/data/openings.txt)
                                    is expanded first, whatever its values
  othello book show [--book FILE] \"<OBF>\"|MOVES
                                    the book value of a position and of its moves
  othello book stats [--book FILE]  size, positions by ply, the start's value
OBF: 64 cells a1..h8 (X black, O white, - empty), a space, X or O to move.";

/// Fixed midgame positions for the search figures (transcripts from the start).
const SEARCH_LINES: [&str; 3] = [
    "c4e3f2e2f3c3c5g4e1d1f5e6g2g1h5c6b4h1f4f1",
    "f5f6f7e3d3g7f3e7e6c4c5e2c3c6d7b4f1d6h7g2c7g4a3b5",
    "c4c3d3c5b2c2b3e3d1a2a3d2b1a4b4a1d6e6c1c7f4e1c6a5c8g3f5g6",
];

enum Command {
    Perft(u32),
    Solve(String),
    SolveFile(PathBuf, SolveFileFlags),
    Search(u32, String),
    Bench(BenchPart),
    Report(PathBuf),
    Evaluate(Limits<'static>, Option<PathBuf>, String),
    Match(Engine, Engine, MatchConfig),
    Train(TrainConfig, PathBuf),
    Accuracy(strong_cli::AccuracyConfig),
    CompareSolvers(PathBuf),
    LabelBias(engine_cli::bias::BiasConfig, Option<PathBuf>),
    GenPositions(engine_cli::bias::GenConfig),
    BalancedStarts(engine_cli::starts::Config),
    NBoard(Option<PathBuf>, Option<PathBuf>),
    Bot(engine_cli::bot::Config),
    Puzzles(puzzles::Config),
    PuzzleStats(PathBuf),
    Book(engine_cli::book_cli::BookCommand),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum BenchPart {
    All,
    Perft,
    Search,
    Ffo,
}

fn parse_args(args: &[String]) -> Result<Command, String> {
    match args {
        [cmd, n] if cmd == "perft" => match n.parse::<u32>() {
            Ok(n) if n <= 14 => Ok(Command::Perft(n)),
            _ => Err(format!(
                "perft depth must be a number from 0 to 14, got '{n}'"
            )),
        },
        [cmd, obf] if cmd == "solve" => Ok(Command::Solve(obf.clone())),
        [cmd, file, flags @ ..] if cmd == "solve-file" => {
            parse_solve_flags(flags).map(|f| Command::SolveFile(PathBuf::from(file), f))
        }
        [cmd, flag, d, obf] if cmd == "search" && flag == "--depth" => match d.parse::<u32>() {
            Ok(d) if (1..=12).contains(&d) => Ok(Command::Search(d, obf.clone())),
            _ => Err(format!(
                "search depth must be a number from 1 to 12, got '{d}'"
            )),
        },
        [cmd] if cmd == "bench" => Ok(Command::Bench(BenchPart::All)),
        [cmd, part] if cmd == "bench" => match part.as_str() {
            "perft" => Ok(Command::Bench(BenchPart::Perft)),
            "search" => Ok(Command::Bench(BenchPart::Search)),
            "ffo" => Ok(Command::Bench(BenchPart::Ffo)),
            _ => Err(format!(
                "bench part must be perft, search or ffo, got '{part}'"
            )),
        },
        [cmd] if cmd == "report" => Ok(Command::Report(PathBuf::from("docs"))),
        [cmd, flag, dir] if cmd == "report" && flag == "--out-dir" && !dir.is_empty() => {
            Ok(Command::Report(PathBuf::from(dir)))
        }
        [cmd, rest @ ..] if cmd == "evaluate" => strong_cli::parse_evaluate(rest)
            .map(|(limits, weights, obf)| Command::Evaluate(limits, weights, obf)),
        [cmd, rest @ ..] if cmd == "match" => {
            strong_cli::parse_match(rest).map(|(a, b, c)| Command::Match(a, b, c))
        }
        [cmd, rest @ ..] if cmd == "train" => {
            strong_cli::parse_train(rest).map(|(c, out)| Command::Train(c, out))
        }
        [cmd, file] if cmd == "compare-solvers" => Ok(Command::CompareSolvers(PathBuf::from(file))),
        [cmd, rest @ ..] if cmd == "accuracy" => {
            strong_cli::parse_accuracy(rest).map(Command::Accuracy)
        }
        [cmd, rest @ ..] if cmd == "balanced-starts" => {
            engine_cli::starts::parse(rest).map(Command::BalancedStarts)
        }
        [cmd, rest @ ..] if cmd == "gen-positions" => {
            engine_cli::bias::parse_gen(rest).map(Command::GenPositions)
        }
        [cmd, rest @ ..] if cmd == "label-bias" => {
            engine_cli::bias::parse_bias(rest).map(|(c, w)| Command::LabelBias(c, w))
        }
        [cmd, rest @ ..] if cmd == "nboard" => parse_nboard(rest),
        [cmd, rest @ ..] if cmd == "bot" => engine_cli::bot::parse(rest).map(Command::Bot),
        [cmd, rest @ ..] if cmd == "puzzles" => puzzles::parse_args(rest).map(Command::Puzzles),
        [cmd, file] if cmd == "puzzles-stats" => Ok(Command::PuzzleStats(PathBuf::from(file))),
        [cmd, rest @ ..] if cmd == "book" => engine_cli::book_cli::parse(rest).map(Command::Book),
        [] => Err("missing command".into()),
        _ => Err(format!("unrecognised arguments: {}", args.join(" "))),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if matches!(
        args.first().map(String::as_str),
        Some("help" | "--help" | "-h")
    ) {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let command = match parse_args(&args) {
        Ok(c) => c,
        Err(message) => {
            eprintln!("othello: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match command {
        Command::Perft(n) => println!("{}", perft(&Position::initial(), n)),
        Command::Solve(obf) => match Position::from_obf(&obf) {
            Ok(pos) => {
                let t = Instant::now();
                // The evaluation-ordered solver: exact like `solve`, about
                // half the nodes on FFO #40-#44 (docs/ENGINE.md).
                let ordered = engine::SolveOptions::with_eval(default_weights());
                let (r, cpu) =
                    timed(|| engine::solve_with(&pos, ordered).expect("no budget").result);
                let best = r.best_move.map_or("pass".to_string(), |s| s.to_string());
                println!(
                    "score {:+} best {best} nodes {} time {:.3}s cpu {cpu:.3}s",
                    r.score,
                    r.nodes,
                    t.elapsed().as_secs_f64()
                );
            }
            Err(e) => {
                eprintln!("othello: bad OBF: {e}\n{USAGE}");
                return ExitCode::from(2);
            }
        },
        Command::Search(depth, obf) => match Position::from_obf(&obf) {
            Ok(pos) => {
                let r = search(&pos, depth);
                let best = r.best_move.map_or("pass".to_string(), |s| s.to_string());
                let pv: Vec<String> = r
                    .principal_variation
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                println!(
                    "best {best} value {} nodes {} pv {}",
                    r.value,
                    r.nodes,
                    pv.join(" ")
                );
            }
            Err(e) => {
                eprintln!("othello: bad OBF: {e}\n{USAGE}");
                return ExitCode::from(2);
            }
        },
        Command::Bench(part) => bench(part),
        Command::SolveFile(path, flags) => match solve_file(&path, flags) {
            Ok(true) => {}
            Ok(false) => return ExitCode::FAILURE,
            Err(message) => {
                eprintln!("othello: {message}");
                return ExitCode::from(2);
            }
        },
        Command::Evaluate(limits, weights_file, obf) => {
            let weights = match load_weights(weights_file.as_deref()) {
                Ok(w) => w,
                Err(message) => {
                    eprintln!("othello: {message}");
                    return ExitCode::from(2);
                }
            };
            match Position::from_obf(&obf) {
                Ok(pos) => {
                    let r = evaluate_position(&pos, &weights, limits);
                    println!("{}", strong_cli::format_report(&r));
                }
                Err(e) => {
                    eprintln!("othello: bad OBF: {e}\n{USAGE}");
                    return ExitCode::from(2);
                }
            }
        }
        Command::Match(a, b, config) => {
            let result = strong_cli::play_match(&a, &b, &config, &mut |line| println!("{line}"));
            println!("{}", result.summary(&a, &b));
        }
        Command::Train(config, out) => {
            let t = Instant::now();
            let trained = train(&config, &mut |line| println!("{line}"));
            let bytes = trained.weights.to_bytes();
            if let Err(e) = std::fs::write(&out, &bytes) {
                eprintln!("othello: cannot write {}: {e}", out.display());
                return ExitCode::FAILURE;
            }
            println!(
                "wrote {} ({} bytes, checksum {:016x}); {} positions, {:.1}s wall",
                out.display(),
                bytes.len(),
                engine::pattern::fnv1a64(&bytes[..bytes.len() - 8]),
                trained.positions,
                t.elapsed().as_secs_f64()
            );
        }
        Command::CompareSolvers(path) => match compare_solvers(&path) {
            Ok(true) => {}
            Ok(false) => return ExitCode::FAILURE,
            Err(message) => {
                eprintln!("othello: {message}");
                return ExitCode::from(2);
            }
        },
        Command::Accuracy(config) => {
            let weights = match load_weights(config.weights.as_deref()) {
                Ok(w) => w,
                Err(message) => {
                    eprintln!("othello: {message}");
                    return ExitCode::from(2);
                }
            };
            strong_cli::accuracy(&config, &weights, &mut |line| println!("{line}"));
        }
        Command::LabelBias(config, weights_file) => {
            let weights = match load_weights(weights_file.as_deref()) {
                Ok(w) => w,
                Err(message) => {
                    eprintln!("othello: {message}");
                    return ExitCode::from(2);
                }
            };
            engine_cli::bias::label_bias(&config, &weights, &mut |line| println!("{line}"));
        }
        Command::GenPositions(config) => {
            for line in engine_cli::bias::gen_positions(&config, default_weights()) {
                println!("{line}");
            }
        }
        Command::BalancedStarts(config) => {
            println!(
                "# Random balanced starts: {} positions {}-{} plies from the initial one, \
                 reached by random legal moves (seed {}), each within {} discs of even by the \
                 strong search at depth {} (the value: the side to move's view).",
                config.count,
                config.plies.0,
                config.plies.1,
                config.seed,
                config.within,
                config.depth
            );
            println!(
                "# Made by: othello balanced-starts --count {} --seed {} --plies {}-{} --depth {} --within {}",
                config.count, config.seed, config.plies.0, config.plies.1, config.depth, config.within
            );
            let kept = engine_cli::starts::generate(&config, |start| {
                println!("{} {:+.2}", start.moves, start.value);
            });
            if kept.len() < config.count {
                eprintln!(
                    "othello: only {} balanced starts found of {} wanted",
                    kept.len(),
                    config.count
                );
                return ExitCode::FAILURE;
            }
        }
        Command::Bot(config) => {
            if let Err(message) = engine_cli::bot::run(config) {
                eprintln!("othello: {message}");
                return ExitCode::FAILURE;
            }
        }
        Command::NBoard(weights_file, book_file) => {
            let weights = match load_weights(weights_file.as_deref()) {
                Ok(w) => w,
                Err(message) => {
                    eprintln!("othello: {message}");
                    return ExitCode::from(2);
                }
            };
            // The book named, else the default one when it is there.
            let book = match book_file {
                Some(path) => match engine_cli::book_cli::load(&path) {
                    Ok(b) => Some(b),
                    Err(message) => {
                        eprintln!("othello: {message}");
                        return ExitCode::from(2);
                    }
                },
                None => engine_cli::book_cli::load(std::path::Path::new(
                    engine_cli::book_cli::DEFAULT_BOOK,
                ))
                .ok(),
            };
            let stdin = std::io::stdin();
            let result = engine_cli::nboard::run_with_book(
                &mut stdin.lock(),
                &mut std::io::stdout(),
                &mut std::io::stderr(),
                &weights,
                book.as_ref(),
            );
            if let Err(e) = result {
                eprintln!("othello: nboard: {e}");
                return ExitCode::FAILURE;
            }
        }
        Command::Puzzles(config) => {
            let weights = default_weights();
            match puzzles::generate(&config, weights, &mut |line| eprintln!("{line}")) {
                Ok(s) => eprintln!(
                    "puzzles: {} in {} ({} written by this run, {} games, next game {}, {:.1}s)",
                    s.puzzles,
                    config.out.display(),
                    s.written,
                    s.games,
                    s.next_game,
                    s.secs
                ),
                Err(message) => {
                    eprintln!("othello: {message}");
                    return ExitCode::FAILURE;
                }
            }
        }
        Command::PuzzleStats(path) => {
            let stats = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))
                .and_then(|text| puzzles::stats(&text));
            match stats {
                Ok(text) => print!("{text}"),
                Err(message) => {
                    eprintln!("othello: {message}");
                    return ExitCode::FAILURE;
                }
            }
        }
        Command::Book(book) => {
            if let Err(message) = engine_cli::book_cli::run(&book, &mut |line| println!("{line}")) {
                eprintln!("othello: {message}");
                return ExitCode::FAILURE;
            }
        }
        Command::Report(dir) => {
            if let Err(message) = report(&dir) {
                eprintln!("othello: {message}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

/// `othello nboard [--weights FILE] [--book FILE]`.
fn parse_nboard(mut args: &[String]) -> Result<Command, String> {
    let (mut weights, mut book) = (None, None);
    loop {
        match args {
            [] => return Ok(Command::NBoard(weights, book)),
            [flag, file, rest @ ..] if flag == "--weights" && weights.is_none() => {
                weights = Some(PathBuf::from(file));
                args = rest;
            }
            [flag, file, rest @ ..] if flag == "--book" && book.is_none() => {
                book = Some(PathBuf::from(file));
                args = rest;
            }
            [other, ..] => return Err(format!("nboard: unexpected '{other}'")),
        }
    }
}

/// The weights from `file`, or the shipped ones.
fn load_weights(file: Option<&std::path::Path>) -> Result<PatternWeights, String> {
    match file {
        None => Ok(default_weights().clone()),
        Some(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            PatternWeights::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
        }
    }
}

/// The options of `solve-file`.
#[derive(Clone, Copy, Default)]
struct SolveFileFlags {
    /// Order moves with the shipped pattern evaluation too.
    eval: bool,
    /// Table size (2^bits entries); `None`: the default.
    tt_bits: Option<u32>,
    /// Threads per solve; `None`: one.
    threads: Option<usize>,
}

fn parse_solve_flags(mut args: &[String]) -> Result<SolveFileFlags, String> {
    let mut flags = SolveFileFlags::default();
    loop {
        match args {
            [] => return Ok(flags),
            [flag, rest @ ..] if flag == "--eval" => {
                flags.eval = true;
                args = rest;
            }
            [flag, bits, rest @ ..] if flag == "--tt-bits" => {
                flags.tt_bits = Some(
                    bits.parse::<u32>()
                        .ok()
                        .filter(|b| (10..=26).contains(b))
                        .ok_or(format!("--tt-bits must be 10..=26, got '{bits}'"))?,
                );
                args = rest;
            }
            [flag, n, rest @ ..] if flag == "--threads" => {
                flags.threads = Some(
                    n.parse::<usize>()
                        .ok()
                        .filter(|n| (1..=256).contains(n))
                        .ok_or(format!("--threads must be 1..=256, got '{n}'"))?,
                );
                args = rest;
            }
            [other, ..] => return Err(format!("unknown solve-file option '{other}'")),
        }
    }
}

/// Solves each OBF line of `path` and compares the score with the best
/// score listed after the `;` (FFO format). `Ok(false)` on a mismatch.
fn solve_file(path: &std::path::Path, flags: SolveFileFlags) -> Result<bool, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut all_right = true;
    let (mut total_nodes, mut total_secs, mut total_wall) = (0u64, 0f64, 0f64);
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let pos = Position::from_obf(line).map_err(|e| format!("line {}: bad OBF: {e}", n + 1))?;
        let expected = line
            .split(';')
            .skip(1)
            .filter_map(|item| item.split_once(':')?.1.trim().parse::<i32>().ok())
            .max();
        let mut options = if flags.eval {
            engine::SolveOptions::with_eval(default_weights())
        } else {
            engine::SolveOptions::default()
        };
        if let Some(bits) = flags.tt_bits {
            options.table_bits = bits;
        }
        if let Some(threads) = flags.threads {
            options.threads = threads;
        }
        let wall = Instant::now();
        let (r, s) = timed(|| engine::solve_with(&pos, options).expect("no budget").result);
        let wall = wall.elapsed().as_secs_f64();
        total_nodes += r.nodes;
        total_secs += s;
        total_wall += wall;
        let verdict = match expected {
            Some(e) if e == r.score => "exact".to_string(),
            Some(e) => {
                all_right = false;
                format!("WRONG, listed {e:+}")
            }
            None => "no listed score".to_string(),
        };
        println!(
            "line {} ({} empties): score {:+} best {} nodes {} in {s:.3}s CPU {wall:.3}s wall: {verdict}",
            n + 1,
            pos.empty_count(),
            r.score,
            r.best_move.map_or("pass".into(), |m| m.to_string()),
            r.nodes
        );
    }
    println!("total: {total_nodes} nodes in {total_secs:.3}s CPU, {total_wall:.3}s wall");
    Ok(all_right)
}

/// Solves each OBF line of `path` with the plain solver and with the
/// evaluation-ordered one: scores (must agree, and match the listed best
/// score when there is one), node counts and CPU times. `Ok(false)` on a
/// disagreement.
fn compare_solvers(path: &std::path::Path) -> Result<bool, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let weights = default_weights();
    let mut all_right = true;
    let (mut n0, mut n1, mut s0, mut s1) = (0u64, 0u64, 0f64, 0f64);
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let pos = Position::from_obf(line).map_err(|e| format!("line {}: bad OBF: {e}", n + 1))?;
        let expected = line
            .split(';')
            .skip(1)
            .filter_map(|item| item.split_once(':')?.1.trim().parse::<i32>().ok())
            .max();
        let (a, ta) = timed(|| solve(&pos));
        let ordered = engine::SolveOptions::with_eval(weights);
        let (b, tb) = timed(|| engine::solve_with(&pos, ordered).expect("no budget").result);
        let ok = a.score == b.score && expected.is_none_or(|e| e == a.score);
        all_right &= ok;
        n0 += a.nodes;
        n1 += b.nodes;
        s0 += ta;
        s1 += tb;
        println!(
            "line {} ({} empties): score {:+} {} | solve nodes {} {ta:.3}s | solve_with_eval nodes {} {tb:.3}s ({:.0}% of the nodes)",
            n + 1,
            pos.empty_count(),
            b.score,
            if ok { "exact" } else { "MISMATCH" },
            a.nodes,
            b.nodes,
            100.0 * b.nodes as f64 / a.nodes.max(1) as f64
        );
    }
    println!(
        "total: solve {n0} nodes {s0:.3}s, solve_with_eval {n1} nodes {s1:.3}s ({:.0}% of the nodes, {:.0}% of the time)",
        100.0 * n1 as f64 / n0.max(1) as f64,
        100.0 * s1 / s0.max(1e-9)
    );
    Ok(all_right)
}

/// Plays the sample games and writes `dir/sample-games.json` and
/// `dir/sample-games.txt`; prints one summary line per game.
fn report(dir: &std::path::Path) -> Result<(), String> {
    let report = SampleReport::generate();
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for (name, text) in [
        ("sample-games.json", report.to_json()),
        ("sample-games.txt", report.to_text()),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    for (i, game) in report.games.iter().enumerate() {
        println!("game {}: {}", i + 1, game.summary());
    }
    for (i, (game, published)) in report.games.iter().zip(&PUBLISHED).enumerate() {
        println!(
            "game {} against the published figures: {}",
            i + 1,
            game.published_line(published)
        );
    }
    if report.matches_published() {
        Ok(())
    } else {
        Err("the sample games do not reproduce the published figures (files written anyway)".into())
    }
}

/// FFO endgame positions #40–#44 (OBF; the exact score of each listed move
/// follows the `;`).
const FFO_40_44: &str = include_str!("../../engine/tests/data/ffo40-44.obf");

/// CPU time this process has used, in seconds (`/proc/self/schedstat`,
/// updated at scheduler ticks, so good for runs of a tenth of a second and
/// more; wall time from the start where that file is missing), so the
/// figures stay meaningful on a loaded machine.
fn cpu_seconds() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let start = *START.get_or_init(Instant::now);
    std::fs::read_to_string("/proc/self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or_else(|| start.elapsed().as_secs_f64(), |ns| ns as f64 / 1e9)
}

/// CPU seconds `f` takes, and its result.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = cpu_seconds();
    let out = f();
    (out, cpu_seconds() - t)
}

/// Median wall time of `runs` calls of `f`, in seconds (the CPU-time
/// counter only advances at scheduler ticks, too coarse for milliseconds).
fn median_secs(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn bench(part: BenchPart) {
    let _ = cpu_seconds();
    if matches!(part, BenchPart::All | BenchPart::Perft) {
        bench_perft();
    }
    if matches!(part, BenchPart::All | BenchPart::Search) {
        bench_search();
    }
    if matches!(part, BenchPart::All | BenchPart::Ffo) {
        bench_ffo();
    }
}

fn bench_perft() {
    let start = Position::initial();
    for depth in [9u32, 10, 11] {
        let (n, s) = timed(|| perft(&start, depth));
        println!(
            "perft {depth}: {n} leaves in {s:.3}s ({:.1} M leaves/s)",
            n as f64 / s / 1e6
        );
    }
}

fn bench_search() {
    let mut medians = Vec::new();
    for (i, line) in SEARCH_LINES.iter().enumerate() {
        let Ok(game) = engine::parse_transcript(line) else {
            continue;
        };
        let pos = *game.position();
        let r = search(&pos, 6);
        let s = median_secs(15, || {
            std::hint::black_box(search(std::hint::black_box(&pos), 6));
        });
        let a = median_secs(5, || {
            std::hint::black_box(analyse_root(std::hint::black_box(&pos), 6));
        });
        medians.push(s);
        println!(
            "search depth 6, position {}: best {} value {} positions {} median {:.2} ms ({:.1} M nodes/s); analysis (analyse_root) median {:.2} ms",
            i + 1,
            r.best_move.map_or("pass".into(), |m| m.to_string()),
            r.value,
            r.nodes,
            s * 1e3,
            r.nodes as f64 / s / 1e6,
            a * 1e3
        );
    }
    medians.sort_by(f64::total_cmp);
    if let Some(m) = medians.get(medians.len() / 2) {
        println!(
            "search depth 6: median over the positions {:.2} ms",
            m * 1e3
        );
    }
}

fn bench_ffo() {
    let (mut total_nodes, mut total_secs) = (0u64, 0f64);
    for (n, line) in FFO_40_44.lines().enumerate() {
        let Ok(pos) = Position::from_obf(line) else {
            continue;
        };
        let expected = line
            .split(';')
            .skip(1)
            .filter_map(|item| item.split_once(':')?.1.trim().parse::<i32>().ok())
            .max()
            .unwrap_or(0);
        let (r, s) = timed(|| solve(&pos));
        total_nodes += r.nodes;
        total_secs += s;
        println!(
            "solve FFO #{} ({} empties): score {:+} (expected {expected:+}) best {} nodes {} in {s:.3}s ({:.1} M nodes/s)",
            40 + n,
            pos.empty_count(),
            r.score,
            r.best_move.map_or("pass".into(), |m| m.to_string()),
            r.nodes,
            r.nodes as f64 / s / 1e6
        );
    }
    println!(
        "solve FFO #40-#44 total: {total_nodes} nodes in {total_secs:.3}s ({:.1} M nodes/s)",
        total_nodes as f64 / total_secs / 1e6
    );
}
