//! `othello puzzles`: determinism, resume, the rules every puzzle keeps, and
//! a re-proof of a sample of the shipped set (puzzles/puzzles.jsonl)
//! by the plain solver and the strong search.

use engine::{score_all_moves, solve, Limits, Position, Square};
use engine_cli::puzzles::{self, puzzle_id, Puzzle, Rng, MIN_GAP};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-puzzles-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Runs `othello puzzles --seed SEED --count COUNT --out OUT [extra]`.
fn run_with(seed: u64, count: usize, out: &Path, extra: &[&str]) {
    let status = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args([
            "puzzles",
            "--seed",
            &seed.to_string(),
            "--count",
            &count.to_string(),
            "--out",
        ])
        .arg(out)
        .args(extra)
        .status()
        .expect("othello runs");
    assert!(status.success(), "othello puzzles failed: {status}");
}

fn run(seed: u64, count: usize, out: &Path) {
    run_with(seed, count, out, &[]);
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Exact value of every legal move by the plain solver (no evaluation
/// ordering: independent of how the generator proved it), best first, ties
/// by square.
fn solved_values(pos: &Position) -> Vec<(Square, i32)> {
    let mut v: Vec<(Square, i32)> = pos
        .legal_moves()
        .iter()
        .map(|sq| {
            let child = pos.play(sq).expect("legal").position;
            (sq, -solve(&child).score)
        })
        .collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

/// The rules any puzzle keeps (format, legality, order, gap), and with
/// `prove` its values re-derived: every move re-solved when exact (and each
/// later position of the line), re-searched at the recorded depth when not.
fn check(p: &Puzzle, prove: bool) {
    let ctx = format!("puzzle {} ({})", p.id, p.source);
    let pos = Position::from_obf(&p.obf).unwrap_or_else(|e| panic!("{ctx}: bad obf: {e}"));
    assert_eq!(p.id, puzzle_id(&p.obf), "{ctx}: id");
    assert_eq!(p.obf, pos.to_obf(), "{ctx}: obf not canonical");
    assert_eq!(p.empties, pos.empty_count(), "{ctx}: empties");
    let legal: Vec<Square> = pos.legal_moves().iter().collect();
    assert!(legal.len() >= 3, "{ctx}: fewer than 3 legal moves");
    let mut listed: Vec<Square> = p.values.iter().map(|v| v.0).collect();
    listed.sort();
    assert_eq!(
        listed, legal,
        "{ctx}: values must list every legal move once"
    );
    assert!(
        p.values.windows(2).all(|w| w[0].1 >= w[1].1),
        "{ctx}: values not best first"
    );
    assert!(
        p.gap_tenths() >= 10 * MIN_GAP,
        "{ctx}: gap {}",
        p.gap_tenths()
    );
    assert_eq!(p.exact, p.depth.is_none(), "{ctx}: depth iff midgame");
    assert!(
        p.exact == (p.empties <= 22),
        "{ctx}: exact iff <= 22 empties"
    );
    assert!(
        p.line.len() % 2 == 1 && p.line.len() <= 5,
        "{ctx}: line length"
    );
    assert_eq!(
        p.line[0], p.values[0].0,
        "{ctx}: answer is not the best move"
    );
    assert!(
        p.pv.len() >= p.line.len() && p.pv.starts_with(&p.line),
        "{ctx}: pv starts with the line"
    );
    assert!(
        p.themes
            .contains(&if p.exact { "exact" } else { "midgame" }),
        "{ctx}: themes"
    );
    assert_eq!(
        p.themes.contains(&"multi-move"),
        p.line.len() >= 3,
        "{ctx}: multi-move"
    );
    assert!((800..=2600).contains(&p.rating), "{ctx}: rating");
    // The line: no pass inside, the same player at even plies.
    let mut q = pos;
    for (i, &mv) in p.line.iter().enumerate() {
        assert!(q.is_legal(mv), "{ctx}: line move {i} ({mv}) illegal");
        if i % 2 == 0 {
            assert_eq!(
                q.side_to_move, pos.side_to_move,
                "{ctx}: line move {i} not the player's"
            );
        }
        q = q.play(mv).expect("legal").position;
    }
    // The pv: legal, passes left out.
    let mut q = pos;
    for (i, &mv) in p.pv.iter().enumerate() {
        if q.legal_moves().is_empty() && !q.is_game_over() {
            q = q.pass().expect("pass");
        }
        assert!(q.is_legal(mv), "{ctx}: pv move {i} ({mv}) illegal");
        q = q.play(mv).expect("legal").position;
    }
    if !prove {
        return;
    }
    if p.exact {
        let solved = solved_values(&pos);
        let recorded: Vec<(Square, i32)> = p.values.iter().map(|&(s, t)| (s, t / 10)).collect();
        assert_eq!(solved, recorded, "{ctx}: exact values");
        // Each later position of the line: the opponent's reply is a best
        // one (lowest square among equals), the player's move the unique
        // best by MIN_GAP.
        let mut q = pos;
        for (i, &mv) in p.line.iter().enumerate() {
            if i > 0 {
                let v = solved_values(&q);
                if i % 2 == 1 {
                    assert_eq!(
                        v[0].0, mv,
                        "{ctx}: reply {i} is not the best (lowest) reply"
                    );
                } else {
                    assert!(v.len() >= 2, "{ctx}: line move {i} forced");
                    assert_eq!(v[0].0, mv, "{ctx}: line move {i} is not the best");
                    assert!(v[0].1 - v[1].1 >= MIN_GAP, "{ctx}: line move {i} gap");
                }
            }
            q = q.play(mv).expect("legal").position;
        }
    } else {
        let depth = p.depth.expect("midgame depth");
        let limits = Limits {
            depth,
            max_nodes: u64::MAX,
            exact_from_empties: 0,
            time_ms: None,
            threads: 1,
            stop: None,
        };
        let v = score_all_moves(&pos, engine::default_weights(), limits);
        assert_eq!(v[0].square, p.line[0], "{ctx}: best move at depth {depth}");
        assert!(
            v[0].value - v[1].value >= MIN_GAP as f32,
            "{ctx}: gap at depth {depth}"
        );
        for m in &v {
            let rec = p.values.iter().find(|r| r.0 == m.square).expect("listed").1;
            assert!(
                (f64::from(m.value) * 10.0 - f64::from(rec)).abs() <= 0.51,
                "{ctx}: value of {} {} vs recorded {}",
                m.square,
                m.value,
                rec
            );
        }
    }
}

fn parse_all(text: &str) -> Vec<Puzzle> {
    text.lines()
        .map(|l| Puzzle::from_json(l).unwrap_or_else(|e| panic!("bad line {l}: {e}")))
        .collect()
}

#[test]
fn generation_is_deterministic_and_keeps_the_rules() {
    let dir = scratch("determinism");
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    run(11, 5, &a);
    // Two threads write the games in the same order.
    run_with(11, 5, &b, &["--threads", "2"]);
    let text = read(&a);
    assert_eq!(text, read(&b), "same seed, different puzzles");
    let puzzles = parse_all(&text);
    assert_eq!(puzzles.len(), 5);
    let mut ids: Vec<&str> = puzzles.iter().map(|p| p.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 5, "duplicate ids");
    for p in &puzzles {
        check(p, true);
        // The JSON form reads back to the same line.
        assert!(text.lines().any(|l| l == p.to_json()));
    }
    let progress = read(&puzzles::progress_path(&a));
    assert!(
        progress.starts_with("{\"seed\":11,\"next_game\":"),
        "{progress}"
    );
    assert!(progress.contains("\"puzzles\":5,"), "{progress}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resume_gives_the_same_file() {
    let dir = scratch("resume");
    let (whole, parts) = (dir.join("whole.jsonl"), dir.join("parts.jsonl"));
    run(5, 4, &whole);
    run(5, 2, &parts);
    assert_eq!(parse_all(&read(&parts)).len(), 2);
    // A run killed while writing leaves a partial line: it is dropped.
    let mut cut = read(&parts);
    cut.push_str("{\"id\":\"0123");
    std::fs::write(&parts, cut).expect("write");
    run(5, 4, &parts);
    assert_eq!(read(&parts), read(&whole), "resumed file differs");
    // Asking for what is there already changes nothing.
    run(5, 3, &parts);
    assert_eq!(read(&parts), read(&whole));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_wrong_seed_does_not_resume() {
    let dir = scratch("seed");
    let out = dir.join("p.jsonl");
    run(5, 1, &out);
    let status = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["puzzles", "--seed", "6", "--count", "2", "--out"])
        .arg(&out)
        .stderr(std::process::Stdio::null())
        .status()
        .expect("othello runs");
    assert!(!status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

/// 200 puzzles of the shipped set (a fixed sample), each re-proved.
#[test]
fn shipped_puzzles_hold() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../puzzles/puzzles.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (the shipped puzzle set; see docs/ENGINE.md, \"Puzzles\")",
            path.display()
        )
    });
    // Only complete lines (the generator may be appending).
    let complete = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    let all = parse_all(complete);
    assert!(!all.is_empty(), "no puzzles in {}", path.display());
    let mut ids: Vec<&str> = all.iter().map(|p| p.id.as_str()).collect();
    ids.sort_unstable();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "duplicate ids in the shipped set");
    for p in &all {
        check(p, false);
    }
    // A fixed sample of 200: partial Fisher-Yates with a seeded generator.
    let mut order: Vec<usize> = (0..all.len()).collect();
    let mut rng = Rng::new(2024, 0);
    let k = order.len().min(200);
    for i in 0..k {
        let j = i + rng.below((order.len() - i) as u64) as usize;
        order.swap(i, j);
    }
    let t = Instant::now();
    let sample: Vec<&Puzzle> = order[..k].iter().map(|&i| &all[i]).collect();
    let exact = sample.iter().filter(|p| p.exact).count();
    let multi = sample.iter().filter(|p| p.line.len() >= 3).count();
    // Re-proved on every core (each proof is a solve or a deep search on one
    // thread): the longest test of the native suite, 30 s on one core here.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut secs = [0.0f64; 2];
    std::thread::scope(|scope| {
        let parts: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut secs = [0.0f64; 2];
                    while let Some(p) =
                        sample.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                    {
                        let t = Instant::now();
                        check(p, true);
                        secs[usize::from(!p.exact)] += t.elapsed().as_secs_f64();
                    }
                    secs
                })
            })
            .collect();
        for part in parts {
            // A failed proof panics in its thread: fail with its message.
            let part = part.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            secs[0] += part[0];
            secs[1] += part[1];
        }
    });
    println!(
        "re-proved {k} of {} puzzles ({exact} exact in {:.1}s, {multi} of them multi-move; {} midgame in {:.1}s; thread seconds) in {:.1}s",
        all.len(),
        secs[0],
        k - exact,
        secs[1],
        t.elapsed().as_secs_f64()
    );
}
