//! Puzzle ratings keep fair play's promises, through the real router over
//! HTTP (in process): one test per way a rating could be farmed. Only an
//! account's first answer at a puzzle the site served it (next, the puzzle
//! of the day) moves ratings; the offline pack, whose answers anyone can
//! download, is never served for rating; a puzzle opened by id is unrated;
//! anonymous tries never move a puzzle's rating; a marked account's tries
//! count for nothing; the offline pack's old ratings are reset at start.

mod support;

use app::puzzles::{PuzzleChoice, PuzzleStep, PuzzleView, StepOutcome, Unrated};
use server::clock::ManualClock;
use server::puzzles::{PuzzleSet, OFFLINE_PACK};
use support::Live;
use testclient::Client;

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

async fn account(live: &Live, name: &str) -> Client {
    let browser = live.browser().await;
    browser.sign_up(name, PASSWORD).await.expect("sign up");
    browser
}

/// The player's first move of `id`'s line (the answer to a one-move
/// puzzle, or the first of a longer one).
fn answer(id: &str) -> u8 {
    let p = PuzzleSet::shipped().get(id).expect("shipped");
    p.line[0].index() as u8
}

/// A legal move of `id` that is not the answer.
fn wrong(id: &str) -> u8 {
    let p = PuzzleSet::shipped().get(id).expect("shipped");
    p.start
        .legal_moves()
        .iter()
        .map(|s| s.index() as u8)
        .find(|&s| s != p.line[0].index() as u8)
        .expect("another legal move")
}

/// Plays `id` to its end with the right answers (the opponent's replies
/// come from the server), returning the last step.
async fn solve(client: &Client, id: &str) -> PuzzleStep {
    let p = PuzzleSet::shipped().get(id).expect("shipped");
    let mut moves = Vec::new();
    let mut pos = p.start;
    for &square in &p.line {
        pos = app::puzzles::forced_passes(pos);
        if pos.side_to_move == p.side() {
            moves.push(square.index() as u8);
            let step = client.puzzle_move(id, &moves, false).await.expect("move");
            if !matches!(step.outcome, StepOutcome::Continue { .. }) {
                return step;
            }
        }
        pos = pos.play(square).expect("the line replays").position;
    }
    panic!("{id}: the line ended without a verdict");
}

async fn next(client: &Client) -> PuzzleView {
    client
        .puzzle(PuzzleChoice::Next { theme: None })
        .await
        .expect("next puzzle")
}

#[tokio::test]
async fn the_offline_pack_is_never_served_for_rating_and_unrated_by_id() {
    let (_dir, live) = live().await;
    let player = account(&live, "packer").await;
    // Next and the puzzle of the day never serve a pack puzzle.
    for _ in 0..40 {
        let view = next(&player).await;
        assert!(
            !PuzzleSet::shipped().in_pack(&view.id),
            "{} is in the pack",
            view.id
        );
        assert_eq!(view.unrated, None, "{} is served for rating", view.id);
    }
    let daily = player.puzzle(PuzzleChoice::Daily).await.expect("daily");
    assert!(!PuzzleSet::shipped().in_pack(&daily.id));
    // A pack puzzle opened by id: its answer (public in the pack) rates nothing.
    let packed = &PuzzleSet::shipped().pack()[0].id;
    let view = player
        .puzzle(PuzzleChoice::Id { id: packed.clone() })
        .await
        .expect("by id");
    assert_eq!(view.unrated, Some(Unrated::NotServed));
    let step = solve(&player, packed).await;
    assert_eq!(step.outcome, StepOutcome::Solved);
    assert_eq!(step.rated, None, "a pack answer is rated");
    assert_eq!(step.unrated, Some(Unrated::NotServed));
    assert!(!live
        .store
        .puzzle_ratings()
        .await
        .expect("ratings")
        .iter()
        .any(|(id, _)| id == packed));
}

