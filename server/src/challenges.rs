//! Challenges (docs/PRODUCT.md, Challenges) as the pages'
//! [`ChallengeBackend`]: a signed-in player challenges another by name; the
//! challenged player accepts (a table is made with both seated) or
//! declines; it expires. Everything is in the store (`store/challenges.rs`),
//! so any instance answers; an answer is written once (conditional on the
//! challenge being open), before the table is made.
//!
//! [`ChallengeBackend`]: app::challenges::backend::ChallengeBackend

use crate::hub::Hub;
use crate::store::challenges::{ChallengeRow, NewChallengeRow};
use crate::store::{Store, StoreError};
use app::api::backend::Caller;
use app::api::CommandError;
use app::challenges::{
    ChallengeLists, ChallengeStatus, ChallengeView, Colour, NewChallenge, TournamentGame,
    EXPIRES_AFTER_MS,
};
use app::protocol::{AccountId, TableId, TimeControl};
use rand::Rng;

/// Open challenges one account may have sent at once, and one address.
pub const OPEN_PER_ACCOUNT: i64 = 3;
pub const OPEN_PER_ADDRESS: i64 = 10;

/// How long an answered or expired challenge stays in the lists (ms).
const SHOWN_AFTER_MS: i64 = 10 * 60_000;

#[derive(Clone)]
pub struct Challenges {
    store: Store,
    hub: Hub,
}

fn unavailable(error: StoreError) -> CommandError {
    tracing::error!("challenge store: {error}");
    CommandError::unavailable(app::msg!("srv-challenges-unavailable"))
}

/// A tournament's name in a message: a player's as written, the
/// schedule's (`@daily`, `@hourly`) by key, in the reader's language.
fn event_name(name: &str, arena: bool, control: TimeControl) -> app::i18n::MsgArg {
    let kind = if arena {
        app::tournaments::Kind::Arena
    } else {
        app::tournaments::Kind::Swiss
    };
    app::tournaments::scheduled_name(name, kind, control).map_or_else(|| name.into(), Into::into)
}

fn signed_in(caller: &Caller) -> Result<AccountId, CommandError> {
    crate::identity::account_of(&caller.session)
        .ok_or_else(|| CommandError::refused(app::msg!("srv-challenge-sign-in")))
}

fn control_of(row: &ChallengeRow) -> TimeControl {
    TimeControl {
        base_s: (row.base_ms / 1000).clamp(0, u32::MAX as i64) as u32,
        increment_s: (row.increment_ms / 1000).clamp(0, u32::MAX as i64) as u32,
    }
}

impl Challenges {
    pub fn new(store: Store, hub: Hub) -> Challenges {
        Challenges { store, hub }
    }

    async fn view(&self, row: &ChallengeRow, me: AccountId, now: i64) -> ChallengeView {
        let status = match row.status.as_str() {
            "open" if row.expires_at <= now => ChallengeStatus::Expired,
            "open" => ChallengeStatus::Open,
            "accepted" => ChallengeStatus::Accepted,
            "declined" => ChallengeStatus::Declined,
            _ => ChallengeStatus::Cancelled,
        };
        let linked = self.hub.linked(row.challenger, row.challenged).await;
        ChallengeView {
            id: row.id.clone(),
            other: if row.challenger == me {
                row.challenged_name.clone()
            } else {
                row.challenger_name.clone()
            },
            control: control_of(row),
            colour: Colour::parse(&row.colour).unwrap_or(Colour::Random),
            rated: row.rated != 0 && crate::rating_gate::may_meet_rated(linked, false),
            linked,
            status,
            table: row.table_id.clone().map(TableId::new),
            expires_at: row.expires_at,
            answered_at: row.answered_at,
            random_start: row.random_start != 0,
            synchro: row.synchro != 0,
        }
    }

