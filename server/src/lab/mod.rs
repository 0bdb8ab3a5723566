//! Over 600 lines: the lab hub's step, explanation and restore paths share its private state (`Inner`, `LabGame`).
//!
//! The AI lab (docs/PRODUCT.md, The AI lab): two engines play each other, each at its own depth,
//! and after every placement an explainer writes a short strategic
//! explanation and one reusable lesson from the real facts.
//!
//! The step path mirrors the table hub: search off the network loop
//! (`spawn_blocking`) → play on a copy of the game → commit the placement to
//! SQLite (one transaction) → swap in → answer; the explanation is then
//! written in the background and committed in its own transaction. Restart
//! recovery replays the stored squares through `engine::Game` and asks again
//! for explanations that were still being written.

pub mod copy;
pub mod exact;
pub mod explain;
pub mod export;
pub mod factcheck;
pub mod facts;
pub mod store;

use crate::clock::Clock;
use crate::store::{Store, StoreError};
use app::api::backend::BoxFuture;
use app::api::CommandError;
use app::lab::backend::LabBackend;
use app::lab::{
    ExplanationView, LabExact, LabMoveView, LabStatus, LabSummary, LabView, ProviderStatus,
    LAB_DEPTHS,
};
use app::protocol::{BoardSnapshot, Side};
use engine::{Bitboard, Color, Game, GameResult, Position, Square};
use explain::{Explainer, Explanation};
use facts::FactSheet;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use store::Outcome;
use tokio::sync::{watch, Mutex as AsyncMutex};

/// How long a `lab_wait` call waits for a change.
const WAIT_LIMIT: Duration = Duration::from_secs(20);

/// An explanation's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Explained {
    Pending,
    Ready(Explanation),
    Failed(String),
}

/// One placement of a lab game.
#[derive(Clone, Debug)]
pub struct LabMove {
    pub color: Color,
    pub square: Square,
    pub flipped: Bitboard,
    /// Set when the next side had to pass.
    pub pass_after: Option<Color>,
    /// The position after the move (and any pass).
    pub after: Position,
    pub facts: FactSheet,
    pub explained: Explained,
}

/// A lab game in memory.
pub struct LabGame {
    pub id: String,
    pub black_depth: u8,
    pub white_depth: u8,
    pub game: Game,
    pub moves: Vec<LabMove>,
    pub updated_at: i64,
    version: u64,
    changes: watch::Sender<u64>,
}

impl LabGame {
    fn new(id: String, black_depth: u8, white_depth: u8, now: i64) -> Self {
        LabGame {
            id,
            black_depth,
            white_depth,
            game: Game::new(),
            moves: Vec::new(),
            updated_at: now,
            version: 1,
            changes: watch::channel(1).0,
        }
    }

    fn depth(&self, color: Color) -> u8 {
        match color {
            Color::Black => self.black_depth,
            Color::White => self.white_depth,
        }
    }

    fn changed(&mut self, now: i64) {
        self.version += 1;
        self.updated_at = now;
        self.changes.send_replace(self.version);
    }

    /// The result text once the game is over.
    pub fn result_text(&self) -> Option<String> {
        let position = self.game.position();
        let (b, w) = (position.count(Color::Black), position.count(Color::White));
        self.game.result().map(|result| match result {
            GameResult::Win(Color::Black) => format!("Black wins {b}–{w}"),
            GameResult::Win(Color::White) => format!("White wins {w}–{b}"),
            GameResult::Draw => format!("Draw {b}–{w}"),
        })
    }
}

fn side(color: Color) -> Side {
    crate::table::side(color)
}

fn snapshot(position: &Position, last: Option<(Square, Bitboard)>, version: u64) -> BoardSnapshot {
    BoardSnapshot {
        cells: position.to_cells().to_vec(),
        legal: Vec::new(),
        last_move: last.map(|(s, _)| s.index() as u8),
        flipped: last
            .map(|(_, f)| f.iter().map(|s| s.index() as u8).collect())
            .unwrap_or_default(),
        version,
        // The island celebrates the end of a lab game too.
        outcome: position.result().map(|result| match result {
            GameResult::Win(Color::Black) => 1,
            GameResult::Win(Color::White) => -1,
            GameResult::Draw => 0,
        }),
    }
}

