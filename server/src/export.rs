//! Export files (docs/PRODUCT.md, Exports): a readable record of every round
//! of a table and their GGF form.

use crate::table::{side, Outcome, Table};
use app::i18n::{side_name, Lang};
use app::protocol::{EndReason, TableMode};
use app::t;
use engine::{Color, Game, GameEvent, GgfInfo};
use std::fmt::Write;

fn players(mode: TableMode) -> (String, String) {
    players_in(Lang::En, mode)
}

fn players_in(lang: Lang, mode: TableMode) -> (String, String) {
    match mode {
        TableMode::VsAi { depth, human } => {
            let ai = if depth == app::protocol::STRONGEST {
                t!(lang, "export-ai-strongest")
            } else {
                t!(lang, "export-ai", depth = depth)
            };
            let player = t!(lang, "export-player");
            match human {
                app::protocol::Side::Black => (player, ai),
                app::protocol::Side::White => (ai, player),
            }
        }
        TableMode::HotSeat | TableMode::Online { .. } => (
            t!(lang, "export-black-player"),
            t!(lang, "export-white-player"),
        ),
    }
}

/// `Opening: Tiger` (or that no named opening was played), from the
/// opening list matched under the board's symmetries.
pub fn opening_line(moves: &[engine::Square]) -> String {
    opening_line_in(app::i18n::Lang::En, moves)
}

/// [`opening_line`] in `lang`.
pub fn opening_line_in(lang: app::i18n::Lang, moves: &[engine::Square]) -> String {
    let squares: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
    match app::openings::name_of_squares(&squares) {
        Some(named) => app::t!(
            lang,
            "export-opening",
            name = app::openings::name_in(lang, &named.name),
            plies = named.plies
        ),
        None => app::t!(lang, "export-no-opening"),
    }
}

/// The time each placement used, per round (index: round − 1), in
/// milliseconds (None: untimed). Passes are not listed: they cost nothing.
pub type MoveTimes = [Vec<Option<i64>>];

fn time_of(times: &MoveTimes, round: u32, placement: usize) -> Option<i64> {
    times
        .get((round as usize).checked_sub(1)?)?
        .get(placement)
        .copied()
        .flatten()
}

/// One round for the export: its number, game and result (None: in progress).
struct RoundRef<'a> {
    round: u32,
    game: &'a Game,
    outcome: Option<Outcome>,
}

fn rounds(table: &Table) -> Vec<RoundRef<'_>> {
    let mut all: Vec<RoundRef<'_>> = table
        .past_rounds()
        .iter()
        .map(|past| RoundRef {
            round: past.round,
            game: &past.game,
            outcome: Some(past.outcome),
        })
        .collect();
    all.push(RoundRef {
        round: table.round(),
        game: table.game(),
        outcome: table.outcome(),
    });
    all
}

fn result_text(lang: Lang, game: &Game, outcome: Option<Outcome>) -> String {
    let position = game.position();
    let score = format!(
        "{}–{}",
        position.count(Color::Black),
        position.count(Color::White)
    );
    match outcome {
        Some(outcome) => match (outcome.winner, outcome.reason) {
            (Some(w), EndReason::Resigned) => {
                t!(lang, "export-resigned", winner = w.name(), score = score)
            }
            (Some(w), EndReason::Finished) => {
                t!(lang, "srv-result-win", side = w.name(), score = score)
            }
            (Some(w), EndReason::Timeout) => {
                t!(lang, "export-timeout", winner = w.name(), score = score)
            }
            (_, EndReason::Abandoned) => t!(lang, "export-abandoned", score = score),
            (_, EndReason::Aborted) => t!(lang, "export-aborted", score = score),
            (Some(w), EndReason::Forfeit) => {
                t!(lang, "export-forfeit", winner = w.name(), score = score)
            }
            (None, EndReason::Forfeit) => t!(lang, "export-forfeit-both", score = score),
            (Some(w), EndReason::Time) => {
                t!(lang, "export-time", winner = w.name(), score = score)
            }
            (None, _) => t!(lang, "srv-result-draw", score = score),
        },
        None => t!(
            lang,
            "export-in-progress",
            side = side(position.side_to_move).name(),
            black = position.count(Color::Black),
            white = position.count(Color::White)
        ),
    }
}

