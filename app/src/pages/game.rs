//! `/game/:id`: an archived game, replayed on the 3D board (first / back /
//! forward / last, the arrow keys, Home and End, or a click in the move
//! list), with its players and result. Open to anybody with the link. The
//! replay's board, lines and keys are pure functions in `game/state.rs`.

mod state;

use crate::archive::{get_game, GameSummary, GameView, PlayerView};
use crate::i18n::Lang;
use crate::protocol::{square_name, BoardSnapshot, EndReason, Side};
use crate::takeover::MainBoard;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

/// A player's name as the page writes it.
pub fn player_name(lang: Lang, player: &PlayerView) -> String {
    match (&player.name, player.ai_depth) {
        (Some(name), _) => name.clone(),
        (None, Some(depth)) if depth == crate::protocol::STRONGEST => {
            t!(lang, "game-ai-strongest")
        }
        (None, Some(depth)) => t!(lang, "game-ai", depth = depth),
        (None, None) if player.deleted => t!(lang, "game-deleted-player"),
        (None, None) => t!(lang, "game-anonymous"),
    }
}

/// A player's name, linking to their profile when they have an account.
fn player_link(lang: Lang, player: &PlayerView) -> AnyView {
    match &player.name {
        Some(name) => {
            let href = format!("/@/{name}");
            view! { <a href=href>{name.clone()}</a> }.into_any()
        }
        None => player_name(lang, player).into_any(),
    }
}

/// The result line: who won, the score and why.
pub fn result_text(
    lang: Lang,
    winner: Option<Side>,
    reason: EndReason,
    black: u8,
    white: u8,
) -> String {
    let score = format!("{black}–{white}");
    if reason == EndReason::Aborted {
        return t!(lang, "game-aborted", score = score);
    }
    let why = match reason {
        EndReason::Finished => t!(lang, "game-why-finished"),
        EndReason::Resigned => t!(lang, "game-why-resigned"),
        EndReason::Timeout => t!(lang, "game-why-left"),
        EndReason::Abandoned => t!(lang, "game-why-abandoned"),
        EndReason::Time => t!(lang, "game-why-time"),
        EndReason::Aborted => t!(lang, "game-why-aborted"),
        EndReason::Forfeit => t!(lang, "game-why-forfeit"),
    };
    match winner {
        // The score is the result: "White won 40–24 (no moves left)".
        Some(side) if reason == EndReason::Finished => t!(
            lang,
            "game-won",
            winner = side_key(side),
            score = score,
            why = why
        ),
        // The score is only where the board stood: "White won by
        // resignation (4–4 on the board)".
        Some(side) => t!(
            lang,
            "game-won-early",
            winner = side_key(side),
            score = score,
            why = if reason == EndReason::Timeout {
                t!(lang, "game-why-left-won")
            } else {
                why
            }
        ),
        None => t!(lang, "game-no-winner", score = score, why = why),
    }
}

/// The kind of game, said the same way to every viewer.
fn mode_name(lang: Lang, mode: &crate::protocol::TableMode) -> String {
    use crate::protocol::TableMode;
    match mode {
        TableMode::VsAi { .. } => t!(lang, "game-mode-ai"),
        TableMode::HotSeat => t!(lang, "game-mode-hot-seat"),
        TableMode::Online {
            time: Some(time), ..
        } => {
            t!(lang, "game-mode-online-timed", control = time.label())
        }
        TableMode::Online { .. } => t!(lang, "game-mode-online"),
    }
}

/// A side as a message's selector value.
fn side_key(side: Side) -> &'static str {
    match side {
        Side::Black => "Black",
        Side::White => "White",
    }
}

/// One line of a games list, linking to the game.
#[component]
pub fn GameLine(game: GameSummary) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let href = format!("/game/{}", game.id);
    let players = format!(
        "{} – {}",
        player_name(lang, &game.black),
        player_name(lang, &game.white)
    );
    let result = result_text(
        lang,
        game.winner,
        game.reason,
        game.black_discs,
        game.white_discs,
    );
    let mode = mode_name(lang, &game.mode);
    view! {
        <li class="game-line" data-game=game.id.to_string()>
            <a href=href>{players}</a>
            <span class="game-result">{result}</span>
            <span class="game-mode">{mode} " · " {t!(lang, "game-moves", count = game.moves)}</span>
        </li>
    }
}

#[component]
pub fn GamePage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let params = use_params_map();
    let id = move || crate::protocol::GameId::new(params.read().get("id").unwrap_or_default());
    let loaded = Resource::new(id, get_game);
    view! {
        <Suspense fallback=move || view! { <main class="page"><p>{t!(lang, "table-loading")}</p></main> }>
            {move || Suspend::new(async move {
                let Some(loaded) = super::settled(loaded).await else { return ().into_any() };
                match loaded {
                    Ok(game) => view! { <GameScreen game /> }.into_any(),
                    // Its 404 status is set by the server (`routes.rs`,
                    // `game_status`): this part streams after the head.
                    Err(error) => {
                        view! {
                            <crate::pages::LoadFailed
                                title=t!(lang, "game-not-found")
                                error=error
                                back_href="/"
                                back_label=t!(lang, "back-to-lobby")
                            />
                        }
                        .into_any()
                    }
                }
            })}
        </Suspense>
    }
}

