//! The fact sheet of one lab placement: everything an explanation may rest on,
//! taken from the real position and the real search (never invented).

use engine::{evaluation_terms, Bitboard, Color, EvaluationTerms, Position, SearchReport, Square};
use serde::{Deserialize, Serialize};

/// The four evaluation terms, from one side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Terms {
    /// Positional weights (corners +120, squares next to corners down to −50).
    pub positional: i32,
    /// 12 × (own legal moves − opponent legal moves).
    pub mobility: i32,
    /// 4 × (opponent frontier discs − own frontier discs).
    pub frontier: i32,
    /// Disc difference (× 8 when fewer than 16 squares are empty).
    pub discs: i32,
    pub total: i32,
}

impl From<EvaluationTerms> for Terms {
    fn from(t: EvaluationTerms) -> Self {
        Terms {
            positional: t.positional,
            mobility: t.mobility,
            frontier: t.frontier,
            discs: t.discs,
            total: t.total,
        }
    }
}

/// A legal move the mover had, with the analysis search's value for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alternative {
    #[serde(rename = "move")]
    pub square: String,
    /// Exact MiniMax value from the mover's side at the searched depth, from
    /// the analysis search ([`ALTERNATIVES_SEARCH`]), not the play AI's α–β
    /// root (which only bounds the moves it did not choose).
    pub value: i32,
    /// The move's value in discs (the final disc difference the mover can
    /// expect, from the mover's side): the exact solver's when
    /// [`FactSheet::discs_exact`], else the trained evaluation's estimate
    /// (the numbers the game analysis shows). Absent on sheets written before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discs: Option<i32>,
    /// Discs this move would have captured.
    pub captures: u32,
    /// The opponent's legal replies after this move.
    #[serde(default)]
    pub opponent_replies: u32,
    /// The mover's frontier discs (next to an empty square) after this move.
    #[serde(default)]
    pub frontier_after: u32,
    /// Whether it is the move that was played.
    pub chosen: bool,
}

/// Disc counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discs {
    pub black: u32,
    pub white: u32,
}

impl Discs {
    fn of(position: &Position) -> Self {
        Discs {
            black: position.count(Color::Black),
            white: position.count(Color::White),
        }
    }

    /// Frontier discs: those next to an empty square (in any of the eight
    /// directions).
    fn frontier(position: &Position) -> Self {
        let empty = position.empties();
        let near_empty = |color: Color| {
            position
                .discs(color)
                .iter()
                .filter(|&s| neighbours(s).any(|n| empty.contains(n)))
                .count() as u32
        };
        Discs {
            black: near_empty(Color::Black),
            white: near_empty(Color::White),
        }
    }

    /// Stable discs (see [`stable_discs`]).
    fn stable(position: &Position) -> Self {
        Discs {
            black: stable_discs(position, Color::Black).count(),
            white: stable_discs(position, Color::White).count(),
        }
    }

    /// The count of `color`.
    pub fn of_color(self, color: Color) -> u32 {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }
}

/// The squares next to `square` (up to eight).
fn neighbours(square: Square) -> impl Iterator<Item = Square> {
    let (r, c) = (square.row() as i32, square.col() as i32);
    (-1..=1)
        .flat_map(move |dr| (-1..=1).map(move |dc| (dr, dc)))
        .filter(|&d| d != (0, 0))
        .filter_map(move |(dr, dc)| {
            let (nr, nc) = (r + dr, c + dc);
            ((0..8).contains(&nr) && (0..8).contains(&nc))
                .then(|| Square::new((nr * 8 + nc) as usize))
                .flatten()
        })
}

