//! Opening tables: creating one (from the usual start or a given position,
//! with its seats for an online table), a new table like another, taking
//! the free seat of an online table, and the time controls the lobby
//! offers.

use super::entry::Entry;
use super::{new_id, Hub};
use crate::clock_control::GameClock;
use crate::limits::{Caller, Kind, Reservation};
use crate::seating::{SeatEvent, Seating};
use crate::store::TableStore;
use crate::table::{Table, TableError};
use app::api::CommandError;
use app::protocol::{AccountId, Session, Side, TableId, TableMode, TableView, TimeControl};
use rand::Rng;
use std::sync::Arc;
use tokio::sync::{broadcast, Mutex as AsyncMutex};

/// A game two players are seated at by the site (a challenge's, a
/// tournament's): its clock, rated or not, a tournament's or not, and the
/// position it starts from (`None`: the usual one).
#[derive(Clone, Copy, Debug)]
pub struct PairedGame {
    pub control: TimeControl,
    /// Asked rated: the game is rated only where the rating gate lets the
    /// two accounts meet rated ([`Hub::create_paired_table`] asks it).
    pub rated: bool,
    pub tournament: bool,
    pub start: Option<engine::Position>,
}

impl<S: TableStore> Hub<S> {
    /// Creates a table owned by the caller (counted against their session
    /// and address: 429 past either cap). An online table seats its creator
    /// on a random side.
    pub async fn create(
        &self,
        who: impl Into<Caller>,
        mode: TableMode,
    ) -> Result<TableId, CommandError> {
        let who = who.into();
        let place = self.reserve_table(&who)?;
        self.create_seated(place, &who.session, mode, None, None)
            .await
    }

    /// A place for one more table of `who`'s (checked and counted at once
    /// for their session and address), or 429.
    pub(super) fn reserve_table(&self, who: &Caller) -> Result<Reservation, CommandError> {
        self.inner
            .limits
            .reserve(Kind::Table, who, |id| self.is_live(id))
            .map_err(|message| {
                self.metrics().note_refusal("tables");
                CommandError::limited(message)
            })
    }

    /// Creates a vs-AI or hot-seat table whose rounds start from the position
    /// `obf` (OBF text). A malformed or impossible position is refused and
    /// nothing is created.
    pub async fn create_from_position(
        &self,
        who: impl Into<Caller>,
        mode: TableMode,
        obf: &str,
    ) -> Result<TableId, CommandError> {
        let who = who.into();
        if matches!(mode, TableMode::Online { .. }) {
            return Err(CommandError::refused(app::msg!("srv-online-from")));
        }
        let start = crate::table::playable_start(obf).map_err(CommandError::refused)?;
        let place = self.reserve_table(&who)?;
        self.create_seated(place, &who.session, mode, None, Some(start))
            .await
    }

    /// Creates a table in the place reserved for it, owned by `session` (and
    /// seating `opponent`, if given, at an online table).
    pub(super) async fn create_seated(
        &self,
        place: Reservation,
        session: &Session,
        mode: TableMode,
        opponent: Option<&Session>,
        start: Option<engine::Position>,
    ) -> Result<TableId, CommandError> {
        self.create_planned(place, session, mode, opponent, start, None)
            .await
    }

    /// A table for two players paired by something else — a tournament's
    /// round (`tournament`) or an accepted challenge: `black` and `white`
    /// seated at the table `id` chosen (and written) before, counted against
    /// nobody's cap (tournaments and challenges are capped themselves).
    /// Rated only if asked and the rating gate lets the two meet rated (fair
    /// play's links: `rating_gate::may_meet_rated`), decided here for both.
    pub async fn create_paired_table(
        &self,
        id: &TableId,
        black: AccountId,
        white: AccountId,
        game: PairedGame,
    ) -> Result<(), CommandError> {
        let place = self.inner.limits.uncounted(Kind::Table);
        let rated = game.rated
            && crate::rating_gate::may_meet_rated(self.linked(black, white).await, false);
        let mode = TableMode::Online {
            private: true,
            time: Some(game.control),
            rated,
            tournament: game.tournament,
        };
        self.create_planned(
            place,
            &crate::identity::identity_of(black),
            mode,
            Some(&crate::identity::identity_of(white)),
            game.start,
            Some((id.clone(), Side::Black)),
        )
        .await
        .map(|_| ())
    }

