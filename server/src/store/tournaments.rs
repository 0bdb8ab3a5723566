//! The store's tournament queries (`migrations/0020_tournaments.sql`, on
//! PostgreSQL `migrations/postgres/0010_tournaments.sql`), written once with
//! `$n` parameters for both databases.
//!
//! A round is paired once: its pairings are written in the transaction
//! that moves the tournament from the round before to it, and that move is
//! conditional on the round before (`WHERE round = $n`), so two instances
//! pairing the same round at once write one round, the other's transaction
//! changes nothing and is rolled back.

pub use super::tournament_rows::{
    CurrentGame, EndedGame, EntrantRow, GameRow, NewGame, NewTournament, TournamentRow,
    TournamentStamp,
};
use super::tournament_rows::{CurrentRow, RawEnded, RawGame, RawTournament};
use super::{on_db, Dialect, Store, StoreError};
use app::protocol::{AccountId, GameId, TableId, TournamentId};
use app::tournaments::EarlyEnd;

const SELECT: &str = "SELECT t.id, t.kind, t.name, t.creator, a.name AS creator_name, t.base_ms, \
    t.increment_ms, t.rated, t.private, t.rounds, t.multiplier, t.starts_at, t.ends_at, t.status, t.round, \
    t.created_at, t.finished_at, \
    (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament_id = t.id AND p.withdrawn = 0) AS players, \
    t.bq_rule, t.ended_early, t.bots \
    FROM tournaments t LEFT JOIN accounts a ON a.id = t.creator";

impl Store {
    /// Writes a new tournament.
    pub async fn create_tournament(&self, new: &NewTournament<'_>) -> Result<(), StoreError> {
        const INSERT: &str = "INSERT INTO tournaments (id, kind, name, creator, address, base_ms, \
            increment_ms, rated, private, rounds, multiplier, starts_at, status, round, created_at, \
            ends_at, bots) \
            VALUES ($1, $13, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'open', 0, $12, $14, $15)";
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(INSERT))
                .bind(new.id.as_str())
                .bind(new.name)
                .bind(new.creator.map(AccountId::get))
                .bind(new.address)
                .bind(new.base_ms)
                .bind(new.increment_ms)
                .bind(i64::from(new.rated))
                .bind(i64::from(new.private))
                .bind(new.rounds)
                .bind(new.multiplier)
                .bind(new.starts_at)
                .bind(new.now)
                .bind(new.kind.key())
                .bind(new.ends_at)
                .bind(i64::from(new.bots))
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// How many tournaments an account, and an address, created since `since`.
    pub async fn tournaments_created(
        &self,
        creator: AccountId,
        address: Option<&str>,
        since: i64,
    ) -> Result<(i64, i64), StoreError> {
        const COUNT: &str = "SELECT \
            (SELECT COUNT(*) FROM tournaments WHERE creator = $1 AND created_at >= $3), \
            (SELECT COUNT(*) FROM tournaments WHERE address = $2 AND created_at >= $3)";
        let counts = on_db!(self.db(), |pool| {
            sqlx::query_as::<_, (i64, i64)>(&pool.sql(COUNT))
                .bind(creator.get())
                .bind(address)
                .bind(since)
                .fetch_one(pool)
                .await?
        });
        Ok(counts)
    }

    /// A tournament by id.
    pub async fn tournament(&self, id: &TournamentId) -> Result<Option<TournamentRow>, StoreError> {
        let query = format!("{SELECT} WHERE t.id = $1");
        let row = on_db!(self.db(), |pool| {
            sqlx::query_as::<_, RawTournament>(&pool.sql(&query))
                .bind(id.as_str())
                .fetch_optional(pool)
                .await?
        });
        Ok(row.map(TournamentRow::from))
    }

