//! The store's archive queries (`migrations/0015_archive.sql`, on PostgreSQL
//! `migrations/postgres/0005_archive.sql`). Archived games are written by
//! the group commit with the round's result (see `sqlite/writer.rs`, `pg/writer.rs`).

use super::mode::{mode_columns, ModeColumns, ModeKind};
use super::{on_db, Dialect, Store, StoreError};
use crate::identity::Identity;
use app::protocol::AccountId;

/// One side's player in its typed columns (`<side>_account`, `<side>_ai`,
/// `<side>_browser`; migrations 0025 / postgres 0015): exactly one is set,
/// as the database checks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerColumns {
    pub account: Option<i64>,
    pub ai: Option<i64>,
    pub browser: Option<String>,
}

impl PlayerColumns {
    /// The columns of `identity`.
    pub fn of(identity: &Identity) -> Self {
        match identity {
            Identity::Account(id) => PlayerColumns {
                account: Some(id.get()),
                ..Default::default()
            },
            Identity::Ai(depth) => PlayerColumns {
                ai: Some(i64::from(*depth)),
                ..Default::default()
            },
            Identity::Browser(session) => PlayerColumns {
                browser: Some(session.clone()),
                ..Default::default()
            },
        }
    }

    /// The identity the columns hold (the database allows no other shape:
    /// a row without any reads as an unknown browser).
    pub fn identity(&self) -> Identity {
        match (self.account, self.ai, &self.browser) {
            (Some(id), _, _) => Identity::Account(AccountId::new(id)),
            (None, Some(depth), _) => Identity::Ai(u8::try_from(depth).unwrap_or(u8::MAX)),
            (None, None, browser) => Identity::Browser(browser.clone().unwrap_or_default()),
        }
    }
}

/// Whether a side's player is the identity bound to `$1` (account), `$2`
/// (AI depth) and `$3` (browser): the one that is not NULL matches. (The
/// others compare with NULL: the expression is true or NULL, never false —
/// wrap it in `COALESCE(…, 0 = 1)` before a NOT.)
macro_rules! plays {
    (black) => {
        "(black_account = $1 OR black_ai = $2 OR black_browser = $3)"
    };
    (white) => {
        "(white_account = $1 OR white_ai = $2 OR white_browser = $3)"
    };
}

/// Binds `player`'s columns as `$1`, `$2`, `$3` (see [`plays!`]).
macro_rules! bind_player {
    ($query:expr, $player:expr) => {{
        let columns = $player;
        $query
            .bind(columns.account)
            .bind(columns.ai)
            .bind(columns.browser.clone())
    }};
}

