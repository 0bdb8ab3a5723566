//! Storage: the tables, sessions, the AI lab, analyses, accounts, the
//! archive and ratings, on SQLite (one instance) or PostgreSQL (several).
//!
//! The module map: [`sqlite`] and [`pg`] are the two stores, siblings
//! implementing [`DatabaseStore`]: each opens its database, applies its
//! migrations and runs its own group-commit writer for accepted commands
//! (`sqlite::writer`, `pg::writer`); PostgreSQL also keeps what instances
//! share (versions, presence, jobs, the quick-match queue; [`bus`]).
//! [`Store`] is one of the two. Every other query is written once, for both,
//! with PostgreSQL's `$n` parameters, in a body that `on_db!` compiles for
//! each pool: `table_store` (the [`TableStore`] trait, what the hub needs:
//! sessions, tables, seats), `queries` (lab owners, the session count),
//! `lab` (creating, copying, expiring lab games), [`accounts`],
//! [`archive`], [`ratings`], and the analyses' and explanation budget's
//! queries beside their services. [`rows`] declares the row structs'
//! `FromRow` for both databases and embeds the migrations.

pub mod accounts;
mod analyses;
pub mod archive;
pub mod bots;
pub mod bus;
pub mod challenges;
mod explain_budget;
pub mod fair_play;
mod lab;
pub mod lab_rows;
pub mod mode;
mod move_rows;
pub mod pg;
pub mod puzzles;
mod queries;
pub mod ratings;
pub mod rows;
pub mod sqlite;
mod stats;
mod table_store;
mod tournament_rows;
pub mod tournaments;

pub use move_rows::{MoveKind, MoveRow};
pub use pg::PgStore;
pub use sqlite::{SqliteStore, MAX_BATCH};
pub use stats::CommitStats;
pub use table_store::TableStore;

use app::protocol::{GameId, TableId};
use sqlx::sqlite::SqliteSynchronous;
use sqlx::SqlitePool;
use std::path::Path;

/// Errors of the store.
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
    /// A database several instances may share, opened without their
    /// coordination (the bus): refused at start.
    #[error("a database several instances share needs their bus (hub::Shared, lab::LabShared)")]
    NotShared,
}

/// What each of the two sibling stores provides; everything else is
/// written once on top of it (`on_db!`, [`TableStore`] for [`Store`]).
/// A third database would be a third implementation.
pub trait DatabaseStore: Clone + Send + Sync + 'static {
    /// Its pool, for the statements written once.
    fn db(&self) -> Db<'_>;

    /// Its group-commit writer's counters (`/metrics`).
    fn commit_stats(&self) -> &CommitStats;

    /// Writes one accepted command and what it changed through its
    /// group-commit writer, atomically; `Ok` only once it is durable.
    fn record(
        &self,
        record: &Record,
    ) -> impl std::future::Future<Output = Result<(), StoreError>> + Send;
}

/// The database handle shared by the server: one of the two stores.
#[derive(Clone, Debug)]
pub enum Store {
    /// One instance, a SQLite file.
    Sqlite(SqliteStore),
    /// Several instances sharing PostgreSQL.
    Postgres(PgStore),
}

impl Store {
    /// Opens (creating if needed) the SQLite database at `path` and
    /// migrates it.
    pub async fn open(path: &Path) -> Result<Self, StoreError> {
        Self::open_with(path, SqliteSynchronous::Full).await
    }

    /// [`Store::open`] with another `synchronous` setting; only the commit
    /// benchmark uses anything but `FULL`.
    pub async fn open_with(
        path: &Path,
        synchronous: SqliteSynchronous,
    ) -> Result<Self, StoreError> {
        Ok(Self::Sqlite(SqliteStore::open(path, synchronous).await?))
    }

    /// Opens the store on PostgreSQL at `url` (`postgres://…`), migrating it.
    pub async fn open_postgres(url: &str) -> Result<Self, StoreError> {
        Ok(Self::Postgres(PgStore::open(url).await?))
    }

    /// The PostgreSQL store, when the site runs on it (to hand the hub and
    /// the lab what instances share).
    pub fn postgres(&self) -> Option<&PgStore> {
        match self {
            Self::Postgres(pg) => Some(pg),
            Self::Sqlite(_) => None,
        }
    }

    /// The SQLite store, when the site runs on it.
    pub fn sqlite(&self) -> Option<&SqliteStore> {
        match self {
            Self::Sqlite(sqlite) => Some(sqlite),
            Self::Postgres(_) => None,
        }
    }

    /// The database every query of the site runs on.
    pub fn db(&self) -> Db<'_> {
        match self {
            Self::Sqlite(sqlite) => sqlite.db(),
            Self::Postgres(pg) => pg.db(),
        }
    }

    /// The group-commit writer's counters.
    pub fn commit_stats(&self) -> &CommitStats {
        match self {
            Self::Sqlite(sqlite) => sqlite.commit_stats(),
            Self::Postgres(pg) => pg.commit_stats(),
        }
    }

    /// Whether the database answers a trivial query.
    pub async fn ping(&self) -> bool {
        on_db!(self.db(), |pool| sqlx::query("SELECT 1")
            .execute(pool)
            .await
            .is_ok())
    }
}

