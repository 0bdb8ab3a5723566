//! The AI lab end to end: the real server binary against a fake Responses API
//! (axum in this process, real SSE event sequence) and a fake `codex`
//! executable (a bash script speaking the JSONL events).
//!
//! (Over 600 lines: the fake Responses API and fake Codex live beside the tests
//! that drive them; each test is one provider's whole story.)

mod common;

use app::lab::{ExplanationView, LabMoveView, LabStatus, LabView, ProviderStatus};
use app::protocol::{LabId, Side};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use common::Server;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use testclient::Client;

// ---------------------------------------------------------------- fake API

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Success,
    /// Events a second apart: longer than the server's explain timeout.
    Slow,
    Http500,
    /// A complete stream whose text is not the JSON asked for.
    Malformed,
    /// `response.failed` after some text.
    FailMidStream,
    Incomplete,
    ErrorEvent,
    /// The connection ends before `response.completed`.
    Truncated,
    /// A well-formed answer that names squares the fact sheet does not hold.
    Hallucinate,
}

struct Fake {
    key: String,
    mode: Mutex<Mode>,
    requests: Mutex<Vec<(Option<String>, Value)>>,
}

type SharedFake = Arc<Fake>;

fn sse(event: &Value) -> String {
    format!(
        "event: {}\ndata: {}\n\n",
        event["type"].as_str().unwrap_or("message"),
        event
    )
}

/// The played move and capture count, read from the fact sheet in the prompt.
fn facts_from_prompt(input: &str) -> (String, u64, String) {
    let start = input.find('{').expect("fact sheet JSON in the prompt");
    let end = input.rfind('}').expect("end of the fact sheet");
    let facts: Value = serde_json::from_str(&input[start..=end]).expect("fact sheet parses");
    (
        facts["move"].as_str().expect("move").to_string(),
        facts["captured_count"].as_u64().expect("captured_count"),
        facts["side"].as_str().expect("side").to_string(),
    )
}

fn events(mode: Mode, text: &str) -> Vec<Value> {
    let response = |status: &str, output: Value| json!({"id":"resp_fake","object":"response","status":status,"model":"gpt-6-luna","service_tier":"priority","output":output,"usage":null});
    let reasoning = json!({"id":"rs_1","type":"reasoning","summary":[]});
    let message = json!({"id":"msg_1","type":"message","role":"assistant","status":"completed",
        "content":[{"type":"output_text","text":text,"annotations":[]}]});
    let mut out = vec![
        json!({"type":"response.created","sequence_number":0,"response":response("in_progress", json!([]))}),
        json!({"type":"response.in_progress","sequence_number":1,"response":response("in_progress", json!([]))}),
        json!({"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":reasoning}),
        json!({"type":"response.output_item.done","sequence_number":3,"output_index":0,"item":reasoning}),
        json!({"type":"response.brand_new_event","sequence_number":4,"whatever":{"nested":true}}),
        json!({"type":"response.output_item.added","sequence_number":5,"output_index":1,
            "item":{"id":"msg_1","type":"message","role":"assistant","status":"in_progress","content":[]}}),
        json!({"type":"response.content_part.added","sequence_number":6,"output_index":1,"content_index":0,
            "part":{"type":"output_text","text":"","annotations":[]}}),
    ];
    let chars: Vec<char> = text.chars().collect();
    for (i, piece) in chars.chunks(17).enumerate() {
        let delta: String = piece.iter().collect();
        out.push(
            json!({"type":"response.output_text.delta","sequence_number":7 + i,"item_id":"msg_1",
            "output_index":1,"content_index":0,"delta":delta}),
        );
        if mode == Mode::FailMidStream && i == 1 {
            out.push(json!({"type":"response.failed","sequence_number":100,
                "response":{"status":"failed","error":{"code":"server_error","message":"upstream overloaded, try again"}}}));
            return out;
        }
        if mode == Mode::ErrorEvent && i == 1 {
            out.push(json!({"type":"error","sequence_number":100,"code":"rate_limit","message":"Rate limit reached","param":null}));
            return out;
        }
    }
    if mode == Mode::Truncated {
        return out;
    }
    if mode == Mode::Incomplete {
        out.push(json!({"type":"response.incomplete","sequence_number":200,
            "response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}}));
        return out;
    }
    out.push(json!({"type":"response.output_text.done","sequence_number":200,"item_id":"msg_1","output_index":1,"content_index":0,"text":text}));
    out.push(json!({"type":"response.content_part.done","sequence_number":201,"output_index":1,"content_index":0,
        "part":{"type":"output_text","text":text,"annotations":[]}}));
    out.push(json!({"type":"response.output_item.done","sequence_number":202,"output_index":1,"item":message}));
    out.push(json!({"type":"response.completed","sequence_number":203,
        "response":response("completed", json!([reasoning, message]))}));
    out
}

async fn fake_responses(
    State(fake): State<SharedFake>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    fake.requests
        .lock()
        .expect("lock")
        .push((auth.clone(), body.clone()));
    if auth.as_deref() != Some(&format!("Bearer {}", fake.key)) {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({"error":{"message":"Incorrect API key provided","type":"invalid_request_error","param":null,"code":"invalid_api_key"}})),
        )
            .into_response();
    }
    let mode = *fake.mode.lock().expect("lock");
    if mode == Mode::Http500 {
        // Like real error bodies, this one quotes the key: the server must scrub it.
        let message = format!(
            "The server had an error while processing your request (key {}).",
            fake.key
        );
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            Json(
                json!({"error":{"message":message,"type":"server_error","param":null,"code":null}}),
            ),
        )
            .into_response();
    }
    let (square, captured, side) =
        facts_from_prompt(body["input"].as_str().expect("input is text"));
    let text = if mode == Mode::Malformed {
        "Sure! Here is my analysis, not in JSON.".to_string()
    } else if mode == Mode::Hallucinate {
        json!({
            "explanation": format!("{side} played {square} and captured {captured} discs, preparing A1 and h8."),
            "lesson": format!("Fake lesson for {square}."),
        })
        .to_string()
    } else {
        json!({
            "explanation": format!("{side} played {square} and captured {captured} discs; the fake model wrote this."),
            "lesson": format!("Fake lesson for {square}."),
        })
        .to_string()
    };
    let wire_mode = if mode == Mode::Hallucinate {
        Mode::Success
    } else {
        mode
    };
    let mut chunks: Vec<String> = events(wire_mode, &text).iter().map(sse).collect();
    if wire_mode == Mode::Success {
        chunks.push("data: [DONE]\n\n".to_string());
    }
    let delay = if mode == Mode::Slow {
        Duration::from_millis(1000)
    } else {
        Duration::ZERO
    };
    let stream = futures_util::stream::unfold(chunks.into_iter(), move |mut rest| async move {
        let next = rest.next()?;
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        Some((Ok::<_, std::io::Error>(next), rest))
    });
    Response::builder()
        .status(200)
        .header("content-type", "text/event-stream")
        .body(axum::body::Body::from_stream(stream))
        .expect("response")
}

