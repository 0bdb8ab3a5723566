//! `othello bot`: a bridge between the site's Bot API (docs/PROTOCOL.md,
//! Bot API) and an engine that speaks NBoard (this crate's `othello nboard`,
//! Edax's `edax -nboard`, NTest), as lichess-bot is for UCI engines.
//!
//! - The event stream (`GET /api/stream/event`) tells of challenges, which
//!   are accepted when they match the filters (speeds, rated or casual) and
//!   declined otherwise, and of games, each played on a thread of its own.
//! - A game's stream (`GET /api/bot/game/stream/{id}`) gives its full state
//!   first, then a state at every change. When it is the bot's turn the
//!   engine is handed the game (`set game <GGF>`, `set depth N`, `go`) and
//!   its `=== <move>` answer is played (`POST …/move/{square}`).
//! - Time: the depth follows the bot's clock (deeper with more time left
//!   per move to come); the engine's answer is awaited only until shortly
//!   before the clock would run out, after which the first legal move is
//!   played and the engine restarted (NBoard cannot interrupt a search).
//! - A dropped stream (the site restarting, the network) is opened again
//!   with a back-off (0.5 s doubling to 30 s); a game goes on from the full
//!   state its stream sends first, and the event stream tells again of the
//!   games in progress, so nothing is lost across a restart.
//! - If the engine dies (or cannot start), the bot resigns the game.
//!
//! HTTP is blocking (`ureq`): a few streams and a request per move.

use serde_json::Value;
use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Which challenges are accepted by rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rated {
    Rated,
    Casual,
    Any,
}

/// The bridge's settings (`othello bot …`).
#[derive(Clone, Debug)]
pub struct Config {
    /// The site, e.g. `https://othello.example` (no trailing slash).
    pub server: String,
    pub token: String,
    /// The engine's program and its arguments.
    pub engine: Vec<String>,
    /// Speeds accepted (`blitz`, `rapid`); empty: all.
    pub accept: Vec<String>,
    pub rated: Rated,
    /// The deepest search asked of the engine, whatever the clock allows
    /// (a house bot's strength); `None`: as deep as the clock allows.
    pub max_depth: Option<u32>,
}

mod player;

pub use player::ggf;
use player::{budget, depth_for, Engine};

pub const USAGE: &str = "othello bot --server URL --token FILE --engine \"CMD ARGS\" \
[--accept blitz,rapid] [--rated|--casual|--any] [--max-depth D]";

/// Parses `othello bot`'s arguments (the token is read from its file).
pub fn parse(args: &[String]) -> Result<Config, String> {
    let (mut server, mut token_file, mut engine) = (None, None, None);
    let mut accept = Vec::new();
    let mut rated = Rated::Any;
    let mut max_depth = None;
    let mut rest = args;
    while let Some((flag, tail)) = rest.split_first() {
        let mut value = || -> Result<String, String> {
            let (v, after) = tail
                .split_first()
                .ok_or_else(|| format!("bot: {flag} needs a value"))?;
            rest = after;
            Ok(v.clone())
        };
        match flag.as_str() {
            "--server" => server = Some(value()?),
            "--token" => token_file = Some(value()?),
            "--engine" => engine = Some(value()?),
            "--accept" => {
                accept = value()?
                    .split(',')
                    .map(|s| s.trim().to_ascii_lowercase())
                    .filter(|s| !s.is_empty())
                    .collect();
                if let Some(bad) = accept
                    .iter()
                    .find(|s| !["blitz", "rapid"].contains(&s.as_str()))
                {
                    return Err(format!("bot: --accept takes blitz and rapid, got '{bad}'"));
                }
            }
            "--max-depth" => {
                let text = value()?;
                max_depth = Some(
                    text.parse::<u32>()
                        .ok()
                        .filter(|d| (1..=60).contains(d))
                        .ok_or_else(|| {
                            format!("bot: --max-depth takes a depth from 1 to 60, got '{text}'")
                        })?,
                );
            }
            "--rated" | "--casual" | "--any" => {
                rated = match flag.as_str() {
                    "--rated" => Rated::Rated,
                    "--casual" => Rated::Casual,
                    _ => Rated::Any,
                };
                rest = tail;
            }
            other => return Err(format!("bot: unexpected '{other}'")),
        }
    }
    let server = server.ok_or("bot: --server is required")?;
    let server = server.trim_end_matches('/').to_string();
    if !(server.starts_with("http://") || server.starts_with("https://")) {
        return Err(format!(
            "bot: --server must be an http(s) URL, got '{server}'"
        ));
    }
    let token_file = token_file.ok_or("bot: --token FILE is required")?;
    let token = std::fs::read_to_string(&token_file)
        .map_err(|e| format!("bot: cannot read the token file {token_file}: {e}"))?
        .trim()
        .to_string();
    if token.is_empty() {
        return Err(format!("bot: the token file {token_file} is empty"));
    }
    let engine: Vec<String> = engine
        .ok_or("bot: --engine is required")?
        .split_whitespace()
        .map(str::to_string)
        .collect();
    if engine.is_empty() {
        return Err("bot: --engine names no program".into());
    }
    Ok(Config {
        server,
        token,
        engine,
        accept,
        rated,
        max_depth,
    })
}

