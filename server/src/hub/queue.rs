//! Quick match: one waiting player per time control; the next player asking
//! for the same control is paired with them at a new online table.

use super::Hub;
use crate::store::TableStore;
use app::api::CommandError;
use app::protocol::{Session, TableMode, TimeControl};

/// The player waiting in the quick-match queue.
pub(super) struct Waiting {
    session: Session,
    ticket: u64,
    matched: tokio::sync::oneshot::Sender<String>,
}

/// The answer to joining the quick-match queue.
pub enum Queued {
    /// Paired at once: the table to go to.
    Matched(String),
    /// Waiting; the receiver yields the table when an opponent arrives.
    Waiting {
        ticket: u64,
        matched: tokio::sync::oneshot::Receiver<String>,
    },
}

impl<S: TableStore> Hub<S> {
    /// Joins the quick-match queue for a time control: pairs with the player
    /// waiting for the same control, or waits.
    /// The table a match makes counts against the player who arrived
    /// second (they made it): a place is reserved first, so a player past
    /// their cap is refused without taking the waiting player's turn.
    pub async fn enqueue(
        &self,
        who: impl Into<crate::limits::Caller>,
        control: TimeControl,
    ) -> Result<Queued, CommandError> {
        let who = who.into();
        self.check_control(false, Some(control))?;
        let place = self.reserve_table(&who)?;
        let session = who.session;
        if self.cluster().is_some() {
            return self.enqueue_shared(place, session, control).await;
        }
        let partner = {
            let mut queue = self
                .inner
                .queue
                .lock()
                .map_err(|_| CommandError::unavailable("the queue is unavailable"))?;
            match queue.remove(&control) {
                Some(waiting) if waiting.session != session && !waiting.matched.is_closed() => {
                    Some(waiting)
                }
                _ => {
                    let ticket = self
                        .inner
                        .tickets
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let (tx, rx) = tokio::sync::oneshot::channel();
                    queue.insert(
                        control,
                        Waiting {
                            session: session.clone(),
                            ticket,
                            matched: tx,
                        },
                    );
                    return Ok(Queued::Waiting {
                        ticket,
                        matched: rx,
                    });
                }
            }
        };
        let Some(partner) = partner else {
            return Err(CommandError::unavailable("the queue is unavailable"));
        };
        let id = self
            .create_seated(
                place,
                &partner.session,
                TableMode::Online {
                    private: false,
                    time: Some(control),
                },
                Some(&session),
                None,
            )
            .await?;
        // If the partner vanished meanwhile, the table still exists and the
        // grace period decides; the new player is told either way.
        let _ = partner.matched.send(id.clone());
        tracing::info!(table = %id, "quick match paired two players");
        Ok(Queued::Matched(id))
    }

    /// Quick match across instances: the queue is the `queue` table; the
    /// oldest player waiting for the control (on a live instance) is taken
    /// with FOR UPDATE SKIP LOCKED and paired, and their instance hears the
    /// table on the bus.
    async fn enqueue_shared(
        &self,
        place: crate::limits::Reservation,
        session: Session,
        control: TimeControl,
    ) -> Result<Queued, CommandError> {
        let Some(cluster) = self.cluster() else {
            return Err(CommandError::unavailable("the queue is unavailable"));
        };
        let now = self.now();
        let alive_since = now.saturating_sub(cluster.timeout_ms);
        let key = super::cluster::control_key(control);
        match cluster
            .pg
            .enqueue(&session.0, &key, now, alive_since)
            .await?
        {
            Ok(ticket) => {
                let (tx, rx) = tokio::sync::oneshot::channel();
                cluster.wait(ticket, tx);
                Ok(Queued::Waiting {
                    ticket: u64::try_from(ticket).unwrap_or(0),
                    matched: rx,
                })
            }
            Err((ticket, partner)) => {
                let id = self
                    .create_seated(
                        place,
                        &Session(partner),
                        TableMode::Online {
                            private: false,
                            time: Some(control),
                        },
                        Some(&session),
                        None,
                    )
                    .await?;
                let message = crate::store::bus::BusMessage::Matched {
                    ticket,
                    table: id.clone(),
                };
                if let Err(error) = cluster.bus.publish(message).await {
                    tracing::error!(table = %id, "cannot tell the waiting player: {error}");
                }
                tracing::info!(table = %id, "quick match paired two players");
                Ok(Queued::Matched(id))
            }
        }
    }

    /// Leaves the queue (the waiting socket closed).
    pub fn dequeue(&self, ticket: u64) {
        if let Some(cluster) = self.cluster() {
            let ticket = i64::try_from(ticket).unwrap_or(-1);
            cluster.stop_waiting(ticket);
            let pg = cluster.pg.clone();
            tokio::spawn(async move {
                if let Err(error) = pg.dequeue(ticket).await {
                    tracing::error!("cannot leave the queue: {error}");
                }
            });
            return;
        }
        if let Ok(mut queue) = self.inner.queue.lock() {
            queue.retain(|_, w| w.ticket != ticket);
        }
    }

    /// Whether someone is waiting in the queue.
    pub fn queue_len(&self) -> usize {
        if let Some(cluster) = self.cluster() {
            return cluster.waiting_count();
        }
        self.inner
            .queue
            .lock()
            .map_or(0, |q| q.values().filter(|w| !w.matched.is_closed()).count())
    }
}
