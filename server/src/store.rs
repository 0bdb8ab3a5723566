//! The SQLite store: opening the database (WAL, `synchronous=FULL`, foreign
//! keys), applying the migrations in `migrations/`, the group-commit writer
//! that makes accepted commands durable, and the queries the rest of the
//! server uses.
//!
//! **Group commit.** [`Store::record`] does not open its own transaction: it
//! hands the record to one writer task and waits. The writer takes every
//! record that is waiting (up to [`MAX_BATCH`]), writes them all in one
//! transaction and one `fsync`, then answers each caller. With
//! `synchronous=FULL` an answered record survives a power loss, and the cost
//! of the `fsync` is shared by every command that arrived while the previous
//! batch was being written. A failed batch answers every record in it with an
//! error; callers only change memory after an `Ok`, so memory stays as it was.

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// Most records written in one group-commit transaction.
pub const MAX_BATCH: usize = 256;
/// Records that may wait for the writer before callers wait to enqueue.
const WRITE_QUEUE: usize = 4096;

/// Errors opening the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot create the database folder {path}: {source}")]
    CreateFolder {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot open the database {path}: {source}")]
    Open { path: String, source: sqlx::Error },
    #[error("cannot apply migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("database error: {0}")]
    Query(#[from] sqlx::Error),
    /// The group-commit batch holding this record failed as a whole.
    #[error("the write failed: {0}")]
    Batch(String),
    /// The writer task has stopped (the server is shutting down).
    #[error("the database writer has stopped")]
    WriterGone,
}

/// The database handle shared by the server.
#[derive(Clone, Debug)]
pub struct Store {
    pool: SqlitePool,
    writer: mpsc::Sender<WriteJob>,
    gate: Arc<tokio::sync::Mutex<()>>,
    stats: Arc<CommitStats>,
}

/// A record waiting for the group-commit writer, with the caller's answer.
#[derive(Debug)]
struct WriteJob {
    record: Record,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// Counters of the group-commit writer (for `/metrics` and the tests).
#[derive(Debug, Default)]
pub struct CommitStats {
    batches: AtomicU64,
    records: AtomicU64,
    failed_batches: AtomicU64,
    largest_batch: AtomicU64,
}

impl CommitStats {
    /// Transactions the writer committed (or tried to).
    pub fn batches(&self) -> u64 {
        self.batches.load(Ordering::Relaxed)
    }
    /// Records written, over all batches.
    pub fn records(&self) -> u64 {
        self.records.load(Ordering::Relaxed)
    }
    /// Batches whose transaction failed.
    pub fn failed_batches(&self) -> u64 {
        self.failed_batches.load(Ordering::Relaxed)
    }
    /// The most records seen in one batch.
    pub fn largest_batch(&self) -> u64 {
        self.largest_batch.load(Ordering::Relaxed)
    }

    /// The counters in Prometheus text form (appended to `/metrics`).
    pub fn render(&self) -> String {
        [
            (
                "othello_commit_batches_total",
                "Group-commit transactions written.",
                self.batches(),
            ),
            (
                "othello_commit_records_total",
                "Commands written by group commit.",
                self.records(),
            ),
            (
                "othello_commit_failed_batches_total",
                "Group-commit transactions that failed.",
                self.failed_batches(),
            ),
        ]
        .iter()
        .map(|(name, help, value)| {
            format!("# HELP {name} {help}\n# TYPE {name} counter\n{name} {value}\n")
        })
        .collect::<String>()
            + &format!(
                "# HELP othello_commit_largest_batch Most commands in one group commit.\n# TYPE othello_commit_largest_batch gauge\nothello_commit_largest_batch {}\n",
                self.largest_batch()
            )
    }
}

impl Store {
    /// Opens (creating if needed) the database at `path` and migrates it.
    pub async fn open(path: &Path) -> Result<Self, StoreError> {
        Self::open_with(path, SqliteSynchronous::Full).await
    }

    /// [`Store::open`] with another `synchronous` setting; only the commit
    /// benchmark uses anything but `FULL`.
    pub async fn open_with(
        path: &Path,
        synchronous: SqliteSynchronous,
    ) -> Result<Self, StoreError> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| StoreError::CreateFolder {
                path: parent.display().to_string(),
                source,
            })?;
        }
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // FULL (the default): a committed transaction survives a power
            // loss, not only a crash of this process (NORMAL's guarantee in
            // WAL mode).
            .synchronous(synchronous)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await
            .map_err(|source| StoreError::Open {
                path: path.display().to_string(),
                source,
            })?;
        accept_reworded_migrations(&pool).await?;
        sqlx::migrate!("../migrations").run(&pool).await?;
        let (writer, jobs) = mpsc::channel(WRITE_QUEUE);
        let gate = Arc::new(tokio::sync::Mutex::new(()));
        let stats = Arc::new(CommitStats::default());
        tokio::spawn(write_batches(
            pool.clone(),
            jobs,
            gate.clone(),
            stats.clone(),
        ));
        Ok(Self {
            pool,
            writer,
            gate,
            stats,
        })
    }

    /// The group-commit writer's counters.
    pub fn commit_stats(&self) -> &CommitStats {
        &self.stats
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

    /// The connection pool.
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Whether the database answers a trivial query.
    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.pool).await.is_ok()
    }

    /// The journal mode in force (`wal` expected).
    pub async fn journal_mode(&self) -> Result<String, StoreError> {
        let (mode,): (String,) = sqlx::query_as("PRAGMA journal_mode")
            .fetch_one(&self.pool)
            .await?;
        Ok(mode)
    }
}

