//! Durable commands per second through the store, before and after group
//! commit, in one run on one machine:
//!
//! ```text
//! cargo run -p server --example commit_bench [-- RECORDS_PER_WRITER]
//! ```
//!
//! For 1, 8, 64 and 256 concurrent writers (each on its own table, as players
//! are), it times `RECORDS_PER_WRITER` records each through: one transaction
//! per record with `synchronous=NORMAL` (the old path), the same with `FULL`,
//! and group commit with `FULL` (today's path). Figures in docs/BENCHMARKS.md.

use server::store::{MoveRow, Record, Store, TableStore};
use sqlx::sqlite::SqliteSynchronous;
use std::time::Instant;

#[derive(Clone, Copy)]
enum Path {
    Unbatched,
    Grouped,
}

fn record(table: &str, seq: i64) -> Record {
    Record {
        table_id: app::ids::TableId::new(table),
        rows: vec![MoveRow {
            seq,
            round: 1,
            kind: server::store::MoveKind::Place,
            side: if seq % 2 == 0 { "black" } else { "white" }.into(),
            square: Some(seq % 64),
            time_ms: None,
        }],
        round_end: None,
        new_round: None,
        votes: None,
        tally: (0, 0, 0),
        now: seq,
        archive: None,
    }
}

async fn run(writers: usize, per_writer: i64, sync: SqliteSynchronous, path: Path) -> f64 {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open_with(&dir.path().join("bench.db"), sync)
        .await
        .expect("open");
    for w in 0..writers {
        store
            .create_table(
                &app::ids::TableId::new(format!("t{w}")),
                app::protocol::TableMode::HotSeat,
                "owner",
                (None, None),
                0,
            )
            .await
            .expect("table");
    }
    let started = Instant::now();
    let mut tasks = Vec::new();
    for w in 0..writers {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let table = format!("t{w}");
            for seq in 0..per_writer {
                let r = record(&table, seq);
                match path {
                    Path::Unbatched => store.sqlite().expect("SQLite").record_unbatched(&r).await,
                    Path::Grouped => store.record(&r).await,
                }
                .expect("write");
            }
        }));
    }
    for task in tasks {
        task.await.expect("writer");
    }
    (writers as i64 * per_writer) as f64 / started.elapsed().as_secs_f64()
}

#[tokio::main]
async fn main() {
    let per_writer: i64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(40);
    println!("records/s, {per_writer} records per writer");
    println!(
        "{:>8} {:>18} {:>18} {:>18} {:>10}",
        "writers", "NORMAL, 1 tx each", "FULL, 1 tx each", "FULL, group", "group/old"
    );
    for writers in [1usize, 8, 64, 256] {
        let old = run(
            writers,
            per_writer,
            SqliteSynchronous::Normal,
            Path::Unbatched,
        )
        .await;
        let full = run(
            writers,
            per_writer,
            SqliteSynchronous::Full,
            Path::Unbatched,
        )
        .await;
        let grouped = run(writers, per_writer, SqliteSynchronous::Full, Path::Grouped).await;
        println!(
            "{writers:>8} {old:>18.0} {full:>18.0} {grouped:>18.0} {:>9.2}×",
            grouped / old
        );
    }
}
