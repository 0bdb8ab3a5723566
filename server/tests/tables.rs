//! The server end to end, through the same HTTP endpoints a browser uses.

mod common;

use common::{call, client, Server};
use serde_json::json;

async fn new_session(client: &reqwest::Client, url: &str) {
    let page = client.get(format!("{url}/")).send().await.expect("lobby");
    assert!(page.status().is_success());
}

async fn create(client: &reqwest::Client, url: &str, mode: serde_json::Value) -> String {
    let (status, id) = call(client, url, "create_table", json!({ "mode": mode })).await;
    assert_eq!(status, 200, "{id}");
    id.as_str().expect("table id").to_string()
}

async fn play(client: &reqwest::Client, url: &str, table: &str, square: u8) -> serde_json::Value {
    let (status, view) = call(
        client,
        url,
        "play_move",
        json!({ "table": table, "square": square }),
    )
    .await;
    assert_eq!(status, 200, "move {square}: {view}");
    view
}

#[tokio::test]
async fn after_sigkill_the_game_continues_from_the_same_position_and_tally() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("othello.db");
    let server = Server::start(&db, &[]);
    let url = server.url.clone();
    let player = client();
    new_session(&player, &url).await;
    let table = create(&player, &url, json!({ "kind": "hot_seat" })).await;

    // Round 1: two moves, then black resigns; both vote for a rematch.
    play(&player, &url, &table, 37).await;
    play(&player, &url, &table, 45).await;
    let (status, _) = call(
        &player,
        &url,
        "resign",
        json!({ "table": table, "side": null }),
    )
    .await;
    assert_eq!(status, 200);
    for side in ["black", "white"] {
        let (status, view) = call(
            &player,
            &url,
            "vote_rematch",
            json!({ "table": table, "side": side, "vote": true }),
        )
        .await;
        assert_eq!(status, 200, "{view}");
    }
    // Round 2: three moves.
    for square in [19, 18, 17] {
        play(&player, &url, &table, square).await;
    }
    let (_, before) = call(&player, &url, "get_table", json!({ "table": table })).await;
    assert_eq!(before["round"], 2);
    assert_eq!(before["tally"]["black_wins"], 0);
    assert_eq!(before["tally"]["white_wins"], 1);

    server.kill();
    let server = Server::start(&db, &[]);
    let url = server.url.clone();
    let (status, after) = call(&player, &url, "get_table", json!({ "table": table })).await;
    assert_eq!(status, 200, "{after}");
    for field in [
        "round",
        "tally",
        "history",
        "status",
        "black_count",
        "white_count",
        "votes",
    ] {
        assert_eq!(after[field], before[field], "{field} survives the restart");
    }
    assert_eq!(after["board"]["cells"], before["board"]["cells"]);
    assert_eq!(after["board"]["version"], before["board"]["version"]);
    // The same player (same cookie) plays on.
    let legal = after["board"]["legal"][0].as_u64().expect("a legal move") as u8;
    let next = play(&player, &url, &table, legal).await;
    assert_eq!(
        next["history"].as_array().map(Vec::len),
        before["history"].as_array().map(|h| h.len() + 1)
    );
}

