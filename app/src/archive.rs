//! The game archive as the pages see it: every finished round of every
//! table, kept after its table is gone. A game's page is open to anybody
//! with its link (as a lichess game URL is); "my games" lists the caller's.

use crate::api::CommandError;
use crate::protocol::{EndReason, GameId, Side, TableMode};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use server_fn::codec::Json;

/// One side of an archived game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// The account's name; `None` for an anonymous player or the AI.
    pub name: Option<String>,
    /// The AI's depth when the AI played this side (7: the strongest).
    pub ai_depth: Option<u8>,
    /// An account that has since been deleted.
    #[serde(default)]
    pub deleted: bool,
}

/// One placement of an archived game, with the board after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GamePly {
    pub side: Side,
    pub square: u8,
    /// The board after the placement (64 cells: +1 black, −1 white, 0).
    pub cells: Vec<i8>,
    pub flipped: Vec<u8>,
    /// The time the placement took (timed games).
    pub time_ms: Option<i64>,
    /// The next side had no legal move and passed after this placement.
    pub pass_after: Option<Side>,
}

/// An archived game, whole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameView {
    pub id: GameId,
    pub mode: TableMode,
    pub black: PlayerView,
    pub white: PlayerView,
    /// The board the game started from.
    pub start: Vec<i8>,
    pub plies: Vec<GamePly>,
    pub winner: Option<Side>,
    pub reason: EndReason,
    pub black_discs: u8,
    pub white_discs: u8,
    /// When it ended (ms since the epoch).
    pub ended_at: i64,
    /// The sides the viewer played.
    pub you: Vec<Side>,
    /// A rated game: black's and white's rating before and after it.
    #[serde(default)]
    pub ratings: Option<[(i32, i32); 2]>,
    /// One game of a synchro pair: the other game, and the disc sum.
    #[serde(default)]
    pub synchro: Option<SynchroView>,
}

/// A synchro pair as one of its games sees it (docs/PRODUCT.md, Bots: two
/// games at once from one start, colours swapped, won by the disc sum).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SynchroView {
    /// The other game's table.
    pub other_table: crate::protocol::TableId,
    /// The other game, once it is over.
    pub other_game: Option<GameId>,
    /// Once both are over: the discs of this game's black player over both
    /// games, and of its white player (who played the other colours there).
    pub sums: Option<[u32; 2]>,
}

/// A line of a games list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    pub id: GameId,
    pub mode: TableMode,
    pub black: PlayerView,
    pub white: PlayerView,
    pub winner: Option<Side>,
    pub reason: EndReason,
    pub black_discs: u8,
    pub white_discs: u8,
    pub ended_at: i64,
    pub moves: u32,
    /// The sides the viewer played.
    pub you: Vec<Side>,
}

/// Which of a player's games a list shows: a mode (`online`, `vs_ai`,
/// `hot_seat`) and a result for the player (`won`, `lost`, `drawn`); none:
/// all of them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameFilter {
    pub mode: Option<String>,
    pub result: Option<String>,
}

impl GameFilter {
    pub const RESULTS: [&'static str; 3] = ["won", "lost", "drawn"];

    /// A filter from a page's query (`all` and empty: no filter).
    pub fn from_query(mode: Option<String>, result: Option<String>) -> GameFilter {
        let keep = |v: Option<String>| v.filter(|v| !v.is_empty() && v != "all");
        GameFilter {
            mode: keep(mode),
            result: keep(result),
        }
    }
}

/// A player's public page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProfileView {
    pub name: String,
    /// When the account was made (ms since the epoch).
    pub member_since: i64,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// Their games, newest first (a page; `you` is the player's sides).
    pub games: Vec<GameSummary>,
    /// Their ratings, one per pool they played rated games in.
    #[serde(default)]
    pub ratings: Vec<crate::ratings::PoolRating>,
    /// A bot account: a program plays it (docs/PRODUCT.md, Bots).
    #[serde(default)]
    pub bot: bool,
    /// The tournaments they finished, latest first (a private one only
    /// when the viewer played in it too).
    #[serde(default)]
    pub tournaments: Vec<crate::tournaments::TournamentResult>,
}

/// Server-side glue: the trait the server implements.
#[cfg(feature = "ssr")]
pub mod backend {
    use super::{GameId, GameSummary, GameView};
    use crate::api::CommandError;
    use crate::protocol::Session;
    use std::sync::Arc;

    #[async_trait::async_trait]

    pub trait ArchiveBackend: Send + Sync + 'static {
        /// `viewer`: who asks (a private tournament is listed only to
        /// those who played in it).
        async fn profile(
            &self,
            viewer: &Session,
            name: &str,
            before: Option<i64>,
            filter: super::GameFilter,
        ) -> Result<super::ProfileView, CommandError>;
        async fn game(&self, session: &Session, id: &GameId) -> Result<GameView, CommandError>;
        async fn games_of(
            &self,
            session: &Session,
            before: Option<i64>,
        ) -> Result<Vec<GameSummary>, CommandError>;
    }

    /// The archive backend, provided to server functions as context.
    #[derive(Clone)]
    pub struct ArchiveBackendHandle(pub Arc<dyn ArchiveBackend>);

    pub fn context() -> Result<Arc<dyn ArchiveBackend>, CommandError> {
        leptos::prelude::use_context::<ArchiveBackendHandle>()
            .map(|h| h.0)
            .ok_or_else(|| CommandError::unavailable(crate::msg!("srv-not-ready")))
    }
}

/// An archived game by id.
#[server(endpoint = "get_game", input = Json)]
pub async fn get_game(id: GameId) -> Result<GameView, CommandError> {
    let archive = backend::context()?;
    let (_, session) = crate::api::backend::context()?;
    archive.game(&session, &id).await
}

/// The caller's finished games, newest first (a page of them; `before`:
/// the `ended_at` of the last one already shown).
#[server(endpoint = "my_games", input = Json)]
pub async fn my_games(before: Option<i64>) -> Result<Vec<GameSummary>, CommandError> {
    let archive = backend::context()?;
    let (_, session) = crate::api::backend::context()?;
    archive.games_of(&session, before).await
}

/// A player's profile by name (any case), with a page of their games.
#[server(endpoint = "get_profile", input = Json)]
pub async fn get_profile(
    name: String,
    before: Option<i64>,
    filter: Option<GameFilter>,
) -> Result<ProfileView, CommandError> {
    let archive = backend::context()?;
    let caller = crate::api::backend::caller()?;
    archive
        .profile(&caller.session, &name, before, filter.unwrap_or_default())
        .await
}
