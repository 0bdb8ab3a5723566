//! Copying a watched lab game into one's own (docs/SECURITY.md, The lab): a
//! watcher cannot step someone else's lab game, but `lab_copy` gives them a
//! new lab game of their own with the same engine depths, moves and
//! explanations, which they can step; bad ids are refused with 4xx, the
//! original is untouched, and the per-session cap on lab games holds.

mod common;

use common::{call, client, InProcess, Server};
use serde_json::{json, Value};

async fn get_cookie(http: &reqwest::Client, url: &str) {
    let page = http.get(format!("{url}/")).send().await.expect("lobby");
    assert_eq!(page.status().as_u16(), 200);
}

/// Steps `lab` once and waits until the move's explanation is written.
async fn step_explained(http: &reqwest::Client, url: &str, lab: &str) -> Value {
    let (status, mut view) = call(http, url, "lab_next_turn", json!({ "lab": lab })).await;
    assert_eq!(status, 200, "{view}");
    for _ in 0..100 {
        let state = view["moves"]
            .as_array()
            .and_then(|m| m.last())
            .map(|m| m["explanation"]["state"].clone());
        if state != Some(json!("pending")) {
            return view;
        }
        let version = view["version"].as_u64().expect("version");
        let (status, next) = call(
            http,
            url,
            "lab_wait",
            json!({ "lab": lab, "since": version }),
        )
        .await;
        assert_eq!(status, 200, "{next}");
        view = next;
    }
    panic!("the explanation never came: {view}");
}

