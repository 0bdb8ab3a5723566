//! The AI worker pool: dedicated OS threads run engine searches so the network
//! loop never does. (Over 600 lines: the pool, the strongest level's book and
//! search moves, and their tests, ~450 lines.)
//!
//! **One engine gate** (issue 66): every server-side search — the AI's
//! replies at tables, the lab's searches and exact solves, game analyses,
//! the analysis board's `analysis_position` — is admitted here, by one
//! path ([`AiPool::submit`] and [`AiPool::search`] both go through
//! `Shared::push`), keyed by the caller's address (`ip:<key>`, else the
//! session: [`fairness_key`]). Each lane holds at most `--ai-queue`
//! searches waiting or running, and one address at most
//! `--ai-queue-per-ip`; one session at most `--ai-queue-per-session`
//! waiting. A busy caller is refused at once with 429 and a retry time
//! ([`QueueFull::into_error`]); 503 only when the pool admits nothing
//! (`--ai-queue 0`). A heavy search whose requester has gone is cancelled:
//! dropping its [`Pending`] takes it out of the queue (it never starts) or,
//! running, sets the cancellation flag its work put in the engine's limits
//! (`engine::Limits::stop`, `engine::SolveOptions::stop`), and the search
//! ends within milliseconds.
//!
//! Two lanes, each with its own threads and queue: **play** (the AI's replies
//! at vs-AI tables, `--ai-threads`) and **heavy** (the lab's searches and
//! exact solves, game analysis, the analysis board: `--ai-heavy-threads`).
//! An analysis or an exact solve of 200 M positions never occupies a thread
//! a player's reply waits for.
//!
//! Each lane is fair by work, per address: waiting work is grouped by a
//! fairness key (the client's address when known, else the session), and the
//! next piece of work is taken from the key that has used the least worker
//! time (a key that starts waiting starts at the time of the key served
//! last, so it cannot claim the past); within a key, sessions take turns.
//! A greedy address running depth-6 searches accumulates time and yields to
//! a player's depth-1 reply. Nothing retries behind the caller's back.

use engine::{Position, SearchReport};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

/// A search request.
#[derive(Clone, Debug)]
pub struct Job {
    pub table_id: app::protocol::TableId,
    /// Who the search is for (the table owner's session): the per-session
    /// cap on waiting searches counts it.
    pub owner: String,
    /// The unit of fairness: the table creator's address (`ip:<key>`) when
    /// known, else the owner's session.
    pub key: String,
    /// The table version the search was asked for (stale replies are dropped).
    pub version: u64,
    pub position: Position,
    pub depth: u32,
}

/// Time the "Strongest" level thinks per move.
pub const STRONGEST_MS: u64 = 300;

/// The "Strongest" level's move: from the opening book while the game is in
/// it ([`book_move`]), else [`strongest_search`].
pub fn strongest(position: &engine::Position) -> engine::SearchReport {
    strongest_from(position, crate::book::book(), rand::random())
}

/// [`strongest`] with the book given and the random draw `pick`.
pub fn strongest_from(
    position: &engine::Position,
    book: Option<&engine::Book>,
    pick: u64,
) -> engine::SearchReport {
    book_move(position, book, pick).unwrap_or_else(|| strongest_search(position))
}

/// The book's move at `position` when the book expanded it: one of the
/// moves within [`crate::book::BOOK_WINDOW`] of the best book move, number
/// `pick` modulo their number (the caller draws `pick` at random: varied but
/// sound play), reported with its book value and no search (0 nodes).
pub fn book_move(
    position: &engine::Position,
    book: Option<&engine::Book>,
    pick: u64,
) -> Option<engine::SearchReport> {
    let moves = crate::book::book_moves(book?, position);
    let n = moves.len() as u64;
    let m = moves.get((pick % n.max(1)) as usize)?;
    Some(engine::SearchReport {
        best_move: Some(m.square),
        value: m.value.discs().round() as i32,
        nodes: 0,
        principal_variation: vec![m.square],
        root_moves: Vec::new(),
        depth: u32::from(m.value.depth),
    })
}

/// The strong search on the trained pattern evaluation for
/// [`STRONGEST_MS`], exact from 20 empties, reported as the play AI's
/// reports are (its value in discs, the depth it finished).
pub fn strongest_search(position: &engine::Position) -> engine::SearchReport {
    let report = engine::evaluate_position(
        position,
        engine::default_weights(),
        engine::Limits::time_ms(STRONGEST_MS),
    );
    // The search always finishes depth 1 within its time; should it ever
    // not, the play AI's depth-1 move keeps the game going.
    let best_move = report
        .best_move
        .or_else(|| engine::search(position, 1).best_move);
    engine::SearchReport {
        best_move,
        value: report.value.round() as i32,
        nodes: report.nodes,
        principal_variation: report.pv,
        root_moves: Vec::new(),
        depth: if report.exact {
            position.empty_count()
        } else {
            report.depth
        },
    }
}

