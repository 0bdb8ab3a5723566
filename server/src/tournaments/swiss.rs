//! Othello's Swiss system, pure: who plays whom in the next round, and the
//! standings by points, then the Brightwell quotient, then discs.
//!
//! The rules (docs/PRODUCT.md, Tournaments):
//! - **Points** are counted in halves: a win 2, a draw 1, a loss 0 (shown
//!   as 1, ½, 0). A bye is a win.
//! - **Discs** of a game are counted as the World Othello Federation does:
//!   at a normal end the empty squares go to the winner (split evenly on a
//!   draw); a game won by resignation, on time or by forfeit gives the
//!   winner their discs on the board plus the empty squares, at least 33,
//!   and the loser the rest of 64. A game both players left is lost by both,
//!   with the discs on the board.
//! - **The Brightwell quotient** (BQ) is the player's total discs plus
//!   `multiplier` (6 by default, as the WOC) × the sum of their opponents'
//!   points (whole points); for a bye, or an opponent who withdrew, 32 discs
//!   and the player's own points stand in.
//! - **Pairing**: players are ranked by points, then BQ, then rating; the
//!   top unpaired player meets the next-ranked player they have not met
//!   (backtracking when the rest cannot be paired); with an odd number the
//!   lowest-ranked player who has had no bye sits out, scoring a win.
//!   Colours: the player who has had black fewer times plays black; on a tie
//!   the one who had white last; else the higher ranked.

use app::protocol::{EndReason, Side};
use std::collections::{HashMap, HashSet};

/// An account in a tournament.
pub type PlayerId = app::protocol::AccountId;

/// A player as pairing and standings see them.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    pub id: PlayerId,
    pub rating: f64,
    /// Left the tournament: no longer paired.
    pub withdrawn: bool,
}

/// One game of a tournament (or a bye: `white` None).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub round: u32,
    pub black: PlayerId,
    pub white: Option<PlayerId>,
    /// Its result, once the game is over.
    pub result: Option<Score>,
    /// An arena's berserk that earned an extra point (black, white): the
    /// berserk player won, with at least [`BERSERK_MOVES`] moves of theirs.
    pub bonus: [bool; 2],
}

/// The moves a berserk winner must have made for the extra point (as on
/// lichess: no point for a berserk win the opponent gave away at once).
pub const BERSERK_MOVES: i64 = 7;

/// A finished game's score for the tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// Half points: 2 a win, 1 a draw, 0 a loss.
    pub black_points: u8,
    pub white_points: u8,
    /// Discs counted by the tournament's rule (see the module's text).
    pub black_discs: u8,
    pub white_discs: u8,
}

impl Score {
    /// A bye's score: a win, 32 discs.
    pub const BYE: Score = Score {
        black_points: 2,
        white_points: 0,
        black_discs: 32,
        white_discs: 0,
    };

    /// The score of a finished game: how it ended and the discs on the
    /// board at the end.
    pub fn of(winner: Option<Side>, reason: EndReason, black: u8, white: u8) -> Score {
        let empty = 64u8.saturating_sub(black.saturating_add(white));
        match (reason, winner) {
            (EndReason::Abandoned, _) => Score {
                black_points: 0,
                white_points: 0,
                black_discs: black,
                white_discs: white,
            },
            (_, None) => Score {
                black_points: 1,
                white_points: 1,
                black_discs: black + empty / 2,
                white_discs: white + empty - empty / 2,
            },
            (reason, Some(side)) => {
                let (won, lost) = match side {
                    Side::Black => (black, white),
                    Side::White => (white, black),
                };
                let won = if reason == EndReason::Finished {
                    won + empty
                } else {
                    (won + empty).max(33)
                };
                let lost = if reason == EndReason::Finished {
                    lost
                } else {
                    64 - won
                };
                match side {
                    Side::Black => Score {
                        black_points: 2,
                        white_points: 0,
                        black_discs: won,
                        white_discs: lost,
                    },
                    Side::White => Score {
                        black_points: 0,
                        white_points: 2,
                        black_discs: lost,
                        white_discs: won,
                    },
                }
            }
        }
    }
}

