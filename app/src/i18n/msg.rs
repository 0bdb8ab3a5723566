//! A message by key: what the server sends wherever a person will read its
//! words (a refusal, a table's notice, a lab game's failure). The key names
//! a message of the Fluent resources (`srv-*`) and the arguments fill its
//! `{ $name }`s, so the reader's page formats it in the reader's language;
//! nothing is ever recognised by its English text.
//!
//! Write one with [`msg!`](crate::msg): `msg!("srv-taken", square = "d3")`.
//! A test reads every `msg!` in the sources and checks that its key exists
//! in both resources with exactly those arguments.

use super::{tr, Arg, Lang};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A message key with its arguments.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Msg {
    /// The Fluent message id (`srv-not-your-turn`).
    pub key: String,
    /// The values of the message's `{ $name }`s.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub args: BTreeMap<String, MsgArg>,
}

/// One argument's value: a number (plurals agree with it), a text (a
/// square, a name, a side — `Black`/`White` also select a translation's
/// variant), or another message formatted in the same language.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MsgArg {
    Number(i64),
    Text(String),
    Msg(Box<Msg>),
}

impl Msg {
    /// The message `key` without arguments (use [`msg!`](crate::msg)).
    pub fn new(key: &str) -> Self {
        Self {
            key: key.to_string(),
            args: BTreeMap::new(),
        }
    }

    /// The message with `{ $name }` set to `value`.
    pub fn arg(mut self, name: &str, value: impl Into<MsgArg>) -> Self {
        self.args.insert(name.to_string(), value.into());
        self
    }

    /// The message in `lang` (its key when `lang`'s catalog is not loaded).
    pub fn text(&self, lang: Lang) -> String {
        let args: Vec<(&str, Arg)> = self
            .args
            .iter()
            .map(|(name, value)| {
                let value = match value {
                    MsgArg::Number(n) => Arg::Number(*n as f64),
                    MsgArg::Text(text) => Arg::Text(text.clone()),
                    MsgArg::Msg(inner) => Arg::Text(inner.text(lang)),
                };
                (name.as_str(), value)
            })
            .collect();
        tr(lang, &self.key, &args)
    }

    /// The English text: what logs, API clients and the tests read.
    pub fn english(&self) -> String {
        self.text(Lang::En)
    }
}

/// The English text (as in logs and tests).
impl std::fmt::Display for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.english())
    }
}

impl From<&str> for MsgArg {
    fn from(value: &str) -> Self {
        MsgArg::Text(value.to_string())
    }
}
impl From<String> for MsgArg {
    fn from(value: String) -> Self {
        MsgArg::Text(value)
    }
}
impl From<&String> for MsgArg {
    fn from(value: &String) -> Self {
        MsgArg::Text(value.clone())
    }
}
impl From<Msg> for MsgArg {
    fn from(value: Msg) -> Self {
        MsgArg::Msg(Box::new(value))
    }
}
macro_rules! number_msg_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for MsgArg {
            fn from(value: $t) -> Self {
                MsgArg::Number(i64::try_from(value).unwrap_or(i64::MAX))
            }
        }
    )*};
}
number_msg_arg!(u8, u16, u32, u64, usize, i8, i16, i32, i64);

/// A [`Msg`]: the macro with a literal key, alone or followed by
/// `name = value` pairs (`msg!("srv-taken", square = "d3")`); always a
/// literal, so the catalog test finds every message the code sends.
#[macro_export]
macro_rules! msg {
    ($key:literal) => {
        $crate::i18n::Msg::new($key)
    };
    ($key:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::Msg::new($key)$(.arg(stringify!($name), $value))+
    };
}

/// Every `msg!` in Rust source `text`: its key and its argument names.
pub fn uses_in(text: &str) -> Vec<(String, Vec<String>)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("msg!(") {
        rest = &rest[at + 5..];
        // The invocation runs to its closing parenthesis.
        let mut depth = 1usize;
        let mut end = rest.len();
        let mut in_string = false;
        for (i, c) in rest.char_indices() {
            match c {
                '"' => in_string = !in_string,
                '(' | '[' | '{' if !in_string => depth += 1,
                ')' | ']' | '}' if !in_string => {
                    depth -= 1;
                    if depth == 0 {
                        end = i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let body = &rest[..end];
        let body = body.trim_start();
        let Some(body) = body.strip_prefix('"') else {
            continue; // the macro's own definition ($key…)
        };
        let Some(close) = body.find('"') else {
            continue;
        };
        let key = body[..close].to_string();
        // The top-level `name = value` pairs after the key.
        let mut names = Vec::new();
        let (mut depth, mut in_string, mut start) = (0usize, false, close + 1);
        let args = body;
        let mut pieces = Vec::new();
        for (i, c) in args.char_indices().skip(close + 1) {
            match c {
                '"' => in_string = !in_string,
                '(' | '[' | '{' if !in_string => depth += 1,
                ')' | ']' | '}' if !in_string => depth = depth.saturating_sub(1),
                ',' if !in_string && depth == 0 => {
                    pieces.push(&args[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        pieces.push(&args[start..]);
        for piece in pieces {
            if let Some((name, _)) = piece.split_once('=') {
                let name = name.trim();
                if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    names.push(name.to_string());
                }
            }
        }
        names.sort();
        found.push((key, names));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_keys_and_argument_names() {
        let source = r#"
            let a = msg!("srv-taken", square = format!("{}", s(1, 2)));
            let b = crate::msg!("srv-no-table");
            let c = msg!(
                "srv-game-over-win",
                winner = w.name(),
                black = 3u32,
                white = f(a, b),
            );
        "#;
        assert_eq!(
            uses_in(source),
            vec![
                ("srv-taken".to_string(), vec!["square".to_string()]),
                ("srv-no-table".to_string(), vec![]),
                (
                    "srv-game-over-win".to_string(),
                    vec![
                        "black".to_string(),
                        "white".to_string(),
                        "winner".to_string()
                    ]
                ),
            ]
        );
    }

    #[test]
    fn formats_in_either_language_with_nested_messages() {
        let m = crate::msg!("srv-not-your-turn", side = "White");
        assert_eq!(m.english(), "It is not your turn: White is to move.");
        assert_ne!(m.text(Lang::El), m.english());
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(
            json,
            r#"{"key":"srv-not-your-turn","args":{"side":"White"}}"#
        );
        assert_eq!(serde_json::from_str::<Msg>(&json).unwrap(), m);
        let nested = crate::msg!(
            "srv-lab-over",
            result = crate::msg!("srv-result-draw", score = "32–32")
        );
        let back: Msg = serde_json::from_str(&serde_json::to_string(&nested).unwrap()).unwrap();
        assert_eq!(back, nested);
        assert_eq!(back.english(), "The game is over: Draw 32–32.");
        let counted = crate::msg!("srv-tables-browser", limit = 5u32);
        let back: Msg = serde_json::from_str(&serde_json::to_string(&counted).unwrap()).unwrap();
        assert_eq!(back.args.get("limit"), Some(&MsgArg::Number(5)));
    }
}
