//! The front door: every request passes here before it reaches a page, a
//! command or a socket.
//!
//! (Over 600 lines: the front door's checks and their unit tests, one place to audit.)
//!
//! - `Host` must name the site (localhost names, the listen address, the
//!   `--public-url` and `--allowed-origins` hosts): DNS rebinding gets 403.
//! - Commands (`POST /api/*`) must be `application/json` (415 otherwise) and come
//!   from the site itself: an `Origin` matching the site or, without one,
//!   `Sec-Fetch-Site: same-origin` (403 otherwise). A page on another origin can
//!   therefore not make a visitor's browser act, even with a "simple" request.
//! - Bodies larger than `--max-body-bytes` get 413.
//! - A per-IP request rate (`--rate-per-ip`, `--rate-burst`) answers 429.
//! - Every response carries the security headers: a nonce-based CSP, `nosniff`,
//!   framing denied, `Referrer-Policy: same-origin`; HTML is never cached.

use crate::AppState;
use app::api::{CommandError, ErrorKind};
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::Response;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;

/// The per-request CSP nonce, put in the request's extensions for the page
/// renderer (Leptos puts it on every inline script it writes).
#[derive(Clone, Debug)]
pub struct CspNonce(pub String);

/// The client's address key as the guard saw it ([`address_key`] of the
/// peer address, or of the configured proxy header); the services count
/// what each address creates under it.
pub use app::api::backend::ClientIp;

/// What the guard checks against.
pub struct Guard {
    hosts: Vec<String>,
    origins: Vec<String>,
    max_body: usize,
    limiter: Option<DefaultKeyedRateLimiter<IpAddr>>,
    /// This deploy's hashed static files: a budget of their own per address,
    /// [`STATIC_FACTOR`] times the pages' (see [`Guard::rate_ok`]).
    static_limiter: Option<DefaultKeyedRateLimiter<IpAddr>>,
    client_ip_header: Option<HeaderName>,
}

/// How many times the pages' rate and burst the hashed static files get. A
/// table's page loads ~170 wasm chunks and the service worker precaches
/// ~260 files right after the first page: counted with the pages, two pages
/// in a row from one address spent the burst (300) and the next page's
/// chunks were refused (a table page stuck on the lobby's view). With their
/// own budget (by default 1,000 a second, a burst of 6,000) a visitor never
/// meets it and a flood of them still does.
pub const STATIC_FACTOR: u32 = 20;

/// Settings for [`Guard::new`].
pub struct GuardConfig {
    pub listen: SocketAddr,
    pub public_url: Option<String>,
    pub allowed_origins: Vec<String>,
    pub allowed_hosts: Vec<String>,
    pub max_body_bytes: usize,
    /// Requests per second per IP (0 = unlimited).
    pub rate_per_ip: u32,
    pub rate_burst: u32,
    pub client_ip_header: Option<String>,
}

pub use crate::config::origin_of;

/// The host name (no port) of a `Host` header value, lower-case.
pub fn host_name(host: &str) -> Option<String> {
    let parsed = url::Url::parse(&format!("http://{}", host.trim())).ok()?;
    if parsed.path() != "/" || parsed.username() != "" || parsed.query().is_some() {
        return None;
    }
    parsed.host_str().map(|h| h.to_ascii_lowercase())
}

fn is_local_name(host: &str) -> bool {
    host == "localhost" || host.ends_with(".localhost") || host == "127.0.0.1" || host == "[::1]"
}

