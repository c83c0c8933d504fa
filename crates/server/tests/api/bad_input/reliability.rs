//! Reliability: aborted clients, concurrent writers, an exhausted pool, SIGTERM.

use super::*;

// ---------------------------------------------------------------------------------------------
// Reliability

pub(super) async fn reliability_client_abort_or_failed_write_leaves_nothing(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let body = multipart(b"big.gif", &animated_gif(400, 300, 6), "aborted");
    assert!(body.len() > 100_000, "{}", body.len());

    // A raw client that sends half the body and hangs up.
    let addr = app.socket_address().to_owned();
    let (head, half) = (upload_head(&addr, alice.token(), body.len()), body[..body.len() / 2].to_vec());
    tokio::task::spawn_blocking(move || {
        let mut stream = served_connection(&addr);
        stream.write_all(&head).unwrap_or_else(|e| panic!("{e}"));
        stream.write_all(&half).unwrap_or_else(|e| panic!("{e}"));
        let _ = stream.shutdown(std::net::Shutdown::Both);
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));

    // A client whose body stream fails half way.
    let (first, _) = body.split_at(body.len() / 2);
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
        vec![Ok(first.to_vec()), Err(std::io::Error::other("client gave up"))];
    let failed = alice
        .request(Method::POST, "/api/gifs")
        .header("content-type", format!("multipart/form-data; boundary={BOUNDARY}"))
        .body(reqwest::Body::wrap_stream(futures_util::stream::iter(chunks)))
        .send()
        .await;
    assert!(failed.is_err(), "the request failed on the client side");
    still_serving(&app).await;
    nothing_stored(&app, &alice).await;

    // The disk refuses the write (here: the temp folder is not a folder): a 500, nothing left.
    let partial = app.data_dir.join("media").join(".partial");
    std::fs::remove_dir_all(&partial).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&partial, b"not a folder").unwrap_or_else(|e| panic!("{e}"));
    let response = alice.upload("x.gif", animated_gif(16, 16, 2), "disk full", "", &[]).await;
    assert!(!header(&response, "x-request-id").is_empty(), "a 5xx carries the request id");
    let message = error_of(response, StatusCode::INTERNAL_SERVER_ERROR, "internal").await;
    assert_eq!(message, "Something went wrong on our side. Please try again later.");
    std::fs::remove_file(&partial).unwrap_or_else(|e| panic!("{e}"));
    std::fs::create_dir(&partial).unwrap_or_else(|e| panic!("{e}"));
    nothing_stored(&app, &alice).await;
    still_serving(&app).await;
    // And the next upload is whole.
    alice.upload_gif("fine", "", &[]).await;
    assert_eq!(app.stored_files().len(), 3, "{:?}", app.stored_files());
}

