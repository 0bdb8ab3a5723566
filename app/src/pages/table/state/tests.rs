//! The table page's decisions, tested on real views.

use super::*;
use crate::protocol::{SeatView, Seats, Votes};
use crate::ratings::SeatTag;

fn table(mode: TableMode, you: &[Side]) -> TableView {
    let mut board = BoardSnapshot::empty();
    board.cells = crate::protocol::start_cells();
    board.legal = vec![19, 26, 37, 44];
    board.version = 3;
    TableView {
        id: crate::ids::TableId::new("t1"),
        mode,
        round: 1,
        board,
        status: RoundStatus::Playing {
            to_move: Side::Black,
        },
        black_count: 2,
        white_count: 2,
        history: Vec::new(),
        tally: Default::default(),
        votes: Votes::default(),
        ai_thinking: false,
        notice: None,
        you: you.to_vec(),
        seats: None,
        ai_search: None,
        clocks: None,
        start: Vec::new(),
        berserk: Vec::new(),
    }
}

fn online() -> TableMode {
    TableMode::Online {
        private: true,
        time: None,
        rated: false,
        tournament: false,
    }
}

fn vs_ai(human: Side) -> TableMode {
    TableMode::VsAi { depth: 3, human }
}

fn over(winner: Option<Side>, reason: EndReason) -> RoundStatus {
    RoundStatus::Over { winner, reason }
}

fn seat(taken: bool, grace_left: Option<u32>) -> SeatView {
    SeatView {
        taken,
        connected: grace_left.is_none(),
        grace_left,
    }
}

fn entry(side: Side, square: Option<&str>) -> HistoryEntry {
    HistoryEntry {
        side,
        square: square.map(String::from),
        flipped: 1,
    }
}

#[test]
fn an_older_view_is_dropped_and_a_broadcast_keeps_the_seats() {
    let current = table(online(), &[Side::White]);
    let mut old = table(online(), &[]);
    old.board.version = 2;
    assert_eq!(merged(&current, old), None);
    let mut broadcast = table(online(), &[]);
    broadcast.board.version = 4;
    broadcast.round = 2;
    let kept = merged(&current, broadcast).unwrap();
    assert_eq!(kept.you, vec![Side::White]);
    assert_eq!((kept.round, kept.board.version), (2, 4));
    let mine = merged(&current, table(online(), &[Side::Black])).unwrap();
    assert_eq!(mine.you, vec![Side::Black], "the same version is taken");
}

#[test]
fn the_board_shows_legal_moves_only_on_the_viewers_turn_and_a_review_as_is() {
    let mut v = table(vs_ai(Side::Black), &[Side::Black]);
    assert_eq!(shown_board(&v, None).legal, vec![19, 26, 37, 44]);
    v.ai_thinking = true;
    assert!(shown_board(&v, None).legal.is_empty());
    v.ai_thinking = false;
    v.board.flipped = vec![28];
    let reviewed = shown_board(&v, Some((vec![1; 64], Some(19))));
    assert_eq!(reviewed.cells, vec![1; 64]);
    assert_eq!(reviewed.last_move, Some(19));
    assert!(reviewed.flipped.is_empty() && reviewed.legal.is_empty());
    assert_eq!(reviewed.version, 3, "the game's version: no new move");
    let spectator = table(vs_ai(Side::Black), &[]);
    assert!(shown_board(&spectator, None).legal.is_empty());
}

#[test]
fn presence_tells_free_seats_and_counts_a_grace_down() {
    let mut v = table(online(), &[Side::Black]);
    assert_eq!(presence(Lang::En, &v, || 0), None, "no seats: not online");
    v.seats = Some(Seats {
        black: seat(true, None),
        white: seat(false, None),
    });
    assert_eq!(
        presence(Lang::En, &v, || panic!("no grace, no clock")),
        Some("White seat is free.".into())
    );
    v.seats = Some(Seats {
        black: seat(true, Some(30)),
        white: seat(true, Some(10)),
    });
    assert_eq!(
        presence(Lang::En, &v, || 12).unwrap(),
        "You left the table: 18 s to come back before losing. \
         White left the table: 0 s to come back before losing."
    );
    assert_eq!(
        presence(Lang::En, &v, || 0).unwrap(),
        "You left the table: 30 s to come back before losing. \
         White left the table: 10 s to come back before losing."
    );
}

