//! (Over 600 lines: half of it is the tests that keep the two resource files in step.)
//!
//! The site's two languages, Greek and English: the language of a request (the
//! `lang` cookie, else `Accept-Language`), and the strings, which live in the
//! Fluent resource files `app/locales/{en,el}.ftl` (embedded at build time).
//!
//! Pages read the language once with [`use_lang`] and write strings with the
//! [`t!`](crate::t) macro. Switching language is a link to `/lang/<code>` that
//! sets the cookie and reloads the page, so a page is always rendered, on the
//! server and when hydrating, in one language (no flash of the other).
//!
//! Texts the server writes in English for every viewer (a table's notices,
//! refusals) are translated where they are shown with [`localize`]: the English
//! resource's `srv-*` messages double as patterns that recognise them.

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The English resource file.
pub const EN_FTL: &str = include_str!("../locales/en.ftl");
/// The Greek resource file.
pub const EL_FTL: &str = include_str!("../locales/el.ftl");

/// The cookie that remembers the chosen language.
pub const COOKIE: &str = "lang";

/// A language of the site.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    /// English, the default.
    #[default]
    #[serde(rename = "en")]
    En,
    /// Greek.
    #[serde(rename = "el")]
    El,
}

impl Lang {
    /// Both languages, in the switcher's order.
    pub const ALL: [Lang; 2] = [Lang::El, Lang::En];

    /// The BCP 47 code (`el`, `en`), as in `<html lang>` and the cookie.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::El => "el",
        }
    }

    /// A language tag's language (`el`, `el-GR`, `EN-us`), if the site has it.
    pub fn parse(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "el" => Some(Lang::El),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The best of an `Accept-Language` header's languages (by `q`, then by
    /// order) that the site has; English when none is.
    pub fn from_accept_language(header: &str) -> Lang {
        let mut best: Option<(f32, Lang)> = None;
        for part in header.split(',') {
            let mut pieces = part.split(';');
            let tag = pieces.next().unwrap_or_default();
            let q = pieces
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if let Some(lang) = Lang::parse(tag) {
                if q > 0.0 && best.is_none_or(|(b, _)| q > b) {
                    best = Some((q, lang));
                }
            }
        }
        best.map_or(Lang::En, |(_, lang)| lang)
    }

    /// The language a `Cookie` header remembers, if any.
    pub fn from_cookie_header(header: &str) -> Option<Lang> {
        header.split(';').find_map(|pair| {
            let (name, value) = pair.split_once('=')?;
            (name.trim() == COOKIE)
                .then(|| Lang::parse(value.trim()))
                .flatten()
        })
    }

    /// The language of a request: the cookie's, else `Accept-Language`'s.
    pub fn negotiate(cookie: Option<&str>, accept_language: Option<&str>) -> Lang {
        cookie
            .and_then(Lang::from_cookie_header)
            .unwrap_or_else(|| accept_language.map_or(Lang::En, Lang::from_accept_language))
    }

    /// The other language (the switcher's target).
    pub fn other(self) -> Lang {
        match self {
            Lang::En => Lang::El,
            Lang::El => Lang::En,
        }
    }

    /// The resource file of this language.
    pub fn ftl(self) -> &'static str {
        match self {
            Lang::En => EN_FTL,
            Lang::El => EL_FTL,
        }
    }
}

/// The language of the request being served (server side), from its
/// `Cookie` and `Accept-Language` headers; English outside a request.
#[cfg(feature = "ssr")]
pub fn request_lang() -> Lang {
    use leptos::prelude::use_context;
    use_context::<http::request::Parts>().map_or(Lang::En, |parts| lang_of_headers(&parts.headers))
}

/// The language of a request's headers.
#[cfg(feature = "ssr")]
pub fn lang_of_headers(headers: &http::HeaderMap) -> Lang {
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &http::HeaderValue| v.to_str().ok())
    };
    Lang::negotiate(
        text(http::header::COOKIE),
        text(http::header::ACCEPT_LANGUAGE),
    )
}

/// The page's language: provided by the shell (server) or read from
/// `<html lang>` when hydrating; English if neither.
pub fn use_lang() -> Lang {
    leptos::prelude::use_context::<Lang>().unwrap_or_default()
}

