//! Lab exports (docs/PRODUCT.md: The table, Export; The AI lab): the board record with every move, the board
//! after each placement, every pass, the result, and each move's explanation
//! and lesson — as text and as JSON.

use super::{Explained, LabGame};
use engine::Color;
use std::fmt::Write;

fn capitalised(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The text export.
pub fn text(game: &LabGame) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Othello 3D — AI lab game {}", game.id);
    let _ = writeln!(
        out,
        "Black (X): engine at depth {}\nWhite (O): engine at depth {}\n",
        game.black_depth, game.white_depth
    );
    let _ = writeln!(out, "{}\n", crate::export::opening_line(&game.game.moves()));
    let _ = writeln!(
        out,
        "Start position:\n{}",
        game.game.start().to_text_board()
    );
    for (i, m) in game.moves.iter().enumerate() {
        let flipped: Vec<String> = m.flipped.iter().map(|s| s.to_string()).collect();
        let _ = writeln!(
            out,
            "{}. {} {} — flips {} ({}); black {}, white {}; search value {:+} (depth {}, {} positions)",
            i + 1,
            capitalised(m.color),
            m.square,
            m.flipped.count(),
            flipped.join(" "),
            m.after.count(Color::Black),
            m.after.count(Color::White),
            m.facts.search_value,
            m.facts.search_depth,
            m.facts.nodes
        );
        let _ = writeln!(out, "{}", m.after.to_text_board());
        match &m.explained {
            Explained::Ready(e) => {
                let _ = writeln!(out, "   Explanation ({}): {}", e.provider, e.explanation);
                let _ = writeln!(out, "   Lesson: {}\n", e.lesson);
            }
            Explained::Pending => {
                let _ = writeln!(out, "   Explanation: still being written.\n");
            }
            Explained::Failed(message) => {
                let _ = writeln!(out, "   Explanation failed: {message}\n");
            }
        }
        if let Some(passer) = m.pass_after {
            let _ = writeln!(
                out,
                "   {} has no legal move and passes.\n",
                capitalised(passer)
            );
        }
    }
    let position = game.game.position();
    let result = game.result_text().unwrap_or_else(|| {
        format!(
            "In progress: {} to move (black {}, white {})",
            capitalised(position.side_to_move),
            position.count(Color::Black),
            position.count(Color::White)
        )
    });
    let _ = writeln!(out, "Result: {result}");
    let lessons: Vec<&str> = game
        .moves
        .iter()
        .filter_map(|m| match &m.explained {
            Explained::Ready(e) => Some(e.lesson.as_str()),
            _ => None,
        })
        .collect();
    if !lessons.is_empty() {
        let _ = writeln!(out, "\nLessons:");
        for (i, lesson) in lessons.iter().enumerate() {
            let _ = writeln!(out, "{:>3}. {lesson}", i + 1);
        }
    }
    let _ = writeln!(out, "\nTranscript: {}", game.game.transcript());
    out
}

/// The named opening of a lab game, if any.
fn opening_name(game: &LabGame) -> Option<String> {
    let squares: Vec<String> = game.game.moves().iter().map(|s| s.to_string()).collect();
    app::openings::name_of_squares(&squares).map(|n| n.name)
}

/// The JSON export.
pub fn json(game: &LabGame) -> serde_json::Value {
    let position = game.game.position();
    let moves: Vec<serde_json::Value> = game
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let state = m.explained.state().as_str();
            let (explanation, lesson, provider, error) = match &m.explained {
                Explained::Ready(e) => (
                    Some(e.explanation.clone()),
                    Some(e.lesson.clone()),
                    Some(e.provider.clone()),
                    None,
                ),
                Explained::Pending => (None, None, None, None),
                Explained::Failed(message) => (None, None, None, Some(message.clone())),
            };
            serde_json::json!({
                "ply": i + 1,
                "side": m.color.name(),
                "move": m.square.to_string(),
                "index": m.square.index(),
                "flipped": m.flipped.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                "pass_after": m.pass_after.map(|c| c.name()),
                "black": m.after.count(Color::Black),
                "white": m.after.count(Color::White),
                "board": m.after.to_text_board(),
                "cells": m.after.to_cells().to_vec(),
                "search": {
                    "depth": m.facts.search_depth,
                    "value": m.facts.search_value,
                    "nodes": m.facts.nodes,
                    "principal_variation": m.facts.principal_variation,
                    "alternatives": m.facts.alternatives,
                },
                "endgame": m.facts.endgame,
                "explanation_state": state,
                "explanation": explanation,
                "lesson": lesson,
                "provider": provider,
                "explanation_error": error,
            })
        })
        .collect();
    serde_json::json!({
        "id": game.id,
        "black_depth": game.black_depth,
        "white_depth": game.white_depth,
        "start": game.game.start().to_text_board(),
        "opening": opening_name(game),
        "moves": moves,
        "over": game.game.is_over(),
        "result": game.result_text(),
        "black": position.count(Color::Black),
        "white": position.count(Color::White),
        "transcript": game.game.transcript(),
    })
}
