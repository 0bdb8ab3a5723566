//! One client of the site's protocol, typed on [`app::protocol`]: the server
//! functions a browser calls (JSON in, JSON out) and the table and queue
//! WebSockets. The server's tests and the load tool (`othello-load`) use it,
//! so a change to the protocol breaks them at compile time, not at run time.
//! (Over 600 lines: one typed method per server function, plus the sockets.)
//!
//! A [`Client`] is one browser: it carries one session cookie (given, or the
//! one the server sets on the first answer) and the site's `Origin`, as the
//! guard asks of commands. A refused call is a [`Refusal`]: the exact status
//! and the message the player would read.

use app::api::{CommandError, ErrorKind};
use app::lab::{LabSummary, LabView, ProviderStatus};
use app::protocol::{
    AccountView, AnalysisView, ClientMessage, GameId, LabId, ServerMessage, Side, TableId,
    TableMode, TableView, TimeControl, DEVICE_COOKIE, SESSION_COOKIE,
};
use futures_util::{SinkExt, StreamExt};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// How long a socket read waits for the next message before it fails (a
/// wait for an event, not a delay).
pub const MESSAGE_WAIT: Duration = Duration::from_secs(20);

/// How long a [`Client::new`] request may take before it is an error.
pub const REQUEST_WAIT: Duration = Duration::from_secs(60);

/// A call the server refused (or a transport failure, status 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The HTTP status (0: the request did not complete).
    pub status: u16,
    /// The message a player would read (the body's `message`, or its text).
    pub message: String,
    /// The error's kind when the body was a [`CommandError`].
    pub kind: Option<ErrorKind>,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status, self.message)
    }
}

impl std::error::Error for Refusal {}

impl Refusal {
    fn transport(error: impl std::fmt::Display) -> Self {
        Refusal {
            status: 0,
            message: error.to_string(),
            kind: None,
        }
    }

    fn transport_chain(error: impl std::error::Error) -> Self {
        // The whole chain: "error sending request" alone hides the cause
        // (a refused connection, no file descriptors left, a timeout).
        let mut message = error.to_string();
        let mut source = error.source();
        while let Some(cause) = source {
            message.push_str(": ");
            message.push_str(&cause.to_string());
            source = cause.source();
        }
        Refusal {
            status: 0,
            message,
            kind: None,
        }
    }
}

/// A browser: one HTTP client, the site's URL and one session cookie.
#[derive(Clone, Debug)]
pub struct Client {
    http: reqwest::Client,
    url: String,
    /// `othello_session=<token>`, once known.
    cookie: Arc<Mutex<Option<String>>>,
    /// `othello_device=<token>`, once the server has handed one out (kept
    /// across signing in and out, as a browser keeps it).
    device: Arc<Mutex<Option<String>>>,
    /// The address this browser claims through `X-Real-IP` (for a server
    /// started with `--client-ip-header X-Real-IP`, as behind a proxy).
    address: Option<String>,
    /// Every body received, when recording (see [`Client::recording`]).
    bodies: Option<Arc<Mutex<Vec<String>>>>,
}