impl Guard {
    pub fn new(config: GuardConfig) -> Self {
        let mut origins: Vec<String> = config
            .allowed_origins
            .iter()
            .filter_map(|o| origin_of(o))
            .collect();
        if let Some(url) = &config.public_url {
            origins.extend(origin_of(url));
        }
        let mut hosts: Vec<String> = origins
            .iter()
            .filter_map(|o| url::Url::parse(o).ok())
            .filter_map(|u| u.host_str().map(|h| h.to_ascii_lowercase()))
            .collect();
        hosts.extend(config.allowed_hosts.iter().filter_map(|h| host_name(h)));
        let ip = config.listen.ip();
        if !ip.is_unspecified() {
            hosts.extend(host_name(&SocketAddr::new(ip, 80).to_string()));
        }
        let limiter_of = |factor: u32| {
            NonZeroU32::new(config.rate_per_ip.saturating_mul(factor)).map(|rate| {
                let burst = config
                    .rate_burst
                    .max(config.rate_per_ip)
                    .saturating_mul(factor);
                RateLimiter::keyed(
                    Quota::per_second(rate).allow_burst(NonZeroU32::new(burst).unwrap_or(rate)),
                )
            })
        };
        let limiter = limiter_of(1);
        let static_limiter = limiter_of(STATIC_FACTOR);
        let client_ip_header = config
            .client_ip_header
            .as_deref()
            .filter(|h| !h.is_empty())
            .and_then(|h| HeaderName::from_bytes(h.to_ascii_lowercase().as_bytes()).ok());
        Self {
            hosts,
            origins,
            max_body: config.max_body_bytes,
            limiter,
            static_limiter,
            client_ip_header,
        }
    }

    /// Whether a `Host` header value names this site.
    pub fn host_allowed(&self, host: &str) -> bool {
        match host_name(host) {
            Some(name) => is_local_name(&name) || self.hosts.contains(&name),
            None => false,
        }
    }

    /// Whether an `Origin` header value is the site's: the request's own host
    /// (already checked by [`Guard::host_allowed`]) or a configured origin.
    pub fn origin_allowed(&self, origin: &str, host: &str) -> bool {
        let Some(origin) = origin_of(origin) else {
            return false;
        };
        if self.origins.contains(&origin) {
            return true;
        }
        let host = host.trim().to_ascii_lowercase();
        [format!("http://{host}"), format!("https://{host}")]
            .iter()
            .filter_map(|o| origin_of(o))
            .any(|own| own == origin)
    }

    /// The client's address key ([`address_key`]). Behind a proxy
    /// (`--client-ip-header`) it comes from that header only: its last
    /// address (the one the nearest proxy wrote; earlier ones of an
    /// `X-Forwarded-For` list are the client's own claims). A request
    /// without a readable header shares one key with every other such
    /// request (`0.0.0.0`), never the proxy's peer address. Without a proxy
    /// header, the peer's address.
    fn client_ip(&self, request: &Request) -> Option<IpAddr> {
        if let Some(name) = &self.client_ip_header {
            let named = request
                .headers()
                .get_all(name)
                .iter()
                .next_back()
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.rsplit(',').next())
                .and_then(|v| v.trim().parse::<IpAddr>().ok());
            return Some(address_key(
                named.unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED)),
            ));
        }
        request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| address_key(c.0.ip()))
    }

    /// Whether `ip` may make another request now: `hashed` for one of this
    /// deploy's hashed static files (their own budget), else a page's.
    pub fn rate_ok(&self, ip: IpAddr, hashed: bool) -> bool {
        let limiter = if hashed {
            &self.static_limiter
        } else {
            &self.limiter
        };
        match limiter {
            Some(limiter) => limiter.check_key(&ip).is_ok(),
            None => true,
        }
    }

    /// Forgets idle keys of the rate limiter (called by the sweeper).
    pub fn forget_idle(&self) {
        for limiter in [&self.limiter, &self.static_limiter].into_iter().flatten() {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

/// The key one client's limits are counted under: an IPv4 address as it
/// is, an IPv6 address by its /64 (one subscriber's network: a visitor
/// holds a whole /64 and could rotate through it), an IPv4-mapped IPv6
/// address as the IPv4 address.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(std::net::Ipv6Addr::from(
                u128::from(v6) & !((1u128 << 64) - 1),
            )),
        },
    }
}

/// A refusal: JSON `{"message": …}` for commands (what the pages' server
/// functions read), plain text elsewhere.
fn refuse(error: CommandError, json: bool) -> Response {
    crate::error::respond(&error, json)
}

/// Why a command is refused, or `None` when it may go on.
pub fn command_refusal(guard: &Guard, headers: &HeaderMap) -> Option<CommandError> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    if essence != "application/json" {
        return Some(CommandError::of(
            ErrorKind::WrongContentType,
            app::msg!("srv-json-only"),
        ));
    }
    origin_refusal(guard, headers)
}

