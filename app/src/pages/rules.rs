//! The white rules sidebar opened by the **?** button.

use leptos::prelude::*;

/// Focuses `button` once it can take the focus (the sidebar shown), trying
/// again every 50 ms, at most `tries` times.
#[cfg(feature = "hydrate")]
fn focus_when_shown(button: NodeRef<leptos::html::Button>, tries: u32) {
    set_timeout(
        move || {
            let Some(element) = button.get_untracked() else {
                return;
            };
            let _ = element.focus();
            let shown: &web_sys::Element = &element;
            let focused = document()
                .active_element()
                .is_some_and(|active| active == *shown);
            if !focused && tries > 1 {
                focus_when_shown(button, tries - 1);
            }
        },
        std::time::Duration::from_millis(50),
    );
}

#[component]
pub fn RulesSidebar(#[prop(into)] open: Signal<bool>, on_close: Callback<()>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let close_button = NodeRef::<leptos::html::Button>::new();
    // Opening moves the focus into the sidebar (its close button); closing
    // gives it back to the "?" button that opened it. Escape closes it from
    // anywhere on the page.
    #[cfg(feature = "hydrate")]
    {
        Effect::new(move |was_open: Option<bool>| {
            let now_open = open.get();
            if now_open {
                // After the sidebar has become visible (a hidden element
                // cannot take the focus; its slide-in starts this frame).
                focus_when_shown(close_button, 10);
            } else if was_open == Some(true) {
                if let Some(toggle) = document().get_element_by_id("rules-toggle") {
                    use wasm_bindgen::JsCast;
                    if let Ok(toggle) = toggle.dyn_into::<web_sys::HtmlElement>() {
                        let _ = toggle.focus();
                    }
                }
            }
            now_open
        });
        let handle = window_event_listener(leptos::ev::keydown, move |ev| {
            if ev.key() == "Escape" && open.get_untracked() {
                ev.prevent_default();
                on_close.run(());
            }
        });
        on_cleanup(move || handle.remove());
    }
    view! {
        <aside
            id="rules"
            class="rules-sidebar"
            class:open=move || open.get()
            aria-hidden=move || (!open.get()).to_string()
            aria-label=t!(lang, "rules-title")
        >
            <button node_ref=close_button class="close secondary" aria-label=t!(lang, "rules-close") on:click=move |_| on_close.run(())>
                "×"
            </button>
            <h2>{t!(lang, "rules-title")}</h2>
            <ul>
                <li>{t!(lang, "rules-1")}</li>
                <li>{t!(lang, "rules-2")}</li>
                <li>{t!(lang, "rules-3")}</li>
                <li>{t!(lang, "rules-4")}</li>
                <li>{t!(lang, "rules-5")}</li>
                <li>{t!(lang, "rules-6")}</li>
            </ul>
            <h2>{t!(lang, "rules-controls")}</h2>
            <ul>
                <li>{t!(lang, "rules-controls-1")}</li>
                <li>{t!(lang, "rules-controls-2")}</li>
                <li>{t!(lang, "rules-controls-3")}</li>
            </ul>
            <h2>{t!(lang, "rules-keys")}</h2>
            <ul id="rules-keys">
                <li>{t!(lang, "rules-keys-1")}</li>
                <li>{t!(lang, "rules-keys-2")}</li>
                <li>{t!(lang, "rules-keys-3")}</li>
                <li>{t!(lang, "rules-keys-4")}</li>
            </ul>
            <h2>{t!(lang, "rules-online")}</h2>
            <ul>
                <li>{t!(lang, "rules-online-1")}</li>
                <li>{t!(lang, "rules-online-2")}</li>
                <li>{t!(lang, "rules-online-3")}</li>
                <li>{t!(lang, "rules-online-4")}</li>
                <li>{t!(lang, "rules-online-5")}</li>
                <li>{t!(lang, "rules-online-6")}</li>
            </ul>
            <h2>{t!(lang, "rules-clocks")}</h2>
            <ul>
                <li>{t!(lang, "rules-clocks-1")}</li>
                <li>{t!(lang, "rules-clocks-2")}</li>
                <li>{t!(lang, "rules-clocks-3")}</li>
                <li>{t!(lang, "rules-clocks-4")}</li>
                <li>{t!(lang, "rules-clocks-5")}</li>
            </ul>
        </aside>
    }
}