/// `color`'s discs that can never be flipped again (a safe lower bound): a
/// disc is stable when on each of the four lines through it (row, column,
/// both diagonals) either the line is full or a neighbour on that line is
/// the board's edge or a stable disc of its own colour. Corners start it;
/// it grows along filled edges.
pub fn stable_discs(position: &Position, color: Color) -> Bitboard {
    const AXES: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let own = position.discs(color);
    let occupied = |r: i32, c: i32| {
        Square::new((r * 8 + c) as usize).is_some_and(|s| position.disc_at(s).is_some())
    };
    let on_board = |r: i32, c: i32| (0..8).contains(&r) && (0..8).contains(&c);
    // Whether the whole line through (r, c) along (dr, dc) is occupied.
    let line_full = |r: i32, c: i32, dr: i32, dc: i32| {
        [1, -1].into_iter().all(|sign| {
            let (mut nr, mut nc) = (r + sign * dr, c + sign * dc);
            while on_board(nr, nc) {
                if !occupied(nr, nc) {
                    return false;
                }
                nr += sign * dr;
                nc += sign * dc;
            }
            true
        })
    };
    let mut stable = Bitboard::EMPTY;
    loop {
        let mut grown = stable;
        for square in own.iter() {
            if grown.contains(square) {
                continue;
            }
            let (r, c) = (square.row() as i32, square.col() as i32);
            let safe = AXES.into_iter().all(|(dr, dc)| {
                line_full(r, c, dr, dc)
                    || [1, -1].into_iter().any(|sign| {
                        let (nr, nc) = (r + sign * dr, c + sign * dc);
                        !on_board(nr, nc)
                            || Square::new((nr * 8 + nc) as usize)
                                .is_some_and(|n| stable.contains(n))
                    })
            });
            if safe {
                grown = grown.with(square);
            }
        }
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

/// Everything known about one placement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FactSheet {
    /// 1 for the first placement of the game.
    pub ply: u32,
    /// `black` or `white`.
    pub side: String,
    #[serde(rename = "move")]
    pub square: String,
    /// Square index 0..64 (8 × row + column, a1 = 0).
    pub index: u8,
    /// The captured (flipped) discs.
    pub captured: Vec<String>,
    pub captured_count: u32,
    /// Text form: `X` black, `O` white, `.` empty; columns A–H, rows 1–8.
    pub board_before: String,
    pub board_after: String,
    pub discs_before: Discs,
    pub discs_after: Discs,
    pub empty_squares_after: u32,
    /// Every legal move the mover had, in search order, with its exact
    /// value from the analysis search.
    pub alternatives: Vec<Alternative>,
    /// Which search gave the alternatives' values ([`ALTERNATIVES_SEARCH`]).
    #[serde(default)]
    pub alternatives_search: String,
    /// Whether the alternatives' `discs` are exact (solved to the end).
    #[serde(default)]
    pub discs_exact: bool,
    /// What the alternatives' `discs` are ([`DISCS_NOTE`]).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub discs_note: String,
    /// The search: depth (placed discs), value of the chosen move (mover's
    /// side), positions visited, expected continuation.
    pub search_depth: u32,
    pub search_value: i32,
    pub nodes: u64,
    pub principal_variation: Vec<String>,
    /// The opponent's legal replies now (empty when it must pass).
    pub opponent_replies: Vec<String>,
    /// Corners among the opponent's replies.
    pub opponent_corner_replies: Vec<String>,
    /// The mover's own legal moves in the new position (its future mobility).
    pub mover_moves_after: Vec<String>,
    /// Evaluation terms before and after the move, from the mover's side.
    pub terms_before: Terms,
    pub terms_after: Terms,
    /// The opponent's legal moves before the placement (as if it were its
    /// turn), to compare with [`Self::opponent_replies`].
    #[serde(default)]
    pub opponent_moves_before: u32,
    /// Frontier discs (discs next to an empty square) of each colour, before
    /// and after the move.
    #[serde(default)]
    pub frontier_before: Discs,
    #[serde(default)]
    pub frontier_after: Discs,
    /// Stable discs (discs that can never be flipped again) of each colour,
    /// before and after the move.
    #[serde(default)]
    pub stable_before: Discs,
    #[serde(default)]
    pub stable_after: Discs,
    /// Set when the opponent has no reply and must pass.
    pub opponent_must_pass: bool,
    /// Set when the move ends the game.
    pub game_over: bool,
    /// Square classes: `corner`, `x-square` (diagonal to an empty corner),
    /// `c-square` (edge square next to an empty corner), `edge`, `inner`.
    pub square_kind: String,
    /// Exact endgame truth (see [`crate::lab::exact`]): set from the
    /// configured number of empties down; says `exact` or `estimate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endgame: Option<crate::lab::exact::EndgameTruth>,
    /// The language to write the explanation in: the lab game's (`el`);
    /// absent means English.
    #[serde(default, skip_serializing_if = "is_english")]
    pub lang: app::i18n::Lang,
}

fn is_english(lang: &app::i18n::Lang) -> bool {
    *lang == app::i18n::Lang::En
}

fn names(board: Bitboard) -> Vec<String> {
    board.iter().map(|s| s.to_string()).collect()
}

const CORNERS: [usize; 4] = [0, 7, 56, 63];

/// The corner a square touches (X- and C-squares), if any.
fn adjacent_corner(square: Square) -> Option<usize> {
    let (r, c) = (square.row(), square.col());
    CORNERS.into_iter().find(|&corner| {
        let (cr, cc) = (corner / 8, corner % 8);
        r.abs_diff(cr) <= 1 && c.abs_diff(cc) <= 1 && corner != square.index()
    })
}

/// Classifies a square for a position before the move.
pub fn square_kind(before: &Position, square: Square) -> &'static str {
    let index = square.index();
    if CORNERS.contains(&index) {
        return "corner";
    }
    if let Some(corner) = adjacent_corner(square) {
        let corner_empty = Square::new(corner).is_some_and(|c| before.disc_at(c).is_none());
        if corner_empty {
            let diagonal = square.row() != corner / 8 && square.col() != corner % 8;
            return if diagonal { "x-square" } else { "c-square" };
        }
    }
    let (r, c) = (square.row(), square.col());
    if r == 0 || r == 7 || c == 0 || c == 7 {
        "edge"
    } else {
        "inner"
    }
}

