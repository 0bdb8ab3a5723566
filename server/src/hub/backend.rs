//! The hub as the pages' [`Backend`]: the server functions' calls, each
//! handed to the hub's method of the same purpose.

use super::Hub;
use crate::store::TableStore;
use app::api::backend::Backend;
use app::api::backend::Caller;
use app::api::CommandError;
use app::protocol::{Session, TableCommand, TableId, TableMode, TableView};

#[async_trait::async_trait]
impl<S: TableStore> Backend for Hub<S> {
    async fn create_table(
        &self,
        caller: &Caller,
        mode: TableMode,
    ) -> Result<TableId, CommandError> {
        self.create(caller, mode).await
    }

    async fn view(&self, session: &Session, table: &TableId) -> Result<TableView, CommandError> {
        Hub::view(self, session, table).await
    }

    async fn execute(
        &self,
        session: &Session,
        command: TableCommand,
    ) -> Result<TableView, CommandError> {
        Hub::execute(self, session, command).await
    }

    async fn new_table(&self, caller: &Caller, table: &TableId) -> Result<TableId, CommandError> {
        self.new_table_like(caller, table).await
    }

    async fn take_seat(
        &self,
        session: &Session,
        table: &TableId,
    ) -> Result<TableView, CommandError> {
        Hub::take_seat(self, session, table).await
    }

    async fn create_table_from(
        &self,
        caller: &Caller,
        mode: TableMode,
        obf: &str,
    ) -> Result<TableId, CommandError> {
        self.create_from_position(caller, mode, obf).await
    }
}
