//! Online play end to end, with the server in process on a manual clock:
//! private links and the explicit "take the free seat", quick match, turns,
//! presence and grace periods, rematch votes, exports, restart mid-game.
//!
//! No test here sleeps to let time pass: grace periods move only when the
//! test advances the clock and ticks the hub. Waits are for events (a pushed
//! state, a socket message), bounded by a generous timeout.

use app::protocol::Session;
use futures_util::StreamExt;
use serde_json::{json, Value};
use server::clock::ManualClock;
use server::config::Config;
use server::hub::Hub;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

const GRACE_MS: i64 = 90_000;

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

/// A browser: one session cookie.
struct Player {
    http: reqwest::Client,
    url: String,
    cookie: String,
}

impl Player {
    async fn new(live: &Live) -> Player {
        let session = live.hub.new_session().await.expect("session");
        Player {
            http: reqwest::Client::new(),
            url: live.url.clone(),
            cookie: format!("othello_session={}", session.0),
        }
    }

    fn session(&self) -> Session {
        Session(
            self.cookie
                .trim_start_matches("othello_session=")
                .to_string(),
        )
    }

    async fn call(&self, name: &str, body: Value) -> (u16, Value) {
        let response = self
            .http
            .post(format!("{}/api/{name}", self.url))
            .header("content-type", "application/json")
            .header("origin", &self.url)
            .header("cookie", &self.cookie)
            .body(body.to_string())
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        let text = response.text().await.expect("body");
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    async fn get(&self, path: &str) -> (u16, String) {
        let response = self
            .http
            .get(format!("{}{path}", self.url))
            .header("cookie", &self.cookie)
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        (status, response.text().await.expect("body"))
    }

    async fn view(&self, table: &str) -> Value {
        let (status, view) = self.call("get_table", json!({ "table": table })).await;
        assert_eq!(status, 200, "{view}");
        view
    }

    async fn take_seat(&self, table: &str) -> (u16, Value) {
        self.call("take_seat", json!({ "table": table })).await
    }

    async fn play(&self, table: &str, square: u64) -> (u16, Value) {
        self.call("play_move", json!({ "table": table, "square": square }))
            .await
    }

    async fn vote(&self, table: &str, vote: bool) -> (u16, Value) {
        self.call(
            "vote_rematch",
            json!({ "table": table, "side": null, "vote": vote }),
        )
        .await
    }

    async fn resign(&self, table: &str) -> (u16, Value) {
        self.call("resign", json!({ "table": table, "side": null }))
            .await
    }

    /// Opens a socket and waits for its first state: by then the server has
    /// counted the socket.
    async fn connect(&self, table: &str) -> Socket {
        let mut socket = self.socket(&format!("/ws/table/{table}")).await;
        assert_eq!(next_message(&mut socket).await["type"], "state");
        socket
    }

    async fn socket(&self, path: &str) -> Socket {
        let ws_url = format!("{}{path}", self.url.replacen("http://", "ws://", 1));
        let mut request = ws_url.into_client_request().expect("request");
        request
            .headers_mut()
            .insert("cookie", self.cookie.parse().expect("header"));
        request
            .headers_mut()
            .insert("origin", self.url.parse().expect("header"));
        let (socket, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("socket opens");
        socket
    }

    fn side(view: &Value) -> String {
        view["you"][0].as_str().unwrap_or("none").to_string()
    }
}

/// The next JSON message on a socket (bounded wait for an event, not a delay).
async fn next_message(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(20), socket.next())
            .await
            .expect("a message in time")
            .expect("socket open")
            .expect("no socket error");
        if let Message::Text(text) = message {
            return serde_json::from_str(&text).expect("JSON");
        }
    }
}

/// Reads pushed states until one satisfies `check`; returns that table view.
async fn wait_push(socket: &mut Socket, check: impl Fn(&Value) -> bool) -> Value {
    loop {
        let message = next_message(socket).await;
        if message["type"] == "state" && check(&message["table"]) {
            return message["table"].clone();
        }
    }
}

/// Closes a socket and waits until `observer` sees `side` disconnected.
async fn leave(socket: Socket, observer: &mut Socket, side: &str) {
    let mut socket = socket;
    let _ = socket.close(None).await;
    drop(socket);
    wait_push(observer, |v| {
        v["seats"][side]["taken"] == true && v["seats"][side]["connected"] == false
    })
    .await;
}

