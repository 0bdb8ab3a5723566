//! Export files (SPEC §2): a readable record of a round and its GGF form.

use crate::table::{side, Table};
use app::protocol::{EndReason, TableMode};
use engine::{Color, GameEvent, GgfInfo};
use std::fmt::Write;

fn players(mode: TableMode) -> (String, String) {
    match mode {
        TableMode::VsAi { depth, human } => {
            let ai = format!("AI (depth {depth})");
            match human {
                app::protocol::Side::Black => ("Player".into(), ai),
                app::protocol::Side::White => (ai, "Player".into()),
            }
        }
        TableMode::HotSeat | TableMode::Online { .. } => {
            ("Black player".into(), "White player".into())
        }
    }
}

/// `Opening: Tiger` (or that no named opening was played), from the
/// opening list matched under the board's symmetries.
pub fn opening_line(moves: &[engine::Square]) -> String {
    let squares: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
    match app::openings::name_of_squares(&squares) {
        Some(named) => format!("Opening: {} (first {} moves)", named.name, named.plies),
        None => "Opening: not a named opening".to_string(),
    }
}

/// The text export of the current round.
pub fn text(id: &str, table: &Table) -> String {
    let game = table.game();
    let (black, white) = players(table.mode());
    let mut out = String::new();
    let _ = writeln!(out, "Othello 3D — table {id}, round {}", table.round());
    let _ = writeln!(out, "Mode: {}", table.mode().describe());
    let _ = writeln!(out, "Black (X): {black}\nWhite (O): {white}");
    let _ = writeln!(out, "{}\n", opening_line(&game.moves()));
    let _ = writeln!(out, "Start position:\n{}", game.start().to_text_board());
    let positions = game.positions();
    let mut ply = 0;
    for (event, position) in game.events().iter().zip(positions.iter()) {
        match *event {
            GameEvent::Move {
                color,
                square,
                flipped,
            } => {
                ply += 1;
                let flipped_names: Vec<String> = flipped.iter().map(|s| s.to_string()).collect();
                let _ = writeln!(
                    out,
                    "{ply}. {} {square} — flips {} ({}); black {}, white {}",
                    side(color).name(),
                    flipped.count(),
                    flipped_names.join(" "),
                    position.count(Color::Black),
                    position.count(Color::White)
                );
                let _ = writeln!(out, "{}", position.to_text_board());
            }
            GameEvent::Pass { color } => {
                let _ = writeln!(
                    out,
                    "   {} has no legal move and passes.\n",
                    side(color).name()
                );
            }
        }
    }
    let position = game.position();
    let result = match table.outcome() {
        Some(outcome) => {
            let score = format!(
                "{}–{}",
                position.count(Color::Black),
                position.count(Color::White)
            );
            match (outcome.winner, outcome.reason) {
                (Some(w), EndReason::Resigned) => {
                    format!(
                        "{} resigned; {} wins (discs {score})",
                        w.opponent().name(),
                        w.name()
                    )
                }
                (Some(w), EndReason::Finished) => format!("{} wins {score}", w.name()),
                (Some(w), EndReason::Timeout) => format!(
                    "{} did not return in time; {} wins (discs {score})",
                    w.opponent().name(),
                    w.name()
                ),
                (_, EndReason::Abandoned) => format!("Abandoned by both players (discs {score})"),
                (None, _) => format!("Draw {score}"),
            }
        }
        None => format!(
            "In progress: {} to move (black {}, white {})",
            side(position.side_to_move).name(),
            position.count(Color::Black),
            position.count(Color::White)
        ),
    };
    let tally = table.tally();
    let _ = writeln!(out, "Result: {result}");
    let _ = writeln!(
        out,
        "Tally at this table: black {} wins, white {} wins, {} draws",
        tally.black_wins, tally.white_wins, tally.draws
    );
    let _ = writeln!(out, "\nTranscript: {}", game.transcript());
    let _ = writeln!(out, "\nGGF:\n{}", ggf(table));
    out
}

/// The GGF record of the current round.
pub fn ggf(table: &Table) -> String {
    let (black, white) = players(table.mode());
    let result = table.outcome().and_then(|o| match (o.winner, o.reason) {
        (Some(w), EndReason::Resigned) => Some(match w {
            app::protocol::Side::Black => "+64.000:r".to_string(),
            app::protocol::Side::White => "-64.000:r".to_string(),
        }),
        _ => None,
    });
    let info = GgfInfo {
        place: "Othello 3D".into(),
        date: String::new(),
        black,
        white,
        time: String::new(),
        result,
    };
    table.game().to_ggf(&info)
}
