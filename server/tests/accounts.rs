//! Accounts and the game archive end to end, with the server in process on
//! a manual clock: sign up, sign in (token rotated, one answer for every
//! failure), throttling, sign out here and everywhere, a browser's games
//! moving to its account (in memory and across a restart), and every
//! finished round kept in the archive after its table is deleted; managing
//! an account, whole-archive exports, profile filters and expiry.
//! (Over 600 lines: every account scenario shares the in-process server.)

use app::protocol::{Side, TableMode, TableView};
use server::clock::ManualClock;
use testclient::{Client, Refusal};

mod support;
use support::Live;

const PASSWORD: &str = "violet kettle marches sideways";

fn refused<T: std::fmt::Debug>(answer: Result<T, Refusal>, status: u16, text: &str) {
    let refusal = answer.expect_err("refused");
    assert_eq!(refusal.status, status, "{refusal}");
    assert!(refusal.message.contains(text), "{refusal}");
}

fn name_of(answer: Option<app::protocol::AccountView>) -> String {
    answer.expect("signed in").name
}

#[tokio::test]
async fn signing_up_signs_in_with_a_new_token_and_the_page_shows_the_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let browser = live.browser().await;
    assert_eq!(browser.signed_in_as().await.expect("page"), "");
    let before = browser.token().expect("token");

    let account = browser.sign_up("Nikos_7", PASSWORD).await.expect("sign up");
    assert_eq!(name_of(account), "Nikos_7", "shown exactly as chosen");
    let after = browser.token().expect("token");
    assert_ne!(before, after, "signing up hands out a new token");
    assert_eq!(browser.signed_in_as().await.expect("page"), "Nikos_7");
    // The token from before is not signed in: fixation buys nothing.
    let old = live.browser_with(&before);
    assert_eq!(old.signed_in_as().await.expect("page"), "");
}

#[tokio::test]
async fn bad_names_and_guessable_passwords_are_refused_and_create_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let browser = live.browser().await;
    refused(browser.sign_up("ab", PASSWORD).await, 422, "3 to 20");
    refused(
        browser.sign_up("<script>alert(1)</script>", PASSWORD).await,
        422,
        "3 to 20",
    );
    refused(
        browser.sign_up("<b>x</b>", PASSWORD).await,
        422,
        "only the letters",
    );
    refused(
        browser.sign_up("Νίκος", PASSWORD).await,
        422,
        "only the letters",
    );
    refused(browser.sign_up("Admin", PASSWORD).await, 422, "reserved");
    refused(
        browser.sign_up("maria", "short").await,
        422,
        "10 characters",
    );
    refused(
        browser.sign_up("maria", "password1234").await,
        422,
        "too easy to guess",
    );
    refused(
        browser.sign_up("maria", "maria12345678").await,
        422,
        "too easy",
    );
    // Nothing was created: the name is free, the browser anonymous.
    assert_eq!(browser.signed_in_as().await.expect("page"), "");
    refused(
        browser.sign_in("maria", "password1234").await,
        422,
        "Wrong name or password",
    );
    assert_eq!(
        name_of(browser.sign_up("maria", PASSWORD).await.expect("sign up")),
        "maria"
    );
    // Unique ignoring case.
    let other = live.browser().await;
    refused(other.sign_up("MARIA", PASSWORD).await, 422, "taken");
    // Malformed requests are the caller's fault.
    let (status, _) = other
        .call_raw("sign_in", &serde_json::json!({ "name": 7 }))
        .await
        .expect("answer");
    assert_eq!(status, 400);
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_name_get_one_answer_and_failures_wait() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let owner = live.browser().await;
    owner.sign_up("eleni", PASSWORD).await.expect("sign up");
    owner.sign_out().await.expect("sign out");
    assert_eq!(owner.signed_in_as().await.expect("page"), "");

    let attacker = live.browser().await;
    let wrong = attacker
        .sign_in("eleni", "not the password at all")
        .await
        .expect_err("wrong");
    let unknown = attacker
        .sign_in("nobody_here", PASSWORD)
        .await
        .expect_err("unknown");
    assert_eq!(
        (wrong.status, &wrong.message),
        (unknown.status, &unknown.message)
    );
    assert_eq!(wrong.status, 422);
    // Five failures in all for the name; the next attempt waits, even with
    // the right password.
    for _ in 0..4 {
        refused(
            attacker.sign_in("eleni", "still not it").await,
            422,
            "Wrong",
        );
    }
    refused(attacker.sign_in("ELENI", PASSWORD).await, 429, "wait");
    // The owner's browser signed in to the account before (its device
    // cookie): a stranger's failures never lock it out.
    assert_eq!(
        name_of(owner.sign_in("eleni", PASSWORD).await.expect("in")),
        "eleni"
    );
    assert_eq!(owner.signed_in_as().await.expect("page"), "eleni");
    // A new browser of the owner (cookies cleared) is a stranger: it waits
    // with the attacker until the wait is over.
    owner.sign_out().await.expect("sign out");
    owner.forget_device();
    refused(owner.sign_in("eleni", PASSWORD).await, 429, "wait");
    live.clock.advance(2_000);
    assert_eq!(
        name_of(owner.sign_in("eleni", PASSWORD).await.expect("in")),
        "eleni"
    );
}

