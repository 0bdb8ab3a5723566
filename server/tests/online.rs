//! Online play end to end, with the server in process on a manual clock:
//! private links and the explicit "take the free seat", quick match, turns,
//! presence and grace periods, rematch votes, exports, restart mid-game.
//!
//! No test here sleeps to let time pass: grace periods move only when the
//! test advances the clock and ticks the hub. Waits are for events (a pushed
//! state, a socket message), bounded by a generous timeout.
//!
//! (Over 600 lines: every online rule end to end on one manual clock, sharing
//! the in-process server and the typed player helpers.)

use app::protocol::{
    EndReason, FirstMove, RoundStatus, SeatView, ServerMessage, Side, TableId, TableMode,
    TableView, Tally, TimeControl,
};
use serde_json::json;
use server::clock::ManualClock;
use server::config::Config;
use server::hub::Hub;
use server::store::TableStore;
use std::path::Path;
use std::sync::Arc;
use testclient::{my_side, Client, Refusal, Socket};

const GRACE_MS: i64 = 90_000;
/// How long a side of a timed game (not a tournament's) has for its first
/// move (`--first-move-secs`).
const FIRST_MOVE_MS: i64 = 30_000;

/// The server in process: its hub and the clock it reads.
struct Live {
    url: String,
    hub: Hub,
    clock: ManualClock,
    task: tokio::task::JoinHandle<()>,
}

impl Live {
    async fn start(database: &Path, clock: ManualClock) -> Live {
        Live::start_with(database, clock, false).await
    }

    /// As [`Live::start`]; `test_time_controls` is the test-only flag that
    /// accepts controls other than the presets.
    async fn start_with(database: &Path, clock: ManualClock, test_time_controls: bool) -> Live {
        let mut config = Config::for_tests(database.to_path_buf());
        config.grace_secs = (GRACE_MS / 1000) as u64;
        config.test_time_controls = test_time_controls;
        let state = server::prepare_with_clock(&config, Arc::new(clock.clone()))
            .await
            .expect("server state");
        let hub = state.hub.clone();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, server::routes::router(state)).await;
        });
        Live {
            url,
            hub,
            clock,
            task,
        }
    }

    /// Moves the clock on and lets the hub check every grace period.
    async fn advance(&self, ms: i64) {
        self.clock.advance(ms);
        self.hub.check_presence().await;
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A browser: the typed protocol client with one session cookie.
struct Player {
    client: Client,
}

impl Player {
    async fn new(live: &Live) -> Player {
        let session = live.hub.new_session().await.expect("session");
        Player {
            client: Client::with_token(&live.url, session.as_str()),
        }
    }

    /// The same browser (cookie) against another server.
    fn at(&self, live: &Live) -> Player {
        Player {
            client: Client::with_token(&live.url, &self.client.token().expect("token")),
        }
    }

    fn token(&self) -> String {
        self.client.token().expect("token")
    }

    async fn get(&self, path: &str) -> (u16, String) {
        self.client.get(path).await.expect("request")
    }

    async fn view(&self, table: &TableId) -> TableView {
        self.client.get_table(table).await.expect("get_table")
    }

    async fn take_seat(&self, table: &TableId) -> Result<TableView, Refusal> {
        self.client.take_seat(table).await
    }

    async fn play(&self, table: &TableId, square: u8) -> Result<TableView, Refusal> {
        self.client.play_move(table, square).await
    }

    async fn vote(&self, table: &TableId, vote: bool) -> Result<TableView, Refusal> {
        self.client.vote_rematch(table, None, vote).await
    }

    async fn resign(&self, table: &TableId) -> Result<TableView, Refusal> {
        self.client.resign(table, None).await
    }

    /// Opens a socket and waits for its first state: by then the server has
    /// counted the socket.
    async fn connect(&self, table: &TableId) -> Socket {
        self.client.connect(table).await.expect("socket opens").0
    }

    async fn socket(&self, path: &str) -> Socket {
        self.client.socket(path).await.expect("socket opens")
    }

    fn side(view: &TableView) -> Side {
        my_side(view).expect("one seat")
    }
}

/// The refusal of a call expected to be refused.
fn refused<T: std::fmt::Debug>(answer: Result<T, Refusal>) -> Refusal {
    answer.expect_err("refused")
}

/// Asserts a call was refused with `status` and a message containing `text`.
fn assert_refused<T: std::fmt::Debug>(answer: Result<T, Refusal>, status: u16, text: &str) {
    let refusal = refused(answer);
    assert_eq!(refusal.status, status, "{refusal}");
    assert!(refusal.message.contains(text), "{refusal}");
}

/// A seat as a view shows it.
fn seat(view: &TableView, side: Side) -> SeatView {
    view.seats.expect("an online table has seats").get(side)
}

fn playing(view: &TableView) -> bool {
    matches!(view.status, RoundStatus::Playing { .. })
}

fn to_move(view: &TableView) -> Option<Side> {
    match view.status {
        RoundStatus::Playing { to_move } => Some(to_move),
        RoundStatus::Over { .. } => None,
    }
}

/// The winner and the reason of a round that is over.
fn over(view: &TableView) -> (Option<Side>, EndReason) {
    match view.status {
        RoundStatus::Over { winner, reason } => (winner, reason),
        RoundStatus::Playing { .. } => panic!("the round is not over: {view:?}"),
    }
}

fn tally(black_wins: u32, white_wins: u32, draws: u32) -> Tally {
    Tally {
        black_wins,
        white_wins,
        draws,
    }
}

fn clock_ms(view: &TableView, side: Side) -> i64 {
    view.clocks
        .unwrap_or_else(|| panic!("no clock in {view:?}"))
        .get(side)
}

fn running(view: &TableView) -> Option<Side> {
    view.clocks.expect("clocks").running
}

const PRIVATE: TableMode = TableMode::Online {
    private: true,
    time: None,
    rated: false,
    tournament: false,
};

/// Reads pushed states until one satisfies `check`; returns that view.
async fn wait_push(socket: &mut Socket, check: impl Fn(&TableView) -> bool) -> TableView {
    socket.wait_state(check).await.expect("a pushed state")
}

/// Closes a socket and waits until `observer` sees `side` disconnected.
async fn leave(socket: Socket, observer: &mut Socket, side: Side) {
    socket.close().await;
    wait_push(observer, |v| {
        v.seats
            .is_some_and(|s| s.get(side).taken && !s.get(side).connected)
    })
    .await;
}

/// A private table: the creator is seated, nobody else. Returns the id, the
/// creator and the creator's side.
async fn private_table(live: &Live) -> (TableId, Player, Side) {
    let creator = Player::new(live).await;
    let table = creator
        .client
        .create_table(PRIVATE)
        .await
        .expect("create_table");
    let view = creator.view(&table).await;
    let side = Player::side(&view);
    (table, creator, side)
}

/// A private table with both players seated (the guest by the button) and
/// connected: (id, black, white, black's socket, white's socket).
async fn seated_table(live: &Live) -> (TableId, Player, Player, Socket, Socket) {
    let (table, creator, creator_side) = private_table(live).await;
    let creator_socket = creator.connect(&table).await;
    let guest = Player::new(live).await;
    let guest_socket = guest.connect(&table).await;
    let view = guest.take_seat(&table).await.expect("take_seat");
    assert_ne!(Player::side(&view), creator_side);
    assert!(seat(&view, Side::Black).connected);
    assert!(seat(&view, Side::White).connected);
    if creator_side == Side::Black {
        (table, creator, guest, creator_socket, guest_socket)
    } else {
        (table, guest, creator, guest_socket, creator_socket)
    }
}

#[tokio::test]
async fn nobody_can_resign_before_the_opponent_has_taken_the_other_seat() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, creator, _) = private_table(&live).await;
    let before = creator.view(&table).await;
    assert_refused(creator.resign(&table).await, 422, "Nothing to resign yet");
    let after = creator.view(&table).await;
    assert!(playing(&after), "the round has not ended: {after:?}");
    assert_eq!(after.tally, tally(0, 0, 0));
    assert_eq!(after.board.version, before.board.version, "nothing changed");

    // Once the guest sits, the round has started and either may resign.
    let guest = Player::new(&live).await;
    let seated = guest.take_seat(&table).await.expect("take_seat");
    let guest_side = Player::side(&seated);
    let ended = guest.resign(&table).await.expect("resign after both sat");
    assert_eq!(
        over(&ended),
        (Some(guest_side.opponent()), EndReason::Resigned)
    );
}

