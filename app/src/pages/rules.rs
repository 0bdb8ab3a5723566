//! The white rules sidebar opened by the **?** button.

use leptos::prelude::*;

#[component]
pub fn RulesSidebar(#[prop(into)] open: Signal<bool>, on_close: Callback<()>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    view! {
        <aside
            id="rules"
            class="rules-sidebar"
            class:open=move || open.get()
            aria-hidden=move || (!open.get()).to_string()
        >
            <button class="close secondary" aria-label=t!(lang, "rules-close") on:click=move |_| on_close.run(())>
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
