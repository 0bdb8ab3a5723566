//! The board component: server-rendered frame around a `<canvas>` that the 3D
//! island (in the `frontend` crate) takes over after hydration.
//! (Over 600 lines: the 3D board and the flat board share the keyboard, the announcer and the marks; the last 60 are unit tests.)
//!
//! Around the canvas it owns what every mode needs and the scene cannot draw:
//! keyboard play (a cursor moved with the arrow keys, Enter or Space plays), an
//! `aria-live` announcer for moves and results (what it says is in
//! [`crate::voice`]), the Skip button of the
//! end-of-game celebration, and a DOM board (8 × 8 buttons) used when neither
//! WebGPU nor WebGL 2 is available (or with `?renderer=2d`, or when the
//! player switched the 3D board off: the button under the board).
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

/// Says `text` in the announcer, even when it is what it said last (a
/// zero-width space makes the live region change).
fn say(announcer: RwSignal<String>, text: String) {
    let again = announcer.with_untracked(|now| now.trim_end_matches('\u{200b}') == text);
    announcer.set(
        if again && !announcer.with_untracked(|n| n.ends_with('\u{200b}')) {
            format!("{text}\u{200b}")
        } else {
            text
        },
    );
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

/// [`describe_square`] with the value written on the square, if any (a
/// hint's or practice's value of the move: `(square, text, best)`), so a
/// screen reader hears what the eye sees.
pub fn describe_labelled(
    lang: Lang,
    snapshot: &BoardSnapshot,
    square: u8,
    labels: &[(u8, String, bool)],
) -> String {
    let mut text = describe_square(lang, snapshot, square);
    if let Some((_, value, best)) = labels.iter().find(|(s, _, _)| *s == square) {
        text.push_str(&t!(lang, "square-value", value = value.as_str()));
        if *best {
            text.push_str(&t!(lang, "square-best"));
        }
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

/// The 3D board's parts that its handlers share (all `Copy`).
#[derive(Clone, Copy)]
struct Parts {
    lang: Lang,
    snapshot: Signal<BoardSnapshot>,
    on_square: Callback<u8>,
    labels: Signal<Vec<(u8, String, bool)>>,
    voice: Option<crate::voice::BoardVoice>,
    backend: RwSignal<String>,
    celebrating: RwSignal<bool>,
    announcer: RwSignal<String>,
    cursor: RwSignal<Option<u8>>,
    /// The square of a move name the pointer or the focus is on.
    marked: RwSignal<Option<u8>>,
    #[cfg(feature = "hydrate")]
    scene: StoredValue<Option<Box<dyn BoardScene>>, LocalStorage>,
}

impl Parts {
    /// Runs `f` on the scene once it exists (never on the server).
    fn with_scene(self, f: &dyn Fn(&dyn BoardScene)) {
        #[cfg(feature = "hydrate")]
        self.scene.with_value(|s| {
            if let Some(s) = s {
                f(s.as_ref());
            }
        });
        #[cfg(not(feature = "hydrate"))]
        let _ = f;
    }

    fn skip(self) {
        self.with_scene(&|s| s.skip_celebration());
        self.celebrating.set(false);
    }

    /// Builds the scene on the canvas once it is drawn, and keeps it showing
    /// the hint, the labels and the squares marked elsewhere on the page.
    #[cfg(feature = "hydrate")]
    fn start(self, canvas: NodeRef<leptos::html::Canvas>, hint: Signal<Option<u8>>) {
        let factory = use_context::<SceneFactory>();
        canvas.on_load(move |element| {
            let Some(factory) = factory else { return };
            let (backend, celebrating) = (self.backend, self.celebrating);
            let hooks = SceneHooks {
                on_square: self.on_square,
                // `try_set`: a late report after the page has gone is ignored.
                on_backend: Callback::new(move |name: String| {
                    let _ = backend.try_set(name);
                }),
                on_celebration_end: Callback::new(move |()| {
                    let _ = celebrating.try_set(false);
                }),
            };
            let built = (factory.0)(element, hooks, &self.snapshot.get_untracked());
            built.set_hint(hint.get_untracked());
            built.set_labels(&self.labels.get_untracked());
            self.scene.set_value(Some(built));
        });
        Effect::new(move |_| {
            let square = hint.get();
            self.with_scene(&|s| s.set_hint(square));
        });
        Effect::new(move |_| {
            let now = self.labels.get();
            self.with_scene(&|s| s.set_labels(&now));
        });
        // A move's name hovered or focused anywhere on the page (an element
        // with `data-mark="f5"`: the hint, the analysis, the move lists)
        // marks its square on the board, with the keyboard cursor's marker.
        let mark_of = |target: Option<web_sys::EventTarget>| -> Option<u8> {
            use wasm_bindgen::JsCast;
            let element: web_sys::Element = target?.dyn_into().ok()?;
            let named = element.closest("[data-mark]").ok()??;
            crate::protocol::square_index(&named.get_attribute("data-mark")?)
        };
        let (marked, cursor) = (self.marked, self.cursor);
        let mark = move |square: Option<u8>| {
            if marked.try_get_untracked().is_some_and(|now| now != square) {
                marked.set(square);
                self.with_scene(&|s| s.set_cursor(square.or_else(|| cursor.get_untracked())));
            }
        };
        let over =
            window_event_listener(leptos::ev::mouseover, move |ev| mark(mark_of(ev.target())));
        let focus =
            window_event_listener(leptos::ev::focusin, move |ev| mark(mark_of(ev.target())));
        on_cleanup(move || {
            over.remove();
            focus.remove();
            self.with_scene(&|s| s.dispose());
        });
    }

    /// Shows each new snapshot, and says and celebrates what changed: not
    /// while `quiet` (a takeover's positions, and the switches to and from
    /// them, are not moves).
    #[cfg(feature = "hydrate")]
    fn follow(
        self,
        passes: Option<Signal<PassLog>>,
        celebrate: Option<Signal<bool>>,
        quiet: Option<Signal<bool>>,
    ) {
        let (celebrating, lang) = (self.celebrating, self.lang);
        let previous: StoredValue<Option<BoardSnapshot>> = StoredValue::new(None);
        let previous_passes: StoredValue<Option<PassLog>> = StoredValue::new(None);
        let was_practising = StoredValue::new(false);
        Effect::new(move |_| {
            let current = self.snapshot.get();
            let current_passes = passes.map(|p| p.get());
            let passes_before = previous_passes.get_value();
            previous_passes.set_value(current_passes.clone());
            let before = previous.get_value();
            self.with_scene(&|s| s.show(&current));
            let now_practising = quiet.is_some_and(|q| q.get_untracked());
            let switched = now_practising || was_practising.get_value();
            was_practising.set_value(now_practising);
            if switched && celebrating.get_untracked() {
                self.with_scene(&|s| s.skip_celebration());
                celebrating.set(false);
            }
            if let Some(before) = before.filter(|_| !switched) {
                if celebrating.get_untracked() && ends_celebration(&before, &current) {
                    celebrating.set(false);
                }
                let pass_logs = match (&passes_before, &current_passes) {
                    (Some(was), Some(now)) => Some((was, now)),
                    _ => None,
                };
                // A page with a pass log but no earlier one yet says no pass.
                let said = self.voice.and_then(|v| {
                    if passes.is_some() && pass_logs.is_none() {
                        let empty = PassLog::default();
                        (v.change)(lang, &before, &current, Some((&empty, &empty)))
                    } else {
                        (v.change)(lang, &before, &current, pass_logs)
                    }
                });
                if let Some(text) = said {
                    self.announcer.set(text);
                }
                let wanted = celebrate.is_none_or(|c| c.get_untracked());
                if starts_celebration(&before, &current) && wanted && !prefers_reduced_motion() {
                    self.with_scene(&|s| {
                        if s.celebrate() {
                            celebrating.set(true);
                        }
                    });
                }
            }
            previous.set_value(Some(current));
        });
    }

    /// A key on the canvas: Escape skips the celebration, the reading keys
    /// speak, the arrows move the cursor, Enter or Space plays.
    fn key(self, ev: leptos::ev::KeyboardEvent) {
        let (lang, cursor) = (self.lang, self.cursor);
        let key = ev.key();
        if key == "Escape" && self.celebrating.get_untracked() {
            self.skip();
            return;
        }
        let board = self.snapshot.get_untracked();
        if !(ev.ctrl_key() || ev.alt_key() || ev.meta_key()) {
            let at = cursor
                .get_untracked()
                .unwrap_or_else(|| cursor_start(&board));
            let reading = crate::voice::reading_key(&ev.code(), &key);
            if let Some(text) = self.voice.and_then(|v| (v.key)(lang, &reading, &board, at)) {
                ev.prevent_default();
                say(self.announcer, text);
                return;
            }
        }
        let next = match (cursor.get_untracked(), key.as_str()) {
            (Some(square), "Enter" | " ") => {
                ev.prevent_default();
                self.on_square.run(square);
                return;
            }
            (None, "Enter" | " ") => Some(cursor_start(&board)),
            (None, k) => move_cursor(0, k).map(|_| cursor_start(&board)),
            (Some(square), k) => move_cursor(square, k),
        };
        if let Some(square) = next {
            ev.prevent_default();
            cursor.set(Some(square));
            self.with_scene(&|s| s.set_cursor(Some(square)));
            self.announcer.set(
                self.labels
                    .with_untracked(|l| describe_labelled(lang, &board, square, l)),
            );
        }
    }
}

/// The 3D board switched off (or on again) in this browser: the choice is
/// kept, and the page reloads with it.
fn toggle_flat_board(backend: RwSignal<String>) {
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
    #[cfg(not(feature = "hydrate"))]
    let _ = backend;
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
    /// What the board says (moves, passes, the reading keys): given by the
    /// pages with a game (`crate::voice::VOICE`); the lobby's board is silent.
    #[prop(optional)]
    voice: Option<crate::voice::BoardVoice>,
    /// While true, the board shows another position than the game's (a
    /// practice's: `crate::takeover`): its changes, and the switches to and
    /// from it, are not moves — nothing to announce or celebrate.
    #[prop(optional, into)]
    quiet: Option<Signal<bool>>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let hint = hint.unwrap_or_else(|| Signal::derive(|| None));
    let labels = labels.unwrap_or_else(|| Signal::derive(Vec::new));
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let parts = Parts {
        lang,
        snapshot,
        on_square,
        labels,
        voice,
        backend: RwSignal::new(String::from("loading")),
        celebrating: RwSignal::new(false),
        announcer: RwSignal::new(String::new()),
        cursor: RwSignal::new(None::<u8>),
        marked: RwSignal::new(None::<u8>),
        #[cfg(feature = "hydrate")]
        scene: StoredValue::new_local(None),
    };
    let Parts {
        backend,
        celebrating,
        announcer,
        cursor,
        marked,
        ..
    } = parts;
    #[cfg(feature = "hydrate")]
    {
        parts.start(canvas, hint);
        parts.follow(passes, celebrate, quiet);
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (passes, celebrate, quiet);

    let on_blur = move |_| parts.with_scene(&|s| s.set_cursor(None));
    let on_focus = move |_| {
        if let Some(square) = cursor.get_untracked() {
            parts.with_scene(&|s| s.set_cursor(Some(square)));
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
                on:keydown=move |ev| parts.key(ev)
                on:blur=on_blur
                on:focus=on_focus
            ></canvas>
            {move || {
                is_2d()
                    .then(|| {
                        let flat = FlatBoard { snapshot, on_square, cursor, hint, labels, announcer, voice, marked };
                        Suspend::new(load_flat_board(flat))
                    })
            }}
            {move || {
                celebrating
                    .get()
                    .then(|| {
                        view! {
                            <button
                                type="button"
                                id="skip-celebration"
                                class="skip-celebration"
                                on:click=move |_| parts.skip()
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
                    on:click=move |_| toggle_flat_board(backend)
                >
                    {move || if is_2d() { t!(lang, "board-use-3d") } else { t!(lang, "board-use-2d") }}
                </button>
            </p>
        </div>
    }
    .into_any()
}

/// A chunk of the page's code that did not load. The lazily loaded chunks
/// use wasm-split's `fallible` option: Leptos' `#[lazy]` treats a failed load
/// as a panic, which aborts the whole page (a press, or the flat board, with
/// the server gone and nothing cached, would leave a dead page).
pub struct NotLoaded;

impl From<leptos::wasm_split::SplitLoaderError> for NotLoaded {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        NotLoaded
    }
}

/// What [`flat_board`] draws with: [`Board2D`]'s properties.
#[derive(Clone, Copy)]
struct FlatBoard {
    snapshot: Signal<BoardSnapshot>,
    on_square: Callback<u8>,
    cursor: RwSignal<Option<u8>>,
    hint: Signal<Option<u8>>,
    labels: Signal<Vec<(u8, String, bool)>>,
    announcer: RwSignal<String>,
    voice: Option<crate::voice::BoardVoice>,
    marked: RwSignal<Option<u8>>,
}

/// The flat board's view: a chunk of its own, fetched the first time a page
/// shows the flat board (no WebGPU or WebGL 2, `?renderer=2d`, or the
/// player's choice), so the pages with a 3D board do not load its ~9 KB
/// (docs/BENCHMARKS.md, "The lobby on its way to 350 KB"). `Err` when the
/// chunk could not be fetched (the server gone while the page started, and
/// nothing cached): the page then shows no board rather than stopping.
#[cfg_attr(
    feature = "hydrate",
    leptos::wasm_split::wasm_split(board_flat, wasm_split_path = ::leptos::wasm_split, fallible)
)]
fn flat_board(flat: FlatBoard) -> Result<AnyView, NotLoaded> {
    let FlatBoard {
        snapshot,
        on_square,
        cursor,
        hint,
        labels,
        announcer,
        voice,
        marked,
    } = flat;
    Ok(
        view! { <Board2D snapshot on_square cursor hint labels announcer voice marked /> }
            .into_any(),
    )
}

/// [`flat_board`], fetched (in the browser) and called; nothing when its
/// chunk did not load.
async fn load_flat_board(flat: FlatBoard) -> AnyView {
    #[cfg(feature = "hydrate")]
    let view = flat_board(flat).await;
    #[cfg(not(feature = "hydrate"))]
    let view = flat_board(flat);
    view.unwrap_or_else(|NotLoaded| ().into_any())
}

/// The DOM board for browsers without WebGPU and WebGL 2: 64 buttons, one per
/// square, playable by click and by keyboard (arrow keys move the focus).
#[component]
pub fn Board2D(
    #[prop(into)] snapshot: Signal<BoardSnapshot>,
    on_square: Callback<u8>,
    cursor: RwSignal<Option<u8>>,
    #[prop(into)] hint: Signal<Option<u8>>,
    #[prop(into)] labels: Signal<Vec<(u8, String, bool)>>,
    announcer: RwSignal<String>,
    voice: Option<crate::voice::BoardVoice>,
    /// A square to mark (a move name the pointer or the focus is on).
    #[prop(optional, into)]
    marked: Option<Signal<Option<u8>>>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let grid = NodeRef::<leptos::html::Div>::new();
    let focus_square = move || cursor.get().unwrap_or_else(|| snapshot.with(cursor_start));
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let current = cursor
            .get_untracked()
            .unwrap_or_else(|| snapshot.with_untracked(cursor_start));
        if !(ev.ctrl_key() || ev.alt_key() || ev.meta_key()) {
            let read = voice.and_then(|v| {
                let key = crate::voice::reading_key(&ev.code(), &ev.key());
                snapshot.with_untracked(|s| (v.key)(lang, &key, s, current))
            });
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
                if marked.is_some_and(|m| m.get() == Some(square)) {
                    class.push_str(" marked");
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
                aria-label=move || {
                    labels.with(|l| snapshot.with(|s| describe_labelled(lang, s, square, l)))
                }
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
        let labels = [(19, "+2".to_string(), true), (26, "−3".to_string(), false)];
        assert_eq!(
            describe_labelled(Lang::En, &s, 19, &labels),
            "d3, empty, legal move, value +2, best"
        );
        assert_eq!(
            describe_labelled(Lang::En, &s, 26, &labels),
            "c4, empty, legal move, value −3"
        );
        assert_eq!(describe_labelled(Lang::En, &s, 0, &labels), "a1, empty");
        assert_eq!(
            describe_square(Lang::El, &s, 28),
            "e4, μαύρο πούλι, τελευταία κίνηση"
        );
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
