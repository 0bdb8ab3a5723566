//! What the table hub needs from storage, as a trait: sessions, table
//! headers and seats, the durable record of every accepted command, reading
//! tables back for recovery, and deleting idle ones.
//!
//! [`Store`] implements it once for both databases: the statements are
//! written once (`on_db!`) and only the durable record goes to each
//! store's own group-commit writer. The guarantee is the same on both:
//! [`TableStore::record`] returns `Ok` only once the record is durable, and
//! a failed record changes nothing. On PostgreSQL the hub is also handed
//! the shared store and bus explicitly (`hub::Shared`): it then treats its
//! tables as caches and writes through the version-checked methods of
//! [`super::PgStore`] (`record_notifying`, `update_seating_at`).

use super::mode::{bind_mode, mode_columns, ModeColumns};
use super::{
    on_db, DatabaseStore, Dialect, MoveRow, Record, Store, StoreError, StoredTable, ORPHANED_GAMES,
};
use crate::seating::SeatingRecord;
use app::protocol::{TableId, TableMode};
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
        id: &TableId,
        mode: TableMode,
        owner: &str,
        seats: (Option<&str>, Option<&str>),
        now: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Stores an online table's seats and, if given, its start position.
    fn update_table_setup(
        &self,
        id: &TableId,
        seating: &SeatingRecord,
        start_obf: Option<&str>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Stores an online table's seats and presence; `touch` also marks the
    /// table active.
    fn update_seating(
        &self,
        id: &TableId,
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
        table_id: &TableId,
    ) -> impl Future<Output = Result<Vec<MoveRow>, StoreError>> + Send;

    /// The stored tally of a table: (black wins, white wins, draws).
    fn tally(
        &self,
        table_id: &TableId,
    ) -> impl Future<Output = Result<Option<(i64, i64, i64)>, StoreError>> + Send;

    /// Deletes tables idle since before `cutoff` (ms); returns their ids.
    fn delete_idle_tables(
        &self,
        cutoff: i64,
    ) -> impl Future<Output = Result<Vec<TableId>, StoreError>> + Send;

    /// Whether other instances may share this database: a hub on it must
    /// be given their coordination (`hub::Shared`), or it refuses to start.
    fn shared_database(&self) -> bool {
        false
    }
}

impl TableStore for Store {
    fn shared_database(&self) -> bool {
        self.postgres().is_some()
    }

