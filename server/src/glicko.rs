//! Glicko-2 ratings, as Mark Glickman defines them in "Example of the
//! Glicko-2 system" (2013): a rating, a rating deviation (RD) and a
//! volatility per player, updated once per rating period from the games in
//! it. Here every rated game is one rating period for both of its players,
//! and a player's RD grows, before a game, for each whole day since their
//! last rated one, as an empty period would (Glickman's step 6), never past
//! the RD of a new player.

/// Glickman's conversion between the Glicko and Glicko-2 scales.
const SCALE: f64 = 173.7178;
/// The system constant τ: how much volatility may change (0.3–1.2).
pub const TAU: f64 = 0.5;
/// Convergence tolerance of the volatility iteration.
const EPSILON: f64 = 0.000_001;

/// A new player's rating.
pub const START_RATING: f64 = 1500.0;
/// A new player's RD, and the most any RD grows to.
pub const START_DEVIATION: f64 = 350.0;
/// A new player's volatility.
pub const START_VOLATILITY: f64 = 0.06;
/// No rating falls below this (lichess keeps a floor too): losing on purpose
/// cannot push an account far enough down to farm it from, or to sandbag.
pub const RATING_FLOOR: f64 = 600.0;
/// Above this RD a rating is provisional (shown with a "?", as lichess does).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// One player's rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: START_RATING,
            deviation: START_DEVIATION,
            volatility: START_VOLATILITY,
        }
    }
}

/// A game's result for the player being rated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub opponent: Rating,
    /// 1 for a win, 0.5 a draw, 0 a loss.
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    /// Whether the rating is still provisional.
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating after `periods` rating periods without games: only the
    /// RD grows (step 6 alone), never past [`START_DEVIATION`].
    pub fn idle(self, periods: u32) -> Rating {
        if periods == 0 {
            return self;
        }
        let mut phi = self.deviation / SCALE;
        let sigma = self.volatility;
        for _ in 0..periods.min(10_000) {
            phi = (phi * phi + sigma * sigma).sqrt();
            if phi * SCALE >= START_DEVIATION {
                break;
            }
        }
        Rating {
            deviation: (phi * SCALE).min(START_DEVIATION),
            ..self
        }
    }

    /// The rating after one rating period with these games (Glickman's
    /// steps 2–8). With no games, the period is an idle one.
    pub fn after(self, games: &[Outcome]) -> Rating {
        if games.is_empty() {
            return self.idle(1);
        }
        // Step 2: to the Glicko-2 scale.
        let mu = (self.rating - START_RATING) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        let opponents: Vec<(f64, f64, f64)> = games
            .iter()
            .map(|o| {
                (
                    (o.opponent.rating - START_RATING) / SCALE,
                    o.opponent.deviation / SCALE,
                    o.score,
                )
            })
            .collect();
        // Step 3: the estimated variance v.
        let v = 1.0
            / opponents
                .iter()
                .map(|&(mu_j, phi_j, _)| {
                    let e = expected(mu, mu_j, phi_j);
                    g(phi_j) * g(phi_j) * e * (1.0 - e)
                })
                .sum::<f64>();
        // Step 4: the estimated improvement Δ.
        let improvement: f64 = opponents
            .iter()
            .map(|&(mu_j, phi_j, s)| g(phi_j) * (s - expected(mu, mu_j, phi_j)))
            .sum();
        let delta = v * improvement;
        // Step 5: the new volatility (the Illinois algorithm).
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * TAU) < 0.0 && k < 1000.0 {
                k += 1.0;
            }
            a - k * TAU
        };
        let mut f_a = f(big_a);
        let mut f_b = f(big_b);
        let mut rounds = 0;
        while (big_b - big_a).abs() > EPSILON && rounds < 1000 {
            let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = c;
            f_b = f_c;
            rounds += 1;
        }
        let new_sigma = (big_a / 2.0).exp();
        // Step 6: the pre-period RD.
        let phi_star = (phi * phi + new_sigma * new_sigma).sqrt();
        // Step 7: the new RD and rating.
        let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let new_mu = mu + new_phi * new_phi * improvement;
        // Step 8: back to the Glicko scale.
        Rating {
            rating: SCALE * new_mu + START_RATING,
            deviation: (SCALE * new_phi).min(START_DEVIATION),
            volatility: new_sigma,
        }
    }
}

