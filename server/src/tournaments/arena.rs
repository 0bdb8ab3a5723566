//! Arenas (lichess's format), pure: for a fixed time, players who are free
//! are paired at once; a win scores 2, a draw 1, a loss 0, and a player on
//! a streak (their last two games won) scores double until they fail to
//! win; a berserk win (half the clock, with at least seven moves) one more. Standings by points, then games won, then rating.

use super::swiss::{Entrant, Pairing, PlayerId};
use std::collections::{HashMap, HashSet};

/// One line of an arena's standings.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaLine {
    pub id: PlayerId,
    pub points: u32,
    pub games: u32,
    pub wins: u32,
    /// On a streak now: their next win or draw counts double.
    pub on_fire: bool,
    /// Left the arena (paused): not paired until they join again.
    pub withdrawn: bool,
}

/// The points each finished game gave, in order: a player's result (from
/// the game's halves: 2 a win, 1 a draw) doubled while on a streak.
pub fn standings(entrants: &[Entrant], pairings: &[Pairing]) -> Vec<ArenaLine> {
    let mut lines: HashMap<PlayerId, ArenaLine> = entrants
        .iter()
        .map(|e| {
            (
                e.id,
                ArenaLine {
                    id: e.id,
                    points: 0,
                    games: 0,
                    wins: 0,
                    on_fire: false,
                    withdrawn: e.withdrawn,
                },
            )
        })
        .collect();
    // Each player's results in the order their games were paired.
    let mut recent: HashMap<PlayerId, Vec<u8>> = HashMap::new();
    let mut ordered: Vec<&Pairing> = pairings.iter().filter(|p| p.result.is_some()).collect();
    ordered.sort_by_key(|p| p.round);
    for pairing in ordered {
        let Some(score) = pairing.result else {
            continue;
        };
        let sides = [
            (Some(pairing.black), score.black_points, pairing.bonus[0]),
            (pairing.white, score.white_points, pairing.bonus[1]),
        ];
        for (player, halves, bonus) in sides {
            let Some(player) = player else {
                continue;
            };
            let history = recent.entry(player).or_default();
            let on_fire =
                history.len() >= 2 && history[history.len() - 2..].iter().all(|r| *r == 2);
            let line = lines.entry(player).or_insert(ArenaLine {
                id: player,
                points: 0,
                games: 0,
                wins: 0,
                on_fire: false,
                withdrawn: false,
            });
            let points = u32::from(halves);
            line.points += if on_fire { points * 2 } else { points } + u32::from(bonus);
            line.games += 1;
            line.wins += u32::from(halves == 2);
            history.push(halves);
        }
    }
    for (player, history) in &recent {
        if let Some(line) = lines.get_mut(player) {
            line.on_fire =
                history.len() >= 2 && history[history.len() - 2..].iter().all(|r| *r == 2);
        }
    }
    let rating: HashMap<PlayerId, f64> = entrants.iter().map(|e| (e.id, e.rating)).collect();
    let mut lines: Vec<ArenaLine> = lines.into_values().collect();
    lines.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.wins.cmp(&a.wins))
            .then(
                rating
                    .get(&b.id)
                    .unwrap_or(&0.0)
                    .total_cmp(rating.get(&a.id).unwrap_or(&0.0)),
            )
            .then(a.id.cmp(&b.id))
    });
    lines
}