    /// The public tournaments to list: every one not finished, and those
    /// finished since `since`, soonest first.
    pub async fn listed_tournaments(
        &self,
        since: i64,
        limit: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let query = format!(
            "{SELECT} WHERE t.private = 0 AND (t.status <> 'finished' OR (t.finished_at >= $1 AND t.round > 0)) \
             ORDER BY CASE t.status WHEN 'running' THEN 0 WHEN 'open' THEN 1 ELSE 2 END, \
             t.starts_at, t.id LIMIT $2"
        );
        let rows = on_db!(self.db(), |pool| {
            sqlx::query_as::<_, RawTournament>(&pool.sql(&query))
                .bind(since)
                .bind(limit)
                .fetch_all(pool)
                .await?
        });
        Ok(rows.into_iter().map(TournamentRow::from).collect())
    }

    /// The tournaments an account played (finished), latest first.
    pub async fn tournaments_of(
        &self,
        account: AccountId,
        limit: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let query = format!(
            "{SELECT} WHERE t.status = 'finished' AND t.round > 0 AND EXISTS \
             (SELECT 1 FROM tournament_players p WHERE p.tournament_id = t.id AND p.account_id = $1) \
             ORDER BY t.finished_at DESC, t.id LIMIT $2"
        );
        let rows = on_db!(self.db(), |pool| {
            sqlx::query_as::<_, RawTournament>(&pool.sql(&query))
                .bind(account.get())
                .bind(limit)
                .fetch_all(pool)
                .await?
        });
        Ok(rows.into_iter().map(TournamentRow::from).collect())
    }

    /// The tournaments the director must look at: running ones, and open
    /// ones whose start is due.
    pub async fn active_tournaments(&self, now: i64) -> Result<Vec<TournamentRow>, StoreError> {
        let query = format!(
            "{SELECT} WHERE t.status = 'running' OR (t.status = 'open' AND t.starts_at <= $1) \
             ORDER BY t.starts_at, t.id"
        );
        let rows = on_db!(self.db(), |pool| {
            sqlx::query_as::<_, RawTournament>(&pool.sql(&query))
                .bind(now)
                .fetch_all(pool)
                .await?
        });
        Ok(rows.into_iter().map(TournamentRow::from).collect())
    }

    /// A tournament's players, withdrawn ones included, by join order.
    pub async fn tournament_entrants(
        &self,
        id: &TournamentId,
    ) -> Result<Vec<EntrantRow>, StoreError> {
        const QUERY: &str = "SELECT p.account_id, a.name, p.rating, p.withdrawn \
            FROM tournament_players p JOIN accounts a ON a.id = p.account_id \
            WHERE p.tournament_id = $1 ORDER BY p.joined_at, p.account_id";
        let rows = on_db!(self.db(), |pool| {
            sqlx::query_as::<_, EntrantRow>(&pool.sql(QUERY))
                .bind(id.as_str())
                .fetch_all(pool)
                .await?
        });
        Ok(rows)
    }

    /// A tournament's games and byes, by round.
    pub async fn tournament_games(&self, id: &TournamentId) -> Result<Vec<GameRow>, StoreError> {
        const QUERY: &str = "SELECT round, black, white, table_id, black_points, white_points, \
            black_discs, white_discs, black_berserk, white_berserk, \
            EXISTS (SELECT 1 FROM tables s WHERE s.id = g.table_id) AS seated \
            FROM tournament_games g WHERE tournament_id = $1 \
            ORDER BY round, black";
        let rows = on_db!(self.db(), |pool| {
            sqlx::query_as::<_, RawGame>(&pool.sql(QUERY))
                .bind(id.as_str())
                .fetch_all(pool)
                .await?
        });
        Ok(rows.into_iter().map(GameRow::from).collect())
    }

