//! The AI's turns at vs-AI tables: a search is queued on the shared
//! [`AiPool`] when the AI is to move, and its reply is played through the
//! same command path as a player's move (a stale reply is dropped).

use super::entry::Entry;
use super::Hub;
use crate::ai::{AiPool, Job, Reply};
use crate::store::TableStore;
use crate::table::Command;
use app::protocol::TableMode;

impl<S: TableStore> Hub<S> {
    /// Broadcasts the new state and starts the AI's search when it is to move.
    pub(super) fn after_change(&self, entry: &mut Entry) {
        if entry.table.ai_to_move() && !entry.ai_thinking {
            if let TableMode::VsAi { depth, .. } = entry.table.mode() {
                let key = if entry.ai_key.is_empty() {
                    entry.owner.clone()
                } else {
                    entry.ai_key.clone()
                };
                let job = Job {
                    table_id: entry.id.clone(),
                    owner: entry.owner.clone(),
                    key,
                    version: entry.table.version(),
                    position: *entry.table.game().position(),
                    depth: u32::from(depth),
                };
                entry.ai_thinking = self.submit_ai(job);
            }
        }
        self.broadcast(entry);
    }

    /// Queues the AI's search; a full queue is refused at once (no retry
    /// loop): the AI moves when the table is next opened.
    pub(super) fn submit_ai(&self, job: Job) -> bool {
        let table = job.table_id.clone();
        let delay = self.inner.config.test_ai_delay_ms;
        if delay > 0 {
            // FOR TESTS ONLY: the search starts late (a move pending when an
            // instance dies).
            let pool = self.inner.ai.clone();
            tokio::spawn(async move {
                tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
                if let Err(full) = pool.submit(job) {
                    tracing::warn!(%table, "AI search refused: {}", full.msg.english());
                }
            });
            return true;
        }
        match self.inner.ai.submit(job) {
            Ok(()) => true,
            Err(full) => {
                tracing::warn!(%table, "AI search refused: {}", full.msg.english());
                false
            }
        }
    }

    /// The AI worker pool (the lab's searches and game analysis run on it too).
    pub fn ai_pool(&self) -> AiPool {
        self.inner.ai.clone()
    }

    pub(super) async fn ai_replies(self, mut replies: tokio::sync::mpsc::UnboundedReceiver<Reply>) {
        while let Some(reply) = replies.recv().await {
            let Ok(entry) = self.entry(&reply.job.table_id).await else {
                continue;
            };
            let mut entry = entry.lock().await;
            entry.ai_thinking = false;
            if self.sync(&mut entry).await.is_err() {
                continue;
            }
            let version = entry.table.version();
            let stale = version != reply.job.version || !entry.table.ai_to_move();
            let (Some(square), Some(side), false) =
                (reply.report.best_move, entry.table.ai_side(), stale)
            else {
                self.after_change(&mut entry);
                continue;
            };
            entry.ai_search = Some(app::protocol::AiSearch {
                depth: reply.report.depth as u8,
                nodes: reply.report.nodes,
                value: reply.report.value,
                book: reply.book,
            });
            if let Err(error) = self
                .commit(&mut entry, Command::Place { side, square })
                .await
            {
                tracing::error!(table = %entry.id, "the AI's move was refused: {}", error.message);
                self.after_change(&mut entry);
            }
        }
    }
}
