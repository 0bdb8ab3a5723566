//! The reproducible sample-games report (docs/PRODUCT.md).

use engine::{search, Color, Game, GameEvent, Position, Square};
use engine_cli::report::{json_string, Player, MIDDLE_MOVES, PUBLISHED, REPORT_FORMAT};
use engine_cli::{script_move, SampleEvent, SampleReport, REPORT_DEPTH};
use std::process::Command;

const COMMITTED_JSON: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/sample-games.json");
const COMMITTED_TEXT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/sample-games.txt");

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn board(text: &str, side: Color) -> Position {
    Position::from_text_board(text, side).unwrap()
}

#[test]
fn generating_twice_gives_identical_bytes() {
    let a = SampleReport::generate();
    let b = SampleReport::generate();
    assert_eq!(a, b);
    assert_eq!(a.to_json().as_bytes(), b.to_json().as_bytes());
    assert_eq!(a.to_text().as_bytes(), b.to_text().as_bytes());
    assert_eq!(a.depth, REPORT_DEPTH);
    assert_eq!(REPORT_DEPTH, 3);
}

#[test]
fn script_prefers_a_corner_over_a_larger_capture() {
    // a1 (corner) flips 1, a4 flips 3: the corner wins.
    let pos = board(
        "  A B C D E F G H
         1 . O X . . . . .
         2 . . . . . . . .
         3 . . . . . . . .
         4 . O O O X . . .
         5 . . . . . . . .
         6 . . . . . . . .
         7 . . . . . . . .
         8 . . . . . . . .",
        Color::Black,
    );
    assert_eq!(pos.flips(sq("a1")).count(), 1);
    assert_eq!(pos.flips(sq("a4")).count(), 3);
    assert_eq!(pos.legal_moves().count(), 2);
    assert_eq!(script_move(&pos), Some(sq("a1")));
}

#[test]
fn script_takes_the_corner_with_the_largest_capture() {
    // a1 flips 1, h8 flips 2: the larger corner capture wins over the lower index.
    let pos = board(
        "  A B C D E F G H
         1 . O X . . . . .
         2 . . . . . . . .
         3 . . . . . . . .
         4 . O O O X . . .
         5 . . . . . . . .
         6 . . . . . . . .
         7 . . . . . . . .
         8 . . . . X O O .",
        Color::Black,
    );
    assert_eq!(pos.flips(sq("a1")).count(), 1);
    assert_eq!(pos.flips(sq("h8")).count(), 2);
    assert_eq!(script_move(&pos), Some(sq("h8")));
}

#[test]
fn script_breaks_corner_ties_by_lowest_index() {
    // a1 and h1 both flip 1 (white to move): a1 (index 0) wins.
    let pos = board(
        "  A B C D E F G H
         1 . X O . . O X .
         2 . . . . . . . .
         3 . . . . . . . .
         4 . . . . . . . .
         5 . . . . . . . .
         6 . . . . . . . .
         7 . . . . . . . .
         8 . . . . . . . .",
        Color::White,
    );
    assert_eq!(pos.flips(sq("a1")).count(), 1);
    assert_eq!(pos.flips(sq("h1")).count(), 1);
    assert_eq!(script_move(&pos), Some(sq("a1")));
}

#[test]
fn script_takes_the_largest_capture_without_corners() {
    // b2 flips 1 (index 9), a4 flips 3 (index 24): the larger capture wins.
    let pos = board(
        "  A B C D E F G H
         1 . . . . . . . .
         2 . . O X . . . .
         3 . . . . . . . .
         4 . O O O X . . .
         5 . . . . . . . .
         6 . . . . . . . .
         7 . . . . . . . .
         8 . . . . . . . .",
        Color::Black,
    );
    assert_eq!(pos.flips(sq("b2")).count(), 1);
    assert_eq!(pos.flips(sq("a4")).count(), 3);
    assert!(pos
        .legal_moves()
        .iter()
        .all(|m| ![0, 7, 56, 63].contains(&m.index())));
    assert_eq!(script_move(&pos), Some(sq("a4")));
}

