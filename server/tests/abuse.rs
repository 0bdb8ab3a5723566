//! Abuse-proofing (issue 30): the small doors (the language switch's `back`,
//! sockets without an Origin or flooding messages, `/readyz`, slow and idle
//! connections, `/metrics`), and one flood per creating command from one
//! address with a fresh cookie each time.
//!
//! (Over 600 lines: one flood per creating command and the small doors, sharing one in-process server helper.)
//!
//! The server runs in process (`server::serve::serve`, which gives every
//! request its peer address, so the per-address limits apply: every
//! connection here comes from 127.0.0.1) on a manual clock where time
//! matters. No test sleeps to let time pass; waits are for an answer or a
//! closed connection, bounded by a generous timeout.

mod common;

use common::InProcess;
use server::clock::ManualClock;
use server::config::Config;
use std::sync::Arc;
use std::time::{Duration, Instant};
use testclient::Client;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The site in process, on a clock the test moves.
struct Site {
    url: String,
    state: server::AppState,
    clock: ManualClock,
    _server: InProcess,
    _dir: tempfile::TempDir,
}

/// Starts the site with the test configuration, changed by `tweak`.
async fn start_site(tweak: impl FnOnce(&mut Config)) -> Site {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut config = Config::for_tests(dir.path().join("othello.db"));
    config.rate_per_ip = 0;
    tweak(&mut config);
    let clock = ManualClock::new(1_700_000_000_000);
    let server = InProcess::serve(&config, Arc::new(clock.clone())).await;
    Site {
        url: server.url.clone(),
        state: server.state.clone(),
        clock,
        _server: server,
        _dir: dir,
    }
}

/// A visitor with a fresh cookie (as a flood rotates them): a random
/// token the server has never seen is a new session.
async fn fresh(url: &str) -> Client {
    let token: String = (0..32).map(|_| format!("{:02x}", rand_byte())).collect();
    Client::with_token(url, &token)
}

fn rand_byte() -> u8 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static SEED: AtomicU64 = AtomicU64::new(0x2545_f491_4f6c_dd1d);
    // xorshift: distinct tokens are all a test needs.
    let mut x = SEED.load(Ordering::Relaxed);
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    SEED.store(x, Ordering::Relaxed);
    (x >> 24) as u8
}

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

#[tokio::test]
async fn the_language_switch_never_sends_a_visitor_to_another_site() {
    let site = start_site(|_| {}).await;
    let http = no_redirects();
    let location = |back: &'static str| {
        let http = http.clone();
        let url = site.url.clone();
        async move {
            let response = http
                .get(format!("{url}/lang/en?back={back}"))
                .send()
                .await
                .expect("answer");
            assert_eq!(response.status().as_u16(), 303, "{back}");
            response.headers()["location"]
                .to_str()
                .expect("location")
                .to_string()
        }
    };
    // The report's case: a tab, which browsers drop, made `//evil.example`.
    for back in [
        "/%09/evil.example",
        "/%0A/evil.example",
        "//evil.example",
        "/%5Cevil.example",
        "%5C%5Cevil.example",
        "/%2F/evil.example",
        "/%252F/evil.example",
        "/%25252509/evil.example",
        "https://evil.example",
        "/%20/evil.example",
    ] {
        assert_eq!(location(back).await, "/", "{back}");
    }
    assert_eq!(location("/lab").await, "/lab");
    assert_eq!(location("/table/ab12?x=1").await, "/table/ab12?x=1");
}

#[tokio::test]
async fn a_socket_upgrade_without_an_origin_is_refused_like_a_foreign_one() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let site = start_site(|_| {}).await;
    let owner = fresh(&site.url).await;
    let table = owner
        .create_table(app::protocol::TableMode::HotSeat)
        .await
        .expect("table");
    let ws = site.url.replace("http://", "ws://");
    for origin in [None, Some("http://evil.example")] {
        let mut request = format!("{ws}/ws/table/{table}")
            .into_client_request()
            .expect("request");
        if let Some(origin) = origin {
            request
                .headers_mut()
                .insert("origin", origin.parse().expect("header"));
        }
        match tokio_tungstenite::connect_async(request).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                assert_eq!(response.status().as_u16(), 403, "{origin:?}");
            }
            other => panic!("{origin:?}: expected 403, got {:?}", other.map(|_| ())),
        }
    }
    // The quick-match socket too.
    let request = format!("{ws}/ws/queue")
        .into_client_request()
        .expect("request");
    assert!(matches!(
        tokio_tungstenite::connect_async(request).await,
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) if r.status().as_u16() == 403
    ));
    // The typed client sends the site's Origin, as browsers do.
    let (_socket, view) = owner.connect(&table).await.expect("socket");
    assert_eq!(view.id, table);
}

