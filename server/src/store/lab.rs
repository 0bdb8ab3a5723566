//! The lab game repository: every query of a lab game, written once for
//! both databases — creating, copying, reading, the version-checked
//! placements and explanations, leases on explanations being written, and
//! deleting idle games. Every write bumps the game's `version` in the same
//! transaction; a placement or retry made on what a caller saw succeeds
//! only at the version it saw ([`StoreError::Stale`] otherwise), so two
//! writers never both step one game. A pending explanation carries a lease
//! (`claimed_until`): its writer holds it, and another takes it over once
//! it has run out (its writer stopped).

use super::lab_rows::{ExplainState, LabGameRow, LabMoveRow, Outcome, StoredOutcome};
use super::{on_db, Dialect, Store, StoreError};

impl Store {
    /// Creates a lab game at version 1.
    pub async fn create_lab_game(
        &self,
        id: &str,
        black_depth: u8,
        white_depth: u8,
        lang: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        const CREATE: &str = "INSERT INTO lab_games (id, black_depth, white_depth, created_at, updated_at, lang, version)
             VALUES ($1, $2, $3, $4, $4, $5, 1)";
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(CREATE))
                .bind(id)
                .bind(i64::from(black_depth))
                .bind(i64::from(white_depth))
                .bind(now)
                .bind(lang)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Copies lab game `from` (its depths, placements and explanations) into
    /// a new game `to` at version 1, in one transaction; its pending
    /// explanations are leased to this instance until `claim_until`.
    /// [`StoreError::Gone`] when `from` no longer exists.
    pub async fn copy_lab_game(
        &self,
        from: &str,
        to: &str,
        now: i64,
        claim_until: i64,
    ) -> Result<(), StoreError> {
        const GAME: &str = "INSERT INTO lab_games (id, black_depth, white_depth, created_at, updated_at, lang, version)
             SELECT $1, black_depth, white_depth, $2, $2, lang, 1 FROM lab_games WHERE id = $3";
        const MOVES: &str = "INSERT INTO lab_moves (game_id, ply, side, square, facts, at, explain_state, explanation,
                 lesson, provider, explain_error, explained_at, claimed_until)
             SELECT $1, ply, side, square, facts, at, explain_state, explanation, lesson, provider,
                 explain_error, explained_at, $3
             FROM lab_moves WHERE game_id = $2";
        on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            let copied = sqlx::query(&pool.sql(GAME))
                .bind(to)
                .bind(now)
                .bind(from)
                .execute(&mut *tx)
                .await?;
            if copied.rows_affected() == 0 {
                return Err(StoreError::Gone);
            }
            sqlx::query(&pool.sql(MOVES))
                .bind(to)
                .bind(from)
                .bind(claim_until)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Deletes lab games idle since before `cutoff` (unix ms), with their
    /// moves (the foreign key cascades) and stored analyses, in one
    /// transaction; returns their ids.
    pub async fn delete_idle_lab_games(&self, cutoff: i64) -> Result<Vec<String>, StoreError> {
        const IDLE: &str = "DELETE FROM lab_games WHERE updated_at < $1 RETURNING id";
        Ok(on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            let ids: Vec<String> = sqlx::query_scalar(&pool.sql(IDLE))
                .bind(cutoff)
                .fetch_all(&mut *tx)
                .await?;
            for id in &ids {
                sqlx::query(&pool.sql("DELETE FROM analyses WHERE game = $1"))
                    .bind(format!("lab:{id}"))
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            ids
        }))
    }
}

/// An explanation state as stored (the strings the schema's CHECK lists).
fn state_of(name: &str) -> Result<ExplainState, StoreError> {
    match name {
        "pending" => Ok(ExplainState::Pending),
        "ready" => Ok(ExplainState::Ready),
        "failed" => Ok(ExplainState::Failed),
        other => Err(StoreError::Query(sqlx::Error::Decode(
            format!("unknown explanation state {other:?}").into(),
        ))),
    }
}

