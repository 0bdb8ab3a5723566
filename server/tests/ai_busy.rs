//! A full AI queue (docs/SECURITY.md, Limits): the server refuses the search
//! at once and says so. The lab's Next turn answers 503 with a readable
//! message and nothing changes; at a vs-AI table the player's move stands,
//! the view shows the AI to move with no search running (the table page
//! reads that as "the AI is busy" and offers to ask again), opening the table
//! again asks again, and once the queue has room the AI moves.

mod common;

use app::protocol::{RoundStatus, Side, TableMode, TableView};
use common::{client, Server};
use std::time::Duration;
use testclient::Client;

async fn new_session(http: &reqwest::Client, url: &str) {
    let page = http.get(format!("{url}/")).send().await.expect("lobby");
    assert!(page.status().is_success());
}

fn ai_refused(view: &TableView) -> bool {
    view.status
        == RoundStatus::Playing {
            to_move: Side::White,
        }
        && !view.ai_thinking
}

#[tokio::test]
async fn a_full_ai_queue_is_refused_with_a_clear_message_and_asked_again_later() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("othello.db");
    // No room at all in the AI queue: every search is refused.
    let server = Server::start(&db, &["--ai-queue", "0"]);
    let url = server.url.clone();
    let http = client();
    new_session(&http, &url).await;
    let player = Client::with_http(http.clone(), &url);

    // The lab: 503, a readable message, nothing changed.
    let lab = player.lab_create(1, 1).await.expect("lab_create");
    let refused = player
        .lab_next_turn(&lab)
        .await
        .expect_err("the AI queue is full");
    assert_eq!(refused.status, 503, "{refused:?}");
    assert_eq!(
        refused.message,
        "The AI is busy (searches waiting: 0): try again in a moment. Nothing changed.",
        "{refused:?}"
    );
    let view = player.lab_get(&lab).await.expect("lab_get");
    assert_eq!(view.moves.len(), 0, "{view:?}");

    // A vs-AI table: the move stands; the AI is to move and not thinking.
    let table = player
        .create_table(TableMode::VsAi {
            depth: 1,
            human: Side::Black,
        })
        .await
        .expect("create_table");
    let view = player.play_move(&table, 37).await.expect("play_move");
    assert!(ai_refused(&view), "{view:?}");
    assert_eq!(view.black_count, 4);
    // Asking again (opening the table) is refused again, never a 5xx.
    let view = player.get_table(&table).await.expect("get_table");
    assert!(ai_refused(&view), "{view:?}");

    // With room in the queue (a restart with the default), the AI moves.
    drop(server);
    let server = Server::start(&db, &[]);
    let player = player.at(&server.url);
    let mut moved = false;
    for _ in 0..100 {
        let view = player.get_table(&table).await.expect("get_table");
        if view.status
            == (RoundStatus::Playing {
                to_move: Side::Black,
            })
        {
            assert_eq!(view.history.len(), 2, "{view:?}");
            moved = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(moved, "the AI moved once the queue had room");
}
