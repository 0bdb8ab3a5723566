//! Browser sessions: a random token in an HttpOnly, SameSite=Lax cookie
//! (Secure when the site is served over HTTPS).
//!
//! The server never keeps the token itself: a session is known by the SHA-256
//! of its token ([`Session`] holds that hash), so a leaked database hands out no
//! cookies. A visitor gets a cookie on the first request but is stored only
//! when the session first owns something (a table, a seat, a lab game); stored
//! sessions unused for `--session-expiry-secs` are deleted by the sweeper.
//! A token signed in to an account stands for that account (see
//! [`crate::accounts`]): the request then carries the account's identity.
//! A well-formed token the server has never seen is simply a new session (it
//! owns nothing); guessing another visitor's 256-bit token is not feasible.

use crate::AppState;
use app::protocol::{Session, SESSION_COOKIE};
use axum::extract::{Request, State};
use axum::http::header::{CONTENT_TYPE, SET_COOKIE};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use sha2::{Digest, Sha256};

/// The session token in a `Cookie` header, if well-formed (under the plain
/// name; see [`secure_token_from_headers`] for an HTTPS site).
pub fn token_from_headers(headers: &axum::http::HeaderMap) -> Option<String> {
    cookie_token(headers, SESSION_COOKIE)
}

/// A cookie's name on a site served over HTTPS (`secure`): with the
/// `__Host-` prefix, which browsers accept only from a secure origin, for
/// the whole host (`Path=/`, no `Domain`), so no sibling subdomain or
/// plain-HTTP page can set or shadow it.
pub fn cookie_name(name: &str, secure: bool) -> String {
    if secure {
        format!("__Host-{name}")
    } else {
        name.to_string()
    }
}

/// The session token under the name this site uses.
pub fn secure_token_from_headers(headers: &axum::http::HeaderMap, secure: bool) -> Option<String> {
    cookie_token(headers, &cookie_name(SESSION_COOKIE, secure))
}

/// A well-formed token (64 hex digits) in the cookie `name`.
fn cookie_token(headers: &axum::http::HeaderMap, name: &str) -> Option<String> {
    CookieJar::from_headers(headers)
        .get(name)
        .map(|cookie| cookie.value().to_ascii_lowercase())
        .filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The request's [`Caller`](app::api::backend::Caller) — session, address
/// key, browser and device — as the middleware put them in the request.
pub struct CallerOf(pub app::api::backend::Caller);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for CallerOf {
    type Rejection = crate::error::ErrorResponse;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<Self, Self::Rejection> {
        app::api::backend::Caller::of_extensions(&parts.extensions)
            .map(CallerOf)
            .ok_or_else(|| {
                crate::error::ErrorResponse(app::api::CommandError::internal(
                    "a request reached a handler without a session",
                ))
            })
    }
}

/// How long a device cookie lives (400 days, the most browsers keep).
const DEVICE_MAX_AGE_SECS: i64 = 400 * 86_400;

/// The `Set-Cookie` value that hands out a device token.
pub fn device_cookie(token: &str, secure: bool) -> String {
    Cookie::build((
        cookie_name(app::protocol::DEVICE_COOKIE, secure),
        token.to_string(),
    ))
    .path("/")
    .http_only(true)
    .same_site(SameSite::Lax)
    .max_age(cookie::time::Duration::seconds(DEVICE_MAX_AGE_SECS))
    .secure(secure)
    .build()
    .to_string()
}

/// The `Set-Cookie` value that hands out (or renews) a session token.
pub fn session_cookie(token: String, max_age_secs: u64, secure: bool) -> String {
    let max_age = i64::try_from(max_age_secs).unwrap_or(i64::MAX);
    Cookie::build((cookie_name(SESSION_COOKIE, secure), token))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .max_age(cookie::time::Duration::seconds(max_age))
        .secure(secure)
        .build()
        .to_string()
}

/// The session a token stands for: the hex SHA-256 of the token.
pub fn session_of(token: &str) -> Session {
    let digest = Sha256::digest(token.as_bytes());
    Session::new(crate::hex::hex(&digest))
}

/// A new random token (256 bits, hex).
pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::random();
    crate::hex::hex(&bytes)
}

