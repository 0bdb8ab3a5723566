//! The bus between instances: after a commit an instance publishes which
//! table changed and its new version (ids only, never state); every instance
//! hears it and the ones with sockets on that table load what changed and
//! push it. Quick-match pairings travel the same way (the waiting player's
//! instance learns the table).
//!
//! [`Bus`] hides the transport: [`PgBus`] is PostgreSQL's `LISTEN`/`NOTIFY`;
//! Redis pub/sub or NATS would implement the same two methods when
//! notifications near the measured rate (docs/ARCHITECTURE.md, docs/BENCHMARKS.md).

use super::StoreError;
use futures_util::future::BoxFuture;
use sqlx::postgres::PgListener;
use sqlx::PgPool;
use tokio::sync::broadcast;

/// The channel `NOTIFY` uses.
pub const CHANNEL: &str = "othello";

/// What travels between instances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BusMessage {
    /// A table was written; it is now at `version` (below 0: deleted).
    Table { id: String, version: i64 },
    /// The quick-match player waiting with `ticket` was paired at `table`.
    Matched { ticket: i64, table: String },
    /// A lab game was written; it is now at `version` (below 0: deleted).
    Lab { id: String, version: i64 },
}

impl BusMessage {
    /// The text form: `t <id> <version>`, `m <ticket> <table>` or
    /// `l <id> <version>`.
    pub fn encode(&self) -> String {
        match self {
            BusMessage::Table { id, version } => format!("t {id} {version}"),
            BusMessage::Matched { ticket, table } => format!("m {ticket} {table}"),
            BusMessage::Lab { id, version } => format!("l {id} {version}"),
        }
    }

    /// Reads the text form; anything else is `None`.
    pub fn decode(text: &str) -> Option<BusMessage> {
        let mut parts = text.split(' ');
        let message = match (parts.next()?, parts.next()?, parts.next()?) {
            ("t", id, version) => BusMessage::Table {
                id: id.to_string(),
                version: version.parse().ok()?,
            },
            ("m", ticket, table) => BusMessage::Matched {
                ticket: ticket.parse().ok()?,
                table: table.to_string(),
            },
            ("l", id, version) => BusMessage::Lab {
                id: id.to_string(),
                version: version.parse().ok()?,
            },
            _ => return None,
        };
        parts.next().is_none().then_some(message)
    }
}

/// Publishing to and hearing from the other instances.
pub trait Bus: Send + Sync + 'static {
    /// Sends a message to every instance (this one included).
    fn publish(&self, message: BusMessage) -> BoxFuture<'_, Result<(), StoreError>>;
    /// The messages heard from now on.
    fn subscribe(&self) -> broadcast::Receiver<BusMessage>;
}

/// The bus on PostgreSQL: `pg_notify` to publish, one `LISTEN` connection
/// per instance to hear (reconnected by sqlx when it drops).
pub struct PgBus {
    pool: PgPool,
    heard: broadcast::Sender<BusMessage>,
}

impl PgBus {
    /// Starts listening on [`CHANNEL`].
    pub async fn start(pool: PgPool) -> Result<Self, StoreError> {
        let mut listener = PgListener::connect_with(&pool).await?;
        listener.listen(CHANNEL).await?;
        let (heard, _) = broadcast::channel(4096);
        let sender = heard.clone();
        tokio::spawn(async move {
            loop {
                match listener.recv().await {
                    Ok(notification) => {
                        if let Some(message) = BusMessage::decode(notification.payload()) {
                            let _ = sender.send(message);
                        }
                    }
                    Err(error) => {
                        // sqlx reconnects on the next recv; messages sent
                        // meanwhile are lost, which the hub's periodic
                        // version check covers.
                        tracing::warn!("LISTEN connection lost: {error}");
                        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                    }
                }
            }
        });
        Ok(Self { pool, heard })
    }
}

impl Bus for PgBus {
    fn publish(&self, message: BusMessage) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANNEL)
                .bind(message.encode())
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn subscribe(&self) -> broadcast::Receiver<BusMessage> {
        self.heard.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_back_as_written_and_nothing_else_reads() {
        for message in [
            BusMessage::Table {
                id: "0a1b".into(),
                version: 42,
            },
            BusMessage::Matched {
                ticket: 7,
                table: "ff00".into(),
            },
            BusMessage::Lab {
                id: "c0ffee".into(),
                version: -1,
            },
        ] {
            assert_eq!(BusMessage::decode(&message.encode()), Some(message));
        }
        for bad in [
            "",
            "t",
            "t a",
            "t a b",
            "x a 1",
            "t a 1 extra",
            "m x t",
            "l a",
            "l a x",
        ] {
            assert_eq!(BusMessage::decode(bad), None, "{bad:?}");
        }
    }
}
