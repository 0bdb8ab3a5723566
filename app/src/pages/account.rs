//! `/account`: sign in or create an account; when signed in, who you are
//! and signing out (here or everywhere).

use crate::accounts::{sign_in, sign_out, sign_out_everywhere, sign_up, signed_in};
use crate::api::CommandError;
use crate::protocol::AccountView;
use leptos::prelude::*;

/// After a successful call: load the lobby afresh, as the new identity.
pub(crate) fn reload_to(path: &str) {
    #[cfg(feature = "hydrate")]
    if let Some(window) = web_sys::window() {
        let _ = window.location().assign(path);
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = path;
}

/// Runs an account call; on success reloads to `/`, else shows the error.
fn run(
    call: impl std::future::Future<Output = Result<Option<AccountView>, CommandError>> + 'static,
    set_busy: WriteSignal<bool>,
    set_error: WriteSignal<Option<String>>,
    lang: crate::i18n::Lang,
) {
    set_busy.set(true);
    set_error.set(None);
    leptos::task::spawn_local(async move {
        match call.await {
            Ok(_) => reload_to("/"),
            Err(error) => {
                let _ = set_error.try_set(Some(error.text(lang)));
                let _ = set_busy.try_set(false);
            }
        }
    });
}

#[component]
pub fn AccountPage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let (busy, set_busy) = signal(false);
    let (error, set_error) = signal(None::<String>);
    let error_view = move || {
        error.get().map(|message| {
            view! {
                <p class="error" id="account-error" role="alert">
                    {message}
                </p>
            }
        })
    };
    // A refusal from a form sent before (or without) JavaScript.
    let flash = crate::accounts::form_flash(lang).map(|message| {
        view! { <p class="error" id="account-flash" role="alert">{message}</p> }
    });
    let body = match signed_in() {
        Some(name) => {
            let out = move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                run(sign_out(), set_busy, set_error, lang)
            };
            let everywhere = move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                run(sign_out_everywhere(), set_busy, set_error, lang)
            };
            view! {
                <section class="card" id="account-signed-in">
                    <h2>{t!(lang, "account-you-are")} " " <span id="account-name">{name.clone()}</span></h2>
                    <p>{t!(lang, "account-signed-in-text")}</p>
                    <p><a id="account-profile" href=format!("/@/{name}")>{t!(lang, "account-profile")}</a></p>
                    <div class="actions">
                        <form method="post" action="/account/sign-out" on:submit=out>
                            <button type="submit" id="sign-out" disabled=move || busy.get()>
                                {t!(lang, "account-sign-out")}
                            </button>
                        </form>
                        <form method="post" action="/account/sign-out-everywhere" on:submit=everywhere>
                            <button type="submit" id="sign-out-everywhere" disabled=move || busy.get()>
                                {t!(lang, "account-sign-out-everywhere")}
                            </button>
                        </form>
                    </div>
                    {error_view}
                </section>
                <crate::pages::account_manage::ManageAccount />
                <crate::pages::bot_card::BotCard />
            }
            .into_any()
        }
        None => {
            let (in_name, set_in_name) = signal(String::new());
            let (in_password, set_in_password) = signal(String::new());
            let (up_name, set_up_name) = signal(String::new());
            let (up_password, set_up_password) = signal(String::new());
            let submit_in = move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                run(
                    sign_in(in_name.get_untracked(), in_password.get_untracked()),
                    set_busy,
                    set_error,
                    lang,
                );
            };
            let submit_up = move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                run(
                    sign_up(up_name.get_untracked(), up_password.get_untracked()),
                    set_busy,
                    set_error,
                    lang,
                );
            };
            view! {
                <p>{t!(lang, "account-why")}</p>
                {error_view}
                <div class="account-forms">
                    <form class="card" id="sign-in-form" method="post" action="/account/sign-in" on:submit=submit_in>
                        <h2>{t!(lang, "account-sign-in")}</h2>
                        <label>
                            {t!(lang, "account-name")}
                            <input id="sign-in-name" name="username" autocomplete="username" required
                                maxlength="20" prop:value=in_name
                                on:input=move |ev| set_in_name.set(event_target_value(&ev)) />
                        </label>
                        <label>
                            {t!(lang, "account-password")}
                            <input id="sign-in-password" name="password" type="password" required
                                autocomplete="current-password" prop:value=in_password
                                on:input=move |ev| set_in_password.set(event_target_value(&ev)) />
                        </label>
                        <button type="submit" id="sign-in" disabled=move || busy.get()>
                            {t!(lang, "account-sign-in")}
                        </button>
                    </form>
                    <form class="card" id="sign-up-form" method="post" action="/account/sign-up" on:submit=submit_up>
                        <h2>{t!(lang, "account-create")}</h2>
                        <label>
                            {t!(lang, "account-name")}
                            <input id="sign-up-name" name="username" autocomplete="username" required
                                minlength="3" maxlength="20" pattern="[A-Za-z0-9_\\-]{3,20}"
                                aria-describedby="sign-up-name-rule" prop:value=up_name
                                on:input=move |ev| set_up_name.set(event_target_value(&ev)) />
                        </label>
                        <p class="hint" id="sign-up-name-rule">{t!(lang, "account-name-rule")}</p>
                        <label>
                            {t!(lang, "account-password")}
                            <input id="sign-up-password" name="new-password" type="password" required
                                minlength="10" autocomplete="new-password"
                                aria-describedby="sign-up-password-rule" prop:value=up_password
                                on:input=move |ev| set_up_password.set(event_target_value(&ev)) />
                        </label>
                        <p class="hint" id="sign-up-password-rule">{t!(lang, "account-password-rule")}</p>
                        <button type="submit" id="sign-up" disabled=move || busy.get()>
                            {t!(lang, "account-create")}
                        </button>
                    </form>
                </div>
            }
            .into_any()
        }
    };
    view! {
        <main class="page account-page">
            <header class="topbar">
                <a href="/">{t!(lang, "back-to-lobby")}</a>
                <crate::i18n::LangSwitch />
            </header>
            <h1>{t!(lang, "account-title")}</h1>
            {flash}
            {body}
            <crate::pages::players::MyRatings />
            <MyGames />
        </main>
    }
}

/// The caller's finished games, newest first.
#[component]
fn MyGames() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let games = Resource::new(|| (), |_| crate::archive::my_games(None));
    view! {
        <section class="card my-games" id="my-games">
            <h2>{t!(lang, "account-games")}</h2>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    let Some(games) = super::settled(games).await else { return ().into_any() };
                    match games {
                        Ok(list) if list.is_empty() => view! {
                            <p id="my-games-none">{t!(lang, "account-games-none")}</p>
                        }
                        .into_any(),
                        Ok(list) => view! {
                            <ul class="game-list">
                                {list
                                    .into_iter()
                                    .map(|game| view! { <crate::pages::game::GameLine game /> })
                                    .collect_view()}
                            </ul>
                        }
                        .into_any(),
                        Err(error) => view! {
                            <p class="error" role="alert">{error.text(lang)}</p>
                        }
                        .into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}