#[test]
fn a_spectator_may_take_a_free_seat_of_an_online_table_only() {
    let mut v = table(online(), &[]);
    v.seats = Some(Seats {
        black: seat(true, None),
        white: seat(false, None),
    });
    assert_eq!(free_seat(&v), Some(Side::White));
    assert!(waiting_for_opponent(&v));
    v.you = vec![Side::Black];
    assert_eq!(free_seat(&v), None, "a player takes no second seat");
    v.you.clear();
    v.seats = Some(Seats {
        black: seat(true, None),
        white: seat(true, None),
    });
    assert_eq!(free_seat(&v), None);
    assert!(!waiting_for_opponent(&v));
    let hot = table(TableMode::HotSeat, &[]);
    assert_eq!(free_seat(&hot), None);
    assert!(!waiting_for_opponent(&hot));
}

#[test]
fn the_pass_log_lists_the_passers_of_the_round() {
    let mut v = table(TableMode::HotSeat, &[Side::Black, Side::White]);
    v.round = 2;
    v.history = vec![
        entry(Side::Black, Some("d3")),
        entry(Side::White, None),
        entry(Side::Black, None),
    ];
    assert_eq!(
        pass_log(&v),
        PassLog {
            round: 2,
            passers: vec![Side::White, Side::Black]
        }
    );
    assert_eq!(placement_numbers(&v.history), vec![1]);
}

#[test]
fn the_turn_line_says_whose_move_and_the_result_for_the_viewer() {
    let mut v = table(vs_ai(Side::Black), &[Side::Black]);
    let unrated = |_| None;
    assert_eq!(turn_text(Lang::En, &v, unrated), "Your move (Black)");
    v.status = RoundStatus::Playing {
        to_move: Side::White,
    };
    v.ai_thinking = true;
    assert_eq!(turn_text(Lang::En, &v, unrated), "White (AI) is thinking…");
    v.ai_thinking = false;
    assert_eq!(
        turn_text(Lang::En, &v, unrated),
        "White (AI) is waiting: the AI is busy"
    );
    let hot = table(TableMode::HotSeat, &[Side::Black, Side::White]);
    assert_eq!(turn_text(Lang::En, &hot, unrated), "Black to move");
    v.status = over(Some(Side::Black), EndReason::Finished);
    assert_eq!(turn_text(Lang::En, &v, unrated), "You won: Black wins");
    v.status = over(Some(Side::White), EndReason::Resigned);
    assert_eq!(
        turn_text(Lang::En, &v, unrated),
        "You lost: White wins by resignation"
    );
    let rating = ShownRating {
        rating: 1512,
        provisional: false,
    };
    assert_eq!(
        turn_text(Lang::En, &v, |me| (me == Side::Black)
            .then_some((rating, -8))),
        "You lost: White wins by resignation · rating 1512 (−8)"
    );
    let mut watched = table(online(), &[]);
    watched.status = over(None, EndReason::Finished);
    assert_eq!(
        turn_text(Lang::En, &watched, |_| panic!("not seated")),
        "Draw"
    );
    watched.status = over(Some(Side::Black), EndReason::Abandoned);
    assert_eq!(
        turn_text(Lang::En, &watched, unrated),
        "Abandoned: nobody wins"
    );
}

#[test]
fn a_rated_change_is_read_from_the_viewers_seat_of_a_rated_table() {
    let tag = |rating, change| SeatTag {
        name: None,
        rating: Some(ShownRating {
            rating,
            provisional: false,
        }),
        change: Some(change),
        bot: false,
    };
    let mut players = PlayersView {
        black: tag(1500, 7),
        white: tag(1600, -7),
        rated: true,
        linked: false,
    };
    assert_eq!(
        rated_change(Some(&players), Side::White).map(|(r, c)| (r.rating, c)),
        Some((1600, -7))
    );
    assert_eq!(
        rated_change(Some(&players), Side::Black).map(|(r, c)| (r.rating, c)),
        Some((1500, 7))
    );
    players.rated = false;
    assert_eq!(rated_change(Some(&players), Side::Black), None);
    assert_eq!(rated_change(None, Side::Black), None);
}

#[test]
fn only_a_players_own_loss_is_not_celebrated() {
    let mut v = table(vs_ai(Side::Black), &[Side::Black]);
    assert!(celebrates(&v));
    v.status = over(Some(Side::White), EndReason::Finished);
    assert!(!celebrates(&v));
    v.status = over(Some(Side::Black), EndReason::Finished);
    assert!(celebrates(&v));
    v.status = over(None, EndReason::Finished);
    assert!(celebrates(&v));
    let mut hot = table(TableMode::HotSeat, &[Side::Black, Side::White]);
    hot.status = over(Some(Side::White), EndReason::Finished);
    assert!(celebrates(&hot), "both sides are the viewer's");
    assert_eq!(to_move_class(hot.status), "over");
    assert_eq!(to_move_class(v_playing(Side::White)), "white");
}