#[tokio::test]
async fn a_visitor_sits_only_by_the_button_and_later_ones_watch() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, creator, creator_side) = private_table(&live).await;
    let _creator_socket = creator.connect(&table).await;

    // Issue c): loading the page, get_table and any GET never take the seat.
    let guest = Player::new(&live).await;
    let (status, page) = guest.get(&format!("/table/{table}")).await;
    assert_eq!(status, 200);
    assert!(
        page.contains("Take the free seat"),
        "the page offers the seat"
    );
    let view = guest.view(&table).await;
    assert!(view.you.is_empty());
    assert!(!seat(&view, creator_side.opponent()).taken);
    let _ = guest.get(&format!("/table/{table}/export.txt")).await;
    assert!(
        !seat(&guest.view(&table).await, creator_side.opponent()).taken,
        "still free after every GET"
    );
    assert_refused(guest.play(&table, 37).await, 422, "not seated");
    // Until both are seated, no grace runs and the creator cannot move.
    live.advance(10 * GRACE_MS).await;
    assert!(playing(&creator.view(&table).await));
    assert_refused(
        creator.play(&table, 37).await,
        422,
        "Waiting for an opponent",
    );

    // The button seats the guest; a second press and the creator are refused.
    let view = guest.take_seat(&table).await.expect("take_seat");
    assert_eq!(Player::side(&view), creator_side.opponent());
    assert_refused(guest.take_seat(&table).await, 422, "already hold a seat");
    assert_refused(creator.take_seat(&table).await, 422, "already hold a seat");

    // A third visitor stays a spectator: the seat button is refused.
    let spectator = Player::new(&live).await;
    assert_refused(
        spectator.take_seat(&table).await,
        422,
        "Both seats are taken",
    );
    let view = spectator.view(&table).await;
    assert!(view.you.is_empty());
    let mut spectator_socket = spectator.connect(&table).await;
    assert_refused(spectator.play(&table, 37).await, 422, "not seated");

    // Only the side to move may move; the spectator sees it pushed.
    let (black, white) = if creator_side == Side::Black {
        (&creator, &guest)
    } else {
        (&guest, &creator)
    };
    assert_refused(white.play(&table, 37).await, 422, "not your turn");
    black.play(&table, 37).await.expect("black plays f5");
    let pushed = wait_push(&mut spectator_socket, |v| v.history.len() == 1).await;
    assert_eq!(pushed.history[0].square.as_deref(), Some("f5"));

    // Resign, then votes: a vote can be withdrawn; spectators cannot vote.
    white.resign(&table).await.expect("resign");
    black.vote(&table, true).await.expect("vote");
    let view = black.vote(&table, false).await.expect("withdraw");
    assert_eq!(
        view.votes,
        app::protocol::Votes {
            black: false,
            white: false
        }
    );
    assert_refused(spectator.vote(&table, true).await, 422, "not seated");
    white.vote(&table, true).await.expect("vote");
    let view = black.vote(&table, true).await.expect("vote");
    assert_eq!(view.round, 2);
    assert_eq!(view.tally.black_wins, 1);
    assert_eq!(view.you, [Side::Black], "colours carry over");

    // The bad inputs of the seat button: an unknown table, a hot-seat table.
    assert_refused(
        guest.take_seat(&app::ids::TableId::new("nope")).await,
        404,
        "No such table",
    );
    let hot = guest
        .client
        .create_table(TableMode::HotSeat)
        .await
        .expect("hot-seat table");
    assert_refused(spectator.take_seat(&hot).await, 422, "Only online tables");
    let (status, answer) = guest
        .client
        .call_raw("take_seat", &json!({ "tabel": table }))
        .await
        .expect("request");
    assert_eq!(status, 400, "malformed body: {answer}");
    assert!(answer.to_string().contains("malformed request"), "{answer}");
}

