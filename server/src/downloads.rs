//! Downloads of the archive: an archived game as text, a player's whole
//! archive as GGF and as WTHOR (games and players files), and a signed-in
//! player's data as JSON. (Routed in `routes.rs`.)

use crate::error::ErrorResponse;
use crate::exports::Kind;
use crate::AppState;
use app::protocol::{GameId, GameKind};
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;

/// `/tournaments/<id>/export.txt`: a tournament's standings and crosstable
/// as text.
pub async fn tournament_text(
    State(state): State<AppState>,
    Path(id): Path<app::protocol::TournamentId>,
) -> axum::response::Response {
    match state.tournaments.export(&id).await {
        Ok(text) => attachment(
            format!("othello-tournament-{id}.txt"),
            "text/plain; charset=utf-8",
            text,
        ),
        Err(error) => ErrorResponse(error).into_response(),
    }
}

/// `/game/<id>/export.txt`: an archived game as text, with its analysis
/// once it has been analysed.
pub async fn game_text(
    State(state): State<AppState>,
    Path(id): Path<GameId>,
    headers: axum::http::HeaderMap,
) -> axum::response::Response {
    let lang = app::i18n::lang_of_headers(&headers);
    match archive_of(&state).text(&id, lang).await {
        Ok(mut text) => {
            if let Some(section) = state
                .analysis
                .export_section(GameKind::Game, id.as_str(), lang)
                .await
            {
                text.push('\n');
                text.push_str(&section);
            }
            attachment(
                format!("othello-game-{id}.txt"),
                "text/plain; charset=utf-8",
                text,
            )
        }
        Err(error) => ErrorResponse(error).into_response(),
    }
}

fn archive_of(state: &AppState) -> crate::archive::Archive {
    crate::archive::Archive {
        store: state.store.clone(),
    }
}

/// `/@/<name>/games.ggf`: every game of a player, oldest first, as GGF.
pub async fn player_ggf(
    State(state): State<AppState>,
    Path(name): Path<String>,
    ip: Option<axum::Extension<crate::guard::ClientIp>>,
) -> axum::response::Response {
    player_export(&state, &name, Kind::Ggf, ip.map(|ip| ip.0 .0)).await
}

/// `/@/<name>/games.wtb` and `/@/<name>/players.jou`: a player's games as
/// a WTHOR games file and its players file (the games' player numbers
/// index the players file).
pub async fn player_wthor(
    State(state): State<AppState>,
    Path((name, file)): Path<(String, String)>,
    ip: Option<axum::Extension<crate::guard::ClientIp>>,
) -> axum::response::Response {
    let kind = match file.as_str() {
        "games.wtb" => Kind::Wtb,
        "players.jou" => Kind::Jou,
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    player_export(&state, &name, kind, ip.map(|ip| ip.0 .0)).await
}

/// A player's export through the bounded, cached [`crate::exports`].
async fn player_export(
    state: &AppState,
    name: &str,
    kind: Kind,
    address: Option<std::net::IpAddr>,
) -> axum::response::Response {
    let _admission = match state.exports.admit(address) {
        Ok(admission) => admission,
        Err(error) => return ErrorResponse(error).into_response(),
    };
    let built = match state
        .exports
        .get(&archive_of(state), name, kind, state.hub.now())
        .await
    {
        Ok(built) => built,
        Err(error) => return ErrorResponse(error).into_response(),
    };
    let (file, content_type) = match kind {
        Kind::Ggf => (
            format!("othello-{}.ggf", built.name),
            "text/plain; charset=utf-8",
        ),
        Kind::Wtb => (
            format!("othello-{}.wtb", built.name),
            "application/octet-stream",
        ),
        Kind::Jou => (
            format!("othello-{}.jou", built.name),
            "application/octet-stream",
        ),
        Kind::Json => ("othello-3d-my-data.json".to_string(), "application/json"),
    };
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        axum::body::Body::from(built.body),
    )
        .into_response()
}

/// `/account/export.json`: everything kept about the signed-in player,
/// through the same admission and cache as the public exports (a flood
/// from one address is answered 429; a repeat is served from memory).
pub async fn account_data(
    State(state): State<AppState>,
    axum::Extension(session): axum::Extension<app::protocol::Session>,
    ip: Option<axum::Extension<crate::guard::ClientIp>>,
) -> axum::response::Response {
    let _admission = match state.exports.admit(ip.map(|ip| ip.0 .0)) {
        Ok(admission) => admission,
        Err(error) => return ErrorResponse(error).into_response(),
    };
    match state.exports.data(&archive_of(&state), &session).await {
        Ok(built) => (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, "application/json".to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    "attachment; filename=\"othello-3d-my-data.json\"".to_string(),
                ),
            ],
            axum::body::Body::from(built.body),
        )
            .into_response(),
        Err(error) => ErrorResponse(error).into_response(),
    }
}

/// A file the browser saves (`Content-Disposition: attachment`).
pub(crate) fn attachment(
    name: String,
    content_type: &'static str,
    body: String,
) -> axum::response::Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        body,
    )
        .into_response()
}
