// Over 600 lines: the archive service reads top to bottom in one file (a game replayed, its view with ratings and a synchro pair's sum, the exports, profiles and lists); the profile queries could move to a module of their own when it grows again.
//! The game archive as the pages' [`ArchiveBackend`]: an archived game with
//! its boards replayed, and a player's games list. Players are stored as
//! identities; an account's name is read when shown (so a renamed or
//! deleted account shows as it is now).
//!
//! [`ArchiveBackend`]: app::archive::backend::ArchiveBackend

use crate::identity::Identity;
use crate::store::archive::ArchivedRow;
use crate::store::mode::ModeKind;
use crate::store::Store;
use app::api::CommandError;
use app::archive::{GameFilter, GamePly, GameSummary, GameView, PlayerView};
use app::protocol::{AccountId, EndReason, GameId, Session, Side, TableMode};
use engine::{Color, Position};

/// Games per page of a games list.
pub const PAGE: i64 = 50;

/// The archive service.
#[derive(Clone)]
pub struct Archive {
    pub store: Store,
}

fn unavailable(error: crate::store::StoreError) -> CommandError {
    tracing::error!("archive store: {error}");
    CommandError::unavailable(app::msg!("srv-archive-unavailable"))
}

fn reason(text: &str) -> EndReason {
    EndReason::parse(text).unwrap_or(EndReason::Finished)
}

fn winner(text: Option<&str>) -> Option<Side> {
    text.and_then(Side::parse)
}

fn side_of(color: Color) -> Side {
    match color {
        Color::Black => Side::Black,
        Color::White => Side::White,
    }
}

/// The board after each placement of a stored game.
pub fn replay(
    start_obf: &str,
    moves: &str,
    times: &[Option<i64>],
) -> Option<(Vec<i8>, Vec<GamePly>)> {
    let mut position = Position::from_obf(start_obf).ok()?;
    let start = position.to_cells().to_vec();
    let squares = engine::parse_moves(moves).ok()?;
    let mut plies: Vec<GamePly> = Vec::with_capacity(squares.len());
    for (i, square) in squares.into_iter().enumerate() {
        if position.must_pass() && !position.is_game_over() {
            let passer = side_of(position.side_to_move);
            if let Some(last) = plies.last_mut() {
                last.pass_after = Some(passer);
            }
            position = position.pass().ok()?;
        }
        let side = side_of(position.side_to_move);
        let outcome = position.play(square).ok()?;
        position = outcome.position;
        plies.push(GamePly {
            side,
            square: square.index() as u8,
            cells: position.to_cells().to_vec(),
            flipped: outcome
                .flipped
                .into_iter()
                .map(|s| s.index() as u8)
                .collect(),
            time_ms: times.get(i).copied().flatten(),
            pass_after: None,
        });
    }
    if position.must_pass() && !position.is_game_over() {
        if let Some(last) = plies.last_mut() {
            last.pass_after = Some(side_of(position.side_to_move));
        }
    }
    Some((start, plies))
}

impl Archive {
    async fn player(&self, identity: &Identity) -> Result<PlayerView, CommandError> {
        Ok(match identity {
            Identity::Ai(depth) => PlayerView {
                name: None,
                ai_depth: Some(*depth),
                deleted: false,
            },
            Identity::Account(id) => {
                let name = self.store.account_name(*id).await.map_err(unavailable)?;
                PlayerView {
                    deleted: name.is_none(),
                    name,
                    ai_depth: None,
                }
            }
            Identity::Browser(_) => PlayerView {
                name: None,
                ai_depth: None,
                deleted: false,
            },
        })
    }

    fn you(row: &ArchivedRow, session: &Session) -> Vec<Side> {
        let me = Identity::of(session);
        let mut you = Vec::new();
        if row.black() == me {
            you.push(Side::Black);
        }
        if row.white() == me {
            you.push(Side::White);
        }
        you
    }

    async fn summary(
        &self,
        row: &ArchivedRow,
        session: &Session,
    ) -> Result<GameSummary, CommandError> {
        Ok(GameSummary {
            id: GameId::new(row.id.clone()),
            mode: row.mode.mode().unwrap_or(TableMode::HotSeat),
            black: self.player(&row.black()).await?,
            white: self.player(&row.white()).await?,
            winner: winner(row.winner.as_deref()),
            reason: reason(&row.reason),
            black_discs: u8::try_from(row.black_discs).unwrap_or(0),
            white_discs: u8::try_from(row.white_discs).unwrap_or(0),
            ended_at: row.ended_at,
            moves: (row.moves.len() / 2) as u32,
            you: Archive::you(row, session),
        })
    }

