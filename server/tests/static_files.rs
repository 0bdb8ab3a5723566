//! Static files under content-hashed names: the page names the hashed files
//! from `site/manifest.json`, they are served immutable, HTML is never cached,
//! and a file's old (unhashed) name is gone.

mod common;

use common::InProcess;
use std::fs;

/// A small site as `cargo xtask site` lays it out, hashed names and manifests.
fn site(dir: &std::path::Path) {
    for folder in ["pkg", "style", "vendor/three"] {
        fs::create_dir_all(dir.join(folder)).unwrap();
    }
    let files = [
        (
            "pkg/frontend.0123456789abcdef.js",
            "export default function(){}",
        ),
        ("pkg/frontend.fedcba9876543210.wasm", "\0asm"),
        (
            "pkg/engine-worker.00112233445566ff.js",
            "self.onmessage=()=>{}",
        ),
        ("style/main.aaaaaaaaaaaaaaaa.css", "body{}"),
        ("style/board.bbbbbbbbbbbbbbbb.css", ".board{}"),
        ("style/lab.cccccccccccccccc.css", ".lab{}"),
        ("vendor/three/three.dddddddddddddddd.js", "export{}"),
        ("vendor/three/LICENSE", "MIT"),
    ];
    for (path, content) in files {
        fs::write(dir.join(path), content).unwrap();
    }
    fs::write(
        dir.join("manifest.json"),
        r#"{
  "/pkg/engine-worker.js": "/pkg/engine-worker.00112233445566ff.js",
  "/pkg/frontend.js": "/pkg/frontend.0123456789abcdef.js",
  "/pkg/frontend.wasm": "/pkg/frontend.fedcba9876543210.wasm",
  "/style/board.css": "/style/board.bbbbbbbbbbbbbbbb.css",
  "/style/lab.css": "/style/lab.cccccccccccccccc.css",
  "/style/main.css": "/style/main.aaaaaaaaaaaaaaaa.css",
  "/vendor/three/three.bundle.js": "/vendor/three/three.dddddddddddddddd.js"
}
"#,
    )
    .unwrap();
    fs::write(
        dir.join("hash.txt"),
        "js: 0123456789abcdef\nwasm: fedcba9876543210\n",
    )
    .unwrap();
}

/// A server on [`site`] in a new folder (kept while the folder lives), with
/// `args` added to its command line.
async fn serve_site(args: &[&str]) -> (tempfile::TempDir, InProcess) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    site(&root);
    let root_arg = root.display().to_string();
    let mut all = vec!["--site-root", root_arg.as_str()];
    all.extend_from_slice(args);
    let server = InProcess::start(&dir.path().join("db.sqlite"), &all).await;
    (dir, server)
}

async fn get(url: &str) -> (u16, Option<String>, String) {
    let response = reqwest::get(url).await.expect("request");
    let status = response.status().as_u16();
    let cache = response
        .headers()
        .get("cache-control")
        .map(|v| v.to_str().unwrap().to_string());
    (status, cache, response.text().await.unwrap_or_default())
}

