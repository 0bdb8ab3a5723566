//! The store's bot queries (`migrations/0030_bots.sql`, on PostgreSQL
//! `migrations/postgres/0021_bots.sql`), written once: the `bot` flag of an
//! account and its API tokens, kept by their SHA-256 only.

use super::{on_db, Dialect, Store, StoreError};
use crate::identity::Identity;
use app::protocol::AccountId;

crate::store::rows::row_struct! {
    /// One of a bot's tokens as its account page lists it (never the token).
    #[derive(Clone, Debug, PartialEq)]
    pub struct BotTokenRow {
        pub id: String,
        pub label: String,
        pub created_at: i64,
        pub last_used: Option<i64>,
        pub revoked_at: Option<i64>,
    }
}

/// The bot a live token stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct TokenOwner {
    pub account: AccountId,
    pub name: String,
    /// The token's public id.
    pub token: String,
    pub last_used: Option<i64>,
}

/// A bot account as `/bots` lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct BotAccountRow {
    pub account: AccountId,
    pub name: String,
    /// When any of its live tokens was last used (ms), if ever.
    pub seen: Option<i64>,
}

/// What asking to become a bot did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Upgrade {
    /// The account is a bot now.
    Done,
    /// It was one already.
    Already,
    /// It has played (an archived game) or holds a seat: it stays a person.
    Played,
    /// No such account.
    Missing,
}

impl Store {
    /// Whether an account is a bot.
    pub async fn is_bot(&self, account: AccountId) -> Result<bool, StoreError> {
        let account = account.get();
        let bot: Option<i64> = on_db!(self.db(), |pool| {
            sqlx::query_scalar(&pool.sql("SELECT bot FROM accounts WHERE id = $1"))
                .bind(account)
                .fetch_optional(pool)
                .await?
        });
        Ok(bot == Some(1))
    }

    /// Makes an account a bot, in one conditional write: only when it is
    /// not one yet, has no archived game and holds no seat at any table (so
    /// a game started meanwhile cannot slip between a check and the write).
    pub async fn make_bot(&self, account: AccountId) -> Result<Upgrade, StoreError> {
        let identity = Identity::Account(account).stored();
        let id = account.get();
        const UPGRADE: &str = "UPDATE accounts SET bot = 1 WHERE id = $1 AND bot = 0 \
            AND NOT EXISTS (SELECT 1 FROM archived_games WHERE black_account = $1 OR white_account = $1) \
            AND NOT EXISTS (SELECT 1 FROM tables WHERE black_seat = $2 OR white_seat = $2)";
        let changed = on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(UPGRADE))
                .bind(id)
                .bind(&identity)
                .execute(pool)
                .await?
                .rows_affected()
        });
        if changed == 1 {
            return Ok(Upgrade::Done);
        }
        let bot: Option<i64> = on_db!(self.db(), |pool| {
            sqlx::query_scalar(&pool.sql("SELECT bot FROM accounts WHERE id = $1"))
                .bind(id)
                .fetch_optional(pool)
                .await?
        });
        Ok(match bot {
            None => Upgrade::Missing,
            Some(1) => Upgrade::Already,
            Some(_) => Upgrade::Played,
        })
    }

    /// Writes a new token of a bot: `hash` is the token's SHA-256 (hex).
    pub async fn create_bot_token(
        &self,
        id: &str,
        hash: &str,
        account: AccountId,
        label: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let account = account.get();
        const INSERT: &str =
            "INSERT INTO bot_tokens (id, token_hash, account_id, label, created_at) \
            VALUES ($1, $2, $3, $4, $5)";
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(INSERT))
                .bind(id)
                .bind(hash)
                .bind(account)
                .bind(label)
                .bind(now)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// A bot's tokens, revoked ones too, newest first.
    pub async fn bot_tokens(&self, account: AccountId) -> Result<Vec<BotTokenRow>, StoreError> {
        let account = account.get();
        const SELECT: &str = "SELECT id, label, created_at, last_used, revoked_at FROM bot_tokens \
            WHERE account_id = $1 ORDER BY created_at DESC, id LIMIT 100";
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_as::<_, BotTokenRow>(&pool.sql(SELECT))
                .bind(account)
                .fetch_all(pool)
                .await?
        }))
    }

    /// Revokes one of an account's live tokens; false when it has none by
    /// that id (or it was revoked already).
    pub async fn revoke_bot_token(
        &self,
        account: AccountId,
        id: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let account = account.get();
        const REVOKE: &str = "UPDATE bot_tokens SET revoked_at = $3 \
            WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL";
        let changed = on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(REVOKE))
                .bind(id)
                .bind(account)
                .bind(now)
                .execute(pool)
                .await?
                .rows_affected()
        });
        Ok(changed == 1)
    }

    /// The bot account a live token (by its hash) belongs to.
    pub async fn bot_of_token(&self, hash: &str) -> Result<Option<TokenOwner>, StoreError> {
        const SELECT: &str = "SELECT a.id, a.name, t.id, t.last_used FROM bot_tokens t \
            JOIN accounts a ON a.id = t.account_id \
            WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND a.bot = 1";
        let row: Option<(i64, String, String, Option<i64>)> = on_db!(self.db(), |pool| {
            sqlx::query_as(&pool.sql(SELECT))
                .bind(hash)
                .fetch_optional(pool)
                .await?
        });
        Ok(row.map(|(account, name, token, last_used)| TokenOwner {
            account: AccountId::new(account),
            name,
            token,
            last_used,
        }))
    }

    /// Every bot account (at most `limit`, by name): its id, name, and when
    /// any of its live tokens was last used (what "online" is read from).
    pub async fn bot_accounts(&self, limit: i64) -> Result<Vec<BotAccountRow>, StoreError> {
        const SELECT: &str = "SELECT a.id, a.name, \
            (SELECT MAX(t.last_used) FROM bot_tokens t WHERE t.account_id = a.id AND t.revoked_at IS NULL) \
            FROM accounts a WHERE a.bot = 1 ORDER BY a.name_key LIMIT $1";
        let rows: Vec<(i64, String, Option<i64>)> = on_db!(self.db(), |pool| {
            sqlx::query_as(&pool.sql(SELECT))
                .bind(limit)
                .fetch_all(pool)
                .await?
        });
        Ok(rows
            .into_iter()
            .map(|(account, name, seen)| BotAccountRow {
                account: AccountId::new(account),
                name,
                seen,
            })
            .collect())
    }

    /// Notes when a token was last used.
    pub async fn touch_bot_token(&self, id: &str, now: i64) -> Result<(), StoreError> {
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql("UPDATE bot_tokens SET last_used = $2 WHERE id = $1"))
                .bind(id)
                .bind(now)
                .execute(pool)
                .await?;
        });
        Ok(())
    }
}
