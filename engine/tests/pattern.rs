//! The pattern evaluation: weights file round trip and damage detection,
//! symmetry invariance, and the strong search against the exact solver.

mod common;
use engine::pattern::{
    canonical_entry, feature_entries, stage_len, stage_len_v1, symmetric_position, FEATURE_COUNT,
    STAGE_COUNT,
};
use engine::{
    default_weights, evaluate_position, score_all_moves, solve, Limits, PatternWeights, Position,
    WeightsError,
};

/// A deterministic pseudo-random generator (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// A position reached by `plies` random legal moves (passes taken).
fn random_position(rng: &mut Rng, plies: u32) -> Position {
    let mut pos = Position::initial();
    for _ in 0..plies {
        if pos.is_game_over() {
            break;
        }
        let moves: Vec<_> = pos.legal_moves().iter().collect();
        if moves.is_empty() {
            pos = pos.pass().unwrap();
            continue;
        }
        let mv = moves[(rng.next() % moves.len() as u64) as usize];
        pos = pos.play(mv).unwrap().position;
    }
    pos
}

/// Every stage trained, random weights in ±10 discs in the version-1
/// tables, zero in the version-2 ones.
fn random_version_1_stages(rng: &mut Rng) -> Vec<Option<Vec<f32>>> {
    (0..STAGE_COUNT)
        .map(|_| {
            Some(
                (0..stage_len())
                    .map(|i| {
                        if i < stage_len_v1() {
                            (rng.next() % 2001) as f32 / 100.0 - 10.0
                        } else {
                            0.0
                        }
                    })
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn the_evaluation_is_invariant_under_the_eight_symmetries() {
    let w = default_weights();
    let mut rng = Rng(0x1234_5678);
    for i in 0..400 {
        let pos = random_position(&mut rng, 4 + i % 56);
        let base = w.eval_raw(pos.player().0, pos.opponent().0);
        for s in 1..8 {
            let image = symmetric_position(&pos, s);
            assert_eq!(
                w.eval_raw(image.player().0, image.opponent().0),
                base,
                "symmetry {s} of\n{pos}"
            );
        }
    }
}

#[test]
fn canonical_entries_are_closed_and_the_feature_entries_in_range() {
    let len = stage_len();
    for i in 0..len {
        let c = canonical_entry(i);
        assert!(c <= i);
        assert_eq!(canonical_entry(c), c);
    }
    let mut f = [0u32; FEATURE_COUNT];
    let pos = Position::initial();
    feature_entries(pos.player().0, pos.opponent().0, &mut f);
    assert!(f.iter().all(|&e| (e as usize) < len));
}

#[test]
fn weights_round_trip_and_damaged_files_are_refused() {
    let bytes = engine::pattern::DEFAULT_WEIGHTS_BYTES;
    let w = PatternWeights::from_bytes(bytes).unwrap();
    assert_eq!(&w.to_bytes()[..], bytes, "round trip is byte-exact");
    // Every weight survives the trip (weights built from discs).
    let mut rng = Rng(99);
    let stages: Vec<Option<Vec<f32>>> = (0..STAGE_COUNT)
        .map(|s| {
            (s % 3 != 1).then(|| {
                (0..stage_len())
                    .map(|_| {
                        if rng.next() % 3 == 0 {
                            0.0
                        } else {
                            (rng.next() % 4001) as f32 / 100.0 - 20.0
                        }
                    })
                    .collect()
            })
        })
        .collect();
    let made = PatternWeights::from_discs(&stages);
    let back = PatternWeights::from_bytes(&made.to_bytes()).unwrap();
    assert_eq!(made, back);
    assert_eq!(
        back.trained_stages().count_ones() as usize,
        (0..STAGE_COUNT).filter(|s| s % 3 != 1).count()
    );
    // A flipped bit anywhere is caught.
    let good = made.to_bytes();
    for at in [
        9usize,
        20,
        40,
        good.len() / 2,
        good.len() - 9,
        good.len() - 1,
    ] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        assert!(PatternWeights::from_bytes(&bad).is_err(), "flip at {at}");
    }
    let mut bad = good.clone();
    bad[good.len() / 2] ^= 1;
    assert_eq!(
        PatternWeights::from_bytes(&bad),
        Err(WeightsError::Checksum)
    );
    assert_eq!(
        PatternWeights::from_bytes(&good[..good.len() - 3]),
        Err(WeightsError::Checksum)
    );
    assert_eq!(
        PatternWeights::from_bytes(b"nonsense"),
        Err(WeightsError::BadMagic)
    );
    assert_eq!(
        PatternWeights::from_bytes(&good[..20]),
        Err(WeightsError::Truncated)
    );
}

#[test]
fn weights_without_the_version_2_tables_keep_the_version_1_form() {
    let mut rng = Rng(7);
    let mut stages = random_version_1_stages(&mut rng);
    let v1 = PatternWeights::from_discs(&stages);
    let bytes = v1.to_bytes();
    assert_eq!(bytes[8..12], 1u32.to_le_bytes(), "version 1");
    assert_eq!(PatternWeights::from_bytes(&bytes).unwrap(), v1);
    // One nonzero weight in a version-2 table: version 2, and it survives.
    if let Some(w) = &mut stages[5] {
        w[stage_len_v1() + 3] = 1.5;
    }
    let v2 = PatternWeights::from_discs(&stages);
    let bytes2 = v2.to_bytes();
    assert_eq!(bytes2[8..12], 2u32.to_le_bytes(), "version 2");
    assert_eq!(PatternWeights::from_bytes(&bytes2).unwrap(), v2);
    assert_eq!(v2.weight(5, stage_len_v1() + 3), 48);
    assert_ne!(bytes.len(), bytes2.len());
}

#[test]
fn the_shipped_weights_are_trained_and_not_all_zero() {
    let w = default_weights();
    assert!(w.trained_stages() != 0);
    let nonzero = (0..STAGE_COUNT)
        .filter(|&s| (0..stage_len()).any(|i| w.weight(s, i) != 0))
        .count();
    assert!(nonzero >= 10, "only {nonzero} stages with weights");
}

#[test]
fn evaluate_position_solves_exactly_where_it_may() {
    let w = default_weights();
    for empties in [6u32, 10, 14] {
        for pos in common::positions(700 + u64::from(empties), empties, 8) {
            let exact = solve(&pos);
            let r = evaluate_position(&pos, w, Limits::depth(6));
            assert!(r.exact, "{empties} empties: not solved\n{pos}");
            assert_eq!(r.value, exact.score as f32, "{empties} empties\n{pos}");
            // The move it names reaches that score.
            if let Some(m) = r.best_move {
                let after = pos.play(m).unwrap().position;
                assert_eq!(-solve(&after).score, exact.score, "move {m}\n{pos}");
            } else {
                assert!(pos.legal_moves().is_empty());
            }
        }
    }
}

#[test]
fn with_solving_off_a_search_to_the_end_gives_the_exact_score() {
    // Depth ≥ the empties: the search reaches every game end, so without
    // the solver it must still find the exact score (final scores are
    // exact, in 1/32 disc units).
    let w = default_weights();
    for pos in common::positions(811, 8, 12) {
        let limits = Limits {
            exact_from_empties: 0,
            ..Limits::depth(12)
        };
        let r = evaluate_position(&pos, w, limits);
        assert!(!r.exact);
        assert_eq!(r.value, solve(&pos).score as f32, "\n{pos}");
    }
}

#[test]
fn the_strong_search_on_several_threads_stays_exact_to_the_end() {
    // Lazy SMP: helpers share the table; a search that reaches every game
    // end is exact whatever they stored, and a midgame search finishes its
    // depth with a legal move.
    let w = default_weights();
    for (i, pos) in common::positions(812, 10, 8).into_iter().enumerate() {
        let limits = Limits {
            exact_from_empties: 0,
            threads: 2 + i % 2,
            ..Limits::depth(12)
        };
        let r = evaluate_position(&pos, w, limits);
        assert!(!r.exact);
        assert_eq!(r.value, solve(&pos).score as f32, "\n{pos}");
        if let Some(m) = r.best_move {
            assert!(pos.is_legal(m), "{m}\n{pos}");
        }
    }
    for pos in common::positions(813, 40, 4) {
        let limits = Limits {
            threads: 2,
            ..Limits::depth(7)
        };
        let r = evaluate_position(&pos, w, limits);
        assert_eq!(r.depth, 7, "\n{pos}");
        assert!(pos.is_legal(r.best_move.expect("a move")), "\n{pos}");
        assert!(r.value.abs() <= 64.0);
    }
}

#[test]
fn score_all_moves_agrees_with_the_solver_at_low_empties() {
    let w = default_weights();
    for pos in common::positions(923, 11, 10) {
        let scores = score_all_moves(&pos, w, Limits::depth(4));
        let moves: Vec<_> = pos.legal_moves().iter().collect();
        assert_eq!(scores.len(), moves.len());
        for s in &scores {
            let after = pos.play(s.square).unwrap().position;
            assert!(s.exact);
            assert_eq!(s.value, -solve(&after).score as f32, "{}\n{pos}", s.square);
        }
        // Best first, and the first is the solver's score.
        assert!(scores.windows(2).all(|p| p[0].value >= p[1].value));
        if let Some(first) = scores.first() {
            assert_eq!(first.value, solve(&pos).score as f32);
        }
    }
}

#[test]
fn a_node_budget_stops_the_search_and_still_names_a_legal_move() {
    let w = default_weights();
    for pos in common::positions(31, 40, 6) {
        let limits = Limits {
            max_nodes: 2_000,
            ..Limits::depth(30)
        };
        let r = evaluate_position(&pos, w, limits);
        assert!(!r.exact);
        assert!(r.depth < 30);
        // The budget may be overshot by the unwinding only.
        assert!(r.nodes <= 2_001, "nodes {}", r.nodes);
        let m = r.best_move.expect("a move");
        assert!(pos.legal_moves().contains(m));
        // Deterministic.
        assert_eq!(evaluate_position(&pos, w, limits), r);
    }
}

#[test]
fn midgame_values_are_plausible_and_agree_with_deeper_search_in_sign_mostly() {
    // The trained evaluation should tell a won 14-empty position from a
    // lost one far more often than not (exact scores as the judge).
    let w = default_weights();
    let (mut agree, mut total) = (0, 0);
    for pos in common::positions(555, 14, 60) {
        let exact = solve(&pos).score;
        if exact.abs() < 6 {
            continue;
        }
        total += 1;
        if (w.evaluate(&pos) > 0.0) == (exact > 0) {
            agree += 1;
        }
    }
    assert!(total >= 20);
    assert!(agree * 10 >= total * 7, "{agree} of {total}");
}

#[test]
fn solving_with_the_evaluation_ordering_stays_exact() {
    let w = default_weights();
    for pos in common::positions(4242, 15, 25) {
        let plain = solve(&pos);
        let with = engine::solve_with(&pos, engine::SolveOptions::with_eval(w))
            .expect("no budget")
            .result;
        assert_eq!(with.score, plain.score, "\n{pos}");
        if let Some(m) = with.best_move {
            let after = pos.play(m).unwrap().position;
            assert_eq!(-solve(&after).score, plain.score, "move {m}\n{pos}");
        }
        assert_eq!(
            engine::solve_with(&pos, engine::SolveOptions::with_eval(w).within(with.nodes))
                .map(|s| s.result),
            Some(with)
        );
        if with.nodes > 100 {
            assert_eq!(
                engine::solve_with(
                    &pos,
                    engine::SolveOptions::with_eval(w).within(with.nodes / 2)
                )
                .map(|s| s.result),
                None
            );
        }
    }
    // FFO #40 (20 empties, +38).
    let ffo40 = include_str!("data/ffo40-44.obf").lines().next().unwrap();
    let pos = Position::from_obf(ffo40).unwrap();
    assert_eq!(
        engine::solve_with(&pos, engine::SolveOptions::with_eval(w))
            .expect("no budget")
            .result
            .score,
        38
    );
}

#[test]
fn solve_with_a_move_first_gives_that_moves_exact_value() {
    let w = default_weights();
    let mut not_best = 0;
    for pos in common::positions(977, 13, 10) {
        let exact = solve(&pos).score;
        for m in pos.legal_moves().iter() {
            let child = -solve(&pos.play(m).unwrap().position).score;
            let (r, v) = first_of(&pos, w, m);
            assert_eq!(r.score, exact, "move {m}\n{pos}");
            assert_eq!(v, Some(child), "move {m}\n{pos}");
            not_best += usize::from(child < exact);
        }
        // A square that is not a legal move has no value.
        let illegal = engine::Square::all().find(|&s| !pos.is_legal(s)).unwrap();
        let (r, v) = first_of(&pos, w, illegal);
        assert_eq!((r.score, v), (exact, None));
    }
    assert!(not_best > 0, "the sample should have losing moves");
}

#[test]
fn shipped_weights_have_no_side_to_move_bias_in_the_opening() {
    // The start position is believed to be a draw. Weights trained on
    // single-parity labels read it −5.4, +5.7, −5.5, +6.5, −4.8, +6.2 at
    // depths 5–10 (the evaluation overrated the side to move by ~6 discs).
    let w = default_weights();
    let start = Position::initial();
    let values: Vec<f32> = (5..=10)
        .map(|d| evaluate_position(&start, w, Limits::depth(d)).value)
        .collect();
    for v in &values {
        assert!(v.abs() <= 2.0, "{values:?}");
    }
    for pair in values.windows(2) {
        assert!((pair[0] - pair[1]).abs() <= 2.0, "{values:?}");
    }
    // Odd and even fixed-depth searches agree on average over opening
    // positions (mean 2-ply minus mean 1-ply value: twice the bias).
    let positions = common::positions(31, 50, 40);
    let mean = |d: u32| {
        positions
            .iter()
            .map(|p| engine::fixed_depth_value(p, w, d).0)
            .sum::<f32>()
            / positions.len() as f32
    };
    let gap = mean(2) - mean(1);
    assert!(gap.abs() < 2.0, "2-ply minus 1-ply mean value {gap}");
}

#[test]
fn a_solve_that_does_not_fit_the_budget_leaves_the_search_half_of_it() {
    // 24 empties: the solve needs far more than 200,000 nodes, so it gives
    // up; the search still gets 100,000 nodes and goes several plies deep
    // (it used to get none and return the static evaluation, depth 0).
    let w = default_weights();
    for pos in common::positions(77, 24, 3) {
        let limits = Limits {
            max_nodes: 200_000,
            exact_from_empties: 30,
            ..Limits::depth(30)
        };
        let r = evaluate_position(&pos, w, limits);
        assert!(!r.exact);
        assert!(r.depth >= 3, "depth {} nodes {}", r.depth, r.nodes);
        assert!(pos.legal_moves().contains(r.best_move.expect("a move")));
        assert!(r.nodes <= 200_001, "nodes {}", r.nodes);
    }
}

/// The exact result with `first` searched first, and `first`'s own value.
fn first_of(
    pos: &engine::Position,
    w: &engine::PatternWeights,
    first: engine::Square,
) -> (engine::SolveResult, Option<i32>) {
    let options = engine::SolveOptions {
        first: Some(first),
        ..engine::SolveOptions::with_eval(w)
    };
    let solved = engine::solve_with(pos, options).expect("no budget");
    (solved.result, solved.first_value)
}

/// The evaluation skips the version-2 features when their weights are all
/// zero (the shipped weights); with or without them it is the sum of the
/// weights at every feature entry.
#[test]
fn the_evaluation_is_the_sum_over_every_feature_with_or_without_version_2() {
    let mut rng = Rng(0x0bad_cafe);
    // Random version-1 weights, then the same with random version-2 tables.
    let v1_stages = random_version_1_stages(&mut rng);
    let mut v2_stages = v1_stages.clone();
    for w in v2_stages.iter_mut().flatten() {
        for x in &mut w[stage_len_v1()..] {
            *x = (rng.next() % 801) as f32 / 100.0 - 4.0;
        }
    }
    for weights in [
        default_weights().clone(),
        PatternWeights::from_discs(&v1_stages),
        PatternWeights::from_discs(&v2_stages),
    ] {
        for i in 0..300 {
            let pos = random_position(&mut rng, 4 + i % 56);
            let (p, o) = (pos.player().0, pos.opponent().0);
            let mut f = [0u32; FEATURE_COUNT];
            feature_entries(p, o, &mut f);
            let stage = engine::pattern::stage_of((!(p | o)).count_ones());
            let sum: i32 = f
                .iter()
                .map(|&e| i32::from(weights.weight(stage, e as usize)))
                .sum();
            assert_eq!(weights.eval_raw(p, o), sum, "\n{pos}");
        }
    }
}