/// A finished search.
#[derive(Debug)]
pub struct Reply {
    pub job: Job,
    pub report: SearchReport,
    /// The move came from the opening book (no search).
    pub book: bool,
}

/// A search refused at admission; nothing was queued.
#[derive(Debug, PartialEq, Eq)]
pub struct QueueFull {
    pub msg: app::i18n::Msg,
    /// Seconds after which asking again may succeed: the caller (or the
    /// server) is busy, 429. `None`: the pool admits no search at all
    /// (`--ai-queue 0`) or is broken, 503.
    pub retry_after_s: Option<u64>,
}

impl QueueFull {
    /// The refusal as a command's error: 429 with its retry time when the
    /// caller may try again later, else 503.
    pub fn into_error(self) -> app::api::CommandError {
        match self.retry_after_s {
            Some(_) => app::api::CommandError::limited(self.msg),
            None => app::api::CommandError::unavailable(self.msg),
        }
    }
}

/// The fairness key and per-address unit of a caller: `ip:<address key>`
/// when the address is known, else the session.
pub fn fairness_key(caller: &app::api::backend::Caller) -> String {
    caller.address.map_or_else(
        || caller.session.as_str().to_string(),
        |address| format!("ip:{address}"),
    )
}

/// A piece of work; it gets its job's cancellation flag (`None`: not
/// cancellable) to hand to the engine's limits.
type Work = Box<dyn FnOnce(Option<&AtomicBool>) + Send>;

/// A piece of work waiting in a lane.
struct Queued {
    id: u64,
    work: Work,
    /// Set when the requester has gone: never started, or stopped.
    cancel: Option<Arc<AtomicBool>>,
}

impl Queued {
    fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.load(Relaxed))
    }
}

/// One fairness key's waiting work.
struct Key {
    /// Sessions with waiting work, in turn.
    sessions: VecDeque<(String, VecDeque<Queued>)>,
    waiting: usize,
    /// Pieces of work of this key running now.
    running: usize,
    /// Worker time used (seconds): the key's virtual time.
    used: f64,
    /// When this key was last served (ties go to the least recent).
    turn: u64,
}

#[derive(Default)]
struct Queues {
    keys: HashMap<String, Key>,
    waiting: usize,
    running: usize,
    /// The virtual time of the key served last.
    now: f64,
    turns: u64,
    next_id: u64,
    /// Mean worker time of a piece of work (seconds; a moving average):
    /// what a refusal's retry time is estimated from.
    mean: f64,
}

/// Keys remembered without waiting work (their time owed) at most.
const IDLE_KEYS: usize = 4096;
/// A refusal's retry time, in seconds, at least and at most.
const RETRY_MIN_S: u64 = 1;
const RETRY_MAX_S: u64 = 60;

/// What one lane has done since it started (tests and the log read it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaneStats {
    /// Pieces of work started on a worker.
    pub started: u64,
    /// Pieces of work whose requester went before a worker took them:
    /// never started.
    pub dropped: u64,
    /// Waiting now.
    pub waiting: usize,
    /// Running now.
    pub running: usize,
}

struct Shared {
    queues: Mutex<Queues>,
    ready: Condvar,
    /// Waiting and running work in the lane at most.
    capacity: usize,
    /// Waiting and running work of one fairness key (address) at most.
    per_key: usize,
    /// Waiting work of one session at most.
    per_owner: usize,
    threads: usize,
    started: AtomicU64,
    dropped: AtomicU64,
}

impl std::fmt::Debug for AiPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AiPool")
    }
}

/// Handle to the pool.
#[derive(Clone)]
pub struct AiPool {
    play: Arc<Shared>,
    heavy: Arc<Shared>,
    heavy_threads: usize,
    replies: tokio::sync::mpsc::UnboundedSender<Reply>,
    metrics: Arc<crate::metrics::Metrics>,
}

/// The pool's size.
#[derive(Clone, Copy, Debug)]
pub struct PoolSize {
    /// Threads for the AI's replies at tables.
    pub play_threads: usize,
    /// Threads for the lab and game analysis.
    pub heavy_threads: usize,
    /// Work that may wait or run in each lane (0: every search is refused).
    pub capacity: usize,
    /// Work one address (fairness key) may have waiting or running in a
    /// lane.
    pub per_key: usize,
    /// Work one session may have waiting in a lane.
    pub per_owner: usize,
}

