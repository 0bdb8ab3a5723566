//! Quick match: players wait per time control, casual and rated apart. A
//! casual arrival is paired with the longest-waiting player; a rated one
//! with the waiting player of the closest rating inside a window that widens
//! as they wait ([`rating_window`]), and each waiting rated player looks
//! again every few seconds ([`Hub::match_waiting`]). Rated pairing never
//! pairs two accounts linked by an address or a browser
//! ([`crate::fair_play`]): each rated player waits with their links.

use super::Hub;
use crate::limits::{Caller, Kind};
use crate::store::TableStore;
use app::api::CommandError;
use app::protocol::{Session, TableId, TableMode, TimeControl};

/// A player waiting in the quick-match queue.
pub(super) struct Waiting {
    caller: Caller,
    ticket: u64,
    /// The rating matched on (rated queue only).
    rating: f64,
    /// The account's links (rated queue only): nobody sharing one is paired.
    links: Vec<String>,
    /// When they started waiting (ms).
    since: i64,
    matched: tokio::sync::oneshot::Sender<TableId>,
}

/// The queue's lines: one per time control and casual/rated.
pub(super) type QueueKey = (TimeControl, bool);

/// The answer to joining the quick-match queue.
pub enum Queued {
    /// Paired at once: the table to go to.
    Matched(TableId),
    /// Waiting; the receiver yields the table when an opponent arrives.
    Waiting {
        ticket: u64,
        matched: tokio::sync::oneshot::Receiver<TableId>,
    },
}

pub use crate::rating_window::{RatingWindow, RATING_WINDOW};

/// [`RATING_WINDOW`] after a wait of `waited_ms`.
pub fn rating_window(waited_ms: i64) -> f64 {
    RATING_WINDOW.at(waited_ms)
}

/// The waiting player to pair with someone (`session` with `links`, rated
/// at `rating` when the line is rated, waiting since `since`), if any.
fn pick(
    line: &[Waiting],
    session: &Session,
    links: &[String],
    rating: Option<f64>,
    since: i64,
    now: i64,
) -> Option<usize> {
    let live = line.iter().enumerate().filter(|(_, w)| {
        w.caller.session != *session
            && !w.matched.is_closed()
            && !w.links.iter().any(|link| links.contains(link))
    });
    match rating {
        None => live.map(|(i, _)| i).next(),
        Some(rating) => live
            .filter(|(_, w)| {
                let waited = now - since.min(w.since);
                (w.rating - rating).abs() <= rating_window(waited)
            })
            .min_by(|(_, a), (_, b)| {
                (a.rating - rating)
                    .abs()
                    .total_cmp(&(b.rating - rating).abs())
            })
            .map(|(i, _)| i),
    }
}

impl<S: TableStore> Hub<S> {
    /// Joins the quick-match queue for a time control, casual (`rating`
    /// None) or rated at `rating`: pairs with a waiting player, or waits.
    /// The table a match makes counts against the player who arrived
    /// second (they made it): a place is reserved first, so a player past
    /// their cap is refused without taking the waiting player's turn.
    pub async fn enqueue(
        &self,
        who: impl Into<Caller>,
        control: TimeControl,
        rating: Option<f64>,
    ) -> Result<Queued, CommandError> {
        let who = who.into();
        self.check_control(false, Some(control))?;
        if rating.is_some() && crate::identity::account_of(&who.session).is_none() {
            return Err(CommandError::refused(app::msg!("srv-rated-sign-in")));
        }
        let place = self.reserve_table(&who)?;
        self.inner
            .coordination
            .enqueue(self, place, who, control, rating)
            .await
    }

    /// [`Hub::enqueue`] on one instance: the queue is in memory.
    pub(super) async fn enqueue_local(
        &self,
        place: crate::limits::Reservation,
        who: Caller,
        control: TimeControl,
        rating: Option<f64>,
    ) -> Result<Queued, CommandError> {
        let links = match (rating, self.inner.fair_play.get()) {
            (Some(_), Some(fair_play)) => fair_play.links(&who).await,
            _ => Vec::new(),
        };
        let now = self.now();
        let partner = {
            let mut queue = self
                .inner
                .queue
                .lock()
                .map_err(|_| CommandError::unavailable(app::msg!("srv-queue-unavailable")))?;
            let line = queue.entry((control, rating.is_some())).or_default();
            line.retain(|w| !w.matched.is_closed());
            match pick(line, &who.session, &links, rating, now, now) {
                Some(index) => line.remove(index),
                None => {
                    let ticket = self
                        .inner
                        .tickets
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let (tx, rx) = tokio::sync::oneshot::channel();
                    line.push(Waiting {
                        caller: who.clone(),
                        ticket,
                        rating: rating.unwrap_or_default(),
                        links,
                        since: now,
                        matched: tx,
                    });
                    return Ok(Queued::Waiting {
                        ticket,
                        matched: rx,
                    });
                }
            }
        };
        let id = self
            .create_seated(
                place,
                &partner.caller.session,
                TableMode::Online {
                    private: false,
                    time: Some(control),
                    rated: rating.is_some(),
                    tournament: false,
                },
                Some(&who.session),
                None,
            )
            .await?;
        // If the partner vanished meanwhile, the table still exists and the
        // grace period decides; the new player is told either way.
        let _ = partner.matched.send(id.clone());
        tracing::info!(table = %id, rated = rating.is_some(), "quick match paired two players");
        Ok(Queued::Matched(id))
    }

    /// A waiting rated player looks again, their window wider now: pairs
    /// them with the closest-rated player inside it, telling both. True when
    /// paired (or no longer waiting).
    pub async fn match_waiting(&self, ticket: u64, caller: &Caller, control: TimeControl) -> bool {
        self.inner
            .coordination
            .match_waiting(self, ticket, caller, control)
            .await
    }

