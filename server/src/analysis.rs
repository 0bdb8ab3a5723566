//! Analysis of finished games (vs AI, hot-seat, online, lab): each placement's
//! loss in discs against the best move — the strong search on the trained
//! pattern evaluation in the midgame (every legal move scored, values in
//! discs), the exact solver in the last empties (within a node budget) — the
//! worst mistakes, the evaluation graph's points and each side's cumulative
//! loss. The work runs on the AI worker pool one placement at a time (in turn
//! with the games' searches), shows progress, and the result is stored
//! (`migrations/0009_analysis.sql`) so a reload does not compute it again; a
//! stored analysis from before the values were discs is made again.
//!
//! (Over 600 lines: the pure analysis, its store queries and the service that
//! runs it stay together so the one feature reads top to bottom; ~110 are tests.)

use crate::ai::AiPool;
use crate::lab::exact::{solve_moves_until, ExactLimits};
use crate::store::Store;
use app::api::analysis_backend::AnalysisBackend;
use app::api::CommandError;
use app::protocol::{
    AnalysisView, GameAnalysis, GameKind, LabId, MoveAnalysis, Severity, Side, TableId,
};
use engine::{Color, Game, GameEvent, Position, Square};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// At most this many analyses run at once (each one placement at a time).
const MAX_RUNNING: usize = 4;
/// How many of the worst moves are listed.
const WORST_LISTED: usize = 5;

pub use crate::discs::{midgame_scores, SEARCH_NODES};

/// Settings of the analysis.
#[derive(Clone, Copy, Debug)]
pub struct AnalysisSettings {
    /// The strong search's depth in the midgame.
    pub depth: u32,
    /// The exact solver's range and budget (per placement).
    pub exact: ExactLimits,
}

/// What one placement's analysis found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyValues {
    pub best: Square,
    pub best_value: i32,
    pub played_value: i32,
    pub exact: bool,
    /// The played move is one the opening book plays.
    pub book: bool,
}

/// Analyses `played` in `before`: the exact solver when `before` has at most
/// `settings.exact.empties` empties and the budget suffices, else a search at
/// `settings.depth`. Values are from the mover's side.
pub fn analyse_ply(before: &Position, played: Square, settings: AnalysisSettings) -> PlyValues {
    analyse_ply_until(before, played, settings, None)
}

/// [`analyse_ply`], stopped early once `stop` is set (the AI pool sets it
/// when nobody waits for the answer any more).
pub fn analyse_ply_until(
    before: &Position,
    played: Square,
    settings: AnalysisSettings,
    stop: Option<&AtomicBool>,
) -> PlyValues {
    let book = crate::book::is_book_move(crate::book::book(), before, played);
    let (scores, exact) = scored_moves(before, settings, stop);
    let played_value = scores
        .iter()
        .find(|(s, _)| *s == played)
        .map_or(if exact { i32::MIN / 2 } else { 0 }, |(_, v)| *v);
    let (best, best_value) = scores.first().copied().unwrap_or((played, played_value));
    PlyValues {
        best,
        best_value: if exact {
            best_value
        } else {
            best_value.max(played_value)
        },
        played_value,
        exact,
        book,
    }
}

/// Every legal move's value at `position`, best first, and whether they are
/// exact: solved within the exact range and node budget, else the trained
/// evaluation at the analysis's depth. The game analysis and the analysis
/// board's server search both value moves this way. Once `stop` is set
/// both give up early (the values are then partial; nobody reads them).
fn scored_moves(
    position: &Position,
    settings: AnalysisSettings,
    stop: Option<&AtomicBool>,
) -> (Vec<(Square, i32)>, bool) {
    if position.empty_count() <= settings.exact.empties {
        if let (Some(moves), _) = solve_moves_until(position, settings.exact.max_nodes, stop) {
            if !moves.is_empty() {
                return (moves, true);
            }
        }
    }
    (
        crate::discs::midgame_scores_until(position, settings.depth, stop),
        false,
    )
}