    /// Sends a challenge; its id.
    pub async fn challenge(
        &self,
        caller: &Caller,
        new: NewChallenge,
    ) -> Result<String, CommandError> {
        let me = signed_in(caller)?;
        if new.name.len() > 64 {
            return Err(CommandError::not_found(app::msg!("srv-no-player")));
        }
        let target = self
            .store
            .account_by_key(&new.name.trim().to_ascii_lowercase())
            .await
            .map_err(unavailable)?
            .ok_or_else(|| CommandError::not_found(app::msg!("srv-no-player")))?;
        if target.id == me {
            return Err(CommandError::refused(app::msg!("srv-challenge-self")));
        }
        self.hub.check_control(false, Some(new.control))?;
        let now = self.hub.now();
        let address = caller.address.map(|a| a.to_string());
        let (mine, here) = self
            .store
            .open_challenges_from(me, address.as_deref(), now)
            .await
            .map_err(unavailable)?;
        if mine >= OPEN_PER_ACCOUNT || (address.is_some() && here >= OPEN_PER_ADDRESS) {
            return Err(CommandError::limited(app::msg!(
                "srv-challenge-cap",
                count = OPEN_PER_ACCOUNT
            )));
        }
        let id = crate::hex::hex(&rand::random::<[u8; 8]>());
        self.store
            .create_challenge(&NewChallengeRow {
                id: &id,
                challenger: me,
                challenged: target.id,
                address: address.as_deref(),
                base_ms: i64::from(new.control.base_s) * 1000,
                increment_ms: i64::from(new.control.increment_s) * 1000,
                colour: new.colour.key(),
                rated: new.rated,
                now,
                expires_at: now + EXPIRES_AFTER_MS,
                random_start: new.random_start,
                synchro: new.synchro,
            })
            .await
            .map_err(unavailable)?;
        tracing::info!(challenge = %id, "challenge sent");
        Ok(id)
    }

    /// The caller's challenges: open ones sent to them, and the ones they
    /// sent in the last minutes (with their answer).
    pub async fn mine(&self, caller: &Caller) -> Result<ChallengeLists, CommandError> {
        let Some(me) = crate::identity::account_of(&caller.session) else {
            return Ok(ChallengeLists::default());
        };
        let now = self.hub.now();
        let rows = self
            .store
            .challenges_of(me, now - EXPIRES_AFTER_MS - SHOWN_AFTER_MS)
            .await
            .map_err(unavailable)?;
        let (in_tournament, game) = self
            .store
            .current_tournament_game(me)
            .await
            .map_err(unavailable)?;
        let mut mine = ChallengeLists {
            now,
            in_tournament,
            tournament_game: game.map(|g| {
                let round = u32::try_from(g.round).unwrap_or(0);
                let notice = app::msg!(
                    "tournament-paired",
                    round = round,
                    name = event_name(&g.name, g.arena, g.control),
                    opponent = g.opponent.clone()
                );
                TournamentGame {
                    table: g.table,
                    tournament: g.tournament,
                    round,
                    opponent: g.opponent,
                    notice,
                }
            }),
            ..Default::default()
        };
        for row in &rows {
            let view = self.view(row, me, now).await;
            if row.challenged == me {
                if view.status == ChallengeStatus::Open {
                    mine.incoming.push(view);
                }
            } else {
                mine.outgoing.push(view);
            }
        }
        Ok(mine)
    }

    async fn row_for(&self, id: &str) -> Result<ChallengeRow, CommandError> {
        if id.len() > 64 {
            return Err(CommandError::not_found(app::msg!("srv-no-challenge")));
        }
        self.store
            .challenge(id)
            .await
            .map_err(unavailable)?
            .ok_or_else(|| CommandError::not_found(app::msg!("srv-no-challenge")))
    }

