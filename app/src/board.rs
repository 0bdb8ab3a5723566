//! The board component: server-rendered frame around a `<canvas>` that the 3D
//! island (in the `frontend` crate) takes over after hydration.
//!
//! (Over 600 lines: the 3D board component, its 2D fallback and the keyboard and announcer logic they share.)
//!
//! Around the canvas it owns what every mode needs and the scene cannot draw:
//! keyboard play (a cursor moved with the arrow keys, Enter or Space plays), an
//! `aria-live` announcer for moves and results, the Skip button of the
//! end-of-game celebration, and a DOM board (8 × 8 buttons) used when neither
//! WebGPU nor WebGL 2 is available (or with `?renderer=2d`).
//!
//! The celebration plays once per round end seen live: when a snapshot with an
//! `outcome` follows one without. A page loaded on a finished table does not
//! replay it, and it never plays when the browser asks for reduced motion.

use crate::i18n::Lang;
use crate::protocol::{square_name, BoardSnapshot, Side};
use leptos::prelude::*;

/// What the island reports back to the page.
#[derive(Clone, Copy)]
pub struct SceneHooks {
    /// A square (0..64) was picked by the player.
    pub on_square: Callback<u8>,
    /// The renderer backend in use: `webgpu`, `webgl2` or `2d`.
    pub on_backend: Callback<String>,
    /// The celebration has played to its end.
    pub on_celebration_end: Callback<()>,
}

/// A running 3D scene.
pub trait BoardScene {
    /// Shows a new board state (animating what changed). A change of position
    /// (see [`ends_celebration`]) ends a running celebration first.
    fn show(&self, snapshot: &BoardSnapshot);
    /// Shows the keyboard cursor on a square, or hides it.
    fn set_cursor(&self, square: Option<u8>);
    /// Marks a hinted square (the engine's suggestion), or clears the mark.
    fn set_hint(&self, square: Option<u8>);
    /// Writes a short label on squares (the hint's value of every move:
    /// `(square, text, best)`), replacing any earlier ones; empty clears.
    fn set_labels(&self, labels: &[(u8, String, bool)]);
    /// Starts the end-of-game celebration; false when the scene cannot play it.
    fn celebrate(&self) -> bool;
    /// Ends the celebration at once and shows the final position again.
    fn skip_celebration(&self);
    /// Stops rendering and frees GPU resources.
    fn dispose(&self);
}

/// Builds the 3D scene on a canvas. Injected by the `frontend` crate.
#[cfg(feature = "hydrate")]
#[derive(Clone, Copy)]
pub struct SceneFactory(
    pub fn(web_sys::HtmlCanvasElement, SceneHooks, &BoardSnapshot) -> Box<dyn BoardScene>,
);

fn side_name(colour: i8) -> &'static str {
    if colour > 0 {
        "Black"
    } else {
        "White"
    }
}

/// Whether going from `before` to `after` starts the celebration: the round
/// has just ended.
pub fn starts_celebration(before: &BoardSnapshot, after: &BoardSnapshot) -> bool {
    before.outcome.is_none() && after.outcome.is_some()
}

/// Whether a new snapshot ends a running celebration: the position changed or
/// a new round began (a rematch vote alone does not).
pub fn ends_celebration(before: &BoardSnapshot, after: &BoardSnapshot) -> bool {
    before.cells != after.cells || after.outcome.is_none()
}

