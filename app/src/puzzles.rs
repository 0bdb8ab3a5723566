//! Puzzles as the pages see them: a position where one move is clearly best
//! (proved by the solver near the end, judged by the trained search
//! before), the moves a player tries, and the answer once the puzzle is over.
//! The server keeps the answer until then (`server/src/puzzles.rs`), rates
//! each first try with Glicko-2 (the player's puzzle rating against the
//! puzzle's), and picks puzzles near the player's rating.

use crate::api::CommandError;
use crate::protocol::Side;
use crate::ratings::ShownRating;
use serde::{Deserialize, Serialize};
use server_fn::codec::Json;

/// What a puzzle is about, computed from the position and its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Theme {
    /// The answer takes a corner.
    Corner,
    /// The answer is an X-square (diagonally next to a corner).
    XSquare,
    /// The answer is a C-square (next to a corner on an edge).
    CSquare,
    /// The greedy move (the most discs flipped) loses at least 8 more.
    Trap,
    /// Near the end, the answer plays into an odd region of empty squares.
    Parity,
    /// The answer wipes the opponent out.
    WipeOut,
    /// After the answer the opponent must pass.
    Tempo,
    /// The answer flips the fewest discs (at most 2).
    Quiet,
    /// Solved exactly to the end.
    Exact,
    /// Judged by the trained search (earlier in the game).
    Midgame,
    /// Several moves to find, the opponent's replies played between.
    MultiMove,
}

impl Theme {
    /// Every theme, in the order the filter lists them.
    pub const ALL: [Theme; 11] = [
        Theme::Corner,
        Theme::XSquare,
        Theme::CSquare,
        Theme::Trap,
        Theme::Parity,
        Theme::WipeOut,
        Theme::Tempo,
        Theme::Quiet,
        Theme::Exact,
        Theme::Midgame,
        Theme::MultiMove,
    ];

    /// Its name in URLs and in the puzzle file.
    pub fn key(self) -> &'static str {
        match self {
            Theme::Corner => "corner",
            Theme::XSquare => "x-square",
            Theme::CSquare => "c-square",
            Theme::Trap => "trap",
            Theme::Parity => "parity",
            Theme::WipeOut => "wipe-out",
            Theme::Tempo => "tempo",
            Theme::Quiet => "quiet",
            Theme::Exact => "exact",
            Theme::Midgame => "midgame",
            Theme::MultiMove => "multi-move",
        }
    }

    pub fn parse(key: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.key() == key)
    }
}

/// Which puzzle to serve.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PuzzleChoice {
    /// One near the player's rating, not tried before (of a theme, if given).
    Next { theme: Option<Theme> },
    /// The streak's `n`th puzzle (from 0): harder with each.
    Streak { n: u32 },
    /// The puzzle of the day: the same for everyone that day (UTC).
    Daily,
    /// A puzzle by its id (a link, or "try again").
    Id { id: String },
}

/// A puzzle to solve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleView {
    pub id: String,
    /// The position (64 cells: 1 black, −1 white, 0 empty).
    pub cells: Vec<i8>,
    /// Whose move it is: the side the player plays.
    pub side: Side,
    pub legal: Vec<u8>,
    /// How many moves the player must find (the opponent replies between).
    pub to_find: u32,
    /// The puzzle's rating (rounded).
    pub rating: i32,
    /// Proved exactly (else judged at `depth`).
    pub exact: bool,
    pub depth: Option<u32>,
    /// The puzzle of the day.
    pub daily: bool,
    /// The player's puzzle rating.
    pub you: ShownRating,
    /// Whether the player tried it before (a try now changes no rating).
    pub tried: bool,
    /// Why a try at it now would change no rating (None: it would be rated).
    #[serde(default)]
    pub unrated: Option<Unrated>,
}

/// Why a puzzle try changes no rating (the server's rating gate decides;
/// the page says which with a message key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unrated {
    /// Signed out: only accounts have a puzzle rating.
    SignedOut,
    /// Opened by link or id (or from the offline pack): only puzzles the
    /// site serves (next, the puzzle of the day) are rated.
    NotServed,
    /// Tried before.
    Answered,
    /// A streak: streaks change no rating.
    Streak,
    /// The account is marked as a rating abuser.
    Marked,
}

