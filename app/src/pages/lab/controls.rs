//! The lab game page's controls: the owner's (Next turn, Autoplay / Pause,
//! the reading time) and a watcher's (make my own copy).

use super::{game_of, open_lab, state, Ctl};
use crate::lab::lab_copy;
use crate::pages::lab_parts::format_seconds;
use leptos::prelude::*;

/// The owner's controls: Next turn, Autoplay / Pause, the reading time.
#[component]
pub(super) fn LabControls(ctl: Ctl, url_reading: Option<f64>) -> impl IntoView {
    let (lang, view_state, selected) = (ctl.lang, ctl.view, ctl.selected);
    let can_next = move || {
        let game = view_state.with(game_of);
        ctl.machine.with(|m| m.can_next(game))
    };
    let frozen = move || {
        let game = view_state.with(game_of);
        ctl.machine.with(|m| m.frozen(game))
    };
    let reading_options = move || {
        state::reading_choices(url_reading)
            .into_iter()
            .map(|c| {
                view! {
                    <option value=c.to_string() selected=move || ctl.reading.get() == c>
                        {format_seconds(c)}
                    </option>
                }
            })
            .collect_view()
    };
    view! {
        <div class="card controls">
            <div class="row">
                <button
                    id="next-turn"
                    on:click=move |_| ctl.next()
                    disabled=move || selected.get().is_none() && !can_next()
                    title=move || selected.get().map(|p| t!(lang, "lab-review-next", ply = p))
                >
                    {t!(lang, "lab-next-turn")} " " <kbd>"N"</kbd>
                </button>
                {move || if ctl.autoplay() {
                    view! { <button id="pause" class="secondary" on:click=move |_| ctl.pause()>{t!(lang, "lab-pause")}</button> }.into_any()
                } else {
                    view! {
                        <button
                            id="autoplay"
                            class="secondary"
                            on:click=move |_| ctl.start_autoplay()
                            disabled=move || view_state.with(|v| v.is_over() || v.explanation_failed())
                        >
                            {t!(lang, "lab-autoplay")}
                        </button>
                    }
                    .into_any()
                }}
            </div>
            <label>
                {t!(lang, "lab-reading")}
                <select
                    id="reading"
                    on:change=move |ev| {
                        if let Ok(r) = event_target_value(&ev).parse::<f64>() {
                            ctl.reading.set(r);
                        }
                    }
                >
                    {reading_options}
                </select>
            </label>
            {move || selected.get().map(|p| view! {
                <p id="review-note" class="muted">{t!(lang, "lab-review-next", ply = p)}</p>
            })}
            <p id="autoplay-state" class="muted" data-autoplay=move || ctl.autoplay().to_string()>
                {move || state::autoplay_text(lang, frozen(), ctl.autoplay(), ctl.reading.get())}
            </p>
            <p id="lab-error" class="error" role="alert">{move || ctl.error.get()}</p>
        </div>
    }
}

/// A watcher's card: only the owner steps the game; a copy is one's own.
#[component]
pub(super) fn LabWatching(ctl: Ctl) -> impl IntoView {
    let lang = ctl.lang;
    let (copying, set_copying) = signal(false);
    let copy = move |_| {
        set_copying.set(true);
        ctl.error.set(None);
        leptos::task::spawn_local(async move {
            match lab_copy(ctl.id.get_value()).await {
                Ok(id) => open_lab(id.as_str()),
                Err(e) => {
                    let _ = ctl.error.try_set(Some(e.text(ctl.lang)));
                }
            }
            let _ = set_copying.try_set(false);
        });
    };
    view! {
        <div class="card controls watching" id="watching">
            <p>
                <strong>{t!(lang, "lab-watching")}</strong>
                " " {t!(lang, "lab-watching-text")}
            </p>
            <button id="copy-lab" on:click=copy disabled=move || copying.get()>
                {t!(lang, "lab-copy")}
            </button>
            <p class="muted">{t!(lang, "lab-copy-note")}</p>
            <p id="lab-error" class="error" role="alert">{move || ctl.error.get()}</p>
        </div>
    }
}
