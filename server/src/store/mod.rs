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
//!
//! The module map: this file opens the store and holds the row types;
//! [`writer`] is the group-commit writer; [`queries`] the other reads and
//! writes; [`migrations`] keeps databases migrated with reworded texts
//! opening; [`table_store`] is the [`TableStore`] trait (what the hub needs
//! from storage) and its implementation for [`Store`].

pub mod accounts;
pub mod archive;
pub mod bus;
mod migrations;
pub mod pg;
pub mod pg_lab;
mod pg_writer;
mod queries;
pub mod ratings;
mod table_store;
mod writer;

pub use pg::PgStore;

pub use table_store::TableStore;
pub use writer::CommitStats;

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
    /// Another instance wrote the table first (PostgreSQL): nothing was
    /// written; reload and decide again.
    #[error("the table changed meanwhile")]
    Stale,
    /// The table no longer exists (PostgreSQL: deleted by another instance).
    #[error("the table no longer exists")]
    Gone,
}

/// The database handle shared by the server.
#[derive(Clone, Debug)]
pub struct Store {
    pool: SqlitePool,
    writer: mpsc::Sender<WriteJob>,
    gate: Arc<tokio::sync::Mutex<()>>,
    stats: Arc<CommitStats>,
    /// With a PostgreSQL `--database`: where everything shared lives
    /// (tables, the AI lab, analyses); the local SQLite file then holds
    /// nothing the site shows.
    pg: Option<PgStore>,
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
            pg: None,
        })
    }

    /// Opens the tables' store on PostgreSQL at `url` (migrating it) and
    /// this instance's SQLite file at `local` for the rest.
    pub async fn open_postgres(url: &str, local: &Path) -> Result<Self, StoreError> {
        let pg = PgStore::open(url).await?;
        let mut store = Self::open(local).await?;
        store.pg = Some(pg);
        Ok(store)
    }

    /// The PostgreSQL store, when the tables live there.
    pub fn postgres(&self) -> Option<&PgStore> {
        self.pg.as_ref()
    }

    /// The group-commit writer's counters (PostgreSQL's, when the tables
    /// live there).
    pub fn commit_stats(&self) -> &CommitStats {
        self.pg.as_ref().map_or(&self.stats, PgStore::commit_stats)
    }

    /// The database every query of the site runs on.
    pub fn db(&self) -> Db<'_> {
        match &self.pg {
            Some(pg) => Db::Postgres(pg.pool()),
            None => Db::Sqlite(&self.pool),
        }
    }

    /// The connection pool.
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Whether the database answers a trivial query.
    pub async fn ping(&self) -> bool {
        let local = sqlx::query("SELECT 1").execute(&self.pool).await.is_ok();
        match &self.pg {
            Some(pg) => local && pg.ping().await,
            None => local,
        }
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

/// What a stored row records: a command, or a pass the rules derived. Stored
/// as the lowercase name (`'place'`, `'pass'`, …), the strings the `moves`
/// table's CHECK constraint allows since migration 0011.
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::Type)]
#[sqlx(rename_all = "lowercase")]
pub enum MoveKind {
    /// A disc placed.
    Place,
    /// The side to move had no legal move (derived, never replayed).
    Pass,
    Resign,
    /// A vote for a rematch.
    Vote,
    /// A rematch vote withdrawn.
    Withdraw,
    /// A seat holder did not come back within the grace period: forfeit.
    Timeout,
    /// Both holders away past their grace: the round ends with no winner.
    Abandon,
    /// The side to move ran out of time.
    Flag,
}

impl MoveKind {
    /// Every kind, in the order of the schema's CHECK list.
    pub const ALL: [MoveKind; 8] = [
        MoveKind::Place,
        MoveKind::Pass,
        MoveKind::Resign,
        MoveKind::Vote,
        MoveKind::Withdraw,
        MoveKind::Timeout,
        MoveKind::Abandon,
        MoveKind::Flag,
    ];
}

/// A stored command or derived pass.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct MoveRow {
    pub seq: i64,
    pub round: i64,
    pub kind: MoveKind,
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

/// A finished round as the archive keeps it (the rest — table, round,
/// result, time — comes from its [`Record`] and [`RoundEnd`]).
#[derive(Clone, Debug)]
pub struct ArchivedGame {
    pub id: String,
    /// The table's mode, as JSON.
    pub mode: String,
    /// Who played each side: an identity, or `ai:<depth>`.
    pub black: String,
    pub white: String,
    pub start_obf: String,
    /// The placements, as a transcript (`f5d6c3…`).
    pub moves: String,
    /// Each placement's time in ms (null: untimed), as JSON.
    pub times: String,
    /// Set when the round changes both players' ratings.
    pub rated: Option<ratings::RatedGame>,
}

