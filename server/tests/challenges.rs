//! Challenges end to end, in process on a manual clock: who may challenge
//! whom, the caps, accept (a table with both seated, the challenger's
//! colour), decline, withdraw, expiry, an answer given once when two race,
//! and a rated challenge between linked accounts played casual.

mod support;

use app::challenges::{ChallengeStatus, Colour, NewChallenge};
use app::protocol::{Side, TableId, TableMode, TimeControl};
use server::clock::ManualClock;
use support::Live;
use testclient::Refusal;

const PASSWORD: &str = "violet kettle marches sideways";

fn refused<T: std::fmt::Debug>(answer: Result<T, Refusal>, status: u16, text: &str) {
    let refusal = answer.expect_err("refused");
    assert_eq!(refusal.status, status, "{refusal}");
    assert!(refusal.message.contains(text), "{refusal}");
}

fn to(name: &str, colour: Colour, rated: bool) -> NewChallenge {
    NewChallenge {
        name: name.into(),
        control: TimeControl::PRESETS[0],
        colour,
        rated,
        random_start: false,
        synchro: false,
    }
}

#[tokio::test]
async fn a_challenge_is_seen_accepted_once_and_seats_both_players() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = ManualClock::new(1_000_000);
    let live = Live::start(&dir.path().join("db.sqlite"), clock.clone()).await;
    let anonymous = live.browser().await;
    refused(
        anonymous
            .challenge(&to("nobody", Colour::Random, false))
            .await,
        422,
        "signed-in",
    );
    assert_eq!(
        anonymous.my_challenges().await.expect("empty"),
        Default::default()
    );
    let lena = live.browser().await;
    lena.sign_up("lena", PASSWORD).await.expect("sign up");
    let mario = live.browser().await;
    mario.sign_up("Mario", PASSWORD).await.expect("sign up");
    refused(
        lena.challenge(&to("nobody", Colour::Black, false)).await,
        404,
        "No such player",
    );
    refused(
        lena.challenge(&to("LENA", Colour::Black, false)).await,
        422,
        "yourself",
    );
    let mut odd = to("mario", Colour::Black, false);
    odd.control = TimeControl {
        base_s: 7,
        increment_s: 0,
    };
    refused(lena.challenge(&odd).await, 422, "");

    // Lena challenges Mario (by any case of his name), playing black, rated.
    let id = lena
        .challenge(&to("MARIO", Colour::Black, true))
        .await
        .expect("sent");
    let seen = mario.my_challenges().await.expect("mario's");
    assert_eq!(seen.incoming.len(), 1);
    let incoming = &seen.incoming[0];
    assert_eq!(incoming.other, "lena");
    assert_eq!(incoming.colour, Colour::Black);
    assert!(incoming.rated && !incoming.linked);
    assert_eq!(incoming.status, ChallengeStatus::Open);
    let sent = lena.my_challenges().await.expect("lena's");
    assert_eq!(sent.outgoing.len(), 1);
    assert_eq!(sent.outgoing[0].other, "Mario");
    // Only the challenged answers; only the challenger withdraws.
    refused(
        lena.answer_challenge(&id, true).await,
        404,
        "No such challenge",
    );
    refused(mario.cancel_challenge(&id).await, 404, "No such challenge");
    refused(
        mario.answer_challenge("nope", true).await,
        404,
        "No such challenge",
    );

    // Two answers race: one table.
    let (a, b) = tokio::join!(
        mario.answer_challenge(&id, true),
        mario.answer_challenge(&id, true)
    );
    let tables: Vec<TableId> = [a, b]
        .into_iter()
        .filter_map(|r| r.ok().flatten())
        .collect();
    assert_eq!(tables.len(), 1, "accepted once");
    let table = &tables[0];
    let lena_view = lena.get_table(table).await.expect("lena's table");
    assert_eq!(lena_view.you, vec![Side::Black]);
    let mario_view = mario.get_table(table).await.expect("mario's table");
    assert_eq!(mario_view.you, vec![Side::White]);
    assert!(matches!(
        mario_view.mode,
        TableMode::Online {
            rated: true,
            tournament: false,
            time: Some(_),
            ..
        }
    ));
    let after = lena.my_challenges().await.expect("lena's");
    assert_eq!(after.outgoing[0].status, ChallengeStatus::Accepted);
    assert_eq!(after.outgoing[0].table.as_ref(), Some(table));
    assert!(mario
        .my_challenges()
        .await
        .expect("mario's")
        .incoming
        .is_empty());
    refused(
        mario.answer_challenge(&id, false).await,
        409,
        "no longer open",
    );
    // Lena (black) never makes her first move: her clock never ran, and
    // after her 30 s first-move timer the game is aborted — nobody's win,
    // never rated.
    clock.advance(6_000);
    let early = mario.get_table(table).await.expect("view");
    clock.advance(6_000);
    let later = mario.get_table(table).await.expect("view");
    for v in [&early, &later] {
        assert_eq!(v.clocks.expect("clocks").black_ms, 180_000);
    }
    clock.advance(18_000);
    live.hub.check_presence().await;
    let over = mario.get_table(table).await.expect("view");
    assert_eq!(
        over.status,
        app::protocol::RoundStatus::Over {
            winner: None,
            reason: app::protocol::EndReason::Aborted
        }
    );
    assert_eq!(over.tally, Default::default());
}

