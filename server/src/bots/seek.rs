//! `POST /api/bot/seek` (docs/PROTOCOL.md, Bot API): the bot waits in the
//! quick-match queue — the same queue, pairing and caps as a person's
//! `/ws/queue` — while the answer streams (`{"type":"queued"}`, then empty
//! lines), and `{"type":"matched","table":…}` ends it. Closing it leaves
//! the queue (the next empty line finds the reader gone).

use super::api::{body_of, bot_of, ApiError};
use super::stream::{line, ndjson, socket_place, KEEP_ALIVE};
use crate::AppState;
use app::api::CommandError;
use app::protocol::{TableId, TimeControl};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Extension;
use serde_json::json;
use std::time::Duration;
use tokio::sync::mpsc;

/// The body of `POST /api/bot/seek`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SeekBody {
    control: TimeControl,
    #[serde(default)]
    rated: bool,
}

/// `POST /api/bot/seek`.
pub async fn seek(
    State(state): State<AppState>,
    headers: HeaderMap,
    ip: Option<Extension<app::api::backend::ClientIp>>,
    body: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let bot = bot_of(&state.bots, &headers, ip).await?;
    let body: SeekBody = body_of(&body)?;
    let rating = if body.rated {
        let row = state
            .store
            .rating_of(bot.account, body.control.speed())
            .await
            .map_err(CommandError::from)?;
        Some(row.map_or(crate::glicko::START_RATING, |r| r.rating))
    } else {
        None
    };
    let permit = socket_place(&state, &bot)?;
    let hub = state.hub.clone();
    let queued = hub
        .enqueue(bot.caller.clone(), body.control, rating)
        .await?;
    let (tx, rx) = mpsc::channel(8);
    tokio::spawn(async move {
        let _permit = permit;
        let matched = |table: TableId| line(&json!({"type": "matched", "table": table}));
        let (ticket, mut waiting) = match queued {
            crate::hub::Queued::Matched(table) => {
                let _ = tx.send(matched(table)).await;
                return;
            }
            crate::hub::Queued::Waiting { ticket, matched } => (ticket, matched),
        };
        if tx.send(line(&json!({"type": "queued"}))).await.is_err() {
            hub.dequeue(ticket);
            return;
        }
        let mut keep =
            tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
        let mut widen = tokio::time::interval(Duration::from_secs(2));
        loop {
            tokio::select! {
                table = &mut waiting => {
                    if let Ok(table) = table {
                        let _ = tx.send(matched(table)).await;
                    }
                    return;
                }
                _ = widen.tick(), if rating.is_some() => {
                    hub.match_waiting(ticket, &bot.caller, body.control).await;
                }
                _ = keep.tick() => {
                    if tx.send("\n".to_string()).await.is_err() {
                        hub.dequeue(ticket);
                        return;
                    }
                }
            }
        }
    });
    Ok(ndjson(rx))
}
