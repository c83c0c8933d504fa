//! One file: `gifshelf serve` started in an empty working directory, with no web folder and no
//! `GIFSHELF_WEB_DIR`, serves the web app built into it: `index.html` (never cached) at `/` and
//! as the history fallback of any page path, its hashed assets with their year-long cache and an
//! ETag a browser can revalidate, and JSON for unknown API paths.
//!
//! A Rust build without the web app built (`frontend/dist` missing: a fresh clone, Rust-only CI)
//! embeds a page saying how to build it instead: then this test checks that page, and says so.
#![allow(clippy::unwrap_used)]

use gifshelf_testkit::ServerEnv;
use reqwest::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use reqwest::StatusCode;

fn header(response: &reqwest::Response, name: reqwest::header::HeaderName) -> String {
    response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned()
}

#[tokio::test]
async fn the_binary_serves_its_web_app_from_an_empty_directory() {
    let dir = tempfile::tempdir().unwrap();
    let (data, cwd) = (dir.path().join("data"), dir.path().join("empty"));
    std::fs::create_dir_all(&cwd).unwrap();
    // `web` names a folder that does not exist: the variable is unset, so it is never read.
    let env = ServerEnv::new(&data, &dir.path().join("web"), &gifshelf_testkit::sqlite_url(&data))
        .unset("GIFSHELF_WEB_DIR")
        .in_dir(&cwd);
    let server = env.spawn(env!("CARGO_BIN_EXE_gifshelf"), &dir.path().join("gifshelf.log")).unwrap();
    let client = reqwest::Client::new();
    let get = |path: &str| client.get(format!("{}{path}", server.url())).send();

    let root = get("/").await.unwrap();
    assert_eq!(root.status(), StatusCode::OK);
    assert_eq!(header(&root, CONTENT_TYPE), "text/html; charset=utf-8");
    assert_eq!(header(&root, CACHE_CONTROL), "no-cache");
    assert!(!header(&root, "content-security-policy".parse().unwrap()).is_empty(), "the security headers");
    let index = root.text().await.unwrap();

    let page = get("/gifs/123").await.unwrap();
    assert_eq!((page.status(), header(&page, CACHE_CONTROL)), (StatusCode::OK, "no-cache".to_owned()));
    assert_eq!(page.text().await.unwrap(), index, "the history fallback is index.html");
    let api = get("/api/no-such-thing").await.unwrap();
    assert_eq!(api.status(), StatusCode::NOT_FOUND);
    assert_eq!(header(&api, CONTENT_TYPE), "application/json");

    if !gifshelf_http::web_app_built() {
        assert!(index.contains("cargo xtask run") && index.contains("npm run build"), "{index}");
        println!(
            "the web app was not built when this binary was (no frontend/dist): checked the page saying how to build it"
        );
        return;
    }
    assert!(!index.contains("gifshelf-web\" content=\"not-built"), "the real web app: {index}");
    let asset = index
        .split(['"', '\'', '=', '>', ' '])
        .find(|part| part.starts_with("/assets/") && part.ends_with(".js"))
        .unwrap_or_else(|| panic!("no script under /assets/ in {index}"))
        .to_owned();
    let script = get(&asset).await.unwrap();
    assert_eq!(script.status(), StatusCode::OK, "{asset}");
    assert_eq!(header(&script, CONTENT_TYPE), "text/javascript; charset=utf-8");
    assert_eq!(header(&script, CACHE_CONTROL), "public, max-age=31536000, immutable");
    let etag = header(&script, ETAG);
    assert!(!etag.is_empty() && !script.bytes().await.unwrap().is_empty(), "{asset}");
    let again = client.get(format!("{}{asset}", server.url())).header(IF_NONE_MATCH, &etag).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    let gzip = client.get(format!("{}{asset}", server.url())).header("accept-encoding", "gzip").send().await.unwrap();
    assert_eq!(header(&gzip, "content-encoding".parse().unwrap()), "gzip");
    let missing = get("/assets/missing.0123456789.js").await.unwrap();
    assert_eq!((missing.status(), header(&missing, CACHE_CONTROL)), (StatusCode::OK, "no-cache".to_owned()));
    println!("the web app built into the binary served {asset} and the history fallback");
}
