//! The seat rules of an online table, as one pure type driven by time passed
//! in: who holds each seat, who is connected, the grace period of an absent
//! holder, who forfeits and when a round is abandoned (docs/PRODUCT.md,
//! Online rules).
//!
//! [`Seating`] does no I/O and reads no clock: the hub feeds it events with
//! the current time ([`Seating::apply`]) and executes the [`SeatCommand`] it
//! answers through the table's durable command path.
//!
//! The rules:
//! - A seat is taken only by an explicit action ([`SeatEvent::SeatTaken`]).
//! - A holder is *present* while at least one of their sockets is open; a
//!   holder who has never connected is absent from the moment they were seated.
//! - Grace runs only while a round is in progress and both seats are taken.
//!   When that starts (the second seat taken, a rematch, a quick-match
//!   pairing) every absent holder gets a full grace counted from that start;
//!   otherwise from the moment the holder went away.
//! - When an absent holder's grace ends, they forfeit the round, or, if the
//!   other holder is absent too, the round is abandoned with no winner.

use app::protocol::{SeatView, Seats, Side};
use std::collections::HashMap;

/// Something that happened at the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatEvent {
    /// A socket of `session` opened (any visitor; spectators too).
    SocketOpened { session: String },
    /// A socket of `session` closed.
    SocketClosed { session: String },
    /// `session` took the free seat `side`.
    SeatTaken { side: Side, session: String },
    /// A round began (a rematch); round 1 is in progress from creation.
    RoundStarted,
    /// The current round ended (any reason).
    RoundEnded,
    /// Time passed.
    Tick,
}

/// What the hub must do now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatCommand {
    /// `side` ran out of grace while the other holder is present: `side` loses.
    Forfeit { side: Side },
    /// A grace ended while both holders were absent: nobody wins.
    Abandon,
}

/// Why a seat event was refused. Nothing changes when one is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatError {
    /// The session already holds a seat here.
    AlreadySeated,
    /// That seat (or every seat) is taken.
    SeatTaken,
}

impl SeatError {
    /// What a player reads, by key.
    pub fn msg(&self) -> app::i18n::Msg {
        match self {
            SeatError::AlreadySeated => app::msg!("srv-already-seated"),
            SeatError::SeatTaken => app::msg!("srv-seats-taken"),
        }
    }
}

impl std::fmt::Display for SeatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.msg().english())
    }
}

impl std::error::Error for SeatError {}

/// What is stored so that grace periods resume after a restart.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatingRecord {
    /// Seat holders (session tokens): black, white.
    pub holders: [Option<String>; 2],
    /// Since when each holder has been absent (None: present, or no holder).
    pub absent_since: [Option<i64>; 2],
    /// Since when grace may run: the round is in progress and both seats are
    /// taken (None otherwise).
    pub running_since: Option<i64>,
}

/// The seat rules of one online table.
#[derive(Clone, Debug)]
pub struct Seating {
    grace_ms: i64,
    holders: [Option<String>; 2],
    absent_since: [Option<i64>; 2],
    /// Open sockets per session (spectators included, so a visitor who takes
    /// a seat with the page already open counts as present at once).
    sockets: HashMap<String, u32>,
    in_round: bool,
    running_since: Option<i64>,
}

fn index(side: Side) -> usize {
    match side {
        Side::Black => 0,
        Side::White => 1,
    }
}

const SIDES: [Side; 2] = [Side::Black, Side::White];

impl Seating {
    /// A new table, round 1 in progress, no seat taken.
    pub fn new(grace_ms: i64) -> Self {
        Self {
            grace_ms,
            holders: [None, None],
            absent_since: [None, None],
            sockets: HashMap::new(),
            in_round: true,
            running_since: None,
        }
    }

    /// Rebuilds the seating after a restart: nobody is connected, so a holder
    /// who was present is absent from `now`; one who was already gone keeps
    /// the time they left. If grace should be running but its start was not
    /// stored, it runs from `now`.
    pub fn restore(grace_ms: i64, record: SeatingRecord, in_round: bool, now: i64) -> Self {
        let mut seating = Self {
            grace_ms,
            holders: record.holders,
            absent_since: [None, None],
            sockets: HashMap::new(),
            in_round,
            running_since: None,
        };
        for side in SIDES {
            let i = index(side);
            if seating.holders[i].is_some() {
                seating.absent_since[i] = Some(record.absent_since[i].unwrap_or(now));
            }
        }
        if seating.both_taken() && in_round {
            seating.running_since = Some(record.running_since.unwrap_or(now));
        }
        seating
    }

