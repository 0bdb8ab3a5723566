//! `othello-load --house-bots N`: does a person's AI stay quick while the
//! house bots play? Against a server whose house bots are online (`cargo
//! xtask run`, or the deploy kit's unit), started with `--client-ip-header
//! X-Real-IP` (each player here signs up from an address of its own):
//!
//! 1. idle: a person plays the depth-6 AI; the time from each move to the
//!    AI's answer is recorded (`--samples` answers that were searched: the
//!    opening book's are not counted);
//! 2. busy: N people each challenge an online bot (round robin over `/bots`)
//!    and play it without pause, game after game, while the same person
//!    plays the depth-6 AI again for as many answers;
//! 3. the medians and their ratio are printed (the goal: busy ≤ 1.5× idle).

use app::challenges::{ChallengeStatus, Colour, NewChallenge};
use app::protocol::{RoundStatus, Side, TableId, TableMode, TimeControl};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use testclient::Client;

const PASSWORD: &str = "load test house bots passphrase";

/// The bench's settings.
pub struct Bench {
    pub url: String,
    pub games: usize,
    pub samples: usize,
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

/// The depth-6 AI's answers to `samples` moves, in milliseconds.
async fn ai_answers(player: &Client, samples: usize) -> Result<Vec<f64>, String> {
    let mut times = Vec::with_capacity(samples);
    let mut table: Option<TableId> = None;
    while times.len() < samples {
        let id = match &table {
            Some(id) => id.clone(),
            None => {
                let id = player
                    .create_table(TableMode::VsAi {
                        depth: 6,
                        human: Side::Black,
                    })
                    .await
                    .map_err(|e| format!("vs-AI table: {}", e.message))?;
                table = Some(id.clone());
                id
            }
        };
        let view = player.get_table(&id).await.map_err(|e| e.message)?;
        match view.status {
            RoundStatus::Over { .. } => table = None,
            RoundStatus::Playing {
                to_move: Side::Black,
            } if !view.board.legal.is_empty() => {
                let started = Instant::now();
                player
                    .play_move(&id, view.board.legal[0])
                    .await
                    .map_err(|e| format!("move: {}", e.message))?;
                let searched = loop {
                    let now = player.get_table(&id).await.map_err(|e| e.message)?;
                    let answered = match now.status {
                        RoundStatus::Over { .. } => true,
                        RoundStatus::Playing { to_move } => to_move == Side::Black,
                    };
                    if answered {
                        // A book move is no search: not counted.
                        break now.history.len() > view.history.len() + 1
                            && now.ai_search.is_some_and(|s| !s.book);
                    }
                    if started.elapsed() > Duration::from_secs(60) {
                        return Err("the AI did not answer within 60 s".into());
                    }
                    tokio::time::sleep(Duration::from_millis(5)).await;
                };
                if searched {
                    times.push(started.elapsed().as_secs_f64() * 1000.0);
                }
            }
            _ => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
    Ok(times)
}

/// One person playing the bot `bot` without pause until `stop`; counts
/// each game that started.
async fn keep_playing(
    person: Client,
    bot: String,
    stop: Arc<AtomicBool>,
    started: Arc<AtomicUsize>,
) -> Result<(), String> {
    while !stop.load(Ordering::SeqCst) {
        let id = person
            .challenge(&NewChallenge {
                name: bot.clone(),
                control: TimeControl::PRESETS[0],
                colour: Colour::Black,
                rated: false,
                random_start: false,
                synchro: false,
            })
            .await
            .map_err(|e| format!("challenge {bot}: {}", e.message))?;
        let table = loop {
            let lists = person.my_challenges().await.map_err(|e| e.message)?;
            let mine = lists.outgoing.iter().find(|c| c.id == id);
            match mine.map(|c| (c.status, c.table.clone())) {
                Some((ChallengeStatus::Accepted, Some(table))) => break table,
                Some((ChallengeStatus::Open, _)) => {
                    tokio::time::sleep(Duration::from_millis(200)).await
                }
                other => return Err(format!("{bot} did not accept: {other:?}")),
            }
        };
        started.fetch_add(1, Ordering::SeqCst);
        loop {
            if stop.load(Ordering::SeqCst) {
                let _ = person.resign(&table, None).await;
                return Ok(());
            }
            let view = person.get_table(&table).await.map_err(|e| e.message)?;
            match view.status {
                RoundStatus::Over { .. } => break,
                RoundStatus::Playing {
                    to_move: Side::Black,
                } if !view.board.legal.is_empty() => {
                    let _ = person.play_move(&table, view.board.legal[0]).await;
                }
                _ => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }
    Ok(())
}

/// Runs the bench; prints its figures. False when it could not be run.
pub async fn run(bench: Bench) -> bool {
    match measure(&bench).await {
        Ok(()) => true,
        Err(why) => {
            eprintln!("house-bots bench: {why}");
            false
        }
    }
}

async fn measure(bench: &Bench) -> Result<(), String> {
    let tag = std::process::id() % 10_000;
    let person = |i: usize| {
        Client::new(&bench.url).from_address(&format!("10.88.{}.{}", tag % 250 + 1, i + 1))
    };
    let me = person(0);
    me.sign_up(&format!("ai{tag}x0"), PASSWORD)
        .await
        .map_err(|e| format!("sign up: {}", e.message))?;
    let bots: app::bots::BotsView = me
        .call("bots_page", serde_json::json!({}))
        .await
        .map_err(|e| e.message)?;
    let online: Vec<String> = bots
        .bots
        .iter()
        .filter(|b| b.online)
        .map(|b| b.name.clone())
        .collect();
    if online.is_empty() {
        return Err("no bot is online (start the house bots first)".into());
    }
    let idle = ai_answers(&me, bench.samples).await?;

    let stop = Arc::new(AtomicBool::new(false));
    let started = Arc::new(AtomicUsize::new(0));
    let mut players = Vec::new();
    for i in 0..bench.games {
        let player = person(i + 1);
        player
            .sign_up(&format!("hb{tag}x{}", i + 1), PASSWORD)
            .await
            .map_err(|e| format!("sign up: {}", e.message))?;
        let bot = online[i % online.len()].clone();
        players.push(tokio::spawn(keep_playing(
            player,
            bot,
            stop.clone(),
            started.clone(),
        )));
    }
    let until = Instant::now() + Duration::from_secs(60);
    while started.load(Ordering::SeqCst) < bench.games {
        if Instant::now() > until {
            stop.store(true, Ordering::SeqCst);
            return Err("the bots did not all accept within 60 s".into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let busy = ai_answers(&me, bench.samples).await;
    stop.store(true, Ordering::SeqCst);
    let games = started.load(Ordering::SeqCst);
    for handle in players {
        if let Ok(Err(why)) = handle.await {
            eprintln!("house-bots bench: a bot game: {why}");
        }
    }
    let busy = busy?;
    let (idle_ms, busy_ms) = (median(idle), median(busy));
    println!(
        "depth-6 AI answer, median of {} moves: idle {idle_ms:.0} ms, with {} bot games ({games} started, bots: {}) {busy_ms:.0} ms: {:.2}x (goal <= 1.5x)",
        bench.samples,
        bench.games,
        online.join(", "),
        busy_ms / idle_ms
    );
    Ok(())
}
