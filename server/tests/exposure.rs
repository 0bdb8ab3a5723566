//! What an attacker tried against a release server (issue 66), through the
//! real router over HTTP (in process): a flood of one account's data
//! exports is admitted two at a time and served from memory; a report can
//! carry nothing that moves the operator's cursor and names only real
//! tables; a name that looks like a live, deleted or old one is refused,
//! and so is a password of the site's words and a year; whether two
//! players are linked is told to them alone, and a private tournament
//! shows on a profile only to those who played in it.

#[path = "support/pg.rs"]
mod pg;
mod support;

use app::protocol::{Side, TableId, TableMode, TimeControl};
use serde_json::json;
use server::clock::ManualClock;
use support::Live;
use testclient::{Client, Refusal};

const PASSWORD: &str = "violet kettle marches sideways";

fn refused<T: std::fmt::Debug>(answer: Result<T, Refusal>, status: u16, text: &str) {
    let refusal = answer.expect_err("refused");
    assert_eq!(refusal.status, status, "{refusal}");
    assert!(refusal.message.contains(text), "{refusal}");
}

async fn signed_up(live: &Live, name: &str) -> Client {
    let browser = live.browser().await;
    browser.sign_up(name, PASSWORD).await.expect("sign up");
    browser
}

async fn account_id(live: &Live, name: &str) -> i64 {
    live.store
        .account_by_key(name)
        .await
        .expect("store")
        .expect("an account")
        .id
        .get()
}

fn sqlite_url(path: &std::path::Path) -> String {
    format!("sqlite://{}", path.display())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn thirty_parallel_data_exports_with_one_cookie_get_429s_beyond_two_and_one_cached_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db.sqlite");
    let live = Live::start(&path, ManualClock::new(1_000_000)).await;
    let owner = signed_up(&live, "exporter").await;
    // A long archive (each game is read with its players' names), written
    // straight to the database.
    let id = account_id(&live, "exporter").await;
    let pool = sqlx::SqlitePool::connect(&sqlite_url(&path))
        .await
        .expect("sqlite");
    let start = engine::Position::initial().to_obf();
    let mut tx = pool.begin().await.expect("tx");
    for i in 0..400_i64 {
        sqlx::query(
            "INSERT INTO archived_games (id, table_id, round, mode_kind, ai_depth, ai_human, \
             private_link, rated, tournament, black_account, white_ai, start_obf, moves, times, \
             winner, reason, black_discs, white_discs, ended_at) \
             VALUES (?, ?, 1, 'vs_ai', 3, 'black', 0, 0, 0, ?, 3, ?, 'f5d6', '[]', 'black', \
             'finished', 40, 24, ?)",
        )
        .bind(format!("g{i:05}"))
        .bind(format!("t{i:05}"))
        .bind(id)
        .bind(&start)
        .bind(1_000 + i)
        .execute(&mut *tx)
        .await
        .expect("a game");
    }
    tx.commit().await.expect("commit");
    pool.close().await;

    let builds = live.exports.builds();
    let mut sent = Vec::new();
    for _ in 0..30 {
        let browser = owner.clone();
        sent.push(tokio::spawn(async move {
            browser.get("/account/export.json").await.expect("answered")
        }));
    }
    let mut served = Vec::new();
    let mut limited = 0;
    for request in sent {
        let (status, body) = request.await.expect("joined");
        match status {
            200 => served.push(body),
            429 => limited += 1,
            other => panic!("{other}: {body}"),
        }
    }
    assert!(limited >= 15, "most wait: {limited} of 30 limited");
    assert!(!served.is_empty(), "some are served");
    assert!(
        served.iter().all(|body| *body == served[0]),
        "the same file"
    );
    let data: serde_json::Value = serde_json::from_str(&served[0]).expect("JSON");
    assert_eq!(data["name"], "exporter");
    assert_eq!(data["games"].as_array().map(Vec::len), Some(400));
    // Built at most once per export slot; then served from memory.
    let built = live.exports.builds() - builds;
    assert!((1..=2).contains(&built), "{built} builds");
    for _ in 0..3 {
        let (status, again) = owner.get("/account/export.json").await.expect("again");
        assert_eq!(status, 200);
        assert_eq!(again, served[0]);
    }
    assert_eq!(live.exports.builds() - builds, built, "served from memory");
    // Signed out: refused, not built.
    let (status, _) = live
        .browser()
        .await
        .get("/account/export.json")
        .await
        .expect("anonymous");
    assert_eq!(status, 422);
}

