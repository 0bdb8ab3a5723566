//! The tournaments' rows as the store hands them out, typed (ids, accounts,
//! the format and status, a result), and the raw rows the database answers
//! (its integers and text), typed once here in a `From`. The queries are in
//! `tournaments.rs`.

use app::protocol::{AccountId, EndReason, GameId, Side, TableId, TournamentId};
use app::tournaments::{BqRule, EarlyEnd, Kind, Status};

/// A tournament as stored, typed (its kind and status are checked by the
/// database; an id read back is the one written).
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    pub id: TournamentId,
    pub kind: Kind,
    pub name: String,
    pub creator: Option<AccountId>,
    pub creator_name: Option<String>,
    pub base_ms: i64,
    pub increment_ms: i64,
    pub rated: bool,
    pub private: bool,
    pub rounds: i64,
    pub multiplier: i64,
    pub starts_at: i64,
    pub ends_at: Option<i64>,
    pub status: Status,
    pub round: i64,
    pub created_at: i64,
    pub finished_at: Option<i64>,
    pub players: i64,
    /// The Brightwell quotient's rule its standings use (migration 0027).
    pub bq_rule: BqRule,
    /// Why a Swiss ended before its last round (None: it did not).
    pub ended_early: Option<EarlyEnd>,
    /// Bot accounts may enter (an arena's creator allowed them; migration 0031).
    pub bots: bool,
}

crate::store::rows::row_struct! {
    /// A tournament's row as the database answers it (the store's own; typed
    /// into [`TournamentRow`]).
    pub(super) struct RawTournament {
        id: String,
        kind: String,
        name: String,
        creator: Option<i64>,
        creator_name: Option<String>,
        base_ms: i64,
        increment_ms: i64,
        rated: i64,
        private: i64,
        rounds: i64,
        multiplier: i64,
        starts_at: i64,
        ends_at: Option<i64>,
        status: String,
        round: i64,
        created_at: i64,
        finished_at: Option<i64>,
        players: i64,
        bq_rule: String,
        ended_early: Option<String>,
        bots: i64,
    }
}

impl From<RawTournament> for TournamentRow {
    fn from(raw: RawTournament) -> Self {
        TournamentRow {
            id: TournamentId::new(raw.id),
            // The CHECKs of migration 0020 allow no other values.
            kind: Kind::parse(&raw.kind).unwrap_or_default(),
            name: raw.name,
            creator: raw.creator.map(AccountId::new),
            creator_name: raw.creator_name,
            base_ms: raw.base_ms,
            increment_ms: raw.increment_ms,
            rated: raw.rated != 0,
            private: raw.private != 0,
            rounds: raw.rounds,
            multiplier: raw.multiplier,
            starts_at: raw.starts_at,
            ends_at: raw.ends_at,
            status: Status::parse(&raw.status).unwrap_or(Status::Finished),
            round: raw.round,
            created_at: raw.created_at,
            finished_at: raw.finished_at,
            players: raw.players,
            // The CHECKs of migration 0027 allow no other values.
            bq_rule: if raw.bq_rule == "legacy" {
                BqRule::Legacy
            } else {
                BqRule::Woc
            },
            ended_early: raw.ended_early.as_deref().and_then(EarlyEnd::parse),
            bots: raw.bots != 0,
        }
    }
}

/// A new tournament.
#[derive(Clone, Debug)]
pub struct NewTournament<'a> {
    pub id: &'a TournamentId,
    pub kind: Kind,
    /// An arena's end.
    pub ends_at: Option<i64>,
    pub name: &'a str,
    pub creator: Option<AccountId>,
    pub address: Option<&'a str>,
    pub base_ms: i64,
    pub increment_ms: i64,
    pub rated: bool,
    pub private: bool,
    pub rounds: i64,
    pub multiplier: i64,
    pub starts_at: i64,
    pub now: i64,
    /// Bot accounts may enter.
    pub bots: bool,
}

crate::store::rows::row_struct! {
    /// A player of a tournament, with their account's name.
    #[derive(Clone, Debug, PartialEq)]
    pub struct EntrantRow {
        pub account_id: AccountId as i64,
        pub name: String,
        pub rating: f64,
        pub withdrawn: i64,
    }
}

