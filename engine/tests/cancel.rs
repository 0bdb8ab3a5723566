//! Cancellation (issue 66): a search or solve whose caller sets the
//! limits' stop flag returns promptly with what it has — a server sets the
//! flag when the search's requester has gone, so an abandoned search frees
//! its worker within milliseconds.

use engine::{
    default_weights, evaluate_position, score_all_moves, solve_with, Game, Limits, Position,
    SolveOptions,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Far less than any of these searches takes uncancelled (a depth-60
/// search from the start, a 30-empty solve: hours).
const PROMPTLY: Duration = Duration::from_secs(10);

fn midgame() -> Position {
    // 30 empty squares: no exact solve finishes soon without a budget.
    let mut game = Game::new();
    while game.position().empty_count() > 30 {
        let square = game.position().legal_moves().iter().last().expect("a move");
        game.play(square).expect("legal");
    }
    *game.position()
}

#[test]
fn a_search_with_the_flag_set_returns_at_once_with_a_legal_move() {
    let stop = AtomicBool::new(true);
    let start = Position::initial();
    let limits = Limits::depth(60).until(Some(&stop));
    let report = evaluate_position(&start, default_weights(), limits);
    assert_eq!(report.depth, 0, "no iteration finished");
    assert!(!report.exact);
    assert!(start.is_legal(report.best_move.expect("a move")));
    // Every move's scoring stops before the first move.
    assert!(score_all_moves(&start, default_weights(), limits).is_empty());
    // Unset, the same limits search (the flag is all that changed).
    let go = AtomicBool::new(false);
    let searched = evaluate_position(&start, default_weights(), Limits::depth(3).until(Some(&go)));
    assert_eq!(searched.depth, 3);
}

#[test]
fn a_running_search_stops_when_another_thread_sets_the_flag() {
    let stop = AtomicBool::new(false);
    let start = Position::initial();
    let began = Instant::now();
    let report = std::thread::scope(|scope| {
        let search = scope.spawn(|| {
            evaluate_position(
                &start,
                default_weights(),
                Limits::depth(60).until(Some(&stop)),
            )
        });
        stop.store(true, Ordering::Relaxed);
        search.join().expect("the search")
    });
    assert!(began.elapsed() < PROMPTLY, "{:?}", began.elapsed());
    assert!(
        report.depth < 60,
        "a partial result: depth {}",
        report.depth
    );
    assert!(start.is_legal(report.best_move.expect("a move")));
}

#[test]
fn a_solve_gives_up_when_the_flag_is_set() {
    let pos = midgame();
    assert_eq!(pos.empty_count(), 30);
    let stop = AtomicBool::new(true);
    let solved = solve_with(&pos, SolveOptions::default().until(Some(&stop)));
    assert!(solved.is_none(), "given up as a spent budget");
    // Set while it runs (from another thread), with or without the
    // evaluation's ordering and with several threads.
    let weights = default_weights();
    for options in [
        SolveOptions::default(),
        SolveOptions::with_eval(weights),
        SolveOptions {
            threads: 2,
            ..SolveOptions::with_eval(weights)
        },
    ] {
        let stop = AtomicBool::new(false);
        let began = Instant::now();
        let solved = std::thread::scope(|scope| {
            let solve = scope.spawn(|| solve_with(&pos, options.until(Some(&stop))));
            stop.store(true, Ordering::Relaxed);
            solve.join().expect("the solve")
        });
        assert!(began.elapsed() < PROMPTLY, "{:?}", began.elapsed());
        assert!(solved.is_none());
    }
}

#[test]
fn a_strong_search_in_the_exact_range_stops_too() {
    // 30 empties, exact from 30: the solve runs first (half the budget),
    // then the search; the flag stops both.
    let pos = midgame();
    let stop = AtomicBool::new(false);
    let limits = Limits {
        exact_from_empties: 30,
        ..Limits::depth(60)
    }
    .until(Some(&stop));
    let began = Instant::now();
    let report = std::thread::scope(|scope| {
        let search = scope.spawn(|| evaluate_position(&pos, default_weights(), limits));
        stop.store(true, Ordering::Relaxed);
        search.join().expect("the search")
    });
    assert!(began.elapsed() < PROMPTLY, "{:?}", began.elapsed());
    assert!(!report.exact);
    assert!(report.depth < 60);
}
