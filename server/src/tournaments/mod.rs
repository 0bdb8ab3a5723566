//! Tournaments: Swiss events and arenas between signed-in players (docs/PRODUCT.md,
//! Tournaments), as the pages' [`TournamentBackend`] and a director that
//! the server ticks every second ([`Tournaments::tick`]).
//! (Over 600 lines: the service — create, join, view, export — and the
//! director that drives both formats, which share every query; the formats'
//! rules are pure, in `swiss.rs` and `arena.rs`.)
//!
//! Everything a tournament is lives in the store (`store/tournaments.rs`):
//! the director holds no state of its own, so any instance may tick, and a
//! round is paired once — its pairings are written in the transaction that
//! moves the tournament to that round. Each game is an ordinary online
//! table (`TableMode::Online { tournament: true, .. }`: never aborted — a
//! side that misses its first move loses by forfeit and is withdrawn, or
//! paused in an arena; no rematch), created after its pairing is written (again by the next tick
//! if the instance stopped in between); its result is read from the archive
//! when its round ends and scored by the rule in [`swiss`] — in a rated
//! tournament only when the rating gate lets it count (else 0 points to
//! each side), and linked accounts are never paired there.
//!
//! [`TournamentBackend`]: app::tournaments::backend::TournamentBackend

pub mod arena;
/// The recurring tournaments' schedule (a module of its own, below the
/// flags that parse it).
pub use crate::schedule;
pub mod swiss;
mod view;

pub use view::Shared;

use crate::hub::Hub;
use crate::rating_gate::{gate, may_meet_rated, Facts};
use crate::store::tournaments::{GameRow, NewGame, NewTournament as NewRow, TournamentRow};
use crate::store::{Store, StoreError};
use app::api::backend::Caller;
use app::api::CommandError;
use app::protocol::{AccountId, Side, TableId, TimeControl, TournamentId};
use app::tournaments::{
    EarlyEnd, NewTournament, Status, TournamentSummary, TournamentView, MAX_NAME_CHARS,
    MAX_START_MINUTES, ROUNDS,
};
use std::collections::HashSet;
use swiss::{Entrant, Pairing, PlayerId, Score};

/// The Brightwell quotient's multiplier, as the WOC uses it.
pub const BQ_MULTIPLIER: i64 = 6;

/// How many tournaments one account may create a day, and one address.
pub const PER_ACCOUNT_DAY: i64 = 5;
pub const PER_ADDRESS_DAY: i64 = 10;

/// How long a finished tournament stays listed (ms).
const LISTED_AFTER_MS: i64 = 24 * 3_600_000;

/// The tournaments: the store, and the hub that seats their games.
#[derive(Clone)]
pub struct Tournaments {
    store: Store,
    hub: Hub,
    schedule: std::sync::Arc<Vec<schedule::Scheduled>>,
    /// Each tournament's page as everyone sees it, and its watchers.
    pages: std::sync::Arc<view::Pages>,
}

fn unavailable(error: StoreError) -> CommandError {
    tracing::error!("tournament store: {error}");
    CommandError::unavailable(app::msg!("srv-tournaments-unavailable"))
}

fn summary(row: &TournamentRow) -> TournamentSummary {
    TournamentSummary {
        id: row.id.clone(),
        name: row.name.clone(),
        kind: row.kind,
        ends_at: row.ends_at,
        status: row.status,
        control: TimeControl {
            base_s: (row.base_ms / 1000).clamp(0, u32::MAX as i64) as u32,
            increment_s: (row.increment_ms / 1000).clamp(0, u32::MAX as i64) as u32,
        },
        rated: row.rated,
        private: row.private,
        rounds: row.rounds.clamp(0, 100) as u32,
        round: row.round.clamp(0, 100) as u32,
        starts_at: row.starts_at,
        players: row.players.clamp(0, u32::MAX as i64) as u32,
        creator: row.creator_name.clone(),
        bots: row.bots,
    }
}

fn score_of(row: &GameRow) -> Option<Score> {
    Some(Score {
        black_points: row.black_points?.clamp(0, 2) as u8,
        white_points: row.white_points?.clamp(0, 2) as u8,
        black_discs: row.black_discs?.clamp(0, 64) as u8,
        white_discs: row.white_discs?.clamp(0, 64) as u8,
    })
}

