//! Lab exports (docs/PRODUCT.md: The table, Export; The AI lab): the board record with every move, the board
//! after each placement, every pass, the result, and each move's explanation
//! and lesson — as text and as JSON.

use super::{Explained, LabGame};
use app::t;
use engine::Color;
use std::fmt::Write;

fn capitalised(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The text export, in the lab game's language (its explanations' one).
pub fn text(game: &LabGame) -> String {
    let lang = game.lang;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        t!(lang, "export-lab-title", id = game.id.as_str())
    );
    let _ = writeln!(
        out,
        "{}\n",
        t!(
            lang,
            "export-lab-engines",
            black = game.black_depth,
            white = game.white_depth
        )
    );
    let _ = writeln!(
        out,
        "{}\n",
        crate::export::opening_line_in(lang, &game.game.moves())
    );
    let _ = writeln!(
        out,
        "{}\n{}",
        t!(lang, "export-start"),
        game.game.start().to_text_board()
    );
    for (i, m) in game.moves.iter().enumerate() {
        let flipped: Vec<String> = m.flipped.iter().map(|s| s.to_string()).collect();
        let line = t!(
            lang,
            "export-lab-move",
            ply = i + 1,
            side = app::i18n::side_name(lang, crate::table::side(m.color)),
            square = m.square.to_string(),
            count = m.flipped.count(),
            list = flipped.join(" "),
            black = m.after.count(Color::Black),
            white = m.after.count(Color::White),
            value = format!("{:+}", m.facts.search_value),
            depth = m.facts.search_depth,
            nodes = m.facts.nodes
        );
        let _ = writeln!(out, "{line}");
        let _ = writeln!(out, "{}", m.after.to_text_board());
        match &m.explained {
            Explained::Ready(e) => {
                let provider = if e.provider == app::lab::OFFLINE_PROVIDER {
                    t!(lang, "srv-explain-provider")
                } else {
                    e.provider.clone()
                };
                let _ = writeln!(
                    out,
                    "   {}",
                    t!(
                        lang,
                        "export-explanation",
                        provider = provider,
                        text = &e.explanation
                    )
                );
                let _ = writeln!(out, "   {}\n", t!(lang, "export-lesson", text = &e.lesson));
            }
            Explained::Pending => {
                let _ = writeln!(out, "   {}\n", t!(lang, "export-pending"));
            }
            Explained::Failed(message) => {
                let _ = writeln!(out, "   {}\n", t!(lang, "export-failed", message = message));
            }
        }
        if let Some(passer) = m.pass_after {
            let _ = writeln!(
                out,
                "   {}\n",
                t!(lang, "lab-pass", side = capitalised(passer))
            );
        }
    }
    let position = game.game.position();
    // `Black wins 34–30` in the export's language.
    let result = game.result_msg().map(|m| m.text(lang)).unwrap_or_else(|| {
        t!(
            lang,
            "export-in-progress",
            side = capitalised(position.side_to_move),
            black = position.count(Color::Black),
            white = position.count(Color::White)
        )
    });
    let _ = writeln!(out, "{}", t!(lang, "export-result", result = result));
    let lessons: Vec<&str> = game
        .moves
        .iter()
        .filter_map(|m| match &m.explained {
            Explained::Ready(e) => Some(e.lesson.as_str()),
            _ => None,
        })
        .collect();
    if !lessons.is_empty() {
        let _ = writeln!(out, "\n{}", t!(lang, "export-lessons"));
        for (i, lesson) in lessons.iter().enumerate() {
            let _ = writeln!(out, "{:>3}. {lesson}", i + 1);
        }
    }
    let _ = writeln!(
        out,
        "\n{}",
        t!(lang, "export-transcript", moves = game.game.transcript())
    );
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