    /// A synchro pair's other game and sum, seen from `row` (the pair is the
    /// first game of both tables; a rematch after it is a game of its own).
    async fn synchro(
        &self,
        row: &ArchivedRow,
    ) -> Result<Option<app::archive::SynchroView>, CommandError> {
        if row.round != 1 {
            return Ok(None);
        }
        let Some((first, second)) = self
            .store
            .synchro_pair(&row.table_id)
            .await
            .map_err(unavailable)?
        else {
            return Ok(None);
        };
        let other_table = if row.table_id == first { second } else { first };
        let other = self
            .store
            .archived_game_at(&other_table, 1)
            .await
            .map_err(unavailable)?;
        // Colours are swapped there: this game's black played white.
        let discs = |n: i64| n.clamp(0, 64) as u32;
        Ok(Some(app::archive::SynchroView {
            other_table: app::protocol::TableId::new(other_table),
            sums: other.as_ref().map(|other| {
                [
                    discs(row.black_discs) + discs(other.white_discs),
                    discs(row.white_discs) + discs(other.black_discs),
                ]
            }),
            other_game: other.map(|other| GameId::new(other.id)),
        }))
    }

    /// A stored game by id (404 for an unknown or malformed one).
    async fn row(&self, id: &GameId) -> Result<ArchivedRow, CommandError> {
        let missing = || CommandError::not_found(app::msg!("srv-no-game"));
        if id.as_str().len() > 64 || !id.as_str().bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(missing());
        }
        self.store
            .archived_game(id.as_str())
            .await
            .map_err(unavailable)?
            .ok_or_else(missing)
    }

    /// An archived game by id, replayed.
    pub async fn game(&self, session: &Session, id: &GameId) -> Result<GameView, CommandError> {
        let row = self.row(id).await?;
        let times: Vec<Option<i64>> = serde_json::from_str(&row.times).unwrap_or_default();
        let (start, plies) = replay(&row.start_obf, &row.moves, &times)
            .ok_or_else(|| CommandError::internal(format!("archived game {id} does not replay")))?;
        let summary = self.summary(&row, session).await?;
        Ok(GameView {
            id: summary.id,
            mode: summary.mode,
            black: summary.black,
            white: summary.white,
            start,
            plies,
            winner: summary.winner,
            reason: summary.reason,
            black_discs: summary.black_discs,
            white_discs: summary.white_discs,
            ended_at: summary.ended_at,
            you: summary.you,
            ratings: match (
                row.black_before,
                row.black_after,
                row.white_before,
                row.white_after,
            ) {
                (Some(bb), Some(ba), Some(wb), Some(wa)) => Some([
                    (bb.round() as i32, ba.round() as i32),
                    (wb.round() as i32, wa.round() as i32),
                ]),
                _ => None,
            },
            synchro: self.synchro(&row).await?,
        })
    }

    /// A player's games matching `filter`, newest first, a page at a time.
    async fn filtered(
        &self,
        session: &Session,
        before: Option<i64>,
        mode: Option<ModeKind>,
        result: Option<&str>,
    ) -> Result<Vec<GameSummary>, CommandError> {
        let rows = self
            .store
            .archived_games_filtered(
                &Identity::of(session),
                before.unwrap_or(i64::MAX),
                PAGE,
                mode,
                result,
            )
            .await
            .map_err(unavailable)?;
        self.summaries(&rows, session).await
    }

    /// An account's latest `limit` games, newest first (as its owner sees
    /// them: `/bots` lists a bot's).
    pub async fn recent_of(
        &self,
        account: app::protocol::AccountId,
        limit: i64,
    ) -> Result<Vec<GameSummary>, CommandError> {
        let session = crate::identity::identity_of(account);
        let rows = self
            .store
            .archived_games_of(&Identity::of(&session), i64::MAX, limit)
            .await
            .map_err(unavailable)?;
        self.summaries(&rows, &session).await
    }

    /// Rows as `session` sees them in a list.
    async fn summaries(
        &self,
        rows: &[ArchivedRow],
        session: &Session,
    ) -> Result<Vec<GameSummary>, CommandError> {
        let mut games = Vec::with_capacity(rows.len());
        for row in rows {
            games.push(self.summary(row, session).await?);
        }
        Ok(games)
    }

    /// The caller's games, newest first, a page at a time.
    pub async fn games_of(
        &self,
        session: &Session,
        before: Option<i64>,
    ) -> Result<Vec<GameSummary>, CommandError> {
        let rows = self
            .store
            .archived_games_of(&Identity::of(session), before.unwrap_or(i64::MAX), PAGE)
            .await
            .map_err(unavailable)?;
        self.summaries(&rows, session).await
    }
}

