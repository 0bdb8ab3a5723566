//! Server configuration: every setting is a flag and an environment variable.

use clap::Parser;
use std::net::SocketAddr;
use std::path::PathBuf;

/// Othello 3D web server.
#[derive(Clone, Debug, Parser)]
#[command(name = "othello-server", version, about)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "OTHELLO_LISTEN", default_value = "127.0.0.1:40085")]
    pub listen: SocketAddr,

    /// SQLite database file (created with its folder on first run).
    #[arg(long, env = "OTHELLO_DATABASE", default_value = "data/othello.db")]
    pub database: PathBuf,

    /// Folder with the built site (wasm package, vendored Three.js, CSS).
    #[arg(long, env = "OTHELLO_SITE_ROOT", default_value = "site")]
    pub site_root: PathBuf,

    /// Log filter (tracing `EnvFilter` syntax), e.g. `info` or `server=debug`.
    #[arg(long, env = "OTHELLO_LOG", default_value = "info")]
    pub log: String,
}

impl Config {
    /// A configuration for tests: loopback on a free port, the given database.
    pub fn for_tests(database: PathBuf) -> Self {
        Self {
            listen: "127.0.0.1:0".parse().expect("valid literal address"),
            database,
            site_root: PathBuf::from("site"),
            log: "warn".into(),
        }
    }
}