/// Every legal move's value at `position` as the analysis values a
/// placement — exact within the exact range and node budget, else the
/// trained evaluation at the analysis's depth — best first, the opening
/// book's moves marked (the analysis board's deeper search). A position
/// where the side to move must pass has no moves to value.
pub fn position_values(
    position: &Position,
    settings: AnalysisSettings,
) -> app::protocol::PositionValues {
    position_values_until(position, settings, None)
}

/// [`position_values`], stopped early once `stop` is set.
pub fn position_values_until(
    position: &Position,
    settings: AnalysisSettings,
    stop: Option<&AtomicBool>,
) -> app::protocol::PositionValues {
    let book: Vec<Square> = crate::book::book()
        .map(|b| {
            crate::book::book_moves(b, position)
                .iter()
                .map(|m| m.square)
                .collect()
        })
        .unwrap_or_default();
    let value = |square: Square, value: i32, exact: bool| app::protocol::PositionMove {
        square: square.index() as u8,
        value: value as f32,
        exact,
        book: book.contains(&square),
    };
    let (scores, exact) = scored_moves(position, settings, stop);
    app::protocol::PositionValues {
        moves: scores
            .into_iter()
            .map(|(s, v)| value(s, v, exact))
            .collect(),
        depth: if exact {
            position.empty_count()
        } else {
            settings.depth
        },
    }
}

/// How bad a loss (in discs) is. An estimate needs a larger loss than an
/// exact value for the same word: the search is within a couple of discs.
pub fn severity(loss: i32, exact: bool) -> Severity {
    let (inaccuracy, mistake, blunder) = if exact { (1, 4, 10) } else { (3, 6, 12) };
    if loss >= blunder {
        Severity::Blunder
    } else if loss >= mistake {
        Severity::Mistake
    } else if loss >= inaccuracy {
        Severity::Inaccuracy
    } else {
        Severity::Best
    }
}

fn rank(s: Severity) -> u8 {
    match s {
        Severity::Best => 0,
        Severity::Inaccuracy => 1,
        Severity::Mistake => 2,
        Severity::Blunder => 3,
    }
}

/// The placements of a game: the position before each and the square.
pub fn placements(game: &Game) -> Vec<(Position, Square)> {
    let mut position = *game.start();
    let mut out = Vec::new();
    for event in game.events() {
        match *event {
            GameEvent::Move { square, .. } => {
                out.push((position, square));
                match position.play(square) {
                    Ok(outcome) => position = outcome.position,
                    Err(_) => break,
                }
            }
            GameEvent::Pass { .. } => match position.pass() {
                Ok(next) => position = next,
                Err(_) => break,
            },
        }
    }
    out
}

/// The game's transcript (`f5d6…`), the key a stored result is checked by.
pub fn transcript(game: &Game) -> String {
    game.moves().iter().map(|s| s.to_string()).collect()
}

fn side(color: Color) -> Side {
    crate::table::side(color)
}

/// Builds the move entry of one analysed placement.
pub fn move_analysis(ply: u32, before: &Position, square: Square, v: PlyValues) -> MoveAnalysis {
    let loss = (v.best_value - v.played_value).max(0);
    let color = before.side_to_move;
    MoveAnalysis {
        ply,
        side: side(color),
        square: square.to_string(),
        best: if loss == 0 { square } else { v.best }.to_string(),
        best_value: v.best_value,
        played_value: v.played_value,
        loss,
        exact: v.exact,
        value_black: if color == Color::Black {
            v.played_value
        } else {
            -v.played_value
        },
        severity: severity(loss, v.exact),
        book: v.book,
    }
}

/// Puts the analysed moves together: worst mistakes and the opening.
pub fn assemble(moves: Vec<MoveAnalysis>, settings: AnalysisSettings) -> GameAnalysis {
    let mut worst: Vec<&MoveAnalysis> = moves
        .iter()
        .filter(|m| m.severity != Severity::Best)
        .collect();
    // Worst first: severity, then the discs lost.
    worst.sort_by(|a, b| {
        rank(b.severity)
            .cmp(&rank(a.severity))
            .then(b.loss.cmp(&a.loss))
            .then(a.ply.cmp(&b.ply))
    });
    let squares: Vec<&str> = moves.iter().map(|m| m.square.as_str()).collect();
    GameAnalysis {
        worst: worst.iter().take(WORST_LISTED).map(|m| m.ply).collect(),
        opening: app::openings::name_of_squares(&squares).map(|n| n.name),
        depth: settings.depth,
        exact_empties: settings.exact.empties,
        discs: true,
        moves,
        start: Vec::new(),
    }
}