/// Pairs the players who are free now: in the arena, not withdrawn, not in
/// a game. Ranked by points then rating, each meets the next free player
/// who was not their last opponent; two who just played wait for someone
/// else (a game elsewhere ends soon) unless nobody else in the arena may
/// play them. Two players `forbidden` to meet (linked accounts in a rated
/// arena) are never paired: each waits for someone else.
/// Returns (first, second) pairs; colours by [`colours`].
pub fn pair_free(
    entrants: &[Entrant],
    pairings: &[Pairing],
    forbidden: &dyn Fn(PlayerId, PlayerId) -> bool,
) -> Vec<(PlayerId, PlayerId)> {
    let busy: HashSet<PlayerId> = pairings
        .iter()
        .filter(|p| p.result.is_none())
        .flat_map(|p| [Some(p.black), p.white])
        .flatten()
        .collect();
    let table = standings(entrants, pairings);
    let free: Vec<PlayerId> = table
        .iter()
        .filter(|l| !l.withdrawn && !busy.contains(&l.id))
        .map(|l| l.id)
        .collect();
    let last_opponent = |id: PlayerId| -> Option<PlayerId> {
        pairings
            .iter()
            .filter(|p| p.black == id || p.white == Some(id))
            .max_by_key(|p| p.round)
            .and_then(|p| {
                if p.black == id {
                    p.white
                } else {
                    Some(p.black)
                }
            })
    };
    let active: Vec<PlayerId> = table
        .iter()
        .filter(|l| !l.withdrawn)
        .map(|l| l.id)
        .collect();
    let may_meet = |a: PlayerId, b: PlayerId| a != b && !forbidden(a, b);
    // Whether `id` may meet nobody in the arena but one player.
    let one_choice = |id: PlayerId| active.iter().filter(|p| may_meet(id, **p)).count() == 1;
    let mut pairs = Vec::new();
    let mut paired: HashSet<PlayerId> = HashSet::new();
    for &first in &free {
        if paired.contains(&first) {
            continue;
        }
        let last = last_opponent(first);
        // The free players not yet paired, in rank order (one who waits
        // stays free for the players ranked below).
        let open = || {
            free.iter()
                .copied()
                .filter(|p| *p != first && !paired.contains(p))
        };
        let choice = open()
            .find(|p| Some(*p) != last && last_opponent(*p) != Some(first) && may_meet(first, *p))
            .or_else(|| {
                // Their only possible opponent, even if they just met.
                one_choice(first)
                    .then(|| open().find(|p| may_meet(first, *p)))
                    .flatten()
            });
        // None: everyone free just played `first`, or may not: they wait.
        if let Some(second) = choice {
            paired.insert(first);
            paired.insert(second);
            pairs.push((first, second));
        }
    }
    pairs
}

