//! Othello 3D's Leptos application: the HTML shell, the routes and pages, the
//! board component that hosts the 3D island, and the wire protocol shared by the
//! server and the browser.

// First, so that its `t!` macro is in scope in every module below.
#[macro_use]
pub mod i18n;
pub mod accounts;
pub mod api;
pub mod archive;
pub mod assets;
pub mod board;
pub mod bots;
pub mod challenges;
pub mod ids;
pub mod lab;
#[cfg(feature = "hydrate")]
mod live;
// The site menu: server-rendered only (see its module).
#[cfg(feature = "ssr")]
pub mod menu;
pub mod openings;
pub mod pages;
pub mod protocol;
pub mod puzzles;
pub mod ratings;
pub mod takeover;
pub mod tournaments;
pub mod voice;
pub mod worker;

use leptos::prelude::*;
use leptos_meta::MetaTags;
use leptos_router::{
    components::{Route, Router, Routes},
    lazy_route, path, Lazy, LazyRoute,
};

/// The HTML document around the app, rendered on the server, in the request's
/// language (see [`i18n`]). Static files are named by their content-hashed names
/// from the [`assets::Assets`] in context (the server provides it; see
/// `assets.rs`). The import map resolves `three` to the bundle the server ships
/// under `/vendor/three/` (nothing is fetched from a CDN): one minified,
/// tree-shaken module with the Three.js classes the island binds plus
/// OrbitControls (built by `cargo xtask site`).
pub fn shell(options: LeptosOptions) -> impl IntoView {
    #[cfg(feature = "ssr")]
    let lang = i18n::request_lang();
    #[cfg(not(feature = "ssr"))]
    let lang = i18n::Lang::default();
    provide_context(lang);
    let assets = use_context::<assets::Assets>().unwrap_or_default();
    // An app shell (see `assets::SHELL_META`); only the server renders one.
    #[cfg(feature = "ssr")]
    let is_shell = use_context::<http::request::Parts>()
        .is_some_and(|parts| assets::shell_request(parts.uri.path(), parts.uri.query()).is_some());
    #[cfg(not(feature = "ssr"))]
    let is_shell = false;
    // Leptos' `HydrationScripts` is not rendered (the page starts itself, see
    // `Assets::boot_script`), but calling it provides the wasm-split manifest
    // from which a lazy route's page names its chunks for preloading.
    let _ = HydrationScripts(HydrationScriptsProps::builder().options(options).build());
    // The page's messages, fetched by the browser before it hydrates.
    #[cfg(not(feature = "hydrate"))]
    let catalog = i18n::catalog_path(lang);
    #[cfg(feature = "hydrate")]
    let catalog = "";
    view! {
        <!DOCTYPE html>
        <html lang=lang.code()>
            <head>
                <meta charset="utf-8" />
                <meta name="viewport" content="width=device-width, initial-scale=1" />
                <meta name="color-scheme" content="light" />
                // The request's CSP nonce (server side; see server/src/guard.rs).
                <script type="importmap" nonce=leptos::nonce::use_nonce() inner_html=assets.import_map()></script>
                // The page's messages, which hydration waits for: asked first.
                <meta name=i18n::CATALOG_META content=catalog />
                <link rel="preload" href=catalog r#as="fetch" crossorigin="anonymous" />
                // The app's code: its modules preloaded together, and started
                // by a classic script ahead of the stylesheets (see
                // `Assets::boot_script`) instead of Leptos' `HydrationScripts`.
                {assets
                    .entry_imports()
                    .into_iter()
                    .map(|href| view! { <link rel="modulepreload" href=href /> })
                    .collect_view()}
                <script nonce=leptos::nonce::use_nonce() inner_html=assets.boot_script()></script>
                <link rel="stylesheet" href=assets.url("/style/main.css") />
                <link rel="stylesheet" href=assets.url("/style/board.css") />
                <link rel="stylesheet" href=assets.url("/style/lab.css") />
                <meta name=assets::WORKER_META content=assets.url(worker::WORKER_URL) />
                <meta name=assets::WEIGHTS_META content=assets.url(worker::WEIGHTS_URL) />
                <meta name=assets::PUZZLES_META content=assets.url(worker::PUZZLES_URL) />
                <meta name=accounts::ACCOUNT_META content=accounts::signed_in().unwrap_or_default() />
                <link rel="icon" type="image/png" href=assets.url("/style/icon-192.png") />
                <link rel="manifest" href="/manifest.webmanifest" />
                <meta name="theme-color" content="#1e6fd9" />
                {is_shell.then(|| view! { <meta name=assets::SHELL_META content="1" /> })}
                // The words of the boot script's "a new version is ready" banner.
                <meta name="othello-update-text" content=t!(lang, "update-ready") />
                <meta name="othello-update-button" content=t!(lang, "update-reload") />
                // The words of its "this page stopped" notice: shown when the
                // app's wasm traps (a panic aborts it, e.g. a lazy route whose
                // code could not be fetched), with a button that reloads.
                <meta name="othello-crash-text" content=t!(lang, "crash-text") />
                <meta name="othello-crash-button" content=t!(lang, "crash-reload") />
                {preview_tags(lang)}
                <MetaTags />
            </head>
            <body>
                <App />
                {site_menu(lang)}
            </body>
        </html>
    }
}

