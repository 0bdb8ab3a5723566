//! The Othello 3D server: configuration, the SQLite store, the HTTP routes
//! (Leptos pages, static files, health) and start-up/shutdown.

pub mod config;
pub mod routes;
pub mod store;
pub mod telemetry;

use config::Config;
use std::sync::Arc;
use store::Store;

/// What every request handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub leptos: leptos::config::LeptosOptions,
    pub store: Store,
    pub started: Arc<std::time::Instant>,
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
    #[error("cannot listen on {address}: {source}")]
    Listen {
        address: std::net::SocketAddr,
        source: std::io::Error,
    },
    #[error("server error: {0}")]
    Serve(std::io::Error),
}

/// Opens the store and builds the shared state.
pub async fn prepare(config: &Config) -> Result<AppState, StartError> {
    let store = Store::open(&config.database).await?;
    let leptos = leptos::config::LeptosOptions::builder()
        .output_name("frontend")
        .site_root(config.site_root.display().to_string())
        .site_pkg_dir("pkg")
        .site_addr(config.listen)
        .build();
    Ok(AppState {
        leptos,
        store,
        started: Arc::new(std::time::Instant::now()),
    })
}

/// Runs the server until SIGINT or SIGTERM.
pub async fn run(config: Config) -> Result<(), StartError> {
    let state = prepare(&config).await?;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|source| StartError::Listen {
            address: config.listen,
            source,
        })?;
    let address = listener.local_addr().map_err(StartError::Serve)?;
    // A plain line on stdout that scripts and tests wait for.
    println!("listening on http://{address}");
    tracing::info!(%address, database = %config.database.display(), "Othello 3D listening on http://{address}");
    axum::serve(listener, routes::router(state))
        .with_graceful_shutdown(shutdown_signal())
        .await
        .map_err(StartError::Serve)?;
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
