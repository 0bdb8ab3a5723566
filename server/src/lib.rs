//! The Othello 3D server: configuration, the store (SQLite or PostgreSQL), the HTTP routes
//! (Leptos pages, static files, health) and start-up/shutdown.
// Leptos views are nested types; the route futures of every page together
// pass the default limit of 128 (raised as the compiler suggests).
#![recursion_limit = "256"]

pub mod accounts;
pub mod admin;
pub mod ai;
pub mod analysis;
pub mod archive;
pub mod book;
pub mod bots;
pub mod challenges;
pub mod clock;
pub mod clock_control;
pub mod config;
pub mod discs;
pub mod downloads;
pub mod error;
pub mod export;
pub mod exports;
pub mod fair_play;
pub mod glicko;
pub mod guard;
pub mod hex;
pub mod hub;
pub mod identity;
pub mod lab;
pub mod limits;
pub mod metrics;
pub mod offline;
pub mod puzzles;
pub mod rating_gate;
pub mod rating_window;
pub mod ratings;
pub mod routes;
pub mod schedule;
pub mod seating;
pub mod serve;
pub mod session;
pub mod sound;
pub mod starts;
pub mod store;
pub mod table;
pub mod telemetry;
pub mod tournaments;
pub mod ws;
pub mod wthor;

use config::Config;
use std::sync::Arc;
use store::Store;

/// What every request handler can reach ([`AppParts`], through `Deref`).
/// One `Arc`, cheap to clone: axum clones the state for every middleware and
/// extractor of every request (cloning the parts themselves showed as ≈ 4 %
/// of the CPU under the load benchmark).
#[derive(Clone)]
pub struct AppState(Arc<AppParts>);

impl std::ops::Deref for AppState {
    type Target = AppParts;

    fn deref(&self) -> &AppParts {
        &self.0
    }
}

/// The parts of [`AppState`].
pub struct AppParts {
    pub leptos: leptos::config::LeptosOptions,
    /// The static files' content-hashed names (`site/manifest.json`).
    pub assets: app::assets::Assets,
    pub store: Store,
    pub hub: hub::Hub,
    pub lab: lab::LabHub,
    pub analysis: analysis::Analyses,
    pub accounts: accounts::Accounts,
    /// Which accounts may change each other's ratings.
    pub fair_play: fair_play::FairPlay,
    /// Players' whole-archive exports: cached, capped per address.
    pub exports: exports::Exports,
    /// The puzzles the server ships, and their ratings.
    pub puzzles: puzzles::Puzzles,
    /// Swiss tournaments, and their director.
    pub tournaments: tournaments::Tournaments,
    /// Challenges between named players.
    pub challenges: challenges::Challenges,
    /// Bot accounts, their tokens and the Bot API's service.
    pub bots: bots::Bots,
    pub guard: guard::SharedGuard,
    pub limits: Arc<limits::Limits>,
    pub secure_cookies: bool,
    /// Session cookie lifetime, and how long an unused stored session is kept.
    pub session_expiry_secs: u64,
    /// WebSocket keep-alive: ping period and the silence that closes.
    pub ws_ping: std::time::Duration,
    pub ws_silent: std::time::Duration,
    /// How long a signed-in person waits in quick match before a bot is
    /// offered (`None`: never).
    pub bot_offer_after: Option<std::time::Duration>,
    /// Messages per second a client may send on one socket.
    pub ws_messages_per_sec: u32,
    /// `/readyz`'s last database check, shared by every probe for a second.
    pub readiness: Arc<routes::Readiness>,
    pub started: Arc<std::time::Instant>,
}

