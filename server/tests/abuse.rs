//! Abuse-proofing (issue 30): the small doors (the language switch's `back`,
//! sockets without an Origin or flooding messages, `/readyz`, slow and idle
//! connections, `/metrics`), and one flood per creating command from one
//! address with a fresh cookie each time.
//!
//! The server runs in process (`server::serve::serve`, which gives every
//! request its peer address, so the per-address limits apply: every
//! connection here comes from 127.0.0.1) on a manual clock where time
//! matters. No test sleeps to let time pass; waits are for an answer or a
//! closed connection, bounded by a generous timeout.

use server::clock::ManualClock;
use server::config::Config;
use std::sync::Arc;
use std::time::{Duration, Instant};
use testclient::Client;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The site in process.
struct Site {
    url: String,
    state: server::AppState,
    clock: ManualClock,
    task: tokio::task::JoinHandle<()>,
    _dir: tempfile::TempDir,
}

impl Drop for Site {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Starts the site with the test configuration, changed by `tweak`.
async fn site(tweak: impl FnOnce(&mut Config)) -> Site {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut config = Config::for_tests(dir.path().join("othello.db"));
    config.rate_per_ip = 0;
    tweak(&mut config);
    let clock = ManualClock::new(1_700_000_000_000);
    let state = server::prepare_with_clock(&config, Arc::new(clock.clone()))
        .await
        .expect("server state");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    let router = server::routes::router(state.clone());
    let deadlines = server::serve::Deadlines::of(&config);
    let task = tokio::spawn(async move {
        let _ = server::serve::serve(listener, router, deadlines, std::future::pending()).await;
    });
    Site {
        url,
        state,
        clock,
        task,
        _dir: dir,
    }
}

/// A visitor with a fresh cookie (as a flood rotates them).
async fn fresh(url: &str) -> Client {
    let client = Client::new(url);
    let (status, _) = client.get("/healthz").await.expect("healthz");
    assert_eq!(status, 200);
    client
}

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

#[tokio::test]
async fn the_language_switch_never_sends_a_visitor_to_another_site() {
    let site = site(|_| {}).await;
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
    let site = site(|_| {}).await;
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
    let site = site(|_| {}).await;
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
            app::protocol::ServerMessage::Error { message } => {
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
    let site = site(|config| {
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
    let site = site(|config| {
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
    let site = site(|_| {}).await;
    let (status, _) = fresh(&site.url)
        .await
        .get("/metrics")
        .await
        .expect("answer");
    assert_eq!(status, 404);
    let _ = &site.clock;
}
