//! The bus between instances: after a commit an instance publishes which
//! table changed and its new version — with, for a command, the rows it
//! wrote and when — and every instance hears it; the ones holding that table
//! apply the rows (or, for anything else, read what changed) and push it. Quick-match pairings travel the same way (the waiting player's
//! instance learns the table).
//!
//! [`Bus`] hides the transport: [`PgBus`] is PostgreSQL's `LISTEN`/`NOTIFY`;
//! Redis pub/sub or NATS would implement the same two methods when
//! notifications near the measured rate (docs/ARCHITECTURE.md, docs/BENCHMARKS.md).

use super::{MoveKind, MoveRow, StoreError};
use app::protocol::{LabId, TableId};
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
    /// `change`: what a command wrote to get there from `version - 1`.
    Table {
        id: TableId,
        version: i64,
        change: Option<TableChange>,
    },
    /// The quick-match player waiting with `ticket` was paired at `table`.
    Matched { ticket: i64, table: TableId },
    /// A lab game was written; it is now at `version` (below 0: deleted).
    Lab { id: LabId, version: i64 },
}

/// The rows one command wrote and its time (the table's last activity).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableChange {
    pub at: i64,
    pub rows: Vec<MoveRow>,
}

impl TableChange {
    /// `<at> <row>;<row>…`, a row as `seq,round,kind,side,square,time_ms`
    /// (an absent square or time empty).
    fn encode(&self) -> String {
        let rows: Vec<String> = self
            .rows
            .iter()
            .map(|r| {
                let opt = |v: Option<i64>| v.map(|v| v.to_string()).unwrap_or_default();
                format!(
                    "{},{},{},{},{},{}",
                    r.seq,
                    r.round,
                    r.kind.name(),
                    r.side,
                    opt(r.square),
                    opt(r.time_ms)
                )
            })
            .collect();
        format!("{} {}", self.at, rows.join(";"))
    }

