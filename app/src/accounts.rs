//! Accounts in the browser and their server functions: sign up, sign in,
//! sign out (this browser or every one). Playing never needs an account.
//!
//! A successful call answers with a new session cookie (the server rotates
//! the token at every sign-in and sign-out); the page then reloads so every
//! part of it sees who the browser now is.

use crate::api::CommandError;
use crate::protocol::AccountView;
use leptos::prelude::*;
use server_fn::codec::Json;

/// Server-side glue: the trait the server implements.
#[cfg(feature = "ssr")]
pub mod backend {
    use crate::api::backend::Caller;
    use crate::api::CommandError;
    use crate::protocol::{AccountView, BrowserToken, Session};
    use std::sync::Arc;

    /// What a sign-in, sign-up or sign-out hands back: who the browser now
    /// is, and the `Set-Cookie` value carrying its new token.
    pub struct Signed {
        pub account: Option<AccountView>,
        pub set_cookie: String,
    }

    #[async_trait::async_trait]

    pub trait AccountBackend: Send + Sync + 'static {
        async fn sign_up(
            &self,
            caller: &Caller,
            name: &str,
            password: &str,
        ) -> Result<Signed, CommandError>;
        async fn sign_in(
            &self,
            caller: &Caller,
            name: &str,
            password: &str,
        ) -> Result<Signed, CommandError>;
        async fn sign_out(&self, browser: &BrowserToken) -> Result<Signed, CommandError>;
        async fn sign_out_everywhere(&self, session: &Session) -> Result<Signed, CommandError>;
        async fn change_password(
            &self,
            caller: &Caller,
            current: &str,
            new: &str,
        ) -> Result<Signed, CommandError>;
        async fn delete_account(
            &self,
            caller: &Caller,
            password: &str,
        ) -> Result<Signed, CommandError>;
        async fn report(&self, caller: &Caller, report: &super::Report)
            -> Result<(), CommandError>;
    }

    /// The account backend, provided to server functions as context.
    #[derive(Clone)]
    pub struct AccountBackendHandle(pub Arc<dyn AccountBackend>);

    pub fn context() -> Result<Arc<dyn AccountBackend>, CommandError> {
        leptos::prelude::use_context::<AccountBackendHandle>()
            .map(|h| h.0)
            .ok_or_else(|| CommandError::unavailable(crate::msg!("srv-not-ready")))
    }

    /// The hash of the caller's own token.
    pub fn browser() -> Result<BrowserToken, CommandError> {
        leptos::prelude::use_context::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<BrowserToken>().cloned())
            .ok_or_else(|| {
                CommandError::internal("a request reached a server function without a session")
            })
    }

    /// Sets the new token's cookie on the answer; returns who signed in.
    pub fn answer(signed: Signed) -> Option<AccountView> {
        if let Some(response) = leptos::prelude::use_context::<leptos_axum::ResponseOptions>() {
            if let Ok(value) = http::HeaderValue::from_str(&signed.set_cookie) {
                response.append_header(http::header::SET_COOKIE, value);
            }
        }
        signed.account
    }
}

/// Creates an account and signs this browser in to it.
#[server(endpoint = "sign_up", input = Json)]
pub async fn sign_up(name: String, password: String) -> Result<Option<AccountView>, CommandError> {
    let accounts = backend::context()?;
    let caller = crate::api::backend::caller()?;
    Ok(backend::answer(
        accounts.sign_up(&caller, &name, &password).await?,
    ))
}

/// Signs this browser in.
#[server(endpoint = "sign_in", input = Json)]
pub async fn sign_in(name: String, password: String) -> Result<Option<AccountView>, CommandError> {
    let accounts = backend::context()?;
    let caller = crate::api::backend::caller()?;
    Ok(backend::answer(
        accounts.sign_in(&caller, &name, &password).await?,
    ))
}

/// Signs this browser out: it becomes a new anonymous visitor.
#[server(endpoint = "sign_out", input = Json)]
pub async fn sign_out() -> Result<Option<AccountView>, CommandError> {
    let accounts = backend::context()?;
    let browser = backend::browser()?;
    Ok(backend::answer(accounts.sign_out(&browser).await?))
}

/// Signs every browser of the caller's account out (this one too).
#[server(endpoint = "sign_out_everywhere", input = Json)]
pub async fn sign_out_everywhere() -> Result<Option<AccountView>, CommandError> {
    let accounts = backend::context()?;
    let caller = crate::api::backend::caller()?;
    Ok(backend::answer(
        accounts.sign_out_everywhere(&caller.session).await?,
    ))
}

/// Changes the password (the current one required). Every other browser
/// of the account is signed out; this one stays signed in.
#[server(endpoint = "change_password", input = Json)]
pub async fn change_password(
    current: String,
    new: String,
) -> Result<Option<AccountView>, CommandError> {
    let accounts = backend::context()?;
    let caller = crate::api::backend::caller()?;
    Ok(backend::answer(
        accounts.change_password(&caller, &current, &new).await?,
    ))
}

