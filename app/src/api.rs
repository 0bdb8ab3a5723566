//! Server functions: the commands a browser sends. Each one hands a typed
//! command to the server's [`backend::Backend`] with the caller's session.

#[cfg(feature = "ssr")]
use crate::protocol::TableCommand;
use crate::protocol::{Side, TableMode, TableView};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use server_fn::codec::{Json, JsonEncoding};
use server_fn::error::{FromServerFnError, ServerFnErrorErr};

/// A refused command, with a message a player can read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandError {
    pub message: String,
}

impl CommandError {
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CommandError {}

impl FromServerFnError for CommandError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        // On the server, a request the server function cannot read is the
        // caller's fault: 400 (405 for a wrong method), never 500.
        #[cfg(feature = "ssr")]
        {
            let status = match &value {
                ServerFnErrorErr::Args(_)
                | ServerFnErrorErr::MissingArg(_)
                | ServerFnErrorErr::Deserialization(_) => Some(http::StatusCode::BAD_REQUEST),
                ServerFnErrorErr::UnsupportedRequestMethod(_) => {
                    Some(http::StatusCode::METHOD_NOT_ALLOWED)
                }
                _ => None,
            };
            if let (Some(status), Some(response)) = (
                status,
                leptos::prelude::use_context::<leptos_axum::ResponseOptions>(),
            ) {
                response.set_status(status);
            }
        }
        let message = match value {
            ServerFnErrorErr::MissingArg(m) => format!("malformed request: missing argument {m}"),
            ServerFnErrorErr::Args(m) | ServerFnErrorErr::Deserialization(m) => {
                format!("malformed request: {m}")
            }
            ServerFnErrorErr::Request(m) => format!("the server could not be reached: {m}"),
            other => other.to_string(),
        };
        CommandError { message }
    }
}

/// Server-side glue: the trait the server implements and the session lookup.
#[cfg(feature = "ssr")]
pub mod backend {
    use super::CommandError;
    use crate::protocol::{Session, TableCommand, TableMode, TableView};
    use std::future::Future;
    use std::pin::Pin;
    use std::sync::Arc;

    /// A boxed future, for the object-safe backend trait.
    pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

    /// What the server functions need from the server.
    pub trait Backend: Send + Sync + 'static {
        fn create_table<'a>(
            &'a self,
            session: &'a Session,
            mode: TableMode,
        ) -> BoxFuture<'a, Result<String, CommandError>>;
        fn view<'a>(
            &'a self,
            session: &'a Session,
            table: &'a str,
        ) -> BoxFuture<'a, Result<TableView, CommandError>>;
        fn execute<'a>(
            &'a self,
            session: &'a Session,
            command: TableCommand,
        ) -> BoxFuture<'a, Result<TableView, CommandError>>;
        fn new_table<'a>(
            &'a self,
            session: &'a Session,
            table: &'a str,
        ) -> BoxFuture<'a, Result<String, CommandError>>;
    }

    /// The backend, provided to server functions as context.
    #[derive(Clone)]
    pub struct BackendHandle(pub Arc<dyn Backend>);

    /// Marks a refused command as `422 Unprocessable Entity` (not a server fault).
    pub fn refused<T>(result: Result<T, CommandError>) -> Result<T, CommandError> {
        if result.is_err() {
            if let Some(response) = leptos::prelude::use_context::<leptos_axum::ResponseOptions>() {
                response.set_status(http::StatusCode::UNPROCESSABLE_ENTITY);
            }
        }
        result
    }

    /// The backend and the caller's session, or a clear error.
    pub fn context() -> Result<(Arc<dyn Backend>, Session), CommandError> {
        let backend = leptos::prelude::use_context::<BackendHandle>()
            .ok_or_else(|| CommandError::new("the server is not ready"))?;
        let parts = leptos::prelude::use_context::<http::request::Parts>()
            .ok_or_else(|| CommandError::new("no request"))?;
        let session =
            parts.extensions.get::<Session>().cloned().ok_or_else(|| {
                CommandError::new("no session: enable cookies and reload the page")
            })?;
        Ok((backend.0, session))
    }
}

/// Starts a table; returns its id.
#[server(endpoint = "create_table", input = Json)]
pub async fn create_table(mode: TableMode) -> Result<String, CommandError> {
    let (backend, session) = backend::refused(backend::context())?;
    backend::refused(backend.create_table(&session, mode).await)
}

/// The table as the caller sees it.
#[server(endpoint = "get_table", input = Json)]
pub async fn get_table(table: String) -> Result<TableView, CommandError> {
    let (backend, session) = backend::refused(backend::context())?;
    backend::refused(backend.view(&session, &table).await)
}

/// Places a disc on `square` (0..64).
#[server(endpoint = "play_move", input = Json)]
pub async fn play_move(table: String, square: u8) -> Result<TableView, CommandError> {
    let (backend, session) = backend::refused(backend::context())?;
    backend::refused(
        backend
            .execute(&session, TableCommand::Place { table, square })
            .await,
    )
}

/// Resigns the current round (`side` picks the side at a hot-seat table).
#[server(endpoint = "resign", input = Json)]
pub async fn resign(table: String, side: Option<Side>) -> Result<TableView, CommandError> {
    let (backend, session) = backend::refused(backend::context())?;
    backend::refused(
        backend
            .execute(&session, TableCommand::Resign { table, side })
            .await,
    )
}

/// Votes for (or withdraws a vote for) a rematch.
#[server(endpoint = "vote_rematch", input = Json)]
pub async fn vote_rematch(
    table: String,
    side: Option<Side>,
    vote: bool,
) -> Result<TableView, CommandError> {
    let (backend, session) = backend::refused(backend::context())?;
    backend::refused(
        backend
            .execute(&session, TableCommand::Vote { table, side, vote })
            .await,
    )
}

/// A new table with the same settings (and a fresh tally); returns its id.
#[server(endpoint = "new_table", input = Json)]
pub async fn new_table(table: String) -> Result<String, CommandError> {
    let (backend, session) = backend::refused(backend::context())?;
    backend::refused(backend.new_table(&session, &table).await)
}