crate::store::rows::row_struct! {
    /// An archived game as stored.
    #[derive(Clone, Debug)]
    pub struct ArchivedRow {
        pub id: String,
        /// The table it was played at, and which of its rounds it was.
        pub table_id: String,
        pub round: i64,
        pub mode: ModeColumns as flatten,
        pub black_account: Option<i64>,
        pub black_ai: Option<i64>,
        pub black_browser: Option<String>,
        pub white_account: Option<i64>,
        pub white_ai: Option<i64>,
        pub white_browser: Option<String>,
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
}

impl ArchivedRow {
    /// Who played Black.
    pub fn black(&self) -> Identity {
        PlayerColumns {
            account: self.black_account,
            ai: self.black_ai,
            browser: self.black_browser.clone(),
        }
        .identity()
    }

    /// Who played White.
    pub fn white(&self) -> Identity {
        PlayerColumns {
            account: self.white_account,
            ai: self.white_ai,
            browser: self.white_browser.clone(),
        }
        .identity()
    }
}

const COLUMNS: &str = concat!("id, table_id, round, ", mode_columns!(), ", black_account, black_ai, black_browser, white_account, white_ai, white_browser, start_obf, moves, times, winner, reason, black_discs, white_discs, ended_at, black_before, black_after, white_before, white_after");

impl Store {
    /// The game archived from a table's round, if it is over.
    pub async fn archived_game_at(
        &self,
        table: &str,
        round: i64,
    ) -> Result<Option<ArchivedRow>, StoreError> {
        let query =
            format!("SELECT {COLUMNS} FROM archived_games WHERE table_id = $1 AND round = $2");
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_as::<_, ArchivedRow>(&pool.sql(&query))
                .bind(table)
                .bind(round)
                .fetch_optional(pool)
                .await?
        }))
    }

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
        player: &Identity,
        before: i64,
        limit: i64,
        mode: Option<ModeKind>,
        result: Option<&str>,
    ) -> Result<Vec<ArchivedRow>, StoreError> {
        let mut sql = format!(
            "SELECT {COLUMNS} FROM archived_games WHERE ({} OR {}) AND ended_at < $4",
            plays!(black),
            plays!(white)
        );
        if mode.is_some() {
            sql.push_str(" AND mode_kind = $6");
        }
        sql.push_str(match result {
            Some("won") => concat!(
                " AND ((",
                plays!(black),
                " AND winner = 'black') OR (",
                plays!(white),
                " AND winner = 'white'))"
            ),
            Some("lost") => concat!(
                " AND ((",
                plays!(black),
                " AND winner = 'white') OR (",
                plays!(white),
                " AND winner = 'black'))"
            ),
            Some("drawn") => {
                " AND winner IS NULL AND reason NOT IN ('abandoned', 'aborted', 'forfeit')"
            }
            _ => "",
        });
        sql.push_str(" ORDER BY ended_at DESC, id LIMIT $5");
        let kind = mode.map(ModeKind::name);
        let player = PlayerColumns::of(player);
        Ok(on_db!(self.db(), |pool| {
            let sql = pool.sql(&sql);
            let mut query = bind_player!(sqlx::query_as(&sql), &player)
                .bind(before)
                .bind(limit);
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
        player: &Identity,
        before: i64,
        limit: i64,
    ) -> Result<Vec<ArchivedRow>, StoreError> {
        self.archived_games_filtered(player, before, limit, None, None)
            .await
    }

    /// What changes when a game is added to `player`'s archive (or one
    /// goes): how many they have and when the newest ended.
    pub async fn archive_marker(&self, player: &Identity) -> Result<(i64, i64), StoreError> {
        const MARKER: &str = concat!(
            "SELECT COUNT(*), COALESCE(MAX(ended_at), 0) FROM archived_games WHERE ",
            plays!(black),
            " OR ",
            plays!(white)
        );
        let player = PlayerColumns::of(player);
        Ok(on_db!(self.db(), |pool| {
            bind_player!(sqlx::query_as(&pool.sql(MARKER)), &player)
                .fetch_one(pool)
                .await?
        }))
    }

    /// A player's wins, losses and draws over the archived games they played
    /// against someone else (a hot-seat game against oneself counts for
    /// neither; an abandoned one is no loss).
    pub async fn results_of(&self, player: &Identity) -> Result<(u32, u32, u32), StoreError> {
        const COUNTS: &str = concat!(
            "SELECT COALESCE(SUM(CASE WHEN (",
            plays!(black),
            " AND winner = 'black') OR (",
            plays!(white),
            " AND winner = 'white') THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN (",
            plays!(black),
            " AND winner = 'white') OR (",
            plays!(white),
            " AND winner = 'black') THEN 1 ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN winner IS NULL AND reason NOT IN ('abandoned', 'aborted', 'forfeit') THEN 1 ELSE 0 END), 0) \
             FROM archived_games WHERE (",
            plays!(black),
            " OR ",
            plays!(white),
            // A comparison with an unbound (NULL) column is NULL, not
            // false: the NOT needs it as false.
            ") AND NOT COALESCE(",
            plays!(black),
            " AND ",
            plays!(white),
            ", 0 = 1)"
        );
        let player = PlayerColumns::of(player);
        let (wins, losses, draws): (i64, i64, i64) = on_db!(self.db(), |pool| {
            bind_player!(sqlx::query_as(&pool.sql(COUNTS)), &player)
                .fetch_one(pool)
                .await?
        });
        let count = |n: i64| u32::try_from(n).unwrap_or(0);
        Ok((count(wins), count(losses), count(draws)))
    }
}