    fn decode(at: &str, rows: &str) -> Option<TableChange> {
        let opt = |text: &str| -> Option<Option<i64>> {
            if text.is_empty() {
                Some(None)
            } else {
                text.parse().ok().map(Some)
            }
        };
        let rows = rows
            .split(';')
            .map(|row| {
                let fields: Vec<&str> = row.split(',').collect();
                let [seq, round, kind, side, square, time_ms] = fields.as_slice() else {
                    return None;
                };
                if !matches!(*side, "black" | "white") {
                    return None;
                }
                Some(MoveRow {
                    seq: seq.parse().ok()?,
                    round: round.parse().ok()?,
                    kind: MoveKind::from_name(kind)?,
                    side: (*side).to_string(),
                    square: opt(square)?,
                    time_ms: opt(time_ms)?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(TableChange {
            at: at.parse().ok()?,
            rows,
        })
    }
}

/// The text of [`BusMessage::Table`], from borrowed parts.
pub fn table_message(id: &TableId, version: i64, change: Option<&TableChange>) -> String {
    match change {
        None => format!("t {id} {version}"),
        Some(change) => format!("t {id} {version} {}", change.encode()),
    }
}

impl BusMessage {
    /// The text form: `t <id> <version>` (with ` <at> <rows>` for a
    /// command's change), `m <ticket> <table>` or `l <id> <version>`.
    pub fn encode(&self) -> String {
        match self {
            BusMessage::Table {
                id,
                version,
                change,
            } => table_message(id, *version, change.as_ref()),
            BusMessage::Matched { ticket, table } => format!("m {ticket} {table}"),
            BusMessage::Lab { id, version } => format!("l {id} {version}"),
        }
    }

    /// Reads the text form; anything else (a malformed id included) is
    /// `None`.
    pub fn decode(text: &str) -> Option<BusMessage> {
        let mut parts = text.split(' ');
        let message = match (parts.next()?, parts.next()?, parts.next()?) {
            ("t", id, version) => BusMessage::Table {
                id: TableId::parse(id).ok()?,
                version: version.parse().ok()?,
                change: match (parts.next(), parts.next()) {
                    (None, _) => None,
                    (Some(at), Some(rows)) => Some(TableChange::decode(at, rows)?),
                    (Some(_), None) => return None,
                },
            },
            ("m", ticket, table) => BusMessage::Matched {
                ticket: ticket.parse().ok()?,
                table: TableId::parse(table).ok()?,
            },
            ("l", id, version) => BusMessage::Lab {
                id: LabId::parse(id).ok()?,
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
    /// Whether a message may instead be handed to the PostgreSQL store's
    /// writer, to be sent by the very transaction that commits the change
    /// (`NOTIFY` is delivered at commit, never before, never for a
    /// rollback). Only the bus that is PostgreSQL's own can.
    fn sent_at_commit(&self) -> bool {
        false
    }
    /// At start, the lease expiry (ms) before which a lease left in the
    /// store (a lab explanation being written) is nobody's and may be taken
    /// over: `now` among several instances (a running lease may be
    /// another's); for an instance alone every lease (see [`LocalBus`]).
    fn leases_free_before(&self, now: i64) -> i64 {
        now
    }
}

/// The bus of an instance alone: what it publishes, it hears itself (there
/// is no one else), so the code that publishes and hears is the same alone
/// and among several.
pub struct LocalBus {
    heard: broadcast::Sender<BusMessage>,
}

impl LocalBus {
    pub fn new() -> Self {
        Self {
            heard: broadcast::channel(1024).0,
        }
    }
}

impl Default for LocalBus {
    fn default() -> Self {
        Self::new()
    }
}

impl Bus for LocalBus {
    fn publish(&self, message: BusMessage) -> BoxFuture<'_, Result<(), StoreError>> {
        // Nobody listening is not a failure.
        let _ = self.heard.send(message);
        Box::pin(async { Ok(()) })
    }

    fn subscribe(&self) -> broadcast::Receiver<BusMessage> {
        self.heard.subscribe()
    }

    /// Alone, every lease left in the store was this process's own before
    /// it stopped: all are free at once, whatever their expiry says.
    fn leases_free_before(&self, _now: i64) -> i64 {
        i64::MAX
    }
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

    fn sent_at_commit(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_back_as_written_and_nothing_else_reads() {
        for message in [
            BusMessage::Table {
                id: app::ids::TableId::new("0a1b"),
                version: 42,
                change: None,
            },
            BusMessage::Table {
                id: app::ids::TableId::new("0a1b"),
                version: 43,
                change: Some(TableChange {
                    at: 1_700_000_000_123,
                    rows: vec![
                        MoveRow {
                            seq: 9,
                            round: 2,
                            kind: MoveKind::Place,
                            side: "white".into(),
                            square: Some(37),
                            time_ms: Some(1520),
                        },
                        MoveRow {
                            seq: 10,
                            round: 2,
                            kind: MoveKind::Pass,
                            side: "black".into(),
                            square: None,
                            time_ms: None,
                        },
                    ],
                }),
            },
            BusMessage::Matched {
                ticket: 7,
                table: app::ids::TableId::new("ff00"),
            },
            BusMessage::Lab {
                id: app::ids::LabId::new("c0ffee"),
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
            "t a 1 5",
            "t a 1 x 1,1,place,black,19,",
            "t a 1 5 1,1,jump,black,19,",
            "t a 1 5 1,1,place,grey,19,",
            "t a 1 5 1,1,place,black,nineteen,",
            "t a 1 5 1,1,place,black,19,;",
            "t a 1 5 1,1,place,black,19,, extra",
            "m x t",
            "l a",
            "l a x",
            // Ids the site never makes.
            "t a/b 1",
            "m 3 ../t",
            "l a.b 1",
        ] {
            assert_eq!(BusMessage::decode(bad), None, "{bad:?}");
        }
    }
}
