//! Server configuration: every setting is a flag and an environment variable.

use clap::Parser;
use std::net::SocketAddr;
use std::path::PathBuf;

/// The default of every setting, in one place: the flags' defaults, the
/// test configuration ([`Config::for_tests`]) and the hub's
/// ([`crate::hub::HubConfig::default`]) all read them.
pub mod defaults {
    use super::ExplainerKind;

    pub const LISTEN: &str = "127.0.0.1:40085";
    pub const DATABASE: &str = "data/othello.db";
    pub const INSTANCE_TIMEOUT_MS: u64 = 15_000;
    pub const TEST_AI_DELAY_MS: u64 = 0;
    pub const SITE_ROOT: &str = "site";
    pub const LOG: &str = "info";
    pub const MAX_BODY_BYTES: usize = 65_536;
    pub const RATE_PER_IP: u32 = 50;
    pub const RATE_BURST: u32 = 300;
    pub const MAX_TABLES_PER_SESSION: usize = 20;
    pub const MAX_TABLES_PER_IP: usize = 300;
    pub const MAX_LAB_GAMES_PER_SESSION: usize = 40;
    pub const MAX_LAB_GAMES_PER_IP: usize = 120;
    pub const MAX_ANALYSES_PER_SESSION: usize = 2;
    pub const MAX_ANALYSES_PER_IP: usize = 3;
    pub const MAX_SOCKETS_PER_SESSION: usize = 16;
    pub const MAX_SOCKETS_PER_IP: usize = 128;
    pub const WS_PING_SECS: u64 = 20;
    pub const WS_SILENT_SECS: u64 = 60;
    pub const WS_MESSAGES_PER_SEC: u32 = 5;
    pub const HEADER_READ_TIMEOUT_SECS: u64 = 20;
    pub const REQUEST_TIMEOUT_SECS: u64 = 60;
    pub const SESSION_EXPIRY_SECS: u64 = 2_592_000;
    pub const SECURE_COOKIES: bool = false;
    pub const AI_THREADS: u16 = 2;
    pub const AI_HEAVY_THREADS: u16 = 1;
    pub const AI_QUEUE: usize = 256;
    pub const AI_QUEUE_PER_SESSION: usize = 32;
    pub const AI_QUEUE_PER_IP: usize = 64;
    pub const TABLE_EXPIRY_SECS: u64 = 86_400;
    pub const GRACE_SECS: u64 = 90;
    /// How long a side of a timed online game has for its first move (its
    /// clock starts there), and in a tournament's game.
    pub const FIRST_MOVE_SECS: u64 = 30;
    pub const FIRST_MOVE_SECS_EVENT: u64 = 20;
    /// How long a person waits in quick match before a bot is offered.
    pub const BOT_OFFER_SECS: u64 = 20;
    pub const PRESENCE_CHECK_MS: u64 = 1000;
    pub const TEST_TIME_CONTROLS: bool = false;
    /// The recurring tournaments (`--tournament-schedule`): a daily 5+0
    /// Swiss of five rounds at 19:00 UTC.
    pub const TOURNAMENT_SCHEDULE: &str = "daily@19:00/5+0/5,hourly@:00/3+2/arena45";
    pub const SWEEP_SECS: u64 = 60;
    pub const EXPLAINER: ExplainerKind = ExplainerKind::Auto;
    pub const RESPONSES_BASE_URL: &str = "https://api.openai.com";
    pub const CODEX_BIN: &str = "codex";
    pub const EXPLAIN_TIMEOUT_SECS: u64 = 300;
    pub const EXACT_EMPTIES: u32 = 20;
    pub const EXACT_NODE_BUDGET: u64 = 200_000_000;
    pub const ANALYSIS_DEPTH: u32 = 10;
    pub const EXPLAIN_CONCURRENCY: u16 = 2;
    pub const EXPLAIN_DAILY_BUDGET: u32 = 500;
    pub const EXPLAIN_DAILY_PER_IP: u32 = 120;
}

/// The server's subcommands.
#[derive(Clone, Debug, clap::Subcommand)]
pub enum Command {
    /// An operator's action on the database (the site may be running).
    #[command(subcommand)]
    Admin(Action),
}

