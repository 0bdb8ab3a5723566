//! Server functions: the commands a browser sends. Each one hands a typed
//! command to the server's [`backend::Backend`] with the caller's session.

use crate::i18n::Msg;
#[cfg(feature = "ssr")]
use crate::protocol::TableCommand;
use crate::protocol::{Side, TableId, TableMode, TableView};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use server_fn::codec::{Json, JsonEncoding};
use server_fn::error::{FromServerFnError, ServerFnErrorErr};

/// What kind of failure a [`CommandError`] is; it decides the HTTP status.
/// Every error names its kind where it is made: there is no default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The rules refuse the command (a wrong square, not your turn…): 422.
    Refused,
    /// No such table or lab game: 404.
    NotFound,
    /// The server cannot do it now (storage failed, the AI is busy): 503.
    Unavailable,
    /// The request itself is malformed: 400.
    BadRequest,
    /// A command sent with the wrong HTTP method: 405.
    WrongMethod,
    /// A request body over the size limit: 413.
    TooLarge,
    /// A command not sent as JSON: 415.
    WrongContentType,
    /// Past a limit on what one visitor may hold (tables, lab games,
    /// analyses, paid explanations): 429.
    Limited,
    /// Only someone else may do this (step another's lab game): 403.
    Forbidden,
    /// The thing changed under the command (another step or turn is being
    /// played, a stale copy): 409. Nothing changed; reload and try again.
    Conflict,
    /// The command was decided on a stale copy of a table shared between
    /// instances: 409, like [`ErrorKind::Conflict`]. The server decides it
    /// again on the reloaded table; only past its tries does a caller see it.
    Stale,
    /// The request got no answer at all (the server is down or the network
    /// is gone). Made in the browser only, never sent by the server; 503.
    Unreachable,
    /// A fault of the server's own (a bug, a broken invariant): 500. The
    /// message carries only a reference; the detail is in the server's log.
    Internal,
}

impl ErrorKind {
    /// The HTTP status this kind answers with.
    pub fn status(self) -> u16 {
        match self {
            ErrorKind::Refused => 422,
            ErrorKind::NotFound => 404,
            ErrorKind::Unavailable => 503,
            ErrorKind::BadRequest => 400,
            ErrorKind::WrongMethod => 405,
            ErrorKind::TooLarge => 413,
            ErrorKind::WrongContentType => 415,
            ErrorKind::Limited => 429,
            ErrorKind::Forbidden => 403,
            ErrorKind::Conflict | ErrorKind::Stale => 409,
            ErrorKind::Unreachable => 503,
            ErrorKind::Internal => 500,
        }
    }
}

/// A refused command: its kind (which decides the status) and its message
/// by key ([`Msg`]), which the reader's page formats in the reader's
/// language; `message` is the same message in English, for logs, API
/// clients and tests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandError {
    pub message: String,
    pub kind: ErrorKind,
    #[serde(default)]
    pub msg: Msg,
}

impl CommandError {
    /// A command the rules refuse (422).
    pub fn refused(msg: Msg) -> Self {
        Self::of(ErrorKind::Refused, msg)
    }

    /// A table or lab game that does not exist (404).
    pub fn not_found(msg: Msg) -> Self {
        Self::of(ErrorKind::NotFound, msg)
    }

    /// The server cannot do it now; nothing changed (503).
    pub fn unavailable(msg: Msg) -> Self {
        Self::of(ErrorKind::Unavailable, msg)
    }

    /// A malformed request (400).
    pub fn bad_request(msg: Msg) -> Self {
        Self::of(ErrorKind::BadRequest, msg)
    }

    /// Not the caller's to do; nothing changed (403).
    pub fn forbidden(msg: Msg) -> Self {
        Self::of(ErrorKind::Forbidden, msg)
    }

    /// Past a limit on what one visitor may hold; nothing changed (429).
    pub fn limited(msg: Msg) -> Self {
        Self::of(ErrorKind::Limited, msg)
    }

    /// The state changed under the command; nothing changed (409).
    pub fn conflict(msg: Msg) -> Self {
        Self::of(ErrorKind::Conflict, msg)
    }

    /// Decided on a stale copy of a shared table; decide again (409).
    pub fn stale(msg: Msg) -> Self {
        Self::of(ErrorKind::Stale, msg)
    }

    /// No answer came: the server or the network is gone (the browser's).
    pub fn unreachable(msg: Msg) -> Self {
        Self::of(ErrorKind::Unreachable, msg)
    }

