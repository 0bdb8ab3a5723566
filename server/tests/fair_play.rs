// Over 600 lines: one scenario per finding of the fair-play issue, all on the shared in-process server helpers; split by topic they would each repeat the same setup.
//! Fair play end to end, through the real router over HTTP (in process):
//! deleting an account mid-game never jams its table (SQLite and
//! PostgreSQL), rounds where a side never moved count for nobody, accounts
//! seen from one address or browser never rate each other, sign-in bursts
//! get only the free verifications, names that impersonate the site or a
//! deleted player are refused, and switching accounts ends the old token.

mod common;
#[path = "support/pg.rs"]
mod pg;
mod support;

use app::protocol::{EndReason, RoundStatus, Side, TableId, TableMode, TableView, TimeControl};
use server::clock::ManualClock;
use support::Live;
use testclient::{Client, Refusal};

const PASSWORD: &str = "violet kettle marches sideways";

const RATED: TableMode = TableMode::Online {
    private: true,
    time: Some(TimeControl::PRESETS[0]),
    rated: true,
    tournament: false,
};

fn refused<T: std::fmt::Debug>(answer: Result<T, Refusal>, status: u16, text: &str) {
    let refusal = answer.expect_err("refused");
    assert_eq!(refusal.status, status, "{refusal}");
    assert!(refusal.message.contains(text), "{refusal}");
}

/// `first` makes a rated table and `second` sits: (black, white, table).
async fn seat_rated(first: Client, second: Client) -> (Client, Client, TableId) {
    let table = first.create_table(RATED).await.expect("rated table");
    let seated = second.take_seat(&table).await.expect("seat");
    if seated.you == vec![Side::Black] {
        (second, first, table)
    } else {
        (first, second, table)
    }
}

async fn play_one(client: &Client, table: &TableId) -> TableView {
    let view = client.get_table(table).await.expect("view");
    let square = *view.board.legal.first().expect("a legal move");
    client.play_move(table, square).await.expect("move")
}

async fn signed_up(live: &Live, name: &str) -> Client {
    let browser = live.browser().await;
    browser.sign_up(name, PASSWORD).await.expect("sign up");
    browser
}

/// A rated game under way (both moved), then one player deletes their
/// account: the round ends at once as their resignation, the opponent's
/// commands keep working (no 503), and nothing is left referencing the
/// deleted account.
async fn deletion_mid_game(live: &Live) {
    let (black, white, table) = seat_rated(
        signed_up(live, "stayer").await,
        signed_up(live, "leaver").await,
    )
    .await;
    let (stayer, leaver) = if black.signed_in_as().await.expect("page") == "stayer" {
        (&black, &white)
    } else {
        (&white, &black)
    };
    play_one(&black, &table).await;
    play_one(&white, &table).await;
    leaver.delete_account(PASSWORD).await.expect("deleted");
    let view = stayer.get_table(&table).await.expect("view");
    let RoundStatus::Over { winner, reason } = view.status else {
        panic!("the round ended with the deletion: {:?}", view.status);
    };
    assert_eq!(reason, EndReason::Resigned);
    assert_eq!(
        winner,
        stayer
            .get_table(&table)
            .await
            .expect("v")
            .you
            .first()
            .copied()
    );
    // The stayer's commands answer as the rules say, never "could not save".
    refused(stayer.resign(&table, None).await, 422, "over");
    let ratings = stayer.my_ratings().await.expect("ratings");
    assert_eq!(ratings.len(), 1, "rated while both accounts existed");
    assert!(ratings[0].rating.rating > 1500, "{ratings:?}");
    // The game shows "deleted player" for the leaver.
    let profile = stayer.get_profile("stayer", None).await.expect("profile");
    let game = &profile.games[0];
    assert!(game.black.deleted || game.white.deleted, "{game:?}");
    // An account deleted from under a running game (an operator closing
    // it, bypassing the hub): the round's end is still written, unrated.
    let (black, white, table) = seat_rated(
        signed_up(live, "second_stayer").await,
        signed_up(live, "closed_one").await,
    )
    .await;
    play_one(&black, &table).await;
    play_one(&white, &table).await;
    let closed = live
        .store
        .account_by_key("closed_one")
        .await
        .expect("read")
        .expect("account");
    assert!(live
        .store
        .delete_account(closed.id, "x", "closed", 1)
        .await
        .expect("closed"));
    let resigned = black.resign(&table, None).await;
    let resigned = match resigned {
        Ok(view) => view,
        // The closed account was black: white resigns instead.
        Err(_) => white.resign(&table, None).await.expect("resign"),
    };
    assert!(matches!(resigned.status, RoundStatus::Over { .. }));
    let players = black.table_players(&table).await.expect("players");
    assert_eq!(players.black.change, None, "nothing rated");
    assert_eq!(players.white.change, None, "nothing rated");
}