/// What an operator can do.
#[derive(Clone, Debug, clap::Subcommand)]
pub enum Action {
    /// Lists reports, oldest first (open ones unless --all).
    Reports {
        #[arg(long)]
        all: bool,
    },
    /// Closes an account: it can no longer sign in, its name stays reserved.
    Close {
        name: String,
        /// Why (kept in the operator's log).
        #[arg(long)]
        reason: String,
    },
    /// Marks an account as a rating abuser (or, with --undo, clears it).
    MarkAbuser {
        name: String,
        #[arg(long)]
        undo: bool,
    },
    /// Prints the operator's log.
    Log,
    /// Lists live accounts whose names look alike once folded (names
    /// created before the folded name was unique; none can be made now).
    NameCollisions,
    /// Sets up the house bots: each one's account (no password), the bot
    /// flag, and a token in `<dir>/<name>.token` unless that file holds a
    /// live one already; prints one line per bot: name, deepest search,
    /// token file, what was done.
    HouseBots {
        #[arg(long)]
        dir: std::path::PathBuf,
    },
}

/// Othello 3D web server.
#[derive(Clone, Debug, Parser)]
#[command(name = "othello-server", version, about)]
pub struct Config {
    /// An operator's command instead of serving (`othello-server admin …`).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Address to listen on.
    #[arg(long, env = "OTHELLO_LISTEN", default_value = defaults::LISTEN)]
    pub listen: SocketAddr,

    /// SQLite database file (created with its folder on first run), or a
    /// PostgreSQL URL (`postgres://user:password@host/db`) shared by several
    /// instances.
    #[arg(long, env = "OTHELLO_DATABASE", default_value = defaults::DATABASE)]
    pub database: Database,

    /// With a PostgreSQL `--database`: milliseconds without a heartbeat
    /// after which an instance counts as dead (its sockets stop counting,
    /// its timers and AI moves pass to the others).
    #[arg(long, env = "OTHELLO_INSTANCE_TIMEOUT_MS", default_value_t = defaults::INSTANCE_TIMEOUT_MS)]
    pub instance_timeout_ms: u64,

    /// Folder with the built site (wasm package, vendored Three.js, CSS).
    #[arg(long, env = "OTHELLO_SITE_ROOT", default_value = defaults::SITE_ROOT)]
    pub site_root: PathBuf,

    /// Log filter (tracing `EnvFilter` syntax), e.g. `info` or `server=debug`.
    #[arg(long, env = "OTHELLO_LOG", default_value = defaults::LOG)]
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
    #[arg(long, env = "OTHELLO_MAX_BODY_BYTES", default_value_t = defaults::MAX_BODY_BYTES)]
    pub max_body_bytes: usize,

    /// Requests per second allowed from one IP address (0 = unlimited); past
    /// the burst, requests get 429.
    #[arg(long, env = "OTHELLO_RATE_PER_IP", default_value_t = defaults::RATE_PER_IP)]
    pub rate_per_ip: u32,

    /// Requests one IP address may make at once before the rate applies.
    #[arg(long, env = "OTHELLO_RATE_BURST", default_value_t = defaults::RATE_BURST)]
    pub rate_burst: u32,

    /// Header naming the client's address when behind a reverse proxy (e.g.
    /// `X-Real-IP`); without it the peer address counts. Set it only behind a
    /// proxy that overwrites the header.
    #[arg(long, env = "OTHELLO_CLIENT_IP_HEADER")]
    pub client_ip_header: Option<String>,

    /// Live tables one browser session may own at once.
    #[arg(long, env = "OTHELLO_MAX_TABLES_PER_SESSION", default_value_t = defaults::MAX_TABLES_PER_SESSION)]
    pub max_tables_per_session: usize,

    /// Live tables created from one IP address that may exist at once.
    #[arg(long, env = "OTHELLO_MAX_TABLES_PER_IP", default_value_t = defaults::MAX_TABLES_PER_IP)]
    pub max_tables_per_ip: usize,

    /// Live lab games (created or copied) one browser session may own.
    #[arg(long, env = "OTHELLO_MAX_LAB_GAMES_PER_SESSION", default_value_t = defaults::MAX_LAB_GAMES_PER_SESSION)]
    pub max_lab_games_per_session: usize,