fn move_view(index: usize, m: &LabMove) -> LabMoveView {
    let ply = index as u32 + 1;
    let value = m.facts.search_value;
    LabMoveView {
        ply,
        side: side(m.color),
        square: m.square.to_string(),
        index: m.square.index() as u8,
        flipped: m.flipped.iter().map(|s| s.index() as u8).collect(),
        depth: m.facts.search_depth as u8,
        value,
        value_black: if m.color == Color::Black {
            value
        } else {
            -value
        },
        exact: m.facts.endgame.as_ref().map(|t| LabExact {
            exact: t.is_exact(),
            played: t.played,
            best: t.best,
        }),
        nodes: m.facts.nodes,
        alternatives: m.facts.alternatives.len() as u32,
        pass_after: m.pass_after.map(side),
        black_count: m.after.count(Color::Black) as u8,
        white_count: m.after.count(Color::White) as u8,
        board: snapshot(&m.after, Some((m.square, m.flipped)), u64::from(ply) + 1),
        explanation: match &m.explained {
            Explained::Pending => ExplanationView::Pending,
            Explained::Ready(e) => ExplanationView::Ready {
                explanation: e.explanation.clone(),
                lesson: e.lesson.clone(),
                provider: e.provider.clone(),
                // Checked against the fact sheet before it is shown.
                unverified: factcheck::unverified(&m.facts, &[&e.explanation, &e.lesson]),
            },
            Explained::Failed(message) => ExplanationView::Failed {
                message: message.clone(),
            },
        },
    }
}

/// The view of a lab game.
pub fn view(game: &LabGame, provider: ProviderStatus) -> LabView {
    let position = game.game.position();
    let last = game.moves.last().map(|m| (m.square, m.flipped));
    let status = match game.game.result() {
        Some(GameResult::Win(color)) => LabStatus::Over {
            winner: Some(side(color)),
        },
        Some(GameResult::Draw) => LabStatus::Over { winner: None },
        None => LabStatus::Playing {
            to_move: side(position.side_to_move),
        },
    };
    LabView {
        id: game.id.clone(),
        black_depth: game.black_depth,
        white_depth: game.white_depth,
        board: snapshot(position, last, game.moves.len() as u64 + 1),
        status,
        black_count: position.count(Color::Black) as u8,
        white_count: position.count(Color::White) as u8,
        moves: game
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| move_view(i, m))
            .collect(),
        provider,
        version: game.version,
        // Set by the server function, which knows the caller.
        yours: false,
    }
}

/// Settings of the lab.
#[derive(Clone, Debug)]
pub struct LabConfig {
    /// The longest an explanation may take before it counts as failed.
    pub explain_timeout: Duration,
    /// When and how far the exact endgame solver runs for fact sheets.
    pub exact: exact::ExactLimits,
    /// Milliseconds without activity after which a lab game is deleted (the
    /// same idle time as tables).
    pub expiry_ms: i64,
    /// The AI worker pool the lab's searches run on (`None`: a blocking task).
    pub ai: Option<crate::ai::AiPool>,
    /// Paid explanations written at once, server-wide (`--explain-concurrency`).
    pub explain_concurrency: usize,
    /// Paid explanations per UTC day, server-wide (`--explain-daily-budget`).
    pub explain_daily_budget: u32,
}

/// The server-wide cost bounds on paid explanations: a concurrency cap and a
/// daily budget. The offline writer costs nothing and is not bounded.
struct ExplainBudget {
    permits: Arc<tokio::sync::Semaphore>,
    /// (UTC day number, explanations started that day).
    spent: Mutex<(i64, u32)>,
}

