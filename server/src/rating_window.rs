//! The quick match's rating window: a rule of the hub's queue that the
//! shared queue's SQL (`store/pg/cluster.rs`) states too, so it lives below
//! both.

/// How far apart two rated players' ratings may be, by how long the longer
/// waiting of them has waited: written once, read by the in-memory queue
/// ([`RatingWindow::at`]) and by the shared queue's SQL
/// ([`RatingWindow::sql`]).
#[derive(Clone, Copy, Debug)]
pub struct RatingWindow {
    /// The window at first: ± this many rating points.
    pub base: i64,
    /// It widens by this much …
    pub step: i64,
    /// … every this many milliseconds of waiting …
    pub every_ms: i64,
    /// … and anyone is in it after this long.
    pub anyone_after_ms: i64,
}

/// The quick match's window: ±100, 100 wider every 5 seconds, anyone after
/// 30 seconds.
pub const RATING_WINDOW: RatingWindow = RatingWindow {
    base: 100,
    step: 100,
    every_ms: 5_000,
    anyone_after_ms: 30_000,
};

impl RatingWindow {
    /// The window after a wait of `waited_ms`.
    pub fn at(&self, waited_ms: i64) -> f64 {
        if waited_ms >= self.anyone_after_ms {
            f64::INFINITY
        } else {
            (self.base + self.step * (waited_ms.max(0) / self.every_ms)) as f64
        }
    }

    /// The same window as an SQL expression (PostgreSQL), for a wait given
    /// by the SQL expression `waited` (milliseconds, an integer).
    pub fn sql(&self, waited: &str) -> String {
        format!(
            "(CASE WHEN ({waited}) >= {anyone} THEN 'Infinity'::float8 \
              ELSE ({base} + {step} * (({waited}) / {every}))::float8 END)",
            anyone = self.anyone_after_ms,
            base = self.base,
            step = self.step,
            every = self.every_ms,
        )
    }
}
