//! The lab's stored rows and explanation states (tables from
//! `migrations/0003_lab.sql` and `0017_versions.sql`); the queries, the same
//! on both databases, are the lab game repository in `store/lab.rs`.

crate::store::rows::row_struct! {
    /// A stored lab game header.
    #[derive(Clone, Debug)]
    pub struct LabGameRow {
        pub id: String,
        pub black_depth: i64,
        pub white_depth: i64,
        pub created_at: i64,
        pub updated_at: i64,
        /// `en` or `el` (migration 0012).
        pub lang: String,
    }
}

/// Where a placement's explanation stands. Stored as the lowercase name, the
/// strings `lab_moves.explain_state`'s CHECK allows (migration 0003).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExplainState {
    /// Not written yet (or interrupted by a restart: written again).
    Pending,
    Ready,
    Failed,
}

impl ExplainState {
    /// Every state, in the order of the schema's CHECK list.
    pub const ALL: [ExplainState; 3] = [
        ExplainState::Pending,
        ExplainState::Ready,
        ExplainState::Failed,
    ];

    /// The stored name, also used in the JSON export.
    pub fn as_str(self) -> &'static str {
        match self {
            ExplainState::Pending => "pending",
            ExplainState::Ready => "ready",
            ExplainState::Failed => "failed",
        }
    }
}

/// A stored state read back (the rows decode through it).
impl TryFrom<String> for ExplainState {
    type Error = String;

    fn try_from(name: String) -> Result<Self, String> {
        ExplainState::ALL
            .into_iter()
            .find(|s| s.as_str() == name)
            .ok_or_else(|| format!("no such explanation state: {name}"))
    }
}

crate::store::rows::row_struct! {
    /// A stored placement and its explanation.
    #[derive(Clone, Debug)]
    pub struct LabMoveRow {
        pub ply: i64,
        pub side: String,
        pub square: i64,
        pub facts: String,
        pub explain_state: ExplainState as String,
        pub explanation: Option<String>,
        pub lesson: Option<String>,
        pub provider: Option<String>,
        pub explain_error: Option<String>,
    }
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

/// An explanation's outcome as stored: the columns of `lab_moves` it sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredOutcome<'a> {
    pub state: ExplainState,
    pub explanation: Option<&'a str>,
    pub lesson: Option<&'a str>,
    pub provider: Option<&'a str>,
    pub error: Option<&'a str>,
}

impl<'a> Outcome<'a> {
    /// The stored columns.
    pub fn stored(&self) -> StoredOutcome<'a> {
        let none = StoredOutcome {
            state: ExplainState::Pending,
            explanation: None,
            lesson: None,
            provider: None,
            error: None,
        };
        match *self {
            Outcome::Pending => none,
            Outcome::Ready {
                explanation,
                lesson,
                provider,
            } => StoredOutcome {
                state: ExplainState::Ready,
                explanation: Some(explanation),
                lesson: Some(lesson),
                provider: Some(provider),
                ..none
            },
            Outcome::Failed(message) => StoredOutcome {
                state: ExplainState::Failed,
                error: Some(message),
                ..none
            },
        }
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
            let version = store
                .record_lab_move("g", ply, "black", 19, "{}", 2, i64::from(ply) * 2 - 1, 9)
                .await
                .expect("move");
            let explained = store
                .record_lab_explanation(
                    "g",
                    ply,
                    ExplainState::Pending,
                    outcome,
                    3,
                    Some(version),
                    9,
                )
                .await
                .expect("explanation");
            assert_eq!(explained, Some(version + 1), "each write bumps the version");
            let (stored,): (String,) = sqlx::query_as(
                "SELECT explain_state FROM lab_moves WHERE game_id = 'g' AND ply = ?",
            )
            .bind(i64::from(ply))
            .fetch_one(store.sqlite().expect("SQLite").pool())
            .await
            .expect("raw state");
            assert_eq!(stored, text);
            let (_, _, read) = store.lab_game("g").await.expect("read").expect("game");
            assert_eq!(read[ply as usize - 1].explain_state.as_str(), text);
        }
    }
}
