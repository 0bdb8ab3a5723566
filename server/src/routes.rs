//! The HTTP surface: Leptos pages and server functions, static files (the wasm
//! package, vendored Three.js, CSS), and health.
//!
//! (Over 600 lines: every route, its backends' wiring and its small handlers,
//! one map of the public surface.)

use crate::downloads::attachment;
use crate::error::ErrorResponse;
use crate::AppState;
use app::api::backend::BackendHandle;
use app::api::CommandError;
use app::protocol::{GameId, GameKind, LabId, TableId};
use app::{shell, App};
use axum::extract::Path;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{middleware, Json, Router};
use leptos::prelude::provide_context;
use leptos_axum::{generate_route_list, LeptosRoutes};
use std::sync::Arc;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;

/// A path segment with `%XX` escapes decoded (invalid ones kept as they are).
fn percent_decoded(text: &str) -> String {
    url::form_urlencoded::parse(format!("x={}", text.replace('+', "%2B")).as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default()
}

/// A page whose subject does not exist is a 404 page: `/game/<id>` of a
/// game not in the archive, `/@/<name>` of nobody, `/table/<id>`,
/// `/lab/<id>`, `/puzzles/<id>` and `/tournaments/<id>` of a table, lab
/// game, puzzle or tournament that does not exist (or never could: a malformed id). The pages themselves
/// stream (their head is sent before the subject is read), so the status is
/// set here, where the answer is known before anything is sent — for a link
/// preview, a crawler or a bookmark of an expired table, not only for the
/// words on the page. A database that cannot answer leaves the page as it is.
async fn page_status(
    State(state): State<AppState>,
    request: axum::extract::Request,
    next: middleware::Next,
) -> axum::response::Response {
    let missing = page_subject_missing(&state, request.uri().path()).await;
    let mut response = next.run(request).await;
    if missing && response.status() == axum::http::StatusCode::OK {
        *response.status_mut() = axum::http::StatusCode::NOT_FOUND;
    }
    response
}

/// Whether `path` is a page of one thing (see [`page_status`]) that is not
/// there.
async fn page_subject_missing(state: &AppState, path: &str) -> bool {
    use app::protocol::{LabId, TableId, TournamentId};
    let under = |prefix: &str| {
        path.strip_prefix(prefix)
            .filter(|rest| !rest.is_empty() && !rest.contains('/'))
    };
    if let Some(id) = under("/game/") {
        matches!(state.store.archived_game(id).await, Ok(None))
    } else if let Some(name) = under("/@/") {
        let key = percent_decoded(name).to_ascii_lowercase();
        matches!(state.store.account_by_key(&key).await, Ok(None))
    } else if let Some(id) = under("/table/") {
        match TableId::parse(id) {
            Ok(id) => matches!(state.store.table_exists(&id).await, Ok(false)),
            Err(_) => true,
        }
    } else if let Some(id) = under("/lab/") {
        match LabId::parse(id) {
            Ok(id) => matches!(state.store.lab_version(id.as_str()).await, Ok(None)),
            Err(_) => true,
        }
    } else if let Some(id) = under("/puzzles/") {
        !state.puzzles.has(id)
    } else if let Some(id) = under("/tournaments/") {
        match TournamentId::parse(id) {
            Ok(id) => matches!(state.store.tournament(&id).await, Ok(None)),
            Err(_) => true,
        }
    } else {
        false
    }
}

/// The application's routes, generated once per process.
///
/// Generating them renders the app with resource loading suppressed through a
/// process-wide flag (leptos_server's `SuppressResourceLoad`): a resource
/// first polled by another server's page render during that window waits
/// forever (leptos-rs/leptos#4773). A process that builds several routers
/// (the tests, two instances in one process) would hang a page now and then;
/// generating the list once, before any router exists, closes the window.
fn route_list() -> Vec<leptos_axum::AxumRouteListing> {
    static ROUTES: std::sync::OnceLock<Vec<leptos_axum::AxumRouteListing>> =
        std::sync::OnceLock::new();
    ROUTES.get_or_init(|| generate_route_list(App)).clone()
}

/// The whole application router.
pub fn router(state: AppState) -> Router {
    let routes = route_list();
    let site = std::path::PathBuf::from(state.leptos.site_root.as_ref());
    let leptos_options = state.leptos.clone();
    let assets = state.assets.clone();
    let fallback_assets = state.assets.clone();
    let static_files = Router::new()
        .nest_service(
            "/pkg",
            ServeDir::new(site.join("pkg"))
                .precompressed_br()
                .precompressed_gzip(),
        )
        .nest_service(
            "/vendor",
            ServeDir::new(site.join("vendor"))
                .precompressed_br()
                .precompressed_gzip(),
        )
        .nest_service(
            "/style",
            ServeDir::new(site.join("style"))
                .precompressed_br()
                .precompressed_gzip(),
        )
        .route("/i18n/{file}", get(i18n_catalog))
        .layer(middleware::from_fn(static_cache));
    // The people's game commands refuse a bot (it plays by the Bot API).
    let backend = BackendHandle(Arc::new(crate::bots::web::PeopleOnly::new(
        state.bots.clone(),
        state.hub.clone(),
    )));
    let lab_backend = app::lab::backend::LabBackendHandle(Arc::new(state.lab.clone()));
    let analysis_backend =
        app::api::analysis_backend::AnalysisBackendHandle(Arc::new(state.analysis.clone()));
    let account_backend =
        app::accounts::backend::AccountBackendHandle(Arc::new(crate::accounts::AccountPages {
            accounts: state.accounts.clone(),
            cookie_max_age_secs: state.session_expiry_secs,
            secure_cookies: state.secure_cookies,
        }));
    let archive_backend =
        app::archive::backend::ArchiveBackendHandle(Arc::new(crate::archive::Archive {
            store: state.store.clone(),
        }));
    let ratings_backend =
        app::ratings::backend::RatingsBackendHandle(Arc::new(crate::ratings::Ratings {
            store: state.store.clone(),
            hub: state.hub.clone(),
            fair_play: state.fair_play.clone(),
            searches: Default::default(),
        }));
    let puzzle_backend =
        app::puzzles::backend::PuzzleBackendHandle(Arc::new(state.puzzles.clone()));
    let challenge_backend = app::challenges::backend::ChallengeBackendHandle(Arc::new(
        crate::bots::web::PeopleOnly::new(state.bots.clone(), state.challenges.clone()),
    ));
    let bot_backend = app::bots::backend::BotBackendHandle(Arc::new(state.bots.clone()));
    let tournament_backend = app::tournaments::backend::TournamentBackendHandle(Arc::new(
        crate::bots::web::PeopleOnly::new(state.bots.clone(), state.tournaments.clone()),
    ));
    let with_session = Router::new()
        .leptos_routes_with_context(
            &state,
            routes,
            move || {
                provide_context(backend.clone());
                provide_context(lab_backend.clone());
                provide_context(analysis_backend.clone());
                provide_context(account_backend.clone());
                provide_context(archive_backend.clone());
                provide_context(ratings_backend.clone());
                provide_context(puzzle_backend.clone());
                provide_context(tournament_backend.clone());
                provide_context(challenge_backend.clone());
                provide_context(bot_backend.clone());
            },
            move || {
                provide_request_nonce();
                provide_context(assets.clone());
                shell(leptos_options.clone())
            },
        )
        .route("/lang/{code}", get(set_lang))
        .route("/ws/table/{id}", get(crate::ws::table_socket))
        .route("/ws/queue", get(crate::ws::queue_socket))
        .route("/ws/tournament/{id}", get(crate::ws::tournament_socket))
        .route("/table/{id}/export.txt", get(export_text))
        .route("/table/{id}/export.ggf", get(export_ggf))
        .route("/game/{id}/export.ggf", get(game_ggf))
        .route("/game/{id}/export.txt", get(crate::downloads::game_text))
        .route("/@/{name}/games.ggf", get(crate::downloads::player_ggf))
        .route("/@/{name}/{file}", get(crate::downloads::player_wthor))
        .route("/account/export.json", get(crate::downloads::account_data))
        .route(
            "/account/{action}",
            axum::routing::post(crate::accounts::forms::post),
        )
        .route("/lab/{id}/export.txt", get(lab_export_text))
        .route(
            "/tournaments/{id}/export.txt",
            get(crate::downloads::tournament_text),
        )
        .route("/lab/{id}/export.json", get(lab_export_json))
        .fallback(leptos_axum::file_and_error_handler::<AppState, _>(
            move |options: leptos::config::LeptosOptions| {
                provide_request_nonce();
                provide_context(fallback_assets.clone());
                shell(options)
            },
        ))
        .layer(middleware::from_fn_with_state(state.clone(), page_status))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            crate::session::layer,
        ))
        .layer(middleware::from_fn(crate::offline::app_shell));
    // `/metrics` is not here: it is served only on `--metrics-listen`
    // (`metrics_router`), never on the public address.
    Router::new()
        .route("/healthz", get(health))
        .route("/readyz", get(ready))
        .route("/sw.js", get(crate::offline::service_worker))
        .route("/manifest.webmanifest", get(crate::offline::web_manifest))
        .route(crate::sound::PATH, get(crate::sound::paired))
        .merge(crate::bots::api::routes())
        .merge(with_session)
        .merge(static_files)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            crate::guard::layer,
        ))
        .layer(CompressionLayer::new())
        .with_state(state)
}