    async fn remember_session(&self, session: &str, now: i64) -> Result<(), StoreError> {
        const REMEMBER: &str =
            "INSERT INTO sessions (token, created_at, last_seen) VALUES ($1, $2, $2) \
             ON CONFLICT (token) DO UPDATE SET last_seen = excluded.last_seen";
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(REMEMBER))
                .bind(session)
                .bind(now)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Also deletes the archived games no live player holds any more (see
    /// `ORPHANED_GAMES`).
    async fn expire_sessions(&self, before: i64) -> Result<u64, StoreError> {
        Ok(on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            let done = sqlx::query(&pool.sql("DELETE FROM sessions WHERE last_seen < $1"))
                .bind(before)
                .execute(&mut *tx)
                .await?;
            sqlx::query(ORPHANED_GAMES).execute(&mut *tx).await?;
            tx.commit().await?;
            done.rows_affected()
        }))
    }

    async fn create_table(
        &self,
        id: &TableId,
        mode: TableMode,
        owner: &str,
        seats: (Option<&str>, Option<&str>),
        now: i64,
    ) -> Result<(), StoreError> {
        let id = id.as_str();
        const TABLE: &str = concat!(
            "INSERT INTO tables (id, owner, created_at, last_activity, black_seat, white_seat, ",
            mode_columns!(),
            ") VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"
        );
        let columns = ModeColumns::of(mode);
        on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            let sql = pool.sql(TABLE);
            let query = sqlx::query(&sql)
                .bind(id)
                .bind(owner)
                .bind(now)
                .bind(seats.0)
                .bind(seats.1);
            bind_mode!(query, &columns).execute(&mut *tx).await?;
            sqlx::query(
                &pool.sql("INSERT INTO rounds (table_id, round, started_at) VALUES ($1, 1, $2)"),
            )
            .bind(id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            sqlx::query(&pool.sql("INSERT INTO tallies (table_id) VALUES ($1)"))
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Right after [`TableStore::create_table`] (version 0: nobody else
    /// knows the table yet).
    async fn update_table_setup(
        &self,
        id: &TableId,
        seating: &SeatingRecord,
        start_obf: Option<&str>,
    ) -> Result<(), StoreError> {
        let id = id.as_str();
        const SETUP: &str =
            "UPDATE tables SET black_seat = $1, white_seat = $2, black_gone_since = $3, \
             white_gone_since = $4, running_since = $5, start_obf = $6 WHERE id = $7";
        on_db!(self.db(), |pool| {
            bind_seats(sqlx::query(&pool.sql(SETUP)), seating)
                .bind(start_obf)
                .bind(id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Unchecked; the version grows, so other instances reload the table
    /// (the hub on PostgreSQL writes with `PgStore::update_seating_at`).
    async fn update_seating(
        &self,
        id: &TableId,
        seating: &SeatingRecord,
        touch: Option<i64>,
    ) -> Result<(), StoreError> {
        let id = id.as_str();
        on_db!(self.db(), |pool| {
            bind_seats(sqlx::query(&pool.sql(SEATING)), seating)
                .bind(touch)
                .bind(id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Through the store's group-commit writer ([`DatabaseStore::record`]).
    async fn record(&self, record: &Record) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(sqlite) => sqlite.record(record).await,
            Store::Postgres(pg) => pg.record(record).await,
        }
    }

    async fn tables(&self) -> Result<Vec<StoredTable>, StoreError> {
        const TABLES: &str = concat!(
            "SELECT id, owner, created_at, last_activity, black_seat, white_seat, \
             black_gone_since, white_gone_since, running_since, start_obf, ",
            mode_columns!(),
            " FROM tables ORDER BY created_at"
        );
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_as(TABLES).fetch_all(pool).await?
        }))
    }

    async fn moves(&self, table_id: &TableId) -> Result<Vec<MoveRow>, StoreError> {
        let table_id = table_id.as_str();
        match self {
            Store::Sqlite(sqlite) => Ok(sqlx::query_as(
                "SELECT seq, round, kind, side, square, time_ms FROM moves WHERE table_id = ? ORDER BY seq",
            )
            .bind(table_id)
            .fetch_all(sqlite.pool())
            .await?),
            // PostgreSQL stores the kind as text (see `pg::move_of`).
            Store::Postgres(pg) => pg.moves(table_id).await,
        }
    }

    async fn tally(&self, table_id: &TableId) -> Result<Option<Tally>, StoreError> {
        let table_id = table_id.as_str();
        const TALLY: &str = "SELECT black_wins, white_wins, draws FROM tallies WHERE table_id = $1";
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_as(&pool.sql(TALLY))
                .bind(table_id)
                .fetch_optional(pool)
                .await?
        }))
    }

    /// On PostgreSQL skipping rows another instance holds locked (a command
    /// in progress).
    async fn delete_idle_tables(&self, cutoff: i64) -> Result<Vec<TableId>, StoreError> {
        const IDLE: &str = "DELETE FROM tables WHERE last_activity < $1 RETURNING id";
        const IDLE_UNLOCKED: &str = "DELETE FROM tables WHERE id IN \
             (SELECT id FROM tables WHERE last_activity < $1 FOR UPDATE SKIP LOCKED) RETURNING id";
        let ids: Vec<String> = on_db!(self.db(), |pool| {
            let query = if pool.is_postgres() {
                IDLE_UNLOCKED
            } else {
                IDLE
            };
            sqlx::query_scalar(&pool.sql(query))
                .bind(cutoff)
                .fetch_all(pool)
                .await?
        });
        Ok(ids.into_iter().map(TableId::new).collect())
    }
}

/// Binds `$1`…`$5` of [`SEATING`] (and of the setup's update): both seat
/// holders, since when each is absent, since when grace may run.
pub(crate) fn bind_seats<'q, DB>(
    query: sqlx::query::Query<'q, DB, <DB as sqlx::Database>::Arguments<'q>>,
    seating: &'q SeatingRecord,
) -> sqlx::query::Query<'q, DB, <DB as sqlx::Database>::Arguments<'q>>
where
    DB: sqlx::Database,
    Option<&'q str>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    Option<i64>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    query
        .bind(seating.holders[0].as_deref())
        .bind(seating.holders[1].as_deref())
        .bind(seating.absent_since[0])
        .bind(seating.absent_since[1])
        .bind(seating.running_since)
}

/// Stores an online table's seats, since when each holder is absent and
/// since when grace may run; `$6` (if not null) marks the table active.
pub(crate) const SEATING: &str =
    "UPDATE tables SET black_seat = $1, white_seat = $2, black_gone_since = $3, \
     white_gone_since = $4, running_since = $5, last_activity = COALESCE($6, last_activity), \
     version = version + 1 WHERE id = $7";
