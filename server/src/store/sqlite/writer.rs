//! The group-commit writer: `SqliteStore::record` hands a record to one writer
//! task and waits; the writer takes every record waiting (up to
//! [`MAX_BATCH`]), writes them in one transaction and one `fsync`, and
//! answers each caller. A failed batch is retried record by record, so one
//! bad record fails alone.

use super::{SqliteStore, MAX_BATCH};
use crate::store::{CommitStats, Record, StoreError};
use sqlx::SqlitePool;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// A record waiting for the group-commit writer, with the caller's answer.
#[derive(Debug)]
pub(super) struct WriteJob {
    pub(super) record: Record,
    pub(super) done: oneshot::Sender<Result<(), StoreError>>,
}

impl SqliteStore {
    /// Writes one accepted command and what it changed, atomically and
    /// durably, through the group-commit writer; returns once the batch
    /// holding it has committed.
    pub(super) async fn record_grouped(&self, record: &Record) -> Result<(), StoreError> {
        let (done, answer) = oneshot::channel();
        self.writer
            .send(WriteJob {
                record: record.clone(),
                done,
            })
            .await
            .map_err(|_| StoreError::WriterGone)?;
        answer.await.map_err(|_| StoreError::WriterGone)?
    }

    /// Writes one record in its own transaction, bypassing group commit: the
    /// write path before group commit, kept for the commit benchmark.
    pub async fn record_unbatched(&self, record: &Record) -> Result<(), StoreError> {
        write_batch(&self.pool, std::iter::once(record)).await?;
        Ok(())
    }

    /// Holds every group-commit write until the guard is dropped (records
    /// queue meanwhile and are then written together). For consistent
    /// backups and for tests that need a known batch.
    pub async fn pause_writes(&self) -> tokio::sync::OwnedMutexGuard<()> {
        self.gate.clone().lock_owned().await
    }
}

/// The group-commit writer: takes every waiting record (at least one), writes
/// them in one transaction, answers each.
pub(super) async fn write_batches(
    pool: SqlitePool,
    mut jobs: mpsc::Receiver<WriteJob>,
    gate: Arc<tokio::sync::Mutex<()>>,
    stats: Arc<CommitStats>,
) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    // The first record is awaited alone, so a paused writer holds at most one.
    while let Some(first) = jobs.recv().await {
        batch.push(first);
        let _paused = gate.lock().await;
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let result = write_batch(&pool, batch.iter().map(|job| &job.record)).await;
        stats.batch(batch.len());
        match result {
            Ok(()) => {
                for job in batch.drain(..) {
                    let _ = job.done.send(Ok(()));
                }
            }
            Err(error) if batch.len() == 1 => {
                stats.failed();
                tracing::error!("a commit failed: {error}");
                for job in batch.drain(..) {
                    let _ = job.done.send(Err(StoreError::Batch(error.to_string())));
                }
            }
            Err(error) => {
                // Nothing of the batch was written. One bad record (say, for a
                // table deleted meanwhile) must not cost the others their
                // move: write each alone, so each gets its own answer. A
                // failure of the database itself fails them all.
                stats.failed();
                tracing::warn!(
                    records = batch.len(),
                    "a group commit failed ({error}); writing its records one by one"
                );
                for job in batch.drain(..) {
                    let alone = write_batch(&pool, std::iter::once(&job.record)).await;
                    let _ = job
                        .done
                        .send(alone.map_err(|e| StoreError::Batch(e.to_string())));
                }
            }
        }
    }
}