#[tokio::test]
async fn new_accounts_from_one_address_are_capped_per_hour() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    for i in 0..5 {
        let browser = live.browser_at("198.51.100.7").await;
        browser
            .sign_up(&format!("player{i}"), PASSWORD)
            .await
            .expect("sign up");
    }
    let sixth = live.browser_at("198.51.100.7").await;
    refused(
        sixth.sign_up("player5", PASSWORD).await,
        429,
        "Too many new accounts",
    );
    live.clock.advance(60 * 60 * 1000);
    sixth
        .sign_up("player5", PASSWORD)
        .await
        .expect("an hour later");
}

#[tokio::test]
async fn signing_out_everywhere_ends_every_browser_of_the_account() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let first = live.browser().await;
    first.sign_up("kostas", PASSWORD).await.expect("sign up");
    let second = live.browser().await;
    second.sign_in("kostas", PASSWORD).await.expect("sign in");
    assert_eq!(second.signed_in_as().await.expect("page"), "kostas");
    refused(
        live.browser().await.sign_out_everywhere().await,
        422,
        "not signed in",
    );

    first.sign_out_everywhere().await.expect("everywhere");
    assert_eq!(first.signed_in_as().await.expect("page"), "");
    assert_eq!(second.signed_in_as().await.expect("page"), "");
}

fn legal(view: &TableView) -> u8 {
    *view
        .board
        .legal
        .first()
        .expect("a legal move for the viewer")
}

#[tokio::test]
async fn a_game_in_progress_moves_to_the_account_and_goes_on_in_another_browser() {
    let dir = tempfile::tempdir().expect("tempdir");
    let database = dir.path().join("db.sqlite");
    let live = Live::start(&database, ManualClock::new(1_000_000)).await;
    let browser = live.browser().await;
    let table = browser
        .create_table(TableMode::HotSeat)
        .await
        .expect("hot seat");
    browser.play_move(&table, 37).await.expect("f5");
    // An online table too: the creator's seat moves with them.
    let online = browser.create_private(None).await.expect("private table");
    let guest = live.browser().await;
    let seated = guest.take_seat(&online).await.expect("guest sits");
    let guest_side = seated.you[0];
    let anonymous = browser.token().expect("token");

    browser.sign_up("sofia", PASSWORD).await.expect("sign up");
    let view = browser.get_table(&table).await.expect("view");
    assert_eq!(view.you, vec![Side::Black, Side::White], "still the owner");
    let view = browser
        .play_move(&table, legal(&view))
        .await
        .expect("plays on");
    assert_eq!(view.history.len(), 2);
    assert_eq!(
        browser.get_table(&online).await.expect("view").you,
        vec![guest_side.opponent()]
    );
    // The anonymous token holds nothing any more.
    let old = live.browser_with(&anonymous);
    assert!(old.get_table(&table).await.expect("view").you.is_empty());

    // Another browser, signed in to the account, plays the same game.
    let elsewhere = live.browser().await;
    elsewhere.sign_in("sofia", PASSWORD).await.expect("sign in");
    let view = elsewhere.get_table(&table).await.expect("view");
    let view = elsewhere
        .play_move(&table, legal(&view))
        .await
        .expect("plays");
    assert_eq!(view.history.len(), 3);

    // The store has it too: after a restart the account still holds both.
    drop(live);
    let live = Live::start(&database, ManualClock::new(2_000_000)).await;
    let later = live.browser().await;
    later.sign_in("sofia", PASSWORD).await.expect("sign in");
    let view = later.get_table(&table).await.expect("view");
    assert_eq!(view.you, vec![Side::Black, Side::White]);
    assert_eq!(view.history.len(), 3);
    assert_eq!(
        later.get_table(&online).await.expect("view").you,
        vec![guest_side.opponent()]
    );
    // Signing out leaves the games with the account, not the browser.
    later.sign_out().await.expect("sign out");
    assert!(later.get_table(&table).await.expect("view").you.is_empty());
}

