//! Quick match across instances (the cluster's half of
//! [`Coordination`](super::coordination::Coordination)'s queue): the queue
//! is PostgreSQL's `queue` table, a pairing reaches the waiting player's
//! instance on the bus.

use super::cluster::{queue_key, Cluster};
use super::queue::Queued;
use super::Hub;
use crate::limits::{Caller, Kind};
use crate::store::TableStore;
use app::api::CommandError;
use app::protocol::{Session, TableMode, TimeControl};

impl<S: TableStore> Hub<S> {
    /// [`Hub::match_waiting`] across instances: the shared queue pairs this
    /// ticket with the closest rating inside the window; the partner's
    /// instance hears the table on the bus, this one tells its own socket.
    pub(super) async fn match_waiting_shared(
        &self,
        cluster: &Cluster,
        ticket: u64,
        caller: &Caller,
        control: TimeControl,
    ) -> bool {
        // The place first: nobody leaves the queue for a table that cannot be made.
        let Ok(place) = self
            .inner
            .limits
            .reserve(Kind::Table, caller, |id| self.is_live(id))
        else {
            return false;
        };
        let now = self.now();
        let alive_since = now.saturating_sub(cluster.timeout_ms);
        let key = queue_key(control, true);
        let mine = i64::try_from(ticket).unwrap_or(-1);
        let links_since = self.links_since();
        let found = match cluster
            .pg
            .rematch(mine, &key, now, alive_since, links_since)
            .await
        {
            Ok(found) => found,
            Err(error) => {
                tracing::error!("cannot look for a rated opponent: {error}");
                return false;
            }
        };
        let Some((session, partner_ticket, partner)) = found else {
            return false;
        };
        let made = self
            .create_seated(
                place,
                &Session::new(partner),
                TableMode::Online {
                    private: false,
                    time: Some(control),
                    rated: true,
                    tournament: false,
                },
                Some(&Session::new(session)),
                None,
            )
            .await;
        match made {
            Ok(id) => {
                let message = crate::store::bus::BusMessage::Matched {
                    ticket: partner_ticket,
                    table: id.clone(),
                };
                if let Err(error) = cluster.bus.publish(message).await {
                    tracing::error!(table = %id, "cannot tell the waiting player: {error}");
                }
                cluster.waiting.matched(mine, id.clone());
                tracing::info!(table = %id, "quick match paired two rated players");
            }
            Err(error) => tracing::error!("cannot make a quick-match table: {}", error.message),
        }
        true
    }

    /// Quick match across instances: the queue is the `queue` table; the
    /// oldest player waiting for the control (on a live instance) is taken
    /// with FOR UPDATE SKIP LOCKED and paired, and their instance hears the
    /// table on the bus.
    pub(super) async fn enqueue_shared(
        &self,
        cluster: &Cluster,
        place: crate::limits::Reservation,
        session: Session,
        control: TimeControl,
        rating: Option<f64>,
    ) -> Result<Queued, CommandError> {
        let rated = rating.is_some();
        let now = self.now();
        let alive_since = now.saturating_sub(cluster.timeout_ms);
        let key = queue_key(control, rated);
        let unlinked = rated
            .then(|| crate::identity::account_of(&session).map(|a| (a, self.links_since())))
            .flatten();
        match cluster
            .pg
            .enqueue(session.as_str(), &key, now, alive_since, rating, unlinked)
            .await?
        {
            Ok(ticket) => {
                let (tx, rx) = tokio::sync::oneshot::channel();
                cluster.waiting.wait(ticket, tx);
                Ok(Queued::Waiting {
                    ticket: u64::try_from(ticket).unwrap_or(0),
                    matched: rx,
                })
            }
            Err((ticket, partner)) => {
                let id = self
                    .create_seated(
                        place,
                        &Session::new(partner),
                        TableMode::Online {
                            private: false,
                            time: Some(control),
                            rated,
                            tournament: false,
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
}