    /// A fault of the server's own (500). `detail` goes to the server's log
    /// with a fresh reference; the caller reads only the reference.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        let reference = fault_reference();
        #[cfg(feature = "ssr")]
        tracing::error!(reference = %reference, "internal error: {detail}");
        #[cfg(not(feature = "ssr"))]
        let _ = detail.to_string();
        Self::of(
            ErrorKind::Internal,
            crate::msg!("srv-internal", reference = reference),
        )
    }

    /// The HTTP status this error answers with (the one mapping of kinds).
    #[cfg(feature = "ssr")]
    pub fn status_code(&self) -> http::StatusCode {
        http::StatusCode::from_u16(self.kind.status())
            .unwrap_or(http::StatusCode::UNPROCESSABLE_ENTITY)
    }

    pub fn of(kind: ErrorKind, msg: Msg) -> Self {
        Self {
            message: msg.english(),
            kind,
            msg,
        }
    }

    /// The message in `lang` (the English text if it came without a key).
    pub fn text(&self, lang: crate::i18n::Lang) -> String {
        if self.msg.key.is_empty() {
            self.message.clone()
        } else {
            self.msg.text(lang)
        }
    }
}

/// A short reference that ties an internal error's answer to its log line:
/// the clock's nanoseconds mixed with a counter (a reference, not a secret).
fn fault_reference() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let count = NEXT.fetch_add(1, Ordering::Relaxed);
    #[cfg(feature = "ssr")]
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    #[cfg(not(feature = "ssr"))]
    let now = 0u64;
    let mut x = now ^ count.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    format!("{:08x}", (x ^ (x >> 31)) as u32)
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
        match value {
            // A request the server function cannot read is the caller's
            // fault: 400, never 500.
            ServerFnErrorErr::MissingArg(m) => {
                Self::bad_request(crate::msg!("srv-missing-argument", name = m))
            }
            ServerFnErrorErr::Args(m) | ServerFnErrorErr::Deserialization(m) => {
                Self::bad_request(crate::msg!("srv-malformed", detail = m))
            }
            ServerFnErrorErr::UnsupportedRequestMethod(m) => Self::of(
                ErrorKind::WrongMethod,
                crate::msg!("srv-wrong-method", method = m),
            ),
            // Only in the browser: the request never got an answer.
            ServerFnErrorErr::Request(m) => {
                Self::unreachable(crate::msg!("srv-unreachable", why = m))
            }
            other => Self::internal(other),
        }
    }

    /// The one place a server function's error meets HTTP: the status of
    /// its kind is set on the response as the error is encoded, so no
    /// server function has to remember to do it.
    fn ser(&self) -> server_fn::Bytes {
        #[cfg(feature = "ssr")]
        if let Some(response) = leptos::prelude::use_context::<leptos_axum::ResponseOptions>() {
            response.set_status(self.status_code());
        }
        <JsonEncoding as server_fn::Encodes<Self>>::encode(self).unwrap_or_else(|_| {
            server_fn::Bytes::from_static(
                br#"{"message":"the error could not be encoded","kind":"internal"}"#,
            )
        })
    }
}

/// Server-side glue: the trait the server implements and the session lookup.
#[cfg(feature = "ssr")]
pub mod backend {
    use super::CommandError;
    use crate::protocol::{Session, TableCommand, TableId, TableMode, TableView};
    use std::sync::Arc;

    /// The client's address key (an IPv4 address, or an IPv6 address's
    /// /64), put in the request by the server's guard: what the services
    /// count per address.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct ClientIp(pub std::net::IpAddr);

    /// Who sends a command: their session and their address key (none when
    /// the server cannot tell, as in tests that call the services
    /// directly). What a command creates is counted against both.
    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    pub struct Caller {
        pub session: Session,
        pub address: Option<std::net::IpAddr>,
        /// The hash of the browser's own session token (what signing in
        /// again or out ends), when known.
        pub browser: Option<String>,
        /// The hash of the browser's long-lived device cookie, when known:
        /// what fair play links accounts by and sign-in trusts.
        pub device: Option<String>,
    }

    impl From<&Session> for Caller {
        fn from(session: &Session) -> Self {
            Caller {
                session: session.clone(),
                address: None,
                browser: None,
                device: None,
            }
        }
    }

    impl From<Session> for Caller {
        fn from(session: Session) -> Self {
            Caller {
                session,
                address: None,
                browser: None,
                device: None,
            }
        }
    }

    impl From<&Caller> for Caller {
        fn from(caller: &Caller) -> Self {
            caller.clone()
        }
    }

