// Over 600 lines: the Bot API end to end shares one set-up (a live server, a bot with its token, a person) across upgrade, tokens, the streams, challenges, quick match and arenas; split by door (challenges, queue, tournaments) when it grows again.
//! Bot accounts and the Bot API end to end, in process (docs/PROTOCOL.md,
//! Bot API): who may become a bot, tokens (shown once, hashed, revocable),
//! a bot kept off the people's game commands, and a person's challenge
//! answered, played and finished by the API's streams and commands.

#[path = "support/bot_api.rs"]
mod bot_api;
#[path = "support/pg.rs"]
mod pg;
mod support;

use app::bots::{BotCardView, NewBotToken};
use app::challenges::{Colour, NewChallenge};
use app::protocol::{RoundStatus, Side, TableId, TableMode, TimeControl};
use bot_api::{Api, Lines};
use serde_json::{json, Value};
use server::clock::ManualClock;
use support::Live;
use testclient::Client;

const PASSWORD: &str = "violet kettle marches sideways";

/// The key of a refusal a server function answered.
async fn refusal_key(client: &Client, name: &str, body: Value) -> (u16, String) {
    let (status, answer) = client.call_raw(name, &body).await.expect("answered");
    let key = answer["msg"]["key"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    (status, key)
}

/// A signed-up account that became a bot, with a token; the browser too.
async fn bot(live: &Live, name: &str) -> (Client, String) {
    let browser = live.browser().await;
    browser.sign_up(name, PASSWORD).await.expect("sign up");
    let card: BotCardView = browser.call("become_bot", json!({})).await.expect("a bot");
    assert!(card.bot && card.signed_in && card.tokens.is_empty());
    let made: NewBotToken = browser
        .call("create_bot_token", json!({"label": "engine"}))
        .await
        .expect("a token");
    (browser, made.token)
}

#[tokio::test]
async fn only_an_account_that_never_played_becomes_a_bot_and_for_good() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let anonymous = live.browser().await;
    assert_eq!(
        refusal_key(&anonymous, "become_bot", json!({})).await,
        (422, "srv-bot-sign-in".to_string())
    );
    let card: BotCardView = anonymous.call("bot_status", json!({})).await.expect("card");
    assert!(!card.signed_in);

    // A player who sits at a table (and has a finished game) stays a person.
    let player = live.browser().await;
    player.sign_up("nadia", PASSWORD).await.expect("sign up");
    let table = player
        .create_table(TableMode::VsAi {
            depth: 1,
            human: Side::Black,
        })
        .await
        .expect("table");
    player.resign(&table, None).await.expect("resigned");
    assert_eq!(
        refusal_key(&player, "become_bot", json!({})).await,
        (422, "srv-bot-played".to_string())
    );
    let card: BotCardView = player.call("bot_status", json!({})).await.expect("card");
    assert!(card.signed_in && !card.bot);
    assert_eq!(
        refusal_key(&player, "create_bot_token", json!({"label": "x"})).await,
        (422, "srv-bot-not-bot".to_string())
    );

    // A fresh account becomes one, once.
    let (robot, _) = bot(&live, "robot").await;
    assert_eq!(
        refusal_key(&robot, "become_bot", json!({})).await,
        (409, "srv-bot-already".to_string())
    );
    let card: BotCardView = robot.call("bot_status", json!({})).await.expect("card");
    assert!(card.bot);
    assert_eq!(card.tokens.len(), 1);
}

