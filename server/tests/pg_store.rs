//! The PostgreSQL store on a real, throwaway PostgreSQL cluster: the group
//! commit of version-checked records (many tables' moves in one
//! transaction, each refused or accepted exactly as alone) and the
//! one-statement read of a table's rows since a sequence number that an
//! instance uses to catch up.
//!
//! These tests need PostgreSQL installed (`initdb`, `pg_ctl`); without it
//! they fail saying so.

#[path = "support/pg.rs"]
mod pg;

use app::protocol::{Side, TableId, TableMode};

/// A mode with every column the AI uses.
const AI_TABLE: TableMode = TableMode::VsAi {
    depth: 4,
    human: Side::Black,
};
use pg::PgCluster;
use server::store::{
    DatabaseStore, MoveKind, MoveRow, PgStore, Record, Store, StoreError, TableStore,
};

async fn open(cluster: &PgCluster) -> PgStore {
    PgStore::open(&cluster.url()).await.expect("open")
}

/// A placement at `table` as row `seq` of round 1.
fn place(table: &str, seq: i64, square: i64, now: i64) -> Record {
    Record {
        table_id: app::ids::TableId::new(table),
        rows: vec![MoveRow {
            seq,
            round: 1,
            kind: MoveKind::Place,
            side: if seq % 2 == 1 { "black" } else { "white" }.into(),
            square: Some(square),
            time_ms: Some(seq * 10),
        }],
        round_end: None,
        new_round: None,
        votes: None,
        tally: (0, 0, 0),
        now,
        archive: None,
    }
}

async fn version(store: &PgStore, id: &str) -> i64 {
    store
        .version(id)
        .await
        .expect("read")
        .expect("the table exists")
}

#[tokio::test]
async fn many_tables_moves_at_once_are_each_written_once_and_a_stale_or_gone_one_changes_nothing() {
    let cluster = PgCluster::start();
    let store = open(&cluster).await;
    let ids: Vec<TableId> = (0..120).map(|n| TableId::new(format!("t{n:03}"))).collect();
    for id in &ids {
        Store::Postgres(store.clone())
            .create_table(id, TableMode::HotSeat, "owner", (None, None), 1)
            .await
            .expect("create");
    }
    let start = version(&store, ids[0].as_str()).await;
    // 120 tables' first moves, two competing second moves of one table
    // decided at the same version, and a move at a table that does not
    // exist: all sent at once, so they share the writer's batches.
    let mut writes = Vec::new();
    for (n, id) in ids.iter().enumerate() {
        let store = store.clone();
        let record = place(id.as_str(), 1, 19, 100 + n as i64);
        writes.push(tokio::spawn(async move {
            store.record_at(&record, start).await
        }));
    }
    let results: Vec<Result<(), StoreError>> = futures_util::future::join_all(writes)
        .await
        .into_iter()
        .map(|r| r.expect("task"))
        .collect();
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    let stats = store.commit_stats();
    assert!(stats.records() >= 120, "{}", stats.records());
    assert!(
        stats.largest_batch() > 1 && stats.batches() < stats.records(),
        "moves sent at once share transactions: {} records in {} batches",
        stats.records(),
        stats.batches()
    );
    assert_eq!(stats.failed_batches(), 0);
    let (a, b, ghost) = (
        place(ids[7].as_str(), 2, 18, 500),
        place(ids[7].as_str(), 2, 26, 501),
        place("no-such-table", 1, 19, 502),
    );
    let (ra, rb, rg) = tokio::join!(
        store.record_at(&a, start + 1),
        store.record_at(&b, start + 1),
        store.record_at(&ghost, start)
    );
    assert!(
        matches!(
            (&ra, &rb),
            (Ok(()), Err(StoreError::Stale)) | (Err(StoreError::Stale), Ok(()))
        ),
        "exactly one of two moves decided at one version is written: {ra:?} {rb:?}"
    );
    assert!(matches!(rg, Err(StoreError::Gone)), "{rg:?}");
    // A move decided at an older version is refused and writes nothing.
    let late = place(ids[8].as_str(), 2, 18, 600);
    assert!(matches!(
        store.record_at(&late, start).await,
        Err(StoreError::Stale)
    ));
    for (n, id) in ids.iter().enumerate() {
        let moves = store.moves(id.as_str()).await.expect("rows");
        let expected = if n == 7 { 2 } else { 1 };
        assert_eq!(moves.len(), expected, "table {id}: {moves:?}");
        assert_eq!(moves[0].square, Some(19));
        assert_eq!(moves[0].time_ms, Some(10));
        assert_eq!(
            version(&store, id.as_str()).await,
            start + expected as i64,
            "{id}"
        );
    }
    let winner = if ra.is_ok() { 18 } else { 26 };
    assert_eq!(
        store.moves(ids[7].as_str()).await.expect("rows")[1].square,
        Some(winner)
    );
    assert!(store.moves("no-such-table").await.expect("rows").is_empty());
}

