//! The play AI against the independent exhaustive MiniMax, determinism,
//! evaluation terms and the parallel root search.

mod common;
use engine::{
    analyse_root, evaluate, evaluation_terms, reference, search, search_parallel, terminal_score,
    Color, Position, Square, MOVE_ORDER, WEIGHTS, WEIGHT_GROUPS, WIN_SCORE,
};

fn check_against_reference(pos: &Position, depth: u32) {
    let report = search(pos, depth);
    let analysis = analyse_root(pos, depth);
    let reference = reference::best_move(pos, depth);
    match reference {
        None => {
            assert_eq!(report.best_move, None);
            assert_eq!(analysis.best_move, None);
        }
        Some(reference::ReferenceChoice {
            best_move: square,
            value,
            root_moves: values,
        }) => {
            for r in [&report, &analysis] {
                assert_eq!(r.best_move, Some(square), "move at depth {depth}:\n{pos}");
                assert_eq!(r.value, value, "value at depth {depth}:\n{pos}");
                assert_eq!(r.principal_variation.first(), Some(&square));
            }
            // The analysis gives every move its exact value ...
            let got: Vec<(Square, i32)> = analysis
                .root_moves
                .iter()
                .map(|r| (r.square, r.value))
                .collect();
            assert_eq!(got, values, "root values at depth {depth}:\n{pos}");
            assert!(analysis.root_moves.iter().all(|r| r.exact));
            // ... the α–β root exact values where it says so, and elsewhere
            // upper bounds no better than the best.
            assert_eq!(report.root_moves.len(), values.len());
            assert!(report.root_moves[0].exact);
            for (r, &(sq, exact)) in report.root_moves.iter().zip(&values) {
                assert_eq!(r.square, sq);
                if r.exact {
                    assert_eq!(r.value, exact, "{sq} at depth {depth}:\n{pos}");
                } else {
                    assert!(r.value >= exact && r.value <= value, "{sq}:\n{pos}");
                }
            }
            let chosen = report.root_moves.iter().find(|r| r.square == square);
            assert!(chosen.is_some_and(|r| r.exact && r.value == value));
            assert!(analysis.nodes >= report.nodes);
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
    // ordering (d3: weight 3, lowest index) wins; a later move must be
    // strictly better to replace it.
    let analysis = analyse_root(&pos, 5);
    assert_eq!(analysis.root_moves.len(), 4);
    assert!(analysis.root_moves.iter().all(|r| r.value == a.value));
    assert_eq!(a.root_moves.len(), 4);
    assert_eq!(a.best_move, Some("d3".parse().unwrap()));
    assert_eq!(analysis.best_move, a.best_move);
    assert_eq!(a.depth, 5);
    // The α–β root proves the three later moves no better without
    // searching them fully, so it visits fewer positions.
    assert!(a.nodes < analysis.nodes);
}

#[test]
fn positions_searched_count_the_calls_below_the_root() {
    // Depth 1 from the start: one call per legal move, the root not counted.
    let start = Position::initial();
    assert_eq!(search(&start, 1).nodes, 4);
    assert_eq!(analyse_root(&start, 1).nodes, 4);
    // Depth 2, counted by hand: the first move's replies are all searched
    // (β = +∞); a later move stops at its first reply no better than the
    // best so far.
    let r = search(&start, 2);
    let mut expected = 0;
    let mut alpha = i32::MIN;
    for m in ordered(&start) {
        let child = start.play(m).unwrap().position;
        expected += 1;
        let mut exact = i32::MAX;
        for reply in ordered(&child) {
            let v = evaluate(&child.play(reply).unwrap().position, Color::Black);
            expected += 1;
            exact = exact.min(v);
            if exact <= alpha {
                break;
            }
        }
        alpha = alpha.max(exact);
    }
    assert_eq!(r.nodes, expected);
    assert_eq!(r.value, alpha);
}

/// Legal moves in the play AI's order (weight descending, lower index first).
fn ordered(pos: &Position) -> Vec<Square> {
    MOVE_ORDER
        .iter()
        .copied()
        .filter(|&sq| pos.legal_moves().contains(sq))
        .collect()
}

#[test]
fn a_forced_pass_is_its_own_counted_call() {
    // Depth 1: each root move is one call; when the opponent must pass
    // there, that call re-calls itself (same depth 0) and both count.
    let mut with_pass = 0;
    for empties in [6u32, 8, 10, 14] {
        for pos in common::positions(4242 + u64::from(empties), empties, 40) {
            let mut expected = 0;
            for m in ordered(&pos) {
                let child = pos.play(m).unwrap().position;
                expected += 1;
                if child.legal_moves().is_empty() && !child.is_game_over() {
                    expected += 1;
                    with_pass += 1;
                }
            }
            if expected > 0 {
                assert_eq!(search(&pos, 1).nodes, expected, "\n{pos}");
            }
        }
    }
    assert!(with_pass > 0, "no forced pass among the test positions");
    // At the root itself: white must pass; the root call is not counted,
    // its re-call for black (same depth) is.
    let white = Position::from_text_board(
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
    let black = Position {
        side_to_move: Color::Black,
        ..white
    };
    let r = search(&white, 1);
    assert_eq!(r.best_move, None);
    assert_eq!(r.nodes, 1 + search(&black, 1).nodes);
    assert_eq!(search(&black, 1).nodes, black.legal_moves().count() as u64);
}

#[test]
fn every_square_is_in_exactly_one_weight_group() {
    let mut seen = 0u64;
    let mut previous = i32::MAX;
    for &(weight, squares) in &WEIGHT_GROUPS {
        assert_eq!(seen & squares, 0, "a square in two groups");
        assert_ne!(squares, 0, "an empty group");
        assert!(weight < previous, "groups in decreasing weight order");
        previous = weight;
        for (i, &w) in WEIGHTS.iter().enumerate() {
            if squares & (1 << i) != 0 {
                assert_eq!(w, weight, "square {i}");
            }
        }
        seen |= squares;
    }
    assert_eq!(seen, u64::MAX, "every square in a group");
    // The move order walks the groups in order, squares by index inside.
    let from_groups: Vec<usize> = WEIGHT_GROUPS
        .iter()
        .flat_map(|&(_, m)| (0..64).filter(move |i| m & (1u64 << i) != 0))
        .collect();
    let order: Vec<usize> = MOVE_ORDER.iter().map(|s| s.index()).collect();
    assert_eq!(order, from_groups);
    // The published weights: corners 120, C-squares −30, X-squares −50.
    for (names, w) in [
        ("a1 h1 a8 h8", 120),
        ("b1 g1 a2 h2 a7 h7 b8 g8", -30),
        ("b2 g2 b7 g7", -50),
        ("c1 f1 a3 h3 a6 h6 c8 f8", 20),
        ("d1 e1 a4 h4 a5 h5 d8 e8", 5),
        ("c3 f3 c6 f6", 15),
        ("c2 f2 b3 g3 b6 g6 c7 f7", -5),
        ("d3 e3 c4 f4 d4 e4", 3),
    ] {
        for name in names.split(' ') {
            let sq: Square = name.parse().unwrap();
            assert_eq!(WEIGHTS[sq.index()], w, "{name}");
        }
    }
    assert_eq!(WEIGHT_GROUPS.len(), 8);
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
                let analysis = analyse_root(&pos, depth);
                for threads in 1..=4 {
                    let parallel = search_parallel(&pos, depth, threads);
                    // The play AI's move and value ...
                    assert_eq!(parallel.best_move, serial.best_move);
                    assert_eq!(parallel.value, serial.value);
                    // ... with the analysis's exact root values.
                    assert_eq!(parallel, analysis);
                }
            }
        }
    }
}

/// The crate documentation's example (`engine/src/lib.rs`), run here rather
/// than as a doc test (the workspace runs no doc tests: rustdoc over every
/// crate for two examples cost ~28 s of each test run).
#[test]
fn the_crate_example_plays_f5_and_searches() {
    let pos = Position::initial();
    let f5: Square = "f5".parse().unwrap();
    let after = pos.play(f5).unwrap();
    assert_eq!(after.flipped.count(), 1);
    let report = search(&after.position, 3);
    assert!(report.best_move.is_some());
}