impl AppParts {
    /// Forgets, in the per-session and per-address counts, every table, lab
    /// game and analysis that is no longer live, and every session or
    /// address left holding nothing (the sweeper calls it): what the server
    /// keeps per session is bounded by what is live.
    pub fn forget_what_is_gone(&self) {
        let (hub, lab, analysis) = (&self.hub, &self.lab, &self.analysis);
        self.limits.sweep(|kind, id| match kind {
            limits::Kind::Table => hub.is_live(id),
            limits::Kind::LabGame => lab.is_live(id),
            limits::Kind::Analysis => analysis.is_running(id),
        });
    }
}

impl axum::extract::FromRef<AppState> for leptos::config::LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        state.leptos.clone()
    }
}

/// Errors that stop the server from starting.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error("cannot restore tables: {0}")]
    Restore(#[from] hub::RestoreError),
    #[error("cannot listen on {address}: {source}")]
    Listen {
        address: std::net::SocketAddr,
        source: std::io::Error,
    },
    #[error("server error: {0}")]
    Serve(std::io::Error),
    #[error("the site folder: {0}")]
    Site(String),
}

/// Reads what `cargo xtask site` wrote about the static files' hashed names:
/// `manifest.json` (served path → hashed path) and Leptos' `hash.txt` (its
/// absolute path, for `LeptosOptions::hash_file`). A site without them (built
/// before hashing, or none at all in tests) serves every file by its own name.
pub fn site_assets(
    site_root: &std::path::Path,
) -> Result<(app::assets::Assets, Option<String>), StartError> {
    let manifest = site_root.join("manifest.json");
    let assets = match std::fs::read_to_string(&manifest) {
        Ok(text) => app::assets::Assets::from_manifest(&text).map_err(StartError::Site)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => app::assets::Assets::default(),
        Err(e) => return Err(StartError::Site(format!("{}: {e}", manifest.display()))),
    };
    let hash_file = site_root.join("hash.txt");
    let hash_file = if hash_file.is_file() {
        let absolute = std::path::absolute(&hash_file)
            .map_err(|e| StartError::Site(format!("{}: {e}", hash_file.display())))?;
        Some(absolute.display().to_string())
    } else {
        None
    };
    Ok((assets, hash_file))
}

/// Opens the store, restores the tables and builds the shared state.
pub async fn prepare(config: &Config) -> Result<AppState, StartError> {
    prepare_with_clock(config, Arc::new(clock::SystemClock)).await
}

