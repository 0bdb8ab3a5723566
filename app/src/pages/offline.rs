//! `/offline`: practice against the AI with no server. The game's rules and
//! the AI (the same search the server's vs-AI tables play, at depth 1–6) run in
//! the browser's engine worker (see [`crate::worker`]); the game is kept in
//! this browser's local storage, so it survives a reload, and nothing is sent
//! to or saved on the server. The lobby offers it when the server cannot be
//! reached; the page itself calls no server function.
//!
//! (Over 600 lines: the page, its game model and the model's tests belong together.)

use crate::i18n::{side_name, Lang, Msg};
use crate::protocol::{square_name, BoardSnapshot, Side};
use crate::takeover::MainBoard;
use crate::worker::{Analysis, EngineRequest, Step};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The local-storage key of the offline game.
pub const STORAGE_KEY: &str = "othello3d.offline.v1";

/// The start position in the interchange form.
pub fn start_cells() -> Vec<i8> {
    let mut cells = vec![0i8; 64];
    cells[27] = -1;
    cells[28] = 1;
    cells[35] = 1;
    cells[36] = -1;
    cells
}

fn side_of(value: i8) -> Side {
    if value > 0 {
        Side::Black
    } else {
        Side::White
    }
}

/// An offline game, as kept in local storage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OfflineGame {
    /// The AI's search depth, 1..=6.
    pub depth: u8,
    /// The human's colour.
    pub human: Side,
    pub cells: Vec<i8>,
    /// +1 black, −1 white, 0 when the game is over.
    pub to_move: i8,
    pub legal: Vec<u8>,
    pub last_move: Option<u8>,
    pub flipped: Vec<u8>,
    /// Grows with every move (the board animates changes).
    pub version: u64,
    pub black: u8,
    pub white: u8,
    /// "Black f5", "White passes", … in order.
    pub moves: Vec<String>,
    /// How deep the AI's last search looked and how many positions it
    /// saw, for the status line (written in the page's language, with
    /// plurals). A game stored by an older page, with that line as English
    /// text, loads without it until the AI's next move.
    #[serde(default)]
    pub ai_looked: Option<(u32, u64)>,
}

impl OfflineGame {
    /// A new game from the worker's description of the start position.
    pub fn new(depth: u8, human: Side, start: Step) -> Self {
        OfflineGame {
            depth: depth.clamp(1, 6),
            human,
            cells: start.cells,
            to_move: start.to_move,
            legal: start.legal,
            last_move: None,
            flipped: Vec::new(),
            version: 1,
            black: start.black,
            white: start.white,
            moves: Vec::new(),
            ai_looked: None,
        }
    }

    /// Whether a stored game is well-formed (else it is dropped).
    pub fn is_valid(&self) -> bool {
        self.cells.len() == 64
            && self.cells.iter().all(|c| (-1..=1).contains(c))
            && (1..=6).contains(&self.depth)
            && (-1..=1).contains(&self.to_move)
            && self.legal.iter().chain(&self.flipped).all(|&s| s < 64)
            && self.last_move.is_none_or(|s| s < 64)
    }

    pub fn ai(&self) -> i8 {
        -self.human.cell()
    }

    pub fn over(&self) -> bool {
        self.to_move == 0
    }

    pub fn human_to_move(&self) -> bool {
        self.to_move == self.human.cell()
    }

    pub fn ai_to_move(&self) -> bool {
        self.to_move == self.ai()
    }

    /// Records `by`'s move on `square` and the position after it.
    pub fn record(&mut self, by: i8, square: u8, step: Step) {
        self.moves
            .push(format!("{} {}", side_of(by).name(), square_name(square)));
        if step.passed != 0 {
            self.moves
                .push(format!("{} passes", side_of(step.passed).name()));
        }
        self.cells = step.cells;
        self.flipped = step.flipped;
        self.to_move = step.to_move;
        self.legal = step.legal;
        self.black = step.black;
        self.white = step.white;
        self.last_move = Some(square);
        self.version += 1;
    }