#[tokio::test]
async fn regression_a_an_absent_creator_gets_a_full_grace_when_the_friend_sits() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, creator, creator_side) = private_table(&live).await;
    // The creator opens the table, then closes the tab.
    let creator_socket = creator.connect(&table).await;
    let friend = Player::new(&live).await;
    let mut friend_socket = friend.connect(&table).await;
    leave(creator_socket, &mut friend_socket, creator_side).await;
    // Minutes later the friend takes the seat: no instant win.
    live.advance(5 * 60_000).await;
    friend.take_seat(&table).await.expect("take_seat");
    live.advance(0).await;
    let view = friend.view(&table).await;
    assert!(playing(&view), "{view:?}");
    assert_eq!(seat(&view, creator_side).grace_left, Some(90));
    assert_eq!(view.tally, tally(0, 0, 0));
    live.advance(GRACE_MS - 1).await;
    assert!(playing(&friend.view(&table).await));
    // The creator never came back: after a full grace, the creator loses once.
    live.advance(1).await;
    let view = friend.view(&table).await;
    assert_eq!(
        over(&view),
        (Some(creator_side.opponent()), EndReason::Timeout)
    );
    live.advance(GRACE_MS).await;
    let tally = friend.view(&table).await.tally;
    assert_eq!(tally.black_wins + tally.white_wins, 1, "{tally:?}");
}

#[tokio::test]
async fn regression_b_a_rematch_voter_who_left_gets_a_full_grace_in_the_new_round() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, white, black_socket, mut white_socket) = seated_table(&live).await;
    black.play(&table, 37).await.expect("play");
    white.resign(&table).await.expect("resign");
    // A (black) votes and closes the tab; B (white) votes two minutes later.
    black.vote(&table, true).await.expect("vote");
    leave(black_socket, &mut white_socket, Side::Black).await;
    live.advance(2 * 60_000).await;
    assert_eq!(
        white.view(&table).await.round,
        1,
        "no grace runs between rounds"
    );
    let view = white.vote(&table, true).await.expect("vote");
    assert_eq!(view.round, 2);
    live.advance(0).await;
    let view = white.view(&table).await;
    assert!(playing(&view), "round 2 is not lost at once");
    assert_eq!(seat(&view, Side::Black).grace_left, Some(90));
    assert_eq!(view.tally, tally(1, 0, 0));
    live.advance(GRACE_MS - 1).await;
    assert!(playing(&white.view(&table).await));
    live.advance(1).await;
    let view = white.view(&table).await;
    assert_eq!(over(&view), (Some(Side::White), EndReason::Timeout));
    assert_eq!(view.tally, tally(1, 1, 0));
}

#[tokio::test]
async fn regression_c_a_holder_who_never_connects_times_out() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, creator, creator_side) = private_table(&live).await;
    let mut creator_socket = creator.connect(&table).await;
    // The guest takes the seat with a bare request and never opens a socket.
    let guest = Player::new(&live).await;
    guest.take_seat(&table).await.expect("take_seat");
    let guest_side = creator_side.opponent();
    let view = wait_push(&mut creator_socket, |v| {
        v.seats.is_some_and(|s| s.get(guest_side).taken)
    })
    .await;
    assert!(!seat(&view, guest_side).connected);
    assert_eq!(seat(&view, guest_side).grace_left, Some(90));
    live.advance(GRACE_MS - 1).await;
    assert!(playing(&creator.view(&table).await));
    live.advance(1).await;
    let view = creator.view(&table).await;
    assert_eq!(over(&view), (Some(creator_side), EndReason::Timeout));
}

