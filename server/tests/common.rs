//! Shared helpers: start the real server binary on a free port.

#![allow(dead_code)]

use clap::Parser;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct Server {
    pub child: Child,
    pub url: String,
}

impl Server {
    /// Starts `othello-server` on 127.0.0.1:0 with the given database.
    pub fn start(database: &Path, extra: &[&str]) -> Server {
        Server::start_with_env(database, extra, &[])
    }

    /// As [`Server::start`], with extra environment variables. Model API keys
    /// from the caller's environment are never passed on.
    pub fn start_with_env(database: &Path, extra: &[&str], env: &[(&str, &str)]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_othello-server"));
        command
            .args(["--listen", "127.0.0.1:0", "--database"])
            .arg(database)
            .args(extra)
            .env("OTHELLO_LOG", "warn")
            .env("NO_COLOR", "1")
            .env_remove("OPENAI_API_KEY")
            .env_remove("CODEX_API_KEY")
            // Tests choose their explainer; `auto` must not find a real Codex login.
            .env("OTHELLO_EXPLAINER", "offline")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        for (name, value) in env {
            // An empty value removes the variable (e.g. the default explainer).
            if value.is_empty() {
                command.env_remove(name);
            } else {
                command.env(name, value);
            }
        }
        let mut child = command.spawn().expect("server starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut reader = BufReader::new(stdout);
        let mut line = String::new();
        let url = loop {
            line.clear();
            let read = reader.read_line(&mut line).expect("read stdout");
            assert!(read > 0, "server exited before listening");
            if let Some(rest) = line.trim().strip_prefix("listening on ") {
                break rest.to_string();
            }
        };
        // Keep draining stdout so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sink = String::new();
            while reader.read_line(&mut sink).map(|n| n > 0).unwrap_or(false) {
                sink.clear();
            }
        });
        Server { child, url }
    }

    /// As [`Server::start`], with `/metrics` on its own free port (the only
    /// place it is served); returns the server and that port's base URL.
    pub fn start_with_metrics(database: &Path, extra: &[&str]) -> (Server, String) {
        let address = free_address();
        let mut args = vec!["--metrics-listen", address.as_str()];
        args.extend_from_slice(extra);
        (Server::start(database, &args), format!("http://{address}"))
    }

    /// SIGKILL, no chance to clean up.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The site in this process: the router the binary serves, on a free
/// loopback port, from the configuration the same arguments give the binary
/// (the offline explainer and `warn` logs unless `extra` says otherwise).
/// Cheaper than [`Server::start`]; a test that kills or restarts the server
/// starts the binary instead.
pub struct InProcess {
    pub url: String,
    pub state: server::AppState,
    task: tokio::task::JoinHandle<()>,
}

impl InProcess {
    pub async fn start(database: &Path, extra: &[&str]) -> InProcess {
        let database = database.display().to_string();
        let mut args = vec!["othello-server", "--database", database.as_str()];
        for (flag, value) in [("--explainer", "offline"), ("--log", "warn")] {
            if !extra.contains(&flag) {
                args.extend([flag, value]);
            }
        }
        args.extend_from_slice(extra);
        let config = server::config::Config::try_parse_from(args).expect("test arguments");
        InProcess::serve(&config, std::sync::Arc::new(server::clock::SystemClock)).await
    }

    /// Serves `config` (its `listen` ignored: a free loopback port) on
    /// `clock` (tests that move time give a `ManualClock`).
    pub async fn serve(
        config: &server::config::Config,
        clock: std::sync::Arc<dyn server::clock::Clock>,
    ) -> InProcess {
        let state = server::prepare_with_clock(config, clock)
            .await
            .expect("server state");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let router = server::routes::router(state.clone());
        let deadlines = server::serve::Deadlines::of(config);
        let task = tokio::spawn(async move {
            let _ = server::serve::serve(listener, router, deadlines, std::future::pending()).await;
        });
        InProcess { url, state, task }
    }
}

impl Drop for InProcess {
    fn drop(&mut self) {
        self.task.abort();
    }
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .timeout(Duration::from_secs(30))
        .build()
        .expect("client")
}

/// A loopback address with a port that was free a moment ago.
pub fn free_address() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("free port");
    listener.local_addr().expect("address").to_string()
}

/// The Prometheus text of a server's metrics listener (`metrics_url`, from
/// [`Server::start_with_metrics`]).
pub async fn metrics(metrics_url: &str) -> String {
    let response = reqwest::get(format!("{metrics_url}/metrics"))
        .await
        .expect("metrics answer on their own address");
    assert_eq!(response.status().as_u16(), 200);
    response.text().await.expect("metrics text")
}

/// A visitor who loaded the lobby (and so holds a session cookie).
pub async fn visitor(url: &str) -> testclient::Client {
    let player = testclient::Client::new(url);
    let (status, _) = player.get("/").await.expect("lobby");
    assert_eq!(status, 200);
    assert!(
        player.token().is_some(),
        "the lobby sets the session cookie"
    );
    player
}
