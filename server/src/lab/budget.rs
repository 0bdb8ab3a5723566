//! The paid explanations' budget (Responses API, Codex), in the database:
//! the explanations started per UTC day, server-wide (`--explain-daily-budget`)
//! and per address (`--explain-daily-per-ip`), and the explanations being
//! written at once (`--explain-concurrency`). On PostgreSQL every instance
//! counts in the same rows, so N instances do not spend N budgets; on either
//! database a restart does not reset them (`migrations/0013_explain_budget.sql`,
//! `migrations/postgres/0003_explain_budget.sql`).
//!
//! Each check and its count are one transaction that writes first (so the
//! database's write lock, or PostgreSQL's row and advisory locks, make them
//! atomic; the queries are the store's, `store/explain_budget.rs`): two
//! instances asking for the last explanation of the day get one each only if
//! there are two.

use crate::clock::Clock;
use crate::store::{Store, StoreError};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

/// How often a writer waiting for a free slot looks again (a slot freed on
/// this instance wakes it at once).
const SLOT_RETRY: Duration = Duration::from_millis(500);

/// The budget's settings.
#[derive(Clone, Copy, Debug)]
pub struct BudgetConfig {
    /// Paid explanations per UTC day, server-wide.
    pub daily: u32,
    /// Paid explanations written at once, server-wide.
    pub concurrency: u32,
    /// How long a slot is held at most (the explain timeout and a margin):
    /// past it, a slot whose writer died no longer counts.
    pub lease_ms: i64,
}

/// The shared budget; cheap to clone.
#[derive(Clone)]
pub struct SharedBudget {
    store: Store,
    config: BudgetConfig,
    /// Wakes writers waiting here for a slot when one is given back here.
    freed: Arc<tokio::sync::Notify>,
}

/// Why an explanation is not paid for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The server's daily budget is spent.
    Server(u32),
    /// This address's daily budget is spent.
    Address(u32),
}

impl Refusal {
    /// What the caller reads, by key ("… Nothing changed.").
    pub fn msg(&self) -> app::i18n::Msg {
        match self {
            Refusal::Server(daily) => app::msg!("srv-explain-server-spent", limit = *daily),
            Refusal::Address(daily) => app::msg!("srv-explain-address-spent", limit = *daily),
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Server(daily) => write!(
                f,
                "The server's daily budget of {daily} paid explanations is spent; retry after midnight UTC."
            ),
            Refusal::Address(daily) => write!(
                f,
                "Your address has used its {daily} paid explanations for today; retry after midnight UTC."
            ),
        }
    }
}

/// The UTC day number of a time in milliseconds.
pub fn day_of(now_ms: i64) -> i64 {
    now_ms.div_euclid(86_400_000)
}

fn scope_of(address: IpAddr) -> String {
    format!("ip:{address}")
}

/// One slot held while an explanation is written; give it back with
/// [`Slot::release`] (dropped, it is given back in the background).
pub struct Slot {
    budget: SharedBudget,
    id: String,
    released: bool,
}

impl Slot {
    /// Gives the slot back.
    pub async fn release(mut self) {
        self.released = true;
        self.budget.release(&self.id).await;
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if self.released {
            return;
        }
        let budget = self.budget.clone();
        let id = std::mem::take(&mut self.id);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move { budget.release(&id).await });
        }
    }
}

impl SharedBudget {
    pub fn new(store: Store, config: BudgetConfig) -> Self {
        SharedBudget {
            store,
            config,
            freed: Arc::new(tokio::sync::Notify::new()),
        }
    }

    pub fn config(&self) -> BudgetConfig {
        self.config
    }

    /// Whether one more explanation fits today's budgets (the server's, and
    /// `address`'s, `per_address` a day), without taking it: a step checks
    /// before it places a disc.
    pub async fn room(
        &self,
        now_ms: i64,
        address: Option<IpAddr>,
        per_address: u32,
    ) -> Result<Result<(), Refusal>, StoreError> {
        let day = day_of(now_ms);
        if self.spent(day, "*").await? >= i64::from(self.config.daily) {
            return Ok(Err(Refusal::Server(self.config.daily)));
        }
        if let Some(address) = address {
            if self.spent(day, &scope_of(address)).await? >= i64::from(per_address) {
                return Ok(Err(Refusal::Address(per_address)));
            }
        }
        Ok(Ok(()))
    }

    /// Explanations started on `day` in `scope` (`*`: server-wide).
    pub async fn spent(&self, day: i64, scope: &str) -> Result<i64, StoreError> {
        self.store.explain_spent(day, scope).await
    }

    /// Takes one explanation from today's budgets: the server's and, when
    /// given, `address`'s (`per_address` a day). Both are counted, or
    /// neither.
    pub async fn take(
        &self,
        now_ms: i64,
        address: Option<IpAddr>,
        per_address: u32,
    ) -> Result<Result<(), Refusal>, StoreError> {
        let day = day_of(now_ms);
        let mut scopes = vec![(
            ("*".to_string(), i64::from(self.config.daily)),
            Refusal::Server(self.config.daily),
        )];
        if let Some(address) = address {
            scopes.push((
                (scope_of(address), i64::from(per_address)),
                Refusal::Address(per_address),
            ));
        }
        let (limits, refusals): (Vec<_>, Vec<_>) = scopes.into_iter().unzip();
        Ok(match self.store.take_explain_budget(day, &limits).await? {
            Some(full) => Err(refusals[full].clone()),
            None => Ok(()),
        })
    }

