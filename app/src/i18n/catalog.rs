//! A language's messages, compiled from its Fluent resource into a small form
//! that both sides evaluate: the server compiles `locales/<lang>.ftl` at start
//! (and serves the result as a hashed JSON file); the browser fetches the page's
//! language before hydrating. So neither resource file nor Fluent's parser and
//! resolver are in the browser's wasm — the lobby's weight (docs/BENCHMARKS.md).
//!
//! The form covers what the site's resources use: text, `{ $variable }`,
//! string and number literals, and `{ $variable -> [key] … *[other] … }`
//! selectors (on a variable's text, its number, or the number's plural
//! category). The compiler refuses anything else (terms, functions, message
//! references), and the tests check, message by message and for many
//! arguments, that the result equals Fluent's own (`fluent-bundle`) output.

use super::{Arg, Lang};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A message's pattern: its pieces in order.
pub type Pattern = Vec<Element>;

/// A piece of a pattern.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Element {
    /// Literal text.
    #[serde(rename = "t")]
    Text(String),
    /// `{ $name }`: an argument's value.
    #[serde(rename = "v")]
    Var(String),
    /// `{ $name -> [key] … *[other] … }`.
    #[serde(rename = "s")]
    Select {
        /// The argument selected on.
        #[serde(rename = "v")]
        var: String,
        /// The variants, in order.
        #[serde(rename = "a")]
        arms: Vec<(Key, Pattern)>,
        /// The index of the default (`*`) variant.
        #[serde(rename = "d")]
        default: usize,
    },
}

/// A variant's key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Key {
    /// `[Black]`, `[one]`: matches a text argument equal to it, or a number
    /// whose plural category it names.
    #[serde(rename = "n")]
    Name(String),
    /// `[3]`: matches a number equal to it.
    #[serde(rename = "x")]
    Number(f64),
}

/// A language's compiled messages.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Catalog {
    /// The language.
    pub lang: Lang,
    /// Message id → pattern; a message the language lacks is the English one.
    pub messages: BTreeMap<String, Pattern>,
}

impl Catalog {
    /// The message `key` with `args`, or `None` if there is no such message.
    pub fn format(&self, key: &str, args: &[(&str, Arg)]) -> Option<String> {
        let pattern = self.messages.get(key)?;
        let mut out = String::new();
        write(pattern, args, &mut out);
        Some(out)
    }
}

fn arg<'a>(args: &'a [(&str, Arg)], name: &str) -> Option<&'a Arg> {
    args.iter().find(|(n, _)| *n == name).map(|(_, a)| a)
}

/// A number as Fluent writes it by default (Rust's shortest form: `3`, `1.5`).
pub fn number_text(n: f64) -> String {
    n.to_string()
}

/// The cardinal plural category of `n` in English and Greek (the site's two
/// languages agree): `one` for 1 (not 1.5, not 1.0 written with decimals —
/// numbers here carry none), else `other`.
fn plural_category(n: f64) -> &'static str {
    if n.abs() == 1.0 {
        "one"
    } else {
        "other"
    }
}

fn write(pattern: &[Element], args: &[(&str, Arg)], out: &mut String) {
    for element in pattern {
        match element {
            Element::Text(text) => out.push_str(text),
            Element::Var(name) => match arg(args, name) {
                Some(Arg::Text(text)) => out.push_str(text),
                Some(Arg::Number(n)) => out.push_str(&number_text(*n)),
                // What Fluent writes for a missing argument.
                None => {
                    out.push_str("{$");
                    out.push_str(name);
                    out.push('}');
                }
            },
            Element::Select { var, arms, default } => {
                let chosen = arg(args, var).and_then(|value| {
                    arms.iter().position(|(key, _)| match (value, key) {
                        (Arg::Text(text), Key::Name(name)) => text == name,
                        (Arg::Text(_), Key::Number(_)) => false,
                        (Arg::Number(n), Key::Number(k)) => n == k,
                        (Arg::Number(n), Key::Name(name)) => name == plural_category(*n),
                    })
                });
                if let Some((_, arm)) = arms.get(chosen.unwrap_or(*default)) {
                    write(arm, args, out);
                }
            }
        }
    }
}

/// A pattern with neighbouring texts joined (Fluent splits a line's text at
/// literals such as `{" "}`).
#[cfg(not(feature = "hydrate"))]
fn merge_text(pattern: &[Element]) -> Pattern {
    let mut out: Pattern = Vec::with_capacity(pattern.len());
    for element in pattern {
        match (out.last_mut(), element) {
            (Some(Element::Text(last)), Element::Text(text)) => last.push_str(text),
            (_, Element::Text(text)) if text.is_empty() => {}
            _ => out.push(element.clone()),
        }
    }
    out
}

