//! The AI worker pool: dedicated OS threads run engine searches so the network
//! loop never does. A bounded queue keeps a flood of requests from starving it.

use engine::{Position, SearchReport};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};

/// A search request.
#[derive(Clone, Debug)]
pub struct Job {
    pub table_id: String,
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

/// Other work for the pool's threads (game analysis), run in turn with the
/// searches.
pub type Task = Box<dyn FnOnce() + Send + 'static>;

/// What the workers take from the queue.
enum Work {
    Search(Job),
    Task(Task),
}

/// Handle to the pool.
#[derive(Clone)]
pub struct AiPool {
    jobs: SyncSender<Work>,
    metrics: Arc<crate::metrics::Metrics>,
}

/// The queue is full; try again later.
#[derive(Debug)]
pub struct QueueFull(pub Job);

/// The queue is full (a [`AiPool::run`] task); try again later.
#[derive(Debug)]
pub struct QueueBusy;

impl AiPool {
    /// Starts `threads` workers with a queue of `capacity` jobs; replies go to
    /// `replies`.
    pub fn start(
        threads: usize,
        capacity: usize,
        replies: tokio::sync::mpsc::UnboundedSender<Reply>,
        metrics: Arc<crate::metrics::Metrics>,
    ) -> Self {
        let (jobs, queue) = sync_channel::<Work>(capacity.max(1));
        let queue = Arc::new(Mutex::new(queue));
        for index in 0..threads.max(1) {
            let queue: Arc<Mutex<Receiver<Work>>> = queue.clone();
            let replies = replies.clone();
            let worker_metrics = metrics.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("ai-worker-{index}"))
                .spawn(move || loop {
                    let work = {
                        let Ok(receiver) = queue.lock() else { return };
                        match receiver.recv() {
                            Ok(work) => work,
                            Err(_) => return,
                        }
                    };
                    let job = match work {
                        Work::Search(job) => job,
                        Work::Task(task) => {
                            task();
                            worker_metrics
                                .ai_queue_depth
                                .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
                            continue;
                        }
                    };
                    let report = engine::search(&job.position, job.depth);
                    worker_metrics
                        .ai_queue_depth
                        .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
                    if replies.send(Reply { job, report }).is_err() {
                        return;
                    }
                });
            if let Err(error) = spawned {
                tracing::error!("cannot start AI worker {index}: {error}");
            }
        }
        Self { jobs, metrics }
    }

    /// Queues a search without blocking.
    pub fn submit(&self, job: Job) -> Result<(), QueueFull> {
        self.metrics
            .ai_queue_depth
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (TrySendError::Full(work) | TrySendError::Disconnected(work)) =
            match self.jobs.try_send(Work::Search(job)) {
                Ok(()) => return Ok(()),
                Err(e) => e,
            };
        self.metrics
            .ai_queue_depth
            .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        match work {
            Work::Search(job) => Err(QueueFull(job)),
            // Only a search was sent above.
            Work::Task(_) => Ok(()),
        }
    }

    /// Runs `work` on a pool thread, in turn with the searches; the answer
    /// comes back on the receiver. `Err` when the queue is full.
    pub fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<tokio::sync::oneshot::Receiver<T>, QueueBusy> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let task: Task = Box::new(move || {
            let _ = tx.send(work());
        });
        self.metrics
            .ai_queue_depth
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.jobs.try_send(Work::Task(task)).map_err(|_| {
            self.metrics
                .ai_queue_depth
                .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
            QueueBusy
        })?;
        Ok(rx)
    }
}