/// A stored table header.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct StoredTable {
    pub id: String,
    pub mode: String,
    pub owner: String,
    pub created_at: i64,
    pub last_activity: i64,
    pub black_seat: Option<String>,
    pub white_seat: Option<String>,
    pub black_gone_since: Option<i64>,
    pub white_gone_since: Option<i64>,
    /// Since when the seats' grace may run (online tables).
    pub running_since: Option<i64>,
    /// The position every round starts from, in OBF (None: the usual one).
    pub start_obf: Option<String>,
}

/// A stored command or derived pass.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct MoveRow {
    pub seq: i64,
    pub round: i64,
    pub kind: String,
    pub side: String,
    pub square: Option<i64>,
    /// Time the mover used (a placement at a timed table), in milliseconds.
    pub time_ms: Option<i64>,
}

/// A round that ended with a command.
#[derive(Clone, Debug)]
pub struct RoundEnd {
    pub round: i64,
    pub winner: Option<&'static str>,
    pub reason: &'static str,
    pub black: i64,
    pub white: i64,
}

/// Everything one accepted command writes, in one transaction.
#[derive(Clone, Debug)]
pub struct Record {
    pub table_id: String,
    pub rows: Vec<MoveRow>,
    pub round_end: Option<RoundEnd>,
    pub new_round: Option<i64>,
    pub votes: Option<(i64, bool, bool)>,
    pub tally: (i64, i64, i64),
    pub now: i64,
}

