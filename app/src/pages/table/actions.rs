//! The table's actions card: resign (asked twice), the rematch votes, the
//! export and a new table.

use super::state::{self, Rematch};
use super::Table;
use crate::api::new_table;
use crate::protocol::TableMode;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// Moves the keyboard focus to the element with this id, once it is drawn.
fn focus_by_id(id: &'static str) {
    #[cfg(feature = "hydrate")]
    request_animation_frame(move || {
        use wasm_bindgen::JsCast;
        if let Some(element) = document()
            .get_element_by_id(id)
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = element.focus();
        }
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = id;
}

/// Resign, the rematch votes, the export and a new table.
#[component]
pub(super) fn ActionsCard(t: Table) -> impl IntoView {
    let lang = t.lang;
    let export_href = format!("/table/{}/export.txt", t.id.get_value());
    let navigate = use_navigate();
    let do_new_table = move |_| {
        let table = t.id.get_value();
        let navigate = navigate.clone();
        leptos::task::spawn_local(async move {
            match new_table(table).await {
                Ok(id) => navigate(&format!("/table/{id}"), Default::default()),
                Err(error) => t.refused(error),
            }
        });
    };
    view! {
        <Show when=move || t.view.with(state::is_tournament)>
            <TournamentNote t />
        </Show>
        <SynchroNote t />
        <div class="card actions row">
            <ResignControl t />
            <RematchButtons t />
            <a class="button secondary" id="export" href=export_href download>{t!(lang, "table-export")}</a>
            <Show when=move || t.seated() && !t.view.with(state::is_tournament)>
                <button class="secondary" id="new-table" on:click=do_new_table.clone()>
                    {t!(lang, "table-new-table")}
                </button>
            </Show>
        </div>
    }
}

/// At one game of a synchro pair (a challenge's): what it is, and the way
/// to the other game (in a tab of its own: both are played at once). Asked
/// once the page runs (an effect: the server's page and the hydrated one
/// both start without it), and only at a challenge's kind of table.
#[component]
fn SynchroNote(t: Table) -> impl IntoView {
    let lang = t.lang;
    let partner = RwSignal::new(None::<crate::protocol::TableId>);
    let asked = StoredValue::new(false);
    Effect::new(move |_| {
        let challenge_table = t.view.with(|v| {
            matches!(
                v.mode,
                crate::protocol::TableMode::Online {
                    private: true,
                    time: Some(_),
                    tournament: false,
                    ..
                }
            )
        });
        if !challenge_table || asked.get_value() {
            return;
        }
        asked.set_value(true);
        let id = t.id.get_value();
        leptos::task::spawn_local(async move {
            if let Ok(Some(other)) = crate::challenges::synchro_partner(id).await {
                let _ = partner.try_set(Some(other));
            }
        });
    });
    move || {
        partner.get().map(|other| {
            view! {
                <div class="card notice" id="synchro-note">
                    <p>{t!(lang, "synchro-table")}</p>
                    <a class="button" id="synchro-table-other" href=format!("/table/{other}") target="_blank">
                        {t!(lang, "synchro-table-other")}
                    </a>
                </div>
            }
        })
    }
}

/// At a tournament's game: what differs, and the way back to the
/// tournament's page.
#[component]
fn TournamentNote(t: Table) -> impl IntoView {
    let lang = t.lang;
    let id = t.id.get_value();
    let tournament = Resource::new(move || id.clone(), crate::tournaments::table_tournament);
    let berserked = move || {
        t.view.with(|v| {
            v.berserk
                .iter()
                .map(|side| t!(lang, "table-berserked", side = side.name()))
                .collect::<Vec<_>>()
        })
    };
    view! {
        <div class="card notice" id="tournament-note">
            <p>{t!(lang, "tournament-table-note")}</p>
            {move || berserked().into_iter().map(|line| view! { <p class="berserked">{line}</p> }).collect_view()}
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match crate::pages::settled(tournament).await {
                        Some(Ok(Some(found))) => {
                            let arena = found.kind == crate::tournaments::Kind::Arena;
                            view! {
                                <Show when=move || arena && t.view.with(state::may_berserk)>
                                    <p>
                                        <button class="danger" id="berserk" aria-describedby="berserk-hint" on:click=move |_| t.berserk()>{t!(lang, "tournament-berserk")}</button>
                                        " " <span class="muted" id="berserk-hint">{t!(lang, "tournament-berserk-hint")}</span>
                                    </p>
                                </Show>
                                <a class="button" id="back-to-tournament" href=format!("/tournaments/{}", found.id)>{t!(lang, "tournament-back")}</a>
                                <Show when=move || t.view.with(|v| matches!(v.status, crate::protocol::RoundStatus::Over { .. }))>
                                    " " <a class="button secondary" id="tournament-standings-link" href=format!("/tournaments/{}#standings", found.id)>{t!(lang, "tournament-see-standings")}</a>
                                </Show>
                            }.into_any()
                        }
                        _ => ().into_any(),
                    }
                })}
            </Suspense>
        </div>
    }
}