fn v_playing(to_move: Side) -> RoundStatus {
    RoundStatus::Playing { to_move }
}

#[test]
fn a_spectator_reads_a_player_where_a_player_reads_you() {
    let player = table(vs_ai(Side::White), &[Side::White]);
    let watcher = table(vs_ai(Side::White), &[]);
    assert_eq!(
        mode_line(Lang::En, &player),
        crate::i18n::mode_text(Lang::En, &player.mode)
    );
    assert_eq!(
        mode_line(Lang::En, &watcher),
        "A player (White) vs AI depth 3"
    );
    let strongest = table(
        TableMode::VsAi {
            depth: crate::protocol::STRONGEST,
            human: Side::Black,
        },
        &[],
    );
    assert_eq!(
        mode_line(Lang::En, &strongest),
        "A player (Black) vs the strongest AI"
    );
}

#[test]
fn resigning_waits_for_the_round_to_start_and_names_the_hot_seat_side() {
    let mut v = table(online(), &[Side::Black]);
    v.seats = Some(Seats {
        black: seat(true, None),
        white: seat(false, None),
    });
    assert!(!may_resign(&v), "waiting for an opponent");
    v.seats = Some(Seats {
        black: seat(true, None),
        white: seat(true, None),
    });
    assert!(may_resign(&v));
    assert_eq!(resign_question(Lang::En, &v), "Resign this game?");
    v.you.clear();
    assert!(!may_resign(&v), "a spectator");
    let mut hot = table(TableMode::HotSeat, &[Side::Black, Side::White]);
    hot.status = v_playing(Side::White);
    assert_eq!(resign_question(Lang::En, &hot), "Resign for White?");
    hot.status = over(None, EndReason::Finished);
    assert!(!may_resign(&hot));
}

#[test]
fn the_rematch_buttons_follow_the_mode_and_the_votes() {
    let mut v = table(online(), &[Side::White]);
    assert_eq!(rematch(&v), None, "the round is not over");
    v.status = over(Some(Side::White), EndReason::Finished);
    v.votes = Votes {
        black: true,
        white: false,
    };
    assert_eq!(
        rematch(&v),
        Some(Rematch::Online {
            mine: false,
            theirs: true
        })
    );
    v.you.clear();
    assert_eq!(rematch(&v), None, "a spectator votes not");
    let mut hot = table(TableMode::HotSeat, &[Side::Black, Side::White]);
    hot.status = over(None, EndReason::Finished);
    hot.votes.white = true;
    assert_eq!(
        rematch(&hot),
        Some(Rematch::HotSeat([
            (Side::Black, false),
            (Side::White, true)
        ]))
    );
    let mut ai = table(vs_ai(Side::Black), &[Side::Black]);
    ai.status = over(Some(Side::Black), EndReason::Finished);
    assert_eq!(rematch(&ai), Some(Rematch::Again));
    let mut game = table(
        TableMode::Online {
            private: true,
            time: Some(crate::protocol::TimeControl::PRESETS[0]),
            rated: true,
            tournament: true,
        },
        &[Side::Black],
    );
    assert!(!may_resign(&game), "nobody has moved: no resigning");
    game.history = vec![entry(Side::Black, Some("d3"))];
    assert!(may_resign(&game), "after the first disc");
    game.status = over(Some(Side::Black), EndReason::Time);
    assert!(is_tournament(&game));
    assert_eq!(rematch(&game), None, "a tournament pairs the next round");
}

#[test]
fn a_finished_round_with_a_placement_is_reviewable() {
    let mut v = table(vs_ai(Side::Black), &[Side::Black]);
    v.history = vec![entry(Side::Black, Some("d3"))];
    assert!(!reviewable(&v), "still playing");
    v.status = over(Some(Side::White), EndReason::Resigned);
    assert!(reviewable(&v));
    v.history = vec![entry(Side::Black, None)];
    assert!(!reviewable(&v), "passes only");
    assert_eq!(
        history_text(Lang::En, &entry(Side::White, Some("c4"))),
        "White c4 — flips 1"
    );
    assert_eq!(
        history_text(Lang::En, &entry(Side::White, None)),
        "White passes (no legal move)"
    );
}

#[test]
fn the_announced_notices_are_not_heard_twice() {
    let mut v = table(TableMode::HotSeat, &[Side::Black, Side::White]);
    assert_eq!(notice_heard(Lang::En, &v), None);
    let announced = crate::voice::ANNOUNCED_NOTICES[0];
    v.notice = Some(crate::i18n::Msg::new(announced));
    assert_eq!(notice_heard(Lang::En, &v), None);
    v.notice = Some(crate::msg!("srv-not-legal", square = "a1"));
    assert_eq!(
        notice_heard(Lang::En, &v),
        Some(crate::msg!("srv-not-legal", square = "a1").text(Lang::En))
    );
}

