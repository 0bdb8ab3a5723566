//! Serving connections (HTTP/1.1 with upgrades for WebSockets), with the
//! deadlines `axum::serve` does not set: a request's head must arrive within
//! `--header-read-timeout-secs` (a slow-loris client, or a keep-alive
//! connection left idle, is closed), and a request must be answered within
//! `--request-timeout-secs` (a body trickled byte by byte gets 408). A
//! WebSocket leaves the request path at its upgrade, so its lifetime is the
//! socket's own business (pings, silence, `ws.rs`).

use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use axum::response::IntoResponse;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::time::Duration;
use tokio::net::TcpListener;
use tower::ServiceExt;

/// The connection deadlines.
#[derive(Clone, Copy, Debug)]
pub struct Deadlines {
    /// Time to receive a request's whole head (also how long an idle
    /// keep-alive connection is kept).
    pub header_read: Duration,
    /// Time to answer one request (reading its body included).
    pub request: Duration,
}

impl Deadlines {
    /// The deadlines of a configuration.
    pub fn of(config: &crate::config::Config) -> Self {
        Self {
            header_read: Duration::from_secs(config.header_read_timeout_secs.max(1)),
            request: Duration::from_secs(config.request_timeout_secs.max(1)),
        }
    }
}

/// How long a shutdown waits for requests in progress.
const DRAIN: Duration = Duration::from_secs(5);

/// Serves `router` on `listener` until `shutdown` completes; each request
/// carries its peer address (`ConnectInfo<SocketAddr>`).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    deadlines: Deadlines,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
            // Reap finished connection tasks as they end.
            Some(_) = connections.join_next(), if !connections.is_empty() => continue,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                // Out of file descriptors and the like: wait a moment, go on.
                tracing::warn!("accept failed: {error}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let mut stop = stop_rx.clone();
        connections.spawn(async move {
            let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                let router = router.clone();
                async move {
                    let answer = tokio::time::timeout(
                        deadlines.request,
                        router.oneshot(request.map(axum::body::Body::new)),
                    )
                    .await;
                    Ok::<_, std::convert::Infallible>(match answer {
                        Ok(Ok(response)) => response,
                        Ok(Err(never)) => match never {},
                        Err(_) => timed_out(deadlines.request),
                    })
                }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(deadlines.header_read)
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => return,
                _ = stop.wait_for(|stopping| *stopping) => {}
            }
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        });
    }
    let _ = stop_tx.send(true);
    let _ = tokio::time::timeout(DRAIN, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    Ok(())
}

/// The answer to a request past its deadline: 408 with the security headers
/// every answer carries, and the connection closed.
fn timed_out(limit: Duration) -> axum::response::Response {
    let response = (
        StatusCode::REQUEST_TIMEOUT,
        [(axum::http::header::CONNECTION, "close")],
        format!(
            "the request took longer than {} s: send it again",
            limit.as_secs()
        ),
    )
        .into_response();
    crate::guard::with_headers(response, None)
}