#[tokio::test]
async fn a_player_who_returns_in_time_plays_on_and_one_who_does_not_loses_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, white, mut black_socket, white_socket) = seated_table(&live).await;
    black.play(&table, 37).await.expect("play");

    // White leaves: black sees a countdown; white returns within the grace.
    leave(white_socket, &mut black_socket, Side::White).await;
    live.advance(30_000).await;
    let view = black.view(&table).await;
    assert_eq!(seat(&view, Side::White).grace_left, Some(60));
    live.advance(GRACE_MS - 30_000 - 1).await;
    let white_socket = white.connect(&table).await;
    let view = black.view(&table).await;
    assert!(seat(&view, Side::White).connected);
    assert_eq!(seat(&view, Side::White).grace_left, None);
    // Past the old deadline: the timer was cancelled.
    live.advance(10 * GRACE_MS).await;
    assert!(playing(&black.view(&table).await));
    white.play(&table, 45).await.expect("play");

    // White leaves for good: after the grace white loses, counted once.
    leave(white_socket, &mut black_socket, Side::White).await;
    live.advance(GRACE_MS).await;
    let view = black.view(&table).await;
    assert_eq!(over(&view), (Some(Side::Black), EndReason::Timeout));
    live.advance(GRACE_MS).await;
    assert_eq!(black.view(&table).await.tally, tally(1, 0, 0));
}

#[tokio::test]
async fn when_both_players_are_gone_nobody_wins() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, _white, black_socket, white_socket) = seated_table(&live).await;
    black.play(&table, 37).await.expect("play");
    let spectator = Player::new(&live).await;
    let mut watch = spectator.connect(&table).await;
    leave(black_socket, &mut watch, Side::Black).await;
    live.advance(1_000).await;
    leave(white_socket, &mut watch, Side::White).await;
    live.advance(GRACE_MS - 1_000).await;
    let view = spectator.view(&table).await;
    assert_eq!(over(&view), (None, EndReason::Abandoned));
    assert_eq!(view.tally, tally(0, 0, 0));
}

#[tokio::test]
async fn a_rematch_after_a_disconnect_starts_clean_and_exports_every_round() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, white, mut black_socket, white_socket) = seated_table(&live).await;
    black.play(&table, 37).await.expect("play");
    // White drops and loses round 1 by timeout.
    leave(white_socket, &mut black_socket, Side::White).await;
    live.advance(GRACE_MS).await;
    assert_eq!(over(&black.view(&table).await).1, EndReason::Timeout);
    // White comes back; both vote; round 2 starts with both present.
    let _white_socket = white.connect(&table).await;
    white.vote(&table, true).await.expect("vote");
    let view = black.vote(&table, true).await.expect("vote");
    assert_eq!(view.round, 2);
    live.advance(10 * GRACE_MS).await;
    let view = white.view(&table).await;
    assert!(playing(&view));
    assert_eq!(seat(&view, Side::White).grace_left, None);
    black.play(&table, 19).await.expect("play");
    white.play(&table, 18).await.expect("play");

    // The export holds both rounds in order, then the tally; GGF one per round.
    let (status, text) = black.get(&format!("/table/{table}/export.txt")).await;
    assert_eq!(status, 200);
    let r1 = text.find("=== Round 1 ===").expect("round 1");
    let r2 = text.find("=== Round 2 ===").expect("round 2");
    let tally = text.find("Tally at this table").expect("tally");
    assert!(r1 < r2 && r2 < tally, "{text}");
    assert!(text[r1..r2].contains("1. Black f5"), "{text}");
    assert!(text[r1..r2].contains("did not return in time"), "{text}");
    assert!(text[r2..tally].contains("1. Black d3"), "{text}");
    assert!(text[r2..tally].contains("2. White c3"), "{text}");
    let (status, ggf) = black.get(&format!("/table/{table}/export.ggf")).await;
    assert_eq!(status, 200);
    let games: Vec<&str> = ggf
        .lines()
        .filter(|l| l.starts_with("(;GM[Othello]"))
        .collect();
    assert_eq!(games.len(), 2, "{ggf}");
    assert!(games[0].contains("B[F5]") && games[1].contains("B[D3]W[C3]"));
}

#[tokio::test]
async fn a_new_table_has_a_new_tally() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, white, _bs, _ws) = seated_table(&live).await;
    white.resign(&table).await.expect("resign");
    assert_eq!(black.view(&table).await.tally.black_wins, 1);
    let fresh = black.client.new_table(&table).await.expect("new_table");
    assert_ne!(fresh, table);
    let view = black.view(&fresh).await;
    assert_eq!(view.tally, tally(0, 0, 0));
    assert_eq!(view.round, 1);
    assert_eq!(view.mode, PRIVATE);
    assert_eq!(view.you.len(), 1);
    // The opponent is not carried over: the new table waits for a visitor.
    assert!(white.view(&fresh).await.you.is_empty());
    // The old table keeps its own tally.
    assert_eq!(white.view(&table).await.tally.black_wins, 1);
    // Spectators cannot start a new table from someone else's.
    let spectator = Player::new(&live).await;
    assert_refused(spectator.client.new_table(&table).await, 422, "not seated");
}

/// The next message of a queue socket.
async fn next_message(socket: &mut Socket) -> ServerMessage {
    socket.next_message().await.expect("a message")
}

/// The table a `matched` message names.
fn matched(message: ServerMessage) -> TableId {
    match message {
        ServerMessage::Matched { table } => table,
        other => panic!("expected matched, got {other:?}"),
    }
}

