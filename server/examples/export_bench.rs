//! The bench command for a player's whole-archive export (issue: bounded
//! exports): one account with 10,000 archived games in a fresh SQLite file;
//! times the first download (built: every game replayed) against the next
//! ones (served from the export cache), in the same run.
//!
//! `cargo run --release -p server --example export_bench [games]`

use server::archive::Archive;
use server::exports::{Exports, Kind};
use std::time::Instant;

/// A whole game from the usual start: each side plays its `pick`-th legal
/// square (varied by game), passes inserted by the rules.
fn a_game(seed: usize) -> String {
    let mut game = engine::Game::new();
    for ply in 0..60 {
        let position = game.position();
        let legal: Vec<engine::Square> = (0..64)
            .filter_map(engine::Square::new)
            .filter(|s| position.is_legal(*s))
            .collect();
        if legal.is_empty() {
            break;
        }
        let pick = legal[(seed / (ply + 1) + ply) % legal.len()];
        if game.play(pick).is_err() {
            break;
        }
    }
    game.transcript()
}

#[tokio::main]
async fn main() {
    let games: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let dir = tempfile::tempdir().expect("temp dir");
    let store = server::store::Store::open(&dir.path().join("bench.db"))
        .await
        .expect("store");
    let pool = store.sqlite().expect("SQLite").pool().clone();
    sqlx::query("INSERT INTO accounts (name, name_key, password_hash, created_at) VALUES ('bench', 'bench', 'x', 0)")
        .execute(&pool)
        .await
        .expect("account");
    let start = engine::Position::initial().to_obf();
    let filled = Instant::now();
    let mut tx = pool.begin().await.expect("tx");
    for i in 0..games {
        let black = if i % 2 == 0 { "account:1" } else { "ai:3" };
        let white = if i % 2 == 0 { "ai:3" } else { "account:1" };
        sqlx::query(
            "INSERT INTO archived_games (id, table_id, round, mode, black, white, start_obf, moves, times, winner, reason, black_discs, white_discs, ended_at) \
             VALUES (?1, ?2, 1, '{\"kind\":\"vs_ai\",\"depth\":3,\"human\":\"black\"}', ?3, ?4, ?5, ?6, '[]', 'black', 'finished', 40, 24, ?7)",
        )
        .bind(format!("g{i:06}"))
        .bind(format!("t{i:06}"))
        .bind(black)
        .bind(white)
        .bind(&start)
        .bind(a_game(i))
        .bind(i as i64)
        .execute(&mut *tx)
        .await
        .expect("game");
    }
    tx.commit().await.expect("commit");
    println!("filled {games} games in {:.2?}", filled.elapsed());
    let archive = Archive {
        store: store.clone(),
    };
    let exports = Exports::default();
    for kind in [Kind::Ggf, Kind::Wtb] {
        let cold = Instant::now();
        let built = exports
            .get(&archive, "bench", kind, 0)
            .await
            .expect("built");
        let cold = cold.elapsed();
        let warm = Instant::now();
        let rounds = 100;
        for _ in 0..rounds {
            exports
                .get(&archive, "bench", kind, 0)
                .await
                .expect("cached");
        }
        let warm = warm.elapsed() / rounds;
        println!(
            "{kind:?}: {} bytes; first download (built) {cold:.2?}; cached {warm:.2?} each; ratio {:.0}x",
            built.body.len(),
            cold.as_secs_f64() / warm.as_secs_f64()
        );
    }
    println!("builds: {}", exports.builds());
}
