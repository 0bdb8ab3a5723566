//! `othello-server admin …`: an operator's commands, run against the same
//! database as the site (SQLite file or PostgreSQL) while it serves.
//!
//! - `admin reports [--all]` lists reports (open ones by default).
//! - `admin close <name> --reason <text>` closes an account: its sign-ins,
//!   ratings and links go, its name stays reserved (a tombstone), its games
//!   stay for their opponents under "deleted player", its open reports are
//!   closed. A rated round it is playing ends unrated (the rating write
//!   finds the account gone); nothing else is freed or deleted.
//! - `admin mark-abuser <name> [--undo]` marks (or clears) a rating abuser:
//!   from then on its rated results change nobody's rating, and it leaves
//!   the leaderboard.
//! - `admin log` prints every action taken.
//!
//! Every action is written to `admin_log` with the time and a detail line.

use crate::config::Config;
use crate::store::Store;

pub use crate::config::{Action, Command};

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// Runs one operator's action against the configured database; prints
/// what it did.
pub async fn run(config: &Config, action: &Action) -> Result<(), String> {
    let store = match &config.database {
        crate::config::Database::Postgres(url) => Store::open_postgres(url).await,
        crate::config::Database::Sqlite(path) => Store::open(path).await,
    }
    .map_err(|e| e.to_string())?;
    let mut out = std::io::stdout().lock();
    execute(&store, action, now_ms(), &mut out).await
}

/// The action itself, writing its report to `out` (tests read it).
pub async fn execute(
    store: &Store,
    action: &Action,
    now: i64,
    out: &mut dyn std::io::Write,
) -> Result<(), String> {
    let failed = |e: crate::store::StoreError| e.to_string();
    let write = |out: &mut dyn std::io::Write, line: String| {
        writeln!(out, "{line}").map_err(|e| e.to_string())
    };
    match action {
        Action::Reports { all } => {
            let reports = store.reports(*all).await.map_err(failed)?;
            if reports.is_empty() {
                write(out, "no reports".into())?;
            }
            for report in reports {
                let name = store
                    .account_name(report.account_id)
                    .await
                    .map_err(failed)?
                    .unwrap_or_else(|| format!("(closed account {})", report.account_id));
                write(
                    out,
                    format!(
                        "#{} {} {} {}{}{}: {}",
                        report.id,
                        report.created_at,
                        name,
                        report.reason,
                        report
                            .table_id
                            .map(|t| format!(" at table {t}"))
                            .unwrap_or_default(),
                        if report.closed_at.is_some() {
                            " (closed)"
                        } else {
                            ""
                        },
                        report.body.replace('\n', " ")
                    ),
                )?;
            }
        }
        Action::Close { name, reason } => {
            let account = store
                .account_by_key(&name.to_ascii_lowercase())
                .await
                .map_err(failed)?
                .ok_or_else(|| format!("no account named {name}"))?;
            let closed = store
                .delete_account(
                    account.id,
                    &crate::accounts::tombstone_hash(&account.name),
                    "closed",
                    now,
                )
                .await
                .map_err(failed)?;
            if !closed {
                return Err(format!("{name} was already gone"));
            }
            let reports = store.close_reports(account.id, now).await.map_err(failed)?;
            let detail = format!(
                "closed {} (reason: {reason}); {reports} report(s) closed",
                account.name
            );
            store
                .log_admin("close", Some(account.id), &detail, now)
                .await
                .map_err(failed)?;
            tracing::warn!(account = %account.id, "{detail}");
            write(out, detail)?;
        }
        Action::MarkAbuser { name, undo } => {
            let account = store
                .account_by_key(&name.to_ascii_lowercase())
                .await
                .map_err(failed)?
                .ok_or_else(|| format!("no account named {name}"))?;
            let at = (!undo).then_some(now);
            store.mark_abuser(account.id, at).await.map_err(failed)?;
            let (action, detail) = if *undo {
                (
                    "unmark-abuser",
                    format!("{} is no longer marked as a rating abuser", account.name),
                )
            } else {
                ("mark-abuser", format!("{} marked as a rating abuser: its rated results no longer count for opponents, and it leaves the leaderboard", account.name))
            };
            store
                .log_admin(action, Some(account.id), &detail, now)
                .await
                .map_err(failed)?;
            write(out, detail)?;
        }
        Action::Log => {
            for (at, action, account, detail) in store.admin_log().await.map_err(failed)? {
                let account = account.map(|a| format!(" account {a}")).unwrap_or_default();
                write(out, format!("{at} {action}{account}: {detail}"))?;
            }
        }
    }
    Ok(())
}
