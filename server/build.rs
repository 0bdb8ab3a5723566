//! Embeds the schema's migrations (`migrations/` for SQLite,
//! `migrations/postgres/` for PostgreSQL) in the server: writes
//! `$OUT_DIR/migrations.rs` with each file's name and text, which
//! `src/store/rows.rs` resolves as `sqlx::migrate!` did. A new migration is
//! a new file in the folder, as before; the build fails on a `.sql` file
//! whose name is not `<version>_<description>.sql` (sqlx's format) or that
//! is a reversible `.up.sql`/`.down.sql` half (none is used).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

fn main() {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let folder = root.join("../migrations");
    let mut out = String::new();
    for (name, dir) in [
        ("SQLITE", folder.clone()),
        ("POSTGRES", folder.join("postgres")),
    ] {
        println!("cargo:rerun-if-changed={}", dir.display());
        let files = migration_files(&dir);
        writeln!(out, "pub(super) const {name}: super::Embedded = &[").unwrap();
        for (file, path) in files {
            println!("cargo:rerun-if-changed={}", path.display());
            writeln!(
                out,
                "    ({file:?}, include_str!({:?})),",
                path.display().to_string()
            )
            .unwrap();
        }
        writeln!(out, "];").unwrap();
    }
    let target = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR")).join("migrations.rs");
    fs::write(&target, out).expect("write migrations.rs");
}

/// The folder's `.sql` files, by name, each checked against sqlx's format.
fn migration_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("read {}: {e}", dir.display()));
    let mut files: Vec<(String, PathBuf)> = entries
        .map(|entry| entry.expect("a folder entry").path())
        .filter(|path| path.is_file() && path.extension().is_some_and(|e| e == "sql"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let well_formed = name.split_once('_').is_some_and(|(version, rest)| {
                version.parse::<i64>().is_ok()
                    && !rest.ends_with(".up.sql")
                    && !rest.ends_with(".down.sql")
            });
            assert!(
                well_formed,
                "{}: a migration is named <version>_<description>.sql",
                path.display()
            );
            (name, fs::canonicalize(&path).expect("canonical path"))
        })
        .collect();
    files.sort();
    files
}