/// Analyses a whole game on this thread (tests, the CLI-free path).
pub fn analyse_game(game: &Game, settings: AnalysisSettings) -> GameAnalysis {
    let moves = placements(game)
        .into_iter()
        .enumerate()
        .map(|(i, (before, square))| {
            move_analysis(
                i as u32 + 1,
                &before,
                square,
                analyse_ply(&before, square, settings),
            )
        })
        .collect();
    assemble(moves, settings)
}

/// The per-move loss section of an export.
pub fn export_section(analysis: &GameAnalysis) -> String {
    export_section_in(app::i18n::Lang::En, analysis)
}

/// [`export_section`] in `lang` (the language of the rest of the export).
pub fn export_section_in(lang: app::i18n::Lang, analysis: &GameAnalysis) -> String {
    use app::t;
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        t!(
            lang,
            "export-analysis-title",
            depth = analysis.depth,
            empties = analysis.exact_empties
        )
    );
    for m in &analysis.moves {
        let side = app::i18n::side_name(lang, m.side);
        let ply = format!("{:>2}", m.ply);
        let mut line = if m.exact {
            t!(
                lang,
                "export-analysis-move-exact",
                ply = ply,
                side = side,
                square = &m.square,
                loss = m.loss
            )
        } else {
            t!(
                lang,
                "export-analysis-move-search",
                ply = ply,
                side = side,
                square = &m.square,
                loss = m.loss
            )
        };
        if m.loss > 0 {
            line.push_str(&t!(lang, "export-analysis-best", square = &m.best));
        }
        let severity = match m.severity {
            Severity::Best => None,
            Severity::Inaccuracy => Some(t!(lang, "severity-inaccuracy")),
            Severity::Mistake => Some(t!(lang, "severity-mistake")),
            Severity::Blunder => Some(t!(lang, "severity-blunder")),
        };
        if let Some(severity) = severity {
            let _ = write!(line, " [{severity}]");
        }
        let _ = writeln!(out, "{line}");
    }
    if !analysis.worst.is_empty() {
        let list: Vec<String> = analysis
            .worst
            .iter()
            .filter_map(|ply| analysis.moves.iter().find(|m| m.ply == *ply))
            .map(|m| {
                format!(
                    "{}. {} {}",
                    m.ply,
                    app::i18n::side_name(lang, m.side),
                    m.square
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "{}",
            t!(lang, "export-analysis-worst", list = list.join("; "))
        );
    }
    out
}

// ---------------------------------------------------------------- service

#[derive(Clone, Debug)]
enum Progress {
    Running { done: u32, total: u32 },
    Failed(String),
}

struct Inner {
    store: Store,
    pool: AiPool,
    hub: crate::hub::Hub,
    lab: crate::lab::LabHub,
    clock: Arc<dyn crate::clock::Clock>,
    settings: AnalysisSettings,
    running: Mutex<HashMap<String, Progress>>,
}

/// The analysis service; cheap to clone.
#[derive(Clone)]
pub struct Analyses {
    inner: Arc<Inner>,
}

/// A finished (or not) game, named for storage.
struct Target {
    key: String,
    game: Game,
    over: bool,
}

impl Analyses {
    pub fn new(
        store: Store,
        hub: crate::hub::Hub,
        lab: crate::lab::LabHub,
        clock: Arc<dyn crate::clock::Clock>,
        settings: AnalysisSettings,
    ) -> Self {
        Analyses {
            inner: Arc::new(Inner {
                pool: hub.ai_pool(),
                store,
                hub,
                lab,
                clock,
                settings,
                running: Mutex::new(HashMap::new()),
            }),
        }
    }

    async fn target(&self, kind: GameKind, id: &str) -> Result<Target, CommandError> {
        if id.is_empty() || id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(CommandError::refused(app::msg!("srv-not-game-id")));
        }
        match kind {
            GameKind::Table => {
                let (round, game, over) = self.inner.hub.round_game(&TableId::new(id)).await?;
                Ok(Target {
                    key: format!("table:{id}:{round}"),
                    game,
                    over,
                })
            }
            GameKind::Lab => {
                let (game, over) = self.inner.lab.game_of(&LabId::new(id)).await?;
                Ok(Target {
                    key: format!("lab:{id}"),
                    game,
                    over,
                })
            }
            GameKind::Game => {
                let missing = || CommandError::not_found(app::msg!("srv-no-game"));
                let row = self
                    .inner
                    .store
                    .archived_game(id)
                    .await
                    .map_err(|e| {
                        tracing::error!("archive read for analysis: {e}");
                        CommandError::unavailable(app::msg!("srv-archive-unavailable"))
                    })?
                    .ok_or_else(missing)?;
                let start = engine::Position::from_obf(&row.start_obf).map_err(|_| missing())?;
                let moves = engine::parse_moves(&row.moves).map_err(|_| missing())?;
                let game = Game::replay_from(start, &moves).map_err(|_| missing())?;
                Ok(Target {
                    key: format!("game:{id}"),
                    game,
                    over: true,
                })
            }
        }
    }

    async fn stored(&self, target: &Target) -> Result<Option<GameAnalysis>, CommandError> {
        let row = self.inner.store.analysis(&target.key).await.map_err(|e| {
            tracing::error!("analysis storage error: {e}");
            CommandError::unavailable(app::msg!("srv-analysis-read-failed"))
        })?;
        Ok(row
            .filter(|(moves, _)| *moves == transcript(&target.game))
            .and_then(|(_, result)| serde_json::from_str::<GameAnalysis>(&result).ok())
            // Made before the values were discs: made again.
            .filter(|analysis| analysis.discs)
            // The position its moves replay from (the practice of one's
            // mistakes sets up the positions before them).
            .map(|analysis| GameAnalysis {
                start: target.game.start().to_cells().to_vec(),
                ..analysis
            }))
    }

    fn progress(&self, key: &str) -> Option<Progress> {
        self.inner
            .running
            .lock()
            .ok()
            .and_then(|r| r.get(key).cloned())
    }

    /// Where the analysis of a game stands.
    pub async fn get(&self, kind: GameKind, id: &str) -> Result<AnalysisView, CommandError> {
        let target = self.target(kind, id).await?;
        // The progress before the stored result: a run saves its result and
        // only then leaves `running`, so one that ends between the two reads
        // is found stored. (The other way round, a run ending between them
        // was in neither place: "none", and the page stopped polling.)
        let progress = self.progress(&target.key);
        if let Some(analysis) = self.stored(&target).await? {
            return Ok(AnalysisView::Ready { analysis });
        }
        Ok(match progress {
            Some(Progress::Running { done, total }) => AnalysisView::Running { done, total },
            Some(Progress::Failed(message)) => AnalysisView::Failed { message },
            None => AnalysisView::None {
                available: target.over,
            },
        })
    }

    /// Starts analysing a finished game (or answers the stored result).
    pub async fn start(&self, kind: GameKind, id: &str) -> Result<AnalysisView, CommandError> {
        self.start_counted(None, kind, id).await
    }

    /// `analysis_start`: as [`Analyses::start`], and an analysis it starts
    /// counts against the caller's session and address while it runs (429
    /// past either cap).
    pub async fn start_for(
        &self,
        caller: &crate::limits::Caller,
        kind: GameKind,
        id: &str,
    ) -> Result<AnalysisView, CommandError> {
        self.start_counted(Some(caller), kind, id).await
    }

    /// Whether the analysis stored as `key` is running now.
    pub fn is_running(&self, key: &str) -> bool {
        matches!(self.progress(key), Some(Progress::Running { .. }))
    }

    async fn start_counted(
        &self,
        caller: Option<&crate::limits::Caller>,
        kind: GameKind,
        id: &str,
    ) -> Result<AnalysisView, CommandError> {
        let target = self.target(kind, id).await?;
        if !target.over {
            return Err(CommandError::refused(app::msg!("srv-not-finished")));
        }
        if let Some(analysis) = self.stored(&target).await? {
            return Ok(AnalysisView::Ready { analysis });
        }
        let plies = placements(&target.game);
        let total = plies.len() as u32;
        let place = match caller {
            Some(caller) if !self.is_running(&target.key) => Some(
                self.inner
                    .hub
                    .limits()
                    .reserve(crate::limits::Kind::Analysis, caller, |key| {
                        self.is_running(key)
                    })
                    .map_err(CommandError::limited)?,
            ),
            _ => None,
        };
        {
            let mut running =
                self.inner.running.lock().map_err(|_| {
                    CommandError::unavailable(app::msg!("srv-analysis-unavailable"))
                })?;
            if let Some(Progress::Running { done, total }) = running.get(&target.key) {
                return Ok(AnalysisView::Running {
                    done: *done,
                    total: *total,
                });
            }
            let busy = running
                .values()
                .filter(|p| matches!(p, Progress::Running { .. }))
                .count();
            if busy >= MAX_RUNNING {
                // Busy, not broken: 429, try again later.
                return Err(CommandError::limited(app::msg!("srv-analysis-busy")));
            }
            running.insert(target.key.clone(), Progress::Running { done: 0, total });
        }
        if let Some(place) = place {
            place.keep(&target.key);
        }
        tracing::info!(game = %target.key, plies = total, "analysis started");
        // Its searches are the starter's: fair and capped per address.
        let (pool_key, pool_owner) = match caller {
            Some(caller) => (
                crate::ai::fairness_key(caller),
                caller.session.as_str().to_string(),
            ),
            None => ("analysis".to_string(), "analysis".to_string()),
        };
        let service = self.clone();
        tokio::spawn(async move {
            let key = target.key.clone();
            let outcome = service.run(&target, plies, &pool_key, &pool_owner).await;
            let mut running = match service.inner.running.lock() {
                Ok(r) => r,
                Err(_) => return,
            };
            match outcome {
                Ok(()) => {
                    running.remove(&key);
                    tracing::info!(game = %key, "analysis stored");
                }
                Err(message) => {
                    tracing::warn!(game = %key, "analysis failed: {message}");
                    running.insert(key, Progress::Failed(message));
                }
            }
        });
        Ok(AnalysisView::Running { done: 0, total })
    }

    async fn run(
        &self,
        target: &Target,
        plies: Vec<(Position, Square)>,
        pool_key: &str,
        pool_owner: &str,
    ) -> Result<(), String> {
        let settings = self.inner.settings;
        let total = plies.len() as u32;
        let mut moves = Vec::with_capacity(plies.len());
        // As many placements at once as the heavy lane has workers (one
        // each), taken back in order.
        let window = self.inner.pool.heavy_threads();
        let mut ahead = std::collections::VecDeque::with_capacity(window);
        let mut plies = plies.into_iter();
        for i in 0..plies.len() {
            while ahead.len() < window {
                let Some((before, square)) = plies.next() else {
                    break;
                };
                let receiver = loop {
                    match self.inner.pool.search(pool_key, pool_owner, move |stop| {
                        analyse_ply_until(&before, square, settings, stop)
                    }) {
                        Ok(receiver) => break receiver,
                        // The starter's share or the lane is full: let the
                        // other searches go first.
                        Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
                    }
                };
                ahead.push_back((before, square, receiver));
            }
            let Some((before, square, receiver)) = ahead.pop_front() else {
                break;
            };
            let values = receiver
                .await
                .map_err(|_| "the analysis worker stopped".to_string())?;
            moves.push(move_analysis(i as u32 + 1, &before, square, values));
            if let Ok(mut running) = self.inner.running.lock() {
                running.insert(
                    target.key.clone(),
                    Progress::Running {
                        done: i as u32 + 1,
                        total,
                    },
                );
            }
        }
        let analysis = assemble(moves, settings);
        let json = serde_json::to_string(&analysis).map_err(|e| e.to_string())?;
        self.inner
            .store
            .save_analysis(
                &target.key,
                &transcript(&target.game),
                &json,
                self.inner.clock.now_ms(),
            )
            .await
            .map_err(|e| format!("the result could not be stored: {e}"))
    }

    /// `analysis_position`: [`position_values`] of a position given as
    /// OBF, on the heavy lane under the caller's address (the pool's
    /// per-address and overall caps: 429 with a retry time past them),
    /// counted as one of the caller's running analyses while it searches
    /// (429 past the cap). Dropped before the answer (the request ended),
    /// the search is cancelled: never started if it still waited, else
    /// stopped within milliseconds. A malformed or impossible position is
    /// refused as a table's start would be.
    pub async fn position_values_for(
        &self,
        caller: &crate::limits::Caller,
        obf: &str,
    ) -> Result<app::protocol::PositionValues, CommandError> {
        let position = crate::table::playable_start(obf).map_err(CommandError::refused)?;
        // Held (not kept) while the search runs: dropped, it gives the place
        // back.
        let _place = self
            .inner
            .hub
            .limits()
            .reserve(crate::limits::Kind::Analysis, caller, |key| {
                self.is_running(key)
            })
            .map_err(CommandError::limited)?;
        let settings = self.inner.settings;
        let pending = self
            .inner
            .pool
            .search(
                &crate::ai::fairness_key(caller),
                caller.session.as_str(),
                move |stop| position_values_until(&position, settings, stop),
            )
            .map_err(crate::ai::QueueFull::into_error)?;
        pending
            .await
            .map_err(|_| CommandError::unavailable(app::msg!("srv-analysis-unavailable")))
    }

    /// The export section of a game's stored analysis, if any, in `lang`.
    pub async fn export_section(
        &self,
        kind: GameKind,
        id: &str,
        lang: app::i18n::Lang,
    ) -> Option<String> {
        let target = self.target(kind, id).await.ok()?;
        let analysis = self.stored(&target).await.ok()??;
        Some(export_section_in(lang, &analysis))
    }

    /// The stored analysis of a game, if any (JSON exports).
    pub async fn stored_of(&self, kind: GameKind, id: &str) -> Option<GameAnalysis> {
        let target = self.target(kind, id).await.ok()?;
        self.stored(&target).await.ok()?
    }
}

