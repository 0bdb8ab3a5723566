//! `othello evaluate`, `match`, `train` and `accuracy`: argument parsing,
//! bad input, and small end-to-end runs.

use engine::pattern::fnv1a64;
use engine::{solve, PatternWeights};
use engine_cli::strong_cli::{
    format_report, openings, parse_accuracy, parse_evaluate, parse_match, parse_train, Engine,
};
use engine_cli::train::{self_play_game, train, TrainConfig};
use std::process::Command;

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_string()).collect()
}

fn othello(list: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(list)
        .output()
        .unwrap()
}

const START: &str = "---------------------------OX------XO--------------------------- X";

#[test]
fn evaluate_arguments() {
    let (l, w, obf) = parse_evaluate(&args(&["--depth", "7", START])).unwrap();
    assert_eq!(
        (l.depth, l.time_ms, w, obf.as_str()),
        (7, None, None, START)
    );
    let (l, _, _) = parse_evaluate(&args(&["--time-ms", "250", START])).unwrap();
    assert_eq!(l.time_ms, Some(250));
    let (l, _, _) = parse_evaluate(&args(&[START, "--exact-from", "12"])).unwrap();
    assert_eq!((l.depth, l.exact_from_empties), (10, 12));
    for bad in [
        &[][..],
        &["--depth", "0", START],
        &["--depth", "x", START],
        &["--depth", "5", "--time-ms", "10", START],
        &["--depth", START],
        &["--speed", "3", START],
        &[START, START],
        &["--depth", "3", "--depth", "4", START],
    ] {
        assert!(parse_evaluate(&args(bad)).is_err(), "{bad:?}");
    }
}

#[test]
fn match_arguments() {
    let (a, b, c) = parse_match(&args(&[
        "strongest:100",
        "spec:6",
        "--games",
        "100",
        "--openings",
        "50",
    ]))
    .unwrap();
    assert_eq!((a, b), (Engine::Strongest(100), Engine::Spec(6)));
    assert_eq!((c.games, c.openings), (100, 50));
    let (a, _, c) = parse_match(&args(&["strongest", "spec:1", "--openings", "3"])).unwrap();
    assert_eq!((a, c.games, c.openings), (Engine::Strongest(100), 6, 3));
    for bad in [
        &["spec:6"][..],
        &["spec:0", "spec:6"],
        &["spec:13", "spec:6"],
        &["strong", "spec:6"],
        &["strongest:", "spec:6"],
        &["strongest:0", "spec:6"],
        &["spec:3", "spec:6", "--games", "0"],
        &["spec:3", "spec:6", "--games"],
        &["spec:3", "spec:6", "--rounds", "4"],
    ] {
        assert!(parse_match(&args(bad)).is_err(), "{bad:?}");
    }
}

#[test]
fn train_and_accuracy_arguments() {
    let (c, out) = parse_train(&args(&["--seed", "9", "--games", "50", "--out", "w.bin"])).unwrap();
    assert_eq!((c.seed, c.games, out.to_str()), (9, 50, Some("w.bin")));
    assert!(parse_train(&args(&["--label-depth", "2"])).is_err());
    assert!(parse_train(&args(&["extra"])).is_err());
    assert!(parse_train(&args(&["--games", "-1"])).is_err());
    let c = parse_accuracy(&args(&["--empties", "20-22", "--positions", "5"])).unwrap();
    assert_eq!((c.empties, c.positions, c.depth), ((20, 22), 5, 8));
    assert!(parse_accuracy(&args(&["--empties", "22-20"])).is_err());
    assert!(parse_accuracy(&args(&["--empties", "22"])).is_err());
    assert_eq!(parse_accuracy(&args(&["--skip", "4"])).unwrap().skip, 4);
    assert_eq!(parse_accuracy(&args(&[])).unwrap().skip, 0);
}

