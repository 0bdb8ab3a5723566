//! Explainers: turn a [`FactSheet`] into a short strategic explanation and one
//! reusable lesson. Three providers behind one trait: the built-in offline
//! writer, the Responses API (key on the server only) and the local Codex CLI
//! (the operator's existing login).

pub mod auto;
pub mod codex;
pub mod offline;
pub mod responses;

use super::facts::FactSheet;
use app::lab::ProviderStatus;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

/// The model that writes the lab's explanations (docs/PRODUCT.md, The AI lab).
pub const MODEL: &str = "gpt-6-luna";
/// Reasoning effort asked of the model.
pub const REASONING_EFFORT: &str = "max";
/// Service tier asked of the model (Fast).
pub const SERVICE_TIER: &str = "fast";

/// A boxed future for the object-safe trait.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A written explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    pub explanation: String,
    pub lesson: String,
    /// Who wrote it, for the page (e.g. `GPT-6 Luna · Responses API`).
    pub provider: String,
}

/// Why an explanation could not be written. The message is safe to show: it
/// has been through [`Secrets::scrub`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ExplainError(pub String);

/// One provider.
pub trait Explainer: Send + Sync + 'static {
    /// Writes the explanation of one placement.
    fn explain<'a>(
        &'a self,
        facts: &'a FactSheet,
    ) -> BoxFuture<'a, Result<Explanation, ExplainError>>;
    /// What the page says about this provider.
    fn status(&self) -> ProviderStatus;
}

/// Values that must never leave the server, and the scrubbing of text that
/// might contain them (provider error bodies, process output).
#[derive(Clone, Default)]
pub struct Secrets(Vec<String>);

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secrets({} redacted)", self.0.len())
    }
}

impl Secrets {
    pub fn new(values: impl IntoIterator<Item = String>) -> Self {
        Secrets(values.into_iter().filter(|v| v.len() >= 4).collect())
    }

    /// Removes known secrets and anything shaped like an API key or a bearer
    /// token, and bounds the length.
    pub fn scrub(&self, text: &str) -> String {
        let mut out = text.to_string();
        for secret in &self.0 {
            out = out.replace(secret.as_str(), "[redacted]");
        }
        let out = redact_key_like(&out);
        let trimmed: String = out.chars().take(400).collect();
        if trimmed.len() < out.len() {
            format!("{trimmed}…")
        } else {
            trimmed
        }
    }
}

/// Replaces tokens that look like keys (`sk-…`, `Bearer …`) with `[redacted]`.
fn redact_key_like(text: &str) -> String {
    let is_token = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '*';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let next_sk = rest.find("sk-");
        let next_bearer = rest.find("Bearer ");
        let (at, skip) = match (next_sk, next_bearer) {
            (None, None) => break,
            (Some(a), None) => (a, 3),
            (None, Some(b)) => (b, 7),
            (Some(a), Some(b)) => {
                if a <= b {
                    (a, 3)
                } else {
                    (b, 7)
                }
            }
        };
        out.push_str(&rest[..at]);
        let after = &rest[at + skip..];
        let end = after.find(|c: char| !is_token(c)).unwrap_or(after.len());
        out.push_str("[redacted]");
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The instructions given to the model.
pub const INSTRUCTIONS: &str = "You are an Othello coach writing for a learner who is watching two engines play. \
You receive a fact sheet about one placement, taken from the real game: the board before and after \
(X black, O white, . empty; columns A-H, rows 1-8), the move, the side, the captured discs, every \
legal alternative with the play engine's search value for it (`value`, in the engine's own units, from the mover's side; \
higher is better for the mover) and its value in discs (`discs`: the final disc difference the mover can expect after it, \
from the same evaluation the game analysis shows; exact when `discs_exact` is true, else an estimate), \
the opponent's replies now available, the evaluation terms (positional, mobility, frontier, discs) before \
and after from the mover's side, the search depth, nodes and principal variation, and the disc counts; \
also each colour's frontier discs (discs next to an empty square) and stable discs before and after, \
how many moves the opponent had before, and for each alternative the replies it would leave and the \
frontier discs it would make. \
Write an educational assessment of the position: why this move is strong or weak, in terms of corners, \
edges, mobility, frontier and parity, grounded only in the facts given, in the plain words a club player \
uses (how many moves each side has, frontier discs, stable discs), never quoting the evaluation's terms \
or their numbers. Name the real move and the real \
number of captured discs. Present it as an assessment of the position, never as what the algorithm \
thought or felt. Keep the explanation to 2-4 sentences. Then give one short reusable lesson (one sentence) \
that a player can apply in other games. Exact endgame results: only when the sheet's `endgame.status` is \
`exact` may you state perfect-play outcomes (for example \"perfect play: this wins by 6\", using the sheet's \
`final_disc_difference` values); when it is `estimate` or absent, never claim exact or perfect-play results. \
When you say how much better or worse a move is, use the `discs` values (\"about 4 discs\" for estimates) and never \
the engine's `value` units. Answer with JSON: {\"explanation\": string, \"lesson\": string}.";

/// The user input for a fact sheet.
pub fn prompt(facts: &FactSheet) -> String {
    let language = match facts.lang {
        app::i18n::Lang::En => "",
        // The page is in Greek: so are the explanation and the lesson (square
        // names stay a1–h8, so that they can be checked against the sheet).
        app::i18n::Lang::El => " Write both in Greek (natural, informal-friendly Greek; Othello terms: μαύρα, λευκά, πούλι, γωνία, πάσο; keep square names such as d3 in Latin letters).",
    };
    format!(
        "Fact sheet of placement {} ({} played {}):\n{}\n\nWrite the explanation and the lesson.{language}",
        facts.ply,
        facts.side_name(),
        facts.square,
        facts.to_json()
    )
}

/// The JSON schema of the answer (strict structured output).
pub fn answer_schema() -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "properties": {
            "explanation": {"type": "string", "description": "2-4 sentences assessing the move and position"},
            "lesson": {"type": "string", "description": "one reusable lesson, one sentence"}
        },
        "required": ["explanation", "lesson"],
        "additionalProperties": false
    })
}

