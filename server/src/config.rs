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

    /// Extra origins allowed to send commands and open WebSockets
    /// (comma-separated, e.g. `https://othello.example`); their hosts are
    /// allowed in `Host`. The site's own origin is always allowed.
    #[arg(long, env = "OTHELLO_ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,

    /// Public base URL of the site (e.g. `https://othello.example`); its origin
    /// is allowed for commands and WebSockets, its host in `Host`.
    #[arg(long, env = "OTHELLO_PUBLIC_URL")]
    pub public_url: Option<String>,

    /// Extra names allowed in the `Host` header (comma-separated, e.g. a LAN
    /// address `192.168.1.20`). Localhost names, the listen address and the
    /// hosts of `--public-url` / `--allowed-origins` are always allowed.
    #[arg(long, env = "OTHELLO_ALLOWED_HOSTS", value_delimiter = ',')]
    pub allowed_hosts: Vec<String>,

    /// Largest request body accepted (bytes); larger ones get 413.
    #[arg(long, env = "OTHELLO_MAX_BODY_BYTES", default_value_t = 65_536)]
    pub max_body_bytes: usize,

    /// Requests per second allowed from one IP address (0 = unlimited); past
    /// the burst, requests get 429.
    #[arg(long, env = "OTHELLO_RATE_PER_IP", default_value_t = 50)]
    pub rate_per_ip: u32,

    /// Requests one IP address may make at once before the rate applies.
    #[arg(long, env = "OTHELLO_RATE_BURST", default_value_t = 300)]
    pub rate_burst: u32,

    /// Header naming the client's address when behind a reverse proxy (e.g.
    /// `X-Real-IP`); without it the peer address counts. Set it only behind a
    /// proxy that overwrites the header.
    #[arg(long, env = "OTHELLO_CLIENT_IP_HEADER")]
    pub client_ip_header: Option<String>,

    /// Live tables one browser session may own at once.
    #[arg(long, env = "OTHELLO_MAX_TABLES_PER_SESSION", default_value_t = 20)]
    pub max_tables_per_session: usize,

    /// Live tables created from one IP address that may exist at once.
    #[arg(long, env = "OTHELLO_MAX_TABLES_PER_IP", default_value_t = 200)]
    pub max_tables_per_ip: usize,

    /// WebSockets one browser session may hold open at once.
    #[arg(long, env = "OTHELLO_MAX_SOCKETS_PER_SESSION", default_value_t = 16)]
    pub max_sockets_per_session: usize,

    /// WebSockets one IP address may hold open at once.
    #[arg(long, env = "OTHELLO_MAX_SOCKETS_PER_IP", default_value_t = 128)]
    pub max_sockets_per_ip: usize,

    /// Seconds between the server's pings on each WebSocket.
    #[arg(long, env = "OTHELLO_WS_PING_SECS", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
    pub ws_ping_secs: u64,

    /// Seconds a WebSocket may stay silent (no message, no pong) before the
    /// server closes it, so a half-open connection's grace period starts.
    #[arg(long, env = "OTHELLO_WS_SILENT_SECS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
    pub ws_silent_secs: u64,

    /// Seconds a stored session may stay unused before it is deleted (30 days).
    #[arg(long, env = "OTHELLO_SESSION_EXPIRY_SECS", default_value_t = 2_592_000)]
    pub session_expiry_secs: u64,

    /// Serve `/metrics` on this address instead of the site's (e.g.
    /// `127.0.0.1:9100`); the site then answers 404 for `/metrics`.
    #[arg(long, env = "OTHELLO_METRICS_LISTEN")]
    pub metrics_listen: Option<SocketAddr>,

    /// Mark the session cookie `Secure` (set when served over HTTPS).
    #[arg(long, env = "OTHELLO_SECURE_COOKIES", default_value_t = false)]
    pub secure_cookies: bool,

    /// Threads that run AI searches.
    #[arg(long, env = "OTHELLO_AI_THREADS", default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub ai_threads: u16,

    /// Searches that may wait for an AI thread before new ones are refused
    /// (0: every AI search is refused, a test of the "AI is busy" path).
    #[arg(long, env = "OTHELLO_AI_QUEUE", default_value_t = 256)]
    pub ai_queue: usize,

    /// Searches one session may have waiting for an AI thread (the queue
    /// serves sessions round robin); more are refused.
    #[arg(long, env = "OTHELLO_AI_QUEUE_PER_SESSION", default_value_t = 32)]
    pub ai_queue_per_session: usize,

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

    /// Who writes the AI lab's explanations: `auto` (the Codex CLI if logged
    /// in, else the Responses API if `OPENAI_API_KEY` is set, else offline),
    /// the built-in offline writer, the Responses API (key from
    /// `OPENAI_API_KEY`, never a flag) or the local Codex CLI's login.
    #[arg(long, env = "OTHELLO_EXPLAINER", value_enum, default_value_t = ExplainerKind::Auto)]
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

    // ---- Lab teaching and game analysis (issue 16).
    /// Exact endgame values (lab fact sheets, game analysis) from this many
    /// empty squares down; 0 turns the exact solver off.
    #[arg(long, env = "OTHELLO_EXACT_EMPTIES", default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=30))]
    pub exact_empties: u32,

    /// Positions the exact solver may visit for one position (all its
    /// moves); past it the values are marked as estimates.
    #[arg(long, env = "OTHELLO_EXACT_NODE_BUDGET", default_value_t = 200_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub exact_node_budget: u64,

    /// Search depth of game analysis in the midgame (placed discs).
    #[arg(long, env = "OTHELLO_ANALYSIS_DEPTH", default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=12))]
    pub analysis_depth: u32,
    /// Paid explanations (Responses, Codex) written at once, server-wide.
    #[arg(long, env = "OTHELLO_EXPLAIN_CONCURRENCY", default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub explain_concurrency: u16,

    /// Paid explanations per UTC day, server-wide; past it, explanations fail
    /// with a message until midnight UTC.
    #[arg(long, env = "OTHELLO_EXPLAIN_DAILY_BUDGET", default_value_t = 500)]
    pub explain_daily_budget: u32,
}

/// The AI lab's explanation providers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExplainerKind {
    /// The Codex CLI if logged in, else the Responses API if a key is set,
    /// else offline; the lab page and `/healthz` say which and why.
    Auto,
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
            allowed_hosts: Vec::new(),
            max_body_bytes: 65_536,
            rate_per_ip: 50,
            rate_burst: 300,
            client_ip_header: None,
            max_tables_per_session: 20,
            max_tables_per_ip: 200,
            max_sockets_per_session: 16,
            max_sockets_per_ip: 128,
            session_expiry_secs: 2_592_000,
            metrics_listen: None,
            ws_ping_secs: 20,
            ws_silent_secs: 60,
            secure_cookies: false,
            ai_threads: 2,
            ai_queue: 256,
            ai_queue_per_session: 32,
            table_expiry_secs: 86_400,
            grace_secs: 90,
            presence_check_ms: 1000,
            test_time_controls: false,
            sweep_secs: 60,
            explainer: ExplainerKind::Offline,
            responses_base_url: "https://api.openai.com".into(),
            codex_bin: "codex".into(),
            explain_timeout_secs: 300,
            exact_empties: 20,
            exact_node_budget: 200_000_000,
            analysis_depth: 6,
            explain_concurrency: 2,
            explain_daily_budget: 500,
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