    /// Whether fair play links two accounts (their games are unrated).
    pub async fn linked(&self, a: AccountId, b: AccountId) -> bool {
        match self.inner.fair_play.get() {
            Some(fair_play) => fair_play.linked(a, b).await,
            None => false,
        }
    }

    /// Creates a table; `plan` fixes its id and the creator's side (else a
    /// new id and a random side).
    async fn create_planned(
        &self,
        place: Reservation,
        session: &Session,
        mode: TableMode,
        opponent: Option<&Session>,
        start: Option<engine::Position>,
        plan: Option<(TableId, Side)>,
    ) -> Result<TableId, CommandError> {
        if let TableMode::VsAi { depth, .. } = mode {
            if !app::protocol::AI_LEVELS.contains(&depth) {
                return Err(CommandError::refused(app::msg!("srv-depth")));
            }
        }
        if let TableMode::Online {
            private,
            time,
            rated,
            ..
        } = mode
        {
            self.check_control(private, time)?;
            if rated {
                check_rated(time, session)?;
                if let Some(opponent) = opponent {
                    check_rated(time, opponent)?;
                }
            }
        }
        let now = self.now();
        let seating = match mode {
            TableMode::Online { .. } => {
                let mut seating = Seating::new(self.inner.config.grace_ms);
                let creator_side = match &plan {
                    Some((_, side)) => *side,
                    None if rand::thread_rng().gen_bool(0.5) => Side::Black,
                    None => Side::White,
                };
                let mut seat = |side: Side, who: &Session| {
                    seating
                        .apply(
                            SeatEvent::SeatTaken {
                                side,
                                session: who.as_str().to_string(),
                            },
                            now,
                        )
                        .map_err(CommandError::from)
                };
                seat(creator_side, session)?;
                if let Some(opponent) = opponent {
                    seat(creator_side.opponent(), opponent)?;
                }
                Some(seating)
            }
            _ => None,
        };
        let record = seating.as_ref().map(Seating::record).unwrap_or_default();
        self.remember_session(session).await?;
        if let Some(opponent) = opponent {
            self.remember_session(opponent).await?;
        }
        let id = plan.map_or_else(|| new_id(8), |(id, _)| id);
        let start_obf = start.map(|p| p.to_obf());
        self.inner
            .store
            .create_table(
                &id,
                mode,
                session.as_str(),
                (record.holders[0].as_deref(), record.holders[1].as_deref()),
                now,
            )
            .await?;
        if seating.is_some() || start_obf.is_some() {
            self.inner
                .store
                .update_table_setup(&id, &record, start_obf.as_deref())
                .await?;
        }
        let table = match start {
            Some(start) => Table::from_position(mode, start),
            None => Table::new(mode),
        };
        let clock = match mode {
            TableMode::Online {
                time: Some(control),
                ..
            } => Some(GameClock::new(control, self.first_move_ms(mode))),
            _ => None,
        };
        let entry = Entry {
            id: id.clone(),
            table,
            owner: session.as_str().to_string(),
            seating,
            clock,
            times: vec![Vec::new()],
            next_seq: 1,
            version: 0,
            ai_key: place.address().map_or_else(
                || session.as_str().to_string(),
                |address| format!("ip:{address}"),
            ),
            ai_thinking: false,
            ai_search: None,
            jobs_stored: None,
            failed_commits: 0,
            updates: broadcast::channel(64).0,
        };
        let entry = Arc::new(AsyncMutex::new(entry));
        if let Ok(mut tables) = self.inner.tables.lock() {
            tables.insert(id.clone(), entry.clone());
        }
        place.keep(id.as_str());
        let mut guard = entry.lock().await;
        let to_move = guard.clock_side();
        if let Some(clock) = guard.clock.as_mut() {
            clock.turn_started(to_move, now);
        }
        self.after_change(&mut guard);
        self.published(&mut guard, None).await;
        tracing::info!(table = %id, ?mode, "table created");
        Ok(id)
    }

