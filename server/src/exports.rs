//! A player's whole-archive exports (`/@/<name>/games.ggf`, `games.wtb`,
//! `players.jou`, and a signed-in player's own data, `/account/export.json`),
//! bounded: each is built once per change of the player's
//! archive and then served from memory, an address may have only
//! [`PER_ADDRESS`] exports in flight and the server [`BUILDING_AT_ONCE`]
//! being built, and the cache holds at most [`CACHE_BYTES`].
//!
//! The cache is keyed by account and checked against the archive's marker
//! (how many games, and when the newest ended: one indexed read), so a new
//! game on any instance makes the next download build afresh. Built files
//! are shared buffers: serving one copies nothing.

use crate::archive::Archive;
use app::api::CommandError;
use app::protocol::{AccountId, Session};
use axum::body::Bytes;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

/// Exports one address may have in flight.
pub const PER_ADDRESS: usize = 2;
/// Exports built at once (each replays up to 10,000 games).
pub const BUILDING_AT_ONCE: usize = 2;
/// The most the cache keeps, in bytes.
pub const CACHE_BYTES: usize = 64 * 1024 * 1024;

/// Which file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Ggf,
    Wtb,
    Jou,
    /// The account's own data (`/account/export.json`), for it alone.
    Json,
}

/// A built export: the player's name as shown and the file.
#[derive(Clone)]
pub struct Built {
    pub name: String,
    pub body: Bytes,
}

struct Cached {
    marker: (i64, i64),
    files: HashMap<Kind, Built>,
    used: u64,
}

#[derive(Default)]
struct State {
    cache: HashMap<AccountId, Cached>,
    bytes: usize,
    in_flight: HashMap<IpAddr, usize>,
    tick: u64,
    builds: u64,
}

/// The export service; cheap to clone.
#[derive(Clone)]
pub struct Exports {
    state: Arc<Mutex<State>>,
    building: Arc<Semaphore>,
}

impl Default for Exports {
    fn default() -> Self {
        Exports {
            state: Arc::default(),
            building: Arc::new(Semaphore::new(BUILDING_AT_ONCE)),
        }
    }
}

/// An address's place among the exports in flight, given back on drop.
pub struct Admission {
    state: Arc<Mutex<State>>,
    address: Option<IpAddr>,
}

impl Drop for Admission {
    fn drop(&mut self) {
        if let (Some(address), Ok(mut state)) = (self.address, self.state.lock()) {
            if let Some(count) = state.in_flight.get_mut(&address) {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    state.in_flight.remove(&address);
                }
            }
        }
    }
}

impl Exports {
    /// A place for one more export from `address`, or 429.
    pub fn admit(&self, address: Option<IpAddr>) -> Result<Admission, CommandError> {
        if let (Some(address), Ok(mut state)) = (address, self.state.lock()) {
            let count = state.in_flight.entry(address).or_default();
            if *count >= PER_ADDRESS {
                return Err(CommandError::limited(app::msg!("srv-downloads-busy")));
            }
            *count += 1;
        }
        Ok(Admission {
            state: self.state.clone(),
            address,
        })
    }

    /// How many exports were built (not served from the cache) so far.
    pub fn builds(&self) -> u64 {
        self.state.lock().map(|s| s.builds).unwrap_or(0)
    }

    /// `kind` of the player `name`'s archive: from the cache while the
    /// archive is unchanged, else built (at most [`BUILDING_AT_ONCE`] at
    /// once) and kept.
    pub async fn get(
        &self,
        archive: &Archive,
        name: &str,
        kind: Kind,
        now: i64,
    ) -> Result<Built, CommandError> {
        if kind == Kind::Json {
            return Err(CommandError::internal("an account's data is not public"));
        }
        let account = archive.player_named(name).await?;
        let marker = archive
            .store
            .archive_marker(&crate::identity::Identity::Account(account.id))
            .await
            .map_err(CommandError::from)?;
        if let Some(built) = self.cached(account.id, marker, kind) {
            return Ok(built);
        }
        let _permit = self
            .building
            .acquire()
            .await
            .map_err(|_| CommandError::unavailable(app::msg!("srv-shutting-down")))?;
        // Another request may have built it while this one waited.
        if let Some(built) = self.cached(account.id, marker, kind) {
            return Ok(built);
        }
        let mut files = HashMap::new();
        match kind {
            Kind::Ggf => {
                let (name, text) = archive.ggf_of_player(name).await?;
                files.insert(
                    Kind::Ggf,
                    Built {
                        name,
                        body: Bytes::from(text),
                    },
                );
            }
            Kind::Wtb | Kind::Jou | Kind::Json => {
                let (name, wtb, jou) = archive.wthor_of_player(name, now).await?;
                files.insert(
                    Kind::Wtb,
                    Built {
                        name: name.clone(),
                        body: Bytes::from(wtb),
                    },
                );
                files.insert(
                    Kind::Jou,
                    Built {
                        name,
                        body: Bytes::from(jou),
                    },
                );
            }
        }
        let built = files
            .get(&kind)
            .cloned()
            .ok_or_else(|| CommandError::internal("an export was built without its file"))?;
        self.keep(account.id, marker, files);
        Ok(built)
    }