impl Shared {
    fn new(capacity: usize, per_key: usize, per_owner: usize, threads: usize) -> Self {
        Shared {
            queues: Mutex::new(Queues {
                mean: 1.0,
                ..Queues::default()
            }),
            ready: Condvar::new(),
            capacity,
            per_key: per_key.max(1),
            per_owner: per_owner.max(1),
            threads: threads.max(1),
            started: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
        }
    }

    /// Seconds until `ahead` pieces of work are likely done on this lane.
    fn retry_after(&self, queues: &Queues, ahead: usize) -> u64 {
        let rounds = ahead.div_ceil(self.threads).max(1) as f64;
        ((queues.mean * rounds).ceil() as u64).clamp(RETRY_MIN_S, RETRY_MAX_S)
    }

    /// Admits `work` for `key` and `owner` or refuses it (nothing queued):
    /// the one admission path of every search. Returns the work's id.
    fn push(
        &self,
        key: &str,
        owner: &str,
        work: Work,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Result<u64, QueueFull> {
        let mut queues = self.queues.lock().map_err(|_| QueueFull {
            msg: app::msg!("srv-ai-unavailable"),
            retry_after_s: None,
        })?;
        if self.capacity == 0 {
            return Err(QueueFull {
                msg: app::msg!("srv-ai-busy", waiting = queues.waiting),
                retry_after_s: None,
            });
        }
        let total = queues.waiting + queues.running;
        if total >= self.capacity {
            let seconds = self.retry_after(&queues, total);
            return Err(QueueFull {
                msg: app::msg!("srv-ai-full", count = total, seconds = seconds),
                retry_after_s: Some(seconds),
            });
        }
        let (now, turn) = (queues.now, queues.turns + 1);
        let held = queues
            .keys
            .get(key)
            .map_or(0, |entry| entry.waiting + entry.running);
        if held >= self.per_key {
            let seconds = self.retry_after(&queues, held);
            return Err(QueueFull {
                msg: app::msg!(
                    "srv-ai-address-busy",
                    limit = self.per_key,
                    seconds = seconds
                ),
                retry_after_s: Some(seconds),
            });
        }
        let mine = queues
            .keys
            .get(key)
            .and_then(|entry| entry.sessions.iter().find(|(o, _)| o == owner))
            .map_or(0, |(_, mine)| mine.len());
        if mine >= self.per_owner {
            let seconds = self.retry_after(&queues, mine);
            return Err(QueueFull {
                msg: app::msg!("srv-ai-waiting", limit = mine),
                retry_after_s: Some(seconds),
            });
        }
        queues.next_id += 1;
        let id = queues.next_id;
        let queued = Queued { id, work, cancel };
        let entry = queues.keys.entry(key.to_string()).or_insert_with(|| Key {
            sessions: VecDeque::new(),
            waiting: 0,
            running: 0,
            used: now,
            turn,
        });
        if entry.waiting == 0 && entry.running == 0 {
            // Starts waiting: no credit for the time it was away.
            entry.used = entry.used.max(now);
        }
        match entry.sessions.iter_mut().find(|(o, _)| o == owner) {
            Some((_, mine)) => mine.push_back(queued),
            None => entry
                .sessions
                .push_back((owner.to_string(), VecDeque::from([queued]))),
        }
        entry.waiting += 1;
        queues.turns = turn;
        queues.waiting += 1;
        drop(queues);
        self.ready.notify_one();
        Ok(id)
    }

    /// Work `id` of `key` lost its requester: taken out of the queue if it
    /// still waits (its place is free at once; it never starts). Running
    /// work stops by its flag instead.
    fn forget(&self, key: &str, id: u64) {
        let Ok(mut queues) = self.queues.lock() else {
            return;
        };
        let Some(entry) = queues.keys.get_mut(key) else {
            return;
        };
        let mut removed = None;
        for (_, mine) in entry.sessions.iter_mut() {
            if let Some(at) = mine.iter().position(|q| q.id == id) {
                removed = mine.remove(at);
                break;
            }
        }
        let Some(removed) = removed else {
            return;
        };
        entry.sessions.retain(|(_, mine)| !mine.is_empty());
        entry.waiting -= 1;
        queues.waiting -= 1;
        self.dropped.fetch_add(1, Relaxed);
        // Dropped outside the lock (its captures may be large).
        drop(queues);
        drop(removed);
    }

    /// The next piece of work and its key: from the key that used the least
    /// worker time, its sessions in turn; blocks while there is none. Work
    /// whose requester has gone is dropped, never started.
    fn pop(&self) -> Option<(String, Queued)> {
        let mut queues = self.queues.lock().ok()?;
        loop {
            let next = queues
                .keys
                .iter()
                .filter(|(_, k)| k.waiting > 0)
                .min_by(|(_, a), (_, b)| a.used.total_cmp(&b.used).then(a.turn.cmp(&b.turn)))
                .map(|(name, _)| name.clone());
            if let Some(name) = next {
                queues.turns += 1;
                let turn = queues.turns;
                let Some(key) = queues.keys.get_mut(&name) else {
                    continue;
                };
                let used = key.used;
                let Some((owner, mut mine)) = key.sessions.pop_front() else {
                    key.waiting = 0;
                    continue;
                };
                let work = mine.pop_front();
                if !mine.is_empty() {
                    key.sessions.push_back((owner, mine));
                }
                let Some(work) = work else {
                    continue;
                };
                key.waiting -= 1;
                queues.waiting -= 1;
                if work.cancelled() {
                    self.dropped.fetch_add(1, Relaxed);
                    continue;
                }
                if let Some(key) = queues.keys.get_mut(&name) {
                    key.running += 1;
                    key.turn = turn;
                }
                queues.running += 1;
                queues.now = queues.now.max(used);
                self.started.fetch_add(1, Relaxed);
                return Some((name, work));
            }
            queues = self.ready.wait(queues).ok()?;
        }
    }

    /// `key`'s piece of work ran for `seconds`.
    fn done(&self, key: &str, seconds: f64) {
        let Ok(mut queues) = self.queues.lock() else {
            return;
        };
        queues.running = queues.running.saturating_sub(1);
        queues.mean = 0.8 * queues.mean + 0.2 * seconds;
        if let Some(entry) = queues.keys.get_mut(key) {
            entry.used += seconds;
            entry.running = entry.running.saturating_sub(1);
        }
        if queues.keys.len() > IDLE_KEYS {
            let now = queues.now;
            queues
                .keys
                .retain(|_, k| k.waiting > 0 || k.running > 0 || k.used > now);
        }
        let now = queues.now;
        if queues
            .keys
            .get(key)
            .is_some_and(|k| k.waiting == 0 && k.running == 0 && k.used <= now)
        {
            // Owes nothing: it would start at the current time anyway.
            queues.keys.remove(key);
        }
    }

    fn stats(&self) -> LaneStats {
        let (waiting, running) = self
            .queues
            .lock()
            .map(|q| (q.waiting, q.running))
            .unwrap_or_default();
        LaneStats {
            started: self.started.load(Relaxed),
            dropped: self.dropped.load(Relaxed),
            waiting,
            running,
        }
    }

    fn start_workers(self: &Arc<Self>, lane: &str, threads: usize) {
        for index in 0..threads.max(1) {
            let shared = self.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("ai-{lane}-{index}"))
                .spawn(move || {
                    while let Some((key, queued)) = shared.pop() {
                        let started = Instant::now();
                        let Queued { work, cancel, .. } = queued;
                        work(cancel.as_deref());
                        shared.done(&key, started.elapsed().as_secs_f64());
                    }
                });
            if let Err(error) = spawned {
                tracing::error!("cannot start AI worker {lane}-{index}: {error}");
            }
        }
    }
}

