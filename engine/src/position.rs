//! Positions and the rules of the game.

use crate::bitboard::{self, Bitboard};
use crate::color::Color;
use crate::error::{ParseError, PlayError};
use crate::square::Square;

/// A board plus the side to move.
///
/// The fields are public for convenience; a position whose `black` and
/// `white` sets overlap is invalid (constructors refuse it, and the methods
/// never panic on one but give meaningless answers).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// Black discs.
    pub black: Bitboard,
    /// White discs.
    pub white: Bitboard,
    /// Who moves next.
    pub side_to_move: Color,
}

/// The result of a legal move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveOutcome {
    /// The position after the move (the opponent to move, even if the
    /// opponent must then pass).
    pub position: Position,
    /// The discs that changed colour (the placed disc is not included).
    pub flipped: Bitboard,
}

/// The result of a finished game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameResult {
    /// This side has more discs.
    Win(Color),
    /// Equal disc counts.
    Draw,
}

impl Default for Position {
    fn default() -> Position {
        Position::initial()
    }
}

impl Position {
    /// The standard start: white on d4 and e5, black on d5 and e4, black to move.
    #[must_use]
    pub const fn initial() -> Position {
        // d4 = 27, e5 = 36 (white); d5 = 35, e4 = 28 (black).
        Position {
            black: Bitboard((1 << 35) | (1 << 28)),
            white: Bitboard((1 << 27) | (1 << 36)),
            side_to_move: Color::Black,
        }
    }

    /// A position from disc sets; refuses overlapping sets.
    pub fn new(
        black: Bitboard,
        white: Bitboard,
        side_to_move: Color,
    ) -> Result<Position, ParseError> {
        let both = black & white;
        if let Some(sq) = both.first() {
            return Err(ParseError::Overlap(sq));
        }
        Ok(Position {
            black,
            white,
            side_to_move,
        })
    }

    /// A position from the interchange form: 64 cells, index = 8 × row +
    /// column, 0 empty, +1 black, −1 white.
    pub fn from_cells(cells: &[i8], side_to_move: Color) -> Result<Position, ParseError> {
        if cells.len() != 64 {
            return Err(ParseError::WrongLength {
                expected: 64,
                found: cells.len(),
            });
        }
        let mut black = 0u64;
        let mut white = 0u64;
        for (index, &value) in cells.iter().enumerate() {
            match value {
                0 => {}
                1 => black |= 1 << index,
                -1 => white |= 1 << index,
                _ => {
                    return Err(ParseError::InvalidCellValue {
                        index,
                        value: i64::from(value),
                    })
                }
            }
        }
        Position::new(Bitboard(black), Bitboard(white), side_to_move)
    }

    /// The interchange form: 0 empty, +1 black, −1 white.
    #[must_use]
    pub fn to_cells(&self) -> [i8; 64] {
        let mut cells = [0i8; 64];
        for (index, cell) in cells.iter_mut().enumerate() {
            let bit = 1u64 << index;
            if self.black.0 & bit != 0 {
                *cell = 1;
            } else if self.white.0 & bit != 0 {
                *cell = -1;
            }
        }
        cells
    }

