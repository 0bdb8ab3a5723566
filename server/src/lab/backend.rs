//! The lab hub as the lab page's [`LabBackend`].

use super::LabHub;
use app::api::backend::BoxFuture;
use app::api::CommandError;
use app::lab::backend::{Caller, LabBackend};
use app::lab::{LabSummary, LabView, ProviderStatus};

impl LabBackend for LabHub {
    fn create<'a>(
        &'a self,
        caller: &'a Caller,
        black_depth: u8,
        white_depth: u8,
        lang: app::i18n::Lang,
    ) -> BoxFuture<'a, Result<String, CommandError>> {
        Box::pin(LabHub::create_for(
            self,
            caller,
            black_depth,
            white_depth,
            lang,
        ))
    }

    fn list<'a>(
        &'a self,
        session: Option<&'a app::protocol::Session>,
    ) -> BoxFuture<'a, Result<Vec<LabSummary>, CommandError>> {
        Box::pin(LabHub::list(self, session.map(|s| s.0.as_str())))
    }

    fn view<'a>(&'a self, lab: &'a str) -> BoxFuture<'a, Result<LabView, CommandError>> {
        Box::pin(LabHub::view(self, lab))
    }

    fn next_turn<'a>(
        &'a self,
        caller: &'a Caller,
        lab: &'a str,
    ) -> BoxFuture<'a, Result<LabView, CommandError>> {
        Box::pin(LabHub::next_turn_for(self, caller, lab))
    }

    fn retry<'a>(
        &'a self,
        caller: &'a Caller,
        lab: &'a str,
    ) -> BoxFuture<'a, Result<LabView, CommandError>> {
        Box::pin(LabHub::retry_for(self, caller, lab))
    }

    fn wait<'a>(
        &'a self,
        lab: &'a str,
        since: u64,
    ) -> BoxFuture<'a, Result<LabView, CommandError>> {
        Box::pin(LabHub::wait(self, lab, since))
    }

    fn provider(&self) -> ProviderStatus {
        self.visitor_provider_status()
    }

    fn is_owner<'a>(
        &'a self,
        lab: &'a str,
        session: &'a app::protocol::Session,
    ) -> BoxFuture<'a, Result<bool, CommandError>> {
        Box::pin(LabHub::is_owner(self, lab, &session.0))
    }

    fn owned_by<'a>(
        &'a self,
        session: &'a app::protocol::Session,
    ) -> BoxFuture<'a, Result<Vec<String>, CommandError>> {
        Box::pin(async move { Ok(self.inner.store.lab_games_of(&session.0).await?) })
    }

    fn copy<'a>(
        &'a self,
        caller: &'a Caller,
        lab: &'a str,
    ) -> BoxFuture<'a, Result<String, CommandError>> {
        Box::pin(LabHub::copy_for(self, caller, lab))
    }
}
