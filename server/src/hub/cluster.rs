//! Several instances on one PostgreSQL database (docs/ARCHITECTURE.md,
//! "Several instances on PostgreSQL"). A table in memory is then a cache of
//! its rows at a version:
//!
//! (Over 600 lines: every way a cached table meets the shared store — loading,
//! catching up, the bus, presence, jobs — in one place to read together.)
//!
//! - every write checks and bumps the table's version under
//!   `SELECT … FOR UPDATE` ([`PgStore::record_at`]); a write that lost the
//!   race answers `Stale`, the cache is reloaded and the command decided
//!   again, so of two simultaneous commands exactly one is accepted;
//! - after a commit the instance publishes the table's id and version on
//!   the [`Bus`]; instances with sockets on that table reload and push;
//! - presence is counted per instance (`presence` rows) and only instances
//!   with a fresh heartbeat count; a dead instance's rows are reaped and its
//!   players' grace starts;
//! - timers (grace ends, flags) and AI moves are `jobs` rows any instance
//!   takes with `SKIP LOCKED` and a lease;
//! - quick match is the `queue` table.

use super::coordination::{Change, Coordination, TRIES};
use super::entry::Entry;
use super::queue::Queued;
use super::recovery::{replay, start_of, Replayed};
use super::{Hub, RestoreError};
use crate::clock_control::GameClock;
use crate::limits::{Caller, Reservation};
use crate::seating::{Seating, SeatingRecord};
use crate::store::bus::{Bus, BusMessage, TableChange};
use crate::store::pg::VersionedTable;
use crate::store::{PgStore, Record, StoreError, StoredTable, TableStore};
use app::api::CommandError;
use app::protocol::{Session, Side, TableId, TableMode, TimeControl};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::{broadcast, oneshot, Mutex as AsyncMutex};

/// Most pairings remembered for tickets this instance does not (yet) hold.
const EARLY_MATCHES: usize = 1024;

/// The shared parts of a hub on PostgreSQL: its [`Coordination`].
pub(super) struct Cluster {
    pub(super) pg: PgStore,
    pub(super) bus: Arc<dyn Bus>,
    /// Quick-match players waiting on this instance, by ticket.
    pub(super) waiting: Arc<Waiters>,
    /// After this long without a heartbeat an instance counts as dead, and
    /// a job's lease runs out (milliseconds).
    pub(super) timeout_ms: i64,
}

/// The quick-match players waiting on this instance: each ticket's channel
/// to its socket, and pairings heard before their ticket was registered.
#[derive(Default)]
pub(super) struct Waiters(Mutex<Waiting>);

#[derive(Default)]
struct Waiting {
    by_ticket: HashMap<i64, oneshot::Sender<TableId>>,
    /// Pairings heard before their ticket was registered here.
    early: HashMap<i64, TableId>,
}

impl Cluster {
    pub(super) fn new(pg: PgStore, bus: Arc<dyn Bus>, timeout_ms: i64) -> Self {
        Self {
            pg,
            bus,
            waiting: Arc::default(),
            timeout_ms,
        }
    }
}

impl Waiters {
    /// Registers the player waiting with `ticket`; answers the table at
    /// once if the pairing was heard already.
    pub(super) fn wait(&self, ticket: i64, matched: oneshot::Sender<TableId>) {
        if let Ok(mut waiting) = self.0.lock() {
            match waiting.early.remove(&ticket) {
                Some(table) => {
                    let _ = matched.send(table);
                }
                None => {
                    waiting.by_ticket.insert(ticket, matched);
                }
            }
        }
    }

    pub(super) fn stop_waiting(&self, ticket: i64) {
        if let Ok(mut waiting) = self.0.lock() {
            waiting.by_ticket.remove(&ticket);
        }
    }

    pub(super) fn waiting_count(&self) -> usize {
        self.0.lock().map_or(0, |w| {
            w.by_ticket.values().filter(|m| !m.is_closed()).count()
        })
    }

    pub(super) fn matched(&self, ticket: i64, table: TableId) {
        if let Ok(mut waiting) = self.0.lock() {
            match waiting.by_ticket.remove(&ticket) {
                Some(matched) => {
                    let _ = matched.send(table);
                }
                None => {
                    if waiting.early.len() >= EARLY_MATCHES {
                        waiting.early.clear();
                    }
                    waiting.early.insert(ticket, table);
                }
            }
        }
    }
}

