//! Bot accounts (docs/PRODUCT.md, Bots; docs/PROTOCOL.md, Bot API;
//! docs/SECURITY.md, Bot tokens).
//!
//! An account that has not played becomes a bot, irreversibly
//! (`Store::make_bot`: one conditional write). A bot gets API tokens:
//! 256 random bits, shown once, stored as their SHA-256, revocable, each
//! rate-limited on its own. A request of the Bot API (`api`, `stream`)
//! names its bot by `Authorization: Bearer <token>`; the bot then acts as
//! its account's identity (`account:<id>`) through the same services a
//! person's commands go through (the hub's command path, the challenges).
//! The pages' game commands refuse a bot (`web::PeopleOnly`): a bot plays
//! through the API alone, and a person's browser never holds a bot's seat.

pub mod api;
pub mod house;
mod seek;
mod stream;
pub mod web;

use crate::challenges::Challenges;
use crate::hub::Hub;
use crate::store::bots::Upgrade;
use crate::store::{Store, StoreError};
use app::api::backend::Caller;
use app::api::CommandError;
use app::bots::{BotCardView, BotToken, NewBotToken, LABEL_MAX};
use app::protocol::{AccountId, Session};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What every token starts with (so a leaked one is recognisable).
pub const TOKEN_PREFIX: &str = "oth_";
/// Live tokens one bot may hold at once.
pub const TOKENS_PER_BOT: usize = 10;
/// Requests a second one token may make, and at once.
pub const TOKEN_RATE_PER_SEC: u32 = 10;
pub const TOKEN_BURST: u32 = 60;
/// How long an account found not to be a bot is trusted from memory (a bot
/// stays one: that answer is kept).
const PERSON_CACHE: Duration = Duration::from_secs(5);
/// A bot counts as online while one of its tokens was used this recently
/// (an open event stream uses its token every [`TOUCH_EVERY_MS`]).
pub const ONLINE_WITHIN_MS: i64 = 3 * 60_000;
/// The most bots `/bots` lists.
const BOTS_LISTED: i64 = 50;
/// The latest games `/bots` shows of each bot.
const RECENT_GAMES: i64 = 3;
/// How often a token's `last_used` is written at most.
const TOUCH_EVERY_MS: i64 = 60_000;

/// The bot a request's token names.
#[derive(Clone, Debug)]
pub struct BotCaller {
    pub account: AccountId,
    pub name: String,
    /// The SHA-256 of the request's token (a stream checks it again).
    pub token_hash: String,
    /// The caller the services see: the account's identity and the
    /// request's address.
    pub caller: Caller,
}

impl BotCaller {
    pub fn session(&self) -> &Session {
        &self.caller.session
    }
}

/// The bot service, shared by every request.
#[derive(Clone)]
pub struct Bots {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    hub: Hub,
    challenges: Challenges,
    /// Requests per token (its public id).
    limiter: DefaultKeyedRateLimiter<String>,
    /// account → (is a bot, when read).
    flags: Mutex<HashMap<AccountId, (bool, Instant)>>,
}

fn unavailable(error: StoreError) -> CommandError {
    tracing::error!("bot store: {error}");
    CommandError::unavailable(app::msg!("srv-bots-unavailable"))
}

/// The SHA-256 (hex) a token is stored and looked up by.
pub fn token_hash(token: &str) -> String {
    crate::hex::hex(&Sha256::digest(token.as_bytes()))
}

