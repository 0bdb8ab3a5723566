//! The table hub: every live table in memory, the command path (check → apply →
//! commit → broadcast → answer), the AI's turns, restart recovery and expiry.
//!
//! A command is committed to the database (SQLite or PostgreSQL) before anyone hears of it. Recovery replays
//! the stored commands through [`Table::apply`](crate::table::Table::apply), the
//! same code path as play.
//!
//! The module map: this file holds the [`Hub`] handle, its settings, start-up,
//! sessions and views; [`entry`] one live table; [`registry`] lookup and
//! expiry; [`tables`] creating tables and taking seats; [`command`] the
//! command path and what a command writes; [`presence`] sockets, grace and
//! clocks' timers; [`queue`] quick match; [`ai`] the AI's turns;
//! [`recovery`] restart recovery; [`backend`] the pages' [`Backend`](app::api::backend::Backend);
//! [`coordination`] the one seam between this instance and the others:
//! [`coordination::Local`] alone, [`cluster`] several instances on one
//! PostgreSQL database (tables in memory become caches checked against a
//! stored version). No other module asks which it is.

mod ai;
mod backend;
mod cluster;
mod command;
mod coordination;
pub use command::MAX_FAILED_ROUND_COMMITS;
mod entry;
mod presence;
mod queue;
mod recovery;
mod registry;
mod shared_queue;
mod tables;

pub use queue::{rating_window, Queued, RatingWindow, RATING_WINDOW};
pub use tables::PairedGame;

use crate::ai::AiPool;
use crate::clock::Clock;
use crate::store::TableStore;
use crate::store::{Store, StoreError};
use app::api::CommandError;
use app::protocol::{Session, Side, TableId, TableMode, TableView};
use entry::Entry;
use queue::Waiting;
use rand::Rng;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::{broadcast, Mutex as AsyncMutex};

/// Settings of the hub.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HubConfig {
    pub ai_threads: usize,
    /// Threads for the lab's searches and game analysis (their own lane).
    pub ai_heavy_threads: usize,
    pub ai_queue: usize,
    /// Searches one session may have waiting (the AI queue is fair per session).
    pub ai_queue_per_session: usize,
    /// Searches one address may have waiting or running in a lane.
    pub ai_queue_per_ip: usize,
    /// Idle time after which a table is deleted, in milliseconds.
    pub table_expiry_ms: i64,
    /// How long a player who left an online table keeps the seat, in milliseconds.
    pub grace_ms: i64,
    /// How long a side of a timed online game has for its first move, and
    /// in a tournament's game, in milliseconds.
    pub first_move_ms: i64,
    pub first_move_event_ms: i64,
    /// FOR TESTS ONLY: accept time controls other than the presets.
    pub test_time_controls: bool,
    /// On PostgreSQL: an instance silent this long is dead (its sockets stop
    /// counting) and a job's lease runs out, in milliseconds.
    pub instance_timeout_ms: i64,
    /// FOR TESTS ONLY: the AI's searches start this late (milliseconds).
    pub test_ai_delay_ms: u64,
    /// What one session and one address may hold (tables, lab games,
    /// analyses, sockets).
    pub limits: crate::limits::LimitConfig,
}

impl Default for HubConfig {
    /// The flags' defaults ([`crate::config::defaults`]).
    fn default() -> Self {
        Self::from(&crate::config::Config::for_tests(Default::default()))
    }
}

impl From<&crate::config::Config> for HubConfig {
    fn from(config: &crate::config::Config) -> Self {
        let ms = |secs: u64| i64::try_from(secs.saturating_mul(1000)).unwrap_or(i64::MAX);
        Self {
            ai_threads: usize::from(config.ai_threads),
            ai_heavy_threads: usize::from(config.ai_heavy_threads),
            ai_queue: config.ai_queue,
            ai_queue_per_session: config.ai_queue_per_session,
            ai_queue_per_ip: config.ai_queue_per_ip,
            table_expiry_ms: ms(config.table_expiry_secs),
            grace_ms: ms(config.grace_secs),
            first_move_ms: ms(config.first_move_secs),
            first_move_event_ms: ms(config.first_move_secs_event),
            test_time_controls: config.test_time_controls,
            instance_timeout_ms: i64::try_from(config.instance_timeout_ms).unwrap_or(i64::MAX),
            test_ai_delay_ms: config.test_ai_delay_ms,
            limits: crate::limits::LimitConfig::of(config),
        }
    }
}

