// Over 600 lines: the tournament types every side shares (summary, view, standings, the crosstable's words, scheduled names) with their unit tests; the server functions could move to a module of their own when it grows again.
//! Tournaments as the pages see them: Swiss events of a fixed number of
//! rounds between signed-in players, standings by points, then the
//! Brightwell quotient, then discs (the rules in docs/PRODUCT.md,
//! Tournaments; the pairing and scoring on the server,
//! `server/src/tournaments/swiss.rs`).

use crate::api::CommandError;
use crate::protocol::{GameId, TableId, TimeControl, TournamentId};
use serde::{Deserialize, Serialize};
use server_fn::codec::Json;

/// The rounds a Swiss may have.
pub const ROUNDS: std::ops::RangeInclusive<u32> = 1..=11;

/// How far ahead a tournament may start (minutes).
pub const MAX_START_MINUTES: u32 = 7 * 24 * 60;

/// The longest name.
pub const MAX_NAME_CHARS: usize = 40;

/// How long an arena may last (minutes).
pub const ARENA_MINUTES: std::ops::RangeInclusive<u32> = 5..=180;

/// A tournament's format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A fixed number of rounds; nobody meets twice; BQ breaks ties.
    #[default]
    Swiss,
    /// A fixed time; free players are paired at once; streaks score double.
    Arena,
}

impl Kind {
    pub fn key(self) -> &'static str {
        match self {
            Kind::Swiss => "swiss",
            Kind::Arena => "arena",
        }
    }

    pub fn parse(key: &str) -> Option<Kind> {
        [Kind::Swiss, Kind::Arena]
            .into_iter()
            .find(|k| k.key() == key)
    }
}

/// Where a tournament is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Taking players until it starts.
    Open,
    /// Its rounds are being played.
    Running,
    /// Over: the standings are final.
    Finished,
}

impl Status {
    pub fn key(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Running => "running",
            Status::Finished => "finished",
        }
    }

    pub fn parse(key: &str) -> Option<Status> {
        [Status::Open, Status::Running, Status::Finished]
            .into_iter()
            .find(|s| s.key() == key)
    }
}

/// Why a Swiss ended before its last round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EarlyEnd {
    /// Every further pairing would repeat a game (or pair two players who
    /// may not meet).
    Exhausted,
    /// Fewer than two players were left.
    TooFew,
}

impl EarlyEnd {
    pub fn key(self) -> &'static str {
        match self {
            EarlyEnd::Exhausted => "exhausted",
            EarlyEnd::TooFew => "too_few",
        }
    }

    pub fn parse(key: &str) -> Option<EarlyEnd> {
        [EarlyEnd::Exhausted, EarlyEnd::TooFew]
            .into_iter()
            .find(|e| e.key() == key)
    }
}

/// A finished Swiss that ended before its last round: why, and after
/// which round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndedEarly {
    pub reason: EarlyEnd,
    /// The last round played.
    pub after_round: u32,
}

/// A tournament in a list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentSummary {
    pub id: TournamentId,
    pub name: String,
    #[serde(default)]
    pub kind: Kind,
    /// An arena's end (ms since the epoch).
    #[serde(default)]
    pub ends_at: Option<i64>,
    pub status: Status,
    pub control: TimeControl,
    pub rated: bool,
    pub private: bool,
    pub rounds: u32,
    /// The round being played (0 before the start).
    pub round: u32,
    /// When it starts (ms since the epoch).
    pub starts_at: i64,
    pub players: u32,
    /// Who made it (None: the site's schedule).
    pub creator: Option<String>,
    /// Bot accounts may enter (an arena whose creator allowed them).
    #[serde(default)]
    pub bots: bool,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StandingLine {
    pub rank: u32,
    pub name: String,
    /// Points in halves (a win 2).
    pub points: u32,
    /// The Brightwell quotient (a Swiss; 0 in an arena).
    pub bq: f64,
    /// A Swiss: discs by the tournament's rule; an arena: games won.
    pub discs: u32,
    pub games: u32,
    pub withdrawn: bool,
    /// An arena player on a streak: their next result counts double.
    #[serde(default)]
    pub on_fire: bool,
    /// Each round's game from this player's side, in round order.
    pub results: Vec<CrossCell>,
}