/// A stored table's mode; None (logged) when unreadable.
fn mode_of(header: &StoredTable) -> Option<TableMode> {
    match header.mode.mode() {
        Some(mode) => Some(mode),
        None => {
            tracing::error!(table = %header.id, "unreadable table mode");
            None
        }
    }
}

/// A cached table brought forward with the rows read since its last one;
/// None when it cannot be (the mode or start changed, the rows do not
/// follow on, or one no longer applies): replay the table whole.
fn caught_up(entry: &Entry, stored: &VersionedTable) -> Option<(TableMode, Replayed)> {
    let mode = mode_of(&stored.header)?;
    let start = start_of(&stored.header)?.unwrap_or_else(engine::Position::initial);
    if mode != entry.table.mode() || start != entry.table.start() {
        return None;
    }
    Some((mode, brought_forward(entry, &stored.moves)?))
}

/// A cached table's state with `rows` (the ones after its last) applied;
/// None when they do not follow on or one no longer applies.
fn brought_forward(entry: &Entry, rows: &[crate::store::MoveRow]) -> Option<Replayed> {
    if rows.first().is_some_and(|row| row.seq != entry.next_seq) {
        return None;
    }
    let mut replayed = Replayed::resume(entry.table.clone(), entry.next_seq, entry.times.clone());
    replayed.apply(&entry.id, rows)?;
    Some(replayed)
}

/// Applies a command's rows heard on the bus to a cached table one version
/// behind, as catching up would (the clocks run from the command's time);
/// false, changing nothing, when they do not follow on, do not apply, or
/// end or start a round (the seats' rules change with it: read the table).
fn apply_change(entry: &mut Entry, change: &TableChange, version: i64) -> bool {
    let (round, in_round) = (entry.table.round(), entry.table.outcome().is_none());
    if change.rows.is_empty() {
        return false;
    }
    let Some(replayed) = brought_forward(entry, &change.rows) else {
        return false;
    };
    if replayed.table.round() != round || replayed.table.outcome().is_none() != in_round {
        return false;
    }
    let to_move = if entry.both_seated() {
        replayed.table.to_move()
    } else {
        None
    };
    entry.clock = entry.clock.as_ref().map(|clock| {
        GameClock::restore(
            clock.control(),
            clock.first_move_ms(),
            replayed.used_now,
            replayed.table.berserked(),
            to_move,
            change.at,
        )
    });
    entry.table = replayed.table;
    entry.times = replayed.times;
    entry.next_seq = replayed.next_seq;
    entry.version = version;
    // The instance that wrote the change stores the new state's jobs (or
    // knows them stored). When that state has none — no timer, no AI to
    // move: most moves of an untimed game — and this instance knew of none
    // stored, that stays true (a write that fails leaves a stale job, which
    // runs harmlessly and is rewritten); otherwise it is no longer known.
    const NONE: Option<(Option<i64>, Option<i64>, Option<i64>)> = Some((None, None, None));
    let none_due = next_timer(entry).is_none() && !entry.table.ai_to_move() && !entry.ai_thinking;
    if !(none_due && entry.jobs_stored == NONE) {
        entry.jobs_stored = None;
    }
    true
}

/// The earliest of a table's timers: a grace's end or a flag.
fn next_timer(entry: &Entry) -> Option<i64> {
    [
        entry.seating.as_ref().and_then(|s| s.deadline(Side::Black)),
        entry.seating.as_ref().and_then(|s| s.deadline(Side::White)),
        entry.clock.as_ref().and_then(GameClock::deadline),
    ]
    .into_iter()
    .flatten()
    .min()
}

/// The quick-match queue's name for a time control.
pub(super) fn control_key(control: app::protocol::TimeControl) -> String {
    format!("{}+{}", control.base_s, control.increment_s)
}

/// The shared queue's line for a control, casual or rated (rated players
/// wait in their own line, with their rating: `Pg::enqueue`, `Pg::rematch`).
pub(super) fn queue_key(control: app::protocol::TimeControl, rated: bool) -> String {
    if rated {
        format!("{}:rated", control_key(control))
    } else {
        control_key(control)
    }
}

