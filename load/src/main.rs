//! `othello-load`: holds N concurrent online games against a running server,
//! through the same endpoints a browser uses (session cookie, server functions,
//! table WebSockets), checking every reply. Reports move round-trip latency
//! percentiles, throughput, errors, and — given the server's pid — its memory
//! per game.
//!
//! ```text
//! othello-load --url http://127.0.0.1:40085 --games 2000 --moves 20 --pace-ms 2000 --server-pid PID
//! othello-load --arena-players 500 --arena-minutes 10 --pace-ms 1000
//! ```
//!
//! Several `--url`s (repeated or comma-separated) spread the load over several
//! instances sharing one PostgreSQL: game *i*'s first player talks to URL
//! *i* mod *n* and its second player to the next one, so with two or more
//! instances every game has its players (and their sockets) on different
//! instances, and every move crosses the bus.
//!
//! `--shards N` runs the games in N processes of this program (game *i* in
//! process *i* mod *N*), started and merged by this one: each player holds a
//! socket, and one process may not open more files than the system allows
//! (`ulimit -n`), so large runs need several.

mod arena;
mod house;

use app::protocol::{RoundStatus, Side};
use clap::Parser;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use testclient::{Client, Socket};
use tokio::sync::{Barrier, Mutex};

#[derive(Parser, Debug, Clone)]
#[command(
    name = "othello-load",
    about = "Drive concurrent online games against a server"
)]
struct Args {
    /// Base URL of the server; several (repeated or comma-separated) spread
    /// each game's two players over different instances.
    #[arg(long = "url", alias = "target", value_delimiter = ',', num_args = 1.., default_value = "http://127.0.0.1:40085")]
    urls: Vec<String>,
    /// Concurrent games (two players and two sockets each).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Moves per game (a game that ends sooner stops there).
    #[arg(long, default_value_t = 20)]
    moves: usize,
    /// Pause between a game's moves, in milliseconds (0: as fast as possible).
    #[arg(long, default_value_t = 1000)]
    pace_ms: u64,
    /// Server process ids (one per instance), to read their resident memory.
    #[arg(long, value_delimiter = ',')]
    server_pid: Vec<u32>,
    /// The database server's process id (PostgreSQL's postmaster), to read
    /// the CPU it and its backends use while the games play.
    #[arg(long)]
    db_pid: Option<u32>,
    /// Games set up at once while ramping up (per process).
    #[arg(long, default_value_t = 50)]
    setup_concurrency: usize,
    /// Processes to run the games in (each holds its games' sockets).
    #[arg(long, default_value_t = 1)]
    shards: usize,
    /// Instead of games: an arena of this many simulated players, each
    /// signed up with its own address (`src/arena.rs`). `--pace-ms` is
    /// each player's pause before a move.
    #[arg(long, default_value_t = 0)]
    arena_players: usize,
    /// The arena's length in minutes (5 to 180).
    #[arg(long, default_value_t = 10)]
    arena_minutes: u32,
    /// Instead of games: the house-bots bench with this many bot games
    /// (`src/house.rs`): the depth-6 AI's answers idle, then with the
    /// bots playing.
    #[arg(long, default_value_t = 0)]
    house_bots: usize,
    /// Answers of the depth-6 AI measured in each phase of `--house-bots`.
    #[arg(long, default_value_t = 15)]
    samples: usize,
    /// Internal: this process runs shard K of `--shards` for its parent.
    #[arg(long, hide = true)]
    shard: Option<usize>,
}

/// What one process measured.
#[derive(Default, serde::Serialize, serde::Deserialize)]
struct Outcome {
    latencies_us: Vec<u64>,
    failures: Vec<String>,
    pushes: u64,
    moves: u64,
    setup_secs: f64,
    play_secs: f64,
}

