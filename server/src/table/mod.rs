//! A table as a state machine with no I/O: `apply(command) -> events`.
//!
//! The table owns the rules of a sitting — turns, automatic passes, the end of a
//! round, resignation, rematch votes and the tally — on top of the engine's
//! [`Game`]. Persistence, broadcasting and the AI wrap it (see `hub`), and
//! restart recovery replays stored commands through this same `apply`.
//! (Over 600 lines: the whole state machine in one place; its tests are in
//! `table/tests.rs`.)

use app::i18n::Msg;
use app::msg;
use app::protocol::{
    BoardSnapshot, EndReason, HistoryEntry, RoundStatus, Side, TableId, TableMode, TableView,
    Tally, Votes,
};
use engine::{Bitboard, Color, Game, GameEvent, PlayError, Position, Square};

/// A command made as one side of the board (the hub has already checked that
/// the caller holds that side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Place {
        side: Side,
        square: Square,
    },
    Resign {
        side: Side,
    },
    Vote {
        side: Side,
        vote: bool,
    },
    /// `side` left an online table and did not return within the grace period.
    Forfeit {
        side: Side,
    },
    /// Both players left an online table: the round ends with no winner (in
    /// a tournament's game before anyone moved: both lose by forfeit).
    Abandon,
    /// `side` ran out of time on its clock (a timed online table), or did
    /// not make its first move within its first-move timer: then, in a
    /// tournament's game it loses by forfeit, elsewhere the round is
    /// aborted.
    Flag {
        side: Side,
    },
    /// `side` goes berserk at an arena's table before its first move: half
    /// its clock, no increment (the hub's clock), an extra point for a win
    /// (the arena's standings).
    Berserk {
        side: Side,
    },
}

/// What an accepted command changed, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Placed {
        side: Side,
        square: Square,
        flipped: Bitboard,
    },
    Passed {
        side: Side,
    },
    Resigned {
        side: Side,
    },
    RoundOver {
        winner: Option<Side>,
        reason: EndReason,
    },
    Voted {
        side: Side,
        vote: bool,
    },
    RematchStarted {
        round: u32,
    },
    Berserked {
        side: Side,
    },
}

/// Why a command was refused. Nothing changes when one is returned; every
/// one is a rules refusal (422, see [`crate::error`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    NotYourTurn {
        to_move: Side,
    },
    GameOver,
    GameNotOver,
    Illegal(PlayError),
    NotASeat,
    RoundsSpent,
    /// A tournament's game has no rematch.
    NoRematch,
    /// Berserk is for a timed tournament table's player before their first
    /// move, once.
    NoBerserk,
    /// A tournament's game cannot be resigned before anyone has moved (a
    /// player who does not come loses by forfeit at the first-move timer).
    ResignBeforeFirstMove,
}

/// The most rounds one table plays: a rematch past it is refused ("start a
/// new table"), so a table's memory, its replay at start-up and its exports
/// stay bounded.
pub const MAX_ROUNDS: u32 = 500;

impl TableError {
    /// What a player reads, by key.
    pub fn msg(&self) -> Msg {
        match self {
            TableError::NotYourTurn { to_move } => {
                msg!("srv-not-your-turn", side = to_move.name())
            }
            TableError::GameOver | TableError::Illegal(PlayError::GameOver) => msg!("srv-over"),
            TableError::GameNotOver => msg!("srv-not-over"),
            TableError::Illegal(PlayError::SquareOccupied(square)) => {
                msg!("srv-taken", square = square.to_string())
            }
            TableError::Illegal(PlayError::NoFlips(square)) => {
                msg!("srv-no-flips", square = square.to_string())
            }
            TableError::Illegal(PlayError::MustPass(color)) => {
                msg!("srv-must-pass", side = side(*color).name())
            }
            TableError::Illegal(PlayError::CannotPass(color)) => {
                msg!("srv-cannot-pass", side = side(*color).name())
            }
            TableError::NotASeat => msg!("srv-not-seated"),
            TableError::RoundsSpent => msg!("srv-rounds-spent", limit = MAX_ROUNDS),
            TableError::NoRematch => msg!("srv-tournament-no-rematch"),
            TableError::NoBerserk => msg!("srv-no-berserk"),
            TableError::ResignBeforeFirstMove => msg!("srv-resign-before-first-move"),
        }
    }
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.msg().english())
    }
}

