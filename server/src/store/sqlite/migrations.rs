//! Keeping old databases opening: sqlx refuses an applied migration whose
//! text changed, so a migration reworded after release (comments only) has
//! its released checksum accepted and brought up to date.

use sqlx::SqlitePool;

/// Migrations whose text was reworded after release (comments only, the
/// schema is the same): (version, SHA-384 of the released text).
pub(super) const REWORDED_MIGRATIONS: &[(i64, &str)] = &[(
    3,
    "0911061be0414986ca95697477ef18a4eae8fd2e6c0d7e0de6a7ea99472e4d78a832dfed6861a4ce10693a6e29b288e2",
)];

/// sqlx refuses to start when an applied migration's text changed. For the
/// migrations in [`REWORDED_MIGRATIONS`], a database that applied the released
/// text takes the new text's checksum instead, so it keeps opening.
pub(super) async fn accept_reworded_migrations(pool: &SqlitePool) -> Result<(), sqlx::Error> {
    let migrated: Option<(String,)> = sqlx::query_as(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
    )
    .fetch_optional(pool)
    .await?;
    if migrated.is_none() {
        return Ok(());
    }
    let migrator = crate::store::rows::sqlite_migrator();
    for (version, released) in REWORDED_MIGRATIONS {
        let Some(current) = migrator.iter().find(|m| m.version == *version) else {
            continue;
        };
        let released = hex_bytes(released);
        sqlx::query("UPDATE _sqlx_migrations SET checksum = ? WHERE version = ? AND checksum = ?")
            .bind(current.checksum.as_ref())
            .bind(version)
            .bind(released)
            .execute(pool)
            .await?;
    }
    Ok(())
}

/// The bytes a hexadecimal string spells (pairs of digits).
pub(super) fn hex_bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .filter_map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SqliteStore;
    use sqlx::sqlite::SqliteSynchronous;

    #[tokio::test]
    async fn a_database_migrated_with_the_released_wording_of_0003_still_opens() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("old.db");
        let store = SqliteStore::open(&path, SqliteSynchronous::Full)
            .await
            .expect("open");
        let released = hex_bytes(REWORDED_MIGRATIONS[0].1);
        assert_eq!(released.len(), 48, "a SHA-384");
        sqlx::query("UPDATE _sqlx_migrations SET checksum = ? WHERE version = 3")
            .bind(&released)
            .execute(store.pool())
            .await
            .expect("set the released checksum");
        store.pool().close().await;
        drop(store);
        let reopened = SqliteStore::open(&path, SqliteSynchronous::Full)
            .await
            .expect("reopens");
        let (checksum,): (Vec<u8>,) =
            sqlx::query_as("SELECT checksum FROM _sqlx_migrations WHERE version = 3")
                .fetch_one(reopened.pool())
                .await
                .expect("checksum");
        assert_ne!(checksum, released, "the checksum was brought up to date");
    }
}