/// A private table: the creator is seated, nobody else. Returns the id, the
/// creator and the creator's side.
async fn private_table(live: &Live) -> (String, Player, String) {
    let creator = Player::new(live).await;
    let (status, table) = creator
        .call(
            "create_table",
            json!({ "mode": { "kind": "online", "private": true } }),
        )
        .await;
    assert_eq!(status, 200, "{table}");
    let table = table.as_str().expect("id").to_string();
    let view = creator.view(&table).await;
    let side = Player::side(&view);
    (table, creator, side)
}

/// A private table with both players seated (the guest by the button) and
/// connected: (id, black, white, black's socket, white's socket).
async fn seated_table(live: &Live) -> (String, Player, Player, Socket, Socket) {
    let (table, creator, creator_side) = private_table(live).await;
    let creator_socket = creator.connect(&table).await;
    let guest = Player::new(live).await;
    let guest_socket = guest.connect(&table).await;
    let (status, view) = guest.take_seat(&table).await;
    assert_eq!(status, 200, "{view}");
    assert_ne!(Player::side(&view), creator_side);
    assert_eq!(view["seats"]["black"]["connected"], true);
    assert_eq!(view["seats"]["white"]["connected"], true);
    if creator_side == "black" {
        (table, creator, guest, creator_socket, guest_socket)
    } else {
        (table, guest, creator, guest_socket, creator_socket)
    }
}

fn other(side: &str) -> &'static str {
    if side == "black" {
        "white"
    } else {
        "black"
    }
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
    assert_eq!(view["you"], json!([]));
    assert_eq!(view["seats"][other(&creator_side)]["taken"], false);
    let _ = guest.get(&format!("/table/{table}/export.txt")).await;
    assert_eq!(
        guest.view(&table).await["seats"][other(&creator_side)]["taken"],
        false,
        "still free after every GET"
    );
    let (status, error) = guest.play(&table, 37).await;
    assert_eq!(status, 422, "a spectator cannot move: {error}");
    // Until both are seated, no grace runs and the creator cannot move.
    live.advance(10 * GRACE_MS).await;
    assert_eq!(creator.view(&table).await["status"]["state"], "playing");
    let (status, error) = creator.play(&table, 37).await;
    assert_eq!(status, 422);
    assert!(
        error.to_string().contains("Waiting for an opponent"),
        "{error}"
    );

    // The button seats the guest; a second press and the creator are refused.
    let (status, view) = guest.take_seat(&table).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(Player::side(&view), other(&creator_side));
    let (status, error) = guest.take_seat(&table).await;
    assert_eq!(status, 422);
    assert!(error.to_string().contains("already hold a seat"), "{error}");
    let (status, _) = creator.take_seat(&table).await;
    assert_eq!(status, 422);

    // A third visitor stays a spectator: the seat button is refused.
    let spectator = Player::new(&live).await;
    let (status, error) = spectator.take_seat(&table).await;
    assert_eq!(status, 422);
    assert!(
        error.to_string().contains("Both seats are taken"),
        "{error}"
    );
    let view = spectator.view(&table).await;
    assert_eq!(view["you"], json!([]));
    let mut spectator_socket = spectator.connect(&table).await;
    let (status, error) = spectator.play(&table, 37).await;
    assert_eq!(status, 422);
    assert!(error.to_string().contains("not seated"), "{error}");

    // Only the side to move may move; the spectator sees it pushed.
    let (black, white) = if creator_side == "black" {
        (&creator, &guest)
    } else {
        (&guest, &creator)
    };
    let (status, error) = white.play(&table, 37).await;
    assert_eq!(status, 422);
    assert!(error.to_string().contains("not your turn"), "{error}");
    assert_eq!(black.play(&table, 37).await.0, 200);
    let pushed = wait_push(&mut spectator_socket, |v| {
        v["history"].as_array().map(Vec::len) == Some(1)
    })
    .await;
    assert_eq!(pushed["history"][0]["square"], "f5");

    // Resign, then votes: a vote can be withdrawn; spectators cannot vote.
    assert_eq!(white.resign(&table).await.0, 200);
    assert_eq!(black.vote(&table, true).await.0, 200);
    let (_, view) = black.vote(&table, false).await;
    assert_eq!(view["votes"], json!({ "black": false, "white": false }));
    assert_eq!(spectator.vote(&table, true).await.0, 422);
    assert_eq!(white.vote(&table, true).await.0, 200);
    let (_, view) = black.vote(&table, true).await;
    assert_eq!(view["round"], 2);
    assert_eq!(view["tally"]["black_wins"], 1);
    assert_eq!(view["you"], json!(["black"]), "colours carry over");

    // The bad inputs of the seat button: an unknown table, a hot-seat table.
    let (status, error) = guest.take_seat("nope").await;
    assert_eq!(status, 404);
    assert!(error.to_string().contains("No such table"), "{error}");
    let (_, hot) = guest
        .call("create_table", json!({ "mode": { "kind": "hot_seat" } }))
        .await;
    let (status, error) = spectator.take_seat(hot.as_str().expect("id")).await;
    assert_eq!(status, 422);
    assert!(error.to_string().contains("Only online tables"), "{error}");
    let (status, _) = guest.call("take_seat", json!({ "tabel": table })).await;
    assert!((400..500).contains(&status), "malformed body: {status}");
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
    leave(creator_socket, &mut friend_socket, &creator_side).await;
    // Minutes later the friend takes the seat: no instant win.
    live.advance(5 * 60_000).await;
    let (status, view) = friend.take_seat(&table).await;
    assert_eq!(status, 200, "{view}");
    live.advance(0).await;
    let view = friend.view(&table).await;
    assert_eq!(view["status"]["state"], "playing", "{view}");
    assert_eq!(view["seats"][&creator_side]["grace_left"], 90);
    assert_eq!(
        view["tally"],
        json!({ "black_wins": 0, "white_wins": 0, "draws": 0 })
    );
    live.advance(GRACE_MS - 1).await;
    assert_eq!(friend.view(&table).await["status"]["state"], "playing");
    // The creator never came back: after a full grace, the creator loses once.
    live.advance(1).await;
    let view = friend.view(&table).await;
    assert_eq!(view["status"]["state"], "over");
    assert_eq!(view["status"]["reason"], "timeout");
    assert_eq!(view["status"]["winner"], other(&creator_side));
    live.advance(GRACE_MS).await;
    let tally = friend.view(&table).await["tally"].clone();
    let wins =
        tally["black_wins"].as_u64().unwrap_or(0) + tally["white_wins"].as_u64().unwrap_or(0);
    assert_eq!(wins, 1, "{tally}");
}

