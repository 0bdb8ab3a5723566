//! The Bot API's streams, NDJSON (one JSON object a line; an empty line
//! every few seconds keeps the connection alive):
//!
//! - `GET /api/stream/event`: the bot's challenges and games. A loop per
//!   stream reads the bot's challenges and the tables it sits at from the
//!   store (through the same services the pages use) every second and
//!   writes what changed, so it sees what any instance did, with no
//!   machinery between instances of its own.
//! - `GET /api/bot/game/stream/{table}`: a game: `gameFull`, then a
//!   `gameState` at every move, clock change and the end, from the hub's
//!   table subscription (what the table socket sends). While it is open the
//!   bot is present at its table, as a person with the table's page open.
//!
//! (`POST /api/bot/seek`, the quick-match queue's stream, is `seek.rs`.)
//!
//! Each stream counts as one of its account's sockets (the socket limits
//! per session and address).

use super::api::{bot_of, table_of, ApiError};
use super::{BotCaller, Bots};
use crate::AppState;
use app::api::CommandError;
use app::challenges::{ChallengeStatus, ChallengeView, Colour};
use app::protocol::{RoundStatus, Side, TableId, TableMode, TableView, TimeControl};
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap};
use axum::response::Response;
use axum::Extension;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::time::Duration;
use tokio::sync::mpsc;

/// How often the event stream looks at the store.
const POLL: Duration = Duration::from_secs(1);
/// Every how many looks the event stream checks its token again.
const RECHECK_EVERY: u32 = 10;
/// How often an idle stream writes an empty line.
pub(super) const KEEP_ALIVE: Duration = Duration::from_secs(5);

/// An NDJSON answer whose lines come from `lines`. Never compressed (a
/// compressor would hold lines back).
pub(super) fn ndjson(lines: mpsc::Receiver<String>) -> Response {
    let stream = futures_util::stream::unfold(lines, |mut lines| async move {
        lines
            .recv()
            .await
            .map(|line| (Ok::<_, std::convert::Infallible>(line), lines))
    });
    let mut response = Response::new(Body::from_stream(stream));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/x-ndjson"),
    );
    headers.insert(
        header::CONTENT_ENCODING,
        header::HeaderValue::from_static("identity"),
    );
    headers.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    // Nor held back by a proxy (nginx buffers answers unless told not to).
    headers.insert(
        header::HeaderName::from_static("x-accel-buffering"),
        header::HeaderValue::from_static("no"),
    );
    response
}

/// One line of a stream.
pub(super) fn line(value: &Value) -> String {
    let mut text = value.to_string();
    text.push('\n');
    text
}

/// A place among the account's sockets, or 429.
pub(super) fn socket_place(
    state: &AppState,
    bot: &BotCaller,
) -> Result<crate::limits::SocketPermit, ApiError> {
    state
        .limits
        .open_socket(bot.session().as_str(), bot.caller.address)
        .map_err(|message| CommandError::limited(message).into())
}

fn control_json(control: TimeControl) -> Value {
    json!({
        "base_s": control.base_s,
        "increment_s": control.increment_s,
        "speed": control.speed().key(),
    })
}

/// `GET /api/stream/event`.
pub async fn events(
    State(state): State<AppState>,
    headers: HeaderMap,
    ip: Option<Extension<app::api::backend::ClientIp>>,
) -> Result<Response, ApiError> {
    let bot = bot_of(&state.bots, &headers, ip).await?;
    let permit = socket_place(&state, &bot)?;
    let (tx, rx) = mpsc::channel(64);
    let bots = state.bots.clone();
    tokio::spawn(async move {
        let _permit = permit;
        watch_events(bots, bot, tx).await;
    });
    Ok(ndjson(rx))
}

/// What an event stream has told its bot about a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Told {
    Playing(u32),
    Over(u32),
}

/// What an event stream has told its bot.
#[derive(Default)]
struct Seen {
    challenges: HashMap<String, ChallengeStatus>,
    games: HashMap<TableId, Told>,
}

