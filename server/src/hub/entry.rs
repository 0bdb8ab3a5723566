//! One live table in memory: the rules' state, its seats and clocks, the
//! sequence number of its next stored row and its broadcast channel, with
//! the questions the hub asks of it (who may play, whose clock runs, which
//! timer is due).

use crate::clock_control::GameClock;
use crate::seating::{SeatCommand, SeatEvent, Seating};
use crate::table::{Command, Table};
use app::protocol::{Session, Side, TableId, TableMode};
use tokio::sync::broadcast;

use super::Update;

/// A live table and everything the hub keeps beside its rules.
pub(super) struct Entry {
    pub(super) id: TableId,
    pub(super) table: Table,
    pub(super) owner: String,
    /// Whose turn the AI's searches wait for (the AI pool is fair per
    /// key): the creator's address (`ip:<key>`) when known, else `owner`.
    pub(super) ai_key: String,
    /// The seat rules of an online table (None for the other modes).
    pub(super) seating: Option<Seating>,
    /// The clocks of a timed online table (None: untimed or another mode).
    pub(super) clock: Option<GameClock>,
    /// Time used by each placement, per round (index: round − 1), for exports.
    pub(super) times: Vec<Vec<Option<i64>>>,
    pub(super) next_seq: i64,
    /// The stored version this copy is at (PostgreSQL; 0 on SQLite, where
    /// this process holds the only copy).
    pub(super) version: i64,
    pub(super) ai_thinking: bool,
    pub(super) ai_search: Option<app::protocol::AiSearch>,
    /// The jobs (timer, AI move, its lease) this instance last stored for
    /// the table on PostgreSQL; None: unknown (not stored since loading or
    /// catching up), so the next write stores them.
    pub(super) jobs_stored: Option<(Option<i64>, Option<i64>, Option<i64>)>,
    /// Failed commits of this round's end in a row (bounded: see
    /// `command::MAX_FAILED_ROUND_COMMITS`).
    pub(super) failed_commits: u32,
    pub(super) updates: broadcast::Sender<Update>,
}

impl Entry {
    pub(super) fn is_online(&self) -> bool {
        self.seating.is_some()
    }

    /// The sides a session may play at this table.
    pub(super) fn seats(&self, session: &Session) -> Vec<Side> {
        match (self.table.mode(), &self.seating) {
            (_, Some(seating)) => seating.sides_of(session.as_str()),
            (TableMode::VsAi { human, .. }, None) if session.as_str() == self.owner => vec![human],
            (TableMode::HotSeat, None) if session.as_str() == self.owner => {
                vec![Side::Black, Side::White]
            }
            _ => Vec::new(),
        }
    }

    pub(super) fn both_seated(&self) -> bool {
        self.seating.as_ref().is_none_or(Seating::both_taken)
    }

    /// The side whose clock should run now: the side to move of a round in
    /// progress with both seats taken.
    pub(super) fn clock_side(&self) -> Option<Side> {
        if self.both_seated() {
            self.table.to_move()
        } else {
            None
        }
    }

    /// What the table's timers ask for at `now`: the earliest of a grace that
    /// ended and a flag that fell (whichever ended first decides).
    pub(super) fn due_timer(&mut self, now: i64) -> Option<Command> {
        let seat = self
            .seating
            .as_mut()
            .and_then(|s| s.apply(SeatEvent::Tick, now).ok().flatten());
        let flag = self.clock.as_ref().and_then(|c| c.flag(now));
        match (seat, flag) {
            (None, None) => None,
            (Some(command), None) => Some(seat_command(command)),
            (None, Some(side)) => Some(self.flag_command(side)),
            (Some(command), Some(side)) => {
                let grace_end = self.seating.as_ref().and_then(|s| {
                    [Side::Black, Side::White]
                        .into_iter()
                        .filter_map(|side| s.deadline(side))
                        .min()
                });
                let flag_end = self.clock.as_ref().and_then(GameClock::deadline);
                if flag_end <= grace_end {
                    Some(self.flag_command(side))
                } else {
                    Some(seat_command(command))
                }
            }
        }
    }
}

impl Entry {
    /// The command for `side`'s fallen flag: in a tournament's game whose
    /// first-move timer ran out while the opponent is absent too, neither
    /// came — both lose (the table's abandon before any move).
    fn flag_command(&self, side: Side) -> Command {
        let first_move = self.clock.as_ref().is_some_and(|c| !c.started(side));
        let tournament = matches!(
            self.table.mode(),
            app::protocol::TableMode::Online {
                tournament: true,
                ..
            }
        );
        let opponent_absent = self
            .seating
            .as_ref()
            .is_some_and(|s| !s.present(side.opponent()));
        if first_move && tournament && opponent_absent {
            Command::Abandon
        } else {
            Command::Flag { side }
        }
    }
}

pub(super) fn seat_command(command: SeatCommand) -> Command {
    match command {
        SeatCommand::Forfeit { side } => Command::Forfeit { side },
        SeatCommand::Abandon => Command::Abandon,
    }
}