#[derive(Default)]
struct Stats {
    latencies_us: Mutex<Vec<u64>>,
    errors: AtomicU64,
    moves: AtomicU64,
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// A new visitor: its first answer (any server function) sets the cookie.
async fn new_player(http: &reqwest::Client, url: &str) -> Result<Client, String> {
    let player = Client::with_http(http.clone(), url);
    // No such table: a 404 that still sets the session cookie.
    let _ = player.get_table(&app::ids::TableId::new("-")).await;
    if player.token().is_none() {
        return Err("no session cookie".into());
    }
    Ok(player)
}

/// Drains a socket in the background, counting the states it receives.
fn drain(socket: Socket, received: Arc<AtomicU64>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(socket.drain(move || {
        received.fetch_add(1, Ordering::Relaxed);
    }))
}

/// Every game waits at `ready` once set up, and at `go` while the server's
/// memory is read; then all play.
struct Gates {
    ready: Barrier,
    go: Barrier,
}

/// One game: set up, wait for every game to be set up, then play.
async fn game(
    index: usize,
    args: Arc<Args>,
    http: reqwest::Client,
    stats: Arc<Stats>,
    gates: Arc<Gates>,
    setup_slots: Arc<tokio::sync::Semaphore>,
    pushes: Arc<AtomicU64>,
) -> Result<Vec<tokio::task::JoinHandle<()>>, String> {
    let n = args.urls.len();
    let setup = async {
        let _slot = setup_slots.acquire().await.map_err(|e| e.to_string())?;
        let a = new_player(&http, &args.urls[index % n]).await?;
        let b = new_player(&http, &args.urls[(index + 1) % n]).await?;
        let table = a
            .create_private(None)
            .await
            .map_err(|e| format!("create_table answered {e}"))?;
        let view_a = a
            .get_table(&table)
            .await
            .map_err(|e| format!("get_table answered {e}"))?;
        // The second player sits by the explicit "Take the free seat".
        let view_b = b
            .take_seat(&table)
            .await
            .map_err(|e| format!("take_seat answered {e}"))?;
        let a_is_black = view_a.you == [Side::Black];
        if view_b.you.len() != 1 {
            return Err("the second player was not seated".into());
        }
        let sockets = vec![
            drain(
                a.socket(&format!("/ws/table/{table}"))
                    .await
                    .map_err(|e| e.to_string())?,
                pushes.clone(),
            ),
            drain(
                b.socket(&format!("/ws/table/{table}"))
                    .await
                    .map_err(|e| e.to_string())?,
                pushes.clone(),
            ),
        ];
        let players = if a_is_black { [a, b] } else { [b, a] };
        Ok::<_, String>((table, players, sockets))
    };
    let outcome = setup.await;
    // Every game set up; then wait while the server's memory is measured.
    gates.ready.wait().await;
    gates.go.wait().await;
    let (table, players, sockets) = outcome?;
    let mut to_move = 0usize; // black opens
    let mut legal: Vec<u8> = vec![19, 26, 37, 44];
    // Spread the games over one pace interval so moves arrive steadily, as
    // they do from people, instead of all at the same instant.
    if args.pace_ms > 0 {
        let offset = args.pace_ms * index as u64 / args.games.max(1) as u64;
        tokio::time::sleep(Duration::from_millis(offset)).await;
    }
    for move_number in 0..args.moves {
        if args.pace_ms > 0 && move_number > 0 {
            tokio::time::sleep(Duration::from_millis(args.pace_ms)).await;
        }
        let Some(&square) = legal.first() else { break };
        let started = Instant::now();
        let answer = players[to_move].play_move(&table, square).await;
        let elapsed = started.elapsed().as_micros() as u64;
        let view = match answer {
            Ok(view) => view,
            Err(refusal) => {
                stats.errors.fetch_add(1, Ordering::Relaxed);
                return Err(format!("play_move answered {refusal}"));
            }
        };
        stats.latencies_us.lock().await.push(elapsed);
        stats.moves.fetch_add(1, Ordering::Relaxed);
        let RoundStatus::Playing { to_move: next } = view.status else {
            break;
        };
        to_move = if next == Side::Black { 0 } else { 1 };
        legal = view.board.legal.clone();
    }
    Ok(sockets)
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)] as f64 / 1000.0
}

/// Runs games `indices`: sets them all up, awaits `between` (the server's
/// memory is read there), then plays them all at once.
async fn run_games<T>(
    args: Arc<Args>,
    indices: Vec<usize>,
    between: impl std::future::Future<Output = T>,
) -> (Outcome, T) {
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(512)
        .timeout(Duration::from_secs(60))
        .build()
        .expect("HTTP client");
    let stats = Arc::new(Stats::default());
    let gates = Arc::new(Gates {
        ready: Barrier::new(indices.len() + 1),
        go: Barrier::new(indices.len() + 1),
    });
    let setup_slots = Arc::new(tokio::sync::Semaphore::new(args.setup_concurrency.max(1)));
    let pushes = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let handles: Vec<_> = indices
        .into_iter()
        .map(|index| {
            tokio::spawn(game(
                index,
                args.clone(),
                http.clone(),
                stats.clone(),
                gates.clone(),
                setup_slots.clone(),
                pushes.clone(),
            ))
        })
        .collect();
    gates.ready.wait().await;
    let setup_secs = started.elapsed().as_secs_f64();
    let measured = between.await;
    // Play starts for every game at once, and the clock with it.
    gates.go.wait().await;
    let play_started = Instant::now();
    let mut failures = Vec::new();
    let mut sockets = Vec::new();
    for handle in handles {
        match handle.await {
            Ok(Ok(s)) => sockets.extend(s),
            Ok(Err(e)) => failures.push(e),
            Err(e) => failures.push(e.to_string()),
        }
    }
    let play_secs = play_started.elapsed().as_secs_f64();
    for socket in sockets {
        socket.abort();
    }
    let latencies_us = stats.latencies_us.lock().await.clone();
    let outcome = Outcome {
        latencies_us,
        failures,
        pushes: pushes.load(Ordering::Relaxed),
        moves: stats.moves.load(Ordering::Relaxed),
        setup_secs,
        play_secs,
    };
    (outcome, measured)
}