/// How long the hub remembers that a session was marked used (it then
/// writes the mark again at most once per this time).
pub const SESSION_CACHE_MS: i64 = 3_600_000;

/// The most sessions the hub remembers at once; past it, the oldest
/// entries are dropped (a session then costs one more write, no memory).
pub const SESSION_CACHE_MAX: usize = 100_000;

/// A pushed update: the table's state for everyone (the socket fills in `you`).
#[derive(Clone, Debug)]
pub struct Update {
    pub view: Arc<TableView>,
}

struct Inner<S> {
    store: S,
    clock: Arc<dyn Clock>,
    config: HubConfig,
    tables: Mutex<HashMap<TableId, Arc<AsyncMutex<Entry>>>>,
    /// Stored sessions (token hashes) and when this process last marked
    /// each used: a cache that saves a write per command. Filled lazily,
    /// never loaded whole; an entry lasts [`SESSION_CACHE_MS`] and there are
    /// at most [`SESSION_CACHE_MAX`].
    sessions: Mutex<HashMap<String, i64>>,
    ai: AiPool,
    /// Quick match: the player waiting for each time control.
    queue: Mutex<HashMap<queue::QueueKey, Vec<Waiting>>>,
    tickets: std::sync::atomic::AtomicU64,
    metrics: Arc<crate::metrics::Metrics>,
    /// What each session and address holds (the caps on creating).
    limits: Arc<crate::limits::Limits>,
    /// How the tables meet the other instances, if any: local alone,
    /// the cluster's on PostgreSQL.
    coordination: Box<dyn coordination::Coordination<S>>,
    /// Which accounts rated quick match may pair (set once at start; a hub
    /// without it pairs by rating alone, as unit tests do).
    fair_play: std::sync::OnceLock<crate::fair_play::FairPlay>,
}

/// The hub; cheap to clone. Generic over its storage ([`TableStore`]);
/// today's is [`Store`], SQLite or PostgreSQL.
pub struct Hub<S = Store> {
    inner: Arc<Inner<S>>,
}

impl<S> Clone for Hub<S> {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
        }
    }
}

/// Errors while restoring tables at start-up.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A database other instances may share, without their coordination
    /// (`Shared`): its tables would be written without version checks.
    #[error("a shared database needs the hub's shared coordination (hub::Shared)")]
    NotShared,
}

/// What a hub shares with the other instances on PostgreSQL, handed to
/// [`Hub::start`] by whoever opened the database: the shared store of
/// tables and the bus between instances.
#[derive(Clone)]
pub struct Shared {
    pub pg: crate::store::PgStore,
    pub bus: Arc<dyn crate::store::bus::Bus>,
}

impl Shared {
    /// Joins the instances on `pg`: listens on PostgreSQL's bus.
    pub async fn join(pg: crate::store::PgStore) -> Result<Self, StoreError> {
        let bus = crate::store::bus::PgBus::start(pg.pool().clone()).await?;
        Ok(Self {
            pg,
            bus: Arc::new(bus),
        })
    }
}

fn new_id(bytes: usize) -> TableId {
    let mut rng = rand::thread_rng();
    TableId::new(
        (0..bytes)
            .map(|_| format!("{:02x}", rng.gen::<u8>()))
            .collect::<String>(),
    )
}

