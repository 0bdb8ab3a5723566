//! The exact solver on the kept small-endgame set
//! (`data/small14-20.obf`: 98 self-play positions at 14–20 empties, seed
//! 1420, `othello gen-positions`; every score agrees with Edax 4.6): the
//! positions at 14–17 empties of its first 21 lines, solved by the plain
//! solver (both copies) and the evaluation-ordered one.

use engine::{default_weights, solve, solve_with, Position, SolveOptions};

const SMALL: &str = include_str!("data/small14-20.obf");

/// The position and listed score of each line with at most `max` empties
/// among the first `lines`.
fn small_set(lines: usize, max: u32) -> Vec<(Position, i32)> {
    SMALL
        .lines()
        .take(lines)
        .map(|line| {
            let pos = Position::from_obf(line).expect("the set parses");
            let score = line
                .split(';')
                .skip(1)
                .filter_map(|item| item.split_once(':')?.1.trim().parse::<i32>().ok())
                .max()
                .expect("a listed score");
            (pos, score)
        })
        .filter(|(pos, _)| pos.empty_count() <= max)
        .collect()
}

#[test]
fn the_small_set_is_98_positions_at_14_to_20_empties_each_with_a_move() {
    let all = small_set(usize::MAX, 64);
    assert_eq!(all.len(), 98);
    for (k, (pos, _)) in all.iter().enumerate() {
        assert_eq!(pos.empty_count(), 14 + (k % 7) as u32, "line {}", k + 1);
        assert!(!pos.legal_moves().is_empty(), "line {}", k + 1);
    }
}

#[test]
fn small_endgames_solve_to_the_listed_scores() {
    let picks = small_set(21, 17);
    assert_eq!(picks.len(), 12);
    for (pos, score) in picks {
        let r = solve(&pos);
        assert_eq!(r.score, score, "\n{pos}");
        let portable = SolveOptions {
            portable: true,
            ..SolveOptions::default()
        };
        assert_eq!(
            solve_with(&pos, portable).expect("no budget").result,
            r,
            "\n{pos}"
        );
        let ordered = solve_with(&pos, SolveOptions::with_eval(default_weights()))
            .expect("no budget")
            .result;
        assert_eq!(ordered.score, score, "\n{pos}");
    }
}
