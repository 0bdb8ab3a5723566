//! The store's puzzle queries (`migrations/0019_puzzles.sql`, on PostgreSQL
//! `migrations/postgres/0009_puzzles.sql`): puzzles' and solvers' Glicko-2
//! ratings and each solver's first tries. Written once with `$n` parameters.
//!
//! A first try is written in one transaction with both ratings it changes:
//! the attempt's row goes in first (its primary key, solver and puzzle,
//! makes a second first try — a double click, a race of two tabs — change
//! nothing), which also takes SQLite's write lock before anything is read;
//! on PostgreSQL the two rating rows are then read `FOR UPDATE`, so two
//! tries by one solver at once are applied one after the other.

use super::ratings::DAY_MS;
use super::{on_db, Dialect, Store, StoreError};
use crate::glicko::{self, Rating};

crate::store::rows::row_struct! {
    /// A puzzle's or a solver's stored rating.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct PuzzleRatingRow {
        pub rating: f64,
        pub deviation: f64,
        pub volatility: f64,
        pub attempts: i64,
        pub solved: i64,
    }
}

crate::store::rows::row_struct! {
    /// One of a solver's first tries, newest first in [`Store::puzzle_history`].
    #[derive(Clone, Debug, PartialEq)]
    pub struct AttemptRow {
        pub puzzle_id: String,
        pub solved: i64,
        pub rated: i64,
        pub at: i64,
        pub rating_before: Option<f64>,
        pub rating_after: Option<f64>,
    }
}

/// What a first try changed: the solver's rating before and after, the
/// puzzle's after (both unchanged when the try was not rated).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TryResult {
    pub before: Rating,
    pub after: Rating,
    pub puzzle_after: Rating,
}

const ADD_ATTEMPT: &str = "INSERT INTO puzzle_attempts (solver, puzzle_id, solved, rated, at) \
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (solver, puzzle_id) DO NOTHING";
const NEW_SOLVER: &str = "INSERT INTO puzzle_solvers \
     (solver, rating, deviation, volatility, attempts, solved, rated_at) \
     VALUES ($1, $2, $3, $4, 0, 0, $5) ON CONFLICT (solver) DO NOTHING";
const NEW_PUZZLE: &str = "INSERT INTO puzzle_ratings \
     (puzzle_id, rating, deviation, volatility, attempts, solved) \
     VALUES ($1, $2, $3, $4, 0, 0) ON CONFLICT (puzzle_id) DO NOTHING";
const SOLVER: &str =
    "SELECT rating, deviation, volatility, rated_at FROM puzzle_solvers WHERE solver = $1";
const PUZZLE: &str = "SELECT rating, deviation, volatility, attempts, solved \
     FROM puzzle_ratings WHERE puzzle_id = $1";
const SET_SOLVER: &str = "UPDATE puzzle_solvers SET rating = $2, deviation = $3, volatility = $4, \
     attempts = attempts + 1, solved = solved + $5, rated_at = $6 WHERE solver = $1";
const SET_PUZZLE: &str = "UPDATE puzzle_ratings SET rating = $2, deviation = $3, volatility = $4, \
     attempts = attempts + 1, solved = solved + $5 WHERE puzzle_id = $1";
const MARK_ATTEMPT: &str = "UPDATE puzzle_attempts SET rating_before = $3, rating_after = $4 \
     WHERE solver = $1 AND puzzle_id = $2";

crate::store::rows::row_struct! {
    struct SolverRow {
        rating: f64,
        deviation: f64,
        volatility: f64,
        rated_at: i64,
    }
}

fn rating_of(rating: f64, deviation: f64, volatility: f64) -> Rating {
    Rating {
        rating,
        deviation,
        volatility,
    }
}

