//! Rated games end to end, with the server in process: who may play one,
//! the Glicko-2 change written once with the round's result, a round ended
//! before both sides moved left unrated, the players card, profiles and the
//! leaderboard.

mod support;

use app::protocol::{RoundStatus, Side, Speed, TableId, TableMode, TableView, TimeControl};
use server::clock::{Clock, ManualClock};
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

fn side_of(view: &TableView) -> Side {
    *view.you.first().expect("seated")
}

/// Two signed-in players seated at a new rated table: (black, white, table).
async fn rated_table(live: &Live, a: &str, b: &str) -> (Client, Client, TableId) {
    let first = live.browser().await;
    first.sign_up(a, PASSWORD).await.expect("sign up");
    let second = live.browser().await;
    second.sign_up(b, PASSWORD).await.expect("sign up");
    let table = first.create_table(RATED).await.expect("rated table");
    let seated = second.take_seat(&table).await.expect("seat");
    let (black, white) = if side_of(&seated) == Side::Black {
        (second, first)
    } else {
        (first, second)
    };
    (black, white, table)
}

async fn play_one(client: &Client, table: &TableId) -> TableView {
    let view = client.get_table(table).await.expect("view");
    let square = *view.board.legal.first().expect("a legal move");
    client.play_move(table, square).await.expect("move")
}

#[tokio::test]
async fn only_signed_in_players_play_rated_and_only_timed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let anonymous = live.browser().await;
    refused(
        anonymous.create_table(RATED).await,
        422,
        "signed-in players",
    );
    let member = live.browser().await;
    member.sign_up("irini", PASSWORD).await.expect("sign up");
    refused(
        member
            .create_table(TableMode::Online {
                private: true,
                time: None,
                rated: true,
                tournament: false,
            })
            .await,
        422,
        "timed",
    );
    let table = member.create_table(RATED).await.expect("rated table");
    // An anonymous visitor may watch, not sit.
    refused(anonymous.take_seat(&table).await, 422, "signed-in players");
    let view = anonymous.get_table(&table).await.expect("watch");
    assert!(view.you.is_empty());
    assert!(
        !view
            .seats
            .expect("seats")
            .get(side_of(&member.get_table(&table).await.expect("view")).opponent())
            .taken
    );
    // The rated quick-match line is closed to anonymous players before the upgrade.
    let refusal = anonymous
        .socket("/ws/queue?base=180&inc=2&rated=1")
        .await
        .err()
        .expect("refused");
    assert_eq!(refusal.status, 400, "{refusal}");
    assert!(refusal.message.contains("signed-in"), "{refusal}");
    let refusal = member
        .socket("/ws/queue?base=180&inc=2&rated=7")
        .await
        .err()
        .expect("refused");
    assert_eq!(refusal.status, 400, "{refusal}");
}

