//! The one seam between this instance's live tables and the other instances
//! (docs/ARCHITECTURE.md, "One seam"). The domain — tables, seats, timers,
//! the quick-match queue — calls [`Coordination`] and never asks which
//! database it runs on or whether there are other instances:
//!
//! - [`Local`]: this process alone holds its tables (SQLite, or one
//!   instance): a table in memory is the table, presence is counted here,
//!   timers are a tick over the tables in memory, the queue is in memory,
//!   there is no one to tell;
//! - [`Cluster`](super::cluster::Cluster): several instances on one
//!   PostgreSQL database: a table in memory is a cache checked against its
//!   stored version, presence is counted per instance, timers and AI moves
//!   are shared jobs, the queue is a table, and changes go out on the bus.
//!
//! A hub is started with one or the other ([`super::Hub::start`]); on a
//! PostgreSQL store it must be the cluster's (a hub refuses to start with
//! a local coordination on a database other instances may share).

use super::entry::Entry;
use super::queue::Queued;
use super::{Hub, RestoreError};
use crate::limits::{Caller, Reservation};
use crate::seating::SeatingRecord;
use crate::store::bus::TableChange;
use crate::store::{Record, StoreError, TableStore};
use app::api::CommandError;
use app::protocol::{Session, TableId, TimeControl};
use async_trait::async_trait;
use std::collections::HashMap;

/// Tries of one command against a table other instances keep changing.
pub(super) const TRIES: usize = 5;

/// Whether a refusal is [`app::api::ErrorKind::Stale`]: another instance
/// wrote the table first; try again on the reloaded table.
pub(super) fn is_stale<T>(result: &Result<T, CommandError>) -> bool {
    matches!(result, Err(e) if e.kind == app::api::ErrorKind::Stale)
}

/// What a command wrote, for the other instances (the bus).
pub(super) struct Change {
    /// The table's version once it is written.
    pub(super) version: i64,
    pub(super) rows: TableChange,
    /// Sent by the commit that wrote it (the bus is PostgreSQL's own).
    pub(super) sent: bool,
}

impl Change {
    /// The bus message's text.
    pub(super) fn encoded(&self, id: &TableId) -> String {
        crate::store::bus::table_message(id, self.version, Some(&self.rows))
    }
}

/// How a hub's tables meet the other instances (module docs). Every
/// method takes the hub it serves; the hub owns its coordination.
#[async_trait]
pub(super) trait Coordination<S>: Send + Sync + 'static {
    /// Starts what runs beside the hub (listening to the other instances).
    fn start(&self, hub: &Hub<S>);

    /// Brings back the tables the hub holds at start: every stored table
    /// replayed (alone), or none (shared tables load when first asked for).
    async fn restore(&self, hub: &Hub<S>) -> Result<(), RestoreError>;

    /// A table the hub does not hold in memory: loaded from the shared
    /// store; None when there is no such table (alone: never, every table
    /// is in memory).
    async fn load(&self, hub: &Hub<S>, id: &TableId) -> Result<Option<Entry>, StoreError>;

    /// Brings a table in memory up to its stored version (alone: it is).
    async fn sync(&self, hub: &Hub<S>, entry: &mut Entry) -> Result<(), CommandError>;

    /// Writes one accepted command's record; the change the other
    /// instances are to hear, if any.
    async fn record(
        &self,
        hub: &Hub<S>,
        entry: &mut Entry,
        record: &Record,
    ) -> Result<Option<Change>, StoreError>;

    /// Stores a table's seats and presence (`touch`: also its activity).
    async fn write_seating(
        &self,
        hub: &Hub<S>,
        entry: &mut Entry,
        seating: &SeatingRecord,
        touch: Option<i64>,
    ) -> Result<(), CommandError>;

    /// After a table was written: its timers and AI move are scheduled and
    /// the other instances hear of it.
    async fn published(&self, hub: &Hub<S>, entry: &mut Entry, change: Option<Change>);

    /// Tables deleted (idle): the other instances drop their copies.
    async fn deleted(&self, ids: &[TableId]);

    /// A socket of `session` opened (`delta` 1) or closed (-1) on table `id`.
    async fn socket(&self, hub: &Hub<S>, id: &TableId, session: &Session, delta: i32);

    /// The sockets on a table counted over every instance, when a seat
    /// taken here must know them (alone: the table's own count stands).
    async fn sockets(
        &self,
        hub: &Hub<S>,
        id: &TableId,
    ) -> Result<Option<HashMap<String, u32>>, StoreError>;

    /// The periodic work: timers that fell due, and (shared) heartbeats,
    /// dead instances and missed changes.
    async fn tick(&self, hub: &Hub<S>);

    /// An AI move that is due on a table being viewed and is not being
    /// searched (a search refused earlier, the queue full): asked again
    /// (shared: AI moves are jobs any instance takes).
    fn retry_ai(&self, hub: &Hub<S>, entry: &mut Entry);

    /// A clean shutdown: this instance's sockets and queue places go.
    async fn leave(&self, hub: &Hub<S>);

    /// Quick match: pairs `who` with a waiting player (making the table
    /// with `place`) or makes them wait.
    async fn enqueue(
        &self,
        hub: &Hub<S>,
        place: Reservation,
        who: Caller,
        control: TimeControl,
        rating: Option<f64>,
    ) -> Result<Queued, CommandError>;

    /// A waiting rated player looks again (their window wider); true when
    /// paired or no longer waiting.
    async fn match_waiting(
        &self,
        hub: &Hub<S>,
        ticket: u64,
        caller: &Caller,
        control: TimeControl,
    ) -> bool;

    /// Leaves the queue (the waiting socket closed).
    fn dequeue(&self, hub: &Hub<S>, ticket: u64);

    /// How many players wait here.
    fn queue_len(&self, hub: &Hub<S>) -> usize;
}