#[tokio::test]
async fn a_report_with_control_characters_or_a_table_that_is_no_table_is_refused_and_stores_nothing(
) {
    use app::accounts::ReportReason::Abuse;
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let troll = signed_up(&live, "troll").await;
    let victim = signed_up(&live, "victim").await;
    let forged = "\r\u{1b}[1A\u{1b}[2K#1 0 admin other: all fine";
    refused(
        victim.report_player("troll", None, Abuse, forged).await,
        422,
        "control",
    );
    for text in ["bell\u{7}", "\u{202e}reversed", "\u{9b}2J"] {
        refused(
            victim.report_player("troll", None, Abuse, text).await,
            422,
            "control",
        );
    }
    let escape = TableId::new("\u{1b}[2J");
    refused(
        victim
            .report_player("troll", Some(&escape), Abuse, "insults")
            .await,
        422,
        "not a table id",
    );
    let malformed = TableId::new("a table");
    refused(
        victim
            .report_player("troll", Some(&malformed), Abuse, "insults")
            .await,
        422,
        "not a table id",
    );
    let nowhere = TableId::new("0123456789abcdef");
    refused(
        victim
            .report_player("troll", Some(&nowhere), Abuse, "insults")
            .await,
        404,
        "No such table",
    );
    assert!(
        live.store.reports(true).await.expect("reports").is_empty(),
        "nothing stored"
    );
    // A real table, and a text on two lines: filed.
    let table = troll.create_private(None).await.expect("table");
    victim
        .report_player("troll", Some(&table), Abuse, "insults\nat every move")
        .await
        .expect("filed");
    let reports = live.store.reports(true).await.expect("reports");
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0].table_id.as_deref(), Some(table.as_str()));
    let mut out = Vec::new();
    server::admin::execute(
        &live.store,
        &server::admin::Action::Reports { all: true },
        0,
        &mut out,
    )
    .await
    .expect("listed");
    let listed = String::from_utf8(out).expect("text");
    assert_eq!(listed.lines().count(), 1, "{listed}");
    assert!(
        listed.contains("troll abuse at table") && listed.contains("insults\\nat every move"),
        "{listed}"
    );
}

#[tokio::test]
async fn names_that_look_like_a_live_or_deleted_one_are_taken_and_site_words_with_a_year_are_weak()
{
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    // A deleted name's look-alikes stay taken.
    let alice = signed_up(&live, "alicewonder").await;
    alice.delete_account(PASSWORD).await.expect("deleted");
    for look_alike in ["aIicewonder", "a1icewonder", "ALICE-WONDER", "alicewonder"] {
        let browser = live.browser().await;
        refused(browser.sign_up(look_alike, PASSWORD).await, 422, "taken");
    }
    // A live name's too.
    signed_up(&live, "bobby_k").await;
    for look_alike in ["b0bby_k", "BOBBYK", "b0bby-k", "8obby_k"] {
        let browser = live.browser().await;
        refused(browser.sign_up(look_alike, PASSWORD).await, 422, "taken");
    }
    // The site's words with a year.
    for weak in [
        "othello2024reversi",
        "2024othello",
        "Reversi-2024-Othello3D",
    ] {
        let browser = live.browser().await;
        refused(
            browser.sign_up("carefulcarl", weak).await,
            422,
            "too easy to guess",
        );
    }
    signed_up(&live, "carefulcarl").await;
}

/// Migrations before the folded name was unique (0028 on SQLite, 0019 on
/// PostgreSQL).
fn before_name_fold(
    mut migrator: sqlx::migrate::Migrator,
    version: i64,
) -> sqlx::migrate::Migrator {
    migrator.migrations = std::borrow::Cow::Owned(
        migrator
            .migrations
            .iter()
            .filter(|m| m.version < version)
            .cloned()
            .collect(),
    );
    migrator
}

/// Old accounts, some of whose names look alike once folded.
const OLD_NAMES: [&str; 5] = ["carol_x", "dave", "CAR0L-X", "Caro1x", "erin"];
const OLD_INSERT: &str =
    "INSERT INTO accounts (name, name_key, password_hash, created_at) VALUES ($1, $2, 'x', 0)";

/// The old database migrated: the look-alikes stay (and still open), the
/// operator's report lists them, no new name joins them.
async fn old_look_alikes_are_listed_and_kept_apart(live: &Live) {
    let list = || async {
        let mut out = Vec::new();
        server::admin::execute(
            &live.store,
            &server::admin::Action::NameCollisions,
            0,
            &mut out,
        )
        .await
        .expect("listed");
        String::from_utf8(out).expect("text")
    };
    let listed = list().await;
    assert_eq!(
        listed.trim(),
        "carolx: carol_x, CAR0L-X, Caro1x",
        "{listed}"
    );
    let browser = live.browser().await;
    refused(browser.sign_up("caroIx", PASSWORD).await, 422, "taken");
    refused(browser.sign_up("Dave_", PASSWORD).await, 422, "taken");
    browser.sign_up("frank", PASSWORD).await.expect("sign up");
    assert_eq!(list().await, listed);
}

#[tokio::test]
async fn names_that_already_looked_alike_stay_and_are_listed_and_nothing_new_joins_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db.sqlite");
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(&path)
        .create_if_missing(true);
    let pool = sqlx::SqlitePool::connect_with(options)
        .await
        .expect("sqlite");
    before_name_fold(server::store::rows::sqlite_migrator(), 28)
        .run(&pool)
        .await
        .expect("migrated to 0027");
    for name in OLD_NAMES {
        sqlx::query(&OLD_INSERT.replace('$', "?"))
            .bind(name)
            .bind(name.to_ascii_lowercase())
            .execute(&pool)
            .await
            .expect("an old account");
    }
    pool.close().await;
    let live = Live::start(&path, ManualClock::new(1_000_000)).await;
    old_look_alikes_are_listed_and_kept_apart(&live).await;
}

