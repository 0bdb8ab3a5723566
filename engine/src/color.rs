//! The two sides.

use std::fmt;

/// A side: black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// The first player (`X`, +1 in the interchange form).
    Black,
    /// The second player (`O`, −1 in the interchange form).
    White,
}

impl Color {
    /// The other side.
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `X` for black, `O` for white (text board and OBF letter).
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    /// +1 for black, −1 for white (interchange cell value).
    #[must_use]
    pub const fn cell_value(self) -> i8 {
        match self {
            Color::Black => 1,
            Color::White => -1,
        }
    }

    /// Lowercase English name: "black" or "white".
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
