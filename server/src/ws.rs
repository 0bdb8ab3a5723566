//! The WebSockets: a table's (pushes the table's state on connect and after
//! every change), the quick-match queue's, and a tournament's live page.
//! (Over 600 lines: the three sockets share their admission, limits and
//! keep-alive here.) Only allowed origins may connect; malformed or oversized messages
//! are answered with an error, never a panic.
//!
//! Each socket is bounded: frames and messages are capped, a session and an
//! IP address may hold only so many sockets, the server pings every
//! `--ws-ping-secs` and closes a socket silent for `--ws-silent-secs` (so a
//! half-open connection's grace period starts), and a send that cannot drain
//! within [`SEND_TIMEOUT`] closes the socket instead of queueing without end.

use crate::error::ErrorResponse;
use crate::AppState;
use app::api::CommandError;
use app::protocol::{AccountId, ClientMessage, ServerMessage, Session, TableId, TableView};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use std::time::Duration;
use tokio::time::Instant;

/// Largest message a client may send (larger ones get an error message).
pub const MAX_CLIENT_MESSAGE: usize = 4096;

/// Largest frame or message the socket reads at all (larger ones close it).
pub const MAX_FRAME: usize = 16 * 1024;

/// Largest amount of outgoing data buffered for one socket.
pub const MAX_WRITE_BUFFER: usize = 256 * 1024;

/// How long one send may wait for a slow reader before the socket closes.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// Whether the `Origin` of an upgrade request is allowed: the site's own
/// (same host as the request), the public URL, or the configured list. An
/// upgrade without an `Origin` is refused like a foreign one: browsers always
/// send one, and scripts and the test client send the site's.
pub fn origin_allowed(headers: &HeaderMap, guard: &crate::guard::Guard) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return false;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default();
    guard.origin_allowed(origin, host)
}

/// Keep-alive settings of one socket, and the rate of client messages.
#[derive(Clone, Copy, Debug)]
pub struct KeepAlive {
    pub ping: Duration,
    pub silent: Duration,
    /// Messages per second a client may send (ten times as many at once).
    pub messages_per_sec: u32,
}

impl KeepAlive {
    fn of(state: &AppState) -> Self {
        KeepAlive {
            ping: state.ws_ping,
            silent: state.ws_silent,
            messages_per_sec: state.ws_messages_per_sec,
        }
    }
}

/// The client's message rate on one socket: a token bucket of
/// `10 × rate` messages refilled at `rate` per second. Every frame counts
/// (text, binary, ping, pong).
pub struct MessageRate {
    tokens: f64,
    rate: f64,
    burst: f64,
    last: Instant,
}

impl MessageRate {
    pub fn new(per_sec: u32) -> Self {
        let rate = f64::from(per_sec.max(1));
        MessageRate {
            tokens: rate * 10.0,
            rate,
            burst: rate * 10.0,
            last: Instant::now(),
        }
    }

