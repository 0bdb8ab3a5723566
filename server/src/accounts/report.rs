//! Reports of players, filed from a profile or an online table and read by
//! the operators (`othello-server admin reports`).

use super::{account_of, store_failed, Accounts};
use app::api::backend::Caller;
use app::api::CommandError;

/// Reports one address (or one reporter) may file per day.
pub const REPORTS_PER_DAY: i64 = 5;
/// The longest report text, in characters.
const REPORT_TEXT_MAX: usize = 500;

impl Accounts {
    /// Files a report of a player. Capped per address and per reporter
    /// ([`REPORTS_PER_DAY`]); nobody reports themselves. The text may hold
    /// no control character but the new line (nor one that reorders or
    /// hides text), and a table named must be a well-formed id of a table
    /// that exists: what the operators read (`admin reports`) is what the
    /// reporter saw typed.
    pub async fn report(
        &self,
        caller: &Caller,
        report: &app::accounts::Report,
    ) -> Result<(), CommandError> {
        if report.text.chars().count() > REPORT_TEXT_MAX {
            return Err(CommandError::refused(app::msg!("srv-report-long")));
        }
        if report.text.chars().any(|c| c != '\n' && unprintable(c)) {
            return Err(CommandError::refused(app::msg!("srv-report-control")));
        }
        if report.table.as_ref().is_some_and(|t| !t.is_well_formed()) {
            return Err(CommandError::refused(app::msg!("srv-not-table-id")));
        }
        let account = self
            .inner
            .store
            .account_by_key(&report.name.to_ascii_lowercase())
            .await
            .map_err(store_failed)?
            .ok_or_else(|| CommandError::not_found(app::msg!("srv-no-player")))?;
        if account_of(&caller.session) == Some(account.id) {
            return Err(CommandError::refused(app::msg!("srv-report-self")));
        }
        if let Some(table) = &report.table {
            let known = self
                .inner
                .store
                .table_known(table.as_str())
                .await
                .map_err(store_failed)?;
            if !known {
                return Err(CommandError::not_found(app::msg!("srv-no-table")));
            }
        }
        let _one_at_a_time = self.inner.reporting.lock().await;
        let now = self.now();
        let address = caller.address.map(|a| a.to_string());
        let recent = self
            .inner
            .store
            .reports_since(
                caller.session.as_str(),
                address.as_deref(),
                now - 86_400_000,
            )
            .await
            .map_err(store_failed)?;
        if recent >= REPORTS_PER_DAY {
            return Err(CommandError::limited(app::msg!("srv-report-limit")));
        }
        let id = self
            .inner
            .store
            .add_report(
                account.id,
                caller.session.as_str(),
                address.as_deref(),
                report.table.as_ref().map(|t| t.as_str()),
                report.reason.key(),
                report.text.trim(),
                now,
            )
            .await
            .map_err(store_failed)?;
        tracing::info!(
            report = id,
            account = %account.id,
            reason = report.reason.key(),
            "player reported"
        );
        Ok(())
    }
}

/// A character a report may not hold: a control character (an escape
/// sequence, a carriage return, a bell, …) or one that reorders or hides
/// text (bidirectional controls, zero-width characters).
fn unprintable(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{2069}'
            | '\u{feff}' | '\u{061c}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_and_invisible_characters_are_unprintable_and_letters_are_not() {
        for c in [
            '\u{1b}', '\r', '\u{7}', '\u{9b}', '\u{202e}', '\u{200b}', '\t',
        ] {
            assert!(unprintable(c), "{c:?}");
        }
        for c in ['a', 'Ω', 'λ', ' ', '!', '😀'] {
            assert!(!unprintable(c), "{c:?}");
        }
    }
}
