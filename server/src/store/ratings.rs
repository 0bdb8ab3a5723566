//! Glicko-2 ratings in the store (`migrations/0016_ratings.sql`, on
//! PostgreSQL `migrations/postgres/0006_ratings.sql`).
//!
//! A rated round's rating change is computed and written inside the
//! transaction that writes the round's result and its archived game (the
//! group commit on SQLite, `record_at` on PostgreSQL): both players' rows are
//! read there (locked on PostgreSQL, in account order), so the change is
//! applied exactly once, never lost to a crash after the result, and never
//! twice by two instances. Queries are written once with `$n` parameters;
//! SQLite reads them as `?n`.

use super::{on_db, sqlite, Dialect, Store, StoreError};
use crate::glicko::{self, Rating};
use app::protocol::{AccountId, Side, Speed};

/// A day, in ms: a player's RD grows for each whole one without a rated game.
pub const DAY_MS: i64 = 86_400_000;

/// A round that changes ratings: both players' accounts and the pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedGame {
    pub speed: Speed,
    pub black: AccountId,
    pub white: AccountId,
}

crate::store::rows::row_struct! {
    /// One account's rating in one pool, as stored.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct RatingRow {
        pub rating: f64,
        pub deviation: f64,
        pub volatility: f64,
        pub games: i64,
        pub rated_at: i64,
    }
}

impl RatingRow {
    /// The rating as of `now`: a new player's when there is none, the RD
    /// grown for every whole idle day.
    pub fn current(row: Option<RatingRow>, now: i64) -> (Rating, u32) {
        match row {
            None => (Rating::default(), 0),
            Some(row) => {
                let idle = (now.saturating_sub(row.rated_at) / DAY_MS).clamp(0, 10_000) as u32;
                (
                    Rating {
                        rating: row.rating,
                        deviation: row.deviation,
                        volatility: row.volatility,
                    },
                    idle,
                )
            }
        }
    }
}

crate::store::rows::row_struct! {
    /// A rated game's effect: each side's rating before and after.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct RatingChange {
        pub black_before: f64,
        pub black_after: f64,
        pub white_before: f64,
        pub white_after: f64,
    }
}

/// What a rated game writes, computed from both stored rows.
struct Rated {
    black: Rating,
    white: Rating,
    change: RatingChange,
}

fn rate(
    black: Option<RatingRow>,
    white: Option<RatingRow>,
    winner: Option<Side>,
    now: i64,
) -> Rated {
    let score = match winner {
        Some(Side::Black) => 1.0,
        Some(Side::White) => 0.0,
        None => 0.5,
    };
    let (b, b_idle) = RatingRow::current(black, now);
    let (w, w_idle) = RatingRow::current(white, now);
    let (b_after, w_after) = glicko::rate_game(b, w, score, b_idle, w_idle);
    Rated {
        black: b_after,
        white: w_after,
        change: RatingChange {
            black_before: b.rating,
            black_after: b_after.rating,
            white_before: w.rating,
            white_after: w_after.rating,
        },
    }
}

const READ: &str =
    "SELECT rating, deviation, volatility, games, rated_at FROM ratings WHERE account_id = $1 AND speed = $2";
const UPSERT: &str =
    "INSERT INTO ratings (account_id, speed, rating, deviation, volatility, games, rated_at)
     VALUES ($1, $2, $3, $4, $5, 1, $6)
     ON CONFLICT (account_id, speed) DO UPDATE SET rating = excluded.rating,
         deviation = excluded.deviation, volatility = excluded.volatility,
         games = ratings.games + 1, rated_at = excluded.rated_at";
const HISTORY: &str =
    "INSERT INTO rating_history (account_id, speed, at, rating, deviation, game_id)
     VALUES ($1, $2, $3, $4, $5, $6)";
/// The players' accounts that still exist, with their rating-abuse marks
/// (the rating gate's facts: a game against a marked account changes
/// nobody's rating).
const EXISTING: &str = "SELECT id, abuser_at FROM accounts WHERE id IN ($1, $2)";
/// Links (address or device hashes) two accounts share within the time given.
pub(super) const LINKED: &str =
    "SELECT COUNT(*) FROM account_links x JOIN account_links y ON y.link = x.link \
     WHERE x.account_id = $1 AND y.account_id = $2 AND x.seen_at >= $3 AND y.seen_at >= $3";
const MARK: &str = "UPDATE archived_games SET black_before = $1, black_after = $2, white_before = $3, white_after = $4 WHERE id = $5";