#[tokio::test]
async fn a_token_is_shown_once_works_and_stops_working_when_revoked() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (robot, token) = bot(&live, "robot").await;
    assert!(token.starts_with("oth_") && token.len() == 68, "{token}");

    let api = Api::new(&live, &token);
    let (status, me) = api
        .send(reqwest::Method::GET, "/api/bot/account", None)
        .await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["name"], "robot");

    // Listed by label and dates, never the token (nor its hash) again.
    let card: BotCardView = robot.call("bot_status", json!({})).await.expect("card");
    let listed = serde_json::to_string(&card).expect("json");
    assert!(!listed.contains(&token[4..]), "{listed}");
    assert_eq!(card.tokens[0].label, "engine");
    assert!(card.tokens[0].last_used.is_some(), "used once: {listed}");
    let stored: Option<String> = sqlx::query_scalar("SELECT token_hash FROM bot_tokens")
        .fetch_optional(
            &sqlx::SqlitePool::connect(&format!(
                "sqlite://{}",
                dir.path().join("db.sqlite").display()
            ))
            .await
            .expect("db"),
        )
        .await
        .expect("read");
    let stored = stored.expect("a row");
    assert_ne!(stored, token);
    assert_eq!(stored, server::bots::token_hash(&token));

    // A wrong, malformed or missing token: 401 by key, nothing done.
    let wrong = format!("oth_{}", "0".repeat(64));
    for bad in [wrong.as_str(), "oth_short", ""] {
        let (status, answer) = Api::new(&live, bad)
            .send(reqwest::Method::GET, "/api/bot/account", None)
            .await;
        assert_eq!(status, 401, "{bad}: {answer}");
        assert_eq!(answer["error"]["key"], "srv-bot-token", "{answer}");
    }
    let (status, _) = Api::new(&live, &wrong)
        .post("/api/bot/challenge/x/accept")
        .await;
    assert_eq!(status, 401);

    // Labels are checked; a second token works beside the first.
    assert_eq!(
        refusal_key(&robot, "create_bot_token", json!({"label": "  "})).await,
        (422, "srv-bot-label".to_string())
    );
    let second: NewBotToken = robot
        .call("create_bot_token", json!({"label": "spare"}))
        .await
        .expect("second token");
    assert_ne!(second.token, token);

    // Revoked: 401 at once, its open event stream ends; the other token
    // still works.
    let mut events = api.stream("/api/stream/event").await;
    let first_id = card.tokens[0].id.clone();
    robot
        .call::<()>("revoke_bot_token", json!({"id": first_id}))
        .await
        .expect("revoked");
    assert_eq!(
        refusal_key(&robot, "revoke_bot_token", json!({"id": first_id})).await,
        (404, "srv-bot-no-token".to_string())
    );
    let (status, _) = api
        .send(reqwest::Method::GET, "/api/bot/account", None)
        .await;
    assert_eq!(status, 401);
    assert!(events.next().await.is_none(), "the stream ends");
    let (status, _) = Api::new(&live, &second.token)
        .send(reqwest::Method::GET, "/api/bot/account", None)
        .await;
    assert_eq!(status, 200);
    let card: BotCardView = robot.call("bot_status", json!({})).await.expect("card");
    assert_eq!(card.tokens.len(), 2);
    assert!(card
        .tokens
        .iter()
        .any(|t| t.id == first_id && t.revoked_at.is_some()));

    // Another account cannot revoke it: as if it did not exist.
    let other = live.browser().await;
    other.sign_up("olga", PASSWORD).await.expect("sign up");
    assert_eq!(
        refusal_key(&other, "revoke_bot_token", json!({"id": second.id})).await,
        (404, "srv-bot-no-token".to_string())
    );
    let (status, _) = Api::new(&live, &second.token)
        .send(reqwest::Method::GET, "/api/bot/account", None)
        .await;
    assert_eq!(status, 200);

    // Each token has a rate of its own: a flood is refused by key.
    let spare = Api::new(&live, &second.token);
    let mut limited = 0;
    for _ in 0..80 {
        let (status, answer) = spare
            .send(reqwest::Method::GET, "/api/bot/account", None)
            .await;
        if status == 429 {
            assert_eq!(answer["error"]["key"], "srv-bot-rate", "{answer}");
            limited += 1;
        }
    }
    assert!(limited > 0, "80 requests at once pass the burst of 60");

    // A deleted bot's tokens go with it.
    robot.delete_account(PASSWORD).await.expect("deleted");
    let (status, _) = spare
        .send(reqwest::Method::GET, "/api/bot/account", None)
        .await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn a_bot_cannot_play_through_the_pages() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (robot, _) = bot(&live, "robot").await;
    let person = live.browser().await;
    person.sign_up("paula", PASSWORD).await.expect("sign up");
    let table = person
        .create_private(Some(TimeControl::PRESETS[0]))
        .await
        .expect("table");

    for (name, body) in [
        ("create_table", json!({"mode": {"kind": "hot_seat"}})),
        ("take_seat", json!({"table": table})),
        ("play_move", json!({"table": table, "square": 19})),
        ("resign", json!({"table": table, "side": null})),
        ("new_table", json!({"table": table})),
        (
            "challenge",
            json!({"new": {"name": "paula", "control": TimeControl::PRESETS[0], "colour": "random", "rated": false}}),
        ),
        ("answer_challenge", json!({"id": "x", "accept": true})),
        ("join_tournament", json!({"id": "nope"})),
        ("berserk", json!({"table": table})),
    ] {
        assert_eq!(
            refusal_key(&robot, name, body).await,
            (403, "srv-bot-web".to_string()),
            "{name}"
        );
    }
    let Err(queue) = robot.socket("/ws/queue").await else {
        panic!("a bot's queue socket opened");
    };
    assert_eq!(queue.status, 403, "{queue}");
    // Reading stays open: the bot's owner may watch the table, and nothing
    // changed there.
    robot.get_table(&table).await.expect("a view");
    let seats = person
        .get_table(&table)
        .await
        .expect("view")
        .seats
        .expect("seats");
    assert!(seats.black.taken != seats.white.taken, "one seat taken");
}