impl<S: TableStore> Hub<S> {
    /// Instances whose heartbeat is at or after this are alive.
    pub(super) fn alive_since(&self, cluster: &Cluster) -> i64 {
        self.now().saturating_sub(cluster.timeout_ms)
    }

    /// Loads a table from the shared store: its rows replayed, its seats as
    /// stored with the sockets of every live instance, its clocks from the
    /// last commit. None: no such table (or one that cannot be replayed).
    async fn load_shared(
        &self,
        cluster: &Cluster,
        id: &TableId,
    ) -> Result<Option<Entry>, StoreError> {
        let Some(stored) = cluster.pg.table_since(id.as_str(), 1).await? else {
            return Ok(None);
        };
        let Some(mode) = mode_of(&stored.header) else {
            return Ok(None);
        };
        let Some(replayed) = replay(&stored.header, mode, &stored.moves) else {
            return Ok(None);
        };
        Ok(Some(
            self.assemble(cluster, stored.header, mode, stored.version, replayed, None)
                .await?,
        ))
    }

    /// An entry from a table's stored header and version and its replayed
    /// rows: the seats as stored with the sockets of every live instance,
    /// the clocks from the last commit.
    ///
    /// `cached`: the seating of the copy being brought forward. When the
    /// stored seats and absences are the ones it holds, its socket counts
    /// stand (a socket that comes or goes without changing them changes
    /// nothing a command decides, and every recount reads them afresh);
    /// otherwise they are counted again over the live instances.
    async fn assemble(
        &self,
        cluster: &Cluster,
        header: StoredTable,
        mode: TableMode,
        version: i64,
        replayed: Replayed,
        cached: Option<&Seating>,
    ) -> Result<Entry, StoreError> {
        let in_round = replayed.table.outcome().is_none();
        let seating = if matches!(mode, TableMode::Online { .. }) {
            let record = SeatingRecord {
                holders: [header.black_seat.clone(), header.white_seat.clone()],
                absent_since: [header.black_gone_since, header.white_gone_since],
                running_since: header.running_since,
            };
            let sockets = match cached.filter(|seating| seating.record() == record) {
                Some(seating) => seating.sockets().clone(),
                None => {
                    cluster
                        .pg
                        .presence(header.id.as_str(), self.alive_since(cluster))
                        .await?
                }
            };
            Some(Seating::shared(
                self.inner.config.grace_ms,
                record,
                in_round,
                sockets,
            ))
        } else {
            None
        };
        // The side to move has been using time since the last commit (or
        // the seat taken that started the clocks): the table's last activity.
        let clock = match mode {
            TableMode::Online {
                time: Some(control),
                ..
            } => {
                let to_move = if seating.as_ref().is_some_and(Seating::both_taken) {
                    replayed.table.to_move()
                } else {
                    None
                };
                Some(GameClock::restore(
                    control,
                    self.first_move_ms(mode),
                    replayed.used_now,
                    replayed.table.berserked(),
                    to_move,
                    header.last_activity,
                ))
            }
            _ => None,
        };
        Ok(Entry {
            id: header.id,
            table: replayed.table,
            owner: header.owner,
            seating,
            clock,
            times: replayed.times,
            next_seq: replayed.next_seq,
            version,
            ai_key: String::new(),
            ai_thinking: false,
            ai_search: None,
            jobs_stored: None,
            failed_commits: 0,
            updates: broadcast::channel(64).0,
        })
    }