/// A stored placement's columns, as read.
type MoveColumns = (
    i64,
    String,
    i64,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

fn move_of(row: MoveColumns) -> Result<LabMoveRow, StoreError> {
    let (ply, side, square, facts, state, explanation, lesson, provider, explain_error) = row;
    Ok(LabMoveRow {
        ply,
        side,
        square,
        facts,
        explain_state: state_of(&state)?,
        explanation,
        lesson,
        provider,
        explain_error,
    })
}

/// Bumps a lab game's version (checked first when `expected` is given) and
/// marks it changed at `now`; the new version. Written once for both
/// databases: `$tx` is either's transaction.
macro_rules! bump_lab_version {
    ($pool:expr, $tx:expr, $id:expr, $expected:expr, $now:expr) => {{
        const BUMP: &str = "UPDATE lab_games SET version = version + 1, updated_at = $2 \
             WHERE id = $1 AND (CAST($3 AS BIGINT) IS NULL OR version = $3) RETURNING version";
        let bumped: Option<(i64,)> = sqlx::query_as(&$pool.sql(BUMP))
            .bind($id)
            .bind($now)
            .bind($expected)
            .fetch_optional(&mut *$tx)
            .await?;
        match bumped {
            Some((version,)) => version,
            None => {
                let exists: Option<(i64,)> =
                    sqlx::query_as(&$pool.sql("SELECT version FROM lab_games WHERE id = $1"))
                        .bind($id)
                        .fetch_optional(&mut *$tx)
                        .await?;
                return Err(if exists.is_some() {
                    StoreError::Stale
                } else {
                    StoreError::Gone
                });
            }
        }
    }};
}

/// The lab game repository: every read and write of a lab game, the same
/// on both databases and version-checked on both (a write made on a stale
/// copy is refused with [`StoreError::Stale`] and changes nothing; one on
/// a deleted game with [`StoreError::Gone`]).
impl Store {
    /// Records a placement (explanation pending, leased to the writer until
    /// `claim_until`) if the game is still at `expected`; the new version.
    #[allow(clippy::too_many_arguments)]
    pub async fn record_lab_move(
        &self,
        game_id: &str,
        ply: u32,
        side: &str,
        square: u8,
        facts: &str,
        now: i64,
        expected: i64,
        claim_until: i64,
    ) -> Result<i64, StoreError> {
        const MOVE: &str = "INSERT INTO lab_moves (game_id, ply, side, square, facts, at, explain_state, claimed_until)
             VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7)";
        Ok(on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            let version = bump_lab_version!(pool, tx, game_id, Some(expected), now);
            sqlx::query(&pool.sql(MOVE))
                .bind(game_id)
                .bind(i64::from(ply))
                .bind(side)
                .bind(i64::from(square))
                .bind(facts)
                .bind(now)
                .bind(claim_until)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            version
        }))
    }

    /// Stores an explanation's outcome for ply `ply` if it is still in state
    /// `from` (and the game still at `expected`, when given); a pending
    /// outcome is leased until `claim_until`. The game's new version, or
    /// `None` when the explanation was no longer in state `from` (another
    /// writer came first): then nothing changed.
    #[allow(clippy::too_many_arguments)]
    pub async fn record_lab_explanation(
        &self,
        game_id: &str,
        ply: u32,
        from: ExplainState,
        outcome: Outcome<'_>,
        now: i64,
        expected: Option<i64>,
        claim_until: i64,
    ) -> Result<Option<i64>, StoreError> {
        const OUTCOME: &str =
            "UPDATE lab_moves SET explain_state = $3, explanation = $4, lesson = $5, provider = $6,
                 explain_error = $7, explained_at = $8, claimed_until = $9
             WHERE game_id = $1 AND ply = $2 AND explain_state = $10";
        let StoredOutcome {
            state,
            explanation,
            lesson,
            provider,
            error,
        } = outcome.stored();
        Ok(on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            let done = sqlx::query(&pool.sql(OUTCOME))
                .bind(game_id)
                .bind(i64::from(ply))
                .bind(state.as_str())
                .bind(explanation)
                .bind(lesson)
                .bind(provider)
                .bind(error)
                .bind(now)
                .bind(claim_until)
                .bind(from.as_str())
                .execute(&mut *tx)
                .await?;
            if done.rows_affected() == 0 {
                return Ok(None);
            }
            let version = bump_lab_version!(pool, tx, game_id, expected, now);
            tx.commit().await?;
            Some(version)
        }))
    }

    /// A lab game, its version and its placements in order, read from one
    /// snapshot: an explanation committed between two separate reads would
    /// otherwise give a copy whose moves are newer than its version (and a
    /// cache that never catches up with the version it already shows).
    pub async fn lab_game(
        &self,
        id: &str,
    ) -> Result<Option<(LabGameRow, i64, Vec<LabMoveRow>)>, StoreError> {
        const GAME: &str =
            "SELECT id, black_depth, white_depth, created_at, updated_at, lang, version
             FROM lab_games WHERE id = $1";
        const MOVES: &str = "SELECT ply, side, square, facts, explain_state, explanation, lesson, provider, explain_error
             FROM lab_moves WHERE game_id = $1 ORDER BY ply";
        type GameColumns = (String, i64, i64, i64, i64, String, i64);
        let read: Option<(GameColumns, Vec<MoveColumns>)> = on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            if pool.is_postgres() {
                // SQLite's transaction is one snapshot already.
                sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    .execute(&mut *tx)
                    .await?;
            }
            let game: Option<GameColumns> = sqlx::query_as(&pool.sql(GAME))
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
            let read = match game {
                Some(game) => Some((
                    game,
                    sqlx::query_as(&pool.sql(MOVES))
                        .bind(id)
                        .fetch_all(&mut *tx)
                        .await?,
                )),
                None => None,
            };
            tx.commit().await?;
            read
        });
        let Some(((id, black_depth, white_depth, created_at, updated_at, lang, version), moves)) =
            read
        else {
            return Ok(None);
        };
        let row = LabGameRow {
            id,
            black_depth,
            white_depth,
            created_at,
            updated_at,
            lang,
        };
        let moves = moves.into_iter().map(move_of).collect::<Result<_, _>>()?;
        Ok(Some((row, version, moves)))
    }

    /// A lab game's version (`None`: it does not exist).
    pub async fn lab_version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        Ok(on_db!(self.db(), |pool| {
            let row: Option<(i64,)> =
                sqlx::query_as(&pool.sql("SELECT version FROM lab_games WHERE id = $1"))
                    .bind(id)
                    .fetch_optional(pool)
                    .await?;
            row.map(|(v,)| v)
        }))
    }

    /// Takes up to `limit` pending explanations whose lease ran out before
    /// `now` (their writer stopped), leasing them to this writer until
    /// `claim_until`; (game, ply) of each. On PostgreSQL rows another
    /// instance is taking at the same moment are skipped; SQLite's one
    /// writer takes them in turn.
    pub async fn take_orphaned_explanations(
        &self,
        now: i64,
        claim_until: i64,
        limit: i64,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        const ORPHANS: &str = "SELECT game_id, ply FROM lab_moves
             WHERE explain_state = 'pending' AND claimed_until < $1
             ORDER BY claimed_until LIMIT $2";
        const CLAIM: &str =
            "UPDATE lab_moves SET claimed_until = $3 WHERE game_id = $1 AND ply = $2";
        Ok(on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            let select = if pool.is_postgres() {
                format!("{ORPHANS} FOR UPDATE SKIP LOCKED")
            } else {
                pool.sql(ORPHANS).into_owned()
            };
            let rows: Vec<(String, i64)> = sqlx::query_as(&select)
                .bind(now)
                .bind(limit)
                .fetch_all(&mut *tx)
                .await?;
            for (game, ply) in &rows {
                sqlx::query(&pool.sql(CLAIM))
                    .bind(game)
                    .bind(ply)
                    .bind(claim_until)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            rows
        }))
    }
}
