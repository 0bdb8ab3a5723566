//! The SQLite store, for one instance: opening the file (WAL,
//! `synchronous=FULL`, foreign keys), applying `migrations/`, and the
//! group-commit writer that makes accepted commands durable.
//!
//! **Group commit.** [`SqliteStore::record`] does not open its own
//! transaction: it hands the record to one writer task and waits. The
//! writer takes every record that is waiting (up to [`MAX_BATCH`]), writes
//! them all in one transaction and one `fsync`, then answers each caller.
//! With `synchronous=FULL` an answered record survives a power loss, and the
//! cost of the `fsync` is shared by every command that arrived while the
//! previous batch was being written. A failed batch is written again record
//! by record; callers only change memory after an `Ok`, so memory stays as
//! it was.
//!
//! Everything else the site reads and writes is written once for both
//! databases (`on_db!` in the parent module); its sibling is `store::pg`.

mod migrations;
pub(super) mod writer;

use super::{CommitStats, DatabaseStore, Db, Record, StoreError};
use migrations::accept_reworded_migrations;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use writer::{write_batches, WriteJob};

/// Most records written in one group-commit transaction.
pub const MAX_BATCH: usize = 256;
/// Records that may wait for the writer before callers wait to enqueue.
const WRITE_QUEUE: usize = 4096;

/// The SQLite handle of the one instance; cheap to clone.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pool: SqlitePool,
    writer: mpsc::Sender<WriteJob>,
    gate: Arc<tokio::sync::Mutex<()>>,
    stats: Arc<CommitStats>,
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path`, migrates it and
    /// starts its writer.
    pub async fn open(path: &Path, synchronous: SqliteSynchronous) -> Result<Self, StoreError> {
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
        crate::store::rows::sqlite_migrator().run(&pool).await?;
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

    /// The connection pool.
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// The journal mode in force (`wal` expected).
    pub async fn journal_mode(&self) -> Result<String, StoreError> {
        let (mode,): (String,) = sqlx::query_as("PRAGMA journal_mode")
            .fetch_one(&self.pool)
            .await?;
        Ok(mode)
    }
}

impl DatabaseStore for SqliteStore {
    fn db(&self) -> Db<'_> {
        Db::Sqlite(&self.pool)
    }

    fn commit_stats(&self) -> &CommitStats {
        &self.stats
    }

    async fn record(&self, record: &Record) -> Result<(), StoreError> {
        self.record_grouped(record).await
    }
}
