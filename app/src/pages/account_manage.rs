//! The signed-in part of `/account` that changes the account: a new
//! password (the current one required; other browsers signed out), a
//! download of everything the site keeps about the player, and deleting
//! the account.

use crate::accounts::{change_password, delete_account};
use leptos::prelude::*;

#[component]
pub fn ManageAccount() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let (busy, set_busy) = signal(false);
    let (error, set_error) = signal(None::<String>);
    let (notice, set_notice) = signal(None::<String>);
    let (current, set_current) = signal(String::new());
    let (new, set_new) = signal(String::new());
    let (confirm, set_confirm) = signal(String::new());
    let change = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        set_busy.set(true);
        set_error.set(None);
        set_notice.set(None);
        let (old, fresh) = (current.get_untracked(), new.get_untracked());
        leptos::task::spawn_local(async move {
            match change_password(old, fresh).await {
                Ok(_) => {
                    let _ = set_current.try_set(String::new());
                    let _ = set_new.try_set(String::new());
                    let _ = set_notice.try_set(Some(t!(lang, "account-password-changed")));
                }
                Err(e) => {
                    let _ = set_error.try_set(Some(e.text(lang)));
                }
            }
            let _ = set_busy.try_set(false);
        });
    };
    let delete = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        set_busy.set(true);
        set_error.set(None);
        set_notice.set(None);
        let password = confirm.get_untracked();
        leptos::task::spawn_local(async move {
            match delete_account(password).await {
                Ok(_) => super::account::reload_to("/"),
                Err(e) => {
                    let _ = set_error.try_set(Some(e.text(lang)));
                    let _ = set_busy.try_set(false);
                }
            }
        });
    };
    view! {
        <section class="card manage-account" id="manage-account">
            <h2>{t!(lang, "account-manage")}</h2>
            <p class="error" id="manage-error" role="alert">
                {move || error.get()}
            </p>
            <p class="notice" id="manage-notice" role="status">{move || notice.get()}</p>
            <form id="password-form" method="post" action="/account/password" on:submit=change>
                <h3>{t!(lang, "account-change-password")}</h3>
                <label>
                    {t!(lang, "account-current-password")}
                    <input id="current-password" name="current-password" type="password" required autocomplete="current-password"
                        prop:value=current on:input=move |ev| set_current.set(event_target_value(&ev)) />
                </label>
                <label>
                    {t!(lang, "account-new-password")}
                    <input id="new-password" name="new-password" type="password" required minlength="10" autocomplete="new-password"
                        prop:value=new on:input=move |ev| set_new.set(event_target_value(&ev)) />
                </label>
                <button type="submit" id="change-password" disabled=move || busy.get()>
                    {t!(lang, "account-change-password")}
                </button>
            </form>
            <p>
                <a class="button secondary" id="download-data" href="/account/export.json" download>
                    {t!(lang, "account-download")}
                </a>
            </p>
            <details id="delete-details">
                <summary>{t!(lang, "account-delete")}</summary>
                <form id="delete-form" method="post" action="/account/delete" on:submit=delete>
                    <p>{t!(lang, "account-delete-text")}</p>
                    <label>
                        {t!(lang, "account-password")}
                        <input id="delete-password" name="password" type="password" required autocomplete="current-password"
                            prop:value=confirm on:input=move |ev| set_confirm.set(event_target_value(&ev)) />
                    </label>
                    <button type="submit" class="danger" id="delete-account" disabled=move || busy.get()>
                        {t!(lang, "account-delete-confirm")}
                    </button>
                </form>
            </details>
        </section>
    }
}
