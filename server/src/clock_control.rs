//! The clocks of a timed online table, as one pure type driven by time passed
//! in (docs/PRODUCT.md, Online rules).
//!
//! [`GameClock`] does no I/O and reads no clock. The hub tells it when a turn
//! starts ([`GameClock::turn_started`], after every commit: the mover's time
//! runs from the moment the previous move was committed) and asks it whether a
//! flag has fallen ([`GameClock::flag`]).
//!
//! The rules:
//! - Each side starts a round with the control's base time.
//! - A side's clock starts at its own first move (lichess's rule): before
//!   it, a first-move timer runs instead (20 s in a tournament's game, 30 s
//!   elsewhere: `--first-move-secs-event`, `--first-move-secs`). The first
//!   move is not charged and adds no increment; a side that misses the
//!   timer is flagged like a side out of time, and the table decides what
//!   that means (a forfeit in a tournament, an aborted game elsewhere).
//! - Only the side to move has a running clock; it runs from the commit that
//!   gave it the move (or from the moment the round could start: both seats
//!   taken).
//! - When a side moves, the time it used is charged and the increment added.
//! - A forced pass costs nothing: the passing side's clock never starts, the
//!   mover's starts again from the commit.
//! - A clock stops when the round ends and restarts full at a rematch.
//! - After a restart the running clock resumes from the restart with the time
//!   left at the last commit: time while the server was down is not charged.

use app::protocol::{Clocks, FirstMove, Side, TimeControl};

fn index(side: Side) -> usize {
    match side {
        Side::Black => 0,
        Side::White => 1,
    }
}

/// Both clocks of one table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameClock {
    control: TimeControl,
    /// Time left in ms at the last stop/start (black, white).
    remaining: [i64; 2],
    /// The side whose clock runs and since when.
    running: Option<(Side, i64)>,
    /// The sides that went berserk: half the base time, no increment.
    berserk: [bool; 2],
    /// How long a side has for its first move, in ms.
    first_move_ms: i64,
    /// The sides that made their first move this round: their clocks run.
    started: [bool; 2],
}

impl GameClock {
    /// Fresh clocks for a round; nothing runs yet. `first_move_ms`: how
    /// long a side has for its first move.
    pub fn new(control: TimeControl, first_move_ms: i64) -> Self {
        let base = i64::from(control.base_s) * 1000;
        Self {
            control,
            remaining: [base, base],
            running: None,
            berserk: [false; 2],
            first_move_ms,
            started: [false; 2],
        }
    }