/// Parses the model's answer text (`{"explanation": …, "lesson": …}`).
pub fn parse_answer(text: &str, provider: &str) -> Result<Explanation, ExplainError> {
    #[derive(serde::Deserialize)]
    struct Answer {
        explanation: String,
        lesson: String,
    }
    let trimmed = text.trim();
    let answer: Answer = serde_json::from_str(trimmed).map_err(|e| {
        ExplainError(format!(
            "the model's answer was not the expected JSON ({e})"
        ))
    })?;
    let explanation = answer.explanation.trim().to_string();
    let lesson = answer.lesson.trim().to_string();
    if explanation.is_empty() || lesson.is_empty() {
        return Err(ExplainError(
            "the model's answer had an empty explanation or lesson".into(),
        ));
    }
    Ok(Explanation {
        explanation,
        lesson,
        provider: provider.to_string(),
    })
}

/// Runs `explainer` with a time limit.
pub async fn explain_with_timeout(
    explainer: &dyn Explainer,
    facts: &FactSheet,
    limit: Duration,
) -> Result<Explanation, ExplainError> {
    match tokio::time::timeout(limit, explainer.explain(facts)).await {
        Ok(result) => result,
        Err(_) => Err(ExplainError(format!(
            "the explanation service did not answer within {} s",
            limit.as_secs()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_is_asked_for_greek_only_for_a_greek_game() {
        let start = engine::Position::initial();
        let report = engine::search(&start, 1);
        let square = report.best_move.expect("a move");
        let mut facts = crate::lab::facts::build(1, &start, square, &report);
        assert!(!prompt(&facts).contains("Greek"));
        assert!(
            !facts.to_json().contains("\"lang\""),
            "English sheets are unchanged"
        );
        facts.lang = app::i18n::Lang::El;
        assert!(prompt(&facts).contains("Write both in Greek"));
        let sheet: serde_json::Value = serde_json::from_str(&facts.to_json()).expect("json");
        assert_eq!(sheet["lang"], "el");
    }

    #[test]
    fn scrub_removes_secrets_and_key_like_tokens() {
        let secrets = Secrets::new(["sk-test-abc123XYZ".to_string()]);
        let text = "Incorrect API key provided: sk-test-abc123XYZ. Also sk-proj-****abcd and Bearer tok_123.";
        let clean = secrets.scrub(text);
        assert!(!clean.contains("abc123XYZ"), "{clean}");
        assert!(!clean.contains("abcd"), "{clean}");
        assert!(!clean.contains("tok_123"), "{clean}");
        assert!(clean.contains("Incorrect API key provided"));
        let secrets = Secrets::new(["verysecretvalue".to_string()]);
        assert_eq!(secrets.scrub("x verysecretvalue y"), "x [redacted] y");
    }

    #[test]
    fn answers_parse_or_fail_clearly() {
        let ok = parse_answer(r#" {"explanation":"E","lesson":"L"} "#, "p").expect("parses");
        assert_eq!((ok.explanation.as_str(), ok.lesson.as_str()), ("E", "L"));
        let bad = parse_answer("not json", "p").unwrap_err();
        assert!(bad.0.contains("not the expected JSON"));
        assert!(parse_answer(r#"{"explanation":"","lesson":"L"}"#, "p").is_err());
    }
}
