//! `--arena-players N`: an arena of N simulated players, each with an
//! account (its own address, as N people would have), playing as a browser
//! does: join, the tournament's socket for the live page (their next game
//! comes from it), the table's socket and `play_move` for each game, a
//! random legal move after `--pace-ms`.
//!
//! Measured: the pairing delay (from the moment a player is free — joined,
//! or their game over as their table's socket showed it — to the moment
//! their tournament socket shows their next table), the move round trip,
//! every failure. Checked at the end: every game a player saw end is in the
//! standings (none lost, none counted twice), and the standings equal the
//! arena's rule (2 a win, 1 a draw, double after two wins in a row) applied
//! by this tool to the results the players saw.

use app::protocol::{RoundStatus, TableId};
use app::tournaments::{Kind, NewTournament, StandingLine, Status, TournamentView};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};
use testclient::Client;
use tokio::sync::{mpsc, Mutex, Semaphore};

const PASSWORD: &str = "load arena password long enough";

/// What one arena run is asked to do.
pub struct Arena {
    pub url: String,
    pub players: usize,
    pub minutes: u32,
    pub pace_ms: u64,
}

/// What the players saw.
#[derive(Default)]
struct Seen {
    /// Each player's results in the order played: halves (2, 1, 0).
    results: HashMap<String, Vec<u8>>,
    /// Every table seen to end.
    tables: HashSet<app::protocol::TableId>,
    pairing_ms: Vec<u64>,
    /// The longest waits: (ms, seconds into the arena, player).
    longest: Vec<(u64, u64, String)>,
    move_us: Vec<u64>,
    failures: Vec<String>,
    /// Each player's own line on their last page, as the server ranked them.
    lines: HashMap<String, StandingLine>,
    /// Tournament sockets opened again after the server closed one.
    reconnects: u64,
}

/// A small xorshift: which legal move each simulated player picks.
struct Dice(u64);

impl Dice {
    fn pick(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((p / 100.0) * (sorted.len() - 1) as f64).round() as usize]
}