    /// The signed-in `session`'s own data as JSON (`/account/export.json`):
    /// from the cache while its archive is unchanged, else built (at most
    /// [`BUILDING_AT_ONCE`] exports at once) and kept, as the public
    /// exports are.
    pub async fn data(&self, archive: &Archive, session: &Session) -> Result<Built, CommandError> {
        let Some(account) = crate::accounts::account_of(session) else {
            return Err(CommandError::refused(app::msg!("srv-download-sign-in")));
        };
        let marker = archive
            .store
            .archive_marker(&crate::identity::Identity::Account(account))
            .await
            .map_err(CommandError::from)?;
        if let Some(built) = self.cached(account, marker, Kind::Json) {
            return Ok(built);
        }
        let _permit = self
            .building
            .acquire()
            .await
            .map_err(|_| CommandError::unavailable(app::msg!("srv-shutting-down")))?;
        if let Some(built) = self.cached(account, marker, Kind::Json) {
            return Ok(built);
        }
        let data = archive.data_of(session).await?;
        let built = Built {
            name: data["name"].as_str().unwrap_or_default().to_string(),
            body: Bytes::from(serde_json::to_string_pretty(&data).unwrap_or_default()),
        };
        self.keep(
            account,
            marker,
            HashMap::from([(Kind::Json, built.clone())]),
        );
        Ok(built)
    }

    fn cached(&self, account: AccountId, marker: (i64, i64), kind: Kind) -> Option<Built> {
        let mut state = self.state.lock().ok()?;
        state.tick += 1;
        let tick = state.tick;
        let entry = state.cache.get_mut(&account)?;
        if entry.marker != marker {
            return None;
        }
        entry.used = tick;
        entry.files.get(&kind).cloned()
    }

    fn keep(&self, account: AccountId, marker: (i64, i64), files: HashMap<Kind, Built>) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        state.builds += 1;
        state.tick += 1;
        let tick = state.tick;
        let size: usize = files.values().map(|f| f.body.len()).sum();
        if size > CACHE_BYTES {
            return;
        }
        let entry = state.cache.entry(account).or_insert_with(|| Cached {
            marker,
            files: HashMap::new(),
            used: tick,
        });
        if entry.marker != marker {
            entry.marker = marker;
            entry.files.clear();
        }
        entry.files.extend(files);
        entry.used = tick;
        state.bytes = state
            .cache
            .values()
            .flat_map(|c| c.files.values())
            .map(|f| f.body.len())
            .sum();
        // Least recently used first, until under the bound.
        while state.bytes > CACHE_BYTES {
            let Some(oldest) = state
                .cache
                .iter()
                .min_by_key(|(_, c)| c.used)
                .map(|(id, _)| *id)
            else {
                break;
            };
            if let Some(gone) = state.cache.remove(&oldest) {
                let freed: usize = gone.files.values().map(|f| f.body.len()).sum();
                state.bytes = state.bytes.saturating_sub(freed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_has_at_most_two_exports_in_flight() {
        let exports = Exports::default();
        let address: IpAddr = "192.0.2.1".parse().expect("ip");
        let first = exports.admit(Some(address)).expect("first");
        let _second = exports.admit(Some(address)).expect("second");
        let third = exports.admit(Some(address)).err().expect("a third waits");
        assert_eq!(third.kind, app::api::ErrorKind::Limited);
        assert!(exports
            .admit(Some("192.0.2.2".parse().expect("ip")))
            .is_ok());
        drop(first);
        assert!(exports.admit(Some(address)).is_ok(), "given back");
    }
}