    /// The result once over: `Some(1)` black won, `Some(-1)` white, `Some(0)` draw.
    pub fn outcome(&self) -> Option<i8> {
        self.over()
            .then(|| (i16::from(self.black) - i16::from(self.white)).signum() as i8)
    }

    /// What the board shows: legal moves only on the human's turn.
    pub fn snapshot(&self, thinking: bool) -> BoardSnapshot {
        BoardSnapshot {
            cells: self.cells.clone(),
            legal: if self.human_to_move() && !thinking {
                self.legal.clone()
            } else {
                Vec::new()
            },
            last_move: self.last_move,
            flipped: self.flipped.clone(),
            version: self.version,
            outcome: self.outcome(),
        }
    }

    /// The status line.
    /// Whose turn, for the page's `data-state` (and tests in any language):
    /// `human`, `ai` or `over`.
    pub fn state_name(&self) -> &'static str {
        if self.outcome().is_some() {
            "over"
        } else if self.human_to_move() {
            "human"
        } else {
            "ai"
        }
    }

    pub fn turn_text(&self, lang: Lang, thinking: bool) -> String {
        match self.outcome() {
            Some(result) => {
                let score = format!("{}–{}", self.black, self.white);
                if result == 0 {
                    t!(lang, "offline-draw", score = score)
                } else if result == self.human.cell() {
                    t!(lang, "offline-you-win", score = score)
                } else {
                    t!(lang, "offline-ai-wins", score = score)
                }
            }
            None if self.human_to_move() => {
                t!(lang, "table-your-move", side = side_name(lang, self.human))
            }
            None if thinking => t!(
                lang,
                "table-ai-thinking",
                side = side_name(lang, side_of(self.ai()))
            ),
            None => t!(
                lang,
                "offline-ai-to-move",
                side = side_name(lang, side_of(self.ai()))
            ),
        }
    }
}

/// A move as stored (`Black f5`, `White passes`), in `lang`.
fn move_text(lang: Lang, stored: &str) -> String {
    let side = match stored.split_once(' ') {
        Some(("Black", rest)) => Some((Side::Black, rest)),
        Some(("White", rest)) => Some((Side::White, rest)),
        _ => None,
    };
    match side {
        Some((side, "passes")) => t!(lang, "table-pass", side = side_name(lang, side)),
        Some((side, square)) => t!(
            lang,
            "offline-move",
            side = side_name(lang, side),
            square = square
        ),
        None => stored.to_string(),
    }
}

#[cfg(feature = "hydrate")]
fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn load() -> Option<OfflineGame> {
    #[cfg(feature = "hydrate")]
    {
        let text = storage()?.get_item(STORAGE_KEY).ok().flatten()?;
        serde_json::from_str::<OfflineGame>(&text)
            .ok()
            .filter(OfflineGame::is_valid)
    }
    #[cfg(not(feature = "hydrate"))]
    None
}

