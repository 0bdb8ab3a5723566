//! The analysis board's cards: whose turn, every move's value and the best
//! line, the moves and the lines explored, the graph of the line's values,
//! setting up a position (editing, pasting), and the link.

use super::state::{self, Explorer, Setup, ValueKind};
use super::Ctx;
use crate::pages::hint::disc_text;
use crate::protocol::{square_name, Severity, Side};
use crate::worker::MoveValue;
use engine::Color;
use leptos::prelude::*;

fn side_of(color: Color) -> Side {
    match color {
        Color::Black => Side::Black,
        Color::White => Side::White,
    }
}

/// Whose turn it is (or the final score), and a pass just made.
#[component]
pub(super) fn TurnCard(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let text = move || {
        if let Some(setup) = ctx.setup.get() {
            let side = crate::i18n::side_name(lang, side_of(setup.side));
            return t!(lang, "analysis-board-editing", side = side);
        }
        let position = ctx.explorer.with(Explorer::position);
        if position.is_game_over() {
            let black = position.count(Color::Black);
            let white = position.count(Color::White);
            return t!(lang, "analysis-board-over", black = black, white = white);
        }
        let side = crate::i18n::side_name(lang, side_of(position.side_to_move));
        t!(lang, "analysis-board-turn", side = side)
    };
    let passed = move || {
        let passed = ctx
            .explorer
            .with(|e| e.node(e.current()).and_then(|n| n.passed));
        passed.filter(|_| ctx.setup.with(Option::is_none)).map(|c| {
            let side = crate::i18n::side_name(lang, side_of(c));
            view! { <p class="muted" id="analysis-passed">{t!(lang, "analysis-board-passed", side = side)}</p> }
        })
    };
    let error = move || {
        ctx.error.get().map(|e| {
            view! { <p class="error" role="alert" id="analysis-error">{super::error_text(lang, &e)}</p> }
        })
    };
    view! {
        <div class="card">
            <h2>{t!(lang, "analysis-board-title")}</h2>
            <p id="analysis-turn" aria-live="polite">{text}</p>
            {passed}
            {error}
        </div>
    }
    .into_any()
}

fn kind_text(lang: crate::i18n::Lang, value: &MoveValue, book: bool) -> String {
    match state::kind_of(value, book) {
        ValueKind::Book => t!(lang, "analysis-board-tag-book"),
        ValueKind::Trained => t!(lang, "hint-tag-estimate"),
        ValueKind::Exact => t!(lang, "hint-tag-exact"),
    }
}

/// Every legal move's value, best first, and the best line.
#[component]
pub(super) fn ValuesCard(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let rows = move || {
        let values = ctx.current_values()?;
        let best = values.moves.first().map_or(0.0, |m| m.value);
        let rows = values
            .moves
            .iter()
            .map(|m| {
                let is_best = best - m.value < 0.5;
                let book = ctx.is_book(m.square);
                view! {
                    <li class="hint-move" class:best=is_best class:exact=m.exact data-square=m.square.to_string()
                        data-value=format!("{:.2}", m.value) data-kind=state::kind_of(m, book).name()>
                        <span class="sq">{square_name(m.square)}</span>
                        <span class="val">{disc_text(m.value)}</span>
                        <span class="kind">{kind_text(lang, m, book)}</span>
                    </li>
                }
            })
            .collect_view();
        Some(
            view! { <ol id="analysis-values" class="hint-moves" aria-label=t!(lang, "hint-list-label")>{rows}</ol> },
        )
    };
    let line = move || {
        let node = ctx.explorer.with(Explorer::current);
        ctx.best_line.with(|l| l.get(&node).cloned()).map(|line| {
            let names: Vec<String> = line.into_iter().map(square_name).collect();
            view! {
                <p id="analysis-best-line">
                    {t!(lang, "analysis-board-best-line")} " " <strong>{names.join(" ")}</strong>
                </p>
            }
        })
    };
    let status = move || {
        if let Some(error) = ctx.engine_error.get() {
            return Some(t!(lang, "hint-failed", error = error));
        }
        let waiting = ctx.busy.get() && ctx.current_values().is_none();
        waiting.then(|| t!(lang, "analysis-board-thinking"))
    };
    let shown = move || {
        ctx.setup.with(Option::is_none) && !ctx.explorer.with(|e| e.position().is_game_over())
    };
    view! {
        <Show when=shown>
            <div class="card hint" id="analysis-values-card">
                <h2>{t!(lang, "analysis-board-values")}</h2>
                <p class="muted" id="analysis-engine" aria-live="polite">{status}</p>
                {rows}
                {line}
                <ServerSearch ctx />
                <p class="hint-legend">{t!(lang, "hint-legend")}</p>
            </div>
        </Show>
    }
    .into_any()
}