impl Archive {
    /// An archived game as one GGF record (the format Othello programs
    /// read); names as shown on its page.
    pub async fn ggf(&self, id: &GameId) -> Result<String, CommandError> {
        let row = self.row(id).await?;
        self.ggf_of(&row).await
    }

    /// An archived game as text (`/game/<id>/export.txt`), in `lang`, with
    /// its GGF record at the end.
    pub async fn text(&self, id: &GameId, lang: app::i18n::Lang) -> Result<String, CommandError> {
        let row = self.row(id).await?;
        let summary = self.summary(&row, &Session::new(String::new())).await?;
        let broken = |e: String| CommandError::internal(format!("archived game {id}: {e}"));
        let start = Position::from_obf(&row.start_obf).map_err(|e| broken(e.to_string()))?;
        let moves = engine::parse_moves(&row.moves).map_err(|e| broken(e.to_string()))?;
        let game = engine::Game::replay_from(start, &moves).map_err(|e| broken(e.to_string()))?;
        let times: Vec<Option<i64>> = serde_json::from_str(&row.times).unwrap_or_default();
        let outcome = crate::table::Outcome {
            winner: summary.winner,
            reason: summary.reason,
        };
        let mut text = crate::export::archived_text(
            lang,
            id.as_str(),
            summary.mode,
            (&shown_name(&summary.black), &shown_name(&summary.white)),
            &game,
            outcome,
            &times,
        );
        text.push('\n');
        text.push_str(&self.ggf_of(&row).await?);
        text.push('\n');
        Ok(text)
    }

    /// A stored game as one GGF record.
    async fn ggf_of(&self, row: &ArchivedRow) -> Result<String, CommandError> {
        let summary = self.summary(row, &Session::new(String::new())).await?;
        let id = &row.id;
        let broken = |e: String| CommandError::internal(format!("archived game {id}: {e}"));
        let start = Position::from_obf(&row.start_obf).map_err(|e| broken(e.to_string()))?;
        let moves = engine::parse_moves(&row.moves).map_err(|e| broken(e.to_string()))?;
        let game = engine::Game::replay_from(start, &moves).map_err(|e| broken(e.to_string()))?;
        // One game of a synchro pair: GGS's type `s8`, and the other game
        // (with the disc sum once both are over) in the game's comment.
        let (black, white) = (shown_name(&summary.black), shown_name(&summary.white));
        let pair = self.synchro(row).await?;
        let comment = pair.as_ref().map(|pair| {
            let other = pair.other_game.as_ref().map_or_else(
                || format!("table {}", pair.other_table),
                |game| format!("game {game}"),
            );
            match pair.sums {
                Some([b, w]) => format!(
                    "synchro pair with {other}, colours swapped; disc sum {black} {b} - {w} {white}"
                ),
                None => format!("synchro pair with {other}, colours swapped"),
            }
        });
        Ok(game.to_ggf(&engine::GgfInfo {
            place: "Othello 3D".into(),
            date: String::new(),
            black,
            white,
            time: String::new(),
            result: crate::export::ggf_result(summary.winner, summary.reason),
            kind: pair.is_some().then(|| "s8".to_string()),
            comment,
        }))
    }