/// Resign asks first ("Resign? Yes / No", inline), and only once the round
/// has started: at an online table that means both seats taken.
#[component]
fn ResignControl(t: Table) -> impl IntoView {
    let (lang, view_state) = (t.lang, t.view);
    let is_hot_seat = move || matches!(t.mode(), TableMode::HotSeat);
    let confirming = RwSignal::new(false);
    // A confirmation left open does not outlive the round it was asked in.
    Effect::new(move |_| {
        if t.over() {
            confirming.set(false);
        }
    });
    move || {
        view_state.with(state::may_resign).then(|| {
            if confirming.get() {
                view! {
                    <span class="resign-confirm" id="resign-confirm" role="group" aria-labelledby="resign-question">
                        <span id="resign-question">
                            {move || view_state.with(|v| state::resign_question(lang, v))}
                        </span>
                        <button class="danger" id="resign-yes" on:click=move |_| {
                            confirming.set(false);
                            t.resign(None);
                        }>{t!(lang, "table-resign-yes")}</button>
                        <button class="secondary" id="resign-no" on:click=move |_| {
                            confirming.set(false);
                            focus_by_id("resign");
                        }>{t!(lang, "table-resign-no")}</button>
                    </span>
                }
                .into_any()
            } else {
                view! {
                    <button class="secondary" id="resign" on:click=move |_| {
                        confirming.set(true);
                        focus_by_id("resign-no");
                    }>
                        {move || if is_hot_seat() { t!(lang, "table-resign-hot-seat") } else { t!(lang, "table-resign") }}
                    </button>
                }
                .into_any()
            }
        })
    }
}

/// A finished round's rematch: a vote per side at a hot-seat table, the
/// viewer's vote (and the opponent's) online, "play again" against the AI.
#[component]
fn RematchButtons(t: Table) -> impl IntoView {
    let lang = t.lang;
    move || {
        t.view.with(state::rematch).map(|rematch| match rematch {
            Rematch::HotSeat(sides) => sides
                .into_iter()
                .map(|(side, voted)| {
                    let name = crate::i18n::side_name(lang, side);
                    let label = if voted {
                        t!(lang, "table-vote-withdraw-side", side = name)
                    } else {
                        t!(lang, "table-vote-side", side = name)
                    };
                    view! {
                        <button
                            id=format!("vote-{}", side.key())
                            class:voted=voted
                            on:click=move |_| t.vote(Some(side), !voted)
                        >
                            {label}
                        </button>
                    }
                })
                .collect_view()
                .into_any(),
            Rematch::Online { mine, theirs } => view! {
                <button id="rematch" class:voted=mine on:click=move |_| t.vote(None, !mine)>
                    {if mine { t!(lang, "table-vote-withdraw") } else { t!(lang, "table-vote") }}
                </button>
                {theirs.then(|| view! { <span class="their-vote">{t!(lang, "table-their-vote")}</span> })}
            }
            .into_any(),
            Rematch::Again => view! {
                <button id="rematch" on:click=move |_| t.vote(None, true)>
                    {t!(lang, "table-rematch")}
                </button>
            }
            .into_any(),
        })
    }
}