/// The server's deeper search for the current position: a button, then
/// what the values shown are.
#[component]
fn ServerSearch(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let node = move || ctx.explorer.with(Explorer::current);
    let valued = move || ctx.server_valued.with(|v| v.contains(&node()));
    let done = move || {
        let values = ctx.current_values()?;
        let exact = !values.moves.is_empty() && values.moves.iter().all(|m| m.exact);
        Some(if exact {
            t!(lang, "analysis-board-server-exact")
        } else {
            t!(lang, "analysis-board-server-done", depth = values.depth)
        })
    };
    let status = move || {
        let here = node();
        ctx.server_error
            .get()
            .filter(|(n, _)| *n == here)
            .map(|(_, text)| text)
            .or_else(|| {
                ctx.server_busy
                    .get()
                    .then(|| t!(lang, "analysis-board-server-running"))
            })
    };
    view! {
        <Show
            when=valued
            fallback=move || view! {
                <p>
                    <button id="analysis-server-search" type="button"
                        disabled=move || ctx.server_busy.get()
                        on:click=move |_| ctx.ask_server()>
                        {t!(lang, "analysis-board-server")}
                    </button>
                </p>
            }
        >
            <p id="analysis-server-done" class="muted">{done}</p>
        </Show>
        <p class="muted" id="analysis-server-status" aria-live="polite">{status}</p>
    }
}

/// A move's mark from the game's review: "?!", "?" or "??", its words and
/// the better move on hover (which marks that square on the board).
fn review_mark(
    lang: crate::i18n::Lang,
    m: &crate::protocol::MoveAnalysis,
) -> impl IntoView + use<> {
    let symbol = match m.severity {
        Severity::Blunder => "??",
        Severity::Mistake => "?",
        _ => "?!",
    };
    let title = format!(
        "{} {}",
        crate::pages::analysis::severity_text(lang, m.severity),
        t!(lang, "analysis-best-was", square = &m.best)
    );
    view! {
        <span class=format!("review-mark {}", m.severity.label()) title=title.clone()
            aria-label=title data-mark=m.best.clone()>{symbol}</span>
    }
}

