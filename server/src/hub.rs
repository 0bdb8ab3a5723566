//! The table hub: every live table in memory, the command path (check → apply →
//! commit → broadcast → answer), the AI's turns, restart recovery and expiry.
//!
//! A command is committed to SQLite before anyone hears of it. Recovery replays
//! the stored commands through [`Table::apply`], the same code path as play.

use crate::ai::{AiPool, Job, Reply};
use crate::clock::Clock;
use crate::clock_control::GameClock;
use crate::seating::{SeatCommand, SeatEvent, Seating, SeatingRecord};
use crate::store::{MoveRow, Record, RoundEnd, Store, StoreError};
use crate::table::{Command, Event, Table, TableError};
use app::api::backend::{Backend, BoxFuture};
use app::api::CommandError;
use app::protocol::{EndReason, Session, Side, TableCommand, TableMode, TableView, TimeControl};
use engine::{Color, Square};
use rand::Rng;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::{broadcast, Mutex as AsyncMutex};

/// Settings of the hub.
#[derive(Clone, Debug)]
pub struct HubConfig {
    pub ai_threads: usize,
    pub ai_queue: usize,
    /// Searches one session may have waiting (the AI queue is fair per session).
    pub ai_queue_per_session: usize,
    /// Idle time after which a table is deleted, in milliseconds.
    pub table_expiry_ms: i64,
    /// How long a player who left an online table keeps the seat, in milliseconds.
    pub grace_ms: i64,
    /// FOR TESTS ONLY: accept time controls other than the presets.
    pub test_time_controls: bool,
}

impl Default for HubConfig {
    fn default() -> Self {
        Self {
            ai_threads: 2,
            ai_queue: 256,
            ai_queue_per_session: 32,
            table_expiry_ms: 24 * 3600 * 1000,
            grace_ms: 90_000,
            test_time_controls: false,
        }
    }
}

/// A pushed update: the table's state for everyone (the socket fills in `you`).
#[derive(Clone, Debug)]
pub struct Update {
    pub view: Arc<TableView>,
}

struct Entry {
    id: String,
    table: Table,
    owner: String,
    /// The seat rules of an online table (None for the other modes).
    seating: Option<Seating>,
    /// The clocks of a timed online table (None: untimed or another mode).
    clock: Option<GameClock>,
    /// Time used by each placement, per round (index: round − 1), for exports.
    times: Vec<Vec<Option<i64>>>,
    next_seq: i64,
    ai_thinking: bool,
    ai_search: Option<app::protocol::AiSearch>,
    updates: broadcast::Sender<Update>,
}

impl Entry {
    fn is_online(&self) -> bool {
        self.seating.is_some()
    }

    /// The sides a session may play at this table.
    fn seats(&self, session: &Session) -> Vec<Side> {
        match (self.table.mode(), &self.seating) {
            (_, Some(seating)) => seating.sides_of(&session.0),
            (TableMode::VsAi { human, .. }, None) if session.0 == self.owner => vec![human],
            (TableMode::HotSeat, None) if session.0 == self.owner => {
                vec![Side::Black, Side::White]
            }
            _ => Vec::new(),
        }
    }

    fn both_seated(&self) -> bool {
        self.seating.as_ref().is_none_or(Seating::both_taken)
    }

    /// The side whose clock should run now: the side to move of a round in
    /// progress with both seats taken.
    fn clock_side(&self) -> Option<Side> {
        if self.both_seated() {
            self.table.to_move()
        } else {
            None
        }
    }

    /// What the table's timers ask for at `now`: the earliest of a grace that
    /// ended and a flag that fell (whichever ended first decides).
    fn due_timer(&mut self, now: i64) -> Option<Command> {
        let seat = self
            .seating
            .as_mut()
            .and_then(|s| s.apply(SeatEvent::Tick, now).ok().flatten());
        let flag = self.clock.as_ref().and_then(|c| c.flag(now));
        match (seat, flag) {
            (None, None) => None,
            (Some(command), None) => Some(seat_command(command)),
            (None, Some(side)) => Some(Command::Flag { side }),
            (Some(command), Some(side)) => {
                let grace_end = self.seating.as_ref().and_then(|s| {
                    [Side::Black, Side::White]
                        .into_iter()
                        .filter_map(|side| s.deadline(side))
                        .min()
                });
                let flag_end = self.clock.as_ref().and_then(GameClock::deadline);
                if flag_end <= grace_end {
                    Some(Command::Flag { side })
                } else {
                    Some(seat_command(command))
                }
            }
        }
    }
}

fn seat_command(command: SeatCommand) -> Command {
    match command {
        SeatCommand::Forfeit { side } => Command::Forfeit { side },
        SeatCommand::Abandon => Command::Abandon,
    }
}

struct Inner {
    store: Store,
    clock: Arc<dyn Clock>,
    config: HubConfig,
    tables: Mutex<HashMap<String, Arc<AsyncMutex<Entry>>>>,
    /// Stored sessions (token hashes) and when this process last marked
    /// each used; filled lazily, never loaded whole.
    sessions: Mutex<HashMap<String, i64>>,
    ai: AiPool,
    /// Quick match: the player waiting for each time control.
    queue: Mutex<HashMap<TimeControl, Waiting>>,
    tickets: std::sync::atomic::AtomicU64,
    metrics: Arc<crate::metrics::Metrics>,
}