#[tokio::test]
async fn names_that_already_looked_alike_stay_and_are_listed_on_postgres() {
    let cluster = pg::PgCluster::start();
    let pool = sqlx::PgPool::connect(&cluster.url())
        .await
        .expect("postgres");
    before_name_fold(server::store::rows::postgres_migrator(), 19)
        .run(&pool)
        .await
        .expect("migrated to 0018");
    for name in OLD_NAMES {
        sqlx::query(OLD_INSERT)
            .bind(name)
            .bind(name.to_ascii_lowercase())
            .execute(&pool)
            .await
            .expect("an old account");
    }
    pool.close().await;
    let live = Live::start_postgres(&cluster.url(), ManualClock::new(1_000_000)).await;
    old_look_alikes_are_listed_and_kept_apart(&live).await;
}

#[tokio::test]
async fn only_the_two_linked_players_are_told_they_are_linked() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let booster = live.browser_at("203.0.113.5").await;
    booster.sign_up("booster", PASSWORD).await.expect("up");
    let alt = booster.sibling();
    alt.get("/").await.expect("lobby");
    alt.sign_up("booster_alt", PASSWORD).await.expect("up");
    let table = booster
        .create_table(TableMode::Online {
            private: true,
            time: Some(TimeControl::PRESETS[0]),
            rated: true,
            tournament: false,
        })
        .await
        .expect("rated table");
    alt.take_seat(&table).await.expect("seat");
    for player in [&booster, &alt] {
        let players = player.table_players(&table).await.expect("players");
        assert!(players.linked && !players.rated, "{players:?}");
    }
    let stranger = signed_up(&live, "stranger").await;
    let anonymous = live.browser().await;
    for other in [&stranger, &anonymous] {
        let players = other.table_players(&table).await.expect("players");
        assert!(!players.linked && !players.rated, "{players:?}");
        assert!(players.black.name.is_some(), "{players:?}");
    }
}

#[tokio::test]
async fn a_private_tournament_shows_on_a_profile_only_to_those_who_played_in_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let host = signed_up(&live, "hanna_h").await;
    let guest = signed_up(&live, "petra_p").await;
    let id: String = host
        .call(
            "create_tournament",
            json!({ "new": {
                "name": "Secret Club Cup",
                "control": TimeControl::PRESETS[0],
                "rated": false,
                "private": true,
                "rounds": 1,
                "starts_in_minutes": 60,
            }}),
        )
        .await
        .expect("created");
    host.join_tournament(&id).await.expect("join");
    guest.join_tournament(&id).await.expect("join");
    host.start_tournament(&id).await.expect("started");
    let page: app::tournaments::TournamentView = host
        .call("tournament", json!({ "id": id }))
        .await
        .expect("page");
    let game = &page.rounds[0][0];
    let table = game.table.clone().expect("a table");
    let (white, black) = if game.white.as_deref() == Some("hanna_h") {
        (&host, &guest)
    } else {
        (&guest, &host)
    };
    let view = white.get_table(&table).await.expect("view");
    assert_eq!(view.you, vec![Side::White], "white resigns");
    // (A tournament game is resigned only once someone has moved.)
    black
        .play_move(&table, view.board.legal[0])
        .await
        .expect("black moves");
    white.resign(&table, None).await.expect("resign");
    live.tournaments.tick().await;
    live.tournaments.tick().await;
    let page: app::tournaments::TournamentView = host
        .call("tournament", json!({ "id": id }))
        .await
        .expect("page");
    assert_eq!(page.summary.status, app::tournaments::Status::Finished);

    // The two who played see it on each other's profiles.
    for viewer in [&host, &guest] {
        for name in ["hanna_h", "petra_p"] {
            let profile = viewer.get_profile(name, None).await.expect("profile");
            assert_eq!(profile.tournaments.len(), 1, "{name}");
            assert_eq!(profile.tournaments[0].summary.id.as_str(), id);
        }
    }
    let (status, page) = guest.get("/@/hanna_h").await.expect("page");
    assert_eq!(status, 200);
    assert!(page.contains("Secret Club Cup"), "shown to a player");
    // A stranger and an anonymous visitor see the profile without it.
    let stranger = signed_up(&live, "stranger").await;
    let anonymous = live.browser().await;
    for viewer in [&stranger, &anonymous] {
        for name in ["hanna_h", "petra_p"] {
            let profile = viewer.get_profile(name, None).await.expect("profile");
            assert!(profile.tournaments.is_empty(), "{name}: {profile:?}");
        }
        let (status, page) = viewer.get("/@/hanna_h").await.expect("page");
        assert_eq!(status, 200);
        assert!(!page.contains("Secret Club Cup"), "hidden");
        assert!(page.contains("hanna_h"), "the profile itself is shown");
    }
}
