//! Pieces of the lab page (`/lab/:id`): the card explaining one move, the
//! evaluation graph, and the lobby link that plays on from the lab's position.

use crate::lab::{ExplanationView, LabMoveView, LabStatus, LabView};
use crate::protocol::Side;
use leptos::prelude::*;

pub(crate) fn format_seconds(seconds: f64) -> String {
    if seconds.fract() == 0.0 {
        format!("{seconds:.0} s")
    } else {
        format!("{seconds} s")
    }
}

/// The evaluation graph: each move's value from black's side — in discs
/// (as the game analysis draws it) when every move has them, else (games
/// from before) the play engine's search values.
pub(crate) fn eval_graph(moves: &[LabMoveView], selected: Option<u32>) -> impl IntoView {
    const W: f64 = 300.0;
    const H: f64 = 110.0;
    let in_discs = moves.iter().all(|m| m.discs.is_some());
    let (unit, cap) = if in_discs {
        ("discs", 64.0)
    } else {
        ("search", 300.0)
    };
    let black = move |m: &LabMoveView| {
        if in_discs {
            m.discs_black().unwrap_or(0)
        } else {
            m.value_black
        }
    };
    let n = moves.len();
    let x = move |i: usize| {
        6.0 + (W - 12.0)
            * if n > 1 {
                i as f64 / (n - 1) as f64
            } else {
                0.5
            }
    };
    let y = move |v: i32| H / 2.0 - (f64::from(v).clamp(-cap, cap) / cap) * (H / 2.0 - 6.0);
    let points: String = moves
        .iter()
        .enumerate()
        .map(|(i, m)| format!("{:.1},{:.1}", x(i), y(black(m))))
        .collect::<Vec<_>>()
        .join(" ");
    let marker = selected
        .and_then(|p| moves.get(p as usize - 1).map(|m| (p as usize - 1, black(m))))
        .or_else(|| moves.last().map(|m| (n - 1, black(m))))
        .map(|(i, v)| view! { <circle class="eval-marker" cx=format!("{:.1}", x(i)) cy=format!("{:.1}", y(v)) r="4"></circle> });
    view! {
        <svg
            id="eval-graph"
            class="eval-graph"
            viewBox=format!("0 0 {W} {H}")
            preserveAspectRatio="none"
            role="img"
            aria-label=t!(crate::i18n::use_lang(), "lab-graph-label")
            data-points=n.to_string()
            data-unit=unit
        >
            <rect class="eval-black-zone" x="0" y="0" width=W.to_string() height=(H / 2.0).to_string()></rect>
            <line class="eval-zero" x1="0" y1=(H / 2.0).to_string() x2=W.to_string() y2=(H / 2.0).to_string()></line>
            <polyline class="eval-line" points=points></polyline>
            {marker}
        </svg>
    }
}

/// The explanation card of move `m` (`None`: before the first move). The
/// Retry button shows on the latest move's failure when `retry` is given (the
/// owner): what to call and whether a request is in flight. Without it the
/// visitor watches, and is not told to press a button they do not have.
pub(crate) fn move_card(
    m: Option<LabMoveView>,
    is_latest: bool,
    retry: Option<(Callback<()>, Signal<bool>)>,
) -> AnyView {
    let lang = crate::i18n::use_lang();
    let Some(m) = m else {
        let intro = if retry.is_some() {
            t!(lang, "lab-explanations-intro")
        } else {
            t!(lang, "lab-explanations-intro-watcher")
        };
        return view! {
            <div class="card explanation" id="explanation-card" data-state="none">
                <h2>{t!(lang, "lab-explanations")}</h2>
                <p>{intro}</p>
            </div>
        }
        .into_any();
    };
    let heading = t!(
        lang,
        "lab-move-heading",
        ply = m.ply,
        side = crate::i18n::side_name(lang, m.side),
        square = &m.square,
        captured = m.flipped.len()
    );
    let search = t!(
        lang,
        "lab-search-facts",
        depth = m.depth,
        value = format!("{:+}", m.value),
        nodes = m.nodes,
        alternatives = m.alternatives
    );
    let exact = m.exact.map(|e| match (e.exact, e.played, e.best) {
        (true, Some(played), Some(best)) => {
            let words = |d: i32| match d.cmp(&0) {
                std::cmp::Ordering::Greater => t!(lang, "explain-result-wins", by = d),
                std::cmp::Ordering::Less => t!(lang, "explain-result-loses", by = -d),
                std::cmp::Ordering::Equal => t!(lang, "explain-result-draws"),
            };
            let mut text = t!(lang, "lab-exact", result = words(played));
            if best > played {
                text.push_str(&t!(lang, "lab-exact-best", result = words(best)));
            }
            view! { <p class="search-facts exact-facts" id="exact-facts" data-exact="true">{text}</p> }
                .into_any()
        }
        _ => view! {
            <p class="search-facts exact-facts" id="exact-facts" data-exact="false">
                {t!(lang, "lab-estimate")}
            </p>
        }
        .into_any(),
    });
    // The move in discs, as the game analysis values it (exact values have
    // their own line above).
    let discs = m.discs.filter(|d| !d.exact).map(|d| {
        let text = if d.best > d.played {
            t!(
                lang,
                "lab-discs-below",
                value = format!("{:+}", d.played),
                best = format!("{:+}", d.best)
            )
        } else {
            t!(lang, "lab-discs-best", value = format!("{:+}", d.played))
        };
        view! {
            <p class="search-facts discs-facts" id="discs-facts" data-discs=d.played.to_string() data-best=d.best.to_string()>
                {text}
            </p>
        }
    });
    let body = match m.explanation.clone() {
        ExplanationView::Pending => view! {
            <p class="pending" id="explanation-pending">{t!(lang, "lab-writing")}</p>
        }
        .into_any(),
        ExplanationView::Ready { explanation, lesson, provider, unverified } => view! {
            {(!unverified.is_empty()).then(|| view! {
                <p id="unverified" class="unverified" data-squares=unverified.join(" ")>
                    <strong>{t!(lang, "lab-unverified")} " "</strong>
                    {t!(lang, "lab-unverified-text", squares = unverified.join(", "))}
                </p>
            })}
            <p id="explanation" class="explanation-text">{explanation}</p>
            <p id="lesson" class="lesson"><strong>{t!(lang, "lab-lesson")} " "</strong>{lesson}</p>
            <p id="explained-by" class="provider">{t!(lang, "lab-written-by")} " " {if provider == crate::lab::OFFLINE_PROVIDER { t!(lang, "srv-explain-provider") } else { provider }}</p>
        }
        .into_any(),
        ExplanationView::Failed { message } => view! {
            <p id="explain-error" class="error" role="alert">
                {t!(lang, "lab-explain-failed")} " " {message}
            </p>
            {retry.filter(|_| is_latest).map(|(retry, busy)| view! {
                <button id="retry" on:click=move |_| retry.run(()) disabled=move || busy.get()>
                    {t!(lang, "lab-retry")}
                </button>
            })}
        }
        .into_any(),
    };
    let state = match &m.explanation {
        ExplanationView::Pending => "pending",
        ExplanationView::Ready { .. } => "ready",
        ExplanationView::Failed { .. } => "failed",
    };
    view! {
        <div class="card explanation" id="explanation-card" data-state=state data-ply=m.ply.to_string()>
            <h2 class=format!("move-heading {}", m.side.key())>{heading}</h2>
            <p class="search-facts">{search}</p>
            {discs}
            {exact}
            {body}
        </div>
    }
    .into_any()
}

