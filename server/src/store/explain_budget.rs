//! The store's queries of the paid explanations' budget
//! (`migrations/0013_explain_budget.sql`, on PostgreSQL
//! `migrations/postgres/0003_explain_budget.sql`): what `lab::budget`
//! decides, written once for both databases. Each check and its count are
//! one transaction that writes first, so the database's write lock (or
//! PostgreSQL's row and advisory locks) makes them atomic.

use super::{on_db, Dialect, Store, StoreError};

/// PostgreSQL advisory lock key of the slot count.
const SLOTS_LOCK: i64 = 0x0e78_1a14_5107;

impl Store {
    /// Explanations started on `day` in `scope` (`*`: server-wide).
    pub async fn explain_spent(&self, day: i64, scope: &str) -> Result<i64, StoreError> {
        const SPENT: &str = "SELECT spent FROM explain_spend WHERE day = $1 AND scope = $2";
        let row: Option<(i64,)> = on_db!(self.db(), |pool| {
            sqlx::query_as(&pool.sql(SPENT))
                .bind(day)
                .bind(scope)
                .fetch_optional(pool)
                .await?
        });
        Ok(row.map_or(0, |(n,)| n))
    }

    /// Counts one explanation on `day` in every `(scope, limit)`, or in
    /// none: `Some(i)` when scope `i` is at its limit (nothing counted).
    /// Days before yesterday are forgotten.
    pub async fn take_explain_budget(
        &self,
        day: i64,
        scopes: &[(String, i64)],
    ) -> Result<Option<usize>, StoreError> {
        const FORGET: &str = "DELETE FROM explain_spend WHERE day < $1";
        const OPEN: &str = "INSERT INTO explain_spend (day, scope, spent) VALUES ($1, $2, 0)
             ON CONFLICT (day, scope) DO NOTHING";
        const COUNT: &str = "UPDATE explain_spend SET spent = spent + 1
             WHERE day = $1 AND scope = $2 AND spent < $3";
        Ok(on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            // A write first: on SQLite the transaction holds the write lock
            // from here, so no other writer comes between the check and the
            // count (PostgreSQL's conditional UPDATE locks the row).
            sqlx::query(&pool.sql(FORGET))
                .bind(day - 1)
                .execute(&mut *tx)
                .await?;
            let mut full = None;
            for (i, (scope, limit)) in scopes.iter().enumerate() {
                sqlx::query(&pool.sql(OPEN))
                    .bind(day)
                    .bind(scope)
                    .execute(&mut *tx)
                    .await?;
                let counted = sqlx::query(&pool.sql(COUNT))
                    .bind(day)
                    .bind(scope)
                    .bind(*limit)
                    .execute(&mut *tx)
                    .await?;
                if counted.rows_affected() == 0 {
                    full = Some(i);
                    break;
                }
            }
            if full.is_some() {
                tx.rollback().await?;
            } else {
                tx.commit().await?;
            }
            full
        }))
    }

    /// Takes a free explanation slot as `id` until `until` if fewer than
    /// `cap` are held (leases that ran out before `now` do not count);
    /// `false` when full.
    pub async fn take_explain_slot(
        &self,
        id: &str,
        now: i64,
        until: i64,
        cap: i64,
    ) -> Result<bool, StoreError> {
        const FREE: &str = "DELETE FROM explain_slots WHERE until <= $1";
        const TAKE: &str = "INSERT INTO explain_slots (id, until)
             SELECT $1, $2 WHERE (SELECT COUNT(*) FROM explain_slots) < $3";
        Ok(on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            if pool.is_postgres() {
                // Instances count the slots one at a time (on SQLite the
                // DELETE below takes the one write lock).
                sqlx::query("SELECT pg_advisory_xact_lock($1)")
                    .bind(SLOTS_LOCK)
                    .execute(&mut *tx)
                    .await?;
            }
            sqlx::query(&pool.sql(FREE))
                .bind(now)
                .execute(&mut *tx)
                .await?;
            let done = sqlx::query(&pool.sql(TAKE))
                .bind(id)
                .bind(until)
                .bind(cap)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            done.rows_affected() == 1
        }))
    }

    /// Gives explanation slot `id` back.
    pub async fn release_explain_slot(&self, id: &str) -> Result<(), StoreError> {
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql("DELETE FROM explain_slots WHERE id = $1"))
                .bind(id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }
}
