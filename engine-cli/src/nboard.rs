//! `othello nboard`: the NBoard protocol (version 2) on stdin/stdout, so the
//! engine loads into the NBoard GUI the way Edax and NTest do.
//!
//! One command per line from the GUI; the answers are lines on the output,
//! flushed at once. The search runs on the calling thread, so a command
//! is answered only after the previous one finished (`ping n` → `pong n`
//! therefore always comes after the work asked before it). Unknown or
//! malformed commands are reported on the error stream and otherwise
//! ignored, as the protocol asks.
//!
//! | GUI → engine | engine → GUI |
//! |---|---|
//! | `nboard 2` | `set myname Othello3D` |
//! | `set depth N` | (midgame depth of `go`/`hint`, 1–60) |
//! | `set game <GGF>` | (the position at the end of the game) |
//! | `set contempt N` | (stored; not used) |
//! | `move <sq>[/eval[/time]]`, `move PA` | (plays it) |
//! | `go` | `status thinking`, `nodestats N secs`, `=== <sq>/<eval>/<secs>`, `status` |
//! | `hint N` | `status thinking`, N × `book <sq> <eval> 0 <depth>` or `search <sq> <eval> 0 <depth>`, `status` |
//! | `analyze` | `status analysing`, per position from the last back `analysis <n> <eval>`, `status` |
//! | `learn` | `learned` (the book is built offline, `othello book build`) |
//! | `ping N` | `pong N` |
//! | `quit` | (stops) |
//!
//! Evaluations are in discs for the side to move at the position searched;
//! the depth of a hint is `100%` when the value is the exact score.
//!
//! With an opening book ([`NBoard::with_book`]), a position the book
//! expanded is answered from it at once: `hint N` gives its N best moves
//! as `book` lines (NBoard's `book <pv> <eval> <games> <depth>`; the
//! games count is 0, the depth the book's search depth) and `go` plays its
//! best book move. Elsewhere the search answers with `search` lines.

use engine::{
    evaluate_position, score_all_moves, Book, Color, Limits, PatternWeights, Position, Square,
};
use std::io::{BufRead, Write};
use std::time::Instant;

/// The name the engine gives itself (`set myname`).
pub const NAME: &str = "Othello3D";

/// Node budget of one `go` or `hint` (about 10–20 s on a slow machine),
/// so that a large `set depth` cannot hang the GUI.
pub const NODE_BUDGET: u64 = 24_000_000;

/// Node budget per position of `analyze`.
pub const ANALYZE_BUDGET: u64 = 400_000;

/// The protocol state: the game so far and the settings.
pub struct NBoard<'w> {
    weights: &'w PatternWeights,
    book: Option<&'w Book>,
    /// Positions from the start of the game to the current one.
    positions: Vec<Position>,
    depth: u32,
    contempt: i32,
    /// Node budget of one `go` / `hint`.
    pub node_budget: u64,
}

/// A GGF game string's start position and moves (`None` = pass).
pub fn parse_ggf(text: &str) -> Result<(Position, Vec<Option<Square>>), String> {
    let body = text.trim();
    let mut start = Position::initial();
    let mut moves = Vec::new();
    let mut rest = body;
    // Scan `KEY[value]` properties; values may contain escaped `]`.
    while let Some(open) = rest.find('[') {
        let key: String = rest[..open]
            .chars()
            .rev()
            .take_while(char::is_ascii_alphabetic)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let mut value = String::new();
        let mut chars = rest[open + 1..].char_indices();
        let mut end = None;
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, n)) = chars.next() {
                        value.push(n);
                    }
                }
                ']' => {
                    end = Some(open + 1 + i);
                    break;
                }
                _ => value.push(c),
            }
        }
        let end = end.ok_or("GGF: unterminated property")?;
        match key.as_str() {
            "BO" => start = parse_ggf_board(&value)?,
            "B" | "W" => {
                let mv = value.split('/').next().unwrap_or("").trim();
                if mv.eq_ignore_ascii_case("pa") || mv.eq_ignore_ascii_case("pass") {
                    moves.push(None);
                } else {
                    let sq: Square = mv.parse().map_err(|_| format!("GGF: bad move '{value}'"))?;
                    moves.push(Some(sq));
                }
            }
            "TY" if !value.trim().starts_with('8') => {
                return Err(format!("GGF: only 8x8 games, got TY[{value}]"));
            }
            _ => {}
        }
        rest = &rest[end + 1..];
    }
    Ok((start, moves))
}

