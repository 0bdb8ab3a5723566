//! Logging through `tracing`.

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber; `filter` uses `EnvFilter` syntax.
pub fn init(filter: &str) {
    let filter = EnvFilter::try_new(filter).unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).try_init();
}