impl ExplainBudget {
    /// Takes one explanation from today's budget, or says why not.
    fn take(&self, now_ms: i64, daily: u32) -> Result<(), String> {
        let day = now_ms.div_euclid(86_400_000);
        let mut spent = self
            .spent
            .lock()
            .map_err(|_| "the explanation budget is unavailable".to_string())?;
        if spent.0 != day {
            *spent = (day, 0);
        }
        if spent.1 >= daily {
            return Err(format!(
                "The server's daily budget of {daily} paid explanations is spent; retry after midnight UTC."
            ));
        }
        spent.1 += 1;
        Ok(())
    }
}

struct Inner {
    store: Store,
    clock: Arc<dyn Clock>,
    explainer: Arc<dyn Explainer>,
    config: LabConfig,
    games: Mutex<HashMap<String, Arc<AsyncMutex<LabGame>>>>,
    budget: ExplainBudget,
}

/// The lab hub; cheap to clone.
#[derive(Clone)]
pub struct LabHub {
    inner: Arc<Inner>,
}

fn storage_error(error: StoreError) -> CommandError {
    tracing::error!("lab storage error: {error}");
    CommandError::unavailable("The server could not save this; nothing changed. Please try again.")
}

fn new_id() -> String {
    use rand::Rng;
    let mut rng = rand::thread_rng();
    (0..8).map(|_| format!("{:02x}", rng.gen::<u8>())).collect()
}

impl LabHub {
    /// Starts the lab, restoring every stored lab game.
    pub async fn start(
        store: Store,
        clock: Arc<dyn Clock>,
        explainer: Arc<dyn Explainer>,
        config: LabConfig,
    ) -> Result<Self, StoreError> {
        let hub = LabHub {
            inner: Arc::new(Inner {
                store,
                clock,
                explainer,
                budget: ExplainBudget {
                    permits: Arc::new(tokio::sync::Semaphore::new(
                        config.explain_concurrency.max(1),
                    )),
                    spent: Mutex::new((i64::MIN, 0)),
                },
                config,
                games: Mutex::new(HashMap::new()),
            }),
        };
        hub.restore().await?;
        Ok(hub)
    }

    fn now(&self) -> i64 {
        self.inner.clock.now_ms()
    }

    /// The explainer's status.
    pub fn provider_status(&self) -> ProviderStatus {
        self.inner.explainer.status()
    }

    fn entry(&self, id: &str) -> Result<Arc<AsyncMutex<LabGame>>, CommandError> {
        self.inner
            .games
            .lock()
            .ok()
            .and_then(|g| g.get(id).cloned())
            .ok_or_else(|| CommandError::not_found("No such lab game."))
    }

    /// Creates a lab game; returns its id.
    pub async fn create(&self, black_depth: u8, white_depth: u8) -> Result<String, CommandError> {
        if !LAB_DEPTHS.contains(&black_depth) || !LAB_DEPTHS.contains(&white_depth) {
            return Err(CommandError::new(
                "Each engine's depth must be between 1 and 6.",
            ));
        }
        let id = new_id();
        let now = self.now();
        self.inner
            .store
            .create_lab_game(&id, black_depth, white_depth, now)
            .await
            .map_err(storage_error)?;
        let game = LabGame::new(id.clone(), black_depth, white_depth, now);
        if let Ok(mut games) = self.inner.games.lock() {
            games.insert(id.clone(), Arc::new(AsyncMutex::new(game)));
        }
        tracing::info!(lab = %id, black_depth, white_depth, "lab game created");
        Ok(id)
    }

    /// Every lab game, most recently changed first.
    pub async fn list(&self) -> Vec<LabSummary> {
        let entries: Vec<_> = self
            .inner
            .games
            .lock()
            .map(|g| g.values().cloned().collect())
            .unwrap_or_default();
        let mut out = Vec::with_capacity(entries.len());
        for entry in entries {
            let game = entry.lock().await;
            let position = game.game.position();
            out.push(LabSummary {
                id: game.id.clone(),
                black_depth: game.black_depth,
                white_depth: game.white_depth,
                plies: game.moves.len() as u32,
                black_count: position.count(Color::Black) as u8,
                white_count: position.count(Color::White) as u8,
                over: game.game.is_over(),
                updated_at: game.updated_at,
                mine: false,
            });
        }
        out.sort_by(|a, b| b.updated_at.cmp(&a.updated_at).then(a.id.cmp(&b.id)));
        out
    }