/// Deletes the account (its password required): every browser is signed
/// out; its games stay for their opponents under "deleted player".
#[server(endpoint = "delete_account", input = Json)]
pub async fn delete_account(password: String) -> Result<Option<AccountView>, CommandError> {
    let accounts = backend::context()?;
    let caller = crate::api::backend::caller()?;
    Ok(backend::answer(
        accounts.delete_account(&caller, &password).await?,
    ))
}

/// Why a player is reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportReason {
    /// Playing with an engine's help.
    Cheating,
    /// Losing on purpose to another account, or winning from one (rating
    /// manipulation).
    Boosting,
    /// Insults, a name that offends.
    Abuse,
    Other,
}

impl ReportReason {
    /// Every reason, in the order the form offers them.
    pub const ALL: [ReportReason; 4] = [
        ReportReason::Cheating,
        ReportReason::Boosting,
        ReportReason::Abuse,
        ReportReason::Other,
    ];

    /// The stored and sent word.
    pub fn key(self) -> &'static str {
        match self {
            ReportReason::Cheating => "cheating",
            ReportReason::Boosting => "boosting",
            ReportReason::Abuse => "abuse",
            ReportReason::Other => "other",
        }
    }
}

/// A report of a player, as sent.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Report {
    /// The reported player's name.
    pub name: String,
    /// The online table it happened at, if any.
    pub table: Option<crate::protocol::TableId>,
    pub reason: ReportReason,
    /// What happened, in the reporter's words (at most 500 characters).
    pub text: String,
}

/// Reports a player to the site's operators (capped per address).
#[server(endpoint = "report_player", input = Json)]
pub async fn report_player(report: Report) -> Result<(), CommandError> {
    let accounts = backend::context()?;
    let caller = crate::api::backend::caller()?;
    accounts.report(&caller, &report).await
}

/// The name of the account this page was rendered for: from the request
/// on the server, from the page's `<meta name="othello-account">` when
/// hydrating (the same text, so hydration matches).
pub fn signed_in() -> Option<String> {
    #[cfg(feature = "ssr")]
    {
        use_context::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<AccountView>().cloned())
            .map(|a| a.name)
    }
    #[cfg(not(feature = "ssr"))]
    {
        #[cfg(feature = "hydrate")]
        {
            document()
                .query_selector(&format!("meta[name={ACCOUNT_META}]"))
                .ok()
                .flatten()
                .and_then(|m| m.get_attribute("content"))
                .filter(|name| !name.is_empty())
        }
        #[cfg(not(feature = "hydrate"))]
        None
    }
}

/// The cookie in which a plain (no-JavaScript) account form's refusal
/// reaches the account page: the message (key and arguments, JSON) in hex,
/// for a minute.
pub const FLASH_COOKIE: &str = "othello_flash";

/// The refusal a plain account form left for this page, localized: from
/// the request's cookie on the server (which also clears it), from the
/// rendered page when hydrating (the same text, so hydration matches).
pub fn form_flash(lang: crate::i18n::Lang) -> Option<String> {
    #[cfg(feature = "ssr")]
    {
        let parts = use_context::<http::request::Parts>()?;
        let hex = parts
            .headers
            .get_all(http::header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|c| c.trim().split_once('='))
            .find(|(name, _)| *name == FLASH_COOKIE)
            .map(|(_, value)| value.to_string())?;
        let bytes: Vec<u8> = (0..hex.len() / 2)
            .filter_map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
            .collect();
        let message: crate::i18n::Msg = serde_json::from_slice(&bytes).ok()?;
        if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
            if let Ok(clear) = http::HeaderValue::from_str(&format!(
                "{FLASH_COOKIE}=; Path=/account; Max-Age=0; HttpOnly; SameSite=Lax"
            )) {
                response.append_header(http::header::SET_COOKIE, clear);
            }
        }
        Some(message.text(lang)).filter(|text| !text.is_empty())
    }
    #[cfg(not(feature = "ssr"))]
    {
        let _ = lang;
        #[cfg(feature = "hydrate")]
        {
            document()
                .get_element_by_id("account-flash")
                .and_then(|e| e.text_content())
                .filter(|text| !text.is_empty())
        }
        #[cfg(not(feature = "hydrate"))]
        None
    }
}

/// The `<meta>` naming the signed-in account (empty when anonymous).
pub const ACCOUNT_META: &str = "othello-account";

/// The top bar's links: the account's name, or "Sign in" and "Create an
/// account" side by side (signing up is not hidden behind signing in).
#[component]
pub fn AccountLink() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    match signed_in() {
        Some(name) => view! {
            <nav class="account-links">
                <a class="account-link" id="account-link" href="/account">{name}</a>
            </nav>
        }
        .into_any(),
        None => view! {
            <nav class="account-links">
                <a class="account-link" id="account-link" href="/account">{t!(lang, "account-sign-in")}</a>
                <a class="account-link" id="account-create-link" href="/account#sign-up-form">
                    {t!(lang, "account-create")}
                </a>
            </nav>
        }
        .into_any(),
    }
}
