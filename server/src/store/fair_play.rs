//! The store's fair-play queries (`migrations/0018_fair_play.sql`, on
//! PostgreSQL `migrations/postgres/0008_fair_play.sql`): where accounts were
//! seen (keyed hashes of addresses and device cookies), rating-abuse marks,
//! tombstones of deleted names, reports, the operator's log and the site's
//! secrets. Written once with `$n` parameters.

use super::{on_db, Dialect, Store, StoreError};
use app::protocol::AccountId;

/// How long a link between an account and an address or browser counts
/// (the rated-round check in `ratings.rs` and the fair-play service).
pub const LINK_DAYS: i64 = 30;

crate::store::rows::row_struct! {
    /// An open or closed report, as the operator lists it.
    #[derive(Clone, Debug)]
    pub struct ReportRow {
        pub id: i64,
        pub account_id: AccountId as i64,
        pub reporter: String,
        pub table_id: Option<String>,
        pub reason: String,
        pub body: String,
        pub created_at: i64,
        pub closed_at: Option<i64>,
    }
}

impl Store {
    /// The site secret `name`, made (from `fresh`) by whichever instance
    /// asks first and the same for every instance after.
    pub async fn site_secret(&self, name: &str, fresh: &str) -> Result<String, StoreError> {
        Ok(on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(
                "INSERT INTO site_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
            ))
            .bind(name)
            .bind(fresh)
            .execute(pool)
            .await?;
            sqlx::query_scalar(&pool.sql("SELECT value FROM site_secrets WHERE name = $1"))
                .bind(name)
                .fetch_one(pool)
                .await?
        }))
    }

    /// Notes that `account` was seen through each of `links` at `now`.
    pub async fn note_links(
        &self,
        account: AccountId,
        links: &[String],
        now: i64,
    ) -> Result<(), StoreError> {
        let account = account.get();
        const UPSERT: &str = "INSERT INTO account_links (account_id, link, seen_at) \
             SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM accounts WHERE id = $1) \
             ON CONFLICT (account_id, link) DO UPDATE SET seen_at = excluded.seen_at";
        on_db!(self.db(), |pool| {
            for link in links {
                sqlx::query(&pool.sql(UPSERT))
                    .bind(account)
                    .bind(link)
                    .bind(now)
                    .execute(pool)
                    .await?;
            }
        });
        Ok(())
    }

    /// Forgets links last seen before `before`; returns how many.
    pub async fn expire_links(&self, before: i64) -> Result<u64, StoreError> {
        Ok(on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql("DELETE FROM account_links WHERE seen_at < $1"))
                .bind(before)
                .execute(pool)
                .await?
                .rows_affected()
        }))
    }

    /// The links `account` was seen through since `since`.
    pub async fn links_of(
        &self,
        account: AccountId,
        since: i64,
    ) -> Result<Vec<String>, StoreError> {
        let account = account.get();
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_scalar(&pool.sql(
                "SELECT link FROM account_links WHERE account_id = $1 AND seen_at >= $2 ORDER BY link",
            ))
            .bind(account)
            .bind(since)
            .fetch_all(pool)
            .await?
        }))
    }

    /// Whether two accounts were seen through one address or device since
    /// `since`.
    pub async fn linked(&self, a: AccountId, b: AccountId, since: i64) -> Result<bool, StoreError> {
        let a = a.get();
        let b = b.get();
        let count: i64 = on_db!(self.db(), |pool| {
            sqlx::query_scalar(&pool.sql(super::ratings::LINKED))
                .bind(a)
                .bind(b)
                .bind(since)
                .fetch_one(pool)
                .await?
        });
        Ok(count > 0)
    }

    /// Whether `account` is marked as a rating abuser.
    pub async fn is_abuser(&self, account: AccountId) -> Result<bool, StoreError> {
        let account = account.get();
        let marked: Option<Option<i64>> = on_db!(self.db(), |pool| {
            sqlx::query_scalar(&pool.sql("SELECT abuser_at FROM accounts WHERE id = $1"))
                .bind(account)
                .fetch_optional(pool)
                .await?
        });
        Ok(matches!(marked, Some(Some(_))))
    }

    /// Marks (or unmarks) an account as a rating abuser; false when there
    /// is no such account.
    pub async fn mark_abuser(
        &self,
        account: AccountId,
        at: Option<i64>,
    ) -> Result<bool, StoreError> {
        let account = account.get();
        Ok(on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql("UPDATE accounts SET abuser_at = $1 WHERE id = $2"))
                .bind(at)
                .bind(account)
                .execute(pool)
                .await?
                .rows_affected()
                > 0
        }))
    }

    /// Whether a deleted or closed account's folded name hashes to `hash`.
    pub async fn name_tombstoned(&self, hash: &str) -> Result<bool, StoreError> {
        let count: i64 = on_db!(self.db(), |pool| {
            sqlx::query_scalar(
                &pool.sql("SELECT COUNT(*) FROM account_tombstones WHERE name_hash = $1"),
            )
            .bind(hash)
            .fetch_one(pool)
            .await?
        });
        Ok(count > 0)
    }

    /// Whether a deleted or closed account's folded name hashes to any of
    /// `hashes` (`accounts::tombstone_hashes`: a name's hash and the ones
    /// older tombstones may hold of it).
    pub async fn any_name_tombstoned(&self, hashes: &[String]) -> Result<bool, StoreError> {
        for chunk in hashes.chunks(200) {
            let marks = (1..=chunk.len())
                .map(|i| format!("${i}"))
                .collect::<Vec<_>>()
                .join(", ");
            let query =
                format!("SELECT COUNT(*) FROM account_tombstones WHERE name_hash IN ({marks})");
            let count: i64 = on_db!(self.db(), |pool| {
                let text = pool.sql(&query);
                let mut select = sqlx::query_scalar(&text);
                for hash in chunk {
                    select = select.bind(hash);
                }
                select.fetch_one(pool).await?
            });
            if count > 0 {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether `table` names a table: one open now, or one whose games
    /// were archived (a report may come after the table was cleared).
    pub async fn table_known(&self, table: &str) -> Result<bool, StoreError> {
        const QUERY: &str = "SELECT (SELECT COUNT(*) FROM tables WHERE id = $1) \
             + (SELECT COUNT(*) FROM archived_games WHERE table_id = $1)";
        let count: i64 = on_db!(self.db(), |pool| {
            sqlx::query_scalar(&pool.sql(QUERY))
                .bind(table)
                .fetch_one(pool)
                .await?
        });
        Ok(count > 0)
    }

    /// Files a report of `account`.
    #[allow(clippy::too_many_arguments)]
    pub async fn add_report(
        &self,
        account: AccountId,
        reporter: &str,
        address: Option<&str>,
        table: Option<&str>,
        reason: &str,
        body: &str,
        now: i64,
    ) -> Result<i64, StoreError> {
        let account = account.get();
        const INSERT: &str = "INSERT INTO reports (account_id, reporter, address, table_id, reason, body, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id";
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_scalar(&pool.sql(INSERT))
                .bind(account)
                .bind(reporter)
                .bind(address)
                .bind(table)
                .bind(reason)
                .bind(body)
                .bind(now)
                .fetch_one(pool)
                .await?
        }))
    }

    /// Reports filed from `address` (or by `reporter`) since `since`.
    pub async fn reports_since(
        &self,
        reporter: &str,
        address: Option<&str>,
        since: i64,
    ) -> Result<i64, StoreError> {
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_scalar(&pool.sql(
                "SELECT COUNT(*) FROM reports WHERE (reporter = $1 OR address = $2) AND created_at >= $3",
            ))
            .bind(reporter)
            .bind(address)
            .bind(since)
            .fetch_one(pool)
            .await?
        }))
    }

    /// Reports, open ones only unless `all`, oldest first.
    pub async fn reports(&self, all: bool) -> Result<Vec<ReportRow>, StoreError> {
        let query = format!(
            "SELECT id, account_id, reporter, table_id, reason, body, created_at, closed_at \
             FROM reports {} ORDER BY id",
            if all { "" } else { "WHERE closed_at IS NULL" }
        );
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_as(&pool.sql(&query)).fetch_all(pool).await?
        }))
    }

    /// Closes the open reports of `account`; returns how many.
    pub async fn close_reports(&self, account: AccountId, now: i64) -> Result<u64, StoreError> {
        let account = account.get();
        Ok(on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(
                "UPDATE reports SET closed_at = $1 WHERE account_id = $2 AND closed_at IS NULL",
            ))
            .bind(now)
            .bind(account)
            .execute(pool)
            .await?
            .rows_affected()
        }))
    }

    /// Writes one line of the operator's log.
    pub async fn log_admin(
        &self,
        action: &str,
        account: Option<AccountId>,
        detail: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let account = account.map(AccountId::get);
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(
                "INSERT INTO admin_log (at, action, account_id, detail) VALUES ($1, $2, $3, $4)",
            ))
            .bind(now)
            .bind(action)
            .bind(account)
            .bind(detail)
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// The operator's log, oldest first: (at, action, account, detail).
    pub async fn admin_log(&self) -> Result<Vec<(i64, String, Option<i64>, String)>, StoreError> {
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_as(
                &pool.sql("SELECT at, action, account_id, detail FROM admin_log ORDER BY id"),
            )
            .fetch_all(pool)
            .await?
        }))
    }
}
