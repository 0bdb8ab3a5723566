//! Rows read into structs, and the schema's migrations, without sqlx's
//! proc-macro crate.
//!
//! `#[derive(sqlx::FromRow)]` and `sqlx::migrate!` live in `sqlx-macros`,
//! which compiles sqlx's core and both drivers a second time, for the
//! compiler (with tokio, url, serde_json, …): 10–37 s of CPU in every
//! clean build on this project's 2-core machine, for some twenty derives
//! and two folders (docs/BENCHMARKS.md, "Erased view types and sqlx without
//! its macros"). [`row_struct!`]
//! writes the same `FromRow` for both databases' rows, and the migrations
//! are embedded by the build script (`server/build.rs`) and resolved here
//! the way `migrate!` resolved them, so their checksums, and so the
//! databases migrated before, are unchanged.

use std::borrow::Cow;

use sqlx::migrate::{Migration, MigrationType, Migrator};

/// A struct of columns and its `sqlx::FromRow` for SQLite's and
/// PostgreSQL's rows: each field is read from the column of its name.
/// `field: Type as i64` (or `as String`) reads an `i64` (a `String`) and
/// converts it with `TryFrom`, a failure being the column's decoding error;
/// `field: Id as stored` reads the text of one of the store's own ids back
/// (`Id::new`: ids convert from no `String` but the store's, see
/// `app::ids`); `field: Type as flatten` reads a nested struct of columns
/// from the same row (what the derive's `#[sqlx(try_from = "i64")]` and
/// `#[sqlx(flatten)]` did).
macro_rules! row_struct {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[$field_meta:meta])*
                $field_vis:vis $field:ident : $ty:ty $(as $how:ident)?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $(
                $(#[$field_meta])*
                $field_vis $field: $ty,
            )*
        }
        $crate::store::rows::row_struct!(@impl $name, sqlx::sqlite::SqliteRow, $($field ($ty) $($how)?),*);
        $crate::store::rows::row_struct!(@impl $name, sqlx::postgres::PgRow, $($field ($ty) $($how)?),*);
    };
    (@impl $name:ident, $row:ty, $($field:ident ($ty:ty) $($how:ident)?),*) => {
        impl<'r> sqlx::FromRow<'r, $row> for $name {
            fn from_row(row: &'r $row) -> Result<Self, sqlx::Error> {
                Ok(Self {
                    $($field: $crate::store::rows::row_struct!(@field row, $field ($ty) $($how)?),)*
                })
            }
        }
    };
    (@field $row:ident, $field:ident ($ty:ty)) => {
        sqlx::Row::try_get($row, stringify!($field))?
    };
    (@field $row:ident, $field:ident ($ty:ty) flatten) => {
        sqlx::FromRow::from_row($row)?
    };
    (@field $row:ident, $field:ident ($ty:ty) stored) => {
        <$ty>::new(sqlx::Row::try_get::<String, _>($row, stringify!($field))?)
    };
    (@field $row:ident, $field:ident ($ty:ty) $from:ident) => {
        <$ty as TryFrom<$from>>::try_from(sqlx::Row::try_get::<$from, _>($row, stringify!($field))?)
            .map_err(|e| sqlx::Error::ColumnDecode {
                index: stringify!($field).to_string(),
                source: e.into(),
            })?
    };
}
pub(crate) use row_struct;

/// One database's migrations as the build script found them:
/// (file name, text), in the folder's order.
type Embedded = &'static [(&'static str, &'static str)];

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/migrations.rs"));
}

/// SQLite's migrations (`migrations/`).
pub fn sqlite_migrator() -> Migrator {
    migrator(embedded::SQLITE)
}

/// PostgreSQL's migrations (`migrations/postgres/`).
pub fn postgres_migrator() -> Migrator {
    migrator(embedded::POSTGRES)
}