/// A side's berserk as stored with its score: 0 none, 1 went berserk, 2
/// went berserk and won with at least [`swiss::BERSERK_MOVES`] moves (an
/// extra point).
fn berserk_mark(berserks: i64, won: bool, moves: i64) -> i64 {
    match (berserks > 0, won && moves >= swiss::BERSERK_MOVES) {
        (false, _) => 0,
        (true, false) => 1,
        (true, true) => 2,
    }
}

fn pairings(games: &[GameRow]) -> Vec<Pairing> {
    games
        .iter()
        .map(|g| Pairing {
            round: g.round.clamp(0, 1000) as u32,
            black: g.black,
            white: g.white,
            result: score_of(g),
            bonus: [g.black_berserk == 2, g.white_berserk == 2],
        })
        .collect()
}

/// A tournament's name as typed: trimmed, 1 to 40 characters, no control
/// characters.
fn clean_name(name: &str) -> Result<String, CommandError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(CommandError::refused(app::msg!(
            "srv-tournament-name",
            max = MAX_NAME_CHARS as i64
        )));
    }
    // A leading `@` names the schedule's tournaments.
    if name.chars().any(char::is_control) || name.starts_with('@') {
        return Err(CommandError::refused(app::msg!(
            "srv-tournament-name",
            max = MAX_NAME_CHARS as i64
        )));
    }
    Ok(name.to_string())
}

/// One player's line, whichever the format.
struct Ranked {
    id: AccountId,
    points: u32,
    bq: f64,
    discs: u32,
    games: u32,
    withdrawn: bool,
    on_fire: bool,
}

/// What fair play says of a rated tournament's players: the pairs that are
/// linked and the players marked as rating abusers. Two players may meet
/// when the rating gate says a result between them could count
/// ([`may_meet_rated`]); in a casual tournament anyone may meet anyone.
#[derive(Default)]
struct Apart {
    rated: bool,
    /// Linked pairs, the smaller id first.
    linked: HashSet<(PlayerId, PlayerId)>,
    marked: HashSet<PlayerId>,
}

impl Apart {
    /// Whether `a` and `b` may not be paired.
    fn forbids(&self, a: PlayerId, b: PlayerId) -> bool {
        self.rated
            && !may_meet_rated(
                self.linked.contains(&(a.min(b), a.max(b))),
                self.marked.contains(&a) || self.marked.contains(&b),
            )
    }
}

fn is_arena(row: &TournamentRow) -> bool {
    row.kind == app::tournaments::Kind::Arena
}

/// The standings of a tournament in rank order: the Swiss's or the arena's.
fn ranked(row: &TournamentRow, entrants: &[Entrant], played: &[Pairing]) -> Vec<Ranked> {
    if is_arena(row) {
        arena::standings(entrants, played)
            .into_iter()
            .map(|l| Ranked {
                id: l.id,
                points: l.points,
                bq: 0.0,
                discs: l.wins,
                games: l.games,
                withdrawn: l.withdrawn,
                on_fire: l.on_fire,
            })
            .collect()
    } else {
        // A bye counts once its round is played: while a game of its round
        // is still on, the bye is not in the standings yet.
        let on = |round: u32| {
            played
                .iter()
                .any(|p| p.round == round && p.white.is_some() && p.result.is_none())
        };
        let counted: Vec<Pairing> = played
            .iter()
            .filter(|p| p.white.is_some() || !on(p.round))
            .cloned()
            .collect();
        swiss::standings(entrants, &counted, row.multiplier as f64, row.bq_rule)
            .into_iter()
            .map(|s| Ranked {
                id: s.id,
                points: s.points,
                bq: s.bq,
                discs: s.discs,
                games: s.games,
                withdrawn: s.withdrawn,
                on_fire: false,
            })
            .collect()
    }
}

fn entrants_of(rows: Vec<crate::store::tournaments::EntrantRow>) -> Vec<Entrant> {
    rows.into_iter()
        .map(|e| Entrant {
            id: e.account_id,
            rating: e.rating,
            withdrawn: e.withdrawn != 0,
        })
        .collect()
}