#[tokio::test]
async fn regression_b_a_rematch_voter_who_left_gets_a_full_grace_in_the_new_round() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, white, black_socket, mut white_socket) = seated_table(&live).await;
    assert_eq!(black.play(&table, 37).await.0, 200);
    assert_eq!(white.resign(&table).await.0, 200);
    // A (black) votes and closes the tab; B (white) votes two minutes later.
    assert_eq!(black.vote(&table, true).await.0, 200);
    leave(black_socket, &mut white_socket, "black").await;
    live.advance(2 * 60_000).await;
    assert_eq!(
        white.view(&table).await["round"],
        1,
        "no grace runs between rounds"
    );
    let (status, view) = white.vote(&table, true).await;
    assert_eq!(status, 200);
    assert_eq!(view["round"], 2);
    live.advance(0).await;
    let view = white.view(&table).await;
    assert_eq!(
        view["status"]["state"], "playing",
        "round 2 is not lost at once"
    );
    assert_eq!(view["seats"]["black"]["grace_left"], 90);
    assert_eq!(
        view["tally"],
        json!({ "black_wins": 1, "white_wins": 0, "draws": 0 })
    );
    live.advance(GRACE_MS - 1).await;
    assert_eq!(white.view(&table).await["status"]["state"], "playing");
    live.advance(1).await;
    let view = white.view(&table).await;
    assert_eq!(view["status"]["reason"], "timeout");
    assert_eq!(view["status"]["winner"], "white");
    assert_eq!(
        view["tally"],
        json!({ "black_wins": 1, "white_wins": 1, "draws": 0 })
    );
}

#[tokio::test]
async fn regression_c_a_holder_who_never_connects_times_out() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, creator, creator_side) = private_table(&live).await;
    let mut creator_socket = creator.connect(&table).await;
    // The guest takes the seat with a bare request and never opens a socket.
    let guest = Player::new(&live).await;
    let (status, _) = guest.take_seat(&table).await;
    assert_eq!(status, 200);
    let guest_side = other(&creator_side);
    let view = wait_push(&mut creator_socket, |v| {
        v["seats"][guest_side]["taken"] == true
    })
    .await;
    assert_eq!(view["seats"][guest_side]["connected"], false);
    assert_eq!(view["seats"][guest_side]["grace_left"], 90);
    live.advance(GRACE_MS - 1).await;
    assert_eq!(creator.view(&table).await["status"]["state"], "playing");
    live.advance(1).await;
    let view = creator.view(&table).await;
    assert_eq!(view["status"]["reason"], "timeout");
    assert_eq!(view["status"]["winner"], creator_side.as_str());
}