    /// Takes one message at `now`; `false` when the client is over its rate.
    pub fn take(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// What the client is told before the socket closes.
    fn refusal(&self) -> ServerMessage {
        ServerMessage::error(app::msg!("srv-socket-flood", limit = self.rate as u32))
    }
}

/// The socket checks every upgrade shares: origin, then the socket limits.
fn admit(
    state: &AppState,
    headers: &HeaderMap,
    session: &Session,
    ip: Option<crate::guard::ClientIp>,
) -> Result<crate::limits::SocketPermit, CommandError> {
    if !origin_allowed(headers, &state.guard) {
        return Err(CommandError::forbidden(app::msg!("srv-socket-origin")));
    }
    state
        .limits
        .open_socket(session.as_str(), ip.map(|c| c.0))
        .map_err(|message| {
            state.hub.metrics().note_refusal("sockets");
            CommandError::limited(message)
        })
}

fn bounded(upgrade: WebSocketUpgrade) -> WebSocketUpgrade {
    upgrade
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        // Messages are a few KiB: small buffers keep thousands of sockets cheap
        // (the 128 KiB defaults cost ~250 KiB per game with two players).
        .read_buffer_size(2 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(MAX_WRITE_BUFFER)
}

/// `GET /ws/table/{id}`.
pub async fn table_socket(
    State(state): State<AppState>,
    Path(id): Path<TableId>,
    Extension(session): Extension<Session>,
    ip: Option<Extension<crate::guard::ClientIp>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let permit = match admit(&state, &headers, &session, ip.map(|e| e.0)) {
        Ok(permit) => permit,
        Err(refusal) => return ErrorResponse(refusal).into_response(),
    };
    let subscription = match state.hub.subscribe(&id, &session).await {
        Ok(s) => s,
        Err(error) => return ErrorResponse(error).into_response(),
    };
    let hub = state.hub.clone();
    let keep = KeepAlive::of(&state);
    bounded(upgrade).on_upgrade(move |socket| async move {
        let _permit = permit;
        let sockets = &hub.metrics().open_sockets;
        sockets.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        hub.socket_opened(&id, &session).await;
        serve(socket, subscription, keep).await;
        hub.socket_closed(&id, &session).await;
        sockets.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    })
}

/// `GET /ws/tournament/{id}`: a tournament's page, live. Sends the page as
/// this player sees it on connect and after every change of its standings,
/// games or status (`{"type":"tournament","view":…}`); an unknown
/// tournament is refused with 404 before the upgrade.
pub async fn tournament_socket(
    State(state): State<AppState>,
    Path(id): Path<app::protocol::TournamentId>,
    Extension(session): Extension<Session>,
    ip: Option<Extension<crate::guard::ClientIp>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let permit = match admit(&state, &headers, &session, ip.map(|e| e.0)) {
        Ok(permit) => permit,
        Err(refusal) => return ErrorResponse(refusal).into_response(),
    };
    let pages = match state.tournaments.watch(&id).await {
        Ok(pages) => pages,
        Err(error) => return ErrorResponse(error).into_response(),
    };
    let me = crate::identity::account_of(&session);
    let hub = state.hub.clone();
    let keep = KeepAlive::of(&state);
    bounded(upgrade).on_upgrade(move |socket| async move {
        let _permit = permit;
        let sockets = &hub.metrics().open_sockets;
        sockets.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        serve_tournament(socket, pages, me, keep).await;
        sockets.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    })
}

fn tournament_message(page: &crate::tournaments::Shared, me: Option<AccountId>) -> Message {
    Message::Text(page.message_for(me).into())
}

async fn serve_tournament(
    mut socket: WebSocket,
    mut pages: tokio::sync::watch::Receiver<std::sync::Arc<crate::tournaments::Shared>>,
    me: Option<AccountId>,
    keep: KeepAlive,
) {
    let first = tournament_message(&pages.borrow_and_update(), me);
    if !send(&mut socket, first).await {
        return;
    }
    let mut pings = tokio::time::interval_at(Instant::now() + keep.ping, keep.ping);
    let mut heard = Instant::now();
    let mut rate = MessageRate::new(keep.messages_per_sec);
    loop {
        tokio::select! {
            changed = pages.changed() => {
                if changed.is_err() {
                    return;
                }
                let message = tournament_message(&pages.borrow_and_update(), me);
                if !send(&mut socket, message).await {
                    return;
                }
            }
            _ = pings.tick() => {
                if heard.elapsed() >= keep.silent
                    || !send(&mut socket, Message::Ping(Default::default())).await
                {
                    return;
                }
            }
            incoming = socket.recv() => {
                heard = Instant::now();
                if incoming.as_ref().is_some_and(|m| m.is_ok()) && !rate.take(heard) {
                    send(&mut socket, encode(&rate.refusal())).await;
                    return;
                }
                match read(incoming) {
                    Incoming::Closed => return,
                    Incoming::Reply(Some(reply)) => {
                        if !send(&mut socket, encode(&reply)).await {
                            return;
                        }
                    }
                    Incoming::Reply(None) => {}
                }
            }
        }
    }
}

/// The time control asked for in `GET /ws/queue?base=180&inc=2` (seconds);
/// without both, 3+2.
#[derive(Debug, serde::Deserialize)]
pub struct QueueParams {
    base: Option<u32>,
    inc: Option<u32>,
    /// `1`: the rated line (signed-in players only).
    rated: Option<u8>,
}

/// `GET /ws/queue`: joins the quick-match queue for a time control while the
/// socket is open. Sends `queued`, then `matched` with the table to go to;
/// closing the socket leaves the queue. A control the lobby does not offer is
/// refused with 400 before the upgrade.
pub async fn queue_socket(
    State(state): State<AppState>,
    crate::session::CallerOf(caller): crate::session::CallerOf,
    axum::extract::Query(params): axum::extract::Query<QueueParams>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    // A bot seeks by the Bot API, not here.
    if let Err(refusal) = state.bots.people_only(&caller.session).await {
        return ErrorResponse(refusal).into_response();
    }
    // The table a match makes counts against this player's session and address.
    let ip = caller.address.map(crate::guard::ClientIp);
    let permit = match admit(&state, &headers, &caller.session, ip) {
        Ok(permit) => permit,
        Err(refusal) => return ErrorResponse(refusal).into_response(),
    };
    let control = match (params.base, params.inc) {
        (Some(base_s), Some(increment_s)) => app::protocol::TimeControl {
            base_s,
            increment_s,
        },
        (None, None) => app::protocol::TimeControl::PRESETS[0],
        _ => {
            return ErrorResponse(CommandError::bad_request(app::msg!("srv-queue-control")))
                .into_response()
        }
    };
    if let Err(error) = state.hub.check_control(false, Some(control)) {
        return ErrorResponse(CommandError::bad_request(error.msg)).into_response();
    }
    // A rated player waits with their rating in the control's pool.
    let rating = match params.rated {
        None | Some(0) => None,
        Some(1) => {
            let Some(account) = crate::accounts::account_of(&caller.session) else {
                return ErrorResponse(CommandError::bad_request(app::msg!("srv-rated-sign-in")))
                    .into_response();
            };
            match state.store.rating_of(account, control.speed()).await {
                Ok(row) => Some(row.map_or(crate::glicko::START_RATING, |r| r.rating)),
                Err(error) => return ErrorResponse(CommandError::from(error)).into_response(),
            }
        }
        Some(_) => {
            return ErrorResponse(CommandError::bad_request(app::msg!("srv-queue-rated")))
                .into_response()
        }
    };
    let hub = state.hub.clone();
    let keep = KeepAlive::of(&state);
    // A signed-in person is offered a bot after a while alone.
    let offer = crate::accounts::account_of(&caller.session)
        .zip(state.bot_offer_after)
        .map(|(account, after)| BotOffer {
            bots: state.bots.clone(),
            account,
            after,
        });
    bounded(upgrade).on_upgrade(move |socket| async move {
        let _permit = permit;
        let sockets = &hub.metrics().open_sockets;
        sockets.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        wait_in_queue(socket, hub.clone(), caller, keep, control, rating, offer).await;
        sockets.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    })
}

/// Sends one message, giving up (the socket is to close) when the reader is
/// too slow or gone.
async fn send(socket: &mut WebSocket, message: Message) -> bool {
    matches!(
        tokio::time::timeout(SEND_TIMEOUT, socket.send(message)).await,
        Ok(Ok(()))
    )
}

/// What one read from the client means.
enum Incoming {
    /// The socket is closed or broken.
    Closed,
    /// A reply to send (or nothing to send).
    Reply(Option<ServerMessage>),
}

fn read(incoming: Option<Result<Message, axum::Error>>) -> Incoming {
    match incoming {
        None | Some(Err(_)) | Some(Ok(Message::Close(_))) => Incoming::Closed,
        Some(Ok(Message::Text(text))) => Incoming::Reply(answer(text.as_bytes())),
        Some(Ok(Message::Binary(bytes))) => Incoming::Reply(answer(&bytes)),
        Some(Ok(_)) => Incoming::Reply(None),
    }
}

/// Who may be offered a bot in quick match, and after how long alone.
struct BotOffer {
    bots: crate::bots::Bots,
    account: AccountId,
    after: Duration,
}

impl BotOffer {
    /// The offer to send (the nearest-rated bot online), if any.
    async fn message(&self, control: app::protocol::TimeControl, rated: bool) -> Option<Message> {
        match self
            .bots
            .offer_for(self.account, control.speed(), rated)
            .await
        {
            Ok(Some((bot, rating))) => Some(encode(&ServerMessage::BotOffer {
                bot,
                rating,
                waited_s: self.after.as_secs() as u32,
            })),
            Ok(None) => None,
            Err(error) => {
                tracing::warn!("quick match: no bot offered: {}", error.msg.english());
                None
            }
        }
    }
}

async fn wait_in_queue(
    mut socket: WebSocket,
    hub: crate::hub::Hub,
    caller: crate::limits::Caller,
    keep: KeepAlive,
    control: app::protocol::TimeControl,
    rating: Option<f64>,
    offer: Option<BotOffer>,
) {
    let queued = match hub.enqueue(caller.clone(), control, rating).await {
        Ok(q) => q,
        Err(error) => {
            send(&mut socket, encode(&ServerMessage::error(error.msg))).await;
            return;
        }
    };
    let (ticket, mut matched) = match queued {
        crate::hub::Queued::Matched(table) => {
            send(&mut socket, encode(&ServerMessage::Matched { table })).await;
            return;
        }
        crate::hub::Queued::Waiting { ticket, matched } => (ticket, matched),
    };
    if !send(&mut socket, encode(&ServerMessage::Queued)).await {
        hub.dequeue(ticket);
        return;
    }
    let mut pings = tokio::time::interval_at(Instant::now() + keep.ping, keep.ping);
    // A rated player's window widens as they wait: they look again.
    let mut widen = tokio::time::interval_at(Instant::now() + REMATCH_EVERY, REMATCH_EVERY);
    let mut heard = Instant::now();
    let mut rate = MessageRate::new(keep.messages_per_sec);
    // Offered once, after the wait the server's flag names.
    let mut offered = offer.is_none();
    let offer_at = tokio::time::sleep(offer.as_ref().map_or(Duration::ZERO, |o| o.after));
    tokio::pin!(offer_at);
    loop {
        tokio::select! {
            () = &mut offer_at, if !offered => {
                offered = true;
                if let Some(message) = match &offer {
                    Some(offer) => offer.message(control, rating.is_some()).await,
                    None => None,
                } {
                    if !send(&mut socket, message).await {
                        hub.dequeue(ticket);
                        return;
                    }
                }
            }
            _ = widen.tick(), if rating.is_some() => {
                // Paired: the table arrives on `matched`.
                hub.match_waiting(ticket, &caller, control).await;
            }
            table = &mut matched => {
                if let Ok(table) = table {
                    send(&mut socket, encode(&ServerMessage::Matched { table })).await;
                }
                return;
            }
            _ = pings.tick() => {
                if heard.elapsed() >= keep.silent || !send(&mut socket, Message::Ping(Default::default())).await {
                    hub.dequeue(ticket);
                    return;
                }
            }
            incoming = socket.recv() => {
                heard = Instant::now();
                if incoming.as_ref().is_some_and(|m| m.is_ok()) && !rate.take(heard) {
                    send(&mut socket, encode(&rate.refusal())).await;
                    hub.dequeue(ticket);
                    return;
                }
                match read(incoming) {
                    Incoming::Closed => {
                        hub.dequeue(ticket);
                        return;
                    }
                    Incoming::Reply(Some(reply)) => {
                        if !send(&mut socket, encode(&reply)).await {
                            hub.dequeue(ticket);
                            return;
                        }
                    }
                    Incoming::Reply(None) => {}
                }
            }
        }
    }
}

/// How often a waiting rated player looks again for an opponent.
const REMATCH_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

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
    keep: KeepAlive,
) {
    if !send(&mut socket, state_message(&view, &you)).await {
        return;
    }
    let mut pings = tokio::time::interval_at(Instant::now() + keep.ping, keep.ping);
    let mut heard = Instant::now();
    let mut rate = MessageRate::new(keep.messages_per_sec);
    loop {
        tokio::select! {
            update = updates.recv() => match update {
                Ok(update) => {
                    if !send(&mut socket, state_message(&update.view, &you)).await {
                        return;
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            },
            _ = pings.tick() => {
                if heard.elapsed() >= keep.silent {
                    // Silent too long: a half-open connection. Closing it
                    // starts the holder's grace period.
                    let _ = tokio::time::timeout(Duration::from_secs(1), socket.send(Message::Close(None))).await;
                    return;
                }
                if !send(&mut socket, Message::Ping(Default::default())).await {
                    return;
                }
            }
            incoming = socket.recv() => {
                heard = Instant::now();
                if incoming.as_ref().is_some_and(|m| m.is_ok()) && !rate.take(heard) {
                    // Over the rate: told once, then closed.
                    send(&mut socket, encode(&rate.refusal())).await;
                    let _ = tokio::time::timeout(Duration::from_secs(1), socket.send(Message::Close(None))).await;
                    return;
                }
                match read(incoming) {
                    Incoming::Closed => return,
                    Incoming::Reply(Some(reply)) => {
                        if !send(&mut socket, encode(&reply)).await {
                            return;
                        }
                    }
                    Incoming::Reply(None) => {}
                }
            }
        }
    }
}

/// The answer to one client message.
pub fn answer(bytes: &[u8]) -> Option<ServerMessage> {
    if bytes.len() > MAX_CLIENT_MESSAGE {
        return Some(ServerMessage::error(app::msg!(
            "srv-message-too-large",
            limit = MAX_CLIENT_MESSAGE
        )));
    }
    match serde_json::from_slice::<ClientMessage>(bytes) {
        Ok(ClientMessage::Ping) => Some(ServerMessage::Pong),
        Err(error) => Some(ServerMessage::error(app::msg!(
            "srv-malformed-message",
            detail = error.to_string()
        ))),
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
            Some(ServerMessage::Error { message, .. }) => assert!(message.contains("too large")),
            other => panic!("expected an error, got {other:?}"),
        }
    }

    #[test]
    fn the_message_rate_allows_a_burst_then_the_rate() {
        let start = Instant::now();
        let mut rate = MessageRate::new(5);
        let burst = (0..100).filter(|_| rate.take(start)).count();
        assert_eq!(burst, 50, "ten times the rate at once");
        assert!(!rate.take(start + Duration::from_millis(100)));
        assert!(rate.take(start + Duration::from_millis(250)));
        let later = start + Duration::from_secs(60);
        assert_eq!((0..100).filter(|_| rate.take(later)).count(), 50);
    }

    #[test]
    fn only_allowed_origins_may_connect() {
        let guard = |allowed: Vec<String>| {
            crate::guard::Guard::new(crate::guard::GuardConfig {
                listen: "127.0.0.1:40085".parse().expect("addr"),
                public_url: None,
                allowed_origins: allowed,
                allowed_hosts: vec![],
                max_body_bytes: 1024,
                rate_per_ip: 0,
                rate_burst: 0,
                client_ip_header: None,
            })
        };
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, "127.0.0.1:40085".parse().expect("header"));
        headers.insert(
            header::ORIGIN,
            "http://127.0.0.1:40085".parse().expect("header"),
        );
        assert!(origin_allowed(&headers, &guard(vec![])));
        let mut without = headers.clone();
        without.remove(header::ORIGIN);
        assert!(
            !origin_allowed(&without, &guard(vec![])),
            "an upgrade without an Origin is refused"
        );
        headers.insert(
            header::ORIGIN,
            "http://evil.example".parse().expect("header"),
        );
        assert!(!origin_allowed(&headers, &guard(vec![])));
        assert!(origin_allowed(
            &headers,
            &guard(vec!["http://evil.example/".to_string()])
        ));
    }
}