/// Names the search behind [`Alternative::value`] in the fact sheet.
pub const ALTERNATIVES_SEARCH: &str = "analysis search (engine::analyse_root): every legal move searched with a full alpha-beta window at the same depth, so each value is exact; the play AI's own alpha-beta root only bounds the moves it did not choose";

/// Says what the alternatives' `discs` are, in the fact sheet.
pub const DISCS_NOTE: &str = "discs: each legal move's value in discs, the final disc difference the mover can expect after it (positive: the mover ends ahead), from the same evaluation the game analysis shows: exact (perfect play to the end) when discs_exact is true, else the trained pattern evaluation's estimate";

/// [`build_with`] that runs the analysis search itself (CPU work: call it
/// off the async loop).
pub fn build(ply: u32, before: &Position, square: Square, report: &SearchReport) -> FactSheet {
    let analysis = engine::analyse_root(before, report.depth);
    build_with(ply, before, square, report, &analysis)
}

/// Builds the fact sheet of `square` played in `before` after `report` (the
/// play AI's search of `before` at `report.depth`: chosen move, value, node
/// count, continuation) and `analysis` ([`engine::analyse_root`] of `before`
/// at the same depth: the exact value of every alternative).
pub fn build_with(
    ply: u32,
    before: &Position,
    square: Square,
    report: &SearchReport,
    analysis: &SearchReport,
) -> FactSheet {
    let mover = before.side_to_move;
    let flipped = before.flips(square);
    // The raw position after the move, opponent to move (a pass is not applied).
    let after = match before.play(square) {
        Ok(outcome) => outcome.position,
        Err(_) => *before,
    };
    let opponent_replies = after.legal_moves_for(mover.opponent());
    let alternatives = analysis
        .root_moves
        .iter()
        .map(|m| {
            let child = before.play(m.square).map_or(*before, |o| o.position);
            Alternative {
                square: m.square.to_string(),
                value: m.value,
                discs: None,
                captures: before.flips(m.square).count(),
                opponent_replies: child.legal_moves_for(mover.opponent()).count(),
                frontier_after: Discs::frontier(&child).of_color(mover),
                chosen: m.square == square,
            }
        })
        .collect();
    let search_value = analysis
        .root_moves
        .iter()
        .find(|m| m.square == square)
        .map_or(report.value, |m| m.value);
    FactSheet {
        ply,
        side: mover.name().to_string(),
        square: square.to_string(),
        index: square.index() as u8,
        captured: names(flipped),
        captured_count: flipped.count(),
        board_before: before.to_text_board(),
        board_after: after.to_text_board(),
        discs_before: Discs::of(before),
        discs_after: Discs::of(&after),
        empty_squares_after: after.empty_count(),
        alternatives,
        alternatives_search: ALTERNATIVES_SEARCH.to_string(),
        discs_exact: false,
        discs_note: String::new(),
        search_depth: report.depth,
        search_value,
        nodes: report.nodes,
        principal_variation: report
            .principal_variation
            .iter()
            .map(|s| s.to_string())
            .collect(),
        opponent_corner_replies: names(opponent_replies & Bitboard::CORNERS),
        opponent_replies: names(opponent_replies),
        mover_moves_after: names(after.legal_moves_for(mover)),
        terms_before: evaluation_terms(before, mover).into(),
        terms_after: evaluation_terms(&after, mover).into(),
        opponent_moves_before: before.legal_moves_for(mover.opponent()).count(),
        frontier_before: Discs::frontier(before),
        frontier_after: Discs::frontier(&after),
        stable_before: Discs::stable(before),
        stable_after: Discs::stable(&after),
        opponent_must_pass: opponent_replies.is_empty() && !after.is_game_over(),
        game_over: after.is_game_over(),
        square_kind: square_kind(before, square).to_string(),
        endgame: None,
        lang: app::i18n::Lang::En,
    }
}