/// One cell of the crosstable: a round from one player's side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrossCell {
    pub round: u32,
    /// The opponent's rank (None: a bye).
    pub opponent: Option<u32>,
    /// Played black.
    pub black: bool,
    /// Points in halves, once over.
    pub points: Option<u32>,
    pub discs: Option<u32>,
}

/// One game of a round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    pub black: String,
    /// None: a bye.
    pub white: Option<String>,
    /// The live table (while it is played and after).
    pub table: Option<TableId>,
    /// The archived game, once over.
    pub game: Option<GameId>,
    /// Discs by the tournament's rule, once over.
    pub black_discs: Option<u32>,
    pub white_discs: Option<u32>,
    /// Points in halves, once over.
    pub black_points: Option<u32>,
    pub white_points: Option<u32>,
}

/// A tournament's page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentView {
    pub summary: TournamentSummary,
    /// The BQ's multiplier of opponents' points.
    pub multiplier: u32,
    pub standings: Vec<StandingLine>,
    /// Every round's games, first round first. An arena's list the leaders'
    /// games in progress and the latest finished ones, and its standings
    /// the leaders (they count every game; `my_line` is the reader's own).
    pub rounds: Vec<Vec<GameLine>>,
    /// Whether the caller is in it (and not withdrawn).
    pub joined: bool,
    /// Whether the caller is signed in.
    pub signed_in: bool,
    /// Whether the caller created it (and may start it early).
    pub mine: bool,
    /// The caller's game being played now, if any: its table.
    pub my_table: Option<TableId>,
    /// The caller's own line of the standings, if they play in it.
    #[serde(default)]
    pub my_line: Option<StandingLine>,
    /// A finished Swiss that ended before its last round: why.
    #[serde(default)]
    pub ended_early: Option<EndedEarly>,
    /// The BQ counts a game against an opponent who withdrew by the rule
    /// its standings were published with (its discs kept) rather than the
    /// WOC's (32 discs and the player's own points): a Swiss finished
    /// before the WOC rule was applied.
    #[serde(default)]
    pub bq_legacy: bool,
}

/// What of a tournament's page is the reader's own (the socket sends it
/// beside the page everyone sees).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Personal {
    pub joined: bool,
    pub signed_in: bool,
    pub mine: bool,
    pub my_table: Option<TableId>,
    /// The reader's own line of the standings (a large arena's page lists
    /// only its leaders).
    #[serde(default)]
    pub line: Option<StandingLine>,
}

impl Personal {
    /// Puts these into `view`.
    pub fn apply(self, view: &mut TournamentView) {
        view.joined = self.joined;
        view.signed_in = self.signed_in;
        view.mine = self.mine;
        view.my_table = self.my_table;
        view.my_line = self.line;
    }
}

/// What a tournament's socket (`/ws/tournament/{id}`) pushes: the page as
/// the player sees it, on connect and after every change (or a refusal, or
/// the answer to a ping) — `{"type": …}` like the table's socket. On the
/// wire the page everyone sees is `view` and the reader's own part `me`
/// ([`Personal`]), so the server writes the page once for every reader.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TournamentMessage {
    /// The page, now.
    #[serde(rename = "tournament")]
    Page { view: Box<TournamentView> },
    /// A message from the client was refused (by key).
    Error { msg: crate::i18n::Msg },
    /// Answer to a ping.
    Pong,
}

