//! A full AI queue (docs/SECURITY.md, Limits): the server refuses the search
//! at once and says so. The lab's Next turn answers 503 with a readable
//! message and nothing changes; at a vs-AI table the player's move stands,
//! the view shows the AI to move with no search running (the table page
//! reads that as "the AI is busy" and offers to ask again), opening the table
//! again asks again, and once the queue has room the AI moves.

mod common;

use common::{call, client, Server};
use serde_json::{json, Value};
use std::time::Duration;

async fn new_session(http: &reqwest::Client, url: &str) {
    let page = http.get(format!("{url}/")).send().await.expect("lobby");
    assert!(page.status().is_success());
}

fn ai_refused(view: &Value) -> bool {
    view["status"]["state"] == "playing"
        && view["status"]["to_move"] == "white"
        && view["ai_thinking"] == false
}

#[tokio::test]
async fn a_full_ai_queue_is_refused_with_a_clear_message_and_asked_again_later() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("othello.db");
    // No room at all in the AI queue: every search is refused.
    let server = Server::start(&db, &["--ai-queue", "0"]);
    let url = server.url.clone();
    let player = client();
    new_session(&player, &url).await;

    // The lab: 503, a readable message, nothing changed.
    let (status, lab) = call(
        &player,
        &url,
        "lab_create",
        json!({ "black_depth": 1, "white_depth": 1 }),
    )
    .await;
    assert_eq!(status, 200, "{lab}");
    let (status, body) = call(&player, &url, "lab_next_turn", json!({ "lab": lab })).await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(
        body["message"],
        "The AI is busy (searches waiting: 0): try again in a moment. Nothing changed.",
        "{body}"
    );
    let (_, view) = call(&player, &url, "lab_get", json!({ "lab": lab })).await;
    assert_eq!(view["moves"].as_array().map(Vec::len), Some(0), "{view}");

    // A vs-AI table: the move stands; the AI is to move and not thinking.
    let (status, table) = call(
        &player,
        &url,
        "create_table",
        json!({ "mode": { "kind": "vs_ai", "depth": 1, "human": "black" } }),
    )
    .await;
    assert_eq!(status, 200, "{table}");
    let table = table.as_str().expect("id").to_string();
    let (status, view) = call(
        &player,
        &url,
        "play_move",
        json!({ "table": table, "square": 37 }),
    )
    .await;
    assert_eq!(status, 200, "{view}");
    assert!(ai_refused(&view), "{view}");
    assert_eq!(view["black_count"], 4);
    // Asking again (opening the table) is refused again, never a 5xx.
    let (status, view) = call(&player, &url, "get_table", json!({ "table": table })).await;
    assert_eq!(status, 200, "{view}");
    assert!(ai_refused(&view), "{view}");

    // With room in the queue (a restart with the default), the AI moves.
    drop(server);
    let server = Server::start(&db, &[]);
    let url = server.url.clone();
    let mut moved = false;
    for _ in 0..100 {
        let (status, view) = call(&player, &url, "get_table", json!({ "table": table })).await;
        assert_eq!(status, 200, "{view}");
        if view["status"]["to_move"] == "black" {
            assert_eq!(view["history"].as_array().map(Vec::len), Some(2), "{view}");
            moved = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(moved, "the AI moved once the queue had room");
}