#[tokio::test]
async fn a_person_challenges_the_bot_and_they_play_it_out_through_the_api() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    challenged_and_played(&live).await;
}

#[tokio::test]
async fn a_person_challenges_the_bot_and_they_play_it_out_on_postgres() {
    let pg = pg::PgCluster::start();
    let live = Live::start_postgres(&pg.url(), ManualClock::new(1_000_000)).await;
    challenged_and_played(&live).await;
}

/// Paula challenges the bot; its event stream shows the challenge, it
/// accepts, the game's stream gives the state, they play, she resigns, and
/// both streams say how it ended. She cannot become a bot afterwards.
async fn challenged_and_played(live: &Live) {
    let (_robot, token) = bot(live, "robot").await;
    let api = Api::new(live, &token);
    let mut events = api.stream("/api/stream/event").await;

    let person = live.browser().await;
    person.sign_up("paula", PASSWORD).await.expect("sign up");
    let id = person
        .challenge(&NewChallenge {
            name: "robot".into(),
            control: TimeControl::PRESETS[0],
            colour: Colour::Black,
            rated: true,
            random_start: false,
            synchro: false,
        })
        .await
        .expect("sent");
    let challenge = events.next_of("challenge").await;
    assert_eq!(challenge["challenge"]["id"], id.as_str());
    assert_eq!(challenge["challenge"]["from"], "paula");
    assert_eq!(challenge["challenge"]["colour"], "white", "{challenge}");
    assert_eq!(challenge["challenge"]["rated"], true);
    assert_eq!(challenge["challenge"]["control"]["base_s"], 180);

    // Someone else's challenge id, and this one twice: refused by key.
    let (status, answer) = api.post("/api/bot/challenge/nope/accept").await;
    assert_eq!(
        (status, answer["error"]["key"].clone()),
        (404, json!("srv-no-challenge"))
    );
    let (status, accepted) = api.post(&format!("/api/bot/challenge/{id}/accept")).await;
    assert_eq!(status, 200, "{accepted}");
    let table = TableId::new(accepted["table"].as_str().expect("table").to_string());
    let (status, _) = api.post(&format!("/api/bot/challenge/{id}/accept")).await;
    assert_eq!(status, 409);

    let start = events.next_of("gameStart").await;
    assert_eq!(start["game"]["id"], table.as_str());
    assert_eq!(start["game"]["colour"], "white");
    assert_eq!(start["game"]["opponent"], "paula");
    assert_eq!(start["game"]["rated"], true);

    let mut game = api.stream(&format!("/api/bot/game/stream/{table}")).await;
    let full = game.next().await.expect("gameFull");
    assert_eq!(full["type"], "gameFull", "{full}");
    assert_eq!(full["colour"], "white");
    assert_eq!(full["black"]["name"], "paula");
    assert_eq!(full["white"]["name"], "robot");
    assert_eq!(full["state"]["moves"], "");
    assert_eq!(full["state"]["to_move"], "black");
    assert_eq!(full["state"]["clocks"]["black_ms"], 180_000);
    let usual = format!("{}OX{}XO{}", "-".repeat(27), "-".repeat(6), "-".repeat(27));
    assert_eq!(full["start"], usual.as_str());

    // Not the bot's turn, a malformed square, a table it does not sit at.
    let (status, answer) = api.post(&format!("/api/bot/game/{table}/move/d3")).await;
    assert_eq!(
        (status, answer["error"]["key"].clone()),
        (422, json!("srv-not-your-turn"))
    );
    let (status, answer) = api.post(&format!("/api/bot/game/{table}/move/z9")).await;
    assert_eq!(
        (status, answer["error"]["key"].clone()),
        (400, json!("srv-bot-square"))
    );
    let elsewhere = person
        .create_private(Some(TimeControl::PRESETS[0]))
        .await
        .expect("table");
    let (status, answer) = api
        .post(&format!("/api/bot/game/{elsewhere}/move/d3"))
        .await;
    assert_eq!(
        (status, answer["error"]["key"].clone()),
        (403, json!("srv-bot-not-seated"))
    );
    let (status, _) = api.post("/api/bot/game/no-such-table/move/d3").await;
    assert_eq!(status, 404);

    // Paula (black) and the bot alternate: each plays its first legal move.
    for _ in 0..2 {
        let view = person.get_table(&table).await.expect("view");
        person
            .play_move(&table, view.board.legal[0])
            .await
            .expect("paula's move");
        let state = game.until("to_move", "white").await;
        let legal = state["legal"].as_array().expect("legal").clone();
        assert!(!legal.is_empty(), "{state}");
        let mine = legal[0].as_str().expect("square").to_string();
        let (status, answer) = api
            .post(&format!("/api/bot/game/{table}/move/{mine}"))
            .await;
        assert_eq!(status, 200, "{answer}");
        let after = game.until("to_move", "black").await;
        assert!(
            after["moves"].as_str().expect("moves").ends_with(&mine),
            "{after}"
        );
        assert!(after["legal"].as_array().expect("legal").is_empty());
        assert!(after["clocks"]["white_ms"].as_i64().expect("clock") > 0);
    }

    // Paula resigns: the game's stream ends on the result; the events say so.
    let view = person.resign(&table, None).await.expect("resigned");
    assert!(matches!(
        view.status,
        RoundStatus::Over {
            winner: Some(Side::White),
            ..
        }
    ));
    let over = game.next_of("gameState").await;
    assert_eq!(over["status"], "over", "{over}");
    assert_eq!(over["winner"], "white");
    assert_eq!(over["reason"], "resigned");
    assert!(game.next().await.is_none(), "the game's stream ends");
    let finish = events.next_of("gameFinish").await;
    assert_eq!(finish["game"]["id"], table.as_str());
    assert_eq!(finish["game"]["winner"], "white");
    // After the game the bot can no longer move there.
    let (status, _) = api.post(&format!("/api/bot/game/{table}/move/d3")).await;
    assert_eq!(status, 422);
    assert_eq!(
        refusal_key(&person, "become_bot", json!({})).await,
        (422, "srv-bot-played".to_string())
    );

    // `/bots` lists the bot: online (its stream is open), rated by the
    // game, which it shows; the people's leaderboard lists paula, no bot,
    // whatever its rating's deviation and age.
    let listing: app::bots::BotsView = person.call("bots_page", json!({})).await.expect("bots");
    assert_eq!(listing.bots.len(), 1, "{listing:?}");
    let robot = &listing.bots[0];
    assert_eq!(robot.name, "robot");
    assert!(robot.online, "{robot:?}");
    assert_eq!(robot.ratings.len(), 1, "{robot:?}");
    assert!(
        robot.ratings[0].rating.rating > 1500,
        "the bot won: {robot:?}"
    );
    assert_eq!(robot.recent.len(), 1);
    assert_eq!(robot.recent[0].white.name.as_deref(), Some("robot"));
    assert_eq!(listing.board(robot.ratings[0].speed).len(), 1);
    let mut people = Vec::new();
    for speed in app::protocol::Speed::ALL {
        for line in live
            .store
            .leaderboard(speed, f64::MAX, 0, 50)
            .await
            .expect("leaderboard")
        {
            people.push(line.name);
        }
    }
    assert_eq!(people, vec!["paula".to_string()]);
    // Nobody uses its token for longer than the online window: offline.
    drop(events);
    live.clock.advance(server::bots::ONLINE_WITHIN_MS + 1);
    let listing: app::bots::BotsView = person.call("bots_page", json!({})).await.expect("bots");
    assert!(!listing.bots[0].online, "{listing:?}");
}