    impl Caller {
        /// The caller the server's middleware put in a request's extensions
        /// (session, address key, browser and device); `None` without a
        /// session.
        pub fn of_extensions(extensions: &http::Extensions) -> Option<Caller> {
            Some(Caller {
                session: extensions.get::<Session>().cloned()?,
                address: extensions.get::<ClientIp>().map(|ip| ip.0),
                browser: extensions
                    .get::<crate::protocol::BrowserToken>()
                    .map(|b| b.0.clone()),
                device: extensions
                    .get::<crate::protocol::DeviceToken>()
                    .map(|d| d.0.clone()),
            })
        }
    }

    /// The caller of the current server function: the session and address
    /// the server's middleware put in the request.
    pub fn caller() -> Result<Caller, CommandError> {
        let parts = leptos::prelude::use_context::<http::request::Parts>()
            .ok_or_else(|| CommandError::internal("a server function ran outside a request"))?;
        Caller::of_extensions(&parts.extensions).ok_or_else(|| {
            CommandError::internal("a request reached a server function without a session")
        })
    }

    /// What the server functions need from the server.
    #[async_trait::async_trait]
    pub trait Backend: Send + Sync + 'static {
        async fn create_table(
            &self,
            caller: &Caller,
            mode: TableMode,
        ) -> Result<TableId, CommandError>;
        async fn view(&self, session: &Session, table: &TableId)
            -> Result<TableView, CommandError>;
        async fn execute(
            &self,
            session: &Session,
            command: TableCommand,
        ) -> Result<TableView, CommandError>;
        async fn new_table(
            &self,
            caller: &Caller,
            table: &TableId,
        ) -> Result<TableId, CommandError>;
        /// Seats the caller in the free seat of an online table.
        async fn take_seat(
            &self,
            session: &Session,
            table: &TableId,
        ) -> Result<TableView, CommandError>;
        /// Starts a vs-AI or hot-seat table from a position given in OBF.
        async fn create_table_from(
            &self,
            caller: &Caller,
            mode: TableMode,
            obf: &str,
        ) -> Result<TableId, CommandError>;
    }

    /// The backend, provided to server functions as context.
    #[derive(Clone)]
    pub struct BackendHandle(pub Arc<dyn Backend>);

    /// The backend and the caller's session, or a clear error.
    pub fn context() -> Result<(Arc<dyn Backend>, Session), CommandError> {
        let backend = leptos::prelude::use_context::<BackendHandle>()
            .ok_or_else(|| CommandError::unavailable(crate::msg!("srv-not-ready")))?;
        let parts = leptos::prelude::use_context::<http::request::Parts>()
            .ok_or_else(|| CommandError::internal("a server function ran outside a request"))?;
        let session = parts.extensions.get::<Session>().cloned().ok_or_else(|| {
            CommandError::internal("a request reached a server function without a session")
        })?;
        Ok((backend.0, session))
    }
}

/// Starts a table; returns its id.
#[server(endpoint = "create_table", input = Json)]
pub async fn create_table(mode: TableMode) -> Result<TableId, CommandError> {
    let (backend, _) = backend::context()?;
    let caller = backend::caller()?;
    backend.create_table(&caller, mode).await
}

/// The table as the caller sees it.
#[server(endpoint = "get_table", input = Json)]
pub async fn get_table(table: TableId) -> Result<TableView, CommandError> {
    let (backend, session) = backend::context()?;
    backend.view(&session, &table).await
}

/// Places a disc on `square` (0..64).
#[server(endpoint = "play_move", input = Json)]
pub async fn play_move(table: TableId, square: u8) -> Result<TableView, CommandError> {
    let (backend, session) = backend::context()?;
    backend
        .execute(&session, TableCommand::Place { table, square })
        .await
}

/// Resigns the current round (`side` picks the side at a hot-seat table).
#[server(endpoint = "resign", input = Json)]
pub async fn resign(table: TableId, side: Option<Side>) -> Result<TableView, CommandError> {
    let (backend, session) = backend::context()?;
    backend
        .execute(&session, TableCommand::Resign { table, side })
        .await
}

/// Votes for (or withdraws a vote for) a rematch.
#[server(endpoint = "vote_rematch", input = Json)]
pub async fn vote_rematch(
    table: TableId,
    side: Option<Side>,
    vote: bool,
) -> Result<TableView, CommandError> {
    let (backend, session) = backend::context()?;
    backend
        .execute(&session, TableCommand::Vote { table, side, vote })
        .await
}

/// A new table with the same settings (and a fresh tally); returns its id.
#[server(endpoint = "new_table", input = Json)]
pub async fn new_table(table: TableId) -> Result<TableId, CommandError> {
    let (backend, _) = backend::context()?;
    let caller = backend::caller()?;
    backend.new_table(&caller, &table).await
}