/// What the announcer says when the board goes from `before` to `after`: the
/// move just played and, when the round has just ended, the result.
pub fn announcement(lang: Lang, before: &BoardSnapshot, after: &BoardSnapshot) -> Option<String> {
    if before.version == after.version {
        return None;
    }
    let mut parts = Vec::new();
    if let Some(square) = after.last_move {
        let at = usize::from(square);
        let placed = after.cells.get(at).copied().unwrap_or(0);
        if placed != 0 && before.cells.get(at).copied().unwrap_or(0) == 0 {
            parts.push(t!(
                lang,
                "announce-move",
                side = side_name(placed),
                square = square_name(square),
                flips = square_list(&after.flipped)
            ));
        }
    }
    if starts_celebration(before, after) {
        let (black, white) = after.counts();
        parts.push(match after.outcome {
            Some(0) => t!(lang, "announce-draw", black = black, white = white),
            Some(o) => t!(
                lang,
                "announce-win",
                side = side_name(o),
                black = black,
                white = white
            ),
            None => unreachable!("starts_celebration checked the outcome"),
        });
    } else if before.outcome.is_some() && after.outcome.is_none() {
        parts.push(t!(lang, "announce-new-round"));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// Squares as a spoken list: "d4, e5".
fn square_list(squares: &[u8]) -> String {
    squares
        .iter()
        .map(|&q| square_name(q))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The squares `side` (+1 black, −1 white) may play on `cells`.
pub fn legal_squares(cells: &[i8], side: i8) -> Vec<u8> {
    const DIRECTIONS: [(i8, i8); 8] = [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ];
    let at = |row: i8, col: i8| -> Option<i8> {
        ((0..8).contains(&row) && (0..8).contains(&col))
            .then(|| cells.get(usize::from((row * 8 + col) as u8)).copied())
            .flatten()
    };
    (0..64u8)
        .filter(|&square| {
            let (row, col) = ((square / 8) as i8, (square % 8) as i8);
            at(row, col) == Some(0)
                && DIRECTIONS.iter().any(|&(dr, dc)| {
                    let (mut r, mut c, mut seen) = (row + dr, col + dc, false);
                    while at(r, c) == Some(-side) {
                        (r, c, seen) = (r + dr, c + dc, true);
                    }
                    seen && at(r, c) == Some(side)
                })
        })
        .collect()
}

/// Who moves after the last move of `snapshot` and how many moves they
/// have: the other side, or the same one when the other must pass. `None`
/// when the round is over or no move has been played.
pub fn next_to_move(snapshot: &BoardSnapshot) -> Option<(i8, usize)> {
    if snapshot.outcome.is_some() {
        return None;
    }
    let mover = snapshot
        .cells
        .get(usize::from(snapshot.last_move?))
        .copied()
        .filter(|&c| c != 0)?;
    [-mover, mover].into_iter().find_map(|side| {
        let n = legal_squares(&snapshot.cells, side).len();
        (n > 0).then_some((side, n))
    })
}

/// What the announcer adds after a move: who is to move and how many legal
/// moves they have ("White to move, 4 legal moves.").
pub fn to_move_announcement(
    lang: Lang,
    before: &BoardSnapshot,
    after: &BoardSnapshot,
) -> Option<String> {
    if before.version == after.version || before.last_move == after.last_move {
        return None;
    }
    let (side, count) = next_to_move(after)?;
    Some(t!(
        lang,
        "announce-to-move",
        side = side_name(side),
        count = count
    ))
}

/// A pass the board itself shows (for pages without a pass log): the side
/// that just moved moves again.
pub fn implied_pass(lang: Lang, before: &BoardSnapshot, after: &BoardSnapshot) -> Option<String> {
    if before.version == after.version || before.last_move == after.last_move {
        return None;
    }
    let mover = after.cells.get(usize::from(after.last_move?)).copied()?;
    let (side, _) = next_to_move(after)?;
    (side == mover && mover != 0)
        .then(|| t!(lang, "lab-pass", side = side_name(-mover)))
}

/// The squares of a line through `square`: its row, its column, or one of
/// its diagonals (down-right, up-right), from one edge to the other.
fn line_through(square: u8, step: (i8, i8)) -> Vec<u8> {
    let (row, col) = ((square / 8) as i8, (square % 8) as i8);
    let inside = |r: i8, c: i8| (0..8).contains(&r) && (0..8).contains(&c);
    let (mut r, mut c) = (row, col);
    while inside(r - step.0, c - step.1) {
        (r, c) = (r - step.0, c - step.1);
    }
    let mut out = Vec::new();
    while inside(r, c) {
        out.push((r * 8 + c) as u8);
        (r, c) = (r + step.0, c + step.1);
    }
    out
}

/// A line of squares read as runs: "a4 to c4 empty, d4 white, e4 black, f4 to h4 empty".
fn read_squares(lang: Lang, cells: &[i8], squares: &[u8]) -> String {
    let mut runs: Vec<(u8, u8, i8, usize)> = Vec::new();
    for &q in squares {
        let c = cells.get(usize::from(q)).copied().unwrap_or(0);
        match runs.last_mut() {
            Some(run) if run.2 == c => {
                run.1 = q;
                run.3 += 1;
            }
            _ => runs.push((q, q, c, 1)),
        }
    }
    runs.into_iter()
        .map(|(from, to, c, count)| {
            let squares = if from == to {
                square_name(from)
            } else {
                t!(
                    lang,
                    "read-range",
                    from = square_name(from),
                    to = square_name(to)
                )
            };
            let what = match c {
                1 => t!(lang, "read-black", count = count),
                -1 => t!(lang, "read-white", count = count),
                _ => t!(lang, "read-empty", count = count),
            };
            format!("{squares} {what}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The keys that read the board without moving (see `board-keys`): what the
/// announcer says for `key` with the cursor on `cursor`; `None` for other
/// keys. `clocks` is the clocks' text, when the page has clocks.
pub fn read_key(
    lang: Lang,
    key: &str,
    snapshot: &BoardSnapshot,
    cursor: u8,
    clocks: Option<String>,
) -> Option<String> {
    let cells = &snapshot.cells;
    let name = |line: &[u8]| {
        let first = line.first().copied().unwrap_or(0);
        let last = line.last().copied().unwrap_or(0);
        format!("{}–{}", square_name(first), square_name(last))
    };
    Some(match key.to_ascii_lowercase().as_str() {
        "r" => t!(
            lang,
            "read-row",
            row = (cursor / 8 + 1).to_string(),
            cells = read_squares(lang, cells, &line_through(cursor, (0, 1)))
        ),
        "c" => t!(
            lang,
            "read-column",
            column = ((b'a' + cursor % 8) as char).to_string(),
            cells = read_squares(lang, cells, &line_through(cursor, (1, 0)))
        ),
        "d" => [(1, 1), (-1, 1)]
            .into_iter()
            .map(|step| {
                let line = line_through(cursor, step);
                t!(
                    lang,
                    "read-diagonal",
                    name = name(&line),
                    cells = read_squares(lang, cells, &line)
                )
            })
            .collect::<Vec<_>>()
            .join(" "),
        "l" if snapshot.legal.is_empty() => t!(lang, "read-no-legal"),
        "l" => {
            let mut legal = snapshot.legal.clone();
            legal.sort_unstable();
            t!(lang, "read-legal", squares = square_list(&legal))
        }
        "s" => {
            let (black, white) = snapshot.counts();
            t!(
                lang,
                "read-score",
                black = black,
                white = white,
                empty = 64 - black - white
            )
        }
        "m" => match snapshot.last_move {
            Some(square) => t!(
                lang,
                "read-last",
                side = side_name(cells.get(usize::from(square)).copied().unwrap_or(0)),
                square = square_name(square),
                flips = square_list(&snapshot.flipped)
            ),
            None => t!(lang, "read-no-last"),
        },
        "t" => clocks.unwrap_or_else(|| t!(lang, "read-no-clocks")),
        _ => return None,
    })
}

/// The clocks as the page shows them ("Black (you) 2:31, White 2:45."), or
/// `None` when the page has none.
#[cfg(feature = "hydrate")]
fn clocks_text() -> Option<String> {
    let doc = document();
    let text = ["clock-black", "clock-white"]
        .into_iter()
        .filter_map(|id| doc.get_element_by_id(id))
        .map(|clock| {
            let part = |class: &str| {
                clock
                    .query_selector(class)
                    .ok()
                    .flatten()
                    .and_then(|e| e.text_content())
                    .unwrap_or_default()
            };
            let low = part(".clock-low");
            let mut text = format!("{} {}", part(".clock-side"), part(".clock-time"));
            if !low.is_empty() {
                text.push_str(&format!(" ({low})"));
            }
            text
        })
        .collect::<Vec<_>>();
    (!text.is_empty()).then(|| format!("{}.", text.join(", ")))
}

/// Says `text` in the announcer, even when it is what it said last (a
/// zero-width space makes the live region change).
fn say(announcer: RwSignal<String>, text: String) {
    let again = announcer.with_untracked(|now| now.trim_end_matches('\u{200b}') == text);
    announcer.set(if again && !announcer.with_untracked(|n| n.ends_with('\u{200b}')) {
        format!("{text}\u{200b}")
    } else {
        text
    });
}

/// Whether the 3D board is switched off in this browser (the player's
/// choice, kept in local storage; the island reads the same key).
pub const FLAT_BOARD_KEY: &str = "othello3d.board";

/// The passes of the current round, in order, for the announcer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassLog {
    pub round: u32,
    pub passers: Vec<Side>,
}

/// What the announcer adds about passes when the round's passes go from
/// `before` to `after` ("White has no legal move and passes.").
pub fn pass_announcement(lang: Lang, before: &PassLog, after: &PassLog) -> Option<String> {
    let new = if after.round != before.round {
        &after.passers[..]
    } else {
        after.passers.get(before.passers.len()..).unwrap_or(&[])
    };
    (!new.is_empty()).then(|| {
        new.iter()
            .map(|side| t!(lang, "lab-pass", side = side.name()))
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// A square as a screen reader hears it: "f5, black disc", "d3, empty, legal move".
pub fn describe_square(lang: Lang, snapshot: &BoardSnapshot, square: u8) -> String {
    let mut text = square_name(square);
    text.push_str(&match snapshot
        .cells
        .get(usize::from(square))
        .copied()
        .unwrap_or(0)
    {
        1 => t!(lang, "square-black"),
        -1 => t!(lang, "square-white"),
        _ => t!(lang, "square-empty"),
    });
    if snapshot.legal.contains(&square) {
        text.push_str(&t!(lang, "square-legal"));
    }
    if snapshot.last_move == Some(square) {
        text.push_str(&t!(lang, "square-last"));
    }
    text
}

/// Where the keyboard cursor starts: the first legal move, else d4.
pub fn cursor_start(snapshot: &BoardSnapshot) -> u8 {
    snapshot.legal.iter().copied().min().unwrap_or(27)
}

/// The cursor after an arrow key (row 1 is at the top of the board on screen,
/// column a on the left); `None` for other keys. Stops at the edges.
pub fn move_cursor(square: u8, key: &str) -> Option<u8> {
    let (row, col) = (square / 8, square % 8);
    let (row, col) = match key {
        "ArrowUp" => (row.saturating_sub(1), col),
        "ArrowDown" => ((row + 1).min(7), col),
        "ArrowLeft" => (row, col.saturating_sub(1)),
        "ArrowRight" => (row, (col + 1).min(7)),
        "Home" => (row, 0),
        "End" => (row, 7),
        _ => return None,
    };
    Some(row * 8 + col)
}

#[cfg(feature = "hydrate")]
fn prefers_reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|q| q.matches())
}

/// The 3D board. `snapshot` is the server's state; clicks go to `on_square`;
/// `hint`, when given, is a square to mark as the engine's suggestion.
#[component]
pub fn Board3D(
    #[prop(into)] snapshot: Signal<BoardSnapshot>,
    #[prop(into)] on_square: Callback<u8>,
    /// The round's passes, when the page knows them: the announcer speaks each new one.
    #[prop(optional, into)]
    passes: Option<Signal<PassLog>>,
    /// A square to mark as the hint (the engine worker's best move).
    #[prop(optional, into)]
    hint: Option<Signal<Option<u8>>>,
    /// Short labels to write on squares (the hint's value of every move):
    /// `(square, text, best)`.
    #[prop(optional, into)]
    labels: Option<Signal<Vec<(u8, String, bool)>>>,
    /// Whether a round end is one to celebrate for this viewer (not a
    /// player's own loss); always, when not given.
    #[prop(optional, into)]
    celebrate: Option<Signal<bool>>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let hint = hint.unwrap_or_else(|| Signal::derive(|| None));
    let labels = labels.unwrap_or_else(|| Signal::derive(Vec::new));
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let (backend, set_backend) = signal(String::from("loading"));
    let celebrating = RwSignal::new(false);
    let announcer = RwSignal::new(String::new());
    let cursor = RwSignal::new(None::<u8>);

    #[cfg(feature = "hydrate")]
    let scene: StoredValue<Option<Box<dyn BoardScene>>, LocalStorage> =
        StoredValue::new_local(None);
    // Runs `f` on the scene once it exists (never on the server).
    let with_scene = move |f: &dyn Fn(&dyn BoardScene)| {
        #[cfg(feature = "hydrate")]
        scene.with_value(|s| {
            if let Some(s) = s {
                f(s.as_ref());
            }
        });
        #[cfg(not(feature = "hydrate"))]
        let _ = f;
    };

    #[cfg(feature = "hydrate")]
    {
        let factory = use_context::<SceneFactory>();
        canvas.on_load(move |element| {
            let Some(factory) = factory else { return };
            let hooks = SceneHooks {
                on_square,
                // `try_set`: a late report after the page has gone is ignored.
                on_backend: Callback::new(move |name: String| {
                    let _ = set_backend.try_set(name);
                }),
                on_celebration_end: Callback::new(move |()| {
                    let _ = celebrating.try_set(false);
                }),
            };
            let built = (factory.0)(element, hooks, &snapshot.get_untracked());
            built.set_hint(hint.get_untracked());
            built.set_labels(&labels.get_untracked());
            scene.set_value(Some(built));
        });
        Effect::new(move |_| {
            let square = hint.get();
            with_scene(&|s| s.set_hint(square));
        });
        Effect::new(move |_| {
            let now = labels.get();
            with_scene(&|s| s.set_labels(&now));
        });
        let previous: StoredValue<Option<BoardSnapshot>> = StoredValue::new(None);
        let previous_passes: StoredValue<Option<PassLog>> = StoredValue::new(None);
        Effect::new(move |_| {
            let current = snapshot.get();
            let current_passes = passes.map(|p| p.get());
            let passed = match (previous_passes.get_value(), &current_passes) {
                (Some(before), Some(after)) => pass_announcement(lang, &before, after),
                _ => None,
            };
            previous_passes.set_value(current_passes);
            let before = previous.get_value();
            with_scene(&|s| s.show(&current));
            if let Some(before) = before {
                if celebrating.get_untracked() && ends_celebration(&before, &current) {
                    celebrating.set(false);
                }
                let passed = match passes {
                    Some(_) => passed,
                    None => implied_pass(lang, &before, &current),
                };
                let text = [
                    announcement(lang, &before, &current),
                    passed,
                    to_move_announcement(lang, &before, &current),
                ]
                .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join(" ");
                if !text.is_empty() {
                    announcer.set(text);
                }
                let wanted = celebrate.is_none_or(|c| c.get_untracked());
                if starts_celebration(&before, &current) && wanted && !prefers_reduced_motion() {
                    with_scene(&|s| {
                        if s.celebrate() {
                            celebrating.set(true);
                        }
                    });
                }
            }
            previous.set_value(Some(current));
        });
        on_cleanup(move || with_scene(&|s| s.dispose()));
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (set_backend, passes, celebrate);

    let skip = move || {
        with_scene(&|s| s.skip_celebration());
        celebrating.set(false);
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let key = ev.key();
        if key == "Escape" && celebrating.get_untracked() {
            skip();
            return;
        }
        let board = snapshot.get_untracked();
        if !(ev.ctrl_key() || ev.alt_key() || ev.meta_key()) {
            let at = cursor.get_untracked().unwrap_or_else(|| cursor_start(&board));
            #[cfg(feature = "hydrate")]
            let clocks = clocks_text();
            #[cfg(not(feature = "hydrate"))]
            let clocks = None;
            if let Some(text) = read_key(lang, &key, &board, at, clocks) {
                ev.prevent_default();
                say(announcer, text);
                return;
            }
        }
        let next = match (cursor.get_untracked(), key.as_str()) {
            (Some(square), "Enter" | " ") => {
                ev.prevent_default();
                on_square.run(square);
                return;
            }
            (None, "Enter" | " ") => Some(cursor_start(&board)),
            (None, k) => move_cursor(0, k).map(|_| cursor_start(&board)),
            (Some(square), k) => move_cursor(square, k),
        };
        if let Some(square) = next {
            ev.prevent_default();
            cursor.set(Some(square));
            with_scene(&|s| s.set_cursor(Some(square)));
            announcer.set(describe_square(lang, &board, square));
        }
    };
    let on_blur = move |_| with_scene(&|s| s.set_cursor(None));
    let on_focus = move |_| {
        if let Some(square) = cursor.get_untracked() {
            with_scene(&|s| s.set_cursor(Some(square)));
        }
    };
    let is_2d = move || backend.get() == "2d";

    view! {
        <div class="board-frame" class:mode-2d=is_2d>
            <canvas
                node_ref=canvas
                id="board-canvas"
                tabindex="0"
                aria-label=t!(lang, "board-label")
                role="application"
                aria-keyshortcuts="ArrowUp ArrowDown ArrowLeft ArrowRight Home End Enter Space R C D L S M T"
                on:keydown=on_key
                on:blur=on_blur
                on:focus=on_focus
            ></canvas>
            {move || is_2d().then(|| view! { <Board2D snapshot on_square cursor hint labels announcer /> })}
            {move || {
                celebrating
                    .get()
                    .then(|| {
                        view! {
                            <button
                                type="button"
                                id="skip-celebration"
                                class="skip-celebration"
                                on:click=move |_| skip()
                            >
                                {t!(lang, "board-skip")}
                            </button>
                        }
                    })
            }}
            <p id="announcer" class="sr-only" aria-live="polite" aria-atomic="true">
                {move || announcer.get()}
            </p>
            <p class="backend" id="backend" data-backend=move || backend.get()>
                {t!(lang, "board-renderer")} " "
                {move || backend.get()}
                " "
                <button
                    type="button"
                    class="link-button"
                    id="board-toggle"
                    on:click=move |_| {
                        #[cfg(feature = "hydrate")]
                        {
                            let flat = backend.get_untracked() != "2d";
                            if let Ok(Some(storage)) = window().local_storage() {
                                let _ = if flat {
                                    storage.set_item(FLAT_BOARD_KEY, "2d")
                                } else {
                                    storage.remove_item(FLAT_BOARD_KEY)
                                };
                            }
                            let _ = window().location().reload();
                        }
                    }
                >
                    {move || if is_2d() { t!(lang, "board-use-3d") } else { t!(lang, "board-use-2d") }}
                </button>
            </p>
        </div>
    }
    .into_any()
}

/// The DOM board for browsers without WebGPU and WebGL 2: 64 buttons, one per
/// square, playable by click and by keyboard (arrow keys move the focus).
#[component]
fn Board2D(
    snapshot: Signal<BoardSnapshot>,
    on_square: Callback<u8>,
    cursor: RwSignal<Option<u8>>,
    hint: Signal<Option<u8>>,
    labels: Signal<Vec<(u8, String, bool)>>,
    announcer: RwSignal<String>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let grid = NodeRef::<leptos::html::Div>::new();
    let focus_square = move || cursor.get().unwrap_or_else(|| snapshot.with(cursor_start));
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let current = cursor
            .get_untracked()
            .unwrap_or_else(|| snapshot.with_untracked(cursor_start));
        if !(ev.ctrl_key() || ev.alt_key() || ev.meta_key()) {
            #[cfg(feature = "hydrate")]
            let clocks = clocks_text();
            #[cfg(not(feature = "hydrate"))]
            let clocks = None;
            let read = snapshot.with_untracked(|s| read_key(lang, &ev.key(), s, current, clocks));
            if let Some(text) = read {
                ev.prevent_default();
                say(announcer, text);
                return;
            }
        }
        let Some(next) = move_cursor(current, &ev.key()) else {
            return;
        };
        ev.prevent_default();
        cursor.set(Some(next));
        #[cfg(feature = "hydrate")]
        if let Some(grid) = grid.get_untracked() {
            use wasm_bindgen::JsCast;
            if let Ok(Some(cell)) = grid.query_selector(&format!("[data-square=\"{next}\"]")) {
                if let Ok(cell) = cell.dyn_into::<web_sys::HtmlElement>() {
                    let _ = cell.focus();
                }
            }
        }
    };
    let cell = move |square: u8| {
        let index = usize::from(square);
        let colour = move || snapshot.with(|s| s.cells.get(index).copied().unwrap_or(0));
        let class = move || {
            snapshot.with(|s| {
                let mut class = String::from("cell");
                if s.legal.contains(&square) {
                    class.push_str(" legal");
                }
                if s.last_move == Some(square) {
                    class.push_str(" last");
                }
                if hint.get() == Some(square) {
                    class.push_str(" hint");
                }
                // A hint's value on the square: drawn by CSS from `data-label`.
                labels.with(|l| {
                    if let Some((_, _, best)) = l.iter().find(|(s, _, _)| *s == square) {
                        class.push_str(if *best {
                            " labelled best-label"
                        } else {
                            " labelled"
                        });
                    }
                });
                class
            })
        };
        let disc_class = move || match colour() {
            1 => "disc2d black",
            -1 => "disc2d white",
            _ => "disc2d none",
        };
        view! {
            <button
                type="button"
                class=class
                data-square=square
                data-label=move || labels.with(|l| l.iter().find(|(s, _, _)| *s == square).map(|(_, t, _)| t.clone()))
                aria-label=move || snapshot.with(|s| describe_square(lang, s, square))
                tabindex=move || if focus_square() == square { "0" } else { "-1" }
                on:click=move |_| {
                    cursor.set(Some(square));
                    on_square.run(square);
                }
                on:focus=move |_| cursor.set(Some(square))
            >
                <span class=disc_class aria-hidden="true"></span>
            </button>
        }
    };
    let columns = (0..8u8)
        .map(|c| view! { <span class="coord" aria-hidden="true">{((b'a' + c) as char).to_string()}</span> })
        .collect_view();
    let rows = (0..8u8)
        .map(|row| {
            view! {
                <span class="coord" aria-hidden="true">{(row + 1).to_string()}</span>
                {(0..8u8).map(|col| cell(row * 8 + col)).collect_view()}
            }
        })
        .collect_view();
    view! {
        <div
            class="board-2d"
            id="board-2d"
            role="application"
            aria-label=t!(lang, "board-label-2d")
            aria-keyshortcuts="ArrowUp ArrowDown ArrowLeft ArrowRight Home End Enter Space R C D L S M T"
            node_ref=grid
            on:keydown=on_key
        >
            <span class="coord corner" aria-hidden="true"></span>
            {columns}
            {rows}
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> BoardSnapshot {
        let mut s = BoardSnapshot::empty();
        s.cells[27] = -1;
        s.cells[28] = 1;
        s.cells[35] = 1;
        s.cells[36] = -1;
        s.legal = vec![19, 26, 37, 44];
        s.version = 1;
        s
    }

    #[test]
    fn a_move_is_announced_with_its_flips() {
        let before = start();
        let mut after = before.clone();
        after.cells[37] = 1;
        after.cells[36] = 1;
        after.last_move = Some(37);
        after.flipped = vec![36];
        after.version = 2;
        assert_eq!(
            announcement(Lang::En, &before, &after).as_deref(),
            Some("Black f5, flips e5.")
        );
        assert_eq!(
            to_move_announcement(Lang::En, &before, &after).as_deref(),
            Some("White to move, 3 legal moves.")
        );
        assert_eq!(announcement(Lang::En, &after, &after), None);
        assert_eq!(to_move_announcement(Lang::En, &after, &after), None);
        assert_eq!(
            announcement(Lang::El, &before, &after).as_deref(),
            Some("Μαύρα f5, γυρίζουν: e5.")
        );
    }

    #[test]
    fn the_result_is_announced_once() {
        let before = start();
        let mut after = before.clone();
        after.version = 2;
        after.outcome = Some(-1);
        assert_eq!(
            announcement(Lang::En, &before, &after).as_deref(),
            Some("Game over: White wins. Black 2, white 2.")
        );
        assert!(starts_celebration(&before, &after));
        let mut vote = after.clone();
        vote.version = 3;
        assert!(!starts_celebration(&after, &vote));
        assert!(!ends_celebration(&after, &vote));
        assert_eq!(announcement(Lang::En, &after, &vote), None);
        let mut rematch = start();
        rematch.version = 4;
        assert!(ends_celebration(&vote, &rematch));
        assert_eq!(
            announcement(Lang::En, &vote, &rematch).as_deref(),
            Some("A new round begins.")
        );
    }

    #[test]
    fn each_new_pass_is_announced_once() {
        let none = PassLog {
            round: 1,
            passers: vec![],
        };
        let one = PassLog {
            round: 1,
            passers: vec![Side::White],
        };
        assert_eq!(
            pass_announcement(Lang::En, &none, &one).as_deref(),
            Some("White has no legal move and passes.")
        );
        assert_eq!(pass_announcement(Lang::En, &one, &one), None);
        let two = PassLog {
            round: 1,
            passers: vec![Side::White, Side::Black],
        };
        assert_eq!(
            pass_announcement(Lang::En, &one, &two).as_deref(),
            Some("Black has no legal move and passes.")
        );
        let next_round = PassLog {
            round: 2,
            passers: vec![Side::Black],
        };
        assert_eq!(
            pass_announcement(Lang::En, &two, &next_round).as_deref(),
            Some("Black has no legal move and passes.")
        );
        let fresh = PassLog {
            round: 3,
            passers: vec![],
        };
        assert_eq!(pass_announcement(Lang::En, &next_round, &fresh), None);
    }

    #[test]
    fn squares_are_described() {
        let mut s = start();
        s.last_move = Some(28);
        assert_eq!(
            describe_square(Lang::En, &s, 28),
            "e4, black disc, last move"
        );
        assert_eq!(describe_square(Lang::En, &s, 27), "d4, white disc");
        assert_eq!(describe_square(Lang::En, &s, 19), "d3, empty, legal move");
        assert_eq!(describe_square(Lang::En, &s, 0), "a1, empty");
        assert_eq!(describe_square(Lang::El, &s, 19), "d3, κενό, έγκυρη κίνηση");
        assert_eq!(
            describe_square(Lang::El, &s, 28),
            "e4, μαύρο πούλι, τελευταία κίνηση"
        );
    }

    #[test]
    fn legal_moves_and_passes_follow_the_rules() {
        let s = start();
        assert_eq!(legal_squares(&s.cells, 1), vec![19, 26, 37, 44]);
        assert_eq!(legal_squares(&s.cells, -1), vec![20, 29, 34, 43]);
        // Black a1 and b1, white c1, black just played a1: white cannot
        // move (nothing of black's is flanked), black can (d1).
        let before = BoardSnapshot {
            version: 1,
            ..start()
        };
        let mut pass = BoardSnapshot::empty();
        pass.cells[0] = 1;
        pass.cells[1] = 1;
        pass.cells[2] = -1;
        pass.last_move = Some(0);
        pass.version = 2;
        assert_eq!(legal_squares(&pass.cells, -1), Vec::<u8>::new());
        assert_eq!(legal_squares(&pass.cells, 1), vec![3]);
        assert_eq!(next_to_move(&pass), Some((1, 1)));
        assert_eq!(
            implied_pass(Lang::En, &before, &pass).as_deref(),
            Some("White has no legal move and passes.")
        );
    }

    #[test]
    fn the_board_is_read_by_lines() {
        let mut s = start();
        s.last_move = Some(37);
        s.flipped = vec![36];
        s.cells[37] = 1;
        s.cells[36] = 1;
        let read = |key: &str| read_key(Lang::En, key, &s, 36, None).unwrap();
        assert_eq!(read("r"), "Row 5: a5 to c5 empty, d5 to f5 black, g5 to h5 empty.");
        assert_eq!(read("C"), "Column e: e1 to e3 empty, e4 to e5 black, e6 to e8 empty.");
        assert_eq!(
            read("d"),
            "Diagonal a1–h8: a1 to c3 empty, d4 white, e5 black, f6 to h8 empty. \
             Diagonal b8–h2: b8 to d6 empty, e5 black, f4 to h2 empty."
        );
        assert_eq!(read("l"), "Legal moves: d3, c4, f5, e6.");
        assert_eq!(read("s"), "Discs: black 4, white 1; empty squares: 59.");
        assert_eq!(read("m"), "Last move: Black f5, flips e5.");
        assert_eq!(read("t"), "This game has no clocks.");
        assert_eq!(read_key(Lang::En, "x", &s, 36, None), None);
        assert_eq!(
            read_key(Lang::El, "s", &s, 36, None).as_deref(),
            Some("Πούλια: μαύρα 4, λευκά 1· κενά τετράγωνα: 59.")
        );
        assert_eq!(line_through(0, (-1, 1)), vec![0]);
        assert_eq!(line_through(63, (1, 1)).len(), 8);
    }

    #[test]
    fn the_cursor_moves_and_stops_at_edges() {
        assert_eq!(cursor_start(&start()), 19);
        assert_eq!(cursor_start(&BoardSnapshot::empty()), 27);
        assert_eq!(move_cursor(19, "ArrowDown"), Some(27));
        assert_eq!(move_cursor(19, "ArrowUp"), Some(11));
        assert_eq!(move_cursor(19, "ArrowRight"), Some(20));
        assert_eq!(move_cursor(0, "ArrowLeft"), Some(0));
        assert_eq!(move_cursor(0, "ArrowUp"), Some(0));
        assert_eq!(move_cursor(63, "ArrowDown"), Some(63));
        assert_eq!(move_cursor(63, "ArrowRight"), Some(63));
        assert_eq!(move_cursor(10, "x"), None);
    }
}