fn rss(pids: &[u32]) -> Option<u64> {
    pids.iter().map(|&p| rss_kib(p)).sum()
}

/// Clock ticks a second in `/proc/<pid>/stat` (Linux's `USER_HZ`, 100 on
/// every architecture it runs on here).
const TICKS_PER_SEC: f64 = 100.0;

/// A process's parent id and CPU ticks from `/proc/<pid>/stat`: its own
/// (user + system) and its reaped children's.
fn stat_ticks(pid: u32) -> Option<(u32, u64, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces: the fields start after its `)`.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let field = |n: usize| fields.get(n)?.parse::<u64>().ok();
    // After the name: state, ppid, …; utime, stime, cutime, cstime are the
    // 14th–17th fields of the line, here 11–14.
    let ppid = u32::try_from(field(1)?).ok()?;
    Some((ppid, field(11)? + field(12)?, field(13)? + field(14)?))
}

/// CPU seconds used so far by the processes `pids`.
fn cpu_secs(pids: &[u32]) -> Option<f64> {
    let ticks: Option<u64> = pids.iter().map(|&p| stat_ticks(p).map(|t| t.1)).sum();
    Some(ticks? as f64 / TICKS_PER_SEC)
}

/// CPU seconds used so far by a process tree (a database server and its
/// backends): the root's own and reaped children's ticks plus every live
/// child's own.
fn tree_cpu_secs(root: u32) -> Option<f64> {
    let (_, own, reaped) = stat_ticks(root)?;
    let mut ticks = own + reaped;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if let Some((ppid, own, _)) = stat_ticks(pid) {
            if ppid == root {
                ticks += own;
            }
        }
    }
    Some(ticks as f64 / TICKS_PER_SEC)
}

/// What is read once every game is set up, just before the moves start.
#[derive(Clone, Copy, Default)]
struct Held {
    rss_kib: Option<u64>,
    server_cpu: Option<f64>,
    db_cpu: Option<f64>,
}

fn held_now(args: &Args) -> Held {
    Held {
        rss_kib: rss(&args.server_pid),
        server_cpu: cpu_secs(&args.server_pid),
        db_cpu: args.db_pid.and_then(tree_cpu_secs),
    }
}

