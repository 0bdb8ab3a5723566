//! (Over 600 lines: half of it is the tests that keep the two resource files in step.)
//!
//! The site's two languages, Greek and English: the language of a request (the
//! `lang` cookie, else `Accept-Language`), and the strings, which live in the
//! Fluent resource files `app/locales/{en,el}.ftl`. The server compiles them
//! at start into a small form ([`catalog`]) and serves each language's as a
//! content-hashed JSON file; the browser fetches the page's language before it
//! hydrates, so its wasm holds neither the resources nor Fluent itself.
//!
//! Pages read the language once with [`use_lang`] and write strings with the
//! [`t!`](crate::t) macro. Switching language is a link to `/lang/<code>` that
//! sets the cookie and reloads the page, so a page is always rendered, on the
//! server and when hydrating, in one language (no flash of the other).
//!
//! What the server says to a person (a table's notice, a refusal) travels
//! as a [`Msg`]: a `srv-*` key with its arguments, formatted by the page in
//! its own language. No text is ever recognised by its English words.

pub mod catalog;
pub mod msg;

pub use msg::{Msg, MsgArg};

use catalog::Catalog;
#[cfg(test)]
use catalog::Element;
use serde::{Deserialize, Serialize};
#[cfg(not(feature = "hydrate"))]
use std::sync::OnceLock;

/// The English resource file.
#[cfg(not(feature = "hydrate"))]
pub const EN_FTL: &str = include_str!("../../locales/en.ftl");
/// The Greek resource file.
#[cfg(not(feature = "hydrate"))]
pub const EL_FTL: &str = include_str!("../../locales/el.ftl");

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
    #[cfg(not(feature = "hydrate"))]
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
#[derive(Clone, Debug)]
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

/// The compiled catalogs (server side): both languages, compiled once.
#[cfg(not(feature = "hydrate"))]
fn catalog_of(lang: Lang) -> Option<&'static Catalog> {
    static CATALOGS: OnceLock<[Catalog; 2]> = OnceLock::new();
    let [en, el] = CATALOGS.get_or_init(|| {
        // The tests compile both resources; a failure here is a build error
        // that slipped past them: the pages then show message ids.
        let compile = |lang| {
            catalog::compile::catalog(lang).unwrap_or_else(|e| {
                eprintln!("the {} messages do not compile: {e}", lang.code());
                Catalog::default()
            })
        };
        [compile(Lang::En), compile(Lang::El)]
    });
    Some(match lang {
        Lang::En => en,
        Lang::El => el,
    })
}

/// The catalog the browser fetched for this page (see [`load_catalog`]).
#[cfg(feature = "hydrate")]
static INSTALLED: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();

/// The catalog the browser fetched, if it is `lang`'s.
#[cfg(feature = "hydrate")]
fn catalog_of(lang: Lang) -> Option<&'static Catalog> {
    INSTALLED.get().filter(|c| c.lang == lang)
}

/// A language's catalog as served to the browser, JSON, and the path it is
/// served under: `/i18n/<code>.<16 hex digits of its hash>.json`.
#[cfg(not(feature = "hydrate"))]
fn served(lang: Lang) -> &'static (String, String) {
    static SERVED: OnceLock<[(String, String); 2]> = OnceLock::new();
    let [en, el] = SERVED.get_or_init(|| {
        let one = |lang: Lang| {
            let json = catalog_of(lang)
                .and_then(|c| serde_json::to_string(c).ok())
                .unwrap_or_default();
            // FNV-1a: a stable name for the content (not a security hash).
            let hash = json.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            });
            (format!("/i18n/{}.{hash:016x}.json", lang.code()), json)
        };
        [one(Lang::En), one(Lang::El)]
    });
    match lang {
        Lang::En => en,
        Lang::El => el,
    }
}

/// The path the page's catalog is served under (named in the page's head).
#[cfg(not(feature = "hydrate"))]
pub fn catalog_path(lang: Lang) -> &'static str {
    &served(lang).0
}

/// The catalog served under `path`, as JSON, if `path` is a current one.
#[cfg(not(feature = "hydrate"))]
pub fn catalog_json(path: &str) -> Option<&'static str> {
    Lang::ALL
        .into_iter()
        .map(served)
        .find(|(served_path, _)| served_path == path)
        .map(|(_, json)| json.as_str())
}