/// A page's title, in the tab and in a link preview: the site's name on the
/// lobby and on pages without one of their own, else "Puzzles · Othello 3D".
/// The server writes it into the page's head; the browser sets it again on
/// every navigation ([`TabTitle`]), and a table page while its player is to
/// move ("Your move (Black) · Othello 3D", `pages::table::state::tab_title`).
pub fn page_title(lang: i18n::Lang, path: &str) -> String {
    let page = match section(path) {
        "table" => t!(lang, "preview-table-title"),
        "puzzles" => t!(lang, "puzzles-title"),
        "tournaments" => t!(lang, "tournaments-title"),
        "analysis" => t!(lang, "analysis-board-title"),
        "lab" => t!(lang, "lobby-lab-title"),
        "account" => t!(lang, "account-title"),
        "players" => t!(lang, "players-leaderboard"),
        _ => return t!(lang, "site-title"),
    };
    t!(lang, "page-title", page = page)
}

/// A path's first segment (`/tournaments/abc` → `tournaments`): the page it is.
fn section(path: &str) -> &str {
    path.trim_start_matches('/').split('/').next().unwrap_or("")
}

/// Sets the tab's title to the page's ([`page_title`]) on every navigation
/// in the browser (the server's page already has it).
#[component]
fn TabTitle() -> impl IntoView {
    #[cfg(feature = "hydrate")]
    {
        let lang = i18n::use_lang();
        let location = leptos_router::hooks::use_location();
        Effect::new(move |_| {
            let title = page_title(lang, &location.pathname.get());
            if document().title() != title {
                document().set_title(&title);
            }
        });
    }
}

/// `text` with `&`, `<` and `>` written as entities (a title's markup).
#[cfg(feature = "ssr")]
fn html_escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// What a link preview shows for the requested page (its description and
/// Open Graph title and text; a chat app unfurling a private table's link
/// shows "A game of Othello"), in the page's language. Server-side only: the
/// page's path is the request's, and the browser's wasm has none of it.
#[cfg(feature = "ssr")]
fn preview_tags(lang: i18n::Lang) -> impl IntoView {
    let path = use_context::<http::request::Parts>()
        .map(|parts| parts.uri.path().to_string())
        .unwrap_or_default();
    let text = match section(path.as_str()) {
        "table" => t!(lang, "preview-table"),
        "puzzles" => t!(lang, "preview-puzzles"),
        "tournaments" => t!(lang, "preview-tournaments"),
        "analysis" => t!(lang, "preview-analysis"),
        "lab" => t!(lang, "lab-intro"),
        _ => t!(lang, "preview-site"),
    };
    let title = page_title(lang, &path);
    use leptos::prelude::CustomAttribute;
    let og = |property: &'static str, content: String| {
        leptos::html::meta()
            .attr("property", property)
            .attr("content", content)
    };
    view! {
        // As markup, not a text child: Leptos marks a text child with `<!>`,
        // which a title (raw text to the browser) would show.
        <title inner_html=html_escaped(&title)></title>
        <meta name="description" content=text.clone() />
        {og("og:site_name", t!(lang, "site-title"))}
        {og("og:type", "website".to_string())}
        {og("og:title", title)}
        {og("og:description", text)}
        <meta name="twitter:card" content="summary" />
    }
}