/// Which rule a Swiss's Brightwell quotient follows for games against an
/// opponent who withdrew.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BqRule {
    /// The rule of events finished before the WOC rule was applied: the
    /// game's discs kept, the player's own points for the opponent's.
    Legacy,
    /// The WOC rules: that game's discs left out, 32 discs and the
    /// player's own points in their place.
    #[default]
    Woc,
}

/// What the next round of a Swiss is.
#[derive(Clone, Debug, PartialEq)]
pub enum Next {
    /// The round: each game as (black, Some(white)), a bye as (player,
    /// None) scoring a win; `sit_out`: players with no opponent they may
    /// meet (every other one forbidden), who sit this round out with 0
    /// points (not a bye, and nothing is stored for them).
    Round {
        games: Vec<(PlayerId, Option<PlayerId>)>,
        sit_out: Vec<PlayerId>,
    },
    /// Fewer than two players left.
    TooFew,
    /// Every pairing would repeat a game: the event ends.
    Exhausted,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub id: PlayerId,
    /// Half points.
    pub points: u32,
    /// The Brightwell quotient (see the module's text).
    pub bq: f64,
    pub discs: u32,
    /// Games played (byes included).
    pub games: u32,
    pub withdrawn: bool,
}

/// The standings after every finished game of `pairings`: by points, then
/// BQ, then discs, then rating (then id, so the order is total).
pub fn standings(
    entrants: &[Entrant],
    pairings: &[Pairing],
    multiplier: f64,
    rule: BqRule,
) -> Vec<Standing> {
    let _ = rule; // TODO(swiss helper): BqRule::Woc leaves a withdrawn opponent's game's discs out.
    let withdrawn: HashSet<PlayerId> = entrants
        .iter()
        .filter(|e| e.withdrawn)
        .map(|e| e.id)
        .collect();
    let mut points: HashMap<PlayerId, u32> = entrants.iter().map(|e| (e.id, 0)).collect();
    let mut discs: HashMap<PlayerId, u32> = entrants.iter().map(|e| (e.id, 0)).collect();
    let mut games: HashMap<PlayerId, u32> = HashMap::new();
    for pairing in pairings {
        let Some(score) = pairing.result else {
            continue;
        };
        *points.entry(pairing.black).or_default() += u32::from(score.black_points);
        *discs.entry(pairing.black).or_default() += u32::from(score.black_discs);
        *games.entry(pairing.black).or_default() += 1;
        if let Some(white) = pairing.white {
            *points.entry(white).or_default() += u32::from(score.white_points);
            *discs.entry(white).or_default() += u32::from(score.white_discs);
            *games.entry(white).or_default() += 1;
        }
    }
    let rating: HashMap<PlayerId, f64> = entrants.iter().map(|e| (e.id, e.rating)).collect();
    let mut lines: Vec<Standing> = entrants
        .iter()
        .map(|e| {
            let own = points[&e.id];
            // Opponents' points (halves), a bye or a withdrawn opponent
            // counted as the player's own; a bye's discs are already 32.
            let mut opponents = 0u32;
            for pairing in pairings.iter().filter(|p| p.result.is_some()) {
                let opponent = if pairing.black == e.id {
                    pairing.white
                } else if pairing.white == Some(e.id) {
                    Some(pairing.black)
                } else {
                    continue;
                };
                opponents += match opponent {
                    Some(o) if !withdrawn.contains(&o) => points[&o],
                    _ => own,
                };
            }
            Standing {
                id: e.id,
                points: own,
                bq: f64::from(discs[&e.id]) + multiplier * f64::from(opponents) / 2.0,
                discs: discs[&e.id],
                games: games.get(&e.id).copied().unwrap_or(0),
                withdrawn: e.withdrawn,
            }
        })
        .collect();
    lines.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.bq.total_cmp(&a.bq))
            .then(b.discs.cmp(&a.discs))
            .then(rating[&b.id].total_cmp(&rating[&a.id]))
            .then(a.id.cmp(&b.id))
    });
    lines
}

