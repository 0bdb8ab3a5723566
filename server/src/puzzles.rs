//! Puzzles as the pages' [`PuzzleBackend`]: the set the server ships
//! (`puzzles/puzzles.jsonl`, made by `othello puzzles`, read once), which
//! puzzle to serve, and each move judged against the proved answer.
//! (Over 600 lines: the set, the service with its rating-gate verdicts and
//! sweeps, and their unit tests, ~150 lines.)
//!
//! The answer never leaves the server before the puzzle is over for that
//! solver: a request carries every move the player made in the puzzle (the
//! last one new), so the server keeps no state between moves: it replays
//! them from the start, the opponent's replies and any forced pass played in
//! between. When a try ends (solved or failed) its attempt is written before
//! the answer is sent, so a solver who has seen the answer can no longer be
//! rated on that puzzle.
//!
//! Whether a try moves ratings is the rating gate's decision
//! ([`crate::rating_gate`]): only an account's first answer at a puzzle the
//! site served it for rating (next, the puzzle of the day; noted in
//! `puzzle_served`) counts, as one Glicko-2 game between the player and the
//! puzzle (`store/puzzles.rs`). A puzzle opened by link or id, a streak, an
//! anonymous browser and a marked account change no rating. The first
//! [`OFFLINE_PACK`] puzzles of the file are the offline pack, whose answers
//! every visitor can download: they are never served for rating (next and
//! the puzzle of the day choose among the others) and their stored ratings
//! are reset at every start ([`Puzzles::unrate_pack`]).
//!
//! [`PuzzleBackend`]: app::puzzles::backend::PuzzleBackend

use crate::clock::Clock;
use crate::glicko::{Rating, START_DEVIATION, START_VOLATILITY};
use crate::store::Store;
use app::api::backend::Caller;
use app::api::CommandError;
use app::protocol::Side;
use app::puzzles::{
    Judged, PuzzleChoice, PuzzleSolution, PuzzleStep, PuzzleTry, PuzzleView, StepOutcome, Theme,
    Unrated,
};
use app::ratings::ShownRating;
use engine::{Color, Position, Square};
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock, RwLock};

/// The puzzles the server ships, one JSON object per line.
const SHIPPED: &str = include_str!("../../puzzles/puzzles.jsonl");

/// Moves one address may send in puzzles per minute.
pub const MOVES_PER_MINUTE: u32 = 120;
/// Tries listed in a player's history.
pub const HISTORY: i64 = 30;
/// How far from the player's rating a served puzzle may be chosen among
/// the closest untried ones.
const CLOSEST: usize = 12;
/// A streak's first puzzle's rating, and how much harder each next one is.
const STREAK_START: f64 = 1000.0;
const STREAK_STEP: f64 = 100.0;
const DAY_MS: i64 = 86_400_000;
/// The puzzles of the offline pack: the file's first ones (the site build
/// copies exactly these, `xtask`'s `OFFLINE_PUZZLES`, tested there).
pub const OFFLINE_PACK: usize = 500;
/// How long anonymous solvers' tries and served marks are kept.
pub const ANONYMOUS_DAYS: i64 = 30;

/// One line of the puzzle file (the generator's format, docs/ENGINE.md).
#[derive(Deserialize)]
struct Line {
    id: String,
    obf: String,
    line: Vec<String>,
    values: Vec<(String, f32)>,
    exact: bool,
    depth: Option<u32>,
    themes: Vec<String>,
    rating: f64,
    #[serde(default)]
    pv: Vec<String>,
}

/// A puzzle, read.
#[derive(Clone, Debug)]
pub struct Puzzle {
    pub id: String,
    pub start: Position,
    /// The moves to find and the opponent's replies, in order.
    pub line: Vec<Square>,
    /// Every legal move of the start with its value for the player, best first.
    pub values: Vec<(Square, f32)>,
    pub exact: bool,
    pub depth: Option<u32>,
    pub themes: Vec<Theme>,
    /// The generator's estimate of its rating.
    pub start_rating: f64,
    pub pv: Vec<Square>,
}

impl Puzzle {
    /// The side that plays the puzzle.
    pub fn side(&self) -> Color {
        self.start.side_to_move
    }