impl<S: TableStore> Hub<S> {
    /// Starts the hub and its AI workers, restoring every stored table.
    ///
    /// `shared`: on PostgreSQL, the tables and bus this instance shares with
    /// the others (its tables are then caches, see `cluster`); None: this
    /// process alone holds its tables, in `store`.
    pub async fn start(
        store: S,
        clock: Arc<dyn Clock>,
        config: HubConfig,
        shared: Option<Shared>,
    ) -> Result<Self, RestoreError> {
        let (replies_tx, replies_rx) = tokio::sync::mpsc::unbounded_channel();
        let metrics = Arc::new(crate::metrics::Metrics::default());
        let ai = AiPool::start_sized(
            crate::ai::PoolSize {
                play_threads: config.ai_threads,
                heavy_threads: config.ai_heavy_threads,
                capacity: config.ai_queue,
                per_key: config.ai_queue_per_ip,
                per_owner: config.ai_queue_per_session,
            },
            replies_tx,
            metrics.clone(),
        );
        let coordination: Box<dyn coordination::Coordination<S>> = match shared {
            Some(Shared { pg, bus }) => {
                // The first heartbeat: this instance counts as alive.
                pg.heartbeat(clock.now_ms()).await?;
                Box::new(cluster::Cluster::new(pg, bus, config.instance_timeout_ms))
            }
            None if store.shared_database() => return Err(RestoreError::NotShared),
            None => Box::new(coordination::Local),
        };
        let limits = Arc::new(crate::limits::Limits::new(config.limits));
        let hub = Hub {
            inner: Arc::new(Inner {
                limits,
                store,
                clock,
                config,
                tables: Mutex::new(HashMap::new()),
                sessions: Mutex::new(HashMap::new()),
                ai,
                queue: Mutex::new(HashMap::new()),
                tickets: std::sync::atomic::AtomicU64::new(1),
                metrics,
                coordination,
                fair_play: std::sync::OnceLock::new(),
            }),
        };
        hub.inner.coordination.start(&hub);
        hub.inner.coordination.restore(&hub).await?;
        tokio::spawn(hub.clone().ai_replies(replies_rx));
        Ok(hub)
    }

    /// Hands the hub the fair-play service (once, at start).
    pub fn use_fair_play(&self, fair_play: crate::fair_play::FairPlay) {
        let _ = self.inner.fair_play.set(fair_play);
    }

    /// The server's live figures.
    pub fn metrics(&self) -> &crate::metrics::Metrics {
        &self.inner.metrics
    }

    /// What each session and address holds: the caps on creating tables,
    /// lab games and analyses, and on sockets.
    pub fn limits(&self) -> Arc<crate::limits::Limits> {
        self.inner.limits.clone()
    }

    /// The hub's storage.
    pub fn store(&self) -> &S {
        &self.inner.store
    }

    pub fn now(&self) -> i64 {
        self.inner.clock.now_ms()
    }

    /// How long a side of a timed game at a table of `mode` has for its
    /// first move: shorter in a tournament's game.
    pub(crate) fn first_move_ms(&self, mode: TableMode) -> i64 {
        match mode {
            TableMode::Online {
                tournament: true, ..
            } => self.inner.config.first_move_event_ms,
            _ => self.inner.config.first_move_ms,
        }
    }

    /// Brings a table in memory up to its stored version.
    async fn sync(&self, entry: &mut Entry) -> Result<(), CommandError> {
        self.inner.coordination.sync(self, entry).await
    }

    /// Stores a table's seats and presence; `touch` also marks it active.
    async fn write_seating(
        &self,
        entry: &mut Entry,
        seating: &crate::seating::SeatingRecord,
        touch: Option<i64>,
    ) -> Result<(), CommandError> {
        self.inner
            .coordination
            .write_seating(self, entry, seating, touch)
            .await
    }

    /// After a table was written: its timers and AI move scheduled, the
    /// other instances told (`change`: what a command wrote).
    async fn published(&self, entry: &mut Entry, change: Option<coordination::Change>) {
        self.inner.coordination.published(self, entry, change).await;
    }

    /// A clean shutdown: this instance's sockets stop counting at once
    /// (not after the heartbeat timeout) and its queue places go.
    pub async fn leave(&self) {
        self.inner.coordination.leave(self).await;
    }

    /// A fresh session (for tests and tools): not stored until it owns
    /// something.
    pub async fn new_session(&self) -> Result<Session, StoreError> {
        Ok(crate::session::session_of(&crate::session::new_token()))
    }

    /// Stores `session` (first time it owns something) or marks it used; at
    /// most one write per session an hour.
    pub async fn remember_session(&self, session: &Session) -> Result<(), StoreError> {
        let now = self.now();
        let fresh = self
            .inner
            .sessions
            .lock()
            .map(|s| {
                s.get(session.as_str())
                    .is_some_and(|&at| now - at < SESSION_CACHE_MS)
            })
            .unwrap_or(false);
        if fresh {
            return Ok(());
        }
        self.inner
            .store
            .remember_session(session.as_str(), now)
            .await?;
        if let Ok(mut sessions) = self.inner.sessions.lock() {
            if sessions.len() >= SESSION_CACHE_MAX {
                sessions.retain(|_, at| now - *at < SESSION_CACHE_MS);
            }
            if sessions.len() >= SESSION_CACHE_MAX {
                // Still full of sessions marked within the hour: forget the
                // older half.
                let mut times: Vec<i64> = sessions.values().copied().collect();
                times.sort_unstable();
                let cutoff = times[times.len() / 2];
                sessions.retain(|_, at| *at > cutoff);
            }
            sessions.insert(session.as_str().to_string(), now);
        }
        Ok(())
    }

