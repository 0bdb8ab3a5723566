//! Accounts: sign up, sign in, sign out (here or everywhere), and who a
//! browser is.
//!
//! A browser is known by the SHA-256 of its cookie token. An anonymous
//! browser's identity — what seats, tables and lab games are held by — is
//! that hash, as before accounts existed. A browser signed in to account N
//! has the identity `account:N` ([`identity_of`]), the same in every browser
//! of that account, so a game started in one continues in another.
//!
//! Signing in (or up) hands out a new token (no session fixation) and gives
//! the account everything the browser held anonymously: a game in progress
//! goes on with the same seat. Passwords are hashed with Argon2id (OWASP's
//! parameters: 19 MiB, 2 passes, 1 lane) on at most [`HASHING_AT_ONCE`]
//! blocking threads; a flood beyond [`HASHING_QUEUE`] waiting is answered
//! "busy" (429) at once, so sign-ins can neither exhaust memory nor starve moves.
//! An unknown name costs the same hash as a wrong password and gets the
//! same answer. Repeated failures, per name and per address, wait longer
//! and longer ([`Throttle`]). No password reaches a log, a metric or an
//! error.

use crate::clock::Clock;
use crate::hub::Hub;
use crate::store::Store;
use app::api::backend::Caller;
use app::api::CommandError;
use app::protocol::{AccountId, AccountView, Session};
use argon2::Params;
use std::collections::HashMap;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

pub mod forms;
mod hashing;
mod pages;
mod report;
mod rules;

pub use pages::AccountPages;
use rules::FREE_FAILURES_PER_ADDRESS;
pub use rules::{
    check_name, check_password, fold, is_reserved, tombstone_hash, tombstone_hashes, Throttle,
};

/// Password hashes computed at once (each takes 19 MiB and a core).
pub const HASHING_AT_ONCE: usize = 2;
/// Sign-ins that may wait for a hashing thread before "busy" is answered.
pub const HASHING_QUEUE: usize = 32;
/// How long a browser's account is trusted from memory before the store is
/// asked again (a sign-out on another instance takes effect within it).
const IDENTITY_CACHE_MS: i64 = 5_000;
/// How long a browser found signed in to no account is trusted from memory.
/// A token never becomes signed in (signing in issues a new token, which
/// [`Accounts::start`] remembers), so this only bounds memory; a short limit
/// made every anonymous player's requests read the store every 5 s (800
/// reads a second for the load benchmark's 4,000 players, issue 32's p99).
const ANONYMOUS_CACHE_MS: i64 = 600_000;

/// How long a remembered lookup (`account`, `None` for anonymous) stays good.
fn cache_life(account: &Option<(AccountId, String)>) -> i64 {
    if account.is_some() {
        IDENTITY_CACHE_MS
    } else {
        ANONYMOUS_CACHE_MS
    }
}
const IDENTITY_CACHE_MAX: usize = 50_000;
/// New accounts one address may create per hour.
const SIGN_UPS_PER_HOUR: u32 = 5;
/// A browser that signed in to an account within this many days is trusted
/// by that account's sign-in throttle.
const TRUSTED_DEVICE_DAYS: i64 = crate::fair_play::LINK_DAYS;

fn now_minus_days(now: i64, days: i64) -> i64 {
    now.saturating_sub(days.saturating_mul(86_400_000))
}

pub use crate::identity::{account_in, account_of, identity_of};

/// What a successful sign-in, sign-up or sign-out hands the browser: its new
/// token (for the cookie) and who it now is.
#[derive(Clone, Debug)]
pub struct Signed {
    pub token: String,
    pub account: Option<AccountView>,
}

/// A browser's account (id and name; none: anonymous) and when it was read.
type Cached = (Option<(AccountId, String)>, i64);