    /// The colour of the disc on `square`, if any.
    #[must_use]
    pub const fn disc_at(&self, square: Square) -> Option<Color> {
        if self.black.contains(square) {
            Some(Color::Black)
        } else if self.white.contains(square) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The discs of `color`.
    #[must_use]
    pub const fn discs(&self, color: Color) -> Bitboard {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The discs of the side to move.
    #[must_use]
    pub const fn player(&self) -> Bitboard {
        self.discs(self.side_to_move)
    }

    /// The discs of the side not to move.
    #[must_use]
    pub const fn opponent(&self) -> Bitboard {
        self.discs(self.side_to_move.opponent())
    }

    /// Number of discs of `color`.
    #[must_use]
    pub const fn count(&self, color: Color) -> u32 {
        self.discs(color).count()
    }

    /// The empty squares.
    #[must_use]
    pub const fn empties(&self) -> Bitboard {
        Bitboard(!(self.black.0 | self.white.0))
    }

    /// Number of empty squares.
    #[must_use]
    pub const fn empty_count(&self) -> u32 {
        self.empties().count()
    }

    /// Legal moves of the side to move.
    #[must_use]
    pub const fn legal_moves(&self) -> Bitboard {
        Bitboard(bitboard::legal_moves(self.player().0, self.opponent().0))
    }

    /// Legal moves `color` would have if it were to move.
    #[must_use]
    pub const fn legal_moves_for(&self, color: Color) -> Bitboard {
        Bitboard(bitboard::legal_moves(
            self.discs(color).0,
            self.discs(color.opponent()).0,
        ))
    }

    /// True when the side to move may play on `square`.
    #[must_use]
    pub fn is_legal(&self, square: Square) -> bool {
        !self.flips(square).is_empty()
    }

    /// The discs a move of the side to move on `square` would flip; empty
    /// when the square is occupied or the move flips nothing. Examines all
    /// eight directions; runs never wrap between rows.
    #[must_use]
    pub fn flips(&self, square: Square) -> Bitboard {
        if !self.empties().contains(square) {
            return Bitboard::EMPTY;
        }
        Bitboard(bitboard::flips(
            self.player().0,
            self.opponent().0,
            square.index(),
        ))
    }

    /// Plays `square` for the side to move.
    pub fn play(&self, square: Square) -> Result<MoveOutcome, PlayError> {
        if self.is_game_over() {
            return Err(PlayError::GameOver);
        }
        if !self.empties().contains(square) {
            return Err(PlayError::SquareOccupied(square));
        }
        if self.legal_moves().is_empty() {
            return Err(PlayError::MustPass(self.side_to_move));
        }
        let flipped = self.flips(square);
        if flipped.is_empty() {
            return Err(PlayError::NoFlips(square));
        }
        Ok(MoveOutcome {
            position: self.apply(square, flipped),
            flipped,
        })
    }

    /// Places a disc on `square` flipping `flipped` and hands the move over,
    /// without checks (internal fast path).
    #[inline]
    pub(crate) const fn apply(&self, square: Square, flipped: Bitboard) -> Position {
        let placed = 1u64 << square.index();
        let (p, o) = (self.player().0, self.opponent().0);
        let p2 = p | placed | flipped.0;
        let o2 = o & !flipped.0;
        match self.side_to_move {
            Color::Black => Position {
                black: Bitboard(p2),
                white: Bitboard(o2),
                side_to_move: Color::White,
            },
            Color::White => Position {
                black: Bitboard(o2),
                white: Bitboard(p2),
                side_to_move: Color::Black,
            },
        }
    }

    /// The same board with the other side to move (internal, unchecked).
    #[inline]
    pub(crate) const fn passed(&self) -> Position {
        Position {
            black: self.black,
            white: self.white,
            side_to_move: self.side_to_move.opponent(),
        }
    }

    /// True when the side to move has no legal move but the opponent has one.
    #[must_use]
    pub const fn must_pass(&self) -> bool {
        self.legal_moves().is_empty()
            && !self
                .legal_moves_for(self.side_to_move.opponent())
                .is_empty()
    }

    /// Passes the turn; refused when the side to move has a legal move or
    /// when the game is over.
    pub fn pass(&self) -> Result<Position, PlayError> {
        if !self.legal_moves().is_empty() {
            return Err(PlayError::CannotPass(self.side_to_move));
        }
        if self.is_game_over() {
            return Err(PlayError::GameOver);
        }
        Ok(self.passed())
    }

    /// True when neither side can move (full board, wipe-out or blocked).
    #[must_use]
    pub const fn is_game_over(&self) -> bool {
        self.legal_moves().is_empty()
            && self
                .legal_moves_for(self.side_to_move.opponent())
                .is_empty()
    }

    /// Disc count of `color` minus that of its opponent (empties not counted).
    #[must_use]
    pub const fn disc_difference(&self, color: Color) -> i32 {
        self.count(color) as i32 - self.count(color.opponent()) as i32
    }

    /// Final score for `color` with standard scoring (empty squares go to
    /// the winner). Meaningful once the game is over.
    #[must_use]
    pub const fn final_score(&self, color: Color) -> i32 {
        let diff = self.disc_difference(color);
        let empties = self.empty_count() as i32;
        if diff > 0 {
            diff + empties
        } else if diff < 0 {
            diff - empties
        } else {
            0
        }
    }

    /// The result once the game is over; `None` while it goes on.
    #[must_use]
    pub const fn result(&self) -> Option<GameResult> {
        if !self.is_game_over() {
            return None;
        }
        let diff = self.disc_difference(Color::Black);
        Some(if diff > 0 {
            GameResult::Win(Color::Black)
        } else if diff < 0 {
            GameResult::Win(Color::White)
        } else {
            GameResult::Draw
        })
    }

    /// The winner of a finished game; `None` for a draw or an unfinished game.
    #[must_use]
    pub const fn winner(&self) -> Option<Color> {
        match self.result() {
            Some(GameResult::Win(c)) => Some(c),
            _ => None,
        }
    }
}
