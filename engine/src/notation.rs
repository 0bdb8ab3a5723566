//! Text forms: the text board, OBF, move transcripts and GGF export.
//!
//! Text board (docs/PRODUCT.md, "The board, the rules and the play AI"),
//! nine lines, each ended by `\n`, no trailing spaces:
//!
//! ```text
//!   A B C D E F G H
//! 1 . . . . . . . .
//! 2 . . . . . . . .
//! 3 . . . . . . . .
//! 4 . . . O X . . .
//! 5 . . . X O . . .
//! 6 . . . . . . . .
//! 7 . . . . . . . .
//! 8 . . . . . . . .
//! ```
//!
//! `X` black, `O` white, `.` empty; row 1 (a1 … h1) is printed first. The
//! parser accepts the same form, ignoring blank lines around the board,
//! leading/trailing whitespace on lines, and letter case.
//!
//! OBF: 64 cells a1 … h8 (`X`, `O`, `-`), whitespace, `X` or `O` for the side
//! to move, optionally followed by `;` and anything (e.g. move scores).
//!
//! Transcript: concatenated lowercase moves (`f5d6c3`…); passes are not
//! written and are inserted automatically when replaying.

use crate::color::Color;
use crate::error::ParseError;
use crate::game::{Game, GameEvent, ReplayError};
use crate::position::Position;
use crate::square::Square;
use std::fmt;

const HEADER: &str = "  A B C D E F G H";

impl Position {
    /// The text board (see the module docs for the exact format).
    #[must_use]
    pub fn to_text_board(&self) -> String {
        let mut out = String::with_capacity(9 * 18);
        out.push_str(HEADER);
        out.push('\n');
        for row in 0..8 {
            out.push(char::from(b'1' + row as u8));
            for col in 0..8 {
                out.push(' ');
                out.push(
                    match Square::from_coords(col, row).and_then(|sq| self.disc_at(sq)) {
                        Some(c) => c.letter(),
                        None => '.',
                    },
                );
            }
            out.push('\n');
        }
        out
    }

    /// Parses a text board (see the module docs) with the given side to move.
    pub fn from_text_board(text: &str, side_to_move: Color) -> Result<Position, ParseError> {
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let header = lines.next().ok_or(ParseError::MissingHeader)?;
        let letters: String = header.1.split_whitespace().collect();
        if !letters.eq_ignore_ascii_case("ABCDEFGH") {
            return Err(ParseError::MissingHeader);
        }
        let mut cells = [0i8; 64];
        for row in 0..8 {
            let Some((_, line)) = lines.next() else {
                return Err(ParseError::BadRow {
                    row: row + 1,
                    reason: "missing row".into(),
                });
            };
            let mut tokens = line.split_whitespace();
            let label = tokens.next().unwrap_or("");
            if label != (row + 1).to_string() {
                return Err(ParseError::BadRow {
                    row: row + 1,
                    reason: format!("expected the row number {} first, found '{label}'", row + 1),
                });
            }
            let tokens: Vec<&str> = tokens.collect();
            if tokens.len() != 8 {
                return Err(ParseError::BadRow {
                    row: row + 1,
                    reason: format!("expected 8 cells, found {}", tokens.len()),
                });
            }
            for (col, token) in tokens.iter().enumerate() {
                cells[row * 8 + col] = match *token {
                    "X" | "x" => 1,
                    "O" | "o" => -1,
                    "." | "-" => 0,
                    other => {
                        return Err(ParseError::BadRow {
                            row: row + 1,
                            reason: format!(
                                "cell {} is '{other}'; use X (black), O (white) or . (empty)",
                                char::from(b'a' + col as u8)
                            ),
                        })
                    }
                };
            }
        }
        if let Some((_, extra)) = lines.next() {
            return Err(ParseError::BadRow {
                row: 9,
                reason: format!("unexpected line after row 8: '{}'", extra.trim()),
            });
        }
        Position::from_cells(&cells, side_to_move)
    }

    /// OBF form: 64 cells `X`/`O`/`-` from a1 to h8, a space, `X` or `O`.
    #[must_use]
    pub fn to_obf(&self) -> String {
        let mut out: String = self
            .to_cells()
            .iter()
            .map(|&c| match c {
                1 => 'X',
                -1 => 'O',
                _ => '-',
            })
            .collect();
        out.push(' ');
        out.push(self.side_to_move.letter());
        out
    }

    /// Parses OBF: 64 cells (`X`/`x`/`*` black, `O`/`o` white, `-`/`.`
    /// empty), whitespace, the side to move; a trailing `;…` is ignored.
    pub fn from_obf(text: &str) -> Result<Position, ParseError> {
        let body = text.split(';').next().unwrap_or("");
        let leading = body.len() - body.trim_start().len();
        let body = body.trim();
        let mut cells = Vec::with_capacity(64);
        let mut chars = body.char_indices();
        for (offset, ch) in chars.by_ref() {
            if cells.len() == 64 {
                if ch.is_whitespace() {
                    break;
                }
                return Err(ParseError::WrongLength {
                    expected: 64,
                    found: 65,
                });
            }
            cells.push(match ch {
                'X' | 'x' | '*' => 1,
                'O' | 'o' => -1,
                '-' | '.' => 0,
                _ if ch.is_whitespace() => {
                    return Err(ParseError::WrongLength {
                        expected: 64,
                        found: cells.len(),
                    })
                }
                _ => {
                    return Err(ParseError::InvalidChar {
                        line: 1,
                        column: leading + offset + 1,
                        found: ch,
                    })
                }
            });
        }
        if cells.len() != 64 {
            return Err(ParseError::WrongLength {
                expected: 64,
                found: cells.len(),
            });
        }
        let side = chars.as_str().trim();
        let side_to_move = match side {
            "X" | "x" | "*" => Color::Black,
            "O" | "o" => Color::White,
            _ => return Err(ParseError::InvalidSideToMove(side.to_string())),
        };
        Position::from_cells(&cells, side_to_move)
    }
}

