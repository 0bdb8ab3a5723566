//! `/offline`: practice against the AI with no server. The game's rules and
//! the AI (the same search the server's vs-AI tables play, at depth 1–6) run in
//! the browser's engine worker (see [`crate::worker`]); the game is kept in
//! this browser's local storage, so it survives a reload, and nothing is sent
//! to or saved on the server. The lobby offers it when the server cannot be
//! reached; the page itself calls no server function. The game's model and
//! the lines the page derives from it are in `offline/state.rs`.

mod state;

use crate::i18n::Msg;
use crate::protocol::{square_name, Side};
use crate::takeover::MainBoard;
use crate::worker::{Analysis, EngineRequest};
use leptos::prelude::*;
pub use state::{start_cells, OfflineGame};

/// The local-storage key of the offline game.
pub const STORAGE_KEY: &str = "othello3d.offline.v1";

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
    let depth = RwSignal::new(3u8);
    let human = RwSignal::new(Side::Black);
    let loaded = RwSignal::new(false);
    // In the browser only: resume the stored game (the AI moves if it is its turn).
    Effect::new(move |_| {
        if let Some(game) = load() {
            depth.set(game.depth);
            human.set(game.human);
            session.game.set(Some(game));
            leptos::task::spawn_local(session.ai_turns(0));
        }
        loaded.set(true);
    });
    let snapshot = Signal::derive(move || {
        let thinking = session.thinking.get();
        session.game.with(|g| match g {
            Some(g) => g.snapshot(thinking),
            None => state::idle_board(),
        })
    });
    let on_square = Callback::new(move |square: u8| session.human_move(square));
    let mode = move || session.game.with(|g| state::mode_text(lang, g.as_ref()));

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
                <OfflineScore session loaded />
                <div class="card messages">
                    <p id="message" class="error" role="alert">
                        {move || session.error.get().map(|e| e.text(lang))}
                    </p>
                </div>
                <OfflineSetup session depth human loaded />
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
                                .map(|m| view! { <li>{state::move_text(lang, &m)}</li> })
                                .collect_view()
                        }}
                    </ol>
                </details>
            </aside>
        </main>
    }
    .into_any()
}

/// The score, the turn line and the AI's last search.
#[component]
fn OfflineScore(session: Session, loaded: RwSignal<bool>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let playing = move || session.game.with(|g| g.is_some());
    let count = move |side: Side| session.game.with(|g| state::count(g.as_ref(), side));
    let turn = move || {
        let thinking = session.thinking.get();
        session
            .game
            .with(|g| state::turn_line(lang, g.as_ref(), thinking, g.is_none() && loaded.get()))
    };
    view! {
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
    }
}

/// A new game: the AI's depth and the human's colour.
#[component]
fn OfflineSetup(
    session: Session,
    depth: RwSignal<u8>,
    human: RwSignal<Side>,
    loaded: RwSignal<bool>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let playing = move || session.game.with(|g| g.is_some());
    let start = move |_| session.new_game(depth.get_untracked(), human.get_untracked());
    view! {
        <div class="card" id="offline-setup">
            <label>
                {t!(lang, "offline-depth")}
                <select
                    id="offline-depth"
                    on:change=move |ev| {
                        if let Ok(d) = event_target_value(&ev).parse::<u8>() {
                            depth.set(d.clamp(1, 6));
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
                        on:change=move |_| human.set(Side::Black)
                    />
                    {t!(lang, "lobby-black-first")}
                </label>
                <label>
                    <input
                        type="radio"
                        name="offline-colour"
                        id="offline-white"
                        checked=move || human.get() == Side::White
                        on:change=move |_| human.set(Side::White)
                    />
                    {t!(lang, "lobby-white-second")}
                </label>
            </fieldset>
            <button id="offline-start" on:click=start disabled=move || !loaded.get()>
                {move || if playing() { t!(lang, "offline-new-game") } else { t!(lang, "offline-start") }}
            </button>
        </div>
    }
}
