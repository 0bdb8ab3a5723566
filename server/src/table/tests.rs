//! The table's rules, one behaviour per test: turns, refusals, the end of
//! a round, votes, passes, starting positions.

use super::*;

fn sq(name: &str) -> Square {
    name.parse().expect("valid square")
}

fn place(table: &mut Table, side: Side, name: &str) -> Result<Vec<Event>, TableError> {
    table.apply(Command::Place {
        side,
        square: sq(name),
    })
}

#[test]
fn hot_seat_turns_alternate_and_out_of_turn_is_refused() {
    let mut table = Table::new(TableMode::HotSeat);
    assert_eq!(table.to_move(), Some(Side::Black));
    let err = place(&mut table, Side::White, "f5").unwrap_err();
    assert_eq!(
        err,
        TableError::NotYourTurn {
            to_move: Side::Black
        }
    );
    place(&mut table, Side::Black, "f5").expect("legal");
    assert_eq!(table.to_move(), Some(Side::White));
    place(&mut table, Side::White, "f6").expect("legal");
    assert_eq!(table.to_move(), Some(Side::Black));
}

#[test]
fn invalid_moves_are_refused_with_their_message_and_change_nothing() {
    let mut table = Table::new(TableMode::HotSeat);
    let before = table.view(&app::ids::TableId::new("t"), vec![], false);
    let taken = place(&mut table, Side::Black, "d4").unwrap_err();
    assert_eq!(taken.to_string(), "Square d4 is taken.");
    let no_flip = place(&mut table, Side::Black, "a1").unwrap_err();
    assert!(
        no_flip.to_string().contains("would flip nothing"),
        "{no_flip}"
    );
    assert_eq!(
        table.view(&app::ids::TableId::new("t"), vec![], false),
        before
    );
}

#[test]
fn resign_ends_the_round_once_and_counts_in_the_tally() {
    let mut table = Table::new(TableMode::HotSeat);
    let events = table
        .apply(Command::Resign { side: Side::Black })
        .expect("resign");
    assert_eq!(
        events.last(),
        Some(&Event::RoundOver {
            winner: Some(Side::White),
            reason: EndReason::Resigned
        })
    );
    assert_eq!(table.tally().white_wins, 1);
    assert_eq!(
        table.apply(Command::Resign { side: Side::White }),
        Err(TableError::GameOver)
    );
    assert_eq!(table.tally().white_wins, 1);
}

#[test]
fn hot_seat_rematch_needs_both_votes_and_keeps_the_tally() {
    let mut table = Table::new(TableMode::HotSeat);
    assert_eq!(
        table.apply(Command::Vote {
            side: Side::Black,
            vote: true
        }),
        Err(TableError::GameNotOver)
    );
    table
        .apply(Command::Resign { side: Side::White })
        .expect("resign");
    table
        .apply(Command::Vote {
            side: Side::Black,
            vote: true,
        })
        .expect("vote");
    assert_eq!(table.round(), 1);
    table
        .apply(Command::Vote {
            side: Side::Black,
            vote: false,
        })
        .expect("withdraw");
    table
        .apply(Command::Vote {
            side: Side::White,
            vote: true,
        })
        .expect("vote");
    assert_eq!(table.round(), 1, "black withdrew, so no rematch yet");
    let events = table
        .apply(Command::Vote {
            side: Side::Black,
            vote: true,
        })
        .expect("vote");
    assert!(events.contains(&Event::RematchStarted { round: 2 }));
    assert_eq!(table.round(), 2);
    assert_eq!(table.tally().black_wins, 1);
    assert_eq!(table.to_move(), Some(Side::Black));
    assert_eq!(table.game().moves().len(), 0);
}

#[test]
fn the_ai_accepts_a_rematch_at_once() {
    let mode = TableMode::VsAi {
        depth: 2,
        human: Side::White,
    };
    let mut table = Table::new(mode);
    assert!(
        table.ai_to_move(),
        "black (the AI) opens when the human plays white"
    );
    table
        .apply(Command::Resign { side: Side::White })
        .expect("resign");
    let events = table
        .apply(Command::Vote {
            side: Side::White,
            vote: true,
        })
        .expect("vote");
    assert!(events.contains(&Event::RematchStarted { round: 2 }));
    assert_eq!(table.mode(), mode, "colours and depth carry over");
    assert_eq!(table.tally().black_wins, 1);
}