#[test]
fn script_breaks_capture_ties_by_lowest_index() {
    // a4 (index 24) and h6 (index 47) both flip 3, b2 flips 1: a4.
    let pos = board(
        "  A B C D E F G H
         1 . . . . . . . .
         2 . . O X . . . .
         3 . . . . . . . .
         4 . O O O X . . .
         5 . . . . . . . .
         6 . . . X O O O .
         7 . . . . . . . .
         8 . . . . . . . .",
        Color::Black,
    );
    assert_eq!(pos.flips(sq("a4")).count(), 3);
    assert_eq!(pos.flips(sq("h6")).count(), 3);
    assert_eq!(pos.flips(sq("b2")).count(), 1);
    assert_eq!(script_move(&pos), Some(sq("a4")));
    // From the initial position all four moves flip one disc: d3 is lowest.
    assert_eq!(script_move(&Position::initial()), Some(sq("d3")));
}

#[test]
fn script_has_no_move_when_it_cannot_play() {
    let pos = board(
        "  A B C D E F G H
         1 X X . . . . . .
         2 . . . . . . . .
         3 . . . . . . . .
         4 . . . . . . . .
         5 . . . . . . . .
         6 . . . . . . . .
         7 . . . . . . . .
         8 . . . . . . . .",
        Color::White,
    );
    assert_eq!(script_move(&pos), None);
}

#[test]
fn game_records_are_legal_and_consistent() {
    let report = SampleReport::generate();
    assert_eq!(report.games.len(), 2);
    assert_eq!(report.games[0].ai_color, Color::Black);
    assert_eq!(report.games[1].ai_color, Color::White);
    for game in &report.games {
        let replayed = Game::replay(&game.moves()).expect("every recorded move is legal");
        assert!(replayed.is_over());
        assert_eq!(*replayed.position(), game.final_position);
        assert_eq!(replayed.position().to_text_board(), game.end.board);
        assert_eq!(Some(game.result), replayed.result());
        assert_eq!(
            game.black_discs,
            replayed.position().count(Color::Black),
            "black discs"
        );
        assert_eq!(game.white_discs, replayed.position().count(Color::White));
        assert_eq!(replayed.transcript(), game.transcript);
        assert_eq!(game.start.board, Position::initial().to_text_board());

        // Event by event: same moves, flips and passes; each AI move is the
        // depth-3 search's choice and each script move the script's choice.
        assert_eq!(replayed.events().len(), game.events.len());
        let before: Vec<Position> = std::iter::once(*replayed.start())
            .chain(replayed.positions())
            .collect();
        let mut passes = 0;
        let mut nodes = 0;
        for (i, (ours, theirs)) in game.events.iter().zip(replayed.events()).enumerate() {
            let pos = before[i];
            match (*ours, *theirs) {
                (
                    SampleEvent::Move {
                        ply,
                        color,
                        player,
                        square,
                        flipped,
                        ai,
                        ..
                    },
                    GameEvent::Move {
                        color: c,
                        square: s,
                        flipped: f,
                    },
                ) => {
                    assert_eq!(ply, i + 1);
                    assert_eq!((color, square, flipped), (c, s, f.count()));
                    if color == game.ai_color {
                        assert_eq!(player, Player::Ai);
                        let r = search(&pos, REPORT_DEPTH);
                        assert_eq!(r.best_move, Some(square));
                        let info = ai.expect("AI moves carry the search figures");
                        assert_eq!((info.value, info.nodes), (r.value, r.nodes));
                        nodes += r.nodes;
                    } else {
                        assert_eq!(player, Player::Script);
                        assert_eq!(script_move(&pos), Some(square));
                        assert!(ai.is_none());
                    }
                }
                (SampleEvent::Pass { ply, color, .. }, GameEvent::Pass { color: c }) => {
                    assert_eq!(ply, i + 1);
                    assert_eq!(color, c);
                    passes += 1;
                }
                other => panic!("event {} differs: {other:?}", i + 1),
            }
        }
        assert_eq!(game.passes, passes);
        assert_eq!(game.ai_nodes, nodes);
        assert!(nodes > 0);

        // The middle board is the one after 24 placed discs.
        let n = game.move_count();
        assert_eq!(game.middle.moves, 24);
        let middle = Game::replay(&game.moves()[..24]).unwrap();
        assert_eq!(middle.position().to_text_board(), game.middle.board);
        assert_eq!(game.middle.ply, middle.events().len());
        assert_eq!(game.end.moves, n);
        assert_eq!(game.end.ply, game.events.len());
    }
}

