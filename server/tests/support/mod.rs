//! The in-process server the integration tests share: the real router on
//! a loopback port, a manual clock, and browsers (test clients) that have
//! loaded the lobby. Each test binary uses what it needs of it.
#![allow(dead_code)]

use server::clock::ManualClock;
use server::config::Config;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use testclient::Client;

pub struct Live {
    pub url: String,
    pub clock: ManualClock,
    pub hub: server::hub::Hub,
    pub store: server::store::Store,
    pub exports: server::exports::Exports,
    pub tournaments: server::tournaments::Tournaments,
    pub task: tokio::task::JoinHandle<()>,
}

impl Live {
    pub async fn start(database: &Path, clock: ManualClock) -> Live {
        Live::start_on(
            server::config::Database::Sqlite(database.to_path_buf()),
            clock,
        )
        .await
    }

    /// As [`Live::start`], on the PostgreSQL database at `url` (one instance).
    pub async fn start_postgres(url: &str, clock: ManualClock) -> Live {
        Live::start_on(server::config::Database::Postgres(url.to_string()), clock).await
    }

    /// As [`Live::start`], with the test's own settings on top.
    pub async fn start_with(
        database: &Path,
        clock: ManualClock,
        configure: impl FnOnce(&mut Config),
    ) -> Live {
        let mut config = Config::for_tests(std::path::PathBuf::new());
        configure(&mut config);
        Live::start_configured(
            config,
            server::config::Database::Sqlite(database.to_path_buf()),
            clock,
        )
        .await
    }

    async fn start_on(database: server::config::Database, clock: ManualClock) -> Live {
        let config = Config::for_tests(std::path::PathBuf::new());
        Live::start_configured(config, database, clock).await
    }

    async fn start_configured(
        mut config: Config,
        database: server::config::Database,
        clock: ManualClock,
    ) -> Live {
        config.database = database;
        // Behind a "proxy": each test browser says its own address, so
        // fair play sees players as different people (`browser`), and a
        // test can put two on one address (`Client::sibling`).
        config.client_ip_header = Some("X-Real-IP".into());
        let state = server::prepare_with_clock(&config, Arc::new(clock.clone()))
            .await
            .expect("server state");
        let hub = state.hub.clone();
        let store = state.store.clone();
        let exports = state.exports.clone();
        let tournaments = state.tournaments.clone();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let app = server::routes::router(state).into_make_service_with_connect_info::<SocketAddr>();
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Live {
            url,
            clock,
            hub,
            store,
            exports,
            tournaments,
            task,
        }
    }

    /// A new browser that has loaded the lobby (it has a cookie), from an
    /// address of its own.
    pub async fn browser(&self) -> Client {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let client =
            Client::new(&self.url).from_address(&format!("198.18.{}.{}", n / 250, n % 250 + 1));
        Self::load_lobby(client).await
    }

    /// A new browser from `address` that has loaded the lobby.
    pub async fn browser_at(&self, address: &str) -> Client {
        Self::load_lobby(Client::new(&self.url).from_address(address)).await
    }

    async fn load_lobby(client: Client) -> Client {
        let (status, _) = client.get("/").await.expect("lobby");
        assert_eq!(status, 200);
        assert!(client.token().is_some(), "the lobby sets a cookie");
        client
    }

    /// Another browser holding `token`.
    pub fn browser_with(&self, token: &str) -> Client {
        Client::with_token(&self.url, token)
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.task.abort();
    }
}