/// A back-off between reconnections: 0.5 s doubling to 30 s.
struct Backoff(Duration);

impl Backoff {
    const FIRST: Duration = Duration::from_millis(500);
    const MOST: Duration = Duration::from_secs(30);

    fn new() -> Backoff {
        Backoff(Self::FIRST)
    }

    fn wait(&mut self) {
        std::thread::sleep(self.0);
        self.0 = (self.0 * 2).min(Self::MOST);
    }

    fn reset(&mut self) {
        self.0 = Self::FIRST;
    }
}

/// Why a request failed.
#[derive(Debug)]
enum Failure {
    /// The site answered with this status and body.
    Status(u16, String),
    /// No answer (the site or the network is down).
    Transport(String),
}

/// The site, as the bot's token reaches it.
#[derive(Clone)]
struct Site {
    agent: ureq::Agent,
    server: String,
    token: String,
}

impl Site {
    fn new(config: &Config) -> Site {
        Site {
            // Streams send an empty line every few seconds: a read that
            // waits longer means a dead connection.
            agent: ureq::AgentBuilder::new()
                .timeout_connect(Duration::from_secs(10))
                .timeout_read(Duration::from_secs(30))
                .build(),
            server: config.server.clone(),
            token: config.token.clone(),
        }
    }

    fn call(&self, method: &str, path: &str) -> Result<ureq::Response, Failure> {
        let request = self
            .agent
            .request(method, &format!("{}{path}", self.server))
            .set("Authorization", &format!("Bearer {}", self.token));
        match if method == "POST" {
            request.send_string("")
        } else {
            request.call()
        } {
            Ok(response) => Ok(response),
            Err(ureq::Error::Status(code, response)) => Err(Failure::Status(
                code,
                response.into_string().unwrap_or_default(),
            )),
            Err(error) => Err(Failure::Transport(error.to_string())),
        }
    }

    fn post(&self, path: &str) -> Result<(), Failure> {
        self.call("POST", path).map(|_| ())
    }

    /// An NDJSON stream's lines.
    fn stream(&self, path: &str) -> Result<impl Iterator<Item = std::io::Result<String>>, Failure> {
        let response = self.call("GET", path)?;
        Ok(BufReader::new(response.into_reader()).lines())
    }
}

/// Whether a challenge passes the filters.
pub fn acceptable(config: &Config, challenge: &Value) -> bool {
    let speed = challenge["control"]["speed"].as_str().unwrap_or_default();
    let rated = challenge["rated"].as_bool().unwrap_or(false);
    let speed_ok = config.accept.is_empty() || config.accept.iter().any(|s| s == speed);
    let rated_ok = match config.rated {
        Rated::Rated => rated,
        Rated::Casual => !rated,
        Rated::Any => true,
    };
    speed_ok && rated_ok && !challenge["control"].is_null()
}

/// Runs the bridge until its token is refused (an error) — it never stops
/// on its own otherwise.
pub fn run(config: Config) -> Result<(), String> {
    let site = Site::new(&config);
    let playing: Arc<Mutex<HashSet<String>>> = Arc::default();
    let mut backoff = Backoff::new();
    loop {
        let lines = match site.stream("/api/stream/event") {
            Ok(lines) => lines,
            Err(Failure::Status(401, body)) => return Err(format!("bot: token refused: {body}")),
            Err(failure) => {
                eprintln!("othello bot: event stream: {failure:?}; again soon");
                backoff.wait();
                continue;
            }
        };
        eprintln!("othello bot: connected to {}", config.server);
        backoff.reset();
        for line in lines {
            let Ok(line) = line else { break };
            let Ok(event) = serde_json::from_str::<Value>(line.trim()) else {
                continue;
            };
            match event["type"].as_str() {
                Some("challenge") => answer_challenge(&config, &site, &event["challenge"]),
                Some("gameStart") => {
                    let id = event["game"]["id"].as_str().unwrap_or_default().to_string();
                    if id.is_empty() {
                        continue;
                    }
                    let fresh = playing
                        .lock()
                        .map(|mut p| p.insert(id.clone()))
                        .unwrap_or(false);
                    if fresh {
                        let (config, site, playing) =
                            (config.clone(), site.clone(), playing.clone());
                        std::thread::spawn(move || {
                            play_game(&config, &site, &id);
                            if let Ok(mut p) = playing.lock() {
                                p.remove(&id);
                            }
                        });
                    }
                }
                Some("gameFinish") => {
                    eprintln!("othello bot: game over: {}", event["game"]);
                }
                _ => {}
            }
        }
        eprintln!("othello bot: event stream closed; again soon");
        backoff.wait();
    }
}

