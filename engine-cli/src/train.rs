//! Training of the pattern evaluation (`othello train`), reproducible from
//! a seed whatever the number of threads.
//!
//! (Over 600 lines: the self-play, the label store, the fits and the stage
//! loop are one pipeline whose parts share its settings.)
//!
//! 1. **Positions.** `games` self-play games: game `g` uses its own random
//!    generator (SplitMix64 of `seed` and `g`); the first `k` plies are
//!    random (`k` uniform in 4..=20), then the play AI at depth 2 plays,
//!    with a random move instead 15 % of the time. Every position in which
//!    the side to move has a move is kept (about 4 per stage per game).
//! 2. **Labels, stage by stage from the end.** A position with at most
//!    `exact_empties` empties is labelled with the exact solver; a later
//!    one with the mean of a `label_depth`-ply and a `label_depth + 1`-ply
//!    α–β search whose leaves are scored by the stages already trained
//!    (Buro's bootstrapping: the leaves are at least one stage lower, since
//!    `label_depth` ≥ the stage width). Two depths of both parities: a
//!    side-to-move bias `b` of the lower stages reads `+b` at the leaves of
//!    an even-depth search and `−b` at an odd depth's, so the mean cancels
//!    it instead of passing it on (and adding to it) stage after stage; with
//!    one even depth the start position read ±5–6 discs by the parity of the
//!    search depth (docs/ENGINE.md). `label_parities: 1` gives the old
//!    single-depth labels.
//! 3. **Fit.** Each stage is a ridge regression on the sparse features
//!    (one weight per canonical pattern entry), solved by conjugate
//!    gradients on the normal equations, regularised towards the previous
//!    (lower) stage's weights; the training split also takes the two
//!    latest empties counts of the stage below. Games with `g % 10 == 1` are the validation
//!    set (choosing the ridge strength among a few), games with
//!    `g % 10 == 0` the test set (the reported errors); the rest train.
//!    Options for experiments: the ridge strengths tried (`lambdas`), how
//!    much of the stage below joins a stage's training split (`below`), a
//!    Huber loss (`huber`), and training only stages `0..=max_stage` with
//!    the others taken from a `base` weights file.

use engine::pattern::{self, feature_entries, stage_len, stage_of, FEATURE_COUNT, STAGE_COUNT};
use engine::{fixed_depth_value, search, solve_with, PatternWeights, Position, SolveOptions};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Training settings (`othello train` options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainConfig {
    /// Seed of everything random.
    pub seed: u64,
    /// Self-play games (≈ 4 positions per stage each).
    pub games: usize,
    /// Worker threads.
    pub threads: usize,
    /// Positions with at most this many empties get exact labels.
    pub exact_empties: u32,
    /// Depth of the bootstrapping searches for later positions.
    pub label_depth: u32,
    /// Conjugate-gradient iterations per fit.
    pub iterations: usize,
    /// 2: bootstrapped labels are the mean of the `label_depth` and
    /// `label_depth + 1` searches (both parities); 1: the `label_depth`
    /// search alone.
    pub label_parities: u32,
    /// Where labels are kept as they are computed (`--resume DIR`): a run
    /// stopped part-way and started again with the same settings and code
    /// reads them back and labels only the rest.
    pub resume: Option<PathBuf>,
    /// Train stages `0..=max_stage` only (the others stay untrained).
    pub max_stage: usize,
    /// Ridge strengths tried per stage (the validation set picks one).
    pub lambdas: Vec<u32>,
    /// The training split of a stage also takes this many of the latest
    /// empties counts of the stage below.
    pub below: u32,
    /// Weights file whose stages fill those this run does not train
    /// (`othello train --base FILE`, with `max_stage`).
    pub base: Option<PathBuf>,
    /// Huber loss threshold in discs (0: least squares), fitted by
    /// `huber_rounds` reweighted least-squares rounds.
    pub huber: u32,
    /// Reweighting rounds of the Huber fit.
    pub huber_rounds: u32,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            seed: 1,
            games: 4000,
            threads: 2,
            exact_empties: 16,
            label_depth: 4,
            iterations: 120,
            label_parities: 2,
            resume: None,
            max_stage: STAGE_COUNT - 1,
            lambdas: vec![8, 32, 128, 512],
            below: 2,
            base: None,
            huber: 0,
            huber_rounds: 3,
        }
    }
}

