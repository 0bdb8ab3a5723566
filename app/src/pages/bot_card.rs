//! The account page's "Bot account" card (docs/PRODUCT.md, Bots): an
//! account that has not played turns into a bot (after a confirmation that
//! says it is for good); a bot makes API tokens (each shown once), lists
//! them and revokes them.

use crate::bots::{become_bot, bot_status, create_bot_token, revoke_bot_token, BotCardView};
use leptos::prelude::*;

#[component]
pub fn BotCard() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let (card, set_card) = signal(None::<BotCardView>);
    let (busy, set_busy) = signal(false);
    let (error, set_error) = signal(None::<String>);
    let (notice, set_notice) = signal(None::<String>);
    let (confirmed, set_confirmed) = signal(false);
    let (label, set_label) = signal(String::new());
    let (fresh, set_fresh) = signal(None::<String>);
    let reload = move || {
        leptos::task::spawn_local(async move {
            match bot_status().await {
                Ok(view) => {
                    let _ = set_card.try_set(Some(view));
                }
                Err(e) => {
                    let _ = set_error.try_set(Some(e.text(lang)));
                }
            }
        });
    };
    // Asked once the page runs in the browser (the card is not in the
    // server's HTML: it shows nothing until it knows).
    Effect::new(move |_| reload());
    let become_one = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        set_busy.set(true);
        set_error.set(None);
        leptos::task::spawn_local(async move {
            match become_bot().await {
                Ok(view) => {
                    let _ = set_card.try_set(Some(view));
                }
                Err(e) => {
                    let _ = set_error.try_set(Some(e.text(lang)));
                }
            }
            let _ = set_busy.try_set(false);
        });
    };
    let create = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        set_busy.set(true);
        set_error.set(None);
        set_notice.set(None);
        let text = label.get_untracked();
        leptos::task::spawn_local(async move {
            match create_bot_token(text).await {
                Ok(made) => {
                    let _ = set_fresh.try_set(Some(made.token));
                    let _ = set_label.try_set(String::new());
                    reload();
                }
                Err(e) => {
                    let _ = set_error.try_set(Some(e.text(lang)));
                }
            }
            let _ = set_busy.try_set(false);
        });
    };
    let revoke = move |id: String| {
        set_busy.set(true);
        set_error.set(None);
        set_notice.set(None);
        leptos::task::spawn_local(async move {
            match revoke_bot_token(id).await {
                Ok(()) => {
                    let _ = set_notice.try_set(Some(t!(lang, "bot-token-gone")));
                    reload();
                }
                Err(e) => {
                    let _ = set_error.try_set(Some(e.text(lang)));
                }
            }
            let _ = set_busy.try_set(false);
        });
    };
    let body = move || {
        let view = card.get()?;
        if !view.signed_in {
            return None;
        }
        let inner = if !view.bot {
            view! {
                <p>{t!(lang, "bot-card-text")}</p>
                <form id="become-bot-form" on:submit=become_one>
                    <p class="warning">{t!(lang, "bot-become-warning")}</p>
                    <label>
                        <input id="become-bot-confirm" type="checkbox"
                            prop:checked=confirmed
                            on:change=move |ev| set_confirmed.set(event_target_checked(&ev)) />
                        {t!(lang, "bot-become-confirm")}
                    </label>
                    <button type="submit" class="danger" id="become-bot"
                        disabled=move || busy.get() || !confirmed.get()>
                        {t!(lang, "bot-become")}
                    </button>
                </form>
            }
            .into_any()
        } else {
            let rows = view
                .tokens
                .into_iter()
                .map(|token| {
                    let id = token.id.clone();
                    let used = token
                        .last_used
                        .map_or_else(|| t!(lang, "bot-token-never"), super::profile::date_text);
                    let action = if token.revoked_at.is_some() {
                        view! { <span>{t!(lang, "bot-token-revoked")}</span> }.into_any()
                    } else {
                        view! {
                            <button type="button" class="secondary revoke-token"
                                disabled=move || busy.get()
                                on:click=move |_| revoke(id.clone())>
                                {t!(lang, "bot-token-revoke")}
                            </button>
                        }
                        .into_any()
                    };
                    view! {
                        <tr>
                            <td>{token.label}</td>
                            <td>{super::profile::date_text(token.created_at)}</td>
                            <td>{used}</td>
                            <td>{action}</td>
                        </tr>
                    }
                })
                .collect::<Vec<_>>();
            let list = if rows.is_empty() {
                view! { <p id="bot-tokens-none">{t!(lang, "bot-tokens-none")}</p> }.into_any()
            } else {
                view! {
                    <table id="bot-tokens">
                        <thead>
                            <tr>
                                <th>{t!(lang, "bot-token-label")}</th>
                                <th>{t!(lang, "bot-token-created")}</th>
                                <th>{t!(lang, "bot-token-last-used")}</th>
                                <th></th>
                            </tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                }
                .into_any()
            };
            view! {
                <p>{t!(lang, "bot-is-bot")}</p>
                <form id="bot-token-form" on:submit=create>
                    <label>
                        {t!(lang, "bot-token-label")}
                        <input id="bot-token-label" type="text" required maxlength="40"
                            prop:value=label on:input=move |ev| set_label.set(event_target_value(&ev)) />
                    </label>
                    <button type="submit" id="create-bot-token" disabled=move || busy.get()>
                        {t!(lang, "bot-token-create")}
                    </button>
                </form>
                {move || fresh.get().map(|token| view! {
                    <p class="notice" id="bot-token-once" role="status">{t!(lang, "bot-token-once")}</p>
                    <p><code id="bot-token-new">{token}</code></p>
                })}
                <h3>{t!(lang, "bot-tokens")}</h3>
                {list}
            }
            .into_any()
        };
        Some(view! {
            <section class="card bot-account" id="bot-account">
                <h2>{t!(lang, "bot-card-title")}</h2>
                <p class="error" role="alert">{move || error.get()}</p>
                <p class="notice" role="status">{move || notice.get()}</p>
                {inner}
            </section>
        })
    };
    view! { {body} }
}