    /// How many sessions the hub remembers in memory.
    pub fn remembered_sessions(&self) -> usize {
        self.inner.sessions.lock().map_or(0, |s| s.len())
    }

    /// Deletes sessions unused for `expiry_secs`; returns how many.
    pub async fn expire_sessions(&self, expiry_secs: u64) -> Result<u64, StoreError> {
        let span = i64::try_from(expiry_secs.saturating_mul(1000)).unwrap_or(i64::MAX);
        let before = self.now().saturating_sub(span);
        let recent = self.now().saturating_sub(SESSION_CACHE_MS);
        if let Ok(mut sessions) = self.inner.sessions.lock() {
            sessions.retain(|_, at| *at >= before.max(recent));
        }
        self.inner.store.expire_sessions(before).await
    }

    /// Subscribes to a table's updates; also returns the current view.
    pub async fn subscribe(
        &self,
        id: &TableId,
        session: &Session,
    ) -> Result<(TableView, broadcast::Receiver<Update>, Vec<Side>), CommandError> {
        let entry = self.entry(id).await?;
        let mut entry = entry.lock().await;
        self.sync(&mut entry).await?;
        Ok((
            self.view_of(&entry, entry.seats(session)),
            entry.updates.subscribe(),
            entry.seats(session),
        ))
    }

    /// The view of a table for a session. Viewing never takes a seat (see
    /// [`Hub::take_seat`]).
    pub async fn view(&self, session: &Session, id: &TableId) -> Result<TableView, CommandError> {
        let entry = self.entry(id).await?;
        let mut entry = entry.lock().await;
        self.sync(&mut entry).await?;
        // An AI search refused earlier (queue full): asked again now.
        self.inner.coordination.retry_ai(self, &mut entry);
        Ok(self.view_of(&entry, entry.seats(session)))
    }

    /// A table's view with the viewer's sides and the seats' presence.
    fn view_of(&self, entry: &Entry, you: Vec<Side>) -> TableView {
        let mut view = entry.table.view(&entry.id, you, entry.ai_thinking);
        view.seats = entry.seating.as_ref().map(|s| s.view(self.now()));
        view.ai_search = entry.ai_search;
        view.clocks = entry.clock.as_ref().map(|c| c.view(self.now()));
        view
    }

    /// Pushes a fresh view to the table's sockets (presence changes).
    fn broadcast(&self, entry: &Entry) {
        let view = Arc::new(self.view_of(entry, Vec::new()));
        let _ = entry.updates.send(Update { view });
    }

    /// The export file of a table (docs/PRODUCT.md, Exports): every round in
    /// order with every move, the board after each placement, every pass and
    /// the result, then the tally and the GGF of every round.
    pub async fn export(
        &self,
        id: &TableId,
        lang: app::i18n::Lang,
    ) -> Result<String, CommandError> {
        let entry = self.entry(id).await?;
        let mut entry = entry.lock().await;
        self.sync(&mut entry).await?;
        Ok(crate::export::text_in(
            lang,
            entry.id.as_str(),
            &entry.table,
            &entry.times,
        ))
    }

    /// A table's current round for analysis: its number, the game and
    /// whether the round is over.
    pub async fn round_game(
        &self,
        id: &TableId,
    ) -> Result<(u32, engine::Game, bool), CommandError> {
        let entry = self.entry(id).await?;
        let mut entry = entry.lock().await;
        self.sync(&mut entry).await?;
        Ok((
            entry.table.round(),
            entry.table.game().clone(),
            entry.table.outcome().is_some(),
        ))
    }

    /// The GGF records of a table: one game per round, in order.
    pub async fn export_ggf(&self, id: &TableId) -> Result<String, CommandError> {
        let entry = self.entry(id).await?;
        let mut entry = entry.lock().await;
        self.sync(&mut entry).await?;
        Ok(crate::export::ggf(&entry.table, &entry.times))
    }
}
