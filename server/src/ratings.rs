//! Ratings as the pages' [`RatingsBackend`]: a table's players with their
//! ratings and the last rated round's change, an account's ratings with
//! their history, and the leaderboard. The ratings themselves are written
//! by the store with each rated round (`store/ratings.rs`).
//!
//! [`RatingsBackend`]: app::ratings::backend::RatingsBackend

use crate::glicko::PROVISIONAL_DEVIATION;
use crate::store::Store;
use app::api::CommandError;
use app::protocol::{AccountId, Session, Speed, TableId, TableMode};
use app::ratings::{BoardLine, PlayersView, PoolRating, SeatTag, ShownRating};

/// Lines on the leaderboard.
pub const BOARD_SIZE: i64 = 50;
/// The leaderboard counts players with a rated game in this many days.
pub const BOARD_DAYS: i64 = 30;
/// Points of a rating history kept on a profile's graph.
pub const HISTORY_POINTS: i64 = 200;

/// The ratings service.
#[derive(Clone)]
pub struct Ratings {
    pub store: Store,
    pub hub: crate::hub::Hub,
    pub fair_play: crate::fair_play::FairPlay,
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
                .last_rating_change(table)
                .await
                .map_err(unavailable)?
        } else {
            None
        };
        let accounts: Vec<Option<AccountId>> = holders
            .iter()
            .map(|h| {
                h.as_ref()
                    .and_then(|h| crate::accounts::account_of(&Session(h.clone())))
            })
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
}
