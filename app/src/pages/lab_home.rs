//! `/lab`, the AI lab's home (docs/PRODUCT.md, The AI lab): start a lab game,
//! see the explainer in use, open your own games or watch others' recent ones
//! (read-only: only the visitor who started a lab game steps it).

use crate::lab::{lab_create, lab_list, lab_provider, LabSummary, ProviderStatus, LAB_DEPTHS};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// Depth pickers and the button that starts a lab game.
#[component]
pub(crate) fn NewLabForm(#[prop(optional)] initial: Option<(u8, u8)>) -> impl IntoView {
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
                Err(e) => set_error.set(Some(e.message)),
            }
            set_busy.set(false);
        });
    };
    let picker = move |id: &'static str, label: &'static str, depth: RwSignal<u8>| {
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
                {picker("black-depth", "Black depth", black_depth)}
                {picker("white-depth", "White depth", white_depth)}
            </div>
            <button id="new-lab" on:click=start disabled=move || busy.get()>
                "New lab game"
            </button>
            <p class="error" role="alert">{move || error.get()}</p>
        </div>
    }
}

pub(crate) fn provider_line(provider: ProviderStatus) -> impl IntoView {
    let class = if provider.ready {
        "provider-status ready"
    } else {
        "provider-status not-ready"
    };
    view! {
        <p id="provider-status" class=class data-kind=provider.kind.clone() data-ready=provider.ready.to_string()>
            <strong>{provider.name}</strong>
            {if provider.ready { " · ready" } else { " · not available" }}
            <span class="detail">{provider.detail}</span>
        </p>
    }
}

/// One line of a list of lab games.
fn game_line(g: LabSummary) -> impl IntoView {
    let text = format!(
        "Black depth {} vs White depth {} — {} moves, {}–{}{}",
        g.black_depth,
        g.white_depth,
        g.plies,
        g.black_count,
        g.white_count,
        if g.over { ", over" } else { "" },
    );
    view! { <li><a href=format!("/lab/{}", g.id)>{text}</a></li> }
}

/// `/lab`: start a lab game or open one.
#[component]
pub fn LabHomePage() -> impl IntoView {
    let games = Resource::new(|| (), |_| lab_list());
    let provider = Resource::new(|| (), |_| lab_provider());
    view! {
        <main class="lab-home page">
            <header class="topbar">
                <h1><a href="/">"Othello 3D"</a></h1>
                <span class="mode">"AI lab"</span>
            </header>
            <div class="card">
                <h2>"AI lab"</h2>
                <p>
                    "Two engines play each other, each searching to its own depth. After every move a short "
                    "explanation and one reusable lesson tell you what the move does for the position."
                </p>
                <NewLabForm />
            </div>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    provider.await.ok().map(|p| view! { <div class="card">{provider_line(p)}</div> })
                })}
            </Suspense>
            <Suspense fallback=|| view! { <div class="card"><p>"Loading…"</p></div> }>
                {move || Suspend::new(async move {
                    match games.await {
                        Ok(list) => {
                            let (mine, others): (Vec<_>, Vec<_>) =
                                list.into_iter().partition(|g| g.mine);
                            view! {
                                <div class="card">
                                    <h2>"Your lab games"</h2>
                                    {if mine.is_empty() {
                                        view! { <p id="lab-empty">"No lab game yet."</p> }.into_any()
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
                                        <h2>"Recent games by others"</h2>
                                        <p class="muted">
                                            "Watch only: their owners step them. Open one to watch, or to make your own copy."
                                        </p>
                                        <ul id="lab-others" class="lab-games read-only">
                                            {others.into_iter().map(game_line).collect_view()}
                                        </ul>
                                    </div>
                                })}
                            }
                            .into_any()
                        }
                        Err(e) => view! { <div class="card"><p class="error">{e.message}</p></div> }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}
