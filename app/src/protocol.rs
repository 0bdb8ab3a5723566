//! The wire protocol: what the server sends the browser about a board, and the
//! typed messages in each direction. Raw input is parsed into these types once.

use serde::{Deserialize, Serialize};

/// Number of squares on the board.
pub const SQUARES: usize = 64;

/// The board as the 3D island draws it: SPEC §5's interchange form plus the cues
/// the player sees (legal moves, the last move, the discs it flipped).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardSnapshot {
    /// 64 cells, index = 8 × row + column; 0 empty, +1 black, −1 white.
    pub cells: Vec<i8>,
    /// Squares the side to move may play (empty when it is not the viewer's turn).
    pub legal: Vec<u8>,
    /// The square of the last placed disc.
    pub last_move: Option<u8>,
    /// Discs flipped by the last placement (animated by the island).
    pub flipped: Vec<u8>,
    /// A counter that grows with every change, so the island can tell a new
    /// position from a redraw of the same one.
    pub version: u64,
}

impl BoardSnapshot {
    /// The empty board.
    pub fn empty() -> Self {
        Self {
            cells: vec![0; SQUARES],
            legal: Vec::new(),
            last_move: None,
            flipped: Vec::new(),
            version: 0,
        }
    }

    /// Discs of each colour: (black, white).
    pub fn counts(&self) -> (usize, usize) {
        let black = self.cells.iter().filter(|&&c| c == 1).count();
        let white = self.cells.iter().filter(|&&c| c == -1).count();
        (black, white)
    }
}

/// Square name (`a1` … `h8`) for an index 0..64.
pub fn square_name(index: u8) -> String {
    let col = (b'a' + index % 8) as char;
    let row = index / 8 + 1;
    format!("{col}{row}")
}