#[tokio::test]
async fn hashed_files_are_immutable_pages_name_them_and_old_names_are_gone() {
    let (_dir, server) = serve_site(&[]).await;

    // The page: never cached, and it names only the hashed files.
    let (status, cache, html) = get(&format!("{}/", server.url)).await;
    assert_eq!(status, 200);
    assert_eq!(cache.as_deref(), Some("no-store"));
    for hashed in [
        "/pkg/frontend.0123456789abcdef.js",
        "/pkg/frontend.fedcba9876543210.wasm",
        "/style/main.aaaaaaaaaaaaaaaa.css",
        "/style/board.bbbbbbbbbbbbbbbb.css",
        "/style/lab.cccccccccccccccc.css",
        r#""three":"/vendor/three/three.dddddddddddddddd.js""#,
        r#"content="/pkg/engine-worker.00112233445566ff.js""#,
    ] {
        assert!(html.contains(hashed), "the page lacks {hashed}:\n{html}");
    }
    for plain in [
        "/style/main.css",
        "three.bundle.js",
        "frontend_bg",
        "/pkg/frontend.js",
    ] {
        assert!(!html.contains(plain), "the page names {plain}:\n{html}");
    }
    // The import map and the hydration script still carry the CSP nonce.
    let nonce = html
        .split("nonce=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a nonce in the page");
    assert!(
        html.contains(&format!(r#"<script type="importmap" nonce="{nonce}""#)),
        "{html}"
    );
    assert!(
        html.matches(&format!("nonce=\"{nonce}\"")).count() >= 2,
        "{html}"
    );

    // Hashed files: a year, immutable.
    for path in [
        "/pkg/frontend.0123456789abcdef.js",
        "/pkg/frontend.fedcba9876543210.wasm",
        "/pkg/engine-worker.00112233445566ff.js",
        "/style/main.aaaaaaaaaaaaaaaa.css",
        "/vendor/three/three.dddddddddddddddd.js",
    ] {
        let (status, cache, _) = get(&format!("{}{path}", server.url)).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(
            cache.as_deref(),
            Some("public, max-age=31536000, immutable"),
            "{path}"
        );
    }
    // A file without a hash: short-lived.
    let (status, cache, _) = get(&format!("{}/vendor/three/LICENSE", server.url)).await;
    assert_eq!(status, 200);
    assert_eq!(cache.as_deref(), Some("public, max-age=300"));
    // Old names and unknown hashes: 404, never cached as immutable.
    for path in [
        "/pkg/frontend.js",
        "/pkg/frontend_bg.wasm",
        "/style/main.css",
        "/vendor/three/three.bundle.js",
        "/pkg/frontend.1111111111111111.js",
    ] {
        let (status, cache, _) = get(&format!("{}{path}", server.url)).await;
        assert_eq!(status, 404, "{path}");
        assert_ne!(
            cache.as_deref(),
            Some("public, max-age=31536000, immutable"),
            "{path}"
        );
    }
}

#[tokio::test]
async fn a_broken_manifest_stops_the_server_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    fs::create_dir_all(&root).unwrap();
    fs::write(root.join("manifest.json"), "{\"main.css\": 1}").unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_othello-server"))
        .args(["--listen", "127.0.0.1:0", "--database"])
        .arg(dir.path().join("db.sqlite"))
        .arg("--site-root")
        .arg(&root)
        .env("OTHELLO_EXPLAINER", "offline")
        .output()
        .expect("server runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("manifest.json"), "{stderr}");
}

#[tokio::test]
async fn hashed_files_do_not_count_against_the_request_rate_pages_and_unknown_names_do() {
    // A table's page loads ~170 wasm chunks and the service worker precaches
    // every hashed file after the first page: counted, they spent a visitor's
    // burst and the next page's chunks were refused.
    let (_dir, server) = serve_site(&["--rate-per-ip", "1", "--rate-burst", "3"]).await;
    let hashed = [
        "/pkg/frontend.0123456789abcdef.js",
        "/pkg/frontend.fedcba9876543210.wasm",
        "/style/main.aaaaaaaaaaaaaaaa.css",
        "/vendor/three/three.dddddddddddddddd.js",
    ];
    for round in 0..10 {
        for path in hashed {
            let (status, _, _) = get(&format!("{}{path}", server.url)).await;
            assert_eq!(status, 200, "{path}, round {round}");
        }
    }
    // Pages, unhashed files and names that are not this deploy's still count.
    let mut statuses = Vec::new();
    for path in [
        "/",
        "/vendor/three/LICENSE",
        "/pkg/chunk_9.0000000000000000.wasm",
        "/",
        "/",
        "/",
    ] {
        statuses.push(get(&format!("{}{path}", server.url)).await.0);
    }
    assert!(statuses.contains(&429), "{statuses:?}");
    // …and once the burst is spent, the hashed files are still served.
    for path in hashed {
        let (status, _, _) = get(&format!("{}{path}", server.url)).await;
        assert_eq!(status, 200, "{path} after the burst");
    }
    // They have a budget of their own (20 × the pages': a burst of 60 here),
    // so a flood of them meets its limit too.
    let mut refused = 0;
    for _ in 0..100 {
        if get(&format!("{}{}", server.url, hashed[0])).await.0 == 429 {
            refused += 1;
        }
    }
    assert!(refused > 0, "a flood of static files was never refused");
}