/// The migrations as `sqlx::migrate!` resolved a folder: a file
/// `<version>_<description>.sql` is version `<version>`, its description
/// the rest with `_` as spaces, run in a transaction unless its text starts
/// with `-- no-transaction`; sorted by version. The build script accepts
/// only such names (and no reversible `.up.sql`/`.down.sql` pairs).
fn migrator(files: Embedded) -> Migrator {
    let mut migrations: Vec<Migration> = files
        .iter()
        .map(|&(name, sql)| {
            let (version, rest) = name.split_once('_').unwrap_or((name, ""));
            Migration::new(
                version.parse().unwrap_or(i64::MAX),
                Cow::Owned(rest.trim_end_matches(".sql").replace('_', " ")),
                MigrationType::Simple,
                Cow::Borrowed(sql),
                sql.starts_with("-- no-transaction"),
            )
        })
        .collect();
    migrations.sort_by_key(|m| m.version);
    Migrator {
        migrations: Cow::Owned(migrations),
        ..Migrator::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each released migration as `sqlx::migrate!` resolved it: version,
    /// description and the start of its checksum (SHA-384 of the text; the
    /// SQLite ones read from the `_sqlx_migrations` table of a database the
    /// last build with the macro migrated). A database keeps opening only if
    /// these match; a migration added later is not listed here.
    const RELEASED_SQLITE: &[(i64, &str, &str)] = &[
        (1, "init", "fadd098748052629"),
        (2, "tables", "444b1515f9a46c02"),
        (3, "lab", "6c895d8a54b72ced"),
        (4, "online", "798d7324306e06da"),
        (5, "seating", "62151947e2519e34"),
        (7, "hashed sessions", "ba4487806b31abd5"),
        (8, "lab owners", "88a016ca13d1ef54"),
        (9, "analysis", "bf94b25452c7affa"),
        (11, "clocks", "587ee0508175557d"),
        (12, "lab lang", "8d794878c45321b5"),
        (13, "explain budget", "36f1e27322f97d6d"),
        (14, "accounts", "dc8aecedfd5dc9fc"),
        (15, "archive", "22f860ee4f86e70e"),
        (16, "ratings", "a9bf2d137614cc50"),
        (17, "versions", "fa8cff7588afa87d"),
        (18, "fair play", "d622e10e79a7c45c"),
        (19, "puzzles", "50dfdd19b2bd29d0"),
        (20, "tournaments", "f5b18c3889594ce7"),
        (21, "challenges", "f97033a6b8986b73"),
        (22, "berserk", "d3decfefa86f35ec"),
        (23, "typed modes", "17f1f178d3f861ac"),
        (24, "checked results", "d25ab092077d7ccc"),
        (25, "typed players", "f73979644555ee9b"),
    ];
    const RELEASED_POSTGRES: &[(i64, &str, &str)] = &[
        (1, "cluster", "8bc439fcbd310270"),
        (2, "lab", "867b7d57debcda56"),
        (3, "explain budget", "c2882344842e3a80"),
        (4, "accounts", "1d3dd82a828d0479"),
        (5, "archive", "07901dcffeaf6ecb"),
        (6, "ratings", "ded559bd182231b8"),
        (7, "queue rating", "0ddf6a0676fdb080"),
        (8, "fair play", "69a642b8c807c16e"),
        (9, "puzzles", "4fc51056f758d7f3"),
        (10, "tournaments", "13798bc8d2f1fb1c"),
        (11, "challenges", "fbacb643d4b3f27b"),
        (12, "berserk", "fce8fb86fef87dfb"),
        (13, "typed modes", "ef0a8fb0430b80a5"),
        (14, "checked results", "583d8351539b5519"),
        (15, "typed players", "97da559ad0bef0b1"),
        (16, "queue account", "b6f8135b2e0f3e7d"),
    ];

    fn resolved(migrator: &Migrator) -> Vec<(i64, String, String)> {
        migrator
            .iter()
            .map(|m| {
                let hex: String = m.checksum[..8].iter().map(|b| format!("{b:02x}")).collect();
                (m.version, m.description.to_string(), hex)
            })
            .collect()
    }

    #[test]
    fn migrations_resolve_as_sqlx_migrate_did() {
        for (migrator, released) in [
            (sqlite_migrator(), RELEASED_SQLITE),
            (postgres_migrator(), RELEASED_POSTGRES),
        ] {
            let resolved = resolved(&migrator);
            let expected: Vec<(i64, String, String)> = released
                .iter()
                .map(|(v, d, h)| (*v, d.to_string(), h.to_string()))
                .collect();
            assert_eq!(resolved[..expected.len()], expected[..]);
            assert!(resolved.windows(2).all(|w| w[0].0 < w[1].0), "{resolved:?}");
            assert!(migrator
                .iter()
                .all(|m| !m.no_tx && m.migration_type == MigrationType::Simple));
            assert!(migrator.locking && !migrator.ignore_missing && !migrator.no_tx);
        }
    }

    #[test]
    fn a_file_name_is_read_as_migrate_read_it() {
        let migrator = migrator(&[
            ("0010_later_one.sql", "SELECT 2;"),
            ("0002_no_tx.sql", "-- no-transaction\nVACUUM;"),
        ]);
        let read: Vec<(i64, &str, bool)> = migrator
            .iter()
            .map(|m| (m.version, m.description.as_ref(), m.no_tx))
            .collect();
        assert_eq!(read, [(2, "no tx", true), (10, "later one", false)]);
    }
}