/// The line's moves (each one goes there), the buttons to step through it,
/// and every line explored.
#[component]
pub(super) fn MovesCard(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let moves = move || {
        let review = ctx.review.get();
        ctx.explorer.with(|e| {
            let current = e.current();
            let line = e.line();
            let names: Vec<String> = line
                .iter()
                .map(|&n| {
                    e.node(n)
                        .and_then(|n| n.square)
                        .map(|s| s.to_string())
                        .unwrap_or_default()
                })
                .collect();
            // The review's marks, on the moves the game itself played.
            let game: Vec<String> = review.iter().map(|m| m.square.clone()).collect();
            let marked = state::on_game(&names, &game);
            line.into_iter()
                .zip(names)
                .enumerate()
                .map(|(i, (n, name))| {
                    let here = n == current;
                    let mark = review
                        .get(i)
                        .filter(|m| i < marked && m.severity != Severity::Best)
                        .map(|m| review_mark(lang, m));
                    view! {
                        <li>
                            <button type="button" class="link-button move" class:current=here
                                aria-current=here.then_some("step") data-node=n.to_string()
                                on:click=move |_| ctx.step(|e| e.go(n))>
                                {format!("{}. {name}", i + 1)}
                            </button>
                            {mark}
                        </li>
                    }
                })
                .collect_view()
        })
    };
    let variations = move || {
        ctx.explorer.with(|e| {
            let lines = e.branches();
            (lines.len() > 1).then(|| {
                let items = lines
                    .into_iter()
                    .map(|b| {
                        // A tree in outline: each line from where it leaves
                        // the one before it, one step further in.
                        let (n, depth, text) = (b.leaf, b.depth, b.text());
                        view! {
                            <li class="branch" data-depth=depth.to_string()
                                style=format!("--depth: {}", depth.min(8))>
                                <button type="button" class="link-button" data-node=n.to_string()
                                on:click=move |_| ctx.step(|e| e.go(n))>{text}</button></li>
                        }
                    })
                    .collect_view();
                view! {
                    <h3>{t!(lang, "analysis-board-variations")}</h3>
                    <ol id="analysis-variations" class="variations">{items}</ol>
                }
            })
        })
    };
    let editing = move || ctx.setup.with(Option::is_some);
    view! {
        <div class="card">
            <h2>{t!(lang, "analysis-board-moves")}</h2>
            <div class="buttons">
                <button type="button" class="secondary" id="analysis-first" disabled=editing
                    on:click=move |_| ctx.step(|e| e.go(0))>{t!(lang, "analysis-board-first")}</button>
                <button type="button" class="secondary" id="analysis-back" disabled=editing
                    on:click=move |_| ctx.step(|e| { e.back(); })>{t!(lang, "analysis-board-back")}</button>
                <button type="button" class="secondary" id="analysis-forward" disabled=editing
                    on:click=move |_| ctx.step(|e| { e.forward(); })>{t!(lang, "analysis-board-forward")}</button>
            </div>
            <Show when=move || ctx.explorer.with(|e| e.line().is_empty())>
                <p class="muted">{t!(lang, "analysis-board-no-moves")}</p>
            </Show>
            <ol id="analysis-line" class="move-list analysis-line">{moves}</ol>
            {variations}
        </div>
    }
    .into_any()
}

/// The graph of Black's value along the line (the positions whose values
/// are known), the current position ringed.
#[component]
pub(super) fn GraphCard(ctx: Ctx) -> impl IntoView {
    const W: f64 = 300.0;
    const H: f64 = 100.0;
    let lang = ctx.lang;
    let graph = move || {
        let (points, here) = ctx.explorer.with(|e| {
            let nodes: Vec<usize> = std::iter::once(0).chain(e.line()).collect();
            let here = nodes.iter().position(|&n| n == e.current()).unwrap_or(0);
            let points = ctx.values.with(|v| {
                nodes
                    .iter()
                    .map(|n| {
                        let position = e.node(*n).map(|n| n.position)?;
                        state::black_value(&position, v.get(n).map(|m| m.moves.as_slice()))
                    })
                    .collect::<Vec<_>>()
            });
            (points, here)
        });
        let scale = points
            .iter()
            .flatten()
            .map(|p| p.0.abs())
            .fold(8.0f32, f32::max);
        let n = points.len().max(2);
        let x = move |i: usize| 6.0 + (W - 12.0) * i as f64 / (n - 1) as f64;
        let y = move |v: f32| H / 2.0 - f64::from(v / scale) * (H / 2.0 - 6.0);
        let line = points
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|(v, _)| format!("{:.1},{:.1}", x(i), y(v))))
            .collect::<Vec<_>>()
            .join(" ");
        let known = points.iter().flatten().count();
        let ring = points.get(here).copied().flatten().map(|(v, _)| {
            view! { <circle class="mistake-dot current" cx=format!("{:.1}", x(here)) cy=format!("{:.1}", y(v)) r="4"></circle> }
        });
        view! {
            <svg id="analysis-board-graph" class="eval-graph" viewBox=format!("0 0 {W} {H}") preserveAspectRatio="none"
                role="img" aria-label=t!(lang, "analysis-board-graph-label") data-points=known.to_string()>
                <rect class="eval-black-zone" x="0" y="0" width=W.to_string() height=(H / 2.0).to_string()></rect>
                <line class="eval-zero" x1="0" y1=(H / 2.0).to_string() x2=W.to_string() y2=(H / 2.0).to_string()></line>
                <polyline class="eval-line" points=line></polyline>
                {ring}
            </svg>
        }
    };
    view! {
        <div class="card graph">
            <h2>{t!(lang, "analysis-board-graph")}</h2>
            {graph}
            <p class="graph-legend">{t!(lang, "analysis-board-graph-legend")}</p>
        </div>
    }
    .into_any()
}

