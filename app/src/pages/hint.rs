//! The Hint button of vs-AI and hot-seat tables: the engine, in the browser's
//! Web Worker (see [`crate::worker`]), scores every legal move in discs with
//! the strong search on the trained pattern evaluation (exact where the
//! solver finishes within the budget, near the end); the board marks the
//! best move, and the card says it in words ("Best move g3: it loses least,
//! Black is behind."); on request ("Show the numbers") every move's value is
//! written on its square and listed best first, exact or an estimate, with a
//! line on what a value means. Not offered in online games: a hint
//! there would be help from a machine.

use crate::i18n::Lang;
use crate::protocol::{square_name, Side, TableMode, TableView};
use crate::worker::{MoveValue, MoveValues};
use leptos::prelude::*;

/// How deep a hint searches in the midgame.
pub const HINT_DEPTH: u32 = 8;
/// The most positions one hint may visit (all moves together): about a
/// second in the browser on a slow machine.
pub const HINT_NODES: u64 = 3_000_000;

/// A value in discs as the card and the board show it: `+3`, `−2`, `0`.
pub fn disc_text(value: f32) -> String {
    let rounded = value.round() as i32;
    match rounded {
        0 => "0".to_string(),
        v if v > 0 => format!("+{v}"),
        v => format!("−{}", -v),
    }
}

/// The card's first line, in words: the best move and where it leaves
/// `mover` ("Best move g3: it loses least, Black is behind.").
pub fn verdict(lang: Lang, values: &MoveValues, mover: Side) -> String {
    let side = mover.name();
    let Some(best) = values.moves.first() else {
        return t!(lang, "hint-pass", side = side);
    };
    let discs = best.value.round() as i32;
    let standing = match (best.exact, discs) {
        (true, 0) => t!(lang, "hint-standing-draws"),
        (true, d) if d > 0 => t!(lang, "hint-standing-wins", by = d),
        (true, d) => t!(lang, "hint-standing-loses", by = -d),
        // Within a disc either way is level: an estimate is not finer.
        (false, -1..=1) => t!(lang, "hint-standing-level", side = side),
        (false, d) if d > 0 => t!(lang, "hint-standing-ahead", side = side),
        (false, _) => t!(lang, "hint-standing-behind", side = side),
    };
    t!(
        lang,
        "hint-verdict",
        square = square_name(best.square),
        standing = standing
    )
}

/// The numbers' line: how the values were found, how many, how long.
pub fn detail(lang: Lang, values: &MoveValues, ms: f64) -> String {
    let how = if values.moves.first().is_some_and(|m| m.exact) {
        t!(lang, "hint-exact-all")
    } else {
        t!(lang, "hint-searched", depth = values.depth)
    };
    t!(
        lang,
        "hint-detail",
        how = how,
        count = values.moves.len(),
        ms = format!("{ms:.0}")
    )
}

/// The board's labels for every move's value: `(square, value, best)`, a
/// move within half a disc of the best counting as best (as in the list).
pub fn board_labels(moves: &[MoveValue]) -> Vec<(u8, String, bool)> {
    let best = moves.iter().map(|m| m.value).fold(f32::MIN, f32::max);
    moves
        .iter()
        .map(|m| (m.square, disc_text(m.value), best - m.value < 0.5))
        .collect()
}

/// One row of the sorted list: the square, its value, exact or estimate.
fn move_row(lang: Lang, m: MoveValue, best: f32) -> impl IntoView {
    let kind = if m.exact {
        t!(lang, "hint-tag-exact")
    } else {
        t!(lang, "hint-tag-estimate")
    };
    // Within half a disc of the best counts as a best move.
    let is_best = best - m.value < 0.5;
    view! {
        <li
            class="hint-move"
            class:best=is_best
            class:exact=m.exact
            data-square=m.square.to_string()
            data-mark=square_name(m.square)
            data-value=format!("{:.2}", m.value)
        >
            <span class="sq">{square_name(m.square)}</span>
            <span class="val">{disc_text(m.value)}</span>
            <span class="kind">{kind}</span>
        </li>
    }
}