/// The answer of a heavy search, to await. Dropped before the answer came
/// (the HTTP request ended, the socket closed, the task was aborted), it
/// cancels the search: waiting, it leaves the queue and never starts;
/// running, the engine's stop flag is set and the search ends within
/// milliseconds, freeing its worker.
pub struct Pending<T> {
    receiver: tokio::sync::oneshot::Receiver<T>,
    cancel: Arc<AtomicBool>,
    lane: Arc<Shared>,
    key: String,
    id: u64,
    answered: bool,
}

impl<T> std::future::Future for Pending<T> {
    type Output = Result<T, tokio::sync::oneshot::error::RecvError>;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        let polled = std::pin::Pin::new(&mut self.receiver).poll(cx);
        if polled.is_ready() {
            self.answered = true;
        }
        polled
    }
}

impl<T> Drop for Pending<T> {
    fn drop(&mut self) {
        if self.answered {
            return;
        }
        self.cancel.store(true, Relaxed);
        self.lane.forget(&self.key, self.id);
    }
}

/// Counts a piece of work in the queue-depth metric while it exists
/// (waiting or running); dropped, run or not, it stops counting.
struct Counted(Arc<crate::metrics::Metrics>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.ai_queue_depth.fetch_sub(1, Relaxed);
    }
}

impl AiPool {
    /// Starts `threads` workers for table searches (and one for the lab and
    /// analysis) with room for `capacity` searches in each lane
    /// (`per_owner` of them waiting for one session or held by one
    /// address); table replies go to `replies`. A `capacity` of 0 leaves no
    /// room: every search is refused (how the tests reach the "AI is busy"
    /// path).
    pub fn start(
        threads: usize,
        capacity: usize,
        per_owner: usize,
        replies: tokio::sync::mpsc::UnboundedSender<Reply>,
        metrics: Arc<crate::metrics::Metrics>,
    ) -> Self {
        Self::start_sized(
            PoolSize {
                play_threads: threads,
                heavy_threads: 1,
                capacity,
                per_key: per_owner,
                per_owner,
            },
            replies,
            metrics,
        )
    }

