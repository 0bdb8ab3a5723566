//! `cargo xtask run`'s house bots: once the server listens, `othello` (the
//! engine's command, which the bridges and their engine are) is built and
//! `deploy/house-bots.sh` sets the bots up and runs their bridges — the same
//! script the deploy kit's unit runs. Everything it starts is stopped with
//! the server. `cargo xtask run --no-house-bots` leaves them out.

use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The house bots' script and what it started, stopped by [`HouseBots::stop`].
pub struct HouseBots {
    stop: Arc<AtomicBool>,
    child: Arc<Mutex<Option<Child>>>,
    thread: std::thread::JoinHandle<()>,
}

/// Where the server listens: `--listen` among its options, else the default.
pub fn listen_address(server_args: &[String]) -> SocketAddr {
    let given = server_args
        .iter()
        .position(|a| a == "--listen")
        .and_then(|i| server_args.get(i + 1))
        .cloned()
        .or_else(|| {
            server_args
                .iter()
                .find_map(|a| a.strip_prefix("--listen=").map(str::to_string))
        })
        .or_else(|| std::env::var("OTHELLO_LISTEN").ok());
    given
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 40085)))
}

impl HouseBots {
    /// Starts, beside the server, what brings the house bots in.
    pub fn start(server: PathBuf, server_args: Vec<String>) -> HouseBots {
        let stop = Arc::new(AtomicBool::new(false));
        let child = Arc::new(Mutex::new(None));
        let (stop_here, child_here) = (stop.clone(), child.clone());
        let thread = std::thread::spawn(move || {
            if let Err(why) = run(&server, &server_args, &stop_here, &child_here) {
                eprintln!("xtask run: the house bots did not start: {why}");
            }
        });
        HouseBots {
            stop,
            child,
            thread,
        }
    }

    /// Stops the bridges (the script stops them on SIGTERM) and the set-up.
    pub fn stop(self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Ok(mut slot) = self.child.lock() {
            if let Some(child) = slot.as_mut() {
                let _ = Command::new("kill")
                    .args(["-TERM", &child.id().to_string()])
                    .status();
                let deadline = Instant::now() + Duration::from_secs(5);
                while Instant::now() < deadline {
                    if matches!(child.try_wait(), Ok(Some(_))) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
                let _ = child.kill();
                let _ = child.wait();
            }
        }
        let _ = self.thread.join();
    }
}

fn run(
    server: &std::path::Path,
    server_args: &[String],
    stop: &AtomicBool,
    slot: &Mutex<Option<Child>>,
) -> Result<(), String> {
    let root = super::root();
    let address = listen_address(server_args);
    // The engine's command, built while the server starts (nothing to do
    // when `cargo xtask test` or an earlier run built it).
    let log = super::target_dir().join("xtask-house-bots.log");
    let log_file = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    let built = Command::new(super::cargo())
        .args(["build", "-p", "engine-cli", "--bin", "othello"])
        .current_dir(&root)
        .stdout(Stdio::null())
        .stderr(log_file.try_clone().map_err(|e| e.to_string())?)
        .status()
        .map_err(|e| format!("cargo: {e}"))?;
    if !built.success() {
        return Err(format!("othello did not build (log: {})", log.display()));
    }
    let deadline = Instant::now() + Duration::from_secs(300);
    while TcpStream::connect_timeout(&address, Duration::from_millis(500)).is_err() {
        if stop.load(Ordering::SeqCst) || Instant::now() > deadline {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(300));
    }
    if stop.load(Ordering::SeqCst) {
        return Ok(());
    }
    let connect = if address.ip().is_unspecified() {
        SocketAddr::from(([127, 0, 0, 1], address.port()))
    } else {
        address
    };
    let othello = super::target_dir().join("debug/othello");
    let child = Command::new("bash")
        .arg(root.join("deploy/house-bots.sh"))
        .arg(format!("http://{connect}"))
        .arg(root.join("data/house-bots"))
        .args(server_args)
        .env("OTHELLO_SERVER_BIN", server)
        .env("OTHELLO_BIN", &othello)
        .current_dir(&root)
        .stdout(log_file.try_clone().map_err(|e| e.to_string())?)
        .stderr(log_file)
        .spawn()
        .map_err(|e| format!("deploy/house-bots.sh: {e}"))?;
    eprintln!(
        "    house bots: bridges starting (deploy/house-bots.sh; log: {})",
        log.display()
    );
    if let Ok(mut slot) = slot.lock() {
        *slot = Some(child);
    }
    Ok(())
}