    /// A new table with the same mode, owned by the caller.
    pub async fn new_table_like(
        &self,
        who: impl Into<Caller>,
        id: &TableId,
    ) -> Result<TableId, CommandError> {
        let who = who.into();
        let session = &who.session;
        let (mode, start) = {
            let entry = self.entry(id).await?;
            let mut entry = entry.lock().await;
            self.sync(&mut entry).await?;
            if entry.seats(session).is_empty() {
                return Err(TableError::NotASeat.into());
            }
            // A tournament's game has no rematch, nor a new table from it:
            // the tournament pairs the next game.
            if matches!(
                entry.table.mode(),
                TableMode::Online {
                    tournament: true,
                    ..
                }
            ) {
                return Err(TableError::NoRematch.into());
            }
            let start = entry.table.start();
            let start = (start != engine::Position::initial()).then_some(start);
            match entry.table.mode() {
                TableMode::Online { time, rated, .. } => (
                    TableMode::Online {
                        private: true,
                        time,
                        rated,
                        tournament: false,
                    },
                    None,
                ),
                other => (other, start),
            }
        };
        // A new table has its own, empty tally.
        let place = self.reserve_table(&who)?;
        self.create_seated(place, session, mode, None, start).await
    }

    /// Seats `session` in the free seat of an online table, by their explicit
    /// action. Refused (nothing changes) at other tables, for a session that
    /// already holds a seat, and when both seats are taken.
    pub async fn take_seat(
        &self,
        session: &Session,
        id: &TableId,
    ) -> Result<TableView, CommandError> {
        let mut result = self.take_seat_once(session, id).await;
        // Another instance wrote the table first: decided again.
        for _ in 1..super::coordination::TRIES {
            if !super::coordination::is_stale(&result) {
                break;
            }
            result = self.take_seat_once(session, id).await;
        }
        result
    }

    async fn take_seat_once(
        &self,
        session: &Session,
        id: &TableId,
    ) -> Result<TableView, CommandError> {
        let entry = self.entry(id).await?;
        let mut entry = entry.lock().await;
        self.sync(&mut entry).await?;
        let now = self.now();
        let Some(seating) = entry.seating.as_ref() else {
            return Err(CommandError::refused(app::msg!("srv-no-seats")));
        };
        if !seating.sides_of(session.as_str()).is_empty() {
            return Err(crate::seating::SeatError::AlreadySeated.into());
        }
        let Some(side) = seating.free_seat() else {
            return Err(crate::seating::SeatError::SeatTaken.into());
        };
        if let TableMode::Online {
            rated: true, time, ..
        } = entry.table.mode()
        {
            check_rated(time, session)?;
        }
        self.remember_session(session).await?;
        let mut next = seating.clone();
        // Whether the new holder is present counts every instance.
        if let Some(sockets) = self.inner.coordination.sockets(self, id).await? {
            next.set_sockets(sockets, now);
        }
        let due = next.apply(
            SeatEvent::SeatTaken {
                side,
                session: session.as_str().to_string(),
            },
            now,
        )?;
        self.write_seating(&mut entry, &next.record(), Some(now))
            .await?;
        entry.seating = Some(next);
        let to_move = entry.clock_side();
        if let Some(clock) = entry.clock.as_mut() {
            clock.turn_started(to_move, now);
        }
        tracing::info!(table = %entry.id, side = side.key(), "a visitor took the free seat");
        self.after_change(&mut entry);
        self.published(&mut entry, None).await;
        if let Some(command) = due {
            self.run_seat_command(&mut entry, command).await;
        }
        Ok(self.view_of(&entry, entry.seats(session)))
    }

    /// Refuses a time control the lobby does not offer: untimed is for
    /// private tables only; other controls than the presets only with the
    /// test-only flag.
    pub fn check_control(
        &self,
        private: bool,
        time: Option<TimeControl>,
    ) -> Result<(), CommandError> {
        match time {
            None if !private => Err(CommandError::refused(app::msg!("srv-quick-timed"))),
            Some(control) if control.base_s == 0 => {
                Err(CommandError::refused(app::msg!("srv-needs-time")))
            }
            Some(control) if !control.is_preset() && !self.inner.config.test_time_controls => Err(
                CommandError::refused(app::msg!("srv-not-offered", control = control.label())),
            ),
            _ => Ok(()),
        }
    }
}

/// A rated table is timed and seats signed-in players only.
fn check_rated(time: Option<TimeControl>, who: &Session) -> Result<(), CommandError> {
    if time.is_none() {
        return Err(CommandError::refused(app::msg!("srv-rated-timed")));
    }
    if crate::identity::account_of(who).is_none() {
        return Err(CommandError::refused(app::msg!("srv-rated-sign-in")));
    }
    Ok(())
}