#[tokio::test]
async fn a_player_who_returns_in_time_plays_on_and_one_who_does_not_loses_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, white, mut black_socket, white_socket) = seated_table(&live).await;
    assert_eq!(black.play(&table, 37).await.0, 200);

    // White leaves: black sees a countdown; white returns within the grace.
    leave(white_socket, &mut black_socket, "white").await;
    live.advance(30_000).await;
    let view = black.view(&table).await;
    assert_eq!(view["seats"]["white"]["grace_left"], 60);
    live.advance(GRACE_MS - 30_000 - 1).await;
    let white_socket = white.connect(&table).await;
    let view = black.view(&table).await;
    assert_eq!(view["seats"]["white"]["connected"], true);
    assert!(view["seats"]["white"]["grace_left"].is_null());
    // Past the old deadline: the timer was cancelled.
    live.advance(10 * GRACE_MS).await;
    assert_eq!(black.view(&table).await["status"]["state"], "playing");
    assert_eq!(white.play(&table, 45).await.0, 200);

    // White leaves for good: after the grace white loses, counted once.
    leave(white_socket, &mut black_socket, "white").await;
    live.advance(GRACE_MS).await;
    let view = black.view(&table).await;
    assert_eq!(view["status"]["winner"], "black");
    assert_eq!(view["status"]["reason"], "timeout");
    live.advance(GRACE_MS).await;
    assert_eq!(
        black.view(&table).await["tally"],
        json!({ "black_wins": 1, "white_wins": 0, "draws": 0 })
    );
}

#[tokio::test]
async fn when_both_players_are_gone_nobody_wins() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, _white, black_socket, white_socket) = seated_table(&live).await;
    assert_eq!(black.play(&table, 37).await.0, 200);
    let spectator = Player::new(&live).await;
    let mut watch = spectator.connect(&table).await;
    leave(black_socket, &mut watch, "black").await;
    live.advance(1_000).await;
    leave(white_socket, &mut watch, "white").await;
    live.advance(GRACE_MS - 1_000).await;
    let view = spectator.view(&table).await;
    assert_eq!(view["status"]["reason"], "abandoned");
    assert!(view["status"]["winner"].is_null());
    assert_eq!(
        view["tally"],
        json!({ "black_wins": 0, "white_wins": 0, "draws": 0 })
    );
}

#[tokio::test]
async fn a_rematch_after_a_disconnect_starts_clean_and_exports_every_round() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, white, mut black_socket, white_socket) = seated_table(&live).await;
    assert_eq!(black.play(&table, 37).await.0, 200);
    // White drops and loses round 1 by timeout.
    leave(white_socket, &mut black_socket, "white").await;
    live.advance(GRACE_MS).await;
    assert_eq!(black.view(&table).await["status"]["reason"], "timeout");
    // White comes back; both vote; round 2 starts with both present.
    let _white_socket = white.connect(&table).await;
    assert_eq!(white.vote(&table, true).await.0, 200);
    let (_, view) = black.vote(&table, true).await;
    assert_eq!(view["round"], 2);
    live.advance(10 * GRACE_MS).await;
    let view = white.view(&table).await;
    assert_eq!(view["status"]["state"], "playing");
    assert!(view["seats"]["white"]["grace_left"].is_null());
    assert_eq!(black.play(&table, 19).await.0, 200);
    assert_eq!(white.play(&table, 18).await.0, 200);

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
    assert_eq!(white.resign(&table).await.0, 200);
    assert_eq!(black.view(&table).await["tally"]["black_wins"], 1);
    let (status, fresh) = black.call("new_table", json!({ "table": table })).await;
    assert_eq!(status, 200, "{fresh}");
    let fresh = fresh.as_str().expect("id").to_string();
    assert_ne!(fresh, table);
    let view = black.view(&fresh).await;
    assert_eq!(
        view["tally"],
        json!({ "black_wins": 0, "white_wins": 0, "draws": 0 })
    );
    assert_eq!(view["round"], 1);
    assert_eq!(view["mode"], json!({ "kind": "online", "private": true }));
    assert_eq!(view["you"].as_array().map(Vec::len), Some(1));
    // The opponent is not carried over: the new table waits for a visitor.
    assert_eq!(white.view(&fresh).await["you"], json!([]));
    // The old table keeps its own tally.
    assert_eq!(white.view(&table).await["tally"]["black_wins"], 1);
    // Spectators cannot start a new table from someone else's.
    let spectator = Player::new(&live).await;
    assert_eq!(
        spectator
            .call("new_table", json!({ "table": table }))
            .await
            .0,
        422
    );
}

