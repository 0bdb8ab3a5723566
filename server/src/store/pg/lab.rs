//! The AI lab, lab owners and stored analyses on PostgreSQL
//! (`migrations/postgres/0002_lab.sql`), shared by every instance.
//!
//! Every write to a lab game bumps its `version` in the same transaction;
//! the writes that act on what an instance saw (a placement, a retry) only
//! succeed at the version it saw ([`StoreError::Stale`] otherwise), so two
//! instances never both step one game. A pending explanation carries a lease
//! (`claimed_until`): the instance writing it holds it, and any instance
//! takes it over once it has run out (its writer died).

use super::PgStore;
use crate::lab::store::{ExplainState, LabGameRow, LabMoveRow, StoredOutcome};
use crate::store::StoreError;
use sqlx::Row;

fn state_of(name: &str) -> Result<ExplainState, sqlx::Error> {
    match name {
        "pending" => Ok(ExplainState::Pending),
        "ready" => Ok(ExplainState::Ready),
        "failed" => Ok(ExplainState::Failed),
        other => Err(sqlx::Error::Decode(
            format!("unknown explanation state {other:?}").into(),
        )),
    }
}

fn game_of(row: &sqlx::postgres::PgRow) -> Result<(LabGameRow, i64), sqlx::Error> {
    Ok((
        LabGameRow {
            id: row.try_get::<String, _>("id")?,
            black_depth: row.try_get::<i64, _>("black_depth")?,
            white_depth: row.try_get::<i64, _>("white_depth")?,
            created_at: row.try_get::<i64, _>("created_at")?,
            updated_at: row.try_get::<i64, _>("updated_at")?,
            lang: row.try_get::<String, _>("lang")?,
        },
        row.try_get::<i64, _>("version")?,
    ))
}

/// Bumps a lab game's version (checking it first when `expected` is given);
/// returns the new version.
async fn bump(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    id: &str,
    expected: Option<i64>,
    now: i64,
) -> Result<i64, StoreError> {
    let row: Option<(i64,)> = sqlx::query_as(
        "UPDATE lab_games SET version = version + 1, updated_at = $2
         WHERE id = $1 AND ($3::BIGINT IS NULL OR version = $3) RETURNING version",
    )
    .bind(id)
    .bind(now)
    .bind(expected)
    .fetch_optional(&mut **tx)
    .await?;
    match row {
        Some((version,)) => Ok(version),
        None => {
            let exists: Option<(i64,)> =
                sqlx::query_as("SELECT 1::BIGINT FROM lab_games WHERE id = $1")
                    .bind(id)
                    .fetch_optional(&mut **tx)
                    .await?;
            Err(if exists.is_some() {
                StoreError::Stale
            } else {
                StoreError::Gone
            })
        }
    }
}

impl PgStore {
    /// Records a placement (explanation pending, leased to this instance
    /// until `claim_until`) if the game is still at `expected`; returns the
    /// new version.
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
        let mut tx = self.pool().begin().await?;
        let version = bump(&mut tx, game_id, Some(expected), now).await?;
        sqlx::query(
            "INSERT INTO lab_moves (game_id, ply, side, square, facts, at, explain_state, claimed_until)
             VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7)",
        )
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
        Ok(version)
    }

    /// Stores an explanation's outcome for ply `ply` if it is still in state
    /// `from` (and the game still at `expected`, when given); a pending
    /// outcome is leased until `claim_until`. Returns the game's new
    /// version, or `None` when the explanation was no longer in state `from`
    /// (another instance wrote it): then nothing changed.
    #[allow(clippy::too_many_arguments)]
    pub async fn record_lab_explanation(
        &self,
        game_id: &str,
        ply: u32,
        from: ExplainState,
        outcome: StoredOutcome<'_>,
        now: i64,
        expected: Option<i64>,
        claim_until: i64,
    ) -> Result<Option<i64>, StoreError> {
        let (state, explanation, lesson, provider, error) = outcome;
        let mut tx = self.pool().begin().await?;
        let done = sqlx::query(
            "UPDATE lab_moves SET explain_state = $3, explanation = $4, lesson = $5, provider = $6,
                 explain_error = $7, explained_at = $8, claimed_until = $9
             WHERE game_id = $1 AND ply = $2 AND explain_state = $10",
        )
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
        let version = bump(&mut tx, game_id, expected, now).await?;
        tx.commit().await?;
        Ok(Some(version))
    }

    /// A lab game, its version and its placements in order, read from one
    /// snapshot: an explanation committed between two separate reads would
    /// otherwise give a copy whose moves are newer than its version (and a
    /// cache that never catches up with the version it already shows).
    pub async fn lab_game(
        &self,
        id: &str,
    ) -> Result<Option<(LabGameRow, i64, Vec<LabMoveRow>)>, StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .execute(&mut *tx)
            .await?;
        let row = sqlx::query(
            "SELECT id, black_depth, white_depth, created_at, updated_at, lang, version
             FROM lab_games WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let (game, version) = game_of(&row)?;
        let moves = moves_of(&mut tx, id).await?;
        tx.commit().await?;
        Ok(Some((game, version, moves)))
    }

    /// A lab game's version (`None`: it does not exist).
    pub async fn lab_version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        let row: Option<(i64,)> = sqlx::query_as("SELECT version FROM lab_games WHERE id = $1")
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.map(|(v,)| v))
    }

    /// Every lab game's id and version.
    pub async fn lab_versions(&self) -> Result<Vec<(String, i64)>, StoreError> {
        Ok(
            sqlx::query_as("SELECT id, version FROM lab_games ORDER BY created_at, id")
                .fetch_all(self.pool())
                .await?,
        )
    }

    /// Takes up to `limit` pending explanations whose lease ran out (their
    /// writer died), leasing them to this instance until `claim_until`;
    /// returns (game, ply) of each. Rows another instance is taking at the
    /// same moment are skipped.
    pub async fn take_orphaned_explanations(
        &self,
        now: i64,
        claim_until: i64,
        limit: i64,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let mut tx = self.pool().begin().await?;
        let rows: Vec<(String, i64)> = sqlx::query_as(
            "SELECT game_id, ply FROM lab_moves
             WHERE explain_state = 'pending' AND claimed_until < $1
             ORDER BY claimed_until LIMIT $2 FOR UPDATE SKIP LOCKED",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;
        for (game, ply) in &rows {
            sqlx::query("UPDATE lab_moves SET claimed_until = $3 WHERE game_id = $1 AND ply = $2")
                .bind(game)
                .bind(ply)
                .bind(claim_until)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(rows)
    }
}

/// A lab game's placements in order, read inside `tx`.
async fn moves_of(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    game_id: &str,
) -> Result<Vec<LabMoveRow>, StoreError> {
    let rows = sqlx::query(
        "SELECT ply, side, square, facts, explain_state, explanation, lesson, provider, explain_error
         FROM lab_moves WHERE game_id = $1 ORDER BY ply",
    )
    .bind(game_id)
    .fetch_all(&mut **tx)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        out.push(LabMoveRow {
            ply: row.try_get::<i64, _>("ply")?,
            side: row.try_get::<String, _>("side")?,
            square: row.try_get::<i64, _>("square")?,
            facts: row.try_get::<String, _>("facts")?,
            explain_state: state_of(row.try_get::<&str, _>("explain_state")?)?,
            explanation: row.try_get::<Option<String>, _>("explanation")?,
            lesson: row.try_get::<Option<String>, _>("lesson")?,
            provider: row.try_get::<Option<String>, _>("provider")?,
            explain_error: row.try_get::<Option<String>, _>("explain_error")?,
        });
    }
    Ok(out)
}