impl TournamentMessage {
    /// Reads a pushed message; `None` for a malformed one. A plain struct
    /// rather than serde's tagged-enum support (smaller wasm).
    pub fn parse(text: &str) -> Option<TournamentMessage> {
        #[derive(Deserialize)]
        struct Wire {
            #[serde(rename = "type")]
            kind: String,
            #[serde(default)]
            view: Option<Box<TournamentView>>,
            /// The reader's own part of the page, sent beside it.
            #[serde(default)]
            me: Option<Personal>,
            #[serde(default)]
            msg: Option<crate::i18n::Msg>,
        }
        let wire: Wire = serde_json::from_str(text).ok()?;
        match (wire.kind.as_str(), wire.view, wire.msg) {
            ("tournament", Some(mut view), _) => {
                if let Some(me) = wire.me {
                    me.apply(&mut view);
                }
                Some(TournamentMessage::Page { view })
            }
            ("error", _, Some(msg)) => Some(TournamentMessage::Error { msg }),
            ("pong", _, _) => Some(TournamentMessage::Pong),
            _ => None,
        }
    }
}

/// The tournament a table's game belongs to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentOfTable {
    pub id: TournamentId,
    pub kind: Kind,
}

/// A player's place in a finished tournament (their profile lists these).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentResult {
    pub summary: TournamentSummary,
    pub rank: u32,
    /// Points in halves.
    pub points: u32,
}

/// A tournament to create.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NewTournament {
    pub name: String,
    #[serde(default)]
    pub kind: Kind,
    /// An arena's length in minutes.
    #[serde(default)]
    pub minutes: u32,
    pub control: TimeControl,
    pub rated: bool,
    pub private: bool,
    pub rounds: u32,
    /// Minutes from now until it starts.
    pub starts_in_minutes: u32,
    /// Bot accounts may enter (arenas only).
    #[serde(default)]
    pub bots: bool,
}

/// How often a tournament of the site's schedule recurs. Such a
/// tournament is stored under a reserved name (`@daily`, `@hourly`: a
/// player's own names never start with `@`) and shown by key
/// ([`scheduled_name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheduled {
    Hourly,
    Daily,
}

impl Scheduled {
    pub const ALL: [Scheduled; 2] = [Scheduled::Hourly, Scheduled::Daily];

    /// The name stored for its tournaments.
    pub fn stored_name(self) -> &'static str {
        match self {
            Scheduled::Hourly => "@hourly",
            Scheduled::Daily => "@daily",
        }
    }

    /// The schedule a stored name stands for (`None`: a player's own name).
    pub fn of_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.stored_name() == name)
    }

    /// Its period in milliseconds.
    pub fn period_ms(self) -> i64 {
        match self {
            Scheduled::Hourly => 3_600_000,
            Scheduled::Daily => 86_400_000,
        }
    }
}

/// A scheduled tournament's name as a message ("Daily arena 5+0");
/// `None` for a player's own name, which is shown as written. The one place
/// the schedule's stored names are read: the pages, the challenge notices
/// and the export all ask it.
pub fn scheduled_name(name: &str, kind: Kind, control: TimeControl) -> Option<crate::i18n::Msg> {
    let control = control.label();
    Some(match (Scheduled::of_name(name)?, kind == Kind::Arena) {
        (Scheduled::Daily, true) => crate::msg!("tournament-daily-arena", control = control),
        (Scheduled::Hourly, true) => crate::msg!("tournament-hourly-arena", control = control),
        (Scheduled::Daily, false) => crate::msg!("tournament-daily", control = control),
        (Scheduled::Hourly, false) => crate::msg!("tournament-hourly", control = control),
    })
}

/// Points in halves as shown: `2`, `1½`, `½`, `0`.
pub fn points_text(halves: u32) -> String {
    match (halves / 2, halves % 2) {
        (0, 1) => "½".to_string(),
        (whole, 1) => format!("{whole}½"),
        (whole, _) => whole.to_string(),
    }
}

/// A BQ as shown: whole when it is, else one decimal.
pub fn bq_text(bq: f64) -> String {
    if bq.fract() == 0.0 {
        format!("{bq:.0}")
    } else {
        format!("{bq:.1}")
    }
}

/// Server-side glue: the trait the server implements.
#[cfg(feature = "ssr")]
pub mod backend {
    use super::*;
    use crate::api::backend::Caller;
    use std::sync::Arc;