#[tokio::test]
async fn a_bot_challenges_a_person_who_declines_and_the_stream_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (_robot, token) = bot(&live, "robot").await;
    let api = Api::new(&live, &token);
    let person = live.browser().await;
    person.sign_up("paula", PASSWORD).await.expect("sign up");
    let mut events = api.stream("/api/stream/event").await;

    let (status, answer) = api
        .send(
            reqwest::Method::POST,
            "/api/bot/challenge",
            Some(json!({"name": "paula", "control": {"base_s": 300, "increment_s": 0}, "colour": "black"})),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let id = answer["id"].as_str().expect("id").to_string();
    let sent = events.next_of("challenge").await;
    assert_eq!(sent["challenge"]["direction"], "out");
    assert_eq!(sent["challenge"]["colour"], "black");
    person.answer_challenge(&id, false).await.expect("declined");
    let declined = events.next_of("challengeDeclined").await;
    assert_eq!(declined["challenge"]["id"], id.as_str());

    // A malformed body: 400 by key, nothing sent.
    let (status, answer) = api
        .send(
            reqwest::Method::POST,
            "/api/bot/challenge",
            Some(json!({"name": 3})),
        )
        .await;
    assert_eq!(
        (status, answer["error"]["key"].clone()),
        (400, json!("srv-malformed"))
    );
    assert!(person
        .my_challenges()
        .await
        .expect("lists")
        .incoming
        .is_empty());
}

