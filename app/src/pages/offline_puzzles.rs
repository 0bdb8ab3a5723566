//! Puzzles with no network, on the offline page: a pack of the shipped set
//! (`/pkg/puzzles.<hash>.jsonl`, the first 500, precached by the service
//! worker with the rest of the deploy) played on the page's main board (a
//! takeover, as the practice of mistakes is). Each move is judged in the
//! browser by the one puzzle judge ([`crate::puzzles::judge`]: the engine's
//! rules replay the proved line, the opponent's replies and passes played
//! between); nothing is sent to the server and nothing is rated.

use crate::pages::puzzles::{task_text, verdict_text, Phase, Run};
use crate::protocol::{square_name, Side};
use crate::puzzles::{judge, moves_to_find, PuzzleSolution, PuzzleStep, PuzzleView};
use crate::ratings::ShownRating;
use crate::takeover::BoardTakeover;
use leptos::prelude::*;
use serde::Deserialize;

/// One line of the pack (the generator's format; only what is played).
#[derive(Clone, Debug, Deserialize)]
pub struct PackPuzzle {
    pub id: String,
    pub obf: String,
    pub line: Vec<String>,
    pub values: Vec<(String, f32)>,
    pub exact: bool,
}

/// The pack's puzzles that read (a line that does not is left out).
pub fn read_pack(text: &str) -> Vec<PackPuzzle> {
    text.lines()
        .filter_map(|l| serde_json::from_str::<PackPuzzle>(l).ok())
        .filter(|p| engine::Position::from_obf(&p.obf).is_ok())
        .collect()
}

fn squares(names: &[String]) -> Option<Vec<engine::Square>> {
    names.iter().map(|n| n.parse().ok()).collect()
}

fn index(square: engine::Square) -> u8 {
    square.index() as u8
}

/// The puzzle as the page's [`Run`] takes it.
pub fn view_of(p: &PackPuzzle) -> Option<PuzzleView> {
    let start = engine::Position::from_obf(&p.obf).ok()?;
    let line = squares(&p.line)?;
    Some(PuzzleView {
        id: p.id.clone(),
        cells: start.to_cells().to_vec(),
        side: if start.side_to_move == engine::Color::Black {
            Side::Black
        } else {
            Side::White
        },
        legal: start.legal_moves().iter().map(index).collect(),
        to_find: moves_to_find(start, &line),
        rating: 0,
        exact: p.exact,
        depth: None,
        daily: false,
        you: ShownRating::new(1500.0, 350.0),
        tried: false,
        unrated: None,
    })
}

/// The judge's answer to the player's `moves`, as the server would give it
/// (never rated); `None` when a move is not legal or the pack's line does
/// not replay.
pub fn step_of(p: &PackPuzzle, moves: &[u8]) -> Option<PuzzleStep> {
    let start = engine::Position::from_obf(&p.obf).ok()?;
    let line = squares(&p.line)?;
    let played = moves
        .iter()
        .map(|&m| engine::Square::new(usize::from(m)))
        .collect::<Option<Vec<_>>>()?;
    let judged = judge(start, &line, &played).ok()?;
    Some(PuzzleStep::of(judged, || PuzzleSolution {
        values: p
            .values
            .iter()
            .filter_map(|(n, v)| Some((index(n.parse().ok()?), *v)))
            .collect(),
        exact: p.exact,
        line: line.iter().copied().map(index).collect(),
        pv: Vec::new(),
        themes: Vec::new(),
    }))
}

/// The pack, fetched once (from the service worker's cache when offline).
#[cfg(feature = "hydrate")]
async fn fetch_pack() -> Result<Vec<PackPuzzle>, String> {
    use wasm_bindgen::JsCast;
    let window = web_sys::window().ok_or("no window")?;
    let url = crate::worker::meta_url(crate::assets::PUZZLES_META, crate::worker::PUZZLES_URL);
    let response = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(&url))
        .await
        .map_err(|e| format!("{e:?}"))?
        .dyn_into::<web_sys::Response>()
        .map_err(|_| "not a response".to_string())?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    let text = wasm_bindgen_futures::JsFuture::from(response.text().map_err(|e| format!("{e:?}"))?)
        .await
        .map_err(|e| format!("{e:?}"))?
        .as_string()
        .unwrap_or_default();
    Ok(read_pack(&text))
}