#[tokio::test]
async fn a_rated_round_changes_both_ratings_once_and_everyone_sees_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (black, white, table) = rated_table(&live, "anna", "basil").await;
    let black_name = if black.signed_in_as().await.expect("page") == "anna" {
        "anna"
    } else {
        "basil"
    };
    let white_name = if black_name == "anna" {
        "basil"
    } else {
        "anna"
    };

    // Before the end: names and provisional ratings, no change yet.
    let players = black.table_players(&table).await.expect("players");
    assert!(players.rated);
    assert_eq!(players.black.name.as_deref(), Some(black_name));
    assert_eq!(players.white.name.as_deref(), Some(white_name));
    assert_eq!(players.black.rating.expect("rating").text(), "1500?");
    assert_eq!(players.black.change, None);

    play_one(&black, &table).await;
    play_one(&white, &table).await;
    let view = black.resign(&table, None).await.expect("resign");
    assert!(matches!(
        view.status,
        RoundStatus::Over {
            winner: Some(Side::White),
            ..
        }
    ));

    // Glicko-2 for two new players: the winner gains what the loser loses.
    let players = white.table_players(&table).await.expect("players");
    let up = players.white.change.expect("white's change");
    let down = players.black.change.expect("black's change");
    assert!(up > 100, "a new player's first win moves a lot: {up}");
    assert_eq!(up, -down);
    assert_eq!(players.white.rating.expect("rating").rating, 1500 + up);

    // Stored once: one game each, one history point each.
    let mine = white.my_ratings().await.expect("ratings");
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0].speed, Speed::Blitz);
    assert_eq!(mine[0].games, 1);
    assert_eq!(mine[0].history.len(), 1);
    assert_eq!(mine[0].rating.rating, 1500 + up);
    // The loser's profile shows it to anybody.
    let stranger = live.browser().await;
    let profile = stranger
        .get_profile(black_name, None)
        .await
        .expect("profile");
    assert_eq!(profile.ratings.len(), 1);
    assert_eq!(profile.ratings[0].rating.rating, 1500 + down);
    assert!(profile.ratings[0].rating.provisional);
    // The archived game kept both sides' ratings before and after.
    let game = &profile.games[0];
    let change = live
        .store
        .last_rating_change(table.as_str())
        .await
        .expect("read")
        .expect("rated");
    assert_eq!(change.white_before, 1500.0);
    assert_eq!((change.white_after.round() as i32) - 1500, up);
    assert_eq!(game.moves, 2);
    let full = stranger.get_game(&game.id).await.expect("the game page");
    let [_, (white_before, white_after)] = full.ratings.expect("a rated game shows its ratings");
    assert_eq!((white_before, white_after - white_before), (1500, up));
    let (status, text) = stranger
        .get(&format!("/game/{}/export.txt", game.id))
        .await
        .expect("text export");
    assert_eq!(status, 200);
    assert!(
        text.starts_with(&format!("Othello 3D — game {}", game.id)),
        "{text}"
    );
    assert!(
        text.contains(black_name) && text.contains(white_name),
        "{text}"
    );
    assert!(text.contains("(;GM[Othello]"), "{text}");
    let (status, _) = stranger.get("/game/ffff/export.txt").await.expect("answer");
    assert_eq!(status, 404);

    // Provisional players are not on the leaderboard yet.
    assert!(stranger
        .leaderboard(Speed::Blitz)
        .await
        .expect("board")
        .is_empty());
    assert!(stranger
        .leaderboard(Speed::Rapid)
        .await
        .expect("board")
        .is_empty());

    // The rematch is rated too: a second round changes them again.
    black.vote_rematch(&table, None, true).await.expect("vote");
    white.vote_rematch(&table, None, true).await.expect("vote");
    let view = black.get_table(&table).await.expect("view");
    assert_eq!(view.round, 2);
    assert_eq!(view.mode, RATED, "a rematch keeps the table rated");
    let to_move = match view.status {
        RoundStatus::Playing { to_move } => to_move,
        RoundStatus::Over { .. } => panic!("round 2 is on"),
    };
    let (first, second) = if side_of(&view) == to_move {
        (&black, &white)
    } else {
        (&white, &black)
    };
    play_one(first, &table).await;
    play_one(second, &table).await;
    first.resign(&table, None).await.expect("resign");
    let mine = white.my_ratings().await.expect("ratings");
    assert_eq!(mine[0].games, 2);
    assert_eq!(mine[0].history.len(), 2);
}

#[tokio::test]
async fn a_round_that_ends_before_both_moved_is_not_rated() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let (black, white, table) = rated_table(&live, "chloe", "dimitra").await;
    play_one(&black, &table).await;
    // White resigns without having moved: aborted for ratings.
    let view = white.resign(&table, None).await.expect("resign");
    assert!(matches!(view.status, RoundStatus::Over { .. }));
    assert_eq!(view.tally.black_wins, 1, "the tally still counts it");
    let players = black.table_players(&table).await.expect("players");
    assert_eq!(players.black.change, None);
    assert_eq!(players.white.change, None);
    assert!(black.my_ratings().await.expect("ratings").is_empty());
    assert!(white.my_ratings().await.expect("ratings").is_empty());
    // A casual table between the same players is never rated.
    let casual = black
        .create_table(TableMode::Online {
            private: true,
            time: Some(TimeControl::PRESETS[0]),
            rated: false,
            tournament: false,
        })
        .await
        .expect("casual");
    let seated = white.take_seat(&casual).await.expect("seat");
    let (b, w) = if side_of(&seated) == Side::Black {
        (&white, &black)
    } else {
        (&black, &white)
    };
    play_one(b, &casual).await;
    play_one(w, &casual).await;
    b.resign(&casual, None).await.expect("resign");
    let players = b.table_players(&casual).await.expect("players");
    assert!(!players.rated);
    assert_eq!(players.black.rating, None);
    assert!(black.my_ratings().await.expect("ratings").is_empty());
}