    /// Live lab games created or copied from one address (IPv6: its /64).
    #[arg(long, env = "OTHELLO_MAX_LAB_GAMES_PER_IP", default_value_t = defaults::MAX_LAB_GAMES_PER_IP)]
    pub max_lab_games_per_ip: usize,

    /// Game analyses one browser session may have running at once.
    #[arg(long, env = "OTHELLO_MAX_ANALYSES_PER_SESSION", default_value_t = defaults::MAX_ANALYSES_PER_SESSION)]
    pub max_analyses_per_session: usize,

    /// Game analyses running at once started from one address.
    #[arg(long, env = "OTHELLO_MAX_ANALYSES_PER_IP", default_value_t = defaults::MAX_ANALYSES_PER_IP)]
    pub max_analyses_per_ip: usize,

    /// WebSockets one browser session may hold open at once.
    #[arg(long, env = "OTHELLO_MAX_SOCKETS_PER_SESSION", default_value_t = defaults::MAX_SOCKETS_PER_SESSION)]
    pub max_sockets_per_session: usize,

    /// WebSockets one IP address may hold open at once.
    #[arg(long, env = "OTHELLO_MAX_SOCKETS_PER_IP", default_value_t = defaults::MAX_SOCKETS_PER_IP)]
    pub max_sockets_per_ip: usize,

    /// Seconds between the server's pings on each WebSocket.
    #[arg(long, env = "OTHELLO_WS_PING_SECS", default_value_t = defaults::WS_PING_SECS, value_parser = clap::value_parser!(u64).range(1..))]
    pub ws_ping_secs: u64,

    /// Seconds a WebSocket may stay silent (no message, no pong) before the
    /// server closes it, so a half-open connection's grace period starts.
    #[arg(long, env = "OTHELLO_WS_SILENT_SECS", default_value_t = defaults::WS_SILENT_SECS, value_parser = clap::value_parser!(u64).range(1..))]
    pub ws_silent_secs: u64,

    /// Messages per second a client may send on one WebSocket (a burst of
    /// ten times as many is allowed); past that the socket gets an error and
    /// is closed. The pages send none: the keep-alive is the server's ping.
    #[arg(long, env = "OTHELLO_WS_MESSAGES_PER_SEC", default_value_t = defaults::WS_MESSAGES_PER_SEC, value_parser = clap::value_parser!(u32).range(1..))]
    pub ws_messages_per_sec: u32,

    /// Seconds a client has to send a request's head; a slower (or idle
    /// keep-alive) connection is closed.
    #[arg(long, env = "OTHELLO_HEADER_READ_TIMEOUT_SECS", default_value_t = defaults::HEADER_READ_TIMEOUT_SECS, value_parser = clap::value_parser!(u64).range(1..))]
    pub header_read_timeout_secs: u64,

    /// Seconds a request may take, its body included; past it, 408.
    #[arg(long, env = "OTHELLO_REQUEST_TIMEOUT_SECS", default_value_t = defaults::REQUEST_TIMEOUT_SECS, value_parser = clap::value_parser!(u64).range(1..))]
    pub request_timeout_secs: u64,

    /// Seconds a stored session may stay unused before it is deleted (30 days).
    #[arg(long, env = "OTHELLO_SESSION_EXPIRY_SECS", default_value_t = defaults::SESSION_EXPIRY_SECS)]
    pub session_expiry_secs: u64,

    /// Serve `/metrics` on this address instead of the site's (e.g.
    /// `127.0.0.1:9100`); the site then answers 404 for `/metrics`.
    #[arg(long, env = "OTHELLO_METRICS_LISTEN")]
    pub metrics_listen: Option<SocketAddr>,

    /// Mark the session cookie `Secure` (set when served over HTTPS).
    #[arg(long, env = "OTHELLO_SECURE_COOKIES", default_value_t = defaults::SECURE_COOKIES)]
    pub secure_cookies: bool,

    /// Threads that run AI searches.
    #[arg(long, env = "OTHELLO_AI_THREADS", default_value_t = defaults::AI_THREADS, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub ai_threads: u16,