    /// Joins an open tournament (again, after leaving it); false when it
    /// is not open.
    pub async fn join_tournament(
        &self,
        id: &TournamentId,
        account: AccountId,
        rating: f64,
        now: i64,
    ) -> Result<bool, StoreError> {
        const JOIN: &str = "INSERT INTO tournament_players (tournament_id, account_id, rating, withdrawn, joined_at) \
            SELECT $1, $2, $3, 0, $4 WHERE EXISTS \
            (SELECT 1 FROM tournaments WHERE id = $1 AND (status = 'open' \
             OR (kind = 'arena' AND status = 'running' AND ends_at > $4))) \
            ON CONFLICT (tournament_id, account_id) DO UPDATE SET withdrawn = 0, rating = $3";
        let done = on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(JOIN))
                .bind(id.as_str())
                .bind(account.get())
                .bind(rating)
                .bind(now)
                .execute(pool)
                .await?
                .rows_affected()
        });
        Ok(done > 0)
    }

    /// Leaves a tournament: before it starts the entry is removed, once it
    /// runs the player is withdrawn (their games stay). False when they
    /// were not in it.
    pub async fn leave_tournament(
        &self,
        id: &TournamentId,
        account: AccountId,
    ) -> Result<bool, StoreError> {
        const REMOVE: &str = "DELETE FROM tournament_players WHERE tournament_id = $1 \
            AND account_id = $2 AND EXISTS (SELECT 1 FROM tournaments WHERE id = $1 AND status = 'open')";
        const WITHDRAW: &str = "UPDATE tournament_players SET withdrawn = 1 \
            WHERE tournament_id = $1 AND account_id = $2 AND withdrawn = 0";
        let done = on_db!(self.db(), |pool| {
            let removed = sqlx::query(&pool.sql(REMOVE))
                .bind(id.as_str())
                .bind(account.get())
                .execute(pool)
                .await?
                .rows_affected();
            if removed > 0 {
                removed
            } else {
                sqlx::query(&pool.sql(WITHDRAW))
                    .bind(id.as_str())
                    .bind(account.get())
                    .execute(pool)
                    .await?
                    .rows_affected()
            }
        });
        Ok(done > 0)
    }

    /// Moves a tournament from round `from` to `from + 1` with that round's
    /// games (a bye scored at once); false, writing nothing, when it is no
    /// longer at round `from` (paired meanwhile by another instance).
    pub async fn pair_round(
        &self,
        id: &TournamentId,
        from: i64,
        games: &[NewGame],
        bye: (i64, i64, i64, i64),
    ) -> Result<bool, StoreError> {
        const ADVANCE: &str = "UPDATE tournaments SET round = $2 + 1, status = 'running' \
            WHERE id = $1 AND round = $2 AND status <> 'finished'";
        const GAME: &str = "INSERT INTO tournament_games (tournament_id, round, black, white, table_id, \
            black_points, white_points, black_discs, white_discs) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
        let paired = on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            let moved = sqlx::query(&pool.sql(ADVANCE))
                .bind(id.as_str())
                .bind(from)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if moved == 1 {
                for game in games {
                    let scored = game.white.is_none();
                    sqlx::query(&pool.sql(GAME))
                        .bind(id.as_str())
                        .bind(from + 1)
                        .bind(game.black.get())
                        .bind(game.white.map(AccountId::get))
                        .bind(game.table_id.as_ref().map(|t| t.as_str()))
                        .bind(scored.then_some(bye.0))
                        .bind(scored.then_some(bye.1))
                        .bind(scored.then_some(bye.2))
                        .bind(scored.then_some(bye.3))
                        .execute(&mut *tx)
                        .await?;
                }
                tx.commit().await?;
                true
            } else {
                tx.rollback().await?;
                false
            }
        });
        Ok(paired)
    }

    /// The tournament's unscored games whose table has finished its first
    /// round (the archive holds how it ended).
    pub async fn ended_tournament_games(
        &self,
        id: &TournamentId,
    ) -> Result<Vec<EndedGame>, StoreError> {
        const QUERY: &str =
            "SELECT g.round, g.black, g.white, a.winner, a.reason, a.black_discs, a.white_discs, \
            a.id AS game_id, \
            (SELECT COUNT(*) FROM moves m WHERE m.table_id = g.table_id AND m.kind = 'berserk' \
             AND m.side = 'black') AS black_berserk, \
            (SELECT COUNT(*) FROM moves m WHERE m.table_id = g.table_id AND m.kind = 'berserk' \
             AND m.side = 'white') AS white_berserk, \
            (SELECT COUNT(*) FROM moves m WHERE m.table_id = g.table_id AND m.kind = 'place' \
             AND m.side = 'black') AS black_moves, \
            (SELECT COUNT(*) FROM moves m WHERE m.table_id = g.table_id AND m.kind = 'place' \
             AND m.side = 'white') AS white_moves \
            FROM tournament_games g \
            JOIN archived_games a ON a.table_id = g.table_id AND a.round = 1 \
            WHERE g.tournament_id = $1 AND g.black_points IS NULL";
        let rows = on_db!(self.db(), |pool| {
            sqlx::query_as::<_, RawEnded>(&pool.sql(QUERY))
                .bind(id.as_str())
                .fetch_all(pool)
                .await?
        });
        Ok(rows.into_iter().map(EndedGame::from).collect())
    }

    /// Scores one game (once: a scored game is never rescored).
    pub async fn score_tournament_game(
        &self,
        id: &TournamentId,
        round: i64,
        black: AccountId,
        score: (i64, i64, i64, i64),
        berserk: (i64, i64),
    ) -> Result<(), StoreError> {
        const SCORE: &str = "UPDATE tournament_games SET black_points = $4, white_points = $5, \
            black_discs = $6, white_discs = $7, black_berserk = $8, white_berserk = $9 \
            WHERE tournament_id = $1 AND round = $2 AND black = $3 AND black_points IS NULL";
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(SCORE))
                .bind(id.as_str())
                .bind(round)
                .bind(black.get())
                .bind(score.0)
                .bind(score.1)
                .bind(score.2)
                .bind(score.3)
                .bind(berserk.0)
                .bind(berserk.1)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// An arena whose start is due begins (its pairings come batch by
    /// batch).
    pub async fn start_arena(&self, id: &TournamentId) -> Result<(), StoreError> {
        const START: &str =
            "UPDATE tournaments SET status = 'running' WHERE id = $1 AND status = 'open'";
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(START))
                .bind(id.as_str())
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Moves an open tournament's start to `at`.
    pub async fn start_tournament_at(&self, id: &TournamentId, at: i64) -> Result<(), StoreError> {
        const START: &str =
            "UPDATE tournaments SET starts_at = $2 WHERE id = $1 AND status = 'open' AND starts_at > $2";
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(START))
                .bind(id.as_str())
                .bind(at)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Ends a tournament (once); `early`: why a Swiss ended before its
    /// last round.
    pub async fn finish_tournament(
        &self,
        id: &TournamentId,
        now: i64,
        early: Option<EarlyEnd>,
    ) -> Result<(), StoreError> {
        const FINISH: &str = "UPDATE tournaments SET status = 'finished', finished_at = $2, \
            ended_early = $3 WHERE id = $1 AND status <> 'finished'";
        on_db!(self.db(), |pool| {
            sqlx::query(&pool.sql(FINISH))
                .bind(id.as_str())
                .bind(now)
                .bind(early.map(EarlyEnd::key))
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// The pairs of a tournament's players (not withdrawn) that share an
    /// address or browser seen since `since` (the fair-play links, as
    /// [`Store::linked`] reads them for two accounts), each pair once,
    /// the smaller id first.
    pub async fn linked_tournament_pairs(
        &self,
        id: &TournamentId,
        since: i64,
    ) -> Result<Vec<(AccountId, AccountId)>, StoreError> {
        const QUERY: &str = "SELECT DISTINCT p.account_id, q.account_id \
            FROM tournament_players p \
            JOIN tournament_players q ON q.tournament_id = p.tournament_id \
             AND q.account_id > p.account_id AND q.withdrawn = 0 \
            JOIN account_links x ON x.account_id = p.account_id AND x.seen_at >= $2 \
            JOIN account_links y ON y.account_id = q.account_id AND y.link = x.link \
             AND y.seen_at >= $2 \
            WHERE p.tournament_id = $1 AND p.withdrawn = 0";
        let rows = on_db!(self.db(), |pool| {
            sqlx::query_as::<_, (i64, i64)>(&pool.sql(QUERY))
                .bind(id.as_str())
                .bind(since)
                .fetch_all(pool)
                .await?
        });
        Ok(rows
            .into_iter()
            .map(|(a, b)| (AccountId::new(a), AccountId::new(b)))
            .collect())
    }

    /// A tournament's players (not withdrawn) marked as rating abusers.
    pub async fn marked_tournament_players(
        &self,
        id: &TournamentId,
    ) -> Result<Vec<AccountId>, StoreError> {
        const QUERY: &str = "SELECT p.account_id FROM tournament_players p \
            JOIN accounts a ON a.id = p.account_id \
            WHERE p.tournament_id = $1 AND p.withdrawn = 0 AND a.abuser_at IS NOT NULL";
        let rows = on_db!(self.db(), |pool| {
            sqlx::query_scalar::<_, i64>(&pool.sql(QUERY))
                .bind(id.as_str())
                .fetch_all(pool)
                .await?
        });
        Ok(rows.into_iter().map(AccountId::new).collect())
    }

    /// Takes an account out of every rated tournament not over: removed
    /// from the open ones, withdrawn from the running ones (their games
    /// stay). Returns how many it left. (An operator marked it as a rating
    /// abuser.)
    pub async fn leave_rated_tournaments(&self, account: AccountId) -> Result<u64, StoreError> {
        const REMOVE: &str = "DELETE FROM tournament_players WHERE account_id = $1 \
            AND tournament_id IN (SELECT id FROM tournaments WHERE rated <> 0 AND status = 'open')";
        const WITHDRAW: &str = "UPDATE tournament_players SET withdrawn = 1 \
            WHERE account_id = $1 AND withdrawn = 0 \
            AND tournament_id IN (SELECT id FROM tournaments WHERE rated <> 0 AND status = 'running')";
        let left = on_db!(self.db(), |pool| {
            let mut tx = pool.begin().await?;
            let removed = sqlx::query(&pool.sql(REMOVE))
                .bind(account.get())
                .execute(&mut *tx)
                .await?
                .rows_affected();
            let withdrawn = sqlx::query(&pool.sql(WITHDRAW))
                .bind(account.get())
                .execute(&mut *tx)
                .await?
                .rows_affected();
            tx.commit().await?;
            removed + withdrawn
        });
        Ok(left)
    }

    /// Whether the table `id` exists.
    pub async fn table_exists(&self, id: &TableId) -> Result<bool, StoreError> {
        const QUERY: &str = "SELECT COUNT(*) FROM tables WHERE id = $1";
        let n = on_db!(self.db(), |pool| {
            sqlx::query_scalar::<_, i64>(&pool.sql(QUERY))
                .bind(id.as_str())
                .fetch_one(pool)
                .await?
        });
        Ok(n > 0)
    }

    /// Each game of a tournament whose table's round was archived: its
    /// round and black player, and the archived game's id.
    pub async fn archived_tournament_games(
        &self,
        id: &TournamentId,
    ) -> Result<Vec<((i64, AccountId), GameId)>, StoreError> {
        const QUERY: &str = "SELECT g.round, g.black, a.id FROM tournament_games g \
            JOIN archived_games a ON a.table_id = g.table_id AND a.round = 1 \
            WHERE g.tournament_id = $1";
        let rows = on_db!(self.db(), |pool| {
            sqlx::query_as::<_, (i64, i64, String)>(&pool.sql(QUERY))
                .bind(id.as_str())
                .fetch_all(pool)
                .await?
        });
        Ok(rows
            .into_iter()
            .map(|(r, b, g)| ((r, AccountId::new(b)), GameId::new(g)))
            .collect())
    }

    /// What a tournament's page is built from, in a few numbers: its
    /// status, round, times, entrants (all, active), games, scored games and
    /// games whose table exists.
    /// Equal stamps mean an equal page (a rating moves only with a scored
    /// game), so the page is rebuilt only when the stamp changes.
    pub async fn tournament_stamp(
        &self,
        id: &TournamentId,
    ) -> Result<Option<TournamentStamp>, StoreError> {
        const QUERY: &str = "SELECT t.status, t.round, t.starts_at, t.ends_at, t.finished_at, \
            (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament_id = t.id), \
            (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament_id = t.id AND p.withdrawn = 0), \
            (SELECT COUNT(*) FROM tournament_games g WHERE g.tournament_id = t.id), \
            (SELECT COUNT(g.black_points) FROM tournament_games g WHERE g.tournament_id = t.id), \
            (SELECT COUNT(*) FROM tournament_games g JOIN tables s ON s.id = g.table_id \
             WHERE g.tournament_id = t.id) \
            FROM tournaments t WHERE t.id = $1";
        let stamp = on_db!(self.db(), |pool| {
            sqlx::query_as::<_, TournamentStamp>(&pool.sql(QUERY))
                .bind(id.as_str())
                .fetch_optional(pool)
                .await?
        });
        Ok(stamp)
    }

    /// Whether `account` is in a tournament not over (joined, not
    /// withdrawn), and its game being played there, if any: a table that exists and whose
    /// round is not archived yet (tournament id and name, round, table id,
    /// opponent's name).
    pub async fn current_tournament_game(
        &self,
        account: AccountId,
    ) -> Result<(bool, Option<CurrentGame>), StoreError> {
        const QUERY: &str = "SELECT t.id, t.name, t.kind, t.base_ms, t.increment_ms, g.round, g.table_id, o.name \
            FROM tournament_players p \
            JOIN tournaments t ON t.id = p.tournament_id AND t.status IN ('open', 'running') \
            LEFT JOIN tournament_games g ON g.tournament_id = t.id \
             AND (g.black = p.account_id OR g.white = p.account_id) AND g.white IS NOT NULL \
             AND g.black_points IS NULL \
             AND EXISTS (SELECT 1 FROM tables s WHERE s.id = g.table_id) \
             AND NOT EXISTS (SELECT 1 FROM archived_games a WHERE a.table_id = g.table_id AND a.round = 1) \
            LEFT JOIN accounts o ON o.id = CASE WHEN g.black = p.account_id THEN g.white ELSE g.black END \
            WHERE p.account_id = $1 AND p.withdrawn = 0 \
            ORDER BY g.table_id IS NULL, g.round DESC";
        let rows = on_db!(self.db(), |pool| {
            sqlx::query_as::<_, CurrentRow>(&pool.sql(QUERY))
                .bind(account.get())
                .fetch_all(pool)
                .await?
        });
        let playing = !rows.is_empty();
        let game = rows.into_iter().find_map(
            |(id, name, kind, base_ms, increment_ms, round, table, other)| {
                Some(CurrentGame {
                    tournament: TournamentId::new(id),
                    name,
                    arena: kind == "arena",
                    control: app::protocol::TimeControl {
                        base_s: u32::try_from(base_ms / 1000).unwrap_or(0),
                        increment_s: u32::try_from(increment_ms / 1000).unwrap_or(0),
                    },
                    round: round?,
                    table: TableId::new(table?),
                    opponent: other.unwrap_or_default(),
                })
            },
        );
        Ok((playing, game))
    }

    /// The tournament a table's game belongs to, if any.
    pub async fn tournament_of_table(
        &self,
        table_id: &TableId,
    ) -> Result<Option<TournamentId>, StoreError> {
        const QUERY: &str = "SELECT tournament_id FROM tournament_games WHERE table_id = $1";
        let id = on_db!(self.db(), |pool| {
            sqlx::query_scalar::<_, String>(&pool.sql(QUERY))
                .bind(table_id.as_str())
                .fetch_optional(pool)
                .await?
        });
        Ok(id.map(TournamentId::new))
    }
}
