//! Over 600 lines: the lab hub's step, explanation and restore paths share its private state (`Inner`, `LabGame`).
//!
//! The AI lab (docs/PRODUCT.md, The AI lab): two engines play each other, each at its own depth,
//! and after every placement an explainer writes a short strategic
//! explanation and one reusable lesson from the real facts.
//!
//! The step path mirrors the table hub: search off the network loop
//! (`spawn_blocking`) → play on a copy of the game → commit the placement to
//! the database (one transaction) → swap in → answer; the explanation is then
//! written in the background and committed in its own transaction. A lab
//! game is read from the store when first asked for (its squares replayed
//! through `engine::Game`) and checked against its stored version before
//! each use; explanations still being written when their writer stopped
//! are taken over (`shared.rs`). The same code runs alone and among
//! several instances: the store's queries are written once, and the bus is
//! this process's own when it is alone.

mod backend;
pub mod budget;
pub mod copy;
pub mod exact;
pub mod explain;
pub mod export;
pub mod factcheck;
pub mod facts;
mod recovery;
mod shared;
/// The lab's stored rows, which the store's lab repository reads and writes.
pub use crate::store::lab_rows as store;
mod view;

pub use recovery::explainer_from_config;
pub use shared::LabShared;
pub use view::view;

use crate::clock::Clock;
use crate::store::{Store, StoreError};
use app::api::CommandError;
use app::lab::{LabSummary, LabView, ProviderStatus, LAB_DEPTHS};
use app::protocol::LabId;
use engine::{Bitboard, Color, Game, GameResult, Position, Square};
use explain::{Explainer, Explanation};
use facts::FactSheet;
use shared::changed_meanwhile;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use store::{ExplainState, Outcome};
use tokio::sync::{watch, Mutex as AsyncMutex};

/// Recent lab games of other sessions listed (read-only) besides your own.
pub const RECENT_LAB_GAMES: usize = 20;

/// How long a `lab_wait` call waits for a change.
const WAIT_LIMIT: Duration = Duration::from_secs(20);
/// How often a waiting `lab_wait` checks the stored version (a change
/// heard on the bus wakes it at once).
const SHARED_CHECK: Duration = Duration::from_secs(3);

/// An explanation's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Explained {
    Pending,
    Ready(Explanation),
    Failed(String),
}

impl Explained {
    /// The state as stored.
    pub fn state(&self) -> ExplainState {
        match self {
            Explained::Pending => ExplainState::Pending,
            Explained::Ready(_) => ExplainState::Ready,
            Explained::Failed(_) => ExplainState::Failed,
        }
    }
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
    pub id: LabId,
    /// The language its explanations are written in.
    pub lang: app::i18n::Lang,
    pub black_depth: u8,
    pub white_depth: u8,
    pub game: Game,
    pub moves: Vec<LabMove>,
    pub updated_at: i64,
    version: u64,
    changes: watch::Sender<u64>,
}

