//! The store's account queries (`migrations/0014_accounts.sql`, on
//! PostgreSQL `migrations/postgres/0004_accounts.sql`): accounts, the
//! browsers signed in to them, and moving what an anonymous browser held to
//! its account.

use super::{Store, StoreError};

/// A stored account as sign-in needs it.
#[derive(Clone, Debug)]
pub struct StoredAccount {
    pub id: i64,
    pub name: String,
    pub password_hash: String,
    /// When it was created (ms).
    pub created_at: i64,
}

fn unique_violation(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(e) if e.is_unique_violation())
}

impl Store {
    /// Creates an account; `None` when the name (ignoring case) is taken.
    pub async fn create_account(
        &self,
        name: &str,
        name_key: &str,
        password_hash: &str,
        now: i64,
    ) -> Result<Option<i64>, StoreError> {
        let created = if let Some(pg) = &self.pg {
            sqlx::query_scalar::<_, i64>(
                "INSERT INTO accounts (name, name_key, password_hash, created_at) \
                 VALUES ($1, $2, $3, $4) RETURNING id",
            )
            .bind(name)
            .bind(name_key)
            .bind(password_hash)
            .bind(now)
            .fetch_one(pg.pool())
            .await
        } else {
            sqlx::query_scalar::<_, i64>(
                "INSERT INTO accounts (name, name_key, password_hash, created_at) \
                 VALUES (?, ?, ?, ?) RETURNING id",
            )
            .bind(name)
            .bind(name_key)
            .bind(password_hash)
            .bind(now)
            .fetch_one(&self.pool)
            .await
        };
        match created {
            Ok(id) => Ok(Some(id)),
            Err(error) if unique_violation(&error) => Ok(None),
            Err(error) => Err(error.into()),
        }
    }

    /// The account named `name_key` (the lower-case name), if any.
    pub async fn account_by_key(
        &self,
        name_key: &str,
    ) -> Result<Option<StoredAccount>, StoreError> {
        let row: Option<(i64, String, String, i64)> = if let Some(pg) = &self.pg {
            sqlx::query_as(
                "SELECT id, name, password_hash, created_at FROM accounts WHERE name_key = $1",
            )
            .bind(name_key)
            .fetch_optional(pg.pool())
            .await?
        } else {
            sqlx::query_as(
                "SELECT id, name, password_hash, created_at FROM accounts WHERE name_key = ?",
            )
            .bind(name_key)
            .fetch_optional(&self.pool)
            .await?
        };
        Ok(
            row.map(|(id, name, password_hash, created_at)| StoredAccount {
                id,
                name,
                password_hash,
                created_at,
            }),
        )
    }

    /// The account with id `id`, if any.
    pub async fn account_by_id(&self, id: i64) -> Result<Option<StoredAccount>, StoreError> {
        let query = "SELECT id, name, password_hash, created_at FROM accounts WHERE id = $1";
        let row: Option<(i64, String, String, i64)> = if let Some(pg) = &self.pg {
            sqlx::query_as(query)
                .bind(id)
                .fetch_optional(pg.pool())
                .await?
        } else {
            sqlx::query_as(&super::sqlite(query))
                .bind(id)
                .fetch_optional(&self.pool)
                .await?
        };
        Ok(
            row.map(|(id, name, password_hash, created_at)| StoredAccount {
                id,
                name,
                password_hash,
                created_at,
            }),
        )
    }

    /// Replaces an account's password hash and ends every browser signed in
    /// to it, in one transaction.
    pub async fn set_password(&self, id: i64, password_hash: &str) -> Result<(), StoreError> {
        let update = "UPDATE accounts SET password_hash = $1 WHERE id = $2";
        let sessions = "DELETE FROM account_sessions WHERE account_id = $1";
        if let Some(pg) = &self.pg {
            let mut tx = pg.pool().begin().await?;
            sqlx::query(update)
                .bind(password_hash)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            sqlx::query(sessions).bind(id).execute(&mut *tx).await?;
            tx.commit().await?;
        } else {
            let mut tx = self.pool.begin().await?;
            sqlx::query(&super::sqlite(update))
                .bind(password_hash)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            sqlx::query(&super::sqlite(sessions))
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        }
        Ok(())
    }

