//! The AI lab's queries that are the same on both databases: creating a
//! lab game, copying one, deleting idle ones. (Placements and explanations
//! are written differently: unchecked on SQLite, `lab/store.rs`; checked
//! against the game's version and leased on PostgreSQL, `pg/lab.rs`.)

use super::{on_db, Dialect, Store, StoreError};

impl Store {
    /// Creates a lab game at version 1.
    pub async fn create_lab_game(
        &self,
        id: &str,
        black_depth: u8,
        white_depth: u8,
        lang: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        const CREATE: &str = "INSERT INTO lab_games (id, black_depth, white_depth, created_at, updated_at, lang, version)
             VALUES ($1, $2, $3, $4, $4, $5, 1)";
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(CREATE))
                .bind(id)
                .bind(i64::from(black_depth))
                .bind(i64::from(white_depth))
                .bind(now)
                .bind(lang)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Copies lab game `from` (its depths, placements and explanations) into
    /// a new game `to` at version 1, in one transaction; its pending
    /// explanations are leased to this instance until `claim_until`.
    /// [`StoreError::Gone`] when `from` no longer exists.
    pub async fn copy_lab_game(
        &self,
        from: &str,
        to: &str,
        now: i64,
        claim_until: i64,
    ) -> Result<(), StoreError> {
        const GAME: &str = "INSERT INTO lab_games (id, black_depth, white_depth, created_at, updated_at, lang, version)
             SELECT $1, black_depth, white_depth, $2, $2, lang, 1 FROM lab_games WHERE id = $3";
        const MOVES: &str = "INSERT INTO lab_moves (game_id, ply, side, square, facts, at, explain_state, explanation,
                 lesson, provider, explain_error, explained_at, claimed_until)
             SELECT $1, ply, side, square, facts, at, explain_state, explanation, lesson, provider,
                 explain_error, explained_at, $3
             FROM lab_moves WHERE game_id = $2";
        on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            let copied = sqlx::query(&pool.sql(GAME))
                .bind(to)
                .bind(now)
                .bind(from)
                .execute(&mut *tx)
                .await?;
            if copied.rows_affected() == 0 {
                return Err(StoreError::Gone);
            }
            sqlx::query(&pool.sql(MOVES))
                .bind(to)
                .bind(from)
                .bind(claim_until)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Deletes lab games idle since before `cutoff` (unix ms), with their
    /// moves (the foreign key cascades) and stored analyses, in one
    /// transaction; returns their ids.
    pub async fn delete_idle_lab_games(&self, cutoff: i64) -> Result<Vec<String>, StoreError> {
        const IDLE: &str = "DELETE FROM lab_games WHERE updated_at < $1 RETURNING id";
        Ok(on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            let ids: Vec<String> = sqlx::query_scalar(&pool.sql(IDLE))
                .bind(cutoff)
                .fetch_all(&mut *tx)
                .await?;
            for id in &ids {
                sqlx::query(&pool.sql("DELETE FROM analyses WHERE game = $1"))
                    .bind(format!("lab:{id}"))
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            ids
        }))
    }
}