#[tokio::test]
async fn quick_match_pairs_two_players_and_both_get_a_full_grace() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;

    // Someone joins and leaves before anyone arrives.
    let leaver = Player::new(&live).await;
    let mut leaver_socket = leaver.socket("/ws/queue").await;
    assert_eq!(
        next_message(&mut leaver_socket).await,
        ServerMessage::Queued
    );
    // The close ends with the server's close frame: the queue is left by then.
    leaver_socket.close().await;
    for _ in 0..1000 {
        if live.hub.queue_len() == 0 {
            break;
        }
        tokio::task::yield_now().await;
    }
    assert_eq!(live.hub.queue_len(), 0, "the leaver left the queue");

    let first = Player::new(&live).await;
    let mut first_socket = first.socket("/ws/queue").await;
    assert_eq!(next_message(&mut first_socket).await, ServerMessage::Queued);
    let second = Player::new(&live).await;
    let mut second_socket = second.socket("/ws/queue").await;
    let matched_second = matched(next_message(&mut second_socket).await);
    let table = matched(next_message(&mut first_socket).await);
    assert_eq!(table, matched_second);
    let first_view = first.view(&table).await;
    let second_view = second.view(&table).await;
    assert_eq!(
        Player::side(&first_view).opponent(),
        Player::side(&second_view)
    );
    // A queue socket that names no control asks for 3+2.
    assert_eq!(
        first_view.mode,
        TableMode::Online {
            private: false,
            time: Some(C32),
            rated: false,
            tournament: false,
        }
    );
    // Seated at pairing, not yet connected: both have a full grace from now.
    assert_eq!(seat(&first_view, Side::Black).grace_left, Some(90));
    assert_eq!(seat(&first_view, Side::White).grace_left, Some(90));
    // (Black's first move is due within its first-move timer, which runs
    // from the pairing.)
    live.advance(FIRST_MOVE_MS - 1).await;
    let _sockets = (first.connect(&table).await, second.connect(&table).await);
    let black = if Player::side(&first_view) == Side::Black {
        &first
    } else {
        &second
    };
    black.play(&table, 19).await.expect("play");
}

#[tokio::test]
async fn after_a_restart_grace_resumes_from_when_the_player_left() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("db.sqlite");
    let clock = ManualClock::new(1_000_000);
    let live = Live::start(&db, clock.clone()).await;
    let (table, black, white, mut black_socket, white_socket) = seated_table(&live).await;
    black.play(&table, 37).await.expect("play");
    white.play(&table, 45).await.expect("play");
    // White leaves; 30 s later black leaves too and the server stops.
    leave(white_socket, &mut black_socket, Side::White).await;
    live.advance(30_000).await;
    let spectator = Player::new(&live).await;
    let mut watch = spectator.connect(&table).await;
    leave(black_socket, &mut watch, Side::Black).await;
    drop(watch);
    let black_token = black.token();
    drop(live);

    // The new server replays the game; black comes back at once.
    let live = Live::start(&db, clock.clone()).await;
    let black = black.at(&live);
    assert_eq!(black.token(), black_token);
    let _black_socket = black.connect(&table).await;
    let view = black.view(&table).await;
    assert_eq!(view.history.len(), 2);
    assert_eq!(view.you, [Side::Black]);
    // White's grace runs from when white left, not from the restart.
    assert_eq!(seat(&view, Side::White).grace_left, Some(60));
    live.advance(GRACE_MS - 30_000 - 1).await;
    assert!(playing(&black.view(&table).await));
    live.advance(1).await;
    let view = black.view(&table).await;
    assert_eq!(over(&view), (Some(Side::Black), EndReason::Timeout));
}

#[tokio::test]
async fn a_table_starts_from_a_position_and_a_bad_one_creates_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let player = Player::new(&live).await;
    let before = live.hub.store().tables().await.expect("tables").len();
    for (obf, expected) in [
        ("", "Paste a position"),
        ("XO- X", "not a valid OBF"),
        (
            "OOOOOOOXOOOOOOXXOOOOOXXXOOOOOOXXOOOOOOXX-O-OXOXX-XXXXXXXXXXXXXXX Q",
            "not a valid OBF",
        ),
        (
            "---------------------------------------------------------------- X",
            "cannot happen in Othello",
        ),
        (
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX X",
            "already over",
        ),
    ] {
        let refusal = refused(
            player
                .client
                .create_table_from(TableMode::HotSeat, obf)
                .await,
        );
        assert_eq!(refusal.status, 422, "{obf}: {refusal}");
        assert!(refusal.message.contains(expected), "{obf}: {refusal}");
    }
    assert_refused(
        player
            .client
            .create_table_from(
                PRIVATE,
                "---------------------------XO------OX--------------------------- X",
            )
            .await,
        422,
        "Online tables start from the usual position",
    );
    let (status, answer) = player
        .client
        .call_raw(
            "create_table_from",
            &json!({ "mode": { "kind": "hot_seat" } }),
        )
        .await
        .expect("request");
    assert_eq!(status, 400, "missing obf: {answer}");
    assert_eq!(
        live.hub.store().tables().await.expect("tables").len(),
        before,
        "nothing was created"
    );

    // Against the AI, from a position where the human (white) must pass:
    // the AI plays c6, white passes, the AI plays a6; the notice stays.
    let table = player
        .client
        .create_table_from(
            TableMode::VsAi {
                depth: 2,
                human: Side::White,
            },
            "OOOOOOOXOOOOOOXXOOOOOXXXOOOOOOXXOOOOOOXX-O-OXOXX-XXXXXXXXXXXXXXX X",
        )
        .await
        .expect("create_table_from");
    let mut socket = player.socket(&format!("/ws/table/{table}")).await;
    let view = wait_push(&mut socket, |v| v.history.len() == 3 && !v.ai_thinking).await;
    let history: Vec<(Side, Option<&str>)> = view
        .history
        .iter()
        .map(|h| (h.side, h.square.as_deref()))
        .collect();
    assert_eq!(
        history,
        [
            (Side::Black, Some("c6")),
            (Side::White, None),
            (Side::Black, Some("a6"))
        ],
        "the move list shows the pass"
    );
    assert_eq!(
        view.notice.as_ref().map(|n| n.to_string()).as_deref(),
        Some("White has no legal move and passes; Black plays again."),
        "the AI's second move did not clear the pass notice"
    );
    assert_eq!(to_move(&view), Some(Side::White));
    // The human's own move clears it (and here ends the game).
    let view = player.play(&table, 48).await.expect("play");
    assert!(!view
        .notice
        .is_some_and(|n| n.to_string().contains("has no legal move")));
    // The export shows the pass.
    let (_, text) = player.get(&format!("/table/{table}/export.txt")).await;
    assert!(
        text.contains("White has no legal move and passes."),
        "{text}"
    );
}