#[test]
fn berserk_is_offered_at_a_timed_tournament_game_before_the_first_disc_only() {
    let control = crate::protocol::TimeControl::PRESETS[0];
    let mut v = table(
        TableMode::Online {
            private: false,
            time: Some(control),
            rated: false,
            tournament: true,
        },
        &[Side::White],
    );
    v.clocks = Some(crate::protocol::Clocks {
        control,
        black_ms: 180_000,
        white_ms: 180_000,
        running: Some(Side::Black),
        server_ms: 0,
        first_move: None,
    });
    v.seats = Some(Seats {
        black: seat(true, None),
        white: seat(true, None),
    });
    assert!(may_berserk(&v));
    // Black's first disc does not matter to White.
    v.history.push(crate::protocol::HistoryEntry {
        side: Side::Black,
        square: Some("d3".into()),
        flipped: 1,
    });
    assert!(may_berserk(&v));
    let mut moved = v.clone();
    moved.history.push(crate::protocol::HistoryEntry {
        side: Side::White,
        square: Some("c3".into()),
        flipped: 1,
    });
    assert!(!may_berserk(&moved), "after White's first disc");
    let mut done = v.clone();
    done.berserk = vec![Side::White];
    assert!(!may_berserk(&done), "once");
    let mut watching = v.clone();
    watching.you.clear();
    assert!(!may_berserk(&watching), "a spectator");
    let mut casual = v.clone();
    casual.mode = online();
    assert!(!may_berserk(&casual), "not a tournament game");
    v.status = over(Some(Side::Black), EndReason::Resigned);
    assert!(!may_berserk(&v), "over");
}

#[test]
fn the_tab_title_says_your_move_only_to_the_one_seated_player_to_move() {
    let mut v = table(online(), &[Side::Black]);
    assert_eq!(tab_title(Lang::En, &v), "Your move (Black) · Othello 3D");
    assert_eq!(tab_title(Lang::El, &v), "Σειρά σου (Μαύρα) · Οθέλλο 3D");
    v.status = v_playing(Side::White);
    assert_eq!(
        tab_title(Lang::En, &v),
        "A game of Othello · Othello 3D",
        "the opponent's move"
    );
    v.status = over(Some(Side::Black), EndReason::Finished);
    assert_eq!(
        tab_title(Lang::En, &v),
        "A game of Othello · Othello 3D",
        "over"
    );
    // Nobody's own move: both seats (hot seat), no seat (a watcher).
    let hot = table(TableMode::HotSeat, &[Side::Black, Side::White]);
    assert_eq!(tab_title(Lang::En, &hot), "A game of Othello · Othello 3D");
    let watched = table(online(), &[]);
    assert_eq!(
        tab_title(Lang::En, &watched),
        "A game of Othello · Othello 3D"
    );
    // Against the AI: the player's turn, not the AI's.
    let mut ai = table(vs_ai(Side::White), &[Side::White]);
    ai.ai_thinking = true;
    assert_eq!(tab_title(Lang::En, &ai), "A game of Othello · Othello 3D");
    ai.ai_thinking = false;
    ai.status = v_playing(Side::White);
    assert_eq!(tab_title(Lang::En, &ai), "Your move (White) · Othello 3D");
}

#[test]
fn a_reviewed_entry_names_its_better_move_only_where_the_played_one_lost() {
    use crate::pages::analysis::tests::entry_at;
    let history = vec![
        entry(Side::Black, Some("d3")),
        entry(Side::White, None),
        entry(Side::Black, Some("c5")),
    ];
    let mut lost = entry_at(2, Side::Black, "c5", 6);
    lost.best = "f6".into();
    let analysis = crate::protocol::GameAnalysis {
        moves: vec![entry_at(1, Side::Black, "d3", 0), lost],
        depth: 3,
        exact_empties: 12,
        discs: true,
        worst: vec![2],
        opening: None,
        start: Vec::new(),
    };
    // Entry 3 of the list (after a pass) is the second placement.
    assert_eq!(
        better_move(&history, &analysis, 3),
        Some(("f6".to_string(), 6))
    );
    // The best move played, a pass, and an entry past the list: nothing.
    assert_eq!(better_move(&history, &analysis, 1), None);
    assert_eq!(better_move(&history, &analysis, 2), None);
    assert_eq!(better_move(&history, &analysis, 9), None);
}
