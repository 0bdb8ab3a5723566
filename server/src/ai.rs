//! The AI worker pool: dedicated OS threads run engine searches so the network
//! loop never does.
//!
//! The queue is fair and bounded: searches wait in one FIFO per owner (the
//! session that owns the table or lab game) and the workers take them round
//! robin, one owner after another, so a session with hundreds of tables does
//! not delay another player's reply by more than one search per waiting
//! owner. A full queue (overall, or for one owner) refuses at once; nothing
//! retries behind the caller's back.

use engine::{Position, SearchReport};
use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};

/// A search request.
#[derive(Clone, Debug)]
pub struct Job {
    pub table_id: String,
    /// Who the search is for (the table owner's session): the unit of fairness.
    pub owner: String,
    /// The table version the search was asked for (stale replies are dropped).
    pub version: u64,
    pub position: Position,
    pub depth: u32,
}

/// A finished search.
#[derive(Debug)]
pub struct Reply {
    pub job: Job,
    pub report: SearchReport,
}

/// The queue is full (overall or for this owner); nothing was queued.
#[derive(Debug, PartialEq, Eq)]
pub struct QueueFull {
    pub message: String,
}

type Work = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct Queues {
    /// Owners with waiting work, in serving order.
    owners: VecDeque<(String, VecDeque<Work>)>,
    waiting: usize,
}

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
    shared: Arc<Shared>,
    replies: tokio::sync::mpsc::UnboundedSender<Reply>,
    metrics: Arc<crate::metrics::Metrics>,
}

impl Shared {
    fn push(&self, owner: &str, work: Work) -> Result<(), QueueFull> {
        let mut queues = self.queues.lock().map_err(|_| QueueFull {
            message: "The AI is unavailable right now: try again in a moment.".into(),
        })?;
        if queues.waiting >= self.capacity {
            return Err(QueueFull {
                message: format!(
                    "The AI is busy (searches waiting: {}): try again in a moment.",
                    queues.waiting
                ),
            });
        }
        match queues.owners.iter_mut().find(|(o, _)| o == owner) {
            Some((_, mine)) if mine.len() >= self.per_owner => {
                return Err(QueueFull {
                    message: format!(
                        "You have as many AI searches waiting as allowed ({}): try again when they finish.",
                        mine.len()
                    ),
                });
            }
            Some((_, mine)) => mine.push_back(work),
            None => queues
                .owners
                .push_back((owner.to_string(), VecDeque::from([work]))),
        }
        queues.waiting += 1;
        drop(queues);
        self.ready.notify_one();
        Ok(())
    }

    /// The next piece of work, round robin over owners; blocks while empty.
    fn pop(&self) -> Option<Work> {
        let mut queues = self.queues.lock().ok()?;
        loop {
            if let Some((owner, mut mine)) = queues.owners.pop_front() {
                let work = mine.pop_front();
                if !mine.is_empty() {
                    queues.owners.push_back((owner, mine));
                }
                if let Some(work) = work {
                    queues.waiting -= 1;
                    return Some(work);
                }
                continue;
            }
            queues = self.ready.wait(queues).ok()?;
        }
    }
}