/// Writes a rated game's rating change: both pools' rows, two history rows
/// and the archived game's before/after, in the caller's transaction.
/// When either account no longer exists (deleted while the game ran, or
/// closed by an operator) nothing is rated: no write ever references a
/// deleted account, so a deletion can never make a round's commit fail.
/// `$exists` reads the players' account ids (locked on PostgreSQL, so a
/// deletion waits for this transaction).
macro_rules! write_rating {
    ($tx:expr, $game:expr, $rated:expr, $winner:expr, $now:expr, $q:expr, $read:expr, $exists:expr) => {{
        let tx = $tx;
        let rated: &RatedGame = $rated;
        let (black, white) = (rated.black.get(), rated.white.get());
        let present: Vec<(i64, Option<i64>)> = sqlx::query_as(&$q(&$exists))
            .bind(black)
            .bind(white)
            .fetch_all(&mut **tx)
            .await?;
        let accounts = [black, white]
            .iter()
            .all(|id| present.iter().any(|(p, _)| p == id));
        let abuser = present.iter().any(|(_, marked)| marked.is_some());
        // Two accounts seen from one address or browser never change each
        // other's ratings (the players card said so before the first move).
        let since = $now - super::fair_play::LINK_DAYS * DAY_MS;
        let shared: i64 = sqlx::query_scalar(&$q(LINKED))
            .bind(black)
            .bind(white)
            .bind(since)
            .fetch_one(&mut **tx)
            .await?;
        // The rating gate decides, from the facts read in this transaction.
        let facts = crate::rating_gate::Facts::game(accounts, shared > 0, abuser, false);
        if let Err(why) = crate::rating_gate::gate(facts) {
            tracing::info!(game = %$game, reason = why.name(), "a rated game changes no rating");
            return Ok(());
        }
        let mut rows = [None, None];
        // Locked in account order (PostgreSQL), so two games sharing a
        // player cannot deadlock.
        let mut order = [(0usize, black), (1usize, white)];
        order.sort_by_key(|(_, account)| *account);
        for (slot, account) in order {
            rows[slot] = sqlx::query_as::<_, RatingRow>(&$q(&$read))
                .bind(account)
                .bind(rated.speed.key())
                .fetch_optional(&mut **tx)
                .await?;
        }
        let result = rate(rows[0], rows[1], $winner, $now);
        for (account, rating) in [(black, result.black), (white, result.white)] {
            sqlx::query(&$q(UPSERT))
                .bind(account)
                .bind(rated.speed.key())
                .bind(rating.rating)
                .bind(rating.deviation)
                .bind(rating.volatility)
                .bind($now)
                .execute(&mut **tx)
                .await?;
            sqlx::query(&$q(HISTORY))
                .bind(account)
                .bind(rated.speed.key())
                .bind($now)
                .bind(rating.rating)
                .bind(rating.deviation)
                .bind($game)
                .execute(&mut **tx)
                .await?;
        }
        sqlx::query(&$q(MARK))
            .bind(result.change.black_before)
            .bind(result.change.black_after)
            .bind(result.change.white_before)
            .bind(result.change.white_after)
            .bind($game)
            .execute(&mut **tx)
            .await?;
        Ok(())
    }};
}

/// [`write_rating!`] inside the SQLite group commit's transaction.
pub(super) async fn write_sqlite(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    game: &str,
    rated: &RatedGame,
    winner: Option<Side>,
    now: i64,
) -> Result<(), sqlx::Error> {
    write_rating!(tx, game, rated, winner, now, sqlite, READ, EXISTING)
}

/// [`write_rating!`] inside PostgreSQL's `record_at` transaction.
pub(super) async fn write_pg(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    game: &str,
    rated: &RatedGame,
    winner: Option<Side>,
    now: i64,
) -> Result<(), sqlx::Error> {
    write_rating!(
        tx,
        game,
        rated,
        winner,
        now,
        str::to_string,
        format!("{READ} FOR UPDATE"),
        format!("{EXISTING} ORDER BY id FOR SHARE")
    )
}

crate::store::rows::row_struct! {
    /// One line of the leaderboard.
    #[derive(Clone, Debug)]
    pub struct BoardRow {
        pub name: String,
        pub rating: f64,
        pub deviation: f64,
        pub games: i64,
    }
}

crate::store::rows::row_struct! {
    /// A player found by name, with one of their pools (none when never
    /// rated).
    #[derive(Clone, Debug)]
    pub struct FoundRow {
        pub name: String,
        pub speed: Option<String>,
        pub rating: Option<f64>,
        pub deviation: Option<f64>,
    }
}

crate::store::rows::row_struct! {
    /// One point of a rating history.
    #[derive(Clone, Copy, Debug)]
    pub struct HistoryRow {
        pub at: i64,
        pub rating: f64,
    }
}

crate::store::rows::row_struct! {
    /// An account's rating in one pool, with the pool's name.
    #[derive(Clone, Debug)]
    pub struct PoolRow {
        pub speed: Speed as String,
        pub rating: f64,
        pub deviation: f64,
        pub volatility: f64,
        pub games: i64,
        pub rated_at: i64,
    }
}

/// Runs a read, written once, on the store's database.
macro_rules! read {
    ($store:expr, $query:expr, |$q:ident| $build:expr) => {
        on_db!($store.db(), |pool| {
            let text = pool.sql($query);
            let $q = sqlx::query_as(&text);
            $build.fetch_all(pool).await?
        })
    };
}