    /// Starts the pool with both lanes sized.
    pub fn start_sized(
        size: PoolSize,
        replies: tokio::sync::mpsc::UnboundedSender<Reply>,
        metrics: Arc<crate::metrics::Metrics>,
    ) -> Self {
        let lane = |threads: usize| {
            Arc::new(Shared::new(
                size.capacity,
                size.per_key,
                size.per_owner,
                threads,
            ))
        };
        let play = lane(size.play_threads);
        let heavy = lane(size.heavy_threads);
        play.start_workers("play", size.play_threads);
        heavy.start_workers("heavy", size.heavy_threads);
        Self {
            play,
            heavy,
            heavy_threads: size.heavy_threads.max(1),
            replies,
            metrics,
        }
    }

    /// The one admission path: queues `work` on `lane` for fairness key
    /// `key` and session `owner`, counted in the metrics.
    fn queue(
        &self,
        lane: &Shared,
        key: &str,
        owner: &str,
        work: impl FnOnce(Option<&AtomicBool>) + Send + 'static,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Result<u64, QueueFull> {
        self.metrics.ai_queue_depth.fetch_add(1, Relaxed);
        let counted = Counted(self.metrics.clone());
        let work: Work = Box::new(move |stop| {
            let _counted = counted;
            work(stop);
        });
        lane.push(key, owner, work, cancel).inspect_err(|_| {
            self.metrics.note_refusal("ai queue");
        })
    }

    /// Queues a table's search without blocking; the reply goes to the hub.
    pub fn submit(&self, job: Job) -> Result<(), QueueFull> {
        let replies = self.replies.clone();
        let (key, owner) = (job.key.clone(), job.owner.clone());
        self.queue(
            &self.play,
            &key,
            &owner,
            move |_| {
                let (report, book) = if job.depth == u32::from(app::protocol::STRONGEST) {
                    match book_move(&job.position, crate::book::book(), rand::random()) {
                        Some(report) => (report, true),
                        None => (strongest_search(&job.position), false),
                    }
                } else {
                    (engine::search(&job.position, job.depth), false)
                };
                let _ = replies.send(Reply { job, report, book });
            },
            None,
        )
        .map(|_| ())
    }