#[test]
fn a_whole_game_ends_with_automatic_passes_and_one_tally_entry() {
    // Play greedily (first legal move) until the end.
    let mut table = Table::new(TableMode::HotSeat);
    let mut passes = 0;
    while let Some(to_move) = table.to_move() {
        let square = table
            .game()
            .position()
            .legal_moves()
            .first()
            .expect("a move");
        let events = table
            .apply(Command::Place {
                side: to_move,
                square,
            })
            .expect("legal");
        passes += events
            .iter()
            .filter(|e| matches!(e, Event::Passed { .. }))
            .count();
    }
    let tally = table.tally();
    assert_eq!(tally.black_wins + tally.white_wins + tally.draws, 1);
    let view = table.view(&app::ids::TableId::new("t"), vec![], false);
    assert_eq!(
        view.history.iter().filter(|h| h.square.is_none()).count(),
        passes
    );
    assert!(view.board.legal.is_empty());
    assert!(matches!(view.status, RoundStatus::Over { .. }));
}

#[test]
fn a_forfeit_counts_once_and_an_abandoned_round_counts_for_nobody() {
    let mut table = Table::new(TableMode::Online {
        private: true,
        time: None,
        rated: false,
        tournament: false,
    });
    table
        .apply(Command::Forfeit { side: Side::Black })
        .expect("forfeit");
    assert_eq!(table.tally().white_wins, 1);
    assert_eq!(
        table.apply(Command::Forfeit { side: Side::White }),
        Err(TableError::GameOver)
    );
    assert_eq!(table.tally().white_wins, 1);
    table
        .apply(Command::Vote {
            side: Side::Black,
            vote: true,
        })
        .expect("vote");
    table
        .apply(Command::Vote {
            side: Side::White,
            vote: true,
        })
        .expect("vote");
    table.apply(Command::Abandon).expect("abandon");
    let tally = table.tally();
    assert_eq!((tally.black_wins, tally.white_wins, tally.draws), (0, 1, 0));
    assert_eq!(table.outcome().map(|o| o.winner), Some(None));
}

/// Black to move with one move, c6, after which white must pass and black
/// plays again (a6); then white's only move, a7, fills the board. White
/// has no move in this position either.
const HUMAN_MUST_PASS: &str = "OOOOOOOXOOOOOOXXOOOOOXXXOOOOOOXXOOOOOOXX-O-OXOXX-XXXXXXXXXXXXXXX X";

#[test]
fn a_pass_notice_stays_until_the_passer_moves_again() {
    // The human plays white, the AI black: the human must pass.
    let start = playable_start(HUMAN_MUST_PASS).expect("playable");
    let mode = TableMode::VsAi {
        depth: 1,
        human: Side::White,
    };
    let mut table = Table::from_position(mode, start);
    assert!(table.ai_to_move());
    let events = place(&mut table, Side::Black, "c6").expect("the AI's move");
    assert!(events.contains(&Event::Passed { side: Side::White }));
    let notice = "White has no legal move and passes; Black plays again.";
    assert_eq!(
        table
            .view(&app::ids::TableId::new("t"), vec![], false)
            .notice
            .map(|n| n.to_string())
            .as_deref(),
        Some(notice)
    );
    // The AI moves again at once: the notice stays.
    let square = table
        .game()
        .position()
        .legal_moves()
        .first()
        .expect("a move");
    table
        .apply(Command::Place {
            side: Side::Black,
            square,
        })
        .expect("the AI's second move");
    let view = table.view(&app::ids::TableId::new("t"), vec![Side::White], false);
    assert_eq!(
        view.notice.as_ref().map(|n| n.to_string()).as_deref(),
        Some(notice)
    );
    assert_eq!(
        view.history.iter().filter(|h| h.square.is_none()).count(),
        1,
        "the move list shows the pass"
    );
    assert_eq!(
        view.status,
        RoundStatus::Playing {
            to_move: Side::White
        }
    );
    // The human's own next move clears it.
    let square = table
        .game()
        .position()
        .legal_moves()
        .first()
        .expect("a move");
    table
        .apply(Command::Place {
            side: Side::White,
            square,
        })
        .expect("the human's move");
    let notice = table
        .view(&app::ids::TableId::new("t"), vec![], false)
        .notice
        .unwrap_or_default()
        .to_string();
    assert!(!notice.contains("White has no legal move"), "{notice}");
}

