//! The installable, offline side (server/src/offline.rs): the service worker
//! names this deploy's files and the app shells; a shell is an anonymous page
//! whatever cookies ask for it and sets none; every page says its language.

use app::protocol::SESSION_COOKIE;
use server::clock::ManualClock;

mod support;
use support::Live;

const PASSWORD: &str = "correct horse battery";

#[tokio::test]
async fn the_worker_and_manifest_are_served_and_a_shell_holds_nothing_personal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let http = reqwest::Client::new();

    let sw = http
        .get(format!("{}/sw.js", live.url))
        .send()
        .await
        .expect("sw.js");
    assert_eq!(sw.status(), 200);
    assert_eq!(sw.headers()["cache-control"], "no-cache");
    assert!(sw.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/javascript"));
    assert!(sw.headers().get("set-cookie").is_none());
    let source = sw.text().await.expect("text");
    for lang in app::i18n::Lang::ALL {
        assert!(source.contains(app::i18n::catalog_path(lang)));
        assert!(source.contains(&format!("/?shell={}", lang.code())));
        assert!(source.contains(&format!("/analysis?shell={}", lang.code())));
    }

    let manifest: serde_json::Value = http
        .get(format!("{}/manifest.webmanifest", live.url))
        .send()
        .await
        .expect("manifest")
        .json()
        .await
        .expect("JSON");
    assert_eq!(manifest["display"], "standalone");
    assert_eq!(manifest["start_url"], "/");

    // A signed-in browser: its lobby names the account and renews its cookie.
    let browser = live.browser().await;
    browser
        .sign_up("Shell_Tester", PASSWORD)
        .await
        .expect("sign up");
    let token = browser.token().expect("token");
    let cookie = format!("{SESSION_COOKIE}={token}; lang=en");
    let page = http
        .get(format!("{}/", live.url))
        .header("cookie", &cookie)
        .send()
        .await
        .expect("lobby");
    assert_eq!(page.headers()["content-language"], "en");
    assert!(page.headers().get("set-cookie").is_some());
    let body = page.text().await.expect("body");
    assert!(body.contains("Shell_Tester"));
    assert!(!body.contains("othello-shell"));

    // The same browser asking for the Greek shells gets anonymous pages that set no cookie.
    for path in ["/?shell=el", "/offline?shell=el", "/analysis?shell=el"] {
        let shell = http
            .get(format!("{}{path}", live.url))
            .header("cookie", &cookie)
            .send()
            .await
            .expect("shell");
        assert_eq!(shell.status(), 200, "{path}");
        assert!(shell.headers().get("set-cookie").is_none(), "{path}");
        assert_eq!(shell.headers()["content-language"], "el", "{path}");
        assert_eq!(shell.headers()["cache-control"], "no-store", "{path}");
        let body = shell.text().await.expect("body");
        assert!(body.contains(r#"<html lang="el""#), "{path}");
        assert!(
            body.contains(r#"<meta name="othello-shell" content="1""#),
            "{path}"
        );
        assert!(
            body.contains(r#"<meta name="othello-account" content="""#),
            "{path}"
        );
        assert!(!body.contains("Shell_Tester"), "{path}");
        assert!(body.contains(r#"rel="manifest""#), "{path}");
    }
    // Elsewhere `shell=` is only a query: the page is the visitor's own.
    let other = http
        .get(format!("{}/players?shell=el", live.url))
        .header("cookie", &cookie)
        .send()
        .await
        .expect("players");
    assert!(other.headers().get("set-cookie").is_some());
    assert!(!other.text().await.expect("body").contains("othello-shell"));
    // An unknown language is no shell.
    let unknown = http
        .get(format!("{}/?shell=fr", live.url))
        .header("cookie", &cookie)
        .send()
        .await
        .expect("lobby");
    assert_eq!(unknown.status(), 200);
    assert!(unknown.text().await.expect("body").contains("Shell_Tester"));
}