    /// Runs heavy `work` — a search for fairness key `key` (an address,
    /// `ip:…`, else a session; see [`fairness_key`]) and session `owner` —
    /// on the heavy lane. `work` gets the cancellation flag to put in the
    /// engine's limits; the answer comes back through the returned
    /// [`Pending`], whose drop cancels the search.
    pub fn search<T: Send + 'static>(
        &self,
        key: &str,
        owner: &str,
        work: impl FnOnce(Option<&AtomicBool>) -> T + Send + 'static,
    ) -> Result<Pending<T>, QueueFull> {
        let (tx, receiver) = tokio::sync::oneshot::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let id = self.queue(
            &self.heavy,
            key,
            owner,
            move |stop| {
                let _ = tx.send(work(stop));
            },
            Some(cancel.clone()),
        )?;
        Ok(Pending {
            receiver,
            cancel,
            lane: self.heavy.clone(),
            key: key.to_string(),
            id,
            answered: false,
        })
    }

    /// [`AiPool::search`] for work that takes no cancellation flag (it is
    /// still never started once its requester has gone); `key` is its
    /// session too.
    pub fn run_as<T: Send + 'static>(
        &self,
        key: &str,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<Pending<T>, QueueFull> {
        self.search(key, key, move |_| work())
    }

    /// The heavy lane's workers (how many pieces of one analysis may run
    /// at once).
    pub fn heavy_threads(&self) -> usize {
        self.heavy_threads
    }

    /// What the heavy lane has done and holds now.
    pub fn heavy_stats(&self) -> LaneStats {
        self.heavy.stats()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strongest_level_plays_legal_moves_and_exact_endgames() {
        let start = engine::Position::initial();
        let report = strongest(&start);
        let best = report.best_move.expect("a move at the start");
        assert!(start.legal_moves().contains(best));
        // Without the book (it answers the start) it searches.
        let searched = strongest_from(&start, None, 0);
        assert!(start
            .legal_moves()
            .contains(searched.best_move.expect("a move")));
        assert!(searched.nodes > 0);
        // With few empties it plays an exactly best move and says so.
        let endgame = engine::Position::from_obf(
            "XXXXXXXXXXXXXXXXOOOOOOOOXXXXXXXXOOOOOOXXXXXXXX--OOOOOO----XXXXX- X",
        )
        .expect("obf");
        let report = strongest(&endgame);
        let solved = engine::solve(&endgame);
        assert_eq!(report.value, solved.score);
        let after = endgame
            .play(report.best_move.expect("a move"))
            .expect("legal")
            .position;
        assert_eq!(-engine::solve(&after).score, solved.score);
    }

    #[test]
    fn the_strongest_level_plays_from_the_book_and_varies() {
        let book = crate::book::book().expect("the shipped book reads");
        let start = engine::Position::initial();
        // Each draw picks one of the book's near-best moves: at the start
        // all four (one position under the symmetries) are.
        let picks: std::collections::BTreeSet<engine::Square> = (0..4)
            .map(|pick| {
                let r = strongest_from(&start, Some(book), pick);
                assert_eq!(r.nodes, 0, "from the book, no search");
                r.best_move.expect("a move")
            })
            .collect();
        assert_eq!(picks.len(), 4);
        for &sq in &picks {
            assert!(crate::book::is_book_move(Some(book), &start, sq));
        }
        // With the random draw, 40 games cannot all open alike but by a
        // chance of 4 × 4^-40.
        let openings: std::collections::BTreeSet<engine::Square> = (0..40)
            .filter_map(|_| strongest(&start).best_move)
            .collect();
        assert!(openings.len() > 1, "{openings:?}");
        // Games between two strongest players follow different book lines
        // with different draws, every move a book move while in the book.
        let line = |seed: u64| {
            let mut pos = start;
            let mut moves = Vec::new();
            for ply in 0..8u64 {
                if !book.is_expanded(&pos) {
                    break;
                }
                let r = strongest_from(&pos, Some(book), seed.wrapping_mul(7).wrapping_add(ply));
                let sq = r.best_move.expect("a move");
                assert!(crate::book::is_book_move(Some(book), &pos, sq));
                moves.push(sq);
                pos = pos.play(sq).expect("legal").position;
            }
            moves
        };
        let lines: std::collections::BTreeSet<Vec<engine::Square>> = (0..8).map(line).collect();
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| l.len() >= 2), "{lines:?}");
        // Without a book it searches.
        let r = strongest_from(&start, None, 0);
        assert!(r.nodes > 0);
    }

    #[tokio::test]
    async fn the_play_levels_one_to_six_are_the_plain_search() {
        let (replies_tx, mut replies) = tokio::sync::mpsc::unbounded_channel();
        let metrics = Arc::new(crate::metrics::Metrics::default());
        let pool = AiPool::start(1, 100, 100, replies_tx, metrics);
        let pos = engine::Position::initial()
            .play("f5".parse().expect("f5"))
            .expect("legal")
            .position;
        for depth in 1..=6u32 {
            pool.submit(Job {
                table_id: app::ids::TableId::new("t"),
                owner: "player".into(),
                key: "ip:192.0.2.1".into(),
                version: u64::from(depth),
                position: pos,
                depth,
            })
            .expect("room");
            let reply = tokio::time::timeout(std::time::Duration::from_secs(60), replies.recv())
                .await
                .expect("a reply in time")
                .expect("a reply");
            let expected = engine::search(&pos, depth);
            assert_eq!(reply.report.best_move, expected.best_move, "level {depth}");
            assert_eq!(reply.report.value, expected.value, "level {depth}");
            assert_eq!(reply.report.nodes, expected.nodes, "level {depth}");
            assert!(!reply.book);
        }
    }

    fn run_next(queue: &Shared, seconds: f64) {
        let (key, queued) = queue.pop().expect("work");
        (queued.work)(None);
        queue.done(&key, seconds);
    }

    #[test]
    fn keys_take_turns_and_sessions_within_a_key_too() {
        let queue = Shared::new(100, 100, 100, 1);
        let order = Arc::new(Mutex::new(Vec::new()));
        for (key, owner, n) in [
            ("greedy", "g", 5),
            ("player", "p", 1),
            ("other", "o1", 1),
            ("other", "o2", 1),
        ] {
            for i in 0..n {
                let order = order.clone();
                let tag = format!("{owner}{i}");
                queue
                    .push(
                        key,
                        owner,
                        Box::new(move |_| order.lock().expect("lock").push(tag)),
                        None,
                    )
                    .expect("room");
            }
        }
        for _ in 0..8 {
            run_next(&queue, 0.0);
        }
        let order = order.lock().expect("lock").clone();
        assert_eq!(order, ["g0", "p0", "o10", "g1", "o20", "g2", "g3", "g4"]);
    }

    #[test]
    fn a_key_that_used_more_time_waits_for_one_that_used_less() {
        let queue = Shared::new(100, 100, 100, 1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let push = |key: &str, tag: &str| {
            let order = order.clone();
            let tag = tag.to_string();
            queue
                .push(
                    key,
                    key,
                    Box::new(move |_| order.lock().expect("lock").push(tag)),
                    None,
                )
                .expect("room");
        };
        // A greedy address's long searches: each costs a second.
        for i in 0..3 {
            push("greedy", &format!("g{i}"));
        }
        run_next(&queue, 1.0);
        // A player's quick replies arrive: they go before the greedy's next
        // ones until the player has used as much.
        push("player", "p0");
        push("player", "p1");
        run_next(&queue, 0.01);
        run_next(&queue, 0.01);
        run_next(&queue, 1.0);
        run_next(&queue, 1.0);
        let order = order.lock().expect("lock").clone();
        assert_eq!(order, ["g0", "p0", "p1", "g1", "g2"]);
    }

    #[test]
    fn a_full_queue_refuses_at_once() {
        let queue = Shared::new(3, 100, 2, 1);
        let push = |key: &str| queue.push(key, key, Box::new(|_| {}), None);
        push("a").expect("1");
        push("a").expect("2");
        let refused = push("a").expect_err("owner full");
        assert!(refused.msg.english().contains("waiting as allowed (2)"));
        assert!(refused.retry_after_s.is_some(), "429, not 503");
        push("b").expect("3");
        let refused = push("c").expect_err("full");
        assert!(refused.msg.english().contains("busy"), "{refused:?}");
        let seconds = refused.retry_after_s.expect("a retry time");
        assert!(
            refused
                .msg
                .english()
                .contains(&format!("try again in {seconds} s")),
            "{refused:?}"
        );
        // No room at all (`--ai-queue 0`): the engine is off, 503.
        let off = Shared::new(0, 100, 100, 1);
        let refused = off
            .push("a", "a", Box::new(|_| {}), None)
            .expect_err("no room");
        assert_eq!(refused.retry_after_s, None);
        assert_eq!(refused.into_error().status_code().as_u16(), 503);
    }

    #[tokio::test]
    async fn a_players_reply_does_not_wait_behind_heavy_work() {
        let (replies_tx, mut replies) = tokio::sync::mpsc::unbounded_channel();
        let metrics = Arc::new(crate::metrics::Metrics::default());
        let pool = AiPool::start(1, 100, 100, replies_tx, metrics);
        // The heavy lane is blocked (an endless solve, say).
        let (release, blocked) = std::sync::mpsc::channel::<()>();
        let _heavy = pool
            .run_as("ip:203.0.113.7", move || blocked.recv())
            .expect("room");
        let _queued = pool.run_as("analysis", || 1).expect("room");
        pool.submit(Job {
            table_id: app::ids::TableId::new("t"),
            owner: "player".into(),
            key: "ip:192.0.2.1".into(),
            version: 1,
            position: Position::initial(),
            depth: 1,
        })
        .expect("room");
        let reply = tokio::time::timeout(std::time::Duration::from_secs(30), replies.recv())
            .await
            .expect("the reply came while the heavy lane was blocked")
            .expect("a reply");
        assert_eq!(reply.job.table_id, "t");
        release.send(()).expect("release");
    }

    /// A pool whose heavy lane has ONE worker; `per_key` searches per
    /// address.
    fn heavy_pool(capacity: usize, per_key: usize) -> AiPool {
        let (replies_tx, _) = tokio::sync::mpsc::unbounded_channel();
        AiPool::start_sized(
            PoolSize {
                play_threads: 1,
                heavy_threads: 1,
                capacity,
                per_key,
                per_owner: 64,
            },
            replies_tx,
            Arc::new(crate::metrics::Metrics::default()),
        )
    }

    /// Waits until `what` holds (the wait decides nothing: a state the
    /// test needs before its next step; 30 s at most).
    async fn until(what: impl Fn() -> bool) {
        let deadline = Instant::now() + std::time::Duration::from_secs(30);
        while !what() {
            assert!(Instant::now() < deadline, "the pool never got there");
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
    }

    /// Issue 66: searches whose requester has gone (the receiver dropped,
    /// the awaiting task aborted) leave the queue at once and never start;
    /// another address's search, asked for after them, runs next.
    #[tokio::test]
    async fn abandoned_searches_never_start_and_another_address_is_served_next() {
        let pool = heavy_pool(256, 64);
        // The one heavy worker is busy until the test lets it go.
        let (release, blocked) = std::sync::mpsc::channel::<()>();
        let blocker = pool
            .run_as("ip:203.0.113.9", move || blocked.recv())
            .expect("room");
        until(|| pool.heavy_stats().running == 1).await;
        let ran = Arc::new(AtomicU64::new(0));
        for i in 0..40 {
            let ran = ran.clone();
            let pending = pool
                .search("ip:198.51.100.7", &format!("s{i}"), move |_| {
                    ran.fetch_add(1, Relaxed);
                })
                .expect("room");
            if i % 2 == 0 {
                drop(pending);
            } else {
                let task = tokio::spawn(pending);
                task.abort();
                assert!(task.await.expect_err("aborted").is_cancelled());
            }
        }
        assert_eq!(pool.heavy_stats().waiting, 0, "they left the queue");
        let answer = pool.search("ip:192.0.2.1", "b", |_| 7).expect("room");
        release.send(()).expect("release");
        blocker.await.expect("blocker").expect("released");
        let answer = tokio::time::timeout(std::time::Duration::from_secs(30), answer)
            .await
            .expect("the other address is served")
            .expect("an answer");
        assert_eq!(answer, 7);
        // The worker sends its answer before it counts itself done.
        until(|| pool.heavy_stats().running == 0).await;
        let stats = pool.heavy_stats();
        assert_eq!(ran.load(Relaxed), 0, "no abandoned search ran");
        assert_eq!(stats.started, 2, "the blocker and the other address's");
        assert_eq!(stats.dropped, 40);
        assert_eq!((stats.waiting, stats.running), (0, 0));
    }

    /// A busy address (its cap of waiting and running searches reached),
    /// or a full lane, is refused at once with 429 and a retry time, never
    /// 503; a dropped waiting search gives its place back at once.
    #[tokio::test]
    async fn a_busy_caller_is_refused_with_429_and_a_retry_time() {
        let pool = heavy_pool(256, 2);
        let (release, blocked) = std::sync::mpsc::channel::<()>();
        let first = pool
            .run_as("ip:198.51.100.7", move || blocked.recv())
            .expect("room");
        let second = pool
            .search("ip:198.51.100.7", "another session", |_| 1)
            .expect("room");
        let refused = pool
            .search("ip:198.51.100.7", "a third session", |_| 2)
            .err()
            .expect("the address's cap");
        let seconds = refused.retry_after_s.expect("a retry time");
        assert!((RETRY_MIN_S..=RETRY_MAX_S).contains(&seconds));
        let text = refused.msg.english();
        assert!(text.contains("(limit 2)"), "{text}");
        assert!(
            text.contains(&format!("try again in {seconds} s")),
            "{text}"
        );
        assert_eq!(refused.into_error().status_code().as_u16(), 429);
        // Another address is admitted meanwhile.
        let other = pool.search("ip:192.0.2.1", "b", |_| 3).expect("room");
        // Dropped while waiting, a search frees the address's place at once.
        drop(second);
        let again = pool
            .search("ip:198.51.100.7", "a third session", |_| 4)
            .expect("room again");
        release.send(()).expect("release");
        first.await.expect("first").expect("released");
        assert_eq!(other.await.expect("other"), 3);
        assert_eq!(again.await.expect("again"), 4);

        // The whole lane full (waiting and running together): 429 too.
        let pool = heavy_pool(2, 64);
        let (release, blocked) = std::sync::mpsc::channel::<()>();
        let first = pool
            .run_as("ip:198.51.100.7", move || blocked.recv())
            .expect("room");
        let _second = pool.search("ip:192.0.2.1", "b", |_| 1).expect("room");
        let refused = pool
            .search("ip:192.0.2.2", "c", |_| 2)
            .err()
            .expect("the lane's cap");
        assert!(refused.retry_after_s.is_some());
        assert!(refused.msg.english().contains("busy"), "{refused:?}");
        assert_eq!(refused.into_error().status_code().as_u16(), 429);
        release.send(()).expect("release");
        first.await.expect("first").expect("released");
    }

    /// A running search whose requester goes is stopped by the engine's
    /// cancellation flag, and the worker is free for the next search.
    #[tokio::test]
    async fn a_running_search_stops_when_its_requester_goes() {
        let pool = heavy_pool(256, 64);
        let (depth_tx, depth) = std::sync::mpsc::channel();
        // Depth 60 from the start: without the flag, it would not end.
        let endless = pool
            .search("ip:198.51.100.7", "a", move |stop| {
                let report = engine::evaluate_position(
                    &Position::initial(),
                    engine::default_weights(),
                    engine::Limits::depth(60).until(stop),
                );
                let _ = depth_tx.send(report.depth);
            })
            .expect("room");
        until(|| pool.heavy_stats().running == 1).await;
        drop(endless);
        let next = pool.search("ip:192.0.2.1", "b", |_| 5).expect("room");
        let answer = tokio::time::timeout(std::time::Duration::from_secs(60), next)
            .await
            .expect("the worker became free")
            .expect("an answer");
        assert_eq!(answer, 5);
        let reached = depth.try_recv().expect("the stopped search answered");
        assert!(reached < 60, "stopped early, at depth {reached}");
    }
}