#[tokio::test]
async fn a_socket_flooding_messages_is_told_and_closed() {
    let site = start_site(|_| {}).await;
    let owner = fresh(&site.url).await;
    let table = owner
        .create_table(app::protocol::TableMode::HotSeat)
        .await
        .expect("table");
    let (mut socket, _) = owner.connect(&table).await.expect("socket");
    // The default: 5 a second, 50 at once. Pings as fast as they are
    // answered (one at a time, so the server has read all the client sent
    // when it closes).
    let mut pongs = 0;
    let mut refusal = None;
    for _ in 0..200 {
        socket.send_text(r#"{"type":"ping"}"#).await.expect("send");
        let answer = tokio::time::timeout(Duration::from_secs(10), socket.next_message())
            .await
            .expect("an answer")
            .expect("a message");
        match answer {
            app::protocol::ServerMessage::Pong => pongs += 1,
            app::protocol::ServerMessage::Error { message, .. } => {
                refusal = Some(message);
                break;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    // Then the socket ends.
    let ended = tokio::time::timeout(Duration::from_secs(10), socket.next_message())
        .await
        .expect("closed in time");
    assert!(ended.is_err(), "{ended:?}");
    assert_eq!(
        refusal.as_deref(),
        Some("too many messages (limit 5 per second): the connection is closed")
    );
    assert!((45..=51).contains(&pongs), "{pongs} pongs before the close");
}

#[tokio::test]
async fn readiness_is_rate_limited_and_asks_the_database_at_most_once_a_second() {
    let site = start_site(|config| {
        config.rate_per_ip = 1;
        config.rate_burst = 20;
    })
    .await;
    let http = reqwest::Client::new();
    let started = Instant::now();
    let mut answers = std::collections::BTreeMap::new();
    for _ in 0..60 {
        let status = http
            .get(format!("{}/readyz", site.url))
            .send()
            .await
            .expect("readyz")
            .status()
            .as_u16();
        *answers.entry(status).or_insert(0) += 1;
    }
    let elapsed = started.elapsed().as_secs();
    assert!(answers.get(&429).copied().unwrap_or(0) >= 30, "{answers:?}");
    let ok = answers.get(&200).copied().unwrap_or(0);
    assert!(
        (20..=20 + elapsed as usize + 1).contains(&ok),
        "{answers:?}"
    );
    let checks = site.state.readiness.checks();
    assert!(
        checks <= elapsed + 1,
        "{checks} database checks in {elapsed} s for {ok} answers"
    );
    // Liveness does no work and is never limited.
    let health = http
        .get(format!("{}/healthz", site.url))
        .send()
        .await
        .expect("healthz");
    assert_eq!(health.status().as_u16(), 200);
}

/// Reads until the server closes the connection; what it sent.
async fn until_closed(stream: &mut tokio::net::TcpStream) -> String {
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        match tokio::time::timeout(Duration::from_secs(15), stream.read(&mut buffer)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => answer.extend_from_slice(&buffer[..n]),
            Err(_) => panic!(
                "the connection is still open: {}",
                String::from_utf8_lossy(&answer)
            ),
        }
    }
    String::from_utf8_lossy(&answer).to_string()
}

#[tokio::test]
async fn slow_and_idle_connections_are_closed() {
    let site = start_site(|config| {
        config.header_read_timeout_secs = 1;
        config.request_timeout_secs = 2;
    })
    .await;
    let address = site.url.trim_start_matches("http://").to_string();
    // Connected, silent.
    let mut idle = tokio::net::TcpStream::connect(&address)
        .await
        .expect("connect");
    // Half a request head, never finished.
    let mut slow_head = tokio::net::TcpStream::connect(&address)
        .await
        .expect("connect");
    slow_head
        .write_all(format!("GET / HTTP/1.1\r\nHost: {address}\r\n").as_bytes())
        .await
        .expect("write");
    // A whole head, then a body that never comes.
    let mut slow_body = tokio::net::TcpStream::connect(&address)
        .await
        .expect("connect");
    slow_body
        .write_all(
            format!(
                "POST /api/get_table HTTP/1.1\r\nHost: {address}\r\nOrigin: {}\r\n\
                 Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"tab",
                site.url
            )
            .as_bytes(),
        )
        .await
        .expect("write");
    // A keep-alive connection left idle after one answer.
    let mut kept = tokio::net::TcpStream::connect(&address)
        .await
        .expect("connect");
    kept.write_all(format!("GET /healthz HTTP/1.1\r\nHost: {address}\r\n\r\n").as_bytes())
        .await
        .expect("write");

    assert_eq!(until_closed(&mut idle).await, "");
    let answer = until_closed(&mut slow_head).await;
    assert!(!answer.contains("200 OK"), "{answer}");
    let answer = until_closed(&mut slow_body).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let answer = until_closed(&mut kept).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[tokio::test]
async fn metrics_are_not_served_on_the_public_address() {
    let site = start_site(|_| {}).await;
    let (status, _) = fresh(&site.url)
        .await
        .get("/metrics")
        .await
        .expect("answer");
    assert_eq!(status, 404);
    let _ = &site.clock;
}

// ------------------------------------------------------------ floods
//
// One address (127.0.0.1) and a fresh cookie per request, as a flooder
// rotates them: the per-address cap holds for every creating command, and
// the refusal says so (429). Small caps keep the floods short; the defaults
// are in docs/SECURITY.md.

const PER_SESSION: usize = 3;
const PER_ADDRESS: usize = 7;

fn small_caps(config: &mut Config) {
    config.max_tables_per_session = PER_SESSION;
    config.max_tables_per_ip = PER_ADDRESS;
    config.max_lab_games_per_session = PER_SESSION;
    config.max_lab_games_per_ip = PER_ADDRESS;
}

/// Runs `attempt` with a fresh visitor until it is refused (at most 3×
/// the cap); returns how many succeeded and the refusal.
async fn flood<F, Fut, T>(url: &str, attempt: F) -> (usize, testclient::Refusal)
where
    F: Fn(Client) -> Fut,
    Fut: std::future::Future<Output = Result<T, testclient::Refusal>>,
{
    let mut created = 0;
    for _ in 0..PER_ADDRESS * 3 {
        match attempt(fresh(url).await).await {
            Ok(_) => created += 1,
            Err(refused) => return (created, refused),
        }
    }
    panic!("{created} created and never refused");
}

/// `created` made before the refusal, which names the address's `cap`.
fn assert_address_cap(
    what: &str,
    (made, refused): (usize, testclient::Refusal),
    created: usize,
    cap: usize,
) {
    assert_eq!(made, created, "{what}: created before the refusal");
    assert_eq!(refused.status, 429, "{what}: {refused}");
    assert!(
        refused
            .message
            .contains(&format!("from your address (limit {cap})")),
        "{what}: {refused}"
    );
}

/// A board one move from its end: black to move on a1 (flipping b1), then
/// the board is full.
fn last_move_position() -> String {
    let mut cells = vec!['X'; 64];
    cells[0] = '-';
    cells[1] = 'O';
    format!("{} X", cells.into_iter().collect::<String>())
}

#[tokio::test]
async fn two_hundred_parallel_creations_with_one_cookie_get_exactly_the_cap() {
    let site = start_site(|_| {}).await;
    let cap = server::config::defaults::MAX_TABLES_PER_SESSION;
    let token = "ab".repeat(32);
    let attempts: Vec<_> = (0..200)
        .map(|_| {
            let client = Client::with_token(&site.url, &token);
            tokio::spawn(
                async move { client.create_table(app::protocol::TableMode::HotSeat).await },
            )
        })
        .collect();
    let mut created = 0;
    let mut refused = 0;
    for attempt in attempts {
        match attempt.await.expect("task") {
            Ok(_) => created += 1,
            Err(refusal) => {
                assert_eq!(refusal.status, 429, "{refusal}");
                assert!(refusal.message.contains("for this browser"), "{refusal}");
                refused += 1;
            }
        }
    }
    assert_eq!((created, refused), (cap, 200 - cap));
    assert_eq!(site.state.hub.live_tables(), cap);
}

#[tokio::test]
async fn every_way_to_make_a_table_is_capped_per_address() {
    use app::protocol::{Side, TableMode};
    let vs_ai = TableMode::VsAi {
        depth: 6,
        human: Side::Black,
    };
    // create_table.
    let site = start_site(small_caps).await;
    let outcome = flood(&site.url, |c| async move { c.create_table(vs_ai).await }).await;
    assert_address_cap("create_table", outcome, PER_ADDRESS, PER_ADDRESS);
    // create_table_from (was not counted at all).
    let site = start_site(small_caps).await;
    let obf = last_move_position();
    let outcome = flood(&site.url, |c| {
        let obf = obf.clone();
        async move { c.create_table_from(vs_ai, &obf).await }
    })
    .await;
    assert_address_cap("create_table_from", outcome, PER_ADDRESS, PER_ADDRESS);
    // new_table: one session's copies of its own table count for it.
    let site = start_site(small_caps).await;
    let owner = fresh(&site.url).await;
    let table = owner.create_table(vs_ai).await.expect("table");
    for _ in 1..PER_SESSION {
        owner.new_table(&table).await.expect("new_table");
    }
    let refused = owner
        .new_table(&table)
        .await
        .expect_err("the session's cap");
    assert_eq!(refused.status, 429, "{refused}");
    assert!(
        refused
            .message
            .contains(&format!("for this browser (limit {PER_SESSION})")),
        "{refused}"
    );
    // Quick match: the table counts against the player who arrived second;
    // one refused is told on their socket and the waiting player keeps
    // waiting.
    let site = start_site(small_caps).await;
    let mut matched = 0;
    let mut refusal = None;
    for _ in 0..PER_ADDRESS * 2 {
        // At the cap, even joining the queue is refused: this player could
        // not make the table if they were the one to arrive second.
        let first = fresh(&site.url).await;
        let mut wait = first.socket("/ws/queue").await.expect("queue");
        match wait.next_message().await.expect("an answer") {
            app::protocol::ServerMessage::Queued => {}
            app::protocol::ServerMessage::Error { message, .. } => {
                refusal = Some(message);
                break;
            }
            other => panic!("unexpected {other:?}"),
        }
        let second = fresh(&site.url).await;
        let mut join = second.socket("/ws/queue").await.expect("queue");
        match join.next_message().await.expect("an answer") {
            app::protocol::ServerMessage::Matched { .. } => matched += 1,
            other => panic!("unexpected {other:?}"),
        }
        assert!(matches!(
            wait.next_message().await.expect("matched"),
            app::protocol::ServerMessage::Matched { .. }
        ));
    }
    assert_eq!(matched, PER_ADDRESS);
    assert_eq!(
        refusal.as_deref(),
        Some(
            format!(
                "too many live tables from your address (limit {PER_ADDRESS}): finish or leave some first"
            )
            .as_str()
        )
    );
    assert_eq!(site.state.hub.queue_len(), 0, "nobody waits");
    // Expired tables give their places back.
    site.clock.advance(
        i64::try_from(server::config::defaults::TABLE_EXPIRY_SECS * 1000 + 1).expect("ms"),
    );
    site.state.hub.expire_idle().await.expect("sweep");
    fresh(&site.url)
        .await
        .create_table(vs_ai)
        .await
        .expect("room again after expiry");
}

#[tokio::test]
async fn lab_games_and_copies_are_capped_per_address() {
    let site = start_site(small_caps).await;
    let outcome = flood(&site.url, |c| async move { c.lab_create(1, 1).await }).await;
    assert_address_cap("lab_create", outcome, PER_ADDRESS, PER_ADDRESS);

    let site = start_site(small_caps).await;
    let owner = fresh(&site.url).await;
    let lab = owner.lab_create(1, 1).await.expect("lab");
    let outcome = flood(&site.url, |c| {
        let lab = lab.clone();
        async move { c.lab_copy(&lab).await }
    })
    .await;
    // The owner's game counts too.
    assert_address_cap("lab_copy", outcome, PER_ADDRESS - 1, PER_ADDRESS);
    // The copies belong to their copiers, who may step them.
    assert!(site
        .state
        .store
        .lab_games_of(
            server::session::session_of(owner.token().as_deref().expect("token")).as_str()
        )
        .await
        .expect("owned")
        .contains(&lab.to_string()));
}

#[tokio::test]
async fn analyses_running_are_capped_per_address_and_free_their_place_when_done() {
    use app::protocol::{AnalysisView, TableMode};
    let site = start_site(|config| {
        config.ai_threads = 1;
    })
    .await;
    let cap = server::config::defaults::MAX_ANALYSES_PER_IP;
    // Finished games to analyse, one move each.
    let owner = fresh(&site.url).await;
    let mut tables = Vec::new();
    for _ in 0..cap + 1 {
        let table = owner
            .create_table_from(TableMode::HotSeat, &last_move_position())
            .await
            .expect("table");
        owner.play_move(&table, 0).await.expect("the last move");
        tables.push(table);
    }
    // The one AI thread is busy until the test lets it go: the analyses
    // stay running.
    let (release, blocked) = std::sync::mpsc::channel::<()>();
    let _blocker = site
        .state
        .hub
        .ai_pool()
        .run_as("blocker", move || blocked.recv())
        .expect("room");
    for table in &tables[..cap] {
        let view = fresh(&site.url)
            .await
            .analysis_start("table", table.as_str())
            .await
            .expect("started");
        assert!(matches!(view, AnalysisView::Running { .. }), "{view:?}");
    }
    let refused = fresh(&site.url)
        .await
        .analysis_start("table", tables[cap].as_str())
        .await
        .expect_err("the address's cap");
    assert_eq!(refused.status, 429, "{refused}");
    assert!(
        refused
            .message
            .contains(&format!("from your address (limit {cap})")),
        "{refused}"
    );
    // A kind of game that does not exist is refused when the request is
    // read (a 400 naming the kinds), and takes no place.
    let unknown = fresh(&site.url)
        .await
        .analysis_start("chess", "abc")
        .await
        .expect_err("no such kind");
    assert_eq!(unknown.status, 400, "{unknown}");
    assert!(unknown.message.contains("table"), "{unknown}");
    // Asking about a running one is not starting one.
    fresh(&site.url)
        .await
        .analysis_start("table", tables[0].as_str())
        .await
        .expect("already running");
    release.send(()).expect("release");
    let watcher = fresh(&site.url).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    for table in &tables[..cap] {
        while !matches!(
            watcher
                .analysis_get("table", table.as_str())
                .await
                .expect("get"),
            AnalysisView::Ready { .. }
        ) {
            assert!(Instant::now() < deadline, "the analyses never finished");
            tokio::task::yield_now().await;
        }
    }
    fresh(&site.url)
        .await
        .analysis_start("table", tables[cap].as_str())
        .await
        .expect("a place again");
}

// ------------------------------------------------------------ paid explanations

/// A paid provider that writes at once.
struct Paid;

impl server::lab::explain::Explainer for Paid {
    fn explain<'a>(
        &'a self,
        facts: &'a server::lab::facts::FactSheet,
    ) -> server::lab::explain::BoxFuture<
        'a,
        Result<server::lab::explain::Explanation, server::lab::explain::ExplainError>,
    > {
        Box::pin(async move {
            Ok(server::lab::explain::Explanation {
                explanation: format!("Ply {} was written by a paid model.", facts.ply),
                lesson: "Paid lessons cost money.".into(),
                provider: "paid fake".into(),
            })
        })
    }

    fn status(&self) -> app::lab::ProviderStatus {
        app::lab::ProviderStatus {
            kind: "responses".into(),
            name: "paid fake".into(),
            ready: true,
            detail: String::new(),
        }
    }
}

/// A lab on `database` with the paid provider: 3 paid explanations a day
/// server-wide, 2 per address.
async fn paid_lab(database: &std::path::Path, clock: &ManualClock) -> server::lab::LabHub {
    let store = server::store::Store::open(database).await.expect("store");
    let lab = server::lab::LabHub::start(
        store,
        Arc::new(clock.clone()),
        Arc::new(Paid),
        server::lab::LabConfig {
            explain_timeout: Duration::from_secs(30),
            exact: server::lab::exact::ExactLimits {
                empties: 0,
                max_nodes: 1,
            },
            discs_depth: 4,
            expiry_ms: 24 * 3600 * 1000,
            ai: None,
            explain_concurrency: 1,
            explain_daily_budget: 3,
            shared: None,
        },
    )
    .await
    .expect("lab");
    lab.use_limits(Arc::new(server::limits::Limits::new(
        server::limits::LimitConfig {
            explanations_per_address_day: 2,
            ..Default::default()
        },
    )));
    lab
}

/// One step of the caller's, and its explanation written.
async fn step(
    lab: &server::lab::LabHub,
    caller: &server::limits::Caller,
    id: &app::protocol::LabId,
) -> Result<(), app::api::CommandError> {
    let mut view = lab.next_turn_for(caller, id).await?;
    while view
        .moves
        .last()
        .is_some_and(|m| matches!(m.explanation, app::lab::ExplanationView::Pending))
    {
        view = lab.wait(id, view.version).await.expect("wait");
    }
    Ok(())
}

#[tokio::test]
async fn paid_explanations_are_capped_per_address_and_per_day_in_the_database() {
    let dir = tempfile::tempdir().expect("tempdir");
    let database = dir.path().join("othello.db");
    let clock = ManualClock::new(1_700_000_000_000);
    let caller = |n: u8, ip: &str| server::limits::Caller {
        session: app::protocol::Session::new(format!("{n:02x}").repeat(32)),
        address: Some(ip.parse().expect("ip")),
        browser: None,
        device: None,
    };
    let (a, b) = (caller(1, "192.0.2.1"), caller(2, "192.0.2.2"));
    let lab = paid_lab(&database, &clock).await;
    let lang = app::i18n::Lang::En;
    let game_a = lab.create_for(&a, 1, 1, lang).await.expect("a's game");
    let game_b = lab.create_for(&b, 1, 1, lang).await.expect("b's game");
    step(&lab, &a, &game_a).await.expect("a's first");
    step(&lab, &a, &game_a).await.expect("a's second");
    let refused = step(&lab, &a, &game_a)
        .await
        .expect_err("a's address is spent");
    assert_eq!(refused.status_code().as_u16(), 429);
    assert_eq!(
        refused.message,
        "Your address has used its 2 paid explanations for today; retry after midnight UTC. Nothing changed."
    );
    assert_eq!(
        lab.view(&game_a).await.expect("view").moves.len(),
        2,
        "no disc placed"
    );
    step(&lab, &b, &game_b)
        .await
        .expect("b's first: the server's third");
    let refused = step(&lab, &b, &game_b)
        .await
        .expect_err("the server's budget");
    assert_eq!(
        refused.message,
        "The server's daily budget of 3 paid explanations is spent; retry after midnight UTC. Nothing changed."
    );
    // A restart (or another instance on the same database) does not reset it.
    drop(lab);
    let lab = paid_lab(&database, &clock).await;
    let refused = step(&lab, &b, &game_b).await.expect_err("still spent");
    assert_eq!(refused.status_code().as_u16(), 429);
    // Someone else's game cannot be stepped at all.
    let refused = step(&lab, &b, &game_a).await.expect_err("not b's game");
    assert_eq!(refused.status_code().as_u16(), 403);
    // The next UTC day.
    clock.advance(86_400_000);
    step(&lab, &a, &game_a).await.expect("a new day");
    // A copy reuses the explanations: no paid call for its moves.
    let copy = lab.copy_for(&b, &game_a).await.expect("copy");
    let view = lab.view(&copy).await.expect("copy's view");
    assert_eq!(view.moves.len(), 3);
    assert!(view
        .moves
        .iter()
        .all(|m| matches!(m.explanation, app::lab::ExplanationView::Ready { .. })));
}

// ------------------------------------------------------------ what sessions cost

#[tokio::test]
async fn what_the_server_keeps_per_session_is_bounded_by_what_is_live_and_expires() {
    let site = start_site(|_| {}).await;
    for _ in 0..30 {
        fresh(&site.url)
            .await
            .create_table(app::protocol::TableMode::HotSeat)
            .await
            .expect("table");
    }
    // Visitors who create nothing cost nothing.
    for _ in 0..30 {
        let (status, _) = fresh(&site.url).await.get("/lab").await.expect("page");
        assert_eq!(status, 200);
    }
    assert_eq!(site.state.hub.remembered_sessions(), 30);
    // 30 sessions' tables, and the address's.
    assert_eq!(site.state.limits.remembered(), 31);
    // The hub's memory of sessions lasts an hour (the database keeps them).
    site.clock.advance(server::hub::SESSION_CACHE_MS + 1);
    site.state
        .hub
        .expire_sessions(server::config::defaults::SESSION_EXPIRY_SECS)
        .await
        .expect("sweep");
    assert_eq!(site.state.hub.remembered_sessions(), 0);
    assert_eq!(site.state.store.session_count().await.expect("count"), 30);
    // The counts forget what is gone once the tables expire.
    site.state.forget_what_is_gone();
    assert_eq!(site.state.limits.remembered(), 31, "the tables are live");
    site.clock
        .advance(i64::try_from(server::config::defaults::TABLE_EXPIRY_SECS * 1000).expect("ms"));
    site.state.hub.expire_idle().await.expect("sweep");
    site.state.forget_what_is_gone();
    assert_eq!(site.state.limits.remembered(), 0);
}

// ------------------------------------------------------------ the AI pool

#[tokio::test]
async fn a_lab_step_waiting_for_the_pool_holds_no_lock_and_a_players_reply_does_not_wait() {
    let site = start_site(|_| {}).await;
    let owner = server::limits::Caller {
        session: app::protocol::Session::new("cd".repeat(32)),
        address: Some("192.0.2.9".parse().expect("ip")),
        browser: None,
        device: None,
    };
    let lab = site.state.lab.clone();
    let id = lab
        .create_for(&owner, 6, 6, app::i18n::Lang::En)
        .await
        .expect("lab game");
    // The heavy lane (lab, analysis) is busy with something endless.
    let (release, blocked) = std::sync::mpsc::channel::<()>();
    let _blocker = site
        .state
        .hub
        .ai_pool()
        .run_as("ip:203.0.113.50", move || blocked.recv())
        .expect("room");
    let stepping = {
        let (lab, owner, id) = (lab.clone(), owner.clone(), id.clone());
        tokio::spawn(async move { lab.next_turn_for(&owner, &id).await })
    };
    let quickly = Duration::from_secs(10);
    // The step's search waits in the pool behind the blocker.
    let depth = || {
        site.state
            .hub
            .metrics()
            .ai_queue_depth
            .load(std::sync::atomic::Ordering::Relaxed)
    };
    let deadline = Instant::now() + quickly;
    while depth() < 2 {
        assert!(Instant::now() < deadline, "the step never reached the pool");
        tokio::task::yield_now().await;
    }
    // A second step meanwhile is refused at once; the game's lock is free.
    let refused = tokio::time::timeout(quickly, lab.next_turn_for(&owner, &id))
        .await
        .expect("answered at once")
        .expect_err("one turn at a time");
    assert_eq!(
        refused.message,
        "Wait: the engine is already playing this game's next turn."
    );
    assert_eq!(refused.status_code().as_u16(), 422);
    let view = tokio::time::timeout(quickly, lab.view(&id))
        .await
        .expect("the view answers while the step waits")
        .expect("view");
    assert!(view.moves.is_empty());
    let list = tokio::time::timeout(quickly, lab.list(Some(owner.session.as_str())))
        .await
        .expect("the list answers while the step waits")
        .expect("list");
    assert!(list.iter().any(|g| g.id == id && g.mine));
    // A player's AI reply runs on its own lane meanwhile.
    let player = fresh(&site.url).await;
    let table = player
        .create_table(app::protocol::TableMode::VsAi {
            depth: 1,
            human: app::protocol::Side::Black,
        })
        .await
        .expect("table");
    player.play_move(&table, 37).await.expect("move");
    let (mut socket, mut view) = player.connect(&table).await.expect("socket");
    while view.history.len() < 2 {
        view = tokio::time::timeout(quickly, socket.wait_state(|_| true))
            .await
            .expect("the AI replied while the heavy lane was blocked")
            .expect("state");
    }
    release.send(()).expect("release");
    let stepped = tokio::time::timeout(Duration::from_secs(60), stepping)
        .await
        .expect("the step ends")
        .expect("task")
        .expect("stepped");
    assert_eq!(stepped.moves.len(), 1);
}
