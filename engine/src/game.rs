//! A game record: start position, moves and automatic passes.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::error::PlayError;
use crate::position::{GameResult, Position};
use crate::square::Square;
use std::fmt;

/// One entry of a game's history.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameEvent {
    /// `color` placed a disc on `square`, flipping `flipped`.
    Move {
        /// Who moved.
        color: Color,
        /// Where.
        square: Square,
        /// Discs that changed colour.
        flipped: Bitboard,
    },
    /// `color` had no legal move and passed (recorded automatically).
    Pass {
        /// Who passed.
        color: Color,
    },
}

/// What [`Game::play`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Turn {
    /// Discs flipped by the move.
    pub flipped: Bitboard,
    /// Set when the next side had no legal move and its pass was recorded.
    pub auto_pass: Option<Color>,
    /// The position now (after any automatic pass).
    pub position: Position,
}

/// A move of a replay was illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// 1-based index of the offending move among the moves given (passes
    /// are not counted).
    pub ply: usize,
    /// The offending square.
    pub square: Square,
    /// Why it was refused.
    pub error: PlayError,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} ({}) is illegal: {}",
            self.ply, self.square, self.error
        )
    }
}

impl std::error::Error for ReplayError {}

/// A game: the start position and every move and pass since.
///
/// Passes are never asked of the caller: after each move, if the next side
/// has no legal move but the game is not over, a [`GameEvent::Pass`] is
/// recorded and the turn returns to the mover.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    events: Vec<GameEvent>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// A game from the standard initial position.
    #[must_use]
    pub fn new() -> Game {
        Game::from_position(Position::initial())
    }

    /// A game from any position; if its side to move must pass, that pass
    /// is recorded at once.
    #[must_use]
    pub fn from_position(start: Position) -> Game {
        let mut game = Game {
            start,
            position: start,
            events: Vec::new(),
        };
        game.auto_pass();
        game
    }

    fn auto_pass(&mut self) -> Option<Color> {
        if self.position.must_pass() {
            let color = self.position.side_to_move;
            self.events.push(GameEvent::Pass { color });
            self.position = self.position.passed();
            Some(color)
        } else {
            None
        }
    }

    /// Plays `square` for the side to move, then records a pass for the next
    /// side if it has no move while the game goes on.
    pub fn play(&mut self, square: Square) -> Result<Turn, PlayError> {
        let color = self.position.side_to_move;
        let outcome = self.position.play(square)?;
        self.position = outcome.position;
        self.events.push(GameEvent::Move {
            color,
            square,
            flipped: outcome.flipped,
        });
        let auto_pass = self.auto_pass();
        Ok(Turn {
            flipped: outcome.flipped,
            auto_pass,
            position: self.position,
        })
    }

    /// Rebuilds a game from the initial position and its moves (passes are
    /// inserted automatically).
    pub fn replay(moves: &[Square]) -> Result<Game, ReplayError> {
        Game::replay_from(Position::initial(), moves)
    }

    /// Rebuilds a game from `start` and its moves.
    pub fn replay_from(start: Position, moves: &[Square]) -> Result<Game, ReplayError> {
        let mut game = Game::from_position(start);
        for (i, &square) in moves.iter().enumerate() {
            game.play(square).map_err(|error| ReplayError {
                ply: i + 1,
                square,
                error,
            })?;
        }
        Ok(game)
    }

    /// The start position.
    #[must_use]
    pub const fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    #[must_use]
    pub const fn position(&self) -> &Position {
        &self.position
    }

    /// Every move and pass, in order.
    #[must_use]
    pub fn events(&self) -> &[GameEvent] {
        &self.events
    }

    /// The squares played, in order (passes left out).
    #[must_use]
    pub fn moves(&self) -> Vec<Square> {
        self.events
            .iter()
            .filter_map(|e| match e {
                GameEvent::Move { square, .. } => Some(*square),
                GameEvent::Pass { .. } => None,
            })
            .collect()
    }

    /// The position after each event (same length as [`Game::events`]).
    #[must_use]
    pub fn positions(&self) -> Vec<Position> {
        let mut pos = self.start;
        self.events
            .iter()
            .map(|e| {
                pos = match *e {
                    GameEvent::Move {
                        square, flipped, ..
                    } => pos.apply(square, flipped),
                    GameEvent::Pass { .. } => pos.passed(),
                };
                pos
            })
            .collect()
    }

    /// The transcript of the moves (`f5d6c3`…), passes not written.
    #[must_use]
    pub fn transcript(&self) -> String {
        crate::notation::format_moves(&self.moves())
    }

    /// True when neither side can move.
    #[must_use]
    pub const fn is_over(&self) -> bool {
        self.position.is_game_over()
    }

    /// The result once the game is over.
    #[must_use]
    pub const fn result(&self) -> Option<GameResult> {
        self.position.result()
    }
}
