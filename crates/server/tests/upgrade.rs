//! Upgrades keep everything: each fixture under `testdata/upgrade/<commit>/` is a library an
//! earlier gifshelf made (by `testdata/upgrade/make-fixture.py`, committed so the old commit is
//! never rebuilt here), on SQLite and on PostgreSQL. Today's binary opens it, runs the migrations
//! added since, and must still show every account, GIF (its fields and every file byte for byte),
//! favourite, collection, share link and API key. Every later schema change is exercised by the
//! same test, since it migrates these fixtures.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use gifshelf_db::testing::TestDb;
use gifshelf_testkit::{ServerEnv, ServerProcess};
use reqwest::StatusCode;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/upgrade");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("manifest.json").is_file())
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no fixture under {}", root.display());
    found
}

fn manifest(fixture: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(fixture.join("manifest.json")).unwrap()).unwrap()
}

/// Copies a folder tree (the fixture stays untouched).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn start(dir: &Path, data: &Path, db_url: &str) -> ServerProcess {
    let web = gifshelf_testkit::bare_web_dir(dir).unwrap();
    ServerEnv::new(data, &web, db_url)
        .set("GIFSHELF_FFMPEG", "off")
        .spawn(env!("CARGO_BIN_EXE_gifshelf"), &dir.join("gifshelf.log"))
        .unwrap()
}

struct Library {
    http: reqwest::Client,
    base: String,
}

impl Library {
    async fn get(&self, path: &str, token: &str) -> reqwest::Response {
        let url = if path.starts_with("http") { path.to_owned() } else { format!("{}{path}", self.base) };
        self.http.get(url).bearer_auth(token).send().await.unwrap()
    }

    async fn json(&self, path: &str, token: &str) -> Value {
        let response = self.get(path, token).await;
        assert_eq!(response.status(), StatusCode::OK, "GET {path}");
        response.json().await.unwrap()
    }

    async fn sign_in(&self, username: &str, password: &str) -> String {
        let body = json!({"username": username, "password": password});
        let response = self.http.post(format!("{}/api/auth/login", self.base)).json(&body).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{username} signs in with the password of before");
        response.json::<Value>().await.unwrap()["token"].as_str().unwrap().to_owned()
    }
}

fn sha256(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Everything the manifest says the library held is still there, the same.
async fn everything_is_kept(manifest: &Value, library: &Value, server: &ServerProcess) {
    let lib = Library { http: reqwest::Client::new(), base: server.url() };
    let mut tokens = std::collections::HashMap::new();
    for user in manifest["users"].as_array().unwrap() {
        let name = user["username"].as_str().unwrap();
        tokens.insert(name.to_owned(), lib.sign_in(name, user["password"].as_str().unwrap()).await);
    }
    let admin = &tokens["admin"];
    for gif in library["gifs"].as_array().unwrap() {
        let id = gif["id"].as_i64().unwrap();
        let dto = lib.json(&format!("/api/gifs/dto/{id}"), admin).await;
        for field in ["title", "description", "tags", "uploadedBy", "shareId", "rating", "contentSize", "frameCount"] {
            assert_eq!(dto[field], gif[field], "GIF {id}: {field}");
        }
        let renditions = lib.json(&format!("/api/gifs/{id}/renditions"), admin).await;
        let files = gif["files"].as_object().unwrap();
        for (kind, digest) in files {
            let rendition = renditions.as_array().unwrap().iter().find(|r| &r["kind"] == kind);
            let url = rendition.unwrap_or_else(|| panic!("GIF {id} lost its {kind}"))["url"].as_str().unwrap();
            let response = lib.get(url, admin).await;
            assert_eq!(response.status(), StatusCode::OK, "GIF {id} {kind}");
            assert_eq!(&sha256(&response.bytes().await.unwrap()), digest, "GIF {id}: {kind} byte for byte");
        }
        let share = gif["shareId"].as_str().unwrap();
        let public = lib.http.get(format!("{}/s/{share}.gif", lib.base)).send().await.unwrap();
        assert_eq!(public.status(), StatusCode::OK, "the share link of GIF {id}");
        assert_eq!(&sha256(&public.bytes().await.unwrap()), &files["original"], "shared bytes");
    }
    for (user, ids) in library["favourites"].as_object().unwrap() {
        let page = lib.json("/api/gifs/dtos/favourites", &tokens[user]).await;
        let mine: Vec<&Value> = page["content"].as_array().unwrap().iter().map(|g| &g["id"]).collect();
        assert_eq!(mine, ids.as_array().unwrap().iter().collect::<Vec<_>>(), "{user}'s favourites");
    }
    for collection in library["collections"].as_array().unwrap() {
        let (id, owner) = (collection["id"].as_i64().unwrap(), collection["owner"].as_str().unwrap());
        let stored = lib.json(&format!("/api/collections/{id}"), &tokens[owner]).await;
        assert_eq!((&stored["name"], &stored["shareId"]), (&collection["name"], &collection["shareId"]));
        let page = lib.json(&format!("/api/collections/{id}/gifs"), &tokens[owner]).await;
        let order: Vec<&Value> = page["content"].as_array().unwrap().iter().map(|g| &g["id"]).collect();
        assert_eq!(order, collection["gifs"].as_array().unwrap().iter().collect::<Vec<_>>(), "in its order");
        let shared = lib.http.get(format!("{}/c/{}", lib.base, collection["shareId"].as_str().unwrap())).send().await;
        assert_eq!(shared.unwrap().status(), StatusCode::OK, "the collection's share page");
    }
    for key in library["apiKeys"].as_array().unwrap() {
        let url = format!("{}/api/giphy/v1/gifs/trending?api_key={}", lib.base, key["key"].as_str().unwrap());
        let answer = lib.http.get(url).send().await.unwrap();
        assert_eq!(answer.status(), StatusCode::OK, "{}'s API key still opens the chat API", key["owner"]);
    }
}

#[tokio::test]
async fn an_earlier_sqlite_library_upgrades_with_everything() {
    for fixture in fixtures() {
        let manifest = manifest(&fixture);
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        copy_tree(&fixture.join("sqlite"), &data);
        let server = start(dir.path(), &data, &gifshelf_testkit::sqlite_url(&data));
        everything_is_kept(&manifest, &manifest["libraries"]["sqlite"], &server).await;
    }
}

#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL was not set when the tests were built")]
async fn an_earlier_postgres_library_upgrades_with_everything() {
    for fixture in fixtures() {
        let manifest = manifest(&fixture);
        let sql = std::fs::read_to_string(fixture.join("postgres/dump.sql")).unwrap();
        let Some(db) = TestDb::postgres_from_sql("upgrade", &sql) else { return };
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        copy_tree(&fixture.join("postgres/media"), &data.join("media"));
        let server = start(dir.path(), &data, &db.url);
        everything_is_kept(&manifest, &manifest["libraries"]["postgres"], &server).await;
    }
}
