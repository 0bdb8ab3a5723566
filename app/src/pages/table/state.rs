//! The table page's decisions, as pure functions of the table's view (and
//! of what the page adds to it: the entry under review, the seconds since
//! the view came, the players card's last answer): which view to keep, the
//! board to draw, the presence and turn lines, the mode line, which resign
//! and rematch buttons to offer. The component (`table.rs`) only wires them
//! to signals, so each is unit-tested below.

use crate::board::PassLog;
use crate::i18n::{side_name, Lang};
use crate::protocol::{
    BoardSnapshot, EndReason, HistoryEntry, RoundStatus, Side, TableMode, TableView,
};
use crate::ratings::{PlayersView, ShownRating};

/// The view to show when `incoming` arrives while `current` is shown:
/// `None` when it is older. A view for nobody in particular (a broadcast,
/// `you` empty) keeps the viewer's seats.
pub fn merged(current: &TableView, incoming: TableView) -> Option<TableView> {
    if incoming.board.version < current.board.version {
        return None;
    }
    let you = if incoming.you.is_empty() {
        current.you.clone()
    } else {
        incoming.you.clone()
    };
    Some(TableView { you, ..incoming })
}

/// The board the page draws: `reviewed` (the cells and the last move after
/// the move-list entry under review) while the player looks back, else the
/// game's, with its legal moves only on the viewer's turn.
pub fn shown_board(v: &TableView, reviewed: Option<(Vec<i8>, Option<u8>)>) -> BoardSnapshot {
    let mut board: BoardSnapshot = v.board.clone();
    if let Some((cells, square)) = reviewed {
        board.cells = cells;
        board.last_move = square;
        board.flipped.clear();
        board.legal.clear();
        return board;
    }
    if !v.viewer_to_move() {
        board.legal.clear();
    }
    board
}

/// The seats' state: a free seat, a player gone and the seconds left of
/// their grace, less `elapsed()` (the seconds since the view came; asked
/// only for a grace, so a line without one does not follow the clock).
pub fn presence(lang: Lang, v: &TableView, elapsed: impl Fn() -> u32) -> Option<String> {
    let seats = v.seats?;
    let mut lines = Vec::new();
    for side in [Side::Black, Side::White] {
        let seat = seats.get(side);
        let who = if v.you.contains(&side) {
            "You"
        } else {
            side.name()
        };
        if !seat.taken {
            lines.push(t!(lang, "table-seat-free", side = side.name()));
        } else if let Some(left) = seat.grace_left {
            let left = left.saturating_sub(elapsed());
            lines.push(t!(lang, "table-left", who = who, left = left));
        }
    }
    (!lines.is_empty()).then(|| lines.join(" "))
}

/// The seat a spectator may take (a private table's free seat).
pub fn free_seat(v: &TableView) -> Option<Side> {
    match (v.mode, v.seats) {
        (TableMode::Online { .. }, Some(seats)) if v.you.is_empty() => [Side::Black, Side::White]
            .into_iter()
            .find(|&side| !seats.get(side).taken),
        _ => None,
    }
}

/// An online table with a seat still free.
pub fn waiting_for_opponent(v: &TableView) -> bool {
    v.seats.is_some_and(|s| !(s.black.taken && s.white.taken))
}

/// The round's passes, for the board's announcer.
pub fn pass_log(v: &TableView) -> PassLog {
    PassLog {
        round: v.round,
        passers: v
            .history
            .iter()
            .filter(|h| h.square.is_none())
            .map(|h| h.side)
            .collect(),
    }
}

/// A seated player's rating after the last rated round and its change, from
/// the players card's answer.
pub fn rated_change(players: Option<&PlayersView>, me: Side) -> Option<(ShownRating, i32)> {
    players.filter(|p| p.rated).and_then(|p| {
        let seat = if me == Side::Black {
            &p.black
        } else {
            &p.white
        };
        seat.rating.zip(seat.change)
    })
}