    /// A player's public profile: their results and games, newest first,
    /// as `viewer` sees it (a private tournament is listed only to those
    /// who played in it).
    pub async fn profile(
        &self,
        viewer: &Session,
        name: &str,
        before: Option<i64>,
        filter: GameFilter,
    ) -> Result<app::archive::ProfileView, CommandError> {
        let refused = || CommandError::refused(app::msg!("srv-archive-filter"));
        let mode = match filter.mode.as_deref() {
            Some(name) => Some(ModeKind::from_name(name).ok_or_else(refused)?),
            None => None,
        };
        let result = filter.result.as_deref();
        if result.is_some_and(|r| !GameFilter::RESULTS.contains(&r)) {
            return Err(refused());
        }
        let account = self.player_named(name).await?;
        let identity = crate::accounts::identity_of(account.id);
        let (wins, losses, draws) = self
            .store
            .results_of(&Identity::Account(account.id))
            .await
            .map_err(unavailable)?;
        Ok(app::archive::ProfileView {
            name: account.name,
            member_since: account.created_at,
            wins,
            losses,
            draws,
            games: self.filtered(&identity, before, mode, result).await?,
            ratings: crate::ratings::pools(&self.store, account.id).await?,
            tournaments: self.tournaments_shown(account.id, viewer).await?,
            bot: self.store.is_bot(account.id).await.map_err(unavailable)?,
        })
    }

    /// The tournaments `account` finished, less the private ones `viewer`
    /// was not an entrant of: a private tournament's name, players and
    /// results are for its entrants.
    async fn tournaments_shown(
        &self,
        account: AccountId,
        viewer: &Session,
    ) -> Result<Vec<app::tournaments::TournamentResult>, CommandError> {
        let viewer = crate::accounts::account_of(viewer);
        let mut shown = Vec::new();
        for result in crate::tournaments::results_of(&self.store, account).await? {
            let visible = !result.summary.private
                || match viewer {
                    Some(viewer) => self
                        .store
                        .tournament_entrants(&result.summary.id)
                        .await
                        .map_err(unavailable)?
                        .iter()
                        .any(|entrant| entrant.account_id == viewer),
                    None => false,
                };
            if visible {
                shown.push(result);
            }
        }
        Ok(shown)
    }
}

/// The most games one export holds.
pub const EXPORT_MAX: usize = 10_000;

impl Archive {
    /// Every game `identity` played, newest first (at most [`EXPORT_MAX`]).
    async fn all_rows(&self, identity: &Identity) -> Result<Vec<ArchivedRow>, CommandError> {
        let mut rows: Vec<ArchivedRow> = Vec::new();
        let mut before = i64::MAX;
        loop {
            let page = self
                .store
                .archived_games_of(identity, before, 500)
                .await
                .map_err(unavailable)?;
            let Some(last) = page.last() else { break };
            before = last.ended_at;
            let full = page.len() == 500;
            rows.extend(page);
            if !full || rows.len() >= EXPORT_MAX {
                break;
            }
        }
        rows.truncate(EXPORT_MAX);
        Ok(rows)
    }

    /// A player's account by name (any case); 404 for nobody.
    pub async fn player_named(
        &self,
        name: &str,
    ) -> Result<crate::store::accounts::StoredAccount, CommandError> {
        let missing = || CommandError::not_found(app::msg!("srv-no-player"));
        if name.len() > 20 {
            return Err(missing());
        }
        self.store
            .account_by_key(&name.to_ascii_lowercase())
            .await
            .map_err(unavailable)?
            .ok_or_else(missing)
    }

    /// Every game of a player as one GGF file, oldest first.
    pub async fn ggf_of_player(&self, name: &str) -> Result<(String, String), CommandError> {
        let account = self.player_named(name).await?;
        let (identity, name) = (Identity::Account(account.id), account.name);
        let mut text = String::new();
        for row in self.all_rows(&identity).await?.iter().rev() {
            text.push_str(&self.ggf_of(row).await?);
            text.push('\n');
        }
        Ok((name, text))
    }

    /// Every game of a player from the usual start, as a WTHOR games file
    /// and its players file (games from another start position cannot be
    /// written in WTHOR and are left out).
    pub async fn wthor_of_player(
        &self,
        name: &str,
        now: i64,
    ) -> Result<(String, Vec<u8>, Vec<u8>), CommandError> {
        let account = self.player_named(name).await?;
        let (identity, name) = (Identity::Account(account.id), account.name);
        let initial = Position::initial().to_obf();
        let mut names: Vec<String> = Vec::new();
        let mut numbers: std::collections::HashMap<String, u16> = Default::default();
        let mut games = Vec::new();
        for row in self.all_rows(&identity).await?.iter().rev() {
            if row.start_obf != initial {
                continue;
            }
            let Ok(moves) = engine::parse_moves(&row.moves) else {
                continue;
            };
            let mut number = |player: &PlayerView| {
                let shown = shown_name(player);
                let next = u16::try_from(names.len()).unwrap_or(u16::MAX);
                *numbers.entry(shown.clone()).or_insert_with(|| {
                    names.push(shown);
                    next
                })
            };
            let black = self.player(&row.black()).await?;
            let white = self.player(&row.white()).await?;
            games.push(crate::wthor::WthorGame {
                black: number(&black),
                white: number(&white),
                black_discs: crate::wthor::black_discs(
                    winner(row.winner.as_deref()),
                    reason(&row.reason),
                    u8::try_from(row.black_discs).unwrap_or(0),
                    u8::try_from(row.white_discs).unwrap_or(0),
                ),
                moves,
            });
        }
        let year = u16::try_from(crate::wthor::civil_date(now).0).unwrap_or(0);
        Ok((
            name,
            crate::wthor::games_file(now, year, &games),
            crate::wthor::players_file(now, &names),
        ))
    }