/// As [`prepare`], with an injected clock (tests).
pub async fn prepare_with_clock(
    config: &Config,
    clock: Arc<dyn clock::Clock>,
) -> Result<AppState, StartError> {
    let store = match &config.database {
        config::Database::Postgres(url) => Store::open_postgres(url).await?,
        config::Database::Sqlite(path) => Store::open(path).await?,
    };
    // On PostgreSQL the hub shares its tables with the other instances
    // through the shared store and the bus (the lab uses the same bus).
    let shared = match store.postgres() {
        Some(pg) => Some(hub::Shared::join(pg.clone()).await?),
        None => None,
    };
    let lab_shared = shared
        .as_ref()
        .map(|s| lab::LabShared { bus: s.bus.clone() });
    let hub = hub::Hub::start(
        store.clone(),
        clock.clone(),
        hub::HubConfig::from(config),
        shared,
    )
    .await?;
    let hub_limits = hub.limits();
    let lab = lab::LabHub::start(
        store.clone(),
        clock.clone(),
        lab::explainer_from_config(config).await,
        lab::LabConfig {
            explain_timeout: std::time::Duration::from_secs(config.explain_timeout_secs),
            exact: lab::exact::ExactLimits {
                empties: config.exact_empties,
                max_nodes: config.exact_node_budget,
            },
            discs_depth: config.analysis_depth,
            expiry_ms: i64::try_from(config.table_expiry_secs.saturating_mul(1000))
                .unwrap_or(i64::MAX),
            ai: Some(hub.ai_pool()),
            explain_concurrency: usize::from(config.explain_concurrency),
            explain_daily_budget: config.explain_daily_budget,
            shared: lab_shared,
        },
    )
    .await?;
    lab.use_limits(hub.limits());
    let analysis = analysis::Analyses::new(
        store.clone(),
        hub.clone(),
        lab.clone(),
        clock.clone(),
        analysis::AnalysisSettings {
            depth: config.analysis_depth,
            exact: lab::exact::ExactLimits {
                empties: config.exact_empties,
                max_nodes: config.exact_node_budget,
            },
        },
    );
    let fair_play = fair_play::FairPlay::open(store.clone(), clock.clone()).await?;
    hub.use_fair_play(fair_play.clone());
    let accounts = accounts::Accounts::new(store.clone(), hub.clone(), clock.clone());
    accounts.use_fair_play(fair_play.clone());
    let puzzles = puzzles::Puzzles::new(store.clone(), clock.clone());
    // The offline pack is never rated (its answers are public): its stored
    // ratings and rated tries are reset at every start.
    match puzzles.unrate_pack().await {
        Ok(0) => {}
        Ok(changed) => tracing::info!(changed, "the offline pack's puzzle ratings reset"),
        Err(error) => tracing::warn!("cannot reset the offline pack's puzzle ratings: {error}"),
    }
    let tournaments = tournaments::Tournaments::new(
        store.clone(),
        hub.clone(),
        config.tournament_schedule.0.clone(),
    );
    let challenges = challenges::Challenges::new(store.clone(), hub.clone());
    let bots = bots::Bots::new(store.clone(), hub.clone(), challenges.clone());
    let (assets, hash_file) = site_assets(&config.site_root)?;
    // With `hash_files`, Leptos' `HydrationScripts` names `frontend.<hash>.js`
    // and `frontend.<hash>.wasm` from `hash.txt` (an absolute path: Leptos
    // joins it to the executable's folder).
    let leptos = leptos::config::LeptosOptions::builder()
        .output_name("frontend")
        .site_root(config.site_root.display().to_string())
        .site_pkg_dir("pkg")
        .site_addr(config.listen)
        .hash_files(hash_file.is_some())
        .hash_file(std::sync::Arc::from(
            hash_file.unwrap_or_else(|| "hash.txt".into()),
        ))
        .build();
    Ok(AppState(Arc::new(AppParts {
        leptos,
        assets,
        store,
        hub,
        lab,
        analysis,
        accounts,
        fair_play,
        exports: exports::Exports::default(),
        puzzles,
        tournaments,
        challenges,
        bots,
        guard: Arc::new(guard::Guard::new(guard::GuardConfig {
            listen: config.listen,
            public_url: config.public_url.clone(),
            allowed_origins: config.allowed_origins.clone(),
            allowed_hosts: config.allowed_hosts.clone(),
            max_body_bytes: config.max_body_bytes,
            rate_per_ip: config.rate_per_ip,
            rate_burst: config.rate_burst,
            client_ip_header: config.client_ip_header.clone(),
        })),
        limits: hub_limits,
        // Secure (and `__Host-` names) whenever the site is served over
        // HTTPS: asked for, or said by the public URL.
        secure_cookies: config.secure_cookies
            || config
                .public_url
                .as_deref()
                .is_some_and(|url| url.to_ascii_lowercase().starts_with("https://")),
        session_expiry_secs: config.session_expiry_secs,
        ws_ping: std::time::Duration::from_secs(config.ws_ping_secs),
        ws_silent: std::time::Duration::from_secs(config.ws_silent_secs),
        bot_offer_after: (config.bot_offer_secs > 0)
            .then(|| std::time::Duration::from_secs(config.bot_offer_secs)),
        ws_messages_per_sec: config.ws_messages_per_sec,
        readiness: Arc::new(routes::Readiness::default()),
        started: Arc::new(std::time::Instant::now()),
    })))
}