/// The account service, shared by every request.
#[derive(Clone)]
pub struct Accounts {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    hub: Hub,
    clock: Arc<dyn Clock>,
    hashing: Semaphore,
    waiting: AtomicUsize,
    params: Params,
    /// A hash of a random password, checked for unknown names so they cost
    /// what a wrong password costs.
    decoy: String,
    /// Failed sign-ins per name.
    throttle: Throttle,
    /// Failed sign-ins per address.
    address_throttle: Throttle,
    sign_ups: Throttle,
    /// token hash → (account id and name, when read from the store).
    cache: Mutex<HashMap<String, Cached>>,
    /// Where accounts are seen (set once at start).
    fair_play: std::sync::OnceLock<crate::fair_play::FairPlay>,
    /// Held while a report's cap is checked and the report written, so
    /// simultaneous reports cannot all pass the check (reports are rare).
    reporting: tokio::sync::Mutex<()>,
}

impl Accounts {
    /// The service with OWASP's Argon2id parameters.
    pub fn new(store: Store, hub: Hub, clock: Arc<dyn Clock>) -> Accounts {
        let params = Params::new(19 * 1024, 2, 1, None).unwrap_or_default();
        let decoy = hashing::hash_with(&params, &crate::session::new_token()).unwrap_or_default();
        Accounts {
            inner: Arc::new(Inner {
                store,
                hub,
                clock,
                hashing: Semaphore::new(HASHING_AT_ONCE),
                waiting: AtomicUsize::new(0),
                params,
                decoy,
                throttle: Throttle::default(),
                address_throttle: Throttle::allowing(FREE_FAILURES_PER_ADDRESS),
                sign_ups: Throttle::default(),
                cache: Mutex::new(HashMap::new()),
                fair_play: std::sync::OnceLock::new(),
                reporting: tokio::sync::Mutex::new(()),
            }),
        }
    }

    pub(super) fn now(&self) -> i64 {
        self.inner.clock.now_ms()
    }

    /// Hands the service fair play (once, at start): sign-in notes where an
    /// account is seen and trusts the browsers it was seen in.
    pub fn use_fair_play(&self, fair_play: crate::fair_play::FairPlay) {
        let _ = self.inner.fair_play.set(fair_play);
    }

    /// Who the browser with token hash `token` is: its account's identity
    /// and name when signed in, else the hash itself. A store failure reads
    /// as anonymous (the browser can do less, never more).
    pub async fn identity(&self, token: &str) -> (Session, Option<AccountView>) {
        let now = self.now();
        let cached = self.inner.cache.lock().ok().and_then(|cache| {
            cache
                .get(token)
                .filter(|(account, at)| now - at < cache_life(account))
                .map(|(account, _)| account.clone())
        });
        let account = match cached {
            Some(account) => account,
            None => {
                let account = self
                    .inner
                    .store
                    .account_of_token(token)
                    .await
                    .ok()
                    .flatten();
                if account.is_some() {
                    let _ = self.inner.store.touch_account_session(token, now).await;
                }
                self.remember(token, account.clone(), now);
                account
            }
        };
        match account {
            Some((id, name)) => (identity_of(id), Some(AccountView { name })),
            None => (Session::new(token.to_string()), None),
        }
    }

    fn remember(&self, token: &str, account: Option<(AccountId, String)>, now: i64) {
        if let Ok(mut cache) = self.inner.cache.lock() {
            if cache.len() >= IDENTITY_CACHE_MAX {
                cache.retain(|_, (account, at)| now - *at < cache_life(account));
            }
            if cache.len() >= IDENTITY_CACHE_MAX {
                cache.clear();
            }
            cache.insert(token.to_string(), (account, now));
        }
    }

    /// The account an identity is signed in to, with its name.
    pub async fn view(&self, session: &Session) -> Result<Option<AccountView>, CommandError> {
        let Some(id) = account_of(session) else {
            return Ok(None);
        };
        let name = self
            .inner
            .store
            .account_name(id)
            .await
            .map_err(CommandError::from)?;
        Ok(name.map(|name| AccountView { name }))
    }