#[tokio::test]
async fn deleting_an_account_mid_game_ends_its_round_and_never_jams_the_table_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    deletion_mid_game(&live).await;
}

#[tokio::test]
async fn deleting_an_account_mid_game_ends_its_round_and_never_jams_the_table_on_postgres() {
    let pg = pg::PgCluster::start();
    let live = Live::start_postgres(&pg.url(), ManualClock::new(1_000_000)).await;
    deletion_mid_game(&live).await;
}

#[tokio::test]
async fn a_round_where_a_side_never_moved_is_aborted_everywhere_it_is_counted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (black, white, table) = seat_rated(
        signed_up(&live, "quick").await,
        signed_up(&live, "quitter").await,
    )
    .await;
    play_one(&black, &table).await;
    // White resigns without ever placing a disc.
    white.resign(&table, None).await.expect("resign");
    for name in ["quick", "quitter"] {
        let profile = black.get_profile(name, None).await.expect("profile");
        assert_eq!(
            (profile.wins, profile.losses, profile.draws),
            (0, 0, 0),
            "{name}"
        );
        assert_eq!(profile.games.len(), 1);
        assert_eq!(profile.games[0].reason, EndReason::Aborted);
        assert_eq!(profile.games[0].winner, None);
    }
    assert!(black.my_ratings().await.expect("ratings").is_empty());
    // The export says so too.
    let (status, text) = black.get("/@/quick/games.ggf").await.expect("ggf");
    assert_eq!(status, 200);
    assert!(text.contains("RE[?]"), "{text}");
}

#[tokio::test]
async fn accounts_from_one_address_play_unrated_and_are_never_paired_rated() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let booster = live.browser_at("203.0.113.5").await;
    booster.sign_up("booster", PASSWORD).await.expect("up");
    let alt = booster.sibling();
    alt.get("/").await.expect("lobby");
    alt.sign_up("booster_alt", PASSWORD).await.expect("up");
    let (black, white, table) = seat_rated(booster.clone(), alt.clone()).await;
    // Said before the first move.
    let players = black.table_players(&table).await.expect("players");
    assert!(players.linked && !players.rated, "{players:?}");
    play_one(&black, &table).await;
    play_one(&white, &table).await;
    white.resign(&table, None).await.expect("resign");
    assert!(black.my_ratings().await.expect("ratings").is_empty());
    assert!(white.my_ratings().await.expect("ratings").is_empty());
    // The same browser (its device cookie) from another address links too.
    let moved = booster.same_device_at("203.0.113.77");
    moved.get("/").await.expect("lobby");
    moved.sign_up("other_alt", PASSWORD).await.expect("up");
    let (_, _, other_table) = seat_rated(moved.clone(), booster.clone()).await;
    let players = moved.table_players(&other_table).await.expect("players");
    assert!(players.linked && !players.rated, "{players:?}");
    // A stranger's browser from elsewhere is not linked.
    let honest = signed_up(&live, "honest").await;
    let (_, _, honest_table) = seat_rated(honest.clone(), booster.clone()).await;
    let players = honest.table_players(&honest_table).await.expect("players");
    assert!(players.rated && !players.linked, "{players:?}");

    linked_accounts_are_never_paired_rated(&live, &booster, &alt).await;
}

