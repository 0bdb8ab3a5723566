//! Browser sessions: a random token in an HttpOnly, SameSite=Lax cookie
//! (Secure when the site is served over HTTPS). Unknown or forged tokens are
//! replaced by a fresh session, which holds no seats.

use crate::AppState;
use app::protocol::{Session, SESSION_COOKIE};
use axum::extract::{Request, State};
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The session token in a `Cookie` header, if well-formed.
pub fn token_from_headers(headers: &axum::http::HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value.to_string())
        .filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Middleware: attaches the caller's [`Session`], creating one when needed.
pub async fn layer(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let known = token_from_headers(request.headers()).filter(|t| state.hub.session_known(t));
    let (session, fresh) = match known {
        Some(token) => (Session(token), false),
        None => match state.hub.new_session().await {
            Ok(session) => (session, true),
            Err(error) => {
                tracing::error!("cannot create a session: {error}");
                return (
                    axum::http::StatusCode::SERVICE_UNAVAILABLE,
                    "The server cannot create a session right now.",
                )
                    .into_response();
            }
        },
    };
    request.extensions_mut().insert(session.clone());
    let mut response = next.run(request).await;
    if fresh {
        let secure = if state.secure_cookies { "; Secure" } else { "" };
        let cookie = format!(
            "{SESSION_COOKIE}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000{secure}",
            session.0
        );
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(SET_COOKIE, value);
        }
    }
    response
}
