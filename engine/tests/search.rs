//! The play AI against the independent exhaustive MiniMax, determinism,
//! evaluation terms and the parallel root search.

mod common;
use engine::{
    evaluate, evaluation_terms, reference, search, search_parallel, terminal_score, Color,
    Position, Square, WIN_SCORE,
};

fn check_against_reference(pos: &Position, depth: u32) {
    let report = search(pos, depth);
    let reference = reference::best_move(pos, depth);
    match reference {
        None => assert_eq!(report.best_move, None),
        Some(reference::ReferenceChoice {
            best_move: square,
            value,
            root_moves: values,
        }) => {
            assert_eq!(
                report.best_move,
                Some(square),
                "move at depth {depth}:\n{pos}"
            );
            assert_eq!(report.value, value, "value at depth {depth}:\n{pos}");
            let got: Vec<(Square, i32)> = report
                .root_moves
                .iter()
                .map(|r| (r.square, r.value))
                .collect();
            assert_eq!(got, values, "root values at depth {depth}:\n{pos}");
            assert_eq!(report.principal_variation.first(), Some(&square));
        }
    }
}

#[test]
fn alpha_beta_equals_exhaustive_minimax_in_endgames() {
    let mut checked = 0;
    for empties in 2..=9 {
        let count = if empties >= 9 { 6 } else { 10 };
        for pos in common::positions(100 + u64::from(empties), empties, count) {
            // To the end of the game ...
            check_against_reference(&pos, 64);
            // ... and cut short, where the evaluation counts.
            check_against_reference(&pos, 2);
            checked += 1;
        }
    }
    for pos in common::positions(77, 10, 3) {
        check_against_reference(&pos, 64);
        checked += 1;
    }
    assert!(checked >= 60, "{checked}");
}

#[test]
fn alpha_beta_equals_exhaustive_minimax_in_midgames() {
    for (i, empties) in [58u32, 54, 50, 44, 40, 36, 30, 24].into_iter().enumerate() {
        for pos in common::positions(500 + i as u64, empties, 4) {
            for depth in 1..=3 {
                check_against_reference(&pos, depth);
            }
        }
    }
    for pos in common::positions(900, 40, 2) {
        check_against_reference(&pos, 4);
    }
    check_against_reference(&Position::initial(), 4);
}

#[test]
fn search_is_deterministic_and_orders_ties() {
    let pos = Position::initial();
    let a = search(&pos, 5);
    let b = search(&pos, 5);
    assert_eq!(a, b);
    // The four opening moves are symmetric: equal values, the first in the
    // ordering (d3: weight 3, lowest index) wins.
    assert_eq!(a.root_moves.len(), 4);
    assert!(a.root_moves.iter().all(|r| r.value == a.value));
    assert_eq!(a.best_move, Some("d3".parse().unwrap()));
    assert_eq!(a.depth, 5);
}

#[test]
fn search_passes_and_finished_games() {
    let pass = Position::from_text_board(
        "  A B C D E F G H
1 X X X . . . . .
2 . . . . . . . .
3 . O X X X X X X
4 . . . . . . . .
5 . . . . . . . .
6 . . . . . . . .
7 . . . . . . . .
8 . . . . . . . O",
        Color::White,
    )
    .unwrap();
    let r = search(&pass, 3);
    assert_eq!(r.best_move, None);
    assert!(r.root_moves.is_empty());
    // Black then plays a3 and wins 11–1.
    assert_eq!(r.value, -WIN_SCORE - 10);
    let over = engine::parse_transcript("d3c3b3d2e1d6d7e3f4").unwrap();
    let r = search(over.position(), 4);
    assert_eq!(r.best_move, None);
    assert_eq!(
        r.value,
        terminal_score(over.position(), over.position().side_to_move)
    );
}

#[test]
fn evaluation_terms_add_up() {
    let pos = Position::initial();
    let t = evaluation_terms(&pos, Color::Black);
    assert_eq!(t.positional, 0);
    assert_eq!(t.mobility, 0);
    assert_eq!(t.frontier, 0);
    assert_eq!(t.discs, 0);
    let after = pos.play("f5".parse().unwrap()).unwrap().position;
    // Black: d5 e4 e5 f5 (weights 3,3,3,3); white: d4 (3).
    let t = evaluation_terms(&after, Color::Black);
    assert_eq!(t.positional, 12 - 3);
    assert_eq!(
        t.mobility,
        12 * (after.legal_moves_for(Color::Black).count() as i32 - 3)
    );
    assert_eq!(t.frontier, 4 * (1 - 4));
    assert_eq!(t.discs, 3);
    for pos in common::positions(3, 12, 5)
        .into_iter()
        .chain(common::positions(4, 40, 5))
    {
        for ai in [Color::Black, Color::White] {
            let t = evaluation_terms(&pos, ai);
            assert_eq!(t.total, t.positional + t.mobility + t.frontier + t.discs);
            assert_eq!(t.total, evaluate(&pos, ai));
            assert_eq!(evaluate(&pos, ai), -evaluate(&pos, ai.opponent()));
            let weight = if pos.empty_count() < 16 { 8 } else { 1 };
            assert_eq!(t.discs, weight * pos.disc_difference(ai));
        }
    }
}

#[test]
fn parallel_search_returns_the_serial_result() {
    for (i, empties) in [56u32, 48, 40, 30, 20, 12].into_iter().enumerate() {
        for pos in common::positions(300 + i as u64, empties, 3) {
            for depth in [1u32, 3, 4] {
                let serial = search(&pos, depth);
                for threads in 1..=4 {
                    let parallel = search_parallel(&pos, depth, threads);
                    assert_eq!(parallel.best_move, serial.best_move);
                    assert_eq!(parallel.value, serial.value);
                    assert_eq!(parallel.root_moves, serial.root_moves);
                    assert_eq!(parallel.principal_variation, serial.principal_variation);
                }
            }
        }
    }
}