    /// Brings a cached table up to its stored version with one read: the
    /// header, the version and only the rows it lacks, applied to the cached
    /// table (keeping its sockets' channel and this instance's AI search
    /// state). A table whose start or mode changed, or whose new rows do not
    /// follow on, is replayed whole instead. A table deleted meanwhile is
    /// forgotten and answers 404.
    async fn sync_shared(&self, cluster: &Cluster, entry: &mut Entry) -> Result<(), CommandError> {
        let gone = || CommandError::not_found(app::msg!("srv-no-table"));
        let Some(stored) = cluster
            .pg
            .table_since(entry.id.as_str(), entry.next_seq)
            .await?
        else {
            self.forget(&entry.id);
            return Err(gone());
        };
        if stored.version == entry.version {
            return Ok(());
        }
        let fresh = match caught_up(entry, &stored) {
            Some((mode, replayed)) => Some(
                self.assemble(
                    cluster,
                    stored.header,
                    mode,
                    stored.version,
                    replayed,
                    entry.seating.as_ref(),
                )
                .await?,
            ),
            None => self.load_shared(cluster, &entry.id).await?,
        };
        let Some(fresh) = fresh else {
            self.forget(&entry.id);
            return Err(gone());
        };
        entry.table = fresh.table;
        entry.owner = fresh.owner;
        entry.seating = fresh.seating;
        entry.clock = fresh.clock;
        entry.times = fresh.times;
        entry.next_seq = fresh.next_seq;
        entry.version = fresh.version;
        entry.jobs_stored = None;
        Ok(())
    }

    fn forget(&self, id: &TableId) {
        if let Ok(mut tables) = self.inner.tables.lock() {
            tables.remove(id);
        }
    }

    /// What a failed shared write answers: a stale write reloads the table
    /// and answers [`ErrorKind::Stale`] (decide again); a vanished table 404.
    ///
    /// [`ErrorKind::Stale`]: app::api::ErrorKind::Stale
    pub(super) async fn write_failed(&self, entry: &mut Entry, error: StoreError) -> CommandError {
        match error {
            StoreError::Stale => match self.sync(entry).await {
                Ok(()) => CommandError::stale(app::msg!("srv-table-stale")),
                Err(error) => error,
            },
            StoreError::Gone => {
                self.forget(&entry.id);
                CommandError::not_found(app::msg!("srv-no-table"))
            }
            other => other.into(),
        }
    }

    /// Stores a table's seats and presence, version-checked (the table is
    /// then one version further).
    async fn write_seating_shared(
        &self,
        cluster: &Cluster,
        entry: &mut Entry,
        seating: &SeatingRecord,
        touch: Option<i64>,
    ) -> Result<(), CommandError> {
        match cluster
            .pg
            .update_seating_at(entry.id.as_str(), seating, touch, entry.version)
            .await
        {
            Ok(()) => {
                entry.version += 1;
                Ok(())
            }
            Err(error) => Err(self.write_failed(entry, error).await),
        }
    }

    /// After a shared table was written: its jobs (next timer, AI move) are
    /// stored and the other instances hear its new version.
    ///
    /// `change`: what a command just wrote. While the table is still at the
    /// version it brought, the message carries its rows (the other
    /// instances apply them without reading the table) — or was already
    /// sent by the commit itself. A later write (seats) is announced plainly.
    async fn published_shared(&self, cluster: &Cluster, entry: &mut Entry, change: Option<Change>) {
        self.write_jobs(cluster, entry).await;
        let change = change.filter(|change| change.version == entry.version);
        if change.as_ref().is_some_and(|change| change.sent) {
            return;
        }
        let change = change.map(|change| change.rows);
        if let Err(error) = cluster
            .bus
            .publish(BusMessage::Table {
                id: entry.id.clone(),
                version: entry.version,
                change,
            })
            .await
        {
            tracing::error!(table = %entry.id, "cannot publish the change: {error}");
        }
    }

    /// Stores a table's jobs: the earliest timer (a grace end or a flag) and
    /// an AI move to make, leased to this instance while its search runs.
    async fn write_jobs(&self, cluster: &Cluster, entry: &mut Entry) {
        let now = self.now();
        let timer = next_timer(entry);
        let ai = entry.table.ai_to_move().then_some(now);
        let lease = entry
            .ai_thinking
            .then(|| now.saturating_add(cluster.timeout_ms));
        let jobs = (timer, ai, lease);
        // Unchanged since this instance stored them (and no other instance
        // wrote the table meanwhile: catching up forgets them): nothing to
        // write — most moves of an untimed game.
        if entry.jobs_stored == Some(jobs) {
            return;
        }
        match cluster
            .pg
            .set_jobs(entry.id.as_str(), timer, ai, lease)
            .await
        {
            Ok(()) => entry.jobs_stored = Some(jobs),
            Err(error) => {
                entry.jobs_stored = None;
                tracing::error!(table = %entry.id, "cannot store the table's jobs: {error}");
            }
        }
    }