/// Why a state-changing request from another site is refused, if it is: its
/// `Origin` is not the site's (nor configured), or it has none and no
/// `Sec-Fetch-Site: same-origin`. Commands and the account forms.
pub fn origin_refusal(guard: &Guard, headers: &HeaderMap) -> Option<CommandError> {
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    match headers.get(header::ORIGIN).map(|v| v.to_str()) {
        Some(Ok(origin)) if guard.origin_allowed(origin, host) => None,
        Some(_) => Some(CommandError::forbidden(app::msg!("srv-origin-refused"))),
        None => {
            let site = headers
                .get("sec-fetch-site")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default();
            if site.eq_ignore_ascii_case("same-origin") {
                None
            } else {
                Some(CommandError::forbidden(app::msg!("srv-origin-missing")))
            }
        }
    }
}

/// A fresh CSP nonce (128 random bits, hex).
fn new_nonce() -> String {
    let bytes: [u8; 16] = rand::random();
    crate::hex::hex(&bytes)
}

/// The Content-Security-Policy for a page with this nonce: own scripts and the
/// nonce'd inline ones (import map, hydration bootstrap, streamed resources),
/// the wasm, own styles (inline `style` attributes allowed), own sockets.
pub fn content_security_policy(nonce: &str) -> String {
    format!(
        "default-src 'self'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; \
         connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; \
         form-action 'self'; frame-ancestors 'none'"
    )
}

/// Middleware: the checks and headers above.
pub async fn layer(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let guard = state.guard.clone();
    let path = request.uri().path().to_string();
    let probe = matches!(path.as_str(), "/healthz" | "/readyz");
    // `/readyz` reads the database (at most once a second, shared): it
    // counts against the request rate like any page. `/healthz` does no
    // work and is never limited. This deploy's hashed static files have a
    // budget of their own ([`STATIC_FACTOR`]); any other path counts as a
    // page, so probing unknown names is limited like pages are.
    let unlimited = path == "/healthz";
    let hashed = state.assets.is_hashed(&path);
    let json = path.starts_with("/api/");
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .or_else(|| request.uri().authority().map(|a| a.to_string()))
        .unwrap_or_default();
    if !probe && !guard.host_allowed(&host) {
        return with_headers(
            refuse(CommandError::forbidden(app::msg!("srv-unknown-host")), json),
            None,
        );
    }
    let ip = guard.client_ip(&request);
    if let Some(ip) = ip {
        request.extensions_mut().insert(ClientIp(ip));
        if !unlimited && !guard.rate_ok(ip, hashed) {
            state.hub.metrics().note_refusal("rate");
            return with_headers(
                refuse(CommandError::limited(app::msg!("srv-flood")), json),
                None,
            );
        }
    }
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > guard.max_body as u64) {
        return with_headers(too_large(guard.max_body, json), None);
    }
    if request.method() != Method::GET && request.method() != Method::HEAD {
        // The Bot API authenticates by bearer token, never a cookie: a
        // page on another site cannot make a browser send one.
        if path.starts_with("/api/") && !crate::bots::api::is_bot_path(&path) {
            if let Some(error) = command_refusal(&guard, request.headers()) {
                return with_headers(refuse(error, json), None);
            }
        }
        // The account forms that work without JavaScript: plain form
        // bodies, but from the site's own pages only.
        if path.starts_with("/account/") {
            if let Some(error) = origin_refusal(&guard, request.headers()) {
                return with_headers(refuse(error, json), None);
            }
        }
        // Buffer the (small) body under the limit, so a chunked upload cannot
        // go past it either.
        let (parts, body) = request.into_parts();
        let bytes = match axum::body::to_bytes(body, guard.max_body).await {
            Ok(bytes) => bytes,
            Err(_) => return with_headers(too_large(guard.max_body, json), None),
        };
        request = Request::from_parts(parts, Body::from(bytes));
    }
    let nonce = new_nonce();
    request.extensions_mut().insert(CspNonce(nonce.clone()));
    let response = next.run(request).await;
    with_headers(response, Some(&nonce))
}

