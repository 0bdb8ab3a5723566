//! The hub in process, with an injected clock: expiry, the AI's real depth.

use app::protocol::{
    EndReason, RoundStatus, Session, Side, TableCommand, TableId, TableMode, Tally,
};
use server::clock::ManualClock;
use server::hub::{Hub, HubConfig};
use server::seating::SeatingRecord;
use server::store::{MoveKind, MoveRow, Record, Store, StoreError, StoredTable, TableStore};
use std::sync::Arc;
use std::time::Duration;

async fn hub_with_clock(clock: ManualClock) -> (Hub, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(&dir.path().join("db.sqlite"))
        .await
        .expect("store");
    let hub = Hub::start(store, Arc::new(clock), HubConfig::default(), None)
        .await
        .expect("hub");
    (hub, dir)
}

#[tokio::test]
async fn a_table_idle_for_24_hours_is_deleted_and_an_active_one_kept() {
    let clock = ManualClock::new(1_000_000);
    let (hub, _dir) = hub_with_clock(clock.clone()).await;
    let player = hub.new_session().await.expect("session");
    let idle = hub
        .create(&player, TableMode::HotSeat)
        .await
        .expect("table");
    let active = hub
        .create(&player, TableMode::HotSeat)
        .await
        .expect("table");

    clock.advance(23 * 3600 * 1000);
    hub.execute(
        &player,
        TableCommand::Place {
            table: active.clone(),
            square: 37,
        },
    )
    .await
    .expect("move");
    assert_eq!(
        hub.expire_idle().await.expect("sweep"),
        0,
        "nothing is 24 h idle yet"
    );

    clock.advance(3600 * 1000 + 1);
    assert_eq!(hub.expire_idle().await.expect("sweep"), 1);
    let gone = hub.view(&player, &idle).await.expect_err("deleted");
    assert!(gone.message.contains("No such table"), "{}", gone.message);
    assert_eq!(gone.kind, app::api::ErrorKind::NotFound, "answered 404");
    hub.view(&player, &active)
        .await
        .expect("the active table stays");
    let tables = hub.store().tables().await.expect("tables");
    assert_eq!(tables.len(), 1, "deleted from the database too");
}

