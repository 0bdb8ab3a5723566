//! A table's mode as the database keeps it: typed columns (`mode_kind`,
//! `ai_depth`, `ai_human`, `private_link`, `base_s`, `increment_s`, `rated`,
//! `tournament`) in `tables` and `archived_games` (migrations 0023 / postgres
//! 0013), mapped to and from [`TableMode`] here and nowhere else.

use app::protocol::{Side, TableMode, TimeControl};

/// The mode columns, in the order [`ModeColumns`] binds them.
macro_rules! mode_columns {
    () => {
        "mode_kind, ai_depth, ai_human, private_link, base_s, increment_s, rated, tournament"
    };
}
pub(crate) use mode_columns;

/// The mode's kind as stored (`mode_kind`), also the archive's filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeKind {
    VsAi,
    HotSeat,
    Online,
}

impl ModeKind {
    pub const ALL: [ModeKind; 3] = [ModeKind::VsAi, ModeKind::HotSeat, ModeKind::Online];

    /// The stored name (and the archive filter's word).
    pub fn name(self) -> &'static str {
        match self {
            ModeKind::VsAi => "vs_ai",
            ModeKind::HotSeat => "hot_seat",
            ModeKind::Online => "online",
        }
    }

    /// The kind a stored name (or a filter word) stands for.
    pub fn from_name(name: &str) -> Option<ModeKind> {
        ModeKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    pub fn of(mode: &TableMode) -> ModeKind {
        match mode {
            TableMode::VsAi { .. } => ModeKind::VsAi,
            TableMode::HotSeat => ModeKind::HotSeat,
            TableMode::Online { .. } => ModeKind::Online,
        }
    }
}

crate::store::rows::row_struct! {
    /// One row's mode columns.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct ModeColumns {
        pub mode_kind: String,
        pub ai_depth: Option<i64>,
        pub ai_human: Option<String>,
        pub private_link: i64,
        pub base_s: Option<i64>,
        pub increment_s: Option<i64>,
        pub rated: i64,
        pub tournament: i64,
    }
}

impl ModeColumns {
    /// The columns that store `mode`.
    pub fn of(mode: TableMode) -> ModeColumns {
        let kind = ModeKind::of(&mode).name().to_string();
        match mode {
            TableMode::VsAi { depth, human } => ModeColumns {
                mode_kind: kind,
                ai_depth: Some(i64::from(depth)),
                ai_human: Some(human.key().to_string()),
                private_link: 0,
                base_s: None,
                increment_s: None,
                rated: 0,
                tournament: 0,
            },
            TableMode::HotSeat => ModeColumns {
                mode_kind: kind,
                ai_depth: None,
                ai_human: None,
                private_link: 0,
                base_s: None,
                increment_s: None,
                rated: 0,
                tournament: 0,
            },
            TableMode::Online {
                private,
                time,
                rated,
                tournament,
            } => ModeColumns {
                mode_kind: kind,
                ai_depth: None,
                ai_human: None,
                private_link: i64::from(private),
                base_s: time.map(|t| i64::from(t.base_s)),
                increment_s: time.map(|t| i64::from(t.increment_s)),
                rated: i64::from(rated),
                tournament: i64::from(tournament),
            },
        }
    }

    /// The mode these columns store; `None` for a row no version of the
    /// site wrote (an unknown kind, a missing depth or side, a time out of
    /// range) — the caller skips it, as it skipped undecodable JSON before.
    pub fn mode(&self) -> Option<TableMode> {
        match ModeKind::from_name(&self.mode_kind)? {
            ModeKind::VsAi => Some(TableMode::VsAi {
                depth: u8::try_from(self.ai_depth?).ok()?,
                human: Side::parse(self.ai_human.as_deref()?)?,
            }),
            ModeKind::HotSeat => Some(TableMode::HotSeat),
            ModeKind::Online => {
                let time = match (self.base_s, self.increment_s) {
                    (Some(base), Some(increment)) => Some(TimeControl {
                        base_s: u32::try_from(base).ok()?,
                        increment_s: u32::try_from(increment).ok()?,
                    }),
                    (None, None) => None,
                    _ => return None,
                };
                Some(TableMode::Online {
                    private: self.private_link != 0,
                    time,
                    rated: self.rated != 0,
                    tournament: self.tournament != 0,
                })
            }
        }
    }
}