impl std::error::Error for TableError {}

/// Engine colour of a side.
pub fn color(side: Side) -> Color {
    match side {
        Side::Black => Color::Black,
        Side::White => Color::White,
    }
}

/// Side of an engine colour.
pub fn side(color: Color) -> Side {
    match color {
        Color::Black => Side::Black,
        Color::White => Side::White,
    }
}

/// Reads a start position from OBF text (64 cells `X`/`O`/`-` from a1 to h8,
/// then the side to move). Refused, with a message a player can read, when
/// the text is malformed, when a centre square (d4, e4, d5, e5: occupied from
/// the first move of every game) is empty, or when neither side can move.
pub fn playable_start(obf: &str) -> Result<Position, Msg> {
    let text = obf.trim();
    if text.is_empty() {
        return Err(msg!("srv-obf-paste"));
    }
    if text.len() > 200 {
        return Err(msg!("srv-obf-long"));
    }
    let position =
        Position::from_obf(text).map_err(|e| msg!("srv-obf-invalid", why = obf_why(&e)))?;
    let cells = position.to_cells();
    let empty_centre: Vec<String> = [27usize, 28, 35, 36]
        .into_iter()
        .filter(|&i| cells[i] == 0)
        .filter_map(|i| Square::new(i).map(|s| s.to_string()))
        .collect();
    if !empty_centre.is_empty() {
        let squares = empty_centre.join(", ");
        return Err(if empty_centre.len() == 1 {
            msg!("srv-centre-one", squares = squares)
        } else {
            msg!("srv-centre-many", squares = squares)
        });
    }
    if position.is_game_over() {
        return Err(msg!("srv-no-moves"));
    }
    Ok(position)
}

/// What is wrong with an OBF text, by key.
fn obf_why(error: &engine::ParseError) -> Msg {
    use engine::ParseError;
    match error {
        ParseError::WrongLength { found, .. } if *found > 64 => msg!("srv-obf-why-too-many"),
        ParseError::WrongLength { found, .. } => msg!("srv-obf-why-length", found = *found),
        ParseError::InvalidChar { column, found, .. } => msg!(
            "srv-obf-why-char",
            found = found.to_string(),
            column = *column
        ),
        ParseError::InvalidSideToMove(found) => msg!("srv-obf-why-side", found = found),
        other => msg!("srv-obf-why-other", detail = other.to_string()),
    }
}

/// The result of a finished round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub reason: EndReason,
}

/// A finished round, kept for the export.
#[derive(Clone, Debug)]
pub struct PastRound {
    pub round: u32,
    pub game: Game,
    pub outcome: Outcome,
}

/// One table: its settings, the current round, the tally and the votes.
#[derive(Clone, Debug)]
pub struct Table {
    mode: TableMode,
    /// The position every round starts from (the initial one, or a position
    /// the table was started from).
    start: Position,
    round: u32,
    game: Game,
    outcome: Option<Outcome>,
    tally: Tally,
    votes: Votes,
    notice: Option<Msg>,
    /// The side whose pass the notice reports: the notice stays until that
    /// side's next move.
    pass_pending: Option<Side>,
    /// Every finished round before the current one, in order; shared, so
    /// the copy each command is applied to does not copy them.
    past: std::sync::Arc<Vec<PastRound>>,
    /// Grows with every accepted command (drives redraws in the browser).
    version: u64,
    /// The sides that went berserk this round (black, white).
    berserk: [bool; 2],
}

impl Table {
    /// A new table, round 1, from the initial position.
    pub fn new(mode: TableMode) -> Self {
        Self::from_position(mode, Position::initial())
    }

    /// A new table whose rounds start from `start` (checked by the caller
    /// with [`playable_start`]). If the side to move must pass at once, the
    /// pass is recorded and announced.
    pub fn from_position(mode: TableMode, start: Position) -> Self {
        let mut table = Self {
            mode,
            start,
            round: 1,
            game: Game::from_position(start),
            outcome: None,
            tally: Tally::default(),
            votes: Votes::default(),
            notice: None,
            pass_pending: None,
            past: Default::default(),
            version: 1,
            berserk: [false; 2],
        };
        table.note_opening_pass();
        table
    }

