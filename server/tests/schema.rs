//! The two schema histories — SQLite's `migrations/` and PostgreSQL's
//! `migrations/postgres/` — describe the same tables: after every migration
//! of each has run, both databases hold the same tables with the same
//! columns, and the same columns may be NULL. Only the coordination of
//! several instances (presence, timers, the shared queue, the bus) is
//! PostgreSQL's alone; those tables are named here with the reason. And a
//! PostgreSQL store cannot run without that coordination.
//!
//! Needs PostgreSQL installed (`initdb`, `pg_ctl`); without it it fails
//! saying so.

#[path = "support/pg.rs"]
mod pg;

use std::collections::{BTreeMap, BTreeSet};

/// Table → column → whether it may be NULL.
type Schema = BTreeMap<String, BTreeMap<String, bool>>;

/// Tables only PostgreSQL has: what several instances share to act as one
/// (one instance alone keeps these in memory).
const CLUSTER_ONLY: &[&str] = &[
    // The instances alive, with their heartbeats.
    "instances",
    // Which instance holds which table's sockets.
    "presence",
    // Grace periods and clocks, due on whichever instance claims them.
    "jobs",
    // The quick-match queue shared by all instances.
    "queue",
];

/// Tables only SQLite has: the first schema's creation stamp (`meta`,
/// written once and read by nothing).
const SQLITE_ONLY: &[&str] = &["meta"];

async fn sqlite_schema(path: &std::path::Path) -> Schema {
    let url = format!("sqlite://{}", path.display());
    let pool = sqlx::SqlitePool::connect(&url).await.expect("sqlite");
    let tables: Vec<(String,)> = sqlx::query_as(
        "SELECT name FROM sqlite_master WHERE type = 'table' \
         AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_sqlx_%'",
    )
    .fetch_all(&pool)
    .await
    .expect("tables");
    let mut schema = Schema::new();
    for (table,) in tables {
        let columns: Vec<(String, i64, i64)> =
            sqlx::query_as("SELECT name, \"notnull\", pk FROM pragma_table_info(?)")
                .bind(&table)
                .fetch_all(&pool)
                .await
                .expect("columns");
        schema.insert(
            table,
            columns
                .into_iter()
                // A primary key is never NULL (SQLite's pragma does not say so
                // for a non-INTEGER key).
                .map(|(name, not_null, pk)| (name, not_null == 0 && pk == 0))
                .collect(),
        );
    }
    pool.close().await;
    schema
}

async fn postgres_schema(url: &str) -> Schema {
    let pool = sqlx::PgPool::connect(url).await.expect("postgres");
    let columns: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text, is_nullable::text \
         FROM information_schema.columns \
         WHERE table_schema = 'public' AND table_name NOT LIKE '_sqlx_%'",
    )
    .fetch_all(&pool)
    .await
    .expect("columns");
    let mut schema = Schema::new();
    for (table, column, nullable) in columns {
        schema
            .entry(table)
            .or_default()
            .insert(column, nullable == "YES");
    }
    pool.close().await;
    schema
}

#[tokio::test]
async fn both_schema_histories_describe_the_same_tables() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("othello.db");
    drop(
        server::store::Store::open(&path)
            .await
            .expect("sqlite store"),
    );
    let mut sqlite = sqlite_schema(&path).await;
    for table in SQLITE_ONLY {
        assert!(sqlite.remove(*table).is_some(), "SQLite has no {table}");
    }

    let cluster = pg::PgCluster::start();
    drop(
        server::store::Store::open_postgres(&cluster.url())
            .await
            .expect("postgres store"),
    );
    let mut postgres = postgres_schema(&cluster.url()).await;

    for table in CLUSTER_ONLY {
        assert!(
            postgres.remove(*table).is_some(),
            "{table} is listed as PostgreSQL's own but PostgreSQL has no such table"
        );
    }
    let names = |schema: &Schema| schema.keys().cloned().collect::<BTreeSet<_>>();
    assert_eq!(
        names(&sqlite),
        names(&postgres),
        "the same tables (left SQLite, right PostgreSQL)"
    );
    let mut differences = Vec::new();
    for (table, columns) in &sqlite {
        let theirs = &postgres[table];
        if columns.keys().ne(theirs.keys()) {
            differences.push(format!(
                "{table}: SQLite has {:?}, PostgreSQL {:?}",
                columns.keys().collect::<Vec<_>>(),
                theirs.keys().collect::<Vec<_>>()
            ));
            continue;
        }
        for (column, nullable) in columns {
            if theirs[column] != *nullable {
                differences.push(format!(
                    "{table}.{column}: NULL allowed on SQLite {nullable}, on PostgreSQL {}",
                    theirs[column]
                ));
            }
        }
    }
    assert!(differences.is_empty(), "{differences:#?}");
    assert!(
        sqlite.len() > 10,
        "the schema was read: {:?}",
        sqlite.keys()
    );
}

/// A database several instances share cannot run with one instance's
/// coordination: neither the hub nor the lab starts on PostgreSQL without
/// the instances' bus (they would write shared tables without checking
/// versions, and take over other instances' explanations as their own).
#[tokio::test]
async fn a_shared_database_without_its_coordination_is_refused() {
    use server::hub::{Hub, HubConfig, RestoreError, Shared};
    use server::lab::{explain::offline::Offline, LabConfig, LabHub, LabShared};
    use server::store::StoreError;
    use std::sync::Arc;

    let cluster = pg::PgCluster::start();
    let store = server::store::Store::open_postgres(&cluster.url())
        .await
        .expect("postgres store");
    let clock: Arc<dyn server::clock::Clock> = Arc::new(server::clock::SystemClock);
    let lab_config = |shared: Option<LabShared>| LabConfig {
        explain_timeout: std::time::Duration::from_secs(30),
        exact: server::lab::exact::ExactLimits {
            empties: 10,
            max_nodes: 1_000_000,
        },
        discs_depth: 2,
        expiry_ms: 24 * 3600 * 1000,
        ai: None,
        explain_concurrency: 1,
        explain_daily_budget: 10,
        shared,
    };
    let alone = Hub::start(store.clone(), clock.clone(), HubConfig::default(), None).await;
    assert!(
        matches!(alone, Err(RestoreError::NotShared)),
        "a hub on PostgreSQL without hub::Shared is refused"
    );
    let alone = LabHub::start(
        store.clone(),
        clock.clone(),
        Arc::new(Offline),
        lab_config(None),
    )
    .await;
    assert!(
        matches!(alone, Err(StoreError::NotShared)),
        "a lab on PostgreSQL without its bus is refused"
    );

    // Handed the instances' coordination, both start.
    let shared = Shared::join(store.postgres().expect("postgres").clone())
        .await
        .expect("join");
    let bus = shared.bus.clone();
    let hub = Hub::start(
        store.clone(),
        clock.clone(),
        HubConfig::default(),
        Some(shared),
    )
    .await;
    assert!(hub.is_ok(), "the hub starts with its coordination");
    let lab = LabHub::start(
        store,
        clock,
        Arc::new(Offline),
        lab_config(Some(LabShared { bus })),
    )
    .await;
    assert!(lab.is_ok(), "the lab starts with its bus");
}