    /// A shared table's seating as stored (several instances on
    /// PostgreSQL): the stored absences stand as they are, and `sockets` are
    /// the open sockets per session counted over every live instance.
    pub fn shared(
        grace_ms: i64,
        record: SeatingRecord,
        in_round: bool,
        sockets: HashMap<String, u32>,
    ) -> Self {
        Self {
            grace_ms,
            holders: record.holders,
            absent_since: record.absent_since,
            sockets: sockets.into_iter().filter(|(_, n)| *n > 0).collect(),
            in_round,
            running_since: record.running_since.filter(|_| in_round),
        }
    }

    /// Replaces the open sockets per session with a fresh count over every
    /// instance at `now`: a holder with sockets is present, one without is
    /// absent from `now` (or since earlier, if already absent). Answers the
    /// command due, if a grace has ended.
    pub fn set_sockets(&mut self, sockets: HashMap<String, u32>, now: i64) -> Option<SeatCommand> {
        self.sockets = sockets.into_iter().filter(|(_, n)| *n > 0).collect();
        for side in SIDES {
            let i = index(side);
            if self.holders[i].is_none() {
                continue;
            }
            if self.present(side) {
                self.absent_since[i] = None;
            } else {
                self.absent_since[i].get_or_insert(now);
            }
        }
        self.due(now)
    }

    /// The open sockets per session, as last counted.
    pub fn sockets(&self) -> &HashMap<String, u32> {
        &self.sockets
    }

    /// What to store.
    pub fn record(&self) -> SeatingRecord {
        SeatingRecord {
            holders: self.holders.clone(),
            absent_since: self.absent_since,
            running_since: self.running_since,
        }
    }

    /// Gives `from`'s seats (and its open sockets) to `to`: a browser that
    /// signed in keeps playing as its account. True if a seat changed.
    pub fn rename(&mut self, from: &str, to: &str) -> bool {
        let mut changed = false;
        for holder in self.holders.iter_mut().flatten() {
            if holder == from {
                *holder = to.to_string();
                changed = true;
            }
        }
        if let Some(count) = self.sockets.remove(from) {
            *self.sockets.entry(to.to_string()).or_insert(0) += count;
        }
        changed
    }

    /// The holder of `side`.
    pub fn holder(&self, side: Side) -> Option<&str> {
        self.holders[index(side)].as_deref()
    }

    /// The sides `session` holds.
    pub fn sides_of(&self, session: &str) -> Vec<Side> {
        SIDES
            .into_iter()
            .filter(|&side| self.holder(side) == Some(session))
            .collect()
    }

    /// Both seats are taken.
    pub fn both_taken(&self) -> bool {
        self.holders.iter().all(Option::is_some)
    }

    /// The free seat a visitor would take (black first), if any.
    pub fn free_seat(&self) -> Option<Side> {
        SIDES.into_iter().find(|&side| self.holder(side).is_none())
    }

    /// Whether grace is running (a round in progress, both seats taken).
    pub fn running(&self) -> bool {
        self.running_since.is_some()
    }

    /// Whether the holder of `side` has a socket open at the table.
    pub fn present(&self, side: Side) -> bool {
        self.holder(side)
            .is_some_and(|h| self.sockets.get(h).copied().unwrap_or(0) > 0)
    }

    /// When the grace of `side` ends, if it is running.
    pub fn deadline(&self, side: Side) -> Option<i64> {
        let since = self.absent_since[index(side)]?;
        let running = self.running_since?;
        Some(since.max(running).saturating_add(self.grace_ms))
    }

    /// Applies an event at time `now`; answers what the hub must do, if
    /// anything (a grace may have ended by then).
    pub fn apply(&mut self, event: SeatEvent, now: i64) -> Result<Option<SeatCommand>, SeatError> {
        match event {
            SeatEvent::SocketOpened { session } => {
                *self.sockets.entry(session.clone()).or_default() += 1;
                for side in self.sides_of(&session) {
                    self.absent_since[index(side)] = None;
                }
            }
            SeatEvent::SocketClosed { session } => {
                let left = match self.sockets.get_mut(&session) {
                    Some(count) => {
                        *count = count.saturating_sub(1);
                        *count
                    }
                    None => 0,
                };
                if left == 0 {
                    self.sockets.remove(&session);
                    for side in self.sides_of(&session) {
                        self.absent_since[index(side)].get_or_insert(now);
                    }
                }
            }
            SeatEvent::SeatTaken { side, session } => {
                if !self.sides_of(&session).is_empty() {
                    return Err(SeatError::AlreadySeated);
                }
                if self.holder(side).is_some() {
                    return Err(SeatError::SeatTaken);
                }
                self.holders[index(side)] = Some(session);
                self.absent_since[index(side)] = (!self.present(side)).then_some(now);
                self.update_running(now);
            }
            SeatEvent::RoundStarted => {
                self.in_round = true;
                self.running_since = None;
                self.update_running(now);
            }
            SeatEvent::RoundEnded => {
                self.in_round = false;
                self.running_since = None;
            }
            SeatEvent::Tick => {}
        }
        Ok(self.due(now))
    }