/// The arrow keys, Home and End step through the game (`go`), except where
/// they mean something else (the board's own cursor, a text field).
#[cfg(feature = "hydrate")]
fn step_with_keys(shown: RwSignal<usize>, total: usize, go: impl Fn(usize) + 'static) {
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        use wasm_bindgen::JsCast;
        let busy = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|e| {
                matches!(
                    e.tag_name().as_str(),
                    "INPUT" | "TEXTAREA" | "SELECT" | "CANVAS"
                )
            });
        if busy || ev.alt_key() || ev.ctrl_key() || ev.meta_key() {
            return;
        }
        let Some(to) = state::step_key(ev.key().as_str(), shown.get_untracked(), total) else {
            return;
        };
        ev.prevent_default();
        go(to);
    });
    on_cleanup(move || handle.remove());
}

#[component]
fn GameScreen(game: GameView) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let total = game.plies.len();
    // The number of placements shown: 0 (the start) ..= total. A finished
    // game opens at its end.
    let shown = RwSignal::new(total);
    // Grows with every step, so the island tells a new position from a
    // redraw (stepping back is a change too).
    let changes = RwSignal::new(1_u64);
    let game = StoredValue::new(game);
    let go = move |to: usize| {
        let to = to.min(total);
        if to != shown.get_untracked() {
            shown.set(to);
            changes.update(|c| *c += 1);
        }
    };
    let snapshot = Signal::derive(move || {
        let at = shown.get();
        let version = changes.get();
        game.with_value(|g| state::board_at(g, at, version))
    });
    let mode = game.with_value(|g| mode_name(lang, &g.mode));
    #[cfg(feature = "hydrate")]
    step_with_keys(shown, total, go);
    view! {
        <main class="table-page game-page">
            <header class="topbar">
                <h1><a href="/">{t!(lang, "site-title")}</a></h1>
                <span class="mode" id="mode">{mode}</span>
                <crate::i18n::LangSwitch />
            </header>
            <section class="table-board">
                <MainBoard snapshot on_square=Callback::new(|_: u8| {}) />
            </section>
            <aside class="hud">
                <GameScoreCard game snapshot />
                <ReplayCard game shown go=Callback::new(go) />
                <crate::pages::analysis::AnalysisPanel
                    kind=crate::protocol::GameKind::Game
                    id=game.with_value(|g| g.id.to_string())
                    over=Signal::derive(move || total > 0)
                    on_pick=Callback::new(move |number: u32| go(number as usize))
                    yours=Signal::derive(move || game.with_value(|g| g.you.clone()))
                    open=game.with_value(|g| crate::pages::analysis_board::state::with_review(analysis_link(g), crate::protocol::GameKind::Game, g.id.as_ref()))
                />
            </aside>
        </main>
    }
}

/// The score of the position shown, the players, the result (with a rated
/// game's ratings) and the exports.
#[component]
fn GameScoreCard(game: StoredValue<GameView>, snapshot: Signal<BoardSnapshot>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let counts = move || snapshot.with(BoardSnapshot::counts);
    let (black, white, winner, reason, black_discs, white_discs, you) = game.with_value(|g| {
        (
            player_link(lang, &g.black),
            player_link(lang, &g.white),
            g.winner,
            g.reason,
            g.black_discs,
            g.white_discs,
            g.you.clone(),
        )
    });
    let result = result_text(lang, winner, reason, black_discs, white_discs);
    let you_text = (!you.is_empty())
        .then(|| view! { <p class="you" id="game-you">{t!(lang, "game-you-played")}</p> });
    // A rated game: each side's rating before → after, with the change.
    let ratings = game.with_value(|g| g.ratings).map(|[black, white]| {
        view! {
            <p class="muted" id="game-ratings">
                {t!(lang, "game-ratings", black = state::rating_line(black), white = state::rating_line(white))}
            </p>
        }
    });
    // One game of a synchro pair: the other game, and the disc sum once
    // both are over.
    let synchro = game.with_value(|g| {
        g.synchro.clone().map(|pair| {
            let (black, white) = (player_name(lang, &g.black), player_name(lang, &g.white));
            let other = match &pair.other_game {
                Some(id) => format!("/game/{id}"),
                None => format!("/table/{}", pair.other_table),
            };
            let sum = match pair.sums {
                Some([b, w]) => {
                    let outcome = match b.cmp(&w) {
                        std::cmp::Ordering::Greater => {
                            t!(lang, "synchro-wins", name = black.clone())
                        }
                        std::cmp::Ordering::Less => t!(lang, "synchro-wins", name = white.clone()),
                        std::cmp::Ordering::Equal => t!(lang, "synchro-drawn"),
                    };
                    t!(
                        lang,
                        "synchro-sum",
                        black = black,
                        bsum = b,
                        white = white,
                        wsum = w,
                        outcome = outcome
                    )
                }
                None => t!(lang, "synchro-waiting"),
            };
            view! {
                <p id="game-synchro">
                    {t!(lang, "synchro-pair")} " "
                    <a id="synchro-other" href=other>{t!(lang, "synchro-other")}</a>
                    ". "
                    <span id="synchro-sum">{sum}</span>
                </p>
            }
        })
    });
    view! {
        <div class="card score">
            <div class="count black-count" id="black-count">
                <span class="disc black"></span>
                {move || counts().0}
            </div>
            <div class="count white-count" id="white-count">
                <span class="disc white"></span>
                {move || counts().1}
            </div>
            <p class="players" id="game-players">
                <span id="game-black">{black}</span>
                " – "
                <span id="game-white">{white}</span>
            </p>
            <p id="game-result">{result}</p>
            {ratings}
            {synchro}
            {you_text}
            <p>
                <a id="game-ggf" href=game.with_value(|g| format!("/game/{}/export.ggf", g.id)) download>
                    {t!(lang, "game-export-ggf")}
                </a>
                " · "
                <a id="game-text" href=game.with_value(|g| format!("/game/{}/export.txt", g.id)) download>
                    {t!(lang, "game-export-text")}
                </a>
            </p>
        </div>
    }
}

