//! Puzzle ratings in the store, on SQLite and on a throwaway PostgreSQL: a
//! first try changes both ratings as Glicko-2's one game; a second try, and
//! 20 racing copies of a first try, change nothing more; tries by one solver
//! at once on different puzzles are all applied; an unrated try writes only
//! its attempt; an anonymous browser's tries go to the account it signs up
//! to unrated, its rating never; anonymous tries and old served marks are
//! swept after 30 days, an account's tries never.
//!
//! Needs PostgreSQL installed (`initdb`, `pg_ctl`); without it the PostgreSQL
//! half fails saying so.

#[path = "support/pg.rs"]
mod pg;

use server::glicko::{self, Rating};
use server::store::Store;

fn start(rating: f64) -> Rating {
    Rating {
        rating,
        ..Rating::default()
    }
}

async fn exercise(store: &Store) {
    let now = 1_000_000_000;
    // A first try, solved: Glicko-2's one game between the two.
    let first = store
        .record_puzzle_try("anon-1", "p1", start(1700.0), true, true, now)
        .await
        .unwrap()
        .expect("a first try");
    let (me, it) = glicko::rate_game(Rating::default(), start(1700.0), 1.0, 0, 0);
    assert!((first.after.rating - me.rating).abs() < 1e-9);
    assert!((first.puzzle_after.rating - it.rating).abs() < 1e-9);
    // Again: nothing changes.
    assert_eq!(
        store
            .record_puzzle_try("anon-1", "p1", start(1700.0), false, true, now)
            .await
            .unwrap(),
        None
    );
    let row = store.puzzle_solver("anon-1").await.unwrap().unwrap();
    assert_eq!((row.attempts, row.solved), (1, 1));
    assert!((row.rating - me.rating).abs() < 1e-9);

    // 20 copies of one first try at once: exactly one counts.
    let racing =
        (0..20).map(|_| store.record_puzzle_try("anon-2", "p2", start(1500.0), false, true, now));
    let results = futures_util::future::join_all(racing).await;
    let counted = results.iter().filter(|r| matches!(r, Ok(Some(_)))).count();
    assert!(results.iter().all(|r| r.is_ok()), "{results:?}");
    assert_eq!(counted, 1);
    assert_eq!(
        store
            .puzzle_solver("anon-2")
            .await
            .unwrap()
            .unwrap()
            .attempts,
        1
    );

    // One solver, ten different puzzles at once: all ten are applied.
    let many = (0..10).map(|i| {
        let id = format!("q{i}");
        async move {
            store
                .record_puzzle_try("anon-3", &id, start(1500.0), i % 2 == 0, true, now)
                .await
        }
    });
    let results = futures_util::future::join_all(many).await;
    assert!(
        results.iter().all(|r| matches!(r, Ok(Some(_)))),
        "{results:?}"
    );
    let row = store.puzzle_solver("anon-3").await.unwrap().unwrap();
    assert_eq!((row.attempts, row.solved), (10, 5));
    assert_eq!(store.puzzle_history("anon-3", 30).await.unwrap().len(), 10);

    // A streak's try is recorded unrated.
    let streak = store
        .record_puzzle_try("anon-3", "s1", start(1500.0), true, false, now)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(streak.before, streak.after);
    assert_eq!(
        store
            .puzzle_solver("anon-3")
            .await
            .unwrap()
            .unwrap()
            .attempts,
        10
    );

    // An anonymous browser's tries go to the account at sign-up, unrated;
    // its rating never does (anon-1 had a rated try, as earlier versions
    // rated anonymous solvers).
    store
        .carry_puzzle_solver("anon-1", "account:7")
        .await
        .unwrap();
    assert!(store.puzzle_solver("anon-1").await.unwrap().is_none());
    assert!(store.puzzle_solver("account:7").await.unwrap().is_none());
    let carried = store.puzzle_history("account:7", 30).await.unwrap();
    assert_eq!(carried.len(), 1);
    assert_eq!((carried[0].rated, carried[0].rating_after), (0, None));
    // A puzzle the account tried itself keeps the account's own try.
    store
        .record_puzzle_try("account:7", "p2", start(1500.0), true, true, now)
        .await
        .unwrap()
        .expect("first");
    store
        .carry_puzzle_solver("anon-2", "account:7")
        .await
        .unwrap();
    assert!(store.puzzle_solver("anon-2").await.unwrap().is_none());
    let mut tried = store.puzzles_tried("account:7").await.unwrap();
    tried.sort();
    assert_eq!(tried, vec!["p1".to_string(), "p2".to_string()]);
    let own = store.puzzle_history("account:7", 30).await.unwrap();
    let own = own.iter().find(|t| t.puzzle_id == "p2").expect("p2");
    assert_eq!(own.rated, 1, "the account's own rated try stays");
    // Served marks.
    assert!(!store.puzzle_was_served("account:7", "p9").await.unwrap());
    store
        .mark_puzzle_served("account:7", "p9", now)
        .await
        .unwrap();
    store
        .mark_puzzle_served("account:7", "p9", now + 1)
        .await
        .unwrap();
    assert!(store.puzzle_was_served("account:7", "p9").await.unwrap());
    assert!(store.puzzle_answered("account:7", "p1").await.unwrap());
    assert!(!store.puzzle_answered("account:7", "p9").await.unwrap());
    // 30 days later: anonymous tries and the old served marks are swept,
    // the account's tries stay.
    let later = now + 31 * 86_400_000;
    assert!(
        store
            .expire_puzzle_data(later - 30 * 86_400_000)
            .await
            .unwrap()
            > 0
    );
    assert!(store.puzzle_history("anon-3", 30).await.unwrap().is_empty());
    assert!(store.puzzle_solver("anon-3").await.unwrap().is_none());
    assert!(!store.puzzle_was_served("account:7", "p9").await.unwrap());
    assert_eq!(
        store.puzzle_history("account:7", 30).await.unwrap().len(),
        2
    );
    // The pack's puzzles unrated: the rating row goes, the tries stay unrated.
    assert!(store.unrate_puzzles(&["p2".to_string()]).await.unwrap() > 0);
    assert!(!store
        .puzzle_ratings()
        .await
        .unwrap()
        .iter()
        .any(|(id, _)| id == "p2"));
    assert!(store
        .puzzle_history("account:7", 30)
        .await
        .unwrap()
        .iter()
        .all(|t| t.rated == 0));
    assert_eq!(store.unrate_puzzles(&["p2".to_string()]).await.unwrap(), 0);
}

#[tokio::test]
async fn puzzle_tries_on_sqlite() {
    let dir = std::env::temp_dir().join(format!("puzzle-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let store = Store::open(&dir.join("p.db")).await.unwrap();
    exercise(&store).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn puzzle_tries_on_postgres() {
    let cluster = pg::PgCluster::start();
    let store = Store::open_postgres(&cluster.url()).await.unwrap();
    exercise(&store).await;
}