    fn update_running(&mut self, now: i64) {
        if self.in_round && self.both_taken() && self.running_since.is_none() {
            self.running_since = Some(now);
        }
    }

    /// The command due at `now`, if a grace has ended.
    fn due(&self, now: i64) -> Option<SeatCommand> {
        let expired = SIDES
            .into_iter()
            .find(|&side| self.deadline(side).is_some_and(|end| now >= end))?;
        Some(if self.present(expired.opponent()) {
            SeatCommand::Forfeit { side: expired }
        } else {
            SeatCommand::Abandon
        })
    }

    /// Seats and presence as the browser shows them.
    pub fn view(&self, now: i64) -> Seats {
        let seat = |side: Side| SeatView {
            taken: self.holder(side).is_some(),
            connected: self.present(side),
            grace_left: self
                .deadline(side)
                .map(|end| ((end - now).max(0) as u64).div_ceil(1000) as u32),
        };
        Seats {
            black: seat(Side::Black),
            white: seat(Side::White),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRACE: i64 = 90_000;

    fn open(s: &str) -> SeatEvent {
        SeatEvent::SocketOpened { session: s.into() }
    }
    fn close(s: &str) -> SeatEvent {
        SeatEvent::SocketClosed { session: s.into() }
    }
    fn take(side: Side, s: &str) -> SeatEvent {
        SeatEvent::SeatTaken {
            side,
            session: s.into(),
        }
    }

    /// A table where "a" holds black and "b" white, both seated at `t` and
    /// connected (grace running since `t`).
    fn seated_and_connected(t: i64) -> Seating {
        let mut s = Seating::new(GRACE);
        assert_eq!(s.apply(take(Side::Black, "a"), t), Ok(None));
        assert_eq!(s.apply(open("a"), t), Ok(None));
        assert_eq!(s.apply(open("b"), t), Ok(None));
        assert_eq!(s.apply(take(Side::White, "b"), t), Ok(None));
        assert!(s.running());
        s
    }

    #[test]
    fn a_fresh_count_of_sockets_marks_holders_present_or_absent() {
        let mut s = seated_and_connected(0);
        // "a" has no socket left on any instance: absent from now.
        let counts = HashMap::from([("b".to_string(), 2)]);
        assert_eq!(s.set_sockets(counts.clone(), 5_000), None);
        assert_eq!(s.record().absent_since, [Some(5_000), None]);
        // Counting again later keeps the time "a" left.
        assert_eq!(s.set_sockets(counts, 9_000), None);
        assert_eq!(s.deadline(Side::Black), Some(5_000 + GRACE));
        assert_eq!(
            s.set_sockets(HashMap::from([("b".to_string(), 1)]), 5_000 + GRACE),
            Some(SeatCommand::Forfeit { side: Side::Black })
        );
        // "a" back on another instance: present again.
        let both = HashMap::from([("a".to_string(), 1), ("b".to_string(), 1)]);
        assert_eq!(s.set_sockets(both.clone(), 6_000), None);
        assert_eq!(s.record().absent_since, [None, None]);
        let shared = Seating::shared(GRACE, s.record(), true, both);
        assert!(shared.view(6_000).black.connected && shared.view(6_000).white.connected);
        let over = Seating::shared(GRACE, s.record(), false, HashMap::new());
        assert!(!over.running(), "no grace runs between rounds");
    }

    #[test]
    fn no_grace_runs_while_a_seat_is_free() {
        let mut s = Seating::new(GRACE);
        s.apply(take(Side::Black, "a"), 0).expect("seat");
        s.apply(open("a"), 0).expect("open");
        s.apply(close("a"), 1_000).expect("close");
        assert!(!s.running());
        assert_eq!(s.deadline(Side::Black), None);
        assert_eq!(s.apply(SeatEvent::Tick, 10 * GRACE), Ok(None));
        assert_eq!(s.view(10 * GRACE).black.grace_left, None);
    }

    #[test]
    fn an_absent_creator_gets_a_full_grace_from_when_the_friend_sits() {
        // Issue a): the creator left minutes before the friend came.
        let mut s = Seating::new(GRACE);
        s.apply(take(Side::Black, "creator"), 0).expect("seat");
        s.apply(open("creator"), 0).expect("open");
        s.apply(close("creator"), 1_000).expect("close");
        let sat = 600_000;
        s.apply(open("friend"), sat).expect("open");
        assert_eq!(s.apply(take(Side::White, "friend"), sat), Ok(None));
        assert_eq!(s.deadline(Side::Black), Some(sat + GRACE));
        assert_eq!(s.view(sat).black.grace_left, Some(90));
        assert_eq!(s.apply(SeatEvent::Tick, sat + GRACE - 1), Ok(None));
        assert_eq!(
            s.apply(SeatEvent::Tick, sat + GRACE),
            Ok(Some(SeatCommand::Forfeit { side: Side::Black }))
        );
    }

    #[test]
    fn a_creator_who_comes_back_in_time_keeps_playing() {
        let mut s = Seating::new(GRACE);
        s.apply(take(Side::Black, "creator"), 0).expect("seat");
        s.apply(open("friend"), 500).expect("open");
        s.apply(take(Side::White, "friend"), 500).expect("seat");
        // Never connected: absent since seated, grace from the round's start.
        assert_eq!(s.deadline(Side::Black), Some(500 + GRACE));
        s.apply(open("creator"), 500 + GRACE - 1).expect("open");
        assert_eq!(s.deadline(Side::Black), None);
        assert_eq!(s.apply(SeatEvent::Tick, 100 * GRACE), Ok(None));
    }

    #[test]
    fn a_rematch_voter_who_left_gets_a_full_grace_from_the_rematch() {
        // Issue b): A votes and leaves; B votes two minutes later.
        let mut s = seated_and_connected(0);
        s.apply(SeatEvent::RoundEnded, 10_000).expect("end");
        s.apply(close("a"), 11_000).expect("close");
        assert_eq!(s.deadline(Side::Black), None, "no grace between rounds");
        assert_eq!(s.apply(SeatEvent::Tick, 11_000 + GRACE), Ok(None));
        let rematch = 131_000;
        assert_eq!(s.apply(SeatEvent::RoundStarted, rematch), Ok(None));
        assert_eq!(s.deadline(Side::Black), Some(rematch + GRACE));
        assert_eq!(s.apply(SeatEvent::Tick, rematch + GRACE - 1), Ok(None));
        assert_eq!(
            s.apply(SeatEvent::Tick, rematch + GRACE),
            Ok(Some(SeatCommand::Forfeit { side: Side::Black }))
        );
    }

    #[test]
    fn a_holder_who_never_connects_is_absent_from_being_seated() {
        // Issue c): a seat holder without a socket does not hold the table forever.
        let mut s = Seating::new(GRACE);
        s.apply(take(Side::Black, "a"), 0).expect("seat");
        s.apply(open("a"), 0).expect("open");
        s.apply(take(Side::White, "b"), 1_000).expect("seat");
        assert!(!s.view(1_000).white.connected);
        assert_eq!(s.view(1_000).white.grace_left, Some(90));
        assert_eq!(
            s.apply(SeatEvent::Tick, 1_000 + GRACE),
            Ok(Some(SeatCommand::Forfeit { side: Side::White }))
        );
    }

    #[test]
    fn quick_match_pairing_gives_both_a_full_grace() {
        let mut s = Seating::new(GRACE);
        s.apply(take(Side::Black, "a"), 0).expect("seat");
        s.apply(take(Side::White, "b"), 0).expect("seat");
        assert_eq!(s.deadline(Side::Black), Some(GRACE));
        assert_eq!(s.deadline(Side::White), Some(GRACE));
        s.apply(open("a"), 10).expect("open");
        assert_eq!(
            s.apply(SeatEvent::Tick, GRACE),
            Ok(Some(SeatCommand::Forfeit { side: Side::White }))
        );
    }

    #[test]
    fn both_absent_when_a_grace_ends_abandons_the_round() {
        let mut s = seated_and_connected(0);
        s.apply(close("a"), 1_000).expect("close");
        s.apply(close("b"), 50_000).expect("close");
        assert_eq!(s.apply(SeatEvent::Tick, 1_000 + GRACE - 1), Ok(None));
        assert_eq!(
            s.apply(SeatEvent::Tick, 1_000 + GRACE),
            Ok(Some(SeatCommand::Abandon))
        );
        // Never-connected holders at a pairing: both absent, abandoned.
        let mut s = Seating::new(GRACE);
        s.apply(take(Side::Black, "a"), 0).expect("seat");
        s.apply(take(Side::White, "b"), 0).expect("seat");
        assert_eq!(
            s.apply(SeatEvent::Tick, GRACE),
            Ok(Some(SeatCommand::Abandon))
        );
    }

    #[test]
    fn a_leaver_counts_from_leaving_and_a_second_socket_keeps_them_present() {
        let mut s = seated_and_connected(0);
        s.apply(open("a"), 100).expect("second tab");
        s.apply(close("a"), 200).expect("close one tab");
        assert!(s.view(200).black.connected);
        assert_eq!(s.deadline(Side::Black), None);
        s.apply(close("a"), 5_000).expect("close the other");
        assert_eq!(s.deadline(Side::Black), Some(5_000 + GRACE));
        assert_eq!(s.view(5_000 + 1).black.grace_left, Some(90));
        assert_eq!(s.view(5_000 + GRACE - 1).black.grace_left, Some(1));
        assert_eq!(s.apply(SeatEvent::Tick, 5_000 + GRACE - 1), Ok(None));
        assert_eq!(
            s.apply(SeatEvent::Tick, 5_000 + GRACE),
            Ok(Some(SeatCommand::Forfeit { side: Side::Black }))
        );
        // A stray close for a session with no socket changes nothing.
        s.apply(close("nobody"), 5_000).expect("stray");
        assert!(s.view(5_000).white.connected);
    }

    #[test]
    fn after_a_round_ends_nothing_is_due_until_the_next_round() {
        let mut s = seated_and_connected(0);
        s.apply(close("a"), 1_000).expect("close");
        s.apply(SeatEvent::RoundEnded, 2_000).expect("end");
        assert_eq!(s.apply(SeatEvent::Tick, 1_000 + GRACE), Ok(None));
        assert_eq!(s.view(1_000 + GRACE).black.grace_left, None);
        s.apply(open("a"), 3 * GRACE).expect("back");
        s.apply(SeatEvent::RoundStarted, 3 * GRACE)
            .expect("rematch");
        assert_eq!(s.apply(SeatEvent::Tick, 10 * GRACE), Ok(None));
    }

    #[test]
    fn seats_are_taken_once_and_by_one_session_each() {
        let mut s = Seating::new(GRACE);
        assert_eq!(s.free_seat(), Some(Side::Black));
        s.apply(take(Side::Black, "a"), 0).expect("seat");
        assert_eq!(
            s.apply(take(Side::White, "a"), 0),
            Err(SeatError::AlreadySeated)
        );
        assert_eq!(
            s.apply(take(Side::Black, "b"), 0),
            Err(SeatError::SeatTaken)
        );
        assert_eq!(s.free_seat(), Some(Side::White));
        s.apply(take(Side::White, "b"), 0).expect("seat");
        assert_eq!(s.free_seat(), None);
        assert_eq!(s.sides_of("b"), vec![Side::White]);
        assert!(s.sides_of("c").is_empty());
    }

    #[test]
    fn a_spectator_with_the_page_open_is_present_as_soon_as_they_sit() {
        let mut s = Seating::new(GRACE);
        s.apply(take(Side::Black, "a"), 0).expect("seat");
        s.apply(open("a"), 0).expect("open");
        s.apply(open("v"), 10).expect("spectator socket");
        s.apply(take(Side::White, "v"), 20).expect("seat");
        assert!(s.view(20).white.connected);
        assert_eq!(s.deadline(Side::White), None);
        assert_eq!(s.apply(SeatEvent::Tick, 100 * GRACE), Ok(None));
    }

    #[test]
    fn a_restart_keeps_the_time_a_holder_left_and_restarts_the_present_ones() {
        let mut s = seated_and_connected(0);
        s.apply(close("b"), 10_000).expect("close");
        let record = s.record();
        assert_eq!(record.absent_since, [None, Some(10_000)]);
        assert_eq!(record.running_since, Some(0));
        let restarted = Seating::restore(GRACE, record, true, 40_000);
        assert_eq!(restarted.deadline(Side::White), Some(10_000 + GRACE));
        assert_eq!(restarted.deadline(Side::Black), Some(40_000 + GRACE));
        // A round start that was not stored runs from the restart.
        let mut lost = s.record();
        lost.running_since = None;
        let restarted = Seating::restore(GRACE, lost, true, 40_000);
        assert_eq!(restarted.deadline(Side::White), Some(40_000 + GRACE));
        // Between rounds nothing runs.
        let restarted = Seating::restore(GRACE, s.record(), false, 40_000);
        assert!(!restarted.running());
    }
}
