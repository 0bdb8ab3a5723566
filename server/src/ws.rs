//! The table WebSocket: pushes the table's state on connect and after every
//! change. Only allowed origins may connect; malformed or oversized messages
//! are answered with an error, never a panic.

use crate::AppState;
use app::protocol::{ClientMessage, ServerMessage, Session, TableView};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;

/// Largest message a client may send.
pub const MAX_CLIENT_MESSAGE: usize = 4096;

/// Whether the `Origin` of an upgrade request is allowed: the site's own
/// (same host as the request), the public URL, or the configured list.
pub fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        // Not a browser: browsers always send Origin on WebSocket upgrades.
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let origin = origin.trim_end_matches('/');
    if allowed.iter().any(|a| a.trim_end_matches('/') == origin) {
        return true;
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default();
    !host.is_empty() && (origin == format!("http://{host}") || origin == format!("https://{host}"))
}

/// `GET /ws/table/{id}`.
pub async fn table_socket(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Extension(session): Extension<Session>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !origin_allowed(&headers, &state.allowed_origins) {
        return (StatusCode::FORBIDDEN, "origin not allowed").into_response();
    }
    let subscription = match state.hub.subscribe(&id, &session).await {
        Ok(s) => s,
        Err(error) => return (StatusCode::NOT_FOUND, error.message).into_response(),
    };
    let hub = state.hub.clone();
    upgrade
        .max_message_size(64 * 1024)
        // Messages are a few KiB: small buffers keep thousands of sockets cheap
        // (the 128 KiB defaults cost ~250 KiB per game with two players).
        .read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024)
        .on_upgrade(move |socket| async move {
            let sockets = &hub.metrics().open_sockets;
            sockets.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            hub.socket_opened(&id, &session).await;
            serve(socket, subscription).await;
            hub.socket_closed(&id, &session).await;
            sockets.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        })
}

/// The time control asked for in `GET /ws/queue?base=180&inc=2` (seconds);
/// without both, 3+2.
#[derive(Debug, serde::Deserialize)]
pub struct QueueParams {
    base: Option<u32>,
    inc: Option<u32>,
}

/// `GET /ws/queue`: joins the quick-match queue for a time control while the
/// socket is open. Sends `queued`, then `matched` with the table to go to;
/// closing the socket leaves the queue. A control the lobby does not offer is
/// refused with 400 before the upgrade.
pub async fn queue_socket(
    State(state): State<AppState>,
    Extension(session): Extension<Session>,
    axum::extract::Query(params): axum::extract::Query<QueueParams>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !origin_allowed(&headers, &state.allowed_origins) {
        return (StatusCode::FORBIDDEN, "origin not allowed").into_response();
    }
    let control = match (params.base, params.inc) {
        (Some(base_s), Some(increment_s)) => app::protocol::TimeControl {
            base_s,
            increment_s,
        },
        (None, None) => app::protocol::TimeControl::PRESETS[0],
        _ => {
            return (
                StatusCode::BAD_REQUEST,
                "give both base and inc (seconds), or neither for 3+2",
            )
                .into_response()
        }
    };
    if let Err(error) = state.hub.check_control(false, Some(control)) {
        return (StatusCode::BAD_REQUEST, error.message).into_response();
    }
    let hub = state.hub.clone();
    upgrade
        .max_message_size(64 * 1024)
        .read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024)
        .on_upgrade(move |socket| async move {
            let sockets = &hub.metrics().open_sockets;
            sockets.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            wait_in_queue(socket, hub.clone(), session, control).await;
            sockets.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        })
}

