//! What the table hub needs from storage, as a trait: sessions, table
//! headers and seats, the durable record of every accepted command, reading
//! tables back for recovery, and deleting idle ones.
//!
//! Two implementations: [`Store`] (SQLite with group commit, one instance)
//! and [`PgStore`] (PostgreSQL, shared by several instances), with the same
//! guarantee: [`TableStore::record`] returns `Ok` only once the record is
//! durable, and a failed record changes nothing. On PostgreSQL the hub is
//! also handed the shared store and bus explicitly (`hub::Shared`): it then
//! treats its tables as caches and writes through the version-checked
//! methods of [`PgStore`].
//!
//! The server's [`Store`] handle carries the PostgreSQL store when
//! `--database` is a `postgres://` URL and hands it every table method.

use super::{MoveRow, PgStore, Record, Store, StoreError, StoredTable};
use crate::seating::SeatingRecord;
use std::future::Future;

/// A stored tally: (black wins, white wins, draws).
type Tally = (i64, i64, i64);

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
    async fn remember_session(&self, session: &str, now: i64) -> Result<(), StoreError> {
        match &self.pg {
            Some(pg) => pg.remember_session(session, now).await,
            None => Store::remember_session(self, session, now).await,
        }
    }

    async fn expire_sessions(&self, before: i64) -> Result<u64, StoreError> {
        match &self.pg {
            Some(pg) => pg.expire_sessions(before).await,
            None => Store::expire_sessions(self, before).await,
        }
    }

    async fn create_table(
        &self,
        id: &str,
        mode: &str,
        owner: &str,
        seats: (Option<&str>, Option<&str>),
        now: i64,
    ) -> Result<(), StoreError> {
        match &self.pg {
            Some(pg) => pg.create_table(id, mode, owner, seats, now).await,
            None => Store::create_table(self, id, mode, owner, seats, now).await,
        }
    }

    async fn update_table_setup(
        &self,
        id: &str,
        seating: &SeatingRecord,
        start_obf: Option<&str>,
    ) -> Result<(), StoreError> {
        match &self.pg {
            Some(pg) => pg.update_table_setup(id, seating, start_obf).await,
            None => Store::update_table_setup(self, id, seating, start_obf).await,
        }
    }

    async fn update_seating(
        &self,
        id: &str,
        seating: &SeatingRecord,
        touch: Option<i64>,
    ) -> Result<(), StoreError> {
        match &self.pg {
            // The hub writes a shared table's seats with
            // `PgStore::update_seating_at` (version-checked).
            Some(pg) => TableStore::update_seating(pg, id, seating, touch).await,
            None => Store::update_seating(self, id, seating, touch).await,
        }
    }

    async fn record(&self, record: &Record) -> Result<(), StoreError> {
        match &self.pg {
            // The hub records on a shared table with `PgStore::record_at`.
            Some(pg) => TableStore::record(pg, record).await,
            None => Store::record(self, record).await,
        }
    }

    async fn tables(&self) -> Result<Vec<StoredTable>, StoreError> {
        match &self.pg {
            Some(pg) => pg.tables().await,
            None => Store::tables(self).await,
        }
    }

    async fn moves(&self, table_id: &str) -> Result<Vec<MoveRow>, StoreError> {
        match &self.pg {
            Some(pg) => pg.moves(table_id).await,
            None => Store::moves(self, table_id).await,
        }
    }

    async fn tally(&self, table_id: &str) -> Result<Option<Tally>, StoreError> {
        match &self.pg {
            Some(pg) => pg.tally(table_id).await,
            None => Store::tally(self, table_id).await,
        }
    }

    async fn delete_idle_tables(&self, cutoff: i64) -> Result<Vec<String>, StoreError> {
        match &self.pg {
            Some(pg) => pg.delete_idle_tables(cutoff).await,
            None => Store::delete_idle_tables(self, cutoff).await,
        }
    }
}

impl TableStore for PgStore {
    async fn remember_session(&self, session: &str, now: i64) -> Result<(), StoreError> {
        PgStore::remember_session(self, session, now).await
    }

    async fn expire_sessions(&self, before: i64) -> Result<u64, StoreError> {
        PgStore::expire_sessions(self, before).await
    }

    async fn create_table(
        &self,
        id: &str,
        mode: &str,
        owner: &str,
        seats: (Option<&str>, Option<&str>),
        now: i64,
    ) -> Result<(), StoreError> {
        PgStore::create_table(self, id, mode, owner, seats, now).await
    }

    async fn update_table_setup(
        &self,
        id: &str,
        seating: &SeatingRecord,
        start_obf: Option<&str>,
    ) -> Result<(), StoreError> {
        PgStore::update_table_setup(self, id, seating, start_obf).await
    }

    /// Unchecked: the hub uses [`PgStore::update_seating_at`].
    async fn update_seating(
        &self,
        id: &str,
        seating: &SeatingRecord,
        touch: Option<i64>,
    ) -> Result<(), StoreError> {
        let version = self.version(id).await?.ok_or(StoreError::Gone)?;
        self.update_seating_at(id, seating, touch, version).await
    }

    /// Unchecked: the hub uses [`PgStore::record_at`].
    async fn record(&self, record: &Record) -> Result<(), StoreError> {
        let version = self
            .version(&record.table_id)
            .await?
            .ok_or(StoreError::Gone)?;
        self.record_at(record, version).await
    }

    async fn tables(&self) -> Result<Vec<StoredTable>, StoreError> {
        PgStore::tables(self).await
    }

    async fn moves(&self, table_id: &str) -> Result<Vec<MoveRow>, StoreError> {
        PgStore::moves(self, table_id).await
    }

    async fn tally(&self, table_id: &str) -> Result<Option<Tally>, StoreError> {
        PgStore::tally(self, table_id).await
    }

    async fn delete_idle_tables(&self, cutoff: i64) -> Result<Vec<String>, StoreError> {
        PgStore::delete_idle_tables(self, cutoff).await
    }
}