#[test]
fn the_published_sample_games_are_reproduced() {
    // docs/PRODUCT.md, "Sample games and the report": the figures themselves.
    let report = SampleReport::generate();
    let figures: Vec<(Color, u32, u32, usize, u64)> = report
        .games
        .iter()
        .map(|g| {
            (
                g.ai_color,
                g.black_discs,
                g.white_discs,
                g.passes,
                g.ai_nodes,
            )
        })
        .collect();
    assert_eq!(
        figures,
        [
            (Color::Black, 48, 16, 3, 7_216),
            (Color::White, 7, 57, 6, 6_500),
        ]
    );
    let published: Vec<(Color, u32, u32, usize, u64)> = PUBLISHED
        .iter()
        .map(|p| (p.ai_color, p.black, p.white, p.passes, p.positions))
        .collect();
    assert_eq!(published, figures);
    assert!(report.matches_published());
    for (game, published) in report.games.iter().zip(&PUBLISHED) {
        assert_eq!(game.published_line(published).matches('✓').count(), 3);
        assert!(!game.published_line(published).contains('✗'));
        assert_eq!(game.middle.moves, MIDDLE_MOVES);
    }
    // A different AI (depth 2) does not reproduce them, and says so.
    let other = SampleReport::generate_at(2);
    assert!(!other.matches_published());
    assert!(other
        .games
        .iter()
        .zip(&PUBLISHED)
        .any(|(g, p)| g.published_line(p).contains('✗')));
}

#[test]
fn json_has_the_expected_shape() {
    let report = SampleReport::generate();
    let json = report.to_json();
    assert!(json.starts_with("{\n  \"format\": \""));
    assert!(json.contains(REPORT_FORMAT));
    assert!(json.ends_with("}\n"));
    assert!(json.contains("\"depth\": 3,"));
    for game in &report.games {
        assert!(json.contains(&format!("\"ai_positions_searched\": {},", game.ai_nodes)));
        assert!(json.contains(&json_string(&game.end.board)));
        assert!(json.contains(&json_string(&game.transcript)));
    }
    // Balanced brackets outside strings, no raw control characters.
    let (mut depth, mut in_string, mut escaped) = (0i32, false, false);
    for c in json.chars() {
        if in_string {
            assert!(u32::from(c) >= 0x20, "raw control character in a string");
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else {
            match c {
                '"' => in_string = true,
                '{' | '[' => depth += 1,
                '}' | ']' => depth -= 1,
                _ => {}
            }
            assert!(depth >= 0);
        }
    }
    assert_eq!(depth, 0);
    assert!(!in_string);
}

#[test]
fn json_strings_are_escaped() {
    assert_eq!(json_string("plain"), "\"plain\"");
    assert_eq!(
        json_string("a\"b\\c\nd\te\r\u{1}é"),
        "\"a\\\"b\\\\c\\nd\\te\\r\\u0001é\""
    );
}

#[test]
fn committed_report_matches_a_fresh_one() {
    let report = SampleReport::generate();
    let json = std::fs::read_to_string(COMMITTED_JSON).expect("docs/sample-games.json exists");
    assert!(
        json == report.to_json(),
        "docs/sample-games.json is stale: regenerate it with \
         `cargo run --release -p engine --bin othello -- report --out-dir docs`"
    );
    let text = std::fs::read_to_string(COMMITTED_TEXT).expect("docs/sample-games.txt exists");
    assert!(
        text == report.to_text(),
        "docs/sample-games.txt is stale: regenerate it with \
         `cargo run --release -p engine --bin othello -- report --out-dir docs`"
    );
}

#[test]
fn cli_report_writes_both_files_and_prints_summaries() {
    let dir = std::env::temp_dir().join(format!("othello-report-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["report", "--out-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = SampleReport::generate();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4);
    for (line, game) in lines.iter().zip(&report.games) {
        assert!(line.ends_with(&game.summary()), "{line}");
    }
    for (line, (game, published)) in lines[2..].iter().zip(report.games.iter().zip(&PUBLISHED)) {
        assert!(line.ends_with(&game.published_line(published)), "{line}");
        assert!(
            line.contains("positions searched 7216 = published ✓")
                || line.contains("positions searched 6500 = published ✓"),
            "{line}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("sample-games.json")).unwrap(),
        report.to_json()
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("sample-games.txt")).unwrap(),
        report.to_text()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cli_report_bad_arguments_print_usage_and_exit_2() {
    for args in [
        &["report", "--out-dir"][..],
        &["report", "--dir", "x"],
        &["report", "x"],
        &["report", "--out-dir", "a", "b"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_othello"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("usage:"));
        assert!(String::from_utf8_lossy(&out.stderr).contains("othello report"));
        assert!(out.stdout.is_empty());
    }
}