/// The next round's pairings (`round`), from the games so far: each pair
/// as (black, Some(white)), a bye as (player, None). None when the players
/// still in cannot be paired without a repeat (the tournament then ends).
pub fn next_round(
    entrants: &[Entrant],
    pairings: &[Pairing],
    multiplier: f64,
    rule: BqRule,
    forbidden: &dyn Fn(PlayerId, PlayerId) -> bool,
) -> Next {
    // TODO(swiss helper): a maximum-weight matching honouring `forbidden`.
    let _ = forbidden;
    let active = entrants.iter().filter(|e| !e.withdrawn).count();
    if active < 2 {
        return Next::TooFew;
    }
    match pair(entrants, pairings, multiplier, rule) {
        Some(games) => Next::Round {
            games,
            sit_out: Vec::new(),
        },
        None => Next::Exhausted,
    }
}

/// Today's pairing (see [`next_round`]).
pub fn pair(
    entrants: &[Entrant],
    pairings: &[Pairing],
    multiplier: f64,
    rule: BqRule,
) -> Option<Vec<(PlayerId, Option<PlayerId>)>> {
    let order: Vec<PlayerId> = standings(entrants, pairings, multiplier, rule)
        .into_iter()
        .filter(|s| !s.withdrawn)
        .map(|s| s.id)
        .collect();
    if order.len() < 2 {
        return None;
    }
    let met: HashSet<(PlayerId, PlayerId)> = pairings
        .iter()
        .filter_map(|p| p.white.map(|w| (p.black.min(w), p.black.max(w))))
        .collect();
    let had_bye: HashSet<PlayerId> = pairings
        .iter()
        .filter(|p| p.white.is_none())
        .map(|p| p.black)
        .collect();
    // The bye candidates, lowest ranked first; none when even.
    let byes: Vec<Option<PlayerId>> = if order.len() % 2 == 1 {
        order
            .iter()
            .rev()
            .filter(|id| !had_bye.contains(id))
            .map(|id| Some(*id))
            .collect()
    } else {
        vec![None]
    };
    for bye in byes {
        let players: Vec<PlayerId> = order.iter().copied().filter(|p| Some(*p) != bye).collect();
        let mut budget = 100_000u32;
        if let Some(pairs) = match_up(&players, &met, &mut budget) {
            let mut round: Vec<(PlayerId, Option<PlayerId>)> = pairs
                .into_iter()
                .map(|(a, b)| {
                    let (black, white) = colours(a, b, pairings);
                    (black, Some(white))
                })
                .collect();
            if let Some(bye) = bye {
                round.push((bye, None));
            }
            return Some(round);
        }
    }
    None
}

/// Pairs `players` (in rank order) so that nobody meets a player they
/// met: the top player with the highest-ranked possible opponent,
/// backtracking; `budget` bounds the search.
fn match_up(
    players: &[PlayerId],
    met: &HashSet<(PlayerId, PlayerId)>,
    budget: &mut u32,
) -> Option<Vec<(PlayerId, PlayerId)>> {
    let Some((&top, rest)) = players.split_first() else {
        return Some(Vec::new());
    };
    for (i, &other) in rest.iter().enumerate() {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        if met.contains(&(top.min(other), top.max(other))) {
            continue;
        }
        let others: Vec<PlayerId> = rest
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, p)| *p)
            .collect();
        if let Some(mut pairs) = match_up(&others, met, budget) {
            pairs.insert(0, (top, other));
            return Some(pairs);
        }
    }
    None
}

/// How many games (byes aside) `id` played black: what colours even out.
pub(super) fn blacks(id: PlayerId, pairings: &[Pairing]) -> usize {
    pairings
        .iter()
        .filter(|p| p.black == id && p.white.is_some())
        .count()
}