    /// How many of the line's moves are the player's.
    pub fn to_find(&self) -> u32 {
        app::puzzles::moves_to_find(self.start, &self.line)
    }
}

fn square(name: &str) -> Result<Square, String> {
    name.parse::<Square>()
        .map_err(|_| format!("not a square: {name}"))
}

fn index(square: Square) -> u8 {
    square.index() as u8
}

fn side_of(color: Color) -> Side {
    match color {
        Color::Black => Side::Black,
        Color::White => Side::White,
    }
}

/// The puzzles, in the file's order, with an index by id.
#[derive(Debug, Default)]
pub struct PuzzleSet {
    pub puzzles: Vec<Puzzle>,
    by_id: HashMap<String, usize>,
}

impl PuzzleSet {
    /// Reads the generator's JSON lines; a line that does not read as a
    /// puzzle whose line replays is an error (the shipped file is tested).
    pub fn parse(text: &str) -> Result<PuzzleSet, String> {
        let mut set = PuzzleSet::default();
        for (n, raw) in text.lines().enumerate() {
            if raw.trim().is_empty() {
                continue;
            }
            let at = |e: String| format!("line {}: {e}", n + 1);
            let line: Line = serde_json::from_str(raw).map_err(|e| at(e.to_string()))?;
            let start = Position::from_obf(&line.obf).map_err(|e| at(e.to_string()))?;
            let squares = |names: &[String]| -> Result<Vec<Square>, String> {
                names.iter().map(|n| square(n)).collect()
            };
            let values = line
                .values
                .iter()
                .map(|(name, value)| Ok((square(name)?, *value)))
                .collect::<Result<Vec<_>, String>>()
                .map_err(at)?;
            let puzzle = Puzzle {
                id: line.id.clone(),
                start,
                line: squares(&line.line).map_err(at)?,
                values,
                exact: line.exact,
                depth: line.depth,
                themes: line.themes.iter().filter_map(|t| Theme::parse(t)).collect(),
                start_rating: line.rating,
                pv: squares(&line.pv).map_err(at)?,
            };
            if puzzle.line.is_empty() || puzzle.to_find() == 0 {
                return Err(at("an empty line".into()));
            }
            if set.by_id.insert(line.id, set.puzzles.len()).is_some() {
                return Err(at("a repeated id".into()));
            }
            set.puzzles.push(puzzle);
        }
        Ok(set)
    }

    /// The puzzles this server ships.
    pub fn shipped() -> &'static PuzzleSet {
        static SET: OnceLock<PuzzleSet> = OnceLock::new();
        SET.get_or_init(|| {
            PuzzleSet::parse(SHIPPED).unwrap_or_else(|e| {
                tracing::error!("the shipped puzzles do not read: {e}");
                PuzzleSet::default()
            })
        })
    }

    pub fn get(&self, id: &str) -> Option<&Puzzle> {
        self.by_id.get(id).map(|&i| &self.puzzles[i])
    }

    /// The offline pack: the first [`OFFLINE_PACK`] puzzles.
    pub fn pack(&self) -> &[Puzzle] {
        &self.puzzles[..OFFLINE_PACK.min(self.puzzles.len())]
    }

    /// Whether `id` is in the offline pack.
    pub fn in_pack(&self, id: &str) -> bool {
        self.by_id.get(id).is_some_and(|&i| i < OFFLINE_PACK)
    }

    /// The puzzles the site serves for rating: all but the offline pack.
    pub fn served(&self) -> &[Puzzle] {
        &self.puzzles[OFFLINE_PACK.min(self.puzzles.len())..]
    }

    /// The puzzle of the day `day` (days since the Unix epoch, UTC): the
    /// same for everyone that day, never one of the offline pack.
    pub fn daily(&self, day: i64) -> Option<&Puzzle> {
        let served = self.served();
        if served.is_empty() {
            return None;
        }
        let hash = engine::pattern::fnv1a64(format!("othello3d-daily-{day}").as_bytes());
        Some(&served[(hash % served.len() as u64) as usize])
    }
}

