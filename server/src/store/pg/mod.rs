//! The PostgreSQL store: what several server instances share (tables, their
//! rows and versions, sessions, presence per instance, the quick-match queue
//! and the timer/AI jobs). Selected by a `postgres://…` `--database`; the
//! schema is `migrations/postgres/`.
//!
//! (Over 600 lines: the PostgreSQL half of the shared store; its SQLite sibling is split the same way.)
//!
//! Every write to a table checks and bumps its `version` under
//! `SELECT … FOR UPDATE` in one transaction ([`PgStore::record_at`],
//! [`PgStore::update_seating_at`]): a write made against an older version
//! changes nothing and answers [`StoreError::Stale`], so of two instances
//! writing the same table at once exactly one succeeds.

pub(super) mod lab;
pub(super) mod writer;

use super::{CommitStats, DatabaseStore, Db, MoveKind, MoveRow, Record, StoreError, StoredTable};
use crate::seating::SeatingRecord;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{PgPool, Row};
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use writer::{JobsWrite, PgWrite};

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

impl MoveKind {
    /// The stored name (`'place'`, `'pass'`, …).
    pub fn name(self) -> &'static str {
        match self {
            MoveKind::Place => "place",
            MoveKind::Pass => "pass",
            MoveKind::Resign => "resign",
            MoveKind::Vote => "vote",
            MoveKind::Withdraw => "withdraw",
            MoveKind::Timeout => "timeout",
            MoveKind::Abandon => "abandon",
            MoveKind::Flag => "flag",
        }
    }

    /// The kind a stored name stands for.
    pub fn from_name(name: &str) -> Option<MoveKind> {
        MoveKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A `moves` row as read: seq, round, kind, side, square, time used.
type RawMove = (i64, i64, String, String, Option<i64>, Option<i64>);

const HEADER_COLUMNS: &str = "id, mode, owner, created_at, last_activity, black_seat, white_seat, black_gone_since, white_gone_since, running_since, start_obf";

fn header_of(row: &sqlx::postgres::PgRow) -> Result<StoredTable, sqlx::Error> {
    Ok(StoredTable {
        id: row.try_get("id")?,
        mode: row.try_get("mode")?,
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
        sqlx::migrate!("../migrations/postgres").run(&pool).await?;
        let (writer, jobs) = mpsc::channel(writer::QUEUE);
        let stats = Arc::new(CommitStats::default());
        tokio::spawn(writer::write_batches(pool.clone(), jobs, stats.clone()));
        Ok(Self {
            pool,
            writer,
            stats,
            instance: Arc::from(crate::session::new_token().get(..16).unwrap_or("instance")),
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
    /// commit ([`writer`]). `Ok` once committed; the table is then
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

    // ----- instances and presence -----

    /// Says this instance is alive at `now`.
    pub async fn heartbeat(&self, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO instances (id, heartbeat_at) VALUES ($1, $2) \
             ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at",
        )
        .bind(&*self.instance)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// This instance leaves (a clean shutdown): its presence and queue rows go.
    pub async fn leave(&self) -> Result<Vec<String>, StoreError> {
        let tables: Vec<(String,)> =
            sqlx::query_as("DELETE FROM presence WHERE instance = $1 RETURNING table_id")
                .bind(&*self.instance)
                .fetch_all(&self.pool)
                .await?;
        sqlx::query("DELETE FROM queue WHERE instance = $1")
            .bind(&*self.instance)
            .execute(&self.pool)
            .await?;
        sqlx::query("DELETE FROM instances WHERE id = $1")
            .bind(&*self.instance)
            .execute(&self.pool)
            .await?;
        Ok(tables.into_iter().map(|(t,)| t).collect())
    }

    /// Adds `delta` (±1) to this instance's count of `session`'s sockets on
    /// a table.
    pub async fn add_presence(
        &self,
        table_id: &str,
        session: &str,
        delta: i32,
    ) -> Result<(), StoreError> {
        if delta > 0 {
            sqlx::query(
                "INSERT INTO presence (instance, table_id, session, sockets) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (instance, table_id, session) DO UPDATE SET sockets = presence.sockets + excluded.sockets",
            )
            .bind(&*self.instance)
            .bind(table_id)
            .bind(session)
            .bind(delta)
            .execute(&self.pool)
            .await?;
        } else {
            let mut tx = self.pool.begin().await?;
            sqlx::query(
                "UPDATE presence SET sockets = sockets + $4 WHERE instance = $1 AND table_id = $2 AND session = $3 AND sockets + $4 > 0",
            )
            .bind(&*self.instance)
            .bind(table_id)
            .bind(session)
            .bind(delta)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "DELETE FROM presence WHERE instance = $1 AND table_id = $2 AND session = $3 AND sockets + $4 <= 0",
            )
            .bind(&*self.instance)
            .bind(table_id)
            .bind(session)
            .bind(delta)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
        }
        Ok(())
    }

    /// Open sockets per session on a table, over the instances alive at
    /// `alive_since` (heartbeat at or after it).
    pub async fn presence(
        &self,
        table_id: &str,
        alive_since: i64,
    ) -> Result<HashMap<String, u32>, StoreError> {
        let rows: Vec<(String, i64)> = sqlx::query_as(
            "SELECT p.session, SUM(p.sockets)::BIGINT FROM presence p JOIN instances i ON i.id = p.instance \
             WHERE p.table_id = $1 AND i.heartbeat_at >= $2 GROUP BY p.session",
        )
        .bind(table_id)
        .bind(alive_since)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(s, n)| (s, u32::try_from(n).unwrap_or(u32::MAX)))
            .collect())
    }

    /// Forgets instances silent since before `alive_since` and their
    /// presence and queue rows; returns the tables whose presence changed.
    /// Rows are taken with SKIP LOCKED, so instances reaping at once share
    /// the work.
    pub async fn reap_dead(&self, alive_since: i64) -> Result<Vec<String>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let dead: Vec<(String,)> = sqlx::query_as(
            "DELETE FROM instances WHERE id IN \
             (SELECT id FROM instances WHERE heartbeat_at < $1 FOR UPDATE SKIP LOCKED) RETURNING id",
        )
        .bind(alive_since)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        let dead: Vec<String> = dead.into_iter().map(|(id,)| id).collect();
        // Rows of instances that no longer exist (reaped now or before).
        let tables: Vec<(String,)> = sqlx::query_as(
            "DELETE FROM presence p WHERE NOT EXISTS (SELECT 1 FROM instances i WHERE i.id = p.instance) RETURNING table_id",
        )
        .fetch_all(&self.pool)
        .await?;
        sqlx::query(
            "DELETE FROM queue q WHERE NOT EXISTS (SELECT 1 FROM instances i WHERE i.id = q.instance)",
        )
        .execute(&self.pool)
        .await?;
        if !dead.is_empty() {
            tracing::warn!(
                ?dead,
                "instances stopped answering; their sockets no longer count"
            );
        }
        let mut tables: Vec<String> = tables.into_iter().map(|(t,)| t).collect();
        tables.sort();
        tables.dedup();
        Ok(tables)
    }

    // ----- jobs -----

    /// Sets a table's jobs: its next timer (None: none) and whether the AI
    /// is to move; an AI job is leased to this instance until `lease_until`
    /// when it runs the search itself (None: any instance may take it now).
    /// Written by the group-commit writer with the records waiting; `Ok`
    /// once committed.
    pub async fn set_jobs(
        &self,
        table_id: &str,
        timer: Option<i64>,
        ai: Option<i64>,
        lease_until: Option<i64>,
    ) -> Result<(), StoreError> {
        let (done, answer) = tokio::sync::oneshot::channel();
        self.write(
            PgWrite::Jobs(JobsWrite {
                table_id: table_id.to_string(),
                timer,
                ai,
                lease: lease_until,
                done,
            }),
            answer,
        )
        .await
    }

    /// Takes up to `limit` jobs due at `now` whose lease ran out (or that
    /// have none), leasing them to this instance until `lease_until`. Rows
    /// another instance is taking are skipped (SKIP LOCKED).
    pub async fn take_jobs(
        &self,
        now: i64,
        lease_until: i64,
        limit: i64,
    ) -> Result<Vec<Job>, StoreError> {
        let rows: Vec<(String, String)> = sqlx::query_as(
            "UPDATE jobs SET claimed_until = $2 WHERE (table_id, kind) IN \
             (SELECT table_id, kind FROM jobs WHERE due_at <= $1 AND (claimed_until IS NULL OR claimed_until < $1) \
              ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING table_id, kind",
        )
        .bind(now)
        .bind(lease_until)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(table_id, kind)| Job { table_id, kind })
            .collect())
    }

    // ----- quick match -----

    /// Pairs `session` with the oldest player waiting for `control` on a
    /// live instance (taken with FOR UPDATE SKIP LOCKED and removed), or
    /// queues it. Answers `Ok(Err((ticket, partner)))` when paired, and
    /// `Ok(Ok(ticket))` when queued.
    pub async fn enqueue(
        &self,
        session: &str,
        control: &str,
        now: i64,
        alive_since: i64,
        rating: Option<f64>,
    ) -> Result<Result<i64, (i64, String)>, StoreError> {
        let mut tx = self.pool.begin().await?;
        // One pairing at a time per control: without it two players joining
        // at once on two instances could both see an empty queue and wait.
        sqlx::query("SELECT pg_advisory_xact_lock(hashtext('othello-queue:' || $1))")
            .bind(control)
            .execute(&mut *tx)
            .await?;
        // Casual: the longest waiting. Rated: the closest rating inside the
        // window the waiting player's wait has opened.
        let partner: Option<(i64, String)> = sqlx::query_as(&format!(
            "SELECT q.ticket, q.session FROM queue q JOIN instances i ON i.id = q.instance \
             WHERE q.control = $1 AND q.session <> $2 AND i.heartbeat_at >= $3 \
             AND ($4::float8 IS NULL OR abs(q.rating - $4) <= {window}) \
             ORDER BY abs(coalesce(q.rating - $4, 0)), q.ticket LIMIT 1 FOR UPDATE OF q SKIP LOCKED",
            window = rating_window_sql("$5 - q.created_at"),
        ))
        .bind(control)
        .bind(session)
        .bind(alive_since)
        .bind(rating)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        let answer = match partner {
            Some((ticket, partner)) => {
                sqlx::query("DELETE FROM queue WHERE ticket = $1")
                    .bind(ticket)
                    .execute(&mut *tx)
                    .await?;
                Err((ticket, partner))
            }
            None => {
                let (ticket,): (i64,) = sqlx::query_as(
                    "INSERT INTO queue (control, session, instance, created_at, rating) VALUES ($1, $2, $3, $4, $5) RETURNING ticket",
                )
                .bind(control)
                .bind(session)
                .bind(&*self.instance)
                .bind(now)
                .bind(rating)
                .fetch_one(&mut *tx)
                .await?;
                Ok(ticket)
            }
        };
        tx.commit().await?;
        Ok(answer)
    }

    /// A waiting rated player (`ticket`) looks again: the closest-rated
    /// player inside the window the longer wait of the two has opened is
    /// taken off the queue with them. Returns (own session, the partner's
    /// ticket and session), or None (nobody yet, or no longer waiting).
    pub async fn rematch(
        &self,
        ticket: i64,
        control: &str,
        now: i64,
        alive_since: i64,
    ) -> Result<Option<(String, i64, String)>, StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("SELECT pg_advisory_xact_lock(hashtext('othello-queue:' || $1))")
            .bind(control)
            .execute(&mut *tx)
            .await?;
        let mine: Option<(String, Option<f64>, i64)> = sqlx::query_as(
            "SELECT session, rating, created_at FROM queue WHERE ticket = $1 AND control = $2 FOR UPDATE",
        )
        .bind(ticket)
        .bind(control)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((session, Some(rating), since)) = mine else {
            return Ok(None);
        };
        let partner: Option<(i64, String)> = sqlx::query_as(&format!(
            "SELECT q.ticket, q.session FROM queue q JOIN instances i ON i.id = q.instance \
             WHERE q.control = $1 AND q.session <> $2 AND i.heartbeat_at >= $3 AND q.ticket <> $4 \
             AND abs(q.rating - $5) <= {window} \
             ORDER BY abs(q.rating - $5), q.ticket LIMIT 1 FOR UPDATE OF q SKIP LOCKED",
            window = rating_window_sql("$6 - least(q.created_at, $7)"),
        ))
        .bind(control)
        .bind(&session)
        .bind(alive_since)
        .bind(ticket)
        .bind(rating)
        .bind(now)
        .bind(since)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((partner_ticket, partner)) = partner else {
            return Ok(None);
        };
        sqlx::query("DELETE FROM queue WHERE ticket = $1 OR ticket = $2")
            .bind(ticket)
            .bind(partner_ticket)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Some((session, partner_ticket, partner)))
    }

    /// Leaves the queue.
    pub async fn dequeue(&self, ticket: i64) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM queue WHERE ticket = $1")
            .bind(ticket)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Whether the database answers a trivial query.
    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.pool).await.is_ok()
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

/// [`crate::hub::rating_window`] in SQL, for a wait of `waited` ms: ±100,
/// 100 wider every 5 s, anyone after 30 s.
fn rating_window_sql(waited: &str) -> String {
    format!(
        "(CASE WHEN ({waited}) >= 30000 THEN 'Infinity'::float8 \
          ELSE (100 + 100 * (({waited}) / 5000))::float8 END)"
    )
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
            .version(&record.table_id)
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
