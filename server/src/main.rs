//! `othello-server`: parses the configuration and runs the site.

use clap::Parser;
use server::config::Config;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let config = Config::parse();
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
