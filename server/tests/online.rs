//! Online play end to end: private links, quick match, seats, turns,
//! presence and grace periods, rematch votes, restart mid-game.

mod common;

use common::Server;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A browser: one session cookie.
struct Player {
    http: reqwest::Client,
    url: String,
    cookie: String,
}

impl Player {
    async fn new(url: &str) -> Player {
        let http = reqwest::Client::new();
        let response = http.get(format!("{url}/")).send().await.expect("lobby");
        let cookie = response
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|v| v.starts_with("othello_session="))
            .and_then(|v| v.split(';').next())
            .expect("a session cookie")
            .to_string();
        Player {
            http,
            url: url.to_string(),
            cookie,
        }
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

    async fn view(&self, table: &str) -> Value {
        let (status, view) = self.call("get_table", json!({ "table": table })).await;
        assert_eq!(status, 200, "{view}");
        view
    }

    async fn play(&self, table: &str, square: u64) -> (u16, Value) {
        self.call("play_move", json!({ "table": table, "square": square }))
            .await
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

/// The next JSON message on a socket (with a timeout).
async fn next_message(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("a message in time")
            .expect("socket open")
            .expect("no socket error");
        if let Message::Text(text) = message {
            return serde_json::from_str(&text).expect("JSON");
        }
    }
}

/// Waits until `check` holds for the player's view of the table.
async fn wait_for(player: &Player, table: &str, check: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..200 {
        let view = player.view(table).await;
        if check(&view) {
            return view;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("condition not reached for table {table}");
}

/// A private table with its two players seated and connected: (black, white).
async fn private_table(url: &str) -> (String, Player, Player, Socket, Socket) {
    let creator = Player::new(url).await;
    let (status, table) = creator
        .call(
            "create_table",
            json!({ "mode": { "kind": "online", "private": true } }),
        )
        .await;
    assert_eq!(status, 200, "{table}");
    let table = table.as_str().expect("id").to_string();
    let creator_view = creator.view(&table).await;
    assert_eq!(creator_view["you"].as_array().map(Vec::len), Some(1));
    let guest = Player::new(url).await;
    let guest_view = guest.view(&table).await;
    assert_ne!(Player::side(&guest_view), Player::side(&creator_view));
    let creator_socket = creator.socket(&format!("/ws/table/{table}")).await;
    let guest_socket = guest.socket(&format!("/ws/table/{table}")).await;
    if Player::side(&creator_view) == "black" {
        (table, creator, guest, creator_socket, guest_socket)
    } else {
        (table, guest, creator, guest_socket, creator_socket)
    }
}

#[tokio::test]
async fn private_link_seats_the_first_visitor_and_later_ones_watch() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&dir.path().join("db.sqlite"), &[]);
    let (table, black, white, mut black_socket, _white_socket) = private_table(&server.url).await;

    // A third visitor is a spectator: sees the table, cannot move or vote.
    let spectator = Player::new(&server.url).await;
    let view = spectator.view(&table).await;
    assert_eq!(view["you"], json!([]));
    let mut spectator_socket = spectator.socket(&format!("/ws/table/{table}")).await;
    let first = next_message(&mut spectator_socket).await;
    assert_eq!(first["type"], "state");
    let (status, error) = spectator.play(&table, 37).await;
    assert_eq!(status, 422);
    assert!(error.to_string().contains("not seated"), "{error}");

    // Only the side to move may move; the other is refused and nothing changes.
    let (status, error) = white.play(&table, 37).await;
    assert_eq!(status, 422);
    assert!(error.to_string().contains("not your turn"), "{error}");
    let (status, _) = black.play(&table, 37).await;
    assert_eq!(status, 200);
    let (status, error) = black.play(&table, 45).await;
    assert_eq!(status, 422, "black may not move twice");
    assert!(error.to_string().contains("not your turn"), "{error}");

    // The spectator sees the move pushed.
    let pushed = loop {
        let message = next_message(&mut spectator_socket).await;
        if message["table"]["history"].as_array().map(Vec::len) == Some(1) {
            break message;
        }
    };
    assert_eq!(pushed["table"]["history"][0]["square"], "f5");
    // The black player's socket sees it too.
    loop {
        let message = next_message(&mut black_socket).await;
        if message["table"]["history"].as_array().map(Vec::len) == Some(1) {
            assert_eq!(message["table"]["you"], json!(["black"]));
            break;
        }
    }

    // Resign, then votes: a vote can be withdrawn before the other votes.
    let (status, _) = white
        .call("resign", json!({ "table": table, "side": null }))
        .await;
    assert_eq!(status, 200);
    async fn vote_as(player: &Player, table: &str, vote: bool) -> (u16, Value) {
        player
            .call(
                "vote_rematch",
                json!({ "table": table, "side": null, "vote": vote }),
            )
            .await
    }
    let vote = |player, vote| vote_as(player, &table, vote);
    assert_eq!(vote(&black, true).await.0, 200);
    let (_, view) = vote(&black, false).await;
    assert_eq!(view["votes"], json!({ "black": false, "white": false }));
    let (status, _) = spectator
        .call(
            "vote_rematch",
            json!({ "table": table, "side": null, "vote": true }),
        )
        .await;
    assert_eq!(status, 422, "spectators cannot vote");
    assert_eq!(vote(&white, true).await.0, 200);
    let (_, view) = vote(&black, true).await;
    assert_eq!(view["round"], 2);
    assert_eq!(view["tally"]["black_wins"], 1);
    assert_eq!(view["you"], json!(["black"]), "colours carry over");
}

#[tokio::test]
async fn quick_match_pairs_two_players_and_a_leaver_is_removed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&dir.path().join("db.sqlite"), &[]);
    let url = &server.url;

    // Someone joins and leaves before anyone arrives.
    let leaver = Player::new(url).await;
    let mut leaver_socket = leaver.socket("/ws/queue").await;
    assert_eq!(next_message(&mut leaver_socket).await["type"], "queued");
    leaver_socket.close(None).await.expect("close");
    drop(leaver_socket);
    tokio::time::sleep(Duration::from_millis(200)).await;

    let first = Player::new(url).await;
    let mut first_socket = first.socket("/ws/queue").await;
    assert_eq!(
        next_message(&mut first_socket).await["type"],
        "queued",
        "the leaver was removed, so the first player waits"
    );
    let second = Player::new(url).await;
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
    assert_eq!(
        first_view["mode"],
        json!({ "kind": "online", "private": false })
    );
    let black = if Player::side(&first_view) == "black" {
        &first
    } else {
        &second
    };
    let _sockets = (
        first.socket(&format!("/ws/table/{table}")).await,
        second.socket(&format!("/ws/table/{table}")).await,
    );
    assert_eq!(black.play(&table, 19).await.0, 200);
}