/// Runs the arena; false when anything failed or did not add up.
pub async fn run(arena: Arena) -> bool {
    let tag = format!(
        "{:x}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() % 0xffff)
            .unwrap_or(0)
    );
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(512)
        .timeout(Duration::from_secs(60))
        .build()
        .expect("HTTP client");
    // Sign everyone up, a few at a time (a password hash each).
    let started = Instant::now();
    let slots = Arc::new(Semaphore::new(8));
    let signups: Vec<_> = (0..arena.players)
        .map(|i| {
            let (http, url, slots) = (http.clone(), arena.url.clone(), slots.clone());
            let name = format!("ld{tag}p{i}");
            tokio::spawn(async move {
                let _slot = slots.acquire().await.map_err(|e| e.to_string())?;
                let address = format!("10.77.{}.{}", i / 250 + 1, i % 250 + 1);
                let client = Client::with_http(http, &url).from_address(&address);
                client
                    .sign_up(&name, PASSWORD)
                    .await
                    .map_err(|e| format!("sign up {name}: {e}"))?;
                Ok::<_, String>((name, client))
            })
        })
        .collect();
    let mut players = Vec::new();
    for signup in signups {
        match signup.await {
            Ok(Ok(player)) => players.push(player),
            Ok(Err(e)) => {
                eprintln!("othello-load: {e}");
                return false;
            }
            Err(e) => {
                eprintln!("othello-load: {e}");
                return false;
            }
        }
    }
    println!(
        "players          {} signed up in {:.1} s",
        players.len(),
        started.elapsed().as_secs_f64()
    );
    let new = NewTournament {
        name: format!("Load arena {tag}"),
        kind: Kind::Arena,
        minutes: arena.minutes,
        control: app::protocol::TimeControl::PRESETS[0],
        rated: false,
        private: false,
        rounds: 1,
        starts_in_minutes: 0,
        bots: false,
    };
    let id: String = match players[0]
        .1
        .call("create_tournament", serde_json::json!({ "new": new }))
        .await
    {
        Ok(id) => id,
        Err(e) => {
            eprintln!("othello-load: create_tournament answered {e}");
            return false;
        }
    };
    let seen = Arc::new(Mutex::new(Seen::default()));
    let began = Instant::now();
    let tasks: Vec<_> = players
        .iter()
        .enumerate()
        .map(|(i, (name, client))| {
            let (name, client, id, seen) = (name.clone(), client.clone(), id.clone(), seen.clone());
            let pace = Duration::from_millis(arena.pace_ms);
            tokio::spawn(async move {
                if let Err(e) = player(&name, &client, &id, pace, i as u64, &seen).await {
                    seen.lock().await.failures.push(format!("{name}: {e}"));
                }
            })
        })
        .collect();
    for task in tasks {
        if let Err(e) = task.await {
            seen.lock().await.failures.push(e.to_string());
        }
    }
    let played_secs = began.elapsed().as_secs_f64();
    let final_page: TournamentView = match players[0]
        .1
        .call("tournament", serde_json::json!({ "id": id }))
        .await
    {
        Ok(page) => page,
        Err(e) => {
            eprintln!("othello-load: the final page: {e}");
            return false;
        }
    };
    let mut seen = seen.lock().await;
    let mismatches = check(&final_page, &seen);
    seen.pairing_ms.sort_unstable();
    seen.move_us.sort_unstable();
    println!(
        "arena            {} min, {played_secs:.0} s until every player was done",
        arena.minutes
    );
    println!(
        "games            {} (each seen to end by both players)",
        seen.tables.len()
    );
    println!("moves            {}", seen.move_us.len());
    println!(
        "pairing delay    p50 {} ms, p90 {} ms, p99 {} ms, max {} ms ({} pairings)",
        percentile(&seen.pairing_ms, 50.0),
        percentile(&seen.pairing_ms, 90.0),
        percentile(&seen.pairing_ms, 99.0),
        percentile(&seen.pairing_ms, 100.0),
        seen.pairing_ms.len()
    );
    println!(
        "move round trip  p50 {:.1} ms, p99 {:.1} ms",
        percentile(&seen.move_us, 50.0) as f64 / 1000.0,
        percentile(&seen.move_us, 99.0) as f64 / 1000.0
    );
    for (ms, at, name) in &seen.longest {
        println!("longest wait     {ms} ms, {at} s after joining ({name})");
    }
    println!("socket reopened  {}", seen.reconnects);
    println!("failures         {}", seen.failures.len());
    println!(
        "standings        {}",
        if mismatches.is_empty() {
            "equal to the recomputation".to_string()
        } else {
            format!("{} mismatches", mismatches.len())
        }
    );
    for failure in seen.failures.iter().take(5) {
        eprintln!("failure: {failure}");
    }
    for mismatch in mismatches.iter().take(10) {
        eprintln!("mismatch: {mismatch}");
    }
    seen.failures.is_empty()
        && mismatches.is_empty()
        && final_page.summary.status == Status::Finished
}

/// The arena's rule applied to what the players saw, against the page.
fn check(page: &TournamentView, seen: &Seen) -> Vec<String> {
    let mut mismatches = Vec::new();
    let lines = &seen.lines;
    let mut games = 0;
    for (name, results) in &seen.results {
        let mut points = 0;
        for (k, &halves) in results.iter().enumerate() {
            let streak = k >= 2 && results[k - 2..k].iter().all(|r| *r == 2);
            points += u32::from(halves) * if streak { 2 } else { 1 };
        }
        let wins = results.iter().filter(|r| **r == 2).count() as u32;
        games += results.len();
        match lines.get(name) {
            None => mismatches.push(format!("{name} is not in the standings")),
            Some(line) => {
                let stored = (line.points, line.discs, line.games);
                let expected = (points, wins, results.len() as u32);
                if stored != expected {
                    mismatches.push(format!(
                        "{name}: (points, wins, games) {stored:?} on the page, {expected:?} recomputed"
                    ));
                }
            }
        }
    }
    let counted: u32 = lines.values().map(|l| l.games).sum();
    if lines.len() != page.summary.players as usize {
        mismatches.push(format!(
            "{} players' own lines, {} players in the arena",
            lines.len(),
            page.summary.players
        ));
    }
    if counted as usize != games || games != 2 * seen.tables.len() {
        mismatches.push(format!(
            "games: {counted} counted in the standings, {games} seen by the players, {} tables",
            seen.tables.len()
        ));
    }
    mismatches
}

