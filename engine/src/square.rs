//! Checked board squares, `a1` (index 0) … `h8` (index 63).

use crate::error::ParseError;
use std::fmt;
use std::str::FromStr;

/// A square of the board; always in range. Index = 8 × row + column, with
/// column a = 0 and row "1" = 0, so a1 = 0, h1 = 7, d4 = 27, h8 = 63.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with this index, or `None` when `index >= 64`.
    #[must_use]
    pub const fn new(index: usize) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square in column `col` (0 = a) and row `row` (0 = "1").
    #[must_use]
    pub const fn from_coords(col: usize, row: usize) -> Option<Square> {
        if col < 8 && row < 8 {
            Some(Square((row * 8 + col) as u8))
        } else {
            None
        }
    }

    /// Index 0..64.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row 0..8 (0 = row "1").
    #[must_use]
    pub const fn row(self) -> usize {
        (self.0 >> 3) as usize
    }

    /// Column 0..8 (0 = column a).
    #[must_use]
    pub const fn col(self) -> usize {
        (self.0 & 7) as usize
    }

    /// All 64 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0u8..64).map(Square)
    }

    /// Upper-case name such as "F5" (used by GGF).
    #[must_use]
    pub fn to_upper(self) -> String {
        self.to_string().to_ascii_uppercase()
    }

    pub(crate) const fn from_index_unchecked(index: usize) -> Square {
        Square((index & 63) as u8)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col() as u8) as char, self.row() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl FromStr for Square {
    type Err = ParseError;
    /// Parses "a1" … "h8", case-insensitive, surrounding whitespace ignored.
    fn from_str(s: &str) -> Result<Square, ParseError> {
        let t = s.trim().as_bytes();
        let bad = || ParseError::InvalidSquare(s.trim().to_string());
        if t.len() != 2 {
            return Err(bad());
        }
        let col = t[0].to_ascii_lowercase();
        let row = t[1];
        if !(b'a'..=b'h').contains(&col) || !(b'1'..=b'8').contains(&row) {
            return Err(bad());
        }
        Square::from_coords((col - b'a') as usize, (row - b'1') as usize).ok_or_else(bad)
    }
}

impl TryFrom<usize> for Square {
    type Error = ParseError;
    fn try_from(index: usize) -> Result<Square, ParseError> {
        Square::new(index).ok_or(ParseError::InvalidSquare(index.to_string()))
    }
}

impl TryFrom<i64> for Square {
    type Error = ParseError;
    fn try_from(index: i64) -> Result<Square, ParseError> {
        usize::try_from(index)
            .ok()
            .and_then(Square::new)
            .ok_or(ParseError::InvalidSquare(index.to_string()))
    }
}

impl From<Square> for usize {
    fn from(square: Square) -> usize {
        square.index()
    }
}