#[tokio::test]
async fn a_bot_seeks_a_quick_match_and_meets_a_person() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (_robot, token) = bot(&live, "robot").await;
    let api = Api::new(&live, &token);
    // A control the lobby does not offer: refused by key, nobody queued.
    let (status, answer) = api
        .send(
            reqwest::Method::POST,
            "/api/bot/seek",
            Some(json!({"control": {"base_s": 7, "increment_s": 0}})),
        )
        .await;
    assert_eq!(status, 422, "{answer}");
    let response = api
        .request(reqwest::Method::POST, "/api/bot/seek")
        .body(json!({"control": TimeControl::PRESETS[0]}).to_string())
        .send()
        .await
        .expect("seek");
    assert_eq!(response.status(), 200);
    let mut seek = Lines {
        response,
        buffer: Vec::new(),
    };
    assert_eq!(seek.next().await.expect("queued")["type"], "queued");
    let person = live.browser().await;
    person.sign_up("paula", PASSWORD).await.expect("sign up");
    let mut queue = person
        .socket("/ws/queue?base=180&inc=2")
        .await
        .expect("queue socket");
    let matched = seek.next_of("matched").await;
    let table = TableId::new(matched["table"].as_str().expect("table").to_string());
    assert!(seek.next().await.is_none(), "the seek ends when matched");
    loop {
        match queue.next_message().await.expect("a message") {
            app::protocol::ServerMessage::Matched { table: theirs } => {
                assert_eq!(theirs, table);
                break;
            }
            _ => continue,
        }
    }
    let view = person.get_table(&table).await.expect("view");
    assert_eq!(view.you.len(), 1);
    let seats = view.seats.expect("seats");
    assert!(seats.black.taken && seats.white.taken, "both seated");
}

/// The next message on a queue socket other than a keep-alive's answer.
async fn next_queue_message(queue: &mut testclient::Socket) -> app::protocol::ServerMessage {
    loop {
        match queue.next_message().await.expect("a message") {
            app::protocol::ServerMessage::Pong => continue,
            other => return other,
        }
    }
}