// ----- clocks (issue 20) -----

const C32: TimeControl = TimeControl {
    base_s: 180,
    increment_s: 2,
};

/// A timed private table with both players seated and connected:
/// (id, black, white, black's socket, white's socket).
async fn timed_table(live: &Live, time: TimeControl) -> (TableId, Player, Player, Socket, Socket) {
    let creator = Player::new(live).await;
    let table = creator
        .client
        .create_private(Some(time))
        .await
        .expect("create_table");
    let creator_side = Player::side(&creator.view(&table).await);
    let creator_socket = creator.connect(&table).await;
    let guest = Player::new(live).await;
    let guest_socket = guest.connect(&table).await;
    guest.take_seat(&table).await.expect("take_seat");
    if creator_side == Side::Black {
        (table, creator, guest, creator_socket, guest_socket)
    } else {
        (table, guest, creator, guest_socket, creator_socket)
    }
}

#[tokio::test]
async fn an_untimed_private_table_has_no_clock_and_no_flag() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, _white, _b, _w) = seated_table(&live).await;
    let view = black.view(&table).await;
    assert_eq!(view.clocks, None);
    assert_eq!(view.mode, PRIVATE);
    live.advance(24 * 3600 * 1000 - 1).await;
    black.play(&table, 19).await.expect("play");
}

#[tokio::test]
async fn the_flag_falls_on_the_timer_with_no_request_and_counts_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, white, mut black_socket, _white_socket) = timed_table(&live, C32).await;
    let view = black.view(&table).await;
    // Before black's first move its clock does not run: its first-move
    // timer does.
    assert_eq!(running(&view), None);
    assert_eq!(
        view.clocks.expect("clocks").first_move,
        Some(FirstMove {
            side: Side::Black,
            ms: FIRST_MOVE_MS
        })
    );
    assert_eq!(view.clocks.expect("clocks").server_ms, 1_000_000);
    assert_eq!(clock_ms(&view, Side::Black), 180_000);
    // Black's first move after 10 s is free; white's first after 1 s too.
    live.advance(10_000).await;
    black.play(&table, 19).await.expect("play");
    live.advance(1_000).await;
    let legal = white.view(&table).await.board.legal[0];
    white.play(&table, legal).await.expect("play");
    // Black thinks 10 s: charged 10 s, gets 2 s; white's clock now runs.
    live.advance(10_000).await;
    let legal = black.view(&table).await.board.legal[0];
    black.play(&table, legal).await.expect("play");
    let view = white.view(&table).await;
    assert_eq!(clock_ms(&view, Side::Black), 172_000);
    assert_eq!(clock_ms(&view, Side::White), 180_000);
    assert_eq!(running(&view), Some(Side::White));
    // White never moves; only the timer runs.
    live.advance(179_999).await;
    assert_eq!(clock_ms(&black.view(&table).await, Side::White), 1);
    assert!(playing(&black.view(&table).await));
    live.advance(1).await;
    let finished = wait_push(&mut black_socket, |v| !playing(v)).await;
    assert_eq!(over(&finished), (Some(Side::Black), EndReason::Time));
    assert_eq!(clock_ms(&finished, Side::White), 0);
    assert_eq!(running(&finished), None);
    assert_eq!(finished.tally.black_wins, 1);
    // Later ticks and a late move change nothing.
    live.advance(600_000).await;
    assert_refused(white.play(&table, 20).await, 422, "The game is over");
    let view = black.view(&table).await;
    assert_eq!(view.tally, tally(1, 0, 0));
    // The export carries the control and the time of every move.
    let (status, ggf) = black.get(&format!("/table/{table}/export.ggf")).await;
    assert_eq!(status, 200, "{ggf}");
    assert!(ggf.contains("TI[03:00/00:02]"), "{ggf}");
    assert!(ggf.contains("B[D3//10.00]"), "{ggf}");
    assert!(ggf.contains("RE[+64.000:r]"), "{ggf}");
}

