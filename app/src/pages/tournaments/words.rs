//! A tournament's page in words (issue 67): the crosstable's cells with
//! their legend and a sentence each (a cell's title), the Brightwell
//! quotient explained in one sentence with the reader's own numbers, and
//! times in the reader's time zone with a countdown.

use crate::i18n::Lang;
use crate::tournaments::{bq_text, CrossCell, StandingLine};
use leptos::prelude::*;

/// A crosstable cell: `B3+ 40` (black against the 3rd, won, 40 discs), its
/// letters and "bye" in the reader's language.
pub fn cell_text(lang: Lang, c: &CrossCell) -> String {
    let Some(opponent) = c.opponent else {
        return t!(lang, "tournament-cell-bye");
    };
    let colour = if c.black {
        t!(lang, "tournament-cell-black")
    } else {
        t!(lang, "tournament-cell-white")
    };
    match (c.points, c.discs) {
        (Some(p), Some(d)) => {
            let mark = ["−", "=", "+"][p.min(2) as usize];
            format!("{colour}{opponent}{mark} {d}")
        }
        _ => format!("{colour}{opponent}"),
    }
}

/// A crosstable cell in one sentence (its title).
pub fn cell_title(lang: Lang, c: &CrossCell) -> String {
    let Some(opponent) = c.opponent else {
        return t!(lang, "tournament-cell-bye-title");
    };
    let (result, discs) = match (c.points, c.discs) {
        (Some(p), Some(d)) => (["lost", "drew", "won"][p.min(2) as usize], d.to_string()),
        _ => ("playing", "–".to_string()),
    };
    t!(
        lang,
        "tournament-cell-title",
        black = if c.black { "yes" } else { "no" },
        opponent = opponent,
        result = result,
        discs = discs
    )
}

/// A line's BQ in numbers: its discs, the multiplier, the opponents'
/// points, the BQ (the title of its cell, and the reader's own line).
pub fn bq_numbers(lang: Lang, own: bool, l: &StandingLine, multiplier: u32) -> String {
    let opponents = if multiplier == 0 {
        0.0
    } else {
        (l.bq - f64::from(l.discs)) / f64::from(multiplier)
    };
    let opponents = if opponents.fract() == 0.0 {
        format!("{opponents:.0}")
    } else {
        format!("{opponents:.1}")
    };
    let bq = bq_text(l.bq);
    if own {
        t!(
            lang,
            "tournament-bq-yours",
            discs = l.discs,
            multiplier = multiplier,
            opponents = opponents,
            bq = bq
        )
    } else {
        t!(
            lang,
            "tournament-bq-of",
            name = l.name.clone(),
            discs = l.discs,
            multiplier = multiplier,
            opponents = opponents,
            bq = bq
        )
    }
}

/// The legend under the crosstable, and the BQ in one sentence (a fold:
/// the reader's own numbers and the full rule inside).
#[component]
pub fn Legend(multiplier: u32, mine: Option<StandingLine>, rule: String) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let yours = mine.map(|l| bq_numbers(lang, true, &l, multiplier));
    view! {
        <p class="muted crosstable-legend" id="crosstable-legend">{t!(lang, "tournament-legend")}</p>
        <details class="bq-explain" id="bq-explain">
            <summary>{t!(lang, "tournament-bq-sentence", multiplier = multiplier)}</summary>
            {yours.map(|y| view! { <p id="bq-yours">{y}</p> })}
            <p class="muted">{rule}</p>
        </details>
    }
}

/// `YYYY-MM-DD HH:MM` in the reader's time zone (the browser's), or in UTC
/// with "UTC" where that is not known (the server's page, before
/// hydration).
fn local_text(ms: i64, local: bool) -> String {
    #[cfg(feature = "hydrate")]
    if local {
        let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms as f64));
        return format!(
            "{}-{:02}-{:02} {:02}:{:02}",
            d.get_full_year(),
            d.get_month() + 1,
            d.get_date(),
            d.get_hours(),
            d.get_minutes()
        );
    }
    let _ = local;
    super::start_text(ms)
}

/// `1:05:09` or `4:09`: what is left until a time.
fn left_text(ms: i64) -> String {
    let s = (ms.max(0) + 999) / 1000;
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// A time, in the reader's time zone once the page runs in the browser,
/// and (with `countdown`) the time left until it, every second.
#[component]
pub fn When(ms: i64, countdown: bool) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let now = RwSignal::new(None::<i64>);
    #[cfg(feature = "hydrate")]
    {
        let read = move || now.set(Some(js_sys::Date::now() as i64));
        Effect::new(move |_| read());
        if countdown {
            if let Ok(handle) = set_interval_with_handle(read, std::time::Duration::from_secs(1)) {
                on_cleanup(move || handle.clear());
            }
        }
    }
    let iso = {
        let utc = super::start_text(ms);
        utc.trim_end_matches(" UTC").replace(' ', "T") + "Z"
    };
    view! {
        <time datetime=iso class="when">{move || local_text(ms, now.get().is_some())}</time>
        {move || {
            let left = now.get().filter(|_| countdown).map(|n| ms - n).filter(|left| *left > 0)?;
            Some(view! { " " <span class="countdown" id="tournament-countdown">{t!(lang, "tournament-countdown", left = left_text(left))}</span> })
        }}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_left_reads_as_a_clock() {
        assert_eq!(left_text(0), "0:00");
        assert_eq!(left_text(4 * 60_000 + 9_000), "4:09");
        assert_eq!(left_text(3_909_000), "1:05:09");
        assert_eq!(left_text(1), "0:01");
    }

    #[test]
    fn cells_read_in_both_languages() {
        let won = CrossCell {
            round: 1,
            opponent: Some(3),
            black: true,
            points: Some(2),
            discs: Some(40),
        };
        let bye = CrossCell {
            round: 2,
            opponent: None,
            black: false,
            points: Some(2),
            discs: Some(32),
        };
        assert_eq!(cell_text(Lang::En, &won), "B3+ 40");
        assert_eq!(cell_text(Lang::En, &bye), "bye");
        assert!(!cell_text(Lang::El, &bye).contains("bye"));
        assert!(cell_title(Lang::En, &won).contains("40"));
    }
}
