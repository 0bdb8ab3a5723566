//! What the table hub needs from storage, as a trait: sessions, table
//! headers and seats, the durable record of every accepted command, reading
//! tables back for recovery, and deleting idle ones.
//!
//! [`Store`] (SQLite with group commit) is today's implementation; another
//! database (PostgreSQL, for running several servers) implements the same
//! methods with the same guarantee: [`TableStore::record`] returns `Ok` only
//! once the record is durable, and a failed record changes nothing.

use super::{MoveRow, Record, Store, StoreError, StoredTable};
use crate::seating::SeatingRecord;
use std::future::Future;

/// Storage for the table hub (see the module docs).
pub trait TableStore: Clone + Send + Sync + 'static {
    /// Stores a session (by the hash of its token) or marks it used at `now`.
    fn remember_session(
        &self,
        session: &str,
        now: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Deletes sessions unused since `before` (ms); returns how many.
    fn expire_sessions(&self, before: i64) -> impl Future<Output = Result<u64, StoreError>> + Send;

    /// Creates a table with its first round and an empty tally; `seats` are
    /// the black and white seat holders of an online table.
    fn create_table(
        &self,
        id: &str,
        mode: &str,
        owner: &str,
        seats: (Option<&str>, Option<&str>),
        now: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Stores an online table's seats and, if given, its start position.
    fn update_table_setup(
        &self,
        id: &str,
        seating: &SeatingRecord,
        start_obf: Option<&str>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Stores an online table's seats and presence; `touch` also marks the
    /// table active.
    fn update_seating(
        &self,
        id: &str,
        seating: &SeatingRecord,
        touch: Option<i64>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Writes one accepted command and what it changed, atomically and
    /// durably; `Ok` only once it is durable.
    fn record(&self, record: &Record) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Every stored table, oldest first.
    fn tables(&self) -> impl Future<Output = Result<Vec<StoredTable>, StoreError>> + Send;

    /// A table's rows (commands and passes), in order.
    fn moves(
        &self,
        table_id: &str,
    ) -> impl Future<Output = Result<Vec<MoveRow>, StoreError>> + Send;

    /// The stored tally of a table: (black wins, white wins, draws).
    fn tally(
        &self,
        table_id: &str,
    ) -> impl Future<Output = Result<Option<(i64, i64, i64)>, StoreError>> + Send;

    /// Deletes tables idle since before `cutoff` (ms); returns their ids.
    fn delete_idle_tables(
        &self,
        cutoff: i64,
    ) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;
}

impl TableStore for Store {
    fn remember_session(
        &self,
        session: &str,
        now: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        Store::remember_session(self, session, now)
    }

    fn expire_sessions(&self, before: i64) -> impl Future<Output = Result<u64, StoreError>> + Send {
        Store::expire_sessions(self, before)
    }

    fn create_table(
        &self,
        id: &str,
        mode: &str,
        owner: &str,
        seats: (Option<&str>, Option<&str>),
        now: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        Store::create_table(self, id, mode, owner, seats, now)
    }

    fn update_table_setup(
        &self,
        id: &str,
        seating: &SeatingRecord,
        start_obf: Option<&str>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        Store::update_table_setup(self, id, seating, start_obf)
    }

    fn update_seating(
        &self,
        id: &str,
        seating: &SeatingRecord,
        touch: Option<i64>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        Store::update_seating(self, id, seating, touch)
    }

    fn record(&self, record: &Record) -> impl Future<Output = Result<(), StoreError>> + Send {
        Store::record(self, record)
    }

    fn tables(&self) -> impl Future<Output = Result<Vec<StoredTable>, StoreError>> + Send {
        Store::tables(self)
    }

    fn moves(
        &self,
        table_id: &str,
    ) -> impl Future<Output = Result<Vec<MoveRow>, StoreError>> + Send {
        Store::moves(self, table_id)
    }

    fn tally(
        &self,
        table_id: &str,
    ) -> impl Future<Output = Result<Option<(i64, i64, i64)>, StoreError>> + Send {
        Store::tally(self, table_id)
    }

    fn delete_idle_tables(
        &self,
        cutoff: i64,
    ) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send {
        Store::delete_idle_tables(self, cutoff)
    }
}