#[cfg(not(feature = "ssr"))]
fn preview_tags(_lang: i18n::Lang) -> impl IntoView {}

/// The site menu, after the app's root: the server writes it, the browser
/// leaves it as written (see `menu`).
#[cfg(feature = "ssr")]
fn site_menu(lang: i18n::Lang) -> impl IntoView {
    menu::site_menu(lang)
}

#[cfg(not(feature = "ssr"))]
fn site_menu(_lang: i18n::Lang) -> impl IntoView {}

/// The application: a router over the site's pages.
#[component]
pub fn App() -> impl IntoView {
    // The head's tags are the server's (the shell's `MetaTags`); nothing in
    // the browser registers any, so its wasm carries none of leptos_meta.
    #[cfg(feature = "ssr")]
    leptos_meta::provide_meta_context();
    // A practice's positions take the page's main board over (takeover.rs).
    provide_context(takeover::BoardTakeover(RwSignal::new(None)));
    view! {
        <Router>
            <TabTitle />
            <Routes fallback=|| view! { <pages::NotFound /> }>
                <Route path=path!("/") view=pages::lobby::LobbyPage />
                <Route path=path!("/table/:id") view={Lazy::<TableRoute>::new()} />
                <Route path=path!("/lab") view={Lazy::<LabHomeRoute>::new()} />
                <Route path=path!("/analysis") view={Lazy::<TableRoute>::new()} />
                <Route path=path!("/lab/:id") view={Lazy::<LabRoute>::new()} />
                <Route path=path!("/offline") view={Lazy::<OfflineRoute>::new()} />
                <Route path=path!("/account") view={Lazy::<AccountRoute>::new()} />
                <Route path=path!("/game/:id") view={Lazy::<GameRoute>::new()} />
                <Route path=path!("/@/:name") view={Lazy::<ProfileRoute>::new()} />
                <Route path=path!("/players") view={Lazy::<PlayersRoute>::new()} />
                <Route path=path!("/bots") view={Lazy::<BotsRoute>::new()} />
                <Route path=path!("/puzzles/:id?") view={Lazy::<PuzzlesRoute>::new()} />
                <Route path=path!("/tournaments/:id?") view={Lazy::<TournamentsRoute>::new()} />
            </Routes>
        </Router>
    }
}

// Every page but the lobby is a lazy route: `cargo xtask site` splits the app's
// wasm at these points (wasm-split), so the lobby's wasm holds no table, lab,
// analysis or offline code; a page's chunk is fetched when it is first shown
// (the server names it in a `modulepreload` when it renders that page).

/// `/table/:id` and the analysis board, `/analysis`, loaded on demand: one
/// lazy route, the page chosen by the path. The analysis board uses what
/// the table's chunk has (the engine's rules, the Hint's values, the
/// worker); in the lab home's chunk that code became shared between chunks,
/// which cost the lobby ~1.5 KB (here ~1.2 KB; docs/BENCHMARKS.md).
#[derive(Debug)]
pub struct TableRoute;

#[lazy_route]
impl LazyRoute for TableRoute {
    fn data() -> Self {
        TableRoute
    }
    fn view(_this: Self) -> AnyView {
        let path = leptos_router::hooks::use_location()
            .pathname
            .get_untracked();
        if path.starts_with(pages::analysis_board::state::PATH) {
            view! { <pages::analysis_board::AnalysisBoardPage /> }.into_any()
        } else {
            view! { <pages::table::TablePage /> }.into_any()
        }
    }
}

/// `/lab`, loaded on demand.
#[derive(Debug)]
pub struct LabHomeRoute;

#[lazy_route]
impl LazyRoute for LabHomeRoute {
    fn data() -> Self {
        LabHomeRoute
    }
    fn view(_this: Self) -> AnyView {
        view! { <pages::lab::LabHomePage /> }.into_any()
    }
}

/// `/lab/:id`, loaded on demand.
#[derive(Debug)]
pub struct LabRoute;

#[lazy_route]
impl LazyRoute for LabRoute {
    fn data() -> Self {
        LabRoute
    }
    fn view(_this: Self) -> AnyView {
        view! { <pages::lab::LabPage /> }.into_any()
    }
}