/// The tournaments `account` finished (the last 10), with their place.
pub async fn results_of(
    store: &Store,
    account: AccountId,
) -> Result<Vec<app::tournaments::TournamentResult>, CommandError> {
    let rows = store
        .tournaments_of(account, 10)
        .await
        .map_err(unavailable)?;
    let mut results = Vec::new();
    for row in rows {
        let entrants = entrants_of(
            store
                .tournament_entrants(&row.id)
                .await
                .map_err(unavailable)?,
        );
        let games = store.tournament_games(&row.id).await.map_err(unavailable)?;
        let table = ranked(&row, &entrants, &pairings(&games));
        if let Some((i, line)) = table.iter().enumerate().find(|(_, s)| s.id == account) {
            results.push(app::tournaments::TournamentResult {
                summary: summary(&row),
                rank: i as u32 + 1,
                points: line.points,
            });
        }
    }
    Ok(results)
}

impl Tournaments {
    pub fn new(store: Store, hub: Hub, schedule: Vec<schedule::Scheduled>) -> Tournaments {
        Tournaments {
            store,
            hub,
            schedule: std::sync::Arc::new(schedule),
            pages: Default::default(),
        }
    }

    /// Keeps each recurring tournament's next occurrence open for joining.
    async fn open_scheduled(&self, now: i64) {
        for entry in self.schedule.iter() {
            let start = entry.next_after(now);
            let id = TournamentId::new(entry.id_at(start));
            match self.store.tournament(&id).await {
                Ok(Some(_)) => continue,
                Ok(None) => {}
                Err(error) => {
                    tracing::warn!("tournament schedule: {error}");
                    return;
                }
            }
            let created = self
                .store
                .create_tournament(&NewRow {
                    id: &id,
                    kind: match entry.arena_minutes {
                        Some(_) => app::tournaments::Kind::Arena,
                        None => app::tournaments::Kind::Swiss,
                    },
                    ends_at: entry
                        .arena_minutes
                        .map(|minutes| start + i64::from(minutes) * 60_000),
                    name: entry.every.stored_name(),
                    creator: None,
                    address: None,
                    base_ms: i64::from(entry.control.base_s) * 1000,
                    increment_ms: i64::from(entry.control.increment_s) * 1000,
                    rated: true,
                    private: false,
                    rounds: i64::from(entry.rounds),
                    multiplier: BQ_MULTIPLIER,
                    starts_at: start,
                    now,
                    // The site's own events are for people.
                    bots: false,
                })
                .await;
            // Another instance may have created it first: the same id.
            if let Err(error) = created {
                tracing::debug!(tournament = %id, "scheduled tournament not created: {error}");
            }
        }
    }

    fn signed_in(caller: &Caller) -> Result<AccountId, CommandError> {
        crate::identity::account_of(&caller.session)
            .ok_or_else(|| CommandError::refused(app::msg!("srv-tournament-sign-in")))
    }

    async fn row(&self, id: &TournamentId) -> Result<TournamentRow, CommandError> {
        // A malformed id names nothing: refused before any query.
        if !id.is_well_formed() {
            return Err(CommandError::not_found(app::msg!("srv-no-tournament")));
        }
        self.store
            .tournament(id)
            .await
            .map_err(unavailable)?
            .ok_or_else(|| CommandError::not_found(app::msg!("srv-no-tournament")))
    }