    /// The view of a lab game.
    pub async fn view(&self, id: &str) -> Result<LabView, CommandError> {
        let entry = self.entry(id)?;
        let game = entry.lock().await;
        Ok(view(&game, self.provider_status()))
    }

    /// Waits (up to 20 s) for the lab game's version to differ from `since`.
    pub async fn wait(&self, id: &str, since: u64) -> Result<LabView, CommandError> {
        let entry = self.entry(id)?;
        let mut changes = entry.lock().await.changes.subscribe();
        let _ = tokio::time::timeout(WAIT_LIMIT, changes.wait_for(|v| *v != since)).await;
        self.view(id).await
    }

    /// Plays the next turn: search, place, commit; the explanation follows.
    pub async fn next_turn(&self, id: &str) -> Result<LabView, CommandError> {
        let entry = self.entry(id)?;
        let mut game = entry.lock().await;
        if let Some(result) = game.result_text() {
            return Err(CommandError::new(format!("The game is over: {result}.")));
        }
        if let Some(last) = game.moves.last() {
            match last.explained {
                Explained::Pending => {
                    return Err(CommandError::new(format!(
                        "Wait: the explanation of {} is still being written.",
                        last.square
                    )))
                }
                Explained::Failed(_) => {
                    return Err(CommandError::new(format!(
                        "The explanation of {} failed: retry it before the next turn.",
                        last.square
                    )))
                }
                Explained::Ready(_) => {}
            }
        }
        let before = *game.game.position();
        let depth = u32::from(game.depth(before.side_to_move));
        let limits = self.inner.config.exact;
        let work = move || {
            let report = engine::search(&before, depth);
            let analysis = engine::analyse_root(&before, depth);
            let truth = report
                .best_move
                .and_then(|square| exact::truth(&before, square, limits));
            (report, analysis, truth)
        };
        let (report, analysis, truth) = match &self.inner.config.ai {
            // On the AI worker pool, where all lab searches together take one
            // share of the round robin (they cannot crowd out players' AIs).
            Some(pool) => pool
                .run_as("lab", work)
                .map_err(|full| {
                    CommandError::unavailable(format!("{} Nothing changed.", full.message))
                })?
                .await
                .map_err(|_| {
                    CommandError::new("The search failed; nothing changed. Please try again.")
                })?,
            None => tokio::task::spawn_blocking(work).await.map_err(|e| {
                tracing::error!("lab search task failed: {e}");
                CommandError::new("The search failed; nothing changed. Please try again.")
            })?,
        };
        let square = report
            .best_move
            .ok_or_else(|| CommandError::new("The side to move has no legal move."))?;
        let mut next = game.game.clone();
        let turn = next
            .play(square)
            .map_err(|e| CommandError::new(format!("The engine's move was refused: {e}")))?;
        let ply = game.moves.len() as u32 + 1;
        let mut facts = facts::build_with(ply, &before, square, &report, &analysis);
        facts.endgame = truth;
        let facts_json = serde_json::to_string(&facts)
            .map_err(|e| CommandError::new(format!("cannot encode the fact sheet: {e}")))?;
        let now = self.now();
        self.inner
            .store
            .record_lab_move(
                id,
                ply,
                before.side_to_move.name(),
                square.index() as u8,
                &facts_json,
                now,
            )
            .await
            .map_err(storage_error)?;
        game.game = next;
        game.moves.push(LabMove {
            color: before.side_to_move,
            square,
            flipped: turn.flipped,
            pass_after: turn.auto_pass,
            after: turn.position,
            facts: facts.clone(),
            explained: Explained::Pending,
        });
        game.changed(now);
        tracing::info!(lab = %id, ply, side = before.side_to_move.name(), %square, value = facts.search_value, nodes = facts.nodes, "lab move");
        self.spawn_explanation(id.to_string(), ply, facts);
        Ok(view(&game, self.provider_status()))
    }

