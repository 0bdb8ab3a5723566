//! The built-in offline explainer: a short strategic explanation and one
//! reusable lesson written from the fact sheet alone, so the lab works with no
//! model at all.

use super::{BoxFuture, ExplainError, Explainer, Explanation};
use crate::lab::facts::FactSheet;
use app::lab::ProviderStatus;
use std::fmt::Write;

/// Provider name shown on the page.
pub const PROVIDER: &str = "Offline explainer (built-in)";

/// The offline explainer.
#[derive(Clone, Copy, Debug, Default)]
pub struct Offline;

impl Explainer for Offline {
    fn explain<'a>(
        &'a self,
        facts: &'a FactSheet,
    ) -> BoxFuture<'a, Result<Explanation, ExplainError>> {
        Box::pin(async move { Ok(write(facts)) })
    }

    fn status(&self) -> ProviderStatus {
        ProviderStatus {
            kind: "offline".into(),
            name: PROVIDER.into(),
            ready: true,
            detail: "Explanations are written on the server from the position's facts; no model is used.".into(),
        }
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn list(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// Writes the explanation and lesson of a placement.
pub fn write(facts: &FactSheet) -> Explanation {
    let side = facts.side_name();
    let opponent = facts.opponent_name();
    let mut text = String::new();
    let captured = facts.captured_count as usize;
    let _ = write!(
        text,
        "{side} played {} and captured {} ({}), leaving {} black and {} white discs.",
        facts.square,
        plural(captured, "disc", "discs"),
        list(&facts.captured),
        facts.discs_after.black,
        facts.discs_after.white
    );

    // The square itself.
    match facts.square_kind.as_str() {
        "corner" => {
            let _ = write!(
                text,
                " Taking the {} corner gives {side} a disc that can never be flipped and an anchor for stable edges.",
                facts.square
            );
        }
        "x-square" => {
            let _ = write!(
                text,
                " {} is an X-square, diagonal to an empty corner: it can hand {opponent} that corner later.",
                facts.square
            );
        }
        "c-square" => {
            let _ = write!(
                text,
                " {} is a C-square next to an empty corner, a risky edge square until that corner is settled.",
                facts.square
            );
        }
        "edge" => {
            let _ = write!(
                text,
                " It is an edge move, harder for {opponent} to flip back."
            );
        }
        _ => {}
    }

    // Mobility, from the real move lists.
    let own_moves = facts.mover_moves_after.len();
    let replies = facts.opponent_replies.len();
    if facts.game_over {
        let _ = write!(text, " The move ends the game.");
    } else if facts.opponent_must_pass {
        let _ = write!(
            text,
            " {opponent} has no reply and must pass, so {side} moves again."
        );
    } else {
        let _ = write!(
            text,
            " Mobility: {opponent} now has {} ({}) against {} for {side} (mobility term {:+} → {:+}).",
            plural(replies, "reply", "replies"),
            list(&facts.opponent_replies),
            plural(own_moves, "move", "moves"),
            facts.terms_before.mobility,
            facts.terms_after.mobility
        );
    }
    if !facts.opponent_corner_replies.is_empty() {
        let _ = write!(
            text,
            " Warning: {opponent} can now take the corner {}.",
            list(&facts.opponent_corner_replies)
        );
    }
    // Frontier.
    let frontier_change = facts.terms_after.frontier - facts.terms_before.frontier;
    if frontier_change != 0 {
        let better = frontier_change > 0;
        let _ = write!(
            text,
            " The frontier term went from {:+} to {:+}: {side} {} discs that touch empty squares.",
            facts.terms_before.frontier,
            facts.terms_after.frontier,
            if better {
                "now has relatively fewer"
            } else {
                "now has relatively more"
            }
        );
    }
    // The search's comparison with the alternatives.
    let mut others: Vec<_> = facts.alternatives.iter().filter(|a| !a.chosen).collect();
    others.sort_by_key(|a| std::cmp::Reverse(a.value));
    match others.first() {
        Some(next) => {
            let _ = write!(
                text,
                " A depth-{} search rated {} at {:+}, ahead of {} other {} (best of them {} at {:+}).",
                facts.search_depth,
                facts.square,
                facts.search_value,
                others.len(),
                if others.len() == 1 { "option" } else { "options" },
                next.square,
                next.value
            );
        }
        None => {
            let _ = write!(text, " It was {side}'s only legal move.");
        }
    }

    endgame_sentence(&mut text, facts);

    let lesson = lesson(facts, frontier_change);
    Explanation {
        explanation: text,
        lesson,
        provider: PROVIDER.to_string(),
    }
}

/// Perfect-play results, only when the sheet says they are exact.
fn endgame_sentence(text: &mut String, facts: &FactSheet) {
    use crate::lab::exact::result_words;
    let Some(truth) = &facts.endgame else { return };
    if !truth.is_exact() {
        let _ = write!(
            text,
            " The exact endgame solver ran out of its budget here, so these values are estimates, not perfect play."
        );
        return;
    }
    let Some(played) = truth.played else { return };
    let _ = write!(
        text,
        " Perfect play: {} {}",
        facts.square,
        result_words(played)
    );
    match truth.moves.first() {
        Some(best) if best.final_disc_difference > played => {
            let _ = write!(
                text,
                ", while {} {} ({} discs lost to the best move).",
                best.square,
                result_words(best.final_disc_difference),
                best.final_disc_difference - played
            );
        }
        _ => {
            let _ = write!(text, ", the best result available.");
        }
    }
}

fn lesson(facts: &FactSheet, frontier_change: i32) -> String {
    let replies = facts.opponent_replies.len();
    let own = facts.mover_moves_after.len();
    if facts.square_kind == "corner" {
        "Take a corner when it is offered: corner discs are stable and protect the edges next to them.".into()
    } else if !facts.opponent_corner_replies.is_empty() {
        "Before you move, check whether your move lets the opponent into a corner.".into()
    } else if facts.square_kind == "x-square" {
        "Avoid the squares diagonally next to an empty corner; they tend to give that corner away."
            .into()
    } else if facts.opponent_must_pass {
        "Moves that leave the opponent without a reply are worth a lot: you keep the initiative."
            .into()
    } else if facts.empty_squares_after < 16 {
        "In the endgame the disc count starts to decide the game: count the captures, not just the shape.".into()
    } else if frontier_change < 0 {
        "Moves that create new frontier discs give the opponent more options; prefer quiet moves inside your own wall.".into()
    } else if own > replies {
        "Keep more moves for yourself than your opponent has: mobility wins Othello games.".into()
    } else if facts.captured_count <= 2 {
        "Flipping few discs in the opening and middle game often keeps the opponent short of moves."
            .into()
    } else {
        "Capturing many discs early is not a goal in itself; watch how many replies it gives your opponent.".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::facts::build;
    use engine::{search, Game, Position, Square};

    #[test]
    fn names_the_real_move_and_the_real_capture_count() {
        // A midgame position: a few opening moves, then a depth-3 search.
        let moves: Vec<Square> = ["f5", "f6", "e6", "f4", "e3", "c5"]
            .iter()
            .map(|s| s.parse().expect("square"))
            .collect();
        let game = Game::replay(&moves).expect("legal opening");
        let before: Position = *game.position();
        let report = search(&before, 3);
        let square = report.best_move.expect("a move");
        let facts = build(7, &before, square, &report);
        let written = write(&facts);
        let captured = before.flips(square).count();
        assert!(captured >= 1);
        assert!(
            written.explanation.contains(&format!("played {square}")),
            "{}",
            written.explanation
        );
        let count = if captured == 1 {
            "captured 1 disc ".to_string()
        } else {
            format!("captured {captured} discs ")
        };
        assert!(
            written.explanation.contains(&count),
            "{}",
            written.explanation
        );
        for flipped in before.flips(square).iter() {
            assert!(written.explanation.contains(&flipped.to_string()));
        }
        assert!(
            written.explanation.contains("Mobility"),
            "{}",
            written.explanation
        );
        assert!(!written.lesson.is_empty());
        assert_eq!(written.provider, PROVIDER);
    }

    fn endgame_facts(max_nodes: u64) -> FactSheet {
        use crate::lab::exact::{truth, ExactLimits};
        let mut game = Game::new();
        while game.position().empty_count() > 12 {
            let position = *game.position();
            let first = position.legal_moves().iter().next().expect("a move");
            game.play(first).expect("legal");
        }
        let before = *game.position();
        let report = search(&before, 2);
        let square = report.best_move.expect("a move");
        let mut facts = build(49, &before, square, &report);
        facts.endgame = truth(
            &before,
            square,
            ExactLimits {
                empties: 20,
                max_nodes,
            },
        );
        facts
    }

    #[test]
    fn exact_endgames_state_perfect_play_results() {
        let facts = endgame_facts(u64::MAX);
        let truth = facts.endgame.as_ref().expect("in range");
        assert!(truth.is_exact());
        let played = truth.played.expect("value");
        let written = write(&facts);
        let words = crate::lab::exact::result_words(played);
        assert!(
            written
                .explanation
                .contains(&format!("Perfect play: {} {words}", facts.square)),
            "{}",
            written.explanation
        );
    }

    #[test]
    fn the_offline_explainer_never_claims_exactness_on_an_estimate() {
        let facts = endgame_facts(10);
        assert_eq!(
            facts.endgame.as_ref().map(|t| t.status.as_str()),
            Some("estimate")
        );
        let written = write(&facts);
        let lower = written.explanation.to_lowercase();
        assert!(!lower.contains("perfect play:"), "{}", written.explanation);
        assert!(!lower.contains("wins by") && !lower.contains("loses by"));
        assert!(lower.contains("estimates"), "{}", written.explanation);
        // And with no endgame facts at all (midgame) nothing is claimed either.
        let mut midgame = facts.clone();
        midgame.endgame = None;
        assert!(!write(&midgame)
            .explanation
            .to_lowercase()
            .contains("perfect play"));
    }

    #[test]
    fn a_corner_move_is_called_a_corner() {
        // Find a game position where a corner is legal, play it.
        let mut game = Game::new();
        let mut found = None;
        for _ in 0..60 {
            let position = *game.position();
            if position.is_game_over() {
                break;
            }
            let legal = position.legal_moves();
            if let Some(corner) = legal.iter().find(|s| [0, 7, 56, 63].contains(&s.index())) {
                found = Some((position, corner));
                break;
            }
            let first = legal.iter().next().expect("a legal move");
            game.play(first).expect("legal");
        }
        let (position, corner) = found.expect("a corner becomes available");
        let report = search(&position, 1);
        let facts = build(1, &position, corner, &report);
        let written = write(&facts);
        assert!(
            written.explanation.contains(&format!("{corner} corner")),
            "{}",
            written.explanation
        );
        assert!(written.lesson.contains("corner"));
    }
}