/// The language written on the page being hydrated (`<html lang>`).
#[cfg(feature = "hydrate")]
pub fn document_lang() -> Lang {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|e| e.get_attribute("lang"))
        .and_then(|l| Lang::parse(&l))
        .unwrap_or_default()
}

/// A value for a message's `{ $name }`.
pub enum Arg {
    /// Text (also selects a variant: `{ $side -> [Black] … }`).
    Text(String),
    /// A number (selects plural variants: `[one]`, `*[other]`).
    Number(f64),
}

impl From<&str> for Arg {
    fn from(value: &str) -> Self {
        Arg::Text(value.to_string())
    }
}
impl From<String> for Arg {
    fn from(value: String) -> Self {
        Arg::Text(value)
    }
}
impl From<&String> for Arg {
    fn from(value: &String) -> Self {
        Arg::Text(value.clone())
    }
}
macro_rules! number_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(value: $t) -> Self {
                Arg::Number(value as f64)
            }
        }
    )*};
}
number_arg!(u8, u16, u32, u64, usize, i8, i16, i32, i64, f32, f64);

struct Bundles {
    en: FluentBundle<FluentResource>,
    el: FluentBundle<FluentResource>,
}

fn bundle(lang: Lang, ftl: &str) -> FluentBundle<FluentResource> {
    let resource =
        FluentResource::try_new(ftl.to_string()).unwrap_or_else(|(resource, _)| resource);
    let id = lang
        .code()
        .parse::<unic_langid::LanguageIdentifier>()
        .unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // No Unicode isolation marks around arguments: the site's texts are
    // left-to-right only, and the marks would end up in copied text.
    bundle.set_use_isolating(false);
    // A resource's errors are reported by the tests (`every_key_in_both`).
    let _ = bundle.add_resource(resource);
    bundle
}

fn bundles() -> &'static Bundles {
    static BUNDLES: OnceLock<Bundles> = OnceLock::new();
    BUNDLES.get_or_init(|| Bundles {
        en: bundle(Lang::En, EN_FTL),
        el: bundle(Lang::El, EL_FTL),
    })
}

fn bundle_of(lang: Lang) -> &'static FluentBundle<FluentResource> {
    match lang {
        Lang::En => &bundles().en,
        Lang::El => &bundles().el,
    }
}

/// The message `key` in `lang` with its arguments; the English one if `lang`
/// lacks it (the tests make sure none does), else the key itself.
pub fn tr(lang: Lang, key: &str, args: &[(&str, Arg)]) -> String {
    let fluent_args = (!args.is_empty()).then(|| {
        let mut out = FluentArgs::new();
        for (name, value) in args {
            let value = match value {
                Arg::Text(text) => FluentValue::from(text.clone()),
                Arg::Number(n) => FluentValue::from(*n),
            };
            out.set(*name, value);
        }
        out
    });
    for lang in [lang, Lang::En] {
        let bundle = bundle_of(lang);
        if let Some(pattern) = bundle.get_message(key).and_then(|m| m.value()) {
            let mut errors = Vec::new();
            return bundle
                .format_pattern(pattern, fluent_args.as_ref(), &mut errors)
                .into_owned();
        }
    }
    key.to_string()
}

/// A string in the page's language: `t!(lang, "key")` or
/// `t!(lang, "key", name = value, …)` for a message with `{ $name }`s.
#[macro_export]
macro_rules! t {
    ($lang:expr, $key:literal) => {
        $crate::i18n::tr($lang, $key, &[])
    };
    ($lang:expr, $key:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::tr(
            $lang,
            $key,
            &[$((stringify!($name), $crate::i18n::Arg::from($value))),+],
        )
    };
}

/// A side's name in a language ("Black", «Μαύρα»).
pub fn side_name(lang: Lang, side: crate::protocol::Side) -> String {
    tr(lang, "side-name", &[("side", Arg::from(side.name()))])
}

