//! Bot accounts as the account page sees them (docs/PRODUCT.md, Bots): an
//! account that has not played becomes a bot, irreversibly; a bot gets API
//! tokens (shown once), lists them and revokes them. The bot itself plays
//! through the Bot API with a token (docs/PROTOCOL.md, Bot API), never
//! through the pages' game commands.

use crate::api::CommandError;
use serde::{Deserialize, Serialize};
use server_fn::codec::Json;

/// The longest label a token may carry (characters).
pub const LABEL_MAX: usize = 40;

/// One of a bot's tokens, as listed (never the token itself).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotToken {
    /// The token's public id (what revoking names).
    pub id: String,
    pub label: String,
    /// When it was made (ms since the epoch).
    pub created_at: i64,
    /// When it was last used (ms since the epoch), if ever.
    pub last_used: Option<i64>,
    /// When it was revoked, if it was.
    pub revoked_at: Option<i64>,
}

/// The account page's bot card: whether the account is a bot, and its tokens.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotCardView {
    /// Signed in (the card is shown only then).
    pub signed_in: bool,
    pub bot: bool,
    pub tokens: Vec<BotToken>,
}

/// A token just made: the token itself, shown this once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewBotToken {
    pub id: String,
    pub token: String,
}

/// One bot on `/bots`: whether it is online (its event stream used a token
/// within the last minutes), its ratings and its latest games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotLine {
    pub name: String,
    pub online: bool,
    pub ratings: Vec<crate::ratings::PoolRating>,
    pub recent: Vec<crate::archive::GameSummary>,
}

/// `/bots`: every bot account, online ones first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BotsView {
    pub bots: Vec<BotLine>,
}

impl BotsView {
    /// The bots' leaderboard of a pool: every bot rated in it, best first
    /// (name, rating, provisional, games).
    pub fn board(
        &self,
        speed: crate::protocol::Speed,
    ) -> Vec<(String, crate::ratings::ShownRating, u32)> {
        let mut lines: Vec<_> = self
            .bots
            .iter()
            .filter_map(|bot| {
                bot.ratings
                    .iter()
                    .find(|pool| pool.speed == speed)
                    .map(|pool| (bot.name.clone(), pool.rating, pool.games))
            })
            .collect();
        lines.sort_by(|a, b| b.1.rating.cmp(&a.1.rating).then_with(|| a.0.cmp(&b.0)));
        lines
    }
}

/// Server-side glue: the trait the server implements.
#[cfg(feature = "ssr")]
pub mod backend {
    use super::*;
    use crate::api::backend::Caller;
    use std::sync::Arc;

    #[async_trait::async_trait]
    pub trait BotBackend: Send + Sync {
        async fn bot_status(&self, caller: &Caller) -> Result<BotCardView, CommandError>;
        async fn become_bot(&self, caller: &Caller) -> Result<BotCardView, CommandError>;
        async fn create_bot_token(
            &self,
            caller: &Caller,
            label: String,
        ) -> Result<NewBotToken, CommandError>;
        async fn revoke_bot_token(&self, caller: &Caller, id: String) -> Result<(), CommandError>;
        async fn bots_page(&self) -> Result<BotsView, CommandError>;
    }

    /// The bot backend, provided to server functions as context.
    #[derive(Clone)]
    pub struct BotBackendHandle(pub Arc<dyn BotBackend>);

    pub fn context() -> Result<Arc<dyn BotBackend>, CommandError> {
        leptos::prelude::use_context::<BotBackendHandle>()
            .map(|handle| handle.0)
            .ok_or_else(|| CommandError::unavailable(crate::msg!("srv-not-ready")))
    }
}

/// Whether the caller's account is a bot, and its tokens.
#[leptos::server(endpoint = "bot_status", input = Json)]
pub async fn bot_status() -> Result<BotCardView, CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?.bot_status(&caller).await
}

/// Turns the caller's account into a bot (irreversible; only before it has
/// played any game).
#[leptos::server(endpoint = "become_bot", input = Json)]
pub async fn become_bot() -> Result<BotCardView, CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?.become_bot(&caller).await
}

/// Makes a new API token for the caller's bot: the token, shown once.
#[leptos::server(endpoint = "create_bot_token", input = Json)]
pub async fn create_bot_token(label: String) -> Result<NewBotToken, CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?.create_bot_token(&caller, label).await
}

/// Revokes one of the caller's bot tokens.
#[leptos::server(endpoint = "revoke_bot_token", input = Json)]
pub async fn revoke_bot_token(id: String) -> Result<(), CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?.revoke_bot_token(&caller, id).await
}

/// Every bot, online ones first, with its ratings and latest games.
#[leptos::server(endpoint = "bots_page", input = Json)]
pub async fn bots_page() -> Result<BotsView, CommandError> {
    backend::context()?.bots_page().await
}