impl Store {
    /// Stores a session (by the hash of its token, never the token) or marks
    /// it used now. Sessions are stored only once they own something.
    pub async fn remember_session(&self, id: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO sessions (token, created_at, last_seen) VALUES (?, ?, ?) \
             ON CONFLICT(token) DO UPDATE SET last_seen = excluded.last_seen",
        )
        .bind(id)
        .bind(now)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Deletes sessions unused since `before` (ms); returns how many.
    pub async fn expire_sessions(&self, before: i64) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM sessions WHERE last_seen < ?")
            .bind(before)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Records who created a lab game.
    pub async fn set_lab_owner(&self, game: &str, owner: &str) -> Result<(), StoreError> {
        sqlx::query("INSERT OR REPLACE INTO lab_owners (game_id, owner) VALUES (?, ?)")
            .bind(game)
            .bind(owner)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Who created a lab game (`None`: a game from before owners were kept).
    pub async fn lab_owner(&self, game: &str) -> Result<Option<String>, StoreError> {
        let row: Option<(String,)> =
            sqlx::query_as("SELECT owner FROM lab_owners WHERE game_id = ?")
                .bind(game)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|(owner,)| owner))
    }

    /// The lab games a session created.
    pub async fn lab_games_of(&self, owner: &str) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> = sqlx::query_as("SELECT game_id FROM lab_owners WHERE owner = ?")
            .bind(owner)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }

    /// How many sessions are stored.
    pub async fn session_count(&self) -> Result<i64, StoreError> {
        let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM sessions")
            .fetch_one(&self.pool)
            .await?;
        Ok(n)
    }

    /// Creates a table with its first round and an empty tally; `seats` are
    /// the black and white seat holders of an online table.
    pub async fn create_table(
        &self,
        id: &str,
        mode: &str,
        owner: &str,
        seats: (Option<&str>, Option<&str>),
        now: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO tables (id, mode, owner, created_at, last_activity, black_seat, white_seat) VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(id)
        .bind(mode)
        .bind(owner)
        .bind(now)
        .bind(now)
        .bind(seats.0)
        .bind(seats.1)
        .execute(&mut *tx)
        .await?;
        sqlx::query("INSERT INTO rounds (table_id, round, started_at) VALUES (?, 1, ?)")
            .bind(id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO tallies (table_id) VALUES (?)")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Writes one accepted command and what it changed, atomically and
    /// durably, through the group-commit writer; returns once the batch
    /// holding it has committed.
    pub async fn record(&self, record: &Record) -> Result<(), StoreError> {
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

    /// Stores an online table's seats, presence and grace start, and, if
    /// given, its start position (right after [`Store::create_table`]).
    pub async fn update_table_setup(
        &self,
        id: &str,
        seating: &crate::seating::SeatingRecord,
        start_obf: Option<&str>,
    ) -> Result<(), StoreError> {
        self.update_seating(id, seating, None).await?;
        sqlx::query("UPDATE tables SET start_obf = ? WHERE id = ?")
            .bind(start_obf)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Stores an online table's seat holders, since when each is absent and
    /// since when grace may run; `touch` also marks the table active.
    pub async fn update_seating(
        &self,
        id: &str,
        seating: &crate::seating::SeatingRecord,
        touch: Option<i64>,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE tables SET black_seat = ?, white_seat = ?, black_gone_since = ?, white_gone_since = ?, running_since = ?, last_activity = COALESCE(?, last_activity) WHERE id = ?",
        )
        .bind(seating.holders[0].as_deref())
        .bind(seating.holders[1].as_deref())
        .bind(seating.absent_since[0])
        .bind(seating.absent_since[1])
        .bind(seating.running_since)
        .bind(touch)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Every stored table.
    pub async fn tables(&self) -> Result<Vec<StoredTable>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT id, mode, owner, created_at, last_activity, black_seat, white_seat, black_gone_since, white_gone_since, running_since, start_obf FROM tables ORDER BY created_at",
        )
        .fetch_all(&self.pool)
        .await?)
    }

    /// A table's commands and passes, in order.
    pub async fn moves(&self, table_id: &str) -> Result<Vec<MoveRow>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT seq, round, kind, side, square, time_ms FROM moves WHERE table_id = ? ORDER BY seq",
        )
        .bind(table_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The stored tally of a table: (black wins, white wins, draws).
    pub async fn tally(&self, table_id: &str) -> Result<Option<(i64, i64, i64)>, StoreError> {
        Ok(
            sqlx::query_as("SELECT black_wins, white_wins, draws FROM tallies WHERE table_id = ?")
                .bind(table_id)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    /// Deletes tables idle since before `cutoff`; returns their ids.
    pub async fn delete_idle_tables(&self, cutoff: i64) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> =
            sqlx::query_as("DELETE FROM tables WHERE last_activity < ? RETURNING id")
                .bind(cutoff)
                .fetch_all(&self.pool)
                .await?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }
}

/// Migrations whose text was reworded after release (comments only, the
/// schema is the same): (version, SHA-384 of the released text).
const REWORDED_MIGRATIONS: &[(i64, &str)] = &[(
    3,
    "0911061be0414986ca95697477ef18a4eae8fd2e6c0d7e0de6a7ea99472e4d78a832dfed6861a4ce10693a6e29b288e2",
)];

/// sqlx refuses to start when an applied migration's text changed. For the
/// migrations in [`REWORDED_MIGRATIONS`], a database that applied the released
/// text takes the new text's checksum instead, so it keeps opening.
async fn accept_reworded_migrations(pool: &SqlitePool) -> Result<(), sqlx::Error> {
    let migrated: Option<(String,)> = sqlx::query_as(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
    )
    .fetch_optional(pool)
    .await?;
    if migrated.is_none() {
        return Ok(());
    }
    let migrator = sqlx::migrate!("../migrations");
    for (version, released) in REWORDED_MIGRATIONS {
        let Some(current) = migrator.iter().find(|m| m.version == *version) else {
            continue;
        };
        let released = hex_bytes(released);
        sqlx::query("UPDATE _sqlx_migrations SET checksum = ? WHERE version = ? AND checksum = ?")
            .bind(current.checksum.as_ref())
            .bind(version)
            .bind(released)
            .execute(pool)
            .await?;
    }
    Ok(())
}

/// The bytes a hexadecimal string spells (pairs of digits).
fn hex_bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .filter_map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

/// The group-commit writer: takes every waiting record (at least one), writes
/// them in one transaction, answers each.
async fn write_batches(
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
        stats.batches.fetch_add(1, Ordering::Relaxed);
        stats
            .records
            .fetch_add(batch.len() as u64, Ordering::Relaxed);
        stats
            .largest_batch
            .fetch_max(batch.len() as u64, Ordering::Relaxed);
        match result {
            Ok(()) => {
                for job in batch.drain(..) {
                    let _ = job.done.send(Ok(()));
                }
            }
            Err(error) if batch.len() == 1 => {
                stats.failed_batches.fetch_add(1, Ordering::Relaxed);
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
                stats.failed_batches.fetch_add(1, Ordering::Relaxed);
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

/// Writes `records` in one transaction, in order.
async fn write_batch<'a>(
    pool: &SqlitePool,
    records: impl Iterator<Item = &'a Record>,
) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    for record in records {
        write_record(&mut tx, record).await?;
    }
    tx.commit().await
}

/// The statements of one record, inside the batch's transaction.
async fn write_record(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    record: &Record,
) -> Result<(), sqlx::Error> {
    for row in &record.rows {
        sqlx::query(
                "INSERT INTO moves (table_id, seq, round, kind, side, square, at, time_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(&record.table_id)
            .bind(row.seq)
            .bind(row.round)
            .bind(&row.kind)
            .bind(&row.side)
            .bind(row.square)
            .bind(record.now)
            .bind(row.time_ms)
            .execute(&mut **tx)
            .await?;
    }
    if let Some(end) = &record.round_end {
        sqlx::query(
                "UPDATE rounds SET winner = ?, reason = ?, black = ?, white = ?, ended_at = ? WHERE table_id = ? AND round = ?",
            )
            .bind(end.winner)
            .bind(end.reason)
            .bind(end.black)
            .bind(end.white)
            .bind(record.now)
            .bind(&record.table_id)
            .bind(end.round)
            .execute(&mut **tx)
            .await?;
    }
    if let Some((round, black, white)) = record.votes {
        for (side, vote) in [("black", black), ("white", white)] {
            sqlx::query(
                "INSERT INTO votes (table_id, round, side, vote) VALUES (?, ?, ?, ?)
                     ON CONFLICT (table_id, round, side) DO UPDATE SET vote = excluded.vote",
            )
            .bind(&record.table_id)
            .bind(round)
            .bind(side)
            .bind(vote)
            .execute(&mut **tx)
            .await?;
        }
    }
    if let Some(round) = record.new_round {
        sqlx::query("INSERT INTO rounds (table_id, round, started_at) VALUES (?, ?, ?)")
            .bind(&record.table_id)
            .bind(round)
            .bind(record.now)
            .execute(&mut **tx)
            .await?;
    }
    sqlx::query("UPDATE tallies SET black_wins = ?, white_wins = ?, draws = ? WHERE table_id = ?")
        .bind(record.tally.0)
        .bind(record.tally.1)
        .bind(record.tally.2)
        .bind(&record.table_id)
        .execute(&mut **tx)
        .await?;
    sqlx::query("UPDATE tables SET last_activity = ? WHERE id = ?")
        .bind(record.now)
        .bind(&record.table_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(table: &str, seq: i64, square: i64) -> Record {
        Record {
            table_id: table.into(),
            rows: vec![MoveRow {
                seq,
                round: 1,
                kind: "place".into(),
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
                .create_table(id, "{}", "owner", (None, None), 1)
                .await
                .expect("create");
        }
        (dir, store)
    }

    /// Waits until `n` records are waiting in the writer's queue.
    async fn queued(store: &Store, n: usize) {
        while store.writer.max_capacity() - store.writer.capacity() < n {
            tokio::task::yield_now().await;
        }
    }

    async fn squares(store: &Store, table: &str) -> Vec<Option<i64>> {
        store
            .moves(table)
            .await
            .expect("moves")
            .into_iter()
            .map(|row| row.square)
            .collect()
    }

    /// Sends `record` to the writer without waiting for its answer.
    async fn enqueue(store: &Store, record: Record) -> oneshot::Receiver<Result<(), StoreError>> {
        let (done, answer) = oneshot::channel();
        store
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
        let paused = store.pause_writes().await;
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
                .moves(table)
                .await
                .expect("moves")
                .iter()
                .map(|r| r.seq)
                .collect();
            assert_eq!(seqs, vec![0, 1, 2, 3, 4], "table {table}");
            assert_eq!(store.tally(table).await.expect("tally"), Some((4, 0, 0)));
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_bad_record_fails_alone_and_the_rest_of_its_batch_commits() {
        let (_dir, store) = open().await;
        let paused = store.pause_writes().await;
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
        let paused = store.pause_writes().await;
        let mut pending = Vec::new();
        for table in ["a", "b", "c"] {
            pending.push(enqueue(&store, place(table, 0, 19)).await);
        }
        store.pool.close().await;
        drop(paused);
        for answer in pending {
            let error = answer.await.expect("answered").expect_err("refused");
            assert!(matches!(error, StoreError::Batch(_)), "{error}");
        }
    }

    #[tokio::test]
    async fn a_database_migrated_with_the_released_wording_of_0003_still_opens() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("old.db");
        let store = Store::open(&path).await.expect("open");
        let released = hex_bytes(REWORDED_MIGRATIONS[0].1);
        assert_eq!(released.len(), 48, "a SHA-384");
        sqlx::query("UPDATE _sqlx_migrations SET checksum = ? WHERE version = 3")
            .bind(&released)
            .execute(store.pool())
            .await
            .expect("set the released checksum");
        store.pool().close().await;
        drop(store);
        let reopened = Store::open(&path).await.expect("reopens");
        let (checksum,): (Vec<u8>,) =
            sqlx::query_as("SELECT checksum FROM _sqlx_migrations WHERE version = 3")
                .fetch_one(reopened.pool())
                .await
                .expect("checksum");
        assert_ne!(checksum, released, "the checksum was brought up to date");
    }

    #[tokio::test]
    async fn the_database_runs_wal_with_full_synchronous() {
        let (_dir, store) = open().await;
        assert_eq!(store.journal_mode().await.expect("mode"), "wal");
        let (sync,): (i64,) = sqlx::query_as("PRAGMA synchronous")
            .fetch_one(store.pool())
            .await
            .expect("pragma");
        assert_eq!(sync, 2, "synchronous=FULL is 2");
    }
}
