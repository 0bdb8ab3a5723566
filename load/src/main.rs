//! `othello-load`: holds N concurrent online games against a running server,
//! through the same endpoints a browser uses (session cookie, server functions,
//! table WebSockets), checking every reply. Reports move round-trip latency
//! percentiles, throughput, errors, and — given the server's pid — its memory
//! per game.
//!
//! ```text
//! othello-load --url http://127.0.0.1:40085 --games 2000 --moves 20 --pace-ms 2000 --server-pid PID
//! ```

use clap::Parser;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{Barrier, Mutex};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

#[derive(Parser, Debug, Clone)]
#[command(
    name = "othello-load",
    about = "Drive concurrent online games against a server"
)]
struct Args {
    /// Base URL of the server.
    #[arg(long, default_value = "http://127.0.0.1:40085")]
    url: String,
    /// Concurrent games (two players and two sockets each).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Moves per game (a game that ends sooner stops there).
    #[arg(long, default_value_t = 20)]
    moves: usize,
    /// Pause between a game's moves, in milliseconds (0: as fast as possible).
    #[arg(long, default_value_t = 1000)]
    pace_ms: u64,
    /// Server process id, to read its resident memory.
    #[arg(long)]
    server_pid: Option<u32>,
    /// Games set up at once while ramping up.
    #[arg(long, default_value_t = 50)]
    setup_concurrency: usize,
}

#[derive(Default)]
struct Stats {
    latencies_us: Mutex<Vec<u64>>,
    errors: AtomicU64,
    moves: AtomicU64,
}

struct Player {
    cookie: String,
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

async fn new_player(http: &reqwest::Client, url: &str) -> Result<Player, String> {
    let response = http
        .get(format!("{url}/healthz"))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    drop(response);
    // The session cookie comes with any page under the session layer.
    let response = http
        .post(format!("{url}/api/get_table"))
        .header("content-type", "application/json")
        .header("origin", url)
        .body(r#"{"table":"-"}"#)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let cookie = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("othello_session="))
        .and_then(|v| v.split(';').next())
        .ok_or("no session cookie")?
        .to_string();
    Ok(Player { cookie })
}

async fn call(
    http: &reqwest::Client,
    url: &str,
    player: &Player,
    name: &str,
    body: Value,
) -> Result<(u16, Value), String> {
    let response = http
        .post(format!("{url}/api/{name}"))
        .header("content-type", "application/json")
        .header("origin", url)
        .header("cookie", &player.cookie)
        .body(body.to_string())
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    let text = response.text().await.map_err(|e| e.to_string())?;
    Ok((
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    ))
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn open_socket(url: &str, player: &Player, table: &str) -> Result<Socket, String> {
    let ws = format!("{}/ws/table/{table}", url.replacen("http://", "ws://", 1));
    let mut request = ws.into_client_request().map_err(|e| e.to_string())?;
    let headers = request.headers_mut();
    headers.insert("cookie", player.cookie.parse().map_err(|_| "cookie")?);
    headers.insert("origin", url.parse().map_err(|_| "origin")?);
    let (socket, _) = tokio_tungstenite::connect_async(request)
        .await
        .map_err(|e| e.to_string())?;
    Ok(socket)
}

/// Drains a socket in the background, counting the states it receives.
fn drain(mut socket: Socket, received: Arc<AtomicU64>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        while let Some(Ok(message)) = socket.next().await {
            if message.is_text() {
                received.fetch_add(1, Ordering::Relaxed);
            }
        }
    })
}

/// One game: set up, wait for every game to be set up, then play.
async fn game(
    index: usize,
    args: Arc<Args>,
    http: reqwest::Client,
    stats: Arc<Stats>,
    ready: Arc<Barrier>,
    setup_slots: Arc<tokio::sync::Semaphore>,
    pushes: Arc<AtomicU64>,
) -> Result<Vec<tokio::task::JoinHandle<()>>, String> {
    let url = args.url.as_str();
    let setup = async {
        let _slot = setup_slots.acquire().await.map_err(|e| e.to_string())?;
        let a = new_player(&http, url).await?;
        let b = new_player(&http, url).await?;
        let (status, id) = call(
            &http,
            url,
            &a,
            "create_table",
            json!({ "mode": { "kind": "online", "private": true } }),
        )
        .await?;
        if status != 200 {
            return Err(format!("create_table answered {status}: {id}"));
        }
        let table = id.as_str().ok_or("no table id")?.to_string();
        let (status, view_a) = call(&http, url, &a, "get_table", json!({ "table": table })).await?;
        // The second player sits by the explicit "Take the free seat".
        let (status_b, view_b) =
            call(&http, url, &b, "take_seat", json!({ "table": table })).await?;
        if status != 200 || status_b != 200 {
            return Err("get_table or take_seat failed".into());
        }
        let a_is_black = view_a["you"] == json!(["black"]);
        if view_b["you"].as_array().map(Vec::len) != Some(1) {
            return Err("the second player was not seated".into());
        }
        let sockets = vec![
            drain(open_socket(url, &a, &table).await?, pushes.clone()),
            drain(open_socket(url, &b, &table).await?, pushes.clone()),
        ];
        let players = if a_is_black { [a, b] } else { [b, a] };
        Ok::<_, String>((table, players, sockets))
    };
    let outcome = setup.await;
    ready.wait().await;
    let (table, players, sockets) = outcome?;
    let mut to_move = 0usize; // black opens
    let mut legal: Vec<u64> = vec![19, 26, 37, 44];
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
        let (status, view) = call(
            &http,
            url,
            &players[to_move],
            "play_move",
            json!({ "table": table, "square": square }),
        )
        .await?;
        let elapsed = started.elapsed().as_micros() as u64;
        if status != 200 {
            stats.errors.fetch_add(1, Ordering::Relaxed);
            return Err(format!("play_move answered {status}: {view}"));
        }
        stats.latencies_us.lock().await.push(elapsed);
        stats.moves.fetch_add(1, Ordering::Relaxed);
        if view["status"]["state"] != "playing" {
            break;
        }
        to_move = if view["status"]["to_move"] == "black" {
            0
        } else {
            1
        };
        legal = view["board"]["legal"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default();
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

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args = Arc::new(Args::parse());
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(512)
        .timeout(Duration::from_secs(60))
        .build()
        .expect("HTTP client");
    let rss_before = args.server_pid.and_then(rss_kib);
    let stats = Arc::new(Stats::default());
    let ready = Arc::new(Barrier::new(args.games + 1));
    let setup_slots = Arc::new(tokio::sync::Semaphore::new(args.setup_concurrency.max(1)));
    let pushes = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let handles: Vec<_> = (0..args.games)
        .map(|index| {
            tokio::spawn(game(
                index,
                args.clone(),
                http.clone(),
                stats.clone(),
                ready.clone(),
                setup_slots.clone(),
                pushes.clone(),
            ))
        })
        .collect();
    ready.wait().await;
    let setup_secs = started.elapsed().as_secs_f64();
    // Every game is set up (two seats, two open sockets): measure memory now.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_held = args.server_pid.and_then(rss_kib);
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
    let mut latencies = stats.latencies_us.lock().await.clone();
    latencies.sort_unstable();
    let moves = stats.moves.load(Ordering::Relaxed);
    println!("games            {}", args.games);
    println!("setup            {setup_secs:.1} s");
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
    println!("pushes received  {}", pushes.load(Ordering::Relaxed));
    println!("failed games     {}", failures.len());
    if let (Some(before), Some(held)) = (rss_before, rss_held) {
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
