//! The store's account queries (`migrations/0014_accounts.sql`, on
//! PostgreSQL `migrations/postgres/0004_accounts.sql`): accounts, the
//! browsers signed in to them, and moving what an anonymous browser held to
//! its account.

use super::{on_db, Dialect, Store, StoreError};
use crate::identity::Identity;
use app::protocol::{AccountId, TableId};

/// A stored account as sign-in needs it.
#[derive(Clone, Debug)]
pub struct StoredAccount {
    pub id: AccountId,
    pub name: String,
    pub password_hash: String,
    /// When it was created (ms).
    pub created_at: i64,
}

/// How an account is looked up.
#[derive(Clone, Copy)]
enum AccountKey<'a> {
    /// By its lower-case name.
    Name(&'a str),
    Id(AccountId),
}

fn unique_violation(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(e) if e.is_unique_violation())
}

impl Store {
    /// Creates an account; `None` when the name is taken: the same name
    /// ignoring case (`name_key`), or one that looks alike (`name_fold`, the
    /// name as `accounts::fold` reads it; unique in the store, see
    /// `migrations/0028_name_fold.sql`).
    pub async fn create_account(
        &self,
        name: &str,
        name_key: &str,
        name_fold: &str,
        password_hash: &str,
        now: i64,
    ) -> Result<Option<AccountId>, StoreError> {
        const INSERT: &str =
            "INSERT INTO accounts (name, name_key, name_fold, password_hash, created_at) \
             VALUES ($1, $2, $3, $4, $5) RETURNING id";
        let created = on_db!(self.db(), |pool| {
            sqlx::query_scalar::<_, i64>(&pool.sql(INSERT))
                .bind(name)
                .bind(name_key)
                .bind(name_fold)
                .bind(password_hash)
                .bind(now)
                .fetch_one(pool)
                .await
        });
        match created {
            Ok(id) => Ok(Some(AccountId::new(id))),
            Err(error) if unique_violation(&error) => Ok(None),
            Err(error) => Err(error.into()),
        }
    }

    /// The account named `name_key` (the lower-case name), if any.
    pub async fn account_by_key(
        &self,
        name_key: &str,
    ) -> Result<Option<StoredAccount>, StoreError> {
        self.account_where(AccountKey::Name(name_key)).await
    }

    /// The account with id `id`, if any.
    pub async fn account_by_id(&self, id: AccountId) -> Result<Option<StoredAccount>, StoreError> {
        self.account_where(AccountKey::Id(id)).await
    }

    /// The account with this name or id.
    async fn account_where(
        &self,
        key: AccountKey<'_>,
    ) -> Result<Option<StoredAccount>, StoreError> {
        let query = format!(
            "SELECT id, name, password_hash, created_at FROM accounts WHERE {} = $1",
            match key {
                AccountKey::Name(_) => "name_key",
                AccountKey::Id(_) => "id",
            }
        );
        let row: Option<(i64, String, String, i64)> = on_db!(self.db(), |pool| {
            let text = pool.sql(&query);
            let select = sqlx::query_as(&text);
            match key {
                AccountKey::Name(name) => select.bind(name),
                AccountKey::Id(id) => select.bind(id.get()),
            }
            .fetch_optional(pool)
            .await?
        });
        Ok(
            row.map(|(id, name, password_hash, created_at)| StoredAccount {
                id: AccountId::new(id),
                name,
                password_hash,
                created_at,
            }),
        )
    }

