//! `/lab`, the AI lab's home (docs/PRODUCT.md, The AI lab): start a lab game,
//! see the explainer in use, open your own games or watch others' recent ones
//! (read-only: only the visitor who started a lab game steps it).

use crate::lab::{lab_create, lab_list, lab_provider, LabSummary, ProviderStatus, LAB_DEPTHS};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// Depth pickers and the button that starts a lab game.
#[component]
pub(crate) fn NewLabForm(#[prop(optional)] initial: Option<(u8, u8)>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let (black, white) = initial.unwrap_or((3, 2));
    let black_depth = RwSignal::new(black);
    let white_depth = RwSignal::new(white);
    let (error, set_error) = signal(None::<String>);
    let (busy, set_busy) = signal(false);
    let navigate = use_navigate();
    let start = move |_| {
        let navigate = navigate.clone();
        set_busy.set(true);
        set_error.set(None);
        leptos::task::spawn_local(async move {
            match lab_create(black_depth.get_untracked(), white_depth.get_untracked()).await {
                Ok(id) => navigate(&format!("/lab/{id}"), Default::default()),
                Err(e) => set_error.set(Some(e.text(lang))),
            }
            set_busy.set(false);
        });
    };
    let picker = move |id: &'static str, label: String, depth: RwSignal<u8>| {
        view! {
            <label>
                {label}
                <select
                    id=id
                    on:change=move |ev| {
                        if let Ok(d) = event_target_value(&ev).parse::<u8>() {
                            depth.set(d.clamp(*LAB_DEPTHS.start(), *LAB_DEPTHS.end()));
                        }
                    }
                >
                    {LAB_DEPTHS
                        .map(|d| {
                            view! {
                                <option value=d.to_string() selected=move || depth.get() == d>
                                    {d.to_string()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
        }
    };
    view! {
        <div class="lab-new">
            <div class="row">
                {picker("black-depth", t!(lang, "lab-black-depth"), black_depth)}
                {picker("white-depth", t!(lang, "lab-white-depth"), white_depth)}
            </div>
            <button id="new-lab" on:click=start disabled=move || busy.get()>
                {t!(lang, "lab-new-game")}
            </button>
            <p class="error" role="alert">{move || error.get()}</p>
        </div>
    }
}

/// Who writes the explanations, in the visitor's words and language. The
/// operator's details (which CLI, which key) are for `/healthz` and the
/// server log, not for this line.
pub(crate) fn provider_line(provider: ProviderStatus) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let class = if provider.ready {
        "provider-status ready"
    } else {
        "provider-status not-ready"
    };
    // "GPT-6 Luna · Codex": the model's name is the part a visitor knows.
    let model = provider
        .name
        .split(" · ")
        .next()
        .unwrap_or_default()
        .to_string();
    let text = if provider.kind == "offline" {
        t!(lang, "lab-provider-offline")
    } else if provider.ready {
        t!(lang, "lab-provider-model", name = model)
    } else {
        t!(lang, "lab-provider-model-down", name = model)
    };
    view! {
        <p id="provider-status" class=class data-kind=provider.kind.clone() data-ready=provider.ready.to_string()>
            {text}
        </p>
    }
}

/// One line of a list of lab games.
fn game_line(g: LabSummary) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let text = t!(
        lang,
        "lab-game-line",
        black = g.black_depth,
        white = g.white_depth,
        plies = g.plies,
        score = format!("{}–{}", g.black_count, g.white_count),
        over = if g.over { "yes" } else { "no" },
    );
    view! { <li><a href=format!("/lab/{}", g.id)>{text}</a></li> }
}

/// `/lab`: start a lab game or open one.
#[component]
pub fn LabHomePage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let games = Resource::new(|| (), |_| lab_list());
    let provider = Resource::new(|| (), |_| lab_provider());
    view! {
        <main class="lab-home page">
            <header class="topbar">
                <h1><a href="/">{t!(lang, "site-title")}</a></h1>
                <span class="mode">{t!(lang, "lobby-lab-title")}</span>
                <crate::i18n::LangSwitch />
            </header>
            <div class="card">
                <h2>{t!(lang, "lobby-lab-title")}</h2>
                <p>{t!(lang, "lab-intro")}</p>
                <NewLabForm />
                <p><a id="open-analysis-board" href="/analysis">{t!(lang, "analysis-board-lab-link")}</a></p>
            </div>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    super::settled(provider).await.and_then(Result::ok).map(|p| view! { <div class="card">{provider_line(p)}</div> })
                })}
            </Suspense>
            <Suspense fallback=move || view! { <div class="card"><p>{t!(lang, "offline-loading")}</p></div> }>
                {move || Suspend::new(async move {
                    let Some(games) = super::settled(games).await else { return ().into_any() };
                    match games {
                        Ok(list) => {
                            let (mine, others): (Vec<_>, Vec<_>) =
                                list.into_iter().partition(|g| g.mine);
                            view! {
                                <div class="card">
                                    <h2>{t!(lang, "lab-yours")}</h2>
                                    {if mine.is_empty() {
                                        view! { <p id="lab-empty">{t!(lang, "lab-none")}</p> }.into_any()
                                    } else {
                                        view! {
                                            <ul id="lab-games" class="lab-games">
                                                {mine.into_iter().map(game_line).collect_view()}
                                            </ul>
                                        }
                                        .into_any()
                                    }}
                                </div>
                                {(!others.is_empty()).then(|| view! {
                                    <div class="card">
                                        <h2>{t!(lang, "lab-others")}</h2>
                                        <p class="muted">{t!(lang, "lab-others-note")}</p>
                                        <ul id="lab-others" class="lab-games read-only">
                                            {others.into_iter().map(game_line).collect_view()}
                                        </ul>
                                    </div>
                                })}
                            }
                            .into_any()
                        }
                        Err(e) => view! { <div class="card"><p class="error">{e.text(lang)}</p></div> }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}