#[tokio::test]
async fn one_address_trying_many_names_waits_too() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let browser = live.browser().await;
    for i in 0..20 {
        refused(
            browser.sign_in(&format!("name{i}"), PASSWORD).await,
            422,
            "Wrong name or password",
        );
    }
    refused(browser.sign_in("name20", PASSWORD).await, 429, "wait");
    live.clock.advance(1_000);
    refused(browser.sign_in("name20", PASSWORD).await, 422, "Wrong");
}

#[tokio::test]
async fn every_finished_round_is_archived_kept_after_its_table_and_moves_with_the_account() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let browser = live.browser().await;
    assert!(browser.my_games(None).await.expect("games").is_empty());
    // A hot-seat round: two moves, then Black resigns.
    let table = browser
        .create_table(TableMode::HotSeat)
        .await
        .expect("hot seat");
    browser.play_move(&table, 37).await.expect("f5");
    browser.play_move(&table, 43).await.expect("d6");
    browser
        .resign(&table, Some(Side::Black))
        .await
        .expect("resign");
    live.clock.advance(1_000);
    // A vs-AI round the AI wins: the human resigns on their first turn.
    let ai = browser
        .create_table(TableMode::VsAi {
            depth: 1,
            human: Side::White,
        })
        .await
        .expect("vs ai");
    let mut view = browser.get_table(&ai).await.expect("view");
    for _ in 0..100 {
        if !view.board.legal.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        view = browser.get_table(&ai).await.expect("view");
    }
    browser.resign(&ai, None).await.expect("resign");

    let games = browser.my_games(None).await.expect("games");
    assert_eq!(games.len(), 2, "{games:?}");
    let (vs_ai, hot_seat) = (&games[0], &games[1]);
    assert_eq!(hot_seat.you, vec![Side::Black, Side::White]);
    assert_eq!(hot_seat.winner, Some(Side::White));
    assert_eq!(hot_seat.reason, app::protocol::EndReason::Resigned);
    assert_eq!(hot_seat.moves, 2);
    assert_eq!(vs_ai.you, vec![Side::White]);
    assert_eq!(vs_ai.black.ai_depth, Some(1));
    assert_eq!(vs_ai.winner, Some(Side::Black));

    // The game's page data: every board, visible to anybody with the id.
    let stranger = live.browser().await;
    let game = stranger.get_game(&hot_seat.id).await.expect("game");
    assert!(game.you.is_empty());
    assert_eq!(game.plies.len(), 2);
    assert_eq!((game.plies[0].square, game.plies[1].square), (37, 43));
    assert_eq!(game.black_discs + game.white_discs, 6);
    refused(
        stranger.get_game(&app::ids::GameId::new("0123abcd")).await,
        404,
        "No such game",
    );
    refused(
        stranger.get_game(&app::ids::GameId::new("../../etc")).await,
        404,
        "No such game",
    );
    let (status, _) = stranger
        .call_raw("get_game", &serde_json::json!({}))
        .await
        .expect("answer");
    assert_eq!(status, 400);

    // Tables expire; the archive stays.
    live.clock.advance(48 * 60 * 60 * 1000);
    assert!(live.hub.expire_idle().await.expect("expiry") >= 2);
    refused(browser.get_table(&table).await, 404, "No such table");
    assert_eq!(browser.my_games(None).await.expect("games").len(), 2);

    // Signing up brings the browser's games to the account, in any browser.
    browser
        .sign_up("archivist", PASSWORD)
        .await
        .expect("sign up");
    let elsewhere = live.browser().await;
    elsewhere
        .sign_in("archivist", PASSWORD)
        .await
        .expect("sign in");
    let games = elsewhere.my_games(None).await.expect("games");
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].black.name.as_deref(), Some("archivist"));
    assert_eq!(games[1].you, vec![Side::Black, Side::White]);
    // The public profile: found ignoring case; the game against the AI is a
    // loss, the hot-seat game (against oneself) counts for neither.
    let profile = stranger
        .get_profile("ARCHIVIST", None)
        .await
        .expect("profile");
    assert_eq!(profile.name, "archivist");
    assert_eq!(
        profile.member_since,
        1_000_000 + 1_000 + 48 * 60 * 60 * 1000
    );
    assert_eq!((profile.wins, profile.losses, profile.draws), (0, 1, 0));
    assert_eq!(profile.games.len(), 2);
    assert_eq!(profile.games[0].you, vec![Side::White], "the player's side");
    refused(
        stranger.get_profile("nobody_at_all", None).await,
        404,
        "No such player",
    );
    let (status, page) = stranger.get("/@/nobody_at_all").await.expect("page");
    assert_eq!(status, 404, "an unknown player's page is a 404 page");
    assert!(page.contains("Player not found"));
    let (status, _) = stranger.get("/@/Archivist").await.expect("page");
    assert_eq!(status, 200);
    // A game as GGF, with the names as shown.
    let (status, ggf) = stranger
        .get(&format!("/game/{}/export.ggf", vs_ai.id))
        .await
        .expect("ggf");
    assert_eq!(status, 200);
    assert!(ggf.starts_with("(;GM[Othello]"), "{ggf}");
    assert!(
        ggf.contains("PB[Othello 3D AI depth 1]") && ggf.contains("PW[archivist]"),
        "{ggf}"
    );
    assert!(ggf.contains("RE[+64.000:r]"), "White resigned: {ggf}");
    let (status, _) = stranger.get("/game/00ff/export.ggf").await.expect("answer");
    assert_eq!(status, 404);

    // Paging: older than the newest one only.
    let older = elsewhere
        .my_games(Some(games[0].ended_at))
        .await
        .expect("page");
    assert!(older.iter().all(|g| g.ended_at < games[0].ended_at));
}