/// Behind a proxy, requests that arrive without the client-address header
/// share no address: two accounts each seen that way are not linked (the
/// browser suite's WebSockets carry no such header, as Playwright cannot set
/// one there).
#[tokio::test]
async fn requests_without_a_client_address_link_nobody() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let one = signed_up(&live, "headerless_one").await;
    let two = signed_up(&live, "headerless_two").await;
    for client in [&one, &two] {
        let bare = client.without_address();
        let (status, _) = bare.get("/").await.expect("lobby");
        assert_eq!(status, 200);
        assert!(bare.signed_in_as().await.is_ok());
    }
    let (black, _, table) = seat_rated(one, two).await;
    let players = black.table_players(&table).await.expect("players");
    assert!(players.rated && !players.linked, "{players:?}");
}

/// Rated quick match: the two linked accounts wait side by side unpaired;
/// a third account from elsewhere is paired with one of them.
async fn linked_accounts_are_never_paired_rated(live: &Live, booster: &Client, alt: &Client) {
    let mut first = booster
        .socket("/ws/queue?base=180&inc=2&rated=1")
        .await
        .expect("queued");
    assert!(matches!(
        first.next_message().await.expect("message"),
        app::protocol::ServerMessage::Queued
    ));
    let mut second = alt
        .socket("/ws/queue?base=180&inc=2&rated=1")
        .await
        .expect("queued");
    assert!(matches!(
        second.next_message().await.expect("message"),
        app::protocol::ServerMessage::Queued
    ));
    let stranger = signed_up(live, "stranger").await;
    let mut third = stranger
        .socket("/ws/queue?base=180&inc=2&rated=1")
        .await
        .expect("queued");
    assert!(matches!(
        third.next_message().await.expect("message"),
        app::protocol::ServerMessage::Matched { .. }
    ));
}

/// The shared queue (several instances on PostgreSQL) keeps linked accounts
/// apart too: its look compares the waiting player's account with the
/// links in SQL.
#[tokio::test]
async fn accounts_from_one_address_are_never_paired_rated_in_the_shared_queue() {
    let pg = pg::PgCluster::start();
    let live = Live::start_postgres(&pg.url(), ManualClock::new(1_000_000)).await;
    let booster = live.browser_at("203.0.113.5").await;
    booster.sign_up("booster", PASSWORD).await.expect("up");
    let alt = booster.sibling();
    alt.get("/").await.expect("lobby");
    alt.sign_up("booster_alt", PASSWORD).await.expect("up");
    linked_accounts_are_never_paired_rated(&live, &booster, &alt).await;
}

#[tokio::test]
async fn thirty_simultaneous_wrong_passwords_get_only_the_free_verifications() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    signed_up(&live, "target").await;
    let mut attempts = Vec::new();
    for _ in 0..30 {
        let attacker = live.browser().await;
        attempts.push(tokio::spawn(async move {
            attacker
                .sign_in("target", "a wrong guess here")
                .await
                .expect_err("wrong")
                .status
        }));
    }
    let mut statuses = Vec::new();
    for attempt in attempts {
        statuses.push(attempt.await.expect("joined"));
    }
    let verified = statuses.iter().filter(|s| **s == 422).count();
    let waited = statuses.iter().filter(|s| **s == 429).count();
    assert_eq!(verified, 5, "{statuses:?}");
    assert_eq!(waited, 25, "{statuses:?}");
}

#[tokio::test]
async fn impersonating_and_reused_names_are_refused_and_switching_accounts_ends_the_old_token() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let visitor = live.browser().await;
    for name in ["admin_5976", "Support-122", "m0derator341"] {
        refused(visitor.sign_up(name, PASSWORD).await, 422, "reserved");
    }
    refused(
        visitor.sign_up("plainname", "site-based").await,
        422,
        "guess",
    );
    refused(
        visitor
            .sign_up("plainname", &"long words ".repeat(20))
            .await,
        422,
        "at most 128",
    );
    // A deleted name is never taken again (nor its look-alikes).
    let gone = signed_up(&live, "Vanished_1").await;
    gone.delete_account(PASSWORD).await.expect("deleted");
    for name in ["vanished_1", "VANISHED-l"] {
        refused(visitor.sign_up(name, PASSWORD).await, 422, "taken");
    }
    // Switching accounts in one browser ends the previous account's token.
    signed_up(&live, "first_acct").await;
    signed_up(&live, "second_acct").await;
    let browser = live.browser().await;
    browser.sign_in("first_acct", PASSWORD).await.expect("in");
    let old = browser.token().expect("token");
    browser.sign_in("second_acct", PASSWORD).await.expect("in");
    let replay = live.browser_with(&old);
    assert_eq!(replay.signed_in_as().await.expect("page"), "");
    assert_eq!(browser.signed_in_as().await.expect("page"), "second_acct");
}