    /// Threads for the lab's searches and exact solves and game analysis:
    /// their own lane, so they never hold a thread a player's reply waits for.
    #[arg(long, env = "OTHELLO_AI_HEAVY_THREADS", default_value_t = defaults::AI_HEAVY_THREADS, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub ai_heavy_threads: u16,

    /// Searches that may wait for or run on an AI lane's threads before new
    /// ones are refused with 429 (0: every AI search is refused with 503, a
    /// test of the "AI is busy" path).
    #[arg(long, env = "OTHELLO_AI_QUEUE", default_value_t = defaults::AI_QUEUE)]
    pub ai_queue: usize,

    /// Searches one session may have waiting for an AI thread (the queue
    /// serves sessions round robin); more are refused.
    #[arg(long, env = "OTHELLO_AI_QUEUE_PER_SESSION", default_value_t = defaults::AI_QUEUE_PER_SESSION)]
    pub ai_queue_per_session: usize,

    /// Searches one address may have waiting or running in each AI lane
    /// (play, heavy); more are refused with 429 and a retry time.
    #[arg(long, env = "OTHELLO_AI_QUEUE_PER_IP", default_value_t = defaults::AI_QUEUE_PER_IP)]
    pub ai_queue_per_ip: usize,

    /// Seconds without activity after which a table is deleted (24 h).
    #[arg(long, env = "OTHELLO_TABLE_EXPIRY_SECS", default_value_t = defaults::TABLE_EXPIRY_SECS)]
    pub table_expiry_secs: u64,

    /// Seconds a player who left an online table keeps the seat.
    #[arg(long, env = "OTHELLO_GRACE_SECS", default_value_t = defaults::GRACE_SECS)]
    pub grace_secs: u64,

    /// Seconds a side of a timed online game has for its first move (its
    /// clock starts at it); missed, the game is aborted.
    #[arg(long, env = "OTHELLO_FIRST_MOVE_SECS", default_value_t = defaults::FIRST_MOVE_SECS)]
    pub first_move_secs: u64,