    /// Creates an account and signs the browser in to it. The cheap checks
    /// first (name, length, the per-address cap), then the password's
    /// strength off the async runtime behind the hashing permit, then the
    /// hash.
    pub async fn sign_up(
        &self,
        caller: &Caller,
        name: &str,
        password: &str,
    ) -> Result<Signed, CommandError> {
        check_name(name)?;
        if password.chars().count() < 10 || password.len() > rules::MAX_PASSWORD_BYTES {
            // The length rules, before any work.
            check_password(password, name)?;
        }
        // One fold decides: a deleted name's look-alikes stay taken (its
        // tombstone), and a live name's are refused by the store's unique
        // folded name.
        let taken = || CommandError::refused(app::msg!("srv-name-taken"));
        if self
            .inner
            .store
            .any_name_tombstoned(&tombstone_hashes(name))
            .await
            .map_err(store_failed)?
        {
            return Err(taken());
        }
        let now = self.now();
        if let Some(address) = caller.address {
            if !self
                .inner
                .sign_ups
                .count_within_hour(&address.to_string(), now, SIGN_UPS_PER_HOUR)
            {
                return Err(CommandError::limited(app::msg!("srv-sign-ups")));
            }
        }
        self.check_strength(password, name).await?;
        let hash = self.hash(password).await?;
        let id = self
            .inner
            .store
            .create_account(name, &name.to_ascii_lowercase(), &fold(name), &hash, now)
            .await
            .map_err(store_failed)?
            .ok_or_else(taken)?;
        tracing::info!(account = %id, "account created");
        self.start(caller, id, name.to_string()).await
    }

    /// Signs the browser in. An unknown name and a wrong password get the
    /// same answer after the same work.
    ///
    /// Attempts are counted before the hash, atomically ([`Throttle::attempt`]):
    /// a burst for one name gets the free verifications and the rest wait.
    /// A browser that signed in to this account before (its device cookie
    /// is linked to it) is counted on its own, never on the name's count,
    /// so a stranger's failures cannot lock the owner out (OWASP's device
    /// cookies). The per-address count applies to everyone.
    pub async fn sign_in(
        &self,
        caller: &Caller,
        name: &str,
        password: &str,
    ) -> Result<Signed, CommandError> {
        if name.len() > 64 || password.len() > 256 {
            return Err(CommandError::refused(app::msg!("srv-sign-in-wrong")));
        }
        let stored = self
            .inner
            .store
            .account_by_key(&name.to_ascii_lowercase())
            .await
            .map_err(store_failed)?;
        let key = match &stored {
            Some(account) if self.trusted_device(caller, account.id).await => {
                format!(
                    "device:{}:{}",
                    caller.device.as_deref().unwrap_or(""),
                    account.id
                )
            }
            _ => format!("name:{}", name.to_ascii_lowercase()),
        };
        let now = self.now();
        let waited = |wait: i64| {
            CommandError::limited(app::msg!("srv-sign-in-wait", seconds = (wait + 999) / 1000))
        };
        let address = caller.address.map(|a| format!("ip:{a}"));
        if let Some(address) = &address {
            self.inner
                .address_throttle
                .attempt(address, now)
                .map_err(waited)?;
        }
        self.inner.throttle.attempt(&key, now).map_err(waited)?;
        let phc = stored
            .as_ref()
            .map_or(self.inner.decoy.clone(), |a| a.password_hash.clone());
        let matches = self.verify(password, phc).await?;
        match stored {
            Some(account) if matches => {
                self.inner.throttle.clear(&key);
                if let Some(address) = &address {
                    // The address counts failures only: many players may
                    // sign in from one school or one mobile network.
                    self.inner.address_throttle.succeeded(address);
                }
                self.start(caller, account.id, account.name).await
            }
            _ => Err(CommandError::refused(app::msg!("srv-sign-in-wrong"))),
        }
    }