/// The `<meta>` naming the page's catalog.
pub const CATALOG_META: &str = "othello-i18n";

/// Fetches the page's catalog (named by its `<meta>`) and installs it; the
/// browser calls this before hydrating. A failed fetch is tried once more.
#[cfg(feature = "hydrate")]
pub async fn load_catalog() -> Result<(), String> {
    use wasm_bindgen::JsCast;
    let window = web_sys::window().ok_or("no window")?;
    let path = window
        .document()
        .and_then(|d| {
            d.query_selector(&format!("meta[name=\"{CATALOG_META}\"]"))
                .ok()
                .flatten()
        })
        .and_then(|m| m.get_attribute("content"))
        .ok_or("the page names no catalog")?;
    let mut last = String::new();
    for _ in 0..2 {
        let fetched = async {
            let response = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(&path))
                .await
                .map_err(|e| format!("{e:?}"))?
                .dyn_into::<web_sys::Response>()
                .map_err(|_| "not a response".to_string())?;
            if !response.ok() {
                return Err(format!("HTTP {}", response.status()));
            }
            let text = wasm_bindgen_futures::JsFuture::from(
                response.text().map_err(|e| format!("{e:?}"))?,
            )
            .await
            .map_err(|e| format!("{e:?}"))?
            .as_string()
            .unwrap_or_default();
            serde_json::from_str::<Catalog>(&text).map_err(|e| e.to_string())
        };
        match fetched.await {
            Ok(catalog) => {
                let _ = INSTALLED.set(catalog);
                return Ok(());
            }
            Err(e) => last = format!("{path}: {e}"),
        }
    }
    Err(last)
}