fn too_large(limit: usize, json: bool) -> Response {
    refuse(
        CommandError::of(
            ErrorKind::TooLarge,
            app::msg!("srv-too-large", limit = limit),
        ),
        json,
    )
}

/// The policy of a script when it runs as a Web Worker.
const WORKER_POLICY: &str = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; \
     connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/// Adds the security headers; HTML is never cached.
pub fn with_headers(mut response: Response, nonce: Option<&str>) -> Response {
    let headers = response.headers_mut();
    let is_html = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    let is_script = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.starts_with("text/javascript") || v.starts_with("application/javascript")
        });
    let csp = match nonce {
        Some(nonce) if is_html => content_security_policy(nonce),
        // A script file's own policy only matters when it runs as a Web
        // Worker (the engine's worker): it may import our scripts and fetch
        // and compile our wasm, nothing else. Pages ignore it.
        _ if is_script => WORKER_POLICY.to_string(),
        // Nothing else is a document that runs scripts.
        _ => "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
            .to_string(),
    };
    if let Ok(value) = HeaderValue::from_str(&csp) {
        headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    if is_html || !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    if is_html {
        // A page is rendered in the language of the `lang` cookie, else of
        // `Accept-Language`: a cache in between must keep them apart.
        headers.append(
            header::VARY,
            HeaderValue::from_static("Cookie, Accept-Language"),
        );
    }
    response
}

