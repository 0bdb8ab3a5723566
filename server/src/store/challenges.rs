//! The store's challenge queries (`migrations/0021_challenges.sql`, on
//! PostgreSQL `migrations/postgres/0011_challenges.sql`), written once.
//! An answer is conditional on the challenge still being open and not
//! expired, so a challenge is accepted once, by one answer, on any instance.

use super::{on_db, Dialect, Store, StoreError};
use app::protocol::AccountId;

crate::store::rows::row_struct! {
    /// A challenge as stored, with both players' names.
    #[derive(Clone, Debug, PartialEq)]
    pub struct ChallengeRow {
        pub id: String,
        pub challenger: AccountId as i64,
        pub challenger_name: String,
        pub challenged: AccountId as i64,
        pub challenged_name: String,
        pub base_ms: i64,
        pub increment_ms: i64,
        pub colour: String,
        pub rated: i64,
        pub status: String,
        pub table_id: Option<String>,
        pub created_at: i64,
        pub expires_at: i64,
        pub answered_at: Option<i64>,
        /// Starts from a random balanced position (migration 0032).
        pub random_start: i64,
        /// A synchro pair: two games, colours swapped.
        pub synchro: i64,
        /// A synchro pair's second table, once accepted.
        pub pair_table: Option<String>,
    }
}

/// A challenge to write.
#[derive(Clone, Debug)]
pub struct NewChallengeRow<'a> {
    pub id: &'a str,
    pub challenger: AccountId,
    pub challenged: AccountId,
    pub address: Option<&'a str>,
    pub base_ms: i64,
    pub increment_ms: i64,
    pub colour: &'a str,
    pub rated: bool,
    pub now: i64,
    pub expires_at: i64,
    pub random_start: bool,
    pub synchro: bool,
}

const SELECT: &str = "SELECT c.id, c.challenger, a.name AS challenger_name, c.challenged, \
    b.name AS challenged_name, c.base_ms, c.increment_ms, c.colour, c.rated, c.status, c.table_id, \
    c.created_at, c.expires_at, c.answered_at, c.random_start, c.synchro, c.pair_table FROM challenges c \
    JOIN accounts a ON a.id = c.challenger JOIN accounts b ON b.id = c.challenged";

impl Store {
    /// Writes a new open challenge.
    pub async fn create_challenge(&self, new: &NewChallengeRow<'_>) -> Result<(), StoreError> {
        const INSERT: &str =
            "INSERT INTO challenges (id, challenger, challenged, address, base_ms, \
            increment_ms, colour, rated, status, created_at, expires_at, random_start, synchro) \
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'open', $9, $10, $11, $12)";
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(INSERT))
                .bind(new.id)
                .bind(new.challenger.get())
                .bind(new.challenged.get())
                .bind(new.address)
                .bind(new.base_ms)
                .bind(new.increment_ms)
                .bind(new.colour)
                .bind(i64::from(new.rated))
                .bind(new.now)
                .bind(new.expires_at)
                .bind(i64::from(new.random_start))
                .bind(i64::from(new.synchro))
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Open, unexpired challenges sent by an account, and from an address.
    pub async fn open_challenges_from(
        &self,
        challenger: AccountId,
        address: Option<&str>,
        now: i64,
    ) -> Result<(i64, i64), StoreError> {
        let challenger = challenger.get();
        const COUNT: &str = "SELECT \
            (SELECT COUNT(*) FROM challenges WHERE challenger = $1 AND status = 'open' AND expires_at > $3), \
            (SELECT COUNT(*) FROM challenges WHERE address = $2 AND status = 'open' AND expires_at > $3)";
        let counts = on_db!(self.db(), |pool| {
            sqlx::query_as::<_, (i64, i64)>(&pool.sql(COUNT))
                .bind(challenger)
                .bind(address)
                .bind(now)
                .fetch_one(pool)
                .await?
        });
        Ok(counts)
    }

    /// A challenge by id.
    pub async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        let query = format!("{SELECT} WHERE c.id = $1");
        let row = on_db!(self.db(), |pool| {
            sqlx::query_as::<_, ChallengeRow>(&pool.sql(&query))
                .bind(id)
                .fetch_optional(pool)
                .await?
        });
        Ok(row)
    }

    /// An account's challenges, sent and received, made since `since`,
    /// newest first.
    pub async fn challenges_of(
        &self,
        account: AccountId,
        since: i64,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        let account = account.get();
        let query = format!(
            "{SELECT} WHERE (c.challenger = $1 OR c.challenged = $1) AND c.created_at >= $2 \
             ORDER BY c.created_at DESC, c.id LIMIT 40"
        );
        let rows = on_db!(self.db(), |pool| {
            sqlx::query_as::<_, ChallengeRow>(&pool.sql(&query))
                .bind(account)
                .bind(since)
                .fetch_all(pool)
                .await?
        });
        Ok(rows)
    }

    /// Withdraws an accepted challenge whose table could not be made.
    pub async fn cancel_accepted_challenge(&self, id: &str) -> Result<(), StoreError> {
        const CANCEL: &str =
            "UPDATE challenges SET status = 'cancelled', table_id = NULL, pair_table = NULL \
            WHERE id = $1 AND status = 'accepted'";
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(CANCEL))
                .bind(id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Answers an open, unexpired challenge: `status` with its table and a
    /// synchro pair's second table (when accepted). False, writing nothing,
    /// when it was no longer open.
    pub async fn answer_challenge(
        &self,
        id: &str,
        status: &str,
        tables: Option<(&str, Option<&str>)>,
        now: i64,
    ) -> Result<bool, StoreError> {
        const ANSWER: &str = "UPDATE challenges SET status = $2, table_id = $3, pair_table = $5, \
            answered_at = $4 WHERE id = $1 AND status = 'open' AND expires_at > $4";
        let done = on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(ANSWER))
                .bind(id)
                .bind(status)
                .bind(tables.map(|(table, _)| table))
                .bind(now)
                .bind(tables.and_then(|(_, pair)| pair))
                .execute(pool)
                .await?
                .rows_affected()
        });
        Ok(done == 1)
    }

    /// A synchro pair's two tables (first, second), given either.
    pub async fn synchro_pair(&self, table: &str) -> Result<Option<(String, String)>, StoreError> {
        const PAIR: &str = "SELECT table_id, pair_table FROM challenges \
            WHERE (table_id = $1 OR pair_table = $1) AND pair_table IS NOT NULL AND status = 'accepted' \
            LIMIT 1";
        let row = on_db!(self.db(), |pool| {
            sqlx::query_as::<_, (String, String)>(&pool.sql(PAIR))
                .bind(table)
                .fetch_optional(pool)
                .await?
        });
        Ok(row)
    }
}
