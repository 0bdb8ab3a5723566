//! A table as a state machine with no I/O: `apply(command) -> events`.
//!
//! The table owns the rules of a sitting — turns, automatic passes, the end of a
//! round, resignation, rematch votes and the tally — on top of the engine's
//! [`Game`]. Persistence, broadcasting and the AI wrap it (see `hub`), and
//! restart recovery replays stored commands through this same `apply`.

use app::protocol::{
    BoardSnapshot, EndReason, HistoryEntry, RoundStatus, Side, TableMode, TableView, Tally, Votes,
};
use engine::{Bitboard, Color, Game, GameEvent, PlayError, Position, Square};
use std::fmt;

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
    /// Both players left an online table: the round ends with no winner.
    Abandon,
    /// `side` ran out of time on its clock (a timed online table).
    Flag {
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
}

/// Why a command was refused. Nothing changes when one is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    NotYourTurn { to_move: Side },
    GameOver,
    GameNotOver,
    Illegal(PlayError),
    NotASeat,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::NotYourTurn { to_move } => {
                write!(f, "It is not your turn: {} is to move.", to_move.name())
            }
            TableError::GameOver => f.write_str("The game is over: start a rematch to play again."),
            TableError::GameNotOver => {
                f.write_str("A rematch can only be voted for once the game is over.")
            }
            TableError::Illegal(PlayError::SquareOccupied(square)) => {
                write!(f, "Square {square} is taken.")
            }
            TableError::Illegal(PlayError::NoFlips(square)) => write!(
                f,
                "A disc on {square} would flip nothing: a move must outflank at least one disc."
            ),
            TableError::Illegal(other) => write!(f, "Illegal move: {other}."),
            TableError::NotASeat => f.write_str("You are not seated at this table."),
        }
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
pub fn playable_start(obf: &str) -> Result<Position, String> {
    let text = obf.trim();
    if text.is_empty() {
        return Err("Paste a position in OBF: 64 cells (X, O or -) from a1 to h8, a space, then X or O for the side to move.".into());
    }
    if text.len() > 200 {
        return Err("That is too long for an OBF position (64 cells, a space, X or O).".into());
    }
    let position = Position::from_obf(text).map_err(|e| {
        format!("This is not a valid OBF position: {e}. Expected 64 cells (X, O or -) from a1 to h8, a space, then X or O.")
    })?;
    let cells = position.to_cells();
    let empty_centre: Vec<String> = [27usize, 28, 35, 36]
        .into_iter()
        .filter(|&i| cells[i] == 0)
        .filter_map(|i| Square::new(i).map(|s| s.to_string()))
        .collect();
    if !empty_centre.is_empty() {
        return Err(format!(
            "This position cannot happen in Othello: the centre square{} {} {} empty.",
            if empty_centre.len() == 1 { "" } else { "s" },
            empty_centre.join(", "),
            if empty_centre.len() == 1 { "is" } else { "are" }
        ));
    }
    if position.is_game_over() {
        return Err(
            "Neither side has a legal move in this position: the game is already over.".into(),
        );
    }
    Ok(position)
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
    notice: Option<String>,
    /// The side whose pass the notice reports: the notice stays until that
    /// side's next move.
    pass_pending: Option<Side>,
    /// Every finished round before the current one, in order.
    past: Vec<PastRound>,
    /// Grows with every accepted command (drives redraws in the browser).
    version: u64,
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
            past: Vec::new(),
            version: 1,
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

    fn set_pass_notice(&mut self, passer: Side) {
        self.pass_pending = Some(passer);
        self.notice = Some(format!(
            "{} has no legal move and passes; {} plays again.",
            passer.name(),
            passer.opponent().name()
        ));
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
                vec![self.finish(None, EndReason::Abandoned)]
            }
            Command::Flag { side } => {
                if self.outcome.is_some() {
                    return Err(TableError::GameOver);
                }
                vec![self.finish(Some(side.opponent()), EndReason::Time)]
            }
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

    fn resign(&mut self, resigner: Side) -> Result<Vec<Event>, TableError> {
        if self.outcome.is_some() {
            return Err(TableError::GameOver);
        }
        let over = self.finish(Some(resigner.opponent()), EndReason::Resigned);
        Ok(vec![Event::Resigned { side: resigner }, over])
    }

    fn finish(&mut self, winner: Option<Side>, reason: EndReason) -> Event {
        self.outcome = Some(Outcome { winner, reason });
        self.pass_pending = None;
        match (winner, reason) {
            (_, EndReason::Abandoned) => {}
            (Some(Side::Black), _) => self.tally.black_wins += 1,
            (Some(Side::White), _) => self.tally.white_wins += 1,
            (None, _) => self.tally.draws += 1,
        }
        let position = self.game.position();
        let score = format!(
            "{}–{}",
            position.count(Color::Black),
            position.count(Color::White)
        );
        self.notice = Some(match (winner, reason) {
            (Some(w), EndReason::Resigned) => {
                format!("{} resigns. {} wins.", w.opponent().name(), w.name())
            }
            (Some(w), EndReason::Finished) => format!("Game over: {} wins {score}.", w.name()),
            (Some(w), EndReason::Timeout) => format!(
                "{} left and did not come back in time. {} wins.",
                w.opponent().name(),
                w.name()
            ),
            (_, EndReason::Abandoned) => {
                "Both players left: the game is abandoned and nobody wins.".to_string()
            }
            (Some(w), EndReason::Time) => format!(
                "{} ran out of time. {} wins on time.",
                w.opponent().name(),
                w.name()
            ),
            (None, _) => format!("Game over: a draw, {score}."),
        });
        Event::RoundOver { winner, reason }
    }

    fn vote(&mut self, voter: Side, vote: bool) -> Result<Vec<Event>, TableError> {
        if self.outcome.is_none() {
            return Err(TableError::GameNotOver);
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
                self.past.push(PastRound {
                    round: self.round,
                    game: self.game.clone(),
                    outcome,
                });
            }
            self.round += 1;
            self.game = Game::from_position(self.start);
            self.outcome = None;
            self.votes = Votes::default();
            self.notice = Some(format!("Rematch: round {} begins.", self.round));
            self.pass_pending = None;
            self.note_opening_pass();
            events.push(Event::RematchStarted { round: self.round });
        } else if vote {
            self.notice = Some(format!(
                "{} wants a rematch; waiting for {}.",
                voter.name(),
                voter.opponent().name()
            ));
        } else {
            self.notice = Some(format!("{} withdrew the rematch vote.", voter.name()));
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
    pub fn view(&self, id: &str, you: Vec<Side>, ai_thinking: bool) -> TableView {
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
            id: id.to_string(),
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().expect("valid square")
    }

    fn place(table: &mut Table, side: Side, name: &str) -> Result<Vec<Event>, TableError> {
        table.apply(Command::Place {
            side,
            square: sq(name),
        })
    }

    #[test]
    fn hot_seat_turns_alternate_and_out_of_turn_is_refused() {
        let mut table = Table::new(TableMode::HotSeat);
        assert_eq!(table.to_move(), Some(Side::Black));
        let err = place(&mut table, Side::White, "f5").unwrap_err();
        assert_eq!(
            err,
            TableError::NotYourTurn {
                to_move: Side::Black
            }
        );
        place(&mut table, Side::Black, "f5").expect("legal");
        assert_eq!(table.to_move(), Some(Side::White));
        place(&mut table, Side::White, "f6").expect("legal");
        assert_eq!(table.to_move(), Some(Side::Black));
    }

    #[test]
    fn invalid_moves_are_refused_with_their_message_and_change_nothing() {
        let mut table = Table::new(TableMode::HotSeat);
        let before = table.view("t", vec![], false);
        let taken = place(&mut table, Side::Black, "d4").unwrap_err();
        assert_eq!(taken.to_string(), "Square d4 is taken.");
        let no_flip = place(&mut table, Side::Black, "a1").unwrap_err();
        assert!(
            no_flip.to_string().contains("would flip nothing"),
            "{no_flip}"
        );
        assert_eq!(table.view("t", vec![], false), before);
    }

    #[test]
    fn resign_ends_the_round_once_and_counts_in_the_tally() {
        let mut table = Table::new(TableMode::HotSeat);
        let events = table
            .apply(Command::Resign { side: Side::Black })
            .expect("resign");
        assert_eq!(
            events.last(),
            Some(&Event::RoundOver {
                winner: Some(Side::White),
                reason: EndReason::Resigned
            })
        );
        assert_eq!(table.tally().white_wins, 1);
        assert_eq!(
            table.apply(Command::Resign { side: Side::White }),
            Err(TableError::GameOver)
        );
        assert_eq!(table.tally().white_wins, 1);
    }

    #[test]
    fn hot_seat_rematch_needs_both_votes_and_keeps_the_tally() {
        let mut table = Table::new(TableMode::HotSeat);
        assert_eq!(
            table.apply(Command::Vote {
                side: Side::Black,
                vote: true
            }),
            Err(TableError::GameNotOver)
        );
        table
            .apply(Command::Resign { side: Side::White })
            .expect("resign");
        table
            .apply(Command::Vote {
                side: Side::Black,
                vote: true,
            })
            .expect("vote");
        assert_eq!(table.round(), 1);
        table
            .apply(Command::Vote {
                side: Side::Black,
                vote: false,
            })
            .expect("withdraw");
        table
            .apply(Command::Vote {
                side: Side::White,
                vote: true,
            })
            .expect("vote");
        assert_eq!(table.round(), 1, "black withdrew, so no rematch yet");
        let events = table
            .apply(Command::Vote {
                side: Side::Black,
                vote: true,
            })
            .expect("vote");
        assert!(events.contains(&Event::RematchStarted { round: 2 }));
        assert_eq!(table.round(), 2);
        assert_eq!(table.tally().black_wins, 1);
        assert_eq!(table.to_move(), Some(Side::Black));
        assert_eq!(table.game().moves().len(), 0);
    }

    #[test]
    fn the_ai_accepts_a_rematch_at_once() {
        let mode = TableMode::VsAi {
            depth: 2,
            human: Side::White,
        };
        let mut table = Table::new(mode);
        assert!(
            table.ai_to_move(),
            "black (the AI) opens when the human plays white"
        );
        table
            .apply(Command::Resign { side: Side::White })
            .expect("resign");
        let events = table
            .apply(Command::Vote {
                side: Side::White,
                vote: true,
            })
            .expect("vote");
        assert!(events.contains(&Event::RematchStarted { round: 2 }));
        assert_eq!(table.mode(), mode, "colours and depth carry over");
        assert_eq!(table.tally().black_wins, 1);
    }

    #[test]
    fn a_whole_game_ends_with_automatic_passes_and_one_tally_entry() {
        // Play greedily (first legal move) until the end.
        let mut table = Table::new(TableMode::HotSeat);
        let mut passes = 0;
        while let Some(to_move) = table.to_move() {
            let square = table
                .game()
                .position()
                .legal_moves()
                .first()
                .expect("a move");
            let events = table
                .apply(Command::Place {
                    side: to_move,
                    square,
                })
                .expect("legal");
            passes += events
                .iter()
                .filter(|e| matches!(e, Event::Passed { .. }))
                .count();
        }
        let tally = table.tally();
        assert_eq!(tally.black_wins + tally.white_wins + tally.draws, 1);
        let view = table.view("t", vec![], false);
        assert_eq!(
            view.history.iter().filter(|h| h.square.is_none()).count(),
            passes
        );
        assert!(view.board.legal.is_empty());
        assert!(matches!(view.status, RoundStatus::Over { .. }));
    }

    #[test]
    fn a_forfeit_counts_once_and_an_abandoned_round_counts_for_nobody() {
        let mut table = Table::new(TableMode::Online {
            private: true,
            time: None,
        });
        table
            .apply(Command::Forfeit { side: Side::Black })
            .expect("forfeit");
        assert_eq!(table.tally().white_wins, 1);
        assert_eq!(
            table.apply(Command::Forfeit { side: Side::White }),
            Err(TableError::GameOver)
        );
        assert_eq!(table.tally().white_wins, 1);
        table
            .apply(Command::Vote {
                side: Side::Black,
                vote: true,
            })
            .expect("vote");
        table
            .apply(Command::Vote {
                side: Side::White,
                vote: true,
            })
            .expect("vote");
        table.apply(Command::Abandon).expect("abandon");
        let tally = table.tally();
        assert_eq!((tally.black_wins, tally.white_wins, tally.draws), (0, 1, 0));
        assert_eq!(table.outcome().map(|o| o.winner), Some(None));
    }

    /// Black to move with one move, c6, after which white must pass and black
    /// plays again (a6); then white's only move, a7, fills the board. White
    /// has no move in this position either.
    const HUMAN_MUST_PASS: &str =
        "OOOOOOOXOOOOOOXXOOOOOXXXOOOOOOXXOOOOOOXX-O-OXOXX-XXXXXXXXXXXXXXX X";

    #[test]
    fn a_pass_notice_stays_until_the_passer_moves_again() {
        // The human plays white, the AI black: the human must pass.
        let start = playable_start(HUMAN_MUST_PASS).expect("playable");
        let mode = TableMode::VsAi {
            depth: 1,
            human: Side::White,
        };
        let mut table = Table::from_position(mode, start);
        assert!(table.ai_to_move());
        let events = place(&mut table, Side::Black, "c6").expect("the AI's move");
        assert!(events.contains(&Event::Passed { side: Side::White }));
        let notice = "White has no legal move and passes; Black plays again.";
        assert_eq!(
            table.view("t", vec![], false).notice.as_deref(),
            Some(notice)
        );
        // The AI moves again at once: the notice stays.
        let square = table
            .game()
            .position()
            .legal_moves()
            .first()
            .expect("a move");
        table
            .apply(Command::Place {
                side: Side::Black,
                square,
            })
            .expect("the AI's second move");
        let view = table.view("t", vec![Side::White], false);
        assert_eq!(view.notice.as_deref(), Some(notice));
        assert_eq!(
            view.history.iter().filter(|h| h.square.is_none()).count(),
            1,
            "the move list shows the pass"
        );
        assert_eq!(
            view.status,
            RoundStatus::Playing {
                to_move: Side::White
            }
        );
        // The human's own next move clears it.
        let square = table
            .game()
            .position()
            .legal_moves()
            .first()
            .expect("a move");
        table
            .apply(Command::Place {
                side: Side::White,
                square,
            })
            .expect("the human's move");
        let notice = table.view("t", vec![], false).notice.unwrap_or_default();
        assert!(!notice.contains("White has no legal move"), "{notice}");
    }

    #[test]
    fn a_table_from_a_position_replays_it_in_every_round() {
        let start = playable_start(HUMAN_MUST_PASS).expect("playable");
        let mut table = Table::from_position(TableMode::HotSeat, start);
        assert_eq!(
            table.view("t", vec![], false).black_count,
            start.count(Color::Black) as u8
        );
        table
            .apply(Command::Resign { side: Side::White })
            .expect("resign");
        for side in [Side::Black, Side::White] {
            table
                .apply(Command::Vote { side, vote: true })
                .expect("vote");
        }
        assert_eq!(table.round(), 2);
        assert_eq!(*table.game().position(), start);
        assert_eq!(table.past_rounds().len(), 1);
        assert_eq!(table.past_rounds()[0].round, 1);
        // A start where the side to move must pass records the pass at once.
        let black_passes = HUMAN_MUST_PASS.replace(" X", " O");
        let start = playable_start(&black_passes).expect("playable");
        let table = Table::from_position(TableMode::HotSeat, start);
        let view = table.view("t", vec![], false);
        assert_eq!(view.history.len(), 1);
        assert!(view
            .notice
            .unwrap_or_default()
            .contains("White has no legal move"));
    }

    #[test]
    fn malformed_or_impossible_positions_are_refused_with_a_reason() {
        assert!(playable_start("").unwrap_err().contains("Paste a position"));
        assert!(playable_start("XO")
            .unwrap_err()
            .contains("not a valid OBF"));
        let bad_char = format!("{}Z X", "-".repeat(63));
        assert!(playable_start(&bad_char)
            .unwrap_err()
            .contains("not a valid OBF"));
        let no_side = "-".repeat(64);
        assert!(playable_start(&no_side)
            .unwrap_err()
            .contains("not a valid OBF"));
        let empty = format!("{} X", "-".repeat(64));
        assert!(playable_start(&empty)
            .unwrap_err()
            .contains("centre squares d4, e4, d5, e5 are empty"));
        let full = format!("{} X", "X".repeat(64));
        assert!(playable_start(&full).unwrap_err().contains("already over"));
        assert!(playable_start(&"X".repeat(500))
            .unwrap_err()
            .contains("too long"));
        let initial = Position::initial().to_obf();
        assert_eq!(playable_start(&initial), Ok(Position::initial()));
    }

    #[test]
    fn a_pass_is_announced() {
        // Find a game from random-ish first moves where a pass happens.
        let mut found = false;
        for seed in 0..200u64 {
            let mut table = Table::new(TableMode::HotSeat);
            let mut state = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            while let Some(to_move) = table.to_move() {
                let moves: Vec<Square> = table.game().position().legal_moves().iter().collect();
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let square = moves[(state >> 33) as usize % moves.len()];
                let events = table
                    .apply(Command::Place {
                        side: to_move,
                        square,
                    })
                    .expect("legal");
                if let Some(Event::Passed { side }) =
                    events.iter().find(|e| matches!(e, Event::Passed { .. }))
                {
                    let notice = table.view("t", vec![], false).notice.unwrap_or_default();
                    if table.to_move().is_some() {
                        assert!(
                            notice.contains(&format!("{} has no legal move", side.name())),
                            "{notice}"
                        );
                        assert_eq!(table.to_move(), Some(side.opponent()));
                        found = true;
                    }
                }
            }
            if found {
                break;
            }
        }
        assert!(found, "some random game has a pass");
    }
}
