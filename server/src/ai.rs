//! The AI worker pool: dedicated OS threads run engine searches so the network
//! loop never does. (Over 600 lines: the pool, the strongest level's book and
//! search moves, and their tests, ~250 lines.)
//!
//! Two lanes, each with its own threads and queue: **play** (the AI's replies
//! at vs-AI tables, `--ai-threads`) and **heavy** (the lab's searches and
//! exact solves, game analysis: `--ai-heavy-threads`). An analysis or an
//! exact solve of 200 M positions never occupies a thread a player's reply
//! waits for.
//!
//! Each lane is fair by work, per address: waiting work is grouped by a
//! fairness key (the client's address when known, else the session), and the
//! next piece of work is taken from the key that has used the least worker
//! time (a key that starts waiting starts at the time of the key served
//! last, so it cannot claim the past); within a key, sessions take turns.
//! A greedy address running depth-6 searches accumulates time and yields to
//! a player's depth-1 reply. Each lane is bounded: a full queue (overall, or
//! for one session) refuses at once; nothing retries behind the caller's
//! back.

use engine::{Position, SearchReport};
use std::collections::{HashMap, VecDeque};
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

/// The queue is full (overall or for this owner); nothing was queued.
#[derive(Debug, PartialEq, Eq)]
pub struct QueueFull {
    pub msg: app::i18n::Msg,
}

type Work = Box<dyn FnOnce() + Send>;

/// One fairness key's waiting work.
struct Key {
    /// Sessions with waiting work, in turn.
    sessions: VecDeque<(String, VecDeque<Work>)>,
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
    /// The virtual time of the key served last.
    now: f64,
    turns: u64,
}

/// Keys remembered without waiting work (their time owed) at most.
const IDLE_KEYS: usize = 4096;

struct Shared {
    queues: Mutex<Queues>,
    ready: Condvar,
    capacity: usize,
    per_owner: usize,
}

impl std::fmt::Debug for AiPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AiPool")
    }
}

/// The queue is full (an [`AiPool::run`] task); try again later.
#[derive(Debug)]
pub struct QueueBusy;

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
    /// Work that may wait in each lane (0: every search is refused).
    pub capacity: usize,
    /// Work one session may have waiting in a lane.
    pub per_owner: usize,
}

impl Shared {
    fn new(capacity: usize, per_owner: usize) -> Self {
        Shared {
            queues: Mutex::new(Queues::default()),
            ready: Condvar::new(),
            capacity,
            per_owner: per_owner.max(1),
        }
    }

    fn push(&self, key: &str, owner: &str, work: Work) -> Result<(), QueueFull> {
        let mut queues = self.queues.lock().map_err(|_| QueueFull {
            msg: app::msg!("srv-ai-unavailable"),
        })?;
        if queues.waiting >= self.capacity {
            return Err(QueueFull {
                msg: app::msg!("srv-ai-busy", waiting = queues.waiting),
            });
        }
        let (now, turn) = (queues.now, queues.turns + 1);
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
            Some((_, mine)) if mine.len() >= self.per_owner => {
                return Err(QueueFull {
                    msg: app::msg!("srv-ai-waiting", limit = mine.len()),
                });
            }
            Some((_, mine)) => mine.push_back(work),
            None => entry
                .sessions
                .push_back((owner.to_string(), VecDeque::from([work]))),
        }
        entry.waiting += 1;
        queues.turns = turn;
        queues.waiting += 1;
        drop(queues);
        self.ready.notify_one();
        Ok(())
    }

    /// The next piece of work and its key: from the key that used the least
    /// worker time, its sessions in turn; blocks while there is none.
    fn pop(&self) -> Option<(String, Work)> {
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
                key.running += 1;
                key.turn = turn;
                queues.waiting -= 1;
                queues.now = queues.now.max(used);
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

    fn start_workers(self: &Arc<Self>, lane: &str, threads: usize) {
        for index in 0..threads.max(1) {
            let shared = self.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("ai-{lane}-{index}"))
                .spawn(move || {
                    while let Some((key, work)) = shared.pop() {
                        let started = Instant::now();
                        work();
                        shared.done(&key, started.elapsed().as_secs_f64());
                    }
                });
            if let Err(error) = spawned {
                tracing::error!("cannot start AI worker {lane}-{index}: {error}");
            }
        }
    }
}