/// Replays the player's `moves` along `puzzle`'s line ([`app::puzzles::judge`]).
pub fn judge(puzzle: &Puzzle, moves: &[Square]) -> Result<Judged, Option<Square>> {
    app::puzzles::judge(puzzle.start, &puzzle.line, moves)
}

/// The puzzle service.
#[derive(Clone)]
pub struct Puzzles {
    inner: Arc<Inner>,
}

struct Inner {
    set: &'static PuzzleSet,
    store: Store,
    clock: Arc<dyn Clock>,
    /// Puzzles' current ratings once tried (read from the store once, then
    /// kept up to date by this instance's tries).
    ratings: RwLock<Option<HashMap<String, f64>>>,
    /// Moves per address in the current minute.
    moves: Mutex<HashMap<String, (u32, i64)>>,
}

fn unavailable(error: crate::store::StoreError) -> CommandError {
    tracing::error!("puzzle store: {error}");
    CommandError::unavailable(app::msg!("srv-puzzles-unavailable"))
}

impl Puzzles {
    pub fn new(store: Store, clock: Arc<dyn Clock>) -> Puzzles {
        Puzzles::with_set(PuzzleSet::shipped(), store, clock)
    }

    pub fn with_set(set: &'static PuzzleSet, store: Store, clock: Arc<dyn Clock>) -> Puzzles {
        Puzzles {
            inner: Arc::new(Inner {
                set,
                store,
                clock,
                ratings: RwLock::new(None),
                moves: Mutex::new(HashMap::new()),
            }),
        }
    }

    fn now(&self) -> i64 {
        self.inner.clock.now_ms()
    }

    /// Whether the set has a puzzle `id` (`/puzzles/<id>` of another is a 404).
    pub fn has(&self, id: &str) -> bool {
        self.inner.set.get(id).is_some()
    }

    async fn ratings(&self) -> Result<HashMap<String, f64>, CommandError> {
        if let Some(known) = self.inner.ratings.read().ok().and_then(|r| r.clone()) {
            return Ok(known);
        }
        let read: HashMap<String, f64> = self
            .inner
            .store
            .puzzle_ratings()
            .await
            .map_err(unavailable)?
            .into_iter()
            .collect();
        if let Ok(mut slot) = self.inner.ratings.write() {
            *slot = Some(read.clone());
        }
        Ok(read)
    }

    fn rating_of(ratings: &HashMap<String, f64>, puzzle: &Puzzle) -> f64 {
        ratings
            .get(&puzzle.id)
            .copied()
            .unwrap_or(puzzle.start_rating)
    }

    async fn solver_rating(&self, solver: &str) -> Result<(f64, f64), CommandError> {
        Ok(self
            .inner
            .store
            .puzzle_solver(solver)
            .await
            .map_err(unavailable)?
            .map_or((crate::glicko::START_RATING, START_DEVIATION), |r| {
                (r.rating, r.deviation)
            }))
    }

    /// Counts a move from `caller`'s address; false past the minute's cap.
    fn count_move(&self, caller: &Caller) -> bool {
        let Some(address) = caller.address else {
            return true;
        };
        let now = self.now();
        let Ok(mut moves) = self.inner.moves.lock() else {
            return true;
        };
        if moves.len() > 10_000 {
            moves.retain(|_, (_, since)| now - *since < 60_000);
        }
        let entry = moves.entry(address.to_string()).or_insert((0, now));
        if now - entry.1 >= 60_000 {
            *entry = (0, now);
        }
        entry.0 += 1;
        entry.0 <= MOVES_PER_MINUTE
    }

    fn not_found() -> CommandError {
        CommandError::not_found(app::msg!("srv-no-such-puzzle"))
    }