/// Takes the free seat of an online table (the only way a visitor sits:
/// loading the page or `get_table` never does).
#[server(endpoint = "take_seat", input = Json)]
pub async fn take_seat(table: TableId) -> Result<TableView, CommandError> {
    let (backend, session) = backend::context()?;
    backend.take_seat(&session, &table).await
}

/// Starts a vs-AI or hot-seat table from a position in OBF (64 cells `X`,
/// `O` or `-` from a1 to h8, a space, `X` or `O` to move); returns its id.
#[server(endpoint = "create_table_from", input = Json)]
pub async fn create_table_from(mode: TableMode, obf: String) -> Result<TableId, CommandError> {
    let (backend, _) = backend::context()?;
    let caller = backend::caller()?;
    backend.create_table_from(&caller, mode, &obf).await
}

// ---------------------------------------------------------------- analysis

/// Server-side glue for game analysis: the trait the server implements.
#[cfg(feature = "ssr")]
pub mod analysis_backend {
    use super::CommandError;
    use crate::protocol::AnalysisView;
    use std::sync::Arc;

    /// What the analysis server functions need. `kind` is `table` or `lab`.
    #[async_trait::async_trait]
    pub trait AnalysisBackend: Send + Sync + 'static {
        async fn start(
            &self,
            caller: &super::backend::Caller,
            kind: crate::protocol::GameKind,
            id: &str,
        ) -> Result<AnalysisView, CommandError>;
        async fn get(
            &self,
            kind: crate::protocol::GameKind,
            id: &str,
        ) -> Result<AnalysisView, CommandError>;
        /// Every legal move's value in `position` (OBF) by the server's
        /// search: the analysis's depth and exact range, the opening
        /// book's moves marked.
        async fn position_values(
            &self,
            caller: &super::backend::Caller,
            position: &str,
        ) -> Result<crate::protocol::PositionValues, CommandError>;
    }

    /// The analysis backend, provided to server functions as context.
    #[derive(Clone)]
    pub struct AnalysisBackendHandle(pub Arc<dyn AnalysisBackend>);

    pub fn context() -> Result<Arc<dyn AnalysisBackend>, CommandError> {
        leptos::prelude::use_context::<AnalysisBackendHandle>()
            .map(|h| h.0)
            .ok_or_else(|| CommandError::unavailable(crate::msg!("srv-not-ready")))
    }
}

/// Starts the analysis of a finished game (a table's round, a lab game or an archived game), or
/// answers the stored one.
#[server(endpoint = "analysis_start", input = Json)]
pub async fn analysis_start(
    kind: crate::protocol::GameKind,
    id: String,
) -> Result<crate::protocol::AnalysisView, CommandError> {
    let analysis = analysis_backend::context()?;
    let caller = backend::caller()?;
    analysis.start(&caller, kind, &id).await
}

/// Every legal move's value in a position (OBF) by the server's deeper
/// search — the analysis's depth, exact within its range, the opening book's
/// moves marked — for the analysis board. Counted like a running analysis
/// against the caller's session and address while it runs.
#[server(endpoint = "analysis_position", input = Json)]
pub async fn analysis_position(
    position: String,
) -> Result<crate::protocol::PositionValues, CommandError> {
    let analysis = analysis_backend::context()?;
    let caller = backend::caller()?;
    analysis.position_values(&caller, &position).await
}

/// Where a game's analysis stands (stored results come back at once).
#[server(endpoint = "analysis_get", input = Json)]
pub async fn analysis_get(
    kind: crate::protocol::GameKind,
    id: String,
) -> Result<crate::protocol::AnalysisView, CommandError> {
    let analysis = analysis_backend::context()?;
    analysis.get(kind, &id).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_is_told_by_its_kind_not_its_words() {
        // A stale decision answers like a conflict; an unanswered request
        // like an unavailable server; the lobby reads "cannot reach" from
        // the kind, whatever message came with it.
        assert_eq!(ErrorKind::Stale.status(), ErrorKind::Conflict.status());
        assert_eq!(ErrorKind::Unreachable.status(), 503);
        let gone = CommandError::unreachable(crate::msg!("lobby-cannot-reach"));
        assert!(crate::pages::lobby::server_unreachable(&gone));
        let busy = CommandError::unavailable(crate::msg!("lobby-cannot-reach"));
        assert!(!crate::pages::lobby::server_unreachable(&busy));
        let wire = serde_json::to_string(&CommandError::stale(crate::msg!("srv-table-stale")))
            .expect("json");
        assert!(wire.contains("\"kind\":\"stale\""), "{wire}");
    }
}
