//! Typed errors with messages a player (or an operator) can read.

use crate::color::Color;
use crate::square::Square;
use std::error::Error;
use std::fmt;

/// Why a square, board, position or record could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Not a square name "a1".."h8" (or an index outside 0..64).
    InvalidSquare(String),
    /// A board with the wrong number of cells.
    WrongLength {
        /// Cells expected (64).
        expected: usize,
        /// Cells found.
        found: usize,
    },
    /// An interchange cell other than 0, +1 or −1.
    InvalidCellValue {
        /// Cell index.
        index: usize,
        /// Offending value.
        value: i64,
    },
    /// Black and white discs on the same square.
    Overlap(Square),
    /// An unexpected character in a text board, OBF string or transcript.
    InvalidChar {
        /// 1-based line (1 for single-line forms).
        line: usize,
        /// 1-based character column in that line.
        column: usize,
        /// The character.
        found: char,
    },
    /// The text board lacks its `A B C D E F G H` header.
    MissingHeader,
    /// A text-board row line is malformed.
    BadRow {
        /// Row number expected at this line (1..8).
        row: usize,
        /// What is wrong.
        reason: String,
    },
    /// Side to move missing or not `X`/`O`.
    InvalidSideToMove(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::InvalidSquare(s) => {
                write!(f, "'{s}' is not a square (expected a1 to h8)")
            }
            ParseError::WrongLength { expected, found } => {
                write!(f, "a board needs {expected} cells, found {found}")
            }
            ParseError::InvalidCellValue { index, value } => write!(
                f,
                "cell {index} holds {value}; cells must be 0 (empty), 1 (black) or -1 (white)"
            ),
            ParseError::Overlap(sq) => write!(f, "square {sq} holds both a black and a white disc"),
            ParseError::InvalidChar {
                line,
                column,
                found,
            } => write!(
                f,
                "unexpected character {found:?} at line {line}, column {column}"
            ),
            ParseError::MissingHeader => {
                write!(
                    f,
                    "the board must start with the header line 'A B C D E F G H'"
                )
            }
            ParseError::BadRow { row, reason } => write!(f, "board row {row}: {reason}"),
            ParseError::InvalidSideToMove(s) => {
                write!(
                    f,
                    "side to move must be X (black) or O (white), found '{s}'"
                )
            }
        }
    }
}

impl Error for ParseError {}

/// Why a move or a pass was refused. Nothing changes when one is returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game is over: neither side can move.
    GameOver,
    /// The square already holds a disc.
    SquareOccupied(Square),
    /// The side to move has no legal move at all and must pass.
    MustPass(Color),
    /// The move would flip no disc.
    NoFlips(Square),
    /// A pass was asked for while the side to move has a legal move.
    CannotPass(Color),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver => write!(f, "the game is over: neither side can move"),
            PlayError::SquareOccupied(sq) => write!(f, "square {sq} is already occupied"),
            PlayError::MustPass(c) => write!(f, "{c} has no legal move and must pass"),
            PlayError::NoFlips(sq) => write!(
                f,
                "a disc on {sq} would not flip any disc; a move must outflank at least one opposing disc"
            ),
            PlayError::CannotPass(c) => {
                write!(f, "{c} has a legal move and may not pass")
            }
        }
    }
}

impl Error for PlayError {}