/// The player waiting in the quick-match queue.
struct Waiting {
    session: Session,
    ticket: u64,
    matched: tokio::sync::oneshot::Sender<String>,
}

/// The answer to joining the quick-match queue.
pub enum Queued {
    /// Paired at once: the table to go to.
    Matched(String),
    /// Waiting; the receiver yields the table when an opponent arrives.
    Waiting {
        ticket: u64,
        matched: tokio::sync::oneshot::Receiver<String>,
    },
}

/// The hub; cheap to clone.
#[derive(Clone)]
pub struct Hub {
    inner: Arc<Inner>,
}

/// Errors while restoring tables at start-up.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Black => "black",
        Side::White => "white",
    }
}

fn parse_side(text: &str) -> Option<Side> {
    match text {
        "black" => Some(Side::Black),
        "white" => Some(Side::White),
        _ => None,
    }
}

fn new_id(bytes: usize) -> String {
    let mut rng = rand::thread_rng();
    (0..bytes)
        .map(|_| format!("{:02x}", rng.gen::<u8>()))
        .collect()
}

impl Hub {
    /// Starts the hub and its AI workers, restoring every stored table.
    pub async fn start(
        store: Store,
        clock: Arc<dyn Clock>,
        config: HubConfig,
    ) -> Result<Self, RestoreError> {
        let (replies_tx, replies_rx) = tokio::sync::mpsc::unbounded_channel();
        let metrics = Arc::new(crate::metrics::Metrics::default());
        let ai = AiPool::start(
            config.ai_threads,
            config.ai_queue,
            config.ai_queue_per_session,
            replies_tx,
            metrics.clone(),
        );
        let hub = Hub {
            inner: Arc::new(Inner {
                store,
                clock,
                config,
                tables: Mutex::new(HashMap::new()),
                sessions: Mutex::new(HashMap::new()),
                ai,
                queue: Mutex::new(HashMap::new()),
                tickets: std::sync::atomic::AtomicU64::new(1),
                metrics,
            }),
        };
        hub.restore().await?;
        tokio::spawn(hub.clone().ai_replies(replies_rx));
        Ok(hub)
    }

    /// The server's live figures.
    pub fn metrics(&self) -> &crate::metrics::Metrics {
        &self.inner.metrics
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    pub fn now(&self) -> i64 {
        self.inner.clock.now_ms()
    }

    /// Number of tables in memory.
    pub fn live_tables(&self) -> usize {
        self.inner.tables.lock().map_or(0, |t| t.len())
    }

    // ----- sessions -----

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
            .map(|s| s.get(&session.0).is_some_and(|&at| now - at < 3_600_000))
            .unwrap_or(false);
        if fresh {
            return Ok(());
        }
        self.inner.store.remember_session(&session.0, now).await?;
        if let Ok(mut sessions) = self.inner.sessions.lock() {
            sessions.insert(session.0.clone(), now);
        }
        Ok(())
    }

    /// Deletes sessions unused for `expiry_secs`; returns how many.
    pub async fn expire_sessions(&self, expiry_secs: u64) -> Result<u64, StoreError> {
        let span = i64::try_from(expiry_secs.saturating_mul(1000)).unwrap_or(i64::MAX);
        let before = self.now().saturating_sub(span);
        if let Ok(mut sessions) = self.inner.sessions.lock() {
            sessions.retain(|_, at| *at >= before);
        }
        self.inner.store.expire_sessions(before).await
    }

    /// Whether a table is live (in memory).
    pub fn is_live(&self, id: &str) -> bool {
        self.inner
            .tables
            .lock()
            .map(|t| t.contains_key(id))
            .unwrap_or(false)
    }

    // ----- tables -----

    fn entry(&self, id: &str) -> Result<Arc<AsyncMutex<Entry>>, CommandError> {
        self.inner
            .tables
            .lock()
            .ok()
            .and_then(|t| t.get(id).cloned())
            .ok_or_else(|| {
                CommandError::not_found("No such table: it may have expired or never existed.")
            })
    }

    /// Subscribes to a table's updates; also returns the current view.
    pub async fn subscribe(
        &self,
        id: &str,
        session: &Session,
    ) -> Result<(TableView, broadcast::Receiver<Update>, Vec<Side>), CommandError> {
        let entry = self.entry(id)?;
        let entry = entry.lock().await;
        Ok((
            self.view_of(&entry, entry.seats(session)),
            entry.updates.subscribe(),
            entry.seats(session),
        ))
    }

    /// Creates a table owned by `session`. An online table seats its creator
    /// on a random side (and `opponent`, if given, on the other).
    pub async fn create(&self, session: &Session, mode: TableMode) -> Result<String, CommandError> {
        self.create_seated(session, mode, None, None).await
    }