fn squares(view: &Value) -> Vec<String> {
    view["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["square"].as_str().expect("square").to_string())
        .collect()
}

#[tokio::test]
async fn a_watcher_copies_a_lab_game_and_steps_the_copy() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("othello.db");
    let server = Server::start(&db, &["--rate-per-ip", "0"]);
    let url = server.url.clone();
    let owner = client();
    let watcher = client();
    get_cookie(&owner, &url).await;
    get_cookie(&watcher, &url).await;

    let (status, lab) = call(
        &owner,
        &url,
        "lab_create",
        json!({ "black_depth": 2, "white_depth": 1 }),
    )
    .await;
    assert_eq!(status, 200, "{lab}");
    let lab = lab.as_str().expect("id").to_string();
    for _ in 0..3 {
        step_explained(&owner, &url, &lab).await;
    }

    // Who may step: the view says so.
    let (_, original) = call(&owner, &url, "lab_get", json!({ "lab": lab })).await;
    assert_eq!(original["yours"], true, "{original}");
    let (_, watched) = call(&watcher, &url, "lab_get", json!({ "lab": lab })).await;
    assert_eq!(watched["yours"], false, "{watched}");
    assert_eq!(squares(&watched).len(), 3);

    // The list: the owner's game is theirs; for the watcher it is another's.
    let (_, list) = call(&owner, &url, "lab_list", json!({})).await;
    let line = |list: &Value| {
        list.as_array()
            .expect("list")
            .iter()
            .find(|g| g["id"] == lab.as_str())
            .cloned()
            .expect("listed")
    };
    assert_eq!(line(&list)["mine"], true, "{list}");
    let (_, list) = call(&watcher, &url, "lab_list", json!({})).await;
    assert_eq!(line(&list)["mine"], false, "{list}");

    // Cross-session stepping is still refused.
    let (status, body) = call(&watcher, &url, "lab_next_turn", json!({ "lab": lab })).await;
    assert_eq!(status, 403, "{body}");

    // Bad ids: 4xx with a message, never 5xx.
    for bad in [json!({ "lab": "nope" }), json!({ "lab": "" })] {
        let (status, body) = call(&watcher, &url, "lab_copy", bad.clone()).await;
        assert_eq!(status, 404, "{bad}: {body}");
        assert_eq!(body["message"], "No such lab game.", "{body}");
    }
    for bad in [json!({}), json!({ "lab": 7 }), json!("lab")] {
        let (status, body) = call(&watcher, &url, "lab_copy", bad.clone()).await;
        assert!((400..500).contains(&status), "{bad}: {status} {body}");
    }

    // The copy: the watcher's, same depths, moves and explanations.
    let (status, copy) = call(&watcher, &url, "lab_copy", json!({ "lab": lab })).await;
    assert_eq!(status, 200, "{copy}");
    let copy = copy.as_str().expect("id").to_string();
    assert_ne!(copy, lab);
    let (status, copied) = call(&watcher, &url, "lab_get", json!({ "lab": copy })).await;
    assert_eq!(status, 200, "{copied}");
    assert_eq!(copied["yours"], true, "{copied}");
    assert_eq!(copied["black_depth"], 2);
    assert_eq!(copied["white_depth"], 1);
    assert_eq!(squares(&copied), squares(&watched));
    assert_eq!(copied["board"]["cells"], watched["board"]["cells"]);
    for (a, b) in copied["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .zip(watched["moves"].as_array().expect("moves"))
    {
        assert_eq!(a["explanation"], b["explanation"]);
        assert_eq!(a["explanation"]["state"], "ready");
    }

    // The watcher steps the copy; the owner cannot; the original is untouched.
    let stepped = step_explained(&watcher, &url, &copy).await;
    assert_eq!(squares(&stepped).len(), 4);
    assert_eq!(squares(&stepped)[..3], squares(&watched)[..]);
    let (status, body) = call(&owner, &url, "lab_next_turn", json!({ "lab": copy })).await;
    assert_eq!(status, 403, "{body}");
    let (_, original_now) = call(&owner, &url, "lab_get", json!({ "lab": lab })).await;
    assert_eq!(squares(&original_now), squares(&watched));
    let (_, list) = call(&watcher, &url, "lab_list", json!({})).await;
    let mine: Vec<_> = list
        .as_array()
        .expect("list")
        .iter()
        .filter(|g| g["mine"] == true)
        .map(|g| g["id"].clone())
        .collect();
    assert_eq!(mine, vec![json!(copy)]);

    // Survives a restart, with its owner.
    drop(server);
    let server = Server::start(&db, &["--rate-per-ip", "0"]);
    let url = server.url.clone();
    let (status, restored) = call(&watcher, &url, "lab_get", json!({ "lab": copy })).await;
    assert_eq!(status, 200, "{restored}");
    assert_eq!(squares(&restored), squares(&stepped));
    assert_eq!(restored["yours"], true, "still the watcher's: {restored}");
}

#[tokio::test]
async fn copies_count_against_the_per_session_cap_on_lab_games() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = InProcess::start(&dir.path().join("othello.db"), &["--rate-per-ip", "0"]).await;
    let url = server.url.clone();
    let owner = client();
    let watcher = client();
    get_cookie(&owner, &url).await;
    get_cookie(&watcher, &url).await;
    let (_, lab) = call(
        &owner,
        &url,
        "lab_create",
        json!({ "black_depth": 1, "white_depth": 1 }),
    )
    .await;
    let lab = lab.as_str().expect("id").to_string();
    let cap = server::routes::LAB_GAMES_PER_SESSION;
    for i in 0..cap {
        let (status, body) = call(&watcher, &url, "lab_copy", json!({ "lab": lab })).await;
        assert_eq!(status, 200, "copy {i}: {body}");
    }
    let (status, body) = call(&watcher, &url, "lab_copy", json!({ "lab": lab })).await;
    assert_eq!(status, 429, "{body}");
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.contains(&format!("limit {cap}"))),
        "{body}"
    );
    let (status, _) = call(
        &watcher,
        &url,
        "lab_create",
        json!({ "black_depth": 1, "white_depth": 1 }),
    )
    .await;
    assert_eq!(status, 429, "creating counts against the same cap");
    // Others are not affected.
    let (status, body) = call(&owner, &url, "lab_copy", json!({ "lab": lab })).await;
    assert_eq!(status, 200, "{body}");
}
