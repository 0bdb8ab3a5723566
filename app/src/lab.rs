//! The AI lab (docs/PRODUCT.md, The AI lab): its wire types and server functions. Two engines play
//! each other; after each placement the server's explainer writes a short
//! strategic explanation and one reusable lesson. The bodies call a
//! [`backend::LabBackend`] trait object that the server provides as context,
//! like [`crate::api`] does for tables.

pub mod autoplay;

use crate::api::CommandError;
use crate::protocol::{BoardSnapshot, LabId, Side};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use server_fn::codec::Json;

/// Search depths a lab engine may use.
pub const LAB_DEPTHS: std::ops::RangeInclusive<u8> = 1..=6;

/// The explanation of one placement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ExplanationView {
    /// Being written.
    Pending,
    /// Written by `provider`.
    Ready {
        explanation: String,
        lesson: String,
        provider: String,
        /// Squares the text names that the fact sheet does not vouch for
        /// (not a legal move, a capture or an occupied square); the page marks
        /// the text "unverified" (the text is kept as written).
        #[serde(default)]
        unverified: Vec<String>,
    },
    /// The explanation service failed; `message` says what failed (never a
    /// credential). The observer may retry.
    Failed { message: String },
}

impl ExplanationView {
    pub fn is_pending(&self) -> bool {
        matches!(self, ExplanationView::Pending)
    }
    pub fn is_failed(&self) -> bool {
        matches!(self, ExplanationView::Failed { .. })
    }
}

/// One placement of a lab game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabMoveView {
    /// 1 for the first placement.
    pub ply: u32,
    pub side: Side,
    /// Square name (`d3`).
    pub square: String,
    /// Square index 0..64.
    pub index: u8,
    /// Discs captured (flipped) by the move.
    pub flipped: Vec<u8>,
    /// The mover's search depth.
    pub depth: u8,
    /// The search's value of the move, from the mover's side.
    pub value: i32,
    /// The same value from black's side (for the evaluation graph).
    pub value_black: i32,
    /// Exact endgame values, when the position was in the solver's range.
    #[serde(default)]
    pub exact: Option<LabExact>,
    /// The move in discs, as the game analysis values it (`None` on games
    /// from before the fact sheets carried discs).
    #[serde(default)]
    pub discs: Option<LabDiscs>,
    /// Positions the search visited.
    pub nodes: u64,
    /// Legal moves the mover had.
    pub alternatives: u32,
    /// Set when the next side had no legal move and passed.
    pub pass_after: Option<Side>,
    /// Discs after the move (black, white).
    pub black_count: u8,
    pub white_count: u8,
    /// The board after this move.
    pub board: BoardSnapshot,
    pub explanation: ExplanationView,
}

/// One lab placement in discs (final disc difference, mover's side): the
/// exact solver's values when solved, else the trained evaluation's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabDiscs {
    /// The played move.
    pub played: i32,
    /// The best legal move.
    pub best: i32,
    /// Solved to the end (else an estimate).
    pub exact: bool,
}

impl LabMoveView {
    /// The played move in discs from black's side (the evaluation graph).
    pub fn discs_black(&self) -> Option<i32> {
        self.discs.map(|d| match self.side {
            Side::Black => d.played,
            Side::White => -d.played,
        })
    }
}

/// The exact endgame solver's verdict on one lab placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabExact {
    /// `false`: the node budget ran out and the values are estimates.
    pub exact: bool,
    /// Final disc difference of the played move with perfect play (mover's side).
    pub played: Option<i32>,
    /// The best final disc difference the mover could reach.
    pub best: Option<i32>,
}

/// The state of a lab game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum LabStatus {
    Playing {
        to_move: Side,
    },
    /// Over; `winner` is `None` for a draw.
    Over {
        winner: Option<Side>,
    },
}

/// The name the built-in explainer writes as its explanations' provider;
/// the page shows it in the reader's language (`srv-explain-provider`).
pub const OFFLINE_PROVIDER: &str = "Offline explainer (built-in)";