/// The name of every server function this build serves (`POST /api/<name>`),
/// sorted: read from the functions the build registered, so the tests that
/// sweep them all cannot miss a new one.
pub fn server_function_names() -> Vec<String> {
    let mut names: Vec<String> = leptos::server_fn::axum::server_fn_paths()
        .filter_map(|(path, _)| path.strip_prefix("/api/").map(str::to_string))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// `/metrics` alone, for `--metrics-listen`.
pub fn metrics_router(state: AppState) -> Router {
    Router::new()
        .route("/metrics", get(metrics))
        .with_state(state)
}

/// `/lang/<el|en>?back=<path>`: the language switcher. Remembers the choice
/// in the `lang` cookie (a year) and sends the browser back to `back` (a path
/// on this site; the lobby otherwise), which the server renders in it.
async fn set_lang(
    State(state): State<AppState>,
    Path(code): Path<String>,
    axum::extract::Query(query): axum::extract::Query<std::collections::HashMap<String, String>>,
) -> axum::response::Response {
    use app::i18n::{safe_back, Lang, COOKIE};
    let Some(lang) = Lang::ALL.into_iter().find(|l| l.code() == code) else {
        return ErrorResponse(CommandError::bad_request(app::msg!("srv-unknown-language")))
            .into_response();
    };
    let back = query
        .get("back")
        .map(String::as_str)
        .filter(|b| safe_back(b) && same_site_path(b))
        .unwrap_or("/");
    let secure = if state.secure_cookies { "; Secure" } else { "" };
    let cookie = format!(
        "{COOKIE}={}; Path=/; Max-Age=31536000; SameSite=Lax{secure}",
        lang.code()
    );
    let mut response = StatusCode::SEE_OTHER.into_response();
    let headers = response.headers_mut();
    // A path that is not a valid header (raw non-ASCII) goes to the lobby.
    let location = header::HeaderValue::from_str(back)
        .unwrap_or_else(|_| header::HeaderValue::from_static("/"));
    headers.insert(header::LOCATION, location);
    if let Ok(cookie) = header::HeaderValue::from_str(&cookie) {
        headers.insert(header::SET_COOKIE, cookie);
    }
    headers.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    response
}

/// Whether `back` is a path on this site and nothing a browser could read as
/// another site: it starts with one `/`, holds only visible ASCII (no tab,
/// newline or space, which browsers drop or trim), no backslash (which
/// browsers read as `/`), and its percent-decoded forms (up to three rounds)
/// neither start with `//` or `/\` nor hold a control character or a
/// backslash. So `/%09/evil.example`, `/\evil.example` and
/// `/%2F/evil.example` all go to the lobby instead.
pub fn same_site_path(back: &str) -> bool {
    fn plain(path: &str) -> bool {
        path.starts_with('/')
            && !path.starts_with("//")
            && !path.starts_with("/\\")
            && path
                .bytes()
                .all(|b| (0x21..0x7f).contains(&b) && b != b'\\')
    }
    fn decoded(path: &str) -> Option<String> {
        let bytes = path.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' {
                let hex = bytes.get(i + 1..i + 3)?;
                let value = u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
                out.push(value);
                i += 3;
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        String::from_utf8(out).ok()
    }
    if !plain(back) || back.len() > 2048 {
        return false;
    }
    let mut current = back.to_string();
    for _ in 0..3 {
        let Some(next) = decoded(&current) else {
            return false;
        };
        if next == current {
            return true;
        }
        if next.starts_with("//")
            || next.starts_with("/\\")
            || next.chars().any(|c| c.is_control() || c == '\\')
        {
            return false;
        }
        current = next;
    }
    // Still changing after three rounds: nothing a page links to.
    false
}

/// Gives the page renderer the request's CSP nonce: Leptos writes it on every
/// inline script (import map, hydration bootstrap, streamed data).
fn provide_request_nonce() {
    let nonce = leptos::prelude::use_context::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<crate::guard::CspNonce>().cloned());
    if let Some(nonce) = nonce {
        provide_context(leptos::nonce::Nonce::from_value(nonce.0));
    }
}

