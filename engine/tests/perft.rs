//! Perft from the initial position (a forced pass is a ply; a finished game
//! is one leaf at deeper depths).

use engine::{perft, perft_portable, Position};

const EXPECTED: [(u32, u64); 10] = [
    (0, 1),
    (1, 4),
    (2, 12),
    (3, 56),
    (4, 244),
    (5, 1396),
    (6, 8200),
    (7, 55092),
    (8, 390216),
    (9, 3005288),
];

#[test]
fn perft_from_the_start() {
    for (depth, leaves) in EXPECTED {
        assert_eq!(perft(&Position::initial(), depth), leaves, "depth {depth}");
        // The portable copy of the recursion (the one wasm runs) agrees.
        assert_eq!(perft_portable(&Position::initial(), depth), leaves);
    }
}

#[test]
fn perft_counts_passes_and_finished_games() {
    // A finished game is a single leaf at any depth.
    let over = engine::parse_transcript("d3c3b3d2e1d6d7e3f4").unwrap();
    assert_eq!(perft(over.position(), 5), 1);
    // A forced pass is one ply.
    let pos = Position::from_text_board(
        "  A B C D E F G H
1 X X X . . . . .
2 . . . . . . . .
3 . O X X X X X X
4 . . . . . . . .
5 . . . . . . . .
6 . . . . . . . .
7 . . . . . . . .
8 . . . . . . . O",
        engine::Color::White,
    )
    .unwrap();
    assert!(pos.must_pass());
    assert_eq!(perft(&pos, 1), 1);
    assert_eq!(perft(&pos, 2), 1); // the pass, then black's only move a3
    assert_eq!(perft(&pos, 3), 1); // then the game is over
}
