//! Othello's Swiss system, pure: who plays whom in the next round, and the
//! standings by points, then the Brightwell quotient, then discs.
//! (Over 600 lines: ~550 of rules and the matching's weights, the rest
//! tests — property tests over random events and the seeded withdrawal case.)
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
//!   points (whole points); for a bye, 32 discs and the player's own points
//!   stand in. For a game against an opponent who withdrew, the player's own
//!   points stand in for the opponent's, and by the WOC rules
//!   ([`BqRule::Woc`]) 32 discs stand in for the game's (events scored
//!   before keep the game's discs: [`BqRule::Legacy`]). The discs column
//!   itself always counts every game's discs.
//! - **Pairing** is a maximum-weight matching (Edmonds' blossom algorithm,
//!   `matching.rs`, O(n³)) over the players still in, ranked by the
//!   standings (points, BQ, discs, rating). Two players may meet unless they
//!   have met before (any round, either colour), `forbidden` says they must
//!   not (linked accounts), or both need the same colour (below). With an
//!   odd number a bye vertex joins, open to players who have had no bye.
//!   The most games come first (every round is fully paired whenever it can
//!   be); among the fullest rounds, the bye goes to the lowest-ranked player
//!   it can, then the score gaps of the games are kept least (the sum of
//!   the squared differences of points), then the rank gaps (the sum of
//!   the squared differences of rank), which pairs neighbours in the
//!   ranking (1–2, 3–4, …) and, where they have met, near ones. A bye
//!   scores a win.
//! - **Sitting out and the end**: when no full round exists but one would
//!   without the `forbidden` pairs, the players the fullest round leaves
//!   out sit it out with 0 points (not a bye; nothing is stored). When no
//!   full round exists even so (repeats, byes, colours), or no game at all
//!   could be played, the event is over ([`Next::Exhausted`]).
//! - **Colours**: a player who has had two more blacks than whites (byes
//!   aside) plays white, two more whites black, so the two never differ by
//!   more than two (two players needing the same colour are not paired).
//!   Otherwise the player who has had black fewer times plays black; on a
//!   tie the one who had white last; else the higher ranked.

use app::protocol::{EndReason, Side};
use std::collections::{HashMap, HashSet};

