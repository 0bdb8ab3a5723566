//! A tournament's page: built once for each change of its stamp
//! ([`Store::tournament_stamp`]: one small query) and shared by every reader
//! on this instance — the page's server function and every tournament
//! socket — then made personal (joined, mine, my game) without a query.
//!
//! Live standings: each tournament someone watches over a socket has one
//! watcher task here that looks at the stamp every second and hands a new
//! page to every socket when it changed ([`Tournaments::watch`]). It reads
//! the store only, so it sees the changes every instance makes.
//!
//! [`Store::tournament_stamp`]: crate::store::Store::tournament_stamp

use super::{entrants_of, is_arena, pairings, ranked, summary, unavailable, Tournaments};
use crate::store::tournaments::TournamentStamp;
use app::api::backend::Caller;
use app::api::CommandError;
use app::protocol::{AccountId, GameId, TableId, TournamentId};
use app::tournaments::{CrossCell, GameLine, StandingLine, TournamentView};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// How often a watched tournament's stamp is looked at.
const WATCH_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Pages kept built (a bound on memory: past it, the cache starts again).
const MAX_BUILT: usize = 512;

/// A tournament's page as everyone sees it.
pub struct Shared {
    /// Every player's line (the page may list only the leaders).
    full: Vec<StandingLine>,
    /// Where each player's line is in `full`.
    line_of: HashMap<AccountId, usize>,
    /// The page with its personal fields empty, as JSON: written once,
    /// whoever many sockets send it.
    json: std::sync::OnceLock<String>,
    stamp: TournamentStamp,
    /// The page with its personal fields empty.
    view: TournamentView,
    creator: Option<AccountId>,
    /// The players in it (not withdrawn).
    active: HashSet<AccountId>,
    /// The table of each player's game being played now.
    playing: HashMap<AccountId, TableId>,
}

impl Shared {
    /// The page as the player `me` (None: signed out) sees it.
    pub fn for_player(&self, me: Option<AccountId>) -> TournamentView {
        let mut view = self.view.clone();
        self.for_player_fields(me).apply(&mut view);
        view
    }

    /// The socket's message for the player `me`: the page everyone sees
    /// (serialized once) and what is personal to `me` beside it.
    pub fn message_for(&self, me: Option<AccountId>) -> String {
        let json = self
            .json
            .get_or_init(|| serde_json::to_string(&self.view).unwrap_or_default());
        let mine = self.for_player_fields(me);
        let me = serde_json::to_string(&mine).unwrap_or_default();
        format!(r#"{{"type":"tournament","me":{me},"view":{json}}}"#)
    }

    fn for_player_fields(&self, me: Option<AccountId>) -> app::tournaments::Personal {
        app::tournaments::Personal {
            signed_in: me.is_some(),
            joined: me.is_some_and(|me| self.active.contains(&me)),
            mine: me.is_some() && self.creator == me,
            my_table: me.and_then(|me| self.playing.get(&me).cloned()),
            line: me
                .and_then(|me| self.line_of.get(&me))
                .and_then(|&i| self.full.get(i))
                .cloned(),
        }
    }

    /// The page with every player's line (the export).
    fn complete(&self) -> TournamentView {
        let mut view = self.view.clone();
        view.standings = self.full.clone();
        view
    }

    /// Whether the tournament is over (its page will not change again).
    pub fn finished(&self) -> bool {
        self.view.summary.status == app::tournaments::Status::Finished
    }
}

/// The finished games an arena's page lists (the latest), the games being
/// played it lists (the leaders'), and the lines of its standings (the
/// leaders; each reader gets their own line beside). Its standings count
/// every game; the export lists every player.
pub const ARENA_FINISHED_LINES: usize = 50;
pub const ARENA_PLAYING_LINES: usize = 50;
pub const ARENA_STANDINGS_LINES: usize = 100;

/// Keeps the `keep` games in progress whose better-ranked player ranks
/// highest (finished games all stay).
fn keep_leading_games(rounds: &mut [Vec<GameLine>], rank_of: &HashMap<String, u32>, keep: usize) {
    let best = |g: &GameLine| {
        let rank = |name: &str| rank_of.get(name).copied().unwrap_or(u32::MAX);
        rank(&g.black).min(g.white.as_deref().map_or(u32::MAX, rank))
    };
    let mut playing: Vec<u32> = rounds
        .iter()
        .flatten()
        .filter(|g| g.black_points.is_none())
        .map(best)
        .collect();
    if playing.len() <= keep {
        return;
    }
    playing.sort_unstable();
    let cut = playing[keep - 1];
    let mut room = keep;
    for round in rounds.iter_mut() {
        round.retain(|g| {
            if g.black_points.is_some() {
                return true;
            }
            let keep_it = best(g) <= cut && room > 0;
            if keep_it {
                room -= 1;
            }
            keep_it
        });
    }
}

/// Drops the oldest finished games past the latest `keep` (a round's
/// games stay in order; games in progress all stay).
fn keep_recent(rounds: &mut [Vec<GameLine>], keep: usize) {
    let finished = rounds
        .iter()
        .flatten()
        .filter(|g| g.black_points.is_some())
        .count();
    let mut drop = finished.saturating_sub(keep);
    for round in rounds.iter_mut() {
        if drop == 0 {
            break;
        }
        round.retain(|g| {
            if drop > 0 && g.black_points.is_some() {
                drop -= 1;
                false
            } else {
                true
            }
        });
    }
}

/// The built pages and the watchers of one instance.
#[derive(Default)]
pub struct Pages {
    built: Mutex<HashMap<TournamentId, Arc<Shared>>>,
    watched: Mutex<HashMap<TournamentId, Arc<watch::Sender<Arc<Shared>>>>>,
}

impl Tournaments {
    /// A tournament's page as everyone sees it: the one built before when
    /// its stamp is unchanged.
    pub async fn shared(&self, id: &TournamentId) -> Result<Arc<Shared>, CommandError> {
        let not_found = || CommandError::not_found(app::msg!("srv-no-tournament"));
        // A malformed id names nothing: refused before any query.
        if !id.is_well_formed() {
            return Err(not_found());
        }
        let stamp = self
            .store
            .tournament_stamp(id)
            .await
            .map_err(unavailable)?
            .ok_or_else(not_found)?;
        let built = self
            .pages
            .built
            .lock()
            .ok()
            .and_then(|b| b.get(id.as_str()).cloned());
        if let Some(built) = built.filter(|b| b.stamp == stamp) {
            return Ok(built);
        }
        let shared = Arc::new(self.build(id, stamp).await?);
        if let Ok(mut built) = self.pages.built.lock() {
            if built.len() >= MAX_BUILT {
                built.clear();
            }
            built.insert(id.clone(), shared.clone());
        }
        Ok(shared)
    }

