//! The Bot API's routes (docs/PROTOCOL.md, Bot API): bearer-token requests
//! under `/api/bot/` and `/api/stream/event`. Each acts through the service
//! a person's command uses — moves and resignations through the hub's
//! command path (clocks, rules, ratings as for anyone), challenges through
//! the challenge service — as the token's account.
//!
//! Answers are JSON; a refusal is `{"error": {"key", "args", "message",
//! "kind"}}` with its kind's status, and 401 for a missing, malformed,
//! unknown or revoked token. These routes take no cookie and are not
//! commands of the pages: the guard's origin and content-type rules for
//! `/api/*` do not apply to them ([`is_bot_path`]); a token is not
//! something a page on another site can send.

use super::{BotCaller, Bots};
use crate::AppState;
use app::api::CommandError;
use app::challenges::{Colour, NewChallenge};
use app::protocol::{Side, TableCommand, TableId, TimeControl};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};

/// Whether a path is the Bot API's (bearer tokens, no cookie).
pub fn is_bot_path(path: &str) -> bool {
    path.starts_with("/api/bot/") || path == "/api/stream/event"
}

/// The Bot API's routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/stream/event", get(super::stream::events))
        .route("/api/bot/account", get(account))
        .route("/api/bot/game/stream/{table}", get(super::stream::game))
        .route("/api/bot/game/{table}/move/{square}", post(play))
        .route("/api/bot/game/{table}/resign", post(resign))
        .route("/api/bot/challenge", post(challenge))
        .route("/api/bot/challenge/{id}/accept", post(accept))
        .route("/api/bot/challenge/{id}/decline", post(decline))
        .route("/api/bot/seek", post(super::seek::seek))
        .route("/api/bot/tournament/{id}/join", post(join_tournament))
        .route(
            "/api/bot/tournament/{id}/withdraw",
            post(withdraw_tournament),
        )
}

/// A refusal of the Bot API: a status and its keyed message.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub error: CommandError,
}

impl ApiError {
    /// A missing, malformed, unknown or revoked token: 401.
    pub fn unauthorized() -> ApiError {
        ApiError {
            status: StatusCode::UNAUTHORIZED,
            error: CommandError::forbidden(app::msg!("srv-bot-token")),
        }
    }
}

impl From<CommandError> for ApiError {
    fn from(error: CommandError) -> ApiError {
        ApiError {
            status: error.status_code(),
            error,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({
            "error": {
                "key": self.error.msg.key,
                "args": self.error.msg.args,
                "message": self.error.message,
                "kind": self.error.kind,
            }
        });
        let mut response = (self.status, Json(body)).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                header::HeaderValue::from_static("Bearer"),
            );
        }
        response
    }
}

/// The bearer token of a request's `Authorization` header.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}

/// The request's bot, or its refusal.
pub async fn bot_of(
    bots: &Bots,
    headers: &HeaderMap,
    ip: Option<Extension<app::api::backend::ClientIp>>,
) -> Result<BotCaller, ApiError> {
    bots.authenticate(bearer(headers), ip.map(|e| e.0 .0)).await
}

/// A table id from the path: 404 when malformed, as an unknown one.
pub fn table_of(text: &str) -> Result<TableId, ApiError> {
    TableId::parse(text).map_err(|_| CommandError::not_found(app::msg!("srv-no-table")).into())
}

/// The sides the bot holds at a table: 403 when none.
pub async fn seats_of(
    bots: &Bots,
    bot: &BotCaller,
    table: &TableId,
) -> Result<Vec<Side>, ApiError> {
    let view = bots.hub().view(bot.session(), table).await?;
    if view.you.is_empty() {
        return Err(CommandError::forbidden(app::msg!("srv-bot-not-seated")).into());
    }
    Ok(view.you)
}

/// A JSON body, or 400 with what is wrong with it.
pub fn body_of<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|error| {
        CommandError::bad_request(app::msg!("srv-malformed", detail = error.to_string())).into()
    })
}

fn ok() -> Response {
    Json(serde_json::json!({"ok": true})).into_response()
}

/// `GET /api/bot/account`: who the token is.
async fn account(
    State(state): State<AppState>,
    headers: HeaderMap,
    ip: Option<Extension<app::api::backend::ClientIp>>,
) -> Result<Response, ApiError> {
    let bot = bot_of(&state.bots, &headers, ip).await?;
    Ok(Json(serde_json::json!({"id": bot.account, "name": bot.name, "bot": true})).into_response())
}

/// `POST /api/bot/game/{table}/move/{square}`: a disc on `square` (`d3`).
async fn play(
    State(state): State<AppState>,
    Path((table, square)): Path<(String, String)>,
    headers: HeaderMap,
    ip: Option<Extension<app::api::backend::ClientIp>>,
) -> Result<Response, ApiError> {
    let bot = bot_of(&state.bots, &headers, ip).await?;
    let table = table_of(&table)?;
    let square: engine::Square = square.parse().map_err(|_| {
        CommandError::bad_request(app::msg!(
            "srv-bot-square",
            square = square.chars().take(8).collect::<String>()
        ))
    })?;
    seats_of(&state.bots, &bot, &table).await?;
    let index = u8::try_from(square.index()).unwrap_or(u8::MAX);
    state
        .hub
        .execute(
            bot.session(),
            TableCommand::Place {
                table,
                square: index,
            },
        )
        .await?;
    Ok(ok())
}

