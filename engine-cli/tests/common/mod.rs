//! Shared helpers for the integration tests: a tiny seeded PRNG and
//! deterministic random positions.
#![allow(dead_code)]

use engine::{Game, Position, Square};

/// SplitMix64: tiny, seeded, deterministic.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Plays uniformly random legal moves (passes automatic) from the start
/// until `empties` squares remain empty; `None` if the game ends first.
pub fn random_position(seed: u64, empties: u32) -> Option<Position> {
    let mut rng = Rng::new(seed);
    let mut game = Game::new();
    while game.position().empty_count() > empties {
        let moves: Vec<Square> = game.position().legal_moves().iter().collect();
        if moves.is_empty() {
            return None;
        }
        let sq = moves[rng.below(moves.len())];
        game.play(sq).ok()?;
    }
    if game.is_over() {
        None
    } else {
        Some(*game.position())
    }
}

/// `count` random positions with exactly `empties` empty squares (seeded).
pub fn positions(seed: u64, empties: u32, count: usize) -> Vec<Position> {
    (0..)
        .map(|i| random_position(seed.wrapping_mul(1000).wrapping_add(i), empties))
        .take(count * 20)
        .flatten()
        .take(count)
        .collect()
}

/// A position from a text board.
pub fn board(text: &str, side: engine::Color) -> Position {
    Position::from_text_board(text, side).expect("test board parses")
}

pub fn sq(name: &str) -> Square {
    name.parse().expect("test square parses")
}