    /// Takes a free slot as `id` at `now_ms` if fewer than the concurrency
    /// cap are held (leases that ran out do not count); `false` when full.
    pub async fn try_slot(&self, id: &str, now_ms: i64) -> Result<bool, StoreError> {
        let until = now_ms.saturating_add(self.config.lease_ms);
        let cap = i64::from(self.config.concurrency.max(1));
        self.store.take_explain_slot(id, now_ms, until, cap).await
    }

    /// Waits (at most `patience`) for a free slot.
    pub async fn slot(&self, clock: &dyn Clock, patience: Duration) -> Result<Slot, String> {
        let id = {
            let bytes: [u8; 16] = rand::random();
            crate::hex::hex(&bytes)
        };
        let deadline = tokio::time::Instant::now() + patience;
        loop {
            let freed = self.freed.notified();
            match self.try_slot(&id, clock.now_ms()).await {
                Ok(true) => {
                    return Ok(Slot {
                        budget: self.clone(),
                        id,
                        released: false,
                    })
                }
                Ok(false) => {}
                Err(error) => tracing::warn!("cannot take an explanation slot: {error}"),
            }
            if tokio::time::Instant::now() >= deadline {
                return Err(format!(
                    "Every paid explanation slot ({}) stayed busy; retry the explanation in a moment.",
                    self.config.concurrency
                ));
            }
            tokio::select! {
                () = freed => {}
                () = tokio::time::sleep(SLOT_RETRY) => {}
            }
        }
    }

    /// Gives slot `id` back.
    async fn release(&self, id: &str) {
        if let Err(error) = self.store.release_explain_slot(id).await {
            // The lease runs out by itself.
            tracing::warn!("cannot give an explanation slot back: {error}");
        }
        self.freed.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;

    fn config() -> BudgetConfig {
        BudgetConfig {
            daily: 5,
            concurrency: 2,
            lease_ms: 60_000,
        }
    }

    /// Two instances: two stores on one database file.
    async fn two_instances(path: &std::path::Path) -> (SharedBudget, SharedBudget) {
        let a = Store::open(path).await.expect("store a");
        let b = Store::open(path).await.expect("store b");
        (
            SharedBudget::new(a, config()),
            SharedBudget::new(b, config()),
        )
    }

    #[tokio::test]
    async fn the_daily_budget_is_shared_by_instances_and_survives_a_restart() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("othello.db");
        let now = 1_700_000_000_000;
        let ip: IpAddr = "192.0.2.1".parse().expect("ip");
        let other: IpAddr = "192.0.2.2".parse().expect("ip");
        let (a, b) = two_instances(&path).await;
        // Per address 2 a day: the third from that address is refused, on
        // either instance, and counts nothing.
        assert_eq!(a.take(now, Some(ip), 2).await.expect("db"), Ok(()));
        assert_eq!(b.take(now, Some(ip), 2).await.expect("db"), Ok(()));
        assert_eq!(
            a.take(now, Some(ip), 2).await.expect("db"),
            Err(Refusal::Address(2))
        );
        assert_eq!(
            b.room(now, Some(ip), 2).await.expect("db"),
            Err(Refusal::Address(2))
        );
        assert_eq!(a.spent(day_of(now), "*").await.expect("db"), 2);
        // The server's 5 a day, across both instances.
        assert_eq!(b.take(now, Some(other), 10).await.expect("db"), Ok(()));
        assert_eq!(a.take(now, None, 10).await.expect("db"), Ok(()));
        assert_eq!(b.take(now, None, 10).await.expect("db"), Ok(()));
        assert_eq!(
            a.take(now, Some(other), 10).await.expect("db"),
            Err(Refusal::Server(5))
        );
        assert_eq!(
            a.spent(day_of(now), &scope_of(other)).await.expect("db"),
            1,
            "a refused explanation counts for no one"
        );
        drop((a, b));
        // A restart keeps the day's count.
        let (a, _) = two_instances(&path).await;
        assert_eq!(
            a.take(now, None, 10).await.expect("db"),
            Err(Refusal::Server(5))
        );
        assert_eq!(
            a.room(now, None, 10).await.expect("db"),
            Err(Refusal::Server(5))
        );
        // The next UTC day starts afresh.
        let tomorrow = now + 86_400_000;
        assert_eq!(a.take(tomorrow, Some(ip), 2).await.expect("db"), Ok(()));
    }

    #[tokio::test]
    async fn the_concurrency_cap_is_shared_and_a_dead_writers_slot_runs_out() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("othello.db");
        let clock = ManualClock::new(1_700_000_000_000);
        let (a, b) = two_instances(&path).await;
        let first = a
            .slot(&clock, Duration::from_secs(5))
            .await
            .expect("a slot on a");
        let _second = b
            .slot(&clock, Duration::from_secs(5))
            .await
            .expect("a slot on b");
        assert!(
            !a.try_slot("third", clock.now_ms()).await.expect("db"),
            "two at once, whichever instance"
        );
        first.release().await;
        assert!(b.try_slot("third", clock.now_ms()).await.expect("db"));
        assert!(!a.try_slot("fourth", clock.now_ms()).await.expect("db"));
        // A writer that died holds its slot only until its lease runs out.
        clock.advance(60_001);
        assert!(a.try_slot("fourth", clock.now_ms()).await.expect("db"));
        drop((a, b));
        // A restart: the slots held are still held (until their lease).
        let (a, _) = two_instances(&path).await;
        assert!(a.try_slot("fifth", clock.now_ms()).await.expect("db"));
        assert!(!a.try_slot("sixth", clock.now_ms()).await.expect("db"));
    }
}
