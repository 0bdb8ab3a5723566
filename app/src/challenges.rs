//! Challenges as the pages see them: a signed-in player challenges another
//! by name (a time control, a colour, rated or casual); the challenged
//! player sees it on any page they have open and accepts or declines; it
//! expires after [`EXPIRES_AFTER_MS`]. Accepted, it becomes an online table
//! with both players seated (rated only where fair play allows).

use crate::api::CommandError;
use crate::protocol::{TableId, TimeControl, TournamentId};
use serde::{Deserialize, Serialize};
use server_fn::codec::Json;

/// How long a challenge waits for an answer.
pub const EXPIRES_AFTER_MS: i64 = 5 * 60_000;

/// The colour the challenger asks to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Black,
    White,
    Random,
}

impl Colour {
    pub fn key(self) -> &'static str {
        match self {
            Colour::Black => "black",
            Colour::White => "white",
            Colour::Random => "random",
        }
    }

    pub fn parse(key: &str) -> Option<Colour> {
        [Colour::Black, Colour::White, Colour::Random]
            .into_iter()
            .find(|c| c.key() == key)
    }
}

/// Where a challenge is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeStatus {
    Open,
    Accepted,
    Declined,
    Cancelled,
    Expired,
}

/// A challenge, from the viewer's side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChallengeView {
    pub id: String,
    /// The other player's name.
    pub other: String,
    pub control: TimeControl,
    /// The challenger's colour.
    pub colour: Colour,
    /// Rated (fair play may have made it casual: `linked`).
    pub rated: bool,
    /// The two accounts are linked (an address or a browser): casual only.
    pub linked: bool,
    pub status: ChallengeStatus,
    /// The table, once accepted.
    pub table: Option<TableId>,
    /// When it expires (ms since the epoch).
    pub expires_at: i64,
    /// When it was answered (ms since the epoch, the server's clock).
    #[serde(default)]
    pub answered_at: Option<i64>,
    /// Starts from a random balanced position.
    #[serde(default)]
    pub random_start: bool,
    /// A synchro pair: two games at once, colours swapped.
    #[serde(default)]
    pub synchro: bool,
}

/// The caller's challenges: those sent to them and those they sent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ChallengeLists {
    pub incoming: Vec<ChallengeView>,
    pub outgoing: Vec<ChallengeView>,
    /// The server's time of this answer (ms since the epoch).
    #[serde(default)]
    pub now: i64,
    /// The caller is in a tournament not over (the notifier looks every
    /// second: a new pairing takes them to their table at once).
    #[serde(default)]
    pub in_tournament: bool,
    /// The caller's tournament game being played, once its table exists.
    #[serde(default)]
    pub tournament_game: Option<TournamentGame>,
}

/// A tournament game of the caller's, its table seated and not over.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentGame {
    pub table: TableId,
    pub tournament: TournamentId,
    pub round: u32,
    /// The opponent's name.
    pub opponent: String,
    /// "Round 2 of <the tournament>: your game against <opponent>", by key
    /// (the schedule's events named in the reader's language).
    pub notice: crate::i18n::Msg,
}

/// A challenge to send.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NewChallenge {
    /// The challenged player's name.
    pub name: String,
    pub control: TimeControl,
    pub colour: Colour,
    pub rated: bool,
    /// Start from a random balanced position (picked when accepted).
    #[serde(default)]
    pub random_start: bool,
    /// A synchro pair: two games at once from the same start, colours
    /// swapped, scored by the disc sum (`colour` is the first game's).
    #[serde(default)]
    pub synchro: bool,
}

/// Server-side glue: the trait the server implements.
#[cfg(feature = "ssr")]
pub mod backend {
    use super::*;
    use crate::api::backend::Caller;
    use std::sync::Arc;

    #[async_trait::async_trait]
    pub trait ChallengeBackend: Send + Sync {
        async fn challenge(
            &self,
            caller: &Caller,
            new: NewChallenge,
        ) -> Result<String, CommandError>;
        async fn my_challenges(&self, caller: &Caller) -> Result<ChallengeLists, CommandError>;
        async fn answer_challenge(
            &self,
            caller: &Caller,
            id: String,
            accept: bool,
        ) -> Result<Option<TableId>, CommandError>;
        async fn cancel_challenge(&self, caller: &Caller, id: String) -> Result<(), CommandError>;
        async fn synchro_partner(&self, table: TableId) -> Result<Option<TableId>, CommandError>;
    }

    /// The challenge backend, provided to server functions as context.
    #[derive(Clone)]
    pub struct ChallengeBackendHandle(pub Arc<dyn ChallengeBackend>);

    pub fn context() -> Result<Arc<dyn ChallengeBackend>, CommandError> {
        leptos::prelude::use_context::<ChallengeBackendHandle>()
            .map(|handle| handle.0)
            .ok_or_else(|| CommandError::unavailable(crate::msg!("srv-not-ready")))
    }
}

/// Challenges a player by name; the challenge's id.
#[leptos::server(endpoint = "challenge", input = Json)]
pub async fn challenge(new: NewChallenge) -> Result<String, CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?.challenge(&caller, new).await
}

/// The other table of the synchro pair `table` belongs to (None: not one
/// of a pair). Anyone may ask, as anyone may watch either game.
#[leptos::server(endpoint = "synchro_partner", input = Json)]
pub async fn synchro_partner(table: TableId) -> Result<Option<TableId>, CommandError> {
    backend::context()?.synchro_partner(table).await
}

/// The caller's open and recently answered challenges.
#[leptos::server(endpoint = "my_challenges", input = Json)]
pub async fn my_challenges() -> Result<ChallengeLists, CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?.my_challenges(&caller).await
}

/// Accepts (the new table's id) or declines a challenge sent to the caller.
#[leptos::server(endpoint = "answer_challenge", input = Json)]
pub async fn answer_challenge(id: String, accept: bool) -> Result<Option<TableId>, CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?
        .answer_challenge(&caller, id, accept)
        .await
}

/// Withdraws a challenge the caller sent.
#[leptos::server(endpoint = "cancel_challenge", input = Json)]
pub async fn cancel_challenge(id: String) -> Result<(), CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?.cancel_challenge(&caller, id).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_read_back_from_their_keys() {
        for c in [Colour::Black, Colour::White, Colour::Random] {
            assert_eq!(Colour::parse(c.key()), Some(c));
        }
        assert_eq!(Colour::parse("green"), None);
    }
}
