//! The lab's SQLite queries (tables from `migrations/0003_lab.sql`). Each step
//! is one transaction: a placement (its row and the game's `updated_at`), or an
//! explanation's outcome.

use crate::store::{SqliteStore, StoreError};

/// A stored lab game header.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct LabGameRow {
    pub id: String,
    pub black_depth: i64,
    pub white_depth: i64,
    pub created_at: i64,
    pub updated_at: i64,
    /// `en` or `el` (migration 0012).
    pub lang: String,
}

/// Where a placement's explanation stands. Stored as the lowercase name, the
/// strings `lab_moves.explain_state`'s CHECK allows (migration 0003).
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::Type)]
#[sqlx(rename_all = "lowercase")]
pub enum ExplainState {
    /// Not written yet (or interrupted by a restart: written again).
    Pending,
    Ready,
    Failed,
}

impl ExplainState {
    /// The stored name, also used in the JSON export.
    pub fn as_str(self) -> &'static str {
        match self {
            ExplainState::Pending => "pending",
            ExplainState::Ready => "ready",
            ExplainState::Failed => "failed",
        }
    }
}

/// A stored placement and its explanation.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct LabMoveRow {
    pub ply: i64,
    pub side: String,
    pub square: i64,
    pub facts: String,
    pub explain_state: ExplainState,
    pub explanation: Option<String>,
    pub lesson: Option<String>,
    pub provider: Option<String>,
    pub explain_error: Option<String>,
}

/// An explanation's outcome to store.
pub enum Outcome<'a> {
    Pending,
    Ready {
        explanation: &'a str,
        lesson: &'a str,
        provider: &'a str,
    },
    Failed(&'a str),
}

/// An explanation's outcome as stored: state, explanation, lesson, provider,
/// error (the SQLite and the PostgreSQL stores write the same columns).
pub type StoredOutcome<'a> = (
    ExplainState,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
);

impl<'a> Outcome<'a> {
    /// The stored columns.
    pub fn stored(&self) -> StoredOutcome<'a> {
        match *self {
            Outcome::Pending => (ExplainState::Pending, None, None, None, None),
            Outcome::Ready {
                explanation,
                lesson,
                provider,
            } => (
                ExplainState::Ready,
                Some(explanation),
                Some(lesson),
                Some(provider),
                None,
            ),
            Outcome::Failed(message) => (ExplainState::Failed, None, None, None, Some(message)),
        }
    }
}

/// The lab on SQLite, one instance: its games live in this process and
/// are written unchecked (the shared lab on PostgreSQL is `store::pg::lab`,
/// version-checked).
impl SqliteStore {
    /// Records a placement (explanation pending), atomically with the game's
    /// last change.
    pub async fn record_lab_move(
        &self,
        game_id: &str,
        ply: u32,
        side: &str,
        square: u8,
        facts: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "INSERT INTO lab_moves (game_id, ply, side, square, facts, at, explain_state) VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(game_id)
        .bind(i64::from(ply))
        .bind(side)
        .bind(i64::from(square))
        .bind(facts)
        .bind(now)
        .bind(ExplainState::Pending)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE lab_games SET updated_at = ? WHERE id = ?")
            .bind(now)
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Stores an explanation's outcome (or marks it pending again for a retry).
    pub async fn record_lab_explanation(
        &self,
        game_id: &str,
        ply: u32,
        outcome: Outcome<'_>,
        now: i64,
    ) -> Result<(), StoreError> {
        let (state, explanation, lesson, provider, error) = outcome.stored();
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "UPDATE lab_moves SET explain_state = ?, explanation = ?, lesson = ?, provider = ?, explain_error = ?, explained_at = ?
             WHERE game_id = ? AND ply = ?",
        )
        .bind(state)
        .bind(explanation)
        .bind(lesson)
        .bind(provider)
        .bind(error)
        .bind(now)
        .bind(game_id)
        .bind(i64::from(ply))
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE lab_games SET updated_at = ? WHERE id = ?")
            .bind(now)
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Every lab game, oldest first.
    pub async fn lab_games(&self) -> Result<Vec<LabGameRow>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT id, black_depth, white_depth, created_at, updated_at, lang FROM lab_games ORDER BY created_at, id",
        )
        .fetch_all(self.pool())
        .await?)
    }

    /// A lab game's placements in order.
    pub async fn lab_moves(&self, game_id: &str) -> Result<Vec<LabMoveRow>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT ply, side, square, facts, explain_state, explanation, lesson, provider, explain_error
             FROM lab_moves WHERE game_id = ? ORDER BY ply",
        )
        .bind(game_id)
        .fetch_all(self.pool())
        .await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn explanation_states_are_stored_as_the_strings_the_schema_lists() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = crate::store::Store::open(&dir.path().join("t.db"))
            .await
            .expect("open");
        store
            .create_lab_game("g", 1, 1, app::i18n::Lang::En.code(), 1)
            .await
            .expect("game");
        let store = store.sqlite().expect("SQLite");
        let states = [
            (Outcome::Pending, "pending"),
            (
                Outcome::Ready {
                    explanation: "e",
                    lesson: "l",
                    provider: "p",
                },
                "ready",
            ),
            (Outcome::Failed("down"), "failed"),
        ];
        for (ply, (outcome, text)) in states.into_iter().enumerate() {
            let ply = ply as u32 + 1;
            store
                .record_lab_move("g", ply, "black", 19, "{}", 2)
                .await
                .expect("move");
            store
                .record_lab_explanation("g", ply, outcome, 3)
                .await
                .expect("explanation");
            let (stored,): (String,) = sqlx::query_as(
                "SELECT explain_state FROM lab_moves WHERE game_id = 'g' AND ply = ?",
            )
            .bind(i64::from(ply))
            .fetch_one(store.pool())
            .await
            .expect("raw state");
            assert_eq!(stored, text);
            let read = store.lab_moves("g").await.expect("moves");
            assert_eq!(read[ply as usize - 1].explain_state.as_str(), text);
        }
    }
}