impl LabGame {
    fn new(id: LabId, black_depth: u8, white_depth: u8, now: i64) -> Self {
        LabGame {
            id,
            lang: app::i18n::Lang::En,
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
        self.result_msg().map(|m| m.english())
    }

    /// The result by key (`srv-result-win`, `srv-result-draw`).
    pub fn result_msg(&self) -> Option<app::i18n::Msg> {
        let position = self.game.position();
        let (b, w) = (position.count(Color::Black), position.count(Color::White));
        self.game.result().map(|result| match result {
            GameResult::Win(Color::Black) => {
                app::msg!("srv-result-win", side = "Black", score = format!("{b}–{w}"))
            }
            GameResult::Win(Color::White) => {
                app::msg!("srv-result-win", side = "White", score = format!("{w}–{b}"))
            }
            GameResult::Draw => app::msg!("srv-result-draw", score = format!("{b}–{w}")),
        })
    }
}

/// Settings of the lab.
#[derive(Clone, Debug)]
pub struct LabConfig {
    /// The longest an explanation may take before it counts as failed.
    pub explain_timeout: Duration,
    /// When and how far the exact endgame solver runs for fact sheets.
    pub exact: exact::ExactLimits,
    /// Depth of the trained search that values each alternative in discs on
    /// the fact sheet (the game analysis's depth, `--analysis-depth`).
    pub discs_depth: u32,
    /// Milliseconds without activity after which a lab game is deleted (the
    /// same idle time as tables).
    pub expiry_ms: i64,
    /// The AI worker pool the lab's searches run on (`None`: a blocking task).
    pub ai: Option<crate::ai::AiPool>,
    /// Paid explanations written at once, server-wide (`--explain-concurrency`).
    pub explain_concurrency: usize,
    /// Paid explanations per UTC day, server-wide (`--explain-daily-budget`).
    pub explain_daily_budget: u32,
    /// Among several instances: the bus between them, which says when
    /// another instance changed a lab game (`None`: this process is alone,
    /// and hears only itself).
    pub shared: Option<LabShared>,
}

tokio::task_local! {
    /// Who pays for the explanations a step starts: the caller's address
    /// (set by [`LabHub::next_turn_for`] and [`LabHub::retry_for`]).
    static PAYER: Option<std::net::IpAddr>;
}

struct Inner {
    store: Store,
    clock: Arc<dyn Clock>,
    explainer: Arc<dyn Explainer>,
    config: LabConfig,
    /// The bus between instances, or this process's own when it is alone.
    bus: Arc<dyn crate::store::bus::Bus>,
    games: Mutex<HashMap<LabId, Arc<AsyncMutex<LabGame>>>>,
    /// The paid explanations' daily budgets and concurrency cap, in the
    /// database (shared by every instance, kept across restarts).
    budget: budget::SharedBudget,
    /// The caps on lab games per session and address ([`LabHub::use_limits`];
    /// the defaults otherwise).
    limits: std::sync::OnceLock<Arc<crate::limits::Limits>>,
    /// Lab games whose next turn is being played here ([`LabHub::turn_of`]).
    turns: Arc<Mutex<std::collections::HashSet<String>>>,
}

/// The lab hub; cheap to clone.
#[derive(Clone)]
pub struct LabHub {
    inner: Arc<Inner>,
}

fn new_id() -> LabId {
    use rand::Rng;
    let mut rng = rand::thread_rng();
    LabId::new(
        (0..8)
            .map(|_| format!("{:02x}", rng.gen::<u8>()))
            .collect::<String>(),
    )
}

impl LabHub {
    /// Starts the lab: lab games are read when first asked for;
    /// explanations whose writer stopped are taken over.
    pub async fn start(
        store: Store,
        clock: Arc<dyn Clock>,
        explainer: Arc<dyn Explainer>,
        config: LabConfig,
    ) -> Result<Self, StoreError> {
        let budget = budget::SharedBudget::new(
            store.clone(),
            budget::BudgetConfig {
                daily: config.explain_daily_budget,
                concurrency: u32::try_from(config.explain_concurrency).unwrap_or(u32::MAX),
                lease_ms: i64::try_from(config.explain_timeout.as_millis())
                    .unwrap_or(i64::MAX / 4)
                    .saturating_add(5_000),
            },
        );
        if config.shared.is_none() && crate::store::TableStore::shared_database(&store) {
            return Err(StoreError::NotShared);
        }
        let bus: Arc<dyn crate::store::bus::Bus> = match &config.shared {
            Some(shared) => shared.bus.clone(),
            None => Arc::new(crate::store::bus::LocalBus::new()),
        };
        let hub = LabHub {
            inner: Arc::new(Inner {
                store,
                clock,
                explainer,
                budget,
                config,
                bus,
                games: Mutex::new(HashMap::new()),
                limits: std::sync::OnceLock::new(),
                turns: Default::default(),
            }),
        };
        hub.start_listening().await?;
        Ok(hub)
    }

    fn now(&self) -> i64 {
        self.inner.clock.now_ms()
    }

    /// The explainer's status, with the operator's details (`/healthz`).
    pub fn provider_status(&self) -> ProviderStatus {
        self.inner.explainer.status()
    }

    /// The explainer's status as visitors get it: which explainer and
    /// whether it works, without the operator's details (which CLI is
    /// logged in, which key is set: `/healthz` and the log say that).
    pub fn visitor_provider_status(&self) -> ProviderStatus {
        ProviderStatus {
            detail: String::new(),
            ..self.provider_status()
        }
    }

    /// Creates a lab game; returns its id.
    pub async fn create(&self, black_depth: u8, white_depth: u8) -> Result<LabId, CommandError> {
        self.create_in(black_depth, white_depth, app::i18n::Lang::En)
            .await
    }