/// A rated game under way whose rating writes all fail (`break_ratings`
/// installs a failing trigger): the result is refused with 503 (nothing
/// changed) until the bounded number of tries, then written unrated.
async fn bounded_failures(live: &Live, break_ratings: &str) {
    let (black, white, table) = seat_rated(
        signed_up(live, "patient").await,
        signed_up(live, "unlucky").await,
    )
    .await;
    play_one(&black, &table).await;
    play_one(&white, &table).await;
    // Every rating write fails from now on (a broken ratings table).
    for statement in break_ratings.split(";;") {
        match live.store.sqlite() {
            Some(sqlite) => sqlx::query(statement)
                .execute(sqlite.pool())
                .await
                .map(|_| ()),
            None => {
                let pg = live.store.postgres().expect("PostgreSQL");
                sqlx::query(statement).execute(pg.pool()).await.map(|_| ())
            }
        }
        .expect("trigger");
    }
    // On PostgreSQL a failed command is decided once more on the stored
    // table, so each request may make two tries: count requests loosely.
    let mut refused_before = 0u32;
    let view = loop {
        match white.resign(&table, None).await {
            Ok(view) => break view,
            Err(refusal) => {
                assert_eq!(refusal.status, 503, "{refusal}");
                refused_before += 1;
                assert!(
                    refused_before < server::hub::MAX_FAILED_ROUND_COMMITS,
                    "bounded"
                );
                // Nothing changed: the game is still on.
                let view = black.get_table(&table).await.expect("view");
                assert!(matches!(view.status, RoundStatus::Playing { .. }));
            }
        }
    };
    assert!(refused_before >= 1, "the first tries were refused");
    assert!(matches!(view.status, RoundStatus::Over { .. }));
    assert!(
        view.notice
            .as_ref()
            .is_some_and(|n| n.to_string().contains("ends unrated")),
        "{:?}",
        view.notice
    );
    let players = black.table_players(&table).await.expect("players");
    assert_eq!((players.black.change, players.white.change), (None, None));
    assert!(black.my_ratings().await.expect("ratings").is_empty());
    assert_eq!(
        live.hub
            .metrics()
            .rounds_unrated_after_failures_total
            .load(std::sync::atomic::Ordering::Relaxed),
        1
    );
    // Later commands work as usual.
    white
        .vote_rematch(&table, None, true)
        .await
        .expect("a rematch vote is saved");
}

#[tokio::test]
async fn a_rated_result_that_keeps_failing_to_save_ends_unrated_after_bounded_tries_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    bounded_failures(
        &live,
        "CREATE TRIGGER broken_ratings BEFORE INSERT ON rating_history \
         BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
    )
    .await;
}

#[tokio::test]
async fn a_rated_result_that_keeps_failing_to_save_ends_unrated_after_bounded_tries_on_postgres() {
    let pg = pg::PgCluster::start();
    let live = Live::start_postgres(&pg.url(), ManualClock::new(1_000_000)).await;
    bounded_failures(
        &live,
        "CREATE FUNCTION injected_failure() RETURNS trigger AS $$ \
         BEGIN RAISE EXCEPTION 'injected failure'; END $$ LANGUAGE plpgsql;;\
         CREATE TRIGGER broken_ratings BEFORE INSERT ON rating_history \
         FOR EACH ROW EXECUTE FUNCTION injected_failure()",
    )
    .await;
}

/// `othello-server --database <db> admin <args…>`: its output, or a panic
/// with its error.
fn admin(database: &std::path::Path, args: &[&str]) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_othello-server"))
        .arg("--database")
        .arg(database)
        .arg("admin")
        .args(args)
        .output()
        .expect("the admin command runs");
    assert!(
        output.status.success(),
        "admin {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).to_string()
}

