//! Presence and timers: sockets opening and closing feed each online
//! table's [`Seating`](crate::seating::Seating); a periodic tick ends rounds
//! whose absent player ran out of grace or whose side to move ran out of
//! time. What the seating asks for goes through the durable command path.

use super::entry::{seat_command, Entry};
use super::Hub;
use crate::seating::{SeatCommand, SeatEvent};
use crate::store::TableStore;
use crate::table::Event;
use app::protocol::{Session, TableId};

impl<S: TableStore> Hub<S> {
    /// A socket of `session` opened on table `id` (seat holder or not).
    pub async fn socket_opened(&self, id: &TableId, session: &Session) {
        self.inner.coordination.socket(self, id, session, 1).await;
    }

    /// A socket of `session` on table `id` closed.
    pub async fn socket_closed(&self, id: &TableId, session: &Session) {
        self.inner.coordination.socket(self, id, session, -1).await;
    }

    /// A socket opened (`delta` 1) or closed on this instance, which alone
    /// holds the table: its seating hears it.
    pub(super) async fn local_socket(&self, id: &TableId, session: &Session, delta: i32) {
        let session = session.as_str().to_string();
        let event = if delta > 0 {
            SeatEvent::SocketOpened { session }
        } else {
            SeatEvent::SocketClosed { session }
        };
        self.seat_event(id, event).await;
    }

    /// Feeds a presence event to a table's seating, stores what changed,
    /// broadcasts, and runs the command the seating answers.
    pub(super) async fn seat_event(&self, id: &TableId, event: SeatEvent) {
        let Ok(entry) = self.entry(id).await else {
            return;
        };
        let mut entry = entry.lock().await;
        let now = self.now();
        let Some(seating) = entry.seating.as_mut() else {
            return;
        };
        let before = seating.record();
        let due = match seating.apply(event, now) {
            Ok(due) => due,
            Err(error) => {
                tracing::warn!(table = %entry.id, "seat event refused: {error}");
                return;
            }
        };
        let after = seating.record();
        if after != before {
            if let Err(error) = self.write_seating(&mut entry, &after, None).await {
                tracing::error!(table = %entry.id, "cannot record presence: {}", error.message);
            }
            self.broadcast(&entry);
        }
        if let Some(command) = due {
            self.run_seat_command(&mut entry, command).await;
        }
    }

    /// Commits what the seating asked for: a forfeit or an abandon.
    pub(super) async fn run_seat_command(&self, entry: &mut Entry, command: SeatCommand) {
        let command = seat_command(command);
        if let Err(error) = self.commit(entry, command).await {
            tracing::error!(table = %entry.id, "grace timeout not applied: {}", error.message);
        }
    }

    /// Ends online rounds whose absent players ran out of grace or whose
    /// side to move ran out of time (a tick of every table's seating and
    /// clocks at the clock's current time; the earlier deadline decides).
    pub async fn check_presence(&self) {
        self.inner.coordination.tick(self).await;
    }

    /// The timers of every table in memory, when this instance alone holds
    /// them (shared timers are jobs any instance runs once).
    pub(super) async fn tick_tables(&self) {
        let entries: Vec<_> = self
            .inner
            .tables
            .lock()
            .map(|t| t.values().cloned().collect())
            .unwrap_or_default();
        let now = self.now();
        for entry in entries {
            let mut entry = entry.lock().await;
            self.run_due_timer(&mut entry, now).await;
        }
    }

    /// Commits what the table's timers ask for at `now`, if anything.
    pub(super) async fn run_due_timer(&self, entry: &mut Entry, now: i64) {
        if let Some(command) = entry.due_timer(now) {
            if let Err(error) = self.commit(entry, command).await {
                tracing::error!(table = %entry.id, "timer not applied: {}", error.message);
            }
        }
    }

    /// Tells an online table's seating that a round ended or began, and
    /// stores its new state (grace starts or stops with the round).
    pub(super) async fn rounds_changed(&self, entry: &mut Entry, events: &[Event]) {
        let Some(seating) = entry.seating.as_mut() else {
            return;
        };
        let now = self.now();
        let before = seating.record();
        for event in events {
            let seat_event = match event {
                Event::RoundOver { .. } => SeatEvent::RoundEnded,
                Event::RematchStarted { .. } => SeatEvent::RoundStarted,
                _ => continue,
            };
            // A grace that ends at this very instant is run by the next tick.
            let _ = seating.apply(seat_event, now);
        }
        let after = seating.record();
        if after != before {
            if let Err(error) = self.write_seating(entry, &after, None).await {
                tracing::error!(table = %entry.id, "cannot record the seats: {}", error.message);
            }
        }
    }
}