    async fn puzzle(
        &self,
        caller: &Caller,
        choice: PuzzleChoice,
    ) -> Result<PuzzleView, CommandError> {
        let solver = caller.session.as_str();
        let set = self.inner.set;
        let today = set.daily(self.now().div_euclid(DAY_MS));
        let ratings = self.ratings().await?;
        let tried: HashSet<String> = self
            .inner
            .store
            .puzzles_tried(solver)
            .await
            .map_err(unavailable)?
            .into_iter()
            .collect();
        let (mine, deviation) = self.solver_rating(solver).await?;
        let chosen = match &choice {
            PuzzleChoice::Id { id } => set.get(id).ok_or_else(Self::not_found)?,
            PuzzleChoice::Daily => today.ok_or_else(Self::not_found)?,
            PuzzleChoice::Next { theme } => {
                let near = |p: &&Puzzle| theme.is_none_or(|t| p.themes.contains(&t));
                self.closest(&ratings, &tried, mine, near)
                    .ok_or_else(Self::not_found)?
            }
            PuzzleChoice::Streak { n } => {
                let target = STREAK_START + STREAK_STEP * f64::from((*n).min(16));
                self.closest(&ratings, &tried, target, |_| true)
                    .ok_or_else(Self::not_found)?
            }
        };
        let account = crate::identity::account_of(&caller.session);
        // Served for rating: next, daily and streak mark it for an account
        // (a puzzle opened by id is rated only if it was served before).
        if account.is_some()
            && !matches!(choice, PuzzleChoice::Id { .. })
            && !set.in_pack(&chosen.id)
        {
            self.inner
                .store
                .mark_puzzle_served(solver, &chosen.id, self.now())
                .await
                .map_err(unavailable)?;
        }
        let verdict = self
            .verdict(caller, &chosen.id, tried.contains(&chosen.id), false)
            .await?;
        Ok(PuzzleView {
            unrated: verdict.err(),
            id: chosen.id.clone(),
            cells: chosen.start.to_cells().to_vec(),
            side: side_of(chosen.side()),
            legal: chosen.start.legal_moves().iter().map(index).collect(),
            to_find: chosen.to_find(),
            rating: Self::rating_of(&ratings, chosen).round() as i32,
            exact: chosen.exact,
            depth: chosen.depth,
            daily: today.is_some_and(|d| d.id == chosen.id),
            you: ShownRating::new(mine, deviation),
            tried: tried.contains(&chosen.id),
        })
    }