/// The message `key` in `lang` with its arguments (the English one if `lang`
/// lacks it — the tests make sure none does), else the key itself.
pub fn tr(lang: Lang, key: &str, args: &[(&str, Arg)]) -> String {
    catalog_of(lang)
        .and_then(|c| c.format(key, args))
        .unwrap_or_else(|| key.to_string())
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
        TableMode::VsAi { depth, human } if *depth == crate::protocol::STRONGEST => {
            crate::t!(lang, "mode-vs-ai-strongest", side = side_name(lang, *human))
        }
        TableMode::VsAi { depth, human } => {
            crate::t!(
                lang,
                "mode-vs-ai",
                side = side_name(lang, *human),
                depth = *depth
            )
        }
        TableMode::HotSeat => crate::t!(lang, "mode-hot-seat"),
        TableMode::Online {
            private,
            time,
            rated,
            tournament,
        } => {
            let mut control = time.map_or_else(|| crate::t!(lang, "mode-untimed"), |t| t.label());
            if *rated {
                control = crate::t!(lang, "mode-rated", control = control);
            }
            if *tournament {
                crate::t!(lang, "mode-tournament", control = control)
            } else if *private {
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

#[cfg(test)]
mod tests {
    use super::*;
    use fluent_bundle::concurrent::FluentBundle;
    use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
    use std::collections::BTreeSet;

    /// Fluent's own formatter for a resource, as the site configured it
    /// before the compact form: the reference the catalogs must equal.
    fn reference_bundle(lang: Lang) -> FluentBundle<FluentResource> {
        let resource = FluentResource::try_new(lang.ftl().to_string())
            .unwrap_or_else(|(_, errors)| panic!("the resource does not parse: {errors:?}"));
        let id = lang
            .code()
            .parse::<unic_langid::LanguageIdentifier>()
            .expect("language id");
        let mut bundle = FluentBundle::new_concurrent(vec![id]);
        bundle.set_use_isolating(false);
        bundle.add_resource(resource).expect("no clashing ids");
        bundle
    }

    fn reference_format(
        bundle: &FluentBundle<FluentResource>,
        key: &str,
        args: &[(&str, Arg)],
    ) -> Option<String> {
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            let value = match value {
                Arg::Text(text) => FluentValue::from(text.clone()),
                Arg::Number(n) => FluentValue::from(*n),
            };
            fluent_args.set(*name, value);
        }
        let pattern = bundle.get_message(key)?.value()?;
        let mut errors = Vec::new();
        Some(
            bundle
                .format_pattern(pattern, Some(&fluent_args), &mut errors)
                .into_owned(),
        )
    }

    /// The variables a pattern uses, each with the texts its selectors name.
    fn variables(pattern: &[Element], out: &mut BTreeMap<String, BTreeSet<String>>) {
        for element in pattern {
            match element {
                Element::Text(_) => {}
                Element::Var(name) => {
                    out.entry(name.clone()).or_default();
                }
                Element::Select { var, arms, .. } => {
                    let names = out.entry(var.clone()).or_default();
                    for (key, _) in arms {
                        if let catalog::Key::Name(name) = key {
                            names.insert(name.clone());
                        }
                    }
                    for (_, arm) in arms {
                        variables(arm, out);
                    }
                }
            }
        }
    }

    use std::collections::BTreeMap;

    /// Every message of both languages, with every combination of values
    /// for its arguments (each selector's keys as text, other text, and
    /// numbers that hit every plural case), formats exactly as Fluent does —
    /// and with no arguments at all.
    #[test]
    fn the_catalogs_format_every_message_exactly_as_fluent() {
        let mut checked = 0;
        for lang in Lang::ALL {
            let bundle = reference_bundle(lang);
            let catalog = catalog::compile::catalog(lang).expect("the messages compile");
            assert_eq!(catalog.messages.len(), keys(lang.ftl()).len());
            for (key, pattern) in &catalog.messages {
                let mut vars = BTreeMap::new();
                variables(pattern, &mut vars);
                let choices: Vec<(String, Vec<Arg>)> = vars
                    .into_iter()
                    .map(|(name, texts)| {
                        let mut values: Vec<Arg> = texts.into_iter().map(Arg::Text).collect();
                        values.push(Arg::from("e4 «x»"));
                        for n in [0.0, 1.0, 2.0, 5.0, 1.5, -1.0, 21.0, 100.0] {
                            values.push(Arg::Number(n));
                        }
                        (name, values)
                    })
                    .collect();
                // Every combination, or for messages with many variables
                // 4,000 of them picked by a fixed pseudo-random sequence.
                let total: u128 = choices.iter().map(|(_, v)| v.len() as u128).product();
                let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
                let picks: Vec<u128> = if total <= 4_000 {
                    (0..total).collect()
                } else {
                    (0..4_000)
                        .map(|_| {
                            seed = seed
                                .wrapping_mul(6_364_136_223_846_793_005)
                                .wrapping_add(1_442_695_040_888_963_407);
                            u128::from(seed >> 11) % total
                        })
                        .collect()
                };
                for mut i in picks {
                    let mut args: Vec<(&str, Arg)> = Vec::new();
                    for (name, values) in &choices {
                        let len = values.len() as u128;
                        let value = match &values[(i % len) as usize] {
                            Arg::Text(t) => Arg::Text(t.clone()),
                            Arg::Number(n) => Arg::Number(*n),
                        };
                        i /= len;
                        args.push((name.as_str(), value));
                    }
                    let ours = catalog.format(key, &args);
                    let fluent = reference_format(&bundle, key, &args);
                    assert_eq!(
                        ours,
                        fluent,
                        "{}: {key} with {:?}",
                        lang.code(),
                        args.iter().map(|(n, _)| n).collect::<Vec<_>>()
                    );
                    checked += 1;
                }
                assert_eq!(
                    catalog.format(key, &[]),
                    reference_format(&bundle, key, &[]),
                    "{}: {key} without arguments",
                    lang.code()
                );
            }
        }
        assert!(checked > 1_000, "{checked} formats compared");
    }

    /// What the browser fetches reads back as the same catalog, and is served
    /// under a name that changes with its content.
    #[test]
    fn the_served_catalog_round_trips_and_is_named_by_its_content() {
        for lang in Lang::ALL {
            let path = catalog_path(lang);
            assert!(
                path.starts_with(&format!("/i18n/{}.", lang.code())),
                "{path}"
            );
            let hash = path
                .trim_end_matches(".json")
                .rsplit('.')
                .next()
                .unwrap_or_default();
            assert!(
                hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
                "{path}"
            );
            let json = catalog_json(path).expect("served");
            let back: Catalog = serde_json::from_str(json).expect("valid JSON");
            assert_eq!(Some(&back), catalog_of(lang));
            assert_eq!(back.lang, lang);
        }
        assert_ne!(catalog_path(Lang::En), catalog_path(Lang::El));
        assert_eq!(catalog_json("/i18n/en.0000000000000000.json"), None);
        assert_eq!(catalog_json("/i18n/en.json"), None);
    }

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

    /// The Greek pages call a disc "πούλι" everywhere: "δίσκος" (the
    /// dictionary's word, used once in the tournaments' pages) read as a
    /// second thing beside it.
    #[test]
    fn one_greek_word_for_a_disc() {
        let second: Vec<_> = EL_FTL
            .lines()
            .filter(|line| line.to_lowercase().contains("δίσκ"))
            .collect();
        assert!(second.is_empty(), "el.ftl says δίσκος: {second:?}");
        assert!(EL_FTL.contains("πούλια"));
    }

    #[test]
    fn every_message_formats_without_errors_in_both_languages() {
        for lang in Lang::ALL {
            let bundle = reference_bundle(lang);
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
                if path.ends_with("i18n/mod.rs") {
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

    /// Every message the server or the pages send by key (`msg!`) names a
    /// message of both resources that uses only the arguments sent, and
    /// every argument sent is used by some language (so no reader sees a
    /// key, a `{ $name }` or a missing value).
    #[test]
    fn every_message_sent_by_key_exists_in_both_languages_with_its_arguments() {
        let compiled: Vec<(Lang, BTreeMap<String, BTreeSet<String>>)> = Lang::ALL
            .into_iter()
            .map(|lang| {
                let catalog = catalog::compile::catalog(lang).expect("compiles");
                let own = keys(lang.ftl());
                let vars = catalog
                    .messages
                    .iter()
                    .filter(|(key, _)| own.contains(*key))
                    .map(|(key, pattern)| {
                        let mut found = BTreeMap::new();
                        variables(pattern, &mut found);
                        (key.clone(), found.into_keys().collect())
                    })
                    .collect();
                (lang, vars)
            })
            .collect();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![root.join("src"), root.join("../server/src")];
        let (mut problems, mut used) = (Vec::new(), 0);
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("source dir") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                // The macro's own files (their docs show it with a
                // placeholder key).
                if path.ends_with("i18n/mod.rs") || path.ends_with("i18n/msg.rs") {
                    continue;
                }
                let source = std::fs::read_to_string(&path).expect("source");
                for (key, names) in msg::uses_in(&source) {
                    used += 1;
                    let names: BTreeSet<String> = names.into_iter().collect();
                    let mut somewhere = BTreeSet::new();
                    for (lang, vars) in &compiled {
                        match vars.get(&key) {
                            None => problems.push(format!(
                                "{}: {key} is not in {}.ftl",
                                path.display(),
                                lang.code()
                            )),
                            // A translation may leave a value out (Greek
                            // names the winner by the loser's selector),
                            // never use one that is not sent.
                            Some(wanted) if !wanted.is_subset(&names) => problems.push(format!(
                                "{}: {key} is sent with {names:?}; {}.ftl uses {wanted:?}",
                                path.display(),
                                lang.code()
                            )),
                            Some(wanted) => somewhere.extend(wanted.iter().cloned()),
                        }
                    }
                    if vars_known(&compiled, &key) && somewhere != names {
                        problems.push(format!(
                            "{}: {key} is sent with {names:?}; no language uses {:?}",
                            path.display(),
                            names.difference(&somewhere).collect::<Vec<_>>()
                        ));
                    }
                }
            }
        }
        assert!(problems.is_empty(), "{problems:#?}");
        assert!(used > 100, "the code sends messages by key ({used} uses)");
    }

    fn vars_known(compiled: &[(Lang, BTreeMap<String, BTreeSet<String>>)], key: &str) -> bool {
        compiled.iter().all(|(_, vars)| vars.contains_key(key))
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

    // ---------------------------------------------------------------- plurals

    /// Fluent's plural categories: a variant key that is one of these
    /// selects on a number, any other name on a text.
    const PLURAL_CATEGORIES: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

    /// Plural nouns that must never follow a count of one, besides those the
    /// resources themselves show as plural ([`count_words`]).
    const EN_PLURALS: &[&str] = &[
        "moves",
        "positions",
        "discs",
        "wins",
        "seconds",
        "minutes",
        "games",
        "rounds",
        "draws",
        "replies",
        "options",
        "squares",
        "empties",
        "mistakes",
        "plies",
        "searches",
    ];
    /// Words between a count and its noun that do not change with it.
    const EN_MODIFIERS: &[&str] = &["legal", "empty", "possible", "other"];
    const EL_PLURALS: &[&str] = &[
        "κινήσεις",
        "κινήσεων",
        "θέσεις",
        "νίκες",
        "πούλια",
        "δευτερόλεπτα",
        "λεπτά",
        "παιχνίδια",
        "παρτίδες",
        "γύροι",
        "ισοπαλίες",
        "απαντήσεις",
        "επιλογές",
        "τετράγωνα",
        "κενά",
        "λάθη",
        "αναζητήσεις",
        // Adjectives before a noun (`1 μαύρα` is never right).
        "μαύρα",
        "λευκά",
        "έγκυρες",
        "άλλες",
        "δυνατές",
    ];

    /// The variables that some message of either language selects on with
    /// a text key (`[Black]`, `[You]`, `[yes]`): they hold text. Every other
    /// variable may hold a count.
    fn text_variables(catalogs: &[Catalog]) -> BTreeSet<String> {
        fn walk(pattern: &[Element], out: &mut BTreeSet<String>) {
            for element in pattern {
                if let Element::Select { var, arms, .. } = element {
                    for (key, arm) in arms {
                        if let catalog::Key::Name(name) = key {
                            if !PLURAL_CATEGORIES.contains(&name.as_str()) {
                                out.insert(var.clone());
                            }
                        }
                        walk(arm, out);
                    }
                }
            }
        }
        let mut out = BTreeSet::new();
        for catalog in catalogs {
            for pattern in catalog.messages.values() {
                walk(pattern, &mut out);
            }
        }
        out
    }

    /// The word at the start of `text` after spaces, lower-case.
    fn first_word(text: &str) -> String {
        text.trim_start_matches(' ')
            .chars()
            .take_while(|c| c.is_alphabetic())
            .collect::<String>()
            .to_lowercase()
    }

    /// The words that agree with a count.
    #[derive(Default)]
    struct CountWords {
        /// Plural forms: never after a count of one (`discs`, `πούλια`).
        plural: BTreeSet<String>,
        /// Singular forms: only after a count of one (`disc`, `πούλι`).
        singular: BTreeSet<String>,
        /// Words that are the same for one and many, between a count and
        /// its noun (`1 legal move`, `5 legal moves`).
        modifiers: BTreeSet<String>,
    }

    /// The first two words of `text` (after spaces), lower-case.
    fn two_words(text: &str) -> (String, String) {
        let text = text.trim_start_matches(' ');
        let first = first_word(text);
        let second = text
            .split_once(' ')
            .filter(|_| !first.is_empty())
            .map(|(_, after)| first_word(after))
            .unwrap_or_default();
        (first, second)
    }

    /// The words a language's resource writes after a count, from its plural
    /// selectors: what follows `1 ` in a `[one]` variant is singular, what
    /// follows `{ $n }` in the default variant of a selector on `$n` plural
    /// (`disc`/`discs`, `πούλι`/`πούλια`, `άλλη`/`άλλες`); a word the two
    /// share (`legal` in `1 legal move`/`{ $n } legal moves`) is a modifier,
    /// and the word after it the noun.
    fn count_words(catalog: &Catalog) -> CountWords {
        fn walk(pattern: &[Element], words: &mut CountWords) {
            for element in pattern {
                let Element::Select { var, arms, default } = element else {
                    continue;
                };
                for (_, arm) in arms {
                    walk(arm, words);
                }
                let one = arms
                    .iter()
                    .find(|(key, _)| matches!(key, catalog::Key::Name(n) if n == "one"));
                let (Some((_, one)), Some((_, other))) = (one, arms.get(*default)) else {
                    continue;
                };
                let singular = one.iter().find_map(|piece| match piece {
                    Element::Text(text) => text
                        .match_indices("1 ")
                        .find(|(at, _)| !text[..*at].ends_with(|c: char| c.is_ascii_digit()))
                        .map(|(at, _)| two_words(&text[at + 1..])),
                    _ => None,
                });
                let plural = other.windows(2).find_map(|pair| match pair {
                    [Element::Var(name), Element::Text(text)]
                        if name == var && text.starts_with(' ') =>
                    {
                        Some(two_words(text))
                    }
                    _ => None,
                });
                match (singular, plural) {
                    (Some(one), Some(many)) if one.0 == many.0 => {
                        words.modifiers.insert(one.0);
                        words.singular.insert(one.1);
                        words.plural.insert(many.1);
                    }
                    (one, many) => {
                        words.singular.extend(one.map(|w| w.0));
                        words.plural.extend(many.map(|w| w.0));
                    }
                }
            }
        }
        let mut words = CountWords::default();
        for pattern in catalog.messages.values() {
            walk(pattern, &mut words);
        }
        for set in [&mut words.plural, &mut words.singular, &mut words.modifiers] {
            set.remove("");
        }
        words
    }

    /// The first count in `text` that disagrees with its noun: a count of
    /// one (`1`, `-1`, `−1`) before a plural form (also after a modifier:
    /// `1 legal moves`), or another count before a singular form; with
    /// some text around it.
    fn count_mismatch(text: &str, words: &CountWords) -> Option<String> {
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let starts_number = chars[i].is_ascii_digit()
                && (i == 0
                    || !(chars[i - 1].is_ascii_digit() || matches!(chars[i - 1], '.' | ',')));
            if !starts_number {
                i += 1;
                continue;
            }
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if chars.get(i) != Some(&' ') {
                continue;
            }
            let number: String = chars[start..i].iter().collect();
            let rest: String = chars[i..].iter().collect();
            let (word, next) = two_words(&rest);
            let (noun, length) = if words.modifiers.contains(&word) {
                (next, rest.trim_start_matches(' ').chars().count())
            } else {
                (word.clone(), word.chars().count())
            };
            let wrong = if number == "1" {
                words.plural.contains(&noun)
            } else {
                words.singular.contains(&noun)
            };
            if wrong {
                let from = start.saturating_sub(24);
                let to = (i + 1 + length.min(word.chars().count() + 20) + 8).min(chars.len());
                return Some(format!("…{}…", chars[from..to].iter().collect::<String>()));
            }
        }
        None
    }

    /// Index vectors into `sizes`' choices: every combination when there
    /// are few, else each variable through all its values with the others
    /// held at each of their values in turn (all at the first, all at the
    /// second, …).
    fn assignments(sizes: &[usize]) -> Vec<Vec<usize>> {
        let total: usize = sizes.iter().product();
        if total <= 4_000 {
            return (0..total)
                .map(|mut n| {
                    sizes
                        .iter()
                        .map(|&size| {
                            let i = n % size;
                            n /= size;
                            i
                        })
                        .collect()
                })
                .collect();
        }
        let widest = sizes.iter().copied().max().unwrap_or(1);
        let mut out = Vec::new();
        for base in 0..widest {
            let baseline: Vec<usize> = sizes.iter().map(|&size| base % size).collect();
            for (var, &size) in sizes.iter().enumerate() {
                for value in 0..size {
                    let mut one = baseline.clone();
                    one[var] = value;
                    out.push(one);
                }
            }
        }
        out
    }

    /// Every message of both catalogs that shows a count, formatted with
    /// each count variable at 0, 1, 2, 5 and −1: no "1 moves", "1 θέσεις",
    /// "−1 πούλια" (a count of one before a plural noun) and no "2 move"
    /// (another count before a singular one). The variables come from the
    /// resources: those no message selects on with a text key may be
    /// counts; the nouns come from the resources' own plural selectors (and
    /// a list of the site's plural nouns).
    #[test]
    fn every_count_agrees_with_its_noun_in_both_languages() {
        // The check itself catches the phrases the issue reported.
        let listed = |lang: Lang| {
            let (plural, modifiers) = match lang {
                Lang::En => (EN_PLURALS, EN_MODIFIERS),
                Lang::El => (EL_PLURALS, &[][..]),
            };
            CountWords {
                plural: plural.iter().map(|w| w.to_string()).collect(),
                singular: BTreeSet::new(),
                modifiers: modifiers.iter().map(|w| w.to_string()).collect(),
            }
        };
        let (en, el) = (listed(Lang::En), listed(Lang::El));
        for (text, words) in [
            ("AI looked 1 moves ahead: 3 positions.", &en),
            ("Search: depth 2, 1 legal moves", &en),
            ("black 1 wins, white 0 wins", &en),
            ("Analysis: −1 discs (exact)", &en),
            ("Ο υπολογιστής είδε 2 κινήσεις μπροστά: 1 θέσεις.", &el),
            ("μαύρα 1 νίκες", &el),
            ("−1 πούλια (ακριβώς)", &el),
            ("1 έγκυρες κινήσεις", &el),
        ] {
            assert!(count_mismatch(text, words).is_some(), "{text}");
        }
        for text in [
            "AI looked 1 move ahead: 21 positions.",
            "1.5 moves",
            "a1 h8",
            "−1 disc",
            "leaving 1 black and 5 white discs",
            "value 1 (depth 2, 5 positions)",
        ] {
            assert_eq!(count_mismatch(text, &en), None, "{text}");
        }

        let catalogs: Vec<Catalog> = Lang::ALL
            .into_iter()
            .map(|lang| catalog::compile::catalog(lang).expect("the messages compile"))
            .collect();
        let text_vars = text_variables(&catalogs);
        let mut problems = Vec::new();
        let mut with_counts = 0;
        for catalog in &catalogs {
            let mut words = count_words(catalog);
            let hand = listed(catalog.lang);
            words.plural.extend(hand.plural);
            words.modifiers.extend(hand.modifiers);
            assert!(
                words.plural.is_disjoint(&words.singular),
                "{}: words both singular and plural: {:?}",
                catalog.lang.code(),
                words
                    .plural
                    .intersection(&words.singular)
                    .collect::<Vec<_>>()
            );
            for (key, pattern) in &catalog.messages {
                let mut vars = BTreeMap::new();
                variables(pattern, &mut vars);
                let choices: Vec<(String, Vec<Arg>)> = vars
                    .into_iter()
                    .map(|(name, keys)| {
                        let values = if text_vars.contains(&name) {
                            let mut texts: Vec<Arg> = keys
                                .into_iter()
                                .filter(|k| !PLURAL_CATEGORIES.contains(&k.as_str()))
                                .map(Arg::Text)
                                .collect();
                            if texts.is_empty() {
                                texts.push(Arg::from("Black"));
                            }
                            texts
                        } else {
                            [0.0, 1.0, 2.0, 5.0, -1.0].map(Arg::Number).to_vec()
                        };
                        (name, values)
                    })
                    .collect();
                if choices.iter().all(|(name, _)| text_vars.contains(name)) {
                    continue;
                }
                with_counts += 1;
                let sizes: Vec<usize> = choices.iter().map(|(_, v)| v.len()).collect();
                for picks in assignments(&sizes) {
                    let args: Vec<(&str, Arg)> = choices
                        .iter()
                        .zip(&picks)
                        .map(|((name, values), &i)| (name.as_str(), values[i].clone()))
                        .collect();
                    let text = catalog.format(key, &args).expect("a message");
                    if let Some(bad) = count_mismatch(&text, &words) {
                        let shown: Vec<String> = args
                            .iter()
                            .map(|(name, value)| match value {
                                Arg::Text(t) => format!("{name}={t}"),
                                Arg::Number(n) => format!("{name}={n}"),
                            })
                            .collect();
                        problems.push(format!(
                            "{}: {key} ({}): {bad}",
                            catalog.lang.code(),
                            shown.join(", ")
                        ));
                        // One report per message is enough.
                        break;
                    }
                }
            }
        }
        assert!(
            with_counts > 40,
            "{with_counts} messages with counts checked"
        );
        assert!(
            problems.is_empty(),
            "{} messages put a count before the wrong form of its noun:\n{}",
            problems.len(),
            problems.join("\n")
        );
    }
}