/// The replay: where it stands, first / back / forward / last, and the
/// move list (a click shows that move).
#[component]
fn ReplayCard(
    game: StoredValue<GameView>,
    shown: RwSignal<usize>,
    go: Callback<usize>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let total = game.with_value(|g| g.plies.len());
    let position_text = move || {
        let at = shown.get();
        game.with_value(|g| state::position_text(lang, g, at))
    };
    let moves = game.with_value(|g| {
        g.plies
            .iter()
            .enumerate()
            .map(|(i, ply)| {
                let number = i + 1;
                let label = state::ply_label(number, ply);
                let side = ply.side.key();
                view! {
                    <li>
                        <button
                            class=move || format!("ply {side}{}", if shown.get() == number { " current" } else { "" })
                            data-ply=number
                            data-mark=square_name(ply.square)
                            aria-current=move || (shown.get() == number).then_some("step")
                            on:click=move |_| go.run(number)
                        >
                            {label}
                        </button>
                    </li>
                }
            })
            .collect_view()
    });
    view! {
        <div class="card replay">
            <p id="game-position" aria-live="polite">{position_text}</p>
            <div class="replay-controls" role="group" aria-label=t!(lang, "game-controls")>
                <button id="replay-first" class="secondary" on:click=move |_| go.run(0)
                    disabled=move || shown.get() == 0 aria-label=t!(lang, "game-first")>"«"</button>
                <button id="replay-back" class="secondary" on:click=move |_| go.run(shown.get_untracked().saturating_sub(1))
                    disabled=move || shown.get() == 0 aria-label=t!(lang, "game-back")>"◀"</button>
                <button id="replay-forward" class="secondary" on:click=move |_| go.run(shown.get_untracked() + 1)
                    disabled=move || shown.get() == total aria-label=t!(lang, "game-forward")>"▶"</button>
                <button id="replay-last" class="secondary" on:click=move |_| go.run(total)
                    disabled=move || shown.get() == total aria-label=t!(lang, "game-last")>"»"</button>
            </div>
            <p class="hint">{t!(lang, "game-keys")}</p>
            <ol class="plies" id="game-moves">{moves}</ol>
        </div>
    }
}

/// The analysis board's link to the game: its start and its moves.
fn analysis_link(g: &GameView) -> String {
    let first = g
        .plies
        .first()
        .map_or(crate::protocol::Side::Black, |p| p.side);
    let squares: Vec<String> = g
        .plies
        .iter()
        .map(|p| crate::protocol::square_name(p.square))
        .collect();
    crate::pages::analysis_board::state::game_link(&g.start, first, &squares)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_reads_as_words() {
        assert_eq!(
            result_text(Lang::En, Some(Side::White), EndReason::Resigned, 4, 4),
            "White won by resignation (4–4 on the board)."
        );
        assert_eq!(
            result_text(Lang::En, Some(Side::Black), EndReason::Finished, 40, 24),
            "Black won 40–24 (no moves left)."
        );
        assert_eq!(
            result_text(Lang::En, Some(Side::Black), EndReason::Timeout, 10, 12),
            "Black won because the other player left (10–12 on the board)."
        );
        assert_eq!(
            result_text(Lang::El, Some(Side::White), EndReason::Resigned, 4, 4),
            "Κέρδισαν τα λευκά με παραίτηση (4–4 στο ταμπλό)."
        );
    }
}