/// Both players' ratings after one rated game: `black_score` is 1, 0.5 or
/// 0 for Black. Each player's RD first grows for `black_idle_days` /
/// `white_idle_days` whole days without a rated game.
pub fn rate_game(
    black: Rating,
    white: Rating,
    black_score: f64,
    black_idle_days: u32,
    white_idle_days: u32,
) -> (Rating, Rating) {
    let black = black.idle(black_idle_days);
    let white = white.idle(white_idle_days);
    let floored = |mut r: Rating| {
        r.rating = r.rating.max(RATING_FLOOR);
        r
    };
    (
        floored(black.after(&[Outcome {
            opponent: white,
            score: black_score,
        }])),
        floored(white.after(&[Outcome {
            opponent: black,
            score: 1.0 - black_score,
        }])),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pages say a rating settles "after about N rated games": N is
    /// within two games of what Glicko-2 gives a new player, whether their
    /// opponents are new too or long settled.
    #[test]
    fn the_games_a_rating_takes_to_settle_are_what_the_pages_say() {
        let games_to_settle = |opponent: Option<Rating>| {
            let mut player = Rating::default();
            let mut other = Rating::default();
            for games in 1..100u32 {
                let them = opponent.unwrap_or(other);
                let score = if games % 2 == 0 { 1.0 } else { 0.0 };
                let (next, next_other) = rate_game(player, them, score, 0, 0);
                player = next;
                other = next_other;
                if !player.provisional() {
                    return games;
                }
            }
            unreachable!("a rating settles");
        };
        let among_new = games_to_settle(None);
        let among_settled = games_to_settle(Some(rating(1500.0, 60.0)));
        let said = app::ratings::SETTLES_AFTER_GAMES;
        for games in [among_new, among_settled] {
            assert!(
                games.abs_diff(said) <= 2,
                "{games} games, the pages say about {said}"
            );
        }
    }

    #[test]
    fn no_rating_falls_below_the_floor() {
        let low = Rating {
            rating: RATING_FLOOR + 5.0,
            deviation: 300.0,
            volatility: START_VOLATILITY,
        };
        let strong = Rating {
            rating: RATING_FLOOR + 50.0,
            deviation: 50.0,
            volatility: START_VOLATILITY,
        };
        let unfloored = low.after(&[Outcome {
            opponent: strong,
            score: 0.0,
        }]);
        assert!(unfloored.rating < RATING_FLOOR, "the loss would go below");
        let (after, _) = rate_game(low, strong, 0.0, 0, 0);
        assert_eq!(after.rating, RATING_FLOOR);
    }

    fn rating(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: START_VOLATILITY,
        }
    }

    #[test]
    fn glickmans_worked_example() {
        // "Example of the Glicko-2 system", section "Example calculation".
        let player = rating(1500.0, 200.0);
        let after = player.after(&[
            Outcome {
                opponent: rating(1400.0, 30.0),
                score: 1.0,
            },
            Outcome {
                opponent: rating(1550.0, 100.0),
                score: 0.0,
            },
            Outcome {
                opponent: rating(1700.0, 300.0),
                score: 0.0,
            },
        ]);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn idle_days_grow_the_deviation_up_to_a_new_players() {
        let settled = rating(1800.0, 60.0);
        let week = settled.idle(7);
        assert!(week.deviation > 60.0 && week.deviation < 70.0, "{week:?}");
        assert_eq!(week.rating, 1800.0);
        assert_eq!(settled.idle(0), settled);
        assert_eq!(settled.idle(100_000).deviation, START_DEVIATION);
        assert_eq!(Rating::default().idle(3).deviation, START_DEVIATION);
    }

    #[test]
    fn a_game_moves_both_ratings_in_opposite_directions_and_a_draw_between_equals_moves_neither() {
        let (black, white) = rate_game(Rating::default(), Rating::default(), 1.0, 0, 0);
        assert!(black.rating > 1500.0 && white.rating < 1500.0);
        assert!(((black.rating - 1500.0) + (white.rating - 1500.0)).abs() < 1e-6);
        assert!(black.deviation < START_DEVIATION && white.deviation < START_DEVIATION);
        let (black, white) = rate_game(rating(1600.0, 80.0), rating(1600.0, 80.0), 0.5, 0, 0);
        assert!((black.rating - 1600.0).abs() < 1e-6 && (white.rating - 1600.0).abs() < 1e-6);
        // An upset moves the favourite more than an expected result.
        let favourite = rating(1900.0, 80.0);
        let underdog = rating(1500.0, 80.0);
        let (upset, _) = rate_game(favourite, underdog, 0.0, 0, 0);
        let (expected, _) = rate_game(favourite, underdog, 1.0, 0, 0);
        assert!(1900.0 - upset.rating > expected.rating - 1900.0);
        assert!(!rating(1500.0, 110.0).provisional() && rating(1500.0, 110.1).provisional());
    }
}