impl Unrated {
    /// The message key that says it.
    pub fn key(self) -> &'static str {
        match self {
            Unrated::SignedOut => "puzzles-unrated-signed-out",
            Unrated::NotServed => "puzzles-unrated-not-served",
            Unrated::Answered => "puzzles-unrated",
            Unrated::Streak => "puzzles-streak-help",
            Unrated::Marked => "puzzles-unrated-marked",
        }
    }
}

/// How a move in a puzzle went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StepOutcome {
    /// Right, and more to find: the opponent answered `reply` (None: they
    /// passed).
    Continue { reply: Option<u8> },
    /// Every move found.
    Solved,
    /// Not the move.
    Failed,
}

/// The answer, shown once the puzzle is over.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleSolution {
    /// Every legal move of the starting position with its value in discs
    /// for the player, best first.
    pub values: Vec<(u8, f32)>,
    pub exact: bool,
    /// The moves to find, the opponent's replies between.
    pub line: Vec<u8>,
    /// The best line from the start, as far as it is known.
    pub pv: Vec<u8>,
    /// What the puzzle was about: sent only once it is over, as the themes
    /// give the answer away ("corner").
    #[serde(default)]
    pub themes: Vec<Theme>,
}

/// The server's answer to a move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleStep {
    pub outcome: StepOutcome,
    /// The board after the move (and the opponent's reply, if any).
    pub cells: Vec<i8>,
    /// The player's legal moves there (while the puzzle goes on).
    pub legal: Vec<u8>,
    /// The answer, once solved or failed.
    pub solution: Option<PuzzleSolution>,
    /// The player's rating after a rated first try, and its change.
    pub rated: Option<(ShownRating, i32)>,
    /// Why the try changed no rating, once the puzzle is over and it was not rated.
    #[serde(default)]
    pub unrated: Option<Unrated>,
    /// The streak mode's: a wrong move ends it (nothing rated).
    pub streak: bool,
}

/// One of the player's tries, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleTry {
    pub id: String,
    pub solved: bool,
    /// The rating after it and its change, when it was rated.
    pub rating: Option<(i32, i32)>,
    pub at: i64,
}

/// How a replay of the player's moves along a puzzle's line went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Judged {
    /// Right so far; the position now (the player to move), the opponent's
    /// last reply.
    Going(engine::Position, Option<engine::Square>),
    Solved(engine::Position),
    /// The last move was not the answer; the position after it.
    Failed(engine::Position),
}

/// `pos` after the side to move passes, when it must (the game not over).
pub fn forced_passes(pos: engine::Position) -> engine::Position {
    if pos.must_pass() && !pos.is_game_over() {
        pos.pass().unwrap_or(pos)
    } else {
        pos
    }
}

/// Replays the player's `moves` along a puzzle's `line` (the moves to find
/// and the opponent's replies, in order) from `start`, forced passes played
/// between: the one judge of a puzzle, on the server and in the offline pack.
/// `Err` with the refused square when a move is not legal where it is
/// played or comes after the puzzle is over; `Err(None)` when the line
/// itself does not replay.
pub fn judge(
    start: engine::Position,
    line: &[engine::Square],
    moves: &[engine::Square],
) -> Result<Judged, Option<engine::Square>> {
    let me = start.side_to_move;
    let mut pos = start;
    let mut mine = moves.iter();
    let mut reply = None;
    for &expected in line {
        pos = forced_passes(pos);
        if pos.side_to_move == me {
            let Some(&played) = mine.next() else {
                return Ok(Judged::Going(pos, reply));
            };
            let after = pos.play(played).map_err(|_| Some(played))?.position;
            if played != expected {
                return Ok(Judged::Failed(after));
            }
            pos = after;
        } else {
            pos = pos.play(expected).map_err(|_| None)?.position;
            reply = Some(expected);
        }
    }
    match mine.next() {
        Some(extra) => Err(Some(*extra)),
        None => Ok(Judged::Solved(pos)),
    }
}

