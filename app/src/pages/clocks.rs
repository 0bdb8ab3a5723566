//! The clocks of a timed online table (docs/PRODUCT.md, Online rules): both
//! remaining times, the running one counting down locally between the
//! server's snapshots, a low-time warning, and spoken warnings at 30 s and
//! 10 s.
//!
//! The server alone keeps time. A snapshot says how much each side had when
//! the server made it and whose clock runs; the page counts the running one
//! down from the moment the snapshot *arrived* (never from the server's
//! timestamp, which a browser's clock cannot be compared with), and shows the
//! owner of the move named in that same snapshot, so a slow network delays
//! the display but never shows the wrong side's clock running. When the
//! local countdown reaches zero the page shows 0:00 and waits for the
//! server's verdict. Before a side's first move its clock does not run: the
//! page counts down its first-move timer instead ("Black must move within
//! 17 s").

use crate::i18n::Lang;
use crate::protocol::{Clocks, Side};
use leptos::prelude::*;

/// Time under which a clock shows the low-time warning (ms).
pub const LOW_MS: i64 = 30_000;
/// Times (ms) at which the running clock is announced.
pub const ANNOUNCE_AT: [i64; 2] = [30_000, 10_000];

/// `m:ss`, or `s.t` (tenths) under ten seconds; rounds up so 0:00 means out.
pub fn format_clock(ms: i64) -> String {
    let ms = ms.max(0);
    let tenths = (ms + 99) / 100;
    if tenths < 100 {
        format!("0:0{}.{}", tenths / 10, tenths % 10)
    } else {
        let secs = (ms + 999) / 1000;
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

/// The warning to speak when a clock goes from `before` to `after` ms, if it
/// crossed one of [`ANNOUNCE_AT`].
pub fn crossing(lang: Lang, side: Side, before: i64, after: i64) -> Option<String> {
    ANNOUNCE_AT
        .iter()
        .rev()
        .find(|&&at| before > at && after <= at)
        .map(|at| {
            t!(
                lang,
                "clock-announce",
                side = crate::i18n::side_name(lang, side),
                seconds = at / 1000
            )
        })
}

fn now_ms() -> f64 {
    #[cfg(feature = "hydrate")]
    {
        js_sys::Date::now()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        0.0
    }
}

/// Both clocks. `clocks` is the latest snapshot (None: untimed, nothing shown).
#[component]
pub fn ClockPanel(clocks: Signal<Option<Clocks>>, you: Signal<Vec<Side>>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let arrived = RwSignal::new(now_ms());
    let now = RwSignal::new(now_ms());
    Effect::new(move |_| {
        clocks.track();
        let t = now_ms();
        arrived.set(t);
        now.set(t);
    });
    #[cfg(feature = "hydrate")]
    {
        if let Ok(handle) = set_interval_with_handle(
            move || now.set(now_ms()),
            std::time::Duration::from_millis(100),
        ) {
            on_cleanup(move || handle.clear());
        }
    }
    let left = move |side: Side| -> Option<i64> {
        let c = clocks.get()?;
        let mut ms = c.get(side);
        if c.running == Some(side) {
            ms -= (now.get() - arrived.get()).max(0.0) as i64;
        }
        Some(ms.max(0))
    };
    // Spoken warnings for the running clock.
    let announcement = RwSignal::new(String::new());
    let last: StoredValue<Option<(Side, i64)>> = StoredValue::new(None);
    Effect::new(move |_| {
        let Some(side) = clocks.with(|c| c.and_then(|c| c.running)) else {
            last.set_value(None);
            return;
        };
        let Some(after) = left(side) else { return };
        if let Some((last_side, before)) = last.get_value() {
            if last_side == side {
                if let Some(text) = crossing(lang, side, before, after) {
                    announcement.set(text);
                }
            }
        }
        last.set_value(Some((side, after)));
    });
    let clock = move |side: Side| {
        let label = move || {
            let name = crate::i18n::side_name(lang, side);
            if you.with(|y| y.len() == 1 && y.contains(&side)) {
                t!(lang, "clock-you", side = name)
            } else {
                name
            }
        };
        let class = move || {
            let ms = left(side).unwrap_or(0);
            let running = clocks.with(|c| c.is_some_and(|c| c.running == Some(side)));
            format!(
                "clock {}{}{}",
                if side == Side::Black {
                    "black"
                } else {
                    "white"
                },
                if running { " running" } else { "" },
                if ms <= LOW_MS { " low" } else { "" },
            )
        };
        let id = if side == Side::Black {
            "clock-black"
        } else {
            "clock-white"
        };
        view! {
            <div class=class id=id>
                <span class="clock-side">{label}</span>
                <span class="clock-time">{move || left(side).map(format_clock)}</span>
                <span class="clock-low">
                    {move || (left(side).unwrap_or(0) <= LOW_MS).then(|| t!(lang, "clock-low"))}
                </span>
            </div>
        }
    };
    view! {
        <Show when=move || clocks.with(Option::is_some)>
            <div class="card clocks" id="clocks">
                <p class="clock-control">
                    {t!(lang, "clock-control")} " "
                    {move || clocks.with(|c| c.map(|c| c.control.label()))}
                </p>
                {clock(Side::Black)}
                {clock(Side::White)}
                <p class="clock-first-move" id="clock-first-move">
                    {move || {
                        let first = clocks.get()?.first_move?;
                        let ms = first.ms - (now.get() - arrived.get()).max(0.0) as i64;
                        let seconds = (ms.max(0) + 999) / 1000;
                        Some(t!(lang, "clock-first-move", side = first.side.name(), seconds = seconds))
                    }}
                </p>
                <p id="clock-announcer" class="sr-only" aria-live="assertive" aria-atomic="true">
                    {move || announcement.get()}
                </p>
            </div>
        </Show>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_as_minutes_then_tenths() {
        assert_eq!(format_clock(180_000), "3:00");
        assert_eq!(format_clock(61_001), "1:02");
        assert_eq!(format_clock(10_000), "0:10");
        assert_eq!(format_clock(9_999), "0:10");
        assert_eq!(format_clock(9_900), "0:09.9");
        assert_eq!(format_clock(9_401), "0:09.5");
        assert_eq!(format_clock(0), "0:00.0");
        assert_eq!(format_clock(-5), "0:00.0");
    }

    #[test]
    fn warnings_are_spoken_once_at_30_and_10_seconds() {
        assert_eq!(
            crossing(Lang::En, Side::White, 30_100, 29_900).as_deref(),
            Some("White: 30 seconds left.")
        );
        assert_eq!(crossing(Lang::En, Side::White, 29_900, 29_800), None);
        assert_eq!(
            crossing(Lang::El, Side::Black, 10_050, 9_950).as_deref(),
            Some("Μαύρα: απομένουν 10 δευτερόλεπτα.")
        );
        // A jump over both (a late snapshot) speaks the lower one.
        assert_eq!(
            crossing(Lang::En, Side::Black, 40_000, 5_000).as_deref(),
            Some("Black: 10 seconds left.")
        );
        assert_eq!(crossing(Lang::En, Side::Black, 5_000, 40_000), None);
    }
}