    /// Creates a Swiss; its id.
    pub async fn create(
        &self,
        caller: &Caller,
        new: NewTournament,
    ) -> Result<TournamentId, CommandError> {
        let account = Self::signed_in(caller)?;
        let name = clean_name(&new.name)?;
        let arena = new.kind == app::tournaments::Kind::Arena;
        let minutes = app::tournaments::ARENA_MINUTES;
        if arena && !minutes.contains(&new.minutes) {
            return Err(CommandError::refused(app::msg!(
                "srv-arena-minutes",
                min = *minutes.start() as i64,
                max = *minutes.end() as i64
            )));
        }
        if !arena && !ROUNDS.contains(&new.rounds) {
            return Err(CommandError::refused(app::msg!(
                "srv-tournament-rounds",
                min = *ROUNDS.start() as i64,
                max = *ROUNDS.end() as i64
            )));
        }
        if new.starts_in_minutes > MAX_START_MINUTES {
            return Err(CommandError::refused(app::msg!(
                "srv-tournament-start",
                days = (MAX_START_MINUTES / 1440) as i64
            )));
        }
        // Bots enter arenas only (a Swiss withdraws whoever misses a
        // game: its rounds are for people who sit them).
        if new.bots && !arena {
            return Err(CommandError::refused(app::msg!(
                "srv-tournament-bots-arena"
            )));
        }
        self.hub.check_control(false, Some(new.control))?;
        let now = self.hub.now();
        let address = caller.address.map(|a| a.to_string());
        let (mine, here) = self
            .store
            .tournaments_created(account, address.as_deref(), now - 86_400_000)
            .await
            .map_err(unavailable)?;
        if mine >= PER_ACCOUNT_DAY || (address.is_some() && here >= PER_ADDRESS_DAY) {
            return Err(CommandError::limited(app::msg!(
                "srv-tournament-cap",
                count = PER_ACCOUNT_DAY
            )));
        }
        let id = TournamentId::new(crate::hex::hex(&rand::random::<[u8; 6]>()));
        self.store
            .create_tournament(&NewRow {
                id: &id,
                kind: new.kind,
                ends_at: arena.then(|| {
                    now + i64::from(new.starts_in_minutes) * 60_000
                        + i64::from(new.minutes) * 60_000
                }),
                name: &name,
                creator: Some(account),
                address: address.as_deref(),
                base_ms: i64::from(new.control.base_s) * 1000,
                increment_ms: i64::from(new.control.increment_s) * 1000,
                rated: new.rated,
                private: new.private,
                rounds: if arena { 0 } else { i64::from(new.rounds) },
                multiplier: BQ_MULTIPLIER,
                starts_at: now + i64::from(new.starts_in_minutes) * 60_000,
                now,
                bots: new.bots,
            })
            .await
            .map_err(unavailable)?;
        tracing::info!(tournament = %id, rounds = new.rounds, "tournament created");
        Ok(id)
    }

    /// Joins an open tournament.
    pub async fn join(&self, caller: &Caller, id: &TournamentId) -> Result<(), CommandError> {
        let account = Self::signed_in(caller)?;
        let row = self.row(id).await?;
        let arena_on = is_arena(&row)
            && row.status == Status::Running
            && row.ends_at.is_some_and(|end| end > self.hub.now());
        if row.status != Status::Open && !arena_on {
            return Err(CommandError::conflict(if is_arena(&row) {
                app::msg!("srv-tournament-over")
            } else {
                app::msg!("srv-tournament-started")
            }));
        }
        // A bot enters only where its creator allowed bots.
        if !row.bots && self.store.is_bot(account).await.map_err(unavailable)? {
            return Err(CommandError::forbidden(app::msg!("srv-tournament-no-bots")));
        }
        // A rated tournament's score must be able to count: an account
        // marked as a rating abuser never could (the rating gate says so).
        if row.rated {
            let abuser = self.store.is_abuser(account).await.map_err(unavailable)?;
            if gate(Facts::tournament(false, abuser)).is_err() {
                return Err(CommandError::forbidden(app::msg!("srv-tournament-abuser")));
            }
        }
        let control = summary(&row).control;
        let now = self.hub.now();
        let rating = self
            .store
            .rating_of(account, control.speed())
            .await
            .map_err(unavailable)?
            .map_or(1500.0, |r| r.rating);
        if !self
            .store
            .join_tournament(id, account, rating, now)
            .await
            .map_err(unavailable)?
        {
            return Err(CommandError::conflict(app::msg!("srv-tournament-started")));
        }
        Ok(())
    }

    /// Leaves (before the start) or withdraws from (after) a tournament.
    pub async fn leave(&self, caller: &Caller, id: &TournamentId) -> Result<(), CommandError> {
        let account = Self::signed_in(caller)?;
        let row = self.row(id).await?;
        if row.status == Status::Finished {
            return Err(CommandError::conflict(app::msg!("srv-tournament-over")));
        }
        if !self
            .store
            .leave_tournament(id, account)
            .await
            .map_err(unavailable)?
        {
            return Err(CommandError::refused(app::msg!("srv-tournament-not-in")));
        }
        Ok(())
    }

