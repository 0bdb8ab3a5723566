//! `othello`: command-line front end to the engine.
//!
//! ```text
//! othello perft N                 leaf count N plies below the start
//! othello solve "<OBF>"           exact score for the side to move and a best move
//! othello search --depth D "<OBF>" play-AI search: best move, value, nodes
//! othello bench                   speed figures
//! othello report [--out-dir DIR]  sample games vs the script (SPEC §9)
//! ```

use engine::{perft, search, solve, Position, SampleReport};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage:
  othello perft N                   count leaves N plies below the initial position (N <= 14)
  othello solve \"<OBF>\"             exact endgame score for the side to move and a best move
  othello search --depth D \"<OBF>\"  play-AI search (D = 1..12): best move, value, nodes
  othello bench                     perft, search and solver speed figures
  othello report [--out-dir DIR]    play the depth-3 AI against the script as black and as white;
                                    write DIR/sample-games.json and DIR/sample-games.txt (DIR = docs)
OBF: 64 cells a1..h8 (X black, O white, - empty), a space, X or O to move.";

/// FFO endgame positions #40–#42 (OBF, with their exact scores).
const FFO: [(&str, &str, i32); 3] = [
    (
        "#40",
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
        38,
    ),
    (
        "#41",
        "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X",
        0,
    ),
    (
        "#42",
        "--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X",
        6,
    ),
];

/// Fixed midgame positions for the search figures (transcripts from the start).
const SEARCH_LINES: [&str; 3] = [
    "c4e3f2e2f3c3c5g4e1d1f5e6g2g1h5c6b4h1f4f1",
    "f5f6f7e3d3g7f3e7e6c4c5e2c3c6d7b4f1d6h7g2c7g4a3b5",
    "c4c3d3c5b2c2b3e3d1a2a3d2b1a4b4a1d6e6c1c7f4e1c6a5c8g3f5g6",
];

enum Command {
    Perft(u32),
    Solve(String),
    Search(u32, String),
    Bench,
    Report(PathBuf),
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
        [cmd, flag, d, obf] if cmd == "search" && flag == "--depth" => match d.parse::<u32>() {
            Ok(d) if (1..=12).contains(&d) => Ok(Command::Search(d, obf.clone())),
            _ => Err(format!(
                "search depth must be a number from 1 to 12, got '{d}'"
            )),
        },
        [cmd] if cmd == "bench" => Ok(Command::Bench),
        [cmd] if cmd == "report" => Ok(Command::Report(PathBuf::from("docs"))),
        [cmd, flag, dir] if cmd == "report" && flag == "--out-dir" && !dir.is_empty() => {
            Ok(Command::Report(PathBuf::from(dir)))
        }
        [] => Err("missing command".into()),
        _ => Err(format!("unrecognised arguments: {}", args.join(" "))),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
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
                let r = solve(&pos);
                let best = r.best_move.map_or("pass".to_string(), |s| s.to_string());
                println!(
                    "score {:+} best {best} nodes {} time {:.3}s",
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
        Command::Bench => bench(),
        Command::Report(dir) => {
            if let Err(message) = report(&dir) {
                eprintln!("othello: {message}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
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
    Ok(())
}

fn bench() {
    let start = Position::initial();
    for depth in [9u32, 10, 11] {
        let t = Instant::now();
        let n = perft(&start, depth);
        let s = t.elapsed().as_secs_f64();
        println!(
            "perft {depth}: {n} leaves in {s:.3}s ({:.1} M leaves/s)",
            n as f64 / s / 1e6
        );
    }
    for (i, line) in SEARCH_LINES.iter().enumerate() {
        let Ok(game) = engine::parse_transcript(line) else {
            continue;
        };
        let pos = *game.position();
        let t = Instant::now();
        let r = search(&pos, 6);
        let s = t.elapsed().as_secs_f64();
        println!(
            "search depth 6, position {}: best {} value {} nodes {} in {:.3}s ({:.2} M nodes/s)",
            i + 1,
            r.best_move.map_or("pass".into(), |m| m.to_string()),
            r.value,
            r.nodes,
            s,
            r.nodes as f64 / s / 1e6
        );
    }
    for (name, obf, expected) in FFO {
        let Ok(pos) = Position::from_obf(obf) else {
            continue;
        };
        let t = Instant::now();
        let r = solve(&pos);
        let s = t.elapsed().as_secs_f64();
        println!(
            "solve FFO {name} ({} empties): score {:+} (expected {expected:+}) best {} nodes {} in {s:.3}s ({:.1} M nodes/s)",
            pos.empty_count(),
            r.score,
            r.best_move.map_or("pass".into(), |m| m.to_string()),
            r.nodes,
            r.nodes as f64 / s / 1e6
        );
    }
}