#[test]
fn bad_arguments_exit_2_with_usage() {
    for list in [
        &["evaluate"][..],
        &["evaluate", "--depth", "0", START],
        &["evaluate", "--depth", "4", "XO X"],
        &["evaluate", "--weights", "/nonexistent/w.bin", START],
        &["match", "spec:1"],
        &["match", "spec:1", "magic:3"],
        &["train", "--threads", "0"],
        &["accuracy", "--depth", "99"],
    ] {
        let out = othello(list);
        assert_eq!(out.status.code(), Some(2), "{list:?}");
        assert!(out.stdout.is_empty(), "{list:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("othello: "), "{list:?}: {err}");
    }
    let out = othello(&["evaluate", "--depth", "0", START]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("usage:"));
}

#[test]
fn evaluate_prints_value_best_and_nodes() {
    let out = othello(&["evaluate", "--depth", "4", START]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let words: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(words[0], "value");
    assert!(words[1].parse::<f32>().unwrap().abs() < 20.0, "{text}");
    assert_eq!(words[2], "best");
    assert!(["d3", "c4", "f5", "e6"].contains(&words[3]), "{text}");
    assert_eq!(words[4], "nodes");
    assert!(words[5].parse::<u64>().unwrap() > 10);
    assert!(!text.contains("exact"));
    // At 12 empties it solves: the solver's score, marked exact.
    let pos = *self_play_game(11, 0)
        .iter()
        .find(|p| p.empty_count() == 12)
        .unwrap();
    let out = othello(&["evaluate", &pos.to_obf()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(&format!("value {:+} best ", solve(&pos).score)),
        "{text}"
    );
    assert!(text.trim_end().ends_with("exact"), "{text}");
}

/// A training run small enough for a test (30 games, exact labels to 10
/// empties, 20 iterations).
fn tiny_training(seed: u64) -> TrainConfig {
    TrainConfig {
        seed,
        games: 30,
        threads: 2,
        exact_empties: 10,
        label_depth: 4,
        iterations: 20,
        label_parities: 2,
        resume: None,
        ..TrainConfig::default()
    }
}

#[test]
fn a_tiny_training_run_is_reproducible_and_loads() {
    let cfg = tiny_training(3);
    let a = train(&cfg, &mut |_| {});
    let b = train(
        &TrainConfig {
            threads: 1,
            ..cfg.clone()
        },
        &mut |_| {},
    );
    let (ba, bb) = (a.weights.to_bytes(), b.weights.to_bytes());
    assert_eq!(fnv1a64(&ba), fnv1a64(&bb), "same seed, any thread count");
    assert_eq!(PatternWeights::from_bytes(&ba).unwrap(), a.weights);
    assert!(a.fits.len() >= 10);
    // Another seed gives other games and other weights.
    assert_ne!(self_play_game(3, 0), self_play_game(4, 0));
    let c = train(
        &TrainConfig {
            seed: 4,
            ..cfg.clone()
        },
        &mut |_| {},
    );
    assert_ne!(fnv1a64(&c.weights.to_bytes()), fnv1a64(&ba));
    // Single-parity labels (the earlier training) give other weights for
    // the bootstrapped stages, and the same for the exact-labelled ones.
    let d = train(
        &TrainConfig {
            label_parities: 1,
            ..cfg
        },
        &mut |_| {},
    );
    assert_ne!(fnv1a64(&d.weights.to_bytes()), fnv1a64(&ba));
    let len = engine::pattern::stage_len();
    for i in 0..len {
        assert_eq!(d.weights.weight(1, i), a.weights.weight(1, i));
    }
    assert!((0..len).any(|i| d.weights.weight(12, i) != a.weights.weight(12, i)));
}

#[test]
fn a_training_run_stopped_part_way_resumes_from_its_labels() {
    let dir = std::env::temp_dir().join(format!("othello-train-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cfg = tiny_training(5);
    let plain = train(&cfg, &mut |_| {}).weights.to_bytes();
    let kept = TrainConfig {
        resume: Some(dir.clone()),
        ..cfg.clone()
    };
    assert_eq!(
        train(&kept, &mut |_| {}).weights.to_bytes(),
        plain,
        "keeping labels changes nothing"
    );
    // Stopped part-way: stage 5 torn in the middle of a record, stage 10
    // never written, stage 12's file from another run's settings.
    let stage = |n: usize| dir.join(format!("stage-{n:02}.labels"));
    let five = std::fs::read(stage(5)).unwrap();
    let header = five.iter().position(|&b| b == b'\n').unwrap() + 1;
    assert!(five.len() > header + 13 * 20, "stage 5 has labels");
    std::fs::write(stage(5), &five[..header + 13 * 10 + 6]).unwrap();
    std::fs::remove_file(stage(10)).unwrap();
    std::fs::write(stage(12), b"othello-train-labels v1 seed=99\n").unwrap();
    let mut lines = Vec::new();
    let resumed = train(&kept, &mut |l| lines.push(l.to_string()))
        .weights
        .to_bytes();
    assert_eq!(resumed, plain, "a resumed run gives the same weights");
    let read_back = |n: usize| {
        lines
            .iter()
            .any(|l| l.starts_with(&format!("stage {n:2}: ")) && l.contains("labels read back"))
    };
    assert!(read_back(3) && read_back(5), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("stage  5: 10 of ")),
        "{lines:?}"
    );
    assert!(!read_back(10) && !read_back(12), "{lines:?}");
    // The stored labels are what a resumed run trains on: change them and
    // the weights change.
    let mut three = std::fs::read(stage(3)).unwrap();
    let header = three.iter().position(|&b| b == b'\n').unwrap() + 1;
    for record in three[header..].chunks_exact_mut(13) {
        record[..4].copy_from_slice(&40.0f32.to_le_bytes());
    }
    std::fs::write(stage(3), &three).unwrap();
    assert_ne!(train(&kept, &mut |_| {}).weights.to_bytes(), plain);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn openings_are_distinct_and_a_short_match_runs() {
    let o = openings(5, 6, 8);
    assert_eq!(o.len(), 6);
    for (i, a) in o.iter().enumerate() {
        assert_eq!(a.empty_count(), 52);
        assert!(o[i + 1..].iter().all(|b| b != a));
    }
    let out = othello(&[
        "match",
        "spec:2",
        "spec:1",
        "--games",
        "4",
        "--openings",
        "2",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("spec:2 vs spec:1: 4 games, spec:2 wins "),
        "{last}"
    );
    assert_eq!(text.lines().count(), 5);
}

#[test]
fn report_format() {
    let r = engine::Report {
        value: 3.5,
        best_move: "c4".parse().ok(),
        nodes: 12,
        exact: false,
        depth: 3,
        pv: vec!["c4".parse().unwrap(), "c3".parse().unwrap()],
    };
    assert_eq!(
        format_report(&r),
        "value +3.50 best c4 nodes 12 depth 3 pv c4 c3"
    );
    let r = engine::Report {
        value: -6.0,
        exact: true,
        best_move: None,
        ..r
    };
    assert_eq!(format_report(&r), "value -6 best pass nodes 12 exact");
}

#[test]
fn match_engines_at_a_fixed_depth_and_on_other_weights() {
    assert_eq!(Engine::parse("strongest:d6"), Ok(Engine::StrongDepth(6)));
    assert!(Engine::parse("strongest:d0").is_err());
    assert!(Engine::parse("spec:3@x.bin").is_err());
    assert!(Engine::parse("strongest:d4@/nonexistent/eval.bin").is_err());
    let file = std::env::temp_dir().join(format!("o3d-match-{}.bin", std::process::id()));
    std::fs::write(&file, engine::pattern::DEFAULT_WEIGHTS_BYTES).unwrap();
    let name = file.to_str().unwrap();
    let e = Engine::parse(&format!("strongest:d3@{name}")).unwrap();
    assert_eq!(e.to_string(), format!("strongest:d3@{name}"));
    let out = othello(&[
        "match",
        &format!("strongest:d2@{name}"),
        "strongest:d2",
        "--games",
        "2",
        "--openings",
        "1",
    ]);
    std::fs::remove_file(&file).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Same weights, same depth: deterministic play, so the two colours'
    // games mirror each other and the totals cancel.
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap();
    assert!(last.contains("average disc margin +0.00"), "{last}");
}

#[test]
fn an_accuracy_log_gives_back_its_exact_scores() {
    let text = "position 1 (21 empties) --------X-X--X--XXXXX---XXXXXXXO-XXOXOO-XXXXOOX-XXXXXOX-OOOOOOO- O: value +57.78 exact +54 error +3.78 best a5 not best (2.1s; so far 1 done, mean abs error 3.78, exactly best 0)\n\
position 2 (23 empties) X-OOOOO--XOXX-----XXOXX--XXXOX---XXXXXX---XOOOX---XOOOXX--XO--OX O: value -12.00 exact -12 error +0.00 best g2 exactly best (21.3s; so far 2 done, mean abs error 1.89, exactly best 1)\n\
accuracy: 2 positions (20-24 empties, seed 4242), evaluate --depth 8: mean abs error 1.89 discs, exactly-best moves 50.0%\n";
    let labels = engine_cli::strong_cli::read_accuracy_log(text);
    assert_eq!(labels.len(), 2);
    let one = &labels[&1];
    assert_eq!(one.exact, 54);
    assert_eq!(one.chosen, "a5");
    assert!(!one.chosen_ok);
    assert_eq!(
        one.obf,
        "--------X-X--X--XXXXX---XXXXXXXO-XXOXOO-XXXXOOX-XXXXXOX-OOOOOOO- O"
    );
    let two = &labels[&2];
    assert_eq!(
        (two.exact, two.chosen.as_str(), two.chosen_ok),
        (-12, "g2", true)
    );
}