    /// Creates a vs-AI or hot-seat table whose rounds start from the position
    /// `obf` (OBF text). A malformed or impossible position is refused and
    /// nothing is created.
    pub async fn create_from_position(
        &self,
        session: &Session,
        mode: TableMode,
        obf: &str,
    ) -> Result<String, CommandError> {
        if matches!(mode, TableMode::Online { .. }) {
            return Err(CommandError::new(
                "Online tables start from the usual position; start from a position against the AI or hot-seat.",
            ));
        }
        let start = crate::table::playable_start(obf).map_err(CommandError::new)?;
        self.create_seated(session, mode, None, Some(start)).await
    }

    async fn create_seated(
        &self,
        session: &Session,
        mode: TableMode,
        opponent: Option<&Session>,
        start: Option<engine::Position>,
    ) -> Result<String, CommandError> {
        if let TableMode::VsAi { depth, .. } = mode {
            if !(1..=6).contains(&depth) {
                return Err(CommandError::new("The AI's depth must be between 1 and 6."));
            }
        }
        if let TableMode::Online { private, time } = mode {
            self.check_control(private, time)?;
        }
        let now = self.now();
        let seating = match mode {
            TableMode::Online { .. } => {
                let mut seating = Seating::new(self.inner.config.grace_ms);
                let creator_side = if rand::thread_rng().gen_bool(0.5) {
                    Side::Black
                } else {
                    Side::White
                };
                let mut seat = |side: Side, who: &Session| {
                    seating
                        .apply(
                            SeatEvent::SeatTaken {
                                side,
                                session: who.0.clone(),
                            },
                            now,
                        )
                        .map_err(|e| CommandError::new(e.to_string()))
                };
                seat(creator_side, session)?;
                if let Some(opponent) = opponent {
                    seat(creator_side.opponent(), opponent)?;
                }
                Some(seating)
            }
            _ => None,
        };
        let record = seating.as_ref().map(Seating::record).unwrap_or_default();
        self.remember_session(session)
            .await
            .map_err(storage_error)?;
        if let Some(opponent) = opponent {
            self.remember_session(opponent)
                .await
                .map_err(storage_error)?;
        }
        let id = new_id(8);
        let mode_json = serde_json::to_string(&mode)
            .map_err(|e| CommandError::new(format!("cannot encode the table mode: {e}")))?;
        let start_obf = start.map(|p| p.to_obf());
        self.inner
            .store
            .create_table(
                &id,
                &mode_json,
                &session.0,
                (record.holders[0].as_deref(), record.holders[1].as_deref()),
                now,
            )
            .await
            .map_err(storage_error)?;
        if seating.is_some() || start_obf.is_some() {
            self.inner
                .store
                .update_table_setup(&id, &record, start_obf.as_deref())
                .await
                .map_err(storage_error)?;
        }
        let table = match start {
            Some(start) => Table::from_position(mode, start),
            None => Table::new(mode),
        };
        let clock = match mode {
            TableMode::Online {
                time: Some(control),
                ..
            } => Some(GameClock::new(control)),
            _ => None,
        };
        let entry = Entry {
            id: id.clone(),
            table,
            owner: session.0.clone(),
            seating,
            clock,
            times: vec![Vec::new()],
            next_seq: 1,
            ai_thinking: false,
            ai_search: None,
            updates: broadcast::channel(64).0,
        };
        let entry = Arc::new(AsyncMutex::new(entry));
        if let Ok(mut tables) = self.inner.tables.lock() {
            tables.insert(id.clone(), entry.clone());
        }
        let mut guard = entry.lock().await;
        let to_move = guard.clock_side();
        if let Some(clock) = guard.clock.as_mut() {
            clock.turn_started(to_move, now);
        }
        self.after_change(&mut guard);
        tracing::info!(table = %id, ?mode, "table created");
        Ok(id)
    }

    /// The view of a table for a session. Viewing never takes a seat (see
    /// [`Hub::take_seat`]).
    pub async fn view(&self, session: &Session, id: &str) -> Result<TableView, CommandError> {
        let entry = self.entry(id)?;
        let mut entry = entry.lock().await;
        if entry.table.ai_to_move() && !entry.ai_thinking {
            // An AI search refused earlier (queue full): ask again now.
            self.after_change(&mut entry);
        }
        Ok(self.view_of(&entry, entry.seats(session)))
    }