#[tokio::test]
async fn a_first_move_that_arrives_after_its_timer_finds_the_game_aborted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, _white, _b, _w) = timed_table(&live, C32).await;
    // Read twice 6 s apart before black's first move: no clock moved.
    live.advance(6_000).await;
    let early = black.view(&table).await;
    live.advance(6_000).await;
    let later = black.view(&table).await;
    for side in [Side::Black, Side::White] {
        assert_eq!(clock_ms(&early, side), 180_000);
        assert_eq!(clock_ms(&later, side), 180_000);
    }
    let first = |v: &TableView| v.clocks.and_then(|c| c.first_move).map(|f| f.ms);
    assert_eq!(first(&early), Some(FIRST_MOVE_MS - 6_000));
    assert_eq!(first(&later), Some(FIRST_MOVE_MS - 12_000));
    // No tick: the first-move timer runs out and then black's move
    // arrives. A private game is aborted: it counts for nobody.
    live.clock.advance(FIRST_MOVE_MS - 12_000);
    assert_refused(black.play(&table, 19).await, 422, "The game is over");
    let view = black.view(&table).await;
    assert_eq!(over(&view), (None, EndReason::Aborted));
    assert_eq!(view.tally, tally(0, 0, 0));
    assert!(view.history.is_empty());
}

#[tokio::test]
async fn a_move_that_arrives_after_the_flag_fell_loses_on_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, white, _b, _w) = timed_table(&live, C32).await;
    first_moves(&table, &black, &white).await;
    // No tick: the clock passes 180 s and then black's move arrives.
    live.clock.advance(180_000);
    let legal = black.view(&table).await.board.legal[0];
    assert_refused(black.play(&table, legal).await, 422, "The game is over");
    let view = black.view(&table).await;
    assert_eq!(over(&view), (Some(Side::White), EndReason::Time));
    assert_eq!(view.history.len(), 2);
}

/// Each side makes its first move at once (their clocks start there).
async fn first_moves(table: &TableId, black: &Player, white: &Player) {
    let legal = black.view(table).await.board.legal[0];
    black.play(table, legal).await.expect("black's first move");
    let legal = white.view(table).await.board.legal[0];
    white.play(table, legal).await.expect("white's first move");
}

#[tokio::test]
async fn a_forced_pass_costs_the_passer_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, white, _b, _w) = timed_table(&live, C32).await;
    // Play first-legal moves, one second each, until somebody passes.
    let mut before = black.view(&table).await;
    for _ in 0..64 {
        let Some(mover_side) = to_move(&before) else {
            panic!("the game ended without a pass: {before:?}");
        };
        let mover = if mover_side == Side::Black {
            &black
        } else {
            &white
        };
        let legal = *mover
            .view(&table)
            .await
            .board
            .legal
            .first()
            .expect("a legal move");
        live.advance(1_000).await;
        mover.play(&table, legal).await.expect("play");
        let after = black.view(&table).await;
        let passed = after.history.last().is_some_and(|h| h.square.is_none());
        if passed {
            let passer = mover_side.opponent();
            // The passer's clock did not move; the mover's runs again from
            // the commit, with the increment added.
            assert_eq!(clock_ms(&after, passer), clock_ms(&before, passer));
            assert_eq!(
                clock_ms(&after, mover_side),
                clock_ms(&before, mover_side) - 1_000 + 2_000
            );
            assert_eq!(running(&after), Some(mover_side));
            live.advance(5_000).await;
            let later = black.view(&table).await;
            assert_eq!(clock_ms(&later, passer), clock_ms(&before, passer));
            assert_eq!(
                clock_ms(&later, mover_side),
                clock_ms(&after, mover_side) - 5_000
            );
            return;
        }
        before = after;
    }
    panic!("no pass in 64 moves");
}

#[tokio::test]
async fn grace_and_clock_both_run_for_a_mover_who_left_and_the_earlier_decides() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start_with(
        &dir.path().join("db.sqlite"),
        ManualClock::new(1_000_000),
        true,
    )
    .await;
    // 60 s on the clock, 90 s of grace: black leaves at once, the flag decides.
    let one_minute = TimeControl {
        base_s: 60,
        increment_s: 0,
    };
    let (table, black, white, black_socket, mut white_socket) =
        timed_table(&live, one_minute).await;
    first_moves(&table, &black, &white).await;
    leave(black_socket, &mut white_socket, Side::Black).await;
    live.advance(59_999).await;
    assert!(playing(&white.view(&table).await));
    live.advance(1).await;
    let view = white.view(&table).await;
    assert_eq!(over(&view), (Some(Side::White), EndReason::Time));
    // 3 minutes on the clock: the grace ends first.
    let (table, black, white, black_socket, mut white_socket) = timed_table(&live, C32).await;
    first_moves(&table, &black, &white).await;
    leave(black_socket, &mut white_socket, Side::Black).await;
    live.advance(GRACE_MS).await;
    let view = white.view(&table).await;
    assert_eq!(over(&view).1, EndReason::Timeout);
    assert_eq!(view.tally.white_wins, 1);
}

