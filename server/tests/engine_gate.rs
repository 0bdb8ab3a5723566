//! One engine gate (issue 66), through the real router: the analysis
//! board's server search (`analysis_position`) is admitted by the AI
//! pool under the caller's address, and a request that ends (the
//! connection closed before the answer) takes its search with it. One
//! address that sends hard positions and hangs up on each leaves nothing
//! queued, and another address's position is answered, never 503.
//!
//! The heavy lane has one worker, held by a blocker until the test lets it
//! go, so the abandoned searches could only wait; the waits poll the pool's
//! queue-depth metric (a state the next step needs, never a timing that
//! decides the outcome), bounded by a generous deadline.

mod common;

use common::InProcess;
use engine::{Game, Position};
use server::clock::ManualClock;
use server::config::Config;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};
use testclient::Client;

const DEADLINE: Duration = Duration::from_secs(30);

/// A browser from `address` that has loaded the lobby (it has a cookie).
async fn browser(url: &str, address: &str) -> Client {
    let client = Client::new(url).from_address(address);
    let (status, _) = client.get("/").await.expect("lobby");
    assert_eq!(status, 200);
    client
}

/// The position after `plies` moves (first legal move each turn).
fn after(plies: usize) -> Position {
    let mut game = Game::new();
    for _ in 0..plies {
        let square = game.position().legal_moves().iter().next().expect("a move");
        game.play(square).expect("legal");
    }
    *game.position()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_position_searches_leave_the_queue_and_another_address_is_answered() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut config = Config::for_tests(dir.path().join("othello.db"));
    // Each browser says its address (as behind the proxy); no rate limit
    // in the way of the flood.
    config.client_ip_header = Some("X-Real-IP".into());
    config.rate_per_ip = 0;
    config.ai_heavy_threads = 1;
    let server = InProcess::serve(&config, Arc::new(ManualClock::new(1_700_000_000_000))).await;
    let pool = server.state.hub.ai_pool();
    let metrics = server.state.hub.metrics();
    let depth = || metrics.ai_queue_depth.load(Relaxed);
    let wait_for = |what: &'static str, want: i64| {
        let depth = &depth;
        async move {
            let deadline = Instant::now() + DEADLINE;
            while depth() != want {
                assert!(Instant::now() < deadline, "{what}: {} searches", depth());
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        }
    };

    // The one heavy worker is busy until the test lets it go.
    let (release, blocked) = std::sync::mpsc::channel::<()>();
    let blocker = pool
        .run_as("ip:203.0.113.50", move || blocked.recv())
        .expect("room");
    wait_for("the blocker", 1).await;

    // One address sends 40 hard midgame positions and hangs up on each
    // once its search is queued.
    let flooder = browser(&server.url, "198.51.100.7").await;
    let hard = after(12).to_obf();
    for i in 0..40 {
        let request = {
            let (flooder, hard) = (flooder.clone(), hard.clone());
            tokio::spawn(async move { flooder.analysis_position(&hard).await })
        };
        let deadline = Instant::now() + DEADLINE;
        while depth() < 2 {
            assert!(
                !request.is_finished(),
                "request {i} was answered: {:?}",
                request.await
            );
            assert!(
                Instant::now() < deadline,
                "request {i} never reached the pool"
            );
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        request.abort();
        let _ = request.await;
        // The connection closed: the search leaves the queue.
        wait_for("an abandoned search stayed queued", 1).await;
    }

    // Another address: a 10-empty position, answered once the worker is
    // free — not refused, not behind 40 abandoned searches.
    let player = browser(&server.url, "192.0.2.44").await;
    let easy = after(50);
    assert_eq!(easy.empty_count(), 10);
    let answer = {
        let (player, easy) = (player.clone(), easy.to_obf());
        tokio::spawn(async move { player.analysis_position(&easy).await })
    };
    wait_for("the other address's search is queued", 2).await;
    release.send(()).expect("release");
    blocker.await.expect("blocker").expect("released");
    let values = tokio::time::timeout(DEADLINE, answer)
        .await
        .expect("answered in time")
        .expect("the task")
        .expect("answered, not refused");
    assert_eq!(
        values.moves.len(),
        easy.legal_moves().count() as usize,
        "{values:?}"
    );
    assert!(values.moves.iter().all(|m| m.exact), "{values:?}");
    wait_for("nothing left", 0).await;
}
