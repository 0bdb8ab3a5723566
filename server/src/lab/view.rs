//! What the lab page reads: a lab game as a [`LabView`], each placement with
//! its board, values, exact endgame facts and explanation.

use super::{Explained, LabGame, LabMove};
use app::lab::{
    ExplanationView, LabDiscs, LabExact, LabMoveView, LabStatus, LabView, ProviderStatus,
};
use app::protocol::{BoardSnapshot, Side};
use engine::{Bitboard, Color, GameResult, Position, Square};

pub(super) fn side(color: Color) -> Side {
    crate::table::side(color)
}

pub(super) fn snapshot(
    position: &Position,
    last: Option<(Square, Bitboard)>,
    version: u64,
) -> BoardSnapshot {
    BoardSnapshot {
        cells: position.to_cells().to_vec(),
        legal: Vec::new(),
        last_move: last.map(|(s, _)| s.index() as u8),
        flipped: last
            .map(|(_, f)| f.iter().map(|s| s.index() as u8).collect())
            .unwrap_or_default(),
        version,
        // The island celebrates the end of a lab game too.
        outcome: position.result().map(|result| match result {
            GameResult::Win(Color::Black) => 1,
            GameResult::Win(Color::White) => -1,
            GameResult::Draw => 0,
        }),
    }
}

pub(super) fn move_view(index: usize, m: &LabMove) -> LabMoveView {
    let ply = index as u32 + 1;
    let value = m.facts.search_value;
    LabMoveView {
        ply,
        side: side(m.color),
        square: m.square.to_string(),
        index: m.square.index() as u8,
        flipped: m.flipped.iter().map(|s| s.index() as u8).collect(),
        depth: m.facts.search_depth as u8,
        value,
        value_black: if m.color == Color::Black {
            value
        } else {
            -value
        },
        exact: m.facts.endgame.as_ref().map(|t| LabExact {
            exact: t.is_exact(),
            played: t.played,
            best: t.best,
        }),
        discs: m.facts.played_discs().map(|played| LabDiscs {
            played,
            best: m
                .facts
                .alternatives
                .iter()
                .filter_map(|a| a.discs)
                .max()
                .unwrap_or(played)
                .max(played),
            exact: m.facts.discs_exact,
        }),
        nodes: m.facts.nodes,
        alternatives: m.facts.alternatives.len() as u32,
        pass_after: m.pass_after.map(side),
        black_count: m.after.count(Color::Black) as u8,
        white_count: m.after.count(Color::White) as u8,
        board: snapshot(&m.after, Some((m.square, m.flipped)), u64::from(ply) + 1),
        explanation: match &m.explained {
            Explained::Pending => ExplanationView::Pending,
            Explained::Ready(e) => ExplanationView::Ready {
                explanation: e.explanation.clone(),
                lesson: e.lesson.clone(),
                provider: e.provider.clone(),
                // Checked against the fact sheet before it is shown.
                unverified: super::factcheck::unverified(&m.facts, &[&e.explanation, &e.lesson]),
            },
            Explained::Failed(message) => ExplanationView::Failed {
                message: message.clone(),
            },
        },
    }
}

/// The view of a lab game.
pub fn view(game: &LabGame, provider: ProviderStatus) -> LabView {
    let position = game.game.position();
    let last = game.moves.last().map(|m| (m.square, m.flipped));
    let status = match game.game.result() {
        Some(GameResult::Win(color)) => LabStatus::Over {
            winner: Some(side(color)),
        },
        Some(GameResult::Draw) => LabStatus::Over { winner: None },
        None => LabStatus::Playing {
            to_move: side(position.side_to_move),
        },
    };
    LabView {
        id: game.id.clone(),
        black_depth: game.black_depth,
        white_depth: game.white_depth,
        board: snapshot(position, last, game.moves.len() as u64 + 1),
        status,
        black_count: position.count(Color::Black) as u8,
        white_count: position.count(Color::White) as u8,
        moves: game
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| move_view(i, m))
            .collect(),
        provider,
        version: game.version,
        // Set by the server function, which knows the caller.
        yours: false,
    }
}
