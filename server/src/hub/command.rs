//! The command path: a player's [`TableCommand`] is translated to a rules
//! [`Command`] for the sides they hold, applied to a copy of the table,
//! committed to the store, and only then swapped in and broadcast
//! (commit-then-broadcast). [`record_for`] builds what a command writes.

use super::coordination::Change;
use super::entry::Entry;
use super::Hub;
use crate::identity::Identity;
use crate::store::ratings::RatedGame;
use crate::store::TableStore;
use crate::store::{ArchivedGame, MoveKind, MoveRow, Record, RoundEnd, StoreError};
use crate::table::{Command, Event, Table, TableError};
use app::api::CommandError;
use app::protocol::{Session, Side, TableCommand, TableId, TableMode, TableView};
use engine::{Color, Square};
use std::sync::atomic::Ordering;

impl<S: TableStore> Hub<S> {
    /// Runs a player's command; refusals are counted in the metrics.
    pub async fn execute(
        &self,
        session: &Session,
        command: TableCommand,
    ) -> Result<TableView, CommandError> {
        // Decided first on the table as held: a shared table is kept
        // current by the bus, and the write's version check refuses a
        // decision made on a stale copy (`ErrorKind::Stale`, decided again below) — so
        // an accepted command costs no read. A refusal writes nothing to
        // check, so it is given only after deciding again on the stored
        // table (a table held here alone is the stored one: the same
        // refusal).
        let mut result = self.execute_checked(session, command.clone(), false).await;
        if result.is_err() {
            result = self.execute_checked(session, command.clone(), true).await;
        }
        // Another instance wrote the table first: decided again on the
        // reloaded table (usually a refusal, e.g. not your turn).
        for _ in 1..super::coordination::TRIES {
            if !super::coordination::is_stale(&result) {
                break;
            }
            result = self.execute_checked(session, command.clone(), true).await;
        }
        if result.is_err() {
            self.inner
                .metrics
                .commands_refused_total
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        result
    }

    /// One decision on a command; `sync`: on the stored table (brought up
    /// to date first) rather than the cached one.
    pub(super) async fn execute_checked(
        &self,
        session: &Session,
        command: TableCommand,
        sync: bool,
    ) -> Result<TableView, CommandError> {
        let id = match &command {
            TableCommand::Place { table, .. }
            | TableCommand::Resign { table, .. }
            | TableCommand::Vote { table, .. }
            | TableCommand::Berserk { table } => table.clone(),
        };
        let entry = self.entry(&id).await?;
        let mut entry = entry.lock().await;
        if sync {
            self.sync(&mut entry).await?;
        }
        // The server's clock decides: a flag that fell (or a grace that ended)
        // before this command arrived is committed first.
        self.run_due_timer(&mut entry, self.now()).await;
        let seats = entry.seats(session);
        if seats.is_empty() {
            return Err(TableError::NotASeat.into());
        }
        if entry.is_online() && !entry.both_seated() {
            match command {
                TableCommand::Place { .. } | TableCommand::Berserk { .. } => {
                    return Err(CommandError::refused(app::msg!("srv-waiting")))
                }
                // The round starts when both seats are taken: before that
                // there is no game to lose, and nothing may be recorded.
                TableCommand::Resign { .. } => {
                    return Err(CommandError::refused(app::msg!("srv-resign-early")))
                }
                TableCommand::Vote { .. } => {}
            }
        }
        let to_move = entry.table.to_move();
        let pick_side = |requested: Option<Side>| -> Result<Side, CommandError> {
            match requested {
                Some(side) if seats.contains(&side) => Ok(side),
                Some(side) => Err(CommandError::refused(app::msg!(
                    "srv-not-your-side",
                    side = side.name()
                ))),
                None if seats.len() == 1 => Ok(seats[0]),
                None => to_move.ok_or_else(|| CommandError::refused(app::msg!("srv-which-side"))),
            }
        };
        let command = match command {
            TableCommand::Place { square, .. } => {
                let square = Square::new(usize::from(square)).ok_or_else(|| {
                    CommandError::refused(app::msg!("srv-off-board", square = square))
                })?;
                let side = match to_move {
                    Some(side) if seats.contains(&side) => side,
                    Some(side) if entry.table.ai_side() == Some(side) => {
                        return Err(CommandError::refused(app::msg!("srv-ai-thinking")))
                    }
                    Some(side) => return Err(TableError::NotYourTurn { to_move: side }.into()),
                    None => return Err(TableError::GameOver.into()),
                };
                Command::Place { side, square }
            }
            TableCommand::Resign { side, .. } => Command::Resign {
                side: pick_side(side)?,
            },
            TableCommand::Vote { side, vote, .. } => Command::Vote {
                side: pick_side(side)?,
                vote,
            },
            TableCommand::Berserk { .. } => Command::Berserk {
                side: pick_side(None)?,
            },
        };
        self.commit(&mut entry, command).await?;
        Ok(self.view_of(&entry, entry.seats(session)))
    }

    /// Applies `command` to a copy, commits it, then swaps it in and broadcasts.
    pub(super) async fn commit(
        &self,
        entry: &mut Entry,
        command: Command,
    ) -> Result<Vec<Event>, CommandError> {
        let mut next = entry.table.clone();
        let round_before = next.round();
        let events = next.apply(command)?;
        let now = self.now();
        // The clocks after this command: the mover is charged (plus the
        // increment), a rematch restarts them full; the next mover's clock
        // runs from this commit (see `after the commit` below).
        let mut clock = entry.clock.clone();
        let mut used = None;
        if let Some(clock) = clock.as_mut() {
            match command {
                Command::Place { side, .. } => used = clock.moved(side, now),
                Command::Berserk { side } => clock.berserk(side),
                _ => {}
            }
            if events
                .iter()
                .any(|e| matches!(e, Event::RematchStarted { .. }))
            {
                clock.reset();
            }
        }
        let mut record = record_for(
            &entry.id,
            entry.next_seq,
            round_before,
            command,
            &events,
            &next,
            now,
        );
        if record.round_end.is_some() {
            let mut times = entry
                .times
                .get(round_before as usize - 1)
                .cloned()
                .unwrap_or_default();
            if matches!(command, Command::Place { .. }) && entry.clock.is_some() {
                times.push(used);
            }
            record.archive = Some(archived(entry, &next, times));
        }
        // A placement's row (always the first) stores the time it used.
        if let Some(row) = record
            .rows
            .first_mut()
            .filter(|r| r.kind == MoveKind::Place)
        {
            row.time_ms = used;
        }
        // On PostgreSQL, what the other instances are told this command
        // wrote (they apply it without reading the table).
        let change = match self.store_record(entry, &record).await {
            Ok(change) => change,
            // A lost race or a vanished table on PostgreSQL: decided again.
            Err(error @ (StoreError::Stale | StoreError::Gone)) => {
                return Err(self.write_failed(entry, error).await)
            }
            Err(error) => {
                let rated = record.archive.as_ref().is_some_and(|a| a.rated.is_some());
                if record.round_end.is_some() {
                    entry.failed_commits += 1;
                    self.inner
                        .metrics
                        .round_commits_failed_total
                        .fetch_add(1, Ordering::Relaxed);
                }
                if !(rated && entry.failed_commits >= MAX_FAILED_ROUND_COMMITS) {
                    return Err(self.write_failed(entry, error).await);
                }
                // A round whose result keeps failing to save never retries
                // forever (the presence tick would, every second): it ends
                // with no rating, which the players are told.
                tracing::error!(
                    table = %entry.id,
                    attempts = entry.failed_commits,
                    "a round's result kept failing to save ({error}): ending it unrated"
                );
                if let Some(game) = record.archive.as_mut() {
                    game.rated = None;
                }
                match self.store_record(entry, &record).await {
                    Ok(change) => {
                        self.inner
                            .metrics
                            .rounds_unrated_after_failures_total
                            .fetch_add(1, Ordering::Relaxed);
                        next.set_notice(app::msg!("srv-unrated-after-failures"));
                        change
                    }
                    Err(error) => return Err(self.write_failed(entry, error).await),
                }
            }
        };
        entry.failed_commits = 0;
        entry.next_seq += record.rows.len() as i64;
        entry.table = next;
        if entry.clock.is_some() {
            if matches!(command, Command::Place { .. }) {
                if let Some(round) = entry.times.get_mut(round_before as usize - 1) {
                    round.push(used);
                }
            }
            if entry.table.round() != round_before {
                entry.times.resize(entry.table.round() as usize, Vec::new());
            }
        }
        entry.clock = clock;
        let to_move = entry.clock_side();
        if let Some(clock) = entry.clock.as_mut() {
            clock.turn_started(to_move, now);
        }
        self.rounds_changed(entry, &events).await;
        if matches!(command, Command::Place { .. }) {
            self.inner.metrics.record_move();
        }
        self.after_change(entry);
        self.published(entry, change).await;
        Ok(events)
    }
}

/// Failed commits of a rated round's end before it is written unrated.
pub const MAX_FAILED_ROUND_COMMITS: u32 = 3;

impl<S: TableStore> Hub<S> {
    /// Writes one accepted command's record (alone: through the group
    /// commit; shared: version-checked, the entry then one version further,
    /// with the change the other instances apply).
    async fn store_record(
        &self,
        entry: &mut Entry,
        record: &Record,
    ) -> Result<Option<Change>, StoreError> {
        self.inner.coordination.record(self, entry, record).await
    }
}

/// The round `table` just finished, as the archive keeps it.
fn archived(entry: &Entry, table: &Table, times: Vec<Option<i64>>) -> ArchivedGame {
    let mode = table.mode();
    let player = |side: Side| -> Identity {
        match (&entry.seating, mode) {
            (Some(seating), _) => Identity::parse(seating.holder(side).unwrap_or_default()),
            (None, TableMode::VsAi { depth, human }) if side != human => Identity::Ai(depth),
            (None, _) => Identity::parse(&entry.owner),
        }
    };
    let bytes: [u8; 9] = rand::random();
    let rated = rated_game(entry, table);
    let (black, white) = (player(Side::Black), player(Side::White));
    // Between two online players, a round in which a side never placed a
    // disc is aborted (lichess's rule): nobody's win, loss or draw.
    let tournament = matches!(
        mode,
        TableMode::Online {
            tournament: true,
            ..
        }
    );
    let aborted = entry.seating.is_some()
        && !tournament
        && black != white
        && !(moved(table, Color::Black) && moved(table, Color::White));
    ArchivedGame {
        id: app::protocol::GameId::new(crate::hex::hex(&bytes)),
        mode,
        black,
        white,
        start_obf: table.start().to_obf(),
        moves: table.game().transcript(),
        times: serde_json::to_string(&times).unwrap_or_default(),
        rated,
        aborted,
    }
}

/// Whether `color` placed a disc in the round `table` is at.
fn moved(table: &Table, color: Color) -> bool {
    table
        .game()
        .events()
        .iter()
        .any(|e| matches!(e, engine::GameEvent::Move { color: c, .. } if *c == color))
}

/// Whether the round `table` just finished changes ratings: a rated table,
/// both seats held by accounts, and each side placed a disc this round (a
/// round that ended before both had moved is aborted for ratings; the
/// table's tally still counts it).
fn rated_game(entry: &Entry, table: &Table) -> Option<RatedGame> {
    let TableMode::Online {
        rated: true,
        time: Some(control),
        ..
    } = table.mode()
    else {
        return None;
    };
    let seating = entry.seating.as_ref()?;
    let account = |side: Side| seating.holder(side).and_then(crate::identity::account_in);
    let (black, white) = (account(Side::Black), account(Side::White));
    let moved = |color: Color| moved(table, color);
    // The rating gate decides from what the table knows (both seats held by
    // distinct accounts, both moved); the round's commit asks it again with
    // the links and marks it reads (`store/ratings.rs`).
    let accounts = black.is_some() && white.is_some() && black != white;
    let aborted = !(moved(Color::Black) && moved(Color::White));
    crate::rating_gate::gate(crate::rating_gate::Facts::game(
        accounts, false, false, aborted,
    ))
    .ok()?;
    Some(RatedGame {
        speed: control.speed(),
        black: black?,
        white: white?,
    })
}

/// Builds what one accepted command writes.
fn record_for(
    table_id: &TableId,
    first_seq: i64,
    round_before: u32,
    command: Command,
    events: &[Event],
    after: &Table,
    now: i64,
) -> Record {
    let round = i64::from(round_before);
    let mut rows = Vec::new();
    let mut seq = first_seq;
    let mut push = |kind: MoveKind, side: Side, square: Option<i64>| {
        rows.push(MoveRow {
            seq,
            round,
            kind,
            side: side.key().to_string(),
            square,
            time_ms: None,
        });
        seq += 1;
    };
    match command {
        Command::Place { side, square } => push(MoveKind::Place, side, Some(square.index() as i64)),
        Command::Resign { side } => push(MoveKind::Resign, side, None),
        Command::Vote { side, vote } => push(
            if vote {
                MoveKind::Vote
            } else {
                MoveKind::Withdraw
            },
            side,
            None,
        ),
        Command::Forfeit { side } => push(MoveKind::Timeout, side, None),
        // The side column is required; an abandon names black by convention.
        Command::Abandon => push(MoveKind::Abandon, Side::Black, None),
        Command::Flag { side } => push(MoveKind::Flag, side, None),
        Command::Berserk { side } => push(MoveKind::Berserk, side, None),
    }
    for event in events {
        if let Event::Passed { side } = event {
            push(MoveKind::Pass, *side, None);
        }
    }
    let round_end = events.iter().find_map(|event| match event {
        Event::RoundOver { winner, reason } => {
            let position = after.game().position();
            Some(RoundEnd {
                round,
                winner: *winner,
                reason: *reason,
                black: i64::from(position.count(Color::Black)),
                white: i64::from(position.count(Color::White)),
            })
        }
        _ => None,
    });
    let new_round = events.iter().find_map(|event| match event {
        Event::RematchStarted { round } => Some(i64::from(*round)),
        _ => None,
    });
    let votes = matches!(command, Command::Vote { .. }).then(|| {
        let v = if new_round.is_some() {
            app::protocol::Votes {
                black: true,
                white: true,
            }
        } else {
            after.votes()
        };
        (round, v.black, v.white)
    });
    let tally = after.tally();
    Record {
        table_id: table_id.clone(),
        rows,
        round_end,
        new_round,
        votes,
        tally: (
            i64::from(tally.black_wins),
            i64::from(tally.white_wins),
            i64::from(tally.draws),
        ),
        now,
        archive: None,
    }
}