#[tokio::test]
async fn a_person_alone_in_quick_match_is_offered_the_nearest_rated_bot_online() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start_with(
        &dir.path().join("db.sqlite"),
        ManualClock::new(1_000_000),
        |config| {
            config.bot_offer_secs = 1;
        },
    )
    .await;
    // Two bots, one online (its token used now), one never connected.
    let (_online, token) = bot(&live, "tidebot").await;
    let (_offline, _) = bot(&live, "sleepybot").await;
    let api = Api::new(&live, &token);
    let (status, _) = api
        .send(reqwest::Method::GET, "/api/bot/account", None)
        .await;
    assert_eq!(status, 200);

    // An anonymous browser is never offered a bot (it could not challenge).
    let stranger = live.browser().await;
    let mut queue = stranger
        .socket("/ws/queue?base=180&inc=2")
        .await
        .expect("queue");
    assert!(matches!(
        next_queue_message(&mut queue).await,
        app::protocol::ServerMessage::Queued
    ));
    let quiet = tokio::time::timeout(
        std::time::Duration::from_millis(2_500),
        next_queue_message(&mut queue),
    )
    .await;
    assert!(quiet.is_err(), "no offer to an anonymous player: {quiet:?}");
    drop(queue);

    // A signed-in person waiting rated: the online bot, once, after the wait.
    let person = live.browser().await;
    person.sign_up("paula", PASSWORD).await.expect("sign up");
    let waited = std::time::Instant::now();
    let mut queue = person
        .socket("/ws/queue?base=180&inc=2&rated=1")
        .await
        .expect("queue");
    assert!(matches!(
        next_queue_message(&mut queue).await,
        app::protocol::ServerMessage::Queued
    ));
    match next_queue_message(&mut queue).await {
        app::protocol::ServerMessage::BotOffer {
            bot,
            rating,
            waited_s,
        } => {
            assert_eq!(
                bot, "tidebot",
                "the online bot, not the one never connected"
            );
            assert_eq!(
                rating, 1500,
                "an unrated bot counts from the starting rating"
            );
            assert_eq!(waited_s, 1);
            assert!(
                waited.elapsed() >= std::time::Duration::from_millis(900),
                "offered only after the wait"
            );
        }
        other => panic!("expected a bot offer, got {other:?}"),
    }
    let again = tokio::time::timeout(
        std::time::Duration::from_millis(2_500),
        next_queue_message(&mut queue),
    )
    .await;
    assert!(again.is_err(), "offered once: {again:?}");

    // The offer taken: a challenge to the bot with the queue's control.
    let sent = person
        .challenge(&NewChallenge {
            name: "tidebot".into(),
            control: TimeControl::PRESETS[0],
            colour: Colour::Random,
            rated: true,
            random_start: false,
            synchro: false,
        })
        .await
        .expect("challenge sent");
    assert!(!sent.is_empty());
    drop(queue);

    // A person linked to the only online bot (one address) waiting rated is
    // offered nothing: they could not meet rated.
    let sibling = _online.sibling();
    sibling.sign_up("linda", PASSWORD).await.expect("sign up");
    let mut queue = sibling
        .socket("/ws/queue?base=180&inc=2&rated=1")
        .await
        .expect("queue");
    let first = next_queue_message(&mut queue).await;
    assert!(
        matches!(first, app::protocol::ServerMessage::Queued),
        "{first:?}"
    );
    let quiet = tokio::time::timeout(
        std::time::Duration::from_millis(2_500),
        next_queue_message(&mut queue),
    )
    .await;
    assert!(
        quiet.is_err(),
        "no offer of a linked bot for a rated wait: {quiet:?}"
    );
    // Casual, the same person is offered it (a link bars rated games only).
    drop(queue);
    let mut queue = sibling
        .socket("/ws/queue?base=180&inc=2")
        .await
        .expect("queue");
    let first = next_queue_message(&mut queue).await;
    assert!(
        matches!(first, app::protocol::ServerMessage::Queued),
        "{first:?}"
    );
    let offer = next_queue_message(&mut queue).await;
    assert!(
        matches!(&offer, app::protocol::ServerMessage::BotOffer { bot, .. } if bot == "tidebot"),
        "{offer:?}"
    );
}

