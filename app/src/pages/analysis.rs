// Over 600 lines: the analysis card reads top to bottom in one file (its states, the review with its entry and pick, the two SVG graphs, their tests); the graphs could move to a module of their own when it grows again.
//! Game analysis on the table and lab pages: the review of a
//! finished game, its progress, the evaluation graph (SVG) and the list of the
//! worst moves; and the opening's name beside the move list.

use crate::api::{analysis_get, analysis_start};
use crate::protocol::{AnalysisView, GameAnalysis, GameKind, MoveAnalysis, Severity, Side};
use leptos::prelude::*;

/// `Opening: Tiger` for the moves played so far (nothing when unnamed).
#[component]
pub fn OpeningName(#[prop(into)] moves: Signal<Vec<String>>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    move || {
        let moves = moves.get();
        crate::openings::name_of_squares(&moves).map(|named| {
            view! {
                <span class="opening" id="opening" data-plies=named.plies.to_string()>
                    {t!(lang, "analysis-opening")} " " <strong>{crate::openings::name_in(lang, &named.name)}</strong>
                </span>
            }
        })
    }
}

/// Asks for the analysis state; keeps asking while it runs.
fn poll(
    kind: GameKind,
    id: String,
    state: RwSignal<Option<AnalysisView>>,
    error: RwSignal<Option<crate::i18n::Msg>>,
) {
    leptos::task::spawn_local(async move {
        match analysis_get(kind, id.clone()).await {
            Ok(view) => {
                let running = matches!(view, AnalysisView::Running { .. });
                if state.try_set(Some(view)).is_none() && running {
                    set_timeout(
                        move || poll(kind, id, state, error),
                        std::time::Duration::from_millis(500),
                    );
                }
            }
            Err(e) => {
                let _ = error.try_set(Some(e.msg));
            }
        }
    });
}

/// The analysis card of a finished game (a table's round, a lab game or an archived one).
#[component]
pub fn AnalysisPanel(
    kind: GameKind,
    id: String,
    /// Whether the game is finished (the card shows only then).
    #[prop(into)]
    over: Signal<bool>,
    /// The number in the page's move list of each placement, in order (a
    /// list that counts passes too); the placement's own count when not given.
    #[prop(optional, into)]
    numbers: Option<Signal<Vec<u32>>>,
    /// Shows the position after the move with this list number on the board.
    #[prop(optional)]
    on_pick: Option<Callback<u32>>,
    /// The sides the viewer played: their own mistakes are listed first.
    #[prop(optional, into)]
    yours: Option<Signal<Vec<Side>>>,
    /// The page's own "Review this game" (a table's, in its score card): a
    /// count of its presses. With it the card shows no button of its own, so
    /// the game has one entry to its review.
    #[prop(optional)]
    requests: Option<RwSignal<u32>>,
    /// Receives the analysis once it is ready (the table draws the better
    /// move of a reviewed position from it).
    #[prop(optional)]
    analysed: Option<RwSignal<Option<GameAnalysis>>>,
    /// "Open in the analysis board": the game's link there, with its review.
    #[prop(optional, into)]
    open: Option<Signal<String>>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let state = RwSignal::new(None::<AnalysisView>);
    let error = RwSignal::new(None::<crate::i18n::Msg>);
    let id = StoredValue::new(id);
    // Whenever the game is (again) finished, show what the server has.
    // `over` is derived from the whole table view, which changes with every
    // update: only a turn (finished ↔ not) starts a polling chain, so a
    // running analysis is asked about by one chain, not one per update.
    Effect::new(move |was_over: Option<bool>| {
        let now = over.get();
        if was_over != Some(now) {
            if now {
                poll(kind, id.get_value(), state, error);
            } else {
                state.set(None);
            }
        }
        now
    });
    let start = move || {
        error.set(None);
        let game = id.get_value();
        leptos::task::spawn_local(async move {
            match analysis_start(kind, game.clone()).await {
                Ok(view) => {
                    let running = matches!(view, AnalysisView::Running { .. });
                    state.set(Some(view));
                    if running {
                        poll(kind, game, state, error);
                    }
                }
                Err(e) => error.set(Some(e.msg)),
            }
        });
    };
    // The page's own entry starts it (not on the first run: a press only).
    if let Some(requests) = requests {
        Effect::new(move |seen: Option<u32>| {
            let now = requests.get();
            if seen.is_some_and(|s| s != now) {
                start();
            }
            now
        });
    }
    // The ready analysis, for the page.
    if let Some(analysed) = analysed {
        Effect::new(move |_| {
            let ready = state.with(|s| match s {
                Some(AnalysisView::Ready { analysis }) => Some(analysis.clone()),
                _ => None,
            });
            analysed.set(ready);
        });
    }
    let body = move || {
        match state.get() {
        None => view! { <p class="muted">{t!(lang, "analysis-checking")}</p> }.into_any(),
        Some(AnalysisView::None { .. }) | Some(AnalysisView::Failed { .. }) => {
            let failed = match state.get() {
                Some(AnalysisView::Failed { message }) => Some(message),
                _ => None,
            };
            view! {
                <p class="muted">
                    {t!(lang, "analysis-intro")}
                </p>
                {failed.map(|m| view! { <p class="error" role="alert">{t!(lang, "analysis-failed")} " " {m}</p> })}
                {requests.is_none().then(|| view! {
                    <button id="analyse" on:click=move |_| start()>{t!(lang, "table-review-game")}</button>
                })}
            }
            .into_any()
        }
        Some(AnalysisView::Running { done, total }) => view! {
            <p id="analysis-progress-text">{t!(lang, "analysis-running", done = done, total = total)}</p>
            <progress id="analysis-progress" max=total.to_string() value=done.to_string()></progress>
        }
        .into_any(),
        Some(AnalysisView::Ready { analysis }) => {
            let numbers = numbers.map(|n| n.get()).unwrap_or_default();
            let yours = yours.map(|y| y.get()).unwrap_or_default();
            let practice = crate::pages::practice::exercises(&analysis, &yours, &numbers);
            view! {
                {ready_view(lang, yours_first(analysis, &yours), &numbers, on_pick)}
                {(!practice.is_empty()).then(|| view! { <crate::pages::practice::Practice exercises=practice /> })}
            }
            .into_any()
        }
    }
    };
    move || {
        over.get().then(|| {
            view! {
                <div class="card analysis" id="analysis" data-state=move || match state.get() {
                    None => "loading",
                    Some(AnalysisView::None { .. }) => "none",
                    Some(AnalysisView::Running { .. }) => "running",
                    Some(AnalysisView::Ready { .. }) => "ready",
                    Some(AnalysisView::Failed { .. }) => "failed",
                }>
                    <h2>{t!(lang, "analysis-title")}</h2>
                    {body}
                    <p class="error" role="alert">
                        {move || error.get().map(|e| e.text(lang))}
                    </p>
                    {open.map(|href| view! {
                        <p class="open-analysis"><a id="open-analysis" href=href>{t!(lang, "analysis-board-open")}</a></p>
                    })}
                </div>
            }
        })
    }
}