/// SplitMix64.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed and a stream number.
    #[must_use]
    pub fn new(seed: u64, stream: u64) -> Rng {
        let mut r = Rng(seed ^ stream.wrapping_mul(0xA076_1D64_78BD_642F));
        r.next_u64();
        r
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// A random legal move of `pos` (which must have one).
fn random_move(pos: &Position, rng: &mut Rng) -> Option<engine::Square> {
    let moves: Vec<_> = pos.legal_moves().iter().collect();
    if moves.is_empty() {
        return None;
    }
    Some(moves[rng.below(moves.len() as u64) as usize])
}

/// The positions (side to move has a move) of self-play game `g` of `seed`.
#[must_use]
pub fn self_play_game(seed: u64, g: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed, g);
    let random_plies = 4 + rng.below(17) as u32;
    let mut pos = Position::initial();
    let mut out = Vec::new();
    let mut ply = 0;
    loop {
        if pos.is_game_over() {
            break;
        }
        if pos.legal_moves().is_empty() {
            pos = match pos.pass() {
                Ok(p) => p,
                Err(_) => break,
            };
            continue;
        }
        out.push(pos);
        let mv = if ply < random_plies || rng.below(100) < 15 {
            random_move(&pos, &mut rng)
        } else {
            search(&pos, 2).best_move
        };
        let Some(mv) = mv else { break };
        pos = match pos.play(mv) {
            Ok(o) => o.position,
            Err(_) => break,
        };
        ply += 1;
    }
    out
}

/// Runs `f(i)` for `i` in `0..n` on `threads` threads; results in index
/// order (so they do not depend on the thread count).
pub fn parallel_map<T: Send>(n: usize, threads: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<T>>> = Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let v = f(i);
                if let Ok(mut s) = slots.lock() {
                    s[i] = Some(v);
                }
            });
        }
    });
    slots
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect()
}

/// A label: the value trained on, the two searches' values (equal for an
/// exact label), and whether it is exact.
type Label = (f32, [f32; 2], bool);

/// Labels computed between two writes to the label store.
const LABEL_CHUNK: usize = 8192;

/// One stage's labels on disk (`DIR/stage-NN.labels`): a header naming the
/// settings they were computed with, then 13 bytes per label in sample
/// order. Labels depend only on the settings (not the thread count), so a
/// file whose header matches holds the first labels of this run; a torn
/// last record is dropped.
struct LabelStore {
    path: PathBuf,
    file: File,
    labels: Vec<Label>,
}

const LABEL_RECORD: usize = 13;

impl LabelStore {
    /// A stage whose labels are all exact (every empties count ≤
    /// `exact_empties`) depends on neither the searches nor the fits, so
    /// its header leaves their settings out (the fit can change between
    /// runs that share the labels).
    fn header(cfg: &TrainConfig, stage: usize, samples: usize) -> String {
        let last = stage as u32 * pattern::STAGE_WIDTH + pattern::STAGE_WIDTH - 1;
        if last <= cfg.exact_empties {
            return format!(
                "othello-train-labels v1 seed={} games={} exact_empties={} stage={stage} samples={samples}\n",
                cfg.seed, cfg.games, cfg.exact_empties
            );
        }
        format!(
            "othello-train-labels v1 seed={} games={} exact_empties={} label_depth={} label_parities={} iterations={} lambdas={:?} below={} huber={}/{} stage={stage} samples={samples}\n",
            cfg.seed, cfg.games, cfg.exact_empties, cfg.label_depth, cfg.label_parities, cfg.iterations, cfg.lambdas, cfg.below, cfg.huber, cfg.huber_rounds
        )
    }