#[tokio::test]
async fn a_bot_enters_only_arenas_that_allow_bots_and_plays_its_pairing_there() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (_robot, token) = bot(&live, "arenabot").await;
    let api = Api::new(&live, &token);
    let person = live.browser().await;
    person.sign_up("petra", PASSWORD).await.expect("sign up");
    let arena = |bots: bool| app::tournaments::NewTournament {
        name: "Night arena".into(),
        kind: app::tournaments::Kind::Arena,
        minutes: 10,
        control: TimeControl::PRESETS[0],
        rated: true,
        private: false,
        rounds: 0,
        starts_in_minutes: 0,
        bots,
    };
    // A Swiss never lets bots in.
    let mut swiss = arena(true);
    swiss.kind = app::tournaments::Kind::Swiss;
    swiss.rounds = 3;
    assert_eq!(
        refusal_key(&person, "create_tournament", json!({ "new": swiss })).await,
        (422, "srv-tournament-bots-arena".to_string())
    );
    // An arena whose creator did not allow bots refuses one, and the
    // page's Join refuses a bot's browser as every page command does.
    let closed: String = person
        .call("create_tournament", json!({ "new": arena(false) }))
        .await
        .expect("arena");
    let (status, answer) = api
        .post(&format!("/api/bot/tournament/{closed}/join"))
        .await;
    assert_eq!(
        (status, answer["error"]["key"].clone()),
        (403, json!("srv-tournament-no-bots"))
    );
    let (status, answer) = api.post("/api/bot/tournament/not-an-id!/join").await;
    assert_eq!(
        (status, answer["error"]["key"].clone()),
        (404, json!("srv-no-tournament"))
    );
    // One that allows them says so, and the bot enters through the API.
    let open: String = person
        .call("create_tournament", json!({ "new": arena(true) }))
        .await
        .expect("arena");
    let page: app::tournaments::TournamentView = person
        .call("tournament", json!({ "id": open }))
        .await
        .expect("page");
    assert!(page.summary.bots);
    let mut events = api.stream("/api/stream/event").await;
    let (status, answer) = api.post(&format!("/api/bot/tournament/{open}/join")).await;
    assert_eq!(status, 200, "{answer}");
    person.join_tournament(&open).await.expect("join");
    // The arena begins and pairs them: the bot hears of its game as of any.
    live.tournaments.tick().await;
    let start = events.next_of("gameStart").await;
    assert_eq!(start["game"]["opponent"], "petra", "{start}");
    let page: app::tournaments::TournamentView = person
        .call("tournament", json!({ "id": open }))
        .await
        .expect("page");
    let table = page.my_table.expect("petra's game");
    assert_eq!(start["game"]["id"], table.as_str());
    // Withdrawn by the API, it is out of the standings' players.
    let (status, answer) = api
        .post(&format!("/api/bot/tournament/{open}/withdraw"))
        .await;
    assert_eq!(status, 200, "{answer}");
    let (status, _) = api
        .post(&format!("/api/bot/tournament/{open}/withdraw"))
        .await;
    assert_eq!(status, 422, "not in it any more");
}

