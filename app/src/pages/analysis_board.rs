//! The analysis board at `/analysis`: set up any position (edit the board,
//! paste an OBF position, a transcript or a GGF game, or come from a
//! finished table, an archived game or a lab game by its "Open in the
//! analysis board" link), play moves freely with take-backs and variations,
//! and see every legal move's value (exact or an estimate of the trained
//! evaluation), the best line, the graph of the line's values, and a link
//! that reopens the same position and line. The values come from the
//! engine's Web Worker in the browser (`crate::worker`); nothing is sent to
//! the server. The state and its tests are in `analysis_board/state.rs`;
//! the cards around the board in `analysis_board/cards.rs`.

mod cards;
pub mod state;

use crate::i18n::Lang;
use crate::protocol::BoardSnapshot;
use crate::worker::MoveValues;
use leptos::prelude::*;
use state::{Explorer, LoadError, Setup};
use std::collections::{HashMap, HashSet};

/// Plies of the best line shown after a position's best move.
const LINE_PLIES: usize = 8;
/// The search of each ply of the best line after the first (small: the
/// move values come from the full search).
const LINE_DEPTH: u32 = 4;
const LINE_NODES: u64 = 150_000;

/// The page's moving parts, all `Copy`.
#[derive(Clone, Copy)]
pub(crate) struct Ctx {
    explorer: RwSignal<Explorer>,
    /// The board being edited, while it is.
    setup: RwSignal<Option<Setup>>,
    /// Every legal move's value, by node of the current tree.
    values: RwSignal<HashMap<usize, MoveValues>>,
    /// The best line (squares) from each node, once found.
    best_line: RwSignal<HashMap<usize, Vec<u8>>>,
    error: RwSignal<Option<LoadError>>,
    engine_error: RwSignal<Option<String>>,
    /// Grows with every change of the board shown.
    version: RwSignal<u64>,
    /// Grows when a new tree replaces the old (values of the old are dropped).
    tree: RwSignal<u64>,
    busy: RwSignal<bool>,
    /// The server's deeper search: running, the nodes it valued (their
    /// values replace the browser's), its last refusal (with its node).
    server_busy: RwSignal<bool>,
    server_valued: RwSignal<HashSet<usize>>,
    /// The opening book's moves (squares) at each node the server valued.
    server_book: RwSignal<HashMap<usize, Vec<u8>>>,
    server_error: RwSignal<Option<(usize, String)>>,
    /// The review of the game the link came from (`review=`): its moves'
    /// analysis, which marks them in the move list.
    review: RwSignal<Vec<crate::protocol::MoveAnalysis>>,
    lang: Lang,
}

impl Ctx {
    fn changed(self) {
        self.version.update(|v| *v += 1);
    }

    /// A new start (a paste, an edit): the old tree and its values go.
    fn replace(self, explorer: Explorer) {
        self.explorer.set(explorer);
        self.values.set(HashMap::new());
        self.best_line.set(HashMap::new());
        self.server_valued.set(HashSet::new());
        self.server_book.set(HashMap::new());
        self.server_error.set(None);
        self.setup.set(None);
        self.error.set(None);
        self.tree.update(|t| *t += 1);
        self.changed();
    }

    fn click(self, square: u8) {
        if self.setup.with_untracked(Option::is_some) {
            self.setup.update(|s| {
                if let Some(s) = s {
                    s.cycle(square);
                }
            });
            self.changed();
            return;
        }
        let Some(square) = engine::Square::new(usize::from(square)) else {
            return;
        };
        let mut played = false;
        self.explorer.update(|e| played = e.play(square).is_ok());
        if played {
            self.changed();
        }
    }

    fn step(self, f: impl FnOnce(&mut Explorer)) {
        self.explorer.update(f);
        self.changed();
    }

    /// The board shown: the setup while editing, else the current position.
    fn snapshot(self) -> BoardSnapshot {
        let version = self.version.get();
        if let Some(setup) = self.setup.get() {
            return BoardSnapshot {
                cells: setup.cells.to_vec(),
                version,
                ..BoardSnapshot::empty()
            };
        }
        self.explorer.with(|e| {
            let node = e.node(e.current());
            let position = e.position();
            BoardSnapshot {
                cells: position.to_cells().to_vec(),
                legal: position
                    .legal_moves()
                    .iter()
                    .map(|s| s.index() as u8)
                    .collect(),
                last_move: node.and_then(|n| n.square).map(|s| s.index() as u8),
                version,
                ..BoardSnapshot::empty()
            }
        })
    }