    /// Announces a pass recorded when a round starts from a position whose
    /// side to move has no legal move.
    fn note_opening_pass(&mut self) {
        if let Some(GameEvent::Pass { color }) = self.game.events().first() {
            self.set_pass_notice(side(*color));
        }
    }

    /// Replaces the notice everyone reads (the hub's word on how a round
    /// was saved).
    pub fn set_notice(&mut self, notice: Msg) {
        self.pass_pending = None;
        self.notice = Some(notice);
    }

    fn set_pass_notice(&mut self, passer: Side) {
        self.pass_pending = Some(passer);
        self.notice = Some(msg!(
            "srv-pass",
            side = passer.name(),
            other = passer.opponent().name()
        ));
    }

    /// The table's version: grows with every accepted command (the same
    /// number as the view's `board.version`).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The position every round starts from.
    pub fn start(&self) -> Position {
        self.start
    }

    /// The finished rounds before the current one, in order.
    pub fn past_rounds(&self) -> &[PastRound] {
        &self.past
    }

    pub fn mode(&self) -> TableMode {
        self.mode
    }

    pub fn round(&self) -> u32 {
        self.round
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn tally(&self) -> Tally {
        self.tally
    }

    pub fn votes(&self) -> Votes {
        self.votes
    }

    /// The side to move, or `None` once the round is over.
    pub fn to_move(&self) -> Option<Side> {
        if self.outcome.is_some() {
            None
        } else {
            Some(side(self.game.position().side_to_move))
        }
    }

    /// The sides that went berserk this round (black, white).
    pub fn berserked(&self) -> [bool; 2] {
        self.berserk
    }

    /// The side the AI plays, at a table against the AI.
    pub fn ai_side(&self) -> Option<Side> {
        match self.mode {
            TableMode::VsAi { human, .. } => Some(human.opponent()),
            TableMode::HotSeat | TableMode::Online { .. } => None,
        }
    }

    /// Whether the AI is to move now.
    pub fn ai_to_move(&self) -> bool {
        self.ai_side().is_some() && self.to_move() == self.ai_side()
    }

    /// Applies a command. On error nothing has changed.
    pub fn apply(&mut self, command: Command) -> Result<Vec<Event>, TableError> {
        let events = match command {
            Command::Place { side, square } => self.place(side, square)?,
            Command::Resign { side } => self.resign(side)?,
            Command::Vote { side, vote } => self.vote(side, vote)?,
            Command::Forfeit { side } => {
                if self.outcome.is_some() {
                    return Err(TableError::GameOver);
                }
                vec![self.finish(Some(side.opponent()), EndReason::Timeout)]
            }
            Command::Abandon => {
                if self.outcome.is_some() {
                    return Err(TableError::GameOver);
                }
                if self.tournament() && !self.moved(Side::Black) && !self.moved(Side::White) {
                    vec![self.finish(None, EndReason::Forfeit)]
                } else {
                    vec![self.finish(None, EndReason::Abandoned)]
                }
            }
            Command::Flag { side } => {
                if self.outcome.is_some() {
                    return Err(TableError::GameOver);
                }
                // Only a timed online game has a first-move timer.
                let timed = matches!(self.mode, TableMode::Online { time: Some(_), .. });
                if self.moved(side) || !timed {
                    vec![self.finish(Some(side.opponent()), EndReason::Time)]
                } else if self.tournament() {
                    vec![self.finish(Some(side.opponent()), EndReason::Forfeit)]
                } else {
                    let over = self.finish(None, EndReason::Aborted);
                    self.notice = Some(msg!("srv-aborted-first-move", side = side.name()));
                    vec![over]
                }
            }
            Command::Berserk { side } => self.go_berserk(side)?,
        };
        self.version += 1;
        Ok(events)
    }

    fn place(&mut self, mover: Side, square: Square) -> Result<Vec<Event>, TableError> {
        let to_move = self.to_move().ok_or(TableError::GameOver)?;
        if to_move != mover {
            return Err(TableError::NotYourTurn { to_move });
        }
        let turn = self.game.play(square).map_err(TableError::Illegal)?;
        let mut events = vec![Event::Placed {
            side: mover,
            square,
            flipped: turn.flipped,
        }];
        // A pass notice stays until the side that passed moves again.
        if self.pass_pending.is_none_or(|passer| passer == mover) {
            self.notice = None;
            self.pass_pending = None;
        }
        if let Some(passer) = turn.auto_pass {
            let passer = side(passer);
            events.push(Event::Passed { side: passer });
            self.set_pass_notice(passer);
        }
        if self.game.position().is_game_over() {
            let winner = self.game.position().winner().map(side);
            events.push(self.finish(winner, EndReason::Finished));
        }
        Ok(events)
    }

    /// Whether this is a tournament's game.
    fn tournament(&self) -> bool {
        matches!(
            self.mode,
            TableMode::Online {
                tournament: true,
                ..
            }
        )
    }

    /// Whether `side` placed a disc this round.
    fn moved(&self, side: Side) -> bool {
        self.game
            .events()
            .iter()
            .any(|e| matches!(e, GameEvent::Move { color: c, .. } if *c == color(side)))
    }

    fn go_berserk(&mut self, side: Side) -> Result<Vec<Event>, TableError> {
        let timed_tournament = matches!(
            self.mode,
            TableMode::Online {
                time: Some(_),
                tournament: true,
                ..
            }
        );
        let index = usize::from(side == Side::White);
        let moved = self.moved(side);
        if !timed_tournament || self.outcome.is_some() || moved || self.berserk[index] {
            return Err(TableError::NoBerserk);
        }
        self.berserk[index] = true;
        self.notice = Some(msg!("srv-berserk", side = side.name()));
        Ok(vec![Event::Berserked { side }])
    }

    fn resign(&mut self, resigner: Side) -> Result<Vec<Event>, TableError> {
        if self.outcome.is_some() {
            return Err(TableError::GameOver);
        }
        if self.tournament() && !self.moved(Side::Black) && !self.moved(Side::White) {
            return Err(TableError::ResignBeforeFirstMove);
        }
        let over = self.finish(Some(resigner.opponent()), EndReason::Resigned);
        Ok(vec![Event::Resigned { side: resigner }, over])
    }

    fn finish(&mut self, winner: Option<Side>, reason: EndReason) -> Event {
        self.outcome = Some(Outcome { winner, reason });
        self.pass_pending = None;
        match (winner, reason) {
            (_, EndReason::Abandoned | EndReason::Aborted) | (None, EndReason::Forfeit) => {}
            (Some(Side::Black), _) => self.tally.black_wins += 1,
            (Some(Side::White), _) => self.tally.white_wins += 1,
            (None, _) => self.tally.draws += 1,
        }
        let position = self.game.position();
        let (black, white) = (position.count(Color::Black), position.count(Color::White));
        self.notice = Some(match (winner, reason) {
            (Some(w), EndReason::Resigned) => msg!(
                "srv-resigns",
                loser = w.opponent().name(),
                winner = w.name()
            ),
            (Some(w), EndReason::Finished) => msg!(
                "srv-game-over-win",
                winner = w.name(),
                black = black,
                white = white
            ),
            (Some(w), EndReason::Timeout) => {
                msg!("srv-left", loser = w.opponent().name(), winner = w.name())
            }
            (_, EndReason::Abandoned) => msg!("srv-abandoned"),
            (_, EndReason::Aborted) => msg!("srv-aborted"),
            (Some(w), EndReason::Forfeit) => {
                msg!(
                    "srv-forfeit",
                    loser = w.opponent().name(),
                    winner = w.name()
                )
            }
            (None, EndReason::Forfeit) => msg!("srv-forfeit-both"),
            (Some(w), EndReason::Time) => msg!(
                "srv-out-of-time",
                loser = w.opponent().name(),
                winner = w.name()
            ),
            (None, _) => msg!("srv-draw", black = black, white = white),
        });
        Event::RoundOver { winner, reason }
    }

    fn vote(&mut self, voter: Side, vote: bool) -> Result<Vec<Event>, TableError> {
        if self.outcome.is_none() {
            return Err(TableError::GameNotOver);
        }
        if vote && self.round >= MAX_ROUNDS {
            return Err(TableError::RoundsSpent);
        }
        if vote
            && matches!(
                self.mode,
                TableMode::Online {
                    tournament: true,
                    ..
                }
            )
        {
            return Err(TableError::NoRematch);
        }
        let mut events = vec![Event::Voted { side: voter, vote }];
        self.set_vote(voter, vote);
        // The AI accepts a rematch at once.
        if let Some(ai) = self.ai_side() {
            if vote && ai != voter {
                self.set_vote(ai, true);
                events.push(Event::Voted {
                    side: ai,
                    vote: true,
                });
            }
        }
        if self.votes.black && self.votes.white {
            if let Some(outcome) = self.outcome {
                std::sync::Arc::make_mut(&mut self.past).push(PastRound {
                    round: self.round,
                    game: self.game.clone(),
                    outcome,
                });
            }
            self.round += 1;
            self.berserk = [false; 2];
            self.game = Game::from_position(self.start);
            self.outcome = None;
            self.votes = Votes::default();
            self.notice = Some(msg!("srv-rematch", round = self.round));
            self.pass_pending = None;
            self.note_opening_pass();
            events.push(Event::RematchStarted { round: self.round });
        } else if vote {
            self.notice = Some(msg!(
                "srv-wants-rematch",
                side = voter.name(),
                other = voter.opponent().name()
            ));
        } else {
            self.notice = Some(msg!("srv-withdrew", side = voter.name()));
        }
        Ok(events)
    }

    fn set_vote(&mut self, side: Side, vote: bool) {
        match side {
            Side::Black => self.votes.black = vote,
            Side::White => self.votes.white = vote,
        }
    }

    /// The browser's view of this table; `you` are the viewer's sides.
    pub fn view(&self, id: &TableId, you: Vec<Side>, ai_thinking: bool) -> TableView {
        let position = self.game.position();
        let (last_move, flipped) = self
            .game
            .events()
            .iter()
            .rev()
            .find_map(|event| match event {
                GameEvent::Move {
                    square, flipped, ..
                } => Some((Some(square.index() as u8), *flipped)),
                GameEvent::Pass { .. } => None,
            })
            .unwrap_or((None, Bitboard::default()));
        let legal = if self.outcome.is_none() {
            position
                .legal_moves()
                .iter()
                .map(|s| s.index() as u8)
                .collect()
        } else {
            Vec::new()
        };
        let history = self
            .game
            .events()
            .iter()
            .map(|event| match *event {
                GameEvent::Move {
                    color,
                    square,
                    flipped,
                } => HistoryEntry {
                    side: side(color),
                    square: Some(square.to_string()),
                    flipped: flipped.count() as u8,
                },
                GameEvent::Pass { color } => HistoryEntry {
                    side: side(color),
                    square: None,
                    flipped: 0,
                },
            })
            .collect();
        let status = match (self.outcome, self.to_move()) {
            (Some(o), _) => RoundStatus::Over {
                winner: o.winner,
                reason: o.reason,
            },
            (None, Some(to_move)) => RoundStatus::Playing { to_move },
            (None, None) => RoundStatus::Over {
                winner: None,
                reason: EndReason::Finished,
            },
        };
        TableView {
            id: id.clone(),
            mode: self.mode,
            round: self.round,
            board: BoardSnapshot {
                cells: position.to_cells().to_vec(),
                legal,
                last_move,
                flipped: flipped.iter().map(|s| s.index() as u8).collect(),
                version: self.version,
                outcome: self.outcome.map(|o| {
                    o.winner
                        .map_or(0, |w| if w == Side::Black { 1 } else { -1 })
                }),
            },
            status,
            black_count: position.count(Color::Black) as u8,
            white_count: position.count(Color::White) as u8,
            history,
            tally: self.tally,
            votes: self.votes,
            ai_thinking,
            notice: self.notice.clone(),
            you,
            seats: None,
            ai_search: None,
            clocks: None,
            start: if *self.game.start() == Position::initial() {
                Vec::new()
            } else {
                self.game.start().to_cells().to_vec()
            },
            berserk: [Side::Black, Side::White]
                .into_iter()
                .filter(|s| self.berserk[usize::from(*s == Side::White)])
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests;
