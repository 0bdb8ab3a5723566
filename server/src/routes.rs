//! The HTTP surface: Leptos pages and server functions, static files (the wasm
//! package, vendored Three.js, CSS), and health.

use crate::AppState;
use app::api::backend::BackendHandle;
use app::{shell, App};
use axum::extract::Path;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{middleware, Json, Router};
use leptos::prelude::provide_context;
use leptos_axum::{generate_route_list, LeptosRoutes};
use std::sync::Arc;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

/// The whole application router.
pub fn router(state: AppState) -> Router {
    let routes = generate_route_list(App);
    let site = std::path::PathBuf::from(state.leptos.site_root.as_ref());
    let leptos_options = state.leptos.clone();
    let static_files = Router::new()
        .nest_service(
            "/pkg",
            ServeDir::new(site.join("pkg"))
                .precompressed_br()
                .precompressed_gzip(),
        )
        .nest_service(
            "/vendor",
            ServeDir::new(site.join("vendor"))
                .precompressed_br()
                .precompressed_gzip(),
        )
        .nest_service(
            "/style",
            ServeDir::new(site.join("style"))
                .precompressed_br()
                .precompressed_gzip(),
        )
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            header::HeaderValue::from_static("public, max-age=300"),
        ));
    let backend = BackendHandle(Arc::new(state.hub.clone()));
    let lab_backend = app::lab::backend::LabBackendHandle(Arc::new(state.lab.clone()));
    let analysis_backend =
        app::api::analysis_backend::AnalysisBackendHandle(Arc::new(state.analysis.clone()));
    let with_session = Router::new()
        .leptos_routes_with_context(
            &state,
            routes,
            move || {
                provide_context(backend.clone());
                provide_context(lab_backend.clone());
                provide_context(analysis_backend.clone());
            },
            move || shell(leptos_options.clone()),
        )
        .route("/ws/table/{id}", get(crate::ws::table_socket))
        .route("/ws/queue", get(crate::ws::queue_socket))
        .route("/table/{id}/export.txt", get(export_text))
        .route("/table/{id}/export.ggf", get(export_ggf))
        .route("/lab/{id}/export.txt", get(lab_export_text))
        .route("/lab/{id}/export.json", get(lab_export_json))
        .fallback(leptos_axum::file_and_error_handler::<AppState, _>(shell))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            crate::session::layer,
        ));
    Router::new()
        .route("/healthz", get(health))
        .route("/readyz", get(ready))
        .route("/metrics", get(metrics))
        .merge(with_session)
        .merge(static_files)
        .layer(CompressionLayer::new())
        .with_state(state)
}

async fn health(State(state): State<AppState>) -> impl IntoResponse {
    let explainer = state.lab.provider_status();
    Json(serde_json::json!({
        "status": "ok",
        "uptime_seconds": state.started.elapsed().as_secs(),
        "version": env!("CARGO_PKG_VERSION"),
        // Which lab explainer is in use and why (never a credential).
        "explainer": {"kind": explainer.kind, "name": explainer.name, "ready": explainer.ready, "detail": explainer.detail},
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

async fn export_text(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> axum::response::Response {
    match state.hub.export(&id).await {
        Ok(mut text) => {
            // Per-move loss, once the game has been analysed.
            if let Some(section) = state.analysis.export_section("table", &id).await {
                text.push('\n');
                text.push_str(&section);
            }
            attachment(
                format!("othello-{id}.txt"),
                "text/plain; charset=utf-8",
                text,
            )
        }
        Err(error) => (StatusCode::NOT_FOUND, error.message).into_response(),
    }
}

async fn export_ggf(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> axum::response::Response {
    match state.hub.export_ggf(&id).await {
        Ok(text) => attachment(
            format!("othello-{id}.ggf"),
            "text/plain; charset=utf-8",
            text,
        ),
        Err(error) => (StatusCode::NOT_FOUND, error.message).into_response(),
    }
}

async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    let mut body = state
        .hub
        .metrics()
        .render(state.hub.live_tables(), state.hub.queue_len());
    body.push_str(&state.hub.store().commit_stats().render());
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        body,
    )
}

fn attachment(name: String, content_type: &'static str, body: String) -> axum::response::Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        body,
    )
        .into_response()
}

async fn lab_export_text(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> axum::response::Response {
    match state.lab.export_text(&id).await {
        Ok(mut text) => {
            if let Some(section) = state.analysis.export_section("lab", &id).await {
                text.push('\n');
                text.push_str(&section);
            }
            attachment(
                format!("othello-lab-{id}.txt"),
                "text/plain; charset=utf-8",
                text,
            )
        }
        Err(error) => (StatusCode::NOT_FOUND, error.message).into_response(),
    }
}

async fn lab_export_json(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> axum::response::Response {
    match state.lab.export_json(&id).await {
        Ok(mut value) => {
            if let Some(analysis) = state.analysis.stored_of("lab", &id).await {
                value["analysis"] = serde_json::to_value(analysis).unwrap_or_default();
            }
            attachment(
                format!("othello-lab-{id}.json"),
                "application/json",
                serde_json::to_string_pretty(&value).unwrap_or_default(),
            )
        }
        Err(error) => (StatusCode::NOT_FOUND, error.message).into_response(),
    }
}
