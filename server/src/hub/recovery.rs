//! Restart recovery: every stored table is rebuilt by replaying its stored
//! rows through [`Table::apply`], the same code path as play; seats resume
//! with everyone absent, clocks with the time left at the last commit.

use super::entry::Entry;
use super::{Hub, RestoreError};
use crate::clock_control::GameClock;
use crate::seating::{Seating, SeatingRecord};
use crate::store::TableStore;
use crate::store::{MoveKind, MoveRow, StoreError, StoredTable};
use crate::table::{Command, Table};
use app::protocol::{Side, TableId, TableMode};
use engine::Square;
use std::sync::Arc;
use tokio::sync::{broadcast, Mutex as AsyncMutex};

impl<S: TableStore> Hub<S> {
    /// Rebuilds every stored table by replaying its commands (this
    /// instance alone holds them; see `coordination`).
    pub(super) async fn restore_all(&self) -> Result<(), RestoreError> {
        let stored = self.inner.store.tables().await?;
        let mut restored = 0;
        for header in stored {
            let Some(mode) = header.mode.mode() else {
                tracing::error!(table = %header.id, "unreadable table mode; skipped");
                continue;
            };
            let rows = match self.inner.store.moves(&header.id).await {
                Ok(rows) => rows,
                // A row the schema allows but this build cannot read (say, a
                // kind from a newer release): the table is left on disk.
                Err(StoreError::Query(error @ sqlx::Error::ColumnDecode { .. })) => {
                    tracing::error!(table = %header.id, "unreadable stored row ({error}); skipped");
                    continue;
                }
                Err(error) => return Err(error.into()),
            };
            let Some(Replayed {
                table,
                next_seq,
                times,
                used_now,
            }) = replay(&header, mode, &rows)
            else {
                tracing::error!(table = %header.id, "table could not be restored; left on disk");
                continue;
            };
            if let Some(stored_tally) = self.inner.store.tally(&header.id).await? {
                let t = table.tally();
                if stored_tally
                    != (
                        i64::from(t.black_wins),
                        i64::from(t.white_wins),
                        i64::from(t.draws),
                    )
                {
                    tracing::warn!(table = %header.id, ?stored_tally, replayed = ?t, "stored tally differs from the replay");
                }
            }
            // Nobody is connected after a restart: holders who were connected
            // are absent from now; those already gone keep the time they left.
            let seating = matches!(mode, TableMode::Online { .. }).then(|| {
                Seating::restore(
                    self.inner.config.grace_ms,
                    SeatingRecord {
                        holders: [header.black_seat.clone(), header.white_seat.clone()],
                        absent_since: [header.black_gone_since, header.white_gone_since],
                        running_since: header.running_since,
                    },
                    table.outcome().is_none(),
                    self.now(),
                )
            });
            if let Some(seating) = &seating {
                self.inner
                    .store
                    .update_seating(&header.id, &seating.record(), None)
                    .await?;
            }
            // The clocks resume from the restart with the time left at the
            // last commit: the time the server was down is not charged.
            let clock = match mode {
                TableMode::Online {
                    time: Some(control),
                    ..
                } => {
                    let to_move = if seating.as_ref().is_some_and(Seating::both_taken) {
                        table.to_move()
                    } else {
                        None
                    };
                    Some(GameClock::restore(
                        control,
                        self.first_move_ms(mode),
                        used_now,
                        table.berserked(),
                        to_move,
                        self.now(),
                    ))
                }
                _ => None,
            };
            // The creator's place under the per-session cap (addresses are
            // not stored: their counts start again at a restart).
            self.inner.limits.restored(
                crate::limits::Kind::Table,
                &header.owner,
                header.id.as_str(),
            );
            let entry = Entry {
                id: header.id.clone(),
                table,
                owner: header.owner,
                seating,
                clock,
                times,
                next_seq,
                version: 0,
                ai_key: String::new(),
                ai_thinking: false,
                ai_search: None,
                jobs_stored: None,
                failed_commits: 0,
                updates: broadcast::channel(64).0,
            };
            let entry = Arc::new(AsyncMutex::new(entry));
            if let Ok(mut tables) = self.inner.tables.lock() {
                tables.insert(header.id.clone(), entry.clone());
            }
            // Resume the AI if it was to move when the server stopped.
            let mut guard = entry.lock().await;
            self.after_change(&mut guard);
            restored += 1;
        }
        if restored > 0 {
            tracing::info!(restored, "tables restored from the database");
        }
        Ok(())
    }
}

