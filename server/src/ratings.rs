//! Ratings as the pages' [`RatingsBackend`]: a table's players with their
//! ratings and the last rated round's change, an account's ratings with
//! their history, and the leaderboard. The ratings themselves are written
//! by the store with each rated round (`store/ratings.rs`).
//!
//! [`RatingsBackend`]: app::ratings::backend::RatingsBackend

use crate::glicko::PROVISIONAL_DEVIATION;
use crate::store::Store;
use app::api::backend::Caller;
use app::api::CommandError;
use app::protocol::{AccountId, Session, Speed, TableId, TableMode};
use app::ratings::{BoardLine, FoundPlayer, PlayersView, PoolRating, SeatTag, ShownRating};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Lines on the leaderboard.
pub const BOARD_SIZE: i64 = 50;
/// The leaderboard counts players with a rated game in this many days.
pub const BOARD_DAYS: i64 = 30;
/// Points of a rating history kept on a profile's graph.
pub const HISTORY_POINTS: i64 = 200;

/// Player searches one address may make a minute.
pub const SEARCHES_PER_MINUTE: u32 = 30;

/// The ratings service.
#[derive(Clone)]
pub struct Ratings {
    pub store: Store,
    pub hub: crate::hub::Hub,
    pub fair_play: crate::fair_play::FairPlay,
    /// Player searches per address this minute (count, minute's start).
    pub searches: Arc<Mutex<HashMap<String, (u32, i64)>>>,
}

/// Whether `prefix` may be searched: 2 to 20 of a name's characters, at
/// least 2 of them left by the fold. The folded prefix.
pub fn search_prefix(prefix: &str) -> Option<String> {
    use app::ratings::{SEARCH_MAX, SEARCH_MIN};
    let chars = prefix.chars().count();
    let allowed = prefix
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let folded = crate::accounts::fold(prefix);
    (allowed && (SEARCH_MIN..=SEARCH_MAX).contains(&chars) && folded.len() >= SEARCH_MIN)
        .then_some(folded)
}

fn unavailable(error: crate::store::StoreError) -> CommandError {
    tracing::error!("ratings store: {error}");
    CommandError::unavailable(app::msg!("srv-ratings-unavailable"))
}

impl Ratings {
    /// The players of `table` as `viewer` sees them: whether the two are
    /// linked (seen from one address or browser) is told to those two
    /// alone, as it tells who shares a network or a computer; anyone else
    /// sees a table not rated.
    async fn table_players(
        &self,
        viewer: &Session,
        table: &TableId,
    ) -> Result<PlayersView, CommandError> {
        let (mode, holders) = self.hub.seat_holders(table).await?;
        let TableMode::Online { time, rated, .. } = mode else {
            return Ok(PlayersView::default());
        };
        let speed = time.map(|t| t.speed());
        let change = if rated {
            self.store
                .last_rating_change(table.as_str())
                .await
                .map_err(unavailable)?
        } else {
            None
        };
        let accounts: Vec<Option<AccountId>> = holders
            .iter()
            .map(|h| h.as_ref().and_then(|h| crate::accounts::account_in(h)))
            .collect();
        // Linked accounts play unrated (the round's commit decides the
        // same way): said before the first move.
        let linked = match accounts.as_slice() {
            [Some(a), Some(b)] if rated => self.fair_play.linked(*a, *b).await,
            _ => false,
        };
        let mut tags = [SeatTag::default(), SeatTag::default()];
        for (index, account) in accounts.iter().enumerate() {
            let Some(account) = *account else {
                continue;
            };
            tags[index].name = self
                .store
                .account_name(account)
                .await
                .map_err(unavailable)?;
            tags[index].bot = self.store.is_bot(account).await.map_err(unavailable)?;
            if let (true, Some(speed)) = (rated, speed) {
                let row = self
                    .store
                    .rating_of(account, speed)
                    .await
                    .map_err(unavailable)?;
                let (rating, deviation) = row.map_or(
                    (crate::glicko::START_RATING, crate::glicko::START_DEVIATION),
                    |r| (r.rating, r.deviation),
                );
                tags[index].rating = Some(ShownRating::new(rating, deviation));
            }
            if let Some(change) = change {
                let (before, after) = if index == 0 {
                    (change.black_before, change.black_after)
                } else {
                    (change.white_before, change.white_after)
                };
                tags[index].change = Some((after.round() - before.round()) as i32);
            }
        }
        let [black, white] = tags;
        let viewer = crate::accounts::account_of(viewer);
        let told = linked && viewer.is_some() && accounts.contains(&viewer);
        Ok(PlayersView {
            black,
            white,
            rated: rated && !linked,
            linked: told,
        })
    }