impl AiPool {
    /// Starts `threads` workers with room for `capacity` waiting searches
    /// (`per_owner` of them for one owner); table replies go to `replies`.
    /// A `capacity` of 0 leaves no room: every search is refused (how the
    /// tests reach the "AI is busy" path).
    pub fn start(
        threads: usize,
        capacity: usize,
        per_owner: usize,
        replies: tokio::sync::mpsc::UnboundedSender<Reply>,
        metrics: Arc<crate::metrics::Metrics>,
    ) -> Self {
        let shared = Arc::new(Shared {
            queues: Mutex::new(Queues::default()),
            ready: Condvar::new(),
            capacity,
            per_owner: per_owner.max(1),
        });
        for index in 0..threads.max(1) {
            let shared = shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("ai-worker-{index}"))
                .spawn(move || {
                    while let Some(work) = shared.pop() {
                        work();
                    }
                });
            if let Err(error) = spawned {
                tracing::error!("cannot start AI worker {index}: {error}");
            }
        }
        Self {
            shared,
            replies,
            metrics,
        }
    }

    fn queue(&self, owner: &str, work: Work) -> Result<(), QueueFull> {
        use std::sync::atomic::Ordering::Relaxed;
        self.metrics.ai_queue_depth.fetch_add(1, Relaxed);
        let metrics = self.metrics.clone();
        let counted: Work = Box::new(move || {
            work();
            metrics.ai_queue_depth.fetch_sub(1, Relaxed);
        });
        self.shared.push(owner, counted).inspect_err(|_| {
            self.metrics.ai_queue_depth.fetch_sub(1, Relaxed);
            self.metrics.note_refusal("ai queue");
        })
    }

    /// Queues a table's search without blocking; the reply goes to the hub.
    pub fn submit(&self, job: Job) -> Result<(), QueueFull> {
        let replies = self.replies.clone();
        let owner = job.owner.clone();
        self.queue(
            &owner,
            Box::new(move || {
                let report = engine::search(&job.position, job.depth);
                let _ = replies.send(Reply { job, report });
            }),
        )
    }

    /// Runs `work` for `owner` on a pool thread, in the same round robin as
    /// the searches; the answer comes back on the returned channel.
    pub fn run_as<T: Send + 'static>(
        &self,
        owner: &str,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<tokio::sync::oneshot::Receiver<T>, QueueFull> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.queue(
            owner,
            Box::new(move || {
                let _ = tx.send(work());
            }),
        )?;
        Ok(rx)
    }

    /// Runs game-analysis `work` on a pool thread; all analyses together
    /// take one share of the round robin. `Err` when the queue is full.
    pub fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<tokio::sync::oneshot::Receiver<T>, QueueBusy> {
        self.run_as("analysis", work).map_err(|_| QueueBusy)
    }

    /// Queues a search for `owner` and answers it on the returned channel
    /// (the lab's searches).
    pub fn search(
        &self,
        owner: &str,
        position: Position,
        depth: u32,
    ) -> Result<tokio::sync::oneshot::Receiver<SearchReport>, QueueFull> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.queue(
            owner,
            Box::new(move || {
                let _ = tx.send(engine::search(&position, depth));
            }),
        )?;
        Ok(rx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared(capacity: usize, per_owner: usize) -> Shared {
        Shared {
            queues: Mutex::new(Queues::default()),
            ready: Condvar::new(),
            capacity,
            per_owner,
        }
    }

    #[test]
    fn owners_are_served_round_robin() {
        let queue = shared(100, 100);
        let order = Arc::new(Mutex::new(Vec::new()));
        for (owner, n) in [("greedy", 5), ("player", 1), ("other", 2)] {
            for i in 0..n {
                let order = order.clone();
                let tag = format!("{owner}{i}");
                queue
                    .push(
                        owner,
                        Box::new(move || order.lock().expect("lock").push(tag)),
                    )
                    .expect("room");
            }
        }
        for _ in 0..8 {
            queue.pop().expect("work")();
        }
        let order = order.lock().expect("lock").clone();
        assert_eq!(
            order,
            [
                "greedy0", "player0", "other0", "greedy1", "other1", "greedy2", "greedy3",
                "greedy4"
            ]
        );
    }

    #[test]
    fn a_full_queue_refuses_at_once() {
        let queue = shared(3, 2);
        queue.push("a", Box::new(|| {})).expect("1");
        queue.push("a", Box::new(|| {})).expect("2");
        let refused = queue.push("a", Box::new(|| {})).expect_err("owner full");
        assert!(refused.message.contains("waiting as allowed (2)"));
        queue.push("b", Box::new(|| {})).expect("3");
        let refused = queue.push("c", Box::new(|| {})).expect_err("full");
        assert!(refused.message.contains("busy"));
    }
}
