//! The site menu on every page: Play, Puzzles, Tournaments, Analysis board,
//! Players, the AI lab and the account, as plain links the server writes
//! after the app's root (the shell's body: [`crate::shell`]). Nothing of it
//! is in the browser's wasm and hydration never walks it (hydration starts
//! at the body's first child, the app's own markup), so it costs the lobby
//! no byte of code. Wide screens show the links in a bar; on a phone they
//! fold into a "Menu" button (a `<details>`, which needs no script). Its
//! place at the top of the page is the stylesheet's (`.site-menu`). Its
//! links load their page (`rel="external"`: the router leaves them alone),
//! so the menu is always the page's own and marks where the reader is.

use crate::i18n::Lang;
use leptos::prelude::*;

/// The sections, in the menu's order (the account comes last, by itself):
/// each entry's id (`menu-puzzles`) and where it goes.
const SECTIONS: [(&str, &str); 7] = [
    ("play", "/"),
    ("puzzles", "/puzzles"),
    ("tournaments", "/tournaments"),
    ("analysis", "/analysis"),
    ("players", "/players"),
    ("bots", "/bots"),
    ("lab", "/lab"),
];

/// A section's name in the menu.
fn section_text(lang: Lang, id: &str) -> String {
    match id {
        "play" => t!(lang, "menu-play"),
        "puzzles" => t!(lang, "menu-puzzles"),
        "tournaments" => t!(lang, "menu-tournaments"),
        "analysis" => t!(lang, "menu-analysis"),
        "players" => t!(lang, "menu-players"),
        "bots" => t!(lang, "menu-bots"),
        _ => t!(lang, "menu-lab"),
    }
}

/// The section a path belongs to (`/tournaments/abc` → the tournaments'
/// entry; a table is played from the lobby's "Play"), for `aria-current`.
fn current(path: &str) -> Option<&'static str> {
    let first = path.trim_start_matches('/').split('/').next().unwrap_or("");
    Some(match first {
        "" | "table" | "offline" => "play",
        "puzzles" => "puzzles",
        "tournaments" => "tournaments",
        "analysis" => "analysis",
        "players" | "@" => "players",
        "bots" => "bots",
        "lab" => "lab",
        "account" => "account",
        _ => return None,
    })
}

/// The links, once for the wide bar and once for the phone's list: `place`
/// tells their ids apart (`menu-puzzles` / `menu-phone-puzzles`).
fn links(
    lang: Lang,
    path: &str,
    account: Option<&str>,
    place: &'static str,
) -> impl IntoView + use<> {
    let here = current(path);
    let id = move |entry: &str| format!("menu{place}-{entry}");
    let link = move |href: &'static str, entry: &'static str, text: String| {
        let aria = (here == Some(entry)).then_some("page");
        // A page load, not the router's: the menu (the server's, outside
        // the app) then always marks the page it is on.
        view! { <li><a href=href id=id(entry) aria-current=aria rel="external">{text}</a></li> }
    };
    let sections = SECTIONS
        .iter()
        .map(|&(entry, href)| link(href, entry, section_text(lang, entry)))
        .collect_view();
    let account = match account {
        Some(name) => link("/account", "account", name.to_string()),
        None => link("/account", "account", t!(lang, "menu-sign-in")),
    };
    // Player search from any page: a plain form to /players?q= (the
    // page's own search reads it), so it needs no script either.
    let search = view! {
        <li class="site-menu-search">
            <form method="get" action="/players" role="search">
                <input id=id("search") name="q" type="search" minlength="2" maxlength="20"
                    autocomplete="off" placeholder=t!(lang, "menu-search")
                    aria-label=t!(lang, "menu-search") />
            </form>
        </li>
    };
    view! { <ul>{sections}{search}{account}</ul> }
}

/// The menu for the request being rendered.
pub fn site_menu(lang: Lang) -> impl IntoView {
    let path = use_context::<http::request::Parts>()
        .map(|parts| parts.uri.path().to_string())
        .unwrap_or_default();
    let account = crate::accounts::signed_in();
    let label = t!(lang, "menu-label");
    view! {
        <nav class="site-menu" id="site-menu" aria-label=label>
            <div class="site-menu-wide">{links(lang, &path, account.as_deref(), "")}</div>
            <details class="site-menu-phone">
                <summary id="menu-button">{t!(lang, "menu-button")}</summary>
                {links(lang, &path, account.as_deref(), "-phone")}
            </details>
        </nav>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_names_its_section() {
        assert_eq!(current("/"), Some("play"));
        assert_eq!(current("/table/abc"), Some("play"));
        assert_eq!(current("/tournaments/x1"), Some("tournaments"));
        assert_eq!(current("/@/ann"), Some("players"));
        assert_eq!(current("/puzzles/12"), Some("puzzles"));
        assert_eq!(current("/account"), Some("account"));
        assert_eq!(current("/bots"), Some("bots"));
        assert_eq!(current("/game/9"), None);
    }
}