    async fn ratings_of(&self, session: &Session) -> Result<Vec<PoolRating>, CommandError> {
        let Some(account) = crate::accounts::account_of(session) else {
            return Ok(Vec::new());
        };
        pools(&self.store, account).await
    }

    async fn leaderboard(&self, speed: Speed) -> Result<Vec<BoardLine>, CommandError> {
        let since = self.hub.now() - BOARD_DAYS * crate::store::ratings::DAY_MS;
        let rows = self
            .store
            .leaderboard(speed, PROVISIONAL_DEVIATION, since, BOARD_SIZE)
            .await
            .map_err(unavailable)?;
        Ok(rows
            .into_iter()
            .enumerate()
            .map(|(i, row)| BoardLine {
                rank: i as u32 + 1,
                name: row.name,
                rating: row.rating.round() as i32,
                games: u32::try_from(row.games).unwrap_or(u32::MAX),
            })
            .collect())
    }

    /// Counts a search from `caller`'s address; false past the minute's cap.
    fn count_search(&self, caller: &Caller) -> bool {
        let Some(address) = caller.address else {
            return true;
        };
        let now = self.hub.now();
        let Ok(mut searches) = self.searches.lock() else {
            return true;
        };
        if searches.len() > 10_000 {
            searches.retain(|_, (_, since)| now - *since < 60_000);
        }
        let entry = searches.entry(address.to_string()).or_insert((0, now));
        if now - entry.1 >= 60_000 {
            *entry = (0, now);
        }
        entry.0 += 1;
        entry.0 <= SEARCHES_PER_MINUTE
    }

    async fn search_players(
        &self,
        caller: &Caller,
        prefix: &str,
    ) -> Result<Vec<FoundPlayer>, CommandError> {
        use app::ratings::{SEARCH_MAX, SEARCH_MIN, SEARCH_RESULTS};
        let folded = search_prefix(prefix).ok_or_else(|| {
            CommandError::refused(app::msg!(
                "srv-search-query",
                min = SEARCH_MIN,
                max = SEARCH_MAX
            ))
        })?;
        if !self.count_search(caller) {
            return Err(CommandError::limited(app::msg!("srv-search-limit")));
        }
        let rows = self
            .store
            .search_players(&folded, SEARCH_RESULTS as i64)
            .await
            .map_err(unavailable)?;
        let mut found: Vec<FoundPlayer> = Vec::new();
        for row in rows {
            if found.last().is_none_or(|f| f.name != row.name) {
                found.push(FoundPlayer {
                    name: row.name.clone(),
                    ratings: Vec::new(),
                });
            }
            let pool = row.speed.as_deref().and_then(Speed::parse);
            if let (Some(speed), Some(rating), Some(deviation), Some(last)) =
                (pool, row.rating, row.deviation, found.last_mut())
            {
                last.ratings
                    .push((speed, ShownRating::new(rating, deviation)));
            }
        }
        found.truncate(SEARCH_RESULTS);
        Ok(found)
    }
}

/// An account's ratings, one per pool played, with their histories.
pub async fn pools(store: &Store, account: AccountId) -> Result<Vec<PoolRating>, CommandError> {
    let rows = store.ratings_of(account).await.map_err(unavailable)?;
    let mut pools = Vec::new();
    for row in rows {
        let speed = row.speed;
        let history = store
            .rating_history(account, speed, HISTORY_POINTS)
            .await
            .map_err(unavailable)?
            .into_iter()
            .map(|h| (h.at, h.rating.round() as i32))
            .collect();
        pools.push(PoolRating {
            speed,
            rating: ShownRating::new(row.rating, row.deviation),
            games: u32::try_from(row.games).unwrap_or(u32::MAX),
            history,
        });
    }
    Ok(pools)
}

#[async_trait::async_trait]
impl app::ratings::backend::RatingsBackend for Ratings {
    async fn table_players(
        &self,
        viewer: &Session,
        table: &TableId,
    ) -> Result<PlayersView, CommandError> {
        Ratings::table_players(self, viewer, table).await
    }

    async fn ratings_of(&self, session: &Session) -> Result<Vec<PoolRating>, CommandError> {
        Ratings::ratings_of(self, session).await
    }

    async fn leaderboard(&self, speed: Speed) -> Result<Vec<BoardLine>, CommandError> {
        Ratings::leaderboard(self, speed).await
    }

    async fn search_players(
        &self,
        caller: &Caller,
        prefix: &str,
    ) -> Result<Vec<FoundPlayer>, CommandError> {
        Ratings::search_players(self, caller, prefix).await
    }
}