/// The position after an earlier move under review: its score and the side
/// to move then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reviewed {
    pub ply: u32,
    pub black: u8,
    pub white: u8,
    pub to_move: Side,
}

/// The reviewed position when `ply` is an earlier move than the latest
/// (`None` for the live game, whose status says more: over, searching…).
pub(crate) fn reviewed_position(view: &LabView, ply: Option<u32>) -> Option<Reviewed> {
    let ply = ply?;
    if ply as usize >= view.moves.len() {
        return None;
    }
    let m = view.moves.get((ply as usize).checked_sub(1)?)?;
    // After a pass the mover plays again.
    let to_move = if m.pass_after.is_some() {
        m.side
    } else {
        m.side.opponent()
    };
    Some(Reviewed {
        ply,
        black: m.black_count,
        white: m.white_count,
        to_move,
    })
}

/// The lobby's "start from a position" link for the lab's current position:
/// `/?from=` and the position in OBF (64 cells a1…h8, a space, the side to move).
pub(crate) fn play_from_here(cells: &[i8], status: LabStatus) -> String {
    let to_move = match status {
        LabStatus::Playing {
            to_move: Side::White,
        } => 'O',
        _ => 'X',
    };
    let board: String = cells
        .iter()
        .map(|&c| match c {
            1 => 'X',
            -1 => 'O',
            _ => '-',
        })
        .collect();
    format!("/?from={board}%20{to_move}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::ProviderStatus;
    use crate::protocol::BoardSnapshot;

    fn placed(ply: u32, side: Side, counts: (u8, u8), pass_after: Option<Side>) -> LabMoveView {
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
            board: BoardSnapshot::empty(),
            explanation: ExplanationView::Pending,
        }
    }

    #[test]
    fn a_reviewed_move_shows_its_own_score_and_side_to_move() {
        let view = LabView {
            id: crate::ids::LabId::new("x"),
            black_depth: 3,
            white_depth: 1,
            board: BoardSnapshot::empty(),
            status: LabStatus::Playing {
                to_move: Side::White,
            },
            black_count: 7,
            white_count: 8,
            moves: vec![
                placed(1, Side::Black, (4, 1), None),
                placed(2, Side::White, (3, 3), Some(Side::Black)),
                placed(3, Side::White, (2, 5), None),
            ],
            provider: ProviderStatus {
                kind: "offline".into(),
                name: String::new(),
                ready: true,
                detail: String::new(),
            },
            version: 3,
            yours: true,
        };
        assert_eq!(reviewed_position(&view, None), None, "live");
        assert_eq!(
            reviewed_position(&view, Some(1)),
            Some(Reviewed {
                ply: 1,
                black: 4,
                white: 1,
                to_move: Side::White
            })
        );
        // Black passed after move 2: White moves again.
        assert_eq!(
            reviewed_position(&view, Some(2)).map(|r| (r.black, r.white, r.to_move)),
            Some((3, 3, Side::White))
        );
        // The latest move is the live position.
        assert_eq!(reviewed_position(&view, Some(3)), None);
        assert_eq!(reviewed_position(&view, Some(0)), None);
    }

    #[test]
    fn play_from_here_links_the_lobby_with_the_position_in_obf() {
        let mut cells = vec![0i8; 64];
        cells[27] = -1; // d4
        cells[28] = 1; // e4
        cells[35] = 1; // d5
        cells[36] = -1; // e5
        let href = play_from_here(
            &cells,
            LabStatus::Playing {
                to_move: Side::White,
            },
        );
        let obf = href.strip_prefix("/?from=").expect("lobby link");
        let (board, side) = obf.split_once("%20").expect("side after a space");
        assert_eq!(board.len(), 64);
        assert_eq!(&board[27..29], "OX");
        assert_eq!(&board[35..37], "XO");
        assert_eq!(board.matches('-').count(), 60);
        assert_eq!(side, "O");
    }
}