#[tokio::test]
async fn quick_match_pairs_two_players_and_both_get_a_full_grace() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;

    // Someone joins and leaves before anyone arrives.
    let leaver = Player::new(&live).await;
    let mut leaver_socket = leaver.socket("/ws/queue").await;
    assert_eq!(next_message(&mut leaver_socket).await["type"], "queued");
    leaver_socket.close(None).await.expect("close");
    // The close ends with the server's close frame: the queue is left by then.
    while let Ok(Some(Ok(_))) =
        tokio::time::timeout(Duration::from_secs(20), leaver_socket.next()).await
    {}
    for _ in 0..1000 {
        if live.hub.queue_len() == 0 {
            break;
        }
        tokio::task::yield_now().await;
    }
    assert_eq!(live.hub.queue_len(), 0, "the leaver left the queue");

    let first = Player::new(&live).await;
    let mut first_socket = first.socket("/ws/queue").await;
    assert_eq!(next_message(&mut first_socket).await["type"], "queued");
    let second = Player::new(&live).await;
    let mut second_socket = second.socket("/ws/queue").await;
    let matched_second = next_message(&mut second_socket).await;
    let matched_first = next_message(&mut first_socket).await;
    assert_eq!(matched_first["type"], "matched");
    assert_eq!(matched_first["table"], matched_second["table"]);
    let table = matched_first["table"].as_str().expect("id").to_string();
    let first_view = first.view(&table).await;
    let second_view = second.view(&table).await;
    let mut sides = [Player::side(&first_view), Player::side(&second_view)];
    sides.sort();
    assert_eq!(sides, ["black".to_string(), "white".to_string()]);
    // A queue socket that names no control asks for 3+2.
    assert_eq!(
        first_view["mode"],
        json!({ "kind": "online", "private": false, "time": { "base_s": 180, "increment_s": 2 } })
    );
    // Seated at pairing, not yet connected: both have a full grace from now.
    assert_eq!(first_view["seats"]["black"]["grace_left"], 90);
    assert_eq!(first_view["seats"]["white"]["grace_left"], 90);
    live.advance(GRACE_MS - 1).await;
    let _sockets = (first.connect(&table).await, second.connect(&table).await);
    // Long after the grace, well within black's 3 minutes.
    live.advance(60_000).await;
    let black = if Player::side(&first_view) == "black" {
        &first
    } else {
        &second
    };
    assert_eq!(black.play(&table, 19).await.0, 200);
}

#[tokio::test]
async fn after_a_restart_grace_resumes_from_when_the_player_left() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("db.sqlite");
    let clock = ManualClock::new(1_000_000);
    let live = Live::start(&db, clock.clone()).await;
    let (table, black, white, mut black_socket, white_socket) = seated_table(&live).await;
    assert_eq!(black.play(&table, 37).await.0, 200);
    assert_eq!(white.play(&table, 45).await.0, 200);
    // White leaves; 30 s later black leaves too and the server stops.
    leave(white_socket, &mut black_socket, "white").await;
    live.advance(30_000).await;
    let spectator = Player::new(&live).await;
    let mut watch = spectator.connect(&table).await;
    leave(black_socket, &mut watch, "black").await;
    drop(watch);
    let black_session = black.session();
    drop(live);

    // The new server replays the game; black comes back at once.
    let live = Live::start(&db, clock.clone()).await;
    let black = Player {
        url: live.url.clone(),
        ..black
    };
    assert_eq!(black.session(), black_session);
    let _black_socket = black.connect(&table).await;
    let view = black.view(&table).await;
    assert_eq!(view["history"].as_array().map(Vec::len), Some(2));
    assert_eq!(view["you"], json!(["black"]));
    // White's grace runs from when white left, not from the restart.
    assert_eq!(view["seats"]["white"]["grace_left"], 60);
    live.advance(GRACE_MS - 30_000 - 1).await;
    assert_eq!(black.view(&table).await["status"]["state"], "playing");
    live.advance(1).await;
    let view = black.view(&table).await;
    assert_eq!(view["status"]["winner"], "black");
    assert_eq!(view["status"]["reason"], "timeout");
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
        let (status, error) = player
            .call(
                "create_table_from",
                json!({ "mode": { "kind": "hot_seat" }, "obf": obf }),
            )
            .await;
        assert_eq!(status, 422, "{obf}: {error}");
        assert!(error.to_string().contains(expected), "{obf}: {error}");
    }
    let (status, error) = player
        .call(
            "create_table_from",
            json!({ "mode": { "kind": "online", "private": true },
                    "obf": "---------------------------XO------OX--------------------------- X" }),
        )
        .await;
    assert_eq!(status, 422, "{error}");
    let (status, _) = player
        .call(
            "create_table_from",
            json!({ "mode": { "kind": "hot_seat" } }),
        )
        .await;
    assert!((400..500).contains(&status), "missing obf: {status}");
    assert_eq!(
        live.hub.store().tables().await.expect("tables").len(),
        before,
        "nothing was created"
    );

    // Against the AI, from a position where the human (white) must pass:
    // the AI plays c6, white passes, the AI plays a6; the notice stays.
    let (status, table) = player
        .call(
            "create_table_from",
            json!({ "mode": { "kind": "vs_ai", "depth": 2, "human": "white" },
                    "obf": "OOOOOOOXOOOOOOXXOOOOOXXXOOOOOOXXOOOOOOXX-O-OXOXX-XXXXXXXXXXXXXXX X" }),
        )
        .await;
    assert_eq!(status, 200, "{table}");
    let table = table.as_str().expect("id").to_string();
    let mut socket = player.socket(&format!("/ws/table/{table}")).await;
    let view = wait_push(&mut socket, |v| {
        v["history"].as_array().map(Vec::len) == Some(3) && v["ai_thinking"] == false
    })
    .await;
    let history: Vec<String> = view["history"]
        .as_array()
        .expect("history")
        .iter()
        .map(|h| format!("{} {}", h["side"], h["square"]))
        .collect();
    assert_eq!(
        history,
        ["\"black\" \"c6\"", "\"white\" null", "\"black\" \"a6\""],
        "the move list shows the pass"
    );
    assert_eq!(
        view["notice"], "White has no legal move and passes; Black plays again.",
        "the AI's second move did not clear the pass notice"
    );
    assert_eq!(view["status"]["to_move"], "white");
    // The human's own move clears it (and here ends the game).
    let (status, view) = player.play(&table, 48).await;
    assert_eq!(status, 200, "{view}");
    assert!(!view["notice"]
        .as_str()
        .unwrap_or_default()
        .contains("has no legal move"));
    // The export shows the pass.
    let (_, text) = player.get(&format!("/table/{table}/export.txt")).await;
    assert!(
        text.contains("White has no legal move and passes."),
        "{text}"
    );
}