fn loss_text(lang: crate::i18n::Lang, m: &MoveAnalysis) -> String {
    if m.exact {
        t!(lang, "analysis-loss-exact", loss = m.loss)
    } else {
        t!(lang, "analysis-loss-search", loss = m.loss)
    }
}

/// A severity's word (its class name stays [`Severity::label`]).
pub fn severity_text(lang: crate::i18n::Lang, severity: Severity) -> String {
    match severity {
        Severity::Best => t!(lang, "severity-best"),
        Severity::Inaccuracy => t!(lang, "severity-inaccuracy"),
        Severity::Mistake => t!(lang, "severity-mistake"),
        Severity::Blunder => t!(lang, "severity-blunder"),
    }
}

/// The analysis with the worst moves of `yours` (the sides the viewer
/// played) listed before the other side's, each group still worst first.
/// Playing both sides (hot-seat) or none (a spectator) changes nothing.
pub fn yours_first(mut analysis: GameAnalysis, yours: &[Side]) -> GameAnalysis {
    if yours.len() == 1 {
        let side_of = |ply: &u32| {
            analysis
                .moves
                .iter()
                .find(|m| m.ply == *ply)
                .map(|m| m.side)
        };
        let (mine, theirs): (Vec<u32>, Vec<u32>) = analysis
            .worst
            .iter()
            .partition(|ply| side_of(ply) == Some(yours[0]));
        analysis.worst = mine.into_iter().chain(theirs).collect();
    }
    analysis
}

/// The move-list number of a placement (`ply`, 1-based), from `numbers`.
fn list_number(numbers: &[u32], ply: u32) -> u32 {
    numbers
        .get((ply as usize).wrapping_sub(1))
        .copied()
        .unwrap_or(ply)
}

