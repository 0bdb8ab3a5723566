//! The lab game page's decisions, as pure functions of the lab game's view
//! and the move under review (`selected`, `None` for the live game): the
//! board and the move card shown, the status line and its class, the pass
//! notice, the autoplay line, the reading times offered and the move list's
//! marks. The step and autoplay decisions are `crate::lab::autoplay`'s; the
//! page (`lab.rs`) wires both to its signals.

use crate::i18n::Lang;
use crate::lab::{ExplanationView, LabMoveView, LabStatus, LabView};
use crate::pages::lab_parts::{format_seconds, reviewed_position};
use crate::protocol::{BoardSnapshot, Side};

/// Reading times offered between autoplay moves, in seconds.
pub const READING_CHOICES: [f64; 4] = [2.0, 5.0, 10.0, 20.0];

/// The reading time asked for in the address (`?reading=`), if it is one:
/// a number of seconds from 0 to 600.
pub fn url_reading(text: Option<&str>) -> Option<f64> {
    text.and_then(|r| r.parse::<f64>().ok())
        .filter(|r| r.is_finite() && *r >= 0.0 && *r <= 600.0)
}

/// The reading times the select offers: the usual ones, after the
/// address's own when it is none of them.
pub fn reading_choices(url_reading: Option<f64>) -> Vec<f64> {
    let mut choices: Vec<f64> = READING_CHOICES.to_vec();
    if let Some(r) = url_reading {
        if !choices.contains(&r) {
            choices.insert(0, r);
        }
    }
    choices
}

/// The board the page shows: the position after the move under review,
/// else the live one.
pub fn shown_board(v: &LabView, selected: Option<u32>) -> BoardSnapshot {
    match selected {
        Some(ply) => v
            .moves
            .get(ply as usize - 1)
            .map(|m| m.board.clone())
            .unwrap_or_else(|| v.board.clone()),
        None => v.board.clone(),
    }
}

/// The move the explanation card shows: the one under review, else the
/// latest.
pub fn shown_move(v: &LabView, selected: Option<u32>) -> Option<LabMoveView> {
    match selected {
        Some(ply) => v.moves.get(ply as usize - 1).cloned(),
        None => v.moves.last().cloned(),
    }
}

/// Whether `m` is the game's latest move (only its failed explanation may
/// be retried).
pub fn is_latest(v: &LabView, m: Option<&LabMoveView>) -> bool {
    m.is_some_and(|m| v.moves.len() as u32 == m.ply)
}

fn depth_of(v: &LabView, side: Side) -> u8 {
    match side {
        Side::Black => v.black_depth,
        Side::White => v.white_depth,
    }
}

/// The status line: the reviewed position's side to move, else the result,
/// the explanation being written, the search running (`busy`: a step is
/// in flight) or the side to move.
pub fn status_text(lang: Lang, v: &LabView, selected: Option<u32>, busy: bool) -> String {
    if let Some(r) = reviewed_position(v, selected) {
        let depth = depth_of(v, r.to_move);
        return t!(
            lang,
            "lab-review-status",
            ply = r.ply,
            status = t!(lang, "lab-to-move", side = r.to_move.name(), depth = depth)
        );
    }
    match v.status {
        LabStatus::Over { winner } => {
            let (b, w) = (v.black_count, v.white_count);
            match winner {
                Some(Side::Black) => t!(
                    lang,
                    "lab-over-win",
                    side = "Black",
                    score = format!("{b}–{w}")
                ),
                Some(Side::White) => t!(
                    lang,
                    "lab-over-win",
                    side = "White",
                    score = format!("{w}–{b}")
                ),
                None => t!(lang, "lab-over-draw", score = format!("{b}–{w}")),
            }
        }
        LabStatus::Playing { to_move } => {
            let depth = depth_of(v, to_move);
            if v.explaining() {
                t!(lang, "lab-writing")
            } else if busy && !v.explanation_failed() {
                t!(lang, "lab-searching", side = to_move.name(), depth = depth)
            } else {
                t!(lang, "lab-to-move", side = to_move.name(), depth = depth)
            }
        }
    }
}

/// The status line's class: the side to move in the position shown, or
/// `over`.
pub fn status_class(v: &LabView, selected: Option<u32>) -> &'static str {
    match reviewed_position(v, selected) {
        Some(r) => r.to_move.key(),
        None => match v.status {
            LabStatus::Playing { to_move } => to_move.key(),
            LabStatus::Over { .. } => "over",
        },
    }
}

/// The score of the position shown: (black, white).
pub fn shown_counts(v: &LabView, selected: Option<u32>) -> (u8, u8) {
    reviewed_position(v, selected).map_or((v.black_count, v.white_count), |r| (r.black, r.white))
}

/// The pass after the move shown, if its opponent had to pass.
pub fn pass_notice(lang: Lang, v: &LabView, selected: Option<u32>) -> Option<String> {
    shown_move(v, selected)
        .and_then(|m| m.pass_after)
        .map(|s| t!(lang, "lab-pass", side = s.name()))
}

/// The autoplay line: frozen on a failed explanation, on with its reading
/// time, or nothing.
pub fn autoplay_text(lang: Lang, frozen: bool, autoplay: bool, reading: f64) -> String {
    if frozen {
        t!(lang, "lab-frozen")
    } else if autoplay {
        t!(lang, "lab-autoplay-on", reading = format_seconds(reading))
    } else {
        String::new()
    }
}