    /// Whether `side` made its first move this round (its clock runs).
    pub fn started(&self, side: Side) -> bool {
        self.started[index(side)]
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// How long a side has for its first move, in ms.
    pub fn first_move_ms(&self) -> i64 {
        self.first_move_ms
    }

    /// Stops the running clock at `now`, charging its side; answers the side
    /// and the time it used.
    fn stop(&mut self, now: i64) -> Option<(Side, i64)> {
        let (side, since) = self.running.take()?;
        let used = (now - since).max(0);
        if self.started[index(side)] {
            self.remaining[index(side)] -= used;
        }
        Some((side, used))
    }

    /// A side has just moved (its placement was committed at `now`): its time
    /// is charged and the increment added — but its first move is neither
    /// charged nor given the increment (its clock starts there). Answers the
    /// time it used (None if its clock was not running, e.g. the opening
    /// move before both sat).
    pub fn moved(&mut self, side: Side, now: i64) -> Option<i64> {
        match self.running {
            Some((running, _)) if running == side => {
                let first = !self.started[index(side)];
                let used = self.stop(now).map(|(_, used)| used);
                if first {
                    self.started[index(side)] = true;
                } else {
                    self.remaining[index(side)] += self.increment(side);
                }
                used
            }
            _ => {
                self.started[index(side)] = true;
                None
            }
        }
    }

    /// After a commit: the clock of `to_move` runs from `now` (None: the round
    /// is over or cannot run; every clock stops). A clock already running for
    /// the same side keeps running (nothing was committed by it).
    pub fn turn_started(&mut self, to_move: Option<Side>, now: i64) {
        match (self.running, to_move) {
            (Some((running, _)), Some(side)) if running == side => {}
            _ => {
                self.stop(now);
                self.running = to_move.map(|side| (side, now));
            }
        }
    }

    /// The increment `side` gets for a move (none after berserk).
    fn increment(&self, side: Side) -> i64 {
        if self.berserk[index(side)] {
            0
        } else {
            i64::from(self.control.increment_s) * 1000
        }
    }

    /// `side` goes berserk (before its first move): half the base time is
    /// taken off its clock (whether or not it runs), and it gets no
    /// increment from now on.
    pub fn berserk(&mut self, side: Side) {
        if !self.berserk[index(side)] {
            self.berserk[index(side)] = true;
            self.remaining[index(side)] -= i64::from(self.control.base_s) * 1000 / 2;
        }
    }

    /// A new round (rematch): both clocks full, stopped.
    pub fn reset(&mut self) {
        *self = Self::new(self.control, self.first_move_ms);
    }

    /// Time left for `side` at `now` (its clock does not run before its
    /// first move).
    pub fn remaining(&self, side: Side, now: i64) -> i64 {
        let stored = self.remaining[index(side)];
        match self.running {
            Some((running, since)) if running == side && self.started[index(side)] => {
                stored - (now - since).max(0)
            }
            _ => stored,
        }
    }

    /// The side whose timer runs (its clock, or its first-move timer).
    pub fn running(&self) -> Option<Side> {
        self.running.map(|(side, _)| side)
    }

    /// The side whose first-move timer runs and the time it has left at
    /// `now`.
    pub fn first_move(&self, now: i64) -> Option<(Side, i64)> {
        let (side, since) = self.running?;
        (!self.started[index(side)]).then(|| (side, (since + self.first_move_ms - now).max(0)))
    }

    /// When the running timer ends: the running clock reaches zero, or the
    /// first-move timer of a side that has not moved yet runs out.
    pub fn deadline(&self) -> Option<i64> {
        self.running.map(|(side, since)| {
            if self.started[index(side)] {
                since + self.remaining[index(side)]
            } else {
                since + self.first_move_ms
            }
        })
    }

    /// The side whose flag has fallen at `now`, if any.
    pub fn flag(&self, now: i64) -> Option<Side> {
        self.deadline()
            .filter(|&end| now >= end)
            .and_then(|_| self.running())
    }

    /// Rebuilds the clocks after a restart from the time each side used per
    /// move of the current round (a side's first move is not charged): the
    /// side to move runs from `now` (its first-move timer afresh if it has
    /// not moved yet).
    pub fn restore(
        control: TimeControl,
        first_move_ms: i64,
        used: impl IntoIterator<Item = (Side, i64)>,
        berserk: [bool; 2],
        to_move: Option<Side>,
        now: i64,
    ) -> Self {
        let mut clock = Self::new(control, first_move_ms);
        for side in [Side::Black, Side::White] {
            if berserk[index(side)] {
                clock.berserk(side);
            }
        }
        for (side, used) in used {
            if clock.started[index(side)] {
                clock.remaining[index(side)] += clock.increment(side) - used;
            } else {
                clock.started[index(side)] = true;
            }
        }
        clock.running = to_move.map(|side| (side, now));
        clock
    }

    /// The clocks as the browser shows them: a side's clock shows as
    /// running only once it has made its first move; before that its
    /// first-move timer is shown instead.
    pub fn view(&self, now: i64) -> Clocks {
        let first_move = self.first_move(now);
        Clocks {
            control: self.control,
            black_ms: self.remaining(Side::Black, now).max(0),
            white_ms: self.remaining(Side::White, now).max(0),
            running: self.running().filter(|_| first_move.is_none()),
            server_ms: now,
            first_move: first_move.map(|(side, ms)| FirstMove { side, ms }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const C32: TimeControl = TimeControl {
        base_s: 180,
        increment_s: 2,
    };

    /// Clocks of a round in which both sides have made their first move.
    fn playing(control: TimeControl) -> GameClock {
        let mut c = GameClock::new(control, 30_000);
        c.started = [true; 2];
        c
    }

    #[test]
    fn the_mover_is_charged_and_gets_the_increment() {
        let mut c = playing(C32);
        c.turn_started(Some(Side::Black), 1_000);
        assert_eq!(c.remaining(Side::Black, 11_000), 170_000);
        assert_eq!(c.remaining(Side::White, 11_000), 180_000);
        assert_eq!(c.moved(Side::Black, 11_000), Some(10_000));
        c.turn_started(Some(Side::White), 11_000);
        assert_eq!(c.remaining(Side::Black, 50_000), 172_000);
        assert_eq!(c.remaining(Side::White, 14_000), 177_000);
        assert_eq!(c.running(), Some(Side::White));
    }

    #[test]
    fn the_flag_falls_exactly_at_zero() {
        let mut c = playing(TimeControl {
            base_s: 6,
            increment_s: 0,
        });
        c.turn_started(Some(Side::Black), 0);
        assert_eq!(c.deadline(), Some(6_000));
        assert_eq!(c.flag(5_999), None);
        assert_eq!(c.flag(6_000), Some(Side::Black));
        assert_eq!(c.view(9_000).black_ms, 0, "never shown below zero");
    }

    #[test]
    fn a_forced_pass_costs_the_passer_nothing() {
        let mut c = playing(C32);
        c.turn_started(Some(Side::Black), 0);
        c.moved(Side::Black, 4_000);
        // White had to pass: black moves again, from the commit.
        c.turn_started(Some(Side::Black), 4_000);
        assert_eq!(c.remaining(Side::White, 60_000), 180_000);
        assert_eq!(
            c.remaining(Side::Black, 5_000),
            180_000 - 4_000 + 2_000 - 1_000
        );
    }

    #[test]
    fn a_clock_stops_at_the_end_and_restarts_full_at_a_rematch() {
        let mut c = playing(C32);
        c.turn_started(Some(Side::Black), 0);
        c.turn_started(None, 30_000);
        assert_eq!(c.running(), None);
        assert_eq!(c.remaining(Side::Black, 900_000), 150_000);
        assert_eq!(c.flag(900_000), None);
        c.reset();
        assert_eq!(c.remaining(Side::Black, 0), 180_000);
        assert_eq!(c.running(), None);
    }

    #[test]
    fn a_running_clock_is_not_restarted_by_a_commit_that_keeps_the_mover() {
        let mut c = playing(C32);
        c.turn_started(Some(Side::White), 0);
        // A vote or a seat change: same mover, the clock keeps running.
        c.turn_started(Some(Side::White), 20_000);
        assert_eq!(c.remaining(Side::White, 20_000), 160_000);
    }

    #[test]
    fn a_restart_does_not_charge_the_downtime() {
        // Each side's first move is not charged.
        let used = [
            (Side::Black, 9_000),
            (Side::White, 9_000),
            (Side::Black, 5_000),
            (Side::White, 7_000),
            (Side::Black, 1_000),
        ];
        let c = GameClock::restore(C32, 30_000, used, [false; 2], Some(Side::White), 1_000_000);
        assert_eq!(c.remaining(Side::Black, 1_000_000), 180_000 - 6_000 + 4_000);
        assert_eq!(c.remaining(Side::White, 1_000_000), 180_000 - 7_000 + 2_000);
        assert_eq!(c.deadline(), Some(1_000_000 + 175_000));
    }

    #[test]
    fn berserk_halves_the_base_and_drops_the_increment_also_after_a_restart() {
        let mut c = playing(C32);
        c.turn_started(Some(Side::Black), 0);
        // Black thinks 4 s, goes berserk, thinks 1 s more, moves.
        c.berserk(Side::Black);
        c.berserk(Side::Black);
        assert_eq!(c.remaining(Side::Black, 4_000), 90_000 - 4_000);
        assert_eq!(c.moved(Side::Black, 5_000), Some(5_000));
        c.turn_started(Some(Side::White), 5_000);
        assert_eq!(c.remaining(Side::Black, 5_000), 85_000, "no increment");
        c.moved(Side::White, 8_000);
        assert_eq!(c.remaining(Side::White, 8_000), 180_000 - 3_000 + 2_000);
        // The same clocks rebuilt from the moves' times and the berserk.
        let restored = GameClock::restore(
            C32,
            30_000,
            [
                (Side::Black, 0),
                (Side::White, 0),
                (Side::Black, 5_000),
                (Side::White, 3_000),
            ],
            [true, false],
            Some(Side::Black),
            9_000,
        );
        assert_eq!(restored.remaining(Side::Black, 9_000), 85_000);
        assert_eq!(restored.remaining(Side::White, 9_000), 179_000);
    }

    #[test]
    fn a_side_clock_starts_at_its_own_first_move() {
        let mut c = GameClock::new(C32, 20_000);
        c.turn_started(Some(Side::Black), 0);
        // Six seconds before black's first move: no clock has moved; the
        // first-move timer runs instead.
        assert_eq!(c.remaining(Side::Black, 6_000), 180_000);
        assert_eq!(c.view(6_000).black_ms, 180_000);
        assert_eq!(c.view(6_000).running, None);
        assert_eq!(c.first_move(6_000), Some((Side::Black, 14_000)));
        assert_eq!(
            c.view(6_000).first_move,
            Some(FirstMove {
                side: Side::Black,
                ms: 14_000
            })
        );
        assert_eq!(c.deadline(), Some(20_000));
        // Black's first move is free (no charge, no increment).
        assert_eq!(c.moved(Side::Black, 8_000), Some(8_000));
        c.turn_started(Some(Side::White), 8_000);
        assert_eq!(c.remaining(Side::Black, 8_000), 180_000);
        // White's clock does not run before white's first move.
        assert_eq!(c.remaining(Side::White, 14_000), 180_000);
        assert_eq!(c.first_move(14_000), Some((Side::White, 14_000)));
        c.moved(Side::White, 10_000);
        c.turn_started(Some(Side::Black), 10_000);
        // Now black's clock runs.
        assert_eq!(c.remaining(Side::Black, 16_000), 174_000);
        assert_eq!(c.view(16_000).running, Some(Side::Black));
        assert_eq!(c.first_move(16_000), None);
        assert_eq!(c.deadline(), Some(10_000 + 180_000));
    }

    #[test]
    fn a_missed_first_move_is_a_flag() {
        let mut c = GameClock::new(C32, 30_000);
        c.turn_started(Some(Side::Black), 1_000);
        assert_eq!(c.flag(30_999), None);
        assert_eq!(c.flag(31_000), Some(Side::Black));
        assert!(!c.started(Side::Black));
        // After a restart the first-move timer runs afresh.
        let r = GameClock::restore(C32, 30_000, [], [false; 2], Some(Side::Black), 50_000);
        assert_eq!(r.deadline(), Some(80_000));
        assert_eq!(r.remaining(Side::Black, 70_000), 180_000);
    }
}