/// One simulated player, from joining to the arena's end.
async fn player(
    name: &str,
    client: &Client,
    id: &str,
    pace: Duration,
    seed: u64,
    seen: &Mutex<Seen>,
) -> Result<(), String> {
    let mut dice = Dice(0x9e37_79b9_7f4a_7c15 ^ (seed + 1).wrapping_mul(0x2545_f491_4f6c_dd1d));
    let (mut socket, _first) = client
        .tournament_socket(id)
        .await
        .map_err(|e| format!("tournament socket: {e}"))?;
    client
        .join_tournament(id)
        .await
        .map_err(|e| format!("join: {e}"))?;
    let began = Instant::now();
    let mut free_since = began;
    // The socket read in the background: each new table, when it showed.
    let (tables, mut next_table) = mpsc::unbounded_channel::<(app::protocol::TableId, Instant)>();
    let (over_tx, over) = tokio::sync::watch::channel(None::<Option<StandingLine>>);
    let reader = {
        let (client, id) = (client.clone(), id.to_string());
        tokio::spawn(async move {
            let mut known = HashSet::new();
            let mut reconnects = 0u64;
            loop {
                let page = match socket.next_tournament().await {
                    Ok(page) => page,
                    // Closed (or quiet past the client's wait): open it
                    // again, as the browser does.
                    Err(_) => loop {
                        reconnects += 1;
                        tokio::time::sleep(Duration::from_millis(500)).await;
                        if let Ok((again, page)) = client.tournament_socket(&id).await {
                            socket = again;
                            break page;
                        }
                    },
                };
                if let Some(table) = page.my_table {
                    if known.insert(table.clone()) && tables.send((table, Instant::now())).is_err()
                    {
                        return reconnects;
                    }
                }
                if page.summary.status == Status::Finished {
                    let _ = over_tx.send(Some(page.my_line));
                    return reconnects;
                }
            }
        })
    };
    let mut results = Vec::new();
    loop {
        let next = tokio::select! {
            next = next_table.recv() => next,
            _ = async { let mut over = over.clone(); let _ = over.wait_for(Option::is_some).await; } => None,
        };
        let Some((table, shown)) = next else { break };
        let waited = shown.saturating_duration_since(free_since).as_millis() as u64;
        {
            let mut seen = seen.lock().await;
            seen.pairing_ms.push(waited);
            let at = shown.saturating_duration_since(began).as_secs();
            seen.longest.push((waited, at, name.to_string()));
            seen.longest.sort_unstable_by(|a, b| b.cmp(a));
            seen.longest.truncate(5);
        }
        let (halves, ended) =
            play(client, &TableId::new(table.clone()), pace, &mut dice, seen).await?;
        free_since = ended;
        results.push(halves);
        seen.lock().await.tables.insert(table);
    }
    let reconnects = reader.await.unwrap_or(0);
    let line = over.borrow().clone().flatten();
    let mut seen = seen.lock().await;
    seen.reconnects += reconnects;
    seen.results.insert(name.to_string(), results);
    match line {
        Some(line) => {
            seen.lines.insert(name.to_string(), line);
            Ok(())
        }
        None => Err("the arena's last page had no line of mine".into()),
    }
}

/// Plays one game to its end; the player's halves (2, 1, 0) and when the
/// end was seen.
async fn play(
    client: &Client,
    table: &TableId,
    pace: Duration,
    dice: &mut Dice,
    seen: &Mutex<Seen>,
) -> Result<(u8, Instant), String> {
    let (mut socket, mut view) = client
        .connect(table)
        .await
        .map_err(|e| format!("table socket: {e}"))?;
    let me = testclient::my_side(&view).ok_or("not seated at my tournament table")?;
    loop {
        match view.status {
            RoundStatus::Over { winner, .. } => {
                let ended = Instant::now();
                tokio::spawn(socket.close());
                let halves = match winner {
                    None => 1,
                    Some(side) if side == me => 2,
                    Some(_) => 0,
                };
                return Ok((halves, ended));
            }
            RoundStatus::Playing { to_move } if to_move == me && !view.board.legal.is_empty() => {
                tokio::time::sleep(pace).await;
                let square = view.board.legal[dice.pick(view.board.legal.len())];
                let sent = Instant::now();
                view = client
                    .play_move(table, square)
                    .await
                    .map_err(|e| format!("play_move: {e}"))?;
                seen.lock()
                    .await
                    .move_us
                    .push(sent.elapsed().as_micros() as u64);
            }
            RoundStatus::Playing { .. } => {
                // A newer state: longer history, or the end. (The socket
                // may still hold states older than a move's own answer.)
                let played = view.history.len();
                view = socket
                    .wait_state(|v| {
                        v.history.len() > played || matches!(v.status, RoundStatus::Over { .. })
                    })
                    .await
                    .map_err(|e| format!("waiting for the opponent: {e}"))?;
            }
        }
    }
}