    /// A socket opened or closed on this instance: its count changes, then
    /// the table's seats are brought in line with every live instance's.
    async fn shared_presence(&self, cluster: &Cluster, id: &TableId, session: &str, delta: i32) {
        if let Err(error) = cluster.pg.add_presence(id.as_str(), session, delta).await {
            tracing::error!(table = %id, "cannot count the socket: {error}");
            return;
        }
        self.recount(cluster, id).await;
    }

    /// Recounts a table's presence over the live instances and stores the
    /// seats if someone came or went (retried when another write came first).
    async fn recount(&self, cluster: &Cluster, id: &TableId) {
        let Ok(entry) = self.entry(id).await else {
            return;
        };
        let mut entry = entry.lock().await;
        for _ in 0..TRIES {
            if self.sync(&mut entry).await.is_err() {
                return;
            }
            let now = self.now();
            let sockets = match cluster
                .pg
                .presence(id.as_str(), self.alive_since(cluster))
                .await
            {
                Ok(sockets) => sockets,
                Err(error) => {
                    tracing::error!(table = %id, "cannot count the sockets: {error}");
                    return;
                }
            };
            let Some(seating) = entry.seating.as_ref() else {
                return;
            };
            let before = seating.record();
            let mut next = seating.clone();
            let due = next.set_sockets(sockets, now);
            let after = next.record();
            if after != before {
                match self.write_seating(&mut entry, &after, None).await {
                    Ok(()) => {}
                    Err(error) if error.kind == app::api::ErrorKind::Stale => continue,
                    Err(error) => {
                        tracing::error!(table = %id, "cannot record presence: {}", error.message);
                        return;
                    }
                }
            }
            entry.seating = Some(next);
            if after != before {
                self.published(&mut entry, None).await;
                self.broadcast(&entry);
            }
            if let Some(command) = due {
                self.run_seat_command(&mut entry, command).await;
            }
            return;
        }
    }

    /// A clean shutdown on PostgreSQL: this instance's sockets stop counting
    /// at once (not after the heartbeat timeout) and its queue rows go.
    async fn leave_shared(&self, cluster: &Cluster) {
        match cluster.pg.leave().await {
            Ok(tables) => {
                for id in tables {
                    self.recount(cluster, &TableId::new(id)).await;
                }
            }
            Err(error) => tracing::error!("cannot leave the cluster cleanly: {error}"),
        }
    }

    /// Hears the other instances: a table written elsewhere is reloaded and
    /// pushed to this instance's sockets; a pairing reaches its waiting
    /// player.
    async fn hear(self, mut heard: broadcast::Receiver<BusMessage>, waiting: Arc<Waiters>) {
        loop {
            let message = match heard.recv().await {
                Ok(message) => message,
                Err(broadcast::error::RecvError::Lagged(missed)) => {
                    // The periodic version check catches up.
                    tracing::warn!(missed, "bus messages missed");
                    continue;
                }
                Err(broadcast::error::RecvError::Closed) => return,
            };
            match message {
                BusMessage::Table { id, version, .. } if version < 0 => self.forget(&id),
                BusMessage::Table {
                    id,
                    version,
                    change,
                } => {
                    let Some(entry) = self.cached(&id) else {
                        continue;
                    };
                    let mut entry = entry.lock().await;
                    if entry.version >= version {
                        continue;
                    }
                    // The command's rows, when they take this copy to the
                    // new version; else read what changed.
                    let applied = change.is_some_and(|change| {
                        entry.version == version - 1 && apply_change(&mut entry, &change, version)
                    });
                    if applied || self.sync(&mut entry).await.is_ok() {
                        self.broadcast(&entry);
                    }
                }
                BusMessage::Matched { ticket, table } => waiting.matched(ticket, table),
                // The lab hears its own messages (crate::lab::shared).
                BusMessage::Lab { .. } => {}
            }
        }
    }

