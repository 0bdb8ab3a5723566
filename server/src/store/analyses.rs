//! The store's queries of game analyses (`migrations/0009_analysis.sql`;
//! on PostgreSQL in `migrations/postgres/0001_cluster.sql`): one row per
//! analysed game, its transcript and its result as JSON (`crate::analysis`).

use super::{on_db, Dialect, Store, StoreError};

impl Store {
    /// The stored analysis of `game`, with the transcript it was made of.
    pub async fn analysis(&self, game: &str) -> Result<Option<(String, String)>, StoreError> {
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_as(&pool.sql("SELECT moves, result FROM analyses WHERE game = $1"))
                .bind(game)
                .fetch_optional(pool)
                .await?
        }))
    }

    /// Stores (or replaces) the analysis of `game`.
    pub async fn save_analysis(
        &self,
        game: &str,
        moves: &str,
        result: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        const SAVE: &str = "INSERT INTO analyses (game, moves, result, created_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (game) DO UPDATE SET moves = excluded.moves, result = excluded.result, created_at = excluded.created_at";
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(SAVE))
                .bind(game)
                .bind(moves)
                .bind(result)
                .bind(now)
                .execute(pool)
                .await?;
        });
        Ok(())
    }
}
