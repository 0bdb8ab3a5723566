//! Who may step a lab game, and copying one: a watcher's **Make my own copy**
//! (docs/SECURITY.md, The lab). The route layer records the copy's owner.

use super::{new_id, Explained, LabGame, LabHub};
use crate::lab::facts::FactSheet;
use app::api::CommandError;
use std::sync::Arc;
use tokio::sync::Mutex as AsyncMutex;

impl LabHub {
    /// Copies a lab game into a new one with the same engine depths, moves
    /// and explanations (an explanation still being written is written again
    /// for the copy); returns the new id. The route layer records the caller
    /// as its owner, as for [`LabHub::create`].
    pub async fn copy(&self, id: &str) -> Result<String, CommandError> {
        let entry = self.entry(id).await?;
        // Held while copying, so the stored and the in-memory copy agree.
        let source = entry.lock().await;
        let copy_id = new_id();
        let now = self.now();
        match self.shared() {
            Some(pg) => pg
                .copy_lab_game(id, &copy_id, now, now + self.lease_ms())
                .await
                .map_err(super::changed_meanwhile)?,
            None => self.inner.store.copy_lab_game(id, &copy_id, now).await?,
        }
        let mut game = LabGame::new(copy_id.clone(), source.black_depth, source.white_depth, now);
        game.game = source.game.clone();
        game.moves = source.moves.clone();
        game.lang = source.lang;
        drop(source);
        // On PostgreSQL a copy starts at version 1, as stored.
        game.version = match self.shared() {
            Some(_) => 1,
            None => game.moves.len() as u64 * 2 + 1,
        };
        game.changes.send_replace(game.version);
        let pending: Vec<(u32, FactSheet)> = game
            .moves
            .iter()
            .enumerate()
            .filter(|(_, m)| m.explained == Explained::Pending)
            .map(|(i, m)| (i as u32 + 1, m.facts.clone()))
            .collect();
        if let Ok(mut games) = self.inner.games.lock() {
            games.insert(copy_id.clone(), Arc::new(AsyncMutex::new(game)));
        }
        for (ply, facts) in pending {
            self.spawn_explanation(copy_id.clone(), ply, facts);
        }
        tracing::info!(lab = %copy_id, from = %id, "lab game copied");
        Ok(copy_id)
    }

    /// Whether `session` started lab game `id`.
    pub async fn is_owner(&self, id: &str, session: &str) -> Result<bool, CommandError> {
        let owner = self.inner.store.lab_owner(id).await?;
        Ok(owner.as_deref() == Some(session))
    }
}
