//! "Report": a reason and a short text about a player, sent to the site's
//! operators (`othello-server admin reports`). Shown on a profile and under
//! an online table's players; capped per address by the server.

use crate::accounts::{report_player, Report, ReportReason};
use leptos::prelude::*;

fn reason_label(lang: crate::i18n::Lang, reason: ReportReason) -> String {
    match reason {
        ReportReason::Cheating => t!(lang, "report-cheating"),
        ReportReason::Boosting => t!(lang, "report-boosting"),
        ReportReason::Abuse => t!(lang, "report-abuse"),
        ReportReason::Other => t!(lang, "report-other"),
    }
}

/// A folded "Report <name>" form; `table`: the online table it concerns.
#[component]
pub fn ReportPlayer(
    name: String,
    #[prop(default = None)] table: Option<crate::protocol::TableId>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let (reason, set_reason) = signal(ReportReason::Cheating);
    let (text, set_text) = signal(String::new());
    let (busy, set_busy) = signal(false);
    let (answer, set_answer) = signal(None::<(bool, String)>);
    let reported = name.clone();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        set_busy.set(true);
        set_answer.set(None);
        let report = Report {
            name: reported.clone(),
            table: table.clone(),
            reason: reason.get_untracked(),
            text: text.get_untracked(),
        };
        leptos::task::spawn_local(async move {
            let shown = match report_player(report).await {
                Ok(()) => {
                    let _ = set_text.try_set(String::new());
                    (true, t!(lang, "report-sent"))
                }
                Err(error) => (false, error.text(lang)),
            };
            let _ = set_answer.try_set(Some(shown));
            let _ = set_busy.try_set(false);
        });
    };
    view! {
        <details class="report" id="report-player">
            <summary id="report-open">{t!(lang, "report-summary", name = name.clone())}</summary>
            <form id="report-form" on:submit=submit>
                <label>
                    {t!(lang, "report-reason")} " "
                    <select id="report-reason" on:change=move |ev| {
                        let chosen = event_target_value(&ev);
                        if let Some(r) = ReportReason::ALL.into_iter().find(|r| r.key() == chosen) {
                            set_reason.set(r);
                        }
                    }>
                        {ReportReason::ALL
                            .into_iter()
                            .map(|r| view! { <option value=r.key()>{reason_label(lang, r)}</option> })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    {t!(lang, "report-text")}
                    <textarea id="report-text" maxlength="500" rows="3"
                        prop:value=text on:input=move |ev| set_text.set(event_target_value(&ev))></textarea>
                </label>
                <button type="submit" class="secondary" id="report-send" disabled=move || busy.get()>
                    {t!(lang, "report-send")}
                </button>
                <p id="report-answer" role="status" class=move || match answer.get() {
                    Some((false, _)) => "error",
                    _ => "notice",
                }>{move || answer.get().map(|(_, m)| m)}</p>
            </form>
        </details>
    }
}