    /// Seconds a side of a tournament's game has for its first move; missed,
    /// it loses by forfeit.
    #[arg(
        long,
        env = "OTHELLO_FIRST_MOVE_SECS_EVENT",
        default_value_t = defaults::FIRST_MOVE_SECS_EVENT
    )]
    pub first_move_secs_event: u64,

    /// Seconds a signed-in person waits alone in quick match before the
    /// nearest-rated bot online is offered instead (0: never offered).
    #[arg(long, env = "OTHELLO_BOT_OFFER_SECS", default_value_t = defaults::BOT_OFFER_SECS)]
    pub bot_offer_secs: u64,

    /// Milliseconds between checks of online players' grace periods.
    #[arg(long, env = "OTHELLO_PRESENCE_CHECK_MS", default_value_t = defaults::PRESENCE_CHECK_MS)]
    pub presence_check_ms: u64,

    /// FOR TESTS ONLY: also accept time controls other than the lobby's
    /// presets (e.g. `6s+0`, six seconds), so a browser test can lose on time
    /// quickly. Never set this in production.
    #[arg(long, env = "OTHELLO_TEST_TIME_CONTROLS", default_value_t = defaults::TEST_TIME_CONTROLS)]
    pub test_time_controls: bool,

    /// Recurring tournaments the server opens itself, comma-separated
    /// (UTC): `daily@HH:MM/<m+s>/<rounds>` or `hourly@:MM/<m+s>/<rounds>`
    /// for a Swiss, `arena<minutes>` in place of the rounds for an arena,
    /// e.g. `daily@19:00/5+0/5,hourly@:00/3+2/arena45` (the default);
    /// `none` for none.
    #[arg(long, env = "OTHELLO_TOURNAMENT_SCHEDULE", default_value = defaults::TOURNAMENT_SCHEDULE, value_parser = crate::schedule::Scheduled::parse_all)]
    pub tournament_schedule: crate::schedule::Schedule,

    /// FOR TESTS ONLY: milliseconds the AI waits before each search (so a
    /// test can kill an instance with an AI move pending). Never set this in
    /// production.
    #[arg(long, env = "OTHELLO_TEST_AI_DELAY_MS", default_value_t = defaults::TEST_AI_DELAY_MS)]
    pub test_ai_delay_ms: u64,

    /// Seconds between sweeps for idle tables.
    #[arg(long, env = "OTHELLO_SWEEP_SECS", default_value_t = defaults::SWEEP_SECS)]
    pub sweep_secs: u64,

    /// Who writes the AI lab's explanations: `auto` (the Codex CLI if logged
    /// in, else the Responses API if `OPENAI_API_KEY` is set, else offline),
    /// the built-in offline writer, the Responses API (key from
    /// `OPENAI_API_KEY`, never a flag) or the local Codex CLI's login.
    #[arg(long, env = "OTHELLO_EXPLAINER", value_enum, default_value_t = defaults::EXPLAINER)]
    pub explainer: ExplainerKind,

    /// Base URL of the Responses API (`/v1/responses` is appended).
    #[arg(long, env = "OTHELLO_RESPONSES_BASE_URL", default_value = defaults::RESPONSES_BASE_URL)]
    pub responses_base_url: String,

    /// The Codex CLI program (for `--explainer codex`).
    #[arg(long, env = "OTHELLO_CODEX_BIN", default_value = defaults::CODEX_BIN)]
    pub codex_bin: String,

    /// Seconds an explanation may take before it counts as failed.
    #[arg(long, env = "OTHELLO_EXPLAIN_TIMEOUT_SECS", default_value_t = defaults::EXPLAIN_TIMEOUT_SECS, value_parser = clap::value_parser!(u64).range(1..))]
    pub explain_timeout_secs: u64,

    // ---- Lab teaching and game analysis (issue 16).
    /// Exact endgame values (lab fact sheets, game analysis) from this many
    /// empty squares down; 0 turns the exact solver off.
    #[arg(long, env = "OTHELLO_EXACT_EMPTIES", default_value_t = defaults::EXACT_EMPTIES, value_parser = clap::value_parser!(u32).range(0..=30))]
    pub exact_empties: u32,

    /// Positions the exact solver may visit for one position (all its
    /// moves); past it the values are marked as estimates.
    #[arg(long, env = "OTHELLO_EXACT_NODE_BUDGET", default_value_t = defaults::EXACT_NODE_BUDGET, value_parser = clap::value_parser!(u64).range(1..))]
    pub exact_node_budget: u64,

    /// Depth of game analysis's strong search in the midgame (plies, on the
    /// trained pattern evaluation).
    #[arg(long, env = "OTHELLO_ANALYSIS_DEPTH", default_value_t = defaults::ANALYSIS_DEPTH, value_parser = clap::value_parser!(u32).range(1..=12))]
    pub analysis_depth: u32,
    /// Paid explanations (Responses, Codex) written at once, server-wide.
    #[arg(long, env = "OTHELLO_EXPLAIN_CONCURRENCY", default_value_t = defaults::EXPLAIN_CONCURRENCY, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub explain_concurrency: u16,

    /// Paid explanations per UTC day, server-wide; past it, explanations fail
    /// with a message until midnight UTC.
    #[arg(long, env = "OTHELLO_EXPLAIN_DAILY_BUDGET", default_value_t = defaults::EXPLAIN_DAILY_BUDGET)]
    pub explain_daily_budget: u32,

    /// Paid explanations one address (IPv6: its /64) may start per UTC day;
    /// past it, its lab steps are refused with 429 until midnight UTC.
    #[arg(long, env = "OTHELLO_EXPLAIN_DAILY_PER_IP", default_value_t = defaults::EXPLAIN_DAILY_PER_IP)]
    pub explain_daily_per_ip: u32,
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

/// Where the data lives (`--database`): a SQLite file, or a PostgreSQL
/// database several instances share.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file (created with its folder on first run).
    Sqlite(PathBuf),
    /// A `postgres://` or `postgresql://` URL.
    Postgres(String),
}

impl std::str::FromStr for Database {
    type Err = String;

