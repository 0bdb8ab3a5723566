//! Random balanced starts (docs/PRODUCT.md, Bots: "Random starts"; GGS's
//! s8r): the published set `book/balanced-starts.txt`, made by `othello
//! balanced-starts` (its command is the file's first lines), embedded and
//! read once. A challenge asking for a random start begins at one of them,
//! picked when it is accepted, so neither side has prepared the opening.

use engine::Position;
use rand::seq::SliceRandom;
use std::sync::OnceLock;

/// The shipped set, as published.
const SET: &str = include_str!("../../book/balanced-starts.txt");

/// The positions of a set's text: one per line (its moves from the initial
/// position, then its value); `#` lines and blank ones are comments.
pub fn parse(text: &str) -> Result<Vec<Position>, String> {
    text.lines()
        .map(str::trim)
        .enumerate()
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(n, line)| {
            let moves = line.split_whitespace().next().unwrap_or_default();
            engine::parse_transcript(moves)
                .map(|game| *game.position())
                .map_err(|e| format!("line {}: {e}", n + 1))
        })
        .collect()
}

/// Every shipped start (none if the file were damaged: it is checked by
/// the tests, and a start is then the usual one).
pub fn all() -> &'static [Position] {
    static ALL: OnceLock<Vec<Position>> = OnceLock::new();
    ALL.get_or_init(|| {
        parse(SET).unwrap_or_else(|error| {
            tracing::error!("balanced starts: {error}");
            Vec::new()
        })
    })
}

/// One start picked at random (the usual one if the set were empty).
pub fn pick() -> Position {
    all()
        .choose(&mut rand::thread_rng())
        .copied()
        .unwrap_or_else(Position::initial)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_set_is_a_hundred_different_starts_8_to_12_plies_in() {
        let starts = parse(SET).expect("the shipped set reads");
        assert!(starts.len() >= 100, "{} starts", starts.len());
        let mut seen = std::collections::HashSet::new();
        for start in &starts {
            let plies = 60 - i64::from(start.empty_count());
            assert!((8..=12).contains(&plies), "{plies} plies");
            assert!(!start.is_game_over());
            assert!(seen.insert(*start), "each start once");
        }
        assert_eq!(all().len(), starts.len());
        assert!(all().contains(&pick()));
    }

    #[test]
    fn a_damaged_line_is_named() {
        let error = parse("# head\nf5d6\nf5z9 +0.5\n").expect_err("refused");
        assert!(error.starts_with("line 3"), "{error}");
    }
}