    /// [`Hub::match_waiting`] on one instance.
    pub(super) async fn match_waiting_local(
        &self,
        ticket: u64,
        _caller: &Caller,
        _control: TimeControl,
    ) -> bool {
        let now = self.now();
        let (me, partner, control) = {
            let Ok(mut queue) = self.inner.queue.lock() else {
                return false;
            };
            let Some(((control, true), line)) = queue
                .iter_mut()
                .find(|(_, line)| line.iter().any(|w| w.ticket == ticket))
            else {
                return false;
            };
            let control = *control;
            let Some(mine) = line.iter().position(|w| w.ticket == ticket) else {
                return true;
            };
            let (session, links, rating, since) = {
                let w = &line[mine];
                (w.caller.session.clone(), w.links.clone(), w.rating, w.since)
            };
            let Some(other) = pick(line, &session, &links, Some(rating), since, now) else {
                return false;
            };
            // Neither may be taken by another arrival meanwhile.
            let (first, second) = (mine.max(other), mine.min(other));
            let a = line.remove(first);
            let b = line.remove(second);
            if a.ticket == ticket {
                (a, b, control)
            } else {
                (b, a, control)
            }
        };
        let place = match self
            .inner
            .limits
            .reserve(Kind::Table, &me.caller, |id| self.is_live(id))
        {
            Ok(place) => place,
            Err(_) => {
                // Past their cap: the other player waits on.
                if let Ok(mut queue) = self.inner.queue.lock() {
                    queue.entry((control, true)).or_default().push(partner);
                }
                drop(me);
                return true;
            }
        };
        match self
            .create_seated(
                place,
                &partner.caller.session,
                TableMode::Online {
                    private: false,
                    time: Some(control),
                    rated: true,
                    tournament: false,
                },
                Some(&me.caller.session),
                None,
            )
            .await
        {
            Ok(id) => {
                let _ = partner.matched.send(id.clone());
                let _ = me.matched.send(id.clone());
                tracing::info!(table = %id, "quick match paired two rated players");
            }
            Err(error) => tracing::error!("cannot make a quick-match table: {}", error.message),
        }
        true
    }

    /// Since when fair play's links count.
    pub(super) fn links_since(&self) -> i64 {
        self.now() - crate::fair_play::LINK_DAYS * crate::store::ratings::DAY_MS
    }

    /// Leaves the queue (the waiting socket closed).
    pub fn dequeue(&self, ticket: u64) {
        self.inner.coordination.dequeue(self, ticket);
    }

    /// [`Hub::dequeue`] on one instance.
    pub(super) fn dequeue_local(&self, ticket: u64) {
        if let Ok(mut queue) = self.inner.queue.lock() {
            for line in queue.values_mut() {
                line.retain(|w| w.ticket != ticket);
            }
        }
    }

    /// Whether someone is waiting in the queue.
    pub fn queue_len(&self) -> usize {
        self.inner.coordination.queue_len(self)
    }

    /// [`Hub::queue_len`] on one instance.
    pub(super) fn queue_len_local(&self) -> usize {
        self.inner.queue.lock().map_or(0, |q| {
            q.values()
                .flatten()
                .filter(|w| !w.matched.is_closed())
                .count()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rating_window_widens_to_anyone() {
        assert_eq!(rating_window(0), 100.0);
        assert_eq!(rating_window(4_999), 100.0);
        assert_eq!(rating_window(5_000), 200.0);
        assert_eq!(rating_window(29_999), 600.0);
        assert!(rating_window(30_000).is_infinite());
    }

    fn waiting(
        session: &str,
        rating: f64,
        since: i64,
    ) -> (Waiting, tokio::sync::oneshot::Receiver<TableId>) {
        let (tx, rx) = tokio::sync::oneshot::channel();
        (
            Waiting {
                caller: Caller::from(&Session::new(session)),
                ticket: 0,
                rating,
                links: vec![format!("ip:{session}")],
                since,
                matched: tx,
            },
            rx,
        )
    }

    #[test]
    fn a_rated_arrival_meets_the_closest_rating_inside_the_window() {
        let (far, _a) = waiting("account:1", 1900.0, 0);
        let (near, _b) = waiting("account:2", 1560.0, 0);
        let (nearer, _c) = waiting("account:3", 1480.0, 0);
        let line = vec![far, near, nearer];
        let me = Session::new("account:4");
        assert_eq!(pick(&line, &me, &[], Some(1500.0), 0, 0), Some(2));
        // Nobody inside ±100 at first; after 30 s anyone.
        let line = vec![line.into_iter().next().unwrap()];
        assert_eq!(pick(&line, &me, &[], Some(1500.0), 0, 1_000), None);
        assert_eq!(pick(&line, &me, &[], Some(1500.0), 0, 30_000), Some(0));
        // Never with oneself; casual takes the longest waiting.
        assert_eq!(
            pick(&line, &Session::new("account:1"), &[], Some(1900.0), 0, 0),
            None
        );
        assert_eq!(pick(&line, &me, &[], None, 0, 0), Some(0));
    }

    #[test]
    fn linked_accounts_are_never_paired() {
        let (near, _a) = waiting("account:1", 1500.0, 0);
        let (far, _b) = waiting("account:2", 1580.0, 0);
        let line = vec![near, far];
        let me = Session::new("account:3");
        // The closest shares a link with the arrival: the other is taken.
        let shared = ["ip:account:1".to_string()];
        assert_eq!(pick(&line, &me, &shared, Some(1500.0), 0, 0), Some(1));
        let both = ["ip:account:1".to_string(), "ip:account:2".to_string()];
        assert_eq!(pick(&line, &me, &both, Some(1500.0), 0, 60_000), None);
    }
}