    /// Its creator starts an open tournament now (the next tick pairs
    /// round 1): at least two players must be in.
    pub async fn start_now(&self, caller: &Caller, id: &TournamentId) -> Result<(), CommandError> {
        let account = Self::signed_in(caller)?;
        let row = self.row(id).await?;
        if row.creator != Some(account) {
            return Err(CommandError::forbidden(app::msg!(
                "srv-tournament-not-yours"
            )));
        }
        if row.status != Status::Open {
            return Err(CommandError::conflict(app::msg!("srv-tournament-started")));
        }
        if row.players < 2 {
            return Err(CommandError::refused(app::msg!("srv-tournament-too-few")));
        }
        self.store
            .start_tournament_at(id, self.hub.now())
            .await
            .map_err(unavailable)?;
        self.tick().await;
        Ok(())
    }

    /// The public list.
    pub async fn list(&self) -> Result<Vec<TournamentSummary>, CommandError> {
        let rows = self
            .store
            .listed_tournaments(self.hub.now() - LISTED_AFTER_MS, 50)
            .await
            .map_err(unavailable)?;
        Ok(rows.iter().map(summary).collect())
    }

    /// The director's step: starts due tournaments, scores ended games,
    /// seats games whose table is missing, pairs the next round when one
    /// is over, finishes tournaments. Safe on any instance at any time.
    pub async fn tick(&self) {
        let now = self.hub.now();
        self.open_scheduled(now).await;
        let active = match self.store.active_tournaments(now).await {
            Ok(rows) => rows,
            Err(error) => {
                tracing::warn!("tournaments: {error}");
                return;
            }
        };
        for row in active {
            if let Err(error) = self.step(&row, now).await {
                tracing::warn!(tournament = %row.id, "tournament step: {error}");
            }
        }
    }

    async fn step(&self, row: &TournamentRow, now: i64) -> Result<(), StoreError> {
        // Score the games whose round ended.
        for ended in self.store.ended_tournament_games(&row.id).await? {
            let winner = ended.winner;
            // A side that missed its first move (both, with no winner) is
            // withdrawn from a Swiss and paused in an arena — not paired
            // again until it joins again (`join`). Done before the score,
            // so a tick that stops in between does it again.
            if ended.reason == app::protocol::EndReason::Forfeit {
                let absent = [
                    (winner != Some(Side::Black)).then_some(ended.black),
                    ended.white.filter(|_| winner != Some(Side::White)),
                ];
                for account in absent.into_iter().flatten() {
                    self.store.leave_tournament(&row.id, account).await?;
                    tracing::info!(
                        tournament = %row.id,
                        account = account.get(),
                        "a player missed their first move: withdrawn (paused in an arena)"
                    );
                }
            }
            let mut score = Score::of(
                winner,
                ended.reason,
                ended.black_discs.clamp(0, 64) as u8,
                ended.white_discs.clamp(0, 64) as u8,
            );
            // A rated tournament's game counts only when the rating gate
            // says so (the players became linked after the pairing, or
            // one was marked as an abuser): else neither side gains —
            // 0 points each, no berserk point; the discs stay on record.
            let counts = match ended.white {
                Some(white) if row.rated => self.counts(&row.id, ended.black, white).await?,
                _ => true,
            };
            if !counts {
                score.black_points = 0;
                score.white_points = 0;
            }
            let berserk = |mark: i64| if counts { mark } else { mark.min(1) };
            self.store
                .score_tournament_game(
                    &row.id,
                    ended.round,
                    ended.black,
                    (
                        i64::from(score.black_points),
                        i64::from(score.white_points),
                        i64::from(score.black_discs),
                        i64::from(score.white_discs),
                    ),
                    (
                        berserk(berserk_mark(
                            ended.black_berserk,
                            winner == Some(Side::Black),
                            ended.black_moves,
                        )),
                        berserk(berserk_mark(
                            ended.white_berserk,
                            winner == Some(Side::White),
                            ended.white_moves,
                        )),
                    ),
                )
                .await?;
        }
        let games = self.store.tournament_games(&row.id).await?;
        let current: Vec<&GameRow> = games.iter().filter(|g| g.round == row.round).collect();
        // Seat the round's games whose table is missing (the instance that
        // paired them stopped before seating them).
        for game in games.iter().filter(|g| g.black_points.is_none()) {
            if let (Some(table), Some(white)) = (&game.table_id, game.white) {
                if !self.store.table_exists(table).await? {
                    self.seat(row, table, game.black, white).await;
                }
            }
        }
        if is_arena(row) {
            return self.arena_step(row, &games, now).await;
        }
        if current.iter().any(|g| g.black_points.is_none()) {
            return Ok(());
        }
        if row.round >= row.rounds {
            self.store.finish_tournament(&row.id, now, None).await?;
            tracing::info!(tournament = %row.id, "tournament finished");
            return Ok(());
        }
        let entrants: Vec<Entrant> = self
            .store
            .tournament_entrants(&row.id)
            .await?
            .into_iter()
            .map(|e| Entrant {
                id: e.account_id,
                rating: e.rating,
                withdrawn: e.withdrawn != 0,
            })
            .collect();
        let apart = self.apart(row, now).await?;
        let next = match swiss::next_round(
            &entrants,
            &pairings(&games),
            row.multiplier as f64,
            row.bq_rule,
            &|a, b| apart.forbids(a, b),
        ) {
            swiss::Next::Round { games, sit_out } => {
                if !sit_out.is_empty() {
                    tracing::info!(
                        tournament = %row.id,
                        round = row.round + 1,
                        sit_out = sit_out.len(),
                        "players with no opponent they may meet sit the round out"
                    );
                }
                games
            }
            end @ (swiss::Next::TooFew | swiss::Next::Exhausted) => {
                // Fewer than two players left, or no pairing without a
                // repeat: the event ends before its last round, and says why.
                let reason = if matches!(end, swiss::Next::TooFew) {
                    EarlyEnd::TooFew
                } else {
                    EarlyEnd::Exhausted
                };
                let early = (row.round > 0).then_some(reason);
                self.store.finish_tournament(&row.id, now, early).await?;
                tracing::info!(
                    tournament = %row.id,
                    round = row.round,
                    reason = reason.key(),
                    "tournament ended early: no more pairings"
                );
                return Ok(());
            }
        };
        let new: Vec<NewGame> = next
            .iter()
            .map(|(black, white)| NewGame {
                black: *black,
                white: *white,
                table_id: white.map(|_| TableId::new(crate::hex::hex(&rand::random::<[u8; 8]>()))),
            })
            .collect();
        let bye = Score::BYE;
        if !self
            .store
            .pair_round(
                &row.id,
                row.round,
                &new,
                (
                    i64::from(bye.black_points),
                    i64::from(bye.white_points),
                    i64::from(bye.black_discs),
                    i64::from(bye.white_discs),
                ),
            )
            .await?
        {
            return Ok(());
        }
        tracing::info!(tournament = %row.id, round = row.round + 1, "tournament round paired");
        for game in &new {
            if let (Some(table), Some(white)) = (&game.table_id, game.white) {
                self.seat(row, table, game.black, white).await;
            }
        }
        Ok(())
    }