/// A table's mode in a line, as in the table page's header.
pub fn mode_text(lang: Lang, mode: &crate::protocol::TableMode) -> String {
    use crate::protocol::TableMode;
    match mode {
        TableMode::VsAi { depth, human } => {
            crate::t!(
                lang,
                "mode-vs-ai",
                side = side_name(lang, *human),
                depth = *depth
            )
        }
        TableMode::HotSeat => crate::t!(lang, "mode-hot-seat"),
        TableMode::Online { private, time } => {
            let control = time.map_or_else(|| crate::t!(lang, "mode-untimed"), |t| t.label());
            if *private {
                crate::t!(lang, "mode-online-private", control = control)
            } else {
                crate::t!(lang, "mode-online-quick", control = control)
            }
        }
    }
}

/// `/lang/<code>?back=<path>`: the switcher's link, which sets the cookie and
/// returns to `back` (served by the server; a plain link, so it works before
/// hydration and without scripts).
pub fn switch_href(to: Lang, back: &str) -> String {
    let mut encoded = String::with_capacity(back.len());
    for byte in back.bytes() {
        if byte.is_ascii_alphanumeric() || b"/-_.~".contains(&byte) {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    format!("/lang/{}?back={encoded}", to.code())
}

/// Whether `back` may be returned to: a path on this site (not `//host`).
pub fn safe_back(back: &str) -> bool {
    back.starts_with('/') && !back.starts_with("//") && !back.contains(['\\', '\r', '\n'])
}

/// The EL/EN switch in a page's header: the page's language marked as
/// current, the other a link that switches to it and comes back here.
#[leptos::component]
pub fn LangSwitch() -> impl leptos::IntoView {
    use leptos::prelude::*;
    let lang = use_lang();
    let location = leptos_router::hooks::use_location();
    let (pathname, search) = (location.pathname, location.search);
    let back = move || {
        let search = search.get();
        let search = search.trim_start_matches('?');
        if search.is_empty() {
            pathname.get()
        } else {
            format!("{}?{search}", pathname.get())
        }
    };
    let item = move |to: Lang, label: &'static str| {
        if to == lang {
            view! {
                <span class="lang-current" id=format!("lang-{}", to.code()) aria-current="true">
                    {label}
                </span>
            }
            .into_any()
        } else {
            view! {
                <a
                    id=format!("lang-{}", to.code())
                    href=move || switch_href(to, &back())
                    hreflang=to.code()
                    lang=to.code()
                    rel="external"
                    title=tr(lang, "lang-switch-to", &[])
                >
                    {label}
                </a>
            }
            .into_any()
        }
    };
    view! {
        <nav class="lang-switch" aria-label=tr(lang, "lang-switch-label", &[])>
            {item(Lang::El, "EL")}
            <span aria-hidden="true">" / "</span>
            {item(Lang::En, "EN")}
        </nav>
    }
}

/// One piece of an English `srv-*` pattern: literal text or a `{ $name }`.
enum Piece {
    Text(String),
    Var(String),
}

/// The English `srv-*` messages as patterns (simple ones only: text and
/// `{ $name }`s), most literal text first so that the most specific wins.
fn server_patterns() -> &'static [(String, Vec<Piece>)] {
    static PATTERNS: OnceLock<Vec<(String, Vec<Piece>)>> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let mut out: Vec<(String, Vec<Piece>)> = message_sources(EN_FTL)
            .into_iter()
            .filter(|(key, _)| key.starts_with("srv-"))
            .filter_map(|(key, source)| Some((key, split_pattern(&source)?)))
            .collect();
        let literal = |pieces: &Vec<Piece>| -> usize {
            pieces
                .iter()
                .map(|p| match p {
                    Piece::Text(t) => t.len(),
                    Piece::Var(_) => 0,
                })
                .sum()
        };
        out.sort_by_key(|(_, pieces)| std::cmp::Reverse(literal(pieces)));
        out
    })
}

/// A resource's simple messages: `key = one line of text`.
fn message_sources(ftl: &str) -> Vec<(String, String)> {
    ftl.lines()
        .filter(|line| !line.starts_with([' ', '#', '-', '\t']))
        .filter_map(|line| {
            let (key, value) = line.split_once(" = ")?;
            Some((key.trim().to_string(), value.trim().to_string()))
        })
        .collect()
}