async fn watch_events(bots: Bots, bot: BotCaller, tx: mpsc::Sender<String>) {
    let mut seen = Seen::default();
    let mut first = true;
    let mut ticker = tokio::time::interval(POLL);
    let mut quiet = Duration::ZERO;
    let mut checked = 0u32;
    loop {
        ticker.tick().await;
        if tx.is_closed() {
            return;
        }
        // A token revoked meanwhile ends the stream.
        checked += 1;
        if checked >= RECHECK_EVERY {
            checked = 0;
            match bots.store().bot_of_token(&bot.token_hash).await {
                Ok(None) => return,
                // An open stream keeps its bot online (`/bots`).
                Ok(Some(owner)) => bots.still_used(&owner).await,
                Err(_) => {}
            }
        }
        let mut lines = challenge_events(&bots, &bot, &mut seen, first).await;
        lines.extend(game_events(&bots, &bot, &mut seen, first).await);
        first = false;
        if lines.is_empty() {
            quiet += POLL;
            if quiet >= KEEP_ALIVE {
                quiet = Duration::ZERO;
                lines.push(Value::Null);
            }
        } else {
            quiet = Duration::ZERO;
        }
        for value in lines {
            let text = if value.is_null() {
                "\n".to_string()
            } else {
                line(&value)
            };
            if tx.send(text).await.is_err() {
                return;
            }
        }
    }
}

/// A challenge as an event: who sent it, to whom, and the colour the bot
/// plays if it is accepted.
fn challenge_json(bot: &BotCaller, view: &ChallengeView, incoming: bool) -> Value {
    let (from, to) = if incoming {
        (view.other.as_str(), bot.name.as_str())
    } else {
        (bot.name.as_str(), view.other.as_str())
    };
    let colour = match (view.colour, incoming) {
        (Colour::Random, _) => "random",
        (Colour::Black, true) | (Colour::White, false) => "white",
        (Colour::White, true) | (Colour::Black, false) => "black",
    };
    json!({
        "id": view.id,
        "from": from,
        "to": to,
        "direction": if incoming { "in" } else { "out" },
        "control": control_json(view.control),
        "rated": view.rated,
        "colour": colour,
        "expires_at": view.expires_at,
        "start": if view.random_start { "random" } else { "standard" },
        "synchro": view.synchro,
    })
}

/// The event a challenge's end is told by (none for an acceptance: its
/// `gameStart` follows).
fn ended(id: &str, status: ChallengeStatus) -> Option<Value> {
    match status {
        ChallengeStatus::Declined => {
            Some(json!({"type": "challengeDeclined", "challenge": {"id": id}}))
        }
        ChallengeStatus::Cancelled | ChallengeStatus::Expired => {
            Some(json!({"type": "challengeCanceled", "challenge": {"id": id}}))
        }
        ChallengeStatus::Open | ChallengeStatus::Accepted => None,
    }
}

/// A stored challenge's status now.
async fn status_of(bots: &Bots, id: &str) -> Option<ChallengeStatus> {
    let row = bots.store().challenge(id).await.ok()??;
    Some(match row.status.as_str() {
        "open" if row.expires_at <= bots.hub().now() => ChallengeStatus::Expired,
        "open" => ChallengeStatus::Open,
        "accepted" => ChallengeStatus::Accepted,
        "declined" => ChallengeStatus::Declined,
        _ => ChallengeStatus::Cancelled,
    })
}

async fn challenge_events(
    bots: &Bots,
    bot: &BotCaller,
    seen: &mut Seen,
    first: bool,
) -> Vec<Value> {
    let Ok(lists) = bots.challenges().mine(&bot.caller).await else {
        return Vec::new();
    };
    let mut events = Vec::new();
    let mut present = std::collections::HashSet::new();
    let all = lists
        .incoming
        .iter()
        .map(|v| (v, true))
        .chain(lists.outgoing.iter().map(|v| (v, false)));
    for (view, incoming) in all {
        present.insert(view.id.clone());
        let before = seen.challenges.insert(view.id.clone(), view.status);
        match before {
            None if view.status == ChallengeStatus::Open => events.push(json!({
                "type": "challenge",
                "challenge": challenge_json(bot, view, incoming),
            })),
            Some(ChallengeStatus::Open) if view.status != ChallengeStatus::Open => {
                events.extend(ended(&view.id, view.status));
            }
            _ => {}
        }
    }
    // An incoming challenge leaves the list once it is no longer open.
    let gone: Vec<String> = seen
        .challenges
        .iter()
        .filter(|(id, status)| **status == ChallengeStatus::Open && !present.contains(*id))
        .map(|(id, _)| id.clone())
        .collect();
    for id in gone {
        let status = status_of(bots, &id)
            .await
            .unwrap_or(ChallengeStatus::Cancelled);
        if status != ChallengeStatus::Open {
            seen.challenges.insert(id.clone(), status);
            if !first {
                events.extend(ended(&id, status));
            }
        }
    }
    // Keep the memory bounded: forget what is over and out of the lists.
    seen.challenges
        .retain(|id, status| *status == ChallengeStatus::Open || present.contains(id));
    events
}

