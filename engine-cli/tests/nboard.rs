//! `othello nboard`: the NBoard protocol driven through in-memory streams
//! and through the built binary's stdin/stdout, with real GGF games.

mod common;

use engine::{default_weights, parse_moves, Game, GgfInfo, Position, Square};
use engine_cli::nboard::{parse_ggf, run, NBoard, NAME};
use std::io::{Cursor, Write};
use std::process::{Command, Stdio};

/// The example game of the NBoard protocol description (8 moves in).
const GGF: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

fn after(moves: &str) -> Position {
    Game::replay(&parse_moves(moves).unwrap())
        .unwrap()
        .position()
        .to_owned()
}

fn session(lines: &[&str]) -> (Vec<String>, String) {
    let input = lines.join("\n") + "\n";
    let (mut out, mut err) = (Vec::new(), Vec::new());
    run(
        &mut Cursor::new(input.into_bytes()),
        &mut out,
        &mut err,
        default_weights(),
    )
    .unwrap();
    let out = String::from_utf8(out).unwrap();
    (
        out.lines().map(str::to_string).collect(),
        String::from_utf8(err).unwrap(),
    )
}

/// The square of a `=== sq/eval/time` or `search sq eval 0 depth` line.
fn square_of(text: &str) -> Square {
    let t = text.split(['/', ' ']).next().unwrap();
    t.parse().unwrap_or_else(|_| panic!("not a square: {text}"))
}

#[test]
fn go_hint_ping_on_a_ggf_game() {
    let pos = after("f5f6d3c5e6f7e7f4");
    let (out, err) = session(&[
        "nboard 2",
        "set depth 6",
        &format!("set game {GGF}"),
        "set contempt 0",
        "ping 1",
        "go",
        "hint 3",
        "ping 2",
    ]);
    assert!(err.is_empty(), "{err}");
    assert_eq!(out[0], format!("set myname {NAME}"));
    assert_eq!(out[1], "pong 1");
    let go = out.iter().find(|l| l.starts_with("=== ")).expect("a move");
    let mv = square_of(&go[4..]);
    assert!(pos.is_legal(mv), "{go} not legal in {}", pos.to_obf());
    let parts: Vec<&str> = go[4..].split('/').collect();
    assert_eq!(parts.len(), 3, "{go}");
    assert!(parts[1].parse::<f32>().unwrap().abs() <= 64.0);
    let hints: Vec<&String> = out.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(hints.len(), 3.min(pos.legal_moves().count() as usize));
    let mut values = Vec::new();
    for h in &hints {
        let f: Vec<&str> = h.split(' ').collect();
        assert_eq!(f.len(), 5, "{h}");
        assert!(pos.is_legal(square_of(f[1])), "{h}");
        assert_eq!(f[3], "0");
        assert!(f[4] == "6" || f[4] == "100%", "{h}");
        values.push(f[2].parse::<f32>().unwrap());
    }
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
    assert_ne!(square_of(&hints[0][7..]), square_of(&hints[1][7..]));
    assert_eq!(out.last().unwrap(), "pong 2");
    // Every search is framed by status lines.
    assert_eq!(out.iter().filter(|l| *l == "status thinking").count(), 2);
}

#[test]
fn moves_passes_and_bad_input_keep_the_session_alive() {
    let (out, err) = session(&[
        "nboard 2",
        "set depth 4",
        &format!("set game {GGF}"),
        "move z9",
        "move a1",
        "frobnicate 3",
        "set game (;GM[Othello]BO[8 nonsense];)",
        "move d6/1.50/3.2",
        "go",
        "quit",
        "ping 9",
    ]);
    // Three complaints (bad square, illegal move, unknown command) and the
    // bad game; the position stays the GGF game's, then d6 is played.
    assert_eq!(err.lines().count(), 4, "{err}");
    let pos = after("f5f6d3c5e6f7e7f4d6");
    let go = out.iter().find(|l| l.starts_with("=== ")).unwrap();
    assert!(pos.is_legal(square_of(&go[4..])), "{go}");
    assert!(
        !out.iter().any(|l| l.starts_with("pong")),
        "nothing after quit"
    );
}

