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
