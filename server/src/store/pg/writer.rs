//! PostgreSQL's group commit: the version-checked records of every table
//! this instance writes, several per transaction.
//!
//! [`super::PgStore::record_at`] hands its record and the version it was
//! decided at to one writer task and waits. The writer takes every record
//! waiting (up to [`MAX_BATCH`]) and, in one transaction:
//!
//! 1. locks all their tables' rows at once, in id order (`SELECT … ORDER BY
//!    id FOR UPDATE`: two instances' batches lock shared tables in the same
//!    order and cannot deadlock), and reads their versions;
//! 2. refuses each record whose table moved on (`Stale`) or is gone
//!    (`Gone`), exactly as a transaction of its own would;
//! 3. writes every accepted record's rows with one `INSERT … UNNEST`, what
//!    ends a round or starts one per record, and the tallies and versions
//!    with one `UPDATE … FROM UNNEST` each;
//! 4. stores the tables' jobs handed over meanwhile ([`JobsWrite`]: the next
//!    timer and AI move of tables just written), with one statement for the
//!    deletions and one for the rest, in (table, kind) order;
//! 5. queues the bus messages of the records written (`pg_notify`, sent by
//!    the commit: never before it, never for a rolled-back batch);
//! 6. commits (one WAL flush for the batch), then answers each caller.
//!
//! A record is acknowledged only after the commit that holds it. A failed
//! batch wrote none of its records; they are then written one by one, each
//! in its own transaction with its own answer (so one bad record, or a
//! deadlock with another instance, costs the others nothing), and callers
//! (who change memory only after an `Ok`) stay as they were on an error.

use crate::store::{CommitStats, Record, StoreError};
use sqlx::PgPool;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// Most records written in one transaction.
pub const MAX_BATCH: usize = 256;
/// Records that may wait for the writer before callers wait to enqueue.
pub(super) const QUEUE: usize = 4096;

/// What the writer is handed.
pub(super) enum PgWrite {
    /// A record to write if its table is still at `version`.
    Record {
        record: Box<Record>,
        version: i64,
        /// A bus message sent by the commit if the record is written.
        notify: Option<String>,
        done: oneshot::Sender<Result<(), StoreError>>,
    },
    /// A table's jobs (see [`super::PgStore::set_jobs`]).
    Jobs(JobsWrite),
}

/// A table's jobs: its next timer, an AI move to make and that move's
/// lease (None: no such job).
pub(super) struct JobsWrite {
    pub(super) table_id: String,
    pub(super) timer: Option<i64>,
    pub(super) ai: Option<i64>,
    pub(super) lease: Option<i64>,
    pub(super) done: oneshot::Sender<Result<(), StoreError>>,
}

impl PgWrite {
    fn answer(self, verdict: Result<(), StoreError>) {
        let done = match self {
            PgWrite::Record { done, .. } => done,
            PgWrite::Jobs(jobs) => jobs.done,
        };
        let _ = done.send(verdict);
    }
}

/// The writer task: batches until every sender is gone.
pub(super) async fn write_batches(
    pool: PgPool,
    mut jobs: mpsc::Receiver<PgWrite>,
    stats: Arc<CommitStats>,
) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while jobs.recv_many(&mut batch, MAX_BATCH).await > 0 {
        stats.batch(batch.len());
        match write_batch(&pool, &batch).await {
            Ok(verdicts) => {
                for (job, verdict) in batch.drain(..).zip(verdicts) {
                    job.answer(verdict);
                }
            }
            Err(error) if batch.len() == 1 => {
                stats.failed();
                tracing::error!("a table write failed: {error}");
                for job in batch.drain(..) {
                    job.answer(Err(StoreError::Batch(error.to_string())));
                }
            }
            Err(error) => {
                // Nothing of the batch was written. One bad write (or a
                // deadlock with another instance) must not cost the others
                // their move: each is written alone and gets its own answer.
                stats.failed();
                tracing::warn!(
                    writes = batch.len(),
                    "a batch of table writes failed ({error}); writing them one by one"
                );
                for job in batch.drain(..) {
                    let verdict = match write_batch(&pool, std::slice::from_ref(&job)).await {
                        Ok(mut verdicts) => verdicts.pop().unwrap_or(Ok(())),
                        Err(error) => {
                            stats.failed();
                            Err(StoreError::Batch(error.to_string()))
                        }
                    };
                    job.answer(verdict);
                }
            }
        }
    }
}