    /// A `postgres://`/`postgresql://` URL, or a file path; anything else
    /// that looks like a URL (another scheme) or nothing at all is refused
    /// with a clear message rather than becoming a strangely named file.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        if crate::store::pg::is_postgres_url(text) {
            return Ok(Database::Postgres(text.to_string()));
        }
        if text.is_empty() {
            return Err("an empty database: give a SQLite file path or a postgres:// URL".into());
        }
        if let Some(rest) = text.strip_prefix("sqlite:") {
            // sqlx's own spelling (`sqlite:path` or `sqlite://path`): the path.
            let path = rest.trim_start_matches("//");
            if path.is_empty() {
                return Err("`sqlite:` without a file path".into());
            }
            return Ok(Database::Sqlite(PathBuf::from(path)));
        }
        if let Some((scheme, _)) = text.split_once("://") {
            return Err(format!(
                "`{scheme}://` is not a database this server speaks: give a SQLite file path \
                 (e.g. data/othello.db) or a postgres:// URL"
            ));
        }
        Ok(Database::Sqlite(PathBuf::from(text)))
    }
}

impl Config {
    /// The PostgreSQL URL, when `--database` names one.
    pub fn postgres_url(&self) -> Option<&str> {
        match &self.database {
            Database::Postgres(url) => Some(url),
            Database::Sqlite(_) => None,
        }
    }

    /// `--database` as logs show it (a URL without its password).
    pub fn database_label(&self) -> String {
        match &self.database {
            Database::Postgres(url) => crate::store::pg::redact(url),
            Database::Sqlite(path) => path.display().to_string(),
        }
    }
    /// A configuration for tests: every default, except loopback on a free
    /// port, the given database, `warn` logs and the offline explainer.
    pub fn for_tests(database: PathBuf) -> Self {
        Self {
            command: None,
            listen: "127.0.0.1:0".parse().expect("valid literal address"),
            database: Database::Sqlite(database),
            instance_timeout_ms: defaults::INSTANCE_TIMEOUT_MS,
            test_ai_delay_ms: defaults::TEST_AI_DELAY_MS,
            site_root: defaults::SITE_ROOT.into(),
            log: "warn".into(),
            allowed_origins: Vec::new(),
            public_url: None,
            allowed_hosts: Vec::new(),
            max_body_bytes: defaults::MAX_BODY_BYTES,
            rate_per_ip: defaults::RATE_PER_IP,
            rate_burst: defaults::RATE_BURST,
            client_ip_header: None,
            max_tables_per_session: defaults::MAX_TABLES_PER_SESSION,
            max_tables_per_ip: defaults::MAX_TABLES_PER_IP,
            max_lab_games_per_session: defaults::MAX_LAB_GAMES_PER_SESSION,
            max_lab_games_per_ip: defaults::MAX_LAB_GAMES_PER_IP,
            max_analyses_per_session: defaults::MAX_ANALYSES_PER_SESSION,
            max_analyses_per_ip: defaults::MAX_ANALYSES_PER_IP,
            max_sockets_per_session: defaults::MAX_SOCKETS_PER_SESSION,
            max_sockets_per_ip: defaults::MAX_SOCKETS_PER_IP,
            session_expiry_secs: defaults::SESSION_EXPIRY_SECS,
            metrics_listen: None,
            ws_ping_secs: defaults::WS_PING_SECS,
            ws_silent_secs: defaults::WS_SILENT_SECS,
            ws_messages_per_sec: defaults::WS_MESSAGES_PER_SEC,
            header_read_timeout_secs: defaults::HEADER_READ_TIMEOUT_SECS,
            request_timeout_secs: defaults::REQUEST_TIMEOUT_SECS,
            secure_cookies: defaults::SECURE_COOKIES,
            ai_threads: defaults::AI_THREADS,
            ai_heavy_threads: defaults::AI_HEAVY_THREADS,
            ai_queue: defaults::AI_QUEUE,
            ai_queue_per_session: defaults::AI_QUEUE_PER_SESSION,
            ai_queue_per_ip: defaults::AI_QUEUE_PER_IP,
            table_expiry_secs: defaults::TABLE_EXPIRY_SECS,
            grace_secs: defaults::GRACE_SECS,
            first_move_secs: defaults::FIRST_MOVE_SECS,
            first_move_secs_event: defaults::FIRST_MOVE_SECS_EVENT,
            bot_offer_secs: defaults::BOT_OFFER_SECS,
            presence_check_ms: defaults::PRESENCE_CHECK_MS,
            test_time_controls: defaults::TEST_TIME_CONTROLS,
            tournament_schedule: Default::default(),
            sweep_secs: defaults::SWEEP_SECS,
            explainer: ExplainerKind::Offline,
            responses_base_url: defaults::RESPONSES_BASE_URL.into(),
            codex_bin: defaults::CODEX_BIN.into(),
            explain_timeout_secs: defaults::EXPLAIN_TIMEOUT_SECS,
            exact_empties: defaults::EXACT_EMPTIES,
            exact_node_budget: defaults::EXACT_NODE_BUDGET,
            analysis_depth: defaults::ANALYSIS_DEPTH,
            explain_concurrency: defaults::EXPLAIN_CONCURRENCY,
            explain_daily_budget: defaults::EXPLAIN_DAILY_BUDGET,
            explain_daily_per_ip: defaults::EXPLAIN_DAILY_PER_IP,
        }
    }
}