/// Editing the board, and pasting a position, a transcript or a game.
#[component]
pub(super) fn SetupCard(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let pasted = RwSignal::new(String::new());
    let editing = move || ctx.setup.with(Option::is_some);
    let start_edit = move |_| {
        let position = ctx.explorer.with_untracked(Explorer::position);
        ctx.setup.set(Some(Setup::of(&position)));
        ctx.changed();
    };
    let done = move |_| {
        if let Some(setup) = ctx.setup.get_untracked() {
            ctx.replace(Explorer::new(setup.position()));
        }
    };
    let edit = move |f: fn(&mut Setup)| {
        ctx.setup.update(|s| s.as_mut().map(f).unwrap_or_default());
        ctx.changed();
    };
    let side = move |color: Color| {
        ctx.setup.update(|s| {
            if let Some(s) = s {
                s.side = color;
            }
        });
    };
    let load = move |_| match state::read_paste(&pasted.get_untracked()) {
        Ok(explorer) => ctx.replace(explorer),
        Err(e) => ctx.error.set(Some(e)),
    };
    let checked =
        move |color: Color| move || ctx.setup.with(|s| s.is_some_and(|s| s.side == color));
    view! {
        <div class="card" id="analysis-setup">
            <h2>{t!(lang, "analysis-board-setup")}</h2>
            <Show when=editing fallback=move || view! {
                <button type="button" class="secondary" id="analysis-edit" on:click=start_edit>{t!(lang, "analysis-board-edit")}</button>
            }>
                <p class="muted">{t!(lang, "analysis-board-edit-help")}</p>
                <fieldset class="side-choice">
                    <legend>{t!(lang, "analysis-board-to-move")}</legend>
                    <label><input type="radio" name="analysis-side" id="analysis-side-black" prop:checked=checked(Color::Black)
                        on:change=move |_| side(Color::Black) />{crate::i18n::side_name(lang, Side::Black)}</label>
                    <label><input type="radio" name="analysis-side" id="analysis-side-white" prop:checked=checked(Color::White)
                        on:change=move |_| side(Color::White) />{crate::i18n::side_name(lang, Side::White)}</label>
                </fieldset>
                <div class="buttons">
                    <button type="button" class="secondary" id="analysis-clear" on:click=move |_| edit(Setup::clear)>{t!(lang, "analysis-board-clear")}</button>
                    <button type="button" class="secondary" id="analysis-initial"
                        on:click=move |_| edit(|s| *s = Setup::of(&engine::Position::initial()))>{t!(lang, "analysis-board-initial")}</button>
                    <button type="button" id="analysis-edit-done" on:click=done>{t!(lang, "analysis-board-edit-done")}</button>
                </div>
            </Show>
            <label for="analysis-paste">{t!(lang, "analysis-board-paste-label")}</label>
            <textarea id="analysis-paste" rows="3" spellcheck="false" prop:value=move || pasted.get()
                on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
            <button type="button" class="secondary" id="analysis-load" on:click=load>{t!(lang, "analysis-board-paste-load")}</button>
        </div>
    }
    .into_any()
}

/// The link that reopens the start and the line to here.
#[component]
pub(super) fn LinkCard(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let href = move || ctx.link();
    view! {
        <div class="card">
            <h2>{t!(lang, "analysis-board-link")}</h2>
            <p><a id="analysis-link" href=href>{t!(lang, "analysis-board-link-text")}</a></p>
            <input type="text" readonly id="analysis-link-text" aria-label=t!(lang, "analysis-board-link")
                prop:value=move || {
                    let origin = window_origin();
                    format!("{origin}{}", ctx.link())
                } />
        </div>
    }
    .into_any()
}

/// The page's origin (`https://host`), in the browser; empty on the server.
fn window_origin() -> String {
    #[cfg(feature = "hydrate")]
    {
        window().location().origin().unwrap_or_default()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        String::new()
    }
}