    /// The periodic work of an instance on PostgreSQL: its heartbeat,
    /// reaping dead instances (their players' grace starts), taking due
    /// jobs, catching up on missed changes and dropping idle caches.
    async fn cluster_tick(&self, cluster: &Cluster) {
        let now = self.now();
        if let Err(error) = cluster.pg.heartbeat(now).await {
            tracing::error!("heartbeat failed: {error}");
        }
        self.renew_ai_leases(cluster, now).await;
        match cluster.pg.reap_dead(self.alive_since(cluster)).await {
            Ok(tables) => {
                for id in tables {
                    self.recount(cluster, &TableId::new(id)).await;
                }
            }
            Err(error) => tracing::error!("cannot reap dead instances: {error}"),
        }
        match cluster
            .pg
            .take_jobs(now, now.saturating_add(cluster.timeout_ms), 64)
            .await
        {
            Ok(jobs) => {
                for job in jobs {
                    self.run_job(cluster, &TableId::new(job.table_id)).await;
                }
            }
            Err(error) => tracing::error!("cannot take jobs: {error}"),
        }
        self.catch_up(cluster).await;
    }

    /// Keeps this instance's AI searches leased to it. A search leased for
    /// one instance timeout that waits longer in the AI pool's queue, or runs
    /// longer, would otherwise be taken by another instance and run twice
    /// (the second reply is stale and dropped): the pool's time spent twice
    /// exactly when it is busiest. A table whose entry is locked right now
    /// is renewed on the next tick, well inside its lease.
    async fn renew_ai_leases(&self, cluster: &Cluster, now: i64) {
        let thinking: Vec<String> = self
            .inner
            .tables
            .lock()
            .map(|tables| {
                tables
                    .iter()
                    .filter(|(_, entry)| entry.try_lock().is_ok_and(|e| e.ai_thinking))
                    .map(|(id, _)| id.to_string())
                    .collect()
            })
            .unwrap_or_default();
        if thinking.is_empty() {
            return;
        }
        if let Err(error) = cluster
            .pg
            .renew_ai_leases(&thinking, now.saturating_add(cluster.timeout_ms))
            .await
        {
            tracing::error!("cannot renew the AI searches' leases: {error}");
        }
    }

    /// Runs a table's jobs taken from the shared queue: what its timers ask
    /// for, and the AI's search if it is to move; then stores its jobs again.
    async fn run_job(&self, cluster: &Cluster, id: &TableId) {
        let Ok(entry) = self.entry(id).await else {
            return;
        };
        let mut entry = entry.lock().await;
        if self.sync(&mut entry).await.is_err() {
            return;
        }
        self.run_due_timer(&mut entry, self.now()).await;
        if entry.table.ai_to_move() && !entry.ai_thinking {
            self.after_change(&mut entry);
        }
        // Taking the job changed its row (the lease): store it whatever
        // this instance stored last.
        entry.jobs_stored = None;
        self.write_jobs(cluster, &mut entry).await;
    }

    /// Reloads cached tables with sockets whose stored version moved without
    /// this instance hearing of it (a lost notification), and drops cached
    /// tables nobody here watches.
    async fn catch_up(&self, cluster: &Cluster) {
        let entries: Vec<(TableId, Arc<AsyncMutex<Entry>>)> = self
            .inner
            .tables
            .lock()
            .map(|t| t.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default();
        let mut watched = Vec::new();
        for (id, entry) in entries {
            let Ok(guard) = entry.try_lock() else {
                continue;
            };
            if guard.updates.receiver_count() > 0 {
                watched.push((id, guard.version, entry.clone()));
            } else if !guard.ai_thinking {
                drop(guard);
                self.forget(&id);
            }
        }
        if watched.is_empty() {
            return;
        }
        let ids: Vec<String> = watched.iter().map(|(id, _, _)| id.to_string()).collect();
        let Ok(versions) = cluster.pg.versions(&ids).await else {
            return;
        };
        for (id, version, entry) in watched {
            if versions.get(id.as_str()) == Some(&version) {
                continue;
            }
            let mut entry = entry.lock().await;
            if self.sync(&mut entry).await.is_ok() {
                self.broadcast(&entry);
            }
        }
    }
}

#[async_trait::async_trait]
impl<S: TableStore> Coordination<S> for Cluster {
    fn start(&self, hub: &Hub<S>) {
        tokio::spawn(hub.clone().hear(self.bus.subscribe(), self.waiting.clone()));
    }