crate::store::rows::row_struct! {
    /// A stored table header.
    #[derive(Clone, Debug)]
    pub struct StoredTable {
        pub id: TableId as stored,
        pub mode: mode::ModeColumns as flatten,
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
}

/// A round that ended with a command.
#[derive(Clone, Debug)]
pub struct RoundEnd {
    pub round: i64,
    pub winner: Option<app::protocol::Side>,
    pub reason: app::protocol::EndReason,
    pub black: i64,
    pub white: i64,
}

/// A finished round as the archive keeps it (the rest — table, round,
/// result, time — comes from its [`Record`] and [`RoundEnd`]).
#[derive(Clone, Debug)]
pub struct ArchivedGame {
    pub id: GameId,
    /// The table's mode.
    pub mode: app::protocol::TableMode,
    /// Who played each side.
    pub black: crate::identity::Identity,
    pub white: crate::identity::Identity,
    pub start_obf: String,
    /// The placements, as a transcript (`f5d6c3…`).
    pub moves: String,
    /// Each placement's time in ms (null: untimed), as JSON.
    pub times: String,
    /// Set when the round changes both players' ratings.
    pub rated: Option<ratings::RatedGame>,
    /// An online game in which a side never placed a disc: it
    /// is archived with no winner and the reason `aborted`, so it counts as
    /// nobody's win, loss or draw (the live table's tally is unchanged).
    pub aborted: bool,
}

/// A query written with PostgreSQL's `$n` parameters, as SQLite reads it
/// (`?n`): the store's queries for both databases are written once.
pub(crate) fn sqlite(query: &str) -> String {
    query.replace('$', "?")
}

/// The database the store's queries run on, borrowed from the store.
///
/// A query is written once, with PostgreSQL's numbered parameters (`$1`),
/// inside `on_db!`, which compiles the same body for each pool;
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

/// Writes the rare parts of `record` (a round's end with its archived game
/// and the ratings it changed, votes, a new round) inside `tx`, a
/// transaction of either group-commit writer; `$q` turns the `$n` text into
/// the database's, `$rate` writes the ratings (each database locks the
/// rating rows its own way). Written once, expanded in both writers.
macro_rules! write_round_parts {
    ($tx:expr, $record:expr, $q:expr, $rate:path) => {{
        let tx = $tx;
        let record: &$crate::store::Record = $record;
        if let Some(end) = &record.round_end {
            sqlx::query(&$q("UPDATE rounds SET winner = $1, reason = $2, black = $3, white = $4, ended_at = $5 \
                 WHERE table_id = $6 AND round = $7"))
            .bind(end.winner.map(app::protocol::Side::key))
            .bind(end.reason.key())
            .bind(end.black)
            .bind(end.white)
            .bind(record.now)
            .bind(record.table_id.as_str())
            .bind(end.round)
            .execute(&mut **tx)
            .await?;
        }
        if let (Some(end), Some(game)) = (&record.round_end, &record.archive) {
            let sql = $q(concat!("INSERT INTO archived_games (id, table_id, round, black_account, black_ai, \
                 black_browser, white_account, white_ai, white_browser, start_obf, \
                 moves, times, winner, reason, black_discs, white_discs, ended_at, ", $crate::store::mode::mode_columns!(), ") \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, \
                 $22, $23, $24, $25)"));
            let black = $crate::store::archive::PlayerColumns::of(&game.black);
            let white = $crate::store::archive::PlayerColumns::of(&game.white);
            let query = sqlx::query(&sql)
            .bind(game.id.as_str())
            .bind(record.table_id.as_str())
            .bind(end.round)
            .bind(black.account)
            .bind(black.ai)
            .bind(black.browser)
            .bind(white.account)
            .bind(white.ai)
            .bind(white.browser)
            .bind(&game.start_obf)
            .bind(&game.moves)
            .bind(&game.times)
            .bind(if game.aborted { None } else { end.winner.map(app::protocol::Side::key) })
            .bind(if game.aborted { app::protocol::EndReason::Aborted } else { end.reason }.key())
            .bind(end.black)
            .bind(end.white)
            .bind(record.now);
            $crate::store::mode::bind_mode!(query, &$crate::store::mode::ModeColumns::of(game.mode))
                .execute(&mut **tx)
                .await?;
            if let Some(rated) = &game.rated {
                $rate(tx, game.id.as_str(), rated, end.winner, record.now).await?;
            }
        }
        if let Some((round, black, white)) = record.votes {
            for (side, vote) in [("black", black), ("white", white)] {
                sqlx::query(&$q("INSERT INTO votes (table_id, round, side, vote) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (table_id, round, side) DO UPDATE SET vote = excluded.vote"))
                .bind(record.table_id.as_str())
                .bind(round)
                .bind(side)
                .bind(vote)
                .execute(&mut **tx)
                .await?;
            }
        }
        if let Some(round) = record.new_round {
            sqlx::query(&$q("INSERT INTO rounds (table_id, round, started_at) VALUES ($1, $2, $3)"))
                .bind(record.table_id.as_str())
                .bind(round)
                .bind(record.now)
                .execute(&mut **tx)
                .await?;
        }
        Ok::<(), sqlx::Error>(())
    }};
}
pub(crate) use write_round_parts;

/// Archived games kept for nobody: an anonymous player's games are kept
/// while their session lives; once no side is an account or a live
/// session (the AI counts for nobody), the game goes. A game with an
/// account on either side stays for that account.
pub(crate) const ORPHANED_GAMES: &str = "DELETE FROM archived_games
     WHERE black_account IS NULL AND white_account IS NULL
       AND (black_browser IS NULL OR black_browser NOT IN (SELECT token FROM sessions))
       AND (white_browser IS NULL OR white_browser NOT IN (SELECT token FROM sessions))";

/// Everything one accepted command writes, in one transaction.
#[derive(Clone, Debug)]
pub struct Record {
    pub table_id: TableId,
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
        let store = store.sqlite().expect("SQLite");
        assert_eq!(store.journal_mode().await.expect("mode"), "wal");
        let (sync,): (i64,) = sqlx::query_as("PRAGMA synchronous")
            .fetch_one(store.pool())
            .await
            .expect("pragma");
        assert_eq!(sync, 2, "synchronous=FULL is 2");
    }

    /// A fresh SQLite store (in a folder kept while the guard lives) with
    /// one hot-seat table `t`.
    async fn store_with_table() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(&dir.path().join("t.db")).await.expect("open");
        store
            .create_table(
                &app::ids::TableId::new("t"),
                app::protocol::TableMode::HotSeat,
                "owner",
                (None, None),
                1,
            )
            .await
            .expect("create");
        (dir, store)
    }

    #[tokio::test]
    async fn every_kind_is_stored_as_the_string_the_schema_lists() {
        let (_dir, store) = store_with_table().await;
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
            table_id: app::ids::TableId::new("t"),
            rows,
            round_end: None,
            new_round: None,
            votes: None,
            tally: (0, 0, 0),
            now: 2,
        };
        store.record(&record).await.expect("written");
        let stored: Vec<(String,)> = sqlx::query_as("SELECT kind FROM moves ORDER BY seq")
            .fetch_all(store.sqlite().expect("SQLite").pool())
            .await
            .expect("raw kinds");
        let stored: Vec<&str> = stored.iter().map(|(k,)| k.as_str()).collect();
        assert_eq!(
            stored,
            [
                "place", "pass", "resign", "vote", "withdraw", "timeout", "abandon", "flag",
                "berserk"
            ],
            "the strings of migrations 0011 and 0022's CHECK, as earlier releases wrote them"
        );
        let read: Vec<MoveKind> = store
            .moves(&app::ids::TableId::new("t"))
            .await
            .expect("rows")
            .iter()
            .map(|r| r.kind)
            .collect();
        assert_eq!(read, MoveKind::ALL);
    }

    /// The schema takes exactly the keys of `Side`, `EndReason` and `Speed`
    /// for a result and a pool (migration 0024), and refuses any other.
    #[tokio::test]
    async fn results_and_pools_are_the_keys_the_code_writes() {
        use app::protocol::{EndReason, Speed};
        let (_dir, store) = store_with_table().await;
        let pool = store.sqlite().expect("SQLite").pool().clone();
        let set = |column: &'static str, value: &str| {
            let pool = pool.clone();
            let value = value.to_string();
            async move {
                sqlx::query(&format!(
                    "UPDATE rounds SET {column} = ? WHERE table_id = 't'"
                ))
                .bind(value)
                .execute(&pool)
                .await
                .is_ok()
            }
        };
        for reason in EndReason::ALL {
            assert!(set("reason", reason.key()).await, "{reason:?}");
        }
        for side in [app::protocol::Side::Black, app::protocol::Side::White] {
            assert!(set("winner", side.key()).await, "{side:?}");
        }
        assert!(!set("reason", "left").await, "an unknown reason is refused");
        assert!(!set("winner", "draw").await, "an unknown winner is refused");
        sqlx::query("INSERT INTO accounts (id, name, name_key, password_hash, created_at) VALUES (1, 'a', 'a', 'x', 0)")
            .execute(&pool)
            .await
            .expect("an account");
        let rate = |speed: String| {
            let pool = pool.clone();
            async move {
                sqlx::query(
                    "INSERT INTO ratings (account_id, speed, rating, deviation, volatility, games, rated_at) \
                     VALUES (1, ?, 1500, 350, 0.06, 0, 0)",
                )
                .bind(speed)
                .execute(&pool)
                .await
                .is_ok()
            }
        };
        for speed in Speed::ALL {
            assert!(rate(speed.key().to_string()).await, "{speed:?}");
        }
        assert!(!rate("bullet".into()).await, "an unknown pool is refused");
    }
}