/// `/offline`, loaded on demand.
#[derive(Debug)]
pub struct OfflineRoute;

#[lazy_route]
impl LazyRoute for OfflineRoute {
    fn data() -> Self {
        OfflineRoute
    }
    fn view(_this: Self) -> AnyView {
        view! { <pages::offline::OfflinePage /> }.into_any()
    }
}

#[derive(Debug)]
pub struct AccountRoute;

#[lazy_route]
impl LazyRoute for AccountRoute {
    fn data() -> Self {
        AccountRoute
    }
    fn view(_this: Self) -> AnyView {
        view! { <pages::account::AccountPage /> }.into_any()
    }
}

#[derive(Debug)]
pub struct GameRoute;

#[lazy_route]
impl LazyRoute for GameRoute {
    fn data() -> Self {
        GameRoute
    }
    fn view(_this: Self) -> AnyView {
        view! { <pages::game::GamePage /> }.into_any()
    }
}

#[derive(Debug)]
pub struct ProfileRoute;

#[lazy_route]
impl LazyRoute for ProfileRoute {
    fn data() -> Self {
        ProfileRoute
    }
    fn view(_this: Self) -> AnyView {
        view! { <pages::profile::ProfilePage /> }.into_any()
    }
}

#[derive(Debug)]
pub struct PlayersRoute;

#[lazy_route]
impl LazyRoute for PlayersRoute {
    fn data() -> Self {
        PlayersRoute
    }
    fn view(_this: Self) -> AnyView {
        view! { <pages::players::LeaderboardPage /> }.into_any()
    }
}

/// `/bots`, loaded on demand.
#[derive(Debug)]
pub struct BotsRoute;

#[lazy_route]
impl LazyRoute for BotsRoute {
    fn data() -> Self {
        BotsRoute
    }
    fn view(_this: Self) -> AnyView {
        view! { <pages::bots::BotsPage /> }.into_any()
    }
}

/// `/puzzles`, loaded on demand.
#[derive(Debug)]
pub struct PuzzlesRoute;

#[lazy_route]
impl LazyRoute for PuzzlesRoute {
    fn data() -> Self {
        PuzzlesRoute
    }
    fn view(_this: Self) -> AnyView {
        view! { <pages::puzzles::PuzzlesPage /> }.into_any()
    }
}

/// `/tournaments` and `/tournaments/:id`, loaded on demand: one route (each
/// route costs the lobby's module bytes), the page chosen by the id.
#[derive(Debug)]
pub struct TournamentsRoute;

#[lazy_route]
impl LazyRoute for TournamentsRoute {
    fn data() -> Self {
        TournamentsRoute
    }
    fn view(_this: Self) -> AnyView {
        view! { <pages::tournaments::TournamentsOrOne /> }.into_any()
    }
}

/// The browser entry point, called by the `frontend` crate once the wasm module
/// is loaded. `scene` is the 3D island's constructor, injected so that this crate
/// stays free of Three.js bindings. Hydration is asynchronous (a lazy route's
/// chunk may have to load first); `hydrated` runs when the page is interactive.
#[cfg(feature = "hydrate")]
pub fn hydrate(scene: board::SceneFactory, hydrated: fn()) {
    let lang = i18n::document_lang();
    // `hydrate_from_async` starts Leptos' executor itself; until then, the
    // browser's microtask queue (wasm-bindgen-futures) drives this task.
    wasm_bindgen_futures::spawn_local(async move {
        // The page's messages first: the views below are written with them.
        if let Err(e) = i18n::load_catalog().await {
            leptos::logging::error!("the page's messages could not be loaded: {e}");
        }
        let body = leptos::prelude::document()
            .body()
            .expect("the page has a body");
        let owner = leptos::mount::hydrate_from_async(body, move || {
            provide_context(scene);
            provide_context(lang);
            view! { <App /> }
        })
        .await;
        owner.forget();
        hydrated();
        // A signed-in player's challenges: a chunk of its own, mounted in a
        // root of its own once the page is hydrated (earlier, during a lazy
        // route's hydration, a new view would be hydrated against server
        // HTML that does not have it).
        if accounts::signed_in().is_some() {
            let _ = pages::challenges::mount_notifier(lang).await;
        }
    });
}