/// A move list entry's flag: its explanation being written (`…`) or
/// failed (`!`).
pub fn explanation_flag(explanation: &ExplanationView) -> &'static str {
    match explanation {
        ExplanationView::Pending => "…",
        ExplanationView::Ready { .. } => "",
        ExplanationView::Failed { .. } => "!",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::ProviderStatus;

    fn placed(ply: u32, side: Side, counts: (u8, u8), pass_after: Option<Side>) -> LabMoveView {
        let mut board = BoardSnapshot::empty();
        board.version = u64::from(ply);
        LabMoveView {
            ply,
            side,
            square: "d3".into(),
            index: 19,
            flipped: vec![27],
            depth: 1,
            value: 0,
            value_black: 0,
            exact: None,
            discs: None,
            nodes: 1,
            alternatives: 4,
            pass_after,
            black_count: counts.0,
            white_count: counts.1,
            board,
            explanation: ExplanationView::Ready {
                explanation: "e".into(),
                lesson: "l".into(),
                provider: "offline".into(),
                unverified: Vec::new(),
            },
        }
    }

    fn lab(moves: Vec<LabMoveView>, status: LabStatus) -> LabView {
        let mut board = BoardSnapshot::empty();
        board.version = 99;
        LabView {
            id: crate::ids::LabId::new("x"),
            black_depth: 3,
            white_depth: 1,
            board,
            status,
            black_count: 7,
            white_count: 8,
            moves,
            provider: ProviderStatus {
                kind: "offline".into(),
                name: String::new(),
                ready: true,
                detail: String::new(),
            },
            version: 3,
            yours: true,
        }
    }

    fn game() -> LabView {
        lab(
            vec![
                placed(1, Side::Black, (4, 1), None),
                placed(2, Side::White, (3, 3), Some(Side::Black)),
                placed(3, Side::White, (2, 5), None),
            ],
            LabStatus::Playing {
                to_move: Side::Black,
            },
        )
    }

    #[test]
    fn the_reading_time_from_the_address_is_checked_and_offered_first() {
        assert_eq!(url_reading(Some("7.5")), Some(7.5));
        assert_eq!(url_reading(Some("0")), Some(0.0));
        assert_eq!(url_reading(Some("601")), None);
        assert_eq!(url_reading(Some("-1")), None);
        assert_eq!(url_reading(Some("NaN")), None);
        assert_eq!(url_reading(Some("soon")), None);
        assert_eq!(url_reading(None), None);
        assert_eq!(reading_choices(None), vec![2.0, 5.0, 10.0, 20.0]);
        assert_eq!(reading_choices(Some(5.0)), vec![2.0, 5.0, 10.0, 20.0]);
        assert_eq!(reading_choices(Some(1.5)), vec![1.5, 2.0, 5.0, 10.0, 20.0]);
    }

    #[test]
    fn a_reviewed_move_shows_its_board_card_score_and_side() {
        let v = game();
        assert_eq!(shown_board(&v, None).version, 99);
        assert_eq!(shown_board(&v, Some(2)).version, 2);
        assert_eq!(shown_board(&v, Some(9)).version, 99, "no such move: live");
        assert_eq!(shown_move(&v, None).map(|m| m.ply), Some(3));
        assert_eq!(shown_move(&v, Some(1)).map(|m| m.ply), Some(1));
        assert!(is_latest(&v, shown_move(&v, None).as_ref()));
        assert!(!is_latest(&v, shown_move(&v, Some(1)).as_ref()));
        assert!(!is_latest(&v, None));
        assert_eq!(shown_counts(&v, None), (7, 8));
        assert_eq!(shown_counts(&v, Some(1)), (4, 1));
        assert_eq!(status_class(&v, Some(1)), "white");
        // Black passed after move 2: White moves again.
        assert_eq!(status_class(&v, Some(2)), "white");
        assert_eq!(
            status_text(Lang::En, &v, Some(2), true),
            "After move 2: White to move (depth 1)"
        );
        assert_eq!(
            pass_notice(Lang::En, &v, Some(2)),
            Some("Black has no legal move and passes.".into())
        );
        assert_eq!(pass_notice(Lang::En, &v, None), None);
    }

    #[test]
    fn the_live_status_says_the_result_the_explanation_or_the_search() {
        let mut v = game();
        assert_eq!(
            status_text(Lang::En, &v, None, false),
            "Black to move (depth 3)"
        );
        assert_eq!(
            status_text(Lang::En, &v, None, true),
            "Black (depth 3) is searching…"
        );
        assert_eq!(status_class(&v, None), "black");
        v.moves[2].explanation = ExplanationView::Pending;
        assert_eq!(
            status_text(Lang::En, &v, None, true),
            "Writing the explanation…"
        );
        v.moves[2].explanation = ExplanationView::Failed {
            message: "down".into(),
        };
        assert_eq!(
            status_text(Lang::En, &v, None, true),
            "Black to move (depth 3)",
            "a failed explanation is not a search"
        );
        v.status = LabStatus::Over {
            winner: Some(Side::White),
        };
        assert_eq!(
            status_text(Lang::En, &v, None, false),
            "Game over: White wins 8–7"
        );
        assert_eq!(status_class(&v, None), "over");
        v.status = LabStatus::Over { winner: None };
        assert_eq!(
            status_text(Lang::En, &v, None, false),
            "Game over: draw 7–8"
        );
    }

    #[test]
    fn the_autoplay_line_and_the_move_flags() {
        assert_eq!(
            autoplay_text(Lang::En, true, true, 5.0),
            "Autoplay is frozen: the explanation failed. Retry it to go on."
        );
        assert_eq!(
            autoplay_text(Lang::En, false, true, 2.5),
            "Autoplay: 2.5 s reading time after each explanation."
        );
        assert_eq!(autoplay_text(Lang::En, false, false, 5.0), "");
        assert_eq!(explanation_flag(&ExplanationView::Pending), "…");
        assert_eq!(
            explanation_flag(&ExplanationView::Failed {
                message: String::new()
            }),
            "!"
        );
        assert_eq!(explanation_flag(&game().moves[0].explanation), "");
    }
}