/// Who of two arena players plays black: the one who has had black fewer
/// times (the first named on a tie).
pub fn colours(a: PlayerId, b: PlayerId, pairings: &[Pairing]) -> (PlayerId, PlayerId) {
    if super::swiss::blacks(b, pairings) < super::swiss::blacks(a, pairings) {
        (b, a)
    } else {
        (a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::protocol::AccountId;

    fn acc(n: i64) -> AccountId {
        AccountId::new(n)
    }
    use crate::tournaments::swiss::Score;
    use app::protocol::{EndReason, Side};

    fn players(n: i64) -> Vec<Entrant> {
        (1..=n)
            .map(|id| Entrant {
                id: acc(id),
                rating: 1500.0 + id as f64,
                withdrawn: false,
            })
            .collect()
    }

    fn game(round: u32, black: i64, white: i64, winner: Option<Side>) -> Pairing {
        Pairing {
            bonus: [false; 2],
            round,
            black: acc(black),
            white: Some(acc(white)),
            result: Some(Score::of(winner, EndReason::Finished, 40, 24)),
        }
    }

    #[test]
    fn a_streak_doubles_the_points_until_it_breaks() {
        let entrants = players(2);
        // 1 wins three in a row, then loses, then wins.
        let games = vec![
            game(1, 1, 2, Some(Side::Black)),
            game(2, 2, 1, Some(Side::White)),
            game(3, 1, 2, Some(Side::Black)),
            game(4, 2, 1, Some(Side::Black)),
            game(5, 1, 2, Some(Side::Black)),
        ];
        let table = standings(&entrants, &games);
        let one = table.iter().find(|l| l.id == acc(1)).unwrap();
        // 2 + 2 + 4 (on fire) + 0 + 2.
        assert_eq!(one.points, 10);
        assert_eq!(one.wins, 4);
        assert!(!one.on_fire);
        let two = table.iter().find(|l| l.id == acc(2)).unwrap();
        assert_eq!(two.points, 2);
        assert_eq!(table[0].id, acc(1));
    }

    #[test]
    fn free_players_are_paired_and_not_with_their_last_opponent() {
        let entrants = players(4);
        // 1 and 2 just played; 3 is in a game with 4.
        let mut games = vec![game(1, 1, 2, Some(Side::Black))];
        games.push(Pairing {
            bonus: [false; 2],
            round: 2,
            black: acc(3),
            white: Some(acc(4)),
            result: None,
        });
        let free = |_: PlayerId, _: PlayerId| false;
        // Only 1 and 2 are free: they wait for 3 and 4 rather than meet again…
        assert_eq!(pair_free(&entrants, &games, &free).len(), 0);
        // … unless nobody else is in the arena.
        assert_eq!(pair_free(&entrants[..2], &games[..1], &free).len(), 1);
        games[1].result = Some(Score::of(Some(Side::White), EndReason::Finished, 20, 44));
        let pairs = pair_free(&entrants, &games, &free);
        assert_eq!(pairs.len(), 2);
        for (a, b) in &pairs {
            let pair = ((*a).min(*b), (*a).max(*b));
            assert!(
                pair != (acc(1), acc(2)) && pair != (acc(3), acc(4)),
                "{pairs:?}"
            );
        }
        // A withdrawn player is not paired.
        let mut entrants = entrants;
        entrants[0].withdrawn = true;
        let pairs = pair_free(&entrants, &games, &free);
        assert_eq!(pairs.len(), 1);
        assert!(pairs.iter().all(|(a, b)| *a != acc(1) && *b != acc(1)));
    }

    #[test]
    fn players_forbidden_to_meet_are_never_paired() {
        let entrants = players(4);
        // 1 and 2 are linked, and so are 3 and 4.
        let linked = |a: PlayerId, b: PlayerId| {
            let pair = (a.min(b), a.max(b));
            pair == (acc(1), acc(2)) || pair == (acc(3), acc(4))
        };
        let pairs = pair_free(&entrants, &[], &linked);
        assert_eq!(pairs.len(), 2, "{pairs:?}");
        assert!(pairs.iter().all(|(a, b)| !linked(*a, *b)), "{pairs:?}");
        // Two linked players alone in the arena wait, even though nobody
        // else is there.
        assert!(pair_free(&entrants[..2], &[], &linked).is_empty());
        // Three players, two of them linked: the third meets each in turn,
        // and one who may meet only the third meets them again.
        let three = &entrants[1..4];
        let links = |a: PlayerId, b: PlayerId| (a.min(b), a.max(b)) == (acc(3), acc(4));
        let played = vec![
            game(1, 2, 3, Some(Side::Black)),
            game(2, 2, 4, Some(Side::Black)),
        ];
        let pairs = pair_free(three, &played, &links);
        assert_eq!(pairs.len(), 1, "{pairs:?}");
        assert!(!links(pairs[0].0, pairs[0].1), "{pairs:?}");
        // Only two linked players free (the others' game goes on): nobody
        // is paired.
        let mut games = vec![Pairing {
            bonus: [false; 2],
            round: 1,
            black: acc(3),
            white: Some(acc(4)),
            result: None,
        }];
        assert!(pair_free(&entrants, &games, &linked).is_empty());
        games[0].result = Some(Score::of(Some(Side::Black), EndReason::Finished, 40, 24));
        let pairs = pair_free(&entrants, &games, &linked);
        assert!(pairs.iter().all(|(a, b)| !linked(*a, *b)), "{pairs:?}");
    }

    #[test]
    fn colours_even_out() {
        let games = vec![game(1, 1, 2, Some(Side::Black))];
        assert_eq!(colours(acc(1), acc(2), &games), (acc(2), acc(1)));
        assert_eq!(colours(acc(2), acc(1), &games), (acc(2), acc(1)));
    }
}