/// Who of `higher` (the higher ranked) and `lower` plays black.
fn colours(higher: PlayerId, lower: PlayerId, pairings: &[Pairing]) -> (PlayerId, PlayerId) {
    let blacks = |id: PlayerId| blacks(id, pairings);
    let last_was_white = |id: PlayerId| {
        pairings
            .iter()
            .filter(|p| p.white.is_some() && (p.black == id || p.white == Some(id)))
            .max_by_key(|p| p.round)
            .is_some_and(|p| p.white == Some(id))
    };
    let (h, l) = (blacks(higher), blacks(lower));
    if h < l {
        return (higher, lower);
    }
    if l < h {
        return (lower, higher);
    }
    match (last_was_white(higher), last_was_white(lower)) {
        (false, true) => (lower, higher),
        _ => (higher, lower),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::protocol::AccountId;

    fn acc(n: i64) -> AccountId {
        AccountId::new(n)
    }

    fn entrants(n: i64) -> Vec<Entrant> {
        (1..=n)
            .map(|id| Entrant {
                id: acc(id),
                rating: 1500.0 + id as f64,
                withdrawn: false,
            })
            .collect()
    }

    #[test]
    fn discs_follow_the_woc_rule() {
        // A normal end: the empty squares go to the winner.
        assert_eq!(
            Score::of(Some(Side::Black), EndReason::Finished, 40, 20),
            Score {
                black_points: 2,
                white_points: 0,
                black_discs: 44,
                white_discs: 20
            }
        );
        // A draw with empty squares: split.
        let draw = Score::of(None, EndReason::Finished, 30, 30);
        assert_eq!((draw.black_discs, draw.white_discs), (32, 32));
        assert_eq!((draw.black_points, draw.white_points), (1, 1));
        // Won on time while behind on the board: at least 33.
        let time = Score::of(Some(Side::White), EndReason::Time, 40, 3);
        assert_eq!((time.black_discs, time.white_discs), (31, 33));
        // Won on time with more: the discs plus the empty squares.
        let time = Score::of(Some(Side::White), EndReason::Time, 30, 10);
        assert_eq!((time.black_discs, time.white_discs), (30, 34));
        // Resigned early: the winner's discs plus the empty squares.
        let resigned = Score::of(Some(Side::Black), EndReason::Resigned, 3, 2);
        assert_eq!((resigned.black_discs, resigned.white_discs), (62, 2));
        // Both left: both lose.
        let gone = Score::of(None, EndReason::Abandoned, 2, 2);
        assert_eq!((gone.black_points, gone.white_points), (0, 0));
    }

    #[test]
    fn the_first_round_pairs_by_rating_and_gives_the_lowest_a_bye() {
        let players = entrants(5);
        let round = pair(&players, &[], 6.0, BqRule::Woc).unwrap();
        assert_eq!(round.len(), 3);
        // Ranked 5, 4, 3, 2, 1 by rating: 1 sits out, 5–4 and 3–2 play.
        assert_eq!(round[2], (acc(1), None));
        let pairs: Vec<(i64, i64)> = round[..2]
            .iter()
            .map(|(b, w)| (b.get().max(w.unwrap().get()), b.get().min(w.unwrap().get())))
            .collect();
        assert_eq!(pairs, vec![(5, 4), (3, 2)]);
    }

    fn won(round: u32, black: i64, white: i64, black_discs: u8) -> Pairing {
        Pairing {
            bonus: [false; 2],
            round,
            black: acc(black),
            white: Some(acc(white)),
            result: Some(if black_discs > 32 {
                Score::of(
                    Some(Side::Black),
                    EndReason::Finished,
                    black_discs,
                    64 - black_discs,
                )
            } else {
                Score::of(
                    Some(Side::White),
                    EndReason::Finished,
                    black_discs,
                    64 - black_discs,
                )
            }),
        }
    }

    #[test]
    fn nobody_meets_twice_and_colours_alternate() {
        let players = entrants(4);
        let mut games = vec![won(1, 4, 3, 40), won(1, 2, 1, 40)];
        let round = pair(&players, &games, 6.0, BqRule::Woc).unwrap();
        // Winners 4 and 2 meet; losers 3 and 1 meet; no byes.
        assert_eq!(round.len(), 2);
        for (black, white) in &round {
            let white = white.unwrap();
            assert!(!games.iter().any(|g| {
                (g.black == *black && g.white == Some(white))
                    || (g.black == white && g.white == Some(*black))
            }));
        }
        // 4 and 2 both had black: the higher ranked (4, more discs? both
        // 40) keeps black only if the other had white last: neither did,
        // so the higher ranked plays black. 3 and 1 had white: same rule.
        for (black, white) in &round {
            games.push(Pairing {
                bonus: [false; 2],
                round: 2,
                black: *black,
                white: *white,
                result: None,
            });
        }
        let third_round_players: HashSet<_> = round.iter().map(|(b, _)| *b).collect();
        assert_eq!(third_round_players.len(), 2);
        // Round 3: everyone has met two of three; the last pairing is forced.
        for g in games.iter_mut() {
            if g.result.is_none() {
                g.result = Some(Score::of(Some(Side::Black), EndReason::Finished, 40, 24));
            }
        }
        let last = pair(&players, &games, 6.0, BqRule::Woc).unwrap();
        for (black, white) in &last {
            let white = white.unwrap();
            assert!(!games.iter().any(|g| {
                (g.black == *black && g.white == Some(white))
                    || (g.black == white && g.white == Some(*black))
            }));
        }
        // A fourth round would need a repeat: none.
        for (black, white) in &last {
            games.push(Pairing {
                bonus: [false; 2],
                round: 3,
                black: *black,
                white: *white,
                result: Some(Score::of(None, EndReason::Finished, 32, 32)),
            });
        }
        assert_eq!(pair(&players, &games, 6.0, BqRule::Woc), None);
    }

    #[test]
    fn the_player_with_fewer_blacks_plays_black() {
        let games = vec![won(1, 1, 2, 40)];
        assert_eq!(colours(acc(1), acc(2), &games), (acc(2), acc(1)));
        assert_eq!(colours(acc(2), acc(1), &games), (acc(2), acc(1)));
    }

    #[test]
    fn standings_break_ties_by_brightwell_quotient() {
        // 1 beat 2 (40–24), 3 beat 4 (34–30); then 1 beat 3 (33–31),
        // 2 beat 4 (50–14). Points: 1: 2 wins, 2: 1, 3: 1, 4: 0.
        let players = entrants(4);
        let games = vec![
            won(1, 1, 2, 40),
            won(1, 3, 4, 34),
            won(2, 1, 3, 33),
            won(2, 2, 4, 50),
        ];
        let table = standings(&players, &games, 6.0, BqRule::Woc);
        assert_eq!(table[0].id, acc(1));
        assert_eq!(table[0].points, 4);
        // 2: discs 24 + 50 = 74, opponents 1 (2 pts) + 4 (0) → 74 + 12 = 86.
        // 3: discs 34 + 31 = 65, opponents 4 (0) + 1 (2) → 65 + 12 = 77.
        let two = table.iter().find(|s| s.id == acc(2)).unwrap();
        let three = table.iter().find(|s| s.id == acc(3)).unwrap();
        assert_eq!(two.bq, 86.0);
        assert_eq!(three.bq, 77.0);
        assert_eq!(table[1].id, acc(2));
        assert_eq!(table[2].id, acc(3));
        assert_eq!(table[3].id, acc(4));
    }

    #[test]
    fn a_bye_counts_32_discs_and_the_players_own_points() {
        let players = entrants(3);
        let games = vec![
            won(1, 3, 2, 40),
            Pairing {
                bonus: [false; 2],
                round: 1,
                black: acc(1),
                white: None,
                result: Some(Score::BYE),
            },
        ];
        let table = standings(&players, &games, 6.0, BqRule::Woc);
        let one = table.iter().find(|s| s.id == acc(1)).unwrap();
        // 32 discs + 6 × own 1 point.
        assert_eq!(one.bq, 38.0);
        // The next round: 1 does not sit out again.
        let round = pair(&players, &games, 6.0, BqRule::Woc).unwrap();
        assert!(round.iter().all(|(b, w)| !(w.is_none() && *b == acc(1))));
    }

    #[test]
    fn withdrawn_players_are_not_paired_and_count_as_the_players_own() {
        let mut players = entrants(4);
        players[3].withdrawn = true; // id 4
        let games = vec![won(1, 3, 4, 40), won(1, 1, 2, 40)];
        let round = pair(&players, &games, 6.0, BqRule::Woc).unwrap();
        assert!(round
            .iter()
            .all(|(b, w)| *b != acc(4) && *w != Some(acc(4))));
        assert_eq!(round.iter().filter(|(_, w)| w.is_none()).count(), 1);
        let table = standings(&players, &games, 6.0, BqRule::Woc);
        let three = table.iter().find(|s| s.id == acc(3)).unwrap();
        // 44 discs (40 + 4 empty... none empty here) + 6 × own 1 point.
        assert_eq!(three.bq, 40.0 + 6.0);
    }
}