#[tokio::test]
async fn an_operator_closes_a_reported_account_and_marks_a_rating_abuser_with_every_action_logged()
{
    let dir = tempfile::tempdir().expect("tempdir");
    let database = dir.path().join("db.sqlite");
    let live = Live::start(&database, ManualClock::new(1_000_000)).await;
    let troll = signed_up(&live, "troll").await;
    let victim = signed_up(&live, "victim").await;
    use app::accounts::ReportReason::{Abuse, Other};
    use app::protocol::Speed;
    victim
        .report_player("troll", None, Abuse, "insults at every table")
        .await
        .expect("reported");
    refused(
        troll.report_player("troll", None, Other, "x").await,
        422,
        "yourself",
    );
    refused(
        victim
            .report_player("nobody_at_all", None, Other, "x")
            .await,
        404,
        "No such player",
    );
    refused(
        victim
            .report_player("troll", None, Other, &"x".repeat(501))
            .await,
        422,
        "500 characters",
    );
    // Capped per address (and per reporter) per day.
    let reporter = live.browser_at("203.0.113.200").await;
    for _ in 0..4 {
        reporter
            .report_player("troll", None, Other, "again")
            .await
            .expect("reported");
    }
    let same_address = live.browser_at("203.0.113.200").await;
    for _ in 0..1 {
        same_address
            .report_player("troll", None, Other, "again")
            .await
            .expect("the fifth");
    }
    refused(
        same_address
            .report_player("troll", None, Other, "and again")
            .await,
        429,
        "Too many reports",
    );

    let listed = admin(&database, &["reports"]);
    assert!(
        listed.contains("troll abuse: insults at every table"),
        "{listed}"
    );
    assert_eq!(listed.lines().count(), 6, "{listed}");
    let closed = admin(&database, &["close", "troll", "--reason", "abusive"]);
    assert!(closed.contains("closed troll"), "{closed}");
    assert!(closed.contains("6 report(s) closed"), "{closed}");
    assert_eq!(admin(&database, &["reports"]).trim(), "no reports");
    assert!(admin(&database, &["reports", "--all"]).contains("(closed)"));
    // The closed account can no longer sign in, its name stays reserved, its
    // browser is signed out (once the identity cache's few seconds pass).
    live.clock.advance(10_000);
    assert_eq!(troll.signed_in_as().await.expect("page"), "");
    refused(troll.sign_in("troll", PASSWORD).await, 422, "Wrong");
    refused(troll.sign_up("troll", PASSWORD).await, 422, "taken");
    // The victim keeps everything.
    assert_eq!(victim.signed_in_as().await.expect("page"), "victim");

    // A rating abuser: its rated results stop counting for opponents and it
    // leaves the leaderboard.
    let marked = admin(&database, &["mark-abuser", "victim"]);
    assert!(
        marked.contains("victim marked as a rating abuser"),
        "{marked}"
    );
    let opponent = signed_up(&live, "opponent").await;
    let (black, white, table) = seat_rated(opponent.clone(), victim.clone()).await;
    play_one(&black, &table).await;
    play_one(&white, &table).await;
    black.resign(&table, None).await.expect("resign");
    assert!(opponent.my_ratings().await.expect("ratings").is_empty());
    assert!(victim.my_ratings().await.expect("ratings").is_empty());
    assert!(opponent
        .leaderboard(Speed::Blitz)
        .await
        .expect("board")
        .iter()
        .all(|line| line.name != "victim"));
    let log = admin(&database, &["log"]);
    assert!(log.contains("close account"), "{log}");
    assert!(log.contains("mark-abuser account"), "{log}");
}

/// A form POST as a browser without JavaScript sends it: (status, the
/// `Location`, the `Set-Cookie` values).
async fn form(
    url: &str,
    path: &str,
    cookie: &str,
    origin: Option<&str>,
    fields: &[(&str, &str)],
) -> (u16, String, Vec<String>) {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let body: String = fields
        .iter()
        .map(|(k, v)| format!("{k}={}", v.replace(' ', "+")))
        .collect::<Vec<_>>()
        .join("&");
    let mut request = http
        .post(format!("{url}{path}"))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("cookie", cookie)
        .body(body);
    if let Some(origin) = origin {
        request = request.header("origin", origin);
    }
    let response = request.send().await.expect("form sent");
    let location = response
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let cookies = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or_default().to_string())
        .collect();
    (response.status().as_u16(), location, cookies)
}