/// A table rebuilt from its stored rows.
pub(super) struct Replayed {
    pub(super) table: Table,
    pub(super) next_seq: i64,
    /// Time used by each placement, per round.
    pub(super) times: Vec<Vec<Option<i64>>>,
    /// Time used per placement of the current round, and by whom.
    pub(super) used_now: Vec<(Side, i64)>,
}

/// Replays a table's stored rows through [`Table::apply`]; None (logged) if
/// a row no longer applies or cannot be read.
pub(super) fn replay(header: &StoredTable, mode: TableMode, rows: &[MoveRow]) -> Option<Replayed> {
    let table = match start_of(header)? {
        None => Table::new(mode),
        Some(start) => Table::from_position(mode, start),
    };
    let mut replayed = Replayed {
        table,
        next_seq: 1,
        times: vec![Vec::new()],
        used_now: Vec::new(),
    };
    replayed.apply(&header.id.clone(), rows)?;
    Some(replayed)
}

/// A stored table's start position: `Some(None)` for the usual one, None
/// (logged) when its OBF cannot be read.
pub(super) fn start_of(header: &StoredTable) -> Option<Option<engine::Position>> {
    match header.start_obf.as_deref() {
        None => Some(None),
        Some(obf) => match engine::Position::from_obf(obf) {
            Ok(start) => Some(Some(start)),
            Err(error) => {
                tracing::error!(table = %header.id, "unreadable start position ({error}); skipped");
                None
            }
        },
    }
}

impl Replayed {
    /// A live table's state taken out to be brought forward with newer
    /// rows ([`Replayed::apply`]); what replaying all its rows would give,
    /// the current round's clock usage derived from its placements.
    pub(super) fn resume(table: Table, next_seq: i64, times: Vec<Vec<Option<i64>>>) -> Self {
        let round = usize::try_from(table.round()).unwrap_or(1).max(1) - 1;
        let placements = table
            .game()
            .events()
            .iter()
            .filter_map(|event| match event {
                engine::GameEvent::Move { color, .. } => Some(crate::table::side(*color)),
                engine::GameEvent::Pass { .. } => None,
            });
        let used_now = placements
            .zip(times.get(round).map(Vec::as_slice).unwrap_or_default())
            .filter_map(|(side, ms)| ms.map(|ms| (side, ms)))
            .collect();
        Self {
            table,
            next_seq,
            times,
            used_now,
        }
    }