impl Store {
    /// Every puzzle's stored rating (the ones tried so far), as
    /// `(puzzle id, rating)`.
    pub async fn puzzle_ratings(&self) -> Result<Vec<(String, f64)>, StoreError> {
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_as(&pool.sql("SELECT puzzle_id, rating FROM puzzle_ratings"))
                .fetch_all(pool)
                .await?
        }))
    }

    /// A solver's puzzle rating, if they have one.
    pub async fn puzzle_solver(&self, solver: &str) -> Result<Option<PuzzleRatingRow>, StoreError> {
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_as(&pool.sql(
                "SELECT rating, deviation, volatility, attempts, solved FROM puzzle_solvers WHERE solver = $1",
            ))
            .bind(solver)
            .fetch_optional(pool)
            .await?
        }))
    }

    /// Records `solver`'s first try at `puzzle` (`start`: the puzzle's
    /// rating before anyone tried it). Rated tries (the rating gate's
    /// verdict, `rating_gate.rs`, decided by the caller) change both ratings
    /// as one game the solver wins when `solved`; an unrated try writes only
    /// its attempt (the result's ratings are then placeholders: the start
    /// ratings). `None` when the solver had tried this puzzle before:
    /// nothing changes.
    pub async fn record_puzzle_try(
        &self,
        solver: &str,
        puzzle: &str,
        start: Rating,
        solved: bool,
        rated: bool,
        now: i64,
    ) -> Result<Option<TryResult>, StoreError> {
        let fresh = Rating::default();
        Ok(on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            let first = sqlx::query(&pool.sql(ADD_ATTEMPT))
                .bind(solver)
                .bind(puzzle)
                .bind(i64::from(solved))
                .bind(i64::from(rated))
                .bind(now)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                == 1;
            if !first {
                tx.rollback().await?;
                return Ok(None);
            }
            if !rated {
                // An unrated try is only its attempt's row: no rating row is
                // made for the solver or the puzzle.
                tx.commit().await?;
                let puzzle_after = start;
                return Ok(Some(TryResult {
                    before: fresh,
                    after: fresh,
                    puzzle_after,
                }));
            }
            sqlx::query(&pool.sql(NEW_SOLVER))
                .bind(solver)
                .bind(fresh.rating)
                .bind(fresh.deviation)
                .bind(fresh.volatility)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            sqlx::query(&pool.sql(NEW_PUZZLE))
                .bind(puzzle)
                .bind(start.rating)
                .bind(start.deviation)
                .bind(start.volatility)
                .execute(&mut *tx)
                .await?;
            let lock = if pool.is_postgres() {
                " FOR UPDATE"
            } else {
                ""
            };
            let me: SolverRow = sqlx::query_as(&pool.sql(&format!("{SOLVER}{lock}")))
                .bind(solver)
                .fetch_one(&mut *tx)
                .await?;
            let it: PuzzleRatingRow = sqlx::query_as(&pool.sql(&format!("{PUZZLE}{lock}")))
                .bind(puzzle)
                .fetch_one(&mut *tx)
                .await?;
            let before = rating_of(me.rating, me.deviation, me.volatility);
            let puzzle_before = rating_of(it.rating, it.deviation, it.volatility);
            let (after, puzzle_after) = if rated {
                let idle = (now.saturating_sub(me.rated_at) / DAY_MS).clamp(0, 10_000) as u32;
                glicko::rate_game(
                    before,
                    puzzle_before,
                    if solved { 1.0 } else { 0.0 },
                    idle,
                    0,
                )
            } else {
                (before, puzzle_before)
            };
            if rated {
                sqlx::query(&pool.sql(SET_SOLVER))
                    .bind(solver)
                    .bind(after.rating)
                    .bind(after.deviation)
                    .bind(after.volatility)
                    .bind(i64::from(solved))
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(&pool.sql(SET_PUZZLE))
                    .bind(puzzle)
                    .bind(puzzle_after.rating)
                    .bind(puzzle_after.deviation)
                    .bind(puzzle_after.volatility)
                    .bind(i64::from(solved))
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(&pool.sql(MARK_ATTEMPT))
                    .bind(solver)
                    .bind(puzzle)
                    .bind(before.rating)
                    .bind(after.rating)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Some(TryResult {
                before,
                after,
                puzzle_after,
            })
        }))
    }

    /// A solver's latest first tries, newest first.
    pub async fn puzzle_history(
        &self,
        solver: &str,
        limit: i64,
    ) -> Result<Vec<AttemptRow>, StoreError> {
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_as(&pool.sql(
                "SELECT puzzle_id, solved, rated, at, rating_before, rating_after FROM puzzle_attempts \
                 WHERE solver = $1 ORDER BY at DESC, puzzle_id LIMIT $2",
            ))
            .bind(solver)
            .bind(limit)
            .fetch_all(pool)
            .await?
        }))
    }

    /// The puzzles `solver` has tried (to offer others).
    pub async fn puzzles_tried(&self, solver: &str) -> Result<Vec<String>, StoreError> {
        Ok(on_db!(self.db(), |pool| {
            sqlx::query_scalar(&pool.sql("SELECT puzzle_id FROM puzzle_attempts WHERE solver = $1"))
                .bind(solver)
                .fetch_all(pool)
                .await?
        }))
    }

    /// Carries an anonymous browser's puzzle tries to the account it signs
    /// up or in to, unrated (an anonymous rating is never carried: only
    /// accounts are rated), except those at puzzles the account tried
    /// itself; what stays behind is deleted with the browser's solver row.
    /// The account can then not be rated on a puzzle this browser answered.
    pub async fn carry_puzzle_solver(&self, from: &str, to: &str) -> Result<(), StoreError> {
        on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            sqlx::query(&pool.sql(
                "UPDATE puzzle_attempts SET solver = $2, rated = 0, rating_before = NULL, \
                 rating_after = NULL WHERE solver = $1 AND puzzle_id NOT IN \
                 (SELECT puzzle_id FROM puzzle_attempts WHERE solver = $2)",
            ))
            .bind(from)
            .bind(to)
            .execute(&mut *tx)
            .await?;
            for forget in [
                "DELETE FROM puzzle_attempts WHERE solver = $1",
                "DELETE FROM puzzle_solvers WHERE solver = $1",
                "DELETE FROM puzzle_served WHERE solver = $1",
            ] {
                sqlx::query(&pool.sql(forget))
                    .bind(from)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Notes that the site served `puzzle` to `solver` for rating.
    pub async fn mark_puzzle_served(
        &self,
        solver: &str,
        puzzle: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(
                "INSERT INTO puzzle_served (solver, puzzle_id, at) VALUES ($1, $2, $3) \
                 ON CONFLICT (solver, puzzle_id) DO NOTHING",
            ))
            .bind(solver)
            .bind(puzzle)
            .bind(now)
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// Whether the site served `puzzle` to `solver` for rating.
    pub async fn puzzle_was_served(&self, solver: &str, puzzle: &str) -> Result<bool, StoreError> {
        let found: Option<i64> = on_db!(self.db(), |pool| {
            sqlx::query_scalar(
                &pool.sql("SELECT at FROM puzzle_served WHERE solver = $1 AND puzzle_id = $2"),
            )
            .bind(solver)
            .bind(puzzle)
            .fetch_optional(pool)
            .await?
        });
        Ok(found.is_some())
    }

    /// Whether `solver` has answered `puzzle` before.
    pub async fn puzzle_answered(&self, solver: &str, puzzle: &str) -> Result<bool, StoreError> {
        let found: Option<i64> = on_db!(self.db(), |pool| {
            sqlx::query_scalar(
                &pool.sql("SELECT at FROM puzzle_attempts WHERE solver = $1 AND puzzle_id = $2"),
            )
            .bind(solver)
            .bind(puzzle)
            .fetch_optional(pool)
            .await?
        });
        Ok(found.is_some())
    }

    /// Forgets anonymous solvers' tries and rows, and every served mark,
    /// older than `before`; returns how many rows went.
    pub async fn expire_puzzle_data(&self, before: i64) -> Result<u64, StoreError> {
        let mut gone = 0;
        on_db!(self.db(), |pool| {
            for sql in [
                "DELETE FROM puzzle_attempts WHERE solver NOT LIKE 'account:%' AND at < $1",
                "DELETE FROM puzzle_solvers WHERE solver NOT LIKE 'account:%' AND rated_at < $1",
                "DELETE FROM puzzle_served WHERE at < $1",
            ] {
                gone += sqlx::query(&pool.sql(sql))
                    .bind(before)
                    .execute(pool)
                    .await?
                    .rows_affected();
            }
        });
        Ok(gone)
    }

    /// The offline pack's puzzles are never rated: their stored ratings go
    /// (back to the file's rating) and their tries stay, unrated. Idempotent;
    /// run at every start, so a pack that changes with the shipped file is
    /// reset too.
    pub async fn unrate_puzzles(&self, ids: &[String]) -> Result<u64, StoreError> {
        let mut changed = 0;
        on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            for id in ids {
                changed +=
                    sqlx::query(&pool.sql("DELETE FROM puzzle_ratings WHERE puzzle_id = $1"))
                        .bind(id)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected();
                changed += sqlx::query(&pool.sql(
                    "UPDATE puzzle_attempts SET rated = 0, rating_before = NULL, rating_after = NULL \
                     WHERE puzzle_id = $1 AND rated <> 0",
                ))
                .bind(id)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            }
            tx.commit().await?;
        });
        Ok(changed)
    }
}
