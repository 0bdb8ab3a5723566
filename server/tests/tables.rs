//! The server end to end, through the same HTTP endpoints a browser uses
//! (the typed protocol client, `testclient`).

mod common;

use app::protocol::{RoundStatus, Side, TableId, TableMode, TableView};
use common::{client, visitor, InProcess, Server};
use serde_json::json;
use testclient::{Client, Refusal};

async fn play(player: &Client, table: &TableId, square: u8) -> TableView {
    player
        .play_move(table, square)
        .await
        .unwrap_or_else(|e| panic!("move {square}: {e}"))
}

/// Asserts a call was refused with `status` and a message containing `text`.
fn assert_refused<T: std::fmt::Debug>(answer: Result<T, Refusal>, status: u16, text: &str) {
    let refusal = answer.expect_err("refused");
    assert_eq!(refusal.status, status, "{refusal}");
    assert!(refusal.message.contains(text), "{refusal}");
}

#[tokio::test]
async fn after_sigkill_the_game_continues_from_the_same_position_and_tally() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("othello.db");
    let server = Server::start(&db, &[]);
    let player = visitor(&server.url).await;
    let table = player
        .create_table(TableMode::HotSeat)
        .await
        .expect("create_table");

    // Round 1: two moves, then black resigns; both vote for a rematch.
    play(&player, &table, 37).await;
    play(&player, &table, 45).await;
    player.resign(&table, None).await.expect("resign");
    for side in [Side::Black, Side::White] {
        player
            .vote_rematch(&table, Some(side), true)
            .await
            .expect("vote");
    }
    // Round 2: three moves.
    for square in [19, 18, 17] {
        play(&player, &table, square).await;
    }
    let before = player.get_table(&table).await.expect("get_table");
    assert_eq!(before.round, 2);
    assert_eq!(before.tally.black_wins, 0);
    assert_eq!(before.tally.white_wins, 1);

    server.kill();
    let server = Server::start(&db, &[]);
    // The same player (same cookie) on the restarted server.
    let player = player.at(&server.url);
    let after = player.get_table(&table).await.expect("get_table");
    assert_eq!(after.round, before.round, "round survives the restart");
    assert_eq!(after.tally, before.tally, "tally survives the restart");
    assert_eq!(
        after.history, before.history,
        "history survives the restart"
    );
    assert_eq!(after.status, before.status, "status survives the restart");
    assert_eq!(after.black_count, before.black_count);
    assert_eq!(after.white_count, before.white_count);
    assert_eq!(after.votes, before.votes, "votes survive the restart");
    assert_eq!(after.board.cells, before.board.cells);
    assert_eq!(after.board.version, before.board.version);
    // The same player plays on.
    let legal = *after.board.legal.first().expect("a legal move");
    let next = play(&player, &table, legal).await;
    assert_eq!(next.history.len(), before.history.len() + 1);
}