    /// Applies stored rows after the ones already applied; None (logged) if
    /// a row no longer applies or cannot be read (the state is then
    /// unusable: replay the whole table).
    pub(super) fn apply(&mut self, id: &TableId, rows: &[MoveRow]) -> Option<()> {
        let Replayed {
            table,
            next_seq,
            times,
            used_now,
        } = self;
        for row in rows {
            *next_seq = row.seq + 1;
            let side = parse_side(&row.side)?;
            if row.kind == MoveKind::Place {
                let round = usize::try_from(row.round.max(1) - 1).unwrap_or(0);
                if times.len() <= round {
                    times.resize(round + 1, Vec::new());
                    used_now.clear();
                }
                times[round].push(row.time_ms);
                if let Some(ms) = row.time_ms {
                    used_now.push((side, ms));
                }
            }
            let command = match (row.kind, row.square) {
                (MoveKind::Pass, _) => continue,
                (MoveKind::Place, Some(square)) => Command::Place {
                    side,
                    square: Square::new(usize::try_from(square).ok()?)?,
                },
                (MoveKind::Place, None) => return None,
                (MoveKind::Resign, _) => Command::Resign { side },
                (MoveKind::Timeout, _) => Command::Forfeit { side },
                (MoveKind::Abandon, _) => Command::Abandon,
                (MoveKind::Flag, _) => Command::Flag { side },
                (MoveKind::Berserk, _) => Command::Berserk { side },
                (MoveKind::Vote, _) => Command::Vote { side, vote: true },
                (MoveKind::Withdraw, _) => Command::Vote { side, vote: false },
            };
            if let Err(error) = table.apply(command) {
                tracing::error!(table = %id, seq = row.seq, "stored command no longer applies: {error}");
                return None;
            }
        }
        if times.len() < table.round() as usize {
            times.resize(table.round() as usize, Vec::new());
            used_now.clear();
        }
        Some(())
    }
}

fn parse_side(text: &str) -> Option<Side> {
    match text {
        "black" => Some(Side::Black),
        "white" => Some(Side::White),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stored rows of `rounds` full games at one hot-seat table (each
    /// round the same game, the first legal move every time), a rematch
    /// between each.
    fn rows_of(rounds: u32) -> Vec<MoveRow> {
        let mut game = Vec::new();
        let mut position = engine::Position::initial();
        while !position.is_game_over() {
            match position.legal_moves().first() {
                Some(square) => {
                    game.push((position.side_to_move, Some(square)));
                    position = position.play(square).expect("legal").position;
                }
                None => {
                    game.push((position.side_to_move, None));
                    position = position.pass().expect("a pass");
                }
            }
        }
        let name = |color: engine::Color| crate::table::side(color).name().to_lowercase();
        let mut rows = Vec::new();
        for round in 1..=i64::from(rounds) {
            for (color, square) in &game {
                rows.push(MoveRow {
                    seq: rows.len() as i64 + 1,
                    round,
                    kind: if square.is_some() {
                        MoveKind::Place
                    } else {
                        MoveKind::Pass
                    },
                    side: name(*color),
                    square: square.map(|s| s.index() as i64),
                    time_ms: None,
                });
            }
            if round < i64::from(rounds) {
                for side in ["black", "white"] {
                    rows.push(MoveRow {
                        seq: rows.len() as i64 + 1,
                        round,
                        kind: MoveKind::Vote,
                        side: side.into(),
                        square: None,
                        time_ms: None,
                    });
                }
            }
        }
        rows
    }

    #[test]
    fn a_table_at_the_round_cap_is_replayed_quickly() {
        let header = StoredTable {
            id: app::ids::TableId::new("full"),
            mode: crate::store::mode::ModeColumns::of(TableMode::HotSeat),
            owner: "someone".into(),
            created_at: 0,
            last_activity: 0,
            black_seat: None,
            white_seat: None,
            black_gone_since: None,
            white_gone_since: None,
            running_since: None,
            start_obf: None,
        };
        let rows = rows_of(crate::table::MAX_ROUNDS);
        let started = std::time::Instant::now();
        let replayed = replay(&header, TableMode::HotSeat, &rows).expect("replayed");
        let took = started.elapsed();
        eprintln!(
            "replayed {} rows ({} rounds) in {} ms",
            rows.len(),
            crate::table::MAX_ROUNDS,
            took.as_millis()
        );
        assert_eq!(replayed.table.round(), crate::table::MAX_ROUNDS);
        assert!(replayed.table.outcome().is_some());
        assert_eq!(replayed.times.len(), crate::table::MAX_ROUNDS as usize);
        // Linear in the rows (tens of thousands, unoptimised build): a
        // generous bound that a quadratic replay (every command copying
        // every past round) would not meet.
        assert!(took < std::time::Duration::from_secs(20), "{took:?}");
    }
}
