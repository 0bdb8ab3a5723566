//! `--explainer auto` (the default): pick the best provider this server can
//! use, and say why. The Codex CLI when it is installed and `codex login
//! status` says logged in; else the Responses API when `OPENAI_API_KEY` is
//! set; else the built-in offline writer. The reason is shown on the lab page
//! and in `/healthz`.

use super::codex::{login_status, Login};
use super::{BoxFuture, ExplainError, Explainer, Explanation};
use crate::lab::facts::FactSheet;
use app::lab::ProviderStatus;
use std::sync::Arc;

/// Which provider `auto` picked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Codex,
    Responses,
    Offline,
}

/// The decision and the reason for it, in words (never a credential).
pub fn choose(login: &Login, key_set: bool) -> (Choice, String) {
    let codex = match login {
        Login::LoggedIn => {
            return (
                Choice::Codex,
                "Chosen automatically: Codex CLI is installed and logged in.".into(),
            )
        }
        Login::NotLoggedIn => "Codex CLI: not logged in",
        Login::Missing(_) => "Codex CLI: not installed",
    };
    if key_set {
        (
            Choice::Responses,
            format!("Chosen automatically: {codex}; OPENAI_API_KEY is set, so the Responses API is used."),
        )
    } else {
        (
            Choice::Offline,
            format!("Chosen automatically: {codex}; OPENAI_API_KEY: not set, so the built-in offline explainer is used."),
        )
    }
}

/// A provider chosen by `auto`: explains through `inner` and prefixes its
/// status line with the reason it was chosen.
pub struct Chosen {
    inner: Arc<dyn Explainer>,
    reason: String,
}

impl Chosen {
    pub fn new(inner: Arc<dyn Explainer>, reason: String) -> Self {
        Chosen { inner, reason }
    }

    /// Asks the Codex CLI for its login state (bounded by [`login_status`]).
    pub async fn login(bin: &str) -> Login {
        login_status(bin).await
    }
}

impl Explainer for Chosen {
    fn explain<'a>(
        &'a self,
        facts: &'a FactSheet,
    ) -> BoxFuture<'a, Result<Explanation, ExplainError>> {
        self.inner.explain(facts)
    }

    fn status(&self) -> ProviderStatus {
        let mut status = self.inner.status();
        status.detail = format!("{} {}", self.reason, status.detail);
        status
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codex_first_then_the_key_then_offline() {
        assert_eq!(choose(&Login::LoggedIn, true).0, Choice::Codex);
        assert_eq!(choose(&Login::LoggedIn, false).0, Choice::Codex);
        let (choice, why) = choose(&Login::NotLoggedIn, true);
        assert_eq!(choice, Choice::Responses);
        assert!(why.contains("Codex CLI: not logged in"), "{why}");
        let (choice, why) = choose(&Login::Missing("No such file".into()), false);
        assert_eq!(choice, Choice::Offline);
        assert!(why.contains("Codex CLI: not installed"), "{why}");
        assert!(why.contains("OPENAI_API_KEY: not set"), "{why}");
    }
}
