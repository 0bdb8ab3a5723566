//! The SQLite store: opening the database (WAL, foreign keys), applying the
//! migrations in `migrations/`, and the queries the rest of the server uses.

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::path::Path;
use std::time::Duration;

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
}

/// The database handle shared by the server.
#[derive(Clone, Debug)]
pub struct Store {
    pool: SqlitePool,
}

impl Store {
    /// Opens (creating if needed) the database at `path` and migrates it.
    pub async fn open(path: &Path) -> Result<Self, StoreError> {
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
            .synchronous(SqliteSynchronous::Normal)
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
        sqlx::migrate!("../migrations").run(&pool).await?;
        Ok(Self { pool })
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
}

/// A stored command or derived pass.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct MoveRow {
    pub seq: i64,
    pub round: i64,
    pub kind: String,
    pub side: String,
    pub square: Option<i64>,
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

    /// Writes one accepted command and what it changed, atomically.
    pub async fn record(&self, record: &Record) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        for row in &record.rows {
            sqlx::query(
                "INSERT INTO moves (table_id, seq, round, kind, side, square, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(&record.table_id)
            .bind(row.seq)
            .bind(row.round)
            .bind(&row.kind)
            .bind(&row.side)
            .bind(row.square)
            .bind(record.now)
            .execute(&mut *tx)
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
            .execute(&mut *tx)
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
                .execute(&mut *tx)
                .await?;
            }
        }
        if let Some(round) = record.new_round {
            sqlx::query("INSERT INTO rounds (table_id, round, started_at) VALUES (?, ?, ?)")
                .bind(&record.table_id)
                .bind(round)
                .bind(record.now)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query(
            "UPDATE tallies SET black_wins = ?, white_wins = ?, draws = ? WHERE table_id = ?",
        )
        .bind(record.tally.0)
        .bind(record.tally.1)
        .bind(record.tally.2)
        .bind(&record.table_id)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE tables SET last_activity = ? WHERE id = ?")
            .bind(record.now)
            .bind(&record.table_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Records the seat holders of an online table.
    pub async fn update_seats(
        &self,
        id: &str,
        black: Option<&str>,
        white: Option<&str>,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE tables SET black_seat = ?, white_seat = ?, last_activity = ? WHERE id = ?",
        )
        .bind(black)
        .bind(white)
        .bind(now)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Records since when each seat holder has been gone (NULL: connected).
    pub async fn update_presence(
        &self,
        id: &str,
        black_gone_since: Option<i64>,
        white_gone_since: Option<i64>,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE tables SET black_gone_since = ?, white_gone_since = ? WHERE id = ?")
            .bind(black_gone_since)
            .bind(white_gone_since)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Every stored table.
    pub async fn tables(&self) -> Result<Vec<StoredTable>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT id, mode, owner, created_at, last_activity, black_seat, white_seat, black_gone_since, white_gone_since FROM tables ORDER BY created_at",
        )
        .fetch_all(&self.pool)
        .await?)
    }

    /// A table's commands and passes, in order.
    pub async fn moves(&self, table_id: &str) -> Result<Vec<MoveRow>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT seq, round, kind, side, square FROM moves WHERE table_id = ? ORDER BY seq",
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
