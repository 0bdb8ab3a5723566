//! The store's queries outside the command path: sessions, lab owners,
//! creating tables and their seats, reading tables back for recovery, and
//! deleting idle ones.

use super::{on_db, Dialect, MoveRow, Store, StoreError, StoredTable};

impl Store {
    /// Stores a session (by the hash of its token, never the token) or marks
    /// it used now. Sessions are stored only once they own something.
    pub async fn remember_session(&self, id: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO sessions (token, created_at, last_seen) VALUES (?, ?, ?) \
             ON CONFLICT(token) DO UPDATE SET last_seen = excluded.last_seen",
        )
        .bind(id)
        .bind(now)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Deletes sessions unused since `before` (ms), and the archived games
    /// no live player holds any more (see [`ORPHANED_GAMES`]); returns how
    /// many sessions.
    pub async fn expire_sessions(&self, before: i64) -> Result<u64, StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query("DELETE FROM sessions WHERE last_seen < ?")
            .bind(before)
            .execute(&mut *tx)
            .await?;
        sqlx::query(super::ORPHANED_GAMES).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(done.rows_affected())
    }

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

    /// Creates a table with its first round and an empty tally; `seats` are
    /// the black and white seat holders of an online table.
    pub async fn create_table(
        &self,
        id: &str,
        mode: &str,
        owner: &str,
        seats: (Option<&str>, Option<&str>),
        now: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO tables (id, mode, owner, created_at, last_activity, black_seat, white_seat) VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(id)
        .bind(mode)
        .bind(owner)
        .bind(now)
        .bind(now)
        .bind(seats.0)
        .bind(seats.1)
        .execute(&mut *tx)
        .await?;
        sqlx::query("INSERT INTO rounds (table_id, round, started_at) VALUES (?, 1, ?)")
            .bind(id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO tallies (table_id) VALUES (?)")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Stores an online table's seats, presence and grace start, and, if
    /// given, its start position (right after [`Store::create_table`]).
    pub async fn update_table_setup(
        &self,
        id: &str,
        seating: &crate::seating::SeatingRecord,
        start_obf: Option<&str>,
    ) -> Result<(), StoreError> {
        self.update_seating(id, seating, None).await?;
        sqlx::query("UPDATE tables SET start_obf = ? WHERE id = ?")
            .bind(start_obf)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Stores an online table's seat holders, since when each is absent and
    /// since when grace may run; `touch` also marks the table active.
    pub async fn update_seating(
        &self,
        id: &str,
        seating: &crate::seating::SeatingRecord,
        touch: Option<i64>,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE tables SET black_seat = ?, white_seat = ?, black_gone_since = ?, white_gone_since = ?, running_since = ?, last_activity = COALESCE(?, last_activity) WHERE id = ?",
        )
        .bind(seating.holders[0].as_deref())
        .bind(seating.holders[1].as_deref())
        .bind(seating.absent_since[0])
        .bind(seating.absent_since[1])
        .bind(seating.running_since)
        .bind(touch)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Every stored table.
    pub async fn tables(&self) -> Result<Vec<StoredTable>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT id, mode, owner, created_at, last_activity, black_seat, white_seat, black_gone_since, white_gone_since, running_since, start_obf FROM tables ORDER BY created_at",
        )
        .fetch_all(&self.pool)
        .await?)
    }

    /// A table's commands and passes, in order.
    pub async fn moves(&self, table_id: &str) -> Result<Vec<MoveRow>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT seq, round, kind, side, square, time_ms FROM moves WHERE table_id = ? ORDER BY seq",
        )
        .bind(table_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The stored tally of a table: (black wins, white wins, draws).
    pub async fn tally(&self, table_id: &str) -> Result<Option<(i64, i64, i64)>, StoreError> {
        Ok(
            sqlx::query_as("SELECT black_wins, white_wins, draws FROM tallies WHERE table_id = ?")
                .bind(table_id)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    /// Deletes tables idle since before `cutoff`; returns their ids.
    pub async fn delete_idle_tables(&self, cutoff: i64) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> =
            sqlx::query_as("DELETE FROM tables WHERE last_activity < ? RETURNING id")
                .bind(cutoff)
                .fetch_all(&self.pool)
                .await?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }
}