// ----- clocks (issue 20) -----

const C32: fn() -> Value = || json!({ "base_s": 180, "increment_s": 2 });

/// A timed private table with both players seated and connected:
/// (id, black, white, black's socket, white's socket).
async fn timed_table(live: &Live, time: Value) -> (String, Player, Player, Socket, Socket) {
    let creator = Player::new(live).await;
    let (status, table) = creator
        .call(
            "create_table",
            json!({ "mode": { "kind": "online", "private": true, "time": time } }),
        )
        .await;
    assert_eq!(status, 200, "{table}");
    let table = table.as_str().expect("id").to_string();
    let creator_side = Player::side(&creator.view(&table).await);
    let creator_socket = creator.connect(&table).await;
    let guest = Player::new(live).await;
    let guest_socket = guest.connect(&table).await;
    let (status, view) = guest.take_seat(&table).await;
    assert_eq!(status, 200, "{view}");
    if creator_side == "black" {
        (table, creator, guest, creator_socket, guest_socket)
    } else {
        (table, guest, creator, guest_socket, creator_socket)
    }
}

fn clock_ms(view: &Value, side: &str) -> i64 {
    view["clocks"][format!("{side}_ms")]
        .as_i64()
        .unwrap_or_else(|| panic!("no clock in {view}"))
}

#[tokio::test]
async fn an_untimed_private_table_has_no_clock_and_no_flag() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, _white, _b, _w) = seated_table(&live).await;
    let view = black.view(&table).await;
    assert_eq!(view["clocks"], Value::Null);
    assert_eq!(view["mode"], json!({ "kind": "online", "private": true }));
    live.advance(24 * 3600 * 1000 - 1).await;
    assert_eq!(black.play(&table, 19).await.0, 200);
}