/// `POST /api/bot/game/{table}/resign`.
async fn resign(
    State(state): State<AppState>,
    Path(table): Path<String>,
    headers: HeaderMap,
    ip: Option<Extension<app::api::backend::ClientIp>>,
) -> Result<Response, ApiError> {
    let bot = bot_of(&state.bots, &headers, ip).await?;
    let table = table_of(&table)?;
    seats_of(&state.bots, &bot, &table).await?;
    state
        .hub
        .execute(bot.session(), TableCommand::Resign { table, side: None })
        .await?;
    Ok(ok())
}

/// The body of `POST /api/bot/challenge`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ChallengeBody {
    name: String,
    control: TimeControl,
    #[serde(default)]
    rated: bool,
    #[serde(default = "random")]
    colour: Colour,
    /// Start from a random balanced position.
    #[serde(default)]
    random_start: bool,
    /// A synchro pair (two games, colours swapped).
    #[serde(default)]
    synchro: bool,
}

fn random() -> Colour {
    Colour::Random
}

/// `POST /api/bot/challenge`: challenges a player by name; the id.
async fn challenge(
    State(state): State<AppState>,
    headers: HeaderMap,
    ip: Option<Extension<app::api::backend::ClientIp>>,
    body: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let bot = bot_of(&state.bots, &headers, ip).await?;
    let body: ChallengeBody = body_of(&body)?;
    let id = state
        .challenges
        .challenge(
            &bot.caller,
            NewChallenge {
                name: body.name,
                control: body.control,
                colour: body.colour,
                rated: body.rated,
                random_start: body.random_start,
                synchro: body.synchro,
            },
        )
        .await?;
    Ok(Json(serde_json::json!({"id": id})).into_response())
}

/// `POST /api/bot/challenge/{id}/accept`: the new table.
async fn accept(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ip: Option<Extension<app::api::backend::ClientIp>>,
) -> Result<Response, ApiError> {
    let bot = bot_of(&state.bots, &headers, ip).await?;
    let table = state.challenges.answer(&bot.caller, &id, true).await?;
    Ok(Json(serde_json::json!({"table": table})).into_response())
}

/// `POST /api/bot/challenge/{id}/decline`.
async fn decline(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ip: Option<Extension<app::api::backend::ClientIp>>,
) -> Result<Response, ApiError> {
    let bot = bot_of(&state.bots, &headers, ip).await?;
    state.challenges.answer(&bot.caller, &id, false).await?;
    Ok(ok())
}

/// A tournament's id from a path; a malformed one is not found (404).
fn tournament_of(text: &str) -> Result<app::protocol::TournamentId, ApiError> {
    app::protocol::TournamentId::parse(text)
        .map_err(|_| CommandError::not_found(app::msg!("srv-no-tournament")).into())
}

/// `POST /api/bot/tournament/{id}/join`: enters a tournament whose creator
/// allowed bots (403 elsewhere) — the same door a person's "Join" uses.
async fn join_tournament(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ip: Option<Extension<app::api::backend::ClientIp>>,
) -> Result<Response, ApiError> {
    let bot = bot_of(&state.bots, &headers, ip).await?;
    let id = tournament_of(&id)?;
    state.tournaments.join(&bot.caller, &id).await?;
    Ok(ok())
}

/// `POST /api/bot/tournament/{id}/withdraw`: leaves it (before the start) or
/// withdraws (after).
async fn withdraw_tournament(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ip: Option<Extension<app::api::backend::ClientIp>>,
) -> Result<Response, ApiError> {
    let bot = bot_of(&state.bots, &headers, ip).await?;
    let id = tournament_of(&id)?;
    state.tournaments.leave(&bot.caller, &id).await?;
    Ok(ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bearer_token_is_read_from_the_authorization_header() {
        let mut headers = HeaderMap::new();
        assert_eq!(bearer(&headers), None);
        headers.insert(
            header::AUTHORIZATION,
            "Bearer oth_abc".parse().expect("value"),
        );
        assert_eq!(bearer(&headers), Some("oth_abc"));
        headers.insert(
            header::AUTHORIZATION,
            "bearer  oth_abc ".parse().expect("value"),
        );
        assert_eq!(bearer(&headers), Some("oth_abc"));
        headers.insert(header::AUTHORIZATION, "Basic eDp5".parse().expect("value"));
        assert_eq!(bearer(&headers), None);
    }

    #[test]
    fn only_the_bot_routes_skip_the_pages_command_rules() {
        assert!(is_bot_path("/api/bot/game/ab/move/d3"));
        assert!(is_bot_path("/api/stream/event"));
        assert!(!is_bot_path("/api/play_move"));
        assert!(!is_bot_path("/api/bot_status"));
        assert!(!is_bot_path("/api/stream/event/x"));
    }
}