    /// An untried puzzle (any, when every one was tried) among the
    /// [`CLOSEST`] to `target`, chosen at random.
    fn closest<'s>(
        &'s self,
        ratings: &HashMap<String, f64>,
        tried: &HashSet<String>,
        target: f64,
        keep: impl Fn(&&Puzzle) -> bool,
    ) -> Option<&'s Puzzle> {
        use rand::Rng;
        let kept: Vec<&Puzzle> = self.inner.set.served().iter().filter(keep).collect();
        let untried: Vec<&Puzzle> = kept
            .iter()
            .copied()
            .filter(|p| !tried.contains(&p.id))
            .collect();
        let mut pool = if untried.is_empty() { kept } else { untried };
        pool.sort_by(|a, b| {
            let da = (Self::rating_of(ratings, a) - target).abs();
            let db = (Self::rating_of(ratings, b) - target).abs();
            da.total_cmp(&db).then(a.id.cmp(&b.id))
        });
        pool.truncate(CLOSEST);
        if pool.is_empty() {
            return None;
        }
        Some(pool[rand::thread_rng().gen_range(0..pool.len())])
    }

    async fn puzzle_move(
        &self,
        caller: &Caller,
        id: String,
        moves: Vec<u8>,
        streak: bool,
    ) -> Result<PuzzleStep, CommandError> {
        if !self.count_move(caller) {
            return Err(CommandError::limited(app::msg!("srv-puzzle-limit")));
        }
        let puzzle = self.inner.set.get(&id).ok_or_else(Self::not_found)?;
        if moves.is_empty() || moves.len() > puzzle.to_find() as usize {
            return Err(CommandError::refused(app::msg!("srv-puzzle-moves")));
        }
        let squares = moves
            .iter()
            .map(|&m| Square::new(usize::from(m)))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| CommandError::refused(app::msg!("srv-puzzle-moves")))?;
        let judged = judge(puzzle, &squares).map_err(|refused| match refused {
            Some(square) => {
                CommandError::refused(app::msg!("srv-puzzle-illegal", square = square.to_string()))
            }
            None => CommandError::refused(app::msg!("srv-puzzle-moves")),
        })?;
        let mut step = PuzzleStep::of(judged, || PuzzleSolution {
            values: puzzle.values.iter().map(|&(s, v)| (index(s), v)).collect(),
            exact: puzzle.exact,
            line: puzzle.line.iter().copied().map(index).collect(),
            pv: puzzle.pv.iter().copied().map(index).collect(),
            themes: puzzle.themes.clone(),
        });
        step.streak = streak;
        if step.solution.is_some() {
            let answered = self
                .inner
                .store
                .puzzle_answered(caller.session.as_str(), &puzzle.id)
                .await
                .map_err(unavailable)?;
            let verdict = self.verdict(caller, &puzzle.id, answered, streak).await?;
            let start = Rating {
                rating: puzzle.start_rating,
                deviation: START_DEVIATION,
                volatility: START_VOLATILITY,
            };
            let solved = step.outcome == StepOutcome::Solved;
            let tried = self
                .inner
                .store
                .record_puzzle_try(
                    caller.session.as_str(),
                    &puzzle.id,
                    start,
                    solved,
                    verdict.is_ok(),
                    self.now(),
                )
                .await
                .map_err(unavailable)?;
            step.unrated = match (&verdict, &tried) {
                (Err(why), _) => Some(*why),
                // Answered by a racing request first.
                (Ok(()), None) => Some(Unrated::Answered),
                (Ok(()), Some(_)) => None,
            };
            if let Some(result) = tried.filter(|_| verdict.is_ok()) {
                if let Ok(mut slot) = self.inner.ratings.write() {
                    if let Some(known) = slot.as_mut() {
                        known.insert(puzzle.id.clone(), result.puzzle_after.rating);
                    }
                }
                step.rated = Some((
                    ShownRating::new(result.after.rating, result.after.deviation),
                    (result.after.rating.round() - result.before.rating.round()) as i32,
                ));
            }
        }
        Ok(step)
    }

    /// The rating gate's verdict on a try by `caller` at `id` (`answered`:
    /// they answered it before; `streak`: a streak's try), as the page
    /// words it.
    async fn verdict(
        &self,
        caller: &Caller,
        id: &str,
        answered: bool,
        streak: bool,
    ) -> Result<Result<(), Unrated>, CommandError> {
        use crate::rating_gate::{gate, Facts, Refusal};
        let solver = caller.session.as_str();
        let account = crate::identity::account_of(&caller.session);
        let (abuser, served) = match account {
            Some(account) => (
                self.inner
                    .store
                    .is_abuser(account)
                    .await
                    .map_err(unavailable)?,
                !self.inner.set.in_pack(id)
                    && self
                        .inner
                        .store
                        .puzzle_was_served(solver, id)
                        .await
                        .map_err(unavailable)?,
            ),
            None => (false, false),
        };
        let facts = Facts::puzzle(account.is_some(), abuser, served && !streak, !answered);
        Ok(gate(facts).map_err(|why| match why {
            Refusal::Anonymous => Unrated::SignedOut,
            Refusal::Abuser => Unrated::Marked,
            Refusal::NotServed if streak => Unrated::Streak,
            Refusal::NotServed => Unrated::NotServed,
            Refusal::Answered | Refusal::Linked | Refusal::Aborted => Unrated::Answered,
        }))
    }

    /// Resets the offline pack's stored ratings and unrates its tries (see
    /// [`Store::unrate_puzzles`]); called at every start.
    pub async fn unrate_pack(&self) -> Result<u64, crate::store::StoreError> {
        let ids: Vec<String> = self.inner.set.pack().iter().map(|p| p.id.clone()).collect();
        let changed = self.inner.store.unrate_puzzles(&ids).await?;
        if let Ok(mut slot) = self.inner.ratings.write() {
            *slot = None;
        }
        Ok(changed)
    }

    /// Forgets anonymous solvers' tries and old served marks (older than
    /// [`ANONYMOUS_DAYS`]); the sweeper calls it with the other anonymous data.
    pub async fn expire(&self) -> Result<u64, crate::store::StoreError> {
        self.inner
            .store
            .expire_puzzle_data(self.now() - ANONYMOUS_DAYS * DAY_MS)
            .await
    }

    async fn history(&self, caller: &Caller) -> Result<Vec<PuzzleTry>, CommandError> {
        let rows = self
            .inner
            .store
            .puzzle_history(caller.session.as_str(), HISTORY)
            .await
            .map_err(unavailable)?;
        Ok(rows
            .into_iter()
            .map(|row| PuzzleTry {
                id: row.puzzle_id,
                solved: row.solved != 0,
                rating: match (row.rating_before, row.rating_after) {
                    (Some(before), Some(after)) if row.rated != 0 => Some((
                        after.round() as i32,
                        (after.round() - before.round()) as i32,
                    )),
                    _ => None,
                },
                at: row.at,
            })
            .collect())
    }
}

