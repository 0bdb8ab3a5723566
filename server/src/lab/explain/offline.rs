//! The built-in offline explainer: a short strategic explanation and one
//! reusable lesson written from the fact sheet alone, so the lab works with no
//! model at all.

use super::{BoxFuture, ExplainError, Explainer, Explanation};
use crate::lab::facts::FactSheet;
use app::i18n::Lang;
use app::lab::ProviderStatus;
use app::t;

/// Provider name shown on the page (English, as stored; the page shows it in
/// its own language, see the `srv-explain-provider` message).
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
            detail: t!(Lang::En, "srv-explain-provider-detail"),
        }
    }
}

fn list(lang: Lang, items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => t!(
            lang,
            "explain-list-and",
            rest = items[..n - 1].join(", "),
            last = &items[n - 1]
        ),
    }
}

/// Writes the explanation and lesson of a placement, in the fact sheet's
/// language; the sentences live in `app/locales/*.ftl` (`explain-*`,
/// `lesson-*`).
pub fn write(facts: &FactSheet) -> Explanation {
    let lang = facts.lang;
    let side = facts.side_name();
    let opponent = facts.opponent_name();
    let mut sentences: Vec<String> = Vec::new();
    sentences.push(t!(
        lang,
        "explain-played",
        side = side,
        square = &facts.square,
        captured = facts.captured_count,
        list = list(lang, &facts.captured),
        black = facts.discs_after.black,
        white = facts.discs_after.white
    ));

    // The square itself.
    let square = &facts.square;
    match facts.square_kind.as_str() {
        "corner" => sentences.push(t!(lang, "explain-corner", square = square, side = side)),
        "x-square" => sentences.push(t!(
            lang,
            "explain-x-square",
            square = square,
            opponent = opponent
        )),
        "c-square" => sentences.push(t!(lang, "explain-c-square", square = square)),
        "edge" => sentences.push(t!(lang, "explain-edge", opponent = opponent)),
        _ => {}
    }

    // Mobility, from the real move lists.
    let own_moves = facts.mover_moves_after.len();
    let replies = facts.opponent_replies.len();
    if facts.game_over {
        sentences.push(t!(lang, "explain-game-over"));
    } else if facts.opponent_must_pass {
        sentences.push(t!(
            lang,
            "explain-must-pass",
            opponent = opponent,
            side = side
        ));
    } else {
        sentences.push(t!(
            lang,
            "explain-mobility",
            opponent = opponent,
            replies = replies,
            list = list(lang, &facts.opponent_replies),
            own = own_moves,
            side = side,
            before = format!("{:+}", facts.terms_before.mobility),
            after = format!("{:+}", facts.terms_after.mobility)
        ));
    }
    if !facts.opponent_corner_replies.is_empty() {
        sentences.push(t!(
            lang,
            "explain-corner-warning",
            opponent = opponent,
            list = list(lang, &facts.opponent_corner_replies)
        ));
    }
    // Frontier.
    let frontier_change = facts.terms_after.frontier - facts.terms_before.frontier;
    if frontier_change != 0 {
        let before = format!("{:+}", facts.terms_before.frontier);
        let after = format!("{:+}", facts.terms_after.frontier);
        sentences.push(if frontier_change > 0 {
            t!(
                lang,
                "explain-frontier-better",
                before = before,
                after = after,
                side = side
            )
        } else {
            t!(
                lang,
                "explain-frontier-worse",
                before = before,
                after = after,
                side = side
            )
        });
    }
    // The search's comparison with the alternatives.
    let mut others: Vec<_> = facts.alternatives.iter().filter(|a| !a.chosen).collect();
    others.sort_by_key(|a| std::cmp::Reverse(a.value));
    match others.first() {
        Some(next) => sentences.push(t!(
            lang,
            "explain-search",
            depth = facts.search_depth,
            square = square,
            value = format!("{:+}", facts.search_value),
            others = others.len(),
            next = &next.square,
            next_value = format!("{:+}", next.value)
        )),
        None => sentences.push(t!(lang, "explain-only-move", side = side)),
    }

    if let Some(sentence) = endgame_sentence(lang, facts) {
        sentences.push(sentence);
    }

    let lesson = lesson(facts, frontier_change);
    Explanation {
        explanation: sentences.join(" "),
        lesson,
        provider: PROVIDER.to_string(),
    }
}

/// A perfect-play result in words (`wins by 6`).
fn result_words(lang: Lang, diff: i32) -> String {
    match diff.cmp(&0) {
        std::cmp::Ordering::Greater => t!(lang, "explain-result-wins", by = diff),
        std::cmp::Ordering::Less => t!(lang, "explain-result-loses", by = -diff),
        std::cmp::Ordering::Equal => t!(lang, "explain-result-draws"),
    }
}

/// Perfect-play results, only when the sheet says they are exact.
fn endgame_sentence(lang: Lang, facts: &FactSheet) -> Option<String> {
    let truth = facts.endgame.as_ref()?;
    if !truth.is_exact() {
        return Some(t!(lang, "explain-estimate"));
    }
    let played = truth.played?;
    Some(match truth.moves.first() {
        Some(best) if best.final_disc_difference > played => t!(
            lang,
            "explain-perfect-worse",
            square = &facts.square,
            result = result_words(lang, played),
            best = &best.square,
            best_result = result_words(lang, best.final_disc_difference),
            lost = best.final_disc_difference - played
        ),
        _ => t!(
            lang,
            "explain-perfect-best",
            square = &facts.square,
            result = result_words(lang, played)
        ),
    })
}

fn lesson(facts: &FactSheet, frontier_change: i32) -> String {
    let lang = facts.lang;
    let replies = facts.opponent_replies.len();
    let own = facts.mover_moves_after.len();
    if facts.square_kind == "corner" {
        t!(lang, "lesson-corner")
    } else if !facts.opponent_corner_replies.is_empty() {
        t!(lang, "lesson-corner-risk")
    } else if facts.square_kind == "x-square" {
        t!(lang, "lesson-x-square")
    } else if facts.opponent_must_pass {
        t!(lang, "lesson-no-reply")
    } else if facts.empty_squares_after < 16 {
        t!(lang, "lesson-endgame")
    } else if frontier_change < 0 {
        t!(lang, "lesson-frontier")
    } else if own > replies {
        t!(lang, "lesson-mobility")
    } else if facts.captured_count <= 2 {
        t!(lang, "lesson-quiet")
    } else {
        t!(lang, "lesson-greedy")
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
            "flipped 1 disc ".to_string()
        } else {
            format!("flipped {captured} discs ")
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
    fn a_greek_game_is_explained_in_greek() {
        let start = Position::initial();
        let report = search(&start, 2);
        let square = report.best_move.expect("a move");
        let mut facts = build(1, &start, square, &report);
        facts.lang = Lang::El;
        let written = write(&facts);
        assert!(
            written
                .explanation
                .starts_with(&format!("Τα μαύρα έπαιξαν {square} και γύρισαν 1 πούλι")),
            "{}",
            written.explanation
        );
        assert!(
            written.explanation.contains("Κινητικότητα"),
            "{}",
            written.explanation
        );
        assert!(
            !written.explanation.contains("Mobility") && !written.lesson.contains("the "),
            "no English left: {} / {}",
            written.explanation,
            written.lesson
        );
        // The same squares as in English: the fact check still applies.
        facts.lang = Lang::En;
        let english = write(&facts);
        assert_eq!(
            crate::lab::factcheck::named_squares(&written.explanation),
            crate::lab::factcheck::named_squares(&english.explanation)
        );
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