    /// Asks again for the latest move's failed explanation; no disc is placed.
    pub async fn retry(&self, id: &str) -> Result<LabView, CommandError> {
        let entry = self.entry(id)?;
        let mut game = entry.lock().await;
        let ply = game.moves.len() as u32;
        let Some(last) = game.moves.last_mut() else {
            return Err(CommandError::new("There is no move to explain yet."));
        };
        if !matches!(last.explained, Explained::Failed(_)) {
            return Err(CommandError::new(format!(
                "The explanation of {} has not failed; there is nothing to retry.",
                last.square
            )));
        }
        let facts = last.facts.clone();
        let now = self.now();
        self.inner
            .store
            .record_lab_explanation(id, ply, Outcome::Pending, now)
            .await
            .map_err(storage_error)?;
        if let Some(last) = game.moves.last_mut() {
            last.explained = Explained::Pending;
        }
        game.changed(now);
        tracing::info!(lab = %id, ply, "lab explanation retried");
        self.spawn_explanation(id.to_string(), ply, facts);
        Ok(view(&game, self.provider_status()))
    }

    /// Writes an explanation in the background and commits its outcome.
    /// Writes an explanation; a paid provider within the server-wide
    /// concurrency cap and daily budget.
    async fn bounded_explanation(
        &self,
        facts: &FactSheet,
    ) -> Result<explain::Explanation, explain::ExplainError> {
        let paid = self.inner.explainer.status().kind != "offline";
        let _permit = if paid {
            self.inner
                .budget
                .take(self.now(), self.inner.config.explain_daily_budget)
                .map_err(explain::ExplainError)?;
            Some(
                self.inner
                    .budget
                    .permits
                    .clone()
                    .acquire_owned()
                    .await
                    .map_err(|_| explain::ExplainError("the explainer is shutting down".into()))?,
            )
        } else {
            None
        };
        explain::explain_with_timeout(
            self.inner.explainer.as_ref(),
            facts,
            self.inner.config.explain_timeout,
        )
        .await
    }

    fn spawn_explanation(&self, id: String, ply: u32, facts: FactSheet) {
        let hub = self.clone();
        tokio::spawn(async move {
            let result = hub.bounded_explanation(&facts).await;
            let Ok(entry) = hub.entry(&id) else { return };
            let mut game = entry.lock().await;
            let index = ply as usize - 1;
            if !game
                .moves
                .get(index)
                .is_some_and(|m| m.explained == Explained::Pending)
            {
                return;
            }
            let now = hub.now();
            let outcome = match &result {
                Ok(e) => Outcome::Ready {
                    explanation: &e.explanation,
                    lesson: &e.lesson,
                    provider: &e.provider,
                },
                Err(e) => Outcome::Failed(&e.0),
            };
            if let Err(error) = hub
                .inner
                .store
                .record_lab_explanation(&id, ply, outcome, now)
                .await
            {
                tracing::error!(lab = %id, ply, "cannot store the explanation: {error}");
            }
            let explained = match result {
                Ok(e) => {
                    tracing::info!(lab = %id, ply, provider = %e.provider, "lab explanation written");
                    Explained::Ready(e)
                }
                Err(e) => {
                    tracing::warn!(lab = %id, ply, "lab explanation failed: {}", e.0);
                    Explained::Failed(e.0)
                }
            };
            if let Some(m) = game.moves.get_mut(index) {
                m.explained = explained;
            }
            game.changed(now);
        });
    }