pub(super) async fn reliability_sqlite_concurrent_writes_never_fail(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_DB_MAX_CONNECTIONS", "8"), ("GIFSHELF_MEDIA_WORKERS", "2")]);
    let admin = app.admin().await;
    let seed = admin.upload_gif("seed", "", &["seed"]).await;
    let seed_id = seed.id;
    let names: Vec<String> = (0..12).map(|i| format!("user{i:02}")).collect();
    let registered = join_all(names.iter().map(|n| app.register(n, "secret1"))).await;
    assert!(
        registered.iter().all(|r| r.status() == StatusCode::CREATED),
        "{:?}",
        registered.iter().map(Response::status).collect::<Vec<_>>()
    );
    let logins = join_all(names.iter().map(|n| app.login(n, "secret1"))).await;
    let mut users = Vec::new();
    for login in logins {
        let session: TokenResponse = dto_of(login, StatusCode::OK).await;
        users.push(app.with_token(&session.token));
    }

    // Uploads sharing a new tag, views of one GIF, tag creations and edits, all at once.
    let mut requests = Vec::new();
    for (i, user) in users.iter().enumerate() {
        let form_tags = ["shared", "common"];
        requests.push(
            user.request(Method::POST, "/api/gifs").multipart(
                reqwest::multipart::Form::new()
                    .part("file", reqwest::multipart::Part::bytes(user.fresh_gif()).file_name("x.gif"))
                    .text(
                        "gifData",
                        json!({"title": format!("upload {i}"), "description": "", "tags": form_tags}).to_string(),
                    ),
            ),
        );
        for _ in 0..3 {
            requests.push(user.request(Method::GET, &format!("/api/gifs/dto/{seed_id}")));
        }
        requests.push(user.request(Method::POST, &format!("/api/tags?name=tag{i:02}")));
    }
    for n in 0..4 {
        requests.push(
            admin
                .request(Method::PUT, &format!("/api/gifs/{seed_id}"))
                .json(&json!({"title": format!("seed {n}"), "description": "", "tags": ["seed"]})),
        );
    }
    let total = requests.len();
    let answers = join_all(requests.into_iter().map(|r| async move {
        let response = r.send().await.unwrap_or_else(|e| panic!("{e}"));
        let status = response.status();
        (status, response.text().await.unwrap_or_default())
    }))
    .await;
    for (status, body) in &answers {
        assert!(status.is_success(), "{status}: {body}");
        assert!(!body.contains("locked"), "{body}");
    }
    assert_eq!(answers.len(), total);
    let page: PagedGifs = admin.read("/api/gifs/dtos").await;
    assert_eq!(page.total_elements, 13);
    // No view was lost: 36 counted above, and this one.
    assert_eq!(admin.gif(seed_id).await.view_count, 37);
    let shared: TagDto = admin.read("/api/tags/shared").await;
    assert_eq!(shared.count, 12);
    assert_eq!(app.stored_files().len(), 13 * 3);
    still_serving(&app).await;
}

pub(super) async fn reliability_pool_exhausted_is_a_fast_503(backend: Backend) {
    use diesel::connection::SimpleConnection;
    use diesel::Connection;
    // One connection, held by a write that waits on a lock taken from outside the server.
    let app = app!(backend, &[("GIFSHELF_DB_MAX_CONNECTIONS", "1")]);
    let alice = app.user("alice").await;
    let url = app.database_url().to_owned();
    let mut holder: Box<dyn SimpleConnection> = match backend {
        Backend::Sqlite => Box::new(
            diesel::SqliteConnection::establish(url.trim_start_matches("sqlite://")).unwrap_or_else(|e| panic!("{e}")),
        ),
        Backend::Postgres => Box::new(diesel::PgConnection::establish(&url).unwrap_or_else(|e| panic!("{e}"))),
    };
    let lock = match backend {
        Backend::Sqlite => "BEGIN IMMEDIATE",
        Backend::Postgres => "BEGIN; LOCK TABLE users IN EXCLUSIVE MODE",
    };
    holder.batch_execute(lock).unwrap_or_else(|e| panic!("{e}"));
    let writer = app.register("bob", "secret1");
    let probe = async {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            tokio::time::sleep(Duration::from_millis(200)).await;
            let asked = Instant::now();
            let response = alice.get("/api/gifs/dtos").await;
            if response.status() == StatusCode::SERVICE_UNAVAILABLE {
                let waited = asked.elapsed();
                let message = error_of(response, StatusCode::SERVICE_UNAVAILABLE, "unavailable").await;
                assert_eq!(message, "The server is busy. Please try again in a moment.");
                assert!(waited < Duration::from_secs(15), "the 503 took {waited:?}");
                break;
            }
            assert_eq!(response.status(), StatusCode::OK, "before the writer holds the connection");
            assert!(Instant::now() < deadline, "never saw the pool exhausted");
        }
        holder.batch_execute("ROLLBACK").unwrap_or_else(|e| panic!("{e}"));
    };
    let (registered, ()) = tokio::join!(writer, probe);
    // Once the lock is gone the waiting write completes.
    let _: ProfileDto = dto_of(registered, StatusCode::CREATED).await;
    app.sign_in("bob", "secret1").await;
    still_serving(&app).await;
}