    async fn build(
        &self,
        id: &TournamentId,
        stamp: TournamentStamp,
    ) -> Result<Shared, CommandError> {
        let row = self.row(id).await?;
        let entrants = self
            .store
            .tournament_entrants(id)
            .await
            .map_err(unavailable)?;
        let games = self.store.tournament_games(id).await.map_err(unavailable)?;
        let names: HashMap<AccountId, String> = entrants
            .iter()
            .map(|e| (e.account_id, e.name.clone()))
            .collect();
        let name = |id: AccountId| names.get(&id).cloned().unwrap_or_default();
        let active = entrants
            .iter()
            .filter(|e| e.withdrawn == 0)
            .map(|e| e.account_id)
            .collect();
        let swiss_entrants = entrants_of(entrants);
        let played = pairings(&games);
        let table = ranked(&row, &swiss_entrants, &played);
        let rank: HashMap<AccountId, u32> = table
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id, i as u32 + 1))
            .collect();
        let arena = is_arena(&row);
        let standings = table
            .iter()
            .enumerate()
            .map(|(i, s)| StandingLine {
                rank: i as u32 + 1,
                name: name(s.id),
                points: s.points,
                bq: s.bq,
                discs: s.discs,
                games: s.games,
                withdrawn: s.withdrawn,
                on_fire: s.on_fire,
                results: games
                    .iter()
                    .filter(|g| !arena && (g.black == s.id || g.white == Some(s.id)))
                    .map(|g| {
                        let black = g.black == s.id;
                        let opponent = if black { g.white } else { Some(g.black) };
                        CrossCell {
                            round: g.round.clamp(0, 1000) as u32,
                            opponent: opponent.and_then(|o| rank.get(&o).copied()),
                            black,
                            points: if black {
                                g.black_points
                            } else {
                                g.white_points
                            }
                            .map(|p| p.clamp(0, 2) as u32),
                            discs: if black { g.black_discs } else { g.white_discs }
                                .map(|d| d.clamp(0, 64) as u32),
                        }
                    })
                    .collect(),
            })
            .collect();
        let ended: HashMap<(i64, AccountId), GameId> = self
            .store
            .archived_tournament_games(id)
            .await
            .map_err(unavailable)?
            .into_iter()
            .collect();
        let mut rounds: Vec<Vec<GameLine>> = Vec::new();
        let mut playing = HashMap::new();
        for g in &games {
            let index = (g.round.max(1) - 1) as usize;
            if rounds.len() <= index {
                rounds.resize(index + 1, Vec::new());
            }
            rounds[index].push(GameLine {
                black: name(g.black),
                white: g.white.map(name),
                // A game's table once it exists.
                table: g
                    .table_id
                    .clone()
                    .filter(|_| g.seated || g.black_points.is_some()),
                game: ended.get(&(g.round, g.black)).cloned(),
                black_discs: g.black_discs.map(|d| d.clamp(0, 64) as u32),
                white_discs: g.white_discs.map(|d| d.clamp(0, 64) as u32),
                black_points: g.black_points.map(|p| p.clamp(0, 2) as u32),
                white_points: g.white_points.map(|p| p.clamp(0, 2) as u32),
            });
            // An arena's games run across its batches: any game not yet
            // scored is being played.
            if (arena || g.round == row.round) && g.black_points.is_none() && g.seated {
                if let (Some(table), Some(white)) = (&g.table_id, g.white) {
                    playing.insert(g.black, table.clone());
                    playing.insert(white, table.clone());
                }
            }
        }
        // An arena's page lists its leaders and a selection of its games:
        // the page goes to every player every second.
        let mut rank_of: HashMap<String, u32> = HashMap::new();
        let standings: Vec<StandingLine> = standings;
        for line in &standings {
            rank_of.insert(line.name.clone(), line.rank);
        }
        let full = standings;
        let mut standings = full.clone();
        let mut line_of = HashMap::new();
        for (i, line) in table.iter().enumerate() {
            line_of.insert(line.id, i);
        }
        if arena {
            standings.truncate(ARENA_STANDINGS_LINES);
            keep_recent(&mut rounds, ARENA_FINISHED_LINES);
            keep_leading_games(&mut rounds, &rank_of, ARENA_PLAYING_LINES);
        }
        Ok(Shared {
            full,
            line_of,
            json: std::sync::OnceLock::new(),
            stamp,
            view: TournamentView {
                summary: summary(&row),
                multiplier: row.multiplier.clamp(0, 100) as u32,
                standings,
                rounds,
                joined: false,
                signed_in: false,
                mine: false,
                my_table: None,
                my_line: None,
                ended_early: row
                    .ended_early
                    .filter(|_| row.status == app::tournaments::Status::Finished && !arena)
                    .map(|reason| app::tournaments::EndedEarly {
                        reason,
                        after_round: row.round.clamp(0, 100) as u32,
                    }),
                bq_legacy: !arena && row.bq_rule == super::swiss::BqRule::Legacy,
            },
            creator: row.creator,
            active,
            playing,
        })
    }

    /// A tournament's page as `caller` sees it.
    pub async fn view(
        &self,
        caller: &Caller,
        id: &TournamentId,
    ) -> Result<TournamentView, CommandError> {
        let me = crate::identity::account_of(&caller.session);
        Ok(self.shared(id).await?.for_player(me))
    }

    /// The tournament's page now and after every change, for a socket.
    /// One watcher per tournament on this instance, whoever watches; it
    /// stops when the last socket goes.
    pub async fn watch(
        &self,
        id: &TournamentId,
    ) -> Result<watch::Receiver<Arc<Shared>>, CommandError> {
        if let Some(sender) = self.watched(id) {
            return Ok(sender.subscribe());
        }
        let first = self.shared(id).await?;
        let Ok(mut watched) = self.pages.watched.lock() else {
            return Err(CommandError::unavailable(app::msg!(
                "srv-tournaments-unavailable"
            )));
        };
        if let Some(sender) = watched.get(id.as_str()) {
            return Ok(sender.subscribe());
        }
        let (sender, receiver) = watch::channel(first);
        let sender = Arc::new(sender);
        watched.insert(id.clone(), sender.clone());
        let (this, id) = (self.clone(), id.clone());
        tokio::spawn(async move { this.keep_watching(id, sender).await });
        Ok(receiver)
    }

    fn watched(&self, id: &TournamentId) -> Option<Arc<watch::Sender<Arc<Shared>>>> {
        self.pages.watched.lock().ok()?.get(id.as_str()).cloned()
    }

    async fn keep_watching(self, id: TournamentId, sender: Arc<watch::Sender<Arc<Shared>>>) {
        loop {
            tokio::time::sleep(WATCH_EVERY).await;
            if sender.receiver_count() == 0 {
                let Ok(mut watched) = self.pages.watched.lock() else {
                    return;
                };
                // Checked again under the lock a new socket subscribes under.
                if sender.receiver_count() == 0 {
                    watched.remove(&id);
                    return;
                }
            }
            match self.shared(&id).await {
                Ok(page) => {
                    if !Arc::ptr_eq(&page, &sender.borrow()) {
                        sender.send_replace(page);
                    }
                }
                Err(error) => {
                    tracing::debug!(tournament = %id, "watching: {}", error.msg.english())
                }
            }
        }
    }

    /// The crosstable as plain text (the export): every player.
    pub async fn export(&self, id: &TournamentId) -> Result<String, CommandError> {
        let view = self.shared(id).await?.complete();
        let summary = &view.summary;
        let name = app::tournaments::scheduled_name(&summary.name, summary.kind, summary.control)
            .map_or_else(|| summary.name.clone(), |name| name.english());
        let mut text = format!(
            "{}\n{} · {} rounds · BQ multiplier {}\n",
            name,
            view.summary.control.label(),
            view.summary.rounds,
            view.multiplier
        );
        if view.summary.kind == app::tournaments::Kind::Swiss {
            // Which rule the BQ below follows for a game against an
            // opponent who withdrew.
            text.push_str(if view.bq_legacy {
                "BQ rule: legacy (a game against an opponent who withdrew keeps its discs; \
                 the player's own points stand in for the opponent's)\n"
            } else {
                "BQ rule: WOC (a game against an opponent who withdrew counts 32 discs \
                 and the player's own points, as a bye)\n"
            });
        }
        if let Some(early) = view.ended_early {
            text.push_str(&format!(
                "Ended after round {}: {}\n",
                early.after_round,
                match early.reason {
                    app::tournaments::EarlyEnd::Exhausted => {
                        "every further pairing would repeat a game (or pair two linked accounts)"
                    }
                    app::tournaments::EarlyEnd::TooFew => "fewer than two players were left",
                }
            ));
        }
        text.push('\n');
        text.push_str("#  Name                 Pts   BQ      Discs  Rounds\n");
        for line in &view.standings {
            let rounds: Vec<String> = line
                .results
                .iter()
                .map(|c| match (c.opponent, c.points) {
                    (None, _) => "bye".to_string(),
                    (Some(o), Some(p)) => format!(
                        "{}{}{}",
                        if c.black { 'B' } else { 'W' },
                        o,
                        match p {
                            2 => "+",
                            1 => "=",
                            _ => "-",
                        }
                    ),
                    (Some(o), None) => format!("{}{}", if c.black { 'B' } else { 'W' }, o),
                })
                .collect();
            text.push_str(&format!(
                "{:<3}{:<21}{:<6}{:<8}{:<7}{}{}\n",
                line.rank,
                line.name,
                if view.summary.kind == app::tournaments::Kind::Arena {
                    line.points.to_string()
                } else {
                    app::tournaments::points_text(line.points)
                },
                app::tournaments::bq_text(line.bq),
                line.discs,
                rounds.join(" "),
                if line.withdrawn { " (withdrew)" } else { "" }
            ));
        }
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(scored: bool) -> GameLine {
        GameLine {
            black: "a".into(),
            white: Some("b".into()),
            table: Some(app::ids::TableId::new("t")),
            game: None,
            black_discs: None,
            white_discs: None,
            black_points: scored.then_some(2),
            white_points: scored.then_some(0),
        }
    }

    #[test]
    fn an_arena_page_keeps_the_latest_finished_games_and_every_game_in_progress() {
        let mut rounds = vec![
            vec![line(true), line(true)],
            vec![line(true), line(false)],
            vec![line(true)],
        ];
        keep_recent(&mut rounds, 2);
        let kept: Vec<usize> = rounds.iter().map(Vec::len).collect();
        assert_eq!(kept, vec![0, 2, 1]);
        assert!(rounds[1][1].black_points.is_none(), "in progress stays");
        let ranks: HashMap<String, u32> = [("a".to_string(), 3), ("b".to_string(), 1)].into();
        let mut playing = vec![
            vec![line(false), line(false)],
            vec![line(false), line(true)],
        ];
        playing[0][0].black = "c".into();
        playing[0][0].white = Some("d".into());
        keep_leading_games(&mut playing, &ranks, 2);
        let kept: Vec<usize> = playing.iter().map(Vec::len).collect();
        assert_eq!(
            kept,
            vec![1, 2],
            "the unranked pair's game goes; finished stay"
        );
        assert_eq!(playing[0][0].black, "a");
        let mut few = vec![vec![line(true)]];
        keep_recent(&mut few, 2);
        assert_eq!(few[0].len(), 1);
    }
}