    #[async_trait::async_trait]
    pub trait TournamentBackend: Send + Sync {
        async fn tournaments(&self) -> Result<Vec<TournamentSummary>, CommandError>;
        async fn tournament(
            &self,
            caller: &Caller,
            id: TournamentId,
        ) -> Result<TournamentView, CommandError>;
        async fn create_tournament(
            &self,
            caller: &Caller,
            new: NewTournament,
        ) -> Result<TournamentId, CommandError>;
        async fn join_tournament(
            &self,
            caller: &Caller,
            id: TournamentId,
        ) -> Result<(), CommandError>;
        async fn leave_tournament(
            &self,
            caller: &Caller,
            id: TournamentId,
        ) -> Result<(), CommandError>;
        async fn table_tournament(
            &self,
            table: TableId,
        ) -> Result<Option<TournamentOfTable>, CommandError>;
        async fn berserk(
            &self,
            caller: &Caller,
            table: TableId,
        ) -> Result<crate::protocol::TableView, CommandError>;
        async fn start_tournament(
            &self,
            caller: &Caller,
            id: TournamentId,
        ) -> Result<(), CommandError>;
    }

    /// The tournament backend, provided to server functions as context.
    #[derive(Clone)]
    pub struct TournamentBackendHandle(pub Arc<dyn TournamentBackend>);

    pub fn context() -> Result<Arc<dyn TournamentBackend>, CommandError> {
        leptos::prelude::use_context::<TournamentBackendHandle>()
            .map(|handle| handle.0)
            .ok_or_else(|| CommandError::unavailable(crate::msg!("srv-not-ready")))
    }
}

/// The public tournaments: running, open, and recently finished.
#[leptos::server(endpoint = "tournaments", input = Json)]
pub async fn tournaments() -> Result<Vec<TournamentSummary>, CommandError> {
    backend::context()?.tournaments().await
}

/// One tournament's page.
#[leptos::server(endpoint = "tournament", input = Json)]
pub async fn tournament(id: TournamentId) -> Result<TournamentView, CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?.tournament(&caller, id).await
}

/// Creates a Swiss (signed-in players; capped per account and address).
#[leptos::server(endpoint = "create_tournament", input = Json)]
pub async fn create_tournament(new: NewTournament) -> Result<TournamentId, CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?.create_tournament(&caller, new).await
}

/// Joins an open tournament.
#[leptos::server(endpoint = "join_tournament", input = Json)]
pub async fn join_tournament(id: TournamentId) -> Result<(), CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?.join_tournament(&caller, id).await
}

/// Leaves a tournament (withdraws once it runs).
#[leptos::server(endpoint = "leave_tournament", input = Json)]
pub async fn leave_tournament(id: TournamentId) -> Result<(), CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?.leave_tournament(&caller, id).await
}

/// Starts an open tournament now (its creator only, with two players in).
#[leptos::server(endpoint = "start_tournament", input = Json)]
pub async fn start_tournament(id: TournamentId) -> Result<(), CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?.start_tournament(&caller, id).await
}

/// The tournament a table's game belongs to, if any.
#[leptos::server(endpoint = "table_tournament", input = Json)]
pub async fn table_tournament(table: TableId) -> Result<Option<TournamentOfTable>, CommandError> {
    backend::context()?.table_tournament(table).await
}

/// Berserk at an arena's table, before the caller's first move: half their
/// clock, no increment, an extra point if they win (with at least seven
/// moves).
#[leptos::server(endpoint = "berserk", input = Json)]
pub async fn berserk(table: TableId) -> Result<crate::protocol::TableView, CommandError> {
    let caller = crate::api::backend::caller()?;
    backend::context()?.berserk(&caller, table).await
}

/// Which rule a Swiss's Brightwell quotient follows for games against an
/// opponent who withdrew.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BqRule {
    /// The rule of events finished before the WOC rule was applied: the
    /// game's discs kept, the player's own points for the opponent's.
    Legacy,
    /// The WOC rules: that game's discs left out, 32 discs and the
    /// player's own points in their place.
    #[default]
    Woc,
}

