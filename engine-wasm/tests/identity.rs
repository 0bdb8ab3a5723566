//! The engine in the browser plays exactly as the server's: the shipped wasm
//! module (`site/pkg/engine_bg.<hash>.wasm`, built by `cargo xtask site`), run in
//! Node, and the native engine get the same 1,000 reachable positions (random
//! games from a fixed seed) and must agree on the move, the value and the
//! number of positions visited at every depth from 1 to 6; and on the exact
//! solver's result for 40 endgame positions.
//!
//! Needs `node` and the built site. With `--nocapture` it prints the time each
//! side took (the figures in docs/BENCHMARKS.md come from a `--release` run).

use engine::Position;
use engine_wasm::{search_position, solve_position};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

/// xorshift64*: a fixed, portable sequence.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Plays random legal moves (and forced passes) from the start until `stop`
/// says so or the game ends.
fn random_game(rng: &mut Rng, stop: impl Fn(&Position, u32) -> bool) -> Position {
    let mut pos = Position::initial();
    let mut plies = 0;
    while !pos.is_game_over() && !stop(&pos, plies) {
        let moves: Vec<_> = pos.legal_moves().iter().collect();
        pos = if moves.is_empty() {
            pos.pass().expect("a forced pass")
        } else {
            let pick = moves[rng.below(moves.len() as u64) as usize];
            pos.play(pick).expect("a legal move").position
        };
        plies += 1;
    }
    pos
}

struct Case {
    pos: Position,
    /// `s`: search at depths 1..=6; `x<group>`: exact solve.
    kind: String,
}

fn cases() -> Vec<Case> {
    let mut rng = Rng(0x0DE1_1071_2026_0019);
    let mut cases = Vec::new();
    for _ in 0..1000 {
        let plies = rng.below(58) as u32;
        let pos = random_game(&mut rng, |_, n| n >= plies);
        cases.push(Case {
            pos,
            kind: "s".into(),
        });
    }
    for (count, empties, group) in [(37, 14, "14"), (3, 20, "20")] {
        for _ in 0..count {
            let pos = random_game(&mut rng, |p, _| p.empty_count() <= empties);
            cases.push(Case {
                pos,
                kind: format!("x{group}"),
            });
        }
    }
    cases
}

fn triple(square: i32, value: i32, nodes: f64) -> String {
    format!("{square},{value},{nodes}")
}

#[test]
fn wasm_and_native_engines_agree() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf();
    // The site's files carry content-hashed names: site/manifest.json maps
    // the served path to the file (`cargo xtask site`).
    let site = root.join("site");
    let manifest = std::fs::read_to_string(site.join("manifest.json")).unwrap_or_default();
    let file = |path: &str| {
        let key = format!("\"{path}\": \"");
        let hashed = manifest
            .split_once(&key)
            .and_then(|(_, rest)| rest.split_once('"'))
            .map(|(hashed, _)| hashed.trim_start_matches('/').to_string())
            .unwrap_or_default();
        site.join(hashed)
    };
    let (glue, wasm) = (file("/pkg/engine.js"), file("/pkg/engine_bg.wasm"));
    assert!(
        glue.is_file() && wasm.is_file(),
        "{} lacks the engine's wasm module: build the site first (`cargo xtask site`)",
        site.display()
    );
    let cases = cases();
    let mut input = String::new();
    let mut expected = Vec::new();
    let mut native_ms: Vec<(String, f64)> = Vec::new();
    let mut add_time = |kind: String, ms: f64| match native_ms.iter_mut().find(|(k, _)| *k == kind)
    {
        Some((_, total)) => *total += ms,
        None => native_ms.push((kind, ms)),
    };
    for case in &cases {
        let cells: Vec<String> = case.pos.to_cells().iter().map(|c| c.to_string()).collect();
        writeln!(
            input,
            "{} {} {}",
            case.pos.side_to_move.cell_value(),
            cells.join(","),
            case.kind
        )
        .unwrap();
        let mut line = Vec::new();
        if case.kind == "s" {
            for depth in 1..=6 {
                let started = Instant::now();
                let a = search_position(&case.pos, depth);
                add_time(
                    format!("search{depth}"),
                    started.elapsed().as_secs_f64() * 1000.0,
                );
                line.push(triple(a.square, a.value, a.nodes));
            }
        } else {
            let started = Instant::now();
            let a = solve_position(&case.pos);
            add_time(
                format!("solve-{}", &case.kind[1..]),
                started.elapsed().as_secs_f64() * 1000.0,
            );
            line.push(triple(a.square, a.value, a.nodes));
        }
        expected.push(line.join(" "));
    }

    let dir = std::env::temp_dir().join(format!("engine-wasm-identity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (input_path, output_path) = (dir.join("input.txt"), dir.join("output.txt"));
    std::fs::write(&input_path, &input).unwrap();
    let run = Command::new("node")
        .arg(root.join("engine-wasm/tests/identity.mjs"))
        .arg(&glue)
        .arg(&wasm)
        .arg(&input_path)
        .arg(&output_path)
        .output()
        .expect("cannot start `node` (Node.js 18 or later is needed)");
    assert!(
        run.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let output = std::fs::read_to_string(&output_path).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let actual: Vec<&str> = output.lines().collect();
    assert_eq!(actual.len(), expected.len(), "one result line per position");

    let mut mismatches = Vec::new();
    for (index, (want, got)) in expected.iter().zip(&actual).enumerate() {
        if want != got {
            mismatches.push(format!(
                "#{index} {}: native {want} | wasm {got}",
                cases[index].kind
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} positions differ (square,value,nodes per depth; if the engine changed \
         since the last `cargo xtask site`, rebuild the site first):\n{}",
        mismatches.len(),
        cases.len(),
        mismatches[..mismatches.len().min(10)].join("\n")
    );
    // Not vacuous: the positions are varied and the searches did real work.
    let distinct_moves: std::collections::HashSet<&str> = expected
        .iter()
        .filter_map(|l| l.split(' ').nth(5)?.split(',').next())
        .collect();
    assert!(distinct_moves.len() > 30, "too few distinct best moves");

    let wasm_ms: Vec<(String, f64)> = String::from_utf8_lossy(&run.stdout)
        .lines()
        .filter_map(|l| {
            let mut parts = l.strip_prefix("time ")?.split(' ');
            Some((parts.next()?.to_string(), parts.next()?.parse().ok()?))
        })
        .collect();
    println!("kind        native ms     wasm ms   wasm/native");
    for (kind, native) in &native_ms {
        let wasm = wasm_ms
            .iter()
            .find(|(k, _)| k == kind)
            .map_or(f64::NAN, |(_, ms)| *ms);
        println!(
            "{kind:<10} {native:>10.1} {wasm:>11.1} {:>12.2}",
            wasm / native
        );
    }
}