    /// An arena's step (its games scored, its tables seated): begins when
    /// due, pairs the free players at once, and once its time is up pairs
    /// nobody and finishes when the last game has ended.
    async fn arena_step(
        &self,
        row: &TournamentRow,
        games: &[GameRow],
        now: i64,
    ) -> Result<(), StoreError> {
        if row.status == Status::Open {
            self.store.start_arena(&row.id).await?;
        }
        let playing = games.iter().any(|g| g.black_points.is_none());
        if row.ends_at.is_none_or(|end| now >= end) {
            if !playing {
                self.store.finish_tournament(&row.id, now, None).await?;
                tracing::info!(tournament = %row.id, "arena finished");
            }
            return Ok(());
        }
        let entrants = entrants_of(self.store.tournament_entrants(&row.id).await?);
        let played = pairings(games);
        let mut pairs = arena::pair_free(&entrants, &played, &|_, _| false);
        // A rated arena's fair play is read only when someone could be
        // paired: linked players are never paired.
        if row.rated && !pairs.is_empty() {
            let apart = self.apart(row, now).await?;
            pairs = arena::pair_free(&entrants, &played, &|a, b| apart.forbids(a, b));
        }
        if pairs.is_empty() {
            return Ok(());
        }
        let new: Vec<NewGame> = pairs
            .iter()
            .map(|(a, b)| {
                let (black, white) = arena::colours(*a, *b, &played);
                NewGame {
                    black,
                    white: Some(white),
                    table_id: Some(TableId::new(crate::hex::hex(&rand::random::<[u8; 8]>()))),
                }
            })
            .collect();
        if !self
            .store
            .pair_round(&row.id, row.round, &new, (0, 0, 0, 0))
            .await?
        {
            return Ok(());
        }
        for game in &new {
            if let (Some(table), Some(white)) = (&game.table_id, game.white) {
                self.seat(row, table, game.black, white).await;
            }
        }
        Ok(())
    }

