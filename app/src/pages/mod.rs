//! The site's pages.

pub mod analysis;
pub mod clocks;
pub mod hint;
pub mod lab;
pub mod lab_home;
pub mod lab_parts;
pub mod lobby;
pub mod offline;
pub mod rules;
pub mod table;

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
    view! {
        <main class="page">
            <h1>"Not found"</h1>
            <p>"There is no page here. " <a href="/">"Back to the lobby"</a></p>
        </main>
    }
}

/// Shown when a page's table or lab game could not be loaded.
#[component]
pub fn LoadFailed(
    title: &'static str,
    message: String,
    back_href: &'static str,
    back_label: &'static str,
) -> impl IntoView {
    view! {
        <main class="page">
            <h1>{title}</h1>
            <p class="error" role="alert">{message}</p>
            <p><a href=back_href>{back_label}</a></p>
        </main>
    }
}