/// Static files: immutable for a year when the name carries a content hash
/// (`cargo xtask site` names every file `<stem>.<16 hex digits>.<ext>`, see
/// `xtask/src/hash.rs`), five minutes otherwise (the Three.js licence). An old
/// name no longer exists on disk: 404.
async fn static_cache(
    request: axum::extract::Request,
    next: middleware::Next,
) -> axum::response::Response {
    let hashed = is_hashed_name(request.uri().path());
    let mut response = next.run(request).await;
    if response.status().is_success() {
        let value = if hashed {
            "public, max-age=31536000, immutable"
        } else {
            "public, max-age=300"
        };
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            header::HeaderValue::from_static(value),
        );
    }
    response
}

/// `/i18n/<lang>.<hash>.json`: a language's compiled messages, which the
/// browser fetches before hydrating (named by the page; immutable, as the name
/// changes with the content). Any other name is 404.
async fn i18n_catalog(Path(file): Path<String>) -> axum::response::Response {
    match app::i18n::catalog_json(&format!("/i18n/{file}")) {
        Some(json) => (
            [(
                header::CONTENT_TYPE,
                header::HeaderValue::from_static("application/json"),
            )],
            json,
        )
            .into_response(),
        None => ErrorResponse(CommandError::not_found(app::msg!("srv-no-catalog"))).into_response(),
    }
}