impl Store {
    /// An account's rating in one pool (None: never rated there).
    pub async fn rating_of(
        &self,
        account: AccountId,
        speed: Speed,
    ) -> Result<Option<RatingRow>, StoreError> {
        let account = account.get();
        let rows: Vec<RatingRow> = read!(self, READ, |q| q.bind(account).bind(speed.key()));
        Ok(rows.into_iter().next())
    }

    /// An account's ratings in every pool it has played.
    pub async fn ratings_of(&self, account: AccountId) -> Result<Vec<PoolRow>, StoreError> {
        let account = account.get();
        let rows: Vec<PoolRow> = read!(
            self,
            "SELECT speed, rating, deviation, volatility, games, rated_at FROM ratings WHERE account_id = $1 ORDER BY speed",
            |q| q.bind(account)
        );
        Ok(rows)
    }

    /// An account's rating after each rated game in a pool, oldest first
    /// (the newest `limit`).
    pub async fn rating_history(
        &self,
        account: AccountId,
        speed: Speed,
        limit: i64,
    ) -> Result<Vec<HistoryRow>, StoreError> {
        let account = account.get();
        let mut rows: Vec<HistoryRow> = read!(
            self,
            "SELECT at, rating FROM rating_history WHERE account_id = $1 AND speed = $2 ORDER BY at DESC LIMIT $3",
            |q| q.bind(account).bind(speed.key()).bind(limit)
        );
        rows.reverse();
        Ok(rows)
    }

    /// The best `limit` people (bots have their own board, on `/bots`) of
    /// a pool among those whose RD is at most `max_deviation` and who played
    /// a rated game since `since` (ms).
    pub async fn leaderboard(
        &self,
        speed: Speed,
        max_deviation: f64,
        since: i64,
        limit: i64,
    ) -> Result<Vec<BoardRow>, StoreError> {
        let rows: Vec<BoardRow> =
            read!(
            self,
            "SELECT a.name AS name, r.rating AS rating, r.deviation AS deviation, r.games AS games
             FROM ratings r JOIN accounts a ON a.id = r.account_id
             WHERE r.speed = $1 AND r.deviation <= $2 AND r.rated_at >= $3 AND a.abuser_at IS NULL AND a.bot = 0
             ORDER BY r.rating DESC, a.name_key LIMIT $4",
            |q| q.bind(speed.key()).bind(max_deviation).bind(since).bind(limit)
        );
        Ok(rows)
    }

    /// Accounts whose folded name (`accounts.name_fold`) starts with
    /// `folded` (only `a`–`z` and digits: no LIKE wildcard), in name
    /// order, at most `limit` of them, each with its pools (one row each).
    pub async fn search_players(
        &self,
        folded: &str,
        limit: i64,
    ) -> Result<Vec<FoundRow>, StoreError> {
        let pattern = format!("{folded}%");
        let rows: Vec<FoundRow> = read!(
            self,
            "SELECT a.name AS name, r.speed AS speed, r.rating AS rating, r.deviation AS deviation
             FROM accounts a LEFT JOIN ratings r ON r.account_id = a.id
             WHERE a.id IN (SELECT id FROM accounts WHERE name_fold LIKE $1 ORDER BY name_key LIMIT $2)
             ORDER BY a.name_key, r.speed",
            |q| q.bind(pattern).bind(limit)
        );
        Ok(rows)
    }

    /// The rating change of a table's newest rated round, if its newest
    /// archived round was rated.
    pub async fn last_rating_change(
        &self,
        table: &str,
    ) -> Result<Option<RatingChange>, StoreError> {
        let rows: Vec<RatingChange> = read!(
            self,
            "SELECT black_before, black_after, white_before, white_after FROM archived_games
             WHERE table_id = $1 AND black_after IS NOT NULL AND round = (SELECT MAX(round) FROM archived_games WHERE table_id = $1)",
            |q| q.bind(table)
        );
        Ok(rows.into_iter().next())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_players_first_win_moves_both_ratings_by_the_same_amount() {
        let result = rate(None, None, Some(Side::Black), 0);
        assert_eq!(result.change.black_before, 1500.0);
        assert!(result.change.black_after > 1600.0, "{:?}", result.change);
        let up = result.change.black_after - 1500.0;
        let down = 1500.0 - result.change.white_after;
        assert!((up - down).abs() < 1e-9);
        let draw = rate(None, None, None, 0);
        assert!((draw.change.black_after - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn idle_days_grow_the_deviation_before_the_game() {
        let row = RatingRow {
            rating: 1600.0,
            deviation: 60.0,
            volatility: 0.06,
            games: 30,
            rated_at: 0,
        };
        let (_, idle) = RatingRow::current(Some(row), 10 * DAY_MS + 5);
        assert_eq!(idle, 10);
        let fresh = rate(Some(row), None, Some(Side::White), 0);
        let stale = rate(Some(row), None, Some(Side::White), 300 * DAY_MS);
        // A longer absence: a less certain rating moves more.
        assert!(stale.change.black_after < fresh.change.black_after);
    }

    #[test]
    fn sqlite_reads_the_numbered_parameters() {
        assert_eq!(sqlite(READ).matches("?1").count(), 1);
        assert!(!sqlite(UPSERT).contains('$'));
    }
}
