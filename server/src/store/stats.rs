//! The group-commit writers' counters, one set per store (`/metrics`).

use std::sync::atomic::{AtomicU64, Ordering};

/// Counters of the group-commit writer (for `/metrics` and the tests).
#[derive(Debug, Default)]
pub struct CommitStats {
    batches: AtomicU64,
    records: AtomicU64,
    failed_batches: AtomicU64,
    largest_batch: AtomicU64,
}

impl CommitStats {
    /// Transactions the writer committed (or tried to).
    pub fn batches(&self) -> u64 {
        self.batches.load(Ordering::Relaxed)
    }
    /// Records written, over all batches.
    pub fn records(&self) -> u64 {
        self.records.load(Ordering::Relaxed)
    }
    /// Batches whose transaction failed.
    pub fn failed_batches(&self) -> u64 {
        self.failed_batches.load(Ordering::Relaxed)
    }
    /// The most records seen in one batch.
    pub fn largest_batch(&self) -> u64 {
        self.largest_batch.load(Ordering::Relaxed)
    }

    /// Counts a batch of `records` written (or tried).
    pub(crate) fn batch(&self, records: usize) {
        self.batches.fetch_add(1, Ordering::Relaxed);
        self.records.fetch_add(records as u64, Ordering::Relaxed);
        self.largest_batch
            .fetch_max(records as u64, Ordering::Relaxed);
    }

    /// Counts a batch whose transaction failed.
    pub(crate) fn failed(&self) {
        self.failed_batches.fetch_add(1, Ordering::Relaxed);
    }

    /// The counters in Prometheus text form (appended to `/metrics`).
    pub fn render(&self) -> String {
        [
            (
                "othello_commit_batches_total",
                "Group-commit transactions written.",
                self.batches(),
            ),
            (
                "othello_commit_records_total",
                "Commands written by group commit.",
                self.records(),
            ),
            (
                "othello_commit_failed_batches_total",
                "Group-commit transactions that failed.",
                self.failed_batches(),
            ),
        ]
        .iter()
        .map(|(name, help, value)| {
            format!("# HELP {name} {help}\n# TYPE {name} counter\n{name} {value}\n")
        })
        .collect::<String>()
            + &format!(
                "# HELP othello_commit_largest_batch Most commands in one group commit.\n# TYPE othello_commit_largest_batch gauge\nothello_commit_largest_batch {}\n",
                self.largest_batch()
            )
    }
}
