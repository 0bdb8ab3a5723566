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

/// Handle to the pool.
#[derive(Clone)]
pub struct AiPool {
    jobs: SyncSender<Job>,
    metrics: Arc<crate::metrics::Metrics>,
}

/// The queue is full; try again later.
#[derive(Debug)]
pub struct QueueFull(pub Job);

impl AiPool {
    /// Starts `threads` workers with a queue of `capacity` jobs; replies go to
    /// `replies`.
    pub fn start(
        threads: usize,
        capacity: usize,
        replies: tokio::sync::mpsc::UnboundedSender<Reply>,
        metrics: Arc<crate::metrics::Metrics>,
    ) -> Self {
        let (jobs, queue) = sync_channel::<Job>(capacity.max(1));
        let queue = Arc::new(Mutex::new(queue));
        for index in 0..threads.max(1) {
            let queue: Arc<Mutex<Receiver<Job>>> = queue.clone();
            let replies = replies.clone();
            let worker_metrics = metrics.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("ai-worker-{index}"))
                .spawn(move || loop {
                    let job = {
                        let Ok(receiver) = queue.lock() else { return };
                        match receiver.recv() {
                            Ok(job) => job,
                            Err(_) => return,
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
        self.jobs.try_send(job).map_err(|e| {
            self.metrics
                .ai_queue_depth
                .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
            match e {
                TrySendError::Full(job) | TrySendError::Disconnected(job) => QueueFull(job),
            }
        })
    }
}
