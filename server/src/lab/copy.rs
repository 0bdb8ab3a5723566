//! Who may create, step and copy lab games (docs/SECURITY.md, The lab): the
//! commands as visitors send them. Creating and copying are counted against
//! the caller's session and address (checked and counted at once, in
//! [`crate::limits`]) and record the caller as the new game's owner; only
//! the owner steps a game; a copy reuses the original's explanations and
//! never asks a model for a move it copied.

use super::{new_id, Explained, LabGame, LabHub};
use crate::limits::{Caller, Kind, Limits, Reservation};
use crate::store::TableStore;
use app::api::CommandError;
use app::protocol::LabId;
use std::sync::Arc;
use tokio::sync::Mutex as AsyncMutex;

/// A lab game's turn being played ([`LabHub::turn_of`]).
pub struct TurnGuard {
    turns: Arc<std::sync::Mutex<std::collections::HashSet<String>>>,
    id: String,
}

impl Drop for TurnGuard {
    fn drop(&mut self) {
        if let Ok(mut turns) = self.turns.lock() {
            turns.remove(&self.id);
        }
    }
}

impl LabHub {
    /// Counts lab games against `limits` (the hub's, shared with tables and
    /// analyses); without it, the lab keeps its own at the defaults.
    pub fn use_limits(&self, limits: Arc<Limits>) {
        let _ = self.inner.limits.set(limits);
    }

    pub(super) fn limits(&self) -> &Arc<Limits> {
        self.inner
            .limits
            .get_or_init(|| Arc::new(Limits::new(Default::default())))
    }

    /// Whether lab game `id` is live here (not deleted).
    pub fn is_live(&self, id: &str) -> bool {
        self.inner
            .games
            .lock()
            .map(|g| g.contains_key(id))
            .unwrap_or(false)
    }

    /// A place for one more lab game of the caller's, or 429. The count is
    /// also checked against the stored owners (it survives a restart).
    async fn reserve_game(&self, caller: &Caller) -> Result<Reservation, CommandError> {
        let place = self
            .limits()
            .reserve(Kind::LabGame, caller, |id| self.is_live(id))
            .map_err(CommandError::limited)?;
        let cap = self.limits().config().lab_games.per_session;
        let owned = self
            .inner
            .store
            .lab_games_of(caller.session.as_str())
            .await?;
        if owned.len() >= cap {
            return Err(CommandError::limited(app::msg!(
                "srv-lab-games-browser",
                limit = cap
            )));
        }
        Ok(place)
    }

    /// Stores the caller as the owner of the new lab game `id`.
    async fn own(&self, caller: &Caller, id: &LabId) -> Result<(), CommandError> {
        TableStore::remember_session(&self.inner.store, caller.session.as_str(), self.now())
            .await?;
        self.inner
            .store
            .set_lab_owner(id.as_str(), caller.session.as_str())
            .await?;
        Ok(())
    }

    /// `lab_create`: a lab game owned by the caller, counted against their
    /// session and address.
    pub async fn create_for(
        &self,
        caller: &Caller,
        black_depth: u8,
        white_depth: u8,
        lang: app::i18n::Lang,
    ) -> Result<LabId, CommandError> {
        let place = self.reserve_game(caller).await?;
        let id = self.create_in(black_depth, white_depth, lang).await?;
        self.own(caller, &id).await?;
        place.keep(id.as_str());
        Ok(id)
    }

    /// `lab_copy`: a copy of `id` owned by the caller, counted like a new game.
    pub async fn copy_for(&self, caller: &Caller, id: &LabId) -> Result<LabId, CommandError> {
        let place = self.reserve_game(caller).await?;
        let copy = self.copy(id).await?;
        self.own(caller, &copy).await?;
        place.keep(copy.as_str());
        Ok(copy)
    }

    /// Refuses anyone but the owner of lab game `id` (403); a game that does
    /// not exist is the lab's to say (404).
    async fn owned_by(&self, caller: &Caller, id: &LabId) -> Result<(), CommandError> {
        self.entry(id.as_str()).await?;
        match self.inner.store.lab_owner(id.as_str()).await? {
            Some(owner) if owner == caller.session.as_str() => Ok(()),
            _ => Err(CommandError::forbidden(app::msg!("srv-lab-owner-only"))),
        }
    }