#[cfg(test)]
mod scheduled_tests {
    use super::*;

    #[test]
    fn the_schedules_names_are_shown_by_key_and_a_players_as_written() {
        let control = TimeControl::PRESETS[0];
        let daily = scheduled_name(Scheduled::Daily.stored_name(), Kind::Arena, control)
            .expect("scheduled");
        assert_eq!(daily.key, "tournament-daily-arena");
        assert_eq!(daily.english(), format!("Daily arena {}", control.label()));
        let hourly = scheduled_name(Scheduled::Hourly.stored_name(), Kind::Swiss, control)
            .expect("scheduled");
        assert_eq!(
            hourly.english(),
            format!("Hourly Swiss {}", control.label())
        );
        assert_eq!(scheduled_name("Friday night", Kind::Arena, control), None);
        assert_eq!(scheduled_name("@weekly", Kind::Swiss, control), None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_shown_in_halves() {
        assert_eq!(points_text(0), "0");
        assert_eq!(points_text(1), "½");
        assert_eq!(points_text(4), "2");
        assert_eq!(points_text(5), "2½");
        assert_eq!(bq_text(86.0), "86");
        assert_eq!(bq_text(86.5), "86.5");
    }

    #[test]
    fn statuses_read_back_from_their_keys() {
        for s in [Status::Open, Status::Running, Status::Finished] {
            assert_eq!(Status::parse(s.key()), Some(s));
        }
        assert_eq!(Status::parse("paused"), None);
        for e in [EarlyEnd::Exhausted, EarlyEnd::TooFew] {
            assert_eq!(EarlyEnd::parse(e.key()), Some(e));
        }
        assert_eq!(EarlyEnd::parse("bored"), None);
    }

    #[test]
    fn a_pushed_page_reads_back() {
        let view = TournamentView {
            summary: TournamentSummary {
                id: crate::ids::TournamentId::new("t1"),
                name: "Friday".into(),
                kind: Kind::Arena,
                ends_at: Some(60_000),
                status: Status::Running,
                control: TimeControl::PRESETS[0],
                rated: false,
                private: false,
                rounds: 0,
                round: 1,
                starts_at: 0,
                players: 2,
                creator: None,
                bots: false,
            },
            multiplier: 6,
            standings: Vec::new(),
            rounds: Vec::new(),
            joined: true,
            signed_in: true,
            mine: false,
            my_table: Some(crate::ids::TableId::new("abc")),
            my_line: None,
            ended_early: None,
            bq_legacy: false,
        };
        let pushed = TournamentMessage::Page {
            view: Box::new(view),
        };
        let text = serde_json::to_string(&pushed).expect("encoded");
        assert!(text.starts_with(r#"{"type":"tournament""#), "{text}");
        assert_eq!(TournamentMessage::parse(&text), Some(pushed.clone()));
        // The server's form: the page everyone sees, the reader's own beside.
        let TournamentMessage::Page { view } = pushed else {
            unreachable!()
        };
        let mut shared = (*view).clone();
        shared.joined = false;
        shared.my_table = None;
        let me = Personal {
            joined: true,
            signed_in: true,
            mine: false,
            my_table: Some(crate::ids::TableId::new("abc")),
            line: None,
        };
        let text = format!(
            r#"{{"type":"tournament","me":{},"view":{}}}"#,
            serde_json::to_string(&me).expect("me"),
            serde_json::to_string(&shared).expect("view")
        );
        assert_eq!(
            TournamentMessage::parse(&text),
            Some(TournamentMessage::Page { view })
        );
        assert_eq!(
            TournamentMessage::parse(r#"{"type":"pong"}"#),
            Some(TournamentMessage::Pong)
        );
        assert_eq!(TournamentMessage::parse(r#"{"type":"tournament"}"#), None);
        assert_eq!(TournamentMessage::parse("{not json"), None);
    }
}
