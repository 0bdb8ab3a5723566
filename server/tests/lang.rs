//! Languages over HTTP: pages rendered in the request's language (cookie,
//! then Accept-Language), the `/lang/<code>` switch (cookie, safe redirect,
//! 400 for an unknown language), and a lab game that keeps its language
//! across a restart.

mod common;

use app::lab::{ExplanationView, LabMoveView, LabView};
use app::protocol::{LabId, TableMode};
use common::{InProcess, Server};
use reqwest::header::{ACCEPT_LANGUAGE, COOKIE, LOCATION, SET_COOKIE};
use serde_json::Value;
use testclient::Client;

fn plain_client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

/// The `lang` cookie a response sets, if any (the session cookie may come too).
fn lang_cookie(response: &reqwest::Response) -> Option<String> {
    response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("lang="))
        .map(str::to_string)
}

async fn page(url: &str, headers: &[(reqwest::header::HeaderName, &str)]) -> String {
    let mut request = plain_client().get(url);
    for (name, value) in headers {
        request = request.header(name, *value);
    }
    let response = request.send().await.expect("page");
    assert_eq!(response.status(), 200);
    response.text().await.expect("body")
}

#[tokio::test]
async fn pages_are_rendered_in_the_requests_language() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = InProcess::start(&dir.path().join("db.sqlite"), &[]).await;
    let url = format!("{}/", server.url);

    // A page varies with the cookie and Accept-Language (for caches between).
    let response = plain_client().get(&url).send().await.expect("page");
    let vary: Vec<String> = response
        .headers()
        .get_all(reqwest::header::VARY)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(',').map(|p| p.trim().to_ascii_lowercase()))
        .collect();
    assert!(vary.contains(&"cookie".to_string()), "{vary:?}");
    assert!(vary.contains(&"accept-language".to_string()), "{vary:?}");

    let greek = page(&url, &[(ACCEPT_LANGUAGE, "el-GR,el;q=0.9,en;q=0.8")]).await;
    assert!(greek.contains(r#"<html lang="el""#));
    assert!(greek.contains("Παίξε με τον υπολογιστή"));
    assert!(!greek.contains("Play the AI"));

    for headers in [
        vec![(ACCEPT_LANGUAGE, "en-US,en;q=0.9")],
        vec![(ACCEPT_LANGUAGE, "fr-FR,de")],
        vec![],
        // The cookie wins over Accept-Language.
        vec![(ACCEPT_LANGUAGE, "el"), (COOKIE, "lang=en")],
    ] {
        let english = page(&url, &headers).await;
        assert!(english.contains(r#"<html lang="en""#), "{headers:?}");
        assert!(english.contains("Play the AI"), "{headers:?}");
    }
    let chosen = page(&url, &[(ACCEPT_LANGUAGE, "en"), (COOKIE, "lang=el")]).await;
    assert!(chosen.contains(r#"<html lang="el""#));

    // Unknown pages too.
    let client = plain_client();
    let missing = client
        .get(format!("{}/no/such/page", server.url))
        .header(ACCEPT_LANGUAGE, "el")
        .send()
        .await
        .expect("404 page");
    assert_eq!(missing.status(), 404);
    assert!(missing.text().await.expect("body").contains("Δεν βρέθηκε"));
}

#[tokio::test]
async fn the_switch_sets_the_cookie_and_returns_only_to_this_site() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = InProcess::start(&dir.path().join("db.sqlite"), &[]).await;
    let client = plain_client();
    let get = |path: String| {
        let client = client.clone();
        let url = format!("{}{path}", server.url);
        async move { client.get(url).send().await.expect("switch") }
    };

    let response = get("/lang/el?back=/table/abc%3Fx%3D1".into()).await;
    assert_eq!(response.status(), 303);
    assert_eq!(response.headers()[LOCATION], "/table/abc?x=1");
    let cookie = lang_cookie(&response).expect("the lang cookie");
    assert!(cookie.starts_with("lang=el;"), "{cookie}");
    assert!(
        cookie.contains("Path=/") && cookie.contains("Max-Age=31536000"),
        "{cookie}"
    );

    for back in [
        "//evil.example/",
        "https://evil.example/",
        "%2F%2Fevil.example",
        "/%5Cevil",
        "",
    ] {
        let response = get(format!("/lang/en?back={back}")).await;
        assert_eq!(response.status(), 303, "{back}");
        assert_eq!(response.headers()[LOCATION], "/", "{back}");
        assert!(lang_cookie(&response).is_some_and(|c| c.starts_with("lang=en;")));
    }
    let no_back = get("/lang/el".into()).await;
    assert_eq!(no_back.headers()[LOCATION], "/");

    for code in ["fr", "EL", "xx", "e"] {
        let response = get(format!("/lang/{code}?back=/")).await;
        assert_eq!(response.status(), 400, "{code}");
        assert_eq!(lang_cookie(&response), None, "{code}");
        let text = response.text().await.expect("body");
        assert!(text.contains("el (Greek) and en (English)"), "{text}");
    }
}

#[tokio::test]
async fn the_table_export_has_headings_in_the_pages_language() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = InProcess::start(&dir.path().join("db.sqlite"), &[]).await;
    let client = common::client();
    let id = Client::with_http(client.clone(), &server.url)
        .create_table(TableMode::HotSeat)
        .await
        .expect("create_table");
    let id = id.as_str();
    let export = |lang: &'static str| {
        let client = client.clone();
        let url = format!("{}/table/{id}/export.txt", server.url);
        async move {
            let response = client
                .get(url)
                .header(ACCEPT_LANGUAGE, lang)
                .send()
                .await
                .expect("export");
            assert_eq!(response.status(), 200);
            response.text().await.expect("text")
        }
    };
    let greek = export("el").await;
    assert!(
        greek.starts_with(&format!("Οθέλλο 3D — τραπέζι {id}, 1 γύρος")),
        "{greek}"
    );
    assert!(
        greek.contains("=== Γύρος 1 ===") && greek.contains("Αρχική θέση:"),
        "{greek}"
    );
    assert!(greek.contains("Σε εξέλιξη: παίζουν τα μαύρα"), "{greek}");
    let english = export("en-US").await;
    assert!(
        english.starts_with(&format!("Othello 3D — table {id}, 1 round")),
        "{english}"
    );
    assert!(english.contains("In progress: Black to move"), "{english}");
}

/// The lab game's latest move, once explained.
async fn explained(client: &Client, lab: &LabId, view: LabView) -> LabMoveView {
    let mut view = view;
    for _ in 0..20 {
        if let Some(m) = view.last_move().filter(|m| !m.explanation.is_pending()) {
            return m.clone();
        }
        view = client.lab_wait(lab, view.version).await.expect("lab_wait");
    }
    panic!("the explanation stayed pending: {view:?}");
}

/// The text and the lesson of a written explanation.
fn written(m: &LabMoveView) -> (&str, &str) {
    match &m.explanation {
        ExplanationView::Ready {
            explanation,
            lesson,
            ..
        } => (explanation, lesson),
        other => panic!("not written: {other:?}"),
    }
}

#[tokio::test]
async fn a_lab_game_keeps_its_language_across_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("db.sqlite");
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(ACCEPT_LANGUAGE, "el".parse().expect("header"));
    let greek = reqwest::Client::builder()
        .cookie_store(true)
        .default_headers(headers)
        .build()
        .expect("client");

    let server = Server::start(&db, &[]);
    let owner = Client::with_http(greek.clone(), &server.url);
    let lab = owner.lab_create(1, 1).await.expect("lab_create");
    let view = owner.lab_next_turn(&lab).await.expect("lab_next_turn");
    let first = explained(&owner, &lab, view).await;
    let (text, _) = written(&first);
    assert!(text.starts_with("Τα μαύρα έπαιξαν"), "{text}");
    server.kill();

    // After a restart, the owner's next move is explained in Greek too,
    // even when asked from an English page.
    let server = Server::start(&db, &[]);
    let owner = owner.at(&server.url);
    let view = owner.lab_next_turn(&lab).await.expect("lab_next_turn");
    let second = explained(&owner, &lab, view).await;
    let (text, lesson) = written(&second);
    assert!(text.starts_with("Τα λευκά έπαιξαν"), "{text}");
    assert!(!lesson.is_ascii(), "{lesson}");

    // An English visitor's game stays English.
    let english = Client::with_http(common::client(), &server.url);
    let other = english.lab_create(1, 1).await.expect("lab_create");
    let view = english.lab_next_turn(&other).await.expect("lab_next_turn");
    let first = explained(&english, &other, view).await;
    let (text, _) = written(&first);
    assert!(text.starts_with("Black played"), "{text}");
}

/// The page names its language's message catalog; the catalog is served
/// under that hashed name (immutable caching, JSON with the page's language's
/// strings), and any other name under `/i18n/` is 404.
#[tokio::test]
async fn each_page_names_its_languages_catalog_which_is_served_immutable() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = InProcess::start(&dir.path().join("db.sqlite"), &[]).await;
    let catalog_of = |html: &str| -> String {
        let at = html
            .find(r#"name="othello-i18n" content=""#)
            .expect("the page names its catalog");
        let rest = &html[at + r#"name="othello-i18n" content=""#.len()..];
        rest[..rest.find('"').expect("closing quote")].to_string()
    };
    let greek = catalog_of(&page(&format!("{}/", server.url), &[(COOKIE, "lang=el")]).await);
    let english = catalog_of(&page(&format!("{}/", server.url), &[(COOKIE, "lang=en")]).await);
    assert!(
        greek.starts_with("/i18n/el.") && greek.ends_with(".json"),
        "{greek}"
    );
    assert!(english.starts_with("/i18n/en."), "{english}");
    assert_ne!(greek, english);

    for (path, expected, absent) in [
        (&greek, "Παίξε με τον υπολογιστή", "Play the AI"),
        (&english, "Play the AI", "Παίξε με τον υπολογιστή"),
    ] {
        let response = plain_client()
            .get(format!("{}{path}", server.url))
            .send()
            .await
            .expect("catalog");
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(
            response.headers()["cache-control"],
            "public, max-age=31536000, immutable"
        );
        assert!(response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json"));
        let body: Value = response.json().await.expect("JSON");
        let text = body.to_string();
        assert!(text.contains(expected), "{path}");
        assert!(!text.contains(absent), "{path}");
    }

    for bad in [
        "/i18n/el.0000000000000000.json",
        "/i18n/el.json",
        "/i18n/xx.0123456789abcdef.json",
        "/i18n/..%2Fmanifest.json",
    ] {
        let response = plain_client()
            .get(format!("{}{bad}", server.url))
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 404, "{bad}");
    }
}

/// What a chat app or a search engine shows for a link: each page's head
/// carries a description and Open Graph tags, in the request's language,
/// named for the page (a private table's link unfurls as "A game of Othello").
#[tokio::test]
async fn a_pages_link_preview_is_in_its_language_and_names_the_page() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = InProcess::start(&dir.path().join("db.sqlite"), &[]).await;
    let player = Client::new(&server.url);
    let table = player
        .create_table(TableMode::Online {
            private: true,
            time: None,
            rated: false,
            tournament: false,
        })
        .await
        .expect("private table");
    // The text after `start`, up to `end`.
    let after = |page: &str, start: &str, end: char| {
        let at = page.find(start).map(|i| i + start.len())?;
        Some(page[at..at + page[at..].find(end)?].to_string())
    };
    let og = |page: &str, property: &str| {
        after(
            page,
            &format!(r#"<meta property="{property}" content=""#),
            '"',
        )
    };
    let description = |page: &str| after(page, r#"<meta name="description" content=""#, '"');
    let lobby = page(&server.url, &[(ACCEPT_LANGUAGE, "en")]).await;
    assert_eq!(og(&lobby, "og:title").as_deref(), Some("Othello 3D"));
    assert_eq!(og(&lobby, "og:site_name").as_deref(), Some("Othello 3D"));
    assert!(description(&lobby).is_some_and(|d| d.starts_with("Play Othello on a 3D board")));
    assert_eq!(og(&lobby, "og:description"), description(&lobby));
    let invite = page(
        &format!("{}/table/{table}", server.url),
        &[(ACCEPT_LANGUAGE, "en")],
    )
    .await;
    assert_eq!(
        og(&invite, "og:title").as_deref(),
        Some("A game of Othello · Othello 3D")
    );
    assert!(og(&invite, "og:description").is_some_and(|d| d.contains("free seat")));
    let greek = page(
        &format!("{}/table/{table}", server.url),
        &[(ACCEPT_LANGUAGE, "el")],
    )
    .await;
    assert_eq!(
        og(&greek, "og:title").as_deref(),
        Some("Μια παρτίδα Οθέλλο · Οθέλλο 3D")
    );
    let puzzles = page(
        &format!("{}/puzzles", server.url),
        &[(ACCEPT_LANGUAGE, "en")],
    )
    .await;
    assert_eq!(
        og(&puzzles, "og:title").as_deref(),
        Some("Puzzles · Othello 3D")
    );
    // The tab's title is the same, once per page.
    let title = |page: &str| {
        assert_eq!(page.matches("<title>").count(), 1, "one title");
        let title = after(page, "<title>", '<')?;
        // The whole element is the text: no marker a tab would show.
        assert!(page.contains(&format!("<title>{title}</title>")), "{title}");
        Some(title)
    };
    assert_eq!(title(&lobby).as_deref(), Some("Othello 3D"));
    assert_eq!(title(&puzzles).as_deref(), Some("Puzzles · Othello 3D"));
    assert_eq!(
        title(&greek).as_deref(),
        Some("Μια παρτίδα Οθέλλο · Οθέλλο 3D")
    );
    // A link preview is a visit like any other: it takes no seat.
    let view = player.get_table(&table).await.expect("view");
    assert_eq!(view.you.len(), 1, "only the creator sits: {view:?}");
}