    /// Refuses (429) a step whose paid explanation would not fit today's
    /// budgets, the server's or the caller's address's, before it places a
    /// disc. The explanation itself takes its place in them when it starts.
    async fn budget_room(&self, caller: &Caller) -> Result<(), CommandError> {
        if !self.paid() {
            return Ok(());
        }
        let per_address = self.limits().config().explanations_per_address_day;
        match self
            .inner
            .budget
            .room(self.now(), caller.address, per_address)
            .await?
        {
            Ok(()) => Ok(()),
            Err(refusal) => Err(CommandError::limited(refusal.msg())),
        }
    }

    /// `lab_next_turn`, by the game's owner only; its explanation is paid
    /// for by the caller's address.
    pub async fn next_turn_for(
        &self,
        caller: &Caller,
        id: &LabId,
    ) -> Result<app::lab::LabView, CommandError> {
        self.owned_by(caller, id).await?;
        self.budget_room(caller).await?;
        super::PAYER.scope(caller.address, self.next_turn(id)).await
    }

    /// `lab_retry_explanation`, by the game's owner only; paid for by the
    /// caller's address.
    pub async fn retry_for(
        &self,
        caller: &Caller,
        id: &LabId,
    ) -> Result<app::lab::LabView, CommandError> {
        self.owned_by(caller, id).await?;
        self.budget_room(caller).await?;
        super::PAYER.scope(caller.address, self.retry(id)).await
    }

    /// Copies a lab game into a new one with the same engine depths, moves
    /// and explanations; returns the new id (owned by no one: see
    /// [`LabHub::copy_for`]). The copy reuses the original's explanations
    /// and never asks the explainer for a move it copied: while the
    /// original's last explanation is still being written the copy is
    /// refused ("wait"), and a failed one is copied as failed.
    pub async fn copy(&self, id: &LabId) -> Result<LabId, CommandError> {
        let entry = self.entry(id.as_str()).await?;
        // Held while copying, so the stored and the in-memory copy agree.
        let source = entry.lock().await;
        if let Some(pending) = source
            .moves
            .iter()
            .find(|m| m.explained == Explained::Pending)
        {
            return Err(CommandError::refused(app::msg!(
                "srv-lab-wait",
                square = pending.square.to_string()
            )));
        }
        let copy_id = new_id();
        let now = self.now();
        self.inner
            .store
            .copy_lab_game(id.as_str(), copy_id.as_str(), now, now + self.lease_ms())
            .await
            .map_err(super::changed_meanwhile)?;
        let mut game = LabGame::new(copy_id.clone(), source.black_depth, source.white_depth, now);
        game.game = source.game.clone();
        game.moves = source.moves.clone();
        game.lang = source.lang;
        drop(source);
        // A copy starts at version 1, as stored.
        game.version = 1;
        game.changes.send_replace(game.version);
        if let Ok(mut games) = self.inner.games.lock() {
            games.insert(copy_id.clone(), Arc::new(AsyncMutex::new(game)));
        }
        tracing::info!(lab = %copy_id, from = %id, "lab game copied");
        Ok(copy_id)
    }

    /// Marks lab game `id`'s next turn as being played until the guard is
    /// dropped; a second step meanwhile is refused (its search would be
    /// wasted).
    pub(super) fn turn_of(&self, id: &LabId) -> Result<TurnGuard, CommandError> {
        let mut turns = self
            .inner
            .turns
            .lock()
            .map_err(|_| CommandError::unavailable(app::msg!("srv-lab-busy")))?;
        if !turns.insert(id.to_string()) {
            return Err(CommandError::refused(app::msg!("srv-lab-turn-running")));
        }
        Ok(TurnGuard {
            turns: self.inner.turns.clone(),
            id: id.to_string(),
        })
    }

    /// The AI pool's fairness key of a step: the address paying for it
    /// (see [`LabHub::next_turn_for`]), else one key for the lab.
    pub(super) fn pool_key(&self) -> String {
        super::PAYER
            .try_with(|payer| payer.map(|address| format!("ip:{address}")))
            .ok()
            .flatten()
            .unwrap_or_else(|| "lab".to_string())
    }

    /// The ids of the `limit` most recently changed lab games, newest first.
    pub(super) async fn recent_lab_games(&self, limit: usize) -> Result<Vec<String>, CommandError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        Ok(self.inner.store.recent_lab_games(limit).await?)
    }

    /// Whether `session` started lab game `id`.
    pub async fn is_owner(&self, id: &LabId, session: &str) -> Result<bool, CommandError> {
        let owner = self.inner.store.lab_owner(id.as_str()).await?;
        Ok(owner.as_deref() == Some(session))
    }
}