#[tokio::test]
async fn the_ai_plays_the_move_its_configured_depth_finds() {
    let (hub, _dir) = hub_with_clock(ManualClock::new(0)).await;
    let player: Session = hub.new_session().await.expect("session");
    // The same opening for each depth; the AI's reply must be the search's
    // best move at exactly that depth.
    let mut replies = Vec::new();
    for depth in 1..=5u8 {
        let table = hub
            .create(
                &player,
                TableMode::VsAi {
                    depth,
                    human: Side::Black,
                },
            )
            .await
            .expect("table");
        for square in [37u8] {
            hub.execute(
                &player,
                TableCommand::Place {
                    table: table.clone(),
                    square,
                },
            )
            .await
            .expect("move");
        }
        let mut view = hub.view(&player, &table).await.expect("view");
        for _ in 0..400 {
            if view.history.len() == 2 && !view.ai_thinking {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
            view = hub.view(&player, &table).await.expect("view");
        }
        assert_eq!(view.history.len(), 2, "the AI replied at depth {depth}");
        let after_human = engine::Game::replay(&["f5".parse().expect("square")])
            .expect("legal")
            .position()
            .to_owned();
        let report = engine::search(&after_human, u32::from(depth));
        let expected = report.best_move.expect("a move").to_string();
        assert_eq!(
            view.history[1].square.as_deref(),
            Some(expected.as_str()),
            "depth {depth}"
        );
        // The search the AI ran is exactly the depth-`depth` search.
        let ai = view.ai_search.expect("the AI's search is reported");
        assert_eq!(
            (ai.depth, ai.nodes, ai.value),
            (depth, report.nodes, report.value)
        );
        replies.push(ai.nodes);
    }
    assert!(
        replies.windows(2).all(|w| w[1] > w[0]),
        "each deeper setting searched more positions: {replies:?}"
    );
}

#[tokio::test]
async fn a_quick_match_pair_whose_black_never_moves_is_aborted_at_the_first_move_timer() {
    let clock = ManualClock::new(5_000_000);
    let (hub, _dir) = hub_with_clock(clock.clone()).await;
    let first = hub.new_session().await.expect("session");
    let second = hub.new_session().await.expect("session");
    let server::hub::Queued::Waiting { matched, .. } = hub
        .enqueue(first.clone(), app::protocol::TimeControl::PRESETS[0], None)
        .await
        .expect("queue")
    else {
        panic!("the first player waits");
    };
    let server::hub::Queued::Matched(table) = hub
        .enqueue(second.clone(), app::protocol::TimeControl::PRESETS[0], None)
        .await
        .expect("queue")
    else {
        panic!("the second player is paired");
    };
    assert_eq!(matched.await.expect("paired"), table);
    let grace = HubConfig::default().grace_ms;
    let view = hub.view(&first, &table).await.expect("view");
    let seats = view.seats.expect("an online table has seats");
    assert_eq!(seats.black.grace_left, Some((grace / 1000) as u32));
    assert_eq!(seats.white.grace_left, Some((grace / 1000) as u32));

    // One of them shows up, but black never moves: black's first-move
    // timer (shorter than the grace) ends the game, aborted — it counts
    // for nobody.
    let first_move = HubConfig::default().first_move_ms;
    assert!(first_move < grace);
    hub.socket_opened(&table, &first).await;
    clock.advance(first_move - 1);
    hub.check_presence().await;
    let view = hub.view(&first, &table).await.expect("view");
    assert!(matches!(
        view.status,
        app::protocol::RoundStatus::Playing { .. }
    ));
    clock.advance(1);
    hub.check_presence().await;
    let view = hub.view(&second, &table).await.expect("view");
    assert_eq!(
        view.status,
        app::protocol::RoundStatus::Over {
            winner: None,
            reason: app::protocol::EndReason::Aborted
        }
    );

    // Another pair where nobody connects: aborted at black's first-move
    // timer, nobody wins.
    let (a, b) = (
        hub.new_session().await.expect("session"),
        hub.new_session().await.expect("session"),
    );
    let _waiting = hub
        .enqueue(a.clone(), app::protocol::TimeControl::PRESETS[0], None)
        .await
        .expect("queue");
    let server::hub::Queued::Matched(table) = hub
        .enqueue(b, app::protocol::TimeControl::PRESETS[0], None)
        .await
        .expect("queue")
    else {
        panic!("paired");
    };
    clock.advance(first_move);
    hub.check_presence().await;
    let view = hub.view(&a, &table).await.expect("view");
    assert_eq!(
        view.status,
        app::protocol::RoundStatus::Over {
            winner: None,
            reason: app::protocol::EndReason::Aborted
        }
    );
    assert_eq!(view.tally, app::protocol::Tally::default());
}

#[tokio::test]
async fn a_storage_failure_is_unavailable_not_the_players_fault_and_changes_nothing() {
    let (hub, _dir) = hub_with_clock(ManualClock::new(1_000_000)).await;
    let player = hub.new_session().await.expect("session");
    let table = hub
        .create(&player, TableMode::HotSeat)
        .await
        .expect("table");
    let before = hub.view(&player, &table).await.expect("view");
    hub.store().sqlite().expect("SQLite").pool().close().await;
    let error = hub
        .execute(
            &player,
            TableCommand::Place {
                table: table.clone(),
                square: 37,
            },
        )
        .await
        .expect_err("the write fails");
    assert_eq!(
        error.kind,
        app::api::ErrorKind::Unavailable,
        "{}",
        error.message
    );
    assert_eq!(error.kind.status(), 503);
    assert!(
        error.message.contains("nothing changed"),
        "{}",
        error.message
    );
    let after = hub.view(&player, &table).await.expect("view");
    assert_eq!(after.board, before.board, "memory untouched");
    assert_eq!(after.history, before.history);
}

/// Rows written by earlier releases (the kind as a plain string) restore
/// through the typed `MoveKind`: every kind the schema allows, replayed.
#[tokio::test]
async fn rows_stored_as_strings_by_earlier_releases_still_restore() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db.sqlite");
    let owner = Session::new("ab".repeat(32));
    {
        let store = Store::open(&path).await.expect("store");
        store
            .create_table(
                &app::ids::TableId::new("old"),
                TableMode::HotSeat,
                owner.as_str(),
                (None, None),
                1_000,
            )
            .await
            .expect("table");
        // (round, kind, side, square): the strings an earlier release wrote.
        let rows: [(i64, &str, &str, Option<i64>); 14] = [
            (1, "place", "black", Some(37)),
            (1, "place", "white", Some(45)),
            (1, "resign", "black", None),
            (1, "vote", "black", None),
            (1, "withdraw", "black", None),
            (1, "vote", "black", None),
            (1, "vote", "white", None),
            (2, "place", "black", Some(19)),
            (2, "abandon", "black", None),
            (2, "vote", "black", None),
            (2, "vote", "white", None),
            (3, "timeout", "white", None),
            (3, "vote", "black", None),
            (3, "vote", "white", None),
        ];
        let mut seq = 0;
        for (round, kind, side, square) in rows
            .into_iter()
            .chain([(4, "pass", "white", None), (4, "flag", "black", None)])
        {
            seq += 1;
            sqlx::query(
                "INSERT INTO moves (table_id, seq, round, kind, side, square, at) VALUES ('old', ?, ?, ?, ?, ?, 2000)",
            )
            .bind(seq)
            .bind(round)
            .bind(kind)
            .bind(side)
            .bind(square)
            .execute(store.sqlite().expect("SQLite").pool())
            .await
            .expect("an old row");
        }
        store.sqlite().expect("SQLite").pool().close().await;
    }
    let store = Store::open(&path).await.expect("store");
    let kinds: Vec<MoveKind> = store
        .moves(&app::ids::TableId::new("old"))
        .await
        .expect("rows")
        .iter()
        .map(|row| row.kind)
        .collect();
    // (Berserk is newer than those releases, and replays only at an arena's
    // table: tests/tournaments.rs restarts one.)
    for kind in MoveKind::ALL
        .into_iter()
        .filter(|k| *k != MoveKind::Berserk)
    {
        assert!(kinds.contains(&kind), "{kind:?} read back");
    }
    let hub = Hub::start(
        store,
        Arc::new(ManualClock::new(3_000)),
        HubConfig::default(),
        None,
    )
    .await
    .expect("hub");
    let view = hub
        .view(&owner, &app::ids::TableId::new("old"))
        .await
        .expect("restored");
    assert_eq!(view.round, 4);
    assert_eq!(
        view.status,
        RoundStatus::Over {
            winner: Some(Side::White),
            reason: EndReason::Time
        }
    );
    assert_eq!(
        view.tally,
        Tally {
            black_wins: 1,
            white_wins: 2,
            draws: 0
        },
        "resign and flag for white, timeout for black, abandon for nobody"
    );
    assert_eq!(
        view.you,
        [Side::Black, Side::White],
        "the owner still plays"
    );
}