/// `8 <64 squares> <side>` with `*`/`x`/`X` black, `O`/`o` white, `-`/`.` empty.
fn parse_ggf_board(value: &str) -> Result<Position, String> {
    let mut chars = value.chars().filter(|c| !c.is_whitespace());
    if chars.next() != Some('8') {
        return Err(format!("GGF: only 8x8 boards, got BO[{value}]"));
    }
    let cells: Vec<char> = chars.collect();
    if cells.len() != 65 {
        return Err(format!(
            "GGF: board needs 64 squares and a side, got BO[{value}]"
        ));
    }
    let code = |c: char| match c {
        '*' | 'x' | 'X' | '#' => Some(1i8),
        'O' | 'o' => Some(-1),
        '-' | '.' => Some(0),
        _ => None,
    };
    let board: Option<Vec<i8>> = cells[..64].iter().map(|&c| code(c)).collect();
    let board = board.ok_or_else(|| format!("GGF: bad board BO[{value}]"))?;
    let side = match code(cells[64]) {
        Some(1) => Color::Black,
        Some(-1) => Color::White,
        _ => return Err(format!("GGF: bad side to move in BO[{value}]")),
    };
    Position::from_cells(&board, side).map_err(|e| format!("GGF: {e}"))
}

/// Plays `mv` (`None` = pass) on `pos`.
fn apply(pos: &Position, mv: Option<Square>) -> Result<Position, String> {
    match mv {
        Some(sq) => pos
            .play(sq)
            .map(|o| o.position)
            .map_err(|e| format!("illegal move {sq}: {e}")),
        None => pos.pass().map_err(|e| format!("illegal pass: {e}")),
    }
}

fn move_text(mv: Option<Square>) -> String {
    mv.map_or_else(|| "PA".to_string(), |s| s.to_upper())
}

