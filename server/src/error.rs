//! Where the server's own errors meet the answer a caller reads: every
//! failure becomes an [`app::api::CommandError`] whose kind decides the HTTP
//! status (refused 422, not found 404, unavailable 503, bad request 400).
//!
//! - A rules refusal ([`TableError`], [`SeatError`]) is 422 with its message.
//! - A storage failure ([`StoreError`]) is 503 with a fixed message (nothing
//!   changed; try again); the detail goes to the log, never to the caller.
//!
//! With these `From` impls `?` does the mapping; [`ErrorResponse`] is the one
//! way an error becomes an HTTP response.

use crate::seating::SeatError;
use crate::store::StoreError;
use crate::table::TableError;
use app::api::CommandError;
use axum::response::{IntoResponse, Response};

impl From<StoreError> for CommandError {
    /// A lost race is 409 (nothing changed: look again and retry), a thing
    /// deleted meanwhile 404; any other storage failure 503.
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Stale => CommandError::conflict(app::msg!("srv-changed-meanwhile")),
            StoreError::Gone => CommandError::not_found(app::msg!("srv-gone")),
            error => {
                tracing::error!("storage error: {error}");
                CommandError::unavailable(app::msg!("srv-save-failed"))
            }
        }
    }
}

impl From<TableError> for CommandError {
    fn from(error: TableError) -> Self {
        CommandError::refused(error.msg())
    }
}

impl From<SeatError> for CommandError {
    fn from(error: SeatError) -> Self {
        CommandError::refused(error.msg())
    }
}

/// A [`CommandError`] as an HTTP response: the status of its kind and its
/// message as plain text.
#[derive(Debug)]
pub struct ErrorResponse(pub CommandError);

impl<E: Into<CommandError>> From<E> for ErrorResponse {
    fn from(error: E) -> Self {
        Self(error.into())
    }
}

/// The one conversion of an error into an HTTP answer, for plain routes,
/// WebSocket upgrades and the guard (server functions encode theirs through
/// `CommandError::ser`, which sets the same status and writes the same
/// JSON): the status of its kind, and either the JSON a server function
/// answers (`{"message": …, "kind": …}`) or the message as plain text.
pub fn respond(error: &CommandError, json: bool) -> Response {
    use axum::http::header::CONTENT_TYPE;
    if json {
        let body = serde_json::to_string(error).unwrap_or_else(|_| {
            r#"{"message":"the error could not be encoded","kind":"internal"}"#.to_string()
        });
        (
            error.status_code(),
            [(CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response()
    } else {
        (
            error.status_code(),
            [(CONTENT_TYPE, "text/plain; charset=utf-8")],
            error.message.clone(),
        )
            .into_response()
    }
}

impl IntoResponse for ErrorResponse {
    /// The one conversion of an error into an HTTP answer outside server
    /// functions (those encode theirs through `CommandError::ser`, which
    /// sets the same status): the status of its kind, and its message as
    /// plain text.
    fn into_response(self) -> Response {
        respond(&self.0, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::protocol::Side;

    #[test]
    fn a_storage_failure_is_503_with_no_detail() {
        let error: CommandError = StoreError::WriterGone.into();
        assert_eq!(error.status_code().as_u16(), 503);
        assert_eq!(error.msg.key, "srv-save-failed");
        let response = ErrorResponse::from(StoreError::Batch("disk full".into())).into_response();
        assert_eq!(response.status().as_u16(), 503);
    }

    #[test]
    fn a_lost_race_is_409_and_a_deleted_thing_404() {
        let stale: CommandError = StoreError::Stale.into();
        assert_eq!(stale.status_code().as_u16(), 409);
        assert_eq!(stale.msg.key, "srv-changed-meanwhile");
        let gone: CommandError = StoreError::Gone.into();
        assert_eq!(gone.status_code().as_u16(), 404);
    }

    #[test]
    fn a_rules_refusal_is_422_with_its_message() {
        let error: CommandError = TableError::NotYourTurn {
            to_move: Side::White,
        }
        .into();
        assert_eq!(error.status_code().as_u16(), 422);
        assert_eq!(error.message, "It is not your turn: White is to move.");
        let error: CommandError = SeatError::SeatTaken.into();
        assert_eq!(error.status_code().as_u16(), 422);
        assert_eq!(
            error.message,
            "Both seats are taken: you can watch this game, not play in it."
        );
        let response =
            ErrorResponse::from(CommandError::not_found(app::msg!("srv-no-table"))).into_response();
        assert_eq!(response.status().as_u16(), 404);
    }
}