impl FactSheet {
    /// Gives every alternative its value in discs (`scores`: square and
    /// discs from the mover's side; `exact`: solved to the end).
    pub fn set_discs(&mut self, scores: &[(Square, i32)], exact: bool) {
        for alternative in &mut self.alternatives {
            alternative.discs = scores
                .iter()
                .find(|(s, _)| s.to_string() == alternative.square)
                .map(|(_, v)| *v);
        }
        self.discs_exact = exact;
        self.discs_note = DISCS_NOTE.to_string();
    }

    /// The played move's value in discs (mover's side), when known.
    pub fn played_discs(&self) -> Option<i32> {
        self.alternatives
            .iter()
            .find(|a| a.chosen)
            .and_then(|a| a.discs)
    }

    /// The mover's colour.
    pub fn color(&self) -> Color {
        if self.side == "white" {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The opponent's name, capitalised.
    pub fn opponent_name(&self) -> &'static str {
        match self.color() {
            Color::Black => "White",
            Color::White => "Black",
        }
    }

    /// The mover's name, capitalised.
    pub fn side_name(&self) -> &'static str {
        match self.color() {
            Color::Black => "Black",
            Color::White => "White",
        }
    }

    /// The JSON the prompt carries.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::search;

    #[test]
    fn facts_of_the_first_move_match_the_board() {
        let start = Position::initial();
        let report = search(&start, 2);
        let square = report.best_move.expect("a move");
        let facts = build(1, &start, square, &report);
        assert_eq!(facts.side, "black");
        assert_eq!(facts.captured_count, 1);
        assert_eq!(facts.discs_after, Discs { black: 4, white: 1 });
        assert_eq!(facts.alternatives.len(), 4);
        assert_eq!(facts.alternatives.iter().filter(|a| a.chosen).count(), 1);
        assert_eq!(facts.opponent_replies.len(), 3);
        assert!(facts.opponent_corner_replies.is_empty());
        assert_eq!(facts.search_depth, 2);
        assert!(facts.alternatives_search.starts_with("analysis search"));
        assert_eq!(facts.square_kind, "inner");
        assert!(facts.board_after.contains('X'));
        let json: serde_json::Value = serde_json::from_str(&facts.to_json()).expect("json");
        assert_eq!(json["move"], square.to_string());
    }