/// The names of a table's seat holders (black, white).
async fn names(bots: &Bots, table: &TableId) -> [Option<String>; 2] {
    let Ok((_, holders)) = bots.hub().seat_holders(table).await else {
        return [None, None];
    };
    let mut out = [None, None];
    for (slot, holder) in out.iter_mut().zip(holders) {
        if let Some(account) = holder.as_deref().and_then(crate::identity::account_in) {
            *slot = bots.store().account_name(account).await.ok().flatten();
        }
    }
    out
}

fn online(mode: &TableMode) -> Option<(Option<TimeControl>, bool)> {
    match mode {
        TableMode::Online { time, rated, .. } => Some((*time, *rated)),
        _ => None,
    }
}

async fn game_start(bots: &Bots, view: &TableView) -> Value {
    let colour = view.you.first().copied().unwrap_or(Side::Black);
    let [black, white] = names(bots, &view.id).await;
    let opponent = match colour {
        Side::Black => white,
        Side::White => black,
    };
    let (control, rated) = online(&view.mode).unwrap_or((None, false));
    json!({
        "type": "gameStart",
        "game": {
            "id": view.id,
            "round": view.round,
            "colour": colour.key(),
            "opponent": opponent,
            "control": control.map(control_json),
            "rated": rated,
        }
    })
}

fn game_finish(view: &TableView) -> Value {
    let (winner, reason) = match &view.status {
        RoundStatus::Over { winner, reason } => (winner.map(Side::key), Some(*reason)),
        RoundStatus::Playing { .. } => (None, None),
    };
    json!({
        "type": "gameFinish",
        "game": {
            "id": view.id,
            "round": view.round,
            "colour": view.you.first().map(|s| s.key()),
            "winner": winner,
            "reason": reason,
        }
    })
}

async fn game_events(bots: &Bots, bot: &BotCaller, seen: &mut Seen, first: bool) -> Vec<Value> {
    let Ok(tables) = bots.store().tables_seating(bot.session().as_str()).await else {
        return Vec::new();
    };
    let mut events = Vec::new();
    seen.games.retain(|id, _| tables.contains(id));
    for id in tables {
        let told = seen.games.get(&id).copied();
        if matches!(told, Some(Told::Over(_))) {
            continue;
        }
        let Ok(view) = bots.hub().view(bot.session(), &id).await else {
            continue;
        };
        if online(&view.mode).is_none() || view.you.is_empty() {
            continue;
        }
        let round = view.round;
        match (&view.status, told) {
            (RoundStatus::Playing { .. }, Some(Told::Playing(r))) if r == round => {}
            (RoundStatus::Playing { .. }, _) => {
                events.push(game_start(bots, &view).await);
                seen.games.insert(id, Told::Playing(round));
            }
            (RoundStatus::Over { .. }, Some(Told::Playing(_))) => {
                events.push(game_finish(&view));
                seen.games.insert(id, Told::Over(round));
            }
            (RoundStatus::Over { .. }, _) => {
                // Over before this stream saw it play: told whole, unless
                // it was over before the stream began.
                if !first {
                    events.push(game_start(bots, &view).await);
                    events.push(game_finish(&view));
                }
                seen.games.insert(id, Told::Over(round));
            }
        }
    }
    events
}

/// A square's name (`d3`) from its index.
fn square_name(index: u8) -> String {
    engine::Square::new(usize::from(index)).map_or_else(|| index.to_string(), |s| s.to_string())
}