/// Writes `records` in one transaction, as if one after the other.
///
/// Each statement is a round trip to sqlx's SQLite worker thread (two thread
/// wake-ups), which the profile showed to dominate under load, so a batch
/// takes a fixed handful of statements however many records it holds: every
/// move row of the batch in one `INSERT … SELECT … FROM json_each(?)`, the
/// tallies and the tables' last activity each in one `UPDATE … FROM
/// json_each(?)` (each table's last record wins, as it would one by one),
/// and only the rare parts (a round's end, votes, a new round) per record.
async fn write_batch<'a>(
    pool: &SqlitePool,
    records: impl Iterator<Item = &'a Record>,
) -> Result<(), sqlx::Error> {
    use std::collections::HashMap;
    let records: Vec<&Record> = records.collect();
    let mut moves = Vec::new();
    // Per table, its last record's (now, tally), in first-seen order.
    let mut last: HashMap<&str, (i64, (i64, i64, i64))> = HashMap::new();
    let mut order: Vec<&str> = Vec::new();
    for record in &records {
        for row in &record.rows {
            moves.push(serde_json::json!([
                record.table_id,
                row.seq,
                row.round,
                row.kind.name(),
                row.side,
                row.square,
                record.now,
                row.time_ms,
            ]));
        }
        if last
            .insert(record.table_id.as_str(), (record.now, record.tally))
            .is_none()
        {
            order.push(record.table_id.as_str());
        }
    }
    let tables: Vec<serde_json::Value> = order
        .iter()
        .filter_map(|id| {
            last.get(id)
                .map(|(now, (b, w, d))| serde_json::json!([id, now, b, w, d]))
        })
        .collect();
    let mut tx = pool.begin().await?;
    if !moves.is_empty() {
        sqlx::query(
            "INSERT INTO moves (table_id, seq, round, kind, side, square, at, time_ms)
             SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'),
                    json_extract(value, '$[2]'), json_extract(value, '$[3]'),
                    json_extract(value, '$[4]'), json_extract(value, '$[5]'),
                    json_extract(value, '$[6]'), json_extract(value, '$[7]')
             FROM json_each(?)",
        )
        .bind(serde_json::Value::Array(moves).to_string())
        .execute(&mut *tx)
        .await?;
    }
    for record in &records {
        write_rare(&mut tx, record).await?;
    }
    let tables = serde_json::Value::Array(tables).to_string();
    sqlx::query(
        "UPDATE tallies SET black_wins = json_extract(t.value, '$[2]'),
             white_wins = json_extract(t.value, '$[3]'), draws = json_extract(t.value, '$[4]')
         FROM json_each(?) AS t WHERE tallies.table_id = json_extract(t.value, '$[0]')",
    )
    .bind(&tables)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "UPDATE tables SET last_activity = json_extract(t.value, '$[1]')
         FROM json_each(?) AS t WHERE tables.id = json_extract(t.value, '$[0]')",
    )
    .bind(&tables)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

