//! The rating gate: the one rule that decides whether a result may move a
//! rating or a tournament score — a rated game's two ratings, a tournament
//! game's points, a puzzle's rating and its solver's. Every one of them asks
//! [`gate`] with the facts it knows; none decides again on its own.
//!
//! It is pure (facts in, a verdict out) and depends on nothing of the
//! server's, so the store's round commit (`store/ratings.rs`, inside its
//! transaction), the tournament director, the puzzle service and the fair-play
//! service (`fair_play.rs`, which re-exports it as `fair_play::gate`) all call
//! the same function without a module cycle.
//!
//! The rules (docs/PRODUCT.md, Fair play):
//! - only signed-in accounts gain or lose rating, never an anonymous browser;
//! - two linked accounts (seen from one address or browser) never change
//!   each other's rating or score;
//! - a result with an account marked as a rating abuser counts for nobody;
//! - an aborted game (a side never moved) counts for nobody;
//! - a puzzle moves ratings only when the site served it to that solver
//!   (next, daily or streak — not opened by link or id, never from the
//!   offline pack) and the solver had not answered it before.

/// What a result is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A rated game's two ratings.
    Game,
    /// A game's points in a rated tournament (Swiss or arena).
    TournamentScore,
    /// A puzzle try: the puzzle's rating and its solver's.
    Puzzle,
}

/// The facts the gate decides from. Build one with [`Facts::game`],
/// [`Facts::tournament`] or [`Facts::puzzle`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    pub kind: Kind,
    /// Every side is a signed-in account that still exists.
    pub accounts: bool,
    /// The two sides are linked (a game or a tournament game).
    pub linked: bool,
    /// A side is marked as a rating abuser.
    pub abuser: bool,
    /// The game was aborted (a side never moved).
    pub aborted: bool,
    /// A puzzle: the site served it to this solver for rating.
    pub served: bool,
    /// A puzzle: the solver had not answered it before.
    pub first_answer: bool,
}

impl Facts {
    /// A finished game between two accounts.
    pub fn game(accounts: bool, linked: bool, abuser: bool, aborted: bool) -> Facts {
        Facts {
            kind: Kind::Game,
            accounts,
            linked,
            abuser,
            aborted,
            served: true,
            first_answer: true,
        }
    }

    /// A tournament game's result (tournament games are never aborted).
    pub fn tournament(linked: bool, abuser: bool) -> Facts {
        Facts {
            kind: Kind::TournamentScore,
            accounts: true,
            linked,
            abuser,
            aborted: false,
            served: true,
            first_answer: true,
        }
    }

    /// A puzzle try by a solver (`account`: a signed-in account).
    pub fn puzzle(account: bool, abuser: bool, served: bool, first_answer: bool) -> Facts {
        Facts {
            kind: Kind::Puzzle,
            accounts: account,
            linked: false,
            abuser,
            aborted: false,
            served,
            first_answer,
        }
    }
}

/// Why a result moves nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A side is not a signed-in account (or no longer exists).
    Anonymous,
    /// The two sides are linked.
    Linked,
    /// A side is marked as a rating abuser.
    Abuser,
    /// The game was aborted.
    Aborted,
    /// A puzzle the site did not serve this solver for rating (opened by
    /// link or id, or from the offline pack).
    NotServed,
    /// A puzzle this solver had answered before.
    Answered,
}

impl Refusal {
    /// A short name for logs.
    pub fn name(self) -> &'static str {
        match self {
            Refusal::Anonymous => "anonymous",
            Refusal::Linked => "linked",
            Refusal::Abuser => "abuser",
            Refusal::Aborted => "aborted",
            Refusal::NotServed => "not-served",
            Refusal::Answered => "answered",
        }
    }
}

/// Whether a result may move any rating or score: `Ok` when it counts.
pub fn gate(facts: Facts) -> Result<(), Refusal> {
    if !facts.accounts {
        return Err(Refusal::Anonymous);
    }
    if facts.abuser {
        return Err(Refusal::Abuser);
    }
    match facts.kind {
        Kind::Game | Kind::TournamentScore => {
            if facts.linked {
                return Err(Refusal::Linked);
            }
            if facts.aborted {
                return Err(Refusal::Aborted);
            }
        }
        Kind::Puzzle => {
            if !facts.first_answer {
                return Err(Refusal::Answered);
            }
            if !facts.served {
                return Err(Refusal::NotServed);
            }
        }
    }
    Ok(())
}

/// Whether two players may be paired for a rated game (quick match, a
/// rated tournament): exactly when a result between them could count.
pub fn may_meet_rated(linked: bool, abuser: bool) -> bool {
    gate(Facts::game(true, linked, abuser, false)).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_counts_only_between_unlinked_unmarked_accounts_that_both_moved() {
        assert_eq!(gate(Facts::game(true, false, false, false)), Ok(()));
        assert_eq!(
            gate(Facts::game(false, false, false, false)),
            Err(Refusal::Anonymous)
        );
        assert_eq!(
            gate(Facts::game(true, true, false, false)),
            Err(Refusal::Linked)
        );
        assert_eq!(
            gate(Facts::game(true, false, true, false)),
            Err(Refusal::Abuser)
        );
        assert_eq!(
            gate(Facts::game(true, false, false, true)),
            Err(Refusal::Aborted)
        );
    }

    #[test]
    fn a_tournament_score_follows_the_games_rules() {
        assert_eq!(gate(Facts::tournament(false, false)), Ok(()));
        assert_eq!(gate(Facts::tournament(true, false)), Err(Refusal::Linked));
        assert_eq!(gate(Facts::tournament(false, true)), Err(Refusal::Abuser));
        assert!(may_meet_rated(false, false));
        assert!(!may_meet_rated(true, false));
        assert!(!may_meet_rated(false, true));
    }

    #[test]
    fn a_puzzle_counts_for_an_account_on_a_served_puzzle_answered_once() {
        assert_eq!(gate(Facts::puzzle(true, false, true, true)), Ok(()));
        assert_eq!(
            gate(Facts::puzzle(false, false, true, true)),
            Err(Refusal::Anonymous)
        );
        assert_eq!(
            gate(Facts::puzzle(true, false, false, true)),
            Err(Refusal::NotServed)
        );
        assert_eq!(
            gate(Facts::puzzle(true, false, true, false)),
            Err(Refusal::Answered)
        );
        assert_eq!(
            gate(Facts::puzzle(true, true, true, true)),
            Err(Refusal::Abuser)
        );
    }
}