    /// Replaces an account's password hash and ends every browser signed in
    /// to it, in one transaction.
    pub async fn set_password(&self, id: AccountId, password_hash: &str) -> Result<(), StoreError> {
        let id = id.get();
        on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            sqlx::query(&pool.sql("UPDATE accounts SET password_hash = $1 WHERE id = $2"))
                .bind(password_hash)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            sqlx::query(&pool.sql("DELETE FROM account_sessions WHERE account_id = $1"))
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Deletes an account with its sign-ins, ratings and links, leaving a
    /// tombstone (its id, `name_hash` — the hash of its folded name, so the
    /// name is never taken again — why, and when), in one transaction. Its
    /// archived games stay (their players are identities; a deleted
    /// account's reads as "deleted player"). False when there was no such
    /// account.
    pub async fn delete_account(
        &self,
        id: AccountId,
        name_hash: &str,
        reason: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let identity = Identity::Account(id).stored();
        let id = id.get();
        const STEPS: [&str; 4] = [
            "DELETE FROM account_sessions WHERE account_id = $1",
            "DELETE FROM rating_history WHERE account_id = $1",
            "DELETE FROM ratings WHERE account_id = $1",
            "DELETE FROM account_links WHERE account_id = $1",
        ];
        // Its puzzle rating and tries (a solver is the identity at a browser).
        const SOLVER_STEPS: [&str; 2] = [
            "DELETE FROM puzzle_attempts WHERE solver = $1",
            "DELETE FROM puzzle_solvers WHERE solver = $1",
        ];
        const TOMBSTONE: &str = "INSERT INTO account_tombstones (id, name_hash, reason, at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (name_hash) DO NOTHING";
        Ok(on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            if pool.is_postgres() {
                // The account row first, as a rated round's write locks it
                // (FOR SHARE) before its rating rows: one lock order, so a
                // deletion and a rating write wait for each other instead
                // of deadlocking. (SQLite runs one writer at a time.)
                sqlx::query(&pool.sql("SELECT id FROM accounts WHERE id = $1 FOR UPDATE"))
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            }
            for step in STEPS {
                sqlx::query(&pool.sql(step))
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            }
            for step in SOLVER_STEPS {
                sqlx::query(&pool.sql(step))
                    .bind(&identity)
                    .execute(&mut *tx)
                    .await?;
            }
            let deleted = sqlx::query(&pool.sql("DELETE FROM accounts WHERE id = $1"))
                .bind(id)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                > 0;
            if deleted {
                sqlx::query(&pool.sql(TOMBSTONE))
                    .bind(id)
                    .bind(name_hash)
                    .bind(reason)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            deleted
        }))
    }

    /// Every account's id and name, oldest first (the operator's check of
    /// names that look alike, `admin name-collisions`).
    pub async fn account_names(&self) -> Result<Vec<(AccountId, String)>, StoreError> {
        let rows: Vec<(i64, String)> = on_db!(self.db(), |pool| {
            sqlx::query_as(&pool.sql("SELECT id, name FROM accounts ORDER BY id"))
                .fetch_all(pool)
                .await?
        });
        Ok(rows
            .into_iter()
            .map(|(id, name)| (AccountId::new(id), name))
            .collect())
    }

    /// The tables at which `who` holds a seat.
    pub async fn tables_seating(&self, who: &str) -> Result<Vec<TableId>, StoreError> {
        let ids: Vec<String> =
            on_db!(self.db(), |pool| {
                sqlx::query_scalar(&pool.sql(
                    "SELECT id FROM tables WHERE black_seat = $1 OR white_seat = $1 ORDER BY id",
                ))
                .bind(who)
                .fetch_all(pool)
                .await?
            });
        Ok(ids.into_iter().map(TableId::new).collect())
    }

