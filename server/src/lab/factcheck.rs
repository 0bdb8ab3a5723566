//! Fact-checking written explanations: every square an explanation names
//! (`d3`, `H8`) must be on its fact sheet — the move, a legal move of that
//! position, a captured disc, an occupied square (before or after), or a
//! square the sheet lists (replies, the principal variation). Squares that are
//! none of these are reported as unverified; the text itself is kept.

use super::facts::FactSheet;
use engine::{Color, Position};
use std::collections::BTreeSet;

/// Square names mentioned in `text`, in order of first mention, lower case.
pub fn named_squares(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<String> = Vec::new();
    for i in 0..chars.len().saturating_sub(1) {
        let (c, r) = (chars[i], chars[i + 1]);
        if !matches!(c.to_ascii_lowercase(), 'a'..='h') || !matches!(r, '1'..='8') {
            continue;
        }
        let before_ok = i == 0 || !chars[i - 1].is_alphanumeric();
        let after_ok = chars.get(i + 2).is_none_or(|n| !n.is_alphanumeric());
        if before_ok && after_ok {
            let name = format!("{}{r}", c.to_ascii_lowercase());
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// The squares the fact sheet vouches for.
pub fn known_squares(facts: &FactSheet) -> BTreeSet<String> {
    let mut known = BTreeSet::new();
    known.insert(facts.square.clone());
    known.extend(facts.captured.iter().cloned());
    known.extend(facts.alternatives.iter().map(|a| a.square.clone()));
    known.extend(facts.opponent_replies.iter().cloned());
    known.extend(facts.mover_moves_after.iter().cloned());
    known.extend(facts.principal_variation.iter().cloned());
    if let Some(truth) = &facts.endgame {
        known.extend(truth.moves.iter().map(|m| m.square.clone()));
    }
    for board in [&facts.board_before, &facts.board_after] {
        if let Ok(position) = Position::from_text_board(board, Color::Black) {
            let occupied = !position.empties();
            known.extend(occupied.iter().map(|s| s.to_string()));
        }
    }
    known
}

/// Squares named in `texts` that the fact sheet does not vouch for.
pub fn unverified(facts: &FactSheet, texts: &[&str]) -> Vec<String> {
    let known = known_squares(facts);
    let mut out = Vec::new();
    for text in texts {
        for square in named_squares(text) {
            if !known.contains(&square) && !out.contains(&square) {
                out.push(square);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::facts::build;
    use engine::search;

    #[test]
    fn square_names_are_found_as_words_only() {
        assert_eq!(
            named_squares("Black played D3, then e6; not x1a2 or h9 or a10."),
            vec!["d3", "e6"]
        );
        assert_eq!(named_squares("a1."), vec!["a1"]);
        assert!(named_squares("").is_empty());
    }

    #[test]
    fn squares_off_the_sheet_are_unverified() {
        let start = Position::initial();
        let report = search(&start, 2);
        let square = report.best_move.expect("a move");
        let facts = build(1, &start, square, &report);
        // The move, an occupied centre square and a legal alternative pass.
        let fine = format!("{square} flips the disc next to d4; c4 was possible too.");
        assert!(unverified(&facts, &[&fine]).is_empty(), "{fine}");
        // A corner that is neither legal, captured nor occupied is flagged.
        let wrong = format!("{square} prepares a1 and h8.");
        assert_eq!(
            unverified(&facts, &[&wrong, "lesson about H8"]),
            vec!["a1", "h8"]
        );
    }
}