#[tokio::test]
async fn two_hundred_sign_ins_at_once_from_fresh_cookies_hit_limits_never_a_5xx() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let owner = live.browser().await;
    owner.sign_up("target", PASSWORD).await.expect("sign up");
    // 200 attempts at the same instant, each from a new cookie.
    let attempts = (0..200).map(|i| {
        let url = live.url.clone();
        async move {
            Client::new(&url)
                .sign_in("target", &format!("guess number {i} of many"))
                .await
        }
    });
    let answers = futures_util::future::join_all(attempts).await;
    let mut statuses = std::collections::BTreeMap::new();
    for answer in &answers {
        let refusal = answer.as_ref().expect_err("no guess is right");
        *statuses.entry(refusal.status).or_insert(0) += 1;
    }
    assert!(
        statuses.keys().all(|s| *s == 422 || *s == 429),
        "only refusals and limits: {statuses:?}"
    );
    assert!(statuses.get(&429).copied().unwrap_or(0) > 0, "{statuses:?}");
    // The owner is not locked out for long: after the waits, the password works.
    live.clock.advance(16 * 60 * 1000);
    owner
        .sign_in("target", PASSWORD)
        .await
        .expect("the owner signs in");
}

#[tokio::test]
async fn changing_the_password_signs_out_the_other_browsers_and_deleting_keeps_the_games() {
    const NEW: &str = "amber lantern drifts north";
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let here = live.browser().await;
    here.sign_up("nefeli", PASSWORD).await.expect("sign up");
    let there = live.browser().await;
    there.sign_in("nefeli", PASSWORD).await.expect("sign in");

    // The current password is required; a guessable new one is refused.
    refused(
        here.change_password("not it at all", NEW).await,
        422,
        "current password",
    );
    refused(
        here.change_password(PASSWORD, "password1234").await,
        422,
        "guess",
    );
    let before = here.token().expect("token");
    here.change_password(PASSWORD, NEW).await.expect("changed");
    assert_ne!(here.token().expect("token"), before, "a new token");
    assert_eq!(here.signed_in_as().await.expect("page"), "nefeli");
    assert_eq!(there.signed_in_as().await.expect("page"), "", "signed out");
    refused(
        there.sign_in("nefeli", PASSWORD).await,
        422,
        "Wrong name or password",
    );
    there
        .sign_in("nefeli", NEW)
        .await
        .expect("the new password");

    // A finished game against another account, then a download of it all.
    let rival = live.browser().await;
    rival.sign_up("orestis", PASSWORD).await.expect("sign up");
    let table = here.create_private(None).await.expect("table");
    let seated = rival.take_seat(&table).await.expect("seat");
    let mover = if seated.you[0] == Side::Black {
        &rival
    } else {
        &here
    };
    let view = mover.get_table(&table).await.expect("view");
    mover.play_move(&table, legal(&view)).await.expect("move");
    here.resign(&table, None).await.expect("resign");
    let (status, data) = here.get("/account/export.json").await.expect("download");
    assert_eq!(status, 200, "{data}");
    let data: serde_json::Value = serde_json::from_str(&data).expect("json");
    assert_eq!(data["name"], "nefeli");
    assert_eq!(data["games"].as_array().expect("games").len(), 1);
    assert_eq!(data["games"][0]["moves"].as_str().expect("moves").len(), 2);
    let anonymous = live.browser().await;
    let (status, _) = anonymous.get("/account/export.json").await.expect("answer");
    assert_eq!(status, 422, "an anonymous browser has no account data");

    // The whole archive as GGF and WTHOR, for anybody.
    let (status, ggf) = anonymous.get("/@/NEFELI/games.ggf").await.expect("ggf");
    assert_eq!(status, 200);
    assert_eq!(ggf.matches("(;").count(), 1, "{ggf}");
    assert!(ggf.contains("nefeli") && ggf.contains("orestis"), "{ggf}");
    let (status, wtb) = anonymous
        .get_bytes("/@/nefeli/games.wtb")
        .await
        .expect("wtb");
    assert_eq!(status, 200);
    assert_eq!(wtb.len(), 16 + 68);
    assert_eq!(u32::from_le_bytes([wtb[4], wtb[5], wtb[6], wtb[7]]), 1);
    let (status, jou) = anonymous
        .get_bytes("/@/nefeli/players.jou")
        .await
        .expect("jou");
    assert_eq!(status, 200);
    assert_eq!(jou.len(), 16 + 2 * 20, "two players");
    let (status, _) = anonymous
        .get("/@/nobody_here/games.wtb")
        .await
        .expect("answer");
    assert_eq!(status, 404);

    // Deleting needs the password; then every browser is out, the name is
    // free, and the rival's game shows "deleted player".
    refused(here.delete_account(PASSWORD).await, 422, "current password");
    here.delete_account(NEW).await.expect("deleted");
    assert_eq!(here.signed_in_as().await.expect("page"), "");
    assert_eq!(there.signed_in_as().await.expect("page"), "");
    let games = rival.my_games(None).await.expect("games");
    assert_eq!(games.len(), 1, "the opponent keeps the game");
    let gone = if games[0].black.name.as_deref() == Some("orestis") {
        &games[0].white
    } else {
        &games[0].black
    };
    assert!(gone.deleted && gone.name.is_none(), "{gone:?}");
    let (status, _) = anonymous.get("/@/nefeli").await.expect("profile page");
    assert_eq!(status, 404);
    refused(
        anonymous.get_profile("nefeli", None).await,
        404,
        "No such player",
    );
}

