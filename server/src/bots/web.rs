//! Bots and the pages: the account page's bot card (the pages'
//! [`BotBackend`]), and the one rule that keeps a bot off the people's game
//! commands: the pages' table, challenge and tournament backends are the
//! hub's, the challenge service's and the tournaments' behind
//! [`PeopleOnly`], which asks [`Bots::people_only`] before every command
//! that plays, seats or creates (moves, resignations, votes, new tables,
//! seats, challenges and their answers, joining or creating a tournament,
//! berserk) and passes reading (and leaving) through. The Bot API calls the services
//! themselves, so the same command path serves both.
//!
//! [`BotBackend`]: app::bots::backend::BotBackend

use super::Bots;
use app::api::backend::{Backend, Caller};
use app::api::CommandError;
use app::bots::{BotCardView, NewBotToken};
use app::challenges::backend::ChallengeBackend;
use app::challenges::{ChallengeLists, NewChallenge};
use app::protocol::{Session, TableCommand, TableId, TableMode, TableView, TournamentId};
use app::tournaments::backend::TournamentBackend;
use app::tournaments::{NewTournament, TournamentOfTable, TournamentSummary, TournamentView};
use std::sync::Arc;

#[async_trait::async_trait]
impl app::bots::backend::BotBackend for Bots {
    async fn bot_status(&self, caller: &Caller) -> Result<BotCardView, CommandError> {
        self.status(caller).await
    }

    async fn become_bot(&self, caller: &Caller) -> Result<BotCardView, CommandError> {
        Bots::become_bot(self, caller).await
    }

    async fn create_bot_token(
        &self,
        caller: &Caller,
        label: String,
    ) -> Result<NewBotToken, CommandError> {
        self.create_token(caller, &label).await
    }

    async fn revoke_bot_token(&self, caller: &Caller, id: String) -> Result<(), CommandError> {
        self.revoke_token(caller, &id).await
    }

    async fn bots_page(&self) -> Result<app::bots::BotsView, CommandError> {
        self.listing().await
    }
}

/// A pages' backend that refuses a bot's identity its game commands (403).
pub struct PeopleOnly<B> {
    pub bots: Bots,
    pub inner: Arc<B>,
}

impl<B> PeopleOnly<B> {
    pub fn new(bots: Bots, inner: B) -> Self {
        PeopleOnly {
            bots,
            inner: Arc::new(inner),
        }
    }
}

#[async_trait::async_trait]
impl<B: Backend> Backend for PeopleOnly<B> {
    async fn create_table(
        &self,
        caller: &Caller,
        mode: TableMode,
    ) -> Result<TableId, CommandError> {
        self.bots.people_only(&caller.session).await?;
        self.inner.create_table(caller, mode).await
    }

    async fn view(&self, session: &Session, table: &TableId) -> Result<TableView, CommandError> {
        self.inner.view(session, table).await
    }

    async fn execute(
        &self,
        session: &Session,
        command: TableCommand,
    ) -> Result<TableView, CommandError> {
        self.bots.people_only(session).await?;
        self.inner.execute(session, command).await
    }

    async fn new_table(&self, caller: &Caller, table: &TableId) -> Result<TableId, CommandError> {
        self.bots.people_only(&caller.session).await?;
        self.inner.new_table(caller, table).await
    }

    async fn take_seat(
        &self,
        session: &Session,
        table: &TableId,
    ) -> Result<TableView, CommandError> {
        self.bots.people_only(session).await?;
        self.inner.take_seat(session, table).await
    }

    async fn create_table_from(
        &self,
        caller: &Caller,
        mode: TableMode,
        obf: &str,
    ) -> Result<TableId, CommandError> {
        self.bots.people_only(&caller.session).await?;
        self.inner.create_table_from(caller, mode, obf).await
    }
}

#[async_trait::async_trait]
impl<B: ChallengeBackend> ChallengeBackend for PeopleOnly<B> {
    async fn challenge(&self, caller: &Caller, new: NewChallenge) -> Result<String, CommandError> {
        self.bots.people_only(&caller.session).await?;
        self.inner.challenge(caller, new).await
    }

    async fn my_challenges(&self, caller: &Caller) -> Result<ChallengeLists, CommandError> {
        self.inner.my_challenges(caller).await
    }

    async fn answer_challenge(
        &self,
        caller: &Caller,
        id: String,
        accept: bool,
    ) -> Result<Option<TableId>, CommandError> {
        self.bots.people_only(&caller.session).await?;
        self.inner.answer_challenge(caller, id, accept).await
    }

    async fn cancel_challenge(&self, caller: &Caller, id: String) -> Result<(), CommandError> {
        self.inner.cancel_challenge(caller, id).await
    }

    async fn synchro_partner(&self, table: TableId) -> Result<Option<TableId>, CommandError> {
        self.inner.synchro_partner(table).await
    }
}

#[async_trait::async_trait]
impl<B: TournamentBackend> TournamentBackend for PeopleOnly<B> {
    async fn tournaments(&self) -> Result<Vec<TournamentSummary>, CommandError> {
        self.inner.tournaments().await
    }

    async fn tournament(
        &self,
        caller: &Caller,
        id: TournamentId,
    ) -> Result<TournamentView, CommandError> {
        self.inner.tournament(caller, id).await
    }

    async fn create_tournament(
        &self,
        caller: &Caller,
        new: NewTournament,
    ) -> Result<TournamentId, CommandError> {
        self.bots.people_only(&caller.session).await?;
        self.inner.create_tournament(caller, new).await
    }

    async fn join_tournament(&self, caller: &Caller, id: TournamentId) -> Result<(), CommandError> {
        self.bots.people_only(&caller.session).await?;
        self.inner.join_tournament(caller, id).await
    }

    async fn leave_tournament(
        &self,
        caller: &Caller,
        id: TournamentId,
    ) -> Result<(), CommandError> {
        self.inner.leave_tournament(caller, id).await
    }

    async fn table_tournament(
        &self,
        table: TableId,
    ) -> Result<Option<TournamentOfTable>, CommandError> {
        self.inner.table_tournament(table).await
    }

    async fn berserk(&self, caller: &Caller, table: TableId) -> Result<TableView, CommandError> {
        self.bots.people_only(&caller.session).await?;
        self.inner.berserk(caller, table).await
    }

    async fn start_tournament(
        &self,
        caller: &Caller,
        id: TournamentId,
    ) -> Result<(), CommandError> {
        self.inner.start_tournament(caller, id).await
    }
}
