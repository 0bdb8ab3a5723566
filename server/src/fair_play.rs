//! Fair play: which accounts may change each other's ratings.
//!
//! Every signed-in request notes where its account was seen: a keyed hash of
//! the client's address (IPv4, or the IPv6 /64: the key the guard already
//! counts by, behind a proxy the configured client-IP header) and of the
//! browser's device cookie ([`app::protocol::DEVICE_COOKIE`]). The key is a
//! random secret made once in the database (`site_secrets`), so every
//! instance hashes alike and the database holds no address. Links are kept
//! [`LINK_DAYS`] days. Two accounts that share a link within that time are
//! *linked*: rated quick match never pairs them, and a rated round between
//! them changes no rating (decided inside the round's commit, see
//! `store/ratings.rs`), which the players card says before the first move.

use crate::clock::Clock;
use crate::store::{Store, StoreError};
use app::api::backend::Caller;
use app::protocol::AccountId;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The one rule of who may gain rating or score ([`crate::rating_gate`]).
pub use crate::rating_gate as gate;
pub use crate::store::fair_play::LINK_DAYS;
const DAY_MS: i64 = 86_400_000;
/// A link already noted is written again at most this often.
const NOTE_EVERY_MS: i64 = 3_600_000;
const NOTED_MAX: usize = 100_000;

/// The fair-play service; cheap to clone.
#[derive(Clone)]
pub struct FairPlay {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    clock: Arc<dyn Clock>,
    key: String,
    /// (account, link) → when last written.
    noted: Mutex<HashMap<(AccountId, String), i64>>,
}

impl FairPlay {
    /// The service, with the site's address key (made on first use).
    pub async fn open(store: Store, clock: Arc<dyn Clock>) -> Result<FairPlay, StoreError> {
        let key = store
            .site_secret("link-key", &crate::session::new_token())
            .await?;
        Ok(FairPlay {
            inner: Arc::new(Inner {
                store,
                clock,
                key,
                noted: Mutex::new(HashMap::new()),
            }),
        })
    }

    fn hash(&self, kind: &str, value: &str) -> String {
        let mut hasher = Sha256::new();
        hasher.update(self.inner.key.as_bytes());
        hasher.update(kind.as_bytes());
        hasher.update(value.as_bytes());
        format!("{kind}:{}", crate::hex::hex(&hasher.finalize()))
    }

    /// The links a request is seen through now: its address and its device.
    pub fn links_now(&self, caller: &Caller) -> Vec<String> {
        let mut links = Vec::new();
        // Behind a proxy, a request without its client-address header has
        // no known address (the guard counts it under the unspecified
        // address, shared by every such request): it links nobody.
        if let Some(address) = caller.address.filter(|a| !a.is_unspecified()) {
            links.push(self.hash("ip", &address.to_string()));
        }
        links.extend(self.device_link(caller));
        links
    }

    /// The link of the caller's device cookie, if it has one.
    pub fn device_link(&self, caller: &Caller) -> Option<String> {
        caller
            .device
            .as_ref()
            .map(|device| self.hash("dev", device))
    }

    /// Deletes links older than [`LINK_DAYS`]; returns how many.
    pub async fn expire(&self) -> Result<u64, StoreError> {
        self.inner.store.expire_links(self.since()).await
    }

    /// Notes where a signed-in caller is seen (at most hourly per link).
    pub async fn note(&self, caller: &Caller) {
        let Some(account) = crate::identity::account_of(&caller.session) else {
            return;
        };
        let now = self.inner.clock.now_ms();
        let fresh: Vec<String> = {
            let Ok(mut noted) = self.inner.noted.lock() else {
                return;
            };
            if noted.len() >= NOTED_MAX {
                noted.retain(|_, at| now - *at < NOTE_EVERY_MS);
            }
            self.links_now(caller)
                .into_iter()
                .filter(|link| {
                    let key = (account, link.clone());
                    match noted.get(&key) {
                        Some(at) if now - at < NOTE_EVERY_MS => false,
                        _ => {
                            noted.insert(key, now);
                            true
                        }
                    }
                })
                .collect()
        };
        if fresh.is_empty() {
            return;
        }
        if let Err(error) = self.inner.store.note_links(account, &fresh, now).await {
            tracing::warn!("cannot note where an account was seen: {error}");
            if let Ok(mut noted) = self.inner.noted.lock() {
                for link in fresh {
                    noted.remove(&(account, link));
                }
            }
        }
    }

    /// Since when links count.
    pub fn since(&self) -> i64 {
        self.inner.clock.now_ms() - LINK_DAYS * DAY_MS
    }

    /// Every link of the caller's account within [`LINK_DAYS`] (noted now
    /// first); empty for an anonymous caller.
    pub async fn links(&self, caller: &Caller) -> Vec<String> {
        self.note(caller).await;
        let Some(account) = crate::identity::account_of(&caller.session) else {
            return Vec::new();
        };
        match self.inner.store.links_of(account, self.since()).await {
            Ok(links) => links,
            Err(error) => {
                tracing::warn!("cannot read an account's links: {error}");
                // At least what this request shows.
                self.links_now(caller)
            }
        }
    }

    /// Whether two accounts are linked (a read failure counts as linked:
    /// the game is then casual, never wrongly rated).
    pub async fn linked(&self, a: AccountId, b: AccountId) -> bool {
        self.inner
            .store
            .linked(a, b, self.since())
            .await
            .unwrap_or(true)
    }

    /// Forgets what was noted of an account (deleted or closed).
    pub fn forget(&self, account: AccountId) {
        if let Ok(mut noted) = self.inner.noted.lock() {
            noted.retain(|(a, _), _| *a != account);
        }
    }
}
