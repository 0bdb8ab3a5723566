//! Counters and gauges behind `GET /metrics` (Prometheus text format).

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Per-second buckets over the last minute, for a moves-per-second gauge.
const WINDOW_SECS: usize = 60;

/// Live figures of the server; cheap to update from any task.
#[derive(Debug)]
pub struct Metrics {
    started: Instant,
    pub open_sockets: AtomicI64,
    pub ai_queue_depth: AtomicI64,
    pub moves_total: AtomicU64,
    pub commands_refused_total: AtomicU64,
    /// Commits of a round's end that failed.
    pub round_commits_failed_total: AtomicU64,
    /// Rated rounds written unrated after their result kept failing to save.
    pub rounds_unrated_after_failures_total: AtomicU64,
    /// Requests refused by a limit (rate, tables, sockets, AI queue, lab).
    pub limit_refusals_total: AtomicU64,
    buckets: Mutex<[(u64, u64); WINDOW_SECS]>,
}

impl Default for Metrics {
    fn default() -> Self {
        Self {
            started: Instant::now(),
            open_sockets: AtomicI64::new(0),
            ai_queue_depth: AtomicI64::new(0),
            moves_total: AtomicU64::new(0),
            commands_refused_total: AtomicU64::new(0),
            round_commits_failed_total: AtomicU64::new(0),
            rounds_unrated_after_failures_total: AtomicU64::new(0),
            limit_refusals_total: AtomicU64::new(0),
            buckets: Mutex::new([(u64::MAX, 0); WINDOW_SECS]),
        }
    }
}

impl Metrics {
    fn second(&self) -> u64 {
        self.started.elapsed().as_secs()
    }

    /// Counts one request refused by a limit (`kind` names it in the log).
    pub fn note_refusal(&self, kind: &str) {
        self.limit_refusals_total.fetch_add(1, Ordering::Relaxed);
        tracing::debug!(limit = kind, "request refused by a limit");
    }

    /// Counts one placed disc.
    pub fn record_move(&self) {
        self.moves_total.fetch_add(1, Ordering::Relaxed);
        let now = self.second();
        if let Ok(mut buckets) = self.buckets.lock() {
            let slot = &mut buckets[(now % WINDOW_SECS as u64) as usize];
            if slot.0 != now {
                *slot = (now, 0);
            }
            slot.1 += 1;
        }
    }

    /// Placed discs per second over the last full minute (or since start).
    pub fn moves_per_second(&self) -> f64 {
        let now = self.second();
        let span = (now.min(WINDOW_SECS as u64 - 1)).max(1);
        let Ok(buckets) = self.buckets.lock() else {
            return 0.0;
        };
        let recent: u64 = buckets
            .iter()
            .filter(|(second, _)| *second != u64::MAX && *second < now && now - second <= span)
            .map(|(_, count)| count)
            .sum();
        recent as f64 / span as f64
    }

    /// The Prometheus text exposition.
    pub fn render(&self, live_tables: usize, queue_waiting: usize) -> String {
        let gauge = |name: &str, help: &str, value: String| {
            format!("# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}\n")
        };
        let counter = |name: &str, help: &str, value: u64| {
            format!("# HELP {name} {help}\n# TYPE {name} counter\n{name} {value}\n")
        };
        [
            gauge(
                "othello_live_tables",
                "Tables held in memory.",
                live_tables.to_string(),
            ),
            gauge(
                "othello_open_sockets",
                "Open WebSocket connections.",
                self.open_sockets.load(Ordering::Relaxed).to_string(),
            ),
            gauge(
                "othello_ai_queue_depth",
                "AI searches queued or running.",
                self.ai_queue_depth.load(Ordering::Relaxed).to_string(),
            ),
            gauge(
                "othello_matchmaking_waiting",
                "Players waiting in the quick-match queue.",
                queue_waiting.to_string(),
            ),
            gauge(
                "othello_moves_per_second",
                "Discs placed per second over the last minute.",
                format!("{:.3}", self.moves_per_second()),
            ),
            counter(
                "othello_moves_total",
                "Discs placed since start.",
                self.moves_total.load(Ordering::Relaxed),
            ),
            counter(
                "othello_commands_refused_total",
                "Commands refused with a message.",
                self.commands_refused_total.load(Ordering::Relaxed),
            ),
            counter(
                "othello_round_commits_failed_total",
                "Commits of a round's result that failed.",
                self.round_commits_failed_total.load(Ordering::Relaxed),
            ),
            counter(
                "othello_rounds_unrated_after_failures_total",
                "Rated rounds written unrated after their result kept failing to save.",
                self.rounds_unrated_after_failures_total
                    .load(Ordering::Relaxed),
            ),
            counter(
                "othello_limit_refusals_total",
                "Requests refused by a limit (rate, tables, sockets, AI queue, lab).",
                self.limit_refusals_total.load(Ordering::Relaxed),
            ),
            gauge(
                "othello_uptime_seconds",
                "Seconds since start.",
                self.started.elapsed().as_secs().to_string(),
            ),
        ]
        .concat()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exposition_names_every_figure() {
        let metrics = Metrics::default();
        metrics.record_move();
        metrics.open_sockets.fetch_add(2, Ordering::Relaxed);
        let text = metrics.render(3, 1);
        for line in [
            "othello_live_tables 3",
            "othello_open_sockets 2",
            "othello_ai_queue_depth 0",
            "othello_matchmaking_waiting 1",
            "othello_moves_total 1",
        ] {
            assert!(text.contains(line), "{line} missing in\n{text}");
        }
        assert!(text.contains("# TYPE othello_moves_per_second gauge"));
    }
}
