//! The store's archive queries (`migrations/0015_archive.sql`, on PostgreSQL
//! `migrations/postgres/0005_archive.sql`). Archived games are written by
//! the group commit with the round's result (see `sqlite/writer.rs`, `pg/writer.rs`).

use super::mode::{mode_columns, ModeColumns, ModeKind};
use super::{on_db, Dialect, Store, StoreError};

/// An archived game as stored.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ArchivedRow {
    pub id: String,
    #[sqlx(flatten)]
    pub mode: ModeColumns,
    pub black: String,
    pub white: String,
    pub start_obf: String,
    pub moves: String,
    pub times: String,
    pub winner: Option<String>,
    pub reason: String,
    pub black_discs: i64,
    pub white_discs: i64,
    pub ended_at: i64,
    /// Both players' ratings before and after (rated games only).
    pub black_before: Option<f64>,
    pub black_after: Option<f64>,
    pub white_before: Option<f64>,
    pub white_after: Option<f64>,
}

const COLUMNS: &str = concat!("id, ", mode_columns!(), ", black, white, start_obf, moves, times, winner, reason, black_discs, white_discs, ended_at, black_before, black_after, white_before, white_after");

impl Store {
    /// An archived game by id.
    pub async fn archived_game(&self, id: &str) -> Result<Option<ArchivedRow>, StoreError> {
        let query = format!("SELECT {COLUMNS} FROM archived_games WHERE id = $1");
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_as(&pool.sql(&query))
                .bind(id)
                .fetch_optional(pool)
                .await?
        }))
    }

    /// The games `player` played, newest first: at most `limit`, all ended
    /// before `before` (ms), of one mode (`online`, `vs_ai`, `hot_seat`)
    /// and one result for the player (`won`, `lost`, `drawn`) when given
    /// (the caller checks both are among these).
    pub async fn archived_games_filtered(
        &self,
        player: &str,
        before: i64,
        limit: i64,
        mode: Option<ModeKind>,
        result: Option<&str>,
    ) -> Result<Vec<ArchivedRow>, StoreError> {
        let mut sql = format!(
            "SELECT {COLUMNS} FROM archived_games WHERE (black = $1 OR white = $1) AND ended_at < $2"
        );
        if mode.is_some() {
            sql.push_str(" AND mode_kind = $4");
        }
        sql.push_str(match result {
            Some("won") => {
                " AND ((black = $1 AND winner = 'black') OR (white = $1 AND winner = 'white'))"
            }
            Some("lost") => {
                " AND ((black = $1 AND winner = 'white') OR (white = $1 AND winner = 'black'))"
            }
            Some("drawn") => " AND winner IS NULL AND reason NOT IN ('abandoned', 'aborted')",
            _ => "",
        });
        sql.push_str(" ORDER BY ended_at DESC, id LIMIT $3");
        let kind = mode.map(ModeKind::name);
        Ok(on_db!(self.db(), |pool| {
            let sql = pool.sql(&sql);
            let mut query = sqlx::query_as(&sql).bind(player).bind(before).bind(limit);
            if let Some(kind) = kind {
                query = query.bind(kind);
            }
            query.fetch_all(pool).await?
        }))
    }

    /// The games `player` played, newest first: at most `limit`, all ended
    /// before `before` (ms).
    pub async fn archived_games_of(
        &self,
        player: &str,
        before: i64,
        limit: i64,
    ) -> Result<Vec<ArchivedRow>, StoreError> {
        self.archived_games_filtered(player, before, limit, None, None)
            .await
    }

    /// What changes when a game is added to `player`'s archive (or one
    /// goes): how many they have and when the newest ended.
    pub async fn archive_marker(&self, player: &str) -> Result<(i64, i64), StoreError> {
        const MARKER: &str = "SELECT COUNT(*), COALESCE(MAX(ended_at), 0) FROM archived_games \
             WHERE black = $1 OR white = $1";
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_as(&pool.sql(MARKER))
                .bind(player)
                .fetch_one(pool)
                .await?
        }))
    }

    /// A player's wins, losses and draws over the archived games they played
    /// against someone else (a hot-seat game against oneself counts for
    /// neither; an abandoned one is no loss).
    pub async fn results_of(&self, player: &str) -> Result<(u32, u32, u32), StoreError> {
        const COUNTS: &str = "SELECT \
             COALESCE(SUM(CASE WHEN (black = $1 AND winner = 'black') OR (white = $1 AND winner = 'white') THEN 1 ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN (black = $1 AND winner = 'white') OR (white = $1 AND winner = 'black') THEN 1 ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN winner IS NULL AND reason NOT IN ('abandoned', 'aborted') THEN 1 ELSE 0 END), 0) \
             FROM archived_games WHERE (black = $1 OR white = $1) AND black <> white";
        let (wins, losses, draws): (i64, i64, i64) = on_db!(self.db(), |pool| {
            sqlx::query_as(&pool.sql(COUNTS))
                .bind(player)
                .fetch_one(pool)
                .await?
        });
        let count = |n: i64| u32::try_from(n).unwrap_or(0);
        Ok((count(wins), count(losses), count(draws)))
    }
}