#[tokio::test]
async fn the_leaderboard_lists_settled_recent_players_best_first() {
    let dir = tempfile::tempdir().expect("tempdir");
    let now = 100 * 86_400_000;
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(now)).await;
    let names = ["eleni", "fotis", "giorgos", "haris"];
    for name in names {
        live.browser()
            .await
            .sign_up(name, PASSWORD)
            .await
            .expect("sign up");
    }
    // Ratings as many rated games would leave them: (rating, RD, days ago).
    let rows = [
        ("eleni", 1720.0, 60.0, 1),
        ("fotis", 1810.0, 95.0, 3),
        ("giorgos", 1900.0, 180.0, 1), // provisional: not listed
        ("haris", 2000.0, 50.0, 40),   // no rated game for 40 days: not listed
    ];
    for (name, rating, deviation, days) in rows {
        sqlx::query(
            "INSERT INTO ratings (account_id, speed, rating, deviation, volatility, games, rated_at)
             SELECT id, 'blitz', ?, ?, 0.06, 30, ? FROM accounts WHERE name = ?",
        )
        .bind(rating)
        .bind(deviation)
        .bind(now - days * 86_400_000)
        .bind(name)
        .execute(live.store.sqlite().expect("SQLite").pool())
        .await
        .expect("insert");
    }
    let visitor = live.browser().await;
    let board = visitor.leaderboard(Speed::Blitz).await.expect("board");
    let listed: Vec<(u32, &str, i32)> = board
        .iter()
        .map(|l| (l.rank, l.name.as_str(), l.rating))
        .collect();
    assert_eq!(listed, vec![(1, "fotis", 1810), (2, "eleni", 1720)]);
    assert!(visitor
        .leaderboard(Speed::Rapid)
        .await
        .expect("board")
        .is_empty());
    // The page shows them, linked to their profiles.
    let (status, page) = visitor.get("/players").await.expect("page");
    assert_eq!(status, 200);
    assert!(page.contains("href=\"/@/fotis\""), "{page}");
    assert!(!page.contains("giorgos"));
    // A settled rating shows without its "?".
    let profile = visitor.get_profile("eleni", None).await.expect("profile");
    assert_eq!(profile.ratings[0].rating.text(), "1720");
}

/// Gives `name` a settled blitz rating, as many rated games would.
async fn set_rating(live: &Live, name: &str, rating: f64) {
    sqlx::query(
        "INSERT INTO ratings (account_id, speed, rating, deviation, volatility, games, rated_at)
         SELECT id, 'blitz', ?, 80.0, 0.06, 20, ? FROM accounts WHERE name = ?",
    )
    .bind(rating)
    .bind(live.clock.now_ms())
    .bind(name)
    .execute(live.store.sqlite().expect("SQLite").pool())
    .await
    .expect("rating");
}

async fn queued(live: &Live, name: &str, rating: Option<f64>) -> testclient::Socket {
    let client = live.browser().await;
    client.sign_up(name, PASSWORD).await.expect("sign up");
    if let Some(rating) = rating {
        set_rating(live, name, rating).await;
    }
    client
        .socket("/ws/queue?base=180&inc=2&rated=1")
        .await
        .expect("queue socket")
}

async fn next(socket: &mut testclient::Socket) -> app::protocol::ServerMessage {
    tokio::time::timeout(std::time::Duration::from_secs(20), socket.next_message())
        .await
        .expect("a message in time")
        .expect("a message")
}

#[tokio::test]
async fn rated_quick_match_pairs_the_closest_rating_and_widens_with_the_wait() {
    use app::protocol::ServerMessage;
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    // 1900 waits; 1500 arrives: 400 apart, so both wait.
    let mut strong = queued(&live, "strong", Some(1900.0)).await;
    assert_eq!(next(&mut strong).await, ServerMessage::Queued);
    let mut middle = queued(&live, "middle", Some(1500.0)).await;
    assert_eq!(next(&mut middle).await, ServerMessage::Queued);
    // 1550 arrives: paired with 1500 (50 apart), not with 1900.
    let mut near = queued(&live, "near", Some(1550.0)).await;
    let ServerMessage::Matched { table } = next(&mut near).await else {
        panic!("paired at once")
    };
    assert_eq!(
        next(&mut middle).await,
        ServerMessage::Matched {
            table: table.clone()
        }
    );
    let view = live.browser().await.get_table(&table).await.expect("table");
    assert!(matches!(view.mode, TableMode::Online { rated: true, .. }));
    // A new player (1500?) arrives: 400 from 1900, both wait; after 30 s
    // of waiting anyone will do, and the next look (every 2 s) pairs them.
    let mut fresh = queued(&live, "fresh", None).await;
    assert_eq!(next(&mut fresh).await, ServerMessage::Queued);
    live.clock.advance(10_000);
    tokio::time::sleep(std::time::Duration::from_millis(2_500)).await;
    assert_eq!(live.hub.queue_len(), 2, "±300 after 10 s: still apart");
    live.clock.advance(20_000);
    let ServerMessage::Matched { table } = next(&mut fresh).await else {
        panic!("paired once the window opened")
    };
    assert_eq!(next(&mut strong).await, ServerMessage::Matched { table });
    assert_eq!(live.hub.queue_len(), 0);
}
