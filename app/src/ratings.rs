//! Ratings as the pages see them: the players at a table with their
//! ratings and the last rated round's change, the caller's ratings, and the
//! leaderboard. Glicko-2 itself lives on the server (`server/src/glicko.rs`).

use crate::api::CommandError;
use crate::protocol::{Speed, TableId};
use serde::{Deserialize, Serialize};
use server_fn::codec::Json;

/// Above this RD a rating is provisional and shown with a `?`.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// About how many rated games a new player's rating takes to settle (its RD
/// to fall to [`PROVISIONAL_DEVIATION`]): 10 against settled opponents, 13
/// against other new players (checked against Glicko-2 itself in
/// `server/src/glicko.rs`).
pub const SETTLES_AFTER_GAMES: u32 = 12;

/// A rating as shown: rounded, with a `?` while provisional.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownRating {
    pub rating: i32,
    pub provisional: bool,
}

impl ShownRating {
    pub fn new(rating: f64, deviation: f64) -> ShownRating {
        ShownRating {
            rating: rating.round() as i32,
            provisional: deviation > PROVISIONAL_DEVIATION,
        }
    }

    /// `1500?` or `1623`.
    pub fn text(&self) -> String {
        if self.provisional {
            format!("{}?", self.rating)
        } else {
            self.rating.to_string()
        }
    }
}

/// A change as shown: `+12`, `−8` (a minus sign), `±0`.
pub fn change_text(change: i32) -> String {
    match change {
        0 => "±0".to_string(),
        c if c > 0 => format!("+{c}"),
        c => format!("−{}", c.unsigned_abs()),
    }
}

/// One seat of a table as its page labels it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatTag {
    /// The account's name (None: anonymous, empty or the AI).
    pub name: Option<String>,
    /// Their rating in the table's pool (rated tables).
    pub rating: Option<ShownRating>,
    /// What the last rated round changed (rounded), once one has ended.
    pub change: Option<i32>,
    /// A bot account (shown with its BOT tag).
    #[serde(default)]
    pub bot: bool,
}

/// The players of a table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayersView {
    pub black: SeatTag,
    pub white: SeatTag,
    pub rated: bool,
    /// A rated table whose two accounts were seen from one address or
    /// browser: it plays unrated (`rated` is then false), and says so to
    /// those two players only (anyone else sees a table not rated).
    #[serde(default)]
    pub linked: bool,
}

/// A player's rating in one pool, with their history there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoolRating {
    pub speed: Speed,
    pub rating: ShownRating,
    pub games: u32,
    /// (ms since the epoch, rating) after each rated game, oldest first.
    pub history: Vec<(i64, i32)>,
}

/// One line of the leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardLine {
    pub rank: u32,
    pub name: String,
    pub rating: i32,
    pub games: u32,
}

/// Player search: the most players one search answers.
pub const SEARCH_RESULTS: usize = 20;
/// Player search: the shortest prefix searched (after the name fold).
pub const SEARCH_MIN: usize = 2;
/// Player search: the longest prefix (a name's longest).
pub const SEARCH_MAX: usize = 20;

/// A player found by name, with their rating in each pool they played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundPlayer {
    pub name: String,
    pub ratings: Vec<(Speed, ShownRating)>,
}

/// Server-side glue: the trait the server implements.
#[cfg(feature = "ssr")]
pub mod backend {
    use super::{BoardLine, FoundPlayer, PlayersView, PoolRating};
    use crate::api::backend::Caller;
    use crate::api::CommandError;
    use crate::protocol::{Session, Speed, TableId};
    use std::sync::Arc;

    #[async_trait::async_trait]

    pub trait RatingsBackend: Send + Sync + 'static {
        /// `viewer`: who asks (whether the players are linked is told to
        /// them alone).
        async fn table_players(
            &self,
            viewer: &Session,
            table: &TableId,
        ) -> Result<PlayersView, CommandError>;
        async fn ratings_of(&self, session: &Session) -> Result<Vec<PoolRating>, CommandError>;
        async fn leaderboard(&self, speed: Speed) -> Result<Vec<BoardLine>, CommandError>;
        /// Players whose name starts with `prefix` (compared folded, as
        /// names are), at most [`super::SEARCH_RESULTS`].
        async fn search_players(
            &self,
            caller: &Caller,
            prefix: &str,
        ) -> Result<Vec<FoundPlayer>, CommandError>;
    }

    /// The ratings backend, provided to server functions as context.
    #[derive(Clone)]
    pub struct RatingsBackendHandle(pub Arc<dyn RatingsBackend>);

    pub fn context() -> Result<Arc<dyn RatingsBackend>, CommandError> {
        leptos::prelude::use_context::<RatingsBackendHandle>()
            .map(|h| h.0)
            .ok_or_else(|| CommandError::unavailable(crate::msg!("srv-not-ready")))
    }
}

/// The players of a table, their ratings and the last rated change.
#[leptos::server(endpoint = "table_players", input = Json)]
pub async fn table_players(table: TableId) -> Result<PlayersView, CommandError> {
    let ratings = backend::context()?;
    let caller = crate::api::backend::caller()?;
    ratings.table_players(&caller.session, &table).await
}

/// The caller's ratings (none when anonymous or never rated).
#[leptos::server(endpoint = "my_ratings", input = Json)]
pub async fn my_ratings() -> Result<Vec<PoolRating>, CommandError> {
    let ratings = backend::context()?;
    let (_, session) = crate::api::backend::context()?;
    ratings.ratings_of(&session).await
}

/// The best players of a pool: RD at most 110, a rated game in 30 days.
#[leptos::server(endpoint = "leaderboard", input = Json)]
pub async fn leaderboard(speed: Speed) -> Result<Vec<BoardLine>, CommandError> {
    backend::context()?.leaderboard(speed).await
}

/// Players by the start of their name (2 to 20 characters of a name's):
/// at most [`SEARCH_RESULTS`], with their ratings.
#[leptos::server(endpoint = "search_players", input = Json)]
pub async fn search_players(prefix: String) -> Result<Vec<FoundPlayer>, CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?.search_players(&caller, &prefix).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_and_changes_read_as_players_expect() {
        assert_eq!(ShownRating::new(1500.0, 350.0).text(), "1500?");
        assert_eq!(ShownRating::new(1622.6, 80.0).text(), "1623");
        assert_eq!(change_text(12), "+12");
        assert_eq!(change_text(-8), "−8");
        assert_eq!(change_text(0), "±0");
    }
}