fn split_pattern(source: &str) -> Option<Vec<Piece>> {
    let mut pieces = Vec::new();
    let mut rest = source;
    while let Some(start) = rest.find('{') {
        let end = start + rest[start..].find('}')?;
        let inner = rest[start + 1..end].trim();
        let name = inner.strip_prefix('$')?;
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return None;
        }
        if start > 0 {
            pieces.push(Piece::Text(rest[..start].to_string()));
        }
        pieces.push(Piece::Var(name.to_string()));
        rest = &rest[end + 1..];
    }
    if !rest.is_empty() {
        pieces.push(Piece::Text(rest.to_string()));
    }
    Some(pieces)
}

/// Matches `text` against a pattern; the variables' values on success.
fn match_pattern(pieces: &[Piece], text: &str) -> Option<Vec<(String, String)>> {
    match pieces.split_first() {
        None => text.is_empty().then(Vec::new),
        Some((Piece::Text(lit), rest)) => match_pattern(rest, text.strip_prefix(lit.as_str())?),
        Some((Piece::Var(name), rest)) => {
            // The shortest non-empty value that lets the rest match.
            for (i, _) in text.char_indices().skip(1).chain([(text.len(), ' ')]) {
                if let Some(mut found) = match_pattern(rest, &text[i..]) {
                    found.insert(0, (name.clone(), text[..i].to_string()));
                    return Some(found);
                }
            }
            None
        }
    }
}