impl AiPool {
    /// Starts `threads` workers for table searches (and one for the lab and
    /// analysis) with room for `capacity` waiting searches in each lane
    /// (`per_owner` of them for one session); table replies go to
    /// `replies`. A `capacity` of 0 leaves no room: every search is refused
    /// (how the tests reach the "AI is busy" path).
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
        let play = Arc::new(Shared::new(size.capacity, size.per_owner));
        let heavy = Arc::new(Shared::new(size.capacity, size.per_owner));
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

    fn queue(&self, lane: &Shared, key: &str, owner: &str, work: Work) -> Result<(), QueueFull> {
        use std::sync::atomic::Ordering::Relaxed;
        self.metrics.ai_queue_depth.fetch_add(1, Relaxed);
        let metrics = self.metrics.clone();
        let counted: Work = Box::new(move || {
            work();
            metrics.ai_queue_depth.fetch_sub(1, Relaxed);
        });
        lane.push(key, owner, counted).inspect_err(|_| {
            self.metrics.ai_queue_depth.fetch_sub(1, Relaxed);
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
            Box::new(move || {
                let (report, book) = if job.depth == u32::from(app::protocol::STRONGEST) {
                    match book_move(&job.position, crate::book::book(), rand::random()) {
                        Some(report) => (report, true),
                        None => (strongest_search(&job.position), false),
                    }
                } else {
                    (engine::search(&job.position, job.depth), false)
                };
                let _ = replies.send(Reply { job, report, book });
            }),
        )
    }

    /// Runs heavy `work` (the lab's searches and solves) for fairness key
    /// `key` on the heavy lane; the answer comes back on the returned channel.
    pub fn run_as<T: Send + 'static>(
        &self,
        key: &str,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<tokio::sync::oneshot::Receiver<T>, QueueFull> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.queue(
            &self.heavy,
            key,
            key,
            Box::new(move || {
                let _ = tx.send(work());
            }),
        )?;
        Ok(rx)
    }

    /// The heavy lane's workers (how many pieces of one analysis may run
    /// at once).
    pub fn heavy_threads(&self) -> usize {
        self.heavy_threads
    }

    /// Runs game-analysis `work` on the heavy lane, where all analyses
    /// together take one share. `Err` when the queue is full.
    pub fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<tokio::sync::oneshot::Receiver<T>, QueueBusy> {
        self.run_as("analysis", work).map_err(|_| QueueBusy)
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
                table_id: "t".into(),
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
        let (key, work) = queue.pop().expect("work");
        work();
        queue.done(&key, seconds);
    }

    #[test]
    fn keys_take_turns_and_sessions_within_a_key_too() {
        let queue = Shared::new(100, 100);
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
                        Box::new(move || order.lock().expect("lock").push(tag)),
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
        let queue = Shared::new(100, 100);
        let order = Arc::new(Mutex::new(Vec::new()));
        let push = |key: &str, tag: &str| {
            let order = order.clone();
            let tag = tag.to_string();
            queue
                .push(
                    key,
                    key,
                    Box::new(move || order.lock().expect("lock").push(tag)),
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
        let queue = Shared::new(3, 2);
        queue.push("a", "a", Box::new(|| {})).expect("1");
        queue.push("a", "a", Box::new(|| {})).expect("2");
        let refused = queue
            .push("a", "a", Box::new(|| {}))
            .expect_err("owner full");
        assert!(refused.msg.english().contains("waiting as allowed (2)"));
        queue.push("b", "b", Box::new(|| {})).expect("3");
        let refused = queue.push("c", "c", Box::new(|| {})).expect_err("full");
        assert!(refused.msg.english().contains("busy"));
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
        let _queued = pool.run(|| 1).expect("room");
        pool.submit(Job {
            table_id: "t".into(),
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
}