#[tokio::test]
async fn a_profiles_games_filter_by_mode_and_result_and_page_by_date() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let pavlos = live.browser().await;
    pavlos.sign_up("pavlos", PASSWORD).await.expect("sign up");
    let rival = live.browser().await;
    rival.sign_up("rena", PASSWORD).await.expect("sign up");
    // A hot-seat game, then an online game pavlos resigns.
    let hot = pavlos
        .create_table(TableMode::HotSeat)
        .await
        .expect("table");
    let view = pavlos.get_table(&hot).await.expect("view");
    pavlos.play_move(&hot, legal(&view)).await.expect("move");
    pavlos
        .resign(&hot, Some(Side::White))
        .await
        .expect("resign");
    live.clock.advance(1_000);
    let online = pavlos.create_private(None).await.expect("table");
    let seated = rival.take_seat(&online).await.expect("seat");
    let mover = if seated.you[0] == Side::Black {
        &rival
    } else {
        &pavlos
    };
    let view = mover.get_table(&online).await.expect("view");
    mover.play_move(&online, legal(&view)).await.expect("move");
    // Both sides move (a round where a side never moved is aborted and
    // counts for nobody), then pavlos resigns.
    let other = if std::ptr::eq(mover, &rival) {
        &pavlos
    } else {
        &rival
    };
    let view = other.get_table(&online).await.expect("view");
    other.play_move(&online, legal(&view)).await.expect("move");
    pavlos.resign(&online, None).await.expect("resign");

    let count = |mode: Option<&'static str>, result: Option<&'static str>| {
        let visitor = &rival;
        async move {
            visitor
                .get_profile_filtered("pavlos", None, mode, result)
                .await
                .expect("profile")
                .games
                .len()
        }
    };
    assert_eq!(count(None, None).await, 2);
    assert_eq!(count(Some("online"), None).await, 1);
    assert_eq!(count(Some("hot_seat"), None).await, 1);
    assert_eq!(count(Some("vs_ai"), None).await, 0);
    assert_eq!(count(Some("online"), Some("lost")).await, 1);
    assert_eq!(count(Some("online"), Some("won")).await, 0);
    assert_eq!(count(None, Some("drawn")).await, 0);
    refused(
        rival
            .get_profile_filtered("pavlos", None, Some("chess"), None)
            .await,
        422,
        "Filter games",
    );
    // Paging: games older than the newest one.
    let all = rival.get_profile("pavlos", None).await.expect("profile");
    let older = rival
        .get_profile("pavlos", Some(all.games[0].ended_at))
        .await
        .expect("profile");
    assert_eq!(older.games.len(), 1);
    assert_eq!(older.games[0].id, all.games[1].id);
    // The page reads the same filters from its address.
    let (status, page) = rival.get("/@/pavlos?mode=online").await.expect("page");
    assert_eq!(status, 200);
    assert_eq!(page.matches("class=\"game-line\"").count(), 1, "{page}");
    assert!(page.contains("id=\"profile-filter\""));
}

