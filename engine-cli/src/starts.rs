//! `othello balanced-starts`: the published set of random balanced starts
//! (docs/PRODUCT.md, Bots: "Random starts", GGS's s8r) — positions a few
//! plies from the initial one, reached by random legal moves, whose value
//! by the strong search at a fixed depth (the shipped evaluation, one
//! thread, so the set is the same on every machine) is within a few discs
//! of even. One line per position: its moves from the initial position
//! (`f5d6c3…`) and its value from the side to move's view.

use crate::train::Rng;
use engine::{default_weights, evaluate_position, Game, Limits};
use std::collections::HashSet;

/// `othello balanced-starts` settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Positions wanted.
    pub count: usize,
    /// Seed of the random moves.
    pub seed: u64,
    /// Plies from the initial position (inclusive range).
    pub plies: (u32, u32),
    /// Depth of the strong search that values each candidate.
    pub depth: u32,
    /// Largest absolute value (discs) kept.
    pub within: f32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            count: 100,
            seed: 1,
            plies: (8, 12),
            depth: 12,
            within: 2.0,
        }
    }
}

/// Parses `[--count N] [--seed S] [--plies A-B] [--depth D] [--within W]`.
pub fn parse(args: &[String]) -> Result<Config, String> {
    let mut config = Config::default();
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = || format!("bad value for {flag}: '{value}'");
        match flag.as_str() {
            "--count" => config.count = value.parse().ok().filter(|n| *n > 0).ok_or_else(bad)?,
            "--seed" => config.seed = value.parse().map_err(|_| bad())?,
            "--plies" => {
                let (lo, hi) = value.split_once('-').ok_or_else(bad)?;
                let (lo, hi): (u32, u32) = (
                    lo.parse().map_err(|_| bad())?,
                    hi.parse().map_err(|_| bad())?,
                );
                if lo == 0 || lo > hi || hi > 40 {
                    return Err(bad());
                }
                config.plies = (lo, hi);
            }
            "--depth" => {
                config.depth = value
                    .parse()
                    .ok()
                    .filter(|d| (1..=30).contains(d))
                    .ok_or_else(bad)?
            }
            "--within" => {
                config.within = value
                    .parse()
                    .ok()
                    .filter(|w: &f32| w.is_finite() && *w >= 0.0)
                    .ok_or_else(bad)?
            }
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(config)
}

/// One balanced start.
#[derive(Clone, Debug, PartialEq)]
pub struct Start {
    /// Its moves from the initial position (`f5d6c3…`).
    pub moves: String,
    /// Its value (discs, the side to move's view).
    pub value: f32,
}

/// The candidate of stream `k`: random legal moves from the initial
/// position, `lo..=hi` of them; `None` when the game ended first.
fn candidate(seed: u64, k: u64, (lo, hi): (u32, u32)) -> Option<Game> {
    let mut rng = Rng::new(seed, k);
    let plies = lo + rng.below(u64::from(hi - lo + 1)) as u32;
    let mut game = Game::new();
    for _ in 0..plies {
        let moves: Vec<_> = game.position().legal_moves().iter().collect();
        if moves.is_empty() {
            return None;
        }
        let pick = moves[rng.below(moves.len() as u64) as usize];
        game.play(pick).ok()?;
    }
    (!game.is_over()).then_some(game)
}

/// The set: candidates in stream order, each different position valued once,
/// kept while within `within` discs, until `count` are kept (or 100 times
/// as many candidates were tried). `each` sees every kept start at once.
pub fn generate(config: &Config, mut each: impl FnMut(&Start)) -> Vec<Start> {
    let weights = default_weights();
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    let tries = config.count as u64 * 100;
    for k in 0..tries {
        if kept.len() >= config.count {
            break;
        }
        let Some(game) = candidate(config.seed, k, config.plies) else {
            continue;
        };
        if !seen.insert(*game.position()) {
            continue;
        }
        let report = evaluate_position(game.position(), weights, Limits::depth(config.depth));
        if report.value.abs() <= config.within {
            let start = Start {
                moves: game.transcript(),
                value: report.value,
            };
            each(&start);
            kept.push(start);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_read_and_bad_ones_refused() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let config = parse(&args(
            "--count 5 --seed 9 --plies 6-7 --depth 4 --within 1.5",
        ))
        .expect("parsed");
        assert_eq!(
            config,
            Config {
                count: 5,
                seed: 9,
                plies: (6, 7),
                depth: 4,
                within: 1.5
            }
        );
        for bad in [
            "--count 0",
            "--plies 9-8",
            "--plies x",
            "--depth 0",
            "--within -1",
            "--nope 1",
            "--count",
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_start_is_in_range_balanced_different_and_the_same_for_a_seed() {
        let config = Config {
            count: 6,
            seed: 3,
            plies: (8, 12),
            depth: 4,
            within: 2.0,
        };
        let starts = generate(&config, |_| {});
        assert_eq!(starts.len(), 6);
        let mut positions = HashSet::new();
        for start in &starts {
            let game = engine::parse_transcript(&start.moves).expect("replays");
            assert!(
                (8..=12).contains(&(game.moves().len() as u32)),
                "{}",
                start.moves
            );
            assert!(start.value.abs() <= 2.0);
            assert!(!game.is_over());
            assert!(positions.insert(*game.position()), "different positions");
        }
        assert_eq!(
            generate(&config, |_| {}),
            starts,
            "the seed decides the set"
        );
    }
}