    /// Tables on PostgreSQL are loaded when first asked for; their timers
    /// and AI moves are jobs.
    async fn restore(&self, _hub: &Hub<S>) -> Result<(), RestoreError> {
        Ok(())
    }

    async fn load(&self, hub: &Hub<S>, id: &TableId) -> Result<Option<Entry>, StoreError> {
        hub.load_shared(self, id).await
    }

    async fn sync(&self, hub: &Hub<S>, entry: &mut Entry) -> Result<(), CommandError> {
        hub.sync_shared(self, entry).await
    }

    /// Version-checked, with its bus message (the entry is then one
    /// version further, and the change is what the other instances apply).
    async fn record(
        &self,
        _hub: &Hub<S>,
        entry: &mut Entry,
        record: &Record,
    ) -> Result<Option<Change>, StoreError> {
        let change = Change {
            version: entry.version + 1,
            rows: TableChange {
                at: record.now,
                rows: record.rows.clone(),
            },
            sent: self.bus.sent_at_commit(),
        };
        // On PostgreSQL's own bus the message goes out with the commit
        // that writes the record.
        let notify = change.sent.then(|| change.encoded(&entry.id));
        self.pg
            .record_notifying(record, entry.version, notify)
            .await?;
        entry.version += 1;
        Ok(Some(change))
    }

    async fn write_seating(
        &self,
        hub: &Hub<S>,
        entry: &mut Entry,
        seating: &SeatingRecord,
        touch: Option<i64>,
    ) -> Result<(), CommandError> {
        hub.write_seating_shared(self, entry, seating, touch).await
    }

    async fn published(&self, hub: &Hub<S>, entry: &mut Entry, change: Option<Change>) {
        hub.published_shared(self, entry, change).await;
    }

    /// Other instances drop their copies (a negative version: deleted).
    async fn deleted(&self, ids: &[TableId]) {
        for id in ids {
            let message = BusMessage::Table {
                id: id.clone(),
                version: -1,
                change: None,
            };
            if let Err(error) = self.bus.publish(message).await {
                tracing::error!(table = %id, "cannot publish the deletion: {error}");
            }
        }
    }

    async fn socket(&self, hub: &Hub<S>, id: &TableId, session: &Session, delta: i32) {
        hub.shared_presence(self, id, session.as_str(), delta).await;
    }

    async fn sockets(
        &self,
        hub: &Hub<S>,
        id: &TableId,
    ) -> Result<Option<HashMap<String, u32>>, StoreError> {
        Ok(Some(
            self.pg.presence(id.as_str(), hub.alive_since(self)).await?,
        ))
    }

    async fn tick(&self, hub: &Hub<S>) {
        hub.cluster_tick(self).await;
    }

    /// The AI's move is a job any instance takes (`cluster_tick`).
    fn retry_ai(&self, _hub: &Hub<S>, _entry: &mut Entry) {}

    async fn leave(&self, hub: &Hub<S>) {
        hub.leave_shared(self).await;
    }

    async fn enqueue(
        &self,
        hub: &Hub<S>,
        place: Reservation,
        who: Caller,
        control: TimeControl,
        rating: Option<f64>,
    ) -> Result<Queued, CommandError> {
        hub.enqueue_shared(self, place, who.session, control, rating)
            .await
    }

    async fn match_waiting(
        &self,
        hub: &Hub<S>,
        ticket: u64,
        caller: &Caller,
        control: TimeControl,
    ) -> bool {
        hub.match_waiting_shared(self, ticket, caller, control)
            .await
    }

    fn dequeue(&self, _hub: &Hub<S>, ticket: u64) {
        let ticket = i64::try_from(ticket).unwrap_or(-1);
        self.waiting.stop_waiting(ticket);
        let pg = self.pg.clone();
        tokio::spawn(async move {
            if let Err(error) = pg.dequeue(ticket).await {
                tracing::error!("cannot leave the queue: {error}");
            }
        });
    }

    fn queue_len(&self, _hub: &Hub<S>) -> usize {
        self.waiting.waiting_count()
    }
}