fn session_from(cookies: &[String]) -> String {
    cookies
        .iter()
        .find(|c| c.starts_with("othello_session="))
        .cloned()
        .expect("a new session cookie")
}

#[tokio::test]
async fn the_account_forms_work_without_javascript_and_only_from_the_site() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let url = live.url.clone();
    let visitor = live.browser().await;
    let cookie = format!("othello_session={}", visitor.token().expect("token"));
    // Another site's page cannot sign anybody up or in.
    let (status, _, _) = form(
        &url,
        "/account/sign-up",
        &cookie,
        Some("http://evil.example"),
        &[("username", "formuser"), ("new-password", PASSWORD)],
    )
    .await;
    assert_eq!(status, 403);
    let (status, _, _) = form(&url, "/account/sign-in", &cookie, None, &[]).await;
    assert_eq!(status, 403, "no Origin and no Sec-Fetch-Site");
    // Signing up with the site's own form: a redirect and a new session.
    let (status, location, cookies) = form(
        &url,
        "/account/sign-up",
        &cookie,
        Some(&url),
        &[("username", "formuser"), ("new-password", PASSWORD)],
    )
    .await;
    assert_eq!((status, location.as_str()), (303, "/"));
    let signed = testclient::Client::with_token(
        &url,
        session_from(&cookies).trim_start_matches("othello_session="),
    );
    assert_eq!(signed.signed_in_as().await.expect("page"), "formuser");
    // A refusal comes back to the account page, never in the URL.
    let (status, location, cookies) = form(
        &url,
        "/account/sign-in",
        &cookie,
        Some(&url),
        &[("username", "formuser"), ("password", "not the password")],
    )
    .await;
    assert_eq!((status, location.as_str()), (303, "/account"));
    let flash = cookies
        .iter()
        .find(|c| c.starts_with("othello_flash="))
        .expect("the refusal's cookie");
    let page = reqwest::Client::new()
        .get(format!("{url}/account"))
        .header("cookie", format!("{cookie}; {flash}"))
        .send()
        .await
        .expect("page");
    let clears = page.headers().get_all("set-cookie").iter().any(|v| {
        v.to_str()
            .unwrap_or_default()
            .starts_with("othello_flash=;")
    });
    let text = page.text().await.expect("text");
    assert!(text.contains("id=\"account-flash\""), "shown");
    assert!(text.contains("Wrong name or password."), "shown");
    assert!(clears, "shown once");
    // Signing in, then out, with forms.
    let (status, _, cookies) = form(
        &url,
        "/account/sign-in",
        &cookie,
        Some(&url),
        &[("username", "formuser"), ("password", PASSWORD)],
    )
    .await;
    assert_eq!(status, 303);
    let session = session_from(&cookies);
    let (status, location, cookies) =
        form(&url, "/account/sign-out", &session, Some(&url), &[]).await;
    assert_eq!((status, location.as_str()), (303, "/"));
    assert_ne!(session_from(&cookies), session);
    let old = testclient::Client::with_token(&url, session.trim_start_matches("othello_session="));
    assert_eq!(old.signed_in_as().await.expect("page"), "", "signed out");
    // A body that is no form is a 4xx, never a 5xx; an unknown form 404.
    let (status, _, _) = form(&url, "/account/nonsense", &cookie, Some(&url), &[]).await;
    assert_eq!(status, 404);
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let status = http
        .post(format!("{url}/account/sign-in"))
        .header("origin", &url)
        .header("content-type", "application/json")
        .header("cookie", &cookie)
        .body("{\"username\": 1}")
        .send()
        .await
        .expect("sent")
        .status()
        .as_u16();
    assert!((400..500).contains(&status), "{status}");
}