impl<'w> NBoard<'w> {
    /// A session on `weights`, from the initial position, depth 10.
    #[must_use]
    pub fn new(weights: &'w PatternWeights) -> NBoard<'w> {
        NBoard {
            weights,
            book: None,
            positions: vec![Position::initial()],
            depth: 10,
            contempt: 0,
            node_budget: NODE_BUDGET,
        }
    }

    /// The same session answering from `book` where it can.
    #[must_use]
    pub fn with_book(mut self, book: Option<&'w Book>) -> NBoard<'w> {
        self.book = book;
        self
    }

    /// The book's moves of `pos`, best first, when the book expanded it.
    fn book_moves(&self, pos: &Position) -> Option<Vec<engine::BookMove>> {
        let book = self.book?;
        book.is_expanded(pos).then(|| book.moves(pos))
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> Position {
        *self.positions.last().unwrap_or(&Position::initial())
    }

    /// The contempt last set (centi-discs; not used by the search).
    #[must_use]
    pub fn contempt(&self) -> i32 {
        self.contempt
    }

    fn limits(&self) -> Limits<'static> {
        Limits {
            depth: self.depth,
            max_nodes: self.node_budget,
            exact_from_empties: self.depth.clamp(20, 24),
            time_ms: None,
            threads: 1,
            stop: None,
        }
    }

    /// Handles one line; writes the answers to `out` and complaints to
    /// `err`. Returns `false` after `quit`.
    pub fn handle(
        &mut self,
        line: &str,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> std::io::Result<bool> {
        let line = line.trim();
        let (cmd, arg) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let arg = arg.trim();
        match cmd {
            "" => {}
            "nboard" => {
                if arg != "2" {
                    writeln!(err, "nboard: protocol version 2 expected, got '{arg}'")?;
                }
                writeln!(out, "set myname {NAME}")?;
            }
            "set" => {
                let (what, value) = arg.split_once(char::is_whitespace).unwrap_or((arg, ""));
                let value = value.trim();
                match what {
                    "depth" => match value.parse::<u32>() {
                        Ok(d) if (1..=60).contains(&d) => self.depth = d,
                        _ => writeln!(err, "nboard: bad depth '{value}'")?,
                    },
                    "game" => match self.set_game(value) {
                        Ok(()) => {}
                        Err(e) => writeln!(err, "nboard: {e}")?,
                    },
                    "contempt" => match value.parse::<i32>() {
                        Ok(c) => self.contempt = c,
                        Err(_) => writeln!(err, "nboard: bad contempt '{value}'")?,
                    },
                    _ => writeln!(err, "nboard: unknown setting '{what}' ignored")?,
                }
            }
            "move" => {
                let mv = arg.split('/').next().unwrap_or("").trim();
                let parsed = if mv.eq_ignore_ascii_case("pa") || mv.eq_ignore_ascii_case("pass") {
                    Ok(None)
                } else {
                    mv.parse::<Square>().map(Some).map_err(|e| e.to_string())
                };
                match parsed.and_then(|m| apply(&self.position(), m)) {
                    Ok(p) => self.positions.push(p),
                    Err(e) => writeln!(err, "nboard: move '{arg}': {e}")?,
                }
            }
            "go" => {
                writeln!(out, "status thinking")?;
                out.flush()?;
                let t = Instant::now();
                let pos = self.position();
                if let Some(best) = self.book_moves(&pos).and_then(|m| m.first().copied()) {
                    let secs = t.elapsed().as_secs_f64();
                    writeln!(out, "nodestats 0 {secs:.2}")?;
                    writeln!(
                        out,
                        "=== {}/{:.2}/{secs:.2}",
                        best.square.to_upper(),
                        best.value.discs()
                    )?;
                    writeln!(out, "status")?;
                    out.flush()?;
                    return Ok(true);
                }
                let r = evaluate_position(&pos, self.weights, self.limits());
                let secs = t.elapsed().as_secs_f64();
                writeln!(out, "nodestats {} {secs:.2}", r.nodes)?;
                writeln!(
                    out,
                    "=== {}/{:.2}/{secs:.2}",
                    move_text(r.best_move),
                    r.value
                )?;
                writeln!(out, "status")?;
            }
            "hint" => {
                let n = arg.parse::<usize>().unwrap_or(1).max(1);
                writeln!(out, "status thinking")?;
                out.flush()?;
                let pos = self.position();
                if pos.is_game_over() {
                    // Nothing to hint.
                } else if let Some(moves) = self.book_moves(&pos) {
                    for m in moves.iter().take(n) {
                        writeln!(
                            out,
                            "book {} {:.2} 0 {}",
                            m.square.to_upper(),
                            m.value.discs(),
                            m.value.depth
                        )?;
                    }
                } else if let (true, Ok(after)) = (pos.must_pass(), pos.pass()) {
                    let r = evaluate_position(&after, self.weights, self.limits());
                    let depth = if r.exact {
                        "100%".to_string()
                    } else {
                        r.depth.to_string()
                    };
                    writeln!(out, "search PA {:.2} 0 {depth}", -r.value)?;
                } else {
                    let scores = score_all_moves(&pos, self.weights, self.limits());
                    for s in scores.iter().take(n) {
                        let depth = if s.exact {
                            "100%".to_string()
                        } else {
                            self.depth.to_string()
                        };
                        writeln!(
                            out,
                            "search {} {:.2} 0 {depth}",
                            s.square.to_upper(),
                            s.value
                        )?;
                    }
                }
                writeln!(out, "status")?;
            }
            "analyze" => {
                writeln!(out, "status analysing")?;
                out.flush()?;
                let limits = Limits {
                    max_nodes: ANALYZE_BUDGET,
                    ..self.limits()
                };
                for (i, pos) in self.positions.iter().enumerate().rev() {
                    let r = evaluate_position(pos, self.weights, limits);
                    writeln!(out, "analysis {i} {:.2}", r.value)?;
                }
                writeln!(out, "status")?;
            }
            "learn" => writeln!(out, "learned")?,
            "ping" => writeln!(out, "pong {arg}")?,
            "quit" | "eof" => {
                out.flush()?;
                return Ok(false);
            }
            _ => writeln!(err, "nboard: unknown command '{line}' ignored")?,
        }
        out.flush()?;
        err.flush()?;
        Ok(true)
    }

    /// `set game`: the position at the end of the game.
    fn set_game(&mut self, ggf: &str) -> Result<(), String> {
        let (start, moves) = parse_ggf(ggf)?;
        let mut positions = vec![start];
        let mut pos = start;
        for mv in moves {
            // A pass written where the side to move has a move, or a move
            // played after an unwritten pass, is taken as meant.
            let mv_pos = match mv {
                None if !pos.must_pass() => continue,
                Some(_) if pos.must_pass() => {
                    pos = apply(&pos, None)?;
                    positions.push(pos);
                    apply(&pos, mv)?
                }
                _ => apply(&pos, mv)?,
            };
            pos = mv_pos;
            positions.push(pos);
        }
        self.positions = positions;
        Ok(())
    }
}

/// Runs the protocol until `quit` or the end of the input.
pub fn run(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
    weights: &PatternWeights,
) -> std::io::Result<()> {
    run_with_book(input, out, err, weights, None)
}

/// [`run`] answering from an opening book where it can.
pub fn run_with_book(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
    weights: &PatternWeights,
    book: Option<&Book>,
) -> std::io::Result<()> {
    let mut session = NBoard::new(weights).with_book(book);
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        if !session.handle(&line, out, err)? {
            return Ok(());
        }
    }
}
