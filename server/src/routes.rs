//! The HTTP surface: Leptos pages and server functions, static files (the wasm
//! package, vendored Three.js, CSS), and health.

use crate::AppState;
use app::{shell, App};
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use leptos_axum::{generate_route_list, LeptosRoutes};
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

/// The whole application router.
pub fn router(state: AppState) -> Router {
    let routes = generate_route_list(App);
    let site = std::path::PathBuf::from(state.leptos.site_root.as_ref());
    let leptos_options = state.leptos.clone();
    let static_files = Router::new()
        .nest_service("/pkg", ServeDir::new(site.join("pkg")).precompressed_gzip())
        .nest_service("/vendor", ServeDir::new(site.join("vendor")).precompressed_gzip())
        .nest_service("/style", ServeDir::new(site.join("style")).precompressed_gzip())
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            header::HeaderValue::from_static("public, max-age=300"),
        ));
    Router::new()
        .route("/healthz", get(health))
        .route("/readyz", get(ready))
        .leptos_routes(&state, routes, move || shell(leptos_options.clone()))
        .fallback(leptos_axum::file_and_error_handler::<AppState, _>(shell))
        .merge(static_files)
        .layer(CompressionLayer::new())
        .with_state(state)
}

async fn health(State(state): State<AppState>) -> impl IntoResponse {
    Json(serde_json::json!({
        "status": "ok",
        "uptime_seconds": state.started.elapsed().as_secs(),
        "version": env!("CARGO_PKG_VERSION"),
    }))
}

async fn ready(State(state): State<AppState>) -> impl IntoResponse {
    if state.store.ping().await {
        (StatusCode::OK, Json(serde_json::json!({"status": "ready"})))
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(serde_json::json!({"status": "database unavailable"})),
        )
    }
}