#[test]
fn a_table_from_a_position_replays_it_in_every_round() {
    let start = playable_start(HUMAN_MUST_PASS).expect("playable");
    let mut table = Table::from_position(TableMode::HotSeat, start);
    assert_eq!(
        table
            .view(&app::ids::TableId::new("t"), vec![], false)
            .black_count,
        start.count(Color::Black) as u8
    );
    table
        .apply(Command::Resign { side: Side::White })
        .expect("resign");
    for side in [Side::Black, Side::White] {
        table
            .apply(Command::Vote { side, vote: true })
            .expect("vote");
    }
    assert_eq!(table.round(), 2);
    assert_eq!(*table.game().position(), start);
    assert_eq!(table.past_rounds().len(), 1);
    assert_eq!(table.past_rounds()[0].round, 1);
    // A start where the side to move must pass records the pass at once.
    let black_passes = HUMAN_MUST_PASS.replace(" X", " O");
    let start = playable_start(&black_passes).expect("playable");
    let table = Table::from_position(TableMode::HotSeat, start);
    let view = table.view(&app::ids::TableId::new("t"), vec![], false);
    assert_eq!(view.history.len(), 1);
    assert!(view
        .notice
        .unwrap_or_default()
        .to_string()
        .contains("White has no legal move"));
}

#[test]
fn malformed_or_impossible_positions_are_refused_with_a_reason() {
    assert!(playable_start("")
        .unwrap_err()
        .to_string()
        .contains("Paste a position"));
    assert!(playable_start("XO")
        .unwrap_err()
        .to_string()
        .contains("not a valid OBF"));
    let bad_char = format!("{}Z X", "-".repeat(63));
    assert!(playable_start(&bad_char)
        .unwrap_err()
        .to_string()
        .contains("not a valid OBF"));
    let no_side = "-".repeat(64);
    assert!(playable_start(&no_side)
        .unwrap_err()
        .to_string()
        .contains("not a valid OBF"));
    let empty = format!("{} X", "-".repeat(64));
    assert!(playable_start(&empty)
        .unwrap_err()
        .to_string()
        .contains("centre squares d4, e4, d5, e5 are empty"));
    let full = format!("{} X", "X".repeat(64));
    assert!(playable_start(&full)
        .unwrap_err()
        .to_string()
        .contains("already over"));
    assert!(playable_start(&"X".repeat(500))
        .unwrap_err()
        .to_string()
        .contains("too long"));
    let initial = Position::initial().to_obf();
    assert_eq!(playable_start(&initial), Ok(Position::initial()));
}

#[test]
fn a_pass_is_announced() {
    // Find a game from random-ish first moves where a pass happens.
    let mut found = false;
    for seed in 0..200u64 {
        let mut table = Table::new(TableMode::HotSeat);
        let mut state = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        while let Some(to_move) = table.to_move() {
            let moves: Vec<Square> = table.game().position().legal_moves().iter().collect();
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let square = moves[(state >> 33) as usize % moves.len()];
            let events = table
                .apply(Command::Place {
                    side: to_move,
                    square,
                })
                .expect("legal");
            if let Some(Event::Passed { side }) =
                events.iter().find(|e| matches!(e, Event::Passed { .. }))
            {
                let notice = table
                    .view(&app::ids::TableId::new("t"), vec![], false)
                    .notice
                    .unwrap_or_default()
                    .to_string();
                if table.to_move().is_some() {
                    assert!(
                        notice.contains(&format!("{} has no legal move", side.name())),
                        "{notice}"
                    );
                    assert_eq!(table.to_move(), Some(side.opponent()));
                    found = true;
                }
            }
        }
        if found {
            break;
        }
    }
    assert!(found, "some random game has a pass");
}