#[tokio::test]
async fn a_players_export_is_built_once_per_new_game_and_served_from_memory_between() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (black, white, table) = seat_rated(
        signed_up(&live, "exported").await,
        signed_up(&live, "rival_two").await,
    )
    .await;
    play_one(&black, &table).await;
    play_one(&white, &table).await;
    black.resign(&table, None).await.expect("resign");
    let anonymous = live.browser().await;
    let (status, first) = anonymous.get("/@/exported/games.ggf").await.expect("ggf");
    assert_eq!(status, 200);
    assert_eq!(first.matches("(;GM[Othello]").count(), 1, "{first}");
    let builds = live.exports.builds();
    for path in ["/@/exported/games.ggf", "/@/EXPORTED/games.ggf"] {
        let (_, again) = anonymous.get(path).await.expect("ggf");
        assert_eq!(again, first);
    }
    assert_eq!(live.exports.builds(), builds, "served from memory");
    // A new game: the next download is built afresh and has it.
    white.vote_rematch(&table, None, true).await.expect("vote");
    black.vote_rematch(&table, None, true).await.expect("vote");
    play_one(&black, &table).await;
    play_one(&white, &table).await;
    white.resign(&table, None).await.expect("resign");
    let (_, second) = anonymous.get("/@/exported/games.ggf").await.expect("ggf");
    assert_eq!(second.matches("(;GM[Othello]").count(), 2, "{second}");
    assert_eq!(live.exports.builds(), builds + 1);
    let (status, wtb) = anonymous
        .get_bytes("/@/exported/games.wtb")
        .await
        .expect("wtb");
    assert_eq!(status, 200);
    assert_eq!(wtb.len(), 16 + 2 * 68, "a WTHOR header and two games");
    let (status, _) = anonymous
        .get("/@/nobody_here/games.ggf")
        .await
        .expect("404");
    assert_eq!(status, 404);
}

#[tokio::test]
async fn cookies_are_secure_with_host_names_whenever_the_public_url_is_https() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cookies_of = |response: &reqwest::Response| -> Vec<String> {
        response
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok().map(str::to_string))
            .collect()
    };
    let https = common::InProcess::start(
        &dir.path().join("https.db"),
        &["--public-url", "https://othello.example"],
    )
    .await;
    let response = reqwest::get(format!("{}/", https.url))
        .await
        .expect("lobby");
    let cookies = cookies_of(&response);
    for name in ["__Host-othello_session=", "__Host-othello_device="] {
        let cookie = cookies
            .iter()
            .find(|c| c.starts_with(name))
            .unwrap_or_else(|| panic!("{name} in {cookies:?}"));
        assert!(
            cookie.contains("Secure") && cookie.contains("Path=/"),
            "{cookie}"
        );
        assert!(!cookie.contains("Domain"), "{cookie}");
    }
    // A token under the prefixed name is the browser's session.
    let token = cookies[0]
        .split(';')
        .next()
        .and_then(|c| c.split_once('='))
        .map(|(_, t)| t.to_string())
        .expect("token");
    let again = reqwest::Client::new()
        .get(format!("{}/", https.url))
        .header("cookie", format!("__Host-othello_session={token}"))
        .send()
        .await
        .expect("lobby");
    assert!(
        cookies_of(&again)
            .iter()
            .any(|c| c.starts_with(&format!("__Host-othello_session={token}"))),
        "renewed, not replaced"
    );
    // Plain HTTP (no https public URL): plain names, not Secure.
    let plain = common::InProcess::start(&dir.path().join("plain.db"), &[]).await;
    let response = reqwest::get(format!("{}/", plain.url))
        .await
        .expect("lobby");
    let cookies = cookies_of(&response);
    assert!(cookies
        .iter()
        .any(|c| c.starts_with("othello_session=") && !c.contains("Secure")));
}

#[tokio::test]
async fn thirty_simultaneous_reports_from_fresh_cookies_on_one_address_file_only_the_cap() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    signed_up(&live, "reported").await;
    let mut sent = Vec::new();
    for _ in 0..30 {
        let reporter = live.browser_at("203.0.113.99").await;
        sent.push(tokio::spawn(async move {
            reporter
                .report_player("reported", None, app::accounts::ReportReason::Other, "spam")
                .await
                .map_err(|r| r.status)
        }));
    }
    let mut statuses = Vec::new();
    for report in sent {
        statuses.push(report.await.expect("joined"));
    }
    let filed = statuses.iter().filter(|s| s.is_ok()).count();
    assert_eq!(filed, 5, "{statuses:?}");
    assert!(
        statuses.iter().all(|s| matches!(s, Ok(()) | Err(429))),
        "{statuses:?}"
    );
    assert_eq!(live.store.reports(true).await.expect("reports").len(), 5);
}