    fn open(
        dir: &Path,
        cfg: &TrainConfig,
        stage: usize,
        samples: usize,
    ) -> std::io::Result<LabelStore> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join(format!("stage-{stage:02}.labels"));
        let header = Self::header(cfg, stage, samples);
        let mut bytes = Vec::new();
        if let Ok(mut existing) = File::open(&path) {
            existing.read_to_end(&mut bytes)?;
        }
        let mut labels = Vec::new();
        let file = if bytes.starts_with(header.as_bytes()) {
            let body = &bytes[header.len()..];
            let whole = (body.len() / LABEL_RECORD).min(samples);
            for record in body[..whole * LABEL_RECORD].chunks_exact(LABEL_RECORD) {
                let f = |k: usize| {
                    f32::from_le_bytes([record[k], record[k + 1], record[k + 2], record[k + 3]])
                };
                labels.push((f(0), [f(4), f(8)], record[12] != 0));
            }
            let file = OpenOptions::new().write(true).open(&path)?;
            file.set_len((header.len() + whole * LABEL_RECORD) as u64)?;
            drop(file);
            OpenOptions::new().append(true).open(&path)?
        } else {
            // Absent, or another run's: start it afresh.
            let mut file = File::create(&path)?;
            file.write_all(header.as_bytes())?;
            file
        };
        Ok(LabelStore { path, file, labels })
    }

    fn append(&mut self, chunk: &[Label]) -> std::io::Result<()> {
        let mut bytes = Vec::with_capacity(chunk.len() * LABEL_RECORD);
        for &(label, [a, b], exact) in chunk {
            bytes.extend_from_slice(&label.to_le_bytes());
            bytes.extend_from_slice(&a.to_le_bytes());
            bytes.extend_from_slice(&b.to_le_bytes());
            bytes.push(u8::from(exact));
        }
        self.labels.extend_from_slice(chunk);
        self.file.write_all(&bytes)?;
        self.file.sync_data()
    }
}

/// One training example.
#[derive(Clone, Copy, Debug)]
struct Sample {
    pos: Position,
    game: u32,
    label: f32,
}

/// Held-out errors of one stage, in discs.
#[derive(Clone, Copy, Debug, Default)]
pub struct StageFit {
    /// Stage number.
    pub stage: usize,
    /// Training / validation / test positions.
    pub counts: [usize; 3],
    /// Ridge strength chosen on the validation set.
    pub lambda: f64,
    /// Mean absolute error and RMSE on the training set.
    pub train: (f64, f64),
    /// Mean absolute error and RMSE on the test set.
    pub test: (f64, f64),
    /// How many labels were exact (solver) rather than bootstrapped.
    pub exact_labels: usize,
    /// Seconds spent labelling (wall).
    pub label_secs: f64,
}

/// Features of a sample: canonical entries.
fn rows(samples: &[Sample]) -> Vec<[u32; FEATURE_COUNT]> {
    samples
        .iter()
        .map(|s| {
            let mut f = [0u32; FEATURE_COUNT];
            feature_entries(s.pos.player().0, s.pos.opponent().0, &mut f);
            for x in &mut f {
                *x = pattern::canonical_entry(*x as usize) as u32;
            }
            f
        })
        .collect()
}

fn predict(w: &[f64], row: &[u32; FEATURE_COUNT]) -> f64 {
    row.iter().map(|&i| w[i as usize]).sum()
}

fn errors(w: &[f64], rows: &[[u32; FEATURE_COUNT]], labels: &[f32]) -> (f64, f64) {
    if rows.is_empty() {
        return (0.0, 0.0);
    }
    let (mut a, mut s) = (0.0, 0.0);
    for (r, &y) in rows.iter().zip(labels) {
        let e = predict(w, r) - f64::from(y);
        a += e.abs();
        s += e * e;
    }
    let n = rows.len() as f64;
    (a / n, (s / n).sqrt())
}