/// What the batch did to one table: how many records it accepted for it,
/// and the last one's time and tally.
struct Written {
    records: i64,
    now: i64,
    tally: (i64, i64, i64),
}

/// Writes one batch in one transaction; each write's verdict (`Ok`,
/// `Stale`, `Gone`) in order, or the error that failed the whole batch.
async fn write_batch(
    pool: &PgPool,
    batch: &[PgWrite],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let mut tx = pool.begin().await?;
    let mut ids: Vec<&str> = batch
        .iter()
        .filter_map(|job| match job {
            PgWrite::Record { record, .. } => Some(record.table_id.as_str()),
            PgWrite::Jobs(_) => None,
        })
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let mut current: HashMap<String, i64> = if ids.is_empty() {
        HashMap::new()
    } else {
        let versions: Vec<(String, i64)> = sqlx::query_as(
            "SELECT id, version FROM tables WHERE id = ANY($1) ORDER BY id FOR UPDATE",
        )
        .bind(&ids)
        .fetch_all(&mut *tx)
        .await?;
        versions.into_iter().collect()
    };
    let mut verdicts = Vec::with_capacity(batch.len());
    let mut accepted = Vec::with_capacity(batch.len());
    let mut jobs = Vec::new();
    let mut notes = Vec::new();
    for job in batch {
        let verdict = match job {
            PgWrite::Jobs(write) => {
                jobs.push(write);
                Ok(())
            }
            PgWrite::Record {
                record,
                version,
                notify,
                ..
            } => match current.get_mut(record.table_id.as_str()) {
                None => Err(StoreError::Gone),
                Some(now_at) if *now_at != *version => Err(StoreError::Stale),
                Some(now_at) => {
                    // A second record of the same table in this batch was
                    // decided on the first one's result.
                    *now_at += 1;
                    accepted.push(&**record);
                    notes.extend(notify.as_deref());
                    Ok(())
                }
            },
        };
        verdicts.push(verdict);
    }
    if accepted.is_empty() && jobs.is_empty() {
        tx.rollback().await?;
        return Ok(verdicts);
    }
    write_records(&mut tx, &accepted).await?;
    write_jobs(&mut tx, &jobs).await?;
    if !notes.is_empty() {
        // Queued now, delivered by the commit, in this order.
        sqlx::query("SELECT pg_notify($1, note) FROM UNNEST($2::text[]) WITH ORDINALITY AS n(note, i) ORDER BY i")
            .bind(crate::store::bus::CHANNEL)
            .bind(&notes)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(verdicts)
}

/// The accepted records: their rows, what ends or starts a round, the
/// tallies and the versions.
async fn write_records(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    accepted: &[&Record],
) -> Result<(), StoreError> {
    if accepted.is_empty() {
        return Ok(());
    }
    insert_rows(tx, accepted).await?;
    let mut written: HashMap<&str, Written> = HashMap::new();
    for record in accepted {
        super::write_round_parts(tx, record).await?;
        let entry = written.entry(record.table_id.as_str()).or_insert(Written {
            records: 0,
            now: record.now,
            tally: record.tally,
        });
        entry.records += 1;
        entry.now = record.now;
        entry.tally = record.tally;
    }
    let mut table_ids = Vec::with_capacity(written.len());
    let (mut counts, mut nows) = (Vec::new(), Vec::new());
    let (mut blacks, mut whites, mut draws) = (Vec::new(), Vec::new(), Vec::new());
    for (id, w) in &written {
        table_ids.push(*id);
        counts.push(w.records);
        nows.push(w.now);
        blacks.push(w.tally.0);
        whites.push(w.tally.1);
        draws.push(w.tally.2);
    }
    sqlx::query(
        "UPDATE tallies SET black_wins = u.b, white_wins = u.w, draws = u.d \
         FROM UNNEST($1::text[], $2::bigint[], $3::bigint[], $4::bigint[]) AS u(id, b, w, d) \
         WHERE tallies.table_id = u.id",
    )
    .bind(&table_ids)
    .bind(&blacks)
    .bind(&whites)
    .bind(&draws)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "UPDATE tables SET last_activity = u.at, version = version + u.n \
         FROM UNNEST($1::text[], $2::bigint[], $3::bigint[]) AS u(id, at, n) \
         WHERE tables.id = u.id",
    )
    .bind(&table_ids)
    .bind(&nows)
    .bind(&counts)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The tables' jobs as last handed over (a table's later write wins),
