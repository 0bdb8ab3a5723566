//! The live tables: lookup by id, counts, and deleting idle tables (from
//! memory and from the store).

use super::entry::Entry;
use super::Hub;
use crate::store::StoreError;
use crate::store::TableStore;
use app::api::CommandError;
use app::protocol::TableId;
use std::sync::Arc;
use tokio::sync::Mutex as AsyncMutex;

impl<S: TableStore> Hub<S> {
    /// Number of tables in memory.
    pub fn live_tables(&self) -> usize {
        self.inner.tables.lock().map_or(0, |t| t.len())
    }

    /// Whether a table is live (in memory).
    pub fn is_live(&self, id: &str) -> bool {
        self.inner
            .tables
            .lock()
            .map(|t| t.contains_key(id))
            .unwrap_or(false)
    }

    /// A table's mode and who holds each seat (identities; none at a table
    /// played in one browser), for labelling its players.
    pub async fn seat_holders(
        &self,
        id: &TableId,
    ) -> Result<(app::protocol::TableMode, [Option<String>; 2]), CommandError> {
        use app::protocol::Side;
        let entry = self.entry(id).await?;
        let mut entry = entry.lock().await;
        self.sync(&mut entry).await?;
        let holder = |side: Side| {
            entry
                .seating
                .as_ref()
                .and_then(|s| s.holder(side))
                .map(str::to_string)
        };
        Ok((
            entry.table.mode(),
            [holder(Side::Black), holder(Side::White)],
        ))
    }

    /// The table in memory, if it is.
    pub(super) fn cached(&self, id: &TableId) -> Option<Arc<AsyncMutex<Entry>>> {
        self.inner
            .tables
            .lock()
            .ok()
            .and_then(|t| t.get(id).cloned())
    }

    /// A table by id: from memory, or (shared tables) loaded from the
    /// store. A cached copy may be behind the store:
    /// callers that decide on it [`Hub::sync`] it first.
    pub(super) async fn entry(&self, id: &TableId) -> Result<Arc<AsyncMutex<Entry>>, CommandError> {
        let missing = || CommandError::not_found(app::msg!("srv-no-table"));
        // An id from a request that no table could have: not looked up.
        if !id.is_well_formed() {
            return Err(missing());
        }
        if let Some(entry) = self.cached(id) {
            return Ok(entry);
        }
        let Some(loaded) = self.inner.coordination.load(self, id).await? else {
            return Err(missing());
        };
        let loaded = Arc::new(AsyncMutex::new(loaded));
        let mut tables = self
            .inner
            .tables
            .lock()
            .map_err(|_| CommandError::unavailable(app::msg!("srv-tables-unavailable")))?;
        Ok(tables.entry(id.clone()).or_insert(loaded).clone())
    }

    /// Deletes tables with no activity for the configured expiry; returns how many.
    pub async fn expire_idle(&self) -> Result<usize, StoreError> {
        let cutoff = self.now() - self.inner.config.table_expiry_ms;
        let deleted = self.inner.store.delete_idle_tables(cutoff).await?;
        if let Ok(mut tables) = self.inner.tables.lock() {
            for id in &deleted {
                tables.remove(id.as_str());
            }
        }
        self.inner.coordination.deleted(&deleted).await;
        if !deleted.is_empty() {
            tracing::info!(count = deleted.len(), "idle tables deleted");
        }
        Ok(deleted.len())
    }
}

impl super::Hub<crate::store::Store> {
    /// Ends every live round `who` plays in, before their account goes: a
    /// round both sides moved in ends as `who`'s resignation (rated as
    /// usual while the account still exists); one in which a side never
    /// moved ends and is archived as aborted. The opponent is told at once
    /// and can play on elsewhere. Returns how many rounds ended.
    pub async fn end_rounds_of(&self, who: &app::protocol::Session) -> Result<usize, CommandError> {
        let tables = self
            .inner
            .store
            .tables_seating(who.as_str())
            .await
            .map_err(|e| {
                tracing::error!("cannot find a leaving player's tables: {e}");
                CommandError::unavailable(app::msg!("srv-save-failed"))
            })?;
        let mut ended = 0;
        for table in tables {
            let command = app::protocol::TableCommand::Resign {
                table: table.clone(),
                side: None,
            };
            match self.execute(who, command).await {
                Ok(_) => ended += 1,
                // Over already, or no opponent yet: nothing to end.
                Err(error) if error.kind == app::api::ErrorKind::Refused => {}
                Err(error) if error.kind == app::api::ErrorKind::NotFound => {}
                Err(error) => {
                    tracing::error!(table = %table, "cannot end a leaving player's round: {}", error.message);
                    return Err(error);
                }
            }
        }
        Ok(ended)
    }

    /// Gives everything `from` holds — tables it owns, its seats — to `to`
    /// (a browser that signed in keeps its games as its account): in the
    /// store first, then in every table in memory, each under its lock so no
    /// command sees half of it. Sockets get the new view.
    pub async fn transfer_identity(
        &self,
        from: &app::protocol::Session,
        to: &app::protocol::Session,
    ) -> Result<(), CommandError> {
        self.inner
            .store
            .transfer_identity(from.as_str(), to.as_str())
            .await
            .map_err(|e| {
                tracing::error!("cannot move a browser's tables to its account: {e}");
                CommandError::unavailable(app::msg!("srv-save-failed"))
            })?;
        let entries: Vec<_> = self
            .inner
            .tables
            .lock()
            .map(|t| t.values().cloned().collect())
            .unwrap_or_default();
        for entry in entries {
            let mut entry = entry.lock().await;
            let mut changed = false;
            if entry.owner == from.as_str() {
                entry.owner = to.as_str().to_string();
                changed = true;
            }
            if let Some(seating) = entry.seating.as_mut() {
                changed |= seating.rename(from.as_str(), to.as_str());
            }
            if changed {
                // A shared table's stored version grew: reload rather than
                // guess (a table held here alone is already current).
                if let Err(error) = self.sync(&mut entry).await {
                    tracing::warn!(table = %entry.id, "reload after a sign-in: {}", error.message);
                }
                self.broadcast(&entry);
            }
        }
        Ok(())
    }
}
