//! The installable, offline side of the site: the web app manifest, the
//! service worker (`/sw.js`, its text in `sw.js` beside this file) and the
//! app shells it keeps.
//!
//! The worker's precache list is this deploy's hashed static files (the app's
//! wasm and its chunks, the engine worker and its wasm, Three.js, the CSS,
//! the icons) and both language catalogs; its version is a hash of that list,
//! so a new deploy is a new worker with a new cache. The engine's trained
//! weights (hints only) are cached when first used, not up front.
//!
//! An app shell is the lobby, the offline page or the analysis board
//! rendered for an anonymous visitor in one language: `/?shell=en`,
//! `/offline?shell=el`, `/analysis?shell=en` (the board applies a link's
//! position once it runs, so its one shell serves every link). The
//! [`app_shell`] middleware drops the request's cookies (so nothing of the
//! visitor's session or account is in it) and any cookie the response would
//! set. No other page is ever cached.

use crate::AppState;
use app::assets::{shell_request, Assets};
use app::i18n::Lang;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

/// The service worker's source for this deploy's files.
pub fn worker_source(assets: &Assets) -> String {
    let mut precache: Vec<String> = assets
        .hashed()
        .into_iter()
        .filter(|path| !path.ends_with(".bin"))
        .collect();
    precache.extend(
        Lang::ALL
            .into_iter()
            .map(|l| app::i18n::catalog_path(l).to_string()),
    );
    let shells: serde_json::Map<String, serde_json::Value> = ["/", "/offline", "/analysis"]
        .into_iter()
        .flat_map(|page| {
            Lang::ALL.into_iter().map(move |lang| {
                (
                    format!("{page}?{}", lang.code()),
                    format!("{page}?shell={}", lang.code()).into(),
                )
            })
        })
        .collect();
    let precache_json = serde_json::to_string(&precache).unwrap_or_else(|_| "[]".into());
    let shells_json = serde_json::to_string(&shells).unwrap_or_else(|_| "{}".into());
    let digest = Sha256::digest(format!("{precache_json}{shells_json}").as_bytes());
    let version = crate::hex::hex(&digest[..8]);
    include_str!("sw.js")
        .replacen("__VERSION__", &format!("\"{version}\""), 1)
        .replacen("__PRECACHE__", &precache_json, 1)
        .replacen("__SHELLS__", &shells_json, 1)
}

/// `GET /sw.js`: the service worker. Never cached by HTTP, so a browser sees
/// a new deploy's worker on its next check.
pub async fn service_worker(State(state): State<AppState>) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/javascript; charset=utf-8"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        worker_source(&state.assets),
    )
        .into_response()
}

/// The web app manifest's JSON.
pub fn manifest_json(assets: &Assets) -> String {
    serde_json::json!({
        "name": "Othello 3D",
        "short_name": "Othello 3D",
        "description": "Othello on a 3D board: against the AI (also offline), with a friend, or online.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#dceefb",
        "theme_color": "#1e6fd9",
        "icons": [
            {"src": assets.url("/style/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": assets.url("/style/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": assets.url("/style/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"}
        ]
    })
    .to_string()
}

/// `GET /manifest.webmanifest`.
pub async fn web_manifest(State(state): State<AppState>) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/manifest+json"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        manifest_json(&state.assets),
    )
        .into_response()
}

/// Middleware on pages: an app-shell request (`?shell=<lang>` on `/`,
/// `/offline` or `/analysis`) is rendered with no cookie but the language's and sets none;
/// every page says its language in `Content-Language` (the service worker
/// remembers it to pick the shell when the network is gone).
pub async fn app_shell(mut request: Request, next: Next) -> Response {
    let shell = shell_request(request.uri().path(), request.uri().query());
    if let Some(lang) = shell {
        let headers = request.headers_mut();
        headers.remove(header::COOKIE);
        headers.remove(header::AUTHORIZATION);
        if let Ok(value) = HeaderValue::from_str(&format!("{}={}", app::i18n::COOKIE, lang.code()))
        {
            headers.insert(header::COOKIE, value);
        }
    }
    let lang = app::i18n::lang_of_headers(request.headers());
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    let is_html = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if is_html {
        headers.insert(
            header::CONTENT_LANGUAGE,
            HeaderValue::from_static(lang.code()),
        );
    }
    if shell.is_some() {
        headers.remove(header::SET_COOKIE);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_precaches_this_deploys_files_and_both_catalogs() {
        let assets = Assets::from_manifest(
            r#"{"/pkg/frontend.js": "/pkg/frontend.0123456789abcdef.js",
                "/pkg/eval.bin": "/pkg/eval.0123456789abcdef.bin",
                "/vendor/three/three.bundle.js": "/vendor/three/three.fedcba9876543210.js"}"#,
        )
        .unwrap();
        let source = worker_source(&assets);
        assert!(source.contains(r#""/pkg/frontend.0123456789abcdef.js""#));
        assert!(source.contains(r#""/vendor/three/three.fedcba9876543210.js""#));
        assert!(
            !source.contains("eval."),
            "the weights are cached when used"
        );
        for lang in Lang::ALL {
            assert!(source.contains(app::i18n::catalog_path(lang)));
            assert!(source.contains(&format!(
                r#""/offline?{0}":"/offline?shell={0}""#,
                lang.code()
            )));
        }
        assert!(!source.contains("__VERSION__") && !source.contains("__PRECACHE__"));
        // Another deploy (another file) is another version; the same is the same.
        let other =
            Assets::from_manifest(r#"{"/pkg/frontend.js": "/pkg/frontend.1111111111111111.js"}"#)
                .unwrap();
        let version = |s: &str| {
            s.lines()
                .find(|l| l.starts_with("const VERSION"))
                .map(str::to_string)
        };
        assert_ne!(version(&source), version(&worker_source(&other)));
        assert_eq!(version(&source), version(&worker_source(&assets)));
    }

    #[test]
    fn the_manifest_names_the_hashed_icons() {
        let assets = Assets::from_manifest(
            r#"{"/style/icon-192.png": "/style/icon-192.0123456789abcdef.png"}"#,
        )
        .unwrap();
        let manifest: serde_json::Value =
            serde_json::from_str(&manifest_json(&assets)).expect("JSON");
        assert_eq!(manifest["display"], "standalone");
        assert_eq!(manifest["start_url"], "/");
        assert_eq!(
            manifest["icons"][0]["src"],
            "/style/icon-192.0123456789abcdef.png"
        );
    }
}