    /// Rebuilds every stored lab game by replaying its squares.
    async fn restore(&self) -> Result<(), StoreError> {
        let rows = self.inner.store.lab_games().await?;
        let mut restored = 0;
        for row in rows {
            let (Ok(black_depth), Ok(white_depth)) =
                (u8::try_from(row.black_depth), u8::try_from(row.white_depth))
            else {
                continue;
            };
            let stored = self.inner.store.lab_moves(&row.id).await?;
            let mut game = LabGame::new(row.id.clone(), black_depth, white_depth, row.updated_at);
            let mut pending = Vec::new();
            let mut broken = None;
            for (i, m) in stored.iter().enumerate() {
                let ply = i as u32 + 1;
                let Some(square) = usize::try_from(m.square).ok().and_then(Square::new) else {
                    broken = Some(format!("bad square at ply {ply}"));
                    break;
                };
                let color = game.game.position().side_to_move;
                if m.ply != i64::from(ply) || m.side != color.name() {
                    broken = Some(format!("ply {ply} is out of order"));
                    break;
                }
                let facts: FactSheet = match serde_json::from_str(&m.facts) {
                    Ok(f) => f,
                    Err(e) => {
                        broken = Some(format!("unreadable fact sheet at ply {ply}: {e}"));
                        break;
                    }
                };
                let turn = match game.game.play(square) {
                    Ok(t) => t,
                    Err(e) => {
                        broken = Some(format!("ply {ply} ({square}) no longer applies: {e}"));
                        break;
                    }
                };
                let explained = match m.explain_state.as_str() {
                    "ready" => Explained::Ready(Explanation {
                        explanation: m.explanation.clone().unwrap_or_default(),
                        lesson: m.lesson.clone().unwrap_or_default(),
                        provider: m.provider.clone().unwrap_or_default(),
                    }),
                    "failed" => Explained::Failed(m.explain_error.clone().unwrap_or_default()),
                    _ => {
                        pending.push((ply, facts.clone()));
                        Explained::Pending
                    }
                };
                game.moves.push(LabMove {
                    color,
                    square,
                    flipped: turn.flipped,
                    pass_after: turn.auto_pass,
                    after: turn.position,
                    facts,
                    explained,
                });
            }
            if let Some(reason) = broken {
                tracing::error!(lab = %row.id, "lab game could not be restored ({reason}); left on disk");
                continue;
            }
            game.version = game.moves.len() as u64 * 2 + 1;
            game.changes.send_replace(game.version);
            if let Ok(mut games) = self.inner.games.lock() {
                games.insert(row.id.clone(), Arc::new(AsyncMutex::new(game)));
            }
            for (ply, facts) in pending {
                self.spawn_explanation(row.id.clone(), ply, facts);
            }
            restored += 1;
        }
        if restored > 0 {
            tracing::info!(restored, "lab games restored from the database");
        }
        Ok(())
    }

    /// Deletes lab games idle for longer than the expiry (on the injected
    /// clock); returns how many.
    pub async fn expire_idle(&self) -> Result<usize, StoreError> {
        let cutoff = self.now().saturating_sub(self.inner.config.expiry_ms);
        let deleted = self.inner.store.delete_idle_lab_games(cutoff).await?;
        if let Ok(mut games) = self.inner.games.lock() {
            for id in &deleted {
                games.remove(id);
            }
        }
        if !deleted.is_empty() {
            tracing::info!(count = deleted.len(), "idle lab games deleted");
        }
        Ok(deleted.len())
    }

    /// A lab game's moves and whether it is over (game analysis).
    pub async fn game_of(&self, id: &str) -> Result<(Game, bool), CommandError> {
        let entry = self.entry(id)?;
        let game = entry.lock().await;
        Ok((game.game.clone(), game.game.is_over()))
    }

    /// The text export of a lab game.
    pub async fn export_text(&self, id: &str) -> Result<String, CommandError> {
        let entry = self.entry(id)?;
        let game = entry.lock().await;
        Ok(export::text(&game))
    }

    /// The JSON export of a lab game.
    pub async fn export_json(&self, id: &str) -> Result<serde_json::Value, CommandError> {
        let entry = self.entry(id)?;
        let game = entry.lock().await;
        Ok(export::json(&game))
    }
}