    /// Accepts (the table's id) or declines a challenge sent to the caller.
    pub async fn answer(
        &self,
        caller: &Caller,
        id: &str,
        accept: bool,
    ) -> Result<Option<TableId>, CommandError> {
        let me = signed_in(caller)?;
        let row = self.row_for(id).await?;
        if row.challenged != me {
            return Err(CommandError::not_found(app::msg!("srv-no-challenge")));
        }
        let now = self.hub.now();
        if !accept {
            return if self
                .store
                .answer_challenge(id, "declined", None, now)
                .await
                .map_err(unavailable)?
            {
                Ok(None)
            } else {
                Err(CommandError::conflict(app::msg!("srv-challenge-gone")))
            };
        }
        let table = TableId::new(crate::hex::hex(&rand::random::<[u8; 8]>()));
        // A synchro pair's second game, colours swapped.
        let pair =
            (row.synchro != 0).then(|| TableId::new(crate::hex::hex(&rand::random::<[u8; 8]>())));
        if !self
            .store
            .answer_challenge(
                id,
                "accepted",
                Some((table.as_str(), pair.as_ref().map(TableId::as_str))),
                now,
            )
            .await
            .map_err(unavailable)?
        {
            return Err(CommandError::conflict(app::msg!("srv-challenge-gone")));
        }
        let challenger_black = match Colour::parse(&row.colour) {
            Some(Colour::Black) => true,
            Some(Colour::White) => false,
            _ => rand::thread_rng().gen_bool(0.5),
        };
        let (black, white) = if challenger_black {
            (row.challenger, row.challenged)
        } else {
            (row.challenged, row.challenger)
        };
        // Both games of a pair start from the same position.
        let start = (row.random_start != 0).then(crate::starts::pick);
        let mut games = vec![(&table, black, white)];
        if let Some(pair) = &pair {
            games.push((pair, white, black));
        }
        for (id_of, black, white) in games {
            let seated = self
                .hub
                .create_paired_table(
                    id_of,
                    black,
                    white,
                    crate::hub::PairedGame {
                        control: control_of(&row),
                        rated: row.rated != 0,
                        tournament: false,
                        start,
                    },
                )
                .await;
            if let Err(error) = seated {
                // The answer is written; without its tables it is withdrawn.
                let _ = self.store.cancel_accepted_challenge(id).await;
                return Err(error);
            }
        }
        tracing::info!(challenge = %id, table = %table, pair = ?pair, asked_rated = row.rated != 0, "challenge accepted");
        Ok(Some(table))
    }

    /// The other table of the synchro pair `table` belongs to; a malformed
    /// id is not found (404) before any query.
    pub async fn partner(&self, table: &TableId) -> Result<Option<TableId>, CommandError> {
        if !table.is_well_formed() {
            return Err(CommandError::not_found(app::msg!("srv-no-table")));
        }
        let pair = self
            .store
            .synchro_pair(table.as_str())
            .await
            .map_err(unavailable)?;
        Ok(pair.map(|(first, second)| {
            TableId::new(if first == table.as_str() {
                second
            } else {
                first
            })
        }))
    }

    /// Withdraws a challenge the caller sent.
    pub async fn cancel(&self, caller: &Caller, id: &str) -> Result<(), CommandError> {
        let me = signed_in(caller)?;
        let row = self.row_for(id).await?;
        if row.challenger != me {
            return Err(CommandError::not_found(app::msg!("srv-no-challenge")));
        }
        if self
            .store
            .answer_challenge(id, "cancelled", None, self.hub.now())
            .await
            .map_err(unavailable)?
        {
            Ok(())
        } else {
            Err(CommandError::conflict(app::msg!("srv-challenge-gone")))
        }
    }
}

#[async_trait::async_trait]
impl app::challenges::backend::ChallengeBackend for Challenges {
    async fn challenge(&self, caller: &Caller, new: NewChallenge) -> Result<String, CommandError> {
        Challenges::challenge(self, caller, new).await
    }

    async fn my_challenges(&self, caller: &Caller) -> Result<ChallengeLists, CommandError> {
        self.mine(caller).await
    }

    async fn answer_challenge(
        &self,
        caller: &Caller,
        id: String,
        accept: bool,
    ) -> Result<Option<TableId>, CommandError> {
        self.answer(caller, &id, accept).await
    }

    async fn cancel_challenge(&self, caller: &Caller, id: String) -> Result<(), CommandError> {
        self.cancel(caller, &id).await
    }

    async fn synchro_partner(&self, table: TableId) -> Result<Option<TableId>, CommandError> {
        self.partner(&table).await
    }
}