/// Compiling Fluent resources (the server's side; the browser fetches the
/// result).
#[cfg(not(feature = "hydrate"))]
pub mod compile {
    use super::*;
    use fluent_syntax::ast;

    /// A resource's messages, compiled; an error names the first message the
    /// compact form cannot express, or the resource's parse errors.
    pub fn messages(ftl: &str) -> Result<BTreeMap<String, Pattern>, String> {
        let resource =
            fluent_syntax::parser::parse(ftl).map_err(|(_, errors)| format!("{errors:?}"))?;
        let mut out = BTreeMap::new();
        for entry in resource.body {
            let ast::Entry::Message(message) = entry else {
                if let ast::Entry::Term(term) = entry {
                    return Err(format!("-{}: terms are not supported", term.id.name));
                }
                continue;
            };
            let Some(value) = message.value else {
                continue;
            };
            let pattern = pattern(&value).map_err(|why| format!("{}: {why}", message.id.name))?;
            out.insert(message.id.name.to_string(), merge_text(&pattern));
        }
        Ok(out)
    }

    fn pattern(value: &ast::Pattern<&str>) -> Result<Pattern, String> {
        let mut out = Vec::new();
        for element in &value.elements {
            match element {
                ast::PatternElement::TextElement { value } => {
                    out.push(Element::Text((*value).to_string()));
                }
                ast::PatternElement::Placeable { expression } => {
                    out.push(self::expression(expression)?);
                }
            }
        }
        Ok(out)
    }

    fn expression(expression: &ast::Expression<&str>) -> Result<Element, String> {
        match expression {
            ast::Expression::Inline(inline) => self::inline(inline),
            ast::Expression::Select { selector, variants } => {
                let ast::InlineExpression::VariableReference { id } = selector else {
                    return Err("a selector other than a variable".into());
                };
                let mut arms = Vec::with_capacity(variants.len());
                let mut default = None;
                for (i, variant) in variants.iter().enumerate() {
                    let key = match &variant.key {
                        ast::VariantKey::Identifier { name } => Key::Name((*name).to_string()),
                        ast::VariantKey::NumberLiteral { value } => Key::Number(
                            value
                                .parse()
                                .map_err(|_| format!("bad number key {value}"))?,
                        ),
                    };
                    if variant.default {
                        default = Some(i);
                    }
                    arms.push((key, merge_text(&pattern(&variant.value)?)));
                }
                Ok(Element::Select {
                    var: id.name.to_string(),
                    arms,
                    default: default.ok_or("a selector without a default")?,
                })
            }
        }
    }

    fn inline(inline: &ast::InlineExpression<&str>) -> Result<Element, String> {
        match inline {
            ast::InlineExpression::StringLiteral { value } => Ok(Element::Text(
                fluent_syntax::unicode::unescape_unicode_to_string(value).into_owned(),
            )),
            ast::InlineExpression::NumberLiteral { value } => {
                Ok(Element::Text((*value).to_string()))
            }
            ast::InlineExpression::VariableReference { id } => {
                Ok(Element::Var(id.name.to_string()))
            }
            ast::InlineExpression::Placeable { expression } => self::expression(expression),
            ast::InlineExpression::FunctionReference { id, .. } => {
                Err(format!("function {} is not supported", id.name))
            }
            ast::InlineExpression::MessageReference { id, .. } => {
                Err(format!("message reference {} is not supported", id.name))
            }
            ast::InlineExpression::TermReference { id, .. } => {
                Err(format!("term reference -{} is not supported", id.name))
            }
        }
    }

    /// The catalog of `lang`: its messages, English ones where it lacks
    /// some.
    pub fn catalog(lang: Lang) -> Result<Catalog, String> {
        let english = messages(super::super::EN_FTL).map_err(|e| format!("en.ftl: {e}"))?;
        if lang == Lang::En {
            return Ok(Catalog {
                lang,
                messages: english,
            });
        }
        let mut own = messages(lang.ftl()).map_err(|e| format!("{}.ftl: {e}", lang.code()))?;
        for (key, pattern) in english {
            own.entry(key).or_insert(pattern);
        }
        Ok(Catalog {
            lang,
            messages: own,
        })
    }
}