#[test]
fn the_version_grows_with_every_accepted_command_only() {
    let mut table = Table::new(TableMode::HotSeat);
    let first = table.version();
    assert_eq!(
        first,
        table
            .view(&app::ids::TableId::new("t"), vec![], false)
            .board
            .version
    );
    assert!(place(&mut table, Side::White, "f5").is_err());
    assert_eq!(table.version(), first, "a refusal changes nothing");
    place(&mut table, Side::Black, "f5").expect("black opens");
    assert!(table.version() > first);
    assert_eq!(
        table.version(),
        table
            .view(&app::ids::TableId::new("t"), vec![], false)
            .board
            .version
    );
}

#[test]
fn a_table_plays_at_most_max_rounds_then_asks_for_a_new_table() {
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
    assert_eq!(table.past_rounds().len() as u32, MAX_ROUNDS - 1);
    table
        .apply(Command::Resign { side: Side::White })
        .expect("the last round ends");
    let version = table.version();
    let refused = table
        .apply(Command::Vote {
            side: Side::Black,
            vote: true,
        })
        .expect_err("no round past the cap");
    assert_eq!(refused, TableError::RoundsSpent);
    assert_eq!(
        refused.to_string(),
        "This table has played all its rounds (500): start a new table to play on."
    );
    assert_eq!(table.version(), version, "a refusal changes nothing");
    // Withdrawing is still fine; the copy a command is applied to shares
    // the past rounds instead of copying them.
    let copy = table.clone();
    assert!(std::sync::Arc::ptr_eq(&copy.past, &table.past));
}

fn online(tournament: bool) -> Table {
    Table::new(TableMode::Online {
        private: false,
        time: Some(app::protocol::TimeControl::PRESETS[0]),
        rated: false,
        tournament,
    })
}

#[test]
fn a_missed_first_move_forfeits_a_tournament_game_and_aborts_another() {
    // A tournament's game: the absent side loses by forfeit.
    let mut table = online(true);
    let events = table
        .apply(Command::Flag { side: Side::Black })
        .expect("flag");
    assert_eq!(
        events,
        vec![Event::RoundOver {
            winner: Some(Side::White),
            reason: EndReason::Forfeit
        }]
    );
    assert_eq!(table.tally().white_wins, 1);
    // White's first move missed after black's: also a forfeit.
    let mut table = online(true);
    place(&mut table, Side::Black, "f5").expect("legal");
    let events = table
        .apply(Command::Flag { side: Side::White })
        .expect("flag");
    assert_eq!(
        events.last(),
        Some(&Event::RoundOver {
            winner: Some(Side::Black),
            reason: EndReason::Forfeit
        })
    );
    // Both absent: both lose, nobody's win or draw.
    let mut table = online(true);
    let events = table.apply(Command::Abandon).expect("abandon");
    assert_eq!(
        events,
        vec![Event::RoundOver {
            winner: None,
            reason: EndReason::Forfeit
        }]
    );
    assert_eq!(table.tally(), Tally::default());
    // Elsewhere the game is aborted: it counts for nobody.
    let mut table = online(false);
    let events = table
        .apply(Command::Flag { side: Side::Black })
        .expect("flag");
    assert_eq!(
        events,
        vec![Event::RoundOver {
            winner: None,
            reason: EndReason::Aborted
        }]
    );
    assert_eq!(table.tally(), Tally::default());
    // A side that has moved and runs out of time loses on time.
    let mut table = online(true);
    place(&mut table, Side::Black, "f5").expect("legal");
    place(&mut table, Side::White, "f6").expect("legal");
    let events = table
        .apply(Command::Flag { side: Side::Black })
        .expect("flag");
    assert_eq!(
        events.last(),
        Some(&Event::RoundOver {
            winner: Some(Side::White),
            reason: EndReason::Time
        })
    );
}

#[test]
fn a_tournament_game_cannot_be_resigned_before_anyone_moved() {
    let mut table = online(true);
    assert_eq!(
        table.apply(Command::Resign { side: Side::White }),
        Err(TableError::ResignBeforeFirstMove)
    );
    assert_eq!(table.outcome(), None);
    place(&mut table, Side::Black, "f5").expect("legal");
    table
        .apply(Command::Resign { side: Side::White })
        .expect("resign after a move");
    // Elsewhere a resignation before any move is taken (and archived as
    // aborted).
    let mut table = online(false);
    table
        .apply(Command::Resign { side: Side::White })
        .expect("resign");
}