async fn wait_in_queue(
    mut socket: WebSocket,
    hub: crate::hub::Hub,
    session: Session,
    control: app::protocol::TimeControl,
) {
    let queued = match hub.enqueue(session, control).await {
        Ok(q) => q,
        Err(error) => {
            let _ = socket
                .send(encode(&ServerMessage::Error {
                    message: error.message,
                }))
                .await;
            return;
        }
    };
    let (ticket, mut matched) = match queued {
        crate::hub::Queued::Matched(table) => {
            let _ = socket.send(encode(&ServerMessage::Matched { table })).await;
            return;
        }
        crate::hub::Queued::Waiting { ticket, matched } => (ticket, matched),
    };
    if socket.send(encode(&ServerMessage::Queued)).await.is_err() {
        hub.dequeue(ticket);
        return;
    }
    loop {
        tokio::select! {
            table = &mut matched => {
                if let Ok(table) = table {
                    let _ = socket.send(encode(&ServerMessage::Matched { table })).await;
                }
                return;
            }
            incoming = socket.recv() => {
                let reply = match incoming {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => {
                        hub.dequeue(ticket);
                        return;
                    }
                    Some(Ok(Message::Text(text))) => answer(text.as_bytes()),
                    Some(Ok(Message::Binary(bytes))) => answer(&bytes),
                    Some(Ok(_)) => None,
                };
                if let Some(reply) = reply {
                    if socket.send(encode(&reply)).await.is_err() {
                        hub.dequeue(ticket);
                        return;
                    }
                }
            }
        }
    }
}

fn encode(message: &ServerMessage) -> Message {
    Message::Text(
        serde_json::to_string(message)
            .unwrap_or_else(|_| r#"{"type":"error","message":"encoding failed"}"#.into())
            .into(),
    )
}

fn state_message(view: &TableView, you: &[app::protocol::Side]) -> Message {
    let mut view = view.clone();
    view.you = you.to_vec();
    encode(&ServerMessage::State {
        table: Box::new(view),
    })
}

async fn serve(
    mut socket: WebSocket,
    (view, mut updates, you): (
        TableView,
        tokio::sync::broadcast::Receiver<crate::hub::Update>,
        Vec<app::protocol::Side>,
    ),
) {
    if socket.send(state_message(&view, &you)).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            update = updates.recv() => match update {
                Ok(update) => {
                    if socket.send(state_message(&update.view, &you)).await.is_err() {
                        return;
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            },
            incoming = socket.recv() => {
                let reply = match incoming {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                    Some(Ok(Message::Text(text))) => answer(text.as_bytes()),
                    Some(Ok(Message::Binary(bytes))) => answer(&bytes),
                    Some(Ok(_)) => None,
                };
                if let Some(reply) = reply {
                    if socket.send(encode(&reply)).await.is_err() {
                        return;
                    }
                }
            }
        }
    }
}

/// The answer to one client message.
pub fn answer(bytes: &[u8]) -> Option<ServerMessage> {
    if bytes.len() > MAX_CLIENT_MESSAGE {
        return Some(ServerMessage::Error {
            message: format!("message too large (limit {MAX_CLIENT_MESSAGE} bytes)"),
        });
    }
    match serde_json::from_slice::<ClientMessage>(bytes) {
        Ok(ClientMessage::Ping) => Some(ServerMessage::Pong),
        Err(error) => Some(ServerMessage::Error {
            message: format!("malformed message: {error}"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_and_oversized_messages_get_an_error() {
        assert_eq!(answer(br#"{"type":"ping"}"#), Some(ServerMessage::Pong));
        assert!(matches!(
            answer(b"{not json"),
            Some(ServerMessage::Error { .. })
        ));
        assert!(matches!(
            answer(br#"{"type":"launch"}"#),
            Some(ServerMessage::Error { .. })
        ));
        let big = vec![b' '; MAX_CLIENT_MESSAGE + 1];
        match answer(&big) {
            Some(ServerMessage::Error { message }) => assert!(message.contains("too large")),
            other => panic!("expected an error, got {other:?}"),
        }
    }

    #[test]
    fn only_allowed_origins_may_connect() {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, "127.0.0.1:40085".parse().expect("header"));
        headers.insert(
            header::ORIGIN,
            "http://127.0.0.1:40085".parse().expect("header"),
        );
        assert!(origin_allowed(&headers, &[]));
        headers.insert(
            header::ORIGIN,
            "http://evil.example".parse().expect("header"),
        );
        assert!(!origin_allowed(&headers, &[]));
        assert!(origin_allowed(
            &headers,
            &["http://evil.example/".to_string()]
        ));
    }
}