fn answer_challenge(config: &Config, site: &Site, challenge: &Value) {
    if challenge["direction"] != "in" {
        return;
    }
    let Some(id) = challenge["id"].as_str() else {
        return;
    };
    let (verb, done) = if acceptable(config, challenge) {
        ("accept", "accepted")
    } else {
        ("decline", "declined")
    };
    match site.post(&format!("/api/bot/challenge/{id}/{verb}")) {
        Ok(()) => eprintln!(
            "othello bot: {done} challenge {id} from {}",
            challenge["from"]
        ),
        Err(failure) => eprintln!("othello bot: cannot {verb} challenge {id}: {failure:?}"),
    }
}

/// What a game's state asks of the bot.
enum Next {
    Wait,
    Over,
}

/// Plays one game to its end, through reconnections.
fn play_game(config: &Config, site: &Site, id: &str) {
    let mut engine: Option<Engine> = None;
    let mut answered: Option<usize> = None;
    let mut colour = String::new();
    let mut start = String::new();
    let mut backoff = Backoff::new();
    eprintln!("othello bot: playing game {id}");
    loop {
        let lines = match site.stream(&format!("/api/bot/game/stream/{id}")) {
            Ok(lines) => lines,
            Err(Failure::Status(code @ (401 | 403 | 404), body)) => {
                eprintln!("othello bot: game {id} refused ({code}): {body}");
                return;
            }
            Err(failure) => {
                eprintln!("othello bot: game {id}: {failure:?}; again soon");
                backoff.wait();
                continue;
            }
        };
        backoff.reset();
        for line in lines {
            let Ok(line) = line else { break };
            let Ok(message) = serde_json::from_str::<Value>(line.trim()) else {
                continue;
            };
            let state = match message["type"].as_str() {
                Some("gameFull") => {
                    colour = message["colour"].as_str().unwrap_or_default().to_string();
                    start = message["start"].as_str().unwrap_or_default().to_string();
                    &message["state"]
                }
                Some("gameState") => &message,
                _ => continue,
            };
            match on_state(
                config,
                site,
                id,
                &colour,
                &start,
                state,
                &mut engine,
                &mut answered,
            ) {
                Next::Over => {
                    eprintln!(
                        "othello bot: game {id} over: winner {}, {}",
                        state["winner"], state["reason"]
                    );
                    return;
                }
                Next::Wait => {}
            }
        }
        eprintln!("othello bot: game {id}: stream closed; again soon");
        backoff.wait();
    }
}