#[tokio::test]
async fn controls_the_lobby_does_not_offer_are_refused_without_the_test_flag() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let player = Player::new(&live).await;
    let before = live.hub.store().tables().await.expect("tables").len();
    for (mode, status, message) in [
        (
            json!({ "kind": "online", "private": true, "time": { "base_s": 60, "increment_s": 0 } }),
            422,
            "1+0 is not offered",
        ),
        (
            json!({ "kind": "online", "private": true, "time": { "base_s": 0, "increment_s": 0 } }),
            422,
            "A clock cannot start at zero minutes",
        ),
        (
            json!({ "kind": "online", "private": false }),
            422,
            "Quick match is always timed",
        ),
        (
            json!({ "kind": "online", "private": true, "time": { "base_s": -5, "increment_s": 0 } }),
            400,
            "malformed request",
        ),
    ] {
        let (answer_status, answer) = player
            .client
            .call_raw("create_table", &json!({ "mode": mode }))
            .await
            .expect("request");
        assert_eq!(answer_status, status, "{mode}: {answer}");
        assert!(answer.to_string().contains(message), "{mode}: {answer}");
    }
    assert_eq!(
        live.hub.store().tables().await.expect("tables").len(),
        before
    );
    // The queue refuses them before the upgrade.
    for query in ["?base=60&inc=0", "?base=180", "?base=x&inc=2"] {
        let (status, _) = player.get(&format!("/ws/queue{query}")).await;
        assert_eq!(status, 400, "{query}");
    }
}

#[tokio::test]
async fn quick_match_pairs_only_players_who_asked_for_the_same_control() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let fast = Player::new(&live).await;
    let mut fast_socket = fast.socket("/ws/queue?base=180&inc=2").await;
    assert_eq!(next_message(&mut fast_socket).await, ServerMessage::Queued);
    let slow = Player::new(&live).await;
    let mut slow_socket = slow.socket("/ws/queue?base=600&inc=5").await;
    assert_eq!(next_message(&mut slow_socket).await, ServerMessage::Queued);
    assert_eq!(live.hub.queue_len(), 2, "different controls do not pair");
    let slow2 = Player::new(&live).await;
    let mut slow2_socket = slow2.socket("/ws/queue?base=600&inc=5").await;
    let table = matched(next_message(&mut slow2_socket).await);
    assert_eq!(matched(next_message(&mut slow_socket).await), table);
    let view = slow.view(&table).await;
    let ten_five = TimeControl {
        base_s: 600,
        increment_s: 5,
    };
    assert_eq!(
        view.mode,
        TableMode::Online {
            private: false,
            time: Some(ten_five),
            rated: false,
            tournament: false,
        }
    );
    assert_eq!(clock_ms(&view, Side::Black), 600_000);
    assert_eq!(live.hub.queue_len(), 1, "the 3+2 player still waits");
}

#[tokio::test]
async fn a_rematch_keeps_the_control_with_full_clocks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, white, _b, _w) = timed_table(&live, C32).await;
    live.advance(20_000).await;
    black.play(&table, 19).await.expect("play");
    white.resign(&table).await.expect("resign");
    live.advance(500_000).await;
    black.vote(&table, true).await.expect("vote");
    white.vote(&table, true).await.expect("vote");
    let view = black.view(&table).await;
    assert_eq!(view.round, 2);
    let timed = TableMode::Online {
        private: true,
        time: Some(C32),
        rated: false,
        tournament: false,
    };
    assert_eq!(view.mode, timed);
    assert_eq!(clock_ms(&view, Side::Black), 180_000);
    assert_eq!(clock_ms(&view, Side::White), 180_000);
    assert_eq!(running(&view), None, "before black's first move");
    assert_eq!(
        view.clocks.and_then(|c| c.first_move).map(|f| f.side),
        Some(Side::Black)
    );
    // Nobody moves in the new round: aborted after the first-move timer,
    // counted for nobody.
    live.advance(FIRST_MOVE_MS).await;
    let view = black.view(&table).await;
    assert_eq!(over(&view).1, EndReason::Aborted);
    assert_eq!(view.tally, tally(1, 0, 0));
    // A new table from this one keeps the control too.
    let id = black.client.new_table(&table).await.expect("new_table");
    assert_eq!(black.view(&id).await.mode, timed);
}

#[tokio::test]
async fn after_a_restart_the_clocks_resume_without_charging_the_downtime() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("db.sqlite");
    let clock = ManualClock::new(1_000_000);
    let live = Live::start(&db, clock.clone()).await;
    let (table, black, white, _b, _w) = timed_table(&live, C32).await;
    // The first moves (20 s and 7 s) are free; the next cost 5 s and 4 s.
    live.advance(20_000).await;
    black.play(&table, 19).await.expect("play");
    live.advance(7_000).await;
    white.play(&table, 18).await.expect("play");
    live.advance(5_000).await;
    let legal = black.view(&table).await.board.legal[0];
    black.play(&table, legal).await.expect("play");
    live.advance(4_000).await;
    let legal = white.view(&table).await.board.legal[0];
    white.play(&table, legal).await.expect("play");
    live.advance(3_000).await;
    drop(live);
    // The server is down for an hour.
    clock.advance(3_600_000);
    let live = Live::start(&db, clock.clone()).await;
    let black = black.at(&live);
    let white = white.at(&live);
    // Both come back at once (so no grace ends first).
    let _sockets = (black.connect(&table).await, white.connect(&table).await);
    let view = black.view(&table).await;
    assert_eq!(running(&view), Some(Side::Black));
    assert_eq!(clock_ms(&view, Side::Black), 180_000 - 5_000 + 2_000);
    assert_eq!(clock_ms(&view, Side::White), 180_000 - 4_000 + 2_000);
    live.advance(177_000 - 1).await;
    assert!(playing(&black.view(&table).await));
    live.advance(1).await;
    let view = black.view(&table).await;
    assert_eq!(over(&view), (Some(Side::White), EndReason::Time));
    let (_, ggf) = black.get(&format!("/table/{table}/export.ggf")).await;
    assert!(ggf.contains("B[D3//20.00]W[C3//7.00]"), "{ggf}");
}