#[tokio::test]
async fn the_flag_falls_on_the_timer_with_no_request_and_counts_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, white, mut black_socket, _white_socket) = timed_table(&live, C32()).await;
    let view = black.view(&table).await;
    assert_eq!(view["clocks"]["running"], "black");
    assert_eq!(view["clocks"]["server_ms"], 1_000_000);
    assert_eq!(clock_ms(&view, "black"), 180_000);
    // Black thinks 10 s: charged 10 s, gets 2 s; white's clock now runs.
    live.advance(10_000).await;
    assert_eq!(black.play(&table, 19).await.0, 200);
    let view = white.view(&table).await;
    assert_eq!(clock_ms(&view, "black"), 172_000);
    assert_eq!(clock_ms(&view, "white"), 180_000);
    assert_eq!(view["clocks"]["running"], "white");
    // White never moves; only the timer runs.
    live.advance(179_999).await;
    assert_eq!(clock_ms(&black.view(&table).await, "white"), 1);
    assert_eq!(black.view(&table).await["status"]["state"], "playing");
    live.advance(1).await;
    let over = wait_push(&mut black_socket, |v| v["status"]["state"] == "over").await;
    assert_eq!(over["status"]["winner"], "black");
    assert_eq!(over["status"]["reason"], "time");
    assert_eq!(clock_ms(&over, "white"), 0);
    assert_eq!(over["clocks"]["running"], Value::Null);
    assert_eq!(over["tally"]["black_wins"], 1);
    // Later ticks and a late move change nothing.
    live.advance(600_000).await;
    assert_eq!(white.play(&table, 18).await.0, 422);
    let view = black.view(&table).await;
    assert_eq!(
        view["tally"],
        json!({ "black_wins": 1, "white_wins": 0, "draws": 0 })
    );
    // The export carries the control and the time of every move.
    let (status, ggf) = black.get(&format!("/table/{table}/export.ggf")).await;
    assert_eq!(status, 200, "{ggf}");
    assert!(ggf.contains("TI[03:00/00:02]"), "{ggf}");
    assert!(ggf.contains("B[D3//10.00]"), "{ggf}");
    assert!(ggf.contains("RE[+64.000:r]"), "{ggf}");
}

#[tokio::test]
async fn a_move_that_arrives_after_the_flag_fell_loses_on_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, _white, _b, _w) = timed_table(&live, C32()).await;
    // No tick: the clock passes 180 s and then black's move arrives.
    live.clock.advance(180_000);
    let (status, answer) = black.play(&table, 19).await;
    assert_eq!(status, 422, "{answer}");
    let view = black.view(&table).await;
    assert_eq!(view["status"]["reason"], "time");
    assert_eq!(view["status"]["winner"], "white");
    assert_eq!(view["history"], json!([]));
}