async fn start_fake(key: &str) -> (SharedFake, String) {
    let fake = Arc::new(Fake {
        key: key.to_string(),
        mode: Mutex::new(Mode::Success),
        requests: Mutex::new(Vec::new()),
    });
    let app = Router::new()
        .route("/v1/responses", post(fake_responses))
        .with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = listener.local_addr().expect("address");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (fake, format!("http://{address}"))
}

fn set_mode(fake: &SharedFake, mode: Mode) {
    *fake.mode.lock().expect("lock") = mode;
}

fn random_key() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("sk-test-{:x}{:x}", nanos, std::process::id())
}

// ---------------------------------------------------------------- server

/// Starts the real server with extra arguments and environment.
fn start(database: &Path, args: &[&str], env: &[(&str, &str)]) -> Server {
    Server::start_with_env(database, args, env)
}

/// One browser (one session cookie, kept across servers) that keeps every
/// body it receives, to scan for the key.
struct Observer {
    client: Client,
}

impl Observer {
    fn new() -> Self {
        Observer {
            client: Client::new("http://127.0.0.1").recording(),
        }
    }

    /// The observer talking to the server at `url`.
    fn at(&self, url: &str) -> Client {
        self.client.at(url)
    }

    async fn get(&self, url: &str, path: &str) -> (u16, String) {
        self.at(url).get(path).await.expect("request")
    }

    async fn provider(&self, url: &str) -> ProviderStatus {
        self.at(url).lab_provider().await.expect("lab_provider")
    }

    fn assert_never_saw(&self, secret: &str) {
        let bodies = self.client.bodies();
        assert!(!bodies.is_empty());
        for body in bodies.iter() {
            assert!(!body.contains(secret), "a response leaked the key: {body}");
        }
        // The key's random tail alone must not leak either.
        let tail = &secret[8..];
        for body in bodies.iter() {
            assert!(!body.contains(tail), "a response leaked part of the key");
        }
    }

    async fn create(&self, url: &str, black: u8, white: u8) -> LabId {
        self.at(url)
            .lab_create(black, white)
            .await
            .expect("lab_create")
    }

    async fn get_lab(&self, url: &str, lab: &LabId) -> LabView {
        self.at(url).lab_get(lab).await.expect("lab_get")
    }

    /// Waits until the latest explanation is no longer pending.
    async fn settle(&self, url: &str, lab: &LabId, mut view: LabView) -> LabView {
        for _ in 0..20 {
            if !view.explaining() {
                return view;
            }
            view = self
                .at(url)
                .lab_wait(lab, view.version)
                .await
                .expect("lab_wait");
        }
        panic!("the explanation stayed pending: {view:?}");
    }