/// Shared handle.
pub type SharedGuard = Arc<Guard>;

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    fn config() -> GuardConfig {
        GuardConfig {
            listen: "0.0.0.0:40085".parse().expect("addr"),
            public_url: Some("https://othello.example/play/".into()),
            allowed_origins: vec!["http://friend.example:8080".into()],
            allowed_hosts: vec![],
            max_body_bytes: 1024,
            rate_per_ip: 2,
            rate_burst: 3,
            client_ip_header: None,
        }
    }

    fn guard() -> Guard {
        Guard::new(config())
    }

    #[test]
    fn a_script_may_run_as_a_worker_that_loads_our_wasm_and_nothing_else_may_run() {
        let response = |content_type: &str| {
            let mut response = Response::new(Body::empty());
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_str(content_type).expect("header"),
            );
            let response = with_headers(response, Some("n0nce"));
            response
                .headers()
                .get(header::CONTENT_SECURITY_POLICY)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
                .expect("a policy")
        };
        let worker = response("text/javascript");
        assert!(
            worker.contains("script-src 'self' 'wasm-unsafe-eval'"),
            "{worker}"
        );
        assert!(worker.contains("connect-src 'self'"), "{worker}");
        let wasm = response("application/wasm");
        assert!(wasm.starts_with("default-src 'none'"), "{wasm}");
        assert!(!wasm.contains("script-src"), "{wasm}");
        let page = response("text/html; charset=utf-8");
        assert!(page.contains("'nonce-n0nce'"), "{page}");
    }

    #[test]
    fn hosts_are_the_sites_names_only() {
        let g = guard();
        for ok in [
            "localhost:40085",
            "127.0.0.1:1",
            "[::1]:3000",
            "othello.example",
            "OTHELLO.example:443",
            "friend.example",
        ] {
            assert!(g.host_allowed(ok), "{ok} should be allowed");
        }
        for bad in [
            "evil.example",
            "othello.example.evil.example",
            "",
            "a b",
            "x/y",
            "10.0.0.1",
        ] {
            assert!(!g.host_allowed(bad), "{bad:?} should be refused");
        }
    }

    #[test]
    fn origins_are_the_sites_or_configured() {
        let g = guard();
        assert!(g.origin_allowed("http://127.0.0.1:40085", "127.0.0.1:40085"));
        assert!(g.origin_allowed("https://othello.example", "127.0.0.1:40085"));
        assert!(g.origin_allowed("http://friend.example:8080", "x"));
        assert!(!g.origin_allowed("http://friend.example", "x"));
        assert!(!g.origin_allowed("http://evil.example", "127.0.0.1:40085"));
        assert!(!g.origin_allowed("null", "127.0.0.1:40085"));
        assert!(!g.origin_allowed("http://127.0.0.1:40086", "127.0.0.1:40085"));
    }

    #[test]
    fn commands_need_json_and_the_sites_origin() {
        let g = guard();
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_static("127.0.0.1:40085"));
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain"));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://127.0.0.1:40085"),
        );
        assert_eq!(
            command_refusal(&g, &h).map(|r| r.status_code()),
            Some(StatusCode::UNSUPPORTED_MEDIA_TYPE)
        );
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json; charset=utf-8"),
        );
        assert_eq!(command_refusal(&g, &h), None);
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://evil.example"),
        );
        assert_eq!(
            command_refusal(&g, &h).map(|r| r.status_code()),
            Some(StatusCode::FORBIDDEN)
        );
        h.remove(header::ORIGIN);
        assert_eq!(
            command_refusal(&g, &h).map(|r| r.status_code()),
            Some(StatusCode::FORBIDDEN)
        );
        h.insert("sec-fetch-site", HeaderValue::from_static("cross-site"));
        assert_eq!(
            command_refusal(&g, &h).map(|r| r.status_code()),
            Some(StatusCode::FORBIDDEN)
        );
        h.insert("sec-fetch-site", HeaderValue::from_static("same-origin"));
        assert_eq!(command_refusal(&g, &h), None);
    }

    #[test]
    fn addresses_are_keyed_by_ipv4_or_the_ipv6_64() {
        let key = |s: &str| address_key(s.parse().expect("ip")).to_string();
        assert_eq!(key("203.0.113.9"), "203.0.113.9");
        assert_eq!(key("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::");
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff::9"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("::ffff:192.0.2.7"), "192.0.2.7");
    }

    fn request_with(header: Option<&str>, peer: &str) -> Request {
        let mut request = Request::new(Body::empty());
        if let Some(value) = header {
            request.headers_mut().insert(
                "x-forwarded-for",
                HeaderValue::from_str(value).expect("header"),
            );
        }
        let peer: SocketAddr = peer.parse().expect("peer");
        request.extensions_mut().insert(ConnectInfo(peer));
        request
    }

    #[test]
    fn behind_a_proxy_the_address_comes_from_its_header_only() {
        let g = Guard::new(GuardConfig {
            client_ip_header: Some("X-Forwarded-For".into()),
            ..config()
        });
        let ip = |header: Option<&str>| {
            g.client_ip(&request_with(header, "10.0.0.1:5000"))
                .map(|ip| ip.to_string())
        };
        // The proxy appends the client it saw: the last entry counts, not a
        // forged first one.
        assert_eq!(
            ip(Some("198.51.100.1, 203.0.113.5")).as_deref(),
            Some("203.0.113.5")
        );
        assert_eq!(ip(Some("2001:db8::7")).as_deref(), Some("2001:db8::"));
        // Without the header: one shared key, never the proxy's address.
        assert_eq!(ip(None).as_deref(), Some("0.0.0.0"));
        assert_eq!(ip(Some("garbage")).as_deref(), Some("0.0.0.0"));
        // No proxy configured: the peer.
        let direct = guard();
        assert_eq!(
            direct
                .client_ip(&request_with(Some("198.51.100.1"), "192.0.2.4:1"))
                .map(|ip| ip.to_string())
                .as_deref(),
            Some("192.0.2.4")
        );
    }

    #[test]
    fn the_rate_limit_refuses_past_the_burst() {
        let g = guard();
        let ip: IpAddr = "203.0.113.9".parse().expect("ip");
        let other: IpAddr = "203.0.113.10".parse().expect("ip");
        let allowed = (0..10).filter(|_| g.rate_ok(ip, false)).count();
        assert_eq!(allowed, 3);
        assert!(g.rate_ok(other, false));
        // The hashed static files: a budget of their own, larger, but a budget.
        let files = (0..1000).filter(|_| g.rate_ok(ip, true)).count();
        assert_eq!(files, 3 * STATIC_FACTOR as usize);
        assert!(!g.rate_ok(ip, false));
    }
}