/// deleted or stored in (table, kind) order so two instances' batches take
/// the rows' locks in the same order. A job of a table deleted meanwhile
/// is not stored.
async fn write_jobs(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    jobs: &[&JobsWrite],
) -> Result<(), StoreError> {
    if jobs.is_empty() {
        return Ok(());
    }
    // (table, kind) → (due, lease)
    type Latest<'a> = std::collections::BTreeMap<(&'a str, &'a str), (Option<i64>, Option<i64>)>;
    let mut latest = Latest::new();
    for job in jobs {
        latest.insert((&job.table_id, "ai"), (job.ai, job.lease));
        latest.insert((&job.table_id, "timer"), (job.timer, None));
    }
    let (mut gone_tables, mut gone_kinds) = (Vec::new(), Vec::new());
    let (mut tables, mut kinds, mut dues, mut leases) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for ((table, kind), (due, lease)) in latest {
        match due {
            None => {
                gone_tables.push(table);
                gone_kinds.push(kind);
            }
            Some(due) => {
                tables.push(table);
                kinds.push(kind);
                dues.push(due);
                leases.push(lease);
            }
        }
    }
    if !gone_tables.is_empty() {
        sqlx::query(
            "DELETE FROM jobs WHERE (table_id, kind) IN \
             (SELECT j.table_id, j.kind FROM jobs j \
              JOIN UNNEST($1::text[], $2::text[]) AS d(t, k) ON j.table_id = d.t AND j.kind = d.k \
              ORDER BY j.table_id, j.kind FOR UPDATE OF j)",
        )
        .bind(&gone_tables)
        .bind(&gone_kinds)
        .execute(&mut **tx)
        .await?;
    }
    if !tables.is_empty() {
        sqlx::query(
            "INSERT INTO jobs (table_id, kind, due_at, claimed_until) \
             SELECT u.t, u.k, u.due, u.lease \
             FROM UNNEST($1::text[], $2::text[], $3::bigint[], $4::bigint[]) \
                  WITH ORDINALITY AS u(t, k, due, lease, n) \
             WHERE EXISTS (SELECT 1 FROM tables WHERE id = u.t) ORDER BY u.n \
             ON CONFLICT (table_id, kind) DO UPDATE \
             SET due_at = excluded.due_at, claimed_until = excluded.claimed_until",
        )
        .bind(&tables)
        .bind(&kinds)
        .bind(&dues)
        .bind(&leases)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Every accepted record's rows, in one statement.
async fn insert_rows(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    accepted: &[&Record],
) -> Result<(), StoreError> {
    let rows = accepted.iter().map(|r| r.rows.len()).sum();
    if rows == 0 {
        return Ok(());
    }
    let mut table_ids = Vec::with_capacity(rows);
    let mut seqs = Vec::with_capacity(rows);
    let mut rounds = Vec::with_capacity(rows);
    let mut kinds = Vec::with_capacity(rows);
    let mut sides = Vec::with_capacity(rows);
    let mut squares = Vec::with_capacity(rows);
    let mut ats = Vec::with_capacity(rows);
    let mut times = Vec::with_capacity(rows);
    for record in accepted {
        for row in &record.rows {
            table_ids.push(record.table_id.as_str());
            seqs.push(row.seq);
            rounds.push(row.round);
            kinds.push(row.kind.name());
            sides.push(row.side.as_str());
            squares.push(row.square);
            ats.push(record.now);
            times.push(row.time_ms);
        }
    }
    sqlx::query(
        "INSERT INTO moves (table_id, seq, round, kind, side, square, at, time_ms) \
         SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], \
                              $6::bigint[], $7::bigint[], $8::bigint[])",
    )
    .bind(&table_ids)
    .bind(&seqs)
    .bind(&rounds)
    .bind(&kinds)
    .bind(&sides)
    .bind(&squares)
    .bind(&ats)
    .bind(&times)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