    /// Who of a tournament's players may not meet (nobody in a casual one).
    async fn apart(&self, row: &TournamentRow, now: i64) -> Result<Apart, StoreError> {
        if !row.rated {
            return Ok(Apart::default());
        }
        let since = now - crate::store::fair_play::LINK_DAYS * 86_400_000;
        Ok(Apart {
            rated: true,
            linked: self
                .store
                .linked_tournament_pairs(&row.id, since)
                .await?
                .into_iter()
                .collect(),
            marked: self
                .store
                .marked_tournament_players(&row.id)
                .await?
                .into_iter()
                .collect(),
        })
    }

    /// Whether a rated tournament's game between `black` and `white` may
    /// score: the rating gate, from what fair play says of them now.
    async fn counts(
        &self,
        id: &TournamentId,
        black: AccountId,
        white: AccountId,
    ) -> Result<bool, StoreError> {
        let linked = self.hub.linked(black, white).await;
        let abuser = self.store.is_abuser(black).await? || self.store.is_abuser(white).await?;
        match gate(Facts::tournament(linked, abuser)) {
            Ok(()) => Ok(true),
            Err(refusal) => {
                tracing::info!(
                    tournament = %id,
                    %black,
                    %white,
                    refusal = refusal.name(),
                    "a tournament game scores nothing"
                );
                Ok(false)
            }
        }
    }

    /// Seats one game: black and white at the table the pairing named.
    async fn seat(&self, row: &TournamentRow, table: &TableId, black: AccountId, white: AccountId) {
        let control = summary(row).control;
        if let Err(error) = self
            .hub
            .create_paired_table(
                table,
                black,
                white,
                crate::hub::PairedGame {
                    control,
                    rated: row.rated,
                    tournament: true,
                    start: None,
                },
            )
            .await
        {
            tracing::error!(%table, "cannot seat a tournament game: {}", error.message);
        }
    }
}

#[async_trait::async_trait]
impl app::tournaments::backend::TournamentBackend for Tournaments {
    async fn tournaments(&self) -> Result<Vec<TournamentSummary>, CommandError> {
        self.list().await
    }

    async fn tournament(
        &self,
        caller: &Caller,
        id: TournamentId,
    ) -> Result<TournamentView, CommandError> {
        self.view(caller, &id).await
    }

    async fn create_tournament(
        &self,
        caller: &Caller,
        new: NewTournament,
    ) -> Result<TournamentId, CommandError> {
        self.create(caller, new).await
    }

    async fn join_tournament(&self, caller: &Caller, id: TournamentId) -> Result<(), CommandError> {
        self.join(caller, &id).await
    }

    async fn leave_tournament(
        &self,
        caller: &Caller,
        id: TournamentId,
    ) -> Result<(), CommandError> {
        self.leave(caller, &id).await
    }

    async fn start_tournament(
        &self,
        caller: &Caller,
        id: TournamentId,
    ) -> Result<(), CommandError> {
        self.start_now(caller, &id).await
    }

    async fn table_tournament(
        &self,
        table: TableId,
    ) -> Result<Option<app::tournaments::TournamentOfTable>, CommandError> {
        let Some(id) = self
            .store
            .tournament_of_table(&table)
            .await
            .map_err(unavailable)?
        else {
            return Ok(None);
        };
        let row = self.row(&id).await?;
        Ok(Some(app::tournaments::TournamentOfTable {
            id,
            kind: row.kind,
        }))
    }

    async fn berserk(
        &self,
        caller: &Caller,
        table: TableId,
    ) -> Result<app::protocol::TableView, CommandError> {
        // Only at a running arena's table; the table's rules decide the rest
        // (a seated player, timed, before their first move, once).
        let refused = || CommandError::refused(app::msg!("srv-no-berserk"));
        let id = self
            .store
            .tournament_of_table(&table)
            .await
            .map_err(unavailable)?
            .ok_or_else(refused)?;
        let row = self.row(&id).await?;
        if !is_arena(&row) || row.status != Status::Running {
            return Err(refused());
        }
        self.hub
            .execute(
                &caller.session,
                app::protocol::TableCommand::Berserk { table },
            )
            .await
    }
}