/// Ridge regression towards `w0`: minimises Σ (y − A w)² + λ ‖w − w0‖²
/// by conjugate gradients on the normal equations.
fn ridge(
    rows: &[[u32; FEATURE_COUNT]],
    labels: &[f32],
    w0: &[f64],
    lambda: f64,
    iterations: usize,
) -> Vec<f64> {
    weighted_ridge(rows, labels, None, w0, lambda, iterations)
}

/// [`ridge`] with a weight per sample (`None`: all 1): minimises
/// Σ cᵢ (yᵢ − Aᵢ w)² + λ ‖w − w0‖².
fn weighted_ridge(
    rows: &[[u32; FEATURE_COUNT]],
    labels: &[f32],
    sample_weights: Option<&[f64]>,
    w0: &[f64],
    lambda: f64,
    iterations: usize,
) -> Vec<f64> {
    let n = w0.len();
    let c = |k: usize| sample_weights.map_or(1.0, |sw| sw[k]);
    // Only entries that occur move; the others keep w0.
    let apply = |v: &[f64], out: &mut Vec<f64>| {
        // out = (AᵀCA + λI) v
        out.iter_mut().for_each(|x| *x = 0.0);
        for (k, r) in rows.iter().enumerate() {
            let s = predict(v, r) * c(k);
            for &i in r {
                out[i as usize] += s;
            }
        }
        for (o, x) in out.iter_mut().zip(v) {
            *o += lambda * x;
        }
    };
    // b = Aᵀ (y − A w0)
    let mut b = vec![0.0; n];
    for (k, (r, &y)) in rows.iter().zip(labels).enumerate() {
        let e = (f64::from(y) - predict(w0, r)) * c(k);
        for &i in r {
            b[i as usize] += e;
        }
    }
    let mut d = vec![0.0; n];
    let mut res = b.clone();
    let mut dir = res.clone();
    let mut rr: f64 = res.iter().map(|x| x * x).sum();
    let mut q = vec![0.0; n];
    for _ in 0..iterations {
        if rr < 1e-12 {
            break;
        }
        apply(&dir, &mut q);
        let dq: f64 = dir.iter().zip(&q).map(|(a, b)| a * b).sum();
        if dq <= 0.0 {
            break;
        }
        let step = rr / dq;
        for i in 0..n {
            d[i] += step * dir[i];
            res[i] -= step * q[i];
        }
        let rr2: f64 = res.iter().map(|x| x * x).sum();
        let beta = rr2 / rr;
        rr = rr2;
        for i in 0..n {
            dir[i] = res[i] + beta * dir[i];
        }
    }
    w0.iter().zip(&d).map(|(a, b)| a + b).collect()
}

/// The result of a training run.
pub struct Trained {
    /// The weights.
    pub weights: PatternWeights,
    /// Per trained stage, its fit figures.
    pub fits: Vec<StageFit>,
    /// Positions generated (all stages).
    pub positions: usize,
}