/// This process alone holds its tables (module docs).
pub(super) struct Local;

#[async_trait]
impl<S: TableStore> Coordination<S> for Local {
    fn start(&self, _hub: &Hub<S>) {}

    async fn restore(&self, hub: &Hub<S>) -> Result<(), RestoreError> {
        hub.restore_all().await
    }

    async fn load(&self, _hub: &Hub<S>, _id: &TableId) -> Result<Option<Entry>, StoreError> {
        Ok(None)
    }

    async fn sync(&self, _hub: &Hub<S>, _entry: &mut Entry) -> Result<(), CommandError> {
        Ok(())
    }

    async fn record(
        &self,
        hub: &Hub<S>,
        _entry: &mut Entry,
        record: &Record,
    ) -> Result<Option<Change>, StoreError> {
        hub.inner.store.record(record).await?;
        Ok(None)
    }

    async fn write_seating(
        &self,
        hub: &Hub<S>,
        entry: &mut Entry,
        seating: &SeatingRecord,
        touch: Option<i64>,
    ) -> Result<(), CommandError> {
        Ok(hub
            .inner
            .store
            .update_seating(&entry.id, seating, touch)
            .await?)
    }

    async fn published(&self, _hub: &Hub<S>, _entry: &mut Entry, _change: Option<Change>) {}

    async fn deleted(&self, _ids: &[TableId]) {}

    async fn socket(&self, hub: &Hub<S>, id: &TableId, session: &Session, delta: i32) {
        hub.local_socket(id, session, delta).await;
    }

    async fn sockets(
        &self,
        _hub: &Hub<S>,
        _id: &TableId,
    ) -> Result<Option<HashMap<String, u32>>, StoreError> {
        Ok(None)
    }

    async fn tick(&self, hub: &Hub<S>) {
        hub.tick_tables().await;
    }

    fn retry_ai(&self, hub: &Hub<S>, entry: &mut Entry) {
        if entry.table.ai_to_move() && !entry.ai_thinking {
            hub.after_change(entry);
        }
    }

    async fn leave(&self, _hub: &Hub<S>) {}

    async fn enqueue(
        &self,
        hub: &Hub<S>,
        place: Reservation,
        who: Caller,
        control: TimeControl,
        rating: Option<f64>,
    ) -> Result<Queued, CommandError> {
        hub.enqueue_local(place, who, control, rating).await
    }

    async fn match_waiting(
        &self,
        hub: &Hub<S>,
        ticket: u64,
        caller: &Caller,
        control: TimeControl,
    ) -> bool {
        hub.match_waiting_local(ticket, caller, control).await
    }

    fn dequeue(&self, hub: &Hub<S>, ticket: u64) {
        hub.dequeue_local(ticket);
    }

    fn queue_len(&self, hub: &Hub<S>) -> usize {
        hub.queue_len_local()
    }
}