/// A text the server wrote in English (a notice, a refusal), in `lang`: the
/// `srv-*` message it matches, formatted in `lang` with the same values
/// (numbers stay numbers, so plurals agree; a side's name, `Black`/`White`,
/// stays English for the translation's selectors); the text as it is if none
/// matches.
pub fn localize(lang: Lang, text: &str) -> String {
    if lang == Lang::En {
        return text.to_string();
    }
    for (key, pieces) in server_patterns() {
        if let Some(values) = match_pattern(pieces, text) {
            let args: Vec<(&str, Arg)> = values
                .iter()
                .map(|(name, value)| {
                    let arg = match value.parse::<f64>() {
                        Ok(n) => Arg::Number(n),
                        // A side's name stays as it is (the selectors'
                        // key); other text may be a server text itself.
                        Err(_) if value == "Black" || value == "White" => Arg::from(value.as_str()),
                        Err(_) => Arg::from(localize(lang, value)),
                    };
                    (name.as_str(), arg)
                })
                .collect();
            return tr(lang, key, &args);
        }
    }
    text.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn keys(ftl: &str) -> BTreeSet<String> {
        let resource = FluentResource::try_new(ftl.to_string())
            .unwrap_or_else(|(_, errors)| panic!("the resource does not parse: {errors:?}"));
        resource
            .entries()
            .filter_map(|entry| match entry {
                fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_string()),
                fluent_syntax::ast::Entry::Term(t) => Some(format!("-{}", t.id.name)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn every_key_in_both_languages() {
        let en = keys(EN_FTL);
        let el = keys(EL_FTL);
        let only_en: Vec<_> = en.difference(&el).collect();
        let only_el: Vec<_> = el.difference(&en).collect();
        assert!(only_en.is_empty(), "missing in el.ftl: {only_en:?}");
        assert!(only_el.is_empty(), "missing in en.ftl: {only_el:?}");
        assert!(en.len() > 50, "the resources hold the site's strings");
    }

    #[test]
    fn every_message_formats_without_errors_in_both_languages() {
        for lang in Lang::ALL {
            let bundle = bundle_of(lang);
            for key in keys(lang.ftl()).iter().filter(|k| !k.starts_with('-')) {
                let message = bundle.get_message(key).expect("parsed message");
                let Some(pattern) = message.value() else {
                    continue;
                };
                // Formatting without arguments reports unknown references
                // (a misspelt term) but also every `$variable`: keep only the former.
                let mut errors = Vec::new();
                bundle.format_pattern(pattern, None, &mut errors);
                let bad: Vec<_> = errors
                    .iter()
                    .filter(|e| !format!("{e:?}").contains("Variable"))
                    .collect();
                assert!(bad.is_empty(), "{}: {key}: {bad:?}", lang.code());
            }
        }
    }

    /// Every `t!(…, "key"` written in the crate's sources names a message of
    /// the English resource (so also of the Greek one).
    #[test]
    fn every_key_used_in_the_code_exists() {
        let en = keys(EN_FTL);
        let mut missing = Vec::new();
        let mut used = 0;
        // The app's sources and the server's (the lab's explainer, exports).
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![root.join("src"), root.join("../server/src")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("source dir") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                // This file defines the macro (its docs show `t!(…, "key")`).
                if path.ends_with("i18n.rs") {
                    continue;
                }
                let source = std::fs::read_to_string(&path).expect("source");
                for (i, _) in source.match_indices("t!(") {
                    // `t!(`, not `format!(` or `print!(`.
                    if source[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                        continue;
                    }
                    let after = &source[i..];
                    let Some(open) = after.find('"') else {
                        continue;
                    };
                    // Only the first argument's end to the opening quote.
                    if after[..open].contains(')') || after[..open].contains(';') {
                        continue;
                    }
                    let key: String = after[open + 1..]
                        .chars()
                        .take_while(|&c| c != '"')
                        .collect();
                    used += 1;
                    if !en.contains(&key) {
                        missing.push(format!("{}: {key}", path.display()));
                    }
                }
            }
        }
        assert!(
            missing.is_empty(),
            "keys used but not in en.ftl: {missing:?}"
        );
        assert!(used > 20, "the pages use the resources ({used} uses)");
    }

    #[test]
    fn accept_language_picks_the_best_supported_language() {
        assert_eq!(Lang::from_accept_language("el"), Lang::El);
        assert_eq!(
            Lang::from_accept_language("el-GR,el;q=0.9,en;q=0.8"),
            Lang::El
        );
        assert_eq!(Lang::from_accept_language("en-US,en;q=0.9"), Lang::En);
        assert_eq!(
            Lang::from_accept_language("fr-FR,el;q=0.5,en;q=0.4"),
            Lang::El
        );
        assert_eq!(Lang::from_accept_language("en;q=0.2,el;q=0.7"), Lang::El);
        assert_eq!(Lang::from_accept_language("de,fr"), Lang::En);
        assert_eq!(Lang::from_accept_language(""), Lang::En);
        assert_eq!(Lang::from_accept_language("el;q=0"), Lang::En);
    }

    #[test]
    fn the_cookie_wins_over_accept_language() {
        assert_eq!(
            Lang::negotiate(Some("session=abc; lang=en"), Some("el")),
            Lang::En
        );
        assert_eq!(Lang::negotiate(Some("lang=el"), Some("en-US")), Lang::El);
        assert_eq!(Lang::negotiate(Some("lang=xx"), Some("el")), Lang::El);
        assert_eq!(Lang::negotiate(None, None), Lang::En);
    }

    #[test]
    fn messages_take_arguments_and_plurals() {
        use crate::protocol::Side;
        assert_eq!(side_name(Lang::En, Side::Black), "Black");
        assert_eq!(side_name(Lang::El, Side::White), "Λευκά");
        assert_eq!(
            crate::t!(Lang::En, "table-moves", count = 1u32),
            "Moves (1)"
        );
    }

    #[test]
    fn server_texts_are_localized_by_pattern() {
        assert_eq!(
            localize(
                Lang::El,
                "White has no legal move and passes; Black plays again."
            ),
            "Τα λευκά δεν έχουν έγκυρη κίνηση και πάνε πάσο· παίζουν ξανά τα μαύρα."
        );
        assert_eq!(
            localize(Lang::El, "Rematch: round 3 begins."),
            "Ρεβάνς: αρχίζει ο γύρος 3."
        );
        // Unknown text stays as it is; English is never touched.
        assert_eq!(localize(Lang::El, "Something new."), "Something new.");
        assert_eq!(
            localize(Lang::En, "Rematch: round 3 begins."),
            "Rematch: round 3 begins."
        );
    }
}