/// Whether `token` has the form the server hands out (prefix, 64 hex
/// digits): anything else is refused before any query.
pub fn well_formed(token: &str) -> bool {
    token.strip_prefix(TOKEN_PREFIX).is_some_and(|hex| {
        hex.len() == 64
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// A new token (256 random bits) and its public id.
pub(crate) fn new_token() -> (String, String) {
    let token = format!(
        "{TOKEN_PREFIX}{}",
        crate::hex::hex(&rand::random::<[u8; 32]>())
    );
    (crate::hex::hex(&rand::random::<[u8; 8]>()), token)
}

fn signed_in(caller: &Caller) -> Result<AccountId, CommandError> {
    crate::identity::account_of(&caller.session)
        .ok_or_else(|| CommandError::refused(app::msg!("srv-bot-sign-in")))
}

/// A label as stored: trimmed, 1 to [`LABEL_MAX`] characters, no control
/// characters.
fn label_of(label: &str) -> Result<String, CommandError> {
    let label = label.trim();
    let count = label.chars().count();
    if count == 0 || count > LABEL_MAX || label.chars().any(char::is_control) {
        return Err(CommandError::refused(app::msg!(
            "srv-bot-label",
            limit = LABEL_MAX
        )));
    }
    Ok(label.to_string())
}

impl Bots {
    pub fn new(store: Store, hub: Hub, challenges: Challenges) -> Bots {
        let rate = NonZeroU32::new(TOKEN_RATE_PER_SEC).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(TOKEN_BURST).unwrap_or(rate);
        Bots {
            inner: Arc::new(Inner {
                store,
                hub,
                challenges,
                limiter: RateLimiter::keyed(Quota::per_second(rate).allow_burst(burst)),
                flags: Mutex::new(HashMap::new()),
            }),
        }
    }

    pub(crate) fn hub(&self) -> &Hub {
        &self.inner.hub
    }

    pub(crate) fn store(&self) -> &Store {
        &self.inner.store
    }

    pub(crate) fn challenges(&self) -> &Challenges {
        &self.inner.challenges
    }

    /// Forgets idle keys of the per-token limiter.
    pub fn forget_idle(&self) {
        self.inner.limiter.retain_recent();
        self.inner.limiter.shrink_to_fit();
    }

    /// Whether an account is a bot (from memory when fresh).
    pub async fn is_bot(&self, account: AccountId) -> Result<bool, CommandError> {
        let cached = self.inner.flags.lock().ok().and_then(|flags| {
            flags
                .get(&account)
                .filter(|(bot, at)| *bot || at.elapsed() < PERSON_CACHE)
                .map(|(bot, _)| *bot)
        });
        if let Some(bot) = cached {
            return Ok(bot);
        }
        let bot = self
            .inner
            .store
            .is_bot(account)
            .await
            .map_err(unavailable)?;
        self.remember(account, bot);
        Ok(bot)
    }

    fn remember(&self, account: AccountId, bot: bool) {
        if let Ok(mut flags) = self.inner.flags.lock() {
            if flags.len() >= 50_000 {
                flags.retain(|_, (bot, at)| *bot || at.elapsed() < PERSON_CACHE);
            }
            flags.insert(account, (bot, Instant::now()));
        }
    }

    /// The one check of the people's game commands: a bot's identity is
    /// refused (403) — it plays through the Bot API only.
    pub async fn people_only(&self, session: &Session) -> Result<(), CommandError> {
        match crate::identity::account_of(session) {
            Some(account) if self.is_bot(account).await? => {
                Err(CommandError::forbidden(app::msg!("srv-bot-web")))
            }
            _ => Ok(()),
        }
    }

    /// The bot a bearer token names, with its address; refused 401 (by the
    /// API's answer) for a missing, malformed, unknown or revoked token, 429
    /// past the token's rate.
    pub async fn authenticate(
        &self,
        token: Option<&str>,
        address: Option<std::net::IpAddr>,
    ) -> Result<BotCaller, api::ApiError> {
        let token = token
            .filter(|t| well_formed(t))
            .ok_or_else(api::ApiError::unauthorized)?;
        let hash = token_hash(token);
        let owner = self
            .inner
            .store
            .bot_of_token(&hash)
            .await
            .map_err(|e| api::ApiError::from(unavailable(e)))?
            .ok_or_else(api::ApiError::unauthorized)?;
        if self.inner.limiter.check_key(&owner.token).is_err() {
            return Err(CommandError::limited(app::msg!(
                "srv-bot-rate",
                limit = TOKEN_RATE_PER_SEC
            ))
            .into());
        }
        self.still_used(&owner).await;
        Ok(BotCaller {
            account: owner.account,
            name: owner.name,
            token_hash: hash,
            caller: Caller {
                session: crate::identity::identity_of(owner.account),
                address,
                browser: None,
                device: None,
            },
        })
    }

    /// `/bots`: every bot (at most [`BOTS_LISTED`]), online ones first, then
    /// by name, each with its ratings and latest games.
    pub async fn listing(&self) -> Result<app::bots::BotsView, CommandError> {
        let store = &self.inner.store;
        let now = self.inner.hub.now();
        let archive = crate::archive::Archive {
            store: store.clone(),
        };
        let rows = store.bot_accounts(BOTS_LISTED).await.map_err(unavailable)?;
        let mut bots = Vec::with_capacity(rows.len());
        for row in rows {
            bots.push(app::bots::BotLine {
                online: row.seen.is_some_and(|at| now - at < ONLINE_WITHIN_MS),
                ratings: crate::ratings::pools(store, row.account).await?,
                recent: archive.recent_of(row.account, RECENT_GAMES).await?,
                name: row.name,
            });
        }
        // Stable: the store's name order within each group.
        bots.sort_by_key(|bot| !bot.online);
        Ok(app::bots::BotsView { bots })
    }

    /// The bot a person waiting in quick match is offered (docs/PRODUCT.md,
    /// Bots): the online bot whose rating in the control's pool is nearest
    /// the person's (an unrated one counts from the starting rating), never
    /// the person's own account, and for a rated wait never a bot linked to
    /// them (the rating gate's rule: they could not meet rated). `None` when
    /// no bot fits.
    pub async fn offer_for(
        &self,
        account: AccountId,
        speed: app::protocol::Speed,
        rated: bool,
    ) -> Result<Option<(String, i32)>, CommandError> {
        let store = &self.inner.store;
        let now = self.inner.hub.now();
        let rating_of = |account| async move {
            store
                .rating_of(account, speed)
                .await
                .map(|row| row.map_or(crate::glicko::START_RATING, |r| r.rating))
                .map_err(unavailable)
        };
        let mut bots = Vec::new();
        for row in store.bot_accounts(BOTS_LISTED).await.map_err(unavailable)? {
            let online = row.seen.is_some_and(|at| now - at < ONLINE_WITHIN_MS);
            if !online || row.account == account {
                continue;
            }
            if rated
                && !crate::rating_gate::may_meet_rated(
                    self.inner.hub.linked(account, row.account).await,
                    false,
                )
            {
                continue;
            }
            bots.push((row.name, rating_of(row.account).await?));
        }
        let mine = rating_of(account).await?;
        Ok(nearest(mine, bots).map(|(name, rating)| (name, rating.round() as i32)))
    }

    /// Notes that a stream's token is still in use (at most once a
    /// [`TOUCH_EVERY_MS`]), which is what keeps its bot online on `/bots`.
    pub(crate) async fn still_used(&self, owner: &crate::store::bots::TokenOwner) {
        let now = self.inner.hub.now();
        if owner.last_used.is_none_or(|at| now - at >= TOUCH_EVERY_MS) {
            if let Err(error) = self.inner.store.touch_bot_token(&owner.token, now).await {
                tracing::warn!("bot token {}: last use not written: {error}", owner.token);
            }
        }
    }

    /// The account page's card.
    pub async fn status(&self, caller: &Caller) -> Result<BotCardView, CommandError> {
        let Some(account) = crate::identity::account_of(&caller.session) else {
            return Ok(BotCardView::default());
        };
        let bot = self.is_bot(account).await?;
        let tokens = if bot {
            self.inner
                .store
                .bot_tokens(account)
                .await
                .map_err(unavailable)?
                .into_iter()
                .map(|row| BotToken {
                    id: row.id,
                    label: row.label,
                    created_at: row.created_at,
                    last_used: row.last_used,
                    revoked_at: row.revoked_at,
                })
                .collect()
        } else {
            Vec::new()
        };
        Ok(BotCardView {
            signed_in: true,
            bot,
            tokens,
        })
    }

    /// Turns the caller's account into a bot: 422 once it has played (or
    /// holds a seat), 409 when it is one already.
    pub async fn become_bot(&self, caller: &Caller) -> Result<BotCardView, CommandError> {
        let account = signed_in(caller)?;
        match self
            .inner
            .store
            .make_bot(account)
            .await
            .map_err(unavailable)?
        {
            Upgrade::Done => {
                self.remember(account, true);
                tracing::info!(%account, "account became a bot");
                self.status(caller).await
            }
            Upgrade::Already => Err(CommandError::conflict(app::msg!("srv-bot-already"))),
            Upgrade::Played => Err(CommandError::refused(app::msg!("srv-bot-played"))),
            Upgrade::Missing => Err(CommandError::refused(app::msg!("srv-bot-sign-in"))),
        }
    }

    /// A new token for the caller's bot, shown this once.
    pub async fn create_token(
        &self,
        caller: &Caller,
        label: &str,
    ) -> Result<NewBotToken, CommandError> {
        let account = signed_in(caller)?;
        if !self.is_bot(account).await? {
            return Err(CommandError::refused(app::msg!("srv-bot-not-bot")));
        }
        let label = label_of(label)?;
        let live = self
            .inner
            .store
            .bot_tokens(account)
            .await
            .map_err(unavailable)?
            .iter()
            .filter(|t| t.revoked_at.is_none())
            .count();
        if live >= TOKENS_PER_BOT {
            return Err(CommandError::limited(app::msg!(
                "srv-bot-token-cap",
                limit = TOKENS_PER_BOT
            )));
        }
        let (id, token) = new_token();
        self.inner
            .store
            .create_bot_token(
                &id,
                &token_hash(&token),
                account,
                &label,
                self.inner.hub.now(),
            )
            .await
            .map_err(unavailable)?;
        tracing::info!(%account, token = %id, "bot token made");
        Ok(NewBotToken { id, token })
    }

    /// Revokes one of the caller's tokens: 404 when it has no live one by
    /// that id.
    pub async fn revoke_token(&self, caller: &Caller, id: &str) -> Result<(), CommandError> {
        let account = signed_in(caller)?;
        if id.len() > 64
            || !self
                .inner
                .store
                .revoke_bot_token(account, id, self.inner.hub.now())
                .await
                .map_err(unavailable)?
        {
            return Err(CommandError::not_found(app::msg!("srv-bot-no-token")));
        }
        tracing::info!(%account, token = %id, "bot token revoked");
        Ok(())
    }
}

/// The bot whose rating is nearest `rating` (the first listed on a tie).
fn nearest(rating: f64, bots: Vec<(String, f64)>) -> Option<(String, f64)> {
    bots.into_iter().fold(None, |best, bot| match best {
        Some(best) if (best.1 - rating).abs() <= (bot.1 - rating).abs() => Some(best),
        _ => Some(bot),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_offer_is_the_nearest_rated_bot_first_listed_on_a_tie() {
        let bots = |list: &[(&str, f64)]| {
            list.iter()
                .map(|(n, r)| (n.to_string(), *r))
                .collect::<Vec<_>>()
        };
        assert_eq!(super::nearest(1500.0, bots(&[])), None);
        let four = bots(&[
            ("Pebble", 1200.0),
            ("Ripple", 1450.0),
            ("Tide", 1550.0),
            ("Storm", 1900.0),
        ]);
        assert_eq!(super::nearest(1500.0, four.clone()).unwrap().0, "Ripple");
        assert_eq!(super::nearest(1530.0, four.clone()).unwrap().0, "Tide");
        assert_eq!(super::nearest(800.0, four.clone()).unwrap().0, "Pebble");
        assert_eq!(super::nearest(2400.0, four).unwrap().0, "Storm");
    }

    use super::*;

    #[test]
    fn only_tokens_of_the_handed_out_form_are_looked_up() {
        let token = format!("{TOKEN_PREFIX}{}", "ab".repeat(32));
        assert!(well_formed(&token));
        for bad in [
            String::new(),
            "ab".repeat(32),
            format!("{TOKEN_PREFIX}{}", "AB".repeat(32)),
            format!("{TOKEN_PREFIX}{}", "ab".repeat(31)),
            format!("{TOKEN_PREFIX}{}g", "ab".repeat(31)),
        ] {
            assert!(!well_formed(&bad), "{bad:?}");
        }
        assert_eq!(token_hash(&token).len(), 64);
        assert_ne!(token_hash(&token), token_hash(&format!("{token}x")));
    }

    #[test]
    fn labels_are_trimmed_and_bounded() {
        assert_eq!(label_of("  edax 4.4 ").expect("label"), "edax 4.4");
        assert!(label_of("   ").is_err());
        assert!(label_of(&"x".repeat(LABEL_MAX + 1)).is_err());
        assert!(label_of("a\nb").is_err());
        assert!(label_of(&"λ".repeat(LABEL_MAX)).is_ok());
    }
}