fn ready_view(
    lang: crate::i18n::Lang,
    analysis: GameAnalysis,
    numbers: &[u32],
    on_pick: Option<Callback<u32>>,
) -> impl IntoView {
    let worst: Vec<MoveAnalysis> = analysis
        .worst
        .iter()
        .filter_map(|ply| analysis.moves.iter().find(|m| m.ply == *ply).cloned())
        .collect();
    // The first sentence, in words: where the game turned.
    let headline = worst
        .iter()
        .filter(|m| m.loss > 0)
        .min_by_key(|m| (-m.loss, m.ply))
        .map(|m| {
        let text = t!(
            lang,
            "analysis-headline",
            number = list_number(numbers, m.ply),
            side = crate::i18n::side_name(lang, m.side),
            square = m.square.as_str(),
            loss = m.loss,
            best = m.best.as_str()
        );
        // Its position on the board, a click away (as the list's rows).
        let number = list_number(numbers, m.ply);
        let go = on_pick.map(|pick| {
            view! {
                <button class="link-button move-link" id="analysis-headline-go" data-number=number.to_string()
                    data-mark=m.square.clone() on:click=move |_| pick.run(number)>
                    {t!(lang, "analysis-show-position")}
                </button>
            }
        });
        view! {
            <p class="analysis-headline" id="analysis-headline" data-mark=m.square.clone()>{text}</p>
            {go}
        }
    });
    let summary = t!(
        lang,
        "analysis-summary",
        depth = analysis.depth,
        empties = analysis.exact_empties
    );
    let mistakes = if worst.is_empty() {
        view! { <p id="no-mistakes">{t!(lang, "analysis-no-mistakes")}</p> }.into_any()
    } else {
        worst
            .into_iter()
            .map(|m| {
                let best = (m.loss > 0).then(|| {
                    view! { <span class="best-was" data-mark=m.best.clone()>{t!(lang, "analysis-best-was", square = &m.best)}</span> }
                });
                let number = list_number(numbers, m.ply);
                let what = format!("{}. {} {}", number, crate::i18n::side_name(lang, m.side), m.square);
                let what = match on_pick {
                    Some(pick) => view! {
                        <button
                            class="what move-link"
                            title=t!(lang, "analysis-show-position")
                            on:click=move |_| pick.run(number)
                        >
                            {what}
                        </button>
                    }
                    .into_any(),
                    None => view! { <span class="what">{what}</span> }.into_any(),
                };
                let book = m.book.then(|| {
                    view! { <span class="book-mark" title=t!(lang, "analysis-book-mark-title")>{t!(lang, "analysis-book-mark")}</span> }
                });
                view! {
                    <li class=format!("mistake-row {} {}", m.side.key(), m.severity.label()) data-ply=m.ply.to_string() data-number=number.to_string() data-mark=m.square.clone() data-best=m.best.clone()>
                        {what}
                        {book}
                        <span class="severity">{severity_text(lang, m.severity)}</span>
                        <span class="loss">{loss_text(lang, &m)}{best}</span>
                    </li>
                }
            })
            .collect_view()
            .into_any()
    };
    view! {
        {headline}
        {graph(lang, &analysis, numbers, on_pick)}
        <p class="graph-legend" id="analysis-legend">
            {t!(lang, "analysis-legend")}
            // Said only when the graph draws the line (some values exact).
            {analysis.moves.iter().any(|m| m.exact).then(|| format!(" {}", t!(lang, "analysis-legend-exact")))}
        </p>
        {loss_graph(lang, &analysis)}
        {book_line(lang, &analysis.moves)}
        <h3>{t!(lang, "analysis-worst")}</h3>
        <ol id="mistakes" class="mistakes">{mistakes}</ol>
        <p class="muted">{summary}</p>
    }
}

/// How many of the first moves the server's opening book plays.
pub fn book_plies(moves: &[MoveAnalysis]) -> usize {
    moves.iter().take_while(|m| m.book).count()
}

/// "The first 9 moves came from the opening book." (nothing when none did),
/// with a small book mark.
fn book_line(lang: crate::i18n::Lang, moves: &[MoveAnalysis]) -> Option<impl IntoView> {
    let plies = book_plies(moves);
    (plies > 0).then(|| {
        view! {
            <p class="analysis-book" id="analysis-book" data-plies=plies.to_string()>
                <span class="book-mark">{t!(lang, "analysis-book-mark")}</span>
                " "
                {t!(lang, "analysis-book", plies = plies)}
            </p>
        }
    })
}