/// Whether a table offers hints to this viewer now: a vs-AI or hot-seat game
/// in play, the viewer to move.
pub fn offers_hint(view: &TableView) -> bool {
    !matches!(view.mode, TableMode::Online { .. }) && view.viewer_to_move()
}

/// The Hint card. `hint` is the square the board marks and `values` every
/// move's value for the board's numbers (both cleared when the position
/// changes).
#[component]
pub fn HintPanel(
    view: RwSignal<TableView>,
    hint: RwSignal<Option<u8>>,
    values: RwSignal<Vec<MoveValue>>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let (text, set_text) = signal(None::<String>);
    let (numbers_text, set_numbers_text) = signal(None::<String>);
    let (busy, set_busy) = signal(false);
    // Every move's value: in the list and on the board once the player asks
    // for the numbers (kept open for the next hints).
    let all = RwSignal::new(Vec::<MoveValue>::new());
    let numbers = RwSignal::new(false);
    Effect::new(move |_| {
        let shown = if numbers.get() { all.get() } else { Vec::new() };
        values.set(shown);
    });
    // The position a hint was asked for; a reply for another one is dropped.
    let asked = StoredValue::new(None::<u64>);
    let version = Memo::new(move |_| view.with(|v| v.board.version));
    Effect::new(move |previous: Option<u64>| {
        let now = version.get();
        if previous.is_some_and(|p| p != now) {
            hint.set(None);
            all.set(Vec::new());
            set_text.set(None);
            set_numbers_text.set(None);
            if busy.get_untracked() {
                crate::worker::cancel();
                set_busy.set(false);
            }
        }
        now
    });
    let ask = move |_| {
        let v = view.get_untracked();
        let crate::protocol::RoundStatus::Playing { to_move } = v.status else {
            return;
        };
        let side = match to_move {
            Side::Black => 1,
            Side::White => -1,
        };
        let version = v.board.version;
        asked.set_value(Some(version));
        set_busy.set(true);
        set_text.set(Some(t!(
            lang,
            "hint-thinking-all",
            millions = HINT_NODES / 1_000_000
        )));
        hint.set(None);
        all.set(Vec::new());
        leptos::task::spawn_local(async move {
            let reply =
                crate::worker::hint_all(v.board.cells.clone(), side, HINT_DEPTH, HINT_NODES).await;
            if asked.try_get_value().flatten() != Some(version)
                || view.try_with_untracked(|v| v.board.version) != Some(version)
            {
                return;
            }
            let _ = set_busy.try_set(false);
            match reply {
                Ok(timed) => {
                    let _ = hint.try_set(timed.result.moves.first().map(|m| m.square));
                    let _ = all.try_set(timed.result.moves.clone());
                    let _ = set_text.try_set(Some(verdict(lang, &timed.result, to_move)));
                    let _ = set_numbers_text.try_set(Some(detail(lang, &timed.result, timed.ms)));
                }
                Err(error) => {
                    let _ =
                        set_text.try_set(Some(t!(lang, "hint-failed", error = error.to_string())));
                }
            }
        });
    };
    let list = move || {
        let moves = values.get();
        let best = moves.first().map_or(0.0, |m| m.value);
        (!moves.is_empty()).then(|| {
            view! {
                <ol id="hint-moves" class="hint-moves" aria-label=t!(lang, "hint-list-label")>
                    {moves.into_iter().map(|m| move_row(lang, m, best)).collect_view()}
                </ol>
            }
        })
    };
    view! {
        <Show when=move || view.with(offers_hint)>
            <div class="card hint" id="hint-card">
                <button
                    class="secondary"
                    id="hint"
                    on:click=ask
                    disabled=move || busy.get()
                    title=t!(lang, "hint-title")
                >
                    {t!(lang, "hint-button")}
                </button>
                <p id="hint-result" aria-live="polite" data-square=move || hint.get().map(|s| s.to_string())>
                    {move || text.get()}
                </p>
                <Show when=move || all.with(|a| !a.is_empty())>
                    <button
                        class="link-button"
                        id="hint-numbers"
                        aria-expanded=move || numbers.get().to_string()
                        on:click=move |_| numbers.update(|n| *n = !*n)
                    >
                        {move || if numbers.get() { t!(lang, "hint-numbers-hide") } else { t!(lang, "hint-numbers-show") }}
                    </button>
                </Show>
                <Show when=move || numbers.get() && numbers_text.with(Option::is_some)>
                    <p class="hint-legend" id="hint-legend">{t!(lang, "hint-legend")}</p>
                    <p class="muted" id="hint-detail">{move || numbers_text.get()}</p>
                </Show>
                {list}
            </div>
        </Show>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(moves: &[(u8, f32, bool)]) -> MoveValues {
        MoveValues {
            moves: moves
                .iter()
                .map(|&(square, value, exact)| MoveValue {
                    square,
                    value,
                    exact,
                })
                .collect(),
            depth: 8,
        }
    }

    #[test]
    fn hints_are_described_in_words_then_numbers() {
        let ahead = values(&[(37, 2.4, false), (19, -1.0, false)]);
        assert_eq!(
            verdict(Lang::En, &ahead, Side::Black),
            "Best move f5: Black is ahead."
        );
        assert_eq!(
            detail(Lang::En, &ahead, 8.4),
            "searched 8 moves ahead; 2 moves scored in 8 ms."
        );
        assert_eq!(
            verdict(Lang::En, &values(&[(22, -27.0, false)]), Side::Black),
            "Best move g3: it loses least, Black is behind."
        );
        assert_eq!(
            verdict(Lang::En, &values(&[(22, 0.8, false)]), Side::White),
            "Best move g3: White is neither ahead nor behind."
        );
        let exact = values(&[(0, -6.0, true)]);
        assert_eq!(
            verdict(Lang::En, &exact, Side::White),
            "Best move a1: it loses least (by 6) with perfect play."
        );
        assert_eq!(
            detail(Lang::En, &exact, 120.0),
            "solved exactly; 1 move scored in 120 ms."
        );
        assert_eq!(
            verdict(Lang::En, &values(&[(63, 0.0, true)]), Side::Black),
            "Best move h8: it draws with perfect play."
        );
        assert_eq!(
            verdict(Lang::En, &values(&[(9, 4.0, true)]), Side::Black),
            "Best move b2: it wins by 4 with perfect play."
        );
        assert_eq!(
            verdict(Lang::En, &values(&[]), Side::White),
            "White has no move: it must pass."
        );
        assert_eq!(
            verdict(Lang::El, &values(&[(22, -27.0, false)]), Side::White),
            "Καλύτερη κίνηση g3: χάνει λιγότερο, τα λευκά είναι πίσω."
        );
        assert_eq!(
            detail(Lang::El, &exact, 120.0),
            "λύθηκε ακριβώς· 1 κίνηση αξιολογήθηκε σε 120 ms."
        );
    }

    #[test]
    fn board_labels_mark_every_move_within_half_a_disc_of_the_best() {
        let moves = [
            MoveValue {
                square: 26,
                value: 1.8,
                exact: false,
            },
            MoveValue {
                square: 19,
                value: 2.1,
                exact: false,
            },
            MoveValue {
                square: 37,
                value: -3.0,
                exact: false,
            },
        ];
        assert_eq!(
            board_labels(&moves),
            vec![
                (26, "+2".to_string(), true),
                (19, "+2".to_string(), true),
                (37, "−3".to_string(), false),
            ]
        );
        assert!(board_labels(&[]).is_empty());
    }

    #[test]
    fn disc_values_read_with_their_sign() {
        assert_eq!(disc_text(2.4), "+2");
        assert_eq!(disc_text(-0.4), "0");
        assert_eq!(disc_text(-3.6), "−4");
        assert_eq!(disc_text(0.0), "0");
    }
}