#[tokio::test]
async fn a_player_who_returns_in_time_plays_on_and_one_who_does_not_loses_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(
        &dir.path().join("db.sqlite"),
        &["--grace-secs", "4", "--presence-check-ms", "100"],
    );
    let (table, black, white, _black_socket, white_socket) = private_table(&server.url).await;
    assert_eq!(black.play(&table, 37).await.0, 200);

    // White leaves: black sees a countdown; white returns within the grace.
    drop(white_socket);
    let view = wait_for(&black, &table, |v| {
        !v["seats"]["white"]["grace_left"].is_null()
    })
    .await;
    assert!(
        view["seats"]["white"]["grace_left"]
            .as_u64()
            .expect("seconds")
            <= 4
    );
    assert_eq!(view["seats"]["white"]["connected"], false);
    let white_socket = white.socket(&format!("/ws/table/{table}")).await;
    let view = wait_for(&black, &table, |v| v["seats"]["white"]["connected"] == true).await;
    assert!(view["seats"]["white"]["grace_left"].is_null());
    // Longer than the grace: had the timer not been cancelled, white would lose.
    tokio::time::sleep(Duration::from_millis(4500)).await;
    let view = black.view(&table).await;
    assert_eq!(
        view["status"]["state"], "playing",
        "white came back in time"
    );
    assert_eq!(white.play(&table, 45).await.0, 200);

    // White leaves for good: after the grace white loses, counted once.
    drop(white_socket);
    let view = wait_for(&black, &table, |v| v["status"]["state"] == "over").await;
    assert_eq!(view["status"]["winner"], "black");
    assert_eq!(view["status"]["reason"], "timeout");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let view = black.view(&table).await;
    assert_eq!(
        view["tally"],
        json!({ "black_wins": 1, "white_wins": 0, "draws": 0 })
    );
}

#[tokio::test]
async fn when_both_players_are_gone_nobody_wins() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(
        &dir.path().join("db.sqlite"),
        &["--grace-secs", "1", "--presence-check-ms", "100"],
    );
    let (table, black, _white, black_socket, white_socket) = private_table(&server.url).await;
    assert_eq!(black.play(&table, 37).await.0, 200);
    drop(black_socket);
    drop(white_socket);
    let spectator = Player::new(&server.url).await;
    let view = wait_for(&spectator, &table, |v| v["status"]["state"] == "over").await;
    assert_eq!(view["status"]["reason"], "abandoned");
    assert!(view["status"]["winner"].is_null());
    assert_eq!(
        view["tally"],
        json!({ "black_wins": 0, "white_wins": 0, "draws": 0 })
    );
}

#[tokio::test]
async fn after_a_restart_mid_game_players_reconnect_and_grace_timers_resume() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("db.sqlite");
    let args = ["--grace-secs", "6", "--presence-check-ms", "100"];
    let server = Server::start(&db, &args);
    let (table, black, white, black_socket, white_socket) = private_table(&server.url).await;
    assert_eq!(black.play(&table, 37).await.0, 200);
    assert_eq!(white.play(&table, 45).await.0, 200);
    server.kill();
    drop((black_socket, white_socket));

    // Both come back on the new server and play on.
    let server = Server::start(&db, &args);
    let black = Player {
        url: server.url.clone(),
        ..black
    };
    let white = Player {
        url: server.url.clone(),
        ..white
    };
    let black_socket = black.socket(&format!("/ws/table/{table}")).await;
    let white_socket = white.socket(&format!("/ws/table/{table}")).await;
    let view = black.view(&table).await;
    assert_eq!(view["history"].as_array().map(Vec::len), Some(2));
    assert_eq!(view["you"], json!(["black"]));
    let square = view["board"]["legal"][0].as_u64().expect("legal");
    assert_eq!(black.play(&table, square).await.0, 200);

    // White leaves, the server dies 2 s later; after the restart white's
    // grace keeps running from when white left, not from the restart.
    drop(white_socket);
    wait_for(&black, &table, |v| {
        v["seats"]["white"]["connected"] == false
    })
    .await;
    tokio::time::sleep(Duration::from_millis(2000)).await;
    server.kill();
    drop(black_socket);
    let server = Server::start(&db, &args);
    let black = Player {
        url: server.url.clone(),
        ..black
    };
    let _black_socket = black.socket(&format!("/ws/table/{table}")).await;
    let started = std::time::Instant::now();
    let view = wait_for(&black, &table, |v| v["status"]["state"] == "over").await;
    assert_eq!(view["status"]["winner"], "black");
    assert_eq!(view["status"]["reason"], "timeout");
    assert!(
        started.elapsed() < Duration::from_millis(5000),
        "the remaining ~3 s of grace were honoured, not a fresh 6 s ({:?})",
        started.elapsed()
    );
}
