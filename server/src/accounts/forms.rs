//! The account forms without JavaScript: `POST /account/{sign-in, sign-up,
//! sign-out, sign-out-everywhere, password, delete}` with an ordinary form
//! body (`application/x-www-form-urlencoded`), answered with a redirect
//! (303 See Other). The same service calls as the server functions, so the
//! same rules, throttles and caps apply, and the guard checks the Origin as
//! for commands. No password is ever put in a URL: a refusal is carried to
//! the account page in a short-lived, HttpOnly cookie ([`FLASH_COOKIE`])
//! that the page shows once and clears.
//!
//! The hydrated page keeps its in-page behaviour: its forms submit through
//! the server functions and never reach these endpoints.

use crate::AppState;
use app::protocol::BrowserToken;
use axum::extract::{Form, Path, State};
use axum::http::header::{LOCATION, SET_COOKIE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;

pub use app::accounts::FLASH_COOKIE;

/// A redirect to `to`, setting `cookies`.
fn see_other(to: &str, cookies: &[String]) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(location) = HeaderValue::from_str(to) {
        response.headers_mut().insert(LOCATION, location);
    }
    for cookie in cookies {
        if let Ok(value) = HeaderValue::from_str(cookie) {
            response.headers_mut().append(SET_COOKIE, value);
        }
    }
    response
}

/// The cookie carrying a refusal's message to the account page (hex, so
/// any text fits a cookie value).
fn flash(message: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!(
        "{FLASH_COOKIE}={}; Path=/account; Max-Age=60; HttpOnly; SameSite=Lax{secure}",
        crate::hex::hex(message.as_bytes())
    )
}

/// `POST /account/{action}` from a plain form.
pub async fn post(
    State(state): State<AppState>,
    Path(action): Path<String>,
    crate::session::CallerOf(caller): crate::session::CallerOf,
    Form(fields): Form<HashMap<String, String>>,
) -> Response {
    let session = caller.session.clone();
    let browser = BrowserToken(caller.browser.clone().unwrap_or_default());
    let field = |name: &str| fields.get(name).map(String::as_str).unwrap_or_default();
    let accounts = &state.accounts;
    let (answer, after) = match action.as_str() {
        "sign-in" => (
            accounts
                .sign_in(&caller, field("username"), field("password"))
                .await,
            "/",
        ),
        "sign-up" => (
            accounts
                .sign_up(&caller, field("username"), field("new-password"))
                .await,
            "/",
        ),
        "sign-out" => (accounts.sign_out(&browser.0).await, "/"),
        "sign-out-everywhere" => (accounts.sign_out_everywhere(&session).await, "/"),
        "password" => (
            accounts
                .change_password(&caller, field("current-password"), field("new-password"))
                .await,
            "/account",
        ),
        "delete" => (
            accounts.delete_account(&caller, field("password")).await,
            "/",
        ),
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    match answer {
        Ok(signed) => {
            let cookie = crate::session::session_cookie(
                signed.token,
                state.session_expiry_secs,
                state.secure_cookies,
            );
            see_other(after, &[cookie])
        }
        Err(error) => see_other(
            "/account",
            &[flash(
                &serde_json::to_string(&error.msg).unwrap_or_default(),
                state.secure_cookies,
            )],
        ),
    }
}