#[async_trait::async_trait]
impl AnalysisBackend for Analyses {
    async fn start(
        &self,
        caller: &app::api::backend::Caller,
        kind: GameKind,
        id: &str,
    ) -> Result<AnalysisView, CommandError> {
        Analyses::start_for(self, caller, kind, id).await
    }

    async fn get(&self, kind: GameKind, id: &str) -> Result<AnalysisView, CommandError> {
        Analyses::get(self, kind, id).await
    }

    async fn position_values(
        &self,
        caller: &app::api::backend::Caller,
        position: &str,
    ) -> Result<app::protocol::PositionValues, CommandError> {
        Analyses::position_values_for(self, caller, position).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(empties: u32) -> AnalysisSettings {
        AnalysisSettings {
            depth: 2,
            exact: ExactLimits {
                empties,
                max_nodes: u64::MAX,
            },
        }
    }

    /// A whole game where black always takes the first legal move and white
    /// the last one.
    fn played_game() -> Game {
        let mut game = Game::new();
        while !game.position().is_game_over() {
            let position = *game.position();
            let legal: Vec<Square> = position.legal_moves().iter().collect();
            let square = if position.side_to_move == Color::Black {
                legal[0]
            } else {
                legal[legal.len() - 1]
            };
            game.play(square).expect("legal");
        }
        game
    }

    #[test]
    fn every_placement_gets_a_loss_and_exact_values_at_the_end() {
        let game = played_game();
        let analysis = analyse_game(&game, settings(10));
        assert_eq!(analysis.moves.len(), game.moves().len());
        for m in &analysis.moves {
            assert!(m.loss >= 0);
            assert_eq!(m.loss, m.best_value - m.played_value, "{m:?}");
            assert_eq!(m.severity, severity(m.loss, m.exact));
            if m.loss == 0 {
                assert_eq!(m.severity, Severity::Best);
                assert_eq!(m.best, m.square);
            }
        }
        let placements = placements(&game);
        for (m, (before, _)) in analysis.moves.iter().zip(&placements) {
            assert_eq!(m.exact, before.empty_count() <= 10, "ply {}", m.ply);
            if m.exact {
                // The best exact value is the solver's value of the position.
                assert_eq!(m.best_value, engine::solve(before).score);
            }
        }
        // The last placement's value is the final result from its mover's side.
        let last = analysis.moves.last().expect("moves");
        let final_position = game.position();
        let mover = if last.side == Side::Black {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(last.played_value, final_position.final_score(mover));
        // The worst list is sorted by severity and only lists real losses.
        for ply in &analysis.worst {
            let m = analysis
                .moves
                .iter()
                .find(|m| m.ply == *ply)
                .expect("listed");
            assert_ne!(m.severity, Severity::Best);
        }
        let text = export_section(&analysis);
        assert!(
            text.contains(&format!("1. Black {} — loss", analysis.moves[0].square)),
            "{text}"
        );
    }

    #[test]
    fn book_moves_are_marked() {
        let book = crate::book::book().expect("the shipped book reads");
        // The strongest level's own line: every placement a book move while
        // the game is in the book, and marked so.
        let mut game = Game::new();
        for pick in 0..6u64 {
            let position = *game.position();
            let moves = crate::book::book_moves(book, &position);
            let Some(m) = moves.get(pick as usize % moves.len().max(1)).copied() else {
                break;
            };
            game.play(m.square).expect("legal");
        }
        let plies = game.moves().len();
        assert!(plies >= 2);
        let analysis = analyse_game(&game, settings(0));
        assert!(analysis.moves.iter().all(|m| m.book), "{analysis:?}");
        // A move the book does not play (worst by its values) is not marked.
        let start = Position::initial()
            .play(Square::new(37).expect("f5"))
            .expect("legal")
            .position;
        let worst = book.moves(&start).last().copied().expect("moves");
        let best = book.moves(&start).first().copied().expect("moves");
        let v = analyse_ply(&start, worst.square, settings(0));
        assert_eq!(
            v.book,
            best.value.centi - worst.value.centi <= crate::book::BOOK_WINDOW
        );
    }

    #[test]
    fn a_known_blunder_is_marked() {
        // The same position, the best move against a move that gives up the
        // most discs, solved exactly.
        let game = played_game();
        let (before, _) = placements(&game)
            .into_iter()
            .find(|(p, _)| p.empty_count() == 8 && p.legal_moves().count() >= 2)
            .expect("an 8-empty position with a choice");
        let (solved, _) = crate::lab::exact::solve_moves(&before, u64::MAX);
        let solved = solved.expect("solved");
        let (best, best_value) = solved[0];
        let (worst, worst_value) = solved[solved.len() - 1];
        let good = analyse_ply(&before, best, settings(20));
        assert_eq!(
            (good.best_value, good.played_value),
            (best_value, best_value)
        );
        let bad = analyse_ply(&before, worst, settings(20));
        assert!(bad.exact);
        assert_eq!(bad.played_value, worst_value);
        let entry = move_analysis(52, &before, worst, bad);
        assert_eq!(entry.loss, best_value - worst_value);
        assert_eq!(entry.severity, severity(best_value - worst_value, true));
    }

    #[test]
    fn severities_follow_the_thresholds() {
        assert_eq!(severity(0, true), Severity::Best);
        assert_eq!(severity(2, true), Severity::Inaccuracy);
        assert_eq!(severity(6, true), Severity::Mistake);
        assert_eq!(severity(20, true), Severity::Blunder);
        // Estimates (the midgame search) need a larger loss for each word.
        assert_eq!(severity(2, false), Severity::Best);
        assert_eq!(severity(3, false), Severity::Inaccuracy);
        assert_eq!(severity(8, false), Severity::Mistake);
        assert_eq!(severity(12, false), Severity::Blunder);
    }
}