/// Builds the configured explainer (`--explainer`; `auto` picks one, see
/// [`explain::auto`]).
pub async fn explainer_from_config(config: &crate::config::Config) -> Arc<dyn Explainer> {
    use crate::config::ExplainerKind;
    let key = std::env::var("OPENAI_API_KEY")
        .ok()
        .filter(|k| !k.trim().is_empty());
    let mut secrets: Vec<String> = key.iter().cloned().collect();
    if let Ok(codex_key) = std::env::var("CODEX_API_KEY") {
        secrets.push(codex_key);
    }
    let secrets = explain::Secrets::new(secrets);
    let explainer: Arc<dyn Explainer> = match config.explainer {
        ExplainerKind::Auto => {
            use explain::auto::{choose, Choice, Chosen};
            let login = Chosen::login(&config.codex_bin).await;
            let (choice, reason) = choose(&login, key.is_some());
            let inner: Arc<dyn Explainer> = match choice {
                Choice::Codex => {
                    Arc::new(explain::codex::Codex::start(&config.codex_bin, secrets).await)
                }
                Choice::Responses => Arc::new(explain::responses::Responses::new(
                    &config.responses_base_url,
                    key,
                )),
                Choice::Offline => Arc::new(explain::offline::Offline),
            };
            Arc::new(Chosen::new(inner, reason))
        }
        ExplainerKind::Offline => Arc::new(explain::offline::Offline),
        ExplainerKind::Responses => Arc::new(explain::responses::Responses::new(
            &config.responses_base_url,
            key,
        )),
        ExplainerKind::Codex => {
            Arc::new(explain::codex::Codex::start(&config.codex_bin, secrets).await)
        }
    };
    let status = explainer.status();
    tracing::info!(
        provider = %status.kind,
        ready = status.ready,
        "lab explainer: {} — {}",
        status.name,
        status.detail
    );
    explainer
}

impl LabBackend for LabHub {
    fn create<'a>(
        &'a self,
        black_depth: u8,
        white_depth: u8,
    ) -> BoxFuture<'a, Result<String, CommandError>> {
        Box::pin(LabHub::create(self, black_depth, white_depth))
    }

    fn list(&self) -> BoxFuture<'_, Result<Vec<LabSummary>, CommandError>> {
        Box::pin(async move { Ok(LabHub::list(self).await) })
    }

    fn view<'a>(&'a self, lab: &'a str) -> BoxFuture<'a, Result<LabView, CommandError>> {
        Box::pin(LabHub::view(self, lab))
    }

    fn next_turn<'a>(&'a self, lab: &'a str) -> BoxFuture<'a, Result<LabView, CommandError>> {
        Box::pin(LabHub::next_turn(self, lab))
    }

    fn retry<'a>(&'a self, lab: &'a str) -> BoxFuture<'a, Result<LabView, CommandError>> {
        Box::pin(LabHub::retry(self, lab))
    }

    fn wait<'a>(
        &'a self,
        lab: &'a str,
        since: u64,
    ) -> BoxFuture<'a, Result<LabView, CommandError>> {
        Box::pin(LabHub::wait(self, lab, since))
    }

    fn provider(&self) -> ProviderStatus {
        self.provider_status()
    }

    fn is_owner<'a>(
        &'a self,
        lab: &'a str,
        session: &'a app::protocol::Session,
    ) -> BoxFuture<'a, Result<bool, CommandError>> {
        Box::pin(LabHub::is_owner(self, lab, &session.0))
    }

    fn owned_by<'a>(
        &'a self,
        session: &'a app::protocol::Session,
    ) -> BoxFuture<'a, Result<Vec<String>, CommandError>> {
        Box::pin(async move {
            self.inner
                .store
                .lab_games_of(&session.0)
                .await
                .map_err(storage_error)
        })
    }

    fn copy<'a>(&'a self, lab: &'a str) -> BoxFuture<'a, Result<String, CommandError>> {
        Box::pin(LabHub::copy(self, lab))
    }
}
