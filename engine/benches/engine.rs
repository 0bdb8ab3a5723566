//! `cargo bench -p engine`: plain timing loops (no external harness, so the
//! crate keeps zero dependencies). Prints the median of a few runs.

use engine::{perft, search, solve, Position};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn median<F: FnMut()>(runs: usize, mut f: F) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let start = Position::initial();
    let t = median(21, || {
        black_box(perft(black_box(&start), 6));
    });
    println!("perft 6 (8200 leaves): {t:?}");

    let Ok(game) = engine::parse_transcript("f5f6f7e3d3g7f3e7e6c4c5e2c3c6d7b4f1d6h7g2c7g4a3b5")
    else {
        return;
    };
    let pos = *game.position();
    let mut nodes = 0;
    let t = median(11, || {
        nodes = black_box(search(black_box(&pos), 6)).nodes;
    });
    println!("search depth 6 (midgame, {nodes} nodes): {t:?}");

    let Ok(ffo40) =
        Position::from_obf("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X")
    else {
        return;
    };
    let t = median(3, || {
        black_box(solve(black_box(&ffo40)));
    });
    println!("solve FFO #40 (20 empties): {t:?}");
}