/// A `gifshelf serve` process of the SIGTERM row on `database_url`, its files and its log
/// (`server.log`) in `data`; killed on drop if still running.
fn serve_process(database_url: &str, data: &std::path::Path) -> gifshelf_testkit::ServerProcess {
    let web = data.join("web");
    std::fs::create_dir_all(&web).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(web.join("index.html"), crate::helpers::INDEX_HTML).unwrap_or_else(|e| panic!("{e}"));
    gifshelf_testkit::ServerEnv::new(&data.join("data"), &web, database_url)
        .set("GIFSHELF_LOG", "warn")
        .spawn(env!("CARGO_BIN_EXE_gifshelf"), &data.join("server.log"))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Signs alice in on the server at `url` and returns her session token.
async fn sign_in_alice(client: &reqwest::Client, url: &str) -> String {
    let login = client
        .post(format!("{url}/api/auth/login"))
        .json(&json!({"username": "alice", "password": "secret1"}))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let TokenResponse { token } = dto_of(login, StatusCode::OK).await;
    token
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn reliability_sigterm_lets_the_in_flight_upload_finish() {
    let db = gifshelf_db::testing::TestDb::sqlite();
    let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut server = serve_process(&db.url, data.path());
    let client = reqwest::Client::new();
    let account =
        json!({"username": "alice", "email": "alice@example.com", "password": "secret1", "confirmPassword": "secret1"});
    let registered = client
        .post(format!("{}/api/auth/register", server.url()))
        .json(&account)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(registered.status(), StatusCode::CREATED);
    let token = sign_in_alice(&client, &server.url()).await;

    // Half an upload is on the wire when SIGTERM arrives; the rest follows.
    let addr = server.url().trim_start_matches("http://").to_owned();
    let pid = server.pid();
    let (status, body) = tokio::task::spawn_blocking(move || {
        let body = multipart(b"x.gif", &animated_gif(64, 48, 3), "in flight");
        let mut stream = served_connection(&addr);
        stream.write_all(&upload_head(&addr, &token, body.len())).unwrap_or_else(|e| panic!("{e}"));
        stream.write_all(&body[..body.len() / 2]).unwrap_or_else(|e| panic!("{e}"));
        let killed = std::process::Command::new("kill").args(["-TERM", &pid.to_string()]).status();
        assert!(killed.is_ok_and(|s| s.success()), "kill -TERM");
        // The server has taken the signal once it takes no new connection.
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(&addr).is_ok() {
            assert!(Instant::now() < deadline, "the server still takes connections after SIGTERM");
            std::thread::sleep(Duration::from_millis(10));
        }
        stream.write_all(&body[body.len() / 2..]).unwrap_or_else(|e| panic!("{e}"));
        read_response(&mut stream)
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status, 201, "the in-flight upload finished: {body}");

    // Then the server exits, cleanly.
    let deadline = Instant::now() + Duration::from_secs(40);
    let exit = loop {
        if let Some(exit) = server.exited() {
            break exit;
        }
        assert!(Instant::now() < deadline, "the server did not exit after SIGTERM");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(exit.success(), "{exit:?}");

    // The data is consistent: after a restart the GIF is listed and its files are served.
    let server = serve_process(&db.url, data.path());
    let token = sign_in_alice(&client, &server.url()).await;
    let page: PagedGifs = dto_of(
        client
            .get(format!("{}/api/gifs/dtos", server.url()))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap_or_else(|e| panic!("{e}")),
        StatusCode::OK,
    )
    .await;
    assert_eq!(page.total_elements, 1);
    let id = page.content[0].id;
    for path in ["content", "thumbnail", "static-thumbnail"] {
        let served = client
            .get(format!("{}/api/gifs/{path}/{id}", server.url()))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(served.status(), StatusCode::OK, "{path}");
    }
}

on_both_backends!(
    reliability_client_abort_or_failed_write_leaves_nothing,
    reliability_sqlite_concurrent_writes_never_fail,
    reliability_pool_exhausted_is_a_fast_503,
);
