//! Start-up: the configured explainer, and every stored lab game rebuilt by
//! replaying its squares (explanations interrupted by a restart are asked
//! again).

use super::explain::{Explainer, Explanation};
use super::facts::FactSheet;
use super::store::{ExplainState, LabGameRow, LabMoveRow};
use super::{explain, Explained, LabGame, LabMove};
use engine::Square;
use std::sync::Arc;

/// Rebuilds one stored lab game by replaying its squares; returns it with
/// the explanations still pending (ply and fact sheet), or why it cannot be
/// rebuilt.
pub(super) fn rebuild(
    row: &LabGameRow,
    stored: &[LabMoveRow],
) -> Result<(LabGame, Vec<(u32, FactSheet)>), String> {
    let (Ok(black_depth), Ok(white_depth)) =
        (u8::try_from(row.black_depth), u8::try_from(row.white_depth))
    else {
        return Err("bad engine depths".into());
    };
    let mut game = LabGame::new(
        app::protocol::LabId::new(row.id.clone()),
        black_depth,
        white_depth,
        row.updated_at,
    );
    game.lang = app::i18n::Lang::parse(&row.lang).unwrap_or_default();
    let mut pending = Vec::new();
    for (i, m) in stored.iter().enumerate() {
        let ply = i as u32 + 1;
        let Some(square) = usize::try_from(m.square).ok().and_then(Square::new) else {
            return Err(format!("bad square at ply {ply}"));
        };
        let color = game.game.position().side_to_move;
        if m.ply != i64::from(ply) || m.side != color.name() {
            return Err(format!("ply {ply} is out of order"));
        }
        let facts: FactSheet = serde_json::from_str(&m.facts)
            .map_err(|e| format!("unreadable fact sheet at ply {ply}: {e}"))?;
        let turn = game
            .game
            .play(square)
            .map_err(|e| format!("ply {ply} ({square}) no longer applies: {e}"))?;
        let explained = match m.explain_state {
            ExplainState::Ready => Explained::Ready(Explanation {
                explanation: m.explanation.clone().unwrap_or_default(),
                lesson: m.lesson.clone().unwrap_or_default(),
                provider: m.provider.clone().unwrap_or_default(),
            }),
            ExplainState::Failed => Explained::Failed(m.explain_error.clone().unwrap_or_default()),
            ExplainState::Pending => {
                pending.push((ply, facts.clone()));
                Explained::Pending
            }
        };
        game.moves.push(LabMove {
            color,
            square,
            flipped: turn.flipped,
            pass_after: turn.auto_pass,
            after: turn.position,
            facts,
            explained,
        });
    }
    game.version = game.moves.len() as u64 * 2 + 1;
    game.changes.send_replace(game.version);
    Ok((game, pending))
}

/// Builds the configured explainer (`--explainer`; `auto` picks one, see
/// [`explain::auto`]).
pub async fn explainer_from_config(config: &crate::config::Config) -> Arc<dyn Explainer> {
    use crate::config::ExplainerKind;
    let key = std::env::var("OPENAI_API_KEY")
        .ok()
        .filter(|k| !k.trim().is_empty());
    let mut secrets: Vec<String> = key.iter().cloned().collect();
    if let Ok(codex_key) = std::env::var("CODEX_API_KEY") {
        secrets.push(codex_key);
    }
    let secrets = explain::Secrets::new(secrets);
    let explainer: Arc<dyn Explainer> = match config.explainer {
        ExplainerKind::Auto => {
            use explain::auto::{choose, Choice, Chosen};
            let login = Chosen::login(&config.codex_bin).await;
            let (choice, reason) = choose(&login, key.is_some());
            let inner: Arc<dyn Explainer> = match choice {
                Choice::Codex => {
                    Arc::new(explain::codex::Codex::start(&config.codex_bin, secrets).await)
                }
                Choice::Responses => Arc::new(explain::responses::Responses::new(
                    &config.responses_base_url,
                    key,
                )),
                Choice::Offline => Arc::new(explain::offline::Offline),
            };
            Arc::new(Chosen::new(inner, reason))
        }
        ExplainerKind::Offline => Arc::new(explain::offline::Offline),
        ExplainerKind::Responses => Arc::new(explain::responses::Responses::new(
            &config.responses_base_url,
            key,
        )),
        ExplainerKind::Codex => {
            Arc::new(explain::codex::Codex::start(&config.codex_bin, secrets).await)
        }
    };
    let status = explainer.status();
    tracing::info!(
        provider = %status.kind,
        ready = status.ready,
        "lab explainer: {} — {}",
        status.name,
        status.detail
    );
    explainer
}