/// Rounds the text export writes out in full: the last ones (a table plays
/// up to [`crate::table::MAX_ROUNDS`]); the GGF records at its end have
/// every round.
pub const TEXT_EXPORT_ROUNDS: usize = 50;

/// The text export of a table: every round in order (start position, every
/// move with the board after it, every pass, the result, the transcript),
/// then the tally and the GGF of every round.
pub fn text(id: &str, table: &Table, times: &MoveTimes) -> String {
    text_in(Lang::En, id, table, times)
}

/// [`text`] in `lang` (the language of the page that asks for it); the GGF
/// records at the end stay as the format wants them.
pub fn text_in(lang: Lang, id: &str, table: &Table, times: &MoveTimes) -> String {
    let (black, white) = players_in(lang, table.mode());
    let all = rounds(table);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        t!(lang, "export-table-title", id = id, rounds = all.len())
    );
    let _ = writeln!(
        out,
        "{}",
        t!(
            lang,
            "export-mode",
            mode = app::i18n::mode_text(lang, &table.mode())
        )
    );
    let _ = writeln!(
        out,
        "{}",
        t!(lang, "export-players", black = black, white = white)
    );
    let omitted = all.len().saturating_sub(TEXT_EXPORT_ROUNDS);
    if omitted > 0 {
        let _ = writeln!(
            out,
            "\n{}",
            t!(lang, "export-rounds-omitted", last = omitted)
        );
    }
    for round in &all[omitted..] {
        let _ = writeln!(out, "\n{}\n", t!(lang, "export-round", round = round.round));
        write_round(lang, &mut out, round, times);
    }
    let tally = table.tally();
    let _ = writeln!(
        out,
        "\n{}",
        t!(
            lang,
            "export-tally",
            black = tally.black_wins,
            white = tally.white_wins,
            draws = tally.draws
        )
    );
    let _ = writeln!(out, "\n{}\n{}", t!(lang, "export-ggf"), ggf(table, times));
    out
}

/// One round of a text export: its opening, the start, every move with the
/// board after it and the time it took, every pass, the result and the
/// transcript.
fn write_round(lang: Lang, out: &mut String, round: &RoundRef<'_>, times: &MoveTimes) {
    let game = round.game;
    let _ = writeln!(out, "{}\n", opening_line_in(lang, &game.moves()));
    let _ = writeln!(
        out,
        "{}\n{}",
        t!(lang, "export-start"),
        game.start().to_text_board()
    );
    let positions = game.positions();
    let mut ply = 0;
    for (event, position) in game.events().iter().zip(positions.iter()) {
        match *event {
            GameEvent::Move {
                color,
                square,
                flipped,
            } => {
                let used = time_of(times, round.round, ply);
                ply += 1;
                let flipped_names: Vec<String> = flipped.iter().map(|s| s.to_string()).collect();
                let line = t!(
                    lang,
                    "export-move",
                    ply = ply,
                    side = side_name(lang, side(color)),
                    square = square.to_string(),
                    count = flipped.count(),
                    list = flipped_names.join(" "),
                    black = position.count(Color::Black),
                    white = position.count(Color::White)
                );
                let time = used.map_or(String::new(), |ms| {
                    t!(
                        lang,
                        "export-time-used",
                        seconds = format!("{:.2}", ms as f64 / 1000.0)
                    )
                });
                let _ = writeln!(out, "{line}{time}");
                let _ = writeln!(out, "{}", position.to_text_board());
            }
            GameEvent::Pass { color } => {
                let _ = writeln!(
                    out,
                    "   {}\n",
                    t!(lang, "lab-pass", side = side(color).name())
                );
            }
        }
    }
    let _ = writeln!(
        out,
        "{}",
        t!(
            lang,
            "export-round-result",
            round = round.round,
            result = result_text(lang, game, round.outcome)
        )
    );
    let _ = writeln!(
        out,
        "{}",
        t!(lang, "export-transcript", moves = game.transcript())
    );
}

