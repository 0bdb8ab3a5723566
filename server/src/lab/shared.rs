//! Lab games as caches of the store, the same alone and among several
//! instances (docs/ARCHITECTURE.md, One seam).
//!
//! Each instance keeps a cache of the lab games it was asked about, each at
//! the version it was read at. Before a game is used, its stored version is
//! read (one indexed query) and the cache is reloaded when it is behind, so a
//! request sees the same game on every instance. Writes check the version
//! (a placement or retry made on a stale copy is refused and changes
//! nothing), and after each commit the bus carries `l <id> <version>` so that
//! `lab_wait` callers wake up (alone, the bus is this process's own).
//! Pending explanations are leased to the writer; when it stops, another
//! takes them over once the lease has run out — alone, at start, at once.

use super::{recovery, Explained, LabGame, LabHub};
use crate::store::bus::{Bus, BusMessage};
use crate::store::StoreError;
use app::api::CommandError;
use app::protocol::LabId;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, Mutex as AsyncMutex};

/// How often each instance looks for explanations whose writer died.
const ORPHAN_CHECK: Duration = Duration::from_secs(2);
/// How long past the explanation timeout a lease lasts.
const LEASE_MARGIN_MS: i64 = 5_000;

/// What several instances share besides the store, handed to the lab
/// explicitly (as `hub::Shared` to the hub): the bus between them.
#[derive(Clone)]
pub struct LabShared {
    pub bus: Arc<dyn Bus>,
}

impl std::fmt::Debug for LabShared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LabShared")
    }
}

/// A write refused because the game changed on another instance first
/// (or is gone); any other storage error as usual.
pub(super) fn changed_meanwhile(error: StoreError) -> CommandError {
    match error {
        StoreError::Stale => CommandError::conflict(app::msg!("srv-lab-stale")),
        StoreError::Gone => CommandError::not_found(app::msg!("srv-no-lab")),
        other => other.into(),
    }
}

fn not_found() -> CommandError {
    CommandError::not_found(app::msg!("srv-no-lab"))
}

impl LabGame {
    /// Takes everything but the change channel from `loaded` (a newer
    /// stored copy), and tells the waiters.
    fn replace_with(&mut self, loaded: LabGame) {
        self.lang = loaded.lang;
        self.black_depth = loaded.black_depth;
        self.white_depth = loaded.white_depth;
        self.game = loaded.game;
        self.moves = loaded.moves;
        self.updated_at = loaded.updated_at;
        self.version = loaded.version;
        self.changes.send_replace(self.version);
    }
}

impl LabHub {
    fn cached(&self, id: &str) -> Option<Arc<AsyncMutex<LabGame>>> {
        self.inner
            .games
            .lock()
            .ok()
            .and_then(|g| g.get(id).cloned())
    }

    pub(super) fn forget(&self, id: &str) {
        if let Ok(mut games) = self.inner.games.lock() {
            games.remove(id);
        }
    }

    /// How long an explanation stays leased to the instance writing it.
    pub(super) fn lease_ms(&self) -> i64 {
        i64::try_from(self.inner.config.explain_timeout.as_millis())
            .unwrap_or(i64::MAX / 4)
            .saturating_add(LEASE_MARGIN_MS)
    }

    /// Lab game `id`, first brought up to its stored version.
    pub(super) async fn entry(&self, id: &str) -> Result<Arc<AsyncMutex<LabGame>>, CommandError> {
        // An id from a request that no lab game could have: not looked up.
        if !app::ids::well_formed(id) {
            return Err(not_found());
        }
        let Some(version) = self.inner.store.lab_version(id).await? else {
            self.forget(id);
            return Err(not_found());
        };
        self.catch_up(id, version).await
    }

    /// Brings the cached copy of `id` up to at least `version`, loading it
    /// from the store when it is absent or behind.
    pub(super) async fn catch_up(
        &self,
        id: &str,
        version: i64,
    ) -> Result<Arc<AsyncMutex<LabGame>>, CommandError> {
        let cached = self.cached(id);
        if let Some(entry) = &cached {
            if entry.lock().await.version as i64 >= version {
                return Ok(entry.clone());
            }
        }
        let loaded = self.load(id).await?;
        match cached {
            Some(entry) => {
                {
                    let mut game = entry.lock().await;
                    if game.version < loaded.version {
                        game.replace_with(loaded);
                    }
                }
                Ok(entry)
            }
            None => {
                let mut games = self
                    .inner
                    .games
                    .lock()
                    .map_err(|_| CommandError::unavailable(app::msg!("srv-lab-unavailable")))?;
                Ok(games
                    .entry(LabId::new(id))
                    .or_insert_with(|| Arc::new(AsyncMutex::new(loaded)))
                    .clone())
            }
        }
    }