/// The evaluation graph: black's value in discs after each move (estimates
/// in the midgame, exact right of the dashed line), on one scale of ±64 —
/// and under it each side's cumulative loss.
fn graph(
    lang: crate::i18n::Lang,
    analysis: &GameAnalysis,
    numbers: &[u32],
    on_pick: Option<Callback<u32>>,
) -> impl IntoView {
    const W: f64 = 300.0;
    const H: f64 = 120.0;
    let n = analysis.moves.len();
    let x = x_scale(n, W);
    let y = |m: &MoveAnalysis| {
        // Stored analyses from before the values were discs are made again
        // (`GameAnalysis::discs`), so every value here is in discs.
        const CAP: f64 = 64.0;
        H / 2.0 - (f64::from(m.value_black).clamp(-CAP, CAP) / CAP) * (H / 2.0 - 6.0)
    };
    let points = analysis
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| format!("{:.1},{:.1}", x(i), y(m)))
        .collect::<Vec<_>>()
        .join(" ");
    let exact_from = analysis.moves.iter().position(|m| m.exact).map(|i| {
        let at = format!("{:.1}", x(i));
        view! { <line class="exact-from" x1=at.clone() y1="0" x2=at y2=H.to_string()></line> }
    });
    let dots = analysis
        .worst
        .iter()
        .filter_map(|ply| {
            let i = analysis.moves.iter().position(|m| m.ply == *ply)?;
            let m = &analysis.moves[i];
            // A click on a dot shows its position (the list below is the
            // keyboard's way to the same positions).
            let number = list_number(numbers, m.ply);
            Some(view! {
                <circle
                    class=format!("mistake-dot {}", m.severity.label())
                    class:pickable=on_pick.is_some()
                    cx=format!("{:.1}", x(i))
                    cy=format!("{:.1}", y(m))
                    r="4"
                    data-number=number.to_string()
                    on:click=move |_| {
                        if let Some(pick) = on_pick {
                            pick.run(number);
                        }
                    }
                >
                    <title>{format!("{}. {} {}: {}", list_number(numbers, m.ply), crate::i18n::side_name(lang, m.side), m.square, severity_text(lang, m.severity))}</title>
                </circle>
            })
        })
        .collect_view();
    let severe = analysis
        .moves
        .iter()
        .filter(|m| matches!(m.severity, Severity::Mistake | Severity::Blunder))
        .count();
    let first = analysis
        .moves
        .first()
        .map_or(1, |m| list_number(numbers, m.ply));
    let last = analysis
        .moves
        .last()
        .map_or(1, |m| list_number(numbers, m.ply));
    view! {
        <div class="graph-frame">
        <div class="graph-y" aria-hidden="true">
            <span>{t!(lang, "analysis-axis-black")}</span>
            <span>{t!(lang, "analysis-axis-even")}</span>
            <span>{t!(lang, "analysis-axis-white")}</span>
        </div>
        <svg
            id="analysis-graph"
            class="eval-graph analysis-graph"
            viewBox=format!("0 0 {W} {H}")
            preserveAspectRatio="none"
            role="img"
            aria-label=t!(lang, "analysis-graph-label", mistakes = severe)
            data-points=n.to_string()
        >
            <rect class="eval-black-zone" x="0" y="0" width=W.to_string() height=(H / 2.0).to_string()></rect>
            <line class="eval-zero" x1="0" y1=(H / 2.0).to_string() x2=W.to_string() y2=(H / 2.0).to_string()></line>
            {exact_from}
            <polyline class="eval-line" points=points></polyline>
            {dots}
        </svg>
        <div class="graph-x" id="analysis-graph-x" aria-hidden="true">
            <span>{t!(lang, "analysis-axis-move", number = first)}</span>
            <span>{t!(lang, "analysis-axis-move", number = last)}</span>
        </div>
        </div>
    }
}

/// The graphs' horizontal scale: the x of the `i`th of `n` points on a
/// `width`-wide graph (6 units of margin each side).
fn x_scale(n: usize, width: f64) -> impl Fn(usize) -> f64 + Copy {
    move |i: usize| {
        6.0 + (width - 12.0)
            * if n > 1 {
                i as f64 / (n - 1) as f64
            } else {
                0.5
            }
    }
}

/// Each side's cumulative loss in discs after each of the game's moves.
pub fn cumulative_losses(moves: &[MoveAnalysis]) -> Vec<(i32, i32)> {
    let (mut black, mut white) = (0, 0);
    moves
        .iter()
        .map(|m| {
            match m.side {
                Side::Black => black += m.loss,
                Side::White => white += m.loss,
            }
            (black, white)
        })
        .collect()
}