    /// Asks the server's deeper search for the current position's values
    /// (the analysis's depth, exact near the end, the book's moves marked);
    /// they replace the browser's for that position.
    fn ask_server(self) {
        if self.server_busy.get_untracked() {
            return;
        }
        let (node, position) = self
            .explorer
            .with_untracked(|e| (e.current(), e.position()));
        let tree = self.tree.get_untracked();
        self.server_busy.set(true);
        self.server_error.set(None);
        leptos::task::spawn_local(async move {
            let answer = crate::api::analysis_position(position.to_obf()).await;
            if self.tree.try_get_untracked() == Some(tree) {
                match answer {
                    Ok(found) => {
                        let book = found.moves.iter().filter(|m| m.book).map(|m| m.square);
                        let book: Vec<u8> = book.collect();
                        let values = MoveValues {
                            moves: found
                                .moves
                                .iter()
                                .map(|m| crate::worker::MoveValue {
                                    square: m.square,
                                    value: m.value,
                                    exact: m.exact,
                                })
                                .collect(),
                            depth: found.depth,
                        };
                        let _ = self.values.try_update(|v| v.insert(node, values));
                        let _ = self.server_book.try_update(|b| b.insert(node, book));
                        let _ = self.server_valued.try_update(|v| v.insert(node));
                    }
                    Err(error) => {
                        let _ = self
                            .server_error
                            .try_set(Some((node, error.text(self.lang))));
                    }
                }
            }
            let _ = self.server_busy.try_set(false);
        });
    }

    /// Whether the server's search found `square` in the opening book at
    /// the current position.
    fn is_book(self, square: u8) -> bool {
        let node = self.explorer.with(Explorer::current);
        self.server_book
            .with(|b| b.get(&node).is_some_and(|s| s.contains(&square)))
    }

    /// The values of the current position, if found.
    fn current_values(self) -> Option<MoveValues> {
        let node = self.explorer.with(Explorer::current);
        self.values.with(|v| v.get(&node).cloned())
    }

    /// The link that reopens the start, the whole line shown and the
    /// position in it.
    fn link(self) -> String {
        self.explorer.with(|e| {
            let line = e.line();
            let moves = line.last().map_or_else(Vec::new, |&end| e.moves_to(end));
            let at = e.path(e.current()).len();
            state::link(&e.start(), &moves, Some(at))
        })
    }
}

/// A load error in words.
pub(crate) fn error_text(lang: Lang, error: &LoadError) -> String {
    match error {
        LoadError::Empty => t!(lang, "analysis-board-error-empty"),
        LoadError::Position => t!(lang, "analysis-board-error-position"),
        LoadError::Syntax { column, found } => t!(
            lang,
            "analysis-board-error-syntax",
            column = *column,
            found = found.clone()
        ),
        LoadError::Illegal { ply, square } => t!(
            lang,
            "analysis-board-error-illegal",
            ply = *ply,
            square = square.clone()
        ),
        LoadError::Ggf => t!(lang, "analysis-board-error-ggf"),
    }
}

/// The worker's next task: the current position's values, then its best
/// line, then the values of the line's other positions (for the graph).
#[derive(Clone, Copy)]
enum Job {
    Values(usize, engine::Position),
    Line(usize, engine::Position, u8),
}

fn next_job(ctx: Ctx) -> Option<Job> {
    if ctx.setup.with_untracked(Option::is_some) {
        return None;
    }
    let known = move |n: usize| ctx.values.with_untracked(|v| v.contains_key(&n));
    ctx.explorer.with_untracked(|e| {
        let here = e.current();
        let position = e.position();
        if !position.is_game_over() {
            if !known(here) {
                return Some(Job::Values(here, position));
            }
            let best = ctx
                .values
                .with_untracked(|v| v.get(&here).and_then(|m| m.moves.first().map(|m| m.square)));
            if let (Some(best), false) = (
                best,
                ctx.best_line.with_untracked(|l| l.contains_key(&here)),
            ) {
                return Some(Job::Line(here, position, best));
            }
        }
        std::iter::once(0).chain(e.line()).find_map(|n| {
            let position = e.node(n)?.position;
            (!position.is_game_over() && !known(n)).then_some(Job::Values(n, position))
        })
    })
}

/// Gives the worker its next task unless it is busy; asks again when the
/// task is done (for wherever the player went meanwhile). Results of a tree
/// that was replaced meanwhile are dropped.
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
fn pump(ctx: Ctx) {
    if ctx.busy.get_untracked() {
        return;
    }
    let Some(job) = next_job(ctx) else {
        return;
    };
    let tree = ctx.tree.get_untracked();
    ctx.busy.set(true);
    ctx.engine_error.set(None);
    leptos::task::spawn_local(async move {
        let same_tree = move || ctx.tree.try_get_untracked() == Some(tree);
        match job {
            Job::Values(node, position) => {
                let cells = position.to_cells().to_vec();
                let side = position.side_to_move.cell_value();
                let (depth, nodes) = (
                    crate::pages::hint::HINT_DEPTH,
                    crate::pages::hint::HINT_NODES,
                );
                match crate::worker::hint_all(cells, side, depth, nodes).await {
                    Ok(timed) if same_tree() => {
                        // The server's values, if they came first, stay.
                        let _ = ctx
                            .values
                            .try_update(|v| v.entry(node).or_insert(timed.result).depth);
                    }
                    Ok(_) => {}
                    Err(e) => {
                        let _ = ctx.engine_error.try_set(Some(e));
                    }
                }
            }
            Job::Line(node, position, best) => {
                let line = best_line(ctx, position, best, tree, node).await;
                if same_tree() && ctx.explorer.try_with_untracked(Explorer::current) == Some(node) {
                    let _ = ctx.best_line.try_update(|l| l.insert(node, line));
                }
            }
        }
        // An error stops the pump until the player moves (no retry loop).
        let failed = ctx.engine_error.try_with_untracked(Option::is_some) == Some(true);
        if ctx.busy.try_set(false).is_none() && !failed {
            pump(ctx);
        }
    });
}