/// The rare parts of one record (a round's end with its archived game and
/// ratings, votes, a new round), inside the batch's transaction.
async fn write_rare(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    record: &Record,
) -> Result<(), sqlx::Error> {
    crate::store::write_round_parts!(
        tx,
        record,
        crate::store::sqlite,
        crate::store::ratings::write_sqlite
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{MoveKind, MoveRow, Store, TableStore};

    fn sqlite(store: &Store) -> &SqliteStore {
        store.sqlite().expect("a SQLite store")
    }

    fn place(table: &str, seq: i64, square: i64) -> Record {
        Record {
            archive: None,
            table_id: app::ids::TableId::new(table),
            rows: vec![MoveRow {
                seq,
                round: 1,
                kind: MoveKind::Place,
                side: if seq % 2 == 0 { "black" } else { "white" }.into(),
                square: Some(square),
                time_ms: None,
            }],
            round_end: None,
            new_round: None,
            votes: None,
            tally: (0, 0, 0),
            now: 1_000 + seq,
        }
    }

    async fn open() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(&dir.path().join("t.db")).await.expect("open");
        for id in ["a", "b", "c"] {
            store
                .create_table(
                    &app::ids::TableId::new(id),
                    app::protocol::TableMode::HotSeat,
                    "owner",
                    (None, None),
                    1,
                )
                .await
                .expect("create");
        }
        (dir, store)
    }

    /// Waits until `n` records are waiting in the writer's queue.
    async fn queued(store: &Store, n: usize) {
        while sqlite(store).writer.max_capacity() - sqlite(store).writer.capacity() < n {
            tokio::task::yield_now().await;
        }
    }

    async fn squares(store: &Store, table: &str) -> Vec<Option<i64>> {
        store
            .moves(&app::ids::TableId::new(table))
            .await
            .expect("moves")
            .into_iter()
            .map(|row| row.square)
            .collect()
    }

    /// Sends `record` to the writer without waiting for its answer.
    async fn enqueue(store: &Store, record: Record) -> oneshot::Receiver<Result<(), StoreError>> {
        let (done, answer) = oneshot::channel();
        sqlite(store)
            .writer
            .send(WriteJob { record, done })
            .await
            .expect("writer running");
        answer
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn commands_arriving_together_are_written_in_one_transaction_in_order() {
        let (_dir, store) = open().await;
        let before = store.commit_stats().batches();
        let paused = sqlite(&store).pause_writes().await;
        let mut answers = Vec::new();
        for seq in 0..5 {
            for table in ["a", "b", "c"] {
                let mut record = place(table, seq, seq + 10);
                // Each record sets the tally; only the last one, in order, stays.
                record.tally = (seq, 0, 0);
                answers.push(enqueue(&store, record).await);
            }
        }
        drop(paused);
        for answer in answers {
            answer.await.expect("answered").expect("committed");
        }
        let stats = store.commit_stats();
        assert!(
            stats.batches() - before <= 2,
            "15 records took {} transactions",
            stats.batches() - before
        );
        assert!(stats.largest_batch() >= 14, "{}", stats.largest_batch());
        for table in ["a", "b", "c"] {
            let seqs: Vec<i64> = store
                .moves(&app::ids::TableId::new(table))
                .await
                .expect("moves")
                .iter()
                .map(|r| r.seq)
                .collect();
            assert_eq!(seqs, vec![0, 1, 2, 3, 4], "table {table}");
            assert_eq!(
                store
                    .tally(&app::ids::TableId::new(table))
                    .await
                    .expect("tally"),
                Some((4, 0, 0))
            );
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_bad_record_fails_alone_and_the_rest_of_its_batch_commits() {
        let (_dir, store) = open().await;
        let paused = sqlite(&store).pause_writes().await;
        let good_a = enqueue(&store, place("a", 0, 19)).await;
        // No such table: the foreign key fails.
        let bad = enqueue(&store, place("missing", 0, 19)).await;
        let good_b = enqueue(&store, place("b", 0, 26)).await;
        queued(&store, 2).await;
        let failed_before = store.commit_stats().failed_batches();
        drop(paused);
        good_a.await.expect("answered").expect("a committed");
        good_b.await.expect("answered").expect("b committed");
        let error = bad
            .await
            .expect("answered")
            .expect_err("bad record refused");
        assert!(matches!(error, StoreError::Batch(_)), "{error}");
        assert_eq!(store.commit_stats().failed_batches(), failed_before + 1);
        assert_eq!(squares(&store, "a").await, vec![Some(19)]);
        assert_eq!(squares(&store, "b").await, vec![Some(26)]);
        assert!(squares(&store, "missing").await.is_empty());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_failing_database_answers_every_record_of_the_batch_with_an_error() {
        let (_dir, store) = open().await;
        let paused = sqlite(&store).pause_writes().await;
        let mut pending = Vec::new();
        for table in ["a", "b", "c"] {
            pending.push(enqueue(&store, place(table, 0, 19)).await);
        }
        sqlite(&store).pool.close().await;
        drop(paused);
        for answer in pending {
            let error = answer.await.expect("answered").expect_err("refused");
            assert!(matches!(error, StoreError::Batch(_)), "{error}");
        }
    }
}