/// Runs the whole training; `log` receives progress lines.
pub fn train(cfg: &TrainConfig, log: &mut dyn FnMut(&str)) -> Trained {
    let t0 = Instant::now();
    let games = parallel_map(cfg.games, cfg.threads, |g| {
        self_play_game(cfg.seed, g as u64)
    });
    let mut by_stage: Vec<Vec<Sample>> = vec![Vec::new(); STAGE_COUNT];
    let mut positions = 0;
    for (g, game) in games.iter().enumerate() {
        for pos in game {
            by_stage[stage_of(pos.empty_count())].push(Sample {
                pos: *pos,
                game: g as u32,
                label: 0.0,
            });
            positions += 1;
        }
    }
    log(&format!(
        "generated {} games, {positions} positions in {:.1}s; per stage {:?}",
        cfg.games,
        t0.elapsed().as_secs_f64(),
        by_stage.iter().map(Vec::len).collect::<Vec<_>>()
    ));
    let len = stage_len();
    let mut trained: Vec<Option<Vec<f32>>> = vec![None; STAGE_COUNT];
    let mut prev = vec![0.0f64; len];
    let mut fits = Vec::new();
    for stage in 0..=cfg.max_stage.min(STAGE_COUNT - 1) {
        let (lower, upper) = by_stage.split_at_mut(stage);
        let samples = &mut upper[0];
        if samples.is_empty() {
            continue;
        }
        let tl = Instant::now();
        // Label.
        let current = trained
            .iter()
            .any(Option::is_some)
            .then(|| PatternWeights::from_discs(&trained));
        let mut store = match &cfg.resume {
            Some(dir) => match LabelStore::open(dir, cfg, stage, samples.len()) {
                Ok(store) => Some(store),
                Err(error) => {
                    log(&format!(
                        "stage {stage:2}: label store unusable ({error}); labelling without it"
                    ));
                    None
                }
            },
            None => None,
        };
        if let Some(store) = &store {
            if !store.labels.is_empty() {
                log(&format!(
                    "stage {stage:2}: {} of {} labels read back from {}",
                    store.labels.len(),
                    samples.len(),
                    store.path.display()
                ));
            }
        }
        let label_one = |i: usize| {
            let pos = &samples[i].pos;
            if pos.empty_count() <= cfg.exact_empties {
                let small_table = SolveOptions {
                    table_bits: 16,
                    ..SolveOptions::default()
                };
                let v = solve_with(pos, small_table).map_or(0, |s| s.result.score) as f32;
                (v, [v, v], true)
            } else if let Some(w) = &current {
                let even = fixed_depth_value(pos, w, cfg.label_depth).0;
                let odd = if cfg.label_parities >= 2 {
                    fixed_depth_value(pos, w, cfg.label_depth + 1).0
                } else {
                    even
                };
                ((even + odd) / 2.0, [even, odd], false)
            } else {
                // No lower stage trained (cannot happen with exact_empties ≥ 3).
                (0.0, [0.0, 0.0], false)
            }
        };
        let labels: Vec<Label> = match &mut store {
            None => parallel_map(samples.len(), cfg.threads, label_one),
            Some(store) => {
                // In chunks, each kept on disk before the next starts.
                while store.labels.len() < samples.len() {
                    let from = store.labels.len();
                    let to = (from + LABEL_CHUNK).min(samples.len());
                    let chunk = parallel_map(to - from, cfg.threads, |k| label_one(from + k));
                    if let Err(error) = store.append(&chunk) {
                        log(&format!("stage {stage:2}: could not keep labels ({error})"));
                    }
                }
                std::mem::take(&mut store.labels)
            }
        };
        let exact_labels = labels.iter().filter(|l| l.2).count();
        // Mean of the two searches' values over the bootstrapped labels:
        // their gap is twice the side-to-move bias of the lower stages.
        let boot = (labels.len() - exact_labels).max(1) as f64;
        let mean_depth = |k: usize| {
            labels
                .iter()
                .filter(|l| !l.2)
                .map(|l| f64::from(l.1[k]))
                .sum::<f64>()
                / boot
        };
        let (mean_a, mean_b) = (mean_depth(0), mean_depth(1));
        for (s, (l, _, _)) in samples.iter_mut().zip(labels) {
            s.label = l;
        }
        let label_secs = tl.elapsed().as_secs_f64();
        // Split.
        let part = |s: &Sample| match s.game % 10 {
            0 => 2,
            1 => 1,
            _ => 0,
        };
        let mut sets: [Vec<Sample>; 3] = [Vec::new(), Vec::new(), Vec::new()];
        for s in samples.iter() {
            sets[part(s)].push(*s);
        }
        // The training split also gets the previous stage's `below` (2)
        // latest empties counts (already labelled): +50 % data for a
        // smoother fit.
        let own_train = sets[0].len();
        if let Some(prev_stage) = lower.last() {
            let near = (stage as u32 * pattern::STAGE_WIDTH).saturating_sub(cfg.below);
            sets[0].extend(
                prev_stage
                    .iter()
                    .filter(|s| part(s) == 0 && s.pos.empty_count() >= near),
            );
        }
        let feats: Vec<Vec<[u32; FEATURE_COUNT]>> = sets.iter().map(|s| rows(s)).collect();
        let ys: Vec<Vec<f32>> = sets
            .iter()
            .map(|s| s.iter().map(|x| x.label).collect())
            .collect();
        let mut best: Option<(f64, f64, Vec<f64>)> = None;
        for lambda in cfg.lambdas.iter().map(|&l| f64::from(l)) {
            let w = ridge(&feats[0], &ys[0], &prev, lambda, cfg.iterations);
            let (val_mae, _) = errors(&w, &feats[1], &ys[1]);
            if best.as_ref().is_none_or(|b| val_mae < b.0) {
                best = Some((val_mae, lambda, w));
            }
        }
        let Some((_, lambda, mut w)) = best else {
            continue;
        };
        // Huber loss by iteratively reweighted least squares: a sample
        // whose residual exceeds `huber` discs weighs huber / |residual|.
        if cfg.huber > 0 {
            let delta = f64::from(cfg.huber);
            for _ in 0..cfg.huber_rounds {
                let sw: Vec<f64> = feats[0]
                    .iter()
                    .zip(&ys[0])
                    .map(|(r, &y)| {
                        let e = (predict(&w, r) - f64::from(y)).abs();
                        if e > delta {
                            delta / e
                        } else {
                            1.0
                        }
                    })
                    .collect();
                w = weighted_ridge(&feats[0], &ys[0], Some(&sw), &prev, lambda, cfg.iterations);
            }
        }
        let fit = StageFit {
            stage,
            counts: [own_train, sets[1].len(), sets[2].len()],
            lambda,
            train: errors(&w, &feats[0], &ys[0]),
            test: errors(&w, &feats[2], &ys[2]),
            exact_labels,
            label_secs,
        };
        log(&format!(
            "stage {stage:2} (empties {:2}-{:2}): {} train (+{} from the stage below) / {} val / {} test positions, {} exact labels{}, labels {:.1}s, lambda {}, train MAE {:.2} RMSE {:.2}, test MAE {:.2} RMSE {:.2} discs ({:.0}s so far)",
            stage as u32 * pattern::STAGE_WIDTH,
            stage as u32 * pattern::STAGE_WIDTH + pattern::STAGE_WIDTH - 1,
            fit.counts[0],
            sets[0].len() - own_train,
            fit.counts[1],
            fit.counts[2],
            exact_labels,
            if exact_labels < samples.len() && cfg.label_parities >= 2 {
                format!(
                    " (bootstrapped: mean depth-{} value {mean_a:+.2}, depth-{} {mean_b:+.2})",
                    cfg.label_depth,
                    cfg.label_depth + 1
                )
            } else {
                String::new()
            },
            label_secs,
            lambda,
            fit.train.0,
            fit.train.1,
            fit.test.0,
            fit.test.1,
            t0.elapsed().as_secs_f64()
        ));
        fits.push(fit);
        trained[stage] = Some(w.iter().map(|&x| x as f32).collect());
        prev = w;
    }
    if let Some(path) = &cfg.base {
        match std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|b| PatternWeights::from_bytes(&b).map_err(|e| e.to_string()))
        {
            Ok(base) => {
                for (s, slot) in trained.iter_mut().enumerate() {
                    if slot.is_none() {
                        *slot = Some(
                            (0..len)
                                .map(|i| f32::from(base.weight(s, i)) / pattern::EVAL_SCALE as f32)
                                .collect(),
                        );
                        log(&format!("stage {s:2}: weights of {}", path.display()));
                    }
                }
            }
            Err(error) => log(&format!(
                "base weights {} unusable: {error}",
                path.display()
            )),
        }
    }
    Trained {
        weights: PatternWeights::from_discs(&trained),
        fits,
        positions,
    }
}
