//! Copying a watched lab game into one's own (docs/SECURITY.md, The lab): a
//! watcher cannot step someone else's lab game, but `lab_copy` gives them a
//! new lab game of their own with the same engine depths, moves and
//! explanations, which they can step; bad ids are refused with 4xx, the
//! original is untouched, and the per-session cap on lab games holds.

mod common;

use app::lab::{ExplanationView, LabSummary, LabView};
use app::protocol::LabId;
use common::{visitor, InProcess, Server};
use serde_json::json;
use testclient::Client;

/// Steps `lab` once and waits until the move's explanation is written.
async fn step_explained(client: &Client, lab: &LabId) -> LabView {
    let mut view = client.lab_next_turn(lab).await.expect("lab_next_turn");
    for _ in 0..100 {
        if !view.explaining() {
            return view;
        }
        view = client.lab_wait(lab, view.version).await.expect("lab_wait");
    }
    panic!("the explanation never came: {view:?}");
}

fn squares(view: &LabView) -> Vec<String> {
    view.moves.iter().map(|m| m.square.clone()).collect()
}

#[tokio::test]
async fn a_watcher_copies_a_lab_game_and_steps_the_copy() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("othello.db");
    let server = Server::start(&db, &["--rate-per-ip", "0"]);
    let url = server.url.clone();
    let owner = visitor(&url).await;
    let watcher = visitor(&url).await;

    let lab = owner.lab_create(2, 1).await.expect("lab_create");
    for _ in 0..3 {
        step_explained(&owner, &lab).await;
    }

    // Who may step: the view says so.
    let original = owner.lab_get(&lab).await.expect("lab_get");
    assert!(original.yours, "{original:?}");
    let watched = watcher.lab_get(&lab).await.expect("lab_get");
    assert!(!watched.yours, "{watched:?}");
    assert_eq!(squares(&watched).len(), 3);

    // The list: the owner's game is theirs; for the watcher it is another's.
    let line = |list: &[LabSummary]| list.iter().find(|g| g.id == lab).cloned().expect("listed");
    let list = owner.lab_list().await.expect("lab_list");
    assert!(line(&list).mine, "{list:?}");
    let list = watcher.lab_list().await.expect("lab_list");
    assert!(!line(&list).mine, "{list:?}");

    // Cross-session stepping is still refused.
    let refused = watcher
        .lab_next_turn(&lab)
        .await
        .expect_err("only the owner steps");
    assert_eq!(refused.status, 403, "{refused:?}");

    // Bad ids: 4xx with a message, never 5xx.
    for bad in ["nope", ""] {
        let refused = watcher
            .lab_copy(&LabId::new(bad))
            .await
            .expect_err("no such game");
        assert_eq!(refused.status, 404, "{bad}: {refused:?}");
        assert_eq!(refused.message, "No such lab game.", "{refused:?}");
    }
    // Ill-typed bodies, sent as they are.
    for bad in [json!({}), json!({ "lab": 7 }), json!("lab")] {
        let (status, body) = watcher.call_raw("lab_copy", &bad).await.expect("answer");
        assert!((400..500).contains(&status), "{bad}: {status} {body}");
    }

    // The copy: the watcher's, same depths, moves and explanations.
    let copy = watcher.lab_copy(&lab).await.expect("lab_copy");
    assert_ne!(copy, lab);
    let copied = watcher.lab_get(&copy).await.expect("lab_get");
    assert!(copied.yours, "{copied:?}");
    assert_eq!(copied.black_depth, 2);
    assert_eq!(copied.white_depth, 1);
    assert_eq!(squares(&copied), squares(&watched));
    assert_eq!(copied.board.cells, watched.board.cells);
    for (a, b) in copied.moves.iter().zip(&watched.moves) {
        assert_eq!(a.explanation, b.explanation);
        assert!(
            matches!(a.explanation, ExplanationView::Ready { .. }),
            "{:?}",
            a.explanation
        );
    }

    // The watcher steps the copy; the owner cannot; the original is untouched.
    let stepped = step_explained(&watcher, &copy).await;
    assert_eq!(squares(&stepped).len(), 4);
    assert_eq!(squares(&stepped)[..3], squares(&watched)[..]);
    let refused = owner
        .lab_next_turn(&copy)
        .await
        .expect_err("only the copier steps the copy");
    assert_eq!(refused.status, 403, "{refused:?}");
    let original_now = owner.lab_get(&lab).await.expect("lab_get");
    assert_eq!(squares(&original_now), squares(&watched));
    let list = watcher.lab_list().await.expect("lab_list");
    let mine: Vec<_> = list
        .iter()
        .filter(|g| g.mine)
        .map(|g| g.id.clone())
        .collect();
    assert_eq!(mine, vec![copy.clone()]);

    // Survives a restart, with its owner.
    drop(server);
    let server = Server::start(&db, &["--rate-per-ip", "0"]);
    let watcher = watcher.at(&server.url);
    let restored = watcher.lab_get(&copy).await.expect("lab_get");
    assert_eq!(squares(&restored), squares(&stepped));
    assert!(restored.yours, "still the watcher's: {restored:?}");
}

#[tokio::test]
async fn copies_count_against_the_per_session_cap_on_lab_games() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = InProcess::start(&dir.path().join("othello.db"), &["--rate-per-ip", "0"]).await;
    let url = server.url.clone();
    let owner = visitor(&url).await;
    let watcher = visitor(&url).await;
    let lab = owner.lab_create(1, 1).await.expect("lab_create");
    let cap = server::routes::LAB_GAMES_PER_SESSION;
    for i in 0..cap {
        if let Err(refused) = watcher.lab_copy(&lab).await {
            panic!("copy {i}: {refused:?}");
        }
    }
    let refused = watcher.lab_copy(&lab).await.expect_err("over the cap");
    assert_eq!(refused.status, 429, "{refused:?}");
    assert!(
        refused.message.contains(&format!("limit {cap}")),
        "{refused:?}"
    );
    let refused = watcher
        .lab_create(1, 1)
        .await
        .expect_err("creating counts against the same cap");
    assert_eq!(refused.status, 429, "creating counts against the same cap");
    // Others are not affected.
    owner.lab_copy(&lab).await.expect("lab_copy");
}