#[tokio::test]
async fn an_anonymous_players_games_go_with_their_session_and_an_accounts_stay() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let guest = live.browser().await;
    let member = live.browser().await;
    member.sign_up("sotiris", PASSWORD).await.expect("sign up");
    // The guest finishes a hot-seat game alone and an online one with the member.
    let hot = guest.create_table(TableMode::HotSeat).await.expect("table");
    let view = guest.get_table(&hot).await.expect("view");
    guest.play_move(&hot, legal(&view)).await.expect("move");
    guest.resign(&hot, Some(Side::Black)).await.expect("resign");
    let online = guest.create_private(None).await.expect("table");
    member.take_seat(&online).await.expect("seat");
    guest.resign(&online, None).await.ok();
    let view = guest.get_table(&online).await.expect("view");
    if !matches!(view.status, app::protocol::RoundStatus::Over { .. }) {
        let mover = if view.board.legal.is_empty() {
            &member
        } else {
            &guest
        };
        let v = mover.get_table(&online).await.expect("view");
        mover.play_move(&online, legal(&v)).await.expect("move");
        guest.resign(&online, None).await.expect("resign");
    }
    let mine = guest.my_games(None).await.expect("games");
    assert_eq!(mine.len(), 2);
    let alone = mine
        .iter()
        .find(|g| matches!(g.mode, TableMode::HotSeat))
        .expect("the hot-seat game")
        .id
        .clone();

    member
        .get_game(&alone)
        .await
        .expect("kept while the guest's session lives");
    live.hub
        .expire_sessions(7 * 24 * 3600)
        .await
        .expect("expire");
    member
        .get_game(&alone)
        .await
        .expect("a live session keeps it");

    // A week on, the guest's session has expired: their game alone is
    // gone, the one with an account stays for the account.
    live.clock.advance(8 * 24 * 3600 * 1000);
    member
        .signed_in_as()
        .await
        .expect("the member is still around");
    live.hub
        .expire_sessions(7 * 24 * 3600)
        .await
        .expect("expire");
    refused(member.get_game(&alone).await, 404, "No such game");
    assert_eq!(member.my_games(None).await.expect("games").len(), 1);
}