#[test]
fn a_ggf_with_passes_round_trips() {
    // Random games until one has a pass; the engine's own GGF export
    // writes it as PA.
    let mut found = 0;
    for seed in 0..400 {
        let mut rng = common::Rng::new(seed);
        let mut game = Game::new();
        while !game.is_over() {
            let moves: Vec<Square> = game.position().legal_moves().iter().collect();
            game.play(moves[rng.below(moves.len())]).unwrap();
        }
        let ggf = game.to_ggf(&GgfInfo::default());
        if !ggf.contains("[PA]") {
            continue;
        }
        found += 1;
        let (start, moves) = parse_ggf(&ggf).unwrap();
        assert_eq!(start, Position::initial());
        assert_eq!(moves.len(), game.events().len());
        let weights = default_weights();
        let mut s = NBoard::new(weights);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert!(s
            .handle(&format!("set game {ggf}"), &mut out, &mut err)
            .unwrap());
        assert!(err.is_empty(), "{}", String::from_utf8_lossy(&err));
        assert_eq!(s.position(), *game.position());
        // The same game without its PA entries is understood too.
        let bare = ggf.replace("B[PA]", "").replace("W[PA]", "");
        s.handle(&format!("set game {bare}"), &mut out, &mut err)
            .unwrap();
        assert!(err.is_empty(), "{}", String::from_utf8_lossy(&err));
        assert_eq!(s.position(), *game.position());
        if found == 3 {
            break;
        }
    }
    assert_eq!(found, 3, "expected games with passes");
}

#[test]
fn the_binary_speaks_nboard_on_stdin_and_stdout() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_othello"))
        .arg("nboard")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let stdin = child.stdin.as_mut().unwrap();
        writeln!(stdin, "nboard 2").unwrap();
        writeln!(stdin, "set depth 5").unwrap();
        writeln!(stdin, "set game {GGF}").unwrap();
        writeln!(stdin, "ping 5").unwrap();
        writeln!(stdin, "go").unwrap();
        writeln!(stdin, "hello there").unwrap();
        writeln!(stdin, "ping 6").unwrap();
        writeln!(stdin, "quit").unwrap();
    }
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], format!("set myname {NAME}"));
    assert_eq!(lines[1], "pong 5");
    let go = lines.iter().find(|l| l.starts_with("=== ")).unwrap();
    assert!(after("f5f6d3c5e6f7e7f4").is_legal(square_of(&go[4..])));
    assert_eq!(*lines.last().unwrap(), "pong 6");
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown command"));
}

/// A small book built for the test: the start and the main lines a few
/// plies deep, valued by depth-2 searches.
fn small_book() -> engine::Book {
    use engine::book_build::{BuildParams, Builder};
    let params = BuildParams {
        depth: 2,
        plies: 4,
        window_first: 300,
        window_last: 200,
        ply_cost: 30,
    };
    let w = default_weights();
    let mut b = Builder::new(params, w);
    for _ in 0..8 {
        b.step(w);
    }
    b.book()
}

fn book_session(book: &engine::Book, lines: &[&str]) -> Vec<String> {
    let input = lines.join("\n") + "\n";
    let (mut out, mut err) = (Vec::new(), Vec::new());
    engine_cli::nboard::run_with_book(
        &mut Cursor::new(input.into_bytes()),
        &mut out,
        &mut err,
        default_weights(),
        Some(book),
    )
    .unwrap();
    assert!(err.is_empty(), "{}", String::from_utf8_lossy(&err));
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn hint_answers_several_lines_and_marks_book_moves() {
    let book = small_book();
    let start = Position::initial();
    // At the start (expanded in the book): N book lines, best first, from
    // the book's values; `go` plays the best book move.
    let out = book_session(&book, &["nboard 2", "set depth 4", "hint 3", "go"]);
    let lines: Vec<&String> = out.iter().filter(|l| l.starts_with("book ")).collect();
    assert_eq!(lines.len(), 3, "{out:?}");
    assert!(!out.iter().any(|l| l.starts_with("search ")), "{out:?}");
    let expected = book.moves(&start);
    for (line, m) in lines.iter().zip(&expected) {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 5, "{line}");
        assert_eq!(square_of(f[1]), m.square);
        assert_eq!(f[2].parse::<f32>().unwrap(), m.value.discs());
        assert_eq!(f[3], "0");
        assert!(f[4].parse::<u32>().unwrap() >= 2, "{line}");
    }
    let go = out.iter().find(|l| l.starts_with("=== ")).expect("a move");
    assert_eq!(square_of(&go[4..]), expected[0].square);
    // Out of the book: N search lines, best first, all different.
    let deep = "f5d6c3d3c4f4f6f3e6e7";
    let pos = after(deep);
    assert!(!book.is_expanded(&pos));
    let mut lines = vec!["nboard 2".to_string(), "set depth 3".to_string()];
    for m in parse_moves(deep).unwrap() {
        lines.push(format!("move {m}"));
    }
    lines.push("hint 4".into());
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let out = book_session(&book, &refs);
    let hints: Vec<&String> = out.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(hints.len(), 4.min(pos.legal_moves().count() as usize));
    assert!(!out.iter().any(|l| l.starts_with("book ")));
    let squares: std::collections::HashSet<Square> =
        hints.iter().map(|h| square_of(&h[7..])).collect();
    assert_eq!(squares.len(), hints.len());
    let values: Vec<f32> = hints
        .iter()
        .map(|h| h.split(' ').nth(2).unwrap().parse().unwrap())
        .collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
}