    /// Whether the caller's browser signed in to `account` before (its
    /// device cookie is among the account's links).
    async fn trusted_device(&self, caller: &Caller, account: AccountId) -> bool {
        let Some(fair_play) = self.inner.fair_play.get() else {
            return false;
        };
        let Some(device) = fair_play.device_link(caller) else {
            return false;
        };
        let since = now_minus_days(self.now(), TRUSTED_DEVICE_DAYS);
        self.inner
            .store
            .links_of(account, since)
            .await
            .is_ok_and(|links| links.contains(&device))
    }

    /// A new token signed in to `account`; what the browser held
    /// anonymously moves to the account.
    async fn start(
        &self,
        caller: &Caller,
        account: AccountId,
        name: String,
    ) -> Result<Signed, CommandError> {
        let token = crate::session::new_token();
        let hash = crate::session::session_of(&token).into_string();
        let now = self.now();
        self.inner
            .store
            .add_account_session(&hash, account, now)
            .await
            .map_err(store_failed)?;
        // Switching accounts (or signing in again) ends the browser's
        // previous sign-in: its old token opens nothing any more.
        if let Some(previous) = caller.browser.as_deref().filter(|b| *b != hash) {
            if let Err(error) = self.inner.store.remove_account_session(previous).await {
                tracing::warn!("cannot end a replaced sign-in: {error}");
            }
            self.forget(|t, _| t == previous);
        }
        let to = identity_of(account);
        if let Some(fair_play) = self.inner.fair_play.get() {
            let seen = Caller {
                session: to.clone(),
                ..caller.clone()
            };
            fair_play.note(&seen).await;
        }
        if account_of(&caller.session).is_none() && caller.session != to {
            self.inner
                .hub
                .transfer_identity(&caller.session, &to)
                .await?;
            // The puzzles tried signed out come along, unrated (no
            // anonymous rating is carried: only accounts are rated).
            if let Err(error) = self
                .inner
                .store
                .carry_puzzle_solver(caller.session.as_str(), to.as_str())
                .await
            {
                tracing::warn!("cannot carry a puzzle rating to an account: {error}");
            }
        }
        self.remember(&hash, Some((account, name.clone())), now);
        Ok(Signed {
            token,
            account: Some(AccountView { name }),
        })
    }

    /// Signs this browser (token hash `token`) out: it becomes a new
    /// anonymous visitor.
    pub async fn sign_out(&self, token: &str) -> Result<Signed, CommandError> {
        self.inner
            .store
            .remove_account_session(token)
            .await
            .map_err(store_failed)?;
        self.forget(|t, _| t == token);
        Ok(Signed {
            token: crate::session::new_token(),
            account: None,
        })
    }

    /// Signs every browser of the caller's account out.
    pub async fn sign_out_everywhere(&self, session: &Session) -> Result<Signed, CommandError> {
        let Some(account) = account_of(session) else {
            return Err(CommandError::refused(app::msg!("srv-not-signed-in")));
        };
        let count = self
            .inner
            .store
            .remove_account_sessions(account)
            .await
            .map_err(store_failed)?;
        self.forget(|_, a| a == Some(account));
        tracing::info!(%account, count, "signed out everywhere");
        Ok(Signed {
            token: crate::session::new_token(),
            account: None,
        })
    }

