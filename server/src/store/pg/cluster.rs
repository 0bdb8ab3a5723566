//! What only instances sharing PostgreSQL need: heartbeats and presence per
//! instance, the timer/AI jobs each table has (taken with `FOR UPDATE SKIP
//! LOCKED`, leased), and the quick-match queue.

use super::writer::{JobsWrite, PgWrite};
use super::{Job, PgStore};
use crate::store::StoreError;
use app::protocol::AccountId;
use std::collections::HashMap;

impl PgStore {
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

    /// Extends the leases of the AI jobs of `table_ids` (this instance's
    /// searches in progress) to `lease_until`. Rows are locked in (table,
    /// kind) order, as the writer's job batches lock them, so the two cannot
    /// deadlock; a table whose AI job is gone (its move made) has no row.
    pub async fn renew_ai_leases(
        &self,
        table_ids: &[String],
        lease_until: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE jobs SET claimed_until = $2 WHERE (table_id, kind) IN \
             (SELECT table_id, kind FROM jobs WHERE kind = 'ai' AND table_id = ANY($1) \
              ORDER BY table_id, kind FOR UPDATE)",
        )
        .bind(table_ids)
        .bind(lease_until)
        .execute(&self.pool)
        .await?;
        Ok(())
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
        unlinked: Option<(AccountId, i64)>,
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
             AND ($4::float8 IS NULL OR abs(q.rating - $4) <= {window}) {unlinked} \
             ORDER BY abs(coalesce(q.rating - $4, 0)), q.ticket LIMIT 1 FOR UPDATE OF q SKIP LOCKED",
            window = rating_window_sql("$5 - q.created_at"),
            unlinked = UNLINKED,
        ))
        .bind(control)
        .bind(session)
        .bind(alive_since)
        .bind(rating)
        .bind(now)
        .bind(unlinked.map(|u| u.0.get()))
        .bind(unlinked.map(|u| u.1))
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
                    "INSERT INTO queue (control, session, instance, created_at, rating, account_id) \
                     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ticket",
                )
                .bind(control)
                .bind(session)
                .bind(&*self.instance)
                .bind(now)
                .bind(rating)
                .bind(
                    crate::identity::account_in(session)
                        .map(AccountId::get),
                )
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
        links_since: i64,
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
             AND abs(q.rating - $5) <= {window} {unlinked} \
             ORDER BY abs(q.rating - $5), q.ticket LIMIT 1 FOR UPDATE OF q SKIP LOCKED",
            window = rating_window_sql("$6 - least(q.created_at, $7)"),
            unlinked = UNLINKED.replace("$6", "$8").replace("$7", "$9"),
        ))
        .bind(control)
        .bind(&session)
        .bind(alive_since)
        .bind(ticket)
        .bind(rating)
        .bind(now)
        .bind(since)
        .bind(crate::identity::account_in(&session).map(AccountId::get))
        .bind(links_since)
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
}

/// Fair play in the rated queue: no partner that shares an address or a
/// browser link with account `$6` seen since `$7` (NULL `$6`: casual).
const UNLINKED: &str = "AND ($6::bigint IS NULL OR NOT EXISTS (\
     SELECT 1 FROM account_links x JOIN account_links y ON y.link = x.link \
     WHERE x.account_id = $6 AND y.account_id = q.account_id \
     AND x.seen_at >= $7 AND y.seen_at >= $7))";

/// The quick match's rating window ([`crate::hub::RATING_WINDOW`], the one
/// definition) in SQL, for a wait of `waited` ms.
fn rating_window_sql(waited: &str) -> String {
    crate::rating_window::RATING_WINDOW.sql(waited)
}