/// The turn line: who is to move (the AI thinking or waiting for its turn),
/// or the result, told to a player in one seat as their win or loss, with
/// their new rating after a rated round (`rating` of that seat, asked only
/// then).
pub fn turn_text(
    lang: Lang,
    v: &TableView,
    rating: impl FnOnce(Side) -> Option<(ShownRating, i32)>,
) -> String {
    match v.status {
        RoundStatus::Playing { to_move } => {
            let side = side_name(lang, to_move);
            if v.ai_thinking {
                t!(lang, "table-ai-thinking", side = side)
            } else if v.ai_refused() {
                t!(lang, "table-ai-waiting", side = side)
            } else if v.you.contains(&to_move) && v.you.len() == 1 {
                t!(lang, "table-your-move", side = side)
            } else {
                t!(lang, "table-to-move", side = to_move.name())
            }
        }
        RoundStatus::Over { winner, reason } => {
            let result = match (winner, reason) {
                (_, EndReason::Abandoned) => t!(lang, "table-abandoned"),
                (_, EndReason::Aborted) => t!(lang, "table-aborted"),
                (Some(w), EndReason::Resigned) => {
                    t!(lang, "table-wins-resigned", side = w.name())
                }
                (Some(w), EndReason::Timeout) => {
                    t!(lang, "table-wins-timeout", side = w.name())
                }
                (Some(w), EndReason::Time) => t!(lang, "table-wins-time", side = w.name()),
                (Some(w), EndReason::Forfeit) => {
                    t!(lang, "table-wins-forfeit", side = w.name())
                }
                (None, EndReason::Forfeit) => t!(lang, "table-forfeit-both"),
                (Some(w), EndReason::Finished) => t!(lang, "table-wins", side = w.name()),
                (None, _) => t!(lang, "table-draw"),
            };
            // A player in one seat reads first what it means for them,
            // and after a rated game their new rating and its change.
            let said = match (winner, v.you.as_slice()) {
                (Some(w), [me]) if *me == w => t!(lang, "table-you-won", result = result),
                (Some(_), [_]) => t!(lang, "table-you-lost", result = result),
                _ => result,
            };
            let mine = match v.you.as_slice() {
                [me] => rating(*me),
                _ => None,
            };
            match mine {
                Some((rating, change)) => t!(
                    lang,
                    "table-result-rated",
                    result = said,
                    rating = rating.text(),
                    change = crate::ratings::change_text(change)
                ),
                None => said,
            }
        }
    }
}

/// The browser tab's title: "Your move (Black) · Othello 3D" while the
/// viewer, in one seat, is to move — so a player whose tab is in the
/// background sees that the opponent has played — else the table page's own
/// ("A game of Othello · Othello 3D", as the server wrote it).
/// (Set by the browser only.)
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
pub fn tab_title(lang: Lang, v: &TableView) -> String {
    match (v.status, v.you.as_slice()) {
        (RoundStatus::Playing { to_move }, [me]) if *me == to_move && !v.ai_thinking => t!(
            lang,
            "page-title",
            page = t!(lang, "table-your-move", side = side_name(lang, to_move))
        ),
        _ => crate::page_title(lang, "/table"),
    }
}

/// The end-of-round celebration is for a win or a draw the viewer can be
/// glad of: never for a player's own loss (to the AI or online).
pub fn celebrates(v: &TableView) -> bool {
    match v.status {
        RoundStatus::Over {
            winner: Some(winner),
            ..
        } => !(v.you.len() == 1 && v.you[0] != winner),
        _ => true,
    }
}

/// The turn line's class: the side to move, or `over`.
pub fn to_move_class(status: RoundStatus) -> &'static str {
    match status {
        RoundStatus::Playing { to_move } => to_move.key(),
        RoundStatus::Over { .. } => "over",
    }
}

/// The header's mode line. A visitor who is not seated watches: the human
/// of a vs-AI table is "a player", not "you".
pub fn mode_line(lang: Lang, v: &TableView) -> String {
    let seated = !v.you.is_empty();
    match v.mode {
        TableMode::VsAi { depth, human } if !seated && depth == crate::protocol::STRONGEST => t!(
            lang,
            "mode-vs-ai-strongest-watch",
            side = side_name(lang, human)
        ),
        TableMode::VsAi { depth, human } if !seated => t!(
            lang,
            "mode-vs-ai-watch",
            side = side_name(lang, human),
            depth = depth
        ),
        m => crate::i18n::mode_text(lang, &m),
    }
}

/// Whether a seated player may resign: the round has started (at an online
/// table, both seats are taken; at a tournament's, a disc is placed: before
/// that a player who never moves loses on time) and is not over.
pub fn may_resign(v: &TableView) -> bool {
    let unplayed_tournament_game = is_tournament(v) && v.history.is_empty();
    !matches!(v.status, RoundStatus::Over { .. })
        && !v.you.is_empty()
        && !waiting_for_opponent(v)
        && !unplayed_tournament_game
}