fn save(game: Option<&OfflineGame>) {
    #[cfg(feature = "hydrate")]
    if let Some(storage) = storage() {
        let _ = match game.and_then(|g| serde_json::to_string(g).ok()) {
            Some(text) => storage.set_item(STORAGE_KEY, &text),
            None => storage.remove_item(STORAGE_KEY),
        };
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = game;
}

/// The page's state, shared by its handlers (all `Copy`).
#[derive(Clone, Copy)]
struct Session {
    game: RwSignal<Option<OfflineGame>>,
    thinking: RwSignal<bool>,
    error: RwSignal<Option<Msg>>,
    /// Bumped by a new game: replies for an older one are dropped.
    generation: StoredValue<u32>,
}

impl Session {
    fn current(&self, generation: u32) -> bool {
        self.generation.try_get_value() == Some(generation)
    }

    fn fail(&self, generation: u32, message: Msg) {
        if self.current(generation) {
            let _ = self.thinking.try_set(false);
            let _ = self.error.try_set(Some(message));
        }
    }

    /// Plays `square` for `by` in the worker and records it.
    async fn play(&self, generation: u32, by: i8, square: u8) -> bool {
        let Some(cells) = self
            .game
            .with_untracked(|g| g.as_ref().map(|g| g.cells.clone()))
        else {
            return false;
        };
        match crate::worker::play(cells, by, i32::from(square)).await {
            Ok(step) if self.current(generation) => {
                self.game.update(|g| {
                    if let Some(g) = g {
                        g.record(by, square, step.result);
                    }
                });
                save(self.game.get_untracked().as_ref());
                true
            }
            Ok(_) => false,
            Err(error) => {
                self.fail(
                    generation,
                    crate::msg!(
                        "offline-move-failed",
                        square = square_name(square),
                        error = error
                    ),
                );
                false
            }
        }
    }

    /// Lets the AI move while it is its turn (it moves again after a pass).
    async fn ai_turns(self, generation: u32) {
        loop {
            let Some(game) = self.game.get_untracked() else {
                return;
            };
            if !game.ai_to_move() || !self.current(generation) {
                break;
            }
            self.thinking.set(true);
            let reply = crate::worker::analyse(EngineRequest::Search {
                cells: game.cells.clone(),
                side: game.ai(),
                depth: u32::from(game.depth),
            })
            .await;
            let analysis: Analysis = match reply {
                Ok(timed) if self.current(generation) => {
                    self.game.update(|g| {
                        if let Some(g) = g {
                            g.ai_looked = Some((timed.result.depth, timed.result.nodes as u64));
                        }
                    });
                    timed.result
                }
                Ok(_) => return,
                Err(error) => {
                    return self.fail(generation, crate::msg!("srv-ai-failed", error = error))
                }
            };
            let Some(square) = analysis.best() else {
                return self.fail(generation, crate::msg!("srv-ai-no-move"));
            };
            if !self.play(generation, game.ai(), square).await {
                return;
            }
        }
        if self.current(generation) {
            let _ = self.thinking.try_set(false);
        }
    }

    fn new_game(self, depth: u8, human: Side) {
        if self.thinking.get_untracked() {
            crate::worker::cancel();
        }
        let generation = self.generation.get_value().wrapping_add(1);
        self.generation.set_value(generation);
        self.error.set(None);
        self.thinking.set(true);
        leptos::task::spawn_local(async move {
            match crate::worker::play(start_cells(), 1, -1).await {
                Ok(start) if self.current(generation) => {
                    let game = OfflineGame::new(depth, human, start.result);
                    save(Some(&game));
                    self.game.set(Some(game));
                    self.thinking.set(false);
                    self.ai_turns(generation).await;
                }
                Ok(_) => {}
                Err(error) => self.fail(generation, crate::msg!("srv-engine-start", error = error)),
            }
        });
    }

    fn human_move(self, square: u8) {
        let Some(game) = self.game.get_untracked() else {
            return;
        };
        if !game.human_to_move() || self.thinking.get_untracked() {
            return;
        }
        if !game.legal.contains(&square) {
            self.error.set(Some(crate::msg!(
                "srv-not-legal",
                square = square_name(square)
            )));
            return;
        }
        let generation = self.generation.get_value();
        self.error.set(None);
        self.thinking.set(true);
        leptos::task::spawn_local(async move {
            if self.play(generation, game.human.cell(), square).await {
                self.ai_turns(generation).await;
            }
        });
    }
}

/// The offline practice page.
#[component]
pub fn OfflinePage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let session = Session {
        game: RwSignal::new(None),
        thinking: RwSignal::new(false),
        error: RwSignal::new(None),
        generation: StoredValue::new(0),
    };
    let (depth, set_depth) = signal(3u8);
    let (human, set_human) = signal(Side::Black);
    let (loaded, set_loaded) = signal(false);
    // In the browser only: resume the stored game (the AI moves if it is its turn).
    Effect::new(move |_| {
        if let Some(game) = load() {
            set_depth.set(game.depth);
            set_human.set(game.human);
            session.game.set(Some(game));
            leptos::task::spawn_local(session.ai_turns(0));
        }
        set_loaded.set(true);
    });
    let snapshot = Signal::derive(move || {
        let thinking = session.thinking.get();
        session.game.with(|g| match g {
            Some(g) => g.snapshot(thinking),
            None => BoardSnapshot {
                cells: start_cells(),
                ..BoardSnapshot::empty()
            },
        })
    });
    let on_square = Callback::new(move |square: u8| session.human_move(square));
    let start = move |_| session.new_game(depth.get_untracked(), human.get_untracked());
    let playing = move || session.game.with(|g| g.is_some());
    let count = move |side: Side| {
        session.game.with(|g| match (g, side) {
            (Some(g), Side::Black) => g.black,
            (Some(g), Side::White) => g.white,
            (None, _) => 2,
        })
    };
    let turn = move || {
        let thinking = session.thinking.get();
        session.game.with(|g| match g {
            Some(g) => g.turn_text(lang, thinking),
            None if loaded.get() => t!(lang, "offline-choose"),
            None => t!(lang, "offline-loading"),
        })
    };
    let mode = move || {
        session.game.with(|g| match g {
            Some(g) => t!(
                lang,
                "offline-mode",
                side = side_name(lang, g.human),
                depth = g.depth
            ),
            None => t!(lang, "offline-practice"),
        })
    };

    view! {
        <main class="table-page offline-page">
            <header class="topbar">
                <h1><a href="/">{t!(lang, "site-title")}</a></h1>
                <span class="mode" id="offline-mode">{mode}</span>
                <crate::i18n::LangSwitch />
            </header>
            <section class="table-board">
                <MainBoard snapshot on_square />
            </section>
            <aside class="hud">
                <div class="card offline-note" id="offline-note" role="note">
                    <strong>{t!(lang, "offline-note-strong")}</strong>
                    " "
                    {t!(lang, "offline-note")}
                </div>
                <crate::pages::offline_puzzles::OfflinePuzzles />
                <div class="card score">
                    <div class="count black-count" id="black-count">
                        <span class="disc black"></span>
                        {move || count(Side::Black)}
                    </div>
                    <div class="count white-count" id="white-count">
                        <span class="disc white"></span>
                        {move || count(Side::White)}
                    </div>
                    <p
                        id="turn"
                        class="turn"
                        data-playing=move || playing().to_string()
                        data-state=move || session.game.with(|g| g.as_ref().map_or("none", OfflineGame::state_name))
                    >
                        {turn}
                    </p>
                    <p class="ai-search" id="ai-search">
                        {move || session.game.with(|g| g.as_ref().and_then(|g| g.ai_looked).map(|(depth, nodes)| t!(lang, "table-ai-search", depth = depth, nodes = nodes)))}
                    </p>
                </div>
                <div class="card messages">
                    <p id="message" class="error" role="alert">
                        {move || session.error.get().map(|e| e.text(lang))}
                    </p>
                </div>
                <div class="card" id="offline-setup">
                    <label>
                        {t!(lang, "offline-depth")}
                        <select
                            id="offline-depth"
                            on:change=move |ev| {
                                if let Ok(d) = event_target_value(&ev).parse::<u8>() {
                                    set_depth.set(d.clamp(1, 6));
                                }
                            }
                        >
                            {(1..=6u8)
                                .map(|d| {
                                    view! {
                                        <option value=d.to_string() selected=move || depth.get() == d>
                                            {d.to_string()}
                                        </option>
                                    }
                                })
                                .collect_view()}
                        </select>
                    </label>
                    <fieldset class="row colour-choice">
                        <legend>{t!(lang, "lobby-you-play")}</legend>
                        <label>
                            <input
                                type="radio"
                                name="offline-colour"
                                id="offline-black"
                                checked=move || human.get() == Side::Black
                                on:change=move |_| set_human.set(Side::Black)
                            />
                            {t!(lang, "lobby-black-first")}
                        </label>
                        <label>
                            <input
                                type="radio"
                                name="offline-colour"
                                id="offline-white"
                                checked=move || human.get() == Side::White
                                on:change=move |_| set_human.set(Side::White)
                            />
                            {t!(lang, "lobby-white-second")}
                        </label>
                    </fieldset>
                    <button id="offline-start" on:click=start disabled=move || !loaded.get()>
                        {move || if playing() { t!(lang, "offline-new-game") } else { t!(lang, "offline-start") }}
                    </button>
                </div>
                <details class="card history">
                    <summary>
                        {move || t!(lang, "table-moves", count = session.game.with(|g| g.as_ref().map_or(0, |g| g.moves.len())))}
                    </summary>
                    <ol id="history">
                        {move || {
                            session
                                .game
                                .with(|g| g.as_ref().map(|g| g.moves.clone()).unwrap_or_default())
                                .into_iter()
                                .map(|m| view! { <li>{move_text(lang, &m)}</li> })
                                .collect_view()
                        }}
                    </ol>
                </details>
            </aside>
        </main>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start_step() -> Step {
        Step {
            cells: start_cells(),
            flipped: vec![],
            to_move: 1,
            passed: 0,
            legal: vec![19, 26, 37, 44],
            black: 2,
            white: 2,
        }
    }

    #[test]
    fn a_game_records_moves_passes_and_the_result() {
        let mut game = OfflineGame::new(9, Side::White, start_step());
        assert_eq!(game.depth, 6);
        assert!(game.ai_to_move() && !game.human_to_move());
        assert!(
            game.snapshot(false).legal.is_empty(),
            "no legal marks on the AI's turn"
        );
        let mut cells = start_cells();
        cells[37] = 1;
        cells[36] = 1;
        game.record(
            1,
            37,
            Step {
                cells,
                flipped: vec![36],
                to_move: -1,
                passed: 0,
                legal: vec![29, 43, 45],
                black: 4,
                white: 1,
            },
        );
        assert_eq!(game.moves, ["Black f5"]);
        assert_eq!(game.version, 2);
        assert!(game.human_to_move());
        assert_eq!(game.snapshot(false).legal, vec![29, 43, 45]);
        assert!(game.snapshot(true).legal.is_empty());
        assert_eq!(game.turn_text(Lang::En, false), "Your move (White)");
        let end = Step {
            cells: vec![-1; 64],
            flipped: vec![],
            to_move: 0,
            passed: 1,
            legal: vec![],
            black: 0,
            white: 64,
        };
        game.record(-1, 0, end);
        assert_eq!(game.moves.last().unwrap(), "Black passes");
        assert_eq!(game.outcome(), Some(-1));
        assert_eq!(game.turn_text(Lang::En, false), "You win, 0–64");
        assert_eq!(game.turn_text(Lang::El, false), "Κέρδισες, 0–64");
        assert_eq!(
            move_text(Lang::El, "Black passes"),
            "Μαύρα: πάσο (καμία έγκυρη κίνηση)"
        );
        assert_eq!(game.snapshot(false).outcome, Some(-1));
    }

    #[test]
    fn stored_games_are_checked() {
        let game = OfflineGame::new(3, Side::Black, start_step());
        assert!(game.is_valid());
        let text = serde_json::to_string(&game).unwrap();
        let back: OfflineGame = serde_json::from_str(&text).unwrap();
        assert_eq!(back, game);
        let mut bad = game.clone();
        bad.cells.pop();
        assert!(!bad.is_valid());
        let mut bad = game.clone();
        bad.cells[0] = 3;
        assert!(!bad.is_valid());
        let mut bad = game.clone();
        bad.depth = 0;
        assert!(!bad.is_valid());
        let mut bad = game;
        bad.legal.push(64);
        assert!(!bad.is_valid());
    }
}