#[tokio::test]
async fn a_missing_or_forged_session_cannot_move_and_bad_input_changes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&dir.path().join("othello.db"), &[]);
    let url = server.url.clone();
    let owner = client();
    new_session(&owner, &url).await;
    let table = create(&owner, &url, json!({ "kind": "hot_seat" })).await;

    // A stranger with a fresh session.
    let stranger = client();
    let (status, error) = call(
        &stranger,
        &url,
        "play_move",
        json!({ "table": table, "square": 37 }),
    )
    .await;
    assert_eq!(status, 422);
    assert!(error.to_string().contains("not seated"), "{error}");

    // A forged cookie (well-formed but unknown) gets a new session, not a seat.
    let forged = reqwest::Client::new()
        .post(format!("{url}/api/play_move"))
        .header("content-type", "application/json")
        .header("origin", &url)
        .header("cookie", format!("othello_session={}", "ab".repeat(32)))
        .body(json!({ "table": table, "square": 37 }).to_string())
        .send()
        .await
        .expect("request");
    assert_eq!(forged.status().as_u16(), 422);
    assert!(forged.text().await.expect("body").contains("not seated"));

    // Out-of-range square, unknown table, malformed JSON: clear errors.
    let (status, error) = call(
        &owner,
        &url,
        "play_move",
        json!({ "table": table, "square": 64 }),
    )
    .await;
    assert_eq!(status, 422);
    assert!(error.to_string().contains("not on the board"), "{error}");
    let (status, error) = call(
        &owner,
        &url,
        "play_move",
        json!({ "table": "nope", "square": 37 }),
    )
    .await;
    assert_eq!(status, 404, "an unknown table is not found");
    assert!(error.to_string().contains("No such table"), "{error}");
    let malformed = owner
        .post(format!("{url}/api/play_move"))
        .header("content-type", "application/json")
        .header("origin", &url)
        .body("{\"table\": ")
        .send()
        .await
        .expect("request");
    assert_eq!(malformed.status().as_u16(), 400);
    let body: serde_json::Value = malformed.json().await.expect("a JSON error");
    let message = body["message"].as_str().unwrap_or_default();
    assert!(message.starts_with("malformed request"), "{body}");
    // A square past a byte's range cannot even be read: 400, not 500.
    let (status, error) = call(
        &owner,
        &url,
        "play_move",
        json!({ "table": table, "square": 300 }),
    )
    .await;
    assert_eq!(status, 400, "{error}");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("malformed request")),
        "{error}"
    );
    let (status, error) = call(
        &owner,
        &url,
        "create_table",
        json!({ "mode": { "kind": "vs_ai", "depth": 9, "human": "black" } }),
    )
    .await;
    assert_eq!(status, 422);
    assert!(error.to_string().contains("between 1 and 6"), "{error}");

    // Nothing changed.
    let (_, view) = call(&owner, &url, "get_table", json!({ "table": table })).await;
    assert_eq!(view["history"].as_array().map(Vec::len), Some(0));
    // The refusals are counted in the metrics, which answer in Prometheus text.
    let metrics = owner
        .get(format!("{url}/metrics"))
        .send()
        .await
        .expect("metrics")
        .text()
        .await
        .expect("body");
    for name in [
        "othello_live_tables 1",
        "othello_open_sockets 0",
        "othello_ai_queue_depth 0",
        "othello_moves_total 0",
        "othello_moves_per_second",
    ] {
        assert!(metrics.contains(name), "{name} in\n{metrics}");
    }
    let refused = metrics
        .lines()
        .find_map(|l| l.strip_prefix("othello_commands_refused_total "))
        .and_then(|v| v.parse::<u64>().ok())
        .expect("refusal counter");
    assert!(refused >= 1, "{metrics}");
    // The server is still healthy.
    let health = owner
        .get(format!("{url}/healthz"))
        .send()
        .await
        .expect("health");
    assert!(health.status().is_success());
}

#[tokio::test]
async fn a_cross_origin_websocket_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(
        &dir.path().join("othello.db"),
        &["--allowed-origins", "https://friend.example"],
    );
    let url = server.url.clone();
    let owner = client();
    new_session(&owner, &url).await;
    let table = create(&owner, &url, json!({ "kind": "hot_seat" })).await;
    let upgrade = |origin: &str| {
        owner
            .get(format!("{url}/ws/table/{table}"))
            .header("connection", "Upgrade")
            .header("upgrade", "websocket")
            .header("sec-websocket-version", "13")
            .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
            .header("origin", origin.to_string())
            .send()
    };
    let evil = upgrade("http://evil.example").await.expect("request");
    assert_eq!(evil.status().as_u16(), 403);
    let own = upgrade(&url).await.expect("request");
    assert_eq!(own.status().as_u16(), 101);
    let friend = upgrade("https://friend.example").await.expect("request");
    assert_eq!(friend.status().as_u16(), 101);
}

#[tokio::test]
async fn choosing_white_makes_the_ai_open() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&dir.path().join("othello.db"), &[]);
    let url = server.url.clone();
    let player = client();
    new_session(&player, &url).await;
    let table = create(
        &player,
        &url,
        json!({ "kind": "vs_ai", "depth": 3, "human": "white" }),
    )
    .await;
    let mut view = serde_json::Value::Null;
    for _ in 0..100 {
        view = call(&player, &url, "get_table", json!({ "table": table }))
            .await
            .1;
        if view["history"].as_array().map(Vec::len) == Some(1) && view["ai_thinking"] == false {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(view["history"][0]["side"], "black", "{view}");
    assert_eq!(view["you"], json!(["white"]));
    assert_eq!(view["status"]["to_move"], "white");
}

#[tokio::test]
async fn the_server_refuses_to_start_on_a_bad_setting() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_othello-server"))
        .args(["--listen", "not-an-address"])
        .output()
        .expect("runs");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("invalid value"));
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_othello-server"))
        .args([
            "--listen",
            "127.0.0.1:0",
            "--database",
            "/proc/no-such-dir/othello.db",
        ])
        .output()
        .expect("runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("database"), "{stderr}");
}