    /// One Next turn and its explanation.
    async fn step(&self, url: &str, lab: &LabId) -> LabView {
        let view = self
            .at(url)
            .lab_next_turn(lab)
            .await
            .expect("lab_next_turn");
        self.settle(url, lab, view).await
    }
}

fn last_move(view: &LabView) -> &LabMoveView {
    view.last_move().expect("a move")
}

fn move_count(view: &LabView) -> usize {
    view.moves.len()
}

/// A written explanation: (text, provider, unverified squares).
fn ready(m: &LabMoveView) -> (&str, &str, &[String]) {
    match &m.explanation {
        ExplanationView::Ready {
            explanation,
            provider,
            unverified,
            ..
        } => (explanation, provider, unverified),
        other => panic!("ply {} is not explained: {other:?}", m.ply),
    }
}

/// The message of a failed explanation.
fn failure(m: &LabMoveView) -> &str {
    match &m.explanation {
        ExplanationView::Failed { message } => message,
        other => panic!("ply {} did not fail: {other:?}", m.ply),
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Black => "black",
        Side::White => "white",
    }
}

// ---------------------------------------------------------------- tests

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_lab_game_is_explained_move_by_move_through_the_responses_api() {
    let key = random_key();
    let (fake, base) = start_fake(&key).await;
    let dir = tempfile::tempdir().expect("tempdir");
    // The exact solver runs from 20 empties down with a budget a debug build
    // spends in about a second: the first endgame moves come out as
    // estimates, the last ones exact.
    let server = start(
        &dir.path().join("lab.db"),
        &[
            "--explainer",
            "responses",
            "--responses-base-url",
            &base,
            "--exact-node-budget",
            "1500000",
            // The lab's and the analysis' shared judge at a shallower depth
            // than the site's: the same numbers on both sides, in seconds, not
            // the minute a debug build spends at the default depth.
            "--analysis-depth",
            "6",
        ],
        &[("OPENAI_API_KEY", &key)],
    );
    let url = server.url.clone();
    let observer = Observer::new();
    let provider = observer.provider(&url).await;
    assert_eq!(provider.kind, "responses");
    assert!(provider.ready);

    let lab = observer.create(&url, 2, 1).await;
    let mut view = observer.get_lab(&url, &lab).await;
    assert_eq!(view.black_count, 2);
    let mut guard = 0;
    while !view.is_over() {
        guard += 1;
        assert!(guard <= 64, "the game does not end");
        let before = move_count(&view);
        view = observer.step(&url, &lab).await;
        assert_eq!(move_count(&view), before + 1, "one disc per Next turn");
        let m = last_move(&view);
        let (text, provider, _) = ready(m);
        assert_eq!(provider, "GPT-6 Luna · Responses API");
        let expected = format!(
            "{} played {} and captured {} discs",
            side_name(m.side),
            m.square,
            m.flipped.len()
        );
        assert!(
            text.starts_with(&expected),
            "the fact sheet reached the model: {m:?}"
        );
    }
    let moves = &view.moves;
    assert!(moves.len() >= 20);
    for side in [Side::Black, Side::White] {
        assert!(moves.iter().any(|m| m.side == side), "{side:?} moved");
    }
    let refused = observer
        .at(&url)
        .lab_next_turn(&lab)
        .await
        .expect_err("a finished game has no next turn");
    assert_eq!(refused.status, 422);
    assert!(refused.message.contains("over"), "{refused}");

    // Exact endgame truth: every move from 20 empties down carries the
    // solver's verdict; the last ones are exact, with a value for every move.
    let mut empties = 60;
    let mut verdicts = Vec::new();
    for m in moves {
        if empties <= 20 {
            let exact = m
                .exact
                .unwrap_or_else(|| panic!("ply {} at {empties} empties: {m:?}", m.ply));
            verdicts.push(exact.exact);
            if exact.exact {
                let played = exact.played.expect("played value");
                let best = exact.best.expect("best value");
                assert!(played <= best, "{exact:?}");
            } else {
                assert_eq!(exact.played, None, "no value on an estimate: {exact:?}");
            }
        } else {
            assert_eq!(m.exact, None, "no exact facts at {empties} empties");
        }
        empties -= 1;
    }
    assert!(verdicts.len() >= 15, "{} endgame moves", verdicts.len());
    assert!(
        verdicts.iter().rev().take(8).all(|v| *v),
        "the last moves are exact: {verdicts:?}"
    );

    // Every move in discs, and they are the game analysis's numbers, move
    // by move: the same evaluation judges the lab and the analysis.
    let analyst = observer.at(&url);
    analyst
        .analysis_start("lab", lab.as_str())
        .await
        .expect("analysis starts");
    let started = std::time::Instant::now();
    let analysis = loop {
        match analyst
            .analysis_get("lab", lab.as_str())
            .await
            .expect("analysis")
        {
            app::protocol::AnalysisView::Ready { analysis } => break analysis,
            app::protocol::AnalysisView::Failed { message } => panic!("analysis failed: {message}"),
            _ => {
                assert!(
                    started.elapsed() < std::time::Duration::from_secs(300),
                    "the analysis ends"
                );
                tokio::time::sleep(std::time::Duration::from_millis(250)).await;
            }
        }
    };
    assert_eq!(analysis.moves.len(), moves.len());
    for (m, a) in moves.iter().zip(&analysis.moves) {
        let discs = m
            .discs
            .unwrap_or_else(|| panic!("ply {} has discs: {m:?}", m.ply));
        assert_eq!(
            (discs.played, discs.best, discs.exact),
            (a.played_value, a.best_value, a.exact),
            "ply {} {}: the lab's discs are the analysis's",
            m.ply,
            m.square
        );
        if let Some(exact) = m.exact.filter(|e| e.exact) {
            assert_eq!(exact.played, Some(discs.played));
            assert_eq!(exact.best, Some(discs.best));
        }
    }

    // What the model was asked, exactly.
    let requests = fake.requests.lock().expect("lock").clone();
    assert_eq!(requests.len(), moves.len(), "one request per move");
    // The sheet says `exact` or `estimate`, and the instructions tie
    // perfect-play claims to `exact`.
    let (_, last_body) = requests.last().expect("a request");
    let last_input = last_body["input"].as_str().expect("input");
    assert!(last_input.contains("\"status\": \"exact\""), "{last_input}");
    assert!(last_input.contains("final_disc_difference"));
    for (_, body) in &requests {
        let input = body["input"].as_str().expect("input");
        if input.contains("\"status\": \"estimate\"") {
            assert!(input.contains("Estimates only"));
            assert!(!input.contains("final_disc_difference"));
        }
    }
    assert!(last_body["instructions"]
        .as_str()
        .is_some_and(|i| i.contains("only when the sheet's `endgame.status` is `exact`")));
    for (auth, body) in &requests {
        assert_eq!(auth.as_deref(), Some(format!("Bearer {key}").as_str()));
        assert_eq!(body["model"], "gpt-6-luna");
        assert_eq!(body["reasoning"]["effort"], "max");
        assert_eq!(body["service_tier"], "fast");
        assert_eq!(body["stream"], true);
        assert_eq!(body["store"], false);
        assert_eq!(body["text"]["format"]["type"], "json_schema");
        assert_eq!(body["text"]["format"]["strict"], true);
        assert_eq!(
            body["text"]["format"]["schema"]["required"],
            json!(["explanation", "lesson"])
        );
        let input = body["input"].as_str().expect("input");
        for field in [
            "board_before",
            "board_after",
            "alternatives",
            "opponent_replies",
            "terms_before",
            "terms_after",
            "principal_variation",
            "nodes",
            "\"discs\"",
            "discs_exact",
            "discs_note",
        ] {
            assert!(input.contains(field), "the prompt carries {field}");
        }
        assert!(body["instructions"]
            .as_str()
            .is_some_and(|i| i.contains("never as what the algorithm")
                && i.contains("use the `discs` values")));
    }

    // Exports hold the board record with explanations and lessons.
    let (status, text) = observer.get(&url, &format!("/lab/{lab}/export.txt")).await;
    assert_eq!(status, 200);
    assert!(text.contains("Lesson: Fake lesson for"));
    assert!(text.contains("Result: "));
    let (status, json_text) = observer.get(&url, &format!("/lab/{lab}/export.json")).await;
    assert_eq!(status, 200);
    let exported: Value = serde_json::from_str(&json_text).expect("export is JSON");
    assert_eq!(
        exported["moves"].as_array().map(Vec::len),
        Some(moves.len())
    );
    assert!(exported["moves"][0]["lesson"]
        .as_str()
        .is_some_and(|l| l.starts_with("Fake lesson")));
    let (status, page) = observer.get(&url, &format!("/lab/{lab}")).await;
    assert_eq!(status, 200);
    assert!(page.contains("GPT-6 Luna"));
    observer.get(&url, "/lab").await;
    observer.assert_never_saw(&key);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn squares_the_model_names_off_the_fact_sheet_are_marked_unverified() {
    let key = random_key();
    let (fake, base) = start_fake(&key).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let server = start(
        &dir.path().join("lab.db"),
        &["--explainer", "responses", "--responses-base-url", &base],
        &[("OPENAI_API_KEY", &key)],
    );
    let url = server.url.clone();
    let observer = Observer::new();
    let lab = observer.create(&url, 1, 1).await;

    // The model names a1 and h8: on the first move neither is a legal move, a
    // capture, an occupied square, a reply or on the principal variation.
    set_mode(&fake, Mode::Hallucinate);
    let view = observer.step(&url, &lab).await;
    let m = last_move(&view);
    let square = m.square.clone();
    let (text, _, unverified) = ready(m);
    assert_eq!(unverified, ["a1", "h8"], "{m:?}");
    assert!(
        text.ends_with("preparing A1 and h8."),
        "the text is kept: {text}"
    );
    let (status, page) = observer.get(&url, &format!("/lab/{lab}")).await;
    assert_eq!(status, 200);
    assert!(page.contains("id=\"unverified\""), "the page marks it");
    assert!(page.contains("a1, h8"));
    assert!(page.contains("preparing A1 and h8."), "and keeps the text");

    // A grounded answer (the move and its captures only) is not marked.
    set_mode(&fake, Mode::Success);
    let view = observer.step(&url, &lab).await;
    let m = last_move(&view);
    assert_ne!(m.square, square);
    assert!(ready(m).2.is_empty(), "{m:?}");
    let (_, page) = observer.get(&url, &format!("/lab/{lab}")).await;
    assert!(!page.contains("id=\"unverified\""));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_explanation_freezes_the_game_and_a_retry_places_no_disc() {
    let key = random_key();
    let (fake, base) = start_fake(&key).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let server = start(
        &dir.path().join("lab.db"),
        &[
            "--explainer",
            "responses",
            "--responses-base-url",
            &base,
            "--explain-timeout-secs",
            "2",
        ],
        &[("OPENAI_API_KEY", &key)],
    );
    let url = server.url.clone();
    let observer = Observer::new();
    let lab = observer.create(&url, 1, 1).await;
    observer.step(&url, &lab).await;

    let cases = [
        (Mode::Http500, "HTTP 500"),
        (Mode::Malformed, "not the expected JSON"),
        (Mode::FailMidStream, "upstream overloaded"),
        (Mode::Incomplete, "max_output_tokens"),
        (Mode::ErrorEvent, "Rate limit reached"),
        (Mode::Truncated, "ended before"),
        (Mode::Slow, "did not answer within 2 s"),
    ];
    for (mode, expected) in cases {
        set_mode(&fake, mode);
        let view = observer.step(&url, &lab).await;
        let plies = move_count(&view);
        let m = last_move(&view);
        let message = failure(m);
        assert!(message.contains(expected), "{mode:?}: {message}");
        assert!(!message.contains(&key));
        let cells = view.board.cells.clone();

        // Frozen: no new disc until the explanation is written.
        let refused = observer
            .at(&url)
            .lab_next_turn(&lab)
            .await
            .expect_err("frozen");
        assert_eq!(refused.status, 422, "{refused}");
        assert!(refused.message.contains("retry"), "{refused}");
        let still = observer.get_lab(&url, &lab).await;
        assert_eq!(move_count(&still), plies);
        assert_eq!(still.board.cells, cells);
        assert!(still.explanation_failed());

        // Retry with the service back: same move, explained, no new disc.
        set_mode(&fake, Mode::Success);
        let retried = observer
            .at(&url)
            .lab_retry_explanation(&lab)
            .await
            .expect("retry");
        let done = observer.settle(&url, &lab, retried).await;
        assert_eq!(move_count(&done), plies, "{mode:?}: a retry places no disc");
        assert_eq!(done.board.cells, cells);
        ready(last_move(&done));
        // Retrying an explained move is refused.
        let refused = observer
            .at(&url)
            .lab_retry_explanation(&lab)
            .await
            .expect_err("nothing to retry");
        assert_eq!(refused.status, 422, "{refused}");
    }
    // A wrong key answers 401; the message is scrubbed and clear.
    let wrong = random_key() + "wrong";
    drop(server);
    let server = start(
        &dir.path().join("lab.db"),
        &["--explainer", "responses", "--responses-base-url", &base],
        &[("OPENAI_API_KEY", &wrong)],
    );
    let url = server.url.clone();
    let view = observer.step(&url, &lab).await;
    let message = failure(last_move(&view)).to_string();
    assert!(message.contains("HTTP 401"), "{message}");
    observer.assert_never_saw(&key);
    observer.assert_never_saw(&wrong);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lab_game_survives_sigkill_and_a_new_lab_game_starts_afresh() {
    let key = random_key();
    let (fake, base) = start_fake(&key).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("lab.db");
    let args = ["--explainer", "responses", "--responses-base-url", &base];
    let env = [("OPENAI_API_KEY", key.as_str())];
    let server = start(&db, &args, &env);
    let url = server.url.clone();
    let observer = Observer::new();
    let lab = observer.create(&url, 3, 2).await;
    for _ in 0..5 {
        observer.step(&url, &lab).await;
    }
    set_mode(&fake, Mode::Http500);
    let before = observer.step(&url, &lab).await;
    assert_eq!(move_count(&before), 6);
    failure(last_move(&before));

    server.kill();
    let server = start(&db, &args, &env);
    let url = server.url.clone();
    let after = observer.get_lab(&url, &lab).await;
    assert_eq!(after.moves, before.moves, "moves, boards and explanations");
    assert_eq!(after.board, before.board);
    assert_eq!(after.black_depth, 3);
    assert_eq!(after.white_depth, 2);
    set_mode(&fake, Mode::Success);
    let retried = observer
        .at(&url)
        .lab_retry_explanation(&lab)
        .await
        .expect("retry");
    let retried = observer.settle(&url, &lab, retried).await;
    ready(last_move(&retried));
    let next = observer.step(&url, &lab).await;
    assert_eq!(move_count(&next), 7);

    // Killed while an explanation is being written: it is asked again.
    set_mode(&fake, Mode::Slow);
    let pending = observer
        .at(&url)
        .lab_next_turn(&lab)
        .await
        .expect("next turn");
    assert!(pending.explaining());
    server.kill();
    set_mode(&fake, Mode::Success);
    let server = start(&db, &args, &env);
    let url = server.url.clone();
    let view = observer.get_lab(&url, &lab).await;
    assert_eq!(move_count(&view), 8);
    let view = observer.settle(&url, &lab, view).await;
    ready(last_move(&view));

    // A new lab game starts from the initial position; the old one stays.
    let fresh = observer.create(&url, 1, 6).await;
    assert_ne!(fresh, lab);
    let fresh_view = observer.get_lab(&url, &fresh).await;
    assert_eq!(move_count(&fresh_view), 0);
    assert_eq!(fresh_view.black_count, 2);
    assert_eq!(fresh_view.white_count, 2);
    assert_eq!(
        fresh_view.status,
        LabStatus::Playing {
            to_move: Side::Black
        }
    );
    let list = observer.at(&url).lab_list().await.expect("lab_list");
    let ids: Vec<&str> = list.iter().map(|g| g.id.as_str()).collect();
    assert!(ids.contains(&lab.as_str()) && ids.contains(&fresh.as_str()));
    // Bad depths are refused.
    let refused = observer
        .at(&url)
        .lab_create(0, 7)
        .await
        .expect_err("bad depths");
    assert_eq!(refused.status, 422, "{refused}");
    let refused = observer
        .at(&url)
        .lab_get(&app::ids::LabId::new("nope"))
        .await
        .expect_err("no such game");
    assert_eq!(refused.status, 404, "an unknown lab game is not found");
    assert_eq!(refused.message, "No such lab game.");
    observer.assert_never_saw(&key);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_no_codex_and_no_key_the_default_is_offline_and_names_the_move() {
    let dir = tempfile::tempdir().expect("tempdir");
    // No flag: `auto`, with no Codex CLI and no key, falls back to offline.
    let server = start(
        &dir.path().join("lab.db"),
        &[],
        &[
            ("OTHELLO_EXPLAINER", ""),
            ("OTHELLO_CODEX_BIN", "/nonexistent/codex"),
        ],
    );
    let url = server.url.clone();
    let observer = Observer::new();
    assert_eq!(observer.provider(&url).await.kind, "offline");
    let lab = observer.create(&url, 2, 2).await;
    for _ in 0..4 {
        let view = observer.step(&url, &lab).await;
        let m = last_move(&view);
        let (text, provider, _) = ready(m);
        assert!(text.contains(&format!("played {}", m.square)), "{text}");
        assert_eq!(provider, "Offline explainer (built-in)");
    }
}

// ---------------------------------------------------------------- Codex

const FAKE_CODEX: &str = r#"#!/bin/bash
# A fake `codex` for tests: speaks `codex exec --json` JSONL events.
dir="$(cd "$(dirname "$0")" && pwd)"
printf '%s\n' "$*" >> "$dir/args.log"
env | grep -E '^(OPENAI_API_KEY|CODEX_API_KEY)=' >> "$dir/leaked.log"
if [ "$1" = "login" ] && [ "$2" = "status" ]; then
  if [ -f "$dir/logged-in" ]; then echo "Logged in using ChatGPT" >&2; exit 0; fi
  echo "Not logged in" >&2; exit 1
fi
[ "$1" = "exec" ] || exit 2
out=""; work=""; schema=""; prev=""
for a in "$@"; do
  case "$prev" in -o) out="$a";; -C) work="$a";; --output-schema) schema="$a";; esac
  prev="$a"
done
[ -d "$work" ] && [ -z "$(ls -A "$work")" ] || echo "work dir not empty: $work" >> "$dir/problems.log"
grep -q '"explanation"' "$schema" || echo "no schema" >> "$dir/problems.log"
prompt="$(cat)"
mv=$(printf '%s' "$prompt" | grep -o '"move": "[a-h][1-8]"' | head -1 | cut -d'"' -f4)
mode="$(cat "$dir/mode" 2>/dev/null || echo success)"
echo '{"type":"thread.started","thread_id":"0199-fake"}'
echo '{"type":"turn.started"}'
case "$mode" in
  success)
    echo '{"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"**Looking at the board**"}}'
    answer="{\"explanation\":\"Codex looked at $mv.\",\"lesson\":\"Codex lesson for $mv.\"}"
    escaped=$(printf '%s' "$answer" | sed 's/\\/\\\\/g; s/"/\\"/g')
    echo "{\"type\":\"item.completed\",\"item\":{\"id\":\"item_1\",\"type\":\"agent_message\",\"text\":\"$escaped\"}}"
    printf '%s' "$answer" > "$out"
    echo '{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":5}}'
    exit 0;;
  *)
    echo '{"type":"error","message":"stream disconnected before completion"}'
    echo '{"type":"turn.failed","error":{"message":"model overloaded"}}'
    exit 1;;