/// Whether the last segment of `path` is `<stem>.<16 hex digits>.<ext>`.
pub fn is_hashed_name(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or_default();
    let mut parts = name.rsplit('.');
    let (_ext, hash) = (parts.next(), parts.next());
    let stem = parts.next();
    matches!((stem, hash), (Some(stem), Some(hash))
        if !stem.is_empty()
            && hash.len() == 16
            && hash.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
}

async fn health(State(state): State<AppState>) -> impl IntoResponse {
    let explainer = state.lab.provider_status();
    Json(serde_json::json!({
        "status": "ok",
        "uptime_seconds": state.started.elapsed().as_secs(),
        "version": env!("CARGO_PKG_VERSION"),
        // Which lab explainer is in use and why (never a credential).
        "explainer": {"kind": explainer.kind, "name": explainer.name, "ready": explainer.ready, "detail": explainer.detail},
    }))
}

/// `/readyz`'s answer, kept for a second: probes (and anyone else) share one
/// database check instead of making one each.
#[derive(Default)]
pub struct Readiness {
    last: tokio::sync::Mutex<Option<(std::time::Instant, bool)>>,
    checks: std::sync::atomic::AtomicU64,
}

/// How long one readiness check answers for.
const READINESS_FOR: std::time::Duration = std::time::Duration::from_secs(1);

impl Readiness {
    /// Whether the database answered, checked at most once a second (callers
    /// arriving during a check wait for its answer).
    pub async fn check(&self, store: &crate::store::Store) -> bool {
        let mut last = self.last.lock().await;
        if let Some((at, ready)) = *last {
            if at.elapsed() < READINESS_FOR {
                return ready;
            }
        }
        let ready = store.ping().await;
        self.checks
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        *last = Some((std::time::Instant::now(), ready));
        ready
    }

    /// How many times the database was asked.
    pub fn checks(&self) -> u64 {
        self.checks.load(std::sync::atomic::Ordering::Relaxed)
    }
}

async fn ready(State(state): State<AppState>) -> impl IntoResponse {
    if state.readiness.check(&state.store).await {
        (StatusCode::OK, Json(serde_json::json!({"status": "ready"})))
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(serde_json::json!({"status": "database unavailable"})),
        )
    }
}