/// "Solve puzzles offline": the pack's puzzles, one after another (from a
/// random one), on the main board.
#[component]
pub fn OfflinePuzzles() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let takeover = use_context::<BoardTakeover>()
        .map(|t| t.0)
        .unwrap_or_else(|| RwSignal::new(None));
    let pack = StoredValue::new(Vec::<PackPuzzle>::new());
    let at = RwSignal::new(0usize);
    let run = RwSignal::new(None::<Run>);
    let error = RwSignal::new(None::<String>);
    let show = move |i: usize| {
        let next = pack.with_value(|p| p.get(i % p.len().max(1)).and_then(view_of));
        at.set(i);
        run.set(next.map(Run::new));
    };
    let on_square = Callback::new(move |square: u8| {
        let Some(moves) = run
            .try_update(|r| r.as_mut().and_then(|r| r.try_move(square)))
            .flatten()
        else {
            return;
        };
        let step = pack.with_value(|p| {
            p.get(at.get_untracked() % p.len().max(1))
                .and_then(|p| step_of(p, &moves))
        });
        run.update(|r| {
            if let Some(r) = r {
                match step {
                    Some(step) => r.answered(step),
                    None => r.not_sent(),
                }
            }
        });
    });
    let stop = move |_| {
        let _ = takeover.try_set(None);
        run.set(None);
    };
    on_cleanup(move || {
        let _ = takeover.try_set(None);
    });
    let banner = StoredValue::new(ViewFn::from(move || {
        let state = move || match run.with(|r| r.as_ref().map(|r| r.phase)) {
            Some(Phase::Over { solved: true }) => "solved",
            Some(Phase::Over { solved: false }) => "failed",
            _ => "solving",
        };
        view! {
            <div class="practice-banner" id="offline-puzzle" role="region" aria-label=t!(lang, "puzzles-title")
                data-id=move || run.with(|r| r.as_ref().map(|r| r.view.id.clone()).unwrap_or_default()) data-state=state>
                <p id="offline-puzzle-task">
                    <strong>{move || run.with(|r| r.as_ref().map(|_| t!(lang, "offline-puzzles-of", n = at.get() % pack.with_value(Vec::len).max(1) + 1, total = pack.with_value(Vec::len))))}</strong>
                    " "
                    {move || run.with(|r| r.as_ref().map(|r| task_text(lang, &r.view)))}
                </p>
                <p id="offline-puzzle-verdict" aria-live="polite">
                    {move || run.with(|r| r.as_ref().and_then(|r| verdict_text(lang, r)))}
                    {move || run.with(|r| r.as_ref().filter(|r| matches!(r.phase, Phase::Over { .. })).and_then(|r| r.best()).map(|b| format!(" {}", t!(lang, "offline-puzzles-best", best = square_name(b)))))}
                </p>
                <div class="practice-actions">
                    <button id="offline-puzzle-next" on:click=move |_| show(at.get_untracked() + 1)>{t!(lang, "puzzles-next")}</button>
                    <button class="secondary" id="offline-puzzle-stop" on:click=stop>{t!(lang, "practice-stop")}</button>
                </div>
            </div>
        }
    }));
    let begin = move |_| {
        error.set(None);
        #[cfg(feature = "hydrate")]
        leptos::task::spawn_local(async move {
            if pack.with_value(Vec::is_empty) {
                match fetch_pack().await {
                    Ok(read) if !read.is_empty() => pack.set_value(read),
                    Ok(_) => return error.set(Some(t!(lang, "offline-puzzles-none"))),
                    Err(e) => {
                        return error.set(Some(t!(lang, "offline-puzzles-failed", error = e)))
                    }
                }
            }
            let first = (js_sys::Math::random() * pack.with_value(Vec::len) as f64) as usize;
            show(first);
            let _ = takeover.try_set(Some(crate::takeover::Takeover {
                snapshot: Signal::derive(move || {
                    run.with(|r| {
                        r.as_ref()
                            .map_or_else(crate::protocol::BoardSnapshot::empty, Run::snapshot)
                    })
                }),
                on_square,
                hint: Signal::derive(move || run.with(|r| r.as_ref().and_then(Run::best))),
                labels: Signal::derive(move || {
                    run.with(|r| {
                        r.as_ref()
                            .map(|r| crate::pages::hint::board_labels(&r.values()))
                            .unwrap_or_default()
                    })
                }),
                banner: banner.get_value(),
            }));
        });
    };
    #[cfg(not(feature = "hydrate"))]
    let _ = (show, on_square, banner, takeover);
    view! {
        <div class="card offline-puzzles" id="offline-puzzles">
            <h2>{t!(lang, "puzzles-title")}</h2>
            <p>{t!(lang, "offline-puzzles-text")}</p>
            <button class="secondary" id="offline-puzzles-start" on:click=begin>{t!(lang, "offline-puzzles-start")}</button>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::StepOutcome;

    const LINE: &str = r#"{"id":"t","obf":"---------------------------OX------XO--------------------------- X","line":["f5","d6","c3"],"values":[["f5",2],["d3",-2],["c4",-2],["e6",-2]],"exact":true}"#;

    #[test]
    fn the_pack_is_judged_in_the_browser_as_on_the_server() {
        let pack = read_pack(&format!("{LINE}\nnot json\n"));
        assert_eq!(pack.len(), 1);
        let view = view_of(&pack[0]).unwrap();
        assert_eq!(
            (view.to_find, view.side, view.legal.len()),
            (2, Side::Black, 4)
        );
        let f5 = 37;
        let step = step_of(&pack[0], &[f5]).unwrap();
        assert_eq!(step.outcome, StepOutcome::Continue { reply: Some(43) });
        assert_eq!(
            step_of(&pack[0], &[f5, 18]).unwrap().outcome,
            StepOutcome::Solved
        );
        let failed = step_of(&pack[0], &[19]).unwrap();
        assert_eq!(failed.outcome, StepOutcome::Failed);
        assert_eq!(failed.solution.unwrap().values.len(), 4);
        assert!(step_of(&pack[0], &[0]).is_none(), "a1 is no move");
    }
}