    /// Seats `session` in the free seat of an online table, by their explicit
    /// action. Refused (nothing changes) at other tables, for a session that
    /// already holds a seat, and when both seats are taken.
    pub async fn take_seat(&self, session: &Session, id: &str) -> Result<TableView, CommandError> {
        let entry = self.entry(id)?;
        let mut entry = entry.lock().await;
        let now = self.now();
        let Some(seating) = entry.seating.as_ref() else {
            return Err(CommandError::new(
                "Only online tables have seats to take: this table is played in one browser.",
            ));
        };
        if !seating.sides_of(&session.0).is_empty() {
            return Err(CommandError::new(
                crate::seating::SeatError::AlreadySeated.to_string(),
            ));
        }
        let Some(side) = seating.free_seat() else {
            return Err(CommandError::new(
                crate::seating::SeatError::SeatTaken.to_string(),
            ));
        };
        self.remember_session(session)
            .await
            .map_err(storage_error)?;
        let mut next = seating.clone();
        let due = next
            .apply(
                SeatEvent::SeatTaken {
                    side,
                    session: session.0.clone(),
                },
                now,
            )
            .map_err(|e| CommandError::new(e.to_string()))?;
        self.inner
            .store
            .update_seating(&entry.id, &next.record(), Some(now))
            .await
            .map_err(storage_error)?;
        entry.seating = Some(next);
        let to_move = entry.clock_side();
        if let Some(clock) = entry.clock.as_mut() {
            clock.turn_started(to_move, now);
        }
        tracing::info!(table = %entry.id, side = side_name(side), "a visitor took the free seat");
        self.after_change(&mut entry);
        if let Some(command) = due {
            self.run_seat_command(&mut entry, command).await;
        }
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

    /// Refuses a time control the lobby does not offer: untimed is for
    /// private tables only; other controls than the presets only with the
    /// test-only flag.
    pub fn check_control(
        &self,
        private: bool,
        time: Option<TimeControl>,
    ) -> Result<(), CommandError> {
        match time {
            None if !private => Err(CommandError::new(
                "Quick match is always timed: choose 3+2, 5+0 or 10+5.",
            )),
            Some(control) if control.base_s == 0 => Err(CommandError::new(
                "A time control needs some time: choose 3+2, 5+0 or 10+5.",
            )),
            Some(control) if !control.is_preset() && !self.inner.config.test_time_controls => {
                Err(CommandError::new(format!(
                    "{} is not offered: choose 3+2, 5+0 or 10+5.",
                    control.label()
                )))
            }
            _ => Ok(()),
        }
    }

    // ----- quick match -----

    /// Joins the quick-match queue for a time control: pairs with the player
    /// waiting for the same control, or waits.
    pub async fn enqueue(
        &self,
        session: Session,
        control: TimeControl,
    ) -> Result<Queued, CommandError> {
        self.check_control(false, Some(control))?;
        let partner = {
            let mut queue = self
                .inner
                .queue
                .lock()
                .map_err(|_| CommandError::new("the queue is unavailable"))?;
            match queue.remove(&control) {
                Some(waiting) if waiting.session != session && !waiting.matched.is_closed() => {
                    Some(waiting)
                }
                _ => {
                    let ticket = self
                        .inner
                        .tickets
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let (tx, rx) = tokio::sync::oneshot::channel();
                    queue.insert(
                        control,
                        Waiting {
                            session: session.clone(),
                            ticket,
                            matched: tx,
                        },
                    );
                    return Ok(Queued::Waiting {
                        ticket,
                        matched: rx,
                    });
                }
            }
        };
        let Some(partner) = partner else {
            return Err(CommandError::new("the queue is unavailable"));
        };
        let id = self
            .create_seated(
                &partner.session,
                TableMode::Online {
                    private: false,
                    time: Some(control),
                },
                Some(&session),
                None,
            )
            .await?;
        // If the partner vanished meanwhile, the table still exists and the
        // grace period decides; the new player is told either way.
        let _ = partner.matched.send(id.clone());
        tracing::info!(table = %id, "quick match paired two players");
        Ok(Queued::Matched(id))
    }

    /// Leaves the queue (the waiting socket closed).
    pub fn dequeue(&self, ticket: u64) {
        if let Ok(mut queue) = self.inner.queue.lock() {
            queue.retain(|_, w| w.ticket != ticket);
        }
    }

    /// Whether someone is waiting in the queue.
    pub fn queue_len(&self) -> usize {
        self.inner
            .queue
            .lock()
            .map_or(0, |q| q.values().filter(|w| !w.matched.is_closed()).count())
    }

    // ----- presence -----

    /// A socket of `session` opened on table `id` (seat holder or not).
    pub async fn socket_opened(&self, id: &str, session: &Session) {
        self.seat_event(
            id,
            SeatEvent::SocketOpened {
                session: session.0.clone(),
            },
        )
        .await;
    }

    /// A socket of `session` on table `id` closed.
    pub async fn socket_closed(&self, id: &str, session: &Session) {
        self.seat_event(
            id,
            SeatEvent::SocketClosed {
                session: session.0.clone(),
            },
        )
        .await;
    }

    /// Feeds a presence event to a table's seating, stores what changed,
    /// broadcasts, and runs the command the seating answers.
    async fn seat_event(&self, id: &str, event: SeatEvent) {
        let Ok(entry) = self.entry(id) else { return };
        let mut entry = entry.lock().await;
        let now = self.now();
        let Some(seating) = entry.seating.as_mut() else {
            return;
        };
        let before = seating.record();
        let due = match seating.apply(event, now) {
            Ok(due) => due,
            Err(error) => {
                tracing::warn!(table = %entry.id, "seat event refused: {error}");
                return;
            }
        };
        let after = seating.record();
        if after != before {
            if let Err(error) = self
                .inner
                .store
                .update_seating(&entry.id, &after, None)
                .await
            {
                tracing::error!(table = %entry.id, "cannot record presence: {error}");
            }
            self.broadcast(&entry);
        }
        if let Some(command) = due {
            self.run_seat_command(&mut entry, command).await;
        }
    }

    /// Commits what the seating asked for: a forfeit or an abandon.
    async fn run_seat_command(&self, entry: &mut Entry, command: SeatCommand) {
        let command = seat_command(command);
        if let Err(error) = self.commit(entry, command).await {
            tracing::error!(table = %entry.id, "grace timeout not applied: {}", error.message);
        }
    }

    /// Ends online rounds whose absent players ran out of grace or whose
    /// side to move ran out of time (a tick of every table's seating and
    /// clocks at the clock's current time; the earlier deadline decides).
    pub async fn check_presence(&self) {
        let entries: Vec<_> = self
            .inner
            .tables
            .lock()
            .map(|t| t.values().cloned().collect())
            .unwrap_or_default();
        let now = self.now();
        for entry in entries {
            let mut entry = entry.lock().await;
            self.run_due_timer(&mut entry, now).await;
        }
    }

    /// Commits what the table's timers ask for at `now`, if anything.
    async fn run_due_timer(&self, entry: &mut Entry, now: i64) {
        if let Some(command) = entry.due_timer(now) {
            if let Err(error) = self.commit(entry, command).await {
                tracing::error!(table = %entry.id, "timer not applied: {}", error.message);
            }
        }
    }

    /// Pushes a fresh view to the table's sockets (presence changes).
    fn broadcast(&self, entry: &Entry) {
        let view = Arc::new(self.view_of(entry, Vec::new()));
        let _ = entry.updates.send(Update { view });
    }

    /// Runs a player's command; refusals are counted in the metrics.
    pub async fn execute(
        &self,
        session: &Session,
        command: TableCommand,
    ) -> Result<TableView, CommandError> {
        let result = self.execute_checked(session, command).await;
        if result.is_err() {
            self.inner
                .metrics
                .commands_refused_total
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        result
    }

    async fn execute_checked(
        &self,
        session: &Session,
        command: TableCommand,
    ) -> Result<TableView, CommandError> {
        let id = match &command {
            TableCommand::Place { table, .. }
            | TableCommand::Resign { table, .. }
            | TableCommand::Vote { table, .. } => table.clone(),
        };
        let entry = self.entry(&id)?;
        let mut entry = entry.lock().await;
        // The server's clock decides: a flag that fell (or a grace that ended)
        // before this command arrived is committed first.
        self.run_due_timer(&mut entry, self.now()).await;
        let seats = entry.seats(session);
        if seats.is_empty() {
            return Err(CommandError::new(TableError::NotASeat.to_string()));
        }
        if entry.is_online()
            && !entry.both_seated()
            && matches!(command, TableCommand::Place { .. })
        {
            return Err(CommandError::new(
                "Waiting for an opponent: share this table's link to start.",
            ));
        }
        let to_move = entry.table.to_move();
        let pick_side = |requested: Option<Side>| -> Result<Side, CommandError> {
            match requested {
                Some(side) if seats.contains(&side) => Ok(side),
                Some(side) => Err(CommandError::new(format!(
                    "You do not play {} at this table.",
                    side.name()
                ))),
                None if seats.len() == 1 => Ok(seats[0]),
                None => to_move
                    .ok_or_else(|| CommandError::new("Say which side votes: black or white.")),
            }
        };
        let command = match command {
            TableCommand::Place { square, .. } => {
                let square = Square::new(usize::from(square)).ok_or_else(|| {
                    CommandError::new(format!("Square {square} is not on the board (0–63)."))
                })?;
                let side = match to_move {
                    Some(side) if seats.contains(&side) => side,
                    Some(side) if entry.table.ai_side() == Some(side) => {
                        return Err(CommandError::new("Wait: the AI is thinking."))
                    }
                    Some(side) => {
                        return Err(CommandError::new(
                            TableError::NotYourTurn { to_move: side }.to_string(),
                        ))
                    }
                    None => return Err(CommandError::new(TableError::GameOver.to_string())),
                };
                Command::Place { side, square }
            }
            TableCommand::Resign { side, .. } => Command::Resign {
                side: pick_side(side)?,
            },
            TableCommand::Vote { side, vote, .. } => Command::Vote {
                side: pick_side(side)?,
                vote,
            },
        };
        self.commit(&mut entry, command).await?;
        Ok(self.view_of(&entry, entry.seats(session)))
    }

    /// A new table with the same mode, owned by the caller.
    pub async fn new_table_like(
        &self,
        session: &Session,
        id: &str,
    ) -> Result<String, CommandError> {
        let (mode, start) = {
            let entry = self.entry(id)?;
            let entry = entry.lock().await;
            if entry.seats(session).is_empty() {
                return Err(CommandError::new(TableError::NotASeat.to_string()));
            }
            let start = entry.table.start();
            let start = (start != engine::Position::initial()).then_some(start);
            match entry.table.mode() {
                TableMode::Online { time, .. } => (
                    TableMode::Online {
                        private: true,
                        time,
                    },
                    None,
                ),
                other => (other, start),
            }
        };
        // A new table has its own, empty tally.
        self.create_seated(session, mode, None, start).await
    }

    /// Applies `command` to a copy, commits it, then swaps it in and broadcasts.
    async fn commit(
        &self,
        entry: &mut Entry,
        command: Command,
    ) -> Result<Vec<Event>, CommandError> {
        let mut next = entry.table.clone();
        let round_before = next.round();
        let events = next
            .apply(command)
            .map_err(|e| CommandError::new(e.to_string()))?;
        let now = self.now();
        // The clocks after this command: the mover is charged (plus the
        // increment), a rematch restarts them full; the next mover's clock
        // runs from this commit (see `after the commit` below).
        let mut clock = entry.clock.clone();
        let mut used = None;
        if let Some(clock) = clock.as_mut() {
            if let Command::Place { side, .. } = command {
                used = clock.moved(side, now);
            }
            if events
                .iter()
                .any(|e| matches!(e, Event::RematchStarted { .. }))
            {
                clock.reset();
            }
        }
        let mut record = record_for(
            &entry.id,
            entry.next_seq,
            round_before,
            command,
            &events,
            &next,
            now,
        );
        // A placement's row (always the first) stores the time it used.
        if let Some(row) = record.rows.first_mut().filter(|r| r.kind == "place") {
            row.time_ms = used;
        }
        self.inner
            .store
            .record(&record)
            .await
            .map_err(storage_error)?;
        entry.next_seq += record.rows.len() as i64;
        entry.table = next;
        if entry.clock.is_some() {
            if matches!(command, Command::Place { .. }) {
                if let Some(round) = entry.times.get_mut(round_before as usize - 1) {
                    round.push(used);
                }
            }
            if entry.table.round() != round_before {
                entry.times.resize(entry.table.round() as usize, Vec::new());
            }
        }
        entry.clock = clock;
        let to_move = entry.clock_side();
        if let Some(clock) = entry.clock.as_mut() {
            clock.turn_started(to_move, now);
        }
        self.rounds_changed(entry, &events).await;
        if matches!(command, Command::Place { .. }) {
            self.inner.metrics.record_move();
        }
        self.after_change(entry);
        Ok(events)
    }

    /// Tells an online table's seating that a round ended or began, and
    /// stores its new state (grace starts or stops with the round).
    async fn rounds_changed(&self, entry: &mut Entry, events: &[Event]) {
        let Some(seating) = entry.seating.as_mut() else {
            return;
        };
        let now = self.now();
        let before = seating.record();
        for event in events {
            let seat_event = match event {
                Event::RoundOver { .. } => SeatEvent::RoundEnded,
                Event::RematchStarted { .. } => SeatEvent::RoundStarted,
                _ => continue,
            };
            // A grace that ends at this very instant is run by the next tick.
            let _ = seating.apply(seat_event, now);
        }
        let after = seating.record();
        if after != before {
            if let Err(error) = self
                .inner
                .store
                .update_seating(&entry.id, &after, None)
                .await
            {
                tracing::error!(table = %entry.id, "cannot record the seats: {error}");
            }
        }
    }

    /// Broadcasts the new state and starts the AI's search when it is to move.
    fn after_change(&self, entry: &mut Entry) {
        if entry.table.ai_to_move() && !entry.ai_thinking {
            if let TableMode::VsAi { depth, .. } = entry.table.mode() {
                let job = Job {
                    table_id: entry.id.clone(),
                    owner: entry.owner.clone(),
                    version: entry.table.view(&entry.id, vec![], false).board.version,
                    position: *entry.table.game().position(),
                    depth: u32::from(depth),
                };
                entry.ai_thinking = self.submit_ai(job);
            }
        }
        self.broadcast(entry);
    }

    /// Queues the AI's search; a full queue is refused at once (no retry
    /// loop): the AI moves when the table is next opened.
    fn submit_ai(&self, job: Job) -> bool {
        let table = job.table_id.clone();
        match self.inner.ai.submit(job) {
            Ok(()) => true,
            Err(full) => {
                tracing::warn!(%table, "AI search refused: {}", full.message);
                false
            }
        }
    }

    /// The AI worker pool (the lab's searches and game analysis run on it too).
    pub fn ai_pool(&self) -> AiPool {
        self.inner.ai.clone()
    }

    async fn ai_replies(self, mut replies: tokio::sync::mpsc::UnboundedReceiver<Reply>) {
        while let Some(reply) = replies.recv().await {
            let Ok(entry) = self.entry(&reply.job.table_id) else {
                continue;
            };
            let mut entry = entry.lock().await;
            entry.ai_thinking = false;
            let version = entry.table.view(&entry.id, vec![], false).board.version;
            let stale = version != reply.job.version || !entry.table.ai_to_move();
            let (Some(square), Some(side), false) =
                (reply.report.best_move, entry.table.ai_side(), stale)
            else {
                self.after_change(&mut entry);
                continue;
            };
            entry.ai_search = Some(app::protocol::AiSearch {
                depth: reply.report.depth as u8,
                nodes: reply.report.nodes,
                value: reply.report.value,
            });
            if let Err(error) = self
                .commit(&mut entry, Command::Place { side, square })
                .await
            {
                tracing::error!(table = %entry.id, "the AI's move was refused: {}", error.message);
                self.after_change(&mut entry);
            }
        }
    }

    /// Rebuilds every stored table by replaying its commands.
    async fn restore(&self) -> Result<(), RestoreError> {
        let stored = self.inner.store.tables().await?;
        let mut restored = 0;
        for header in stored {
            let Ok(mode) = serde_json::from_str::<TableMode>(&header.mode) else {
                tracing::error!(table = %header.id, "unreadable table mode; skipped");
                continue;
            };
            let rows = self.inner.store.moves(&header.id).await?;
            let mut table = match header.start_obf.as_deref() {
                None => Table::new(mode),
                Some(obf) => match engine::Position::from_obf(obf) {
                    Ok(start) => Table::from_position(mode, start),
                    Err(error) => {
                        tracing::error!(table = %header.id, "unreadable start position ({error}); skipped");
                        continue;
                    }
                },
            };
            let mut next_seq = 1;
            let mut broken = false;
            // Time used by each placement, per round, and by whom.
            let mut times: Vec<Vec<Option<i64>>> = vec![Vec::new()];
            let mut used_now: Vec<(Side, i64)> = Vec::new();
            for row in &rows {
                next_seq = row.seq + 1;
                let Some(side) = parse_side(&row.side) else {
                    broken = true;
                    break;
                };
                if row.kind == "place" {
                    let round = usize::try_from(row.round.max(1) - 1).unwrap_or(0);
                    if times.len() <= round {
                        times.resize(round + 1, Vec::new());
                        used_now.clear();
                    }
                    times[round].push(row.time_ms);
                    if let Some(ms) = row.time_ms {
                        used_now.push((side, ms));
                    }
                }
                let command = match (row.kind.as_str(), row.square) {
                    ("pass", _) => continue,
                    ("place", Some(square)) => match Square::new(square as usize) {
                        Some(square) => Command::Place { side, square },
                        None => {
                            broken = true;
                            break;
                        }
                    },
                    ("resign", _) => Command::Resign { side },
                    ("timeout", _) => Command::Forfeit { side },
                    ("abandon", _) => Command::Abandon,
                    ("flag", _) => Command::Flag { side },
                    ("vote", _) => Command::Vote { side, vote: true },
                    ("withdraw", _) => Command::Vote { side, vote: false },
                    _ => {
                        broken = true;
                        break;
                    }
                };
                if let Err(error) = table.apply(command) {
                    tracing::error!(table = %header.id, seq = row.seq, "stored command no longer applies: {error}");
                    broken = true;
                    break;
                }
            }
            if broken {
                tracing::error!(table = %header.id, "table could not be restored; left on disk");
                continue;
            }
            if let Some(stored_tally) = self.inner.store.tally(&header.id).await? {
                let t = table.tally();
                if stored_tally
                    != (
                        i64::from(t.black_wins),
                        i64::from(t.white_wins),
                        i64::from(t.draws),
                    )
                {
                    tracing::warn!(table = %header.id, ?stored_tally, replayed = ?t, "stored tally differs from the replay");
                }
            }
            // Nobody is connected after a restart: holders who were connected
            // are absent from now; those already gone keep the time they left.
            let seating = matches!(mode, TableMode::Online { .. }).then(|| {
                Seating::restore(
                    self.inner.config.grace_ms,
                    SeatingRecord {
                        holders: [header.black_seat.clone(), header.white_seat.clone()],
                        absent_since: [header.black_gone_since, header.white_gone_since],
                        running_since: header.running_since,
                    },
                    table.outcome().is_none(),
                    self.now(),
                )
            });
            if let Some(seating) = &seating {
                self.inner
                    .store
                    .update_seating(&header.id, &seating.record(), None)
                    .await?;
            }
            if times.len() < table.round() as usize {
                times.resize(table.round() as usize, Vec::new());
                used_now.clear();
            }
            // The clocks resume from the restart with the time left at the
            // last commit: the time the server was down is not charged.
            let clock = match mode {
                TableMode::Online {
                    time: Some(control),
                    ..
                } => {
                    let to_move = if seating.as_ref().is_some_and(Seating::both_taken) {
                        table.to_move()
                    } else {
                        None
                    };
                    Some(GameClock::restore(control, used_now, to_move, self.now()))
                }
                _ => None,
            };
            let entry = Entry {
                id: header.id.clone(),
                table,
                owner: header.owner,
                seating,
                clock,
                times,
                next_seq,
                ai_thinking: false,
                ai_search: None,
                updates: broadcast::channel(64).0,
            };
            let entry = Arc::new(AsyncMutex::new(entry));
            if let Ok(mut tables) = self.inner.tables.lock() {
                tables.insert(header.id.clone(), entry.clone());
            }
            // Resume the AI if it was to move when the server stopped.
            let mut guard = entry.lock().await;
            self.after_change(&mut guard);
            restored += 1;
        }
        if restored > 0 {
            tracing::info!(restored, "tables restored from the database");
        }
        Ok(())
    }

    /// Deletes tables with no activity for the configured expiry; returns how many.
    pub async fn expire_idle(&self) -> Result<usize, StoreError> {
        let cutoff = self.now() - self.inner.config.table_expiry_ms;
        let deleted = self.inner.store.delete_idle_tables(cutoff).await?;
        if let Ok(mut tables) = self.inner.tables.lock() {
            for id in &deleted {
                tables.remove(id);
            }
        }
        if !deleted.is_empty() {
            tracing::info!(count = deleted.len(), "idle tables deleted");
        }
        Ok(deleted.len())
    }

    /// The export file of a table (docs/PRODUCT.md, Exports): every round in
    /// order with every move, the board after each placement, every pass and
    /// the result, then the tally and the GGF of every round.
    pub async fn export(&self, id: &str, lang: app::i18n::Lang) -> Result<String, CommandError> {
        let entry = self.entry(id)?;
        let entry = entry.lock().await;
        Ok(crate::export::text_in(
            lang,
            &entry.id,
            &entry.table,
            &entry.times,
        ))
    }

    /// A table's current round for analysis: its number, the game and
    /// whether the round is over.
    pub async fn round_game(&self, id: &str) -> Result<(u32, engine::Game, bool), CommandError> {
        let entry = self.entry(id)?;
        let entry = entry.lock().await;
        Ok((
            entry.table.round(),
            entry.table.game().clone(),
            entry.table.outcome().is_some(),
        ))
    }

    /// The GGF records of a table: one game per round, in order.
    pub async fn export_ggf(&self, id: &str) -> Result<String, CommandError> {
        let entry = self.entry(id)?;
        let entry = entry.lock().await;
        Ok(crate::export::ggf(&entry.table, &entry.times))
    }
}

fn storage_error(error: StoreError) -> CommandError {
    tracing::error!("storage error: {error}");
    CommandError::unavailable("The server could not save this; nothing changed. Please try again.")
}

/// Builds what one accepted command writes.
fn record_for(
    table_id: &str,
    first_seq: i64,
    round_before: u32,
    command: Command,
    events: &[Event],
    after: &Table,
    now: i64,
) -> Record {
    let round = i64::from(round_before);
    let mut rows = Vec::new();
    let mut seq = first_seq;
    let mut push = |kind: &str, side: Side, square: Option<i64>| {
        rows.push(MoveRow {
            seq,
            round,
            kind: kind.to_string(),
            side: side_name(side).to_string(),
            square,
            time_ms: None,
        });
        seq += 1;
    };
    match command {
        Command::Place { side, square } => push("place", side, Some(square.index() as i64)),
        Command::Resign { side } => push("resign", side, None),
        Command::Vote { side, vote } => push(if vote { "vote" } else { "withdraw" }, side, None),
        Command::Forfeit { side } => push("timeout", side, None),
        // The side column is required; an abandon names black by convention.
        Command::Abandon => push("abandon", Side::Black, None),
        Command::Flag { side } => push("flag", side, None),
    }
    for event in events {
        if let Event::Passed { side } = event {
            push("pass", *side, None);
        }
    }
    let round_end = events.iter().find_map(|event| match event {
        Event::RoundOver { winner, reason } => {
            let position = after.game().position();
            Some(RoundEnd {
                round,
                winner: winner.map(side_name),
                reason: match reason {
                    EndReason::Finished => "finished",
                    EndReason::Resigned => "resigned",
                    EndReason::Timeout => "timeout",
                    EndReason::Abandoned => "abandoned",
                    EndReason::Time => "time",
                },
                black: i64::from(position.count(Color::Black)),
                white: i64::from(position.count(Color::White)),
            })
        }
        _ => None,
    });
    let new_round = events.iter().find_map(|event| match event {
        Event::RematchStarted { round } => Some(i64::from(*round)),
        _ => None,
    });
    let votes = matches!(command, Command::Vote { .. }).then(|| {
        let v = if new_round.is_some() {
            app::protocol::Votes {
                black: true,
                white: true,
            }
        } else {
            after.votes()
        };
        (round, v.black, v.white)
    });
    let tally = after.tally();
    Record {
        table_id: table_id.to_string(),
        rows,
        round_end,
        new_round,
        votes,
        tally: (
            i64::from(tally.black_wins),
            i64::from(tally.white_wins),
            i64::from(tally.draws),
        ),
        now,
    }
}

impl Backend for Hub {
    fn create_table<'a>(
        &'a self,
        session: &'a Session,
        mode: TableMode,
    ) -> BoxFuture<'a, Result<String, CommandError>> {
        Box::pin(self.create(session, mode))
    }

    fn view<'a>(
        &'a self,
        session: &'a Session,
        table: &'a str,
    ) -> BoxFuture<'a, Result<TableView, CommandError>> {
        Box::pin(Hub::view(self, session, table))
    }

    fn execute<'a>(
        &'a self,
        session: &'a Session,
        command: TableCommand,
    ) -> BoxFuture<'a, Result<TableView, CommandError>> {
        Box::pin(Hub::execute(self, session, command))
    }

    fn new_table<'a>(
        &'a self,
        session: &'a Session,
        table: &'a str,
    ) -> BoxFuture<'a, Result<String, CommandError>> {
        Box::pin(self.new_table_like(session, table))
    }

    fn take_seat<'a>(
        &'a self,
        session: &'a Session,
        table: &'a str,
    ) -> BoxFuture<'a, Result<TableView, CommandError>> {
        Box::pin(Hub::take_seat(self, session, table))
    }

    fn create_table_from<'a>(
        &'a self,
        session: &'a Session,
        mode: TableMode,
        obf: &'a str,
    ) -> BoxFuture<'a, Result<String, CommandError>> {
        Box::pin(self.create_from_position(session, mode, obf))
    }
}