/// The resign confirmation's question: at a hot-seat table, for the side to
/// move.
pub fn resign_question(lang: Lang, v: &TableView) -> String {
    if matches!(v.mode, TableMode::HotSeat) {
        let side = match v.status {
            RoundStatus::Playing { to_move } => to_move,
            RoundStatus::Over { .. } => Side::Black,
        };
        t!(
            lang,
            "table-resign-confirm-side",
            side = side_name(lang, side)
        )
    } else {
        t!(lang, "table-resign-confirm")
    }
}

/// The rematch buttons a finished round offers its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rematch {
    /// A hot-seat table: a vote for each side, and whether it is cast.
    HotSeat([(Side, bool); 2]),
    /// An online table: the viewer's vote and the opponent's.
    Online { mine: bool, theirs: bool },
    /// Against the AI: play again.
    Again,
}

/// The rematch buttons: only for the players of a finished round, never at
/// a tournament's table (the tournament pairs the next round).
pub fn rematch(v: &TableView) -> Option<Rematch> {
    if !matches!(v.status, RoundStatus::Over { .. }) || v.you.is_empty() || is_tournament(v) {
        return None;
    }
    Some(match v.mode {
        TableMode::HotSeat => {
            Rematch::HotSeat([(Side::Black, v.votes.black), (Side::White, v.votes.white)])
        }
        TableMode::Online { .. } => {
            let (mine, theirs) = match v.you.first().copied().unwrap_or(Side::Black) {
                Side::Black => (v.votes.black, v.votes.white),
                Side::White => (v.votes.white, v.votes.black),
            };
            Rematch::Online { mine, theirs }
        }
        TableMode::VsAi { .. } => Rematch::Again,
    })
}

/// A tournament's game.
pub fn is_tournament(v: &TableView) -> bool {
    matches!(
        v.mode,
        TableMode::Online {
            tournament: true,
            ..
        }
    )
}

/// Whether the viewer may go berserk (an arena's game is checked by the
/// caller): a timed tournament game being played, one seat, before their
/// first disc, not yet berserk.
pub fn may_berserk(v: &TableView) -> bool {
    let [me] = v.you.as_slice() else {
        return false;
    };
    is_tournament(v)
        && v.clocks.is_some()
        && matches!(v.status, RoundStatus::Playing { .. })
        && !waiting_for_opponent(v)
        && !v.berserk.contains(me)
        && !v
            .history
            .iter()
            .any(|h| h.side == *me && h.square.is_some())
}

/// A finished round with at least one disc placed (so there is a game to
/// review and analyse).
pub fn reviewable(v: &TableView) -> bool {
    matches!(v.status, RoundStatus::Over { .. }) && v.history.iter().any(|h| h.square.is_some())
}

/// The move-list numbers of the placements (passes are entries too), as
/// the analysis card names them.
pub fn placement_numbers(history: &[HistoryEntry]) -> Vec<u32> {
    history
        .iter()
        .enumerate()
        .filter(|(_, h)| h.square.is_some())
        .map(|(i, _)| i as u32 + 1)
        .collect()
}

/// The better move of a reviewed entry (its list number, passes counted):
/// the analysis' best move where the one played lost discs, with the loss.
pub fn better_move(
    history: &[HistoryEntry],
    analysis: &crate::protocol::GameAnalysis,
    number: usize,
) -> Option<(String, i32)> {
    let ply = placement_numbers(history)
        .iter()
        .position(|&n| n as usize == number)? as u32
        + 1;
    analysis
        .moves
        .iter()
        .find(|m| m.ply == ply && m.loss > 0 && m.best != m.square)
        .map(|m| (m.best.clone(), m.loss))
}

/// One entry of the move list: a placement and its flips, or a pass.
pub fn history_text(lang: Lang, h: &HistoryEntry) -> String {
    match &h.square {
        Some(sq) => t!(
            lang,
            "table-move",
            side = side_name(lang, h.side),
            square = sq,
            flipped = h.flipped
        ),
        None => t!(lang, "table-pass", side = side_name(lang, h.side)),
    }
}

/// The notice as a screen reader hears it: what the board's announcer
/// already says (a pass, a result, a new round) is left out.
pub fn notice_heard(lang: Lang, v: &TableView) -> Option<String> {
    v.notice
        .as_ref()
        .filter(|n| !crate::voice::ANNOUNCED_NOTICES.contains(&n.key.as_str()))
        .map(|n| n.text(lang))
}

#[cfg(test)]
mod tests;