/// Which explainer the server uses and whether it can work.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProviderStatus {
    /// `offline`, `responses` or `codex`.
    pub kind: String,
    /// A readable name, e.g. `GPT-6 Luna via the Responses API`.
    pub name: String,
    /// Whether explanations can be written now (key present, logged in…).
    pub ready: bool,
    /// The operator's details (which CLI, which key is set; never a
    /// credential), for `/healthz` and the server log. Empty in what the
    /// pages get: visitors are told who writes the explanations, in their
    /// language, not how the server is set up.
    pub detail: String,
}

/// Everything the lab page shows about a lab game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabView {
    pub id: LabId,
    pub black_depth: u8,
    pub white_depth: u8,
    /// The current board.
    pub board: BoardSnapshot,
    pub status: LabStatus,
    pub black_count: u8,
    pub white_count: u8,
    pub moves: Vec<LabMoveView>,
    pub provider: ProviderStatus,
    /// Grows with every change (a placement or an explanation).
    pub version: u64,
    /// Whether the caller started this lab game and may step it (others
    /// watch, and may copy it into a game of their own).
    #[serde(default)]
    pub yours: bool,
}

impl LabView {
    /// The latest placement.
    pub fn last_move(&self) -> Option<&LabMoveView> {
        self.moves.last()
    }

    /// Whether the latest explanation is still being written.
    pub fn explaining(&self) -> bool {
        self.last_move().is_some_and(|m| m.explanation.is_pending())
    }

    /// Whether the latest explanation failed (autoplay freezes).
    pub fn explanation_failed(&self) -> bool {
        self.last_move().is_some_and(|m| m.explanation.is_failed())
    }

    pub fn is_over(&self) -> bool {
        matches!(self.status, LabStatus::Over { .. })
    }

    /// Whether a Next turn may be asked for now.
    pub fn can_step(&self) -> bool {
        !self.is_over() && !self.explaining() && !self.explanation_failed()
    }
}

/// A line of the lab home's list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabSummary {
    pub id: LabId,
    pub black_depth: u8,
    pub white_depth: u8,
    pub plies: u32,
    pub black_count: u8,
    pub white_count: u8,
    pub over: bool,
    /// Unix milliseconds of the last change.
    pub updated_at: i64,
    /// Whether the caller started this lab game (others' games are listed
    /// apart, read-only).
    #[serde(default)]
    pub mine: bool,
}

/// Server-side glue: the trait the server's lab hub implements.
#[cfg(feature = "ssr")]
pub mod backend {
    use super::{LabId, LabSummary, LabView, ProviderStatus};
    pub use crate::api::backend::Caller;
    use crate::api::CommandError;
    pub use crate::protocol::Session;
    use std::sync::Arc;

    /// What the lab's server functions need from the server.
    #[async_trait::async_trait]
    pub trait LabBackend: Send + Sync + 'static {
        /// Creates a lab game owned by the caller, whose explanations are
        /// written in `lang` (counted against their session and address).
        async fn create(
            &self,
            caller: &Caller,
            black_depth: u8,
            white_depth: u8,
            lang: crate::i18n::Lang,
        ) -> Result<LabId, CommandError>;
        /// The lab list as `session` sees it: their own games (`mine`) and
        /// the most recently changed others'.
        async fn list(&self, session: Option<&Session>) -> Result<Vec<LabSummary>, CommandError>;
        async fn view(&self, lab: &LabId) -> Result<LabView, CommandError>;
        /// Searches for the side to move, places its disc, stores it and starts
        /// the explanation; answers once the disc is stored. Only the game's
        /// owner may.
        async fn next_turn(&self, caller: &Caller, lab: &LabId) -> Result<LabView, CommandError>;
        /// Asks again for the latest move's failed explanation (no new disc).
        /// Only the game's owner may.
        async fn retry(&self, caller: &Caller, lab: &LabId) -> Result<LabView, CommandError>;
        /// Waits (bounded) until the lab game's version exceeds `since`.
        async fn wait(&self, lab: &LabId, since: u64) -> Result<LabView, CommandError>;
        fn provider(&self) -> ProviderStatus;
        /// Whether `session` started the lab game.
        async fn is_owner(&self, lab: &LabId, session: &Session) -> Result<bool, CommandError>;
        /// The lab games `session` started.
        async fn owned_by(&self, session: &Session) -> Result<Vec<LabId>, CommandError>;
        /// A new lab game with `lab`'s engine settings and moves (and their
        /// explanations), owned by the caller; returns its id.
        async fn copy(&self, caller: &Caller, lab: &LabId) -> Result<LabId, CommandError>;
    }

    /// The lab backend, provided to server functions as context.
    #[derive(Clone)]
    pub struct LabBackendHandle(pub Arc<dyn LabBackend>);

    /// The lab backend, or a clear error.
    pub fn context() -> Result<Arc<dyn LabBackend>, CommandError> {
        leptos::prelude::use_context::<LabBackendHandle>()
            .map(|h| h.0)
            .ok_or_else(|| CommandError::unavailable(crate::msg!("srv-not-ready")))
    }

    /// The caller's session, if the request carries one.
    pub fn session() -> Option<Session> {
        leptos::prelude::use_context::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Session>().cloned())
    }

    /// Marks `view` as the caller's own when they started it.
    pub async fn mark_yours(
        lab: &dyn LabBackend,
        mut view: super::LabView,
    ) -> Result<super::LabView, CommandError> {
        if let Some(session) = session() {
            view.yours = lab.is_owner(&view.id, &session).await?;
        }
        Ok(view)
    }
}