#[tokio::test]
async fn a_solution_seen_signed_out_cannot_be_answered_rated_by_link() {
    let (_dir, live) = live().await;
    let id = PuzzleSet::shipped().served()[7].id.clone();
    // A cookie-less wrong try in a streak shows the solution.
    let stranger = Client::new(&live.url).from_address("198.51.100.9");
    let shown = stranger
        .puzzle_move(&id, &[wrong(&id)], true)
        .await
        .expect("a wrong try");
    assert!(shown.solution.is_some());
    // The account opens it by link and answers "first try": unrated.
    let player = account(&live, "linker").await;
    let view = player
        .puzzle(PuzzleChoice::Id { id: id.clone() })
        .await
        .expect("by id");
    assert_eq!(view.unrated, Some(Unrated::NotServed));
    let step = solve(&player, &id).await;
    assert_eq!(step.outcome, StepOutcome::Solved);
    assert_eq!(step.rated, None);
    let me = live
        .store
        .account_by_key("linker")
        .await
        .expect("read")
        .expect("account");
    assert!(live
        .store
        .puzzle_solver(&format!("account:{}", me.id))
        .await
        .expect("solver")
        .is_none_or(|row| row.attempts == 0));
}

#[tokio::test]
async fn anonymous_tries_never_move_a_puzzles_rating() {
    let (_dir, live) = live().await;
    let id = PuzzleSet::shipped().served()[3].id.clone();
    let start = PuzzleSet::shipped().get(&id).unwrap().start_rating;
    // 30 cookie-less wrong tries, each a new browser.
    for n in 0..30 {
        let stranger = Client::new(&live.url).from_address(&format!("198.51.100.{}", n + 10));
        let step = stranger
            .puzzle_move(&id, &[wrong(&id)], false)
            .await
            .expect("a wrong try");
        assert_eq!(step.outcome, StepOutcome::Failed);
        assert_eq!(step.rated, None);
        assert_eq!(step.unrated, Some(Unrated::SignedOut));
    }
    // A browser that loaded the site and was served it: signed out, unrated.
    let browser = live.browser().await;
    let served = next(&browser).await;
    assert_eq!(served.unrated, Some(Unrated::SignedOut));
    let ratings = live.store.puzzle_ratings().await.expect("ratings");
    assert!(!ratings.iter().any(|(p, _)| *p == id), "{ratings:?}");
    let view = browser
        .puzzle(PuzzleChoice::Id { id: id.clone() })
        .await
        .expect("view");
    assert_eq!(view.rating, start.round() as i32);
}

#[tokio::test]
async fn an_account_is_rated_once_on_a_served_puzzle_and_a_marked_one_never() {
    let (_dir, live) = live().await;
    let player = account(&live, "solver").await;
    let view = next(&player).await;
    assert_eq!(view.unrated, None);
    let step = player
        .puzzle_move(&view.id, &[wrong(&view.id)], false)
        .await
        .expect("a wrong try");
    assert_eq!(step.outcome, StepOutcome::Failed);
    let (after, change) = step.rated.expect("a served first try is rated");
    assert!(change < 0, "{after:?} {change}");
    // Again (the solution seen): unrated.
    let again = solve(&player, &view.id).await;
    assert_eq!(again.rated, None);
    assert_eq!(again.unrated, Some(Unrated::Answered));
    // A streak's try on a served puzzle: unrated.
    let other = next(&player).await;
    let streak = player
        .puzzle_move(&other.id, &[answer(&other.id)], true)
        .await
        .expect("streak");
    if !matches!(streak.outcome, StepOutcome::Continue { .. }) {
        assert_eq!(streak.rated, None);
    }
    // A marked account's served puzzle: unrated.
    let cheat = account(&live, "cheater").await;
    let marked = live
        .store
        .account_by_key("cheater")
        .await
        .expect("read")
        .expect("account");
    live.store
        .mark_abuser(marked.id, Some(1_000_000_000))
        .await
        .expect("mark");
    let view = next(&cheat).await;
    assert_eq!(view.unrated, Some(Unrated::Marked));
    let step = cheat
        .puzzle_move(&view.id, &[wrong(&view.id)], false)
        .await
        .expect("a try");
    assert_eq!(step.rated, None);
    assert_eq!(step.unrated, Some(Unrated::Marked));
}