#[allow(clippy::too_many_arguments)]
fn on_state(
    config: &Config,
    site: &Site,
    id: &str,
    colour: &str,
    start: &str,
    state: &Value,
    engine: &mut Option<Engine>,
    answered: &mut Option<usize>,
) -> Next {
    if state["status"] == "over" {
        return Next::Over;
    }
    let moves = state["moves"].as_str().unwrap_or_default();
    let played = moves.split_whitespace().count();
    // A dead engine resigns the game, whoever is to move.
    if let Some(e) = engine.as_mut() {
        if !e.alive() {
            return resign(site, id, "the engine stopped");
        }
    }
    if state["to_move"] != colour || *answered == Some(played) {
        return Next::Wait;
    }
    if engine.is_none() {
        match Engine::start(&config.engine) {
            Ok(e) => *engine = Some(e),
            Err(why) => return resign(site, id, &why),
        }
    }
    let clocks = &state["clocks"];
    let left = if clocks.is_null() {
        None
    } else if clocks["first_move"]["side"] == colour {
        clocks["first_move"]["ms"].as_i64()
    } else {
        clocks[format!("{colour}_ms")].as_i64()
    };
    let empties = state["board"]
        .as_str()
        .map_or(60, |b| b.chars().filter(|&c| c == '-').count());
    let (think, hard) = budget(left, empties);
    let legal: Vec<String> = state["legal"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let Some(e) = engine.as_mut() else {
        return Next::Wait;
    };
    let depth = depth_for(think).min(config.max_depth.unwrap_or(u32::MAX));
    let choice = match e.best_move(&ggf(start, moves), depth, Instant::now() + hard) {
        Ok(Some(square)) if legal.contains(&square) => square,
        Ok(Some(square)) => {
            eprintln!("othello bot: game {id}: the engine's {square} is not legal here");
            legal.first().cloned().unwrap_or(square)
        }
        Ok(None) => {
            // Out of time: a legal move now, a fresh engine next time.
            eprintln!("othello bot: game {id}: the engine is too slow; playing a legal move");
            *engine = None;
            match legal.first() {
                Some(square) => square.clone(),
                None => return Next::Wait,
            }
        }
        Err(why) => return resign(site, id, &why),
    };
    match site.post(&format!("/api/bot/game/{id}/move/{choice}")) {
        Ok(()) => *answered = Some(played),
        // Refused (the game changed meanwhile): the next state decides.
        Err(Failure::Status(code, body)) => {
            eprintln!("othello bot: game {id}: move {choice} refused ({code}): {body}")
        }
        // Not sent: the state after reconnecting asks again.
        Err(Failure::Transport(why)) => eprintln!("othello bot: game {id}: move not sent: {why}"),
    }
    Next::Wait
}

fn resign(site: &Site, id: &str, why: &str) -> Next {
    eprintln!("othello bot: game {id}: {why}; resigning");
    if let Err(failure) = site.post(&format!("/api/bot/game/{id}/resign")) {
        eprintln!("othello bot: game {id}: cannot resign: {failure:?}");
    }
    Next::Over
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_are_filtered_by_speed_and_rating() {
        let config = |accept: &[&str], rated| Config {
            server: "http://x".into(),
            token: "t".into(),
            engine: vec!["e".into()],
            accept: accept.iter().map(|s| s.to_string()).collect(),
            rated,
            max_depth: None,
        };
        let blitz_rated = serde_json::json!({"control": {"speed": "blitz"}, "rated": true});
        let rapid_casual = serde_json::json!({"control": {"speed": "rapid"}, "rated": false});
        assert!(acceptable(&config(&[], Rated::Any), &blitz_rated));
        assert!(!acceptable(&config(&["rapid"], Rated::Any), &blitz_rated));
        assert!(!acceptable(&config(&[], Rated::Casual), &blitz_rated));
        assert!(acceptable(
            &config(&["rapid"], Rated::Casual),
            &rapid_casual
        ));
        assert!(!acceptable(&config(&[], Rated::Rated), &rapid_casual));
        // An untimed challenge is not for a bot on a clock.
        assert!(!acceptable(
            &config(&[], Rated::Any),
            &serde_json::json!({"rated": false})
        ));
    }

    #[test]
    fn the_arguments_are_checked() {
        let dir = std::env::temp_dir().join(format!("othello-bot-args-{}", std::process::id()));
        std::fs::write(&dir, "oth_secret\n").expect("token file");
        let args = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let token = dir.display().to_string();
        let config = parse(&args(&[
            "--server",
            "http://localhost:8080/",
            "--token",
            &token,
            "--engine",
            "othello nboard",
            "--accept",
            "blitz",
            "--casual",
        ]))
        .expect("parses");
        assert_eq!(config.server, "http://localhost:8080");
        assert_eq!(config.token, "oth_secret");
        assert_eq!(config.engine, vec!["othello", "nboard"]);
        assert_eq!(config.accept, vec!["blitz"]);
        assert_eq!(config.rated, Rated::Casual);
        assert_eq!(config.max_depth, None);
        let capped = parse(&args(&[
            "--server",
            "http://x",
            "--token",
            &token,
            "--engine",
            "e",
            "--max-depth",
            "3",
        ]))
        .expect("parses");
        assert_eq!(capped.max_depth, Some(3));
        for bad in ["0", "61", "deep"] {
            assert!(parse(&args(&[
                "--server",
                "http://x",
                "--token",
                &token,
                "--engine",
                "e",
                "--max-depth",
                bad,
            ]))
            .is_err());
        }
        assert!(parse(&args(&[
            "--server", "ftp://x", "--token", &token, "--engine", "e"
        ]))
        .is_err());
        assert!(parse(&args(&["--server", "http://x", "--token", &token])).is_err());
        assert!(parse(&args(&[
            "--server", "http://x", "--token", &token, "--engine", "e", "--accept", "bullet"
        ]))
        .is_err());
        let _ = std::fs::remove_file(&dir);
    }
}
