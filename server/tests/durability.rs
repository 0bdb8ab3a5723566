//! Group commit keeps its promise: every move the server acknowledged is on
//! disk, even when the process is killed (SIGKILL) while batches are being
//! written.

mod common;

use app::protocol::{TableId, TableMode};
use common::Server;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use testclient::Client;

const TABLES: usize = 24;

/// Per table: its id and the squares acknowledged so far, in order.
type Acknowledged = Arc<Mutex<Vec<(TableId, Vec<u8>)>>>;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_acknowledged_move_is_lost_when_the_server_is_killed_mid_batch() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("othello.db");
    let (server, metrics_url) = Server::start_with_metrics(&db, &[]);
    let url = server.url.clone();

    // Many hot-seat tables, each played as fast as the server answers, so
    // that commands from different tables share group-commit batches.
    let mut players = Vec::new();
    for _ in 0..TABLES {
        let player = Client::new(&url);
        let (status, _) = player.get("/").await.expect("lobby");
        assert_eq!(status, 200);
        let id = player
            .create_table(TableMode::HotSeat)
            .await
            .expect("create_table");
        players.push((player, id));
    }
    let acknowledged: Acknowledged = Arc::new(Mutex::new(
        players
            .iter()
            .map(|(_, id)| (id.clone(), Vec::new()))
            .collect(),
    ));
    let mut tasks = Vec::new();
    for (index, (player, table)) in players.into_iter().enumerate() {
        let acknowledged = acknowledged.clone();
        tasks.push(tokio::spawn(async move {
            let mut view = player.get_table(&table).await.expect("get_table");
            loop {
                let Some(&square) = view.board.legal.first() else {
                    return; // game over
                };
                // Once the server is killed, requests fail: stop.
                let Ok(next) = player.play_move(&table, square).await else {
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
    let metrics = common::metrics(&metrics_url).await;
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

    let (server, metrics_url) = Server::start_with_metrics(&db, &[]);
    let url = server.url.clone();
    let reader = Client::new(&url);
    let metrics = common::metrics(&metrics_url).await;
    assert!(
        metrics.contains("othello_commit_batches_total"),
        "{metrics}"
    );
    let acknowledged = acknowledged.lock().expect("lock").clone();
    let mut total = 0;
    for (table, squares) in acknowledged {
        let view = reader.get_table(&table).await.expect("get_table");
        let placed: Vec<&str> = view
            .history
            .iter()
            .filter_map(|entry| entry.square.as_deref())
            .collect();
        assert!(
            placed.len() >= squares.len(),
            "table {table}: {} moves acknowledged, {} after the restart",
            squares.len(),
            placed.len()
        );
        for (i, square) in squares.iter().enumerate() {
            let name = format!("{}{}", (b'a' + square % 8) as char, square / 8 + 1);
            assert_eq!(
                placed[i], name,
                "table {table}: acknowledged move {i} survives in order"
            );
        }
        total += squares.len();
    }
    assert!(total > 0);
}
