//! The PostgreSQL store, the sibling of `store::sqlite` for several server
//! instances: opening and migrating (`migrations/postgres/`), the tables'
//! versions and version-checked writes here, its group commit in
//! `writer`, presence, jobs and the quick-match queue in `cluster.rs` (the
//! lab's queries are written once for both databases, `store/lab.rs`).
//! Selected by a `postgres://…` `--database`.
//!
//! Every write to a table checks and bumps its `version` under
//! `SELECT … FOR UPDATE` in one transaction ([`PgStore::record_at`],
//! [`PgStore::update_seating_at`]): a write made against an older version
//! changes nothing and answers [`StoreError::Stale`], so of two instances
//! writing the same table at once exactly one succeeds.

mod cluster;

pub(super) mod writer;

use super::{CommitStats, DatabaseStore, Db, MoveKind, MoveRow, Record, StoreError, StoredTable};
use crate::seating::SeatingRecord;
use app::protocol::TableId;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{PgPool, Row};
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use writer::PgWrite;

/// The PostgreSQL handle of one instance; cheap to clone.
#[derive(Clone, Debug)]
pub struct PgStore {
    pool: PgPool,
    /// The group-commit writer of table records (`writer`).
    writer: mpsc::Sender<PgWrite>,
    stats: Arc<CommitStats>,
    /// This instance's id (random, new at every start).
    instance: Arc<str>,
}

/// A stored table header with its version.
#[derive(Clone, Debug)]
pub struct VersionedTable {
    pub header: StoredTable,
    pub version: i64,
    /// Its rows, read in the same snapshot as `version`.
    pub moves: Vec<MoveRow>,
}

/// A job taken by this instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub table_id: String,
    /// `timer` or `ai`.
    pub kind: String,
}

/// A `moves` row as read: seq, round, kind, side, square, time used.
type RawMove = (i64, i64, String, String, Option<i64>, Option<i64>);

const HEADER_COLUMNS: &str = concat!(
    "id, owner, created_at, last_activity, black_seat, white_seat, black_gone_since, white_gone_since, running_since, start_obf, ",
    crate::store::mode::mode_columns!()
);

fn header_of(row: &sqlx::postgres::PgRow) -> Result<StoredTable, sqlx::Error> {
    Ok(StoredTable {
        id: TableId::new(row.try_get::<String, _>("id")?),
        mode: <crate::store::mode::ModeColumns as sqlx::FromRow<_>>::from_row(row)?,
        owner: row.try_get("owner")?,
        created_at: row.try_get("created_at")?,
        last_activity: row.try_get("last_activity")?,
        black_seat: row.try_get("black_seat")?,
        white_seat: row.try_get("white_seat")?,
        black_gone_since: row.try_get("black_gone_since")?,
        white_gone_since: row.try_get("white_gone_since")?,
        running_since: row.try_get("running_since")?,
        start_obf: row.try_get("start_obf")?,
    })
}

/// Locks a table's row and checks its version: `Stale` if another write
/// came first, `Gone` if the table no longer exists.
async fn lock_version(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    id: &str,
    expected: i64,
) -> Result<(), StoreError> {
    let row: Option<(i64,)> = sqlx::query_as("SELECT version FROM tables WHERE id = $1 FOR UPDATE")
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?;
    match row {
        None => Err(StoreError::Gone),
        Some((version,)) if version != expected => Err(StoreError::Stale),
        Some(_) => Ok(()),
    }
}

