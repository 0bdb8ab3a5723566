//! Downloads of the archive: an archived game as text, a player's whole
//! archive as GGF and as WTHOR (games and players files), and a signed-in
//! player's data as JSON. (Routed in `routes.rs`.)

use crate::error::ErrorResponse;
use crate::routes::attachment;
use crate::AppState;
use app::protocol::GameKind;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;

/// `/game/<id>/export.txt`: an archived game as text, with its analysis
/// once it has been analysed.
pub async fn game_text(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
) -> axum::response::Response {
    let lang = app::i18n::lang_of_headers(&headers);
    match archive_of(&state).text(&id, lang).await {
        Ok(mut text) => {
            if let Some(section) = state
                .analysis
                .export_section(GameKind::Game, &id, lang)
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
) -> axum::response::Response {
    match archive_of(&state).ggf_of_player(&name).await {
        Ok((name, text)) => attachment(
            format!("othello-{name}.ggf"),
            "text/plain; charset=utf-8",
            text,
        ),
        Err(error) => ErrorResponse(error).into_response(),
    }
}

/// `/@/<name>/games.wtb` and `/@/<name>/players.jou`: a player's games as
/// a WTHOR games file and its players file (the games' player numbers
/// index the players file).
pub async fn player_wthor(
    State(state): State<AppState>,
    Path((name, file)): Path<(String, String)>,
) -> axum::response::Response {
    let games = match file.as_str() {
        "games.wtb" => true,
        "players.jou" => false,
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    match archive_of(&state)
        .wthor_of_player(&name, state.hub.now())
        .await
    {
        Ok((name, wtb, _)) if games => binary(format!("othello-{name}.wtb"), wtb),
        Ok((name, _, jou)) => binary(format!("othello-{name}.jou"), jou),
        Err(error) => ErrorResponse(error).into_response(),
    }
}

/// `/account/export.json`: everything kept about the signed-in player.
pub async fn account_data(
    State(state): State<AppState>,
    axum::Extension(session): axum::Extension<app::protocol::Session>,
) -> axum::response::Response {
    match archive_of(&state).data_of(&session).await {
        Ok(data) => attachment(
            "othello-3d-my-data.json".to_string(),
            "application/json",
            serde_json::to_string_pretty(&data).unwrap_or_default(),
        ),
        Err(error) => ErrorResponse(error).into_response(),
    }
}

fn binary(name: String, body: Vec<u8>) -> axum::response::Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "application/octet-stream".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        body,
    )
        .into_response()
}