async fn export_text(
    State(state): State<AppState>,
    Path(id): Path<TableId>,
    headers: axum::http::HeaderMap,
) -> axum::response::Response {
    // The headings in the language of the page that links here.
    let lang = app::i18n::lang_of_headers(&headers);
    match state.hub.export(&id, lang).await {
        Ok(mut text) => {
            // Per-move loss, once the game has been analysed.
            if let Some(section) = state
                .analysis
                .export_section(GameKind::Table, id.as_str(), lang)
                .await
            {
                text.push('\n');
                text.push_str(&section);
            }
            attachment(
                format!("othello-{id}.txt"),
                "text/plain; charset=utf-8",
                text,
            )
        }
        Err(error) => ErrorResponse(error).into_response(),
    }
}

async fn export_ggf(
    State(state): State<AppState>,
    Path(id): Path<TableId>,
) -> axum::response::Response {
    match state.hub.export_ggf(&id).await {
        Ok(text) => attachment(
            format!("othello-{id}.ggf"),
            "text/plain; charset=utf-8",
            text,
        ),
        Err(error) => ErrorResponse(error).into_response(),
    }
}

async fn game_ggf(
    State(state): State<AppState>,
    Path(id): Path<GameId>,
) -> axum::response::Response {
    let archive = crate::archive::Archive {
        store: state.store.clone(),
    };
    match archive.ggf(&id).await {
        Ok(text) => attachment(
            format!("othello-game-{id}.ggf"),
            "text/plain; charset=utf-8",
            text,
        ),
        Err(error) => ErrorResponse(error).into_response(),
    }
}

async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    let mut body = state
        .hub
        .metrics()
        .render(state.hub.live_tables(), state.hub.queue_len());
    body.push_str(&state.hub.store().commit_stats().render());
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        body,
    )
}

async fn lab_export_text(
    State(state): State<AppState>,
    Path(id): Path<LabId>,
    headers: axum::http::HeaderMap,
) -> axum::response::Response {
    match state.lab.export_text(&id).await {
        Ok(mut text) => {
            // The analysis in the language of the page that links here.
            let lang = app::i18n::lang_of_headers(&headers);
            if let Some(section) = state
                .analysis
                .export_section(GameKind::Lab, id.as_str(), lang)
                .await
            {
                text.push('\n');
                text.push_str(&section);
            }
            attachment(
                format!("othello-lab-{id}.txt"),
                "text/plain; charset=utf-8",
                text,
            )
        }
        Err(error) => ErrorResponse(error).into_response(),
    }
}

async fn lab_export_json(
    State(state): State<AppState>,
    Path(id): Path<LabId>,
) -> axum::response::Response {
    match state.lab.export_json(&id).await {
        Ok(mut value) => {
            if let Some(analysis) = state.analysis.stored_of(GameKind::Lab, id.as_str()).await {
                value["analysis"] = serde_json::to_value(analysis).unwrap_or_default();
            }
            attachment(
                format!("othello-lab-{id}.json"),
                "application/json",
                serde_json::to_string_pretty(&value).unwrap_or_default(),
            )
        }
        Err(error) => ErrorResponse(error).into_response(),
    }
}

pub use crate::lab::RECENT_LAB_GAMES;

/// Live lab games one session may own (created or copied), by default
/// (`--max-lab-games-per-session`).
pub const LAB_GAMES_PER_SESSION: usize = crate::config::defaults::MAX_LAB_GAMES_PER_SESSION;

#[cfg(test)]
mod tests {
    use super::same_site_path;

    #[test]
    fn the_language_switch_goes_back_only_to_a_path_of_this_site() {
        for ok in [
            "/",
            "/table/ab12cd34",
            "/lab/0011?x=1",
            "/?tc=6s+0",
            "/analysis/table/ab%20cd",
        ] {
            assert!(same_site_path(ok), "{ok:?} should be allowed");
        }
        for bad in [
            "",
            "evil.example",
            "//evil.example",
            "/\\evil.example",
            "/\t/evil.example",
            "/\n/evil.example",
            "/ /evil.example",
            "/%09/evil.example",
            "/%2509/evil.example",
            "/%2F/evil.example",
            "/%2f%2fevil.example",
            "/%5Cevil.example",
            "/%255C%255Cevil.example",
            "/%zz",
            "https://evil.example/",
            "/é",
        ] {
            assert!(!same_site_path(bad), "{bad:?} should be refused");
        }
    }
}