/// Middleware: attaches the caller's [`Session`]. A new visitor gets a fresh
/// token in a cookie; page loads renew the cookie's lifetime.
pub async fn layer(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let (token, fresh) = match secure_token_from_headers(request.headers(), state.secure_cookies) {
        Some(token) => (token, false),
        None => (new_token(), true),
    };
    let browser = session_of(&token);
    let (session, account) = if fresh {
        (browser.clone(), None)
    } else {
        state.accounts.identity(browser.as_str()).await
    };
    let device_name = cookie_name(app::protocol::DEVICE_COOKIE, state.secure_cookies);
    let (device, fresh_device) = match cookie_token(request.headers(), &device_name) {
        Some(device) => (device, false),
        None => (new_token(), true),
    };
    let device_hash = session_of(&device).into_string();
    let signed_in = account.is_some();
    request.extensions_mut().insert(session);
    if let Some(account) = account {
        request.extensions_mut().insert(account);
    }
    request
        .extensions_mut()
        .insert(app::protocol::BrowserToken(browser.into_string()));
    request
        .extensions_mut()
        .insert(app::protocol::DeviceToken(device_hash));
    if signed_in {
        // Where a signed-in account is seen (hourly at most per link).
        if let Some(caller) = app::api::backend::Caller::of_extensions(request.extensions()) {
            state.fair_play.note(&caller).await;
        }
    }
    let mut response = next.run(request).await;
    if fresh_device {
        let cookie = device_cookie(&device, state.secure_cookies);
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(SET_COOKIE, value);
        }
    }
    let is_page = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    // A sign-in, sign-up or sign-out set a new token itself: keep it.
    let session_name = cookie_name(SESSION_COOKIE, state.secure_cookies);
    let replaced = response.headers().get_all(SET_COOKIE).iter().any(|v| {
        v.as_bytes()
            .strip_prefix(session_name.as_bytes())
            .is_some_and(|rest| rest.starts_with(b"="))
    });
    if (fresh || is_page) && !replaced {
        let cookie = session_cookie(token, state.session_expiry_secs, state.secure_cookies);
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(SET_COOKIE, value);
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header::COOKIE;

    #[test]
    fn the_session_is_the_hash_of_the_token() {
        let token = new_token();
        assert_eq!(token.len(), 64);
        let session = session_of(&token);
        assert_eq!(session.as_str().len(), 64);
        assert_ne!(session.as_str(), token);
        assert_eq!(session_of(&token), session);
        assert_eq!(
            session_of("").into_string(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn only_well_formed_tokens_are_read() {
        let mut headers = axum::http::HeaderMap::new();
        headers.insert(COOKIE, HeaderValue::from_static("othello_session=abc"));
        assert_eq!(token_from_headers(&headers), None);
        let token = new_token();
        headers.insert(
            COOKIE,
            HeaderValue::from_str(&format!("a=b; {SESSION_COOKIE}={token}")).expect("header"),
        );
        assert_eq!(token_from_headers(&headers), Some(token));
    }

    #[test]
    fn the_cookie_is_http_only_lax_and_secure_when_asked() {
        let token = "ab".repeat(32);
        let plain = session_cookie(token.clone(), 60, false);
        assert!(
            plain.starts_with(&format!("{SESSION_COOKIE}={token}")),
            "{plain}"
        );
        for part in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=60"] {
            assert!(plain.contains(part), "{part} in {plain}");
        }
        assert!(!plain.contains("Secure"), "{plain}");
        let secure = session_cookie(token.clone(), 60, true);
        assert!(secure.contains("Secure"), "{secure}");
        assert!(
            secure.starts_with(&format!("__Host-{SESSION_COOKIE}={token}")),
            "{secure}"
        );
        assert!(device_cookie(&token, true).starts_with("__Host-othello_device="));
        assert!(device_cookie(&token, false).starts_with("othello_device="));
    }
}