/// Runs the shards as child processes: waits until every one has set its
/// games up, reads the memory, lets them all play, merges what they measured.
fn run_shards(args: &Args) -> Result<(Outcome, Held), String> {
    use std::io::{BufRead, Write};
    use std::process::{Command, Stdio};
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut children = Vec::new();
    for k in 0..args.shards {
        let child = Command::new(&exe)
            .args(std::env::args_os().skip(1))
            .args(["--shard", &k.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start shard {k}: {e}"))?;
        children.push(child);
    }
    let mut readers = Vec::new();
    for (k, child) in children.iter_mut().enumerate() {
        let stdout = child.stdout.take().ok_or("no shard stdout")?;
        let mut reader = std::io::BufReader::new(stdout);
        let mut line = String::new();
        reader
            .read_line(&mut line)
            .map_err(|e| format!("shard {k}: {e}"))?;
        if line.trim() != "ready" {
            return Err(format!("shard {k} did not get ready: {line:?}"));
        }
        readers.push(reader);
    }
    std::thread::sleep(Duration::from_millis(500));
    let held = held_now(args);
    for child in &mut children {
        let stdin = child.stdin.as_mut().ok_or("no shard stdin")?;
        stdin
            .write_all(b"go\n")
            .and_then(|()| stdin.flush())
            .map_err(|e| e.to_string())?;
    }
    let mut merged = Outcome::default();
    for (k, mut reader) in readers.into_iter().enumerate() {
        let mut line = String::new();
        reader
            .read_line(&mut line)
            .map_err(|e| format!("shard {k}: {e}"))?;
        let part: Outcome = serde_json::from_str(line.trim())
            .map_err(|e| format!("shard {k} reported nothing readable: {e}"))?;
        merged.latencies_us.extend(part.latencies_us);
        merged.failures.extend(part.failures);
        merged.pushes += part.pushes;
        merged.moves += part.moves;
        merged.setup_secs = merged.setup_secs.max(part.setup_secs);
        merged.play_secs = merged.play_secs.max(part.play_secs);
    }
    for mut child in children {
        let _ = child.wait();
    }
    Ok((merged, held))
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args = Arc::new(Args::parse());
    if args.house_bots > 0 {
        let ok = house::run(house::Bench {
            url: args.urls[0].clone(),
            games: args.house_bots,
            samples: args.samples,
        })
        .await;
        return if ok {
            std::process::ExitCode::SUCCESS
        } else {
            std::process::ExitCode::FAILURE
        };
    }
    if args.arena_players > 0 {
        let ok = arena::run(arena::Arena {
            url: args.urls[0].clone(),
            players: args.arena_players,
            minutes: args.arena_minutes,
            pace_ms: args.pace_ms,
        })
        .await;
        if let Some(kib) = rss(&args.server_pid) {
            println!("server memory    {} MiB at the end", kib / 1024);
        }
        return if ok {
            std::process::ExitCode::SUCCESS
        } else {
            std::process::ExitCode::FAILURE
        };
    }
    let shards = args.shards.max(1);
    if let Some(k) = args.shard {
        // A shard: report readiness, wait for the parent's go, report back.
        let indices = (k..args.games).step_by(shards).collect();
        let (outcome, ()) = run_games(args.clone(), indices, async {
            println!("ready");
            let _ = tokio::task::spawn_blocking(|| {
                let mut line = String::new();
                std::io::stdin().read_line(&mut line)
            })
            .await;
        })
        .await;
        println!(
            "{}",
            serde_json::to_string(&outcome).unwrap_or_else(|_| "{}".into())
        );
        return std::process::ExitCode::SUCCESS;
    }
    let rss_before = rss(&args.server_pid);
    let (outcome, held) = if shards > 1 {
        match tokio::task::block_in_place(|| run_shards(&args)) {
            Ok(result) => result,
            Err(error) => {
                eprintln!("othello-load: {error}");
                return std::process::ExitCode::FAILURE;
            }
        }
    } else {
        let measured = args.clone();
        run_games(args.clone(), (0..args.games).collect(), async move {
            // Every game is set up (two seats, two open sockets).
            tokio::time::sleep(Duration::from_millis(500)).await;
            held_now(&measured)
        })
        .await
    };
    let mut latencies = outcome.latencies_us;
    latencies.sort_unstable();
    let (moves, play_secs, failures) = (outcome.moves, outcome.play_secs, outcome.failures);
    println!("games            {}", args.games);
    println!("instances        {}", args.urls.len());
    println!("load processes   {shards}");
    println!("setup            {:.1} s", outcome.setup_secs);
    println!(
        "moves            {moves} in {play_secs:.1} s ({:.0} moves/s)",
        moves as f64 / play_secs.max(1e-9)
    );
    println!(
        "move round trip  p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(&latencies, 50.0),
        percentile(&latencies, 90.0),
        percentile(&latencies, 99.0),
        percentile(&latencies, 100.0)
    );
    println!("pushes received  {}", outcome.pushes);
    println!("failed games     {}", failures.len());
    // CPU from the first move to the last (set-up excluded), per 1,000
    // durable moves: every acknowledged move is committed.
    let per_thousand = |cpu: f64| cpu / (moves.max(1) as f64) * 1000.0;
    if let (Some(start), Some(end)) = (held.server_cpu, cpu_secs(&args.server_pid)) {
        println!(
            "server CPU       {:.1} s while playing: {:.2} s per 1,000 moves",
            end - start,
            per_thousand(end - start)
        );
    }
    if let (Some(start), Some(end)) = (held.db_cpu, args.db_pid.and_then(tree_cpu_secs)) {
        println!(
            "database CPU     {:.1} s while playing: {:.2} s per 1,000 moves",
            end - start,
            per_thousand(end - start)
        );
    }
    if let (Some(before), Some(held)) = (rss_before, held.rss_kib) {
        println!(
            "server memory    {} MiB before, {} MiB with all games held: {:.1} KiB per game",
            before / 1024,
            held / 1024,
            held.saturating_sub(before) as f64 / args.games as f64
        );
    }
    for failure in failures.iter().take(5) {
        eprintln!("failure: {failure}");
    }
    if failures.is_empty() {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