/// The cumulative-loss graph under the evaluation: one line per side, from 0
/// at the top down to the larger total (black solid, white dashed, so the
/// two are told apart without colour), with each side's total in words.
fn loss_graph(lang: crate::i18n::Lang, analysis: &GameAnalysis) -> impl IntoView {
    const W: f64 = 300.0;
    const H: f64 = 60.0;
    // The same horizontal scale as the evaluation graph above.
    let x = x_scale(analysis.moves.len(), W);
    let sums = cumulative_losses(&analysis.moves);
    let (black, white) = sums.last().copied().unwrap_or((0, 0));
    let top = f64::from(black.max(white).max(8));
    let y = |v: i32| 4.0 + (f64::from(v) / top) * (H - 8.0);
    let line = |pick: fn(&(i32, i32)) -> i32| {
        sums.iter()
            .enumerate()
            .map(|(i, s)| format!("{:.1},{:.1}", x(i), y(pick(s))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let black_points = line(|s| s.0);
    let white_points = line(|s| s.1);
    let label = t!(
        lang,
        "analysis-loss-graph-label",
        black = black,
        white = white
    );
    view! {
        <div class="graph-frame loss-frame">
        <div class="loss-y" aria-hidden="true">
            <span>"0"</span>
            <span>{format!("−{}", top as i32)}</span>
        </div>
        <svg
            id="analysis-loss-graph"
            class="eval-graph loss-graph"
            viewBox=format!("0 0 {W} {H}")
            preserveAspectRatio="none"
            role="img"
            aria-label=label.clone()
            data-black=black.to_string()
            data-white=white.to_string()
        >
            <line class="eval-zero" x1="0" y1=y(0).to_string() x2=W.to_string() y2=y(0).to_string()></line>
            <polyline class="loss-line black" points=black_points></polyline>
            <polyline class="loss-line white" points=white_points></polyline>
        </svg>
        </div>
        <p class="graph-legend" id="analysis-loss-legend">{label}</p>
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn entry(ply: u32, side: Side, loss: i32) -> MoveAnalysis {
        entry_at(ply, side, "d3", loss)
    }

    /// A move of `loss` discs on `square` (an estimate, its severity unset).
    pub(crate) fn entry_at(ply: u32, side: Side, square: &str, loss: i32) -> MoveAnalysis {
        MoveAnalysis {
            ply,
            side,
            square: square.into(),
            best: square.into(),
            best_value: loss,
            played_value: 0,
            loss,
            exact: false,
            value_black: 0,
            severity: Severity::Best,
            book: false,
        }
    }

    #[test]
    fn the_book_line_counts_the_leading_book_moves() {
        let mut moves: Vec<MoveAnalysis> = (1..=5).map(|p| entry(p, Side::Black, 0)).collect();
        assert_eq!(book_plies(&moves), 0);
        for m in moves.iter_mut().take(3) {
            m.book = true;
        }
        moves[4].book = true;
        assert_eq!(book_plies(&moves), 3);
    }

    #[test]
    fn the_viewers_own_mistakes_come_first() {
        let analysis = GameAnalysis {
            moves: vec![
                entry(1, Side::Black, 9),
                entry(2, Side::White, 12),
                entry(3, Side::Black, 4),
                entry(4, Side::White, 2),
            ],
            depth: 10,
            exact_empties: 20,
            discs: true,
            worst: vec![2, 1, 3, 4],
            opening: None,
            start: Vec::new(),
        };
        assert_eq!(
            yours_first(analysis.clone(), &[Side::Black]).worst,
            vec![1, 3, 2, 4]
        );
        assert_eq!(
            yours_first(analysis.clone(), &[Side::White]).worst,
            vec![2, 4, 1, 3]
        );
        // Both sides (hot-seat) or none (a spectator): worst first, as made.
        assert_eq!(
            yours_first(analysis.clone(), &[Side::Black, Side::White]).worst,
            vec![2, 1, 3, 4]
        );
        assert_eq!(yours_first(analysis, &[]).worst, vec![2, 1, 3, 4]);
    }

    #[test]
    fn each_side_adds_up_only_its_own_losses() {
        let moves = [
            entry(1, Side::Black, 2),
            entry(2, Side::White, 0),
            entry(3, Side::Black, 5),
            entry(4, Side::White, 7),
            // A pass is not a placement: the same side twice in a row.
            entry(5, Side::White, 1),
        ];
        assert_eq!(
            cumulative_losses(&moves),
            vec![(2, 0), (2, 0), (7, 0), (7, 7), (7, 8)]
        );
        assert!(cumulative_losses(&[]).is_empty());
    }
}