    #[test]
    fn every_alternative_has_its_exact_value_and_the_count_is_the_play_ais() {
        // After f5 d6 c3 d3 c4: several alternatives, some of which the α–β
        // root only bounds.
        let game = engine::parse_transcript("f5d6c3d3c4").expect("transcript");
        let before = *game.position();
        let depth = 4;
        let report = search(&before, depth);
        assert!(report.root_moves.iter().any(|m| !m.exact));
        let square = report.best_move.expect("a move");
        let facts = build(6, &before, square, &report);
        assert_eq!(
            facts.nodes, report.nodes,
            "the play AI's positions searched"
        );
        assert_eq!(facts.search_value, report.value);
        assert_eq!(facts.alternatives.len(), report.root_moves.len());
        for alt in &facts.alternatives {
            let sq: Square = alt.square.parse().expect("square");
            let next = before.play(sq).expect("legal").position;
            // Exact value: the child searched one disc shallower from the
            // opponent's side (the evaluation is antisymmetric), negated.
            assert_eq!(next.side_to_move, before.side_to_move.opponent());
            let exact = -engine::analyse_root(&next, depth - 1).value;
            assert_eq!(alt.value, exact, "{}", alt.square);
        }
    }

    #[test]
    fn square_kinds() {
        let start = Position::initial();
        let sq = |s: &str| s.parse::<Square>().expect("square");
        assert_eq!(square_kind(&start, sq("a1")), "corner");
        assert_eq!(square_kind(&start, sq("b2")), "x-square");
        assert_eq!(square_kind(&start, sq("b1")), "c-square");
        assert_eq!(square_kind(&start, sq("d1")), "edge");
        assert_eq!(square_kind(&start, sq("d3")), "inner");
    }

    #[test]
    fn frontier_and_stable_discs_are_counted_as_players_count_them() {
        let start = Position::initial();
        // Every disc of the start touches an empty square; none is stable.
        assert_eq!(Discs::frontier(&start), Discs { black: 2, white: 2 });
        assert_eq!(Discs::stable(&start), Discs::default());
        // A corner, the edge squares next to it and the X-square: the corner
        // and its edges are stable; b2 is not (c1 and a3 are empty).
        let position = Position::from_text_board(
            "  A B C D E F G H\n\
             1 X X . . . . . .\n\
             2 X X . . . . . .\n\
             3 . . . . . . . .\n\
             4 . . . O X . . .\n\
             5 . . . X O . . .\n\
             6 . . . . . . . .\n\
             7 . . . . . . . .\n\
             8 . . . . . . . O\n",
            Color::Black,
        )
        .expect("board");
        let sq = |s: &str| s.parse::<Square>().expect("square");
        let black = stable_discs(&position, Color::Black);
        assert!(black.contains(sq("a1")) && black.contains(sq("b1")) && black.contains(sq("a2")));
        assert!(!black.contains(sq("b2")) && !black.contains(sq("e4")));
        assert_eq!(black.count(), 3);
        assert_eq!(stable_discs(&position, Color::White).count(), 1, "h8");
        // A full first row is stable from end to end.
        let mut cells = [0i8; 64];
        cells[..8].fill(1);
        cells[8] = -1;
        cells[27] = 1;
        cells[28] = -1;
        let full = Position::from_cells(&cells, Color::White).expect("cells");
        assert_eq!(stable_discs(&full, Color::Black).count(), 8);
    }

    #[test]
    fn each_alternative_says_what_it_would_leave() {
        let start = Position::initial();
        let report = search(&start, 1);
        let square = report.best_move.expect("a move");
        let facts = build(1, &start, square, &report);
        assert_eq!(facts.opponent_moves_before, 4);
        for alt in &facts.alternatives {
            // Every first move leaves White three replies and Black four
            // discs, all touching an empty square.
            assert_eq!(alt.opponent_replies, 3, "{}", alt.square);
            assert_eq!(alt.frontier_after, 4, "{}", alt.square);
        }
        assert_eq!(facts.frontier_after, Discs { black: 4, white: 1 });
        assert_eq!(facts.stable_after, Discs::default());
    }
}
