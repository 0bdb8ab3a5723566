//! Group commit keeps its promise: every move the server acknowledged is on
//! disk, even when the process is killed (SIGKILL) while batches are being
//! written.

mod common;

use common::{call, client, Server};
use serde_json::json;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const TABLES: usize = 24;

/// Per table: its id and the squares acknowledged so far, in order.
type Acknowledged = Arc<Mutex<Vec<(String, Vec<u64>)>>>;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_acknowledged_move_is_lost_when_the_server_is_killed_mid_batch() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("othello.db");
    let server = Server::start(&db, &[]);
    let url = server.url.clone();

    // Many hot-seat tables, each played as fast as the server answers, so
    // that commands from different tables share group-commit batches.
    let mut players = Vec::new();
    for _ in 0..TABLES {
        let player = client();
        let page = player.get(format!("{url}/")).send().await.expect("lobby");
        assert_eq!(page.status().as_u16(), 200);
        let (status, id) = call(
            &player,
            &url,
            "create_table",
            json!({ "mode": { "kind": "hot_seat" } }),
        )
        .await;
        assert_eq!(status, 200, "{id}");
        players.push((player, id.as_str().expect("id").to_string()));
    }
    let acknowledged: Acknowledged = Arc::new(Mutex::new(
        players
            .iter()
            .map(|(_, id)| (id.clone(), Vec::new()))
            .collect(),
    ));
    let mut tasks = Vec::new();
    for (index, (player, table)) in players.into_iter().enumerate() {
        let url = url.clone();
        let acknowledged = acknowledged.clone();
        tasks.push(tokio::spawn(async move {
            let (_, mut view) = call(&player, &url, "get_table", json!({ "table": table })).await;
            loop {
                let Some(square) = view["board"]["legal"].get(0).and_then(|s| s.as_u64()) else {
                    return; // game over
                };
                let response = player
                    .post(format!("{url}/api/play_move"))
                    .header("content-type", "application/json")
                    .header("accept", "application/json")
                    .header("origin", url.as_str())
                    .body(json!({ "table": table, "square": square }).to_string())
                    .send()
                    .await;
                // Once the server is killed, requests fail: stop.
                let Ok(response) = response else { return };
                if response.status() != 200 {
                    return;
                }
                let Ok(text) = response.text().await else {
                    return;
                };
                let Ok(next) = serde_json::from_str::<serde_json::Value>(&text) else {
                    return;
                };
                acknowledged.lock().expect("lock")[index].1.push(square);
                view = next;
            }
        }));
    }
    // Let the games run, then kill the server while moves are in flight.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let in_flight_total: usize = acknowledged
        .lock()
        .expect("lock")
        .iter()
        .map(|(_, squares)| squares.len())
        .sum();
    assert!(
        in_flight_total > TABLES,
        "the games were moving before the kill ({in_flight_total} moves)"
    );
    // Commands from different tables shared transactions.
    let metrics = client()
        .get(format!("{url}/metrics"))
        .send()
        .await
        .expect("metrics")
        .text()
        .await
        .expect("metrics body");
    let largest: u64 = metrics
        .lines()
        .find_map(|line| line.strip_prefix("othello_commit_largest_batch "))
        .and_then(|value| value.trim().parse().ok())
        .expect("largest batch in /metrics");
    assert!(largest >= 2, "no batch held two commands: {metrics}");
    server.kill();
    for task in tasks {
        task.await.expect("player task");
    }

    let server = Server::start(&db, &[]);
    let url = server.url.clone();
    let reader = client();
    let metrics = reader
        .get(format!("{url}/metrics"))
        .send()
        .await
        .expect("metrics")
        .text()
        .await
        .expect("metrics body");
    assert!(
        metrics.contains("othello_commit_batches_total"),
        "{metrics}"
    );
    let acknowledged = acknowledged.lock().expect("lock").clone();
    let mut total = 0;
    for (table, squares) in acknowledged {
        let (status, view) = call(&reader, &url, "get_table", json!({ "table": table })).await;
        assert_eq!(status, 200, "{view}");
        let history = view["history"].as_array().expect("history");
        let placed: Vec<&serde_json::Value> = history
            .iter()
            .filter(|entry| entry["square"].is_string())
            .collect();
        assert!(
            placed.len() >= squares.len(),
            "table {table}: {} moves acknowledged, {} after the restart",
            squares.len(),
            placed.len()
        );
        for (i, square) in squares.iter().enumerate() {
            let name = format!("{}{}", (b'a' + (square % 8) as u8) as char, square / 8 + 1);
            assert_eq!(
                placed[i]["square"], name,
                "table {table}: acknowledged move {i} survives in order"
            );
        }
        total += squares.len();
    }
    assert!(total > 0);
}