#[tokio::test]
async fn a_forced_pass_costs_the_passer_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, white, _b, _w) = timed_table(&live, C32()).await;
    // Play first-legal moves, one second each, until somebody passes.
    let mut before = black.view(&table).await;
    for _ in 0..64 {
        let Some(to_move) = before["status"]["to_move"].as_str().map(str::to_string) else {
            panic!("the game ended without a pass: {before}");
        };
        let mover = if to_move == "black" { &black } else { &white };
        let legal = mover.view(&table).await["board"]["legal"][0]
            .as_u64()
            .expect("a legal move");
        live.advance(1_000).await;
        assert_eq!(mover.play(&table, legal).await.0, 200);
        let after = black.view(&table).await;
        let passed = after["history"]
            .as_array()
            .expect("history")
            .last()
            .is_some_and(|h| h["square"].is_null());
        if passed {
            let passer = other(&to_move);
            // The passer's clock did not move; the mover's runs again from
            // the commit, with the increment added.
            assert_eq!(clock_ms(&after, passer), clock_ms(&before, passer));
            assert_eq!(
                clock_ms(&after, &to_move),
                clock_ms(&before, &to_move) - 1_000 + 2_000
            );
            assert_eq!(after["clocks"]["running"], to_move.as_str());
            live.advance(5_000).await;
            let later = black.view(&table).await;
            assert_eq!(clock_ms(&later, passer), clock_ms(&before, passer));
            assert_eq!(
                clock_ms(&later, &to_move),
                clock_ms(&after, &to_move) - 5_000
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
    let (table, black, white, black_socket, mut white_socket) =
        timed_table(&live, json!({ "base_s": 60, "increment_s": 0 })).await;
    leave(black_socket, &mut white_socket, "black").await;
    live.advance(59_999).await;
    assert_eq!(white.view(&table).await["status"]["state"], "playing");
    live.advance(1).await;
    let view = white.view(&table).await;
    assert_eq!(view["status"]["reason"], "time");
    assert_eq!(view["status"]["winner"], "white");
    let _ = black;
    // 3 minutes on the clock: the grace ends first.
    let (table, _black, white, black_socket, mut white_socket) = timed_table(&live, C32()).await;
    leave(black_socket, &mut white_socket, "black").await;
    live.advance(GRACE_MS).await;
    let view = white.view(&table).await;
    assert_eq!(view["status"]["reason"], "timeout");
    assert_eq!(view["tally"]["white_wins"], 1);
}

#[tokio::test]
async fn controls_the_lobby_does_not_offer_are_refused_without_the_test_flag() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let player = Player::new(&live).await;
    let before = live.hub.store().tables().await.expect("tables").len();
    for mode in [
        json!({ "kind": "online", "private": true, "time": { "base_s": 60, "increment_s": 0 } }),
        json!({ "kind": "online", "private": true, "time": { "base_s": 0, "increment_s": 0 } }),
        json!({ "kind": "online", "private": false }),
        json!({ "kind": "online", "private": true, "time": { "base_s": -5, "increment_s": 0 } }),
    ] {
        let (status, answer) = player.call("create_table", json!({ "mode": mode })).await;
        assert!((400..500).contains(&status), "{mode}: {status} {answer}");
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
    assert_eq!(next_message(&mut fast_socket).await["type"], "queued");
    let slow = Player::new(&live).await;
    let mut slow_socket = slow.socket("/ws/queue?base=600&inc=5").await;
    assert_eq!(next_message(&mut slow_socket).await["type"], "queued");
    assert_eq!(live.hub.queue_len(), 2, "different controls do not pair");
    let slow2 = Player::new(&live).await;
    let mut slow2_socket = slow2.socket("/ws/queue?base=600&inc=5").await;
    let matched = next_message(&mut slow2_socket).await;
    assert_eq!(matched["type"], "matched");
    assert_eq!(
        next_message(&mut slow_socket).await["table"],
        matched["table"]
    );
    let table = matched["table"].as_str().expect("id");
    let view = slow.view(table).await;
    assert_eq!(
        view["mode"]["time"],
        json!({ "base_s": 600, "increment_s": 5 })
    );
    assert_eq!(clock_ms(&view, "black"), 600_000);
    assert_eq!(live.hub.queue_len(), 1, "the 3+2 player still waits");
}

#[tokio::test]
async fn a_rematch_keeps_the_control_with_full_clocks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (table, black, white, _b, _w) = timed_table(&live, C32()).await;
    live.advance(30_000).await;
    assert_eq!(black.play(&table, 19).await.0, 200);
    assert_eq!(white.resign(&table).await.0, 200);
    live.advance(500_000).await;
    assert_eq!(black.vote(&table, true).await.0, 200);
    assert_eq!(white.vote(&table, true).await.0, 200);
    let view = black.view(&table).await;
    assert_eq!(view["round"], 2);
    assert_eq!(view["mode"]["time"], C32());
    assert_eq!(clock_ms(&view, "black"), 180_000);
    assert_eq!(clock_ms(&view, "white"), 180_000);
    assert_eq!(view["clocks"]["running"], "black");
    live.advance(180_000).await;
    let view = black.view(&table).await;
    assert_eq!(view["status"]["reason"], "time");
    assert_eq!(
        view["tally"],
        json!({ "black_wins": 1, "white_wins": 1, "draws": 0 })
    );
    // A new table from this one keeps the control too.
    let (status, id) = black.call("new_table", json!({ "table": table })).await;
    assert_eq!(status, 200, "{id}");
    let view = black.view(id.as_str().expect("id")).await;
    assert_eq!(
        view["mode"],
        json!({ "kind": "online", "private": true, "time": C32() })
    );
}

#[tokio::test]
async fn after_a_restart_the_clocks_resume_without_charging_the_downtime() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("db.sqlite");
    let clock = ManualClock::new(1_000_000);
    let live = Live::start(&db, clock.clone()).await;
    let (table, black, white, _b, _w) = timed_table(&live, C32()).await;
    live.advance(20_000).await;
    assert_eq!(black.play(&table, 19).await.0, 200);
    live.advance(7_000).await;
    assert_eq!(white.play(&table, 18).await.0, 200);
    live.advance(3_000).await;
    drop(live);
    // The server is down for an hour.
    clock.advance(3_600_000);
    let live = Live::start(&db, clock.clone()).await;
    let black = Player {
        url: live.url.clone(),
        ..black
    };
    let white = Player {
        url: live.url.clone(),
        ..white
    };
    // Both come back at once (so no grace ends first).
    let _sockets = (black.connect(&table).await, white.connect(&table).await);
    let view = black.view(&table).await;
    assert_eq!(view["clocks"]["running"], "black");
    assert_eq!(clock_ms(&view, "black"), 180_000 - 20_000 + 2_000);
    assert_eq!(clock_ms(&view, "white"), 180_000 - 7_000 + 2_000);
    live.advance(162_000 - 1).await;
    assert_eq!(black.view(&table).await["status"]["state"], "playing");
    live.advance(1).await;
    let view = black.view(&table).await;
    assert_eq!(view["status"]["reason"], "time");
    assert_eq!(view["status"]["winner"], "white");
    let (_, ggf) = black.get(&format!("/table/{table}/export.ggf")).await;
    assert!(ggf.contains("B[D3//20.00]W[C3//7.00]"), "{ggf}");
}