/// The best line from `position`, its first move `first`: the engine's best
/// reply at each ply, with a small search. Stops at the game's end, on an
/// error, or when the player leaves the node.
async fn best_line(
    ctx: Ctx,
    position: engine::Position,
    first: u8,
    tree: u64,
    node: usize,
) -> Vec<u8> {
    let mut line = vec![first];
    let mut position = position;
    let mut next = first;
    while line.len() < LINE_PLIES {
        let Some(square) = engine::Square::new(usize::from(next)) else {
            break;
        };
        let Ok(outcome) = position.play(square) else {
            break;
        };
        position = outcome.position;
        if position.must_pass() {
            position = position.pass().unwrap_or(position);
        }
        let here = ctx.explorer.try_with_untracked(Explorer::current);
        if position.is_game_over()
            || here != Some(node)
            || ctx.tree.try_get_untracked() != Some(tree)
        {
            break;
        }
        let cells = position.to_cells().to_vec();
        let side = position.side_to_move.cell_value();
        let Ok(t) = crate::worker::hint_all(cells, side, LINE_DEPTH, LINE_NODES).await else {
            break;
        };
        let Some(best) = t.result.moves.first() else {
            break;
        };
        next = best.square;
        line.push(next);
    }
    line
}

/// The page's start: the link's position and line, or the usual start (and
/// the link's error).
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
fn opening(
    pos: Option<String>,
    line: Option<String>,
    at: Option<String>,
) -> (Explorer, Option<LoadError>) {
    match state::from_query(pos.as_deref(), line.as_deref(), at.as_deref()) {
        Ok(explorer) => (explorer, None),
        Err(e) => (Explorer::new(engine::Position::initial()), Some(e)),
    }
}

/// `/analysis`.
#[component]
pub fn AnalysisBoardPage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let query = leptos_router::hooks::use_query_map();
    // The page is rendered at the usual start on the server, and the link's
    // position and line are applied once it runs in the browser: so the
    // service worker's shell of `/analysis` (kept for when the server is
    // gone) hydrates for any link, its query read here.
    let ctx = Ctx {
        explorer: RwSignal::new(Explorer::new(engine::Position::initial())),
        setup: RwSignal::new(None),
        values: RwSignal::new(HashMap::new()),
        best_line: RwSignal::new(HashMap::new()),
        error: RwSignal::new(None),
        engine_error: RwSignal::new(None),
        version: RwSignal::new(1),
        tree: RwSignal::new(0),
        busy: RwSignal::new(false),
        server_busy: RwSignal::new(false),
        server_valued: RwSignal::new(HashSet::new()),
        server_book: RwSignal::new(HashMap::new()),
        server_error: RwSignal::new(None),
        review: RwSignal::new(Vec::new()),
        lang,
    };
    // After hydration (an effect runs once the page is live), never
    // during it: the hydrated page must match the server's.
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        let (pos, line, at) = query.with_untracked(|q| (q.get("pos"), q.get("line"), q.get("at")));
        if pos.is_some() || line.is_some() {
            let (explorer, error) = opening(pos, line, at);
            ctx.replace(explorer);
            ctx.error.set(error);
        }
        // The game's review, when the link names the game: its marks.
        let review = query.with_untracked(|q| q.get("review"));
        if let Some((kind, id)) = review.as_deref().and_then(state::review_of) {
            leptos::task::spawn_local(async move {
                if let Ok(crate::protocol::AnalysisView::Ready { analysis }) =
                    crate::api::analysis_get(kind, id).await
                {
                    let _ = ctx.review.try_set(analysis.moves);
                }
            });
        }
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = query;
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        ctx.explorer.track();
        ctx.setup.track();
        ctx.tree.track();
        pump(ctx);
    });
    let snapshot = Signal::derive(move || ctx.snapshot());
    let labels = Signal::derive(move || {
        let editing = ctx.setup.with(Option::is_some);
        match ctx.current_values() {
            Some(v) if !editing => crate::pages::hint::board_labels(&v.moves),
            _ => Vec::new(),
        }
    });
    view! {
        <main class="table-page analysis-board-page">
            <header class="topbar">
                <h1><a href="/">{t!(lang, "site-title")}</a></h1>
                <span class="mode">{t!(lang, "analysis-board-title")}</span>
                <crate::i18n::LangSwitch />
            </header>
            <section class="table-board">
                <crate::board::Board3D snapshot on_square=Callback::new(move |s| ctx.click(s)) labels voice=crate::voice::VOICE />
            </section>
            <aside class="hud">
                <cards::TurnCard ctx />
                <cards::ValuesCard ctx />
                <cards::MovesCard ctx />
                <cards::GraphCard ctx />
                <cards::SetupCard ctx />
                <cards::LinkCard ctx />
            </aside>
        </main>
    }
    .into_any()
}
