//! The live tables: lookup by id, counts, and deleting idle tables (from
//! memory and from the store).

use super::entry::Entry;
use super::Hub;
use crate::store::StoreError;
use crate::store::TableStore;
use app::api::CommandError;
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

    pub(super) fn entry(&self, id: &str) -> Result<Arc<AsyncMutex<Entry>>, CommandError> {
        self.inner
            .tables
            .lock()
            .ok()
            .and_then(|t| t.get(id).cloned())
            .ok_or_else(|| {
                CommandError::not_found("No such table: it may have expired or never existed.")
            })
    }

    /// Deletes tables with no activity for the configured expiry; returns how many.
    pub async fn expire_idle(&self) -> Result<usize, StoreError> {
        let cutoff = self.now() - self.inner.config.table_expiry_ms;
        let deleted = self.inner.store.delete_idle_tables(cutoff).await?;
        if let Ok(mut tables) = self.inner.tables.lock() {
            for id in &deleted {
                tables.remove(id);
            }
        }
        if !deleted.is_empty() {
            tracing::info!(count = deleted.len(), "idle tables deleted");
        }
        Ok(deleted.len())
    }
}
