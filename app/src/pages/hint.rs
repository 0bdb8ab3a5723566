//! The Hint button of vs-AI and hot-seat tables: the engine, in the browser's
//! Web Worker (see [`crate::worker`]), finds the best move for the side to
//! move; the board marks it and the card says its value, the depth and the
//! positions searched. Exact (the endgame solver) in the last 20 empties,
//! a depth-limited search before. Not offered in online games: a hint there
//! would be help from a machine.

use crate::i18n::Lang;
use crate::protocol::{square_name, Side, TableMode, TableView};
use crate::worker::{Analysis, EngineRequest};
use leptos::prelude::*;

/// How deep a hint searches before the last 20 empties.
pub const HINT_DEPTH: u32 = 6;

/// What the hint card says about an analysis for `mover`.
pub fn describe(lang: Lang, analysis: &Analysis, mover: Side, ms: f64) -> String {
    let side = mover.name();
    let Some(square) = analysis.best() else {
        return t!(lang, "hint-pass", side = side);
    };
    let nodes = analysis.nodes as u64;
    let value = if analysis.exact {
        match analysis.value {
            0 => t!(lang, "hint-draw"),
            v if v > 0 => t!(lang, "hint-wins", side = side, by = v),
            v => t!(lang, "hint-loses", side = side, by = -v),
        }
    } else {
        t!(
            lang,
            "hint-value",
            side = side,
            value = format!("{:+}", analysis.value)
        )
    };
    let how = if analysis.exact {
        t!(lang, "hint-exact", empties = analysis.depth)
    } else {
        t!(lang, "hint-searched", depth = analysis.depth)
    };
    t!(
        lang,
        "hint-best",
        square = square_name(square),
        value = value,
        how = how,
        nodes = nodes,
        ms = format!("{ms:.0}")
    )
}

/// Whether a table offers hints to this viewer now: a vs-AI or hot-seat game
/// in play, the viewer to move.
pub fn offers_hint(view: &TableView) -> bool {
    !matches!(view.mode, TableMode::Online { .. }) && view.viewer_to_move()
}

/// The Hint card. `hint` is the square the board marks (cleared when the
/// position changes).
#[component]
pub fn HintPanel(view: RwSignal<TableView>, hint: RwSignal<Option<u8>>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let (text, set_text) = signal(None::<String>);
    let (busy, set_busy) = signal(false);
    // The position a hint was asked for; a reply for another one is dropped.
    let asked = StoredValue::new(None::<u64>);
    let version = Memo::new(move |_| view.with(|v| v.board.version));
    Effect::new(move |previous: Option<u64>| {
        let now = version.get();
        if previous.is_some_and(|p| p != now) {
            hint.set(None);
            set_text.set(None);
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
        set_text.set(Some(t!(lang, "hint-thinking")));
        hint.set(None);
        leptos::task::spawn_local(async move {
            let reply = crate::worker::analyse(EngineRequest::Hint {
                cells: v.board.cells.clone(),
                side,
                depth: HINT_DEPTH,
            })
            .await;
            if asked.try_get_value().flatten() != Some(version)
                || view.try_with_untracked(|v| v.board.version) != Some(version)
            {
                return;
            }
            let _ = set_busy.try_set(false);
            match reply {
                Ok(timed) => {
                    let _ = hint.try_set(timed.result.best());
                    let _ =
                        set_text.try_set(Some(describe(lang, &timed.result, to_move, timed.ms)));
                }
                Err(error) => {
                    let _ =
                        set_text.try_set(Some(t!(lang, "hint-failed", error = error.to_string())));
                }
            }
        });
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
            </div>
        </Show>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analysis(square: i32, value: i32, exact: bool) -> Analysis {
        Analysis {
            square,
            value,
            nodes: 4321.0,
            depth: if exact { 14 } else { 6 },
            exact,
        }
    }

    #[test]
    fn hints_are_described() {
        assert_eq!(
            describe(Lang::En, &analysis(37, 12, false), Side::Black, 8.4),
            "Best move f5: value +12 for Black; searched 6 moves ahead, 4321 positions in 8 ms."
        );
        assert_eq!(
            describe(Lang::En, &analysis(0, -6, true), Side::White, 120.0),
            "Best move a1: White loses by 6 with perfect play; solved exactly (14 empty squares), 4321 positions in 120 ms."
        );
        assert!(describe(Lang::En, &analysis(63, 0, true), Side::Black, 1.0).contains("a draw"));
        assert!(
            describe(Lang::En, &analysis(9, 4, true), Side::Black, 1.0).contains("Black wins by 4")
        );
        assert_eq!(
            describe(Lang::En, &analysis(-1, 0, false), Side::White, 0.0),
            "White has no move: it must pass."
        );
        assert_eq!(
            describe(Lang::El, &analysis(0, -6, true), Side::White, 120.0),
            "Καλύτερη κίνηση a1: τα λευκά χάνουν με διαφορά 6, αν παίξουν και οι δύο τέλεια· λύθηκε ακριβώς (14 κενά τετράγωνα), 4321 θέσεις σε 120 ms."
        );
    }
}