impl PgStore {
    /// Connects to `url` (`postgres://…`) and applies `migrations/postgres`
    /// (sqlx holds an advisory lock, so instances starting together migrate
    /// once).
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        let options = PgConnectOptions::from_str(url).map_err(|source| StoreError::Open {
            path: redact(url),
            source,
        })?;
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await
            .map_err(|source| StoreError::Open {
                path: redact(url),
                source,
            })?;
        crate::store::rows::postgres_migrator().run(&pool).await?;
        let (writer, jobs) = mpsc::channel(writer::QUEUE);
        let stats = Arc::new(CommitStats::default());
        tokio::spawn(writer::write_batches(pool.clone(), jobs, stats.clone()));
        Ok(Self {
            pool,
            writer,
            stats,
            instance: Arc::from(crate::hex::hex(&rand::random::<[u8; 8]>())),
        })
    }

    /// The connection pool.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// This instance's id.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// Stores seats and presence if the table is still at `version`; the
    /// table is then at `version + 1`.
    pub async fn update_seating_at(
        &self,
        id: &str,
        seating: &SeatingRecord,
        touch: Option<i64>,
        version: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        lock_version(&mut tx, id, version).await?;
        super::table_store::bind_seats(sqlx::query(super::table_store::SEATING), seating)
            .bind(touch)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Writes one accepted command if the table is still at `version`: lock
    /// the row, check the version, write the rows, bump the version, commit
    /// — with the other records waiting, in one transaction of the group
    /// commit (`writer`). `Ok` once committed; the table is then
    /// at `version + 1`.
    pub async fn record_at(&self, record: &Record, version: i64) -> Result<(), StoreError> {
        self.record_notifying(record, version, None).await
    }

    /// [`PgStore::record_at`], and if the record is written, its commit also
    /// sends `notify` on the bus's channel ([`super::bus::PgBus`]).
    pub async fn record_notifying(
        &self,
        record: &Record,
        version: i64,
        notify: Option<String>,
    ) -> Result<(), StoreError> {
        let (done, answer) = tokio::sync::oneshot::channel();
        self.write(
            PgWrite::Record {
                record: Box::new(record.clone()),
                version,
                notify,
                done,
            },
            answer,
        )
        .await
    }

    /// Hands a write to the group-commit writer and waits for its verdict.
    async fn write(
        &self,
        job: PgWrite,
        answer: tokio::sync::oneshot::Receiver<Result<(), StoreError>>,
    ) -> Result<(), StoreError> {
        self.writer
            .send(job)
            .await
            .map_err(|_| StoreError::WriterGone)?;
        answer.await.map_err(|_| StoreError::WriterGone)?
    }

    /// One table's header and version with its rows from `from_seq` on
    /// (1: all of them), read by one statement and so from one snapshot: a
    /// move committed between two separate reads would give rows newer than
    /// the version, and a copy that writes its next move at a stale version.
    /// An instance that heard of a new version reads only the rows it lacks.
    pub async fn table_since(
        &self,
        id: &str,
        from_seq: i64,
    ) -> Result<Option<VersionedTable>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {HEADER_COLUMNS}, version, seq, round, kind, side, square, time_ms \
             FROM tables LEFT JOIN moves ON moves.table_id = tables.id AND moves.seq >= $2 \
             WHERE tables.id = $1 ORDER BY seq"
        ))
        .bind(id)
        .bind(from_seq)
        .fetch_all(&self.pool)
        .await?;
        let Some(first) = rows.first() else {
            return Ok(None);
        };
        let mut moves = Vec::with_capacity(rows.len());
        for row in &rows {
            let Some(seq) = row.try_get::<Option<i64>, _>("seq")? else {
                continue;
            };
            moves.push(move_of((
                seq,
                row.try_get("round")?,
                row.try_get("kind")?,
                row.try_get("side")?,
                row.try_get("square")?,
                row.try_get("time_ms")?,
            ))?);
        }
        Ok(Some(VersionedTable {
            header: header_of(first)?,
            version: first.try_get("version")?,
            moves,
        }))
    }

    /// A table's version (None: no such table).
    pub async fn version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        let row: Option<(i64,)> = sqlx::query_as("SELECT version FROM tables WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|(v,)| v))
    }

    /// The versions of several tables (missing ids: deleted tables).
    pub async fn versions(&self, ids: &[String]) -> Result<HashMap<String, i64>, StoreError> {
        let rows: Vec<(String, i64)> =
            sqlx::query_as("SELECT id, version FROM tables WHERE id = ANY($1)")
                .bind(ids)
                .fetch_all(&self.pool)
                .await?;
        Ok(rows.into_iter().collect())
    }

    pub async fn moves(&self, table_id: &str) -> Result<Vec<MoveRow>, StoreError> {
        moves_in(&self.pool, table_id).await
    }
}

/// A database URL without its password, for logs and errors.
pub fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        Ok(parsed) => parsed.to_string(),
        Err(_) => "(unreadable database URL)".into(),
    }
}

/// Whether `--database` names a PostgreSQL server.
pub fn is_postgres_url(database: &str) -> bool {
    database.starts_with("postgres://") || database.starts_with("postgresql://")
}

/// The rare parts of one record (a round's end with its archived game and
/// ratings, votes, a new round), inside the batch's transaction.
pub(super) async fn write_round_parts(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    record: &Record,
) -> Result<(), StoreError> {
    super::write_round_parts!(tx, record, str::to_string, crate::store::ratings::write_pg)?;
    Ok(())
}

impl DatabaseStore for PgStore {
    fn db(&self) -> Db<'_> {
        Db::Postgres(&self.pool)
    }

    fn commit_stats(&self) -> &CommitStats {
        &self.stats
    }

    /// At the table's current version, unchecked: the hub, which decides
    /// on a cached copy, writes with [`PgStore::record_notifying`] at the
    /// version it decided at.
    async fn record(&self, record: &Record) -> Result<(), StoreError> {
        let version = self
            .version(record.table_id.as_str())
            .await?
            .ok_or(StoreError::Gone)?;
        self.record_at(record, version).await
    }
}

/// A table's rows in order, read through `db` (the pool or a transaction).
async fn moves_in<'e, E: sqlx::PgExecutor<'e>>(
    db: E,
    table_id: &str,
) -> Result<Vec<MoveRow>, StoreError> {
    let rows: Vec<RawMove> = sqlx::query_as(
        "SELECT seq, round, kind, side, square, time_ms FROM moves WHERE table_id = $1 ORDER BY seq",
    )
    .bind(table_id)
    .fetch_all(db)
    .await?;
    rows.into_iter().map(move_of).collect()
}

/// A stored row as read.
fn move_of((seq, round, kind, side, square, time_ms): RawMove) -> Result<MoveRow, StoreError> {
    let kind = MoveKind::from_name(&kind).ok_or_else(|| {
        StoreError::Query(sqlx::Error::ColumnDecode {
            index: "kind".into(),
            source: format!("unknown move kind {kind:?}").into(),
        })
    })?;
    Ok(MoveRow {
        seq,
        round,
        kind,
        side,
        square,
        time_ms,
    })
}