    /// Reads lab game `id` from the store and replays it.
    async fn load(&self, id: &str) -> Result<LabGame, CommandError> {
        let (row, version, moves) = self.inner.store.lab_game(id).await?.ok_or_else(not_found)?;
        let (mut game, _pending) = recovery::rebuild(&row, &moves).map_err(|reason| {
            tracing::error!(lab = %id, "lab game could not be loaded ({reason})");
            CommandError::unavailable(app::msg!("srv-lab-unreadable"))
        })?;
        game.version = u64::try_from(version).unwrap_or(0);
        game.changes.send_replace(game.version);
        Ok(game)
    }

    /// Tells the other instances that lab game `id` is now at `version`
    /// (below 0: deleted).
    pub(super) async fn publish(&self, id: &str, version: i64) {
        let message = BusMessage::Lab {
            id: LabId::new(id),
            version,
        };
        if let Err(error) = self.inner.bus.publish(message).await {
            // Waiters on other instances still catch up at their next
            // version check.
            tracing::warn!(lab = %id, "cannot publish a lab change: {error}");
        }
    }

    /// Listens to the bus and takes over orphaned explanations. `alone`:
    /// this process is the only writer, so every explanation left pending
    /// is its own from before it stopped — taken over now, leases or not.
    pub(super) async fn start_listening(&self) -> Result<(), StoreError> {
        tokio::spawn(self.clone().hear(self.inner.bus.subscribe()));
        // The explanations left pending whose leases are free now (alone:
        // all of them, they were this process's before it stopped — the
        // bus knows which). One pass: each taken explanation's lease is
        // renewed, so a second pass would take them again.
        let now = self.now();
        let taken = self
            .inner
            .store
            .take_orphaned_explanations(
                self.inner.bus.leases_free_before(now),
                now + self.lease_ms(),
                i64::from(u32::MAX),
            )
            .await?;
        self.adopt(taken).await;
        let hub = self.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(ORPHAN_CHECK);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                hub.adopt_orphans().await;
            }
        });
        Ok(())
    }

    /// Reloads the cached lab games other instances changed (waking their
    /// waiters here) and drops deleted ones.
    async fn hear(self, mut heard: broadcast::Receiver<BusMessage>) {
        loop {
            match heard.recv().await {
                Ok(BusMessage::Lab { id, version }) if version < 0 => self.forget(id.as_str()),
                Ok(BusMessage::Lab { id, version }) => {
                    if self.cached(id.as_str()).is_some() {
                        let _ = self.catch_up(id.as_str(), version).await;
                    }
                }
                Ok(_) => {}
                Err(broadcast::error::RecvError::Lagged(missed)) => {
                    tracing::warn!(missed, "lab bus messages missed");
                }
                Err(broadcast::error::RecvError::Closed) => return,
            }
        }
    }

    /// Takes over pending explanations whose lease ran out (the instance
    /// writing them died) and writes them here.
    async fn adopt_orphans(&self) {
        let now = self.now();
        match self
            .inner
            .store
            .take_orphaned_explanations(now, now + self.lease_ms(), 8)
            .await
        {
            Ok(taken) => self.adopt(taken).await,
            Err(error) => tracing::warn!("cannot look for orphaned explanations: {error}"),
        }
    }

    /// Writes the explanations taken over, (game, ply) each.
    async fn adopt(&self, taken: Vec<(String, i64)>) {
        for (id, ply) in taken {
            let Ok(entry) = self.entry(&id).await else {
                continue;
            };
            let facts = {
                let game = entry.lock().await;
                usize::try_from(ply - 1)
                    .ok()
                    .and_then(|i| game.moves.get(i))
                    .filter(|m| m.explained == Explained::Pending)
                    .map(|m| m.facts.clone())
            };
            if let (Some(facts), Ok(ply)) = (facts, u32::try_from(ply)) {
                tracing::info!(lab = %id, ply, "taking over an explanation whose writer stopped");
                self.spawn_explanation(id, ply, facts);
            }
        }
    }
}