esac
"#;

fn fake_codex(dir: &Path) -> String {
    use std::os::unix::fs::PermissionsExt;
    let bin = dir.join("codex");
    std::fs::write(&bin, FAKE_CODEX).expect("write fake codex");
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_codex_provider_uses_the_local_login_and_its_jsonl_events() {
    let bin_dir = tempfile::tempdir().expect("tempdir");
    let path = fake_codex(bin_dir.path());
    let data = tempfile::tempdir().expect("tempdir");
    let key = random_key();
    let codex_key = random_key() + "codex";
    let env = [
        ("PATH", path.as_str()),
        ("OPENAI_API_KEY", key.as_str()),
        ("CODEX_API_KEY", codex_key.as_str()),
    ];
    let observer = Observer::new();

    // Not logged in: the lab page says the model is not available; why is
    // for the operator (`/healthz`), not for visitors.
    let server = start(&data.path().join("a.db"), &["--explainer", "codex"], &env);
    let url = server.url.clone();
    let provider = observer.provider(&url).await;
    assert_eq!(provider.kind, "codex");
    assert!(!provider.ready);
    assert_eq!(provider.detail, "", "{provider:?}");
    let lab = observer.create(&url, 1, 1).await;
    let (status, page) = observer.get(&url, &format!("/lab/{lab}")).await;
    assert_eq!(status, 200);
    assert!(
        page.contains("not available right now"),
        "the lab page says the model is not available"
    );
    assert!(
        !page.contains("not logged in") && !page.contains("Codex CLI"),
        "no operator's details on the page"
    );
    let healthz = health(&observer, &url).await;
    assert!(
        healthz["explainer"]["detail"]
            .as_str()
            .is_some_and(|d| d.contains("not logged in")),
        "{healthz}"
    );
    drop(server);

    // Logged in: explanations come from `codex exec`.
    std::fs::write(bin_dir.path().join("logged-in"), "").expect("login");
    let server = start(&data.path().join("b.db"), &["--explainer", "codex"], &env);
    let url = server.url.clone();
    let provider = observer.provider(&url).await;
    assert!(provider.ready, "{provider:?}");
    let lab = observer.create(&url, 2, 1).await;
    for _ in 0..2 {
        let view = observer.step(&url, &lab).await;
        let m = last_move(&view);
        let (text, provider, _) = ready(m);
        assert_eq!(text, format!("Codex looked at {}.", m.square));
        assert_eq!(provider, "GPT-6 Luna · Codex");
    }
    // A failing turn freezes; the retry succeeds without a new disc.
    std::fs::write(bin_dir.path().join("mode"), "fail").expect("mode");
    let view = observer.step(&url, &lab).await;
    let message = failure(last_move(&view));
    assert!(message.contains("model overloaded"), "{message}");
    std::fs::write(bin_dir.path().join("mode"), "success").expect("mode");
    let retried = observer
        .at(&url)
        .lab_retry_explanation(&lab)
        .await
        .expect("retry");
    let done = observer.settle(&url, &lab, retried).await;
    assert_eq!(move_count(&done), 3);
    ready(last_move(&done));

    let args = std::fs::read_to_string(bin_dir.path().join("args.log")).expect("args");
    let exec = args
        .lines()
        .find(|l| l.starts_with("exec"))
        .expect("codex exec was run");
    for part in [
        "exec --json --ephemeral --skip-git-repo-check -s read-only -C ",
        " -m gpt-6-luna -c model_reasoning_effort=\"max\" -c service_tier=\"fast\" -c features.fast_mode=true --output-schema ",
        " -o ",
    ] {
        assert!(exec.contains(part), "{part} in {exec}");
    }
    assert!(exec.ends_with(" -"), "prompt on stdin: {exec}");
    assert!(args.lines().any(|l| l == "login status"));
    let leaked = std::fs::read_to_string(bin_dir.path().join("leaked.log")).unwrap_or_default();
    assert!(leaked.is_empty(), "API keys reached codex: {leaked}");
    let problems = std::fs::read_to_string(bin_dir.path().join("problems.log")).unwrap_or_default();
    assert!(problems.is_empty(), "{problems}");
    observer.assert_never_saw(&key);
    observer.assert_never_saw(&codex_key);
}

// ---------------------------------------------------------------- auto

async fn health(observer: &Observer, url: &str) -> Value {
    let (status, body) = observer.get(url, "/healthz").await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).expect("health JSON")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_picks_a_logged_in_codex_else_the_key_else_offline_and_says_why() {
    let bin_dir = tempfile::tempdir().expect("tempdir");
    let path = fake_codex(bin_dir.path());
    let data = tempfile::tempdir().expect("tempdir");
    let key = random_key();
    let observer = Observer::new();
    // No `--explainer` flag and no OTHELLO_EXPLAINER: the default is `auto`.
    let no_flag = ("OTHELLO_EXPLAINER", "");

    // Codex missing, no key: offline; `/healthz` says why, the pages do not
    // (that is the operator's business, not the visitor's).
    let env = [
        no_flag,
        ("PATH", path.as_str()),
        ("OTHELLO_CODEX_BIN", "/nonexistent/codex"),
    ];
    let server = start(&data.path().join("a.db"), &[], &env);
    let url = server.url.clone();
    let provider = observer.provider(&url).await;
    assert_eq!(provider.kind, "offline", "{provider:?}");
    assert_eq!(provider.detail, "", "{provider:?}");
    let healthz = health(&observer, &url).await;
    assert_eq!(healthz["explainer"]["kind"], "offline", "{healthz}");
    let detail = healthz["explainer"]["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("Codex CLI: not installed"), "{detail}");
    assert!(detail.contains("OPENAI_API_KEY: not set"), "{detail}");
    let lab = observer.create(&url, 1, 1).await;
    let (status, page) = observer.get(&url, &format!("/lab/{lab}")).await;
    assert_eq!(status, 200);
    assert!(page.contains("Explanations are written by the built-in explainer"));
    assert!(
        !page.contains("Codex") && !page.contains("OPENAI_API_KEY"),
        "no operator's details on the page"
    );
    drop(server);

    // Codex installed but not logged in, key set: the Responses API.
    let env = [
        no_flag,
        ("PATH", path.as_str()),
        ("OPENAI_API_KEY", key.as_str()),
    ];
    let server = start(&data.path().join("b.db"), &[], &env);
    let url = server.url.clone();
    let provider = observer.provider(&url).await;
    assert_eq!(provider.kind, "responses", "{provider:?}");
    let lab = observer.create(&url, 1, 1).await;
    let (status, page) = observer.get(&url, &format!("/lab/{lab}")).await;
    assert_eq!(status, 200);
    assert!(
        page.contains("Explanations are written by GPT-6 Luna"),
        "the lab page names the model"
    );
    assert!(
        !page.contains("Codex CLI") && !page.contains("OPENAI_API_KEY"),
        "no operator's details on the page"
    );
    let healthz = health(&observer, &url).await;
    assert_eq!(healthz["explainer"]["kind"], "responses");
    assert!(
        healthz["explainer"]["detail"]
            .as_str()
            .is_some_and(|d| d.contains("Codex CLI: not logged in")),
        "{healthz}"
    );
    drop(server);

    // Logged in: GPT-6 Luna through Codex, without any flag, even with a key.
    std::fs::write(bin_dir.path().join("logged-in"), "").expect("login");
    let server = start(&data.path().join("c.db"), &[], &env);
    let url = server.url.clone();
    let provider = observer.provider(&url).await;
    assert_eq!(provider.kind, "codex", "{provider:?}");
    assert!(provider.ready);
    assert!(health(&observer, &url).await["explainer"]["detail"]
        .as_str()
        .is_some_and(|d| d.contains("logged in")));
    let lab = observer.create(&url, 1, 1).await;
    let view = observer.step(&url, &lab).await;
    let m = last_move(&view);
    let (text, provider, _) = ready(m);
    assert_eq!(provider, "GPT-6 Luna · Codex");
    assert_eq!(text, format!("Codex looked at {}.", m.square));
    assert_eq!(health(&observer, &url).await["explainer"]["kind"], "codex");
    let leaked = std::fs::read_to_string(bin_dir.path().join("leaked.log")).unwrap_or_default();
    assert!(leaked.is_empty(), "API keys reached codex: {leaked}");
    observer.assert_never_saw(&key);

    // Explicit values keep working.
    let server = start(&data.path().join("d.db"), &["--explainer", "offline"], &env);
    assert_eq!(observer.provider(&server.url).await.kind, "offline");
}
