//! Who a seat holder, a table's owner or an archived game's player is: an
//! identity. A live table's owner and seats, a lab game's owner and a
//! puzzle solver hold the identity of whoever is at a browser (a
//! [`Session`]: compared, never taken apart in SQL); an archived game keeps
//! each side's identity in typed columns (`black_account`, `black_ai`,
//! `black_browser`, … — `store::archive`). The text form, parsed here once:
//!
//! - `account:<id>` — a signed-in player (every browser signed in to the
//!   account has this identity);
//! - `ai:<depth>` — the computer at a depth (an archived game's AI side);
//! - anything else — an anonymous browser (its session's token hash).
//!
//! A module of its own, below the hub and the accounts, so that neither
//! depends on the other to read an identity.

use app::protocol::{AccountId, Session};

/// An identity, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Identity {
    /// A signed-in player's account.
    Account(AccountId),
    /// The computer, at a search depth.
    Ai(u8),
    /// An anonymous browser (its session).
    Browser(String),
}

impl Identity {
    /// Reads a stored identity.
    pub fn parse(text: &str) -> Self {
        if let Some(id) = text
            .strip_prefix("account:")
            .and_then(|id| id.parse::<AccountId>().ok())
        {
            return Identity::Account(id);
        }
        if let Some(depth) = text.strip_prefix("ai:").and_then(|d| d.parse().ok()) {
            return Identity::Ai(depth);
        }
        Identity::Browser(text.to_string())
    }

    /// The identity of whoever is at a browser.
    pub fn of(session: &Session) -> Self {
        Self::parse(session.as_str())
    }

    /// The text form (a [`Session`]'s).
    pub fn stored(&self) -> String {
        match self {
            Identity::Account(id) => format!("account:{id}"),
            Identity::Ai(depth) => format!("ai:{depth}"),
            Identity::Browser(session) => session.clone(),
        }
    }
}

/// The identity of a browser signed in to `account`.
pub fn identity_of(account: AccountId) -> Session {
    Session::new(Identity::Account(account).stored())
}

/// The account an identity stands for, if it is an account's.
pub fn account_of(session: &Session) -> Option<AccountId> {
    account_in(session.as_str())
}

/// The account a stored identity (a seat holder, an owner, a queue entry's
/// session) stands for, if it is an account's.
pub fn account_in(identity: &str) -> Option<AccountId> {
    match Identity::parse(identity) {
        Identity::Account(id) => Some(id),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_read_back_as_stored() {
        for identity in [
            Identity::Account(AccountId::new(42)),
            Identity::Ai(6),
            Identity::Browser("3f9a".into()),
        ] {
            assert_eq!(Identity::parse(&identity.stored()), identity);
        }
        let seven = AccountId::new(7);
        assert_eq!(account_of(&identity_of(seven)), Some(seven));
        assert_eq!(account_of(&Session::new("ai:3")), None);
        // A malformed prefix is a browser's text, never an account.
        assert_eq!(
            Identity::parse("account:x"),
            Identity::Browser("account:x".into())
        );
    }
}