/// The text export of one archived game (`/game/<id>/export.txt`): its
/// players, the round as a table's export writes it, and its GGF.
pub fn archived_text(
    lang: Lang,
    id: &str,
    mode: TableMode,
    players: (&str, &str),
    game: &Game,
    outcome: Outcome,
    times: &[Option<i64>],
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", t!(lang, "export-game-title", id = id));
    let _ = writeln!(
        out,
        "{}",
        t!(
            lang,
            "export-mode",
            mode = app::i18n::mode_text(lang, &mode)
        )
    );
    let _ = writeln!(
        out,
        "{}\n",
        t!(lang, "export-players", black = players.0, white = players.1)
    );
    let round = RoundRef {
        round: 1,
        game,
        outcome: Some(outcome),
    };
    write_round(lang, &mut out, &round, &[times.to_vec()]);
    out
}

/// GGF's `RE` for a round that did not end on the board (a resignation, a
/// player gone, a flag, a forfeit: the winner takes all, `:r`; abandoned,
/// aborted or both forfeited: unknown);
/// `None` lets GGF compute it from the final board.
pub fn ggf_result(winner: Option<app::protocol::Side>, reason: EndReason) -> Option<String> {
    match (winner, reason) {
        (
            Some(w),
            EndReason::Resigned | EndReason::Timeout | EndReason::Time | EndReason::Forfeit,
        ) => Some(match w {
            app::protocol::Side::Black => "+64.000:r".to_string(),
            app::protocol::Side::White => "-64.000:r".to_string(),
        }),
        (_, EndReason::Abandoned | EndReason::Aborted | EndReason::Forfeit) => {
            Some("?".to_string())
        }
        _ => None,
    }
}

fn ggf_round(mode: TableMode, round: &RoundRef<'_>, times: &MoveTimes) -> String {
    let (black, white) = players(mode);
    let result = round.outcome.and_then(|o| ggf_result(o.winner, o.reason));
    let control = match mode {
        TableMode::Online { time: Some(c), .. } => Some(c),
        _ => None,
    };
    let info = GgfInfo {
        place: "Othello 3D".into(),
        date: String::new(),
        black,
        white,
        // GGF clock: main time / increment, as mm:ss.
        time: control.map_or(String::new(), |c| {
            format!(
                "{:02}:{:02}/{:02}:{:02}",
                c.base_s / 60,
                c.base_s % 60,
                c.increment_s / 60,
                c.increment_s % 60
            )
        }),
        result,
        kind: None,
        comment: None,
    };
    let record = round.game.to_ggf(&info);
    if control.is_none() {
        return record;
    }
    // A timed round: every placement carries the time it used in GGF's move
    // field `square/eval/time` (seconds; no evaluation), e.g. `B[F5//1.23]`.
    let Some(board_at) = record.find("BO[") else {
        return record;
    };
    let Some(moves_at) = record[board_at..].find(']').map(|i| board_at + i + 1) else {
        return record;
    };
    let mut out = record[..moves_at].to_string();
    let mut placement = 0;
    for event in round.game.events() {
        let (color, text) = match event {
            GameEvent::Move { color, square, .. } => {
                let used = time_of(times, round.round, placement);
                placement += 1;
                let time = used.map_or(String::new(), |ms| format!("//{:.2}", ms as f64 / 1000.0));
                (*color, format!("{}{time}", square.to_upper()))
            }
            GameEvent::Pass { color } => (*color, "PA".to_string()),
        };
        out.push_str(match color {
            Color::Black => "B[",
            Color::White => "W[",
        });
        out.push_str(&text);
        out.push(']');
    }
    out.push_str(";)");
    out
}