    /// Deletes an account with its sign-ins and ratings, in one transaction.
    /// Its archived games stay (their players are identities; a deleted
    /// account's reads as "deleted player").
    pub async fn delete_account(&self, id: i64) -> Result<(), StoreError> {
        const STEPS: [&str; 4] = [
            "DELETE FROM account_sessions WHERE account_id = $1",
            "DELETE FROM rating_history WHERE account_id = $1",
            "DELETE FROM ratings WHERE account_id = $1",
            "DELETE FROM accounts WHERE id = $1",
        ];
        if let Some(pg) = &self.pg {
            let mut tx = pg.pool().begin().await?;
            for step in STEPS {
                sqlx::query(step).bind(id).execute(&mut *tx).await?;
            }
            tx.commit().await?;
        } else {
            let mut tx = self.pool.begin().await?;
            for step in STEPS {
                sqlx::query(&super::sqlite(step))
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        }
        Ok(())
    }

    /// An account's name, if the account exists.
    pub async fn account_name(&self, id: i64) -> Result<Option<String>, StoreError> {
        let name = if let Some(pg) = &self.pg {
            sqlx::query_scalar("SELECT name FROM accounts WHERE id = $1")
                .bind(id)
                .fetch_optional(pg.pool())
                .await?
        } else {
            sqlx::query_scalar("SELECT name FROM accounts WHERE id = ?")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?
        };
        Ok(name)
    }

    /// Signs a browser (the hash of its token) in to an account.
    pub async fn add_account_session(
        &self,
        token: &str,
        account: i64,
        now: i64,
    ) -> Result<(), StoreError> {
        if let Some(pg) = &self.pg {
            sqlx::query(
                "INSERT INTO account_sessions (token, account_id, created_at, last_seen) \
                 VALUES ($1, $2, $3, $3) ON CONFLICT (token) DO UPDATE \
                 SET account_id = excluded.account_id, last_seen = excluded.last_seen",
            )
            .bind(token)
            .bind(account)
            .bind(now)
            .execute(pg.pool())
            .await?;
        } else {
            sqlx::query(
                "INSERT INTO account_sessions (token, account_id, created_at, last_seen) \
                 VALUES (?, ?, ?, ?) ON CONFLICT (token) DO UPDATE \
                 SET account_id = excluded.account_id, last_seen = excluded.last_seen",
            )
            .bind(token)
            .bind(account)
            .bind(now)
            .bind(now)
            .execute(&self.pool)
            .await?;
        }
        Ok(())
    }

    /// The account (id and name) a browser — the hash of its token — is
    /// signed in to.
    pub async fn account_of_token(&self, token: &str) -> Result<Option<(i64, String)>, StoreError> {
        let row = if let Some(pg) = &self.pg {
            sqlx::query_as(
                "SELECT a.id, a.name FROM account_sessions s JOIN accounts a ON a.id = s.account_id \
                 WHERE s.token = $1",
            )
            .bind(token)
            .fetch_optional(pg.pool())
            .await?
        } else {
            sqlx::query_as(
                "SELECT a.id, a.name FROM account_sessions s JOIN accounts a ON a.id = s.account_id \
                 WHERE s.token = ?",
            )
            .bind(token)
            .fetch_optional(&self.pool)
            .await?
        };
        Ok(row)
    }

    /// Signs one browser out.
    pub async fn remove_account_session(&self, token: &str) -> Result<(), StoreError> {
        if let Some(pg) = &self.pg {
            sqlx::query("DELETE FROM account_sessions WHERE token = $1")
                .bind(token)
                .execute(pg.pool())
                .await?;
        } else {
            sqlx::query("DELETE FROM account_sessions WHERE token = ?")
                .bind(token)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// Signs every browser of an account out; returns how many.
    pub async fn remove_account_sessions(&self, account: i64) -> Result<u64, StoreError> {
        let done = if let Some(pg) = &self.pg {
            sqlx::query("DELETE FROM account_sessions WHERE account_id = $1")
                .bind(account)
                .execute(pg.pool())
                .await?
                .rows_affected()
        } else {
            sqlx::query("DELETE FROM account_sessions WHERE account_id = ?")
                .bind(account)
                .execute(&self.pool)
                .await?
                .rows_affected()
        };
        Ok(done)
    }

    /// Deletes sign-ins unused since `before` (ms); returns how many.
    pub async fn expire_account_sessions(&self, before: i64) -> Result<u64, StoreError> {
        let done = if let Some(pg) = &self.pg {
            sqlx::query("DELETE FROM account_sessions WHERE last_seen < $1")
                .bind(before)
                .execute(pg.pool())
                .await?
                .rows_affected()
        } else {
            sqlx::query("DELETE FROM account_sessions WHERE last_seen < ?")
                .bind(before)
                .execute(&self.pool)
                .await?
                .rows_affected()
        };
        Ok(done)
    }

    /// Marks a sign-in used now (at most hourly, by the caller's cache).
    pub async fn touch_account_session(&self, token: &str, now: i64) -> Result<(), StoreError> {
        if let Some(pg) = &self.pg {
            sqlx::query("UPDATE account_sessions SET last_seen = $1 WHERE token = $2")
                .bind(now)
                .bind(token)
                .execute(pg.pool())
                .await?;
        } else {
            sqlx::query("UPDATE account_sessions SET last_seen = ? WHERE token = ?")
                .bind(now)
                .bind(token)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// Gives everything `from` holds (tables it owns, seats, lab games,
    /// archived games) to
    /// `to`, in one transaction. On PostgreSQL each changed table's version
    /// grows, so every instance reloads its copy.
    pub async fn transfer_identity(&self, from: &str, to: &str) -> Result<(), StoreError> {
        if let Some(pg) = &self.pg {
            let mut tx = pg.pool().begin().await?;
            sqlx::query(
                "UPDATE tables SET \
                 owner = CASE WHEN owner = $1 THEN $2 ELSE owner END, \
                 black_seat = CASE WHEN black_seat = $1 THEN $2 ELSE black_seat END, \
                 white_seat = CASE WHEN white_seat = $1 THEN $2 ELSE white_seat END, \
                 version = version + 1 \
                 WHERE owner = $1 OR black_seat = $1 OR white_seat = $1",
            )
            .bind(from)
            .bind(to)
            .execute(&mut *tx)
            .await?;
            sqlx::query("UPDATE lab_owners SET owner = $2 WHERE owner = $1")
                .bind(from)
                .bind(to)
                .execute(&mut *tx)
                .await?;
            for side in ["black", "white"] {
                sqlx::query(&format!(
                    "UPDATE archived_games SET {side} = $2 WHERE {side} = $1"
                ))
                .bind(from)
                .bind(to)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        } else {
            let mut tx = self.pool.begin().await?;
            sqlx::query(
                "UPDATE tables SET \
                 owner = CASE WHEN owner = ?1 THEN ?2 ELSE owner END, \
                 black_seat = CASE WHEN black_seat = ?1 THEN ?2 ELSE black_seat END, \
                 white_seat = CASE WHEN white_seat = ?1 THEN ?2 ELSE white_seat END \
                 WHERE owner = ?1 OR black_seat = ?1 OR white_seat = ?1",
            )
            .bind(from)
            .bind(to)
            .execute(&mut *tx)
            .await?;
            sqlx::query("UPDATE lab_owners SET owner = ?2 WHERE owner = ?1")
                .bind(from)
                .bind(to)
                .execute(&mut *tx)
                .await?;
            for side in ["black", "white"] {
                sqlx::query(&format!(
                    "UPDATE archived_games SET {side} = ?2 WHERE {side} = ?1"
                ))
                .bind(from)
                .bind(to)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        }
        Ok(())
    }
}
