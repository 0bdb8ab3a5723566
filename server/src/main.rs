//! `othello-server`: parses the configuration and runs the site.

use clap::Parser;
use server::config::Config;

/// mimalloc instead of glibc's malloc: the server allocates many small,
/// short-lived buffers per request and per broadcast (JSON, headers, table
/// views), where mimalloc's per-thread free lists cost less and keep the
/// tail latency lower (docs/BENCHMARKS.md, issue 32).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let config = Config::parse();
    if let Some(server::admin::Command::Admin(action)) = &config.command {
        // An operator's command: its output is for a person, on stdout.
        return match server::admin::run(&config, action).await {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("othello-server admin: {error}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    server::telemetry::init(&config.log);
    match server::run(config).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("othello-server: {error:#}");
            tracing::error!("{error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
