//! The built-in offline explainer: a short strategic explanation and one
//! reusable lesson written from the fact sheet alone, so the lab works with no
//! model at all.
//!
//! (Over 600 lines: the built-in explainer's phrasings in both languages and the tests that keep them grounded.)
//!

use super::{BoxFuture, ExplainError, Explainer, Explanation};
use crate::lab::facts::FactSheet;
use app::i18n::Lang;
use app::lab::ProviderStatus;
use app::t;

/// Provider name shown on the page (English, as stored; the page shows it in
/// its own language, see the `srv-explain-provider` message).
pub const PROVIDER: &str = app::lab::OFFLINE_PROVIDER;

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

/// What happened on one move, in the terms a club player uses: how many
/// moves each side has, frontier and stable discs, corners, X- and
/// C-squares, parity. Read from the fact sheet; the explanation and the
/// lesson are both chosen from it.
#[derive(Clone, Copy, Debug)]
struct Happened {
    /// The opponent's moves before and after the placement.
    opponent_moves_before: u32,
    opponent_moves_after: u32,
    /// The mover's moves in the new position.
    own_moves_after: u32,
    /// The mover's frontier discs before and after, the opponent's after.
    own_frontier_before: u32,
    own_frontier_after: u32,
    opponent_frontier_after: u32,
    /// The mover's stable discs before and after.
    own_stable_before: u32,
    own_stable_after: u32,
    /// The mover's legal moves (the played one included).
    choices: u32,
    /// No other move left the opponent fewer replies, and some left more.
    fewest_replies: bool,
    /// No other move made fewer frontier discs, and some made more.
    quietest: bool,
    /// Frontier discs more than the quietest other move would have made.
    louder_than_quietest: u32,
}

impl Happened {
    fn of(facts: &FactSheet) -> Self {
        let me = facts.color();
        let them = me.opponent();
        let chosen = facts.alternatives.iter().find(|a| a.chosen);
        let others = || facts.alternatives.iter().filter(|a| !a.chosen);
        // Compared with the other legal moves (meaningful from three moves).
        let best_of = |key: fn(&crate::lab::facts::Alternative) -> u32| {
            chosen.is_some_and(|c| {
                facts.alternatives.len() >= 3
                    && others().all(|a| key(a) >= key(c))
                    && others().any(|a| key(a) > key(c))
            })
        };
        let quietest_other = others().map(|a| a.frontier_after).min();
        Happened {
            choices: facts.alternatives.len() as u32,
            fewest_replies: best_of(|a| a.opponent_replies),
            quietest: best_of(|a| a.frontier_after),
            louder_than_quietest: match (chosen, quietest_other) {
                (Some(c), Some(q)) => c.frontier_after.saturating_sub(q),
                _ => 0,
            },
            opponent_moves_before: facts.opponent_moves_before,
            opponent_moves_after: facts.opponent_replies.len() as u32,
            own_moves_after: facts.mover_moves_after.len() as u32,
            own_frontier_before: facts.frontier_before.of_color(me),
            own_frontier_after: facts.frontier_after.of_color(me),
            opponent_frontier_after: facts.frontier_after.of_color(them),
            own_stable_before: facts.stable_before.of_color(me),
            own_stable_after: facts.stable_after.of_color(me),
        }
    }

    /// Frontier discs the move added (negative: removed).
    fn frontier_added(self) -> i64 {
        i64::from(self.own_frontier_after) - i64::from(self.own_frontier_before)
    }

    /// Stable discs the move won.
    fn stable_gained(self) -> u32 {
        self.own_stable_after.saturating_sub(self.own_stable_before)
    }

    /// How many moves the placement took from the opponent (negative: gave).
    fn moves_taken(self) -> i64 {
        i64::from(self.opponent_moves_before) - i64::from(self.opponent_moves_after)
    }
}

/// From this many empty squares down, parity is worth a sentence.
const PARITY_EMPTIES: u32 = 14;

