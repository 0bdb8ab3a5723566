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

    /// Extra origins allowed to open WebSockets (comma-separated, e.g.
    /// `https://othello.example`). The site's own origin is always allowed.
    #[arg(long, env = "OTHELLO_ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,

    /// Public base URL of the site (e.g. `https://othello.example`); its origin
    /// is allowed for WebSockets.
    #[arg(long, env = "OTHELLO_PUBLIC_URL")]
    pub public_url: Option<String>,

    /// Mark the session cookie `Secure` (set when served over HTTPS).
    #[arg(long, env = "OTHELLO_SECURE_COOKIES", default_value_t = false)]
    pub secure_cookies: bool,

    /// Threads that run AI searches.
    #[arg(long, env = "OTHELLO_AI_THREADS", default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub ai_threads: u16,

    /// Searches that may wait for an AI thread before new ones are held back.
    #[arg(long, env = "OTHELLO_AI_QUEUE", default_value_t = 256)]
    pub ai_queue: usize,

    /// Seconds without activity after which a table is deleted (24 h).
    #[arg(long, env = "OTHELLO_TABLE_EXPIRY_SECS", default_value_t = 86_400)]
    pub table_expiry_secs: u64,

    /// Seconds a player who left an online table keeps the seat.
    #[arg(long, env = "OTHELLO_GRACE_SECS", default_value_t = 90)]
    pub grace_secs: u64,

    /// Milliseconds between checks of online players' grace periods.
    #[arg(long, env = "OTHELLO_PRESENCE_CHECK_MS", default_value_t = 1000)]
    pub presence_check_ms: u64,

    /// FOR TESTS ONLY: also accept time controls other than the lobby's
    /// presets (e.g. `6s+0`, six seconds), so a browser test can lose on time
    /// quickly. Never set this in production.
    #[arg(long, env = "OTHELLO_TEST_TIME_CONTROLS", default_value_t = false)]
    pub test_time_controls: bool,

    /// Seconds between sweeps for idle tables.
    #[arg(long, env = "OTHELLO_SWEEP_SECS", default_value_t = 60)]
    pub sweep_secs: u64,

    /// Who writes the AI lab's explanations: the built-in offline writer, the
    /// Responses API (key from `OPENAI_API_KEY`, never a flag) or the local
    /// Codex CLI's login.
    #[arg(long, env = "OTHELLO_EXPLAINER", value_enum, default_value_t = ExplainerKind::Offline)]
    pub explainer: ExplainerKind,

    /// Base URL of the Responses API (`/v1/responses` is appended).
    #[arg(
        long,
        env = "OTHELLO_RESPONSES_BASE_URL",
        default_value = "https://api.openai.com"
    )]
    pub responses_base_url: String,

    /// The Codex CLI program (for `--explainer codex`).
    #[arg(long, env = "OTHELLO_CODEX_BIN", default_value = "codex")]
    pub codex_bin: String,

    /// Seconds an explanation may take before it counts as failed.
    #[arg(long, env = "OTHELLO_EXPLAIN_TIMEOUT_SECS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
    pub explain_timeout_secs: u64,
}

/// The AI lab's explanation providers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExplainerKind {
    /// Built-in: written on the server from the position's facts.
    Offline,
    /// The Responses API (GPT-6 Luna), key in `OPENAI_API_KEY`.
    Responses,
    /// The local Codex CLI with the operator's login.
    Codex,
}

impl Config {
    /// A configuration for tests: loopback on a free port, the given database.
    pub fn for_tests(database: PathBuf) -> Self {
        Self {
            listen: "127.0.0.1:0".parse().expect("valid literal address"),
            database,
            site_root: PathBuf::from("site"),
            log: "warn".into(),
            allowed_origins: Vec::new(),
            public_url: None,
            secure_cookies: false,
            ai_threads: 2,
            ai_queue: 256,
            table_expiry_secs: 86_400,
            grace_secs: 90,
            presence_check_ms: 1000,
            test_time_controls: false,
            sweep_secs: 60,
            explainer: ExplainerKind::Offline,
            responses_base_url: "https://api.openai.com".into(),
            codex_bin: "codex".into(),
            explain_timeout_secs: 300,
        }
    }
}

impl Config {
    /// Origins allowed for WebSockets besides the request's own host.
    pub fn origins(&self) -> Vec<String> {
        let mut origins = self.allowed_origins.clone();
        if let Some(url) = &self.public_url {
            // Keep scheme://host[:port], drop any path.
            let trimmed = url.trim_end_matches('/');
            let origin = match trimmed.find("://") {
                Some(i) => match trimmed[i + 3..].find('/') {
                    Some(j) => trimmed[..i + 3 + j].to_string(),
                    None => trimmed.to_string(),
                },
                None => trimmed.to_string(),
            };
            origins.push(origin);
        }
        origins
    }
}
