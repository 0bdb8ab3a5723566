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
//!   from then on its rated results change nobody's rating or tournament
//!   score, it leaves the leaderboard, and it leaves every rated tournament
//!   not over (removed from open ones, withdrawn from running ones; it may
//!   not join another).
//! - `admin log` prints every action taken.
//! - `admin house-bots --dir D` sets up the site's own bots
//!   (`bots::house`): each one's account, bot flag and a token in
//!   `D/<name>.token`; one line per bot (name, depth, file, what was done)
//!   for `deploy/house-bots.sh`, which starts their bridges.
//! - `admin name-collisions` lists the live accounts whose names look alike
//!   once folded (`accounts::fold`): ones created before the folded name
//!   was unique (migration 0028). New names cannot collide with them.
//!
//! Whatever a player typed (a report's text and table) is printed escaped
//! ([`escaped`]): no control character reaches the operator's terminal.
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
                write(out, report_line(&report, &name))?;
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
                // Out of the rated tournaments it is in: it may not score
                // in them (the rating gate), so it takes no one's place.
                let left = store
                    .leave_rated_tournaments(account.id)
                    .await
                    .map_err(failed)?;
                ("mark-abuser", format!("{} marked as a rating abuser: its rated results no longer count for opponents, it leaves the leaderboard, and it left {left} rated tournament(s)", account.name))
            };
            store
                .log_admin(action, Some(account.id), &detail, now)
                .await
                .map_err(failed)?;
            write(out, detail)?;
        }
        Action::NameCollisions => {
            let groups = name_collisions(store.account_names().await.map_err(failed)?);
            if groups.is_empty() {
                write(out, "no names look alike".into())?;
            }
            for (folded, names) in groups {
                write(
                    out,
                    format!("{}: {}", escaped(&folded), escaped(&names.join(", "))),
                )?;
            }
        }
        Action::HouseBots { dir } => {
            for (name, depth) in crate::bots::house::HOUSE_BOTS {
                let file = dir.join(format!("{name}.token"));
                let done = crate::bots::house::provision(store, name, &file, now).await?;
                write(out, format!("{name} {depth} {} {done:?}", file.display()))?;
            }
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

/// `text` safe to print on a terminal: control characters (escape
/// sequences, carriage returns, new lines, …), the invisible ones that
/// reorder or hide text, and the backslash itself shown escaped (`\u{1b}`,
/// `\n`, `\\`); every other character (Greek included) as it is.
pub fn escaped(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => shown.push_str("\\\\"),
            '\n' => shown.push_str("\\n"),
            '\r' => shown.push_str("\\r"),
            '\t' => shown.push_str("\\t"),
            c if c.is_control() || invisible(c) => shown.extend(c.escape_unicode()),
            c => shown.push(c),
        }
    }
    shown
}

/// Characters that print nothing yet change what is shown: bidirectional
/// controls, zero-width characters, line and paragraph separators.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{2069}'
        | '\u{feff}' | '\u{061c}')
}

/// One line of `admin reports`, every field a player chose printed
/// [`escaped`].
pub fn report_line(report: &crate::store::fair_play::ReportRow, name: &str) -> String {
    format!(
        "#{} {} {} {}{}{}: {}",
        report.id,
        report.created_at,
        escaped(name),
        escaped(&report.reason),
        report
            .table_id
            .as_deref()
            .map(|t| format!(" at table {}", escaped(t)))
            .unwrap_or_default(),
        if report.closed_at.is_some() {
            " (closed)"
        } else {
            ""
        },
        escaped(&report.body)
    )
}

/// Live names that fold ([`crate::accounts::fold`]) to one form, by that
/// form: each group (two names or more) in the order the accounts were made.
pub fn name_collisions(
    accounts: Vec<(app::protocol::AccountId, String)>,
) -> Vec<(String, Vec<String>)> {
    let mut groups: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for (_, name) in accounts {
        groups
            .entry(crate::accounts::fold(&name))
            .or_default()
            .push(name);
    }
    groups
        .into_iter()
        .filter(|(_, names)| names.len() > 1)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::protocol::AccountId;

    #[test]
    fn a_report_line_shows_every_control_character_escaped() {
        let report = crate::store::fair_play::ReportRow {
            id: 7,
            account_id: AccountId::new(1),
            reporter: "r".into(),
            table_id: Some("t\u{1b}[2K".into()),
            reason: "abuse".into(),
            body: "fine\r\u{1b}[1A\u{1b}[2K#1 0 admin other: forged\n\u{7}\u{202e}Ελληνικά \\u{1b}"
                .into(),
            created_at: 5,
            closed_at: None,
        };
        let line = report_line(&report, "troll");
        assert!(
            line.chars().all(|c| !c.is_control() && !invisible(c)),
            "{line:?}"
        );
        assert_eq!(
            line,
            "#7 5 troll abuse at table t\\u{1b}[2K: \
             fine\\r\\u{1b}[1A\\u{1b}[2K#1 0 admin other: forged\\n\\u{7}\\u{202e}Ελληνικά \\\\u{1b}"
        );
        assert_eq!(escaped("insults at every table"), "insults at every table");
    }

    #[test]
    fn names_that_fold_alike_are_grouped_oldest_first() {
        let accounts = ["alice", "bob", "aIice", "b0b", "carol", "A1ice"]
            .into_iter()
            .enumerate()
            .map(|(i, n)| (AccountId::new(i as i64 + 1), n.to_string()))
            .collect();
        assert_eq!(
            name_collisions(accounts),
            vec![
                (
                    "allce".to_string(),
                    vec!["alice".into(), "aIice".into(), "A1ice".into()]
                ),
                ("bob".to_string(), vec!["bob".into(), "b0b".into()]),
            ]
        );
    }
}