/// A query written with PostgreSQL's `$n` parameters, as SQLite reads it
/// (`?n`): the store's queries for both databases are written once.
pub(crate) fn sqlite(query: &str) -> String {
    query.replace('$', "?")
}

/// The database the store's queries run on, borrowed from the store.
///
/// A query is written once, with PostgreSQL's numbered parameters (`$1`),
/// inside [`on_db!`], which compiles the same body for each pool;
/// [`Dialect::sql`] hands each database the text it reads.
#[derive(Clone, Copy, Debug)]
pub enum Db<'a> {
    Sqlite(&'a SqlitePool),
    Postgres(&'a sqlx::PgPool),
}

/// A query's text as each database reads it.
pub trait Dialect {
    /// `query` (written with `$n` parameters) as this database reads it.
    fn sql<'q>(&self, query: &'q str) -> std::borrow::Cow<'q, str>;

    /// Whether this is PostgreSQL (for the rare step only it needs, such
    /// as an advisory lock where SQLite's one writer already serialises).
    fn is_postgres(&self) -> bool;
}

impl Dialect for SqlitePool {
    fn sql<'q>(&self, query: &'q str) -> std::borrow::Cow<'q, str> {
        std::borrow::Cow::Owned(sqlite(query))
    }

    fn is_postgres(&self) -> bool {
        false
    }
}

impl Dialect for sqlx::PgPool {
    fn sql<'q>(&self, query: &'q str) -> std::borrow::Cow<'q, str> {
        std::borrow::Cow::Borrowed(query)
    }

    fn is_postgres(&self) -> bool {
        true
    }
}

/// Runs `body`, written once, on the store's database: `pool` names the
/// pool inside it (`&SqlitePool` or `&PgPool`; `pool.sql(…)` gives the
/// query text each reads).
macro_rules! on_db {
    ($db:expr, |$pool:ident| $body:expr) => {
        match $db {
            $crate::store::Db::Sqlite($pool) => $body,
            $crate::store::Db::Postgres($pool) => $body,
        }
    };
}
pub(crate) use on_db;

/// Archived games kept for nobody: an anonymous player's games are kept
/// while their session lives; once no side is an account or a live
/// session (the AI counts for nobody), the game goes. A game with an
/// account on either side stays for that account.
pub(crate) const ORPHANED_GAMES: &str = "DELETE FROM archived_games
     WHERE black NOT LIKE 'account:%' AND white NOT LIKE 'account:%'
       AND (black LIKE 'ai:%' OR black NOT IN (SELECT token FROM sessions))
       AND (white LIKE 'ai:%' OR white NOT IN (SELECT token FROM sessions))";

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
    /// The round that just ended, for the archive.
    pub archive: Option<ArchivedGame>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_database_runs_wal_with_full_synchronous() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(&dir.path().join("t.db")).await.expect("open");
        assert_eq!(store.journal_mode().await.expect("mode"), "wal");
        let (sync,): (i64,) = sqlx::query_as("PRAGMA synchronous")
            .fetch_one(store.pool())
            .await
            .expect("pragma");
        assert_eq!(sync, 2, "synchronous=FULL is 2");
    }

    #[tokio::test]
    async fn every_kind_is_stored_as_the_string_the_schema_lists() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(&dir.path().join("t.db")).await.expect("open");
        store
            .create_table("t", "{}", "owner", (None, None), 1)
            .await
            .expect("create");
        let rows = MoveKind::ALL
            .iter()
            .enumerate()
            .map(|(i, kind)| MoveRow {
                seq: i as i64 + 1,
                round: 1,
                kind: *kind,
                side: "black".into(),
                square: (*kind == MoveKind::Place).then_some(19),
                time_ms: None,
            })
            .collect();
        let record = Record {
            archive: None,
            table_id: "t".into(),
            rows,
            round_end: None,
            new_round: None,
            votes: None,
            tally: (0, 0, 0),
            now: 2,
        };
        store.record(&record).await.expect("written");
        let stored: Vec<(String,)> = sqlx::query_as("SELECT kind FROM moves ORDER BY seq")
            .fetch_all(store.pool())
            .await
            .expect("raw kinds");
        let stored: Vec<&str> = stored.iter().map(|(k,)| k.as_str()).collect();
        assert_eq!(
            stored,
            ["place", "pass", "resign", "vote", "withdraw", "timeout", "abandon", "flag"],
            "the strings of migration 0011's CHECK, as earlier releases wrote them"
        );
        let read: Vec<MoveKind> = store
            .moves("t")
            .await
            .expect("rows")
            .iter()
            .map(|r| r.kind)
            .collect();
        assert_eq!(read, MoveKind::ALL);
    }
}