#[path = "matching.rs"]
mod matching;

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
            // Both left, or neither made a first move: both lose.
            (EndReason::Abandoned, _) | (EndReason::Forfeit, None) => Score {
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

/// Which rule a Swiss's Brightwell quotient follows (defined with the
/// tournament types, so the store can read it without depending on this
/// module).
pub use app::tournaments::BqRule;

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
    /// No full round can be paired even when `forbidden` is ignored (every
    /// one would repeat a game, give a second bye or break the colour
    /// balance), or no game at all: the event ends.
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
            // counted as the player's own; a bye's discs are already 32,
            // and by the WOC rule a withdrawn opponent's game counts 32
            // discs instead of its own.
            let mut opponents = 0u32;
            let mut bq_discs = i64::from(discs[&e.id]);
            for pairing in pairings.iter() {
                let Some(score) = pairing.result else {
                    continue;
                };
                let (opponent, own_discs) = if pairing.black == e.id {
                    (pairing.white, score.black_discs)
                } else if pairing.white == Some(e.id) {
                    (Some(pairing.black), score.white_discs)
                } else {
                    continue;
                };
                opponents += match opponent {
                    Some(o) if !withdrawn.contains(&o) => points[&o],
                    Some(_) if rule == BqRule::Woc => {
                        bq_discs += 32 - i64::from(own_discs);
                        own
                    }
                    _ => own,
                };
            }
            Standing {
                id: e.id,
                points: own,
                bq: bq_discs as f64 + multiplier * f64::from(opponents) / 2.0,
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

/// The next round, from the games so far (see the module's text for the
/// rules): each game as (black, Some(white)), higher-ranked pair first,
/// then the bye as (player, None). `forbidden(a, b)` (asked in either
/// order) marks two players who must not meet (linked accounts): a player
/// left with no opponent but forbidden ones sits the round out.
pub fn next_round(
    entrants: &[Entrant],
    pairings: &[Pairing],
    multiplier: f64,
    rule: BqRule,
    forbidden: &dyn Fn(PlayerId, PlayerId) -> bool,
) -> Next {
    let ranked: Vec<Standing> = standings(entrants, pairings, multiplier, rule)
        .into_iter()
        .filter(|s| !s.withdrawn)
        .collect();
    let n = ranked.len();
    if n < 2 {
        return Next::TooFew;
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
    let needs: Vec<Option<Side>> = ranked.iter().map(|s| needs(s.id, pairings)).collect();
    let spread = ranked[0].points - ranked[n - 1].points;
    // With an odd number, vertex `n` is the bye.
    let vertices = n + n % 2;
    let weights = Weights::new(n, vertices, spread);
    // The allowed games, and whether `forbidden` rules each out.
    let mut edges: Vec<(usize, usize, i64)> = Vec::new();
    let mut linked: Vec<bool> = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (ranked[i].id, ranked[j].id);
            if met.contains(&(a.min(b), a.max(b))) {
                continue;
            }
            if needs[i].is_some() && needs[i] == needs[j] {
                continue;
            }
            edges.push((
                i,
                j,
                weights.game(i, j, ranked[i].points - ranked[j].points),
            ));
            linked.push(forbidden(a, b) || forbidden(b, a));
        }
    }
    if n % 2 == 1 {
        for (i, s) in ranked.iter().enumerate() {
            if !had_bye.contains(&s.id) {
                edges.push((i, n, weights.bye(i)));
                linked.push(false);
            }
        }
    }
    let full = |mate: &[Option<usize>]| mate[..n].iter().all(Option::is_some);
    let free: Vec<(usize, usize, i64)> = edges
        .iter()
        .zip(&linked)
        .filter(|(_, l)| !**l)
        .map(|(e, _)| *e)
        .collect();
    let mate = matching::max_weight_matching(vertices, &free, true);
    if !full(&mate) {
        // Short of a full round: the links are the cause only when the
        // round could be full without them.
        let unlinked = free.len() == edges.len()
            || !full(&matching::max_weight_matching(vertices, &edges, true));
        if unlinked || !(0..n).any(|i| mate[i].is_some_and(|j| j < n)) {
            return Next::Exhausted;
        }
    }
    let mut games = Vec::new();
    let mut bye = None;
    let mut sit_out = Vec::new();
    for (i, s) in ranked.iter().enumerate() {
        match mate[i] {
            Some(j) if j == n => bye = Some((s.id, None)),
            Some(j) if j > i => {
                let (black, white) = colours(s.id, ranked[j].id, pairings);
                games.push((black, Some(white)));
            }
            Some(_) => {}
            None => sit_out.push(s.id),
        }
    }
    games.extend(bye);
    Next::Round { games, sit_out }
}

/// The weights of the matching: each allowed game or bye weighs `top`
/// less its penalty, and a round minimises its penalties level by level:
/// the bye first (the lower the taker ranks, the better), then the score
/// gaps of the games (the squared difference of points), then the rank
/// gaps (squared). Each level's unit exceeds everything the levels below
/// can add up to, so a level never trades against the ones below. For
/// fields so large that an `i64` could overflow, the rank gaps count
/// linearly, then not at all, then the score gaps neither.
struct Weights {
    /// The rank gap's power (0: not counted).
    rank_power: u32,
    /// 0: score gaps not counted.
    score_unit: i64,
    bye_unit: i64,
    top: i64,
    players: usize,
}

impl Weights {
    fn new(players: usize, vertices: usize, spread: u32) -> Weights {
        let n = players as u128;
        let spread = u128::from(spread);
        let configs = [(2, true), (1, true), (0, true), (0, false)];
        for (i, &(rank_power, scores)) in configs.iter().enumerate() {
            // The largest total rank penalty of a round: the top player
            // with the last one, the second with the last but one, ...
            let rank_max: u128 = if rank_power == 0 {
                0
            } else {
                (0..n / 2).map(|k| (n - 1 - 2 * k).pow(rank_power)).sum()
            };
            let score_unit = if scores { rank_max + 1 } else { 0 };
            let score_max = n / 2 * spread * spread * score_unit;
            let bye_unit = score_max + rank_max + 1;
            let top = bye_unit * n + 1;
            // The matching's duals stay within a few times vertices × top.
            let fits = top.saturating_mul(8 * vertices as u128 + 8) < i64::MAX as u128;
            if fits || i == configs.len() - 1 {
                return Weights {
                    rank_power,
                    score_unit: score_unit as i64,
                    bye_unit: bye_unit as i64,
                    top: top as i64,
                    players,
                };
            }
        }
        unreachable!("the last configuration is always taken")
    }

    /// A game between ranks `i` < `j`, `gap` half points apart.
    fn game(&self, i: usize, j: usize, gap: u32) -> i64 {
        let gap = i64::from(gap);
        let rank = if self.rank_power == 0 {
            0
        } else {
            ((j - i) as i64).pow(self.rank_power)
        };
        self.top - self.score_unit * gap * gap - rank
    }

    /// The bye to rank `i`: the lowest ranked costs nothing.
    fn bye(&self, i: usize) -> i64 {
        self.top - self.bye_unit * (self.players - 1 - i) as i64
    }
}

/// How many games (byes aside) `id` played black: what colours even out.
pub(super) fn blacks(id: PlayerId, pairings: &[Pairing]) -> usize {
    pairings
        .iter()
        .filter(|p| p.black == id && p.white.is_some())
        .count()
}

/// The colour `id` must have next: the other one than the colour they
/// have had two games more of (byes aside), so that nobody's blacks and
/// whites ever differ by more than two.
fn needs(id: PlayerId, pairings: &[Pairing]) -> Option<Side> {
    let whites = pairings.iter().filter(|p| p.white == Some(id)).count();
    let blacks = blacks(id, pairings);
    if blacks >= whites + 2 {
        Some(Side::White)
    } else if whites >= blacks + 2 {
        Some(Side::Black)
    } else {
        None
    }
}

/// Who of `higher` (the higher ranked) and `lower` plays black: the one
/// who needs black, or whose opponent needs white; else the one who had
/// black fewer times; else the one who had white in their last game; else
/// the higher ranked.
fn colours(higher: PlayerId, lower: PlayerId, pairings: &[Pairing]) -> (PlayerId, PlayerId) {
    match (needs(higher, pairings), needs(lower, pairings)) {
        (Some(Side::Black), _) | (_, Some(Side::White)) => return (higher, lower),
        (Some(Side::White), _) | (_, Some(Side::Black)) => return (lower, higher),
        (None, None) => {}
    }
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

    /// The next round with nothing forbidden; None when it would end the
    /// event.
    fn pair(
        players: &[Entrant],
        games: &[Pairing],
        multiplier: f64,
        rule: BqRule,
    ) -> Option<Vec<(PlayerId, Option<PlayerId>)>> {
        match next_round(players, games, multiplier, rule, &|_, _| false) {
            Next::Round { games, sit_out } => {
                assert!(sit_out.is_empty(), "nobody sits out without links");
                Some(games)
            }
            Next::TooFew | Next::Exhausted => None,
        }
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
        // A forfeit (a side missed its first move) scores as a resignation:
        // the winner at least 33 discs; neither came: both lose.
        let forfeit = Score::of(Some(Side::White), EndReason::Forfeit, 2, 2);
        assert_eq!((forfeit.white_points, forfeit.white_discs), (2, 62));
        assert_eq!((forfeit.black_points, forfeit.black_discs), (0, 2));
        let both = Score::of(None, EndReason::Forfeit, 2, 2);
        assert_eq!((both.black_points, both.white_points), (0, 0));
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
        // The WOC rule: the game against 4 (who withdrew) counts as a bye,
        // 32 discs + 6 × own 1 point; the discs column keeps the 40.
        assert_eq!(three.bq, 32.0 + 6.0);
        assert_eq!(three.discs, 40);
        // The legacy rule: the game's 40 discs + 6 × own 1 point.
        let table = standings(&players, &games, 6.0, BqRule::Legacy);
        let three = table.iter().find(|s| s.id == acc(3)).unwrap();
        assert_eq!(three.bq, 40.0 + 6.0);
        assert_eq!(three.discs, 40);
    }

    fn game(round: u32, black: i64, white: i64, score: Score) -> Pairing {
        Pairing {
            bonus: [false; 2],
            round,
            black: acc(black),
            white: Some(acc(white)),
            result: Some(score),
        }
    }

    fn bye(round: u32, player: i64) -> Pairing {
        Pairing {
            bonus: [false; 2],
            round,
            black: acc(player),
            white: None,
            result: Some(Score::BYE),
        }
    }

    fn ids(round: &[(PlayerId, Option<PlayerId>)]) -> Vec<(i64, Option<i64>)> {
        round
            .iter()
            .map(|(b, w)| (b.get(), w.map(|w| w.get())))
            .collect()
    }

    #[test]
    fn the_woc_and_legacy_rules_crown_different_winners() {
        // Five players ranked 5, 4, 3, 2, 1 by rating; 4 withdraws after
        // losing 4–60 to 5 in round 1. Three rounds.
        let mut players = entrants(5);
        let finished =
            |winner, black, white| Score::of(Some(winner), EndReason::Finished, black, white);
        let mut games = Vec::new();
        let round = pair(&players, &games, 6.0, BqRule::Woc).unwrap();
        assert_eq!(ids(&round), [(5, Some(4)), (3, Some(2)), (1, None)]);
        games.push(game(1, 5, 4, finished(Side::Black, 60, 4)));
        games.push(game(1, 3, 2, finished(Side::Black, 36, 28)));
        games.push(bye(1, 1));
        players[3].withdrawn = true; // id 4
                                     // 5, 3 and 1 have a win each. By the WOC rule 5's BQ is 32 + 6 × 1
                                     // = 38 and 1's (the bye) 32 + 6 × 1 = 38, 5 ahead on discs (60 to
                                     // 32); 3's 36 + 6 × 0 = 36. 5–1 and 3–2 would repeat 3–2: the
                                     // nearest full round is 5–3 and 1–2 (rank gaps 2 and 2). 5 and 3
                                     // both had black and neither white last: the higher ranked, 5,
                                     // plays black; 2 had white last and plays black against 1.
        let round = pair(&players, &games, 6.0, BqRule::Woc).unwrap();
        assert_eq!(ids(&round), [(5, Some(3)), (2, Some(1))]);
        games.push(game(2, 5, 3, finished(Side::Black, 34, 30)));
        games.push(game(2, 2, 1, finished(Side::White, 30, 34)));
        // 5 and 1 have two wins, 3 one, 2 none: only 5–2 and 1–3 are left.
        // 5 has had two blacks and no white: 5 must play white.
        let round = pair(&players, &games, 6.0, BqRule::Woc).unwrap();
        assert_eq!(ids(&round), [(2, Some(5)), (1, Some(3))]);
        games.push(game(3, 2, 5, finished(Side::White, 30, 34)));
        games.push(game(3, 1, 3, finished(Side::Black, 36, 28)));
        // 5 and 1 both end with 3 points. Their opponents' points:
        // 5: 4 (withdrew: own 3) + 3 (1) + 2 (0) = 4, × 6 = 24;
        // 1: bye (own 3) + 2 (0) + 3 (1) = 4, × 6 = 24.
        // Discs: 5: 60 + 34 + 34 = 128; 1: 32 + 34 + 36 = 102.
        // WOC: 5's game against 4 counts 32: 32 + 34 + 34 + 24 = 124 <
        // 1's 102 + 24 = 126: 1 wins. Legacy: 5's 128 + 24 = 152 wins.
        let woc = standings(&players, &games, 6.0, BqRule::Woc);
        assert_eq!((woc[0].id, woc[0].points, woc[0].bq), (acc(1), 6, 126.0));
        assert_eq!((woc[1].id, woc[1].points, woc[1].bq), (acc(5), 6, 124.0));
        assert_eq!(woc[1].discs, 128);
        let legacy = standings(&players, &games, 6.0, BqRule::Legacy);
        assert_eq!((legacy[0].id, legacy[0].bq), (acc(5), 152.0));
        assert_eq!((legacy[1].id, legacy[1].bq), (acc(1), 126.0));
        assert_eq!(legacy[0].discs, 128);
    }

    #[test]
    fn a_player_whose_only_opponent_is_forbidden_sits_out() {
        // 1–2 and 3–4, then 1–3 and 2–4: only 1–4 and 2–3 are left.
        let players = entrants(4);
        let draw = Score::of(None, EndReason::Finished, 32, 32);
        let games = vec![
            game(1, 1, 2, draw),
            game(1, 3, 4, draw),
            game(2, 3, 1, draw),
            game(2, 4, 2, draw),
        ];
        let linked = |a: PlayerId, b: PlayerId| (a.get(), b.get()) == (4, 1);
        match next_round(&players, &games, 6.0, BqRule::Woc, &linked) {
            Next::Round { games, sit_out } => {
                assert_eq!(games.len(), 1);
                let (b, w) = games[0];
                assert_eq!(
                    [b.get().min(w.unwrap().get()), b.get().max(w.unwrap().get())],
                    [2, 3]
                );
                // Ranked 4, 3, 2, 1 (all level, by rating).
                assert_eq!(sit_out, vec![acc(4), acc(1)]);
            }
            other => panic!("{other:?}"),
        }
        // Without the link the round is full, as before.
        let round = pair(&players, &games, 6.0, BqRule::Woc).unwrap();
        assert_eq!(round.len(), 2);
        // A link between players who would not meet anyway changes nothing.
        let elsewhere = |a: PlayerId, b: PlayerId| (a.get(), b.get()) == (1, 2);
        assert_eq!(
            next_round(&players, &games, 6.0, BqRule::Woc, &elsewhere),
            Next::Round {
                games: round,
                sit_out: Vec::new()
            }
        );
        // Two linked players only: no game can be played.
        let two = entrants(2);
        assert_eq!(
            next_round(&two, &[], 6.0, BqRule::Woc, &|_, _| true),
            Next::Exhausted
        );
        // One player: too few.
        let mut two = two;
        two[0].withdrawn = true;
        assert_eq!(
            next_round(&two, &[], 6.0, BqRule::Woc, &|_, _| false),
            Next::TooFew
        );
    }

    #[test]
    fn a_player_two_colours_behind_gets_the_colour() {
        // 1 had black twice and white four times; 2 black once. The old
        // rule (fewer blacks plays black) would give 1 a fifth white.
        let draw = Score::of(None, EndReason::Finished, 32, 32);
        let games = vec![
            game(1, 1, 3, draw),
            game(2, 4, 1, draw),
            game(3, 5, 1, draw),
            game(4, 1, 6, draw),
            game(5, 7, 1, draw),
            game(6, 8, 1, draw),
            game(6, 2, 9, draw),
        ];
        assert_eq!(colours(acc(2), acc(1), &games), (acc(1), acc(2)));
        assert_eq!(colours(acc(1), acc(2), &games), (acc(1), acc(2)));
        // Two players who both had black twice more are not paired: with
        // the other two withdrawn, the event is over.
        let mut players = entrants(4);
        players[2].withdrawn = true;
        players[3].withdrawn = true;
        let games = vec![
            game(1, 1, 3, draw),
            game(1, 2, 4, draw),
            game(2, 1, 4, draw),
            game(2, 2, 3, draw),
        ];
        assert_eq!(pair(&players, &games, 6.0, BqRule::Woc), None);
    }

    /// A small deterministic generator for the random events.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            // splitmix64
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// The rank of the Tutte matrix of a graph, with random values modulo
    /// a prime: twice the size of its largest matching (but for a chance
    /// of about vertices / 2³²). Independent of the blossom algorithm.
    fn matching_size(vertices: usize, edges: &[(usize, usize)], rng: &mut Rng) -> usize {
        const P: u64 = 4_294_967_291;
        let pow = |mut b: u64, mut e: u64| {
            let mut r = 1u64;
            while e > 0 {
                if e & 1 == 1 {
                    r = r * b % P;
                }
                b = b * b % P;
                e >>= 1;
            }
            r
        };
        let mut m = vec![vec![0u64; vertices]; vertices];
        for &(i, j) in edges {
            let x = 1 + rng.below(P - 1);
            m[i][j] = x;
            m[j][i] = P - x;
        }
        let mut rank = 0;
        for col in 0..vertices {
            let Some(pivot) = (rank..vertices).find(|&r| m[r][col] != 0) else {
                continue;
            };
            m.swap(rank, pivot);
            let inv = pow(m[rank][col], P - 2);
            let top = m[rank].clone();
            for row in m.iter_mut().skip(rank + 1) {
                if row[col] != 0 {
                    let f = row[col] * inv % P;
                    for (x, t) in row.iter_mut().zip(&top).skip(col) {
                        *x = (*x + P - f * t % P) % P;
                    }
                }
            }
            rank += 1;
        }
        rank / 2
    }

    /// The games the pairing rules allow among `active` (no repeat, colours
    /// kept within two, the bye as vertex `active.len()` when odd, for
    /// players without one; the `links` left out too when
    /// `keep_links_out`), as an edge list over positions in `active`.
    fn allowed(
        active: &[PlayerId],
        games: &[Pairing],
        links: &HashSet<(PlayerId, PlayerId)>,
        keep_links_out: bool,
    ) -> Vec<(usize, usize)> {
        let mut balance: HashMap<PlayerId, i64> = HashMap::new();
        let mut met = HashSet::new();
        let mut had_bye = HashSet::new();
        for g in games {
            match g.white {
                Some(w) => {
                    *balance.entry(g.black).or_default() += 1;
                    *balance.entry(w).or_default() -= 1;
                    met.insert((g.black, w));
                    met.insert((w, g.black));
                }
                None => {
                    had_bye.insert(g.black);
                }
            }
        }
        let balance = |id: PlayerId| balance.get(&id).copied().unwrap_or(0);
        let mut edges = Vec::new();
        for (i, &a) in active.iter().enumerate() {
            for (j, &b) in active.iter().enumerate().skip(i + 1) {
                let met = met.contains(&(a, b));
                let (x, y) = (balance(a), balance(b));
                let colours = (x >= 2 && y >= 2) || (x <= -2 && y <= -2);
                let linked = links.contains(&(a.min(b), a.max(b)));
                if !(met || colours || keep_links_out && linked) {
                    edges.push((i, j));
                }
            }
            if active.len() % 2 == 1 && !had_bye.contains(&a) {
                edges.push((i, active.len()));
            }
        }
        edges
    }

    /// Plays an event round by round with `next_round`, checking every
    /// round; the rounds played.
    fn play_event(players: usize, rounds: u32, seed: u64, withdrawals: u64, links: usize) -> u32 {
        let mut rng = Rng(seed);
        let mut entrants: Vec<Entrant> = (1..=players as i64)
            .map(|id| Entrant {
                id: acc(id),
                rating: 1000.0 + rng.below(1000) as f64,
                withdrawn: false,
            })
            .collect();
        let mut linked = HashSet::new();
        for _ in 0..links {
            let a = acc(1 + rng.below(players as u64) as i64);
            let b = acc(1 + rng.below(players as u64) as i64);
            if a != b {
                linked.insert((a.min(b), a.max(b)));
            }
        }
        let forbidden = |a: PlayerId, b: PlayerId| linked.contains(&(a.min(b), a.max(b)));
        let mut games: Vec<Pairing> = Vec::new();
        for round in 1..=rounds {
            if round > 1 {
                for e in entrants.iter_mut() {
                    if rng.below(1000) < withdrawals {
                        e.withdrawn = true;
                    }
                }
            }
            // In rank order.
            let active: Vec<PlayerId> = standings(&entrants, &games, 6.0, BqRule::Woc)
                .into_iter()
                .filter(|s| !s.withdrawn)
                .map(|s| s.id)
                .collect();
            let next = next_round(&entrants, &games, 6.0, BqRule::Woc, &forbidden);
            let (round_games, sit_out) = match next {
                Next::TooFew => {
                    assert!(active.len() < 2);
                    return round - 1;
                }
                Next::Exhausted => {
                    assert!(active.len() >= 2);
                    // No full round exists, links ignored; or none but
                    // with no game at all.
                    let edges = allowed(&active, &games, &linked, false);
                    let vertices = active.len() + active.len() % 2;
                    let size = matching_size(vertices, &edges, &mut rng);
                    let with_links = allowed(&active, &games, &linked, true);
                    let games_possible = with_links.iter().any(|&(_, j)| j < active.len());
                    assert!(
                        2 * size < vertices || !games_possible,
                        "{players} players, round {round}: a full round existed"
                    );
                    return round - 1;
                }
                Next::Round { games, sit_out } => (games, sit_out),
            };
            assert!(
                round_games.iter().any(|(_, w)| w.is_some()),
                "a game is played"
            );
            let mut seen = HashSet::new();
            let mut byes = 0;
            for &(black, white) in &round_games {
                assert!(seen.insert(black), "nobody plays twice in a round");
                match white {
                    Some(white) => {
                        assert!(seen.insert(white), "nobody plays twice in a round");
                        assert!(!forbidden(black, white), "linked players never meet");
                        assert!(
                            !games.iter().any(|g| {
                                (g.black == black && g.white == Some(white))
                                    || (g.black == white && g.white == Some(black))
                            }),
                            "no repeat"
                        );
                    }
                    None => {
                        byes += 1;
                        assert!(
                            !games.iter().any(|g| g.white.is_none() && g.black == black),
                            "one bye a player"
                        );
                    }
                }
            }
            assert!(byes <= 1);
            assert!(byes == 0 || active.len() % 2 == 1);
            for &id in &sit_out {
                assert!(seen.insert(id), "nobody both sits out and plays");
            }
            let mut everyone: Vec<PlayerId> = seen.into_iter().collect();
            everyone.sort();
            let mut want = active.clone();
            want.sort();
            assert_eq!(everyone, want, "every player still in has a place");
            let vertices = active.len() + active.len() % 2;
            if !sit_out.is_empty() {
                assert!(!linked.is_empty());
                // The links are the cause: without them a full round exists.
                let edges = allowed(&active, &games, &linked, false);
                assert_eq!(2 * matching_size(vertices, &edges, &mut rng), vertices);
            }
            if active.len() <= 40 {
                // As many placed as the rules and links allow.
                let edges = allowed(&active, &games, &linked, true);
                let placed = round_games.len();
                assert_eq!(matching_size(vertices, &edges, &mut rng), placed);
                // The bye to the lowest-ranked player who can take it.
                if let Some(&(taker, None)) = round_games.last() {
                    if sit_out.is_empty() {
                        let at = active.iter().position(|&p| p == taker).unwrap();
                        for lower in at + 1..active.len() {
                            let edges: Vec<(usize, usize)> = edges
                                .iter()
                                .copied()
                                .filter(|&(i, j)| j != active.len() || i == lower)
                                .collect();
                            assert!(
                                2 * matching_size(vertices, &edges, &mut rng) < vertices,
                                "a lower-ranked player could have had the bye"
                            );
                        }
                    }
                }
            }
            for &(black, white) in &round_games {
                let result = match white {
                    None => Score::BYE,
                    Some(_) => {
                        let total = 40 + rng.below(25) as u8;
                        let b = rng.below(u64::from(total) + 1) as u8;
                        let w = total - b;
                        match rng.below(20) {
                            0 => Score::of(None, EndReason::Abandoned, b, w),
                            1 => Score::of(Some(Side::Black), EndReason::Resigned, b, w),
                            2 => Score::of(Some(Side::White), EndReason::Time, b, w),
                            _ if b > w => Score::of(Some(Side::Black), EndReason::Finished, b, w),
                            _ if w > b => Score::of(Some(Side::White), EndReason::Finished, b, w),
                            _ => Score::of(None, EndReason::Finished, b, w),
                        }
                    }
                };
                games.push(Pairing {
                    bonus: [false; 2],
                    round,
                    black,
                    white,
                    result: Some(result),
                });
            }
            let mut balance: HashMap<PlayerId, i64> = HashMap::new();
            for g in &games {
                if let Some(w) = g.white {
                    *balance.entry(g.black).or_default() += 1;
                    *balance.entry(w).or_default() -= 1;
                }
            }
            assert!(balance.values().all(|b| b.abs() <= 2), "colours within two");
        }
        rounds
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 64,
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::default()
        })]

        #[test]
        fn random_events_are_paired_by_the_rules(
            players in proptest::prop_oneof![
                6 => 5usize..=12,
                3 => 13usize..=40,
                1 => 41usize..=120,
            ],
            rounds in 1u32..=11,
            seed in proptest::prelude::any::<u64>(),
            withdrawals in proptest::prop_oneof![2 => proptest::strategy::Just(0u64), 3 => 0u64..=80],
            links in 0usize..=6,
        ) {
            play_event(players, rounds, seed, withdrawals, links);
        }
    }

    #[test]
    fn large_events_are_paired_in_full() {
        // 300 players, 11 rounds, nobody leaving: every round is full.
        assert_eq!(play_event(300, 11, 1, 0, 0), 11);
        // With withdrawals and links.
        assert_eq!(play_event(300, 11, 2, 20, 40), 11);
    }
}