/// A game's state as a line of its stream.
pub fn game_state(view: &TableView, you: &[Side]) -> Value {
    let moves: Vec<&str> = view
        .history
        .iter()
        .map(|entry| entry.square.as_deref().unwrap_or("pass"))
        .collect();
    let cells: String = view
        .board
        .cells
        .iter()
        .map(|c| match c {
            1 => 'X',
            -1 => 'O',
            _ => '-',
        })
        .collect();
    let (to_move, winner, reason) = match &view.status {
        RoundStatus::Playing { to_move } => (Some(*to_move), None, None),
        RoundStatus::Over { winner, reason } => (None, *winner, Some(*reason)),
    };
    let legal: Vec<String> = match to_move {
        Some(side) if you.contains(&side) => {
            view.board.legal.iter().copied().map(square_name).collect()
        }
        _ => Vec::new(),
    };
    let clocks = view.clocks.map(|c| {
        json!({
            "black_ms": c.black_ms,
            "white_ms": c.white_ms,
            "running": c.running.map(Side::key),
            "first_move": c.first_move.map(|f| json!({"side": f.side.key(), "ms": f.ms})),
        })
    });
    json!({
        "type": "gameState",
        "round": view.round,
        "moves": moves.join(" "),
        "board": cells,
        "to_move": to_move.map(Side::key),
        "legal": legal,
        "clocks": clocks,
        "status": if to_move.is_some() { "playing" } else { "over" },
        "winner": winner.map(Side::key),
        "reason": reason,
    })
}

/// The start position of a round (the usual one when `start` is empty), as
/// 64 cells `X`/`O`/`-` from a1 to h8.
fn start_cells(view: &TableView) -> String {
    if view.start.len() == 64 {
        view.start
            .iter()
            .map(|c| match c {
                1 => 'X',
                -1 => 'O',
                _ => '-',
            })
            .collect()
    } else {
        let mut cells = vec!['-'; 64];
        for (square, disc) in [(27, 'O'), (28, 'X'), (35, 'X'), (36, 'O')] {
            cells[square] = disc;
        }
        cells.into_iter().collect()
    }
}

/// `GET /api/bot/game/stream/{table}`.
pub async fn game(
    State(state): State<AppState>,
    Path(table): Path<String>,
    headers: HeaderMap,
    ip: Option<Extension<app::api::backend::ClientIp>>,
) -> Result<Response, ApiError> {
    let bot = bot_of(&state.bots, &headers, ip).await?;
    let table = table_of(&table)?;
    let (view, updates, you) = state.hub.subscribe(&table, bot.session()).await?;
    if you.is_empty() {
        return Err(CommandError::forbidden(app::msg!("srv-bot-not-seated")).into());
    }
    let permit = socket_place(&state, &bot)?;
    let [black, white] = names(&state.bots, &table).await;
    let (control, rated) = online(&view.mode).unwrap_or((None, false));
    let full = json!({
        "type": "gameFull",
        "id": table,
        "round": view.round,
        "colour": you[0].key(),
        "black": {"name": black},
        "white": {"name": white},
        "control": control.map(control_json),
        "rated": rated,
        "start": start_cells(&view),
        "state": game_state(&view, &you),
    });
    let (tx, rx) = mpsc::channel(64);
    let hub = state.hub.clone();
    tokio::spawn(async move {
        let _permit = permit;
        let session = bot.session().clone();
        hub.socket_opened(&table, &session).await;
        follow_game(view, updates, you, full, tx).await;
        hub.socket_closed(&table, &session).await;
    });
    Ok(ndjson(rx))
}

/// Writes a game's lines until its round is over or the reader leaves.
async fn follow_game(
    view: TableView,
    mut updates: tokio::sync::broadcast::Receiver<crate::hub::Update>,
    you: Vec<Side>,
    full: Value,
    tx: mpsc::Sender<String>,
) {
    if tx.send(line(&full)).await.is_err() {
        return;
    }
    let round = view.round;
    let over = |v: &TableView| matches!(v.status, RoundStatus::Over { .. });
    if over(&view) {
        return;
    }
    let mut last = (view.board.version, view.history.len());
    let mut keep = tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
    loop {
        tokio::select! {
            update = updates.recv() => match update {
                Ok(update) => {
                    let view = &update.view;
                    let now = (view.board.version, view.history.len());
                    if view.round != round {
                        return;
                    }
                    if now == last && !over(view) {
                        continue;
                    }
                    last = now;
                    if tx.send(line(&game_state(view, &you))).await.is_err() || over(view) {
                        return;
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            },
            _ = keep.tick() => {
                if tx.send("\n".to_string()).await.is_err() {
                    return;
                }
            }
        }
    }
}