/// The GGF records of every round of the table, one game per line, in order.
pub fn ggf(table: &Table, times: &MoveTimes) -> String {
    rounds(table)
        .iter()
        .map(|round| ggf_round(table.mode(), round, times))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Command;
    use app::protocol::Side;

    fn vote_both(table: &mut Table) {
        for side in [Side::Black, Side::White] {
            table
                .apply(Command::Vote { side, vote: true })
                .expect("vote");
        }
    }

    #[test]
    fn every_round_is_exported_in_order_with_the_tally_after() {
        let mut table = Table::new(TableMode::HotSeat);
        for (side, name) in [(Side::Black, "f5"), (Side::White, "f6")] {
            table
                .apply(Command::Place {
                    side,
                    square: name.parse().expect("square"),
                })
                .expect("move");
        }
        table
            .apply(Command::Resign { side: Side::White })
            .expect("resign");
        vote_both(&mut table);
        table
            .apply(Command::Place {
                side: Side::Black,
                square: "d3".parse().expect("square"),
            })
            .expect("move");
        table
            .apply(Command::Resign { side: Side::Black })
            .expect("resign");
        vote_both(&mut table);
        let text = text("t1", &table, &[]);
        let r1 = text.find("=== Round 1 ===").expect("round 1");
        let r2 = text.find("=== Round 2 ===").expect("round 2");
        let r3 = text.find("=== Round 3 ===").expect("round 3");
        let tally = text
            .find("Tally at this table: 1 win for Black, 1 win for White, 0 draws")
            .expect("tally");
        assert!(r1 < r2 && r2 < r3 && r3 < tally, "{text}");
        let round1 = &text[r1..r2];
        assert!(round1.contains("1. Black f5"), "{round1}");
        assert!(round1.contains("2. White f6"), "{round1}");
        assert!(
            round1.contains("Result of round 1: White resigned; Black wins"),
            "{round1}"
        );
        let round2 = &text[r2..r3];
        assert!(round2.contains("1. Black d3"), "{round2}");
        assert!(
            round2.contains("Result of round 2: Black resigned; White wins"),
            "{round2}"
        );
        assert!(text[r3..].contains("Result of round 3: In progress"));
        let games = ggf(&table, &[]);
        let lines: Vec<&str> = games.lines().collect();
        assert_eq!(lines.len(), 3, "{games}");
        assert!(lines[0].contains("B[F5]W[F6]") && lines[0].contains("RE[+64.000:r]"));
        assert!(lines[1].contains("B[D3]") && lines[1].contains("RE[-64.000:r]"));
        assert!(
            !lines[2].contains("]B["),
            "round 3 has no move yet: {}",
            lines[2]
        );
    }
}

#[cfg(test)]
mod timed_tests {
    use super::*;
    use crate::table::Command;
    use app::protocol::{Side, TimeControl};

    #[test]
    fn a_timed_round_exports_its_control_and_the_time_of_every_move() {
        let mode = TableMode::Online {
            private: true,
            time: Some(TimeControl {
                base_s: 180,
                increment_s: 2,
            }),
            rated: false,
            tournament: false,
        };
        let mut table = Table::new(mode);
        for (side, name) in [(Side::Black, "f5"), (Side::White, "f6")] {
            table
                .apply(Command::Place {
                    side,
                    square: name.parse().expect("square"),
                })
                .expect("move");
        }
        table
            .apply(Command::Flag { side: Side::Black })
            .expect("flag");
        let times = vec![vec![Some(1_230), Some(45_000)]];
        let games = ggf(&table, &times);
        assert!(games.contains("TI[03:00/00:02]"), "{games}");
        assert!(games.contains("B[F5//1.23]W[F6//45.00];)"), "{games}");
        assert!(games.contains("RE[-64.000:r]"), "{games}");
        let text = text("t", &table, &times);
        assert!(text.contains("Mode: Online: private table, 3+2"), "{text}");
        assert!(text.contains("time used 1.23 s"), "{text}");
        assert!(
            text.contains("Black ran out of time; White wins on time"),
            "{text}"
        );
    }

    #[test]
    fn the_text_export_of_a_table_at_the_round_cap_stays_bounded() {
        use crate::table::{Command, MAX_ROUNDS};
        use app::protocol::Side;
        let mut table = Table::new(TableMode::HotSeat);
        while table.round() < MAX_ROUNDS {
            table
                .apply(Command::Resign { side: Side::Black })
                .expect("resign");
            for side in [Side::Black, Side::White] {
                table
                    .apply(Command::Vote { side, vote: true })
                    .expect("rematch");
            }
        }
        let text = text("t", &table, &[]);
        let omitted = MAX_ROUNDS as usize - TEXT_EXPORT_ROUNDS;
        assert!(
            text.contains(&format!(
                "Rounds 1 to {omitted} are not written out here; the GGF records at the end have every round."
            )),
            "{}",
            &text[..400]
        );
        assert!(!text.contains("=== Round 1 ==="));
        assert!(text.contains(&format!("=== Round {} ===", omitted + 1)));
        assert!(text.contains(&format!("=== Round {MAX_ROUNDS} ===")));
        // Every round in the GGF part.
        assert_eq!(text.matches("(;GM[Othello]").count(), MAX_ROUNDS as usize);
        assert!(text.len() < 1_000_000, "{} bytes", text.len());
    }
}
