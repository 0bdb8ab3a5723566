//! The site's ids, typed: a table's, a lab game's, an archived game's and an
//! account's, defined once for the server, the browser, the test client and
//! the load tool. Each is `#[serde(transparent)]`, so the wire carries the
//! same text (or number) as before and the database stores the same value.
//!
//! The text ids are whatever the server generated (16 hex digits today;
//! older or derived ids may differ), so [`TableId::new`] takes any text the
//! server itself made or read back. An id that arrives from outside (a URL
//! path, a server function's argument) is checked with [`TableId::parse`]
//! or [`TableId::is_well_formed`]: a malformed one is refused as "not found",
//! like an id that names nothing, before it reaches the database.

use serde::{Deserialize, Serialize};
use std::borrow::Borrow;
use std::fmt;
use std::str::FromStr;

/// The most characters a text id may have.
pub const MAX_ID_LEN: usize = 64;

/// An id that is not well formed (empty, too long, or with a character
/// other than ASCII letters, digits, `-` and `_`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MalformedId;

impl fmt::Display for MalformedId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("malformed id")
    }
}

impl std::error::Error for MalformedId {}

/// Whether `text` may be a text id.
pub fn well_formed(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= MAX_ID_LEN
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

macro_rules! text_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// An id the server made or read back from its own store.
            pub fn new(text: impl Into<String>) -> Self {
                Self(text.into())
            }

            /// An id from outside, checked ([`well_formed`]).
            pub fn parse(text: &str) -> Result<Self, MalformedId> {
                if well_formed(text) {
                    Ok(Self(text.to_string()))
                } else {
                    Err(MalformedId)
                }
            }

            /// Whether this id (e.g. one deserialized from a request) is
            /// well formed.
            pub fn is_well_formed(&self) -> bool {
                well_formed(&self.0)
            }

            /// The id's text, as sent and stored.
            pub fn as_str(&self) -> &str {
                &self.0
            }

            pub fn into_string(self) -> String {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl FromStr for $name {
            type Err = MalformedId;

            fn from_str(text: &str) -> Result<Self, MalformedId> {
                Self::parse(text)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        /// So that maps keyed by the id can be read with a `&str`.
        impl Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }
    };
}

text_id! {
    /// A table's id (live tables: `/table/<id>`, `/ws/table/<id>`).
    TableId
}

text_id! {
    /// A lab game's id (`/lab/<id>`).
    LabId
}

text_id! {
    /// An archived game's id (`/game/<id>`).
    GameId
}

text_id! {
    /// A tournament's id (`/tournaments/<id>`, `/ws/tournament/<id>`).
    TournamentId
}

/// An account's id (the `accounts.id` integer; an identity's
/// `account:<id>`). Never shown to players, who are known by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AccountId(i64);

impl AccountId {
    pub const fn new(id: i64) -> Self {
        Self(id)
    }

    /// The stored integer.
    pub const fn get(self) -> i64 {
        self.0
    }
}

impl fmt::Display for AccountId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for AccountId {
    type Err = MalformedId;

    fn from_str(text: &str) -> Result<Self, MalformedId> {
        text.parse().map(Self).map_err(|_| MalformedId)
    }
}

impl From<i64> for AccountId {
    fn from(id: i64) -> Self {
        Self(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_keep_their_wire_form() {
        let table = TableId::new("0a1b2c3d4e5f6789");
        assert_eq!(
            serde_json::to_string(&table).unwrap(),
            "\"0a1b2c3d4e5f6789\""
        );
        assert_eq!(
            serde_json::from_str::<TableId>("\"0a1b2c3d4e5f6789\"").unwrap(),
            table
        );
        assert_eq!(table.to_string(), "0a1b2c3d4e5f6789");
        let account = AccountId::new(42);
        assert_eq!(serde_json::to_string(&account).unwrap(), "42");
        assert_eq!(serde_json::from_str::<AccountId>("42").unwrap(), account);
        assert_eq!("42".parse::<AccountId>(), Ok(account));
    }

    #[test]
    fn ids_from_outside_are_checked() {
        assert!(LabId::parse("ab12-_Z").is_ok());
        for bad in ["", "a/b", "a b", "é", "x'--", &"a".repeat(MAX_ID_LEN + 1)] {
            assert_eq!(GameId::parse(bad), Err(MalformedId), "{bad:?}");
            assert!(!TableId::new(bad).is_well_formed());
        }
        assert!("x".parse::<AccountId>().is_err());
    }
}