#[tokio::test]
async fn a_table_read_since_a_row_has_its_header_version_and_only_the_later_rows() {
    let cluster = PgCluster::start();
    let store = open(&cluster).await;
    Store::Postgres(store.clone())
        .create_table(
            &app::ids::TableId::new("t"),
            AI_TABLE,
            "owner",
            (Some("b"), None),
            5,
        )
        .await
        .expect("create");
    let start = version(&store, "t").await;
    for seq in 1..=4 {
        store
            .record_at(&place("t", seq, 19 + seq, 10 + seq), start + seq - 1)
            .await
            .expect("written");
    }
    let all = store.table_since("t", 1).await.expect("read").expect("t");
    assert_eq!(all.version, start + 4);
    assert_eq!(all.header.mode.mode(), Some(AI_TABLE));
    assert_eq!(all.header.black_seat.as_deref(), Some("b"));
    assert_eq!(all.header.last_activity, 14);
    assert_eq!(
        all.moves.iter().map(|m| m.seq).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    assert_eq!(all.moves, store.moves("t").await.expect("rows"));
    let later = store.table_since("t", 3).await.expect("read").expect("t");
    assert_eq!(later.version, start + 4);
    assert_eq!(later.moves, all.moves[2..]);
    // Caught up: the header and version, no rows.
    let none = store.table_since("t", 5).await.expect("read").expect("t");
    assert_eq!(none.version, start + 4);
    assert!(none.moves.is_empty());
    assert!(store.table_since("gone", 1).await.expect("read").is_none());
}

#[tokio::test]
async fn a_records_bus_message_is_sent_by_its_commit_and_never_for_a_refused_record() {
    use server::store::bus::{Bus, BusMessage, PgBus};
    let cluster = PgCluster::start();
    let store = open(&cluster).await;
    let bus = PgBus::start(store.pool().clone()).await.expect("listen");
    let mut heard = bus.subscribe();
    Store::Postgres(store.clone())
        .create_table(
            &app::ids::TableId::new("t"),
            TableMode::HotSeat,
            "owner",
            (None, None),
            1,
        )
        .await
        .expect("create");
    let start = version(&store, "t").await;
    let message = |version: i64| {
        BusMessage::Table {
            id: app::ids::TableId::new("t"),
            version,
            change: None,
        }
        .encode()
    };
    // Decided at an old version: refused, and nothing is sent.
    let stale = store
        .record_notifying(&place("t", 1, 19, 5), start - 1, Some(message(-7)))
        .await;
    assert!(matches!(stale, Err(StoreError::Stale)), "{stale:?}");
    store
        .record_notifying(&place("t", 1, 19, 5), start, Some(message(start + 1)))
        .await
        .expect("written");
    let first = tokio::time::timeout(std::time::Duration::from_secs(10), heard.recv())
        .await
        .expect("a message within 10 s")
        .expect("heard");
    assert_eq!(
        first,
        BusMessage::Table {
            id: app::ids::TableId::new("t"),
            version: start + 1,
            change: None
        },
        "the written record's message is the first heard: the refused one sent none"
    );
}

#[tokio::test]
async fn while_the_database_is_down_a_write_fails_cleanly_and_the_writer_works_again_after() {
    let cluster = PgCluster::start();
    let store = open(&cluster).await;
    Store::Postgres(store.clone())
        .create_table(
            &app::ids::TableId::new("t"),
            TableMode::HotSeat,
            "owner",
            (None, None),
            1,
        )
        .await
        .expect("create");
    let start = version(&store, "t").await;
    store
        .record_at(&place("t", 1, 19, 5), start)
        .await
        .expect("written");
    cluster.stop();
    // Every connection is gone: the write is refused (an error, not a hang)
    // and nothing is acknowledged.
    let down = tokio::time::timeout(
        std::time::Duration::from_secs(60),
        store.record_at(&place("t", 2, 18, 6), start + 1),
    )
    .await
    .expect("an answer while the database is down");
    assert!(down.is_err(), "{down:?}");
    cluster.restart();
    // The same writer task writes again once the database is back; the
    // refused move was not written.
    let mut written = Err(StoreError::WriterGone);
    for _ in 0..50 {
        written = store.record_at(&place("t", 2, 18, 7), start + 1).await;
        if written.is_ok() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    written.expect("written after the restart");
    let moves = store.moves("t").await.expect("rows");
    assert_eq!(moves.len(), 2, "{moves:?}");
    assert_eq!(version(&store, "t").await, start + 2);
}

/// The quick match's rating window is one definition: its SQL form, as the
/// shared queue runs it on PostgreSQL, gives what the in-memory queue
/// computes, for every wait around each step.
#[tokio::test]
async fn the_rating_windows_sql_agrees_with_the_queues() {
    let cluster = PgCluster::start();
    let pool = sqlx::PgPool::connect(&cluster.url())
        .await
        .expect("connect");
    let window = server::hub::RATING_WINDOW;
    let query = format!("SELECT {}", window.sql("$1::bigint"));
    for waited in [0i64, 1, 4_999, 5_000, 5_001, 12_345, 29_999, 30_000, 90_000] {
        let (in_sql,): (f64,) = sqlx::query_as(&query)
            .bind(waited)
            .fetch_one(&pool)
            .await
            .expect("window");
        assert_eq!(in_sql, window.at(waited), "after {waited} ms");
    }
}

/// Players as an older database stored them (one text) and the identity
/// each reads as in the typed columns: a malformed or out-of-range text is
/// a browser's, as `Identity::parse` reads it.
fn old_players() -> Vec<(&'static str, server::identity::Identity)> {
    use server::identity::Identity;
    vec![
        (
            "account:12",
            Identity::Account(app::protocol::AccountId::new(12)),
        ),
        ("ai:6", Identity::Ai(6)),
        ("3f9a0c", Identity::Browser("3f9a0c".into())),
        ("account:x", Identity::Browser("account:x".into())),
        ("ai:300", Identity::Browser("ai:300".into())),
    ]
}

/// A shared database written before the typed mode columns (mode as JSON)
/// keeps every table's and archived game's mode.
#[tokio::test]
async fn the_json_modes_of_an_older_shared_database_become_columns() {
    let cluster = PgCluster::start();
    let pool = sqlx::PgPool::connect(&cluster.url())
        .await
        .expect("connect");
    let players = old_players();
    let mut migrator = server::store::rows::postgres_migrator();
    migrator.migrations = std::borrow::Cow::Owned(
        migrator
            .iter()
            .filter(|m| m.version < 13)
            .cloned()
            .collect(),
    );
    migrator.run(&pool).await.expect("migrations up to 0012");
    let old = [
        (
            "ai",
            r#"{"kind":"vs_ai","depth":4,"human":"black"}"#,
            AI_TABLE,
        ),
        (
            "rated",
            r#"{"kind":"online","private":false,"time":{"base_s":180,"increment_s":2},"rated":true}"#,
            TableMode::Online {
                private: false,
                time: app::protocol::TimeControl::parse("3+2"),
                rated: true,
                tournament: false,
            },
        ),
    ];
    for (i, (id, json, _)) in old.iter().enumerate() {
        sqlx::query(
            "INSERT INTO tables (id, mode, owner, created_at, last_activity) VALUES ($1, $2, 'o', $3, 0)",
        )
        .bind(id)
        .bind(json)
        .bind(i as i64)
        .execute(&pool)
        .await
        .expect("old table");
        sqlx::query(
            "INSERT INTO archived_games (id, table_id, round, mode, black, white, start_obf, moves, \
             times, winner, reason, black_discs, white_discs, ended_at) \
             VALUES ($1, $2, 1, $3, $4, $5, '', '', '[]', NULL, 'finished', 32, 32, 1)",
        )
        .bind(format!("g{id}"))
        .bind(id)
        .bind(json)
        .bind(players[i % players.len()].0)
        .bind(players[(i + 1) % players.len()].0)
        .execute(&pool)
        .await
        .expect("old game");
    }
    pool.close().await;
    let store = Store::Postgres(open(&cluster).await);
    let tables = store.tables().await.expect("tables");
    assert_eq!(tables.len(), old.len());
    for ((id, _, mode), table) in old.iter().zip(&tables) {
        assert_eq!(table.id.as_str(), *id);
        assert_eq!(table.mode.mode(), Some(*mode), "table {id}");
        let game = store
            .archived_game(&format!("g{id}"))
            .await
            .expect("read")
            .expect("kept");
        assert_eq!(game.mode.mode(), Some(*mode), "game of {id}");
    }
    for (i, (id, _, _)) in old.iter().enumerate() {
        let game = store
            .archived_game(&format!("g{id}"))
            .await
            .expect("read")
            .expect("kept");
        let player = |k: usize| players[k % players.len()].1.clone();
        assert_eq!(
            (game.black(), game.white()),
            (player(i), player(i + 1)),
            "players of {id}"
        );
    }
}

/// The paid explanations' budget on a shared database: two instances
/// racing for the last of the day's explanations and for the concurrency
/// slots get exactly what the budget holds, no more (the count and the
/// check are one transaction; the slots count under an advisory lock).
#[tokio::test]
async fn two_instances_racing_for_the_explanation_budget_spend_it_exactly() {
    use server::lab::budget::{BudgetConfig, SharedBudget};
    let cluster = PgCluster::start();
    let config = BudgetConfig {
        daily: 7,
        concurrency: 3,
        lease_ms: 60_000,
    };
    let a = SharedBudget::new(Store::Postgres(open(&cluster).await), config);
    let b = SharedBudget::new(Store::Postgres(open(&cluster).await), config);
    let now = 1_000_000;
    let takes = (0..20).map(|i| {
        let budget = if i % 2 == 0 { a.clone() } else { b.clone() };
        tokio::spawn(async move { budget.take(now, None, 0).await.expect("store") })
    });
    let mut paid = 0;
    for take in takes {
        if take.await.expect("task").is_ok() {
            paid += 1;
        }
    }
    assert_eq!(paid, 7, "the day's budget, once across both instances");
    assert_eq!(a.spent(now / 86_400_000, "*").await.expect("spent"), 7);
    let slots = (0..12).map(|i| {
        let budget = if i % 2 == 0 { a.clone() } else { b.clone() };
        tokio::spawn(async move { budget.try_slot(&format!("s{i}"), now).await.expect("store") })
    });
    let mut held = 0;
    for slot in slots {
        if slot.await.expect("task") {
            held += 1;
        }
    }
    assert_eq!(held, 3, "the concurrency cap across both instances");
    // Once the leases run out the slots are free again.
    assert!(a.try_slot("later", now + 60_001).await.expect("store"));
}