#[tokio::test]
async fn a_synchro_pair_from_a_random_start_is_two_games_swapped_archived_and_summed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (_robot, token) = bot(&live, "pairbot").await;
    let api = Api::new(&live, &token);
    let mut events = api.stream("/api/stream/event").await;
    let person = live.browser().await;
    person.sign_up("sofia", PASSWORD).await.expect("sign up");
    let id = person
        .challenge(&NewChallenge {
            name: "pairbot".into(),
            control: TimeControl::PRESETS[0],
            colour: Colour::Black,
            rated: false,
            random_start: true,
            synchro: true,
        })
        .await
        .expect("sent");
    // The bot reads what it is asked for.
    let challenge = events.next_of("challenge").await;
    assert_eq!(challenge["challenge"]["synchro"], true, "{challenge}");
    assert_eq!(challenge["challenge"]["start"], "random");
    let (status, accepted) = api.post(&format!("/api/bot/challenge/{id}/accept")).await;
    assert_eq!(status, 200, "{accepted}");
    let first = TableId::new(accepted["table"].as_str().expect("table").to_string());
    let lists = person.my_challenges().await.expect("lists");
    let sent = lists.outgoing.iter().find(|c| c.id == id).expect("listed");
    assert!(sent.synchro && sent.random_start);
    // The pair: the other table found from either one, and not for others.
    let second: Option<TableId> = person
        .call("synchro_partner", json!({ "table": first }))
        .await
        .expect("partner");
    let second = second.expect("a pair");
    let back: Option<TableId> = person
        .call("synchro_partner", json!({ "table": second }))
        .await
        .expect("partner");
    assert_eq!(back.as_ref(), Some(&first));
    let lone = person
        .create_private(Some(TimeControl::PRESETS[0]))
        .await
        .expect("table");
    let none: Option<TableId> = person
        .call("synchro_partner", json!({ "table": lone }))
        .await
        .expect("partner");
    assert_eq!(none, None);
    assert_eq!(
        refusal_key(
            &person,
            "synchro_partner",
            json!({ "table": "not a table" })
        )
        .await,
        (404, "srv-no-table".to_string())
    );
    // Two games, both from one random start of the published set, colours
    // swapped: sofia black in the first, white in the second.
    let a = person.get_table(&first).await.expect("first");
    let b = person.get_table(&second).await.expect("second");
    assert_eq!(a.you, vec![Side::Black]);
    assert_eq!(b.you, vec![Side::White]);
    assert_eq!(a.board.cells, b.board.cells, "one start for both");
    let discs = a.board.cells.iter().filter(|c| **c != 0).count();
    assert!((12..=16).contains(&discs), "8-12 plies in: {discs} discs");
    let published: Vec<Vec<i8>> = server::starts::all()
        .iter()
        .map(|p| p.to_cells().to_vec())
        .collect();
    assert!(
        published.contains(&a.board.cells),
        "a start of the published set"
    );
    // The bot hears of both games.
    let mut started = [
        events.next_of("gameStart").await["game"]["id"].clone(),
        events.next_of("gameStart").await["game"]["id"].clone(),
    ];
    started.sort_by_key(|v| v.to_string());
    let mut expected = [json!(first.as_str()), json!(second.as_str())];
    expected.sort_by_key(|v| v.to_string());
    assert_eq!(started, expected);

    // Each game: one move by whoever is to move, then sofia resigns the
    // first and the bot the second.
    for table in [&first, &second] {
        let view = person.get_table(table).await.expect("view");
        let RoundStatus::Playing { to_move } = view.status else {
            panic!("playing: {:?}", view.status);
        };
        if !view.you.contains(&to_move) {
            let mut game = api.stream(&format!("/api/bot/game/stream/{table}")).await;
            let full = game.next().await.expect("gameFull");
            let square = full["state"]["legal"][0]
                .as_str()
                .expect("legal")
                .to_string();
            let (status, answer) = api
                .post(&format!("/api/bot/game/{table}/move/{square}"))
                .await;
            assert_eq!(status, 200, "{answer}");
        } else {
            person
                .play_move(table, view.board.legal[0])
                .await
                .expect("move");
        }
    }
    person.resign(&first, None).await.expect("resigned");
    // Before the other ends, the first game's page waits for the sum.
    let games = person.my_games(None).await.expect("games");
    let game_a = games.first().expect("archived").id.clone();
    let view_a = person.get_game(&game_a).await.expect("game");
    let pair = view_a.synchro.clone().expect("one of a pair");
    assert_eq!(pair.other_table, second);
    assert_eq!((pair.other_game, pair.sums), (None, None));
    let (status, answer) = api.post(&format!("/api/bot/game/{second}/resign")).await;
    assert_eq!(status, 200, "{answer}");
    // Both archived, each linking the other; the sums are each player's
    // discs over both games (colours swapped in the second).
    let games = person.my_games(None).await.expect("games");
    assert_eq!(games.len(), 2, "both games archived");
    let game_b = games
        .iter()
        .find(|g| g.id != game_a)
        .expect("the other")
        .id
        .clone();
    let view_a = person.get_game(&game_a).await.expect("game");
    let view_b = person.get_game(&game_b).await.expect("game");
    let pair_a = view_a.synchro.clone().expect("pair");
    let pair_b = view_b.synchro.clone().expect("pair");
    assert_eq!(pair_a.other_game.as_ref(), Some(&game_b));
    assert_eq!(pair_b.other_game.as_ref(), Some(&game_a));
    let sofia = u32::from(view_a.black_discs) + u32::from(view_b.white_discs);
    let robot = u32::from(view_a.white_discs) + u32::from(view_b.black_discs);
    assert_eq!(pair_a.sums, Some([sofia, robot]));
    assert_eq!(pair_b.sums, Some([robot, sofia]));
    // Exported as two GGF games of GGS's synchro type, each naming the
    // other and the sum.
    let (status, ggf) = person
        .get(&format!("/game/{game_a}/export.ggf"))
        .await
        .expect("ggf");
    assert_eq!(status, 200);
    assert!(ggf.contains("TY[s8]"), "{ggf}");
    assert!(
        ggf.contains(&format!(
            "GC[synchro pair with game {game_b}, colours swapped; disc sum sofia {sofia} - {robot} pairbot]"
        )),
        "{ggf}"
    );
    let (_, ggf_b) = person
        .get(&format!("/game/{game_b}/export.ggf"))
        .await
        .expect("ggf");
    assert!(
        ggf_b.contains(&format!("GC[synchro pair with game {game_a}")),
        "{ggf_b}"
    );
}