/// Writes the explanation and lesson of a placement, in the fact sheet's
/// language; the sentences live in `app/locales/*.ftl` (`explain-*`,
/// `lesson-*`). Plain Othello language: what the move did to each side's
/// choices, frontier and stable discs, corners and parity, never the
/// evaluation's internal terms.
pub fn write(facts: &FactSheet) -> Explanation {
    let lang = facts.lang;
    let side = facts.side_name();
    let opponent = facts.opponent_name();
    let happened = Happened::of(facts);
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

    // Mobility: how many moves each side has, from the real move lists.
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
        let change = match happened.moves_taken().cmp(&0) {
            std::cmp::Ordering::Greater => "fewer",
            std::cmp::Ordering::Less => "more",
            std::cmp::Ordering::Equal => "same",
        };
        sentences.push(t!(
            lang,
            "explain-mobility",
            opponent = opponent,
            replies = happened.opponent_moves_after,
            list = list(lang, &facts.opponent_replies),
            change = change,
            before = happened.opponent_moves_before,
            own = happened.own_moves_after,
            side = side
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

    if !facts.game_over {
        // Frontier discs: discs next to an empty square.
        let own = happened.own_frontier_after;
        let theirs = happened.opponent_frontier_after;
        let added = happened.frontier_added();
        if added > 0 {
            sentences.push(t!(
                lang,
                "explain-frontier-more",
                side = side,
                opponent = opponent,
                added = added,
                own = own,
                theirs = theirs
            ));
        } else if added < 0 {
            sentences.push(t!(
                lang,
                "explain-frontier-fewer",
                side = side,
                opponent = opponent,
                before = happened.own_frontier_before,
                own = own,
                theirs = theirs
            ));
        } else if facts.captured_count <= 2 {
            sentences.push(t!(
                lang,
                "explain-frontier-same",
                side = side,
                opponent = opponent,
                own = own,
                theirs = theirs
            ));
        }
    }

    // Compared with the other moves it had.
    if !facts.game_over && happened.fewest_replies {
        sentences.push(t!(
            lang,
            "explain-fewest-replies",
            side = side,
            opponent = opponent,
            moves = happened.choices
        ));
    } else if !facts.game_over && happened.quietest {
        sentences.push(t!(
            lang,
            "explain-quietest",
            side = side,
            moves = happened.choices
        ));
    }

    // Stable discs (a corner says so itself unless it won more than the corner).
    let gained = happened.stable_gained();
    if gained > 1 || (gained == 1 && facts.square_kind != "corner") {
        sentences.push(t!(
            lang,
            "explain-stable",
            side = side,
            stable = happened.own_stable_after,
            gained = gained
        ));
    }

    // Parity, in the endgame.
    let empties = facts.empty_squares_after;
    if !facts.game_over && !facts.opponent_must_pass && empties <= PARITY_EMPTIES {
        let last = if empties.is_multiple_of(2) {
            side
        } else {
            opponent
        };
        sentences.push(t!(lang, "explain-parity", empties = empties, last = last));
    }

    sentences.push(search_sentence(lang, facts));
    if let Some(sentence) = discs_sentence(lang, facts) {
        sentences.push(sentence);
    }
    if let Some(sentence) = endgame_sentence(lang, facts) {
        sentences.push(sentence);
    }

    Explanation {
        explanation: sentences.join(" "),
        lesson: lesson(facts, happened),
        provider: PROVIDER.to_string(),
    }
}

/// The move in discs as the game analysis values it (the trained
/// evaluation's estimate): the best, or below the best. Exact values have the
/// endgame's own sentence.
fn discs_sentence(lang: Lang, facts: &FactSheet) -> Option<String> {
    if facts.discs_exact {
        return None;
    }
    let value = facts.played_discs()?;
    let best = facts
        .alternatives
        .iter()
        .filter_map(|a| Some((a.discs?, &a.square)))
        .max_by_key(|(v, _)| *v)?;
    Some(if best.0 > value {
        t!(
            lang,
            "explain-discs-below",
            square = &facts.square,
            side = facts.side_name(),
            value = format!("{value:+}"),
            best = best.1,
            best_value = format!("{:+}", best.0)
        )
    } else {
        t!(
            lang,
            "explain-discs-best",
            square = &facts.square,
            side = facts.side_name(),
            value = format!("{value:+}")
        )
    })
}

/// The search's comparison of the move with the other legal moves: "as good
/// as" for ties, the next best otherwise.
fn search_sentence(lang: Lang, facts: &FactSheet) -> String {
    let mut others: Vec<_> = facts.alternatives.iter().filter(|a| !a.chosen).collect();
    others.sort_by_key(|a| std::cmp::Reverse(a.value));
    let Some(next) = others.first() else {
        return t!(lang, "explain-only-move", side = facts.side_name());
    };
    let value = facts.search_value;
    let depth = facts.search_depth;
    if next.value > value {
        return t!(
            lang,
            "explain-search-below",
            depth = depth,
            square = &facts.square,
            value = format!("{value:+}"),
            best = &next.square,
            best_value = format!("{:+}", next.value)
        );
    }
    let ties: Vec<String> = others
        .iter()
        .filter(|a| a.value == value)
        .map(|a| a.square.clone())
        .collect();
    if ties.is_empty() {
        t!(
            lang,
            "explain-search-best",
            depth = depth,
            square = &facts.square,
            moves = facts.alternatives.len(),
            value = format!("{value:+}"),
            next = &next.square,
            next_value = format!("{:+}", next.value)
        )
    } else {
        t!(
            lang,
            "explain-search-tie",
            depth = depth,
            square = &facts.square,
            ties = ties.len(),
            list = list(lang, &ties),
            value = format!("{value:+}")
        )
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

/// The lesson of what actually happened on the move, the most telling first:
/// corners, X- and C-squares, passes, the endgame, stable discs, then how
/// the move changed each side's choices and frontier.
fn lesson(facts: &FactSheet, happened: Happened) -> String {
    let lang = facts.lang;
    let kind = facts.square_kind.as_str();
    let endgame = facts.empty_squares_after <= PARITY_EMPTIES;
    let captured = facts.captured_count;
    if kind == "corner" {
        t!(lang, "lesson-corner")
    } else if !facts.opponent_corner_replies.is_empty() {
        t!(lang, "lesson-corner-risk")
    } else if kind == "x-square" {
        t!(lang, "lesson-x-square")
    } else if facts.opponent_must_pass {
        t!(lang, "lesson-no-reply")
    } else if facts.game_over || (endgame && captured >= 5) {
        t!(lang, "lesson-endgame")
    } else if endgame {
        t!(lang, "lesson-parity")
    } else if happened.stable_gained() >= 2 {
        t!(lang, "lesson-stable")
    } else if kind == "c-square" {
        t!(lang, "lesson-c-square")
    } else if happened.fewest_replies {
        t!(lang, "lesson-mobility")
    } else if happened.quietest && captured <= 3 {
        t!(lang, "lesson-quiet")
    } else if happened.louder_than_quietest >= 3 {
        t!(lang, "lesson-frontier")
    } else if happened.moves_taken() <= -2 && captured >= 3 {
        t!(lang, "lesson-greedy")
    } else if kind == "edge" {
        t!(lang, "lesson-edge")
    } else if captured >= 4 {
        t!(lang, "lesson-greedy")
    } else if happened.own_moves_after > happened.opponent_moves_after {
        t!(lang, "lesson-mobility")
    } else {
        t!(lang, "lesson-quiet")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::facts::build;
    use engine::{search, Game, Position, Square};

    #[test]
    fn says_the_move_in_discs_as_the_analysis_values_it() {
        let moves: Vec<Square> = ["f5", "f6", "e6", "f4", "e3", "c5"]
            .iter()
            .map(|s| s.parse().expect("square"))
            .collect();
        let before: Position = *Game::replay(&moves).expect("legal").position();
        let report = search(&before, 3);
        let square = report.best_move.expect("a move");
        let mut facts = build(7, &before, square, &report);
        // Without discs (sheets from before): no such sentence.
        assert!(!write(&facts).explanation.contains("in discs"));
        let scores = crate::discs::midgame_scores(&before, 4);
        let best = scores[0];
        facts.set_discs(&scores, false);
        let played = facts.played_discs().expect("the played move has discs");
        let text = write(&facts).explanation;
        if best.1 > played {
            assert!(
                text.contains(&format!(
                    "{square} is worth about {played:+} for Black at the end, and {} about {:+}",
                    best.0, best.1
                )),
                "{text}"
            );
        } else {
            assert!(
                text.contains(&format!(
                    "{square} was the best move: about {played:+} for Black"
                )),
                "{text}"
            );
        }
        // Another move played than the best: it is compared with the best.
        let worst = *scores.last().expect("moves");
        assert!(worst.1 < best.1, "the position has better and worse moves");
        let mut other = build(7, &before, worst.0, &report);
        other.set_discs(&scores, false);
        let text = write(&other).explanation;
        assert!(
            text.contains(&format!("and {} about {:+}", best.0, best.1)),
            "{text}"
        );
        // Exact values have the endgame's own sentences.
        other.set_discs(&scores, true);
        assert!(!write(&other).explanation.contains("in discs"));
    }

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
            written.explanation.contains("moves to choose from")
                || written.explanation.contains("one move to choose from"),
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
            written.explanation.contains("κινήσεις να διαλέξουν"),
            "{}",
            written.explanation
        );
        assert!(
            written.explanation.contains("εξίσου καλό με τα"),
            "the four first moves are equal: {}",
            written.explanation
        );
        assert!(
            !written.explanation.contains("moves") && !written.lesson.contains("the "),
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

    /// Every placement of a whole game between two depth-2 engines, with its
    /// fact sheet.
    fn a_whole_game() -> Vec<FactSheet> {
        let mut game = Game::new();
        let mut sheets = Vec::new();
        let mut ply = 0;
        while !game.position().is_game_over() {
            // The game applies passes itself: its side to move has a move.
            let position = *game.position();
            ply += 1;
            let report = search(&position, 2);
            let square = report.best_move.expect("a move");
            sheets.push(build(ply, &position, square, &report));
            game.play(square).expect("legal");
        }
        sheets
    }

    #[test]
    fn explanations_talk_like_a_player_not_like_an_engine() {
        for facts in a_whole_game() {
            for lang in [Lang::En, Lang::El] {
                let mut facts = facts.clone();
                facts.lang = lang;
                let written = write(&facts);
                let text = format!("{} {}", written.explanation, written.lesson);
                let lower = text.to_lowercase();
                for engine_word in [
                    "term",
                    "→",
                    "όρος",
                    "όρου",
                    "ahead of",
                    "best of them",
                    "καλύτερή τους",
                ] {
                    assert!(
                        !lower.contains(engine_word),
                        "ply {} ({lang:?}) says {engine_word:?}: {text}",
                        facts.ply
                    );
                }
                // Nothing is left unformatted, and every square it names is
                // on the fact sheet.
                assert!(!text.contains('{') && !text.contains("explain-"), "{text}");
                assert!(
                    crate::lab::factcheck::unverified(&facts, &[&text]).is_empty(),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn equal_moves_are_called_as_good_as() {
        // The four first moves are the same move turned around: all equal.
        let start = Position::initial();
        let report = search(&start, 2);
        let square = report.best_move.expect("a move");
        let facts = build(1, &start, square, &report);
        assert!(facts
            .alternatives
            .iter()
            .all(|a| a.value == facts.search_value));
        let written = write(&facts);
        let others: Vec<String> = facts
            .alternatives
            .iter()
            .filter(|a| !a.chosen)
            .map(|a| a.square.clone())
            .collect();
        let listed = format!("{}, {} and {}", others[0], others[1], others[2]);
        assert!(
            written
                .explanation
                .contains(&format!("rated {square} as good as {listed}: all scored")),
            "{}",
            written.explanation
        );
        assert!(
            !written.explanation.contains("best of"),
            "{}",
            written.explanation
        );
        // A move with a strictly worse next best says so instead.
        let game = engine::parse_transcript("f5d6c3d3c4").expect("transcript");
        let before = *game.position();
        let report = search(&before, 3);
        let square = report.best_move.expect("a move");
        let facts = build(6, &before, square, &report);
        let next = facts
            .alternatives
            .iter()
            .filter(|a| !a.chosen)
            .map(|a| a.value)
            .max()
            .expect("alternatives");
        let written = write(&facts);
        if next < facts.search_value {
            assert!(
                written.explanation.contains("the best of"),
                "{}",
                written.explanation
            );
            assert!(!written.explanation.contains("as good as"));
        } else {
            assert!(written.explanation.contains("as good as"));
        }
    }

    #[test]
    fn the_lesson_follows_what_happened_on_the_move() {
        let sheets = a_whole_game();
        let lessons: std::collections::BTreeSet<String> =
            sheets.iter().map(|f| write(f).lesson).collect();
        assert!(
            lessons.len() >= 5,
            "a whole game teaches several things, not one: {lessons:#?}"
        );
        // Each lesson matches its move's facts.
        for facts in &sheets {
            let lesson = write(facts).lesson;
            let corner_given = !facts.opponent_corner_replies.is_empty();
            match facts.square_kind.as_str() {
                "corner" => assert_eq!(lesson, t!(Lang::En, "lesson-corner")),
                "x-square" if !corner_given => {
                    assert_eq!(lesson, t!(Lang::En, "lesson-x-square"))
                }
                _ if corner_given => assert_eq!(lesson, t!(Lang::En, "lesson-corner-risk")),
                _ => {}
            }
            if lesson == t!(Lang::En, "lesson-parity") {
                assert!(facts.empty_squares_after <= PARITY_EMPTIES);
            }
            if lesson == t!(Lang::En, "lesson-frontier") {
                let me = facts.color();
                assert!(facts.frontier_after.of_color(me) > facts.frontier_before.of_color(me));
            }
        }
        // Two moves from one position with different facts: different lessons.
        let game = engine::parse_transcript("f5d6c3d3c4").expect("transcript");
        let before = *game.position();
        let report = search(&before, 2);
        let mut by_lesson = std::collections::BTreeMap::new();
        for square in before.legal_moves().iter() {
            let facts = build(6, &before, square, &report);
            by_lesson
                .entry(write(&facts).lesson)
                .or_insert_with(Vec::new)
                .push(square.to_string());
        }
        assert!(by_lesson.len() >= 2, "{by_lesson:#?}");
    }

    #[test]
    fn an_x_square_and_a_quiet_move_teach_different_things() {
        // b2 next to the empty a1 corner: an X-square.
        let position = Position::from_text_board(
            "  A B C D E F G H\n\
             1 . . . . . . . .\n\
             2 . . . . . . . .\n\
             3 . . O . . . . .\n\
             4 . . . O X . . .\n\
             5 . . . X X . . .\n\
             6 . . . . . . . .\n\
             7 . . . . . . . .\n\
             8 . . . . . . . .\n",
            engine::Color::Black,
        )
        .expect("board");
        let report = search(&position, 2);
        let b2: Square = "b2".parse().expect("square");
        assert!(position.is_legal(b2));
        let x = write(&build(5, &position, b2, &report));
        assert_eq!(x.lesson, t!(Lang::En, "lesson-x-square"));
        assert!(
            x.explanation.contains("b2 is an X-square"),
            "{}",
            x.explanation
        );
        let quiet = position
            .legal_moves()
            .iter()
            .find(|s| square_kind_of(&position, *s) == "inner")
            .expect("an inner move");
        let q = write(&build(5, &position, quiet, &report));
        assert_ne!(q.lesson, x.lesson);
    }

    fn square_kind_of(position: &Position, square: Square) -> &'static str {
        crate::lab::facts::square_kind(position, square)
    }
}
