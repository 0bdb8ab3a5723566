//! Othello 3D's Leptos application: the HTML shell, the routes and pages, the
//! board component that hosts the 3D island, and the wire protocol shared by the
//! server and the browser.

// First, so that its `t!` macro is in scope in every module below.
#[macro_use]
pub mod i18n;
pub mod api;
pub mod board;
pub mod lab;
#[cfg(feature = "hydrate")]
mod live;
pub mod openings;
pub mod pages;
pub mod protocol;
pub mod worker;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Title};
use leptos_router::{
    components::{Route, Router, Routes},
    path,
};

/// The import map that resolves `three` to the bundle the server ships under
/// `/vendor/three/` (nothing is fetched from a CDN): one minified, tree-shaken
/// module with the Three.js classes the island binds plus OrbitControls (built
/// by `cargo xtask site`). `three/webgpu` maps to the same module.
pub const IMPORT_MAP: &str = r#"{"imports":{"three":"/vendor/three/three.bundle.js","three/webgpu":"/vendor/three/three.bundle.js"}}"#;

/// The HTML document around the app, rendered on the server.
/// The page is in the request's language (see [`i18n`]).
pub fn shell(options: LeptosOptions) -> impl IntoView {
    #[cfg(feature = "ssr")]
    let lang = i18n::request_lang();
    #[cfg(not(feature = "ssr"))]
    let lang = i18n::Lang::default();
    provide_context(lang);
    view! {
        <!DOCTYPE html>
        <html lang=lang.code()>
            <head>
                <meta charset="utf-8" />
                <meta name="viewport" content="width=device-width, initial-scale=1" />
                <meta name="color-scheme" content="light" />
                // The request's CSP nonce (server side; see server/src/guard.rs).
                <script type="importmap" nonce=leptos::nonce::use_nonce() inner_html=IMPORT_MAP></script>
                <link rel="stylesheet" href="/style/main.css" />
                <link rel="stylesheet" href="/style/board.css" />
                <link rel="stylesheet" href="/style/lab.css" />
                <link rel="icon" href="data:," />
                <HydrationScripts options />
                <MetaTags />
            </head>
            <body>
                <App />
            </body>
        </html>
    }
}

/// The application: a router over the site's pages.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    let lang = i18n::use_lang();
    view! {
        <Title text=t!(lang, "site-title") />
        <Router>
            <Routes fallback=|| view! { <pages::NotFound /> }>
                <Route path=path!("/") view=pages::lobby::LobbyPage />
                <Route path=path!("/table/:id") view=pages::table::TablePage />
                <Route path=path!("/lab") view=pages::lab::LabHomePage />
                <Route path=path!("/lab/:id") view=pages::lab::LabPage />
                <Route path=path!("/offline") view=pages::offline::OfflinePage />
            </Routes>
        </Router>
    }
}

/// The browser entry point, called by the `frontend` crate once the wasm module
/// is loaded. `scene` is the 3D island's constructor, injected so that this crate
/// stays free of Three.js bindings.
#[cfg(feature = "hydrate")]
pub fn hydrate(scene: board::SceneFactory) {
    let lang = i18n::document_lang();
    leptos::mount::hydrate_body(move || {
        provide_context(scene);
        provide_context(lang);
        view! { <App /> }
    });
}