/// Runs the server until SIGINT or SIGTERM.
pub async fn run(config: Config) -> Result<(), StartError> {
    let state = prepare(&config).await?;
    spawn_sweeper(state.clone(), config.sweep_secs);
    spawn_lab_sweeper(state.lab.clone(), config.sweep_secs);
    spawn_presence_checker(state.hub.clone(), config.presence_check_ms);
    spawn_tournament_director(state.tournaments.clone());
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|source| StartError::Listen {
            address: config.listen,
            source,
        })?;
    let address = listener.local_addr().map_err(StartError::Serve)?;
    let deadlines = serve::Deadlines::of(&config);
    if let Some(metrics_address) = config.metrics_listen {
        let metrics_listener = tokio::net::TcpListener::bind(metrics_address)
            .await
            .map_err(|source| StartError::Listen {
                address: metrics_address,
                source,
            })?;
        let metrics_router = routes::metrics_router(state.clone());
        tracing::info!(%metrics_address, "metrics on http://{metrics_address}/metrics");
        tokio::spawn(async move {
            let served = serve::serve(
                metrics_listener,
                metrics_router,
                deadlines,
                std::future::pending(),
            );
            if let Err(error) = served.await {
                tracing::error!("metrics listener failed: {error}");
            }
        });
    }
    book::announce();
    // A plain line on stdout that scripts and tests wait for (every
    // listener is bound by then).
    println!("listening on http://{address}");
    tracing::info!(%address, database = %config.database_label(), "Othello 3D listening on http://{address}");
    let hub = state.hub.clone();
    serve::serve(
        listener,
        routes::router(state),
        deadlines,
        shutdown_signal(),
    )
    .await
    .map_err(StartError::Serve)?;
    hub.leave().await;
    tracing::info!("shut down cleanly");
    Ok(())
}

async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
    tracing::info!("shutdown signal received");
}

/// Deletes idle tables and sessions every `every_secs` seconds, and forgets
/// idle rate-limit keys.
fn spawn_sweeper(state: AppState, every_secs: u64) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(std::time::Duration::from_secs(every_secs.max(1)));
        loop {
            ticker.tick().await;
            if let Err(error) = state.hub.expire_idle().await {
                tracing::error!("sweeping idle tables failed: {error}");
            }
            if let Err(error) = state.hub.expire_sessions(state.session_expiry_secs).await {
                tracing::error!("sweeping idle sessions failed: {error}");
            }
            if let Err(error) = state.accounts.expire(state.session_expiry_secs).await {
                tracing::error!("sweeping unused sign-ins failed: {error}");
            }
            if let Err(error) = state.fair_play.expire().await {
                tracing::error!("sweeping old fair-play links failed: {error}");
            }
            if let Err(error) = state.puzzles.expire().await {
                tracing::error!("sweeping anonymous puzzle tries failed: {error}");
            }
            state.guard.forget_idle();
            state.bots.forget_idle();
            state.forget_what_is_gone();
        }
    });
}

/// Deletes idle lab games every `every_secs` seconds.
fn spawn_lab_sweeper(lab: lab::LabHub, every_secs: u64) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(std::time::Duration::from_secs(every_secs.max(1)));
        loop {
            ticker.tick().await;
            if let Err(error) = lab.expire_idle().await {
                tracing::error!("sweeping idle lab games failed: {error}");
            }
        }
    });
}

/// Ticks the tournaments' director every second: starts, scores, pairs and
/// finishes tournaments (safe on every instance: see `tournaments`).
fn spawn_tournament_director(tournaments: tournaments::Tournaments) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(std::time::Duration::from_secs(1));
        loop {
            ticker.tick().await;
            tournaments.tick().await;
        }
    });
}

/// Checks online players' grace periods every `every_ms` milliseconds.
fn spawn_presence_checker(hub: hub::Hub, every_ms: u64) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(std::time::Duration::from_millis(every_ms.max(10)));
        loop {
            ticker.tick().await;
            hub.check_presence().await;
        }
    });
}