#[tokio::test]
async fn the_offline_packs_ratings_are_reset_at_start_and_its_tries_kept_unrated() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("db.sqlite");
    let packed = PuzzleSet::shipped().pack()[OFFLINE_PACK - 1].id.clone();
    {
        // As an earlier version rated it.
        let store = server::store::Store::open(&db).await.expect("store");
        let start = server::glicko::Rating {
            rating: 1500.0,
            ..Default::default()
        };
        store
            .record_puzzle_try("account:1", &packed, start, true, true, 5)
            .await
            .expect("try")
            .expect("first");
        assert!(store
            .puzzle_ratings()
            .await
            .unwrap()
            .iter()
            .any(|(id, _)| *id == packed));
    }
    let live = Live::start(&db, ManualClock::new(1_000_000_000)).await;
    assert!(!live
        .store
        .puzzle_ratings()
        .await
        .unwrap()
        .iter()
        .any(|(id, _)| *id == packed));
    let history = live.store.puzzle_history("account:1", 10).await.unwrap();
    assert_eq!(history.len(), 1, "the try is kept");
    assert_eq!(history[0].rated, 0);
    assert_eq!(history[0].rating_after, None);
}

/// A puzzle's themes ("corner") give its answer away: no view or step
/// before the end holds one; the step that ends it (solved or failed) does.
#[tokio::test]
async fn themes_are_sent_only_once_the_puzzle_is_over() {
    let (_dir, live) = live().await;
    let player = account(&live, "themer").await;
    let set = PuzzleSet::shipped();
    let theme_keys: Vec<&str> = app::puzzles::Theme::ALL.iter().map(|t| t.key()).collect();
    // A "themes" field anywhere, or a theme's name as any string value.
    fn holds(json: &serde_json::Value, keys: &[&str]) -> bool {
        match json {
            serde_json::Value::String(text) => keys.contains(&text.as_str()),
            serde_json::Value::Array(items) => items.iter().any(|v| holds(v, keys)),
            serde_json::Value::Object(fields) => fields
                .iter()
                .any(|(name, v)| name == "themes" || holds(v, keys)),
            _ => false,
        }
    }
    let holds_theme = |json: &serde_json::Value| holds(json, &theme_keys);
    let multi = set
        .served()
        .iter()
        .find(|p| p.to_find() >= 2 && !p.themes.is_empty())
        .expect("a multi-move puzzle");
    let single = set
        .served()
        .iter()
        .find(|p| p.to_find() == 1 && !p.themes.is_empty())
        .expect("a one-move puzzle");
    for choice in [
        serde_json::json!({ "kind": "id", "id": multi.id }),
        serde_json::json!({ "kind": "next", "theme": null }),
        serde_json::json!({ "kind": "daily" }),
        serde_json::json!({ "kind": "streak", "n": 0 }),
    ] {
        let (status, view) = player
            .call_raw("puzzle", &serde_json::json!({ "choice": choice }))
            .await
            .expect("puzzle");
        assert_eq!(status, 200, "{view}");
        assert!(!holds_theme(&view), "a theme before the end: {view}");
    }
    // The first right move of a multi-move puzzle: still no theme.
    let first = vec![multi.line[0].index() as u8];
    let (status, step) = player
        .call_raw(
            "puzzle_move",
            &serde_json::json!({ "id": multi.id, "moves": first, "streak": false }),
        )
        .await
        .expect("move");
    assert_eq!(status, 200);
    assert_eq!(step["outcome"]["kind"], "continue", "{step}");
    assert!(!holds_theme(&step), "a theme before the end: {step}");
    // Solved: the last step has them.
    let solved = solve(&player, &multi.id).await;
    assert_eq!(solved.outcome, StepOutcome::Solved);
    assert_eq!(solved.solution.expect("solution").themes, multi.themes);
    // Failed: so has the failing step.
    let failed = player
        .puzzle_move(&single.id, &[wrong(&single.id)], false)
        .await
        .expect("move");
    assert_eq!(failed.outcome, StepOutcome::Failed);
    assert_eq!(failed.solution.expect("solution").themes, single.themes);
}

/// `/puzzles/<id>` is the puzzle's page (rendered by the server with that
/// puzzle); an id the set does not have is a 404 page.
#[tokio::test]
async fn a_puzzles_own_address_opens_it() {
    let (_dir, live) = live().await;
    let visitor = live.browser().await;
    let id = &PuzzleSet::shipped().served()[3].id;
    let (status, page) = visitor.get(&format!("/puzzles/{id}")).await.expect("page");
    assert_eq!(status, 200);
    assert!(page.contains(&format!("data-id=\"{id}\"")), "{page}");
    let (status, _) = visitor.get("/puzzles/nope").await.expect("page");
    assert_eq!(status, 404);
    let (status, _) = visitor
        .get(&format!("/puzzles?id={id}"))
        .await
        .expect("page");
    assert_eq!(status, 200);
}
