//! The lab hub as the lab page's [`LabBackend`].

use super::LabHub;
use app::api::CommandError;
use app::lab::backend::{Caller, LabBackend};
use app::lab::{LabSummary, LabView, ProviderStatus};
use app::protocol::LabId;

#[async_trait::async_trait]
impl LabBackend for LabHub {
    async fn create(
        &self,
        caller: &Caller,
        black_depth: u8,
        white_depth: u8,
        lang: app::i18n::Lang,
    ) -> Result<LabId, CommandError> {
        LabHub::create_for(self, caller, black_depth, white_depth, lang).await
    }

    async fn list(
        &self,
        session: Option<&app::protocol::Session>,
    ) -> Result<Vec<LabSummary>, CommandError> {
        LabHub::list(self, session.map(|s| s.as_str())).await
    }

    async fn view(&self, lab: &LabId) -> Result<LabView, CommandError> {
        LabHub::view(self, lab).await
    }

    async fn next_turn(&self, caller: &Caller, lab: &LabId) -> Result<LabView, CommandError> {
        LabHub::next_turn_for(self, caller, lab).await
    }

    async fn retry(&self, caller: &Caller, lab: &LabId) -> Result<LabView, CommandError> {
        LabHub::retry_for(self, caller, lab).await
    }

    async fn wait(&self, lab: &LabId, since: u64) -> Result<LabView, CommandError> {
        LabHub::wait(self, lab, since).await
    }

    fn provider(&self) -> ProviderStatus {
        self.visitor_provider_status()
    }

    async fn is_owner(
        &self,
        lab: &LabId,
        session: &app::protocol::Session,
    ) -> Result<bool, CommandError> {
        LabHub::is_owner(self, lab, session.as_str()).await
    }

    async fn owned_by(&self, session: &app::protocol::Session) -> Result<Vec<LabId>, CommandError> {
        let ids = self.inner.store.lab_games_of(session.as_str()).await?;
        Ok(ids.into_iter().map(LabId::new).collect())
    }

    async fn copy(&self, caller: &Caller, lab: &LabId) -> Result<LabId, CommandError> {
        LabHub::copy_for(self, caller, lab).await
    }
}
