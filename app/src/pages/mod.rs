//! The site's pages.

pub mod account;
pub mod account_manage;
pub mod analysis;
pub mod analysis_board;
pub mod bot_card;
#[cfg(feature = "hydrate")]
pub mod bot_offer;
pub mod bots;
pub mod challenges;
pub mod clocks;
pub mod game;
pub mod hint;
pub mod lab;
pub mod lab_home;
pub mod lab_parts;
pub mod lobby;
pub mod offline;
pub mod offline_puzzles;
pub mod pairing_sound;
pub mod players;
pub mod practice;
pub mod profile;
pub mod puzzles;
pub mod report;
pub mod rules;
pub mod table;
pub mod tournaments;

use leptos::prelude::*;

/// Shown for an unknown address.
#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    {
        if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
            response.set_status(http::StatusCode::NOT_FOUND);
        }
    }
    let lang = crate::i18n::use_lang();
    view! {
        <main class="page">
            <header class="topbar"><crate::i18n::LangSwitch /></header>
            <h1>{t!(lang, "not-found-title")}</h1>
            <p>{t!(lang, "not-found-text")} " " <a href="/">{t!(lang, "back-to-lobby")}</a></p>
        </main>
    }
}

/// Shown when a page's table or lab game could not be loaded.
#[component]
pub fn LoadFailed(
    #[prop(into)] title: String,
    error: crate::api::CommandError,
    back_href: &'static str,
    #[prop(into)] back_label: String,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    view! {
        <main class="page">
            <header class="topbar"><crate::i18n::LangSwitch /></header>
            <h1>{title}</h1>
            <p class="error" role="alert">{error.text(lang)}</p>
            <p><a href=back_href>{back_label}</a></p>
        </main>
    }
}

/// A page's resource, awaited inside its `Suspend`: `None` when the page it
/// belonged to is already gone. A server render dropped part-way (the visitor
/// closed the connection) disposes its resources while a suspense effect may
/// still run once more, and leptos panics when a disposed resource is awaited;
/// the check and the await's start are one synchronous step, so nothing can
/// dispose it in between.
pub async fn settled<T>(resource: Resource<T>) -> Option<T>
where
    T: Clone + Send + Sync + 'static,
{
    if resource.is_disposed() {
        return None;
    }
    Some(resource.await)
}