#[tokio::test]
async fn a_missing_or_forged_session_cannot_move_and_bad_input_changes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (server, metrics_url) = Server::start_with_metrics(&dir.path().join("othello.db"), &[]);
    let url = server.url.clone();
    let owner = visitor(&url).await;
    let table = owner
        .create_table(TableMode::HotSeat)
        .await
        .expect("create_table");

    // A stranger with a fresh session.
    let stranger = Client::new(&url);
    assert_refused(stranger.play_move(&table, 37).await, 422, "not seated");

    // A forged cookie (well-formed but unknown) gets a new session, not a seat.
    let forged = Client::with_token(&url, &"ab".repeat(32));
    assert_refused(forged.play_move(&table, 37).await, 422, "not seated");

    // Out-of-range square, unknown table, malformed JSON: clear errors.
    assert_refused(owner.play_move(&table, 64).await, 422, "not on the board");
    assert_refused(
        owner.play_move(&app::ids::TableId::new("nope"), 37).await,
        404,
        "No such table",
    );
    // An id no table could have (typed ids are checked where they arrive).
    for malformed in ["", "a b", "../x", "\u{e9}", &"f".repeat(65)] {
        let id = TableId::new(malformed);
        assert_refused(owner.get_table(&id).await, 404, "No such table");
    }
    let malformed = client()
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
    let (status, error) = owner
        .call_raw("play_move", &json!({ "table": table, "square": 300 }))
        .await
        .expect("request");
    assert_eq!(status, 400, "{error}");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("malformed request")),
        "{error}"
    );
    assert_refused(
        owner
            .create_table(TableMode::VsAi {
                depth: 9,
                human: Side::Black,
            })
            .await,
        422,
        "between 1 and 6",
    );

    // Nothing changed.
    let view = owner.get_table(&table).await.expect("get_table");
    assert!(view.history.is_empty());
    // The refusals are counted in the metrics, which answer in Prometheus text.
    // (`/metrics` is served only on `--metrics-listen`.)
    let (status, _) = owner.get("/metrics").await.expect("metrics");
    assert_eq!(status, 404, "the public address does not serve /metrics");
    let metrics = common::metrics(&metrics_url).await;
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
    let (status, _) = owner.get("/healthz").await.expect("health");
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_cross_origin_websocket_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = InProcess::start(
        &dir.path().join("othello.db"),
        &["--allowed-origins", "https://friend.example"],
    )
    .await;
    let url = server.url.clone();
    let table = visitor(&url)
        .await
        .create_table(TableMode::HotSeat)
        .await
        .expect("create_table");
    let owner = client();
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
    let server = InProcess::start(&dir.path().join("othello.db"), &[]).await;
    let url = server.url.clone();
    let player = visitor(&url).await;
    let table = player
        .create_table(TableMode::VsAi {
            depth: 3,
            human: Side::White,
        })
        .await
        .expect("create_table");
    let mut view = player.get_table(&table).await.expect("get_table");
    for _ in 0..100 {
        if view.history.len() == 1 && !view.ai_thinking {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        view = player.get_table(&table).await.expect("get_table");
    }
    assert_eq!(
        view.history.first().map(|h| h.side),
        Some(Side::Black),
        "{view:?}"
    );
    assert_eq!(view.you, [Side::White]);
    assert_eq!(
        view.status,
        RoundStatus::Playing {
            to_move: Side::White
        }
    );
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

#[tokio::test]
async fn the_page_of_a_table_lab_game_or_tournament_that_does_not_exist_is_a_404_page() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = InProcess::start(&dir.path().join("othello.db"), &[]).await;
    let player = visitor(&server.url).await;
    let table = player
        .create_table(TableMode::HotSeat)
        .await
        .expect("table");
    let lab = player.lab_create(1, 1).await.expect("lab game");
    player
        .sign_up("organiser", "correct horse battery staple")
        .await
        .expect("sign up");
    let tournament: String = player
        .call(
            "create_tournament",
            json!({ "new": {
                "name": "Friday Swiss",
                "control": app::protocol::TimeControl::PRESETS[0],
                "rated": false,
                "private": false,
                "rounds": 3,
                "starts_in_minutes": 5,
            } }),
        )
        .await
        .expect("tournament");
    for (path, status) in [
        (format!("/table/{table}"), 200),
        (format!("/lab/{lab}"), 200),
        (format!("/tournaments/{tournament}"), 200),
        ("/tournaments".to_string(), 200),
        // Well formed, naming nothing (an expired table's link, say).
        ("/table/0123456789abcdef".to_string(), 404),
        ("/lab/0123456789abcdef".to_string(), 404),
        ("/tournaments/0123456789abcdef".to_string(), 404),
        // Malformed: nothing could ever be there.
        ("/table/%3Cscript%3E".to_string(), 404),
        (format!("/lab/{}", "x".repeat(200)), 404),
        ("/tournaments/a.b".to_string(), 404),
    ] {
        let (got, page) = player.get(&path).await.expect("page");
        assert_eq!(got, status, "{path}");
        // Still the site's page, in the player's language, with its words.
        assert!(page.contains("<html lang=\"en\""), "{path}");
    }
}