impl Client {
    /// A new visitor with no cookie yet: the server's first answer sets one.
    /// Every request is bounded by [`REQUEST_WAIT`]: a server that never
    /// answers fails the test instead of hanging the run.
    pub fn new(url: &str) -> Client {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_WAIT)
            .build()
            .unwrap_or_default();
        Client::with_http(http, url)
    }

    /// As [`Client::new`], sharing an HTTP client (connection pool).
    pub fn with_http(http: reqwest::Client, url: &str) -> Client {
        Client {
            http,
            url: url.trim_end_matches('/').to_string(),
            cookie: Arc::new(Mutex::new(None)),
            device: Arc::new(Mutex::new(None)),
            address: None,
            bodies: None,
        }
    }

    /// This browser, seen from `address` (sent as `X-Real-IP`).
    pub fn from_address(mut self, address: &str) -> Client {
        self.address = Some(address.to_string());
        self
    }

    /// This browser (its cookies), its requests carrying no client address:
    /// behind the test's "proxy", as a request that bypassed it.
    pub fn without_address(&self) -> Client {
        Client {
            http: self.http.clone(),
            url: self.url.clone(),
            cookie: self.cookie.clone(),
            device: self.device.clone(),
            address: None,
            bodies: None,
        }
    }

    /// Another browser (no cookies) from the same address as this one.
    pub fn sibling(&self) -> Client {
        Client {
            http: self.http.clone(),
            url: self.url.clone(),
            cookie: Arc::new(Mutex::new(None)),
            device: Arc::new(Mutex::new(None)),
            address: self.address.clone(),
            bodies: None,
        }
    }

    /// This browser's device (its device cookie) with no session, seen
    /// from `address`: the same browser, signed out, on another network.
    pub fn same_device_at(&self, address: &str) -> Client {
        let device = self.device.lock().ok().and_then(|d| d.clone());
        Client {
            http: self.http.clone(),
            url: self.url.clone(),
            cookie: Arc::new(Mutex::new(None)),
            device: Arc::new(Mutex::new(device)),
            address: Some(address.to_string()),
            bodies: None,
        }
    }

    /// The device cookie's token, once the server has handed one out.
    pub fn device_token(&self) -> Option<String> {
        self.device.lock().ok().and_then(|d| {
            d.as_deref()
                .and_then(|d| d.strip_prefix(&format!("{DEVICE_COOKIE}=")))
                .map(str::to_string)
        })
    }

    /// Forgets the device cookie (a browser whose cookies were cleared).
    pub fn forget_device(&self) {
        if let Ok(mut device) = self.device.lock() {
            *device = None;
        }
    }

    /// This client, keeping every body it receives (see [`Client::bodies`]),
    /// e.g. to check that no answer leaks a secret.
    pub fn recording(mut self) -> Client {
        self.bodies = Some(Arc::new(Mutex::new(Vec::new())));
        self
    }

    /// Every body received since [`Client::recording`], by this client and
    /// every client made from it with [`Client::at`].
    pub fn bodies(&self) -> Vec<String> {
        self.bodies
            .as_ref()
            .and_then(|b| b.lock().ok().map(|b| b.clone()))
            .unwrap_or_default()
    }

    /// The same browser (cookie, recording) talking to another server.
    pub fn at(&self, url: &str) -> Client {
        Client {
            url: url.trim_end_matches('/').to_string(),
            ..self.clone()
        }
    }

    fn record(&self, body: &str) {
        if let Some(bodies) = &self.bodies {
            if let Ok(mut bodies) = bodies.lock() {
                bodies.push(body.to_string());
            }
        }
    }

    /// A visitor holding the session token `token`.
    pub fn with_token(url: &str, token: &str) -> Client {
        let client = Client::new(url);
        client.set_token(token);
        client
    }

    /// Replaces the session token.
    pub fn set_token(&self, token: &str) {
        if let Ok(mut cookie) = self.cookie.lock() {
            *cookie = Some(format!("{SESSION_COOKIE}={token}"));
        }
    }

    /// The session token, once known.
    pub fn token(&self) -> Option<String> {
        self.cookie.lock().ok().and_then(|c| {
            c.as_deref()
                .and_then(|c| c.strip_prefix(&format!("{SESSION_COOKIE}=")))
                .map(str::to_string)
        })
    }

    /// The site's URL (`http://host:port`).
    pub fn url(&self) -> &str {
        &self.url
    }

    fn cookie(&self) -> Option<String> {
        let session = self.cookie.lock().ok().and_then(|c| c.clone());
        let device = self.device.lock().ok().and_then(|d| d.clone());
        match (session, device) {
            (Some(s), Some(d)) => Some(format!("{s}; {d}")),
            (s, d) => s.or(d),
        }
    }

    /// Adds this browser's cookies and claimed address to a request.
    fn dressed(&self, mut request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        if let Some(cookie) = self.cookie() {
            request = request.header("cookie", cookie);
        }
        if let Some(address) = &self.address {
            request = request.header("x-real-ip", address);
        }
        request
    }

    /// Keeps the session cookie the server sets, as a browser does (a
    /// sign-in or sign-out replaces the token).
    fn keep_cookie(&self, response: &reqwest::Response) {
        let set = response
            .headers()
            .get_all(reqwest::header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .filter_map(|v| v.split(';').next())
            .find(|v| v.starts_with(&format!("{SESSION_COOKIE}=")))
            .map(str::to_string);
        if let (Some(set), Ok(mut cookie)) = (set, self.cookie.lock()) {
            *cookie = Some(set);
        }
        let device = response
            .headers()
            .get_all(reqwest::header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .filter_map(|v| v.split(';').next())
            .find(|v| v.starts_with(&format!("{DEVICE_COOKIE}=")))
            .map(str::to_string);
        if let (Some(set), Ok(mut kept)) = (device, self.device.lock()) {
            *kept = Some(set);
        }
    }

    /// Calls the server function `name` with a JSON body as a browser does;
    /// returns the status and the body (JSON, or the text as a string).
    pub async fn call_raw(&self, name: &str, body: &Value) -> Result<(u16, Value), Refusal> {
        let (status, text) = self.call_text(name, body).await?;
        Ok((
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        ))
    }

    /// Calls the server function `name`: the status and the body's text.
    async fn call_text(&self, name: &str, body: &Value) -> Result<(u16, String), Refusal> {
        let mut request = self
            .http
            .post(format!("{}/api/{name}", self.url))
            .header("content-type", "application/json")
            .header("accept", "application/json")
            .header("origin", &self.url)
            .body(body.to_string());
        request = self.dressed(request);
        let response = request.send().await.map_err(Refusal::transport_chain)?;
        self.keep_cookie(&response);
        let status = response.status().as_u16();
        let text = response.text().await.map_err(Refusal::transport_chain)?;
        self.record(&text);
        Ok((status, text))
    }

    /// Calls the server function `name`; a 200 answer is read as `T` (straight
    /// from the text, no intermediate JSON tree), any other as a [`Refusal`]
    /// with the server's message.
    pub async fn call<T: DeserializeOwned>(&self, name: &str, body: Value) -> Result<T, Refusal> {
        let (status, text) = self.call_text(name, &body).await?;
        if status == 200 {
            return serde_json::from_str(&text).map_err(|e| Refusal {
                status,
                message: format!("unreadable answer of {name} ({e}): {text}"),
                kind: None,
            });
        }
        Err(match serde_json::from_str::<CommandError>(&text) {
            Ok(error) => Refusal {
                status,
                message: error.message,
                kind: Some(error.kind),
            },
            Err(_) => Refusal {
                status,
                message: match serde_json::from_str::<Value>(&text) {
                    Ok(Value::String(text)) => text,
                    Ok(other) => other.to_string(),
                    Err(_) => text,
                },
                kind: None,
            },
        })
    }

    /// `GET path` with the session cookie: (status, body text).
    pub async fn get(&self, path: &str) -> Result<(u16, String), Refusal> {
        let mut request = self.http.get(format!("{}{path}", self.url));
        request = self.dressed(request);
        let response = request.send().await.map_err(Refusal::transport_chain)?;
        self.keep_cookie(&response);
        let status = response.status().as_u16();
        let text = response.text().await.map_err(Refusal::transport_chain)?;
        self.record(&text);
        Ok((status, text))
    }

    /// GETs `path` as bytes (a download).
    pub async fn get_bytes(&self, path: &str) -> Result<(u16, Vec<u8>), Refusal> {
        let mut request = self.http.get(format!("{}{path}", self.url));
        request = self.dressed(request);
        let response = request.send().await.map_err(Refusal::transport_chain)?;
        self.keep_cookie(&response);
        let status = response.status().as_u16();
        let bytes = response.bytes().await.map_err(Refusal::transport_chain)?;
        Ok((status, bytes.to_vec()))
    }

    // ----- tables -----

    pub async fn create_table(&self, mode: TableMode) -> Result<TableId, Refusal> {
        self.call("create_table", json!({ "mode": mode })).await
    }

    /// A private online table (untimed unless `time` is given).
    pub async fn create_private(&self, time: Option<TimeControl>) -> Result<TableId, Refusal> {
        self.create_table(TableMode::Online {
            private: true,
            time,
            rated: false,
            tournament: false,
        })
        .await
    }

    pub async fn create_table_from(&self, mode: TableMode, obf: &str) -> Result<TableId, Refusal> {
        self.call("create_table_from", json!({ "mode": mode, "obf": obf }))
            .await
    }

    pub async fn get_table(&self, table: &TableId) -> Result<TableView, Refusal> {
        self.call("get_table", json!({ "table": table })).await
    }

    pub async fn take_seat(&self, table: &TableId) -> Result<TableView, Refusal> {
        self.call("take_seat", json!({ "table": table })).await
    }

    pub async fn play_move(&self, table: &TableId, square: u8) -> Result<TableView, Refusal> {
        self.call("play_move", json!({ "table": table, "square": square }))
            .await
    }

    pub async fn resign(&self, table: &TableId, side: Option<Side>) -> Result<TableView, Refusal> {
        self.call("resign", json!({ "table": table, "side": side }))
            .await
    }

    pub async fn vote_rematch(
        &self,
        table: &TableId,
        side: Option<Side>,
        vote: bool,
    ) -> Result<TableView, Refusal> {
        self.call(
            "vote_rematch",
            json!({ "table": table, "side": side, "vote": vote }),
        )
        .await
    }

    pub async fn new_table(&self, table: &TableId) -> Result<TableId, Refusal> {
        self.call("new_table", json!({ "table": table })).await
    }

    // ----- accounts -----

    pub async fn sign_up(
        &self,
        name: &str,
        password: &str,
    ) -> Result<Option<AccountView>, Refusal> {
        self.call("sign_up", json!({ "name": name, "password": password }))
            .await
    }

    pub async fn sign_in(
        &self,
        name: &str,
        password: &str,
    ) -> Result<Option<AccountView>, Refusal> {
        self.call("sign_in", json!({ "name": name, "password": password }))
            .await
    }

    pub async fn sign_out(&self) -> Result<Option<AccountView>, Refusal> {
        self.call("sign_out", json!({})).await
    }

    pub async fn sign_out_everywhere(&self) -> Result<Option<AccountView>, Refusal> {
        self.call("sign_out_everywhere", json!({})).await
    }

    pub async fn change_password(
        &self,
        current: &str,
        new: &str,
    ) -> Result<Option<AccountView>, Refusal> {
        self.call("change_password", json!({ "current": current, "new": new }))
            .await
    }

    pub async fn delete_account(&self, password: &str) -> Result<Option<AccountView>, Refusal> {
        self.call("delete_account", json!({ "password": password }))
            .await
    }

    /// Reports a player to the site's operators.
    pub async fn report_player(
        &self,
        name: &str,
        table: Option<&TableId>,
        reason: app::accounts::ReportReason,
        text: &str,
    ) -> Result<(), Refusal> {
        let report = app::accounts::Report {
            name: name.to_string(),
            table: table.cloned(),
            reason,
            text: text.to_string(),
        };
        self.call("report_player", json!({ "report": report }))
            .await
    }

    /// The account name the page shows (`<meta name="othello-account">`),
    /// empty when anonymous.
    pub async fn signed_in_as(&self) -> Result<String, Refusal> {
        let (_, page) = self.get("/account").await?;
        let marker = "name=\"othello-account\" content=\"";
        Ok(page
            .split_once(marker)
            .and_then(|(_, rest)| rest.split_once('"'))
            .map(|(name, _)| name.to_string())
            .unwrap_or_default())
    }

    // ----- archive -----

    pub async fn get_game(&self, id: &GameId) -> Result<app::archive::GameView, Refusal> {
        self.call("get_game", json!({ "id": id })).await
    }

    pub async fn my_games(
        &self,
        before: Option<i64>,
    ) -> Result<Vec<app::archive::GameSummary>, Refusal> {
        self.call("my_games", json!({ "before": before })).await
    }

    pub async fn get_profile(
        &self,
        name: &str,
        before: Option<i64>,
    ) -> Result<app::archive::ProfileView, Refusal> {
        self.get_profile_filtered(name, before, None, None).await
    }

    pub async fn get_profile_filtered(
        &self,
        name: &str,
        before: Option<i64>,
        mode: Option<&str>,
        result: Option<&str>,
    ) -> Result<app::archive::ProfileView, Refusal> {
        let filter =
            (mode.is_some() || result.is_some()).then(|| json!({ "mode": mode, "result": result }));
        self.call(
            "get_profile",
            json!({ "name": name, "before": before, "filter": filter }),
        )
        .await
    }

    // ----- ratings -----

    pub async fn table_players(
        &self,
        table: &TableId,
    ) -> Result<app::ratings::PlayersView, Refusal> {
        self.call("table_players", json!({ "table": table })).await
    }

    pub async fn my_ratings(&self) -> Result<Vec<app::ratings::PoolRating>, Refusal> {
        self.call("my_ratings", json!({})).await
    }

    pub async fn leaderboard(
        &self,
        speed: app::protocol::Speed,
    ) -> Result<Vec<app::ratings::BoardLine>, Refusal> {
        self.call("leaderboard", json!({ "speed": speed })).await
    }

    /// Players whose name starts with `prefix` (`search_players`).
    pub async fn search_players(
        &self,
        prefix: &str,
    ) -> Result<Vec<app::ratings::FoundPlayer>, Refusal> {
        self.call("search_players", json!({ "prefix": prefix }))
            .await
    }

    // ----- challenges -----

    pub async fn challenge(&self, new: &app::challenges::NewChallenge) -> Result<String, Refusal> {
        self.call("challenge", json!({ "new": new })).await
    }

    pub async fn my_challenges(&self) -> Result<app::challenges::ChallengeLists, Refusal> {
        self.call("my_challenges", json!({})).await
    }

    pub async fn answer_challenge(
        &self,
        id: &str,
        accept: bool,
    ) -> Result<Option<TableId>, Refusal> {
        self.call("answer_challenge", json!({ "id": id, "accept": accept }))
            .await
    }

    pub async fn cancel_challenge(&self, id: &str) -> Result<(), Refusal> {
        self.call("cancel_challenge", json!({ "id": id })).await
    }

    // ----- bot accounts (the account page's card) -----

    pub async fn bot_status(&self) -> Result<app::bots::BotCardView, Refusal> {
        self.call("bot_status", json!({})).await
    }

    /// `/bots`: every bot, online ones first, with ratings and latest games.
    pub async fn bots_page(&self) -> Result<app::bots::BotsView, Refusal> {
        self.call("bots_page", json!({})).await
    }

    pub async fn become_bot(&self) -> Result<app::bots::BotCardView, Refusal> {
        self.call("become_bot", json!({})).await
    }

    pub async fn create_bot_token(&self, label: &str) -> Result<app::bots::NewBotToken, Refusal> {
        self.call("create_bot_token", json!({ "label": label }))
            .await
    }

    pub async fn revoke_bot_token(&self, id: &str) -> Result<(), Refusal> {
        self.call("revoke_bot_token", json!({ "id": id })).await
    }

    // ----- tournaments -----

    pub async fn tournaments(&self) -> Result<Vec<app::tournaments::TournamentSummary>, Refusal> {
        self.call("tournaments", json!({})).await
    }

    pub async fn tournament(&self, id: &str) -> Result<app::tournaments::TournamentView, Refusal> {
        self.call("tournament", json!({ "id": id })).await
    }

    pub async fn create_tournament(
        &self,
        new: &app::tournaments::NewTournament,
    ) -> Result<app::protocol::TournamentId, Refusal> {
        self.call("create_tournament", json!({ "new": new })).await
    }

    pub async fn join_tournament(&self, id: &str) -> Result<(), Refusal> {
        self.call("join_tournament", json!({ "id": id })).await
    }

    pub async fn leave_tournament(&self, id: &str) -> Result<(), Refusal> {
        self.call("leave_tournament", json!({ "id": id })).await
    }

    pub async fn start_tournament(&self, id: &str) -> Result<(), Refusal> {
        self.call("start_tournament", json!({ "id": id })).await
    }

    pub async fn table_tournament(
        &self,
        table: &str,
    ) -> Result<Option<app::tournaments::TournamentOfTable>, Refusal> {
        self.call("table_tournament", json!({ "table": table }))
            .await
    }

    /// The other table of the synchro pair `table` is one of, if any.
    pub async fn synchro_partner(
        &self,
        table: &str,
    ) -> Result<Option<app::protocol::TableId>, Refusal> {
        self.call("synchro_partner", json!({ "table": table }))
            .await
    }

    pub async fn berserk(&self, table: &str) -> Result<TableView, Refusal> {
        self.call("berserk", json!({ "table": table })).await
    }

    // ----- puzzles -----

    pub async fn puzzle(
        &self,
        choice: app::puzzles::PuzzleChoice,
    ) -> Result<app::puzzles::PuzzleView, Refusal> {
        self.call("puzzle", json!({ "choice": choice })).await
    }

    pub async fn puzzle_move(
        &self,
        id: &str,
        moves: &[u8],
        streak: bool,
    ) -> Result<app::puzzles::PuzzleStep, Refusal> {
        self.call(
            "puzzle_move",
            json!({ "id": id, "moves": moves, "streak": streak }),
        )
        .await
    }

    pub async fn puzzle_history(&self) -> Result<Vec<app::puzzles::PuzzleTry>, Refusal> {
        self.call("puzzle_history", json!({})).await
    }

    // ----- analysis -----

    pub async fn analysis_start(&self, kind: &str, id: &str) -> Result<AnalysisView, Refusal> {
        self.call("analysis_start", json!({ "kind": kind, "id": id }))
            .await
    }

    pub async fn analysis_get(&self, kind: &str, id: &str) -> Result<AnalysisView, Refusal> {
        self.call("analysis_get", json!({ "kind": kind, "id": id }))
            .await
    }

    /// Every legal move's value in `position` (OBF) by the server's
    /// deeper search (the analysis board's button).
    pub async fn analysis_position(
        &self,
        position: &str,
    ) -> Result<app::protocol::PositionValues, Refusal> {
        self.call("analysis_position", json!({ "position": position }))
            .await
    }

    // ----- the lab -----

    pub async fn lab_create(&self, black_depth: u8, white_depth: u8) -> Result<LabId, Refusal> {
        self.call(
            "lab_create",
            json!({ "black_depth": black_depth, "white_depth": white_depth }),
        )
        .await
    }

    pub async fn lab_list(&self) -> Result<Vec<LabSummary>, Refusal> {
        self.call("lab_list", json!({})).await
    }

    pub async fn lab_provider(&self) -> Result<ProviderStatus, Refusal> {
        self.call("lab_provider", json!({})).await
    }

    pub async fn lab_get(&self, lab: &LabId) -> Result<LabView, Refusal> {
        self.call("lab_get", json!({ "lab": lab })).await
    }

    pub async fn lab_next_turn(&self, lab: &LabId) -> Result<LabView, Refusal> {
        self.call("lab_next_turn", json!({ "lab": lab })).await
    }

    pub async fn lab_retry_explanation(&self, lab: &LabId) -> Result<LabView, Refusal> {
        self.call("lab_retry_explanation", json!({ "lab": lab }))
            .await
    }

    pub async fn lab_wait(&self, lab: &LabId, since: u64) -> Result<LabView, Refusal> {
        self.call("lab_wait", json!({ "lab": lab, "since": since }))
            .await
    }

    /// Copies the lab game `lab` (someone else's, typically) into a new one
    /// the caller owns; returns the copy's id.
    pub async fn lab_copy(&self, lab: &LabId) -> Result<LabId, Refusal> {
        self.call("lab_copy", json!({ "lab": lab })).await
    }

    // ----- sockets -----

    /// Opens the WebSocket at `path` (`/ws/table/<id>`, `/ws/queue?…`) with
    /// the session cookie and the site's origin.
    pub async fn socket(&self, path: &str) -> Result<Socket, Refusal> {
        let ws_url = format!("{}{path}", self.url.replacen("http://", "ws://", 1));
        let mut request = ws_url.into_client_request().map_err(Refusal::transport)?;
        if let Some(cookie) = self.cookie() {
            request.headers_mut().insert(
                "cookie",
                cookie.parse().map_err(|_| Refusal::transport("cookie"))?,
            );
        }
        if let Some(address) = &self.address {
            request.headers_mut().insert(
                "x-real-ip",
                address.parse().map_err(|_| Refusal::transport("address"))?,
            );
        }
        request.headers_mut().insert(
            "origin",
            self.url.parse().map_err(|_| Refusal::transport("origin"))?,
        );
        // 8 KiB read buffer, as the server's: tungstenite's default 128 KiB is
        // allocated (and zeroed) per socket, which dominates a load run's
        // client with thousands of sockets open.
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(8 * 1024)
            .write_buffer_size(0);
        match tokio_tungstenite::connect_async_with_config(request, Some(config), false).await {
            Ok((stream, _)) => Ok(Socket { stream }),
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => Err(Refusal {
                status: response.status().as_u16(),
                message: response
                    .body()
                    .as_deref()
                    .map(|b| String::from_utf8_lossy(b).into_owned())
                    .unwrap_or_default(),
                kind: None,
            }),
            Err(error) => Err(Refusal::transport_chain(error)),
        }
    }

    /// Opens a tournament's socket and reads the page it sends first.
    pub async fn tournament_socket(
        &self,
        id: &str,
    ) -> Result<(Socket, app::tournaments::TournamentView), Refusal> {
        let mut socket = self.socket(&format!("/ws/tournament/{id}")).await?;
        let page = socket.next_tournament().await?;
        Ok((socket, page))
    }

    /// Opens a table's socket and reads its first state: by then the server
    /// has counted the socket. Returns the socket and that state.
    pub async fn connect(&self, table: &TableId) -> Result<(Socket, TableView), Refusal> {
        let mut socket = self.socket(&format!("/ws/table/{table}")).await?;
        match socket.next_message().await? {
            ServerMessage::State { table } => Ok((socket, *table)),
            other => Err(Refusal::transport(format!(
                "expected the table's state first, got {other:?}"
            ))),
        }
    }
}

type Stream =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// An open table or queue socket, read as [`ServerMessage`]s.
pub struct Socket {
    stream: Stream,
}

impl Socket {
    /// The next message (bounded by [`MESSAGE_WAIT`]); pings and other
    /// frames are skipped, text that is no [`ServerMessage`] is an error.
    pub async fn next_message(&mut self) -> Result<ServerMessage, Refusal> {
        loop {
            let message = tokio::time::timeout(MESSAGE_WAIT, self.stream.next())
                .await
                .map_err(|_| Refusal::transport("no message in time"))?
                .ok_or_else(|| Refusal::transport("the socket closed"))?
                .map_err(Refusal::transport)?;
            match message {
                Message::Text(text) => {
                    return serde_json::from_str(&text).map_err(|e| {
                        Refusal::transport(format!("not a server message ({e}): {text}"))
                    })
                }
                Message::Close(_) => return Err(Refusal::transport("the socket closed")),
                _ => continue,
            }
        }
    }

    /// The next text frame as it came (bounded by [`MESSAGE_WAIT`]).
    pub async fn next_text(&mut self) -> Result<String, Refusal> {
        loop {
            let message = tokio::time::timeout(MESSAGE_WAIT, self.stream.next())
                .await
                .map_err(|_| Refusal::transport("no message in time"))?
                .ok_or_else(|| Refusal::transport("the socket closed"))?
                .map_err(Refusal::transport)?;
            match message {
                Message::Text(text) => return Ok(text.to_string()),
                Message::Close(_) => return Err(Refusal::transport("the socket closed")),
                _ => continue,
            }
        }
    }

    /// The next page a tournament's socket pushes (other messages skipped).
    pub async fn next_tournament(&mut self) -> Result<app::tournaments::TournamentView, Refusal> {
        loop {
            let text = self.next_text().await?;
            if let Some(app::tournaments::TournamentMessage::Page { view }) =
                app::tournaments::TournamentMessage::parse(&text)
            {
                return Ok(*view);
            }
        }
    }

    /// Reads pushed states until one satisfies `check`; returns that view.
    pub async fn wait_state(
        &mut self,
        check: impl Fn(&TableView) -> bool,
    ) -> Result<TableView, Refusal> {
        loop {
            if let ServerMessage::State { table } = self.next_message().await? {
                if check(&table) {
                    return Ok(*table);
                }
            }
        }
    }

    /// Sends a message.
    pub async fn send(&mut self, message: &ClientMessage) -> Result<(), Refusal> {
        let text = serde_json::to_string(message).map_err(Refusal::transport)?;
        self.send_text(&text).await
    }

    /// Sends any text frame (for tests of malformed input).
    pub async fn send_text(&mut self, text: &str) -> Result<(), Refusal> {
        self.stream
            .send(Message::Text(text.into()))
            .await
            .map_err(Refusal::transport)
    }

    /// Closes the socket and waits (bounded) for the server's close frame:
    /// by then the server has seen the player leave.
    pub async fn close(mut self) {
        let _ = self.stream.close(None).await;
        while let Ok(Some(Ok(_))) = tokio::time::timeout(MESSAGE_WAIT, self.stream.next()).await {}
    }

    /// Drains the socket until it closes, counting the text messages.
    pub async fn drain(mut self, count: impl Fn()) {
        while let Some(Ok(message)) = self.stream.next().await {
            if message.is_text() {
                count();
            }
        }
    }
}

/// The seat this view says the viewer holds, if exactly one.
pub fn my_side(view: &TableView) -> Option<Side> {
    match view.you.as_slice() {
        [side] => Some(*side),
        _ => None,
    }
}