    /// The signed-in caller's stored account, after checking `password`
    /// against it (throttled as sign-ins for that name are).
    async fn confirmed(
        &self,
        session: &Session,
        browser: Option<&str>,
        password: &str,
    ) -> Result<crate::store::accounts::StoredAccount, CommandError> {
        let not_signed_in = || CommandError::refused(app::msg!("srv-not-signed-in"));
        let account = account_of(session).ok_or_else(not_signed_in)?;
        let stored = self
            .inner
            .store
            .account_by_id(account)
            .await
            .map_err(store_failed)?
            .ok_or_else(not_signed_in)?;
        // Counted per signed-in browser, never per name: a stranger's
        // failed sign-ins do not stop the owner changing or deleting.
        let key = format!(
            "confirm:{}:{}",
            stored.id,
            browser.unwrap_or(session.as_str())
        );
        self.inner
            .throttle
            .attempt(&key, self.now())
            .map_err(|wait| {
                CommandError::limited(app::msg!("srv-sign-in-wait", seconds = (wait + 999) / 1000))
            })?;
        let matches =
            password.len() <= 256 && self.verify(password, stored.password_hash.clone()).await?;
        if !matches {
            return Err(CommandError::refused(app::msg!("srv-not-current-password")));
        }
        self.inner.throttle.clear(&key);
        Ok(stored)
    }

    /// Changes the caller's password (the current one required): every
    /// other browser of the account is signed out; this one stays signed in
    /// with a new token.
    pub async fn change_password(
        &self,
        caller: &Caller,
        current: &str,
        new: &str,
    ) -> Result<Signed, CommandError> {
        let stored = self
            .confirmed(&caller.session, caller.browser.as_deref(), current)
            .await?;
        self.check_strength(new, &stored.name).await?;
        let hash = self.hash(new).await?;
        self.inner
            .store
            .set_password(stored.id, &hash)
            .await
            .map_err(store_failed)?;
        self.forget(|_, a| a == Some(stored.id));
        tracing::info!(account = %stored.id, "password changed");
        self.start(caller, stored.id, stored.name).await
    }

    /// Deletes the caller's account (its password required): every browser
    /// is signed out, its ratings go, its games stay for their opponents
    /// under "deleted player".
    pub async fn delete_account(
        &self,
        caller: &Caller,
        password: &str,
    ) -> Result<Signed, CommandError> {
        let stored = self
            .confirmed(&caller.session, caller.browser.as_deref(), password)
            .await?;
        // The account's live rounds end first (its resignation, or aborted
        // when a side never moved), so no opponent waits on a seat nobody
        // holds and no later write references the deleted account.
        let ended = self.inner.hub.end_rounds_of(&caller.session).await?;
        self.inner
            .store
            .delete_account(
                stored.id,
                &tombstone_hash(&stored.name),
                "deleted",
                self.now(),
            )
            .await
            .map_err(store_failed)?;
        self.forget(|_, a| a == Some(stored.id));
        if let Some(fair_play) = self.inner.fair_play.get() {
            fair_play.forget(stored.id);
        }
        tracing::info!(account = %stored.id, rounds_ended = ended, "account deleted");
        Ok(Signed {
            token: crate::session::new_token(),
            account: None,
        })
    }

    fn forget(&self, gone: impl Fn(&str, Option<AccountId>) -> bool) {
        if let Ok(mut cache) = self.inner.cache.lock() {
            cache.retain(|token, (account, _)| !gone(token, account.as_ref().map(|a| a.0)));
        }
    }

    /// Deletes sign-ins unused for `expiry_secs`.
    pub async fn expire(&self, expiry_secs: u64) -> Result<u64, crate::store::StoreError> {
        let span = i64::try_from(expiry_secs.saturating_mul(1000)).unwrap_or(i64::MAX);
        let before = self.now().saturating_sub(span);
        self.inner.store.expire_account_sessions(before).await
    }
}

pub(super) fn store_failed(error: crate::store::StoreError) -> CommandError {
    tracing::error!("account store: {error}");
    CommandError::unavailable(app::msg!("srv-save-failed"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_of_accounts_never_look_like_token_hashes() {
        let id = AccountId::new(42);
        assert_eq!(account_of(&identity_of(id)), Some(id));
        assert_eq!(account_of(&Session::new("ab".repeat(32))), None);
        assert_eq!(account_of(&Session::new("account:x")), None);
    }
}
