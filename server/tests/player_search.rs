//! Player search on `/players`, through the real router over HTTP (in
//! process): prefix matches compared as names are (the name fold), each with
//! its ratings, at most 20; a query too short, too long or with characters
//! no name has is refused with 422; a flood from one address meets 429;
//! never a 5xx.

mod support;

use app::protocol::Speed;
use app::ratings::{ShownRating, SEARCH_RESULTS};
use server::clock::{Clock, ManualClock};
use support::Live;

const PASSWORD: &str = "violet kettle marches sideways";

async fn live() -> (tempfile::TempDir, Live) {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(
        &dir.path().join("db.sqlite"),
        ManualClock::new(1_000_000_000),
    )
    .await;
    (dir, live)
}

/// An account made straight in the store (no password hashing: many are
/// needed).
async fn account(live: &Live, name: &str) {
    let created = live
        .store
        .create_account(
            name,
            &name.to_ascii_lowercase(),
            &server::accounts::fold(name),
            "not a hash",
            live.clock.now_ms(),
        )
        .await
        .expect("store");
    assert!(created.is_some(), "{name} is free");
}

async fn set_rating(live: &Live, name: &str, speed: &str, rating: f64, deviation: f64) {
    sqlx::query(
        "INSERT INTO ratings (account_id, speed, rating, deviation, volatility, games, rated_at)
         SELECT id, ?, ?, ?, 0.06, 20, ? FROM accounts WHERE name = ?",
    )
    .bind(speed)
    .bind(rating)
    .bind(deviation)
    .bind(live.clock.now_ms())
    .bind(name)
    .execute(live.store.sqlite().expect("SQLite").pool())
    .await
    .expect("rating");
}

#[tokio::test]
async fn a_prefix_finds_the_players_it_starts_with_and_their_ratings() {
    let (_dir, live) = live().await;
    for name in ["Alice", "alina_k", "Albert", "bob", "Malice"] {
        account(&live, name).await;
    }
    set_rating(&live, "Alice", "blitz", 1712.4, 80.0).await;
    set_rating(&live, "Alice", "rapid", 1540.0, 200.0).await;
    // One signed up as a person does, searched by a stranger.
    let signed = live.browser().await;
    signed.sign_up("alfie", PASSWORD).await.expect("sign up");
    let visitor = live.browser().await;

    let found = visitor.search_players("ali").await.expect("search");
    let names: Vec<&str> = found.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        ["Alice", "alina_k"],
        "prefix matches only, in name order"
    );
    assert_eq!(
        found[0].ratings,
        vec![
            (Speed::Blitz, ShownRating::new(1712.4, 80.0)),
            (Speed::Rapid, ShownRating::new(1540.0, 200.0)),
        ]
    );
    assert_eq!(found[0].ratings[1].1.text(), "1540?");
    assert!(found[1].ratings.is_empty(), "never rated: no rating");

    // Compared folded, as names are: case, separators, 1 for l, 0 for o.
    let folded = visitor.search_players("A1-I").await.expect("search");
    assert_eq!(
        folded.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
        ["Alice", "alina_k"]
    );
    let al = visitor.search_players("al").await.expect("search");
    assert_eq!(
        al.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
        ["Albert", "alfie", "Alice", "alina_k"]
    );
    assert!(visitor
        .search_players("zz")
        .await
        .expect("search")
        .is_empty());
}

#[tokio::test]
async fn a_search_answers_at_most_twenty_players() {
    let (_dir, live) = live().await;
    for n in 0..(SEARCH_RESULTS + 5) {
        account(&live, &format!("capped{n}")).await;
    }
    let visitor = live.browser().await;
    let found = visitor.search_players("cap").await.expect("search");
    assert_eq!(found.len(), SEARCH_RESULTS);
    assert_eq!(found[0].name, "capped0");
}

#[tokio::test]
async fn bad_queries_are_refused_with_422_and_a_flood_with_429_never_a_5xx() {
    let (_dir, live) = live().await;
    account(&live, "Alice").await;
    let visitor = live.browser().await;
    for bad in [
        "a",
        "",
        "a_",
        "--",
        &"a".repeat(21),
        "al%",
        "al ice",
        "ali\u{e9}",
        "a'; --",
    ] {
        let refused = visitor.search_players(bad).await.expect_err(bad);
        assert_eq!(refused.status, 422, "{bad:?}: {}", refused.message);
    }
    // Not a string, or no prefix at all: the request is malformed.
    let (status, _) = visitor
        .call_raw("search_players", &serde_json::json!({ "prefix": 12 }))
        .await
        .expect("call");
    assert_eq!(status, 400);
    let (status, _) = visitor
        .call_raw("search_players", &serde_json::json!({}))
        .await
        .expect("call");
    assert_eq!(status, 400);
    // One address: at most 30 searches a minute (the refusals above counted
    // nothing); another address is not held up.
    let mut statuses = Vec::new();
    for _ in 0..40 {
        statuses.push(match visitor.search_players("ali").await {
            Ok(_) => 200,
            Err(refused) => refused.status,
        });
    }
    assert_eq!(
        statuses.iter().filter(|&&s| s == 200).count(),
        30,
        "{statuses:?}"
    );
    assert!(
        statuses.iter().all(|&s| s == 200 || s == 429),
        "{statuses:?}"
    );
    let other = live.browser().await;
    assert_eq!(other.search_players("ali").await.expect("search").len(), 1);
    // A minute later the address may search again.
    live.clock.advance(61_000);
    assert_eq!(
        visitor.search_players("ali").await.expect("search").len(),
        1
    );
}