/// A storage that is not `Store`: it wraps one and counts the commands it
/// makes durable (the shape a PostgreSQL store takes: the hub needs only
/// `TableStore`).
#[derive(Clone)]
struct Counting {
    inner: Store,
    records: Arc<std::sync::atomic::AtomicUsize>,
}

impl TableStore for Counting {
    async fn remember_session(&self, session: &str, now: i64) -> Result<(), StoreError> {
        self.inner.remember_session(session, now).await
    }
    async fn expire_sessions(&self, before: i64) -> Result<u64, StoreError> {
        self.inner.expire_sessions(before).await
    }
    async fn create_table(
        &self,
        id: &TableId,
        mode: TableMode,
        owner: &str,
        seats: (Option<&str>, Option<&str>),
        now: i64,
    ) -> Result<(), StoreError> {
        self.inner.create_table(id, mode, owner, seats, now).await
    }
    async fn update_table_setup(
        &self,
        id: &TableId,
        seating: &SeatingRecord,
        start_obf: Option<&str>,
    ) -> Result<(), StoreError> {
        self.inner.update_table_setup(id, seating, start_obf).await
    }
    async fn update_seating(
        &self,
        id: &TableId,
        seating: &SeatingRecord,
        touch: Option<i64>,
    ) -> Result<(), StoreError> {
        self.inner.update_seating(id, seating, touch).await
    }
    async fn record(&self, record: &Record) -> Result<(), StoreError> {
        self.inner.record(record).await?;
        self.records
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Ok(())
    }
    async fn tables(&self) -> Result<Vec<StoredTable>, StoreError> {
        self.inner.tables().await
    }
    async fn moves(&self, table_id: &TableId) -> Result<Vec<MoveRow>, StoreError> {
        self.inner.moves(table_id).await
    }
    async fn tally(&self, table_id: &TableId) -> Result<Option<(i64, i64, i64)>, StoreError> {
        self.inner.tally(table_id).await
    }
    async fn delete_idle_tables(&self, cutoff: i64) -> Result<Vec<TableId>, StoreError> {
        self.inner.delete_idle_tables(cutoff).await
    }
}

#[tokio::test]
async fn the_hub_runs_on_any_table_store() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db.sqlite");
    let records = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let store = Counting {
        inner: Store::open(&path).await.expect("store"),
        records: records.clone(),
    };
    let clock = ManualClock::new(1_000_000);
    let hub: Hub<Counting> = Hub::start(store, Arc::new(clock.clone()), HubConfig::default(), None)
        .await
        .expect("hub");
    let player = hub.new_session().await.expect("session");
    let table = hub
        .create(&player, TableMode::HotSeat)
        .await
        .expect("table");
    for square in [37, 45] {
        hub.execute(
            &player,
            TableCommand::Place {
                table: table.clone(),
                square,
            },
        )
        .await
        .expect("move");
    }
    assert_eq!(records.load(std::sync::atomic::Ordering::SeqCst), 2);
    drop(hub);
    // Restored through the same trait.
    let store = Counting {
        inner: Store::open(&path).await.expect("store"),
        records: records.clone(),
    };
    let hub = Hub::start(store, Arc::new(clock), HubConfig::default(), None)
        .await
        .expect("hub");
    let view = hub.view(&player, &table).await.expect("restored");
    assert_eq!(view.history.len(), 2);
}

/// The hub's settings from the flags' defaults are the tests' defaults (the
/// flags' side of this is in `config.rs`'s own tests).
#[test]
fn the_hub_reads_the_flags_defaults() {
    use clap::Parser;
    let flags = server::config::Config::parse_from(["othello-server"]);
    assert_eq!(
        server::hub::HubConfig::from(&flags),
        server::hub::HubConfig::default()
    );
    assert_eq!(server::hub::HubConfig::default().grace_ms, 90_000);
}