impl PuzzleStep {
    /// The answer to a judged move (on the server or in the offline pack):
    /// the board after it, the player's legal moves while the puzzle goes
    /// on, the `solution` once it is over; not rated, not a streak's.
    pub fn of(judged: Judged, solution: impl FnOnce() -> PuzzleSolution) -> PuzzleStep {
        let index = |s: engine::Square| s.index() as u8;
        let (outcome, pos) = match judged {
            Judged::Going(pos, reply) => (
                StepOutcome::Continue {
                    reply: reply.map(index),
                },
                pos,
            ),
            Judged::Solved(pos) => (StepOutcome::Solved, pos),
            Judged::Failed(pos) => (StepOutcome::Failed, pos),
        };
        let over = !matches!(outcome, StepOutcome::Continue { .. });
        PuzzleStep {
            outcome,
            cells: pos.to_cells().to_vec(),
            legal: if over {
                Vec::new()
            } else {
                pos.legal_moves().iter().map(index).collect()
            },
            solution: over.then(solution),
            rated: None,
            unrated: None,
            streak: false,
        }
    }
}

/// How many of `line`'s moves from `start` are the player's.
pub fn moves_to_find(start: engine::Position, line: &[engine::Square]) -> u32 {
    let mut pos = start;
    let mut count = 0;
    for &square in line {
        pos = forced_passes(pos);
        if pos.side_to_move == start.side_to_move {
            count += 1;
        }
        match pos.play(square) {
            Ok(after) => pos = after.position,
            Err(_) => break,
        }
    }
    count
}

/// Server-side glue: the trait the server implements.
#[cfg(feature = "ssr")]
pub mod backend {
    use super::*;
    use crate::api::backend::Caller;
    use std::sync::Arc;

    #[async_trait::async_trait]

    pub trait PuzzleBackend: Send + Sync + 'static {
        async fn puzzle(
            &self,
            caller: &Caller,
            choice: PuzzleChoice,
        ) -> Result<PuzzleView, CommandError>;
        async fn puzzle_move(
            &self,
            caller: &Caller,
            id: String,
            moves: Vec<u8>,
            streak: bool,
        ) -> Result<PuzzleStep, CommandError>;
        async fn puzzle_history(&self, caller: &Caller) -> Result<Vec<PuzzleTry>, CommandError>;
    }

    /// The puzzle backend, provided to server functions as context.
    #[derive(Clone)]
    pub struct PuzzleBackendHandle(pub Arc<dyn PuzzleBackend>);

    pub fn context() -> Result<Arc<dyn PuzzleBackend>, CommandError> {
        leptos::prelude::use_context::<PuzzleBackendHandle>()
            .map(|h| h.0)
            .ok_or_else(|| CommandError::unavailable(crate::msg!("srv-not-ready")))
    }
}

/// A puzzle to solve: see [`PuzzleChoice`].
#[leptos::server(endpoint = "puzzle", input = Json)]
pub async fn puzzle(choice: PuzzleChoice) -> Result<PuzzleView, CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?.puzzle(&caller, choice).await
}

/// The player's moves in puzzle `id` so far (the last one new): right,
/// wrong, or right with more to find.
#[leptos::server(endpoint = "puzzle_move", input = Json)]
pub async fn puzzle_move(
    id: String,
    moves: Vec<u8>,
    streak: bool,
) -> Result<PuzzleStep, CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?
        .puzzle_move(&caller, id, moves, streak)
        .await
}

/// The player's latest tries.
#[leptos::server(endpoint = "puzzle_history", input = Json)]
pub async fn puzzle_history() -> Result<Vec<PuzzleTry>, CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?.puzzle_history(&caller).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn themes_read_back_from_their_keys() {
        for theme in Theme::ALL {
            assert_eq!(Theme::parse(theme.key()), Some(theme));
            let json = serde_json::to_string(&theme).unwrap();
            assert_eq!(json, format!("\"{}\"", theme.key()));
        }
        assert_eq!(Theme::parse("nonsense"), None);
    }
}