#[tokio::test]
async fn challenges_are_declined_withdrawn_capped_and_expire() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = ManualClock::new(1_000_000);
    let live = Live::start(&dir.path().join("db.sqlite"), clock.clone()).await;
    let nikos = live.browser().await;
    nikos.sign_up("nikos", PASSWORD).await.expect("sign up");
    let olga = live.browser().await;
    olga.sign_up("olga", PASSWORD).await.expect("sign up");
    let declined = nikos
        .challenge(&to("olga", Colour::Random, false))
        .await
        .expect("sent");
    assert_eq!(
        olga.answer_challenge(&declined, false)
            .await
            .expect("declined"),
        None
    );
    let mine = nikos.my_challenges().await.expect("nikos's");
    assert_eq!(mine.outgoing[0].status, ChallengeStatus::Declined);
    // Three open at most.
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(
            nikos
                .challenge(&to("olga", Colour::White, false))
                .await
                .expect("sent"),
        );
    }
    refused(
        nikos.challenge(&to("olga", Colour::White, false)).await,
        429,
        "waiting for an answer",
    );
    // Withdrawing one frees a place.
    nikos.cancel_challenge(&open[0]).await.expect("withdrawn");
    refused(
        olga.answer_challenge(&open[0], true).await,
        409,
        "no longer open",
    );
    nikos
        .challenge(&to("olga", Colour::White, false))
        .await
        .expect("a place again");
    // Five minutes later they have all expired: not shown, not answerable.
    clock.advance(app::challenges::EXPIRES_AFTER_MS + 1);
    assert!(olga
        .my_challenges()
        .await
        .expect("olga's")
        .incoming
        .is_empty());
    refused(
        olga.answer_challenge(&open[1], true).await,
        409,
        "no longer open",
    );
    let mine = nikos.my_challenges().await.expect("nikos's");
    assert!(mine
        .outgoing
        .iter()
        .filter(|c| c.id == open[1])
        .all(|c| c.status == ChallengeStatus::Expired));
    nikos
        .challenge(&to("olga", Colour::White, false))
        .await
        .expect("expired ones free their places");
}

#[tokio::test]
async fn a_rated_challenge_between_linked_accounts_is_played_casual() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    // Two accounts from one address: fair play links them.
    let pia = live.browser_at("203.0.113.9").await;
    pia.sign_up("pia", PASSWORD).await.expect("sign up");
    let quin = live.browser_at("203.0.113.9").await;
    quin.sign_up("quin", PASSWORD).await.expect("sign up");
    let id = pia
        .challenge(&to("quin", Colour::Random, true))
        .await
        .expect("sent");
    let incoming = &quin.my_challenges().await.expect("quin's").incoming[0];
    assert!(incoming.linked && !incoming.rated, "{incoming:?}");
    let table = quin
        .answer_challenge(&id, true)
        .await
        .expect("accepted")
        .expect("a table");
    let view = quin.get_table(&table).await.expect("table");
    assert!(matches!(view.mode, TableMode::Online { rated: false, .. }));
    assert_eq!(view.you.len(), 1);
}