/// The origin (`scheme://host[:port]`) of a URL, lower-case, or `None` when it
/// is not a web URL.
pub fn origin_of(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url.trim()).ok()?;
    match parsed.scheme() {
        "http" | "https" => {}
        _ => return None,
    }
    parsed.host_str()?;
    Some(parsed.origin().ascii_serialization())
}

impl Config {
    /// Origins allowed for WebSockets besides the request's own host.
    pub fn origins(&self) -> Vec<String> {
        let mut origins = self.allowed_origins.clone();
        if let Some(url) = &self.public_url {
            // Keep scheme://host[:port], drop any path (the `url` crate's
            // origin); a value that is not a web URL is kept as written.
            origins.push(origin_of(url).unwrap_or_else(|| url.trim_end_matches('/').to_string()));
        }
        origins
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flags_the_tests_and_the_hub_share_one_set_of_defaults() {
        let flags = Config::parse_from(["othello-server"]);
        let tests = Config::for_tests(PathBuf::from("t.db"));
        assert_eq!(flags.listen.to_string(), defaults::LISTEN);
        assert_eq!(flags.max_body_bytes, tests.max_body_bytes);
        assert_eq!(flags.session_expiry_secs, tests.session_expiry_secs);
        assert_eq!(flags.exact_node_budget, tests.exact_node_budget);
        assert_eq!(flags.explainer, ExplainerKind::Auto);
        assert_eq!(tests.explainer, ExplainerKind::Offline);
        assert_eq!(
            flags.database,
            Database::Sqlite(PathBuf::from(defaults::DATABASE))
        );
    }

    #[test]
    fn the_database_is_a_file_or_a_postgres_url_and_nothing_else() {
        let parse = |text: &str| text.parse::<Database>();
        assert_eq!(
            parse("data/othello.db"),
            Ok(Database::Sqlite("data/othello.db".into()))
        );
        assert_eq!(
            parse("sqlite://data/x.db"),
            Ok(Database::Sqlite("data/x.db".into()))
        );
        assert_eq!(
            parse("postgres://u:p@127.0.0.1/othello"),
            Ok(Database::Postgres(
                "postgres://u:p@127.0.0.1/othello".into()
            ))
        );
        assert!(matches!(
            parse("postgresql://h/db"),
            Ok(Database::Postgres(_))
        ));
        let mysql = parse("mysql://h/db").unwrap_err();
        assert!(
            mysql.contains("`mysql://`") && mysql.contains("postgres://"),
            "{mysql}"
        );
        assert!(parse("").is_err() && parse("  ").is_err() && parse("sqlite:").is_err());
        // The flag refuses it at start-up, with the message.
        let refused = Config::try_parse_from(["othello-server", "--database", "http://x/y"])
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("not a database this server speaks"),
            "{refused}"
        );
        let pg = Config::parse_from(["othello-server", "--database", "postgres://a:secret@h/db"]);
        assert_eq!(pg.postgres_url(), Some("postgres://a:secret@h/db"));
        assert!(!pg.database_label().contains("secret"));
    }
}