    /// Creates a lab game whose explanations are written in `lang`.
    pub async fn create_in(
        &self,
        black_depth: u8,
        white_depth: u8,
        lang: app::i18n::Lang,
    ) -> Result<LabId, CommandError> {
        if !LAB_DEPTHS.contains(&black_depth) || !LAB_DEPTHS.contains(&white_depth) {
            return Err(CommandError::refused(app::msg!("srv-lab-depth")));
        }
        let id = new_id();
        let now = self.now();
        self.inner
            .store
            .create_lab_game(id.as_str(), black_depth, white_depth, lang.code(), now)
            .await?;
        let mut game = LabGame::new(id.clone(), black_depth, white_depth, now);
        game.lang = lang;
        if let Ok(mut games) = self.inner.games.lock() {
            games.insert(id.clone(), Arc::new(AsyncMutex::new(game)));
        }
        tracing::info!(lab = %id, black_depth, white_depth, "lab game created");
        Ok(id)
    }

    /// The lab list as `session` sees it: their own games and the most
    /// recently changed others', most recent first. Only those games are
    /// read (found by the stored owners and change times), never every one.
    pub async fn list(&self, session: Option<&str>) -> Result<Vec<LabSummary>, CommandError> {
        let own: std::collections::HashSet<String> = match session {
            Some(session) => self
                .inner
                .store
                .lab_games_of(session)
                .await?
                .into_iter()
                .collect(),
            None => Default::default(),
        };
        let others = RECENT_LAB_GAMES;
        let mut ids: Vec<String> = own.iter().cloned().collect();
        ids.extend(
            self.recent_lab_games(others + own.len())
                .await?
                .into_iter()
                .filter(|id| !own.contains(id))
                .take(others),
        );
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let Ok(entry) = self.entry(&id).await else {
                continue;
            };
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
                mine: own.contains(game.id.as_str()),
            });
        }
        out.sort_by(|a, b| b.updated_at.cmp(&a.updated_at).then(a.id.cmp(&b.id)));
        Ok(out)
    }

    /// The view of a lab game.
    pub async fn view(&self, id: &LabId) -> Result<LabView, CommandError> {
        let entry = self.entry(id.as_str()).await?;
        let game = entry.lock().await;
        Ok(view(&game, self.visitor_provider_status()))
    }

    /// Waits (up to 20 s) for the lab game's version to differ from `since`.
    /// On PostgreSQL the bus wakes it when another instance changes the
    /// game; every few seconds it also checks the stored version, in case a
    /// message was missed.
    pub async fn wait(&self, id: &LabId, since: u64) -> Result<LabView, CommandError> {
        let entry = self.entry(id.as_str()).await?;
        let mut changes = entry.lock().await.changes.subscribe();
        let deadline = tokio::time::Instant::now() + WAIT_LIMIT;
        loop {
            let now = tokio::time::Instant::now();
            if now >= deadline {
                break;
            }
            let slice = (deadline - now).min(SHARED_CHECK);
            if tokio::time::timeout(slice, changes.wait_for(|v| *v != since))
                .await
                .is_ok()
            {
                break;
            }
            self.entry(id.as_str()).await?;
        }
        self.view(id).await
    }

    /// Plays the next turn: search, place, commit; the explanation follows.
    pub async fn next_turn(&self, id: &LabId) -> Result<LabView, CommandError> {
        let entry = self.entry(id.as_str()).await?;
        // One turn at a time per game; the game's lock is not held while the
        // search waits for and runs on the pool (watchers and the list go on).
        let _turn = self.turn_of(id)?;
        let game = entry.lock().await;
        if let Some(result) = game.result_msg() {
            return Err(CommandError::refused(app::msg!(
                "srv-lab-over",
                result = result
            )));
        }
        if let Some(last) = game.moves.last() {
            match last.explained {
                Explained::Pending => {
                    return Err(CommandError::refused(app::msg!(
                        "srv-lab-wait",
                        square = last.square.to_string()
                    )))
                }
                Explained::Failed(_) => {
                    return Err(CommandError::refused(app::msg!(
                        "srv-lab-retry-first",
                        square = last.square.to_string()
                    )))
                }
                Explained::Ready(_) => {}
            }
        }
        let before = *game.game.position();
        let depth = u32::from(game.depth(before.side_to_move));
        let version = game.version;
        drop(game);
        let limits = self.inner.config.exact;
        let discs_depth = self.inner.config.discs_depth;
        // `stop`: set when the step's request has gone (the solves and
        // the strong search then give up early; nothing is placed).
        let work = move |stop: Option<&std::sync::atomic::AtomicBool>| {
            let report = engine::search(&before, depth);
            let analysis = engine::analyse_root(&before, depth);
            let truth = report
                .best_move
                .and_then(|square| exact::truth_until(&before, square, limits, stop));
            // Each alternative in discs, as the game analysis values it:
            // exact when solved, else the trained search's estimate.
            let discs = match truth.as_ref().filter(|t| t.is_exact()) {
                Some(t) => (
                    t.moves
                        .iter()
                        .filter_map(|m| {
                            let square = m.square.parse::<engine::Square>().ok()?;
                            Some((square, m.final_disc_difference))
                        })
                        .collect(),
                    true,
                ),
                None => (
                    crate::discs::midgame_scores_until(&before, discs_depth, stop),
                    false,
                ),
            };
            (report, analysis, truth, discs)
        };
        let (report, analysis, truth, discs) = match &self.inner.config.ai {
            // On the AI pool's heavy lane (never a thread a player's reply
            // waits for), fair per address.
            // Fair and capped per address (429 with a retry time when the
            // address or the lane is full; 503 when the pool takes nothing).
            Some(pool) => pool
                .search(&self.pool_key(), &self.pool_key(), work)
                .map_err(|full| crate::ai::QueueFull {
                    msg: app::msg!("srv-nothing-changed", why = full.msg),
                    ..full
                })
                .map_err(crate::ai::QueueFull::into_error)?
                .await
                .map_err(|_| CommandError::unavailable(app::msg!("srv-search-failed")))?,
            None => tokio::task::spawn_blocking(move || work(None))
                .await
                .map_err(|e| {
                    tracing::error!("lab search task failed: {e}");
                    CommandError::unavailable(app::msg!("srv-search-failed"))
                })?,
        };
        let mut game = entry.lock().await;
        if game.version != version {
            // Changed while the search ran (on PostgreSQL, another instance
            // may have stepped it): nothing is placed.
            return Err(changed_meanwhile(StoreError::Stale));
        }
        let square = report
            .best_move
            .ok_or_else(|| CommandError::refused(app::msg!("srv-lab-no-move")))?;
        let mut next = game.game.clone();
        let turn = next.play(square).map_err(|e| {
            CommandError::internal(format!("the engine's own move was refused: {e}"))
        })?;
        let ply = game.moves.len() as u32 + 1;
        let mut facts = facts::build_with(ply, &before, square, &report, &analysis);
        facts.set_discs(&discs.0, discs.1);
        facts.endgame = truth;
        facts.lang = game.lang;
        let facts_json = serde_json::to_string(&facts)
            .map_err(|e| CommandError::internal(format!("cannot encode the fact sheet: {e}")))?;
        let now = self.now();
        let (side, index) = (before.side_to_move.name(), square.index() as u8);
        let stored = self
            .inner
            .store
            .record_lab_move(
                id.as_str(),
                ply,
                side,
                index,
                &facts_json,
                now,
                game.version as i64,
                now + self.lease_ms(),
            )
            .await
            .map_err(changed_meanwhile)?;
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
        self.publish(id.as_str(), stored).await;
        tracing::info!(lab = %id, ply, side = before.side_to_move.name(), %square, value = facts.search_value, nodes = facts.nodes, "lab move");
        self.spawn_explanation(id.to_string(), ply, facts);
        Ok(view(&game, self.visitor_provider_status()))
    }

    /// Asks again for the latest move's failed explanation; no disc is placed.
    pub async fn retry(&self, id: &LabId) -> Result<LabView, CommandError> {
        let entry = self.entry(id.as_str()).await?;
        let mut game = entry.lock().await;
        let ply = game.moves.len() as u32;
        let Some(last) = game.moves.last_mut() else {
            return Err(CommandError::refused(app::msg!("srv-nothing-to-explain")));
        };
        if !matches!(last.explained, Explained::Failed(_)) {
            return Err(CommandError::refused(app::msg!(
                "srv-lab-not-failed",
                square = last.square.to_string()
            )));
        }
        let facts = last.facts.clone();
        let now = self.now();
        let stored = self
            .inner
            .store
            .record_lab_explanation(
                id.as_str(),
                ply,
                ExplainState::Failed,
                Outcome::Pending,
                now,
                Some(game.version as i64),
                now + self.lease_ms(),
            )
            .await
            .map_err(changed_meanwhile)?
            .ok_or_else(|| changed_meanwhile(StoreError::Stale))?;
        if let Some(last) = game.moves.last_mut() {
            last.explained = Explained::Pending;
        }
        game.changed(now);
        self.publish(id.as_str(), stored).await;
        tracing::info!(lab = %id, ply, "lab explanation retried");
        self.spawn_explanation(id.to_string(), ply, facts);
        Ok(view(&game, self.visitor_provider_status()))
    }

    /// Writes an explanation; a paid provider within the daily budgets (the
    /// server's, and `payer`'s address's) and the concurrency cap, all kept
    /// in the database ([`budget`]).
    async fn bounded_explanation(
        &self,
        facts: &FactSheet,
        payer: Option<std::net::IpAddr>,
    ) -> Result<explain::Explanation, explain::ExplainError> {
        let slot = if self.paid() {
            let per_address = self.limits().config().explanations_per_address_day;
            match self.inner.budget.take(self.now(), payer, per_address).await {
                Ok(Ok(())) => {}
                Ok(Err(refusal)) => return Err(explain::ExplainError(refusal.to_string())),
                Err(error) => {
                    tracing::error!("the explanation budget cannot be read: {error}");
                    return Err(explain::ExplainError(
                        "The explanation budget is unavailable right now; retry in a moment."
                            .into(),
                    ));
                }
            }
            let slot = self
                .inner
                .budget
                .slot(self.inner.clock.as_ref(), self.inner.config.explain_timeout)
                .await
                .map_err(explain::ExplainError)?;
            Some(slot)
        } else {
            None
        };
        let written = explain::explain_with_timeout(
            self.inner.explainer.as_ref(),
            facts,
            self.inner.config.explain_timeout,
        )
        .await;
        if let Some(slot) = slot {
            slot.release().await;
        }
        written
    }

    /// Whether explanations cost money (every provider but the offline one).
    pub(crate) fn paid(&self) -> bool {
        self.inner.explainer.status().kind != "offline"
    }

    fn spawn_explanation(&self, id: String, ply: u32, facts: FactSheet) {
        let hub = self.clone();
        let payer = PAYER.try_with(|payer| *payer).ok().flatten();
        tokio::spawn(async move {
            let result = hub.bounded_explanation(&facts, payer).await;
            let Ok(entry) = hub.entry(&id).await else {
                return;
            };
            let mut game = entry.lock().await;
            let index = ply as usize - 1;
            let now = hub.now();
            let outcome = match &result {
                Ok(e) => Outcome::Ready {
                    explanation: &e.explanation,
                    lesson: &e.lesson,
                    provider: &e.provider,
                },
                Err(e) => Outcome::Failed(&e.0),
            };
            // Written only if still pending: another writer may have taken
            // this explanation over (its lease ran out) and written it first.
            let stored = hub
                .inner
                .store
                .record_lab_explanation(&id, ply, ExplainState::Pending, outcome, now, None, 0)
                .await;
            match stored {
                Ok(Some(version)) if game.version + 1 == version as u64 => {}
                Ok(Some(version)) => {
                    drop(game);
                    let _ = hub.catch_up(&id, version).await;
                    hub.publish(&id, version).await;
                    return;
                }
                Ok(None) => return,
                Err(error) => {
                    tracing::error!(lab = %id, ply, "cannot store the explanation: {error}");
                    return;
                }
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
            let version = game.version as i64;
            drop(game);
            hub.publish(&id, version).await;
        });
    }

    /// Deletes lab games idle for longer than the expiry (on the injected
    /// clock); returns how many.
    pub async fn expire_idle(&self) -> Result<usize, StoreError> {
        let cutoff = self.now().saturating_sub(self.inner.config.expiry_ms);
        let deleted = self.inner.store.delete_idle_lab_games(cutoff).await?;
        for id in &deleted {
            self.forget(id);
            self.publish(id, -1).await;
        }
        if !deleted.is_empty() {
            tracing::info!(count = deleted.len(), "idle lab games deleted");
        }
        Ok(deleted.len())
    }

    /// A lab game's moves and whether it is over (game analysis).
    pub async fn game_of(&self, id: &LabId) -> Result<(Game, bool), CommandError> {
        let entry = self.entry(id.as_str()).await?;
        let game = entry.lock().await;
        Ok((game.game.clone(), game.game.is_over()))
    }

    /// The text export of a lab game.
    pub async fn export_text(&self, id: &LabId) -> Result<String, CommandError> {
        let entry = self.entry(id.as_str()).await?;
        let game = entry.lock().await;
        Ok(export::text(&game))
    }

    /// The JSON export of a lab game.
    pub async fn export_json(&self, id: &LabId) -> Result<serde_json::Value, CommandError> {
        let entry = self.entry(id.as_str()).await?;
        let game = entry.lock().await;
        Ok(export::json(&game))
    }
}