    /// An account's name, if the account exists.
    pub async fn account_name(&self, id: AccountId) -> Result<Option<String>, StoreError> {
        let id = id.get();
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_scalar(&pool.sql("SELECT name FROM accounts WHERE id = $1"))
                .bind(id)
                .fetch_optional(pool)
                .await?
        }))
    }

    /// Signs a browser (the hash of its token) in to an account.
    pub async fn add_account_session(
        &self,
        token: &str,
        account: AccountId,
        now: i64,
    ) -> Result<(), StoreError> {
        let account = account.get();
        const INSERT: &str =
            "INSERT INTO account_sessions (token, account_id, created_at, last_seen) \
             VALUES ($1, $2, $3, $3) ON CONFLICT (token) DO UPDATE \
             SET account_id = excluded.account_id, last_seen = excluded.last_seen";
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(INSERT))
                .bind(token)
                .bind(account)
                .bind(now)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// The account (id and name) a browser — the hash of its token — is
    /// signed in to.
    pub async fn account_of_token(
        &self,
        token: &str,
    ) -> Result<Option<(AccountId, String)>, StoreError> {
        const SELECT: &str = "SELECT a.id, a.name FROM account_sessions s \
             JOIN accounts a ON a.id = s.account_id WHERE s.token = $1";
        let row: Option<(i64, String)> = on_db!(self.db(), |pool| {
            sqlx::query_as(&pool.sql(SELECT))
                .bind(token)
                .fetch_optional(pool)
                .await?
        });
        Ok(row.map(|(id, name)| (AccountId::new(id), name)))
    }

    /// Signs one browser out.
    pub async fn remove_account_session(&self, token: &str) -> Result<(), StoreError> {
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql("DELETE FROM account_sessions WHERE token = $1"))
                .bind(token)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Signs every browser of an account out; returns how many.
    pub async fn remove_account_sessions(&self, account: AccountId) -> Result<u64, StoreError> {
        let account = account.get();
        Ok(on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql("DELETE FROM account_sessions WHERE account_id = $1"))
                .bind(account)
                .execute(pool)
                .await?
                .rows_affected()
        }))
    }

    /// Deletes sign-ins unused since `before` (ms); returns how many.
    pub async fn expire_account_sessions(&self, before: i64) -> Result<u64, StoreError> {
        Ok(on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql("DELETE FROM account_sessions WHERE last_seen < $1"))
                .bind(before)
                .execute(pool)
                .await?
                .rows_affected()
        }))
    }

    /// Marks a sign-in used now (at most hourly, by the caller's cache).
    pub async fn touch_account_session(&self, token: &str, now: i64) -> Result<(), StoreError> {
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql("UPDATE account_sessions SET last_seen = $1 WHERE token = $2"))
                .bind(now)
                .bind(token)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Gives everything `from` holds (tables it owns, seats, lab games,
    /// archived games) to `to`, in one transaction. Each changed table's
    /// version grows, so every instance (on PostgreSQL) reloads its copy.
    pub async fn transfer_identity(&self, from: &str, to: &str) -> Result<(), StoreError> {
        const SESSIONS: [&str; 2] = [
            "UPDATE tables SET \
             owner = CASE WHEN owner = $1 THEN $2 ELSE owner END, \
             black_seat = CASE WHEN black_seat = $1 THEN $2 ELSE black_seat END, \
             white_seat = CASE WHEN white_seat = $1 THEN $2 ELSE white_seat END, \
             version = version + 1 \
             WHERE owner = $1 OR black_seat = $1 OR white_seat = $1",
            "UPDATE lab_owners SET owner = $2 WHERE owner = $1",
        ];
        // An archived game's sides are typed columns (store::archive).
        const ARCHIVE: [&str; 2] = [
            "UPDATE archived_games SET black_account = $4, black_ai = $5, black_browser = $6 \
             WHERE black_account = $1 OR black_ai = $2 OR black_browser = $3",
            "UPDATE archived_games SET white_account = $4, white_ai = $5, white_browser = $6 \
             WHERE white_account = $1 OR white_ai = $2 OR white_browser = $3",
        ];
        let columns = |text: &str| super::archive::PlayerColumns::of(&Identity::parse(text));
        let (old, new) = (columns(from), columns(to));
        on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            for step in SESSIONS {
                sqlx::query(&pool.sql(step))
                    .bind(from)
                    .bind(to)
                    .execute(&mut *tx)
                    .await?;
            }
            for step in ARCHIVE {
                sqlx::query(&pool.sql(step))
                    .bind(old.account)
                    .bind(old.ai)
                    .bind(old.browser.clone())
                    .bind(new.account)
                    .bind(new.ai)
                    .bind(new.browser.clone())
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }
}