/// Starts a lab game, explained in the page's language; returns its id.
#[server(endpoint = "lab_create", input = Json)]
pub async fn lab_create(black_depth: u8, white_depth: u8) -> Result<LabId, CommandError> {
    let lab = backend::context()?;
    let caller = crate::api::backend::caller()?;
    let lang = crate::i18n::request_lang();
    lab.create(&caller, black_depth, white_depth, lang).await
}

/// Every lab game, newest first.
#[server(endpoint = "lab_list", input = Json)]
pub async fn lab_list() -> Result<Vec<LabSummary>, CommandError> {
    let lab = backend::context()?;
    let session = backend::session();
    lab.list(session.as_ref()).await
}

/// The explainer in use (for the lab home).
#[server(endpoint = "lab_provider", input = Json)]
pub async fn lab_provider() -> Result<ProviderStatus, CommandError> {
    let lab = backend::context()?;
    Ok(lab.provider())
}

/// A lab game.
#[server(endpoint = "lab_get", input = Json)]
pub async fn lab_get(lab: LabId) -> Result<LabView, CommandError> {
    let backend = backend::context()?;
    let view = backend.view(&lab).await?;
    backend::mark_yours(backend.as_ref(), view).await
}

/// Plays the next turn: the side to move searches at its depth and places a
/// disc; the explanation follows (see [`lab_wait`]).
#[server(endpoint = "lab_next_turn", input = Json)]
pub async fn lab_next_turn(lab: LabId) -> Result<LabView, CommandError> {
    let backend = backend::context()?;
    let caller = crate::api::backend::caller()?;
    let view = backend.next_turn(&caller, &lab).await?;
    backend::mark_yours(backend.as_ref(), view).await
}

/// Asks again for the latest move's explanation, without placing a disc.
#[server(endpoint = "lab_retry_explanation", input = Json)]
pub async fn lab_retry_explanation(lab: LabId) -> Result<LabView, CommandError> {
    let backend = backend::context()?;
    let caller = crate::api::backend::caller()?;
    let view = backend.retry(&caller, &lab).await?;
    backend::mark_yours(backend.as_ref(), view).await
}

/// Waits up to ~20 s for a change after `since`, then answers the lab game.
#[server(endpoint = "lab_wait", input = Json)]
pub async fn lab_wait(lab: LabId, since: u64) -> Result<LabView, CommandError> {
    let backend = backend::context()?;
    let view = backend.wait(&lab, since).await?;
    backend::mark_yours(backend.as_ref(), view).await
}

/// Copies a lab game (its engine settings, moves and explanations) into a new
/// lab game that the caller owns and may step; returns the new id. For a
/// visitor watching someone else's game.
#[server(endpoint = "lab_copy", input = Json)]
pub async fn lab_copy(lab: LabId) -> Result<LabId, CommandError> {
    let backend = backend::context()?;
    let caller = crate::api::backend::caller()?;
    backend.copy(&caller, &lab).await
}