/// One game (or bye) of a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub round: i64,
    pub black: AccountId,
    pub white: Option<AccountId>,
    pub table_id: Option<TableId>,
    pub black_points: Option<i64>,
    pub white_points: Option<i64>,
    pub black_discs: Option<i64>,
    pub white_discs: Option<i64>,
    /// An arena's berserk: 0 none, 1 went berserk, 2 went berserk and won
    /// with enough moves (an extra point).
    pub black_berserk: i64,
    pub white_berserk: i64,
    /// Whether its table exists (a pairing is written before its table is
    /// made: a player is sent to it only once it exists).
    pub seated: bool,
}

crate::store::rows::row_struct! {
    pub(super) struct RawGame {
        round: i64,
        black: i64,
        white: Option<i64>,
        table_id: Option<String>,
        black_points: Option<i64>,
        white_points: Option<i64>,
        black_discs: Option<i64>,
        white_discs: Option<i64>,
        black_berserk: i64,
        white_berserk: i64,
        seated: bool,
    }
}

impl From<RawGame> for GameRow {
    fn from(raw: RawGame) -> Self {
        GameRow {
            round: raw.round,
            black: AccountId::new(raw.black),
            white: raw.white.map(AccountId::new),
            table_id: raw.table_id.map(TableId::new),
            black_points: raw.black_points,
            white_points: raw.white_points,
            black_discs: raw.black_discs,
            white_discs: raw.white_discs,
            black_berserk: raw.black_berserk,
            white_berserk: raw.white_berserk,
            seated: raw.seated,
        }
    }
}

/// An unscored game whose table's round has been archived: how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct EndedGame {
    pub round: i64,
    pub black: AccountId,
    pub white: Option<AccountId>,
    pub winner: Option<Side>,
    pub reason: EndReason,
    pub black_discs: i64,
    pub white_discs: i64,
    /// The archived game's id (for its page).
    pub game_id: GameId,
    /// Whether each side went berserk, and how many discs each placed.
    pub black_berserk: i64,
    pub white_berserk: i64,
    pub black_moves: i64,
    pub white_moves: i64,
}

crate::store::rows::row_struct! {
    pub(super) struct RawEnded {
        round: i64,
        black: i64,
        white: Option<i64>,
        winner: Option<String>,
        reason: String,
        black_discs: i64,
        white_discs: i64,
        game_id: String,
        black_berserk: i64,
        white_berserk: i64,
        black_moves: i64,
        white_moves: i64,
    }
}

impl From<RawEnded> for EndedGame {
    fn from(raw: RawEnded) -> Self {
        EndedGame {
            round: raw.round,
            black: AccountId::new(raw.black),
            white: raw.white.map(AccountId::new),
            // The CHECKs of migration 0024 allow no other values.
            winner: raw.winner.as_deref().and_then(Side::parse),
            reason: EndReason::parse(&raw.reason).unwrap_or(EndReason::Finished),
            black_discs: raw.black_discs,
            white_discs: raw.white_discs,
            game_id: GameId::new(raw.game_id),
            black_berserk: raw.black_berserk,
            white_berserk: raw.white_berserk,
            black_moves: raw.black_moves,
            white_moves: raw.white_moves,
        }
    }
}

/// A tournament's state in a few numbers ([`Store::tournament_stamp`]).
pub type TournamentStamp = (
    String,
    i64,
    i64,
    Option<i64>,
    Option<i64>,
    i64,
    i64,
    i64,
    i64,
    i64,
);

/// A round's pairing to write: black, white (None: a bye) and its table.
#[derive(Clone, Debug, PartialEq)]
pub struct NewGame {
    pub black: AccountId,
    pub white: Option<AccountId>,
    pub table_id: Option<TableId>,
}

/// A player's tournament game being played (`Store::current_tournament_game`).
#[derive(Clone, Debug, PartialEq)]
pub struct CurrentGame {
    pub tournament: TournamentId,
    /// The stored name (`@daily`, `@hourly`: the schedule's, by key).
    pub name: String,
    pub arena: bool,
    pub control: app::protocol::TimeControl,
    pub round: i64,
    pub table: TableId,
    pub opponent: String,
}

/// `Store::current_tournament_game`'s row.
pub(super) type CurrentRow = (
    String,
    String,
    String,
    i64,
    i64,
    Option<i64>,
    Option<String>,
    Option<String>,
);