#[async_trait::async_trait]
impl app::puzzles::backend::PuzzleBackend for Puzzles {
    async fn puzzle(
        &self,
        caller: &Caller,
        choice: PuzzleChoice,
    ) -> Result<PuzzleView, CommandError> {
        Puzzles::puzzle(self, caller, choice).await
    }

    async fn puzzle_move(
        &self,
        caller: &Caller,
        id: String,
        moves: Vec<u8>,
        streak: bool,
    ) -> Result<PuzzleStep, CommandError> {
        Puzzles::puzzle_move(self, caller, id, moves, streak).await
    }

    async fn puzzle_history(&self, caller: &Caller) -> Result<Vec<PuzzleTry>, CommandError> {
        Puzzles::history(self, caller).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-made two-move puzzle line from the start: black f5, white d6,
    /// black c3 (not a real puzzle: it tests the replay).
    fn sample() -> Puzzle {
        let sq = |n: &str| n.parse::<Square>().unwrap();
        Puzzle {
            id: "t1".into(),
            start: Position::initial(),
            line: vec![sq("f5"), sq("d6"), sq("c3")],
            values: vec![(sq("f5"), 2.0), (sq("d3"), -2.0)],
            exact: true,
            depth: None,
            themes: vec![Theme::Exact],
            start_rating: 1500.0,
            pv: vec![],
        }
    }

    #[test]
    fn moves_are_judged_along_the_line_with_the_replies_between() {
        let p = sample();
        let sq = |n: &str| n.parse::<Square>().unwrap();
        assert_eq!(p.to_find(), 2);
        match judge(&p, &[sq("f5")]).unwrap() {
            Judged::Going(pos, reply) => {
                assert_eq!(reply, Some(sq("d6")));
                assert_eq!(pos.side_to_move, Color::Black);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            judge(&p, &[sq("f5"), sq("c3")]).unwrap(),
            Judged::Solved(_)
        ));
        assert!(matches!(judge(&p, &[sq("d3")]).unwrap(), Judged::Failed(_)));
        assert!(matches!(
            judge(&p, &[sq("f5"), sq("c5")]).unwrap(),
            Judged::Failed(_)
        ));
        // Not legal where played: refused, naming the square.
        assert_eq!(judge(&p, &[sq("a1")]), Err(Some(sq("a1"))));
        // More moves than the puzzle asks.
        assert_eq!(
            judge(&p, &[sq("f5"), sq("c3"), sq("a1")]),
            Err(Some(sq("a1")))
        );
    }

    #[test]
    fn the_shipped_puzzles_read_and_the_daily_one_is_the_same_all_day() {
        let set = PuzzleSet::parse(SHIPPED).expect("the shipped file reads");
        assert!(!set.puzzles.is_empty());
        let day = 20_000;
        assert_eq!(set.daily(day).map(|p| &p.id), set.daily(day).map(|p| &p.id));
        for p in &set.puzzles {
            assert!(p.to_find() >= 1, "{}", p.id);
            assert!(
                matches!(judge(p, &first_moves(p)), Ok(Judged::Solved(_))),
                "{}: the line solves",
                p.id
            );
            assert!(p.start.legal_moves().count() >= 3, "{}", p.id);
        }
    }

    /// The player's moves of a puzzle's line.
    fn first_moves(p: &Puzzle) -> Vec<Square> {
        let mut pos = p.start;
        let mut mine = Vec::new();
        for &s in &p.line {
            pos = app::puzzles::forced_passes(pos);
            if pos.side_to_move == p.side() {
                mine.push(s);
            }
            pos = pos.play(s).unwrap().position;
        }
        mine
    }
}