impl fmt::Display for Position {
    /// Writes the text board.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text_board())
    }
}

/// Why a transcript could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TranscriptError {
    /// Text that is not a sequence of square names.
    Syntax {
        /// 1-based character position in the transcript.
        column: usize,
        /// The text found there.
        found: String,
    },
    /// A well-formed move that is illegal in the game so far.
    Illegal(ReplayError),
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TranscriptError::Syntax { column, found } => write!(
                f,
                "transcript: '{found}' at character {column} is not a square (expected moves like f5d6c3)"
            ),
            TranscriptError::Illegal(e) => write!(f, "transcript: {e}"),
        }
    }
}

impl std::error::Error for TranscriptError {}

/// Splits a transcript into squares (whitespace between moves is allowed,
/// letter case is ignored).
pub fn parse_moves(text: &str) -> Result<Vec<Square>, TranscriptError> {
    let chars: Vec<(usize, char)> = text
        .chars()
        .enumerate()
        .filter(|(_, c)| !c.is_whitespace())
        .collect();
    let mut moves = Vec::with_capacity(chars.len() / 2);
    for pair in chars.chunks(2) {
        let found: String = pair.iter().map(|&(_, c)| c).collect();
        let square = found
            .parse::<Square>()
            .map_err(|_| TranscriptError::Syntax {
                column: pair[0].0 + 1,
                found: found.clone(),
            })?;
        moves.push(square);
    }
    Ok(moves)
}

/// Replays a transcript from the initial position, inserting passes.
pub fn parse_transcript(text: &str) -> Result<Game, TranscriptError> {
    let moves = parse_moves(text)?;
    Game::replay(&moves).map_err(TranscriptError::Illegal)
}

/// Writes moves as a transcript (`f5d6c3`…).
#[must_use]
pub fn format_moves(moves: &[Square]) -> String {
    moves.iter().map(ToString::to_string).collect()
}

/// Header fields of a GGF record. Empty fields are written empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GgfInfo {
    /// `PC`: place (e.g. the server name).
    pub place: String,
    /// `DT`: date/time text.
    pub date: String,
    /// `PB`: black player's name.
    pub black: String,
    /// `PW`: white player's name.
    pub white: String,
    /// `TI`: time control text.
    pub time: String,
    /// `RE` override (e.g. a resignation); when `None` the result is
    /// computed: black's final score like `+12.000` for a finished game,
    /// `?` otherwise.
    pub result: Option<String>,
    /// `TY` override: GGS's game type (`s8` a synchro game); `None`: `8`.
    pub kind: Option<String>,
    /// `GC`: a comment on the game (e.g. the other game of a synchro pair);
    /// `None`: not written.
    pub comment: Option<String>,
}

fn ggf_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The GGF board field content: `8 <8 rows of 8> <side>` with `*` black,
/// `O` white, `-` empty.
fn ggf_board(pos: &Position) -> String {
    let cells = pos.to_cells();
    let mut out = String::from("8");
    for row in cells.chunks(8) {
        out.push(' ');
        out.extend(row.iter().map(|&c| match c {
            1 => '*',
            -1 => 'O',
            _ => '-',
        }));
    }
    out.push(' ');
    out.push(match pos.side_to_move {
        Color::Black => '*',
        Color::White => 'O',
    });
    out
}

impl Game {
    /// GGF record of the game so far:
    /// `(;GM[Othello]PC[..]DT[..]PB[..]PW[..]RE[..]TI[..]TY[8]BO[8 … *]B[F5]W[D6]…;)`
    /// with passes written `PA`.
    #[must_use]
    pub fn to_ggf(&self, info: &GgfInfo) -> String {
        let result = match &info.result {
            Some(r) => r.clone(),
            None if self.is_over() => {
                format!("{:+}.000", self.position().final_score(Color::Black))
            }
            None => "?".to_string(),
        };
        let comment = info
            .comment
            .as_ref()
            .map_or(String::new(), |c| format!("GC[{}]", ggf_escape(c)));
        let mut out = format!(
            "(;GM[Othello]PC[{}]DT[{}]PB[{}]PW[{}]RE[{}]TI[{}]TY[{}]{comment}BO[{}]",
            ggf_escape(&info.place),
            ggf_escape(&info.date),
            ggf_escape(&info.black),
            ggf_escape(&info.white),
            ggf_escape(&result),
            ggf_escape(&info.time),
            ggf_escape(info.kind.as_deref().unwrap_or("8")),
            ggf_board(self.start()),
        );
        for event in self.events() {
            let (color, text) = match event {
                GameEvent::Move { color, square, .. } => (*color, square.to_upper()),
                GameEvent::Pass { color } => (*color, "PA".to_string()),
            };
            out.push_str(match color {
                Color::Black => "B[",
                Color::White => "W[",
            });
            out.push_str(&text);
            out.push(']');
        }
        out.push_str(";)");
        out
    }
}