    /// What the archive holds of a signed-in player, as one JSON document:
    /// their profile, ratings and every game with its moves.
    pub async fn data_of(&self, session: &Session) -> Result<serde_json::Value, CommandError> {
        let Some(account) = crate::accounts::account_of(session) else {
            return Err(CommandError::refused(app::msg!("srv-download-sign-in")));
        };
        let stored = self
            .store
            .account_by_id(account)
            .await
            .map_err(unavailable)?
            .ok_or_else(|| CommandError::refused(app::msg!("srv-not-signed-in")))?;
        let ratings = crate::ratings::pools(&self.store, account).await?;
        let mut games = Vec::new();
        for row in self.all_rows(&Identity::of(session)).await? {
            let black = shown_name(&self.player(&row.black()).await?);
            let white = shown_name(&self.player(&row.white()).await?);
            games.push(serde_json::json!({
                "id": row.id,
                "mode": row.mode.mode().map(|mode| serde_json::to_value(mode).unwrap_or_default()),
                "black": black,
                "white": white,
                "you": Archive::you(&row, session),
                "start": row.start_obf,
                "moves": row.moves,
                "times_ms": serde_json::from_str::<serde_json::Value>(&row.times).unwrap_or_default(),
                "winner": row.winner,
                "reason": row.reason,
                "black_discs": row.black_discs,
                "white_discs": row.white_discs,
                "ended_at": row.ended_at,
            }));
        }
        Ok(serde_json::json!({
            "name": stored.name,
            "member_since": stored.created_at,
            "ratings": ratings,
            "games": games,
        }))
    }
}

/// A player's name as exports write it.
fn shown_name(player: &PlayerView) -> String {
    match (&player.name, player.ai_depth) {
        (Some(name), _) => name.clone(),
        (None, Some(depth)) => format!("Othello 3D AI depth {depth}"),
        (None, None) if player.deleted => "deleted player".to_string(),
        (None, None) => "anonymous".to_string(),
    }
}

#[async_trait::async_trait]
impl app::archive::backend::ArchiveBackend for Archive {
    async fn profile(
        &self,
        viewer: &Session,
        name: &str,
        before: Option<i64>,
        filter: GameFilter,
    ) -> Result<app::archive::ProfileView, CommandError> {
        Archive::profile(self, viewer, name, before, filter).await
    }

    async fn game(&self, session: &Session, id: &GameId) -> Result<GameView, CommandError> {
        Archive::game(self, session, id).await
    }

    async fn games_of(
        &self,
        session: &Session,
        before: Option<i64>,
    ) -> Result<Vec<GameSummary>, CommandError> {
        Archive::games_of(self, session, before).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_game_replays_with_its_flips_and_passes() {
        let start = Position::initial().to_obf();
        let (cells, plies) = replay(&start, "f5d6c3", &[Some(1200), None]).expect("replays");
        assert_eq!(cells.iter().filter(|&&c| c != 0).count(), 4);
        assert_eq!(plies.len(), 3);
        assert_eq!(plies[0].side, Side::Black);
        assert_eq!(plies[0].square, 37);
        assert_eq!(plies[0].flipped, vec![36], "f5 flips e5");
        assert_eq!(plies[0].time_ms, Some(1200));
        assert_eq!(plies[1].side, Side::White);
        assert_eq!(plies[2].time_ms, None);
        assert_eq!(plies[2].cells.iter().filter(|&&c| c != 0).count(), 7);
        assert!(
            replay(&start, "a1", &[]).is_none(),
            "an illegal move does not replay"
        );
        assert!(replay("nonsense", "", &[]).is_none());
    }
}