/// Binds a [`ModeColumns`] to the next eight parameters of a query, in the
/// order of [`mode_columns!`].
macro_rules! bind_mode {
    ($query:expr, $columns:expr) => {{
        let columns: &$crate::store::mode::ModeColumns = $columns;
        $query
            .bind(columns.mode_kind.clone())
            .bind(columns.ai_depth)
            .bind(columns.ai_human.clone())
            .bind(columns.private_link)
            .bind(columns.base_s)
            .bind(columns.increment_s)
            .bind(columns.rated)
            .bind(columns.tournament)
    }};
}
pub(crate) use bind_mode;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mode_comes_back_from_its_columns() {
        let modes = [
            TableMode::HotSeat,
            TableMode::VsAi {
                depth: 3,
                human: Side::White,
            },
            TableMode::VsAi {
                depth: app::protocol::STRONGEST,
                human: Side::Black,
            },
            TableMode::Online {
                private: true,
                time: None,
                rated: false,
                tournament: false,
            },
            TableMode::Online {
                private: false,
                time: Some(TimeControl {
                    base_s: 180,
                    increment_s: 2,
                }),
                rated: true,
                tournament: true,
            },
        ];
        for mode in modes {
            assert_eq!(ModeColumns::of(mode).mode(), Some(mode), "{mode:?}");
        }
    }

    #[test]
    fn a_row_no_version_wrote_is_no_mode() {
        let mut columns = ModeColumns::of(TableMode::VsAi {
            depth: 2,
            human: Side::Black,
        });
        columns.ai_human = None;
        assert_eq!(columns.mode(), None);
        let mut columns = ModeColumns::of(TableMode::HotSeat);
        columns.mode_kind = "chess".into();
        assert_eq!(columns.mode(), None);
        let mut columns = ModeColumns::of(TableMode::Online {
            private: false,
            time: Some(TimeControl {
                base_s: 60,
                increment_s: 0,
            }),
            rated: false,
            tournament: false,
        });
        columns.increment_s = None;
        assert_eq!(columns.mode(), None);
        columns.increment_s = Some(-1);
        assert_eq!(columns.mode(), None);
    }

    /// Players as an older database stored them (one text) and the identity
    /// each reads as in the typed columns: a malformed or out-of-range text is
    /// a browser's, as `Identity::parse` reads it.
    fn old_players() -> Vec<(&'static str, crate::identity::Identity)> {
        use crate::identity::Identity;
        vec![
            (
                "account:12",
                Identity::Account(app::protocol::AccountId::new(12)),
            ),
            ("ai:6", Identity::Ai(6)),
            ("3f9a0c", Identity::Browser("3f9a0c".into())),
            ("account:x", Identity::Browser("account:x".into())),
            ("ai:300", Identity::Browser("ai:300".into())),
        ]
    }

    /// A database written before the typed columns (mode as JSON) opens
    /// with every table's and archived game's mode intact.
    #[tokio::test]
    async fn the_json_modes_of_an_older_database_become_columns() {
        use crate::store::{SqliteStore, Store, TableStore};
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("old.db");
        let url = format!("sqlite://{}?mode=rwc", path.display());
        let pool = sqlx::SqlitePool::connect(&url).await.expect("connect");
        let players = old_players();
        let mut migrator = crate::store::rows::sqlite_migrator();
        migrator.migrations = std::borrow::Cow::Owned(
            migrator
                .iter()
                .filter(|m| m.version < 23)
                .cloned()
                .collect(),
        );
        migrator.run(&pool).await.expect("migrations up to 0022");
        let modes = [
            (
                "ai",
                r#"{"kind":"vs_ai","depth":7,"human":"white"}"#,
                TableMode::VsAi {
                    depth: 7,
                    human: Side::White,
                },
            ),
            ("seat", r#"{"kind":"hot_seat"}"#, TableMode::HotSeat),
            (
                "link",
                r#"{"kind":"online","private":true}"#,
                TableMode::Online {
                    private: true,
                    time: None,
                    rated: false,
                    tournament: false,
                },
            ),
            (
                "rated",
                r#"{"kind":"online","private":false,"time":{"base_s":300,"increment_s":0},"rated":true,"tournament":true}"#,
                TableMode::Online {
                    private: false,
                    time: Some(TimeControl {
                        base_s: 300,
                        increment_s: 0,
                    }),
                    rated: true,
                    tournament: true,
                },
            ),
        ];
        for (i, (id, json, _)) in modes.iter().enumerate() {
            sqlx::query(
                "INSERT INTO tables (id, mode, owner, created_at, last_activity) VALUES (?, ?, 'o', ?, 0)",
            )
            .bind(id)
            .bind(json)
            .bind(i as i64)
            .execute(&pool)
            .await
            .expect("old table");
            sqlx::query(
                "INSERT INTO archived_games (id, table_id, round, mode, black, white, start_obf, moves, \
                 times, winner, reason, black_discs, white_discs, ended_at) \
                 VALUES (?, ?, 1, ?, ?, ?, '', '', '[]', NULL, 'finished', 32, 32, 1)",
            )
            .bind(format!("g{id}"))
            .bind(id)
            .bind(json)
            .bind(players[i % players.len()].0)
            .bind(players[(i + 1) % players.len()].0)
            .execute(&pool)
            .await
            .expect("old game");
        }
        pool.close().await;
        let store = Store::Sqlite(
            SqliteStore::open(&path, sqlx::sqlite::SqliteSynchronous::Normal)
                .await
                .expect("the newer migrations run"),
        );
        let tables = store.tables().await.expect("tables");
        assert_eq!(tables.len(), modes.len());
        for ((id, _, mode), table) in modes.iter().zip(&tables) {
            assert_eq!(table.id.as_str(), *id);
            assert_eq!(table.mode.mode(), Some(*mode), "table {id}");
            let game = store
                .archived_game(&format!("g{id}"))
                .await
                .expect("read")
                .expect("kept");
            assert_eq!(game.mode.mode(), Some(*mode), "game of {id}");
        }
        for (i, (id, _, _)) in modes.iter().enumerate() {
            let game = store
                .archived_game(&format!("g{id}"))
                .await
                .expect("read")
                .expect("kept");
            let player = |k: usize| players[k % players.len()].1.clone();
            assert_eq!(
                (game.black(), game.white()),
                (player(i), player(i + 1)),
                "players of {id}"
            );
        }
    }
}
