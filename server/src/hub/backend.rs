//! The hub as the pages' [`Backend`]: the server functions' calls, each
//! handed to the hub's method of the same purpose.

use super::Hub;
use crate::store::TableStore;
use app::api::backend::Caller;
use app::api::backend::{Backend, BoxFuture};
use app::api::CommandError;
use app::protocol::{Session, TableCommand, TableMode, TableView};

impl<S: TableStore> Backend for Hub<S> {
    fn create_table<'a>(
        &'a self,
        caller: &'a Caller,
        mode: TableMode,
    ) -> BoxFuture<'a, Result<String, CommandError>> {
        Box::pin(self.create(caller, mode))
    }

    fn view<'a>(
        &'a self,
        session: &'a Session,
        table: &'a str,
    ) -> BoxFuture<'a, Result<TableView, CommandError>> {
        Box::pin(Hub::view(self, session, table))
    }

    fn execute<'a>(
        &'a self,
        session: &'a Session,
        command: TableCommand,
    ) -> BoxFuture<'a, Result<TableView, CommandError>> {
        Box::pin(Hub::execute(self, session, command))
    }

    fn new_table<'a>(
        &'a self,
        caller: &'a Caller,
        table: &'a str,
    ) -> BoxFuture<'a, Result<String, CommandError>> {
        Box::pin(self.new_table_like(caller, table))
    }

    fn take_seat<'a>(
        &'a self,
        session: &'a Session,
        table: &'a str,
    ) -> BoxFuture<'a, Result<TableView, CommandError>> {
        Box::pin(Hub::take_seat(self, session, table))
    }

    fn create_table_from<'a>(
        &'a self,
        caller: &'a Caller,
        mode: TableMode,
        obf: &'a str,
    ) -> BoxFuture<'a, Result<String, CommandError>> {
        Box::pin(self.create_from_position(caller, mode, obf))
    }
}
