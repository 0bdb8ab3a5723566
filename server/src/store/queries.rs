//! The store's small queries outside the hub's trait: lab owners and the
//! count of stored sessions (the hub's own are in `table_store.rs`).

use super::{on_db, Dialect, Store, StoreError};

impl Store {
    /// Records who created a lab game.
    pub async fn set_lab_owner(&self, game: &str, owner: &str) -> Result<(), StoreError> {
        const SET: &str = "INSERT INTO lab_owners (game_id, owner) VALUES ($1, $2)
             ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner";
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(SET))
                .bind(game)
                .bind(owner)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Who created a lab game (`None`: a game from before owners were kept).
    pub async fn lab_owner(&self, game: &str) -> Result<Option<String>, StoreError> {
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_scalar(&pool.sql("SELECT owner FROM lab_owners WHERE game_id = $1"))
                .bind(game)
                .fetch_optional(pool)
                .await?
        }))
    }

    /// The ids of the `limit` most recently changed lab games, newest first.
    pub async fn recent_lab_games(&self, limit: i64) -> Result<Vec<String>, StoreError> {
        const RECENT: &str = "SELECT id FROM lab_games ORDER BY updated_at DESC, id LIMIT $1";
        let rows: Vec<(String,)> = on_db!(self.db(), |pool| {
            sqlx::query_as(&pool.sql(RECENT))
                .bind(limit)
                .fetch_all(pool)
                .await?
        });
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }

    /// The lab games a session created.
    pub async fn lab_games_of(&self, owner: &str) -> Result<Vec<String>, StoreError> {
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_scalar(&pool.sql("SELECT game_id FROM lab_owners WHERE owner = $1"))
                .bind(owner)
                .fetch_all(pool)
                .await?
        }))
    }

    /// How many sessions are stored.
    pub async fn session_count(&self) -> Result<i64, StoreError> {
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_scalar("SELECT COUNT(*) FROM sessions")
                .fetch_one(pool)
                .await?
        }))
    }
}
