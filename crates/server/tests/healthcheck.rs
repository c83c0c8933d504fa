//! `gifshelf healthcheck`, as a container's health check runs it: exit 0 when the server at
//! GIFSHELF_BIND answers `/api/health/ready` with 200, 1 (naming what failed) otherwise.
#![allow(clippy::unwrap_used)]

use gifshelf_testkit::ServerEnv;

#[test]
fn healthcheck_exits_0_when_ready_and_1_when_nothing_answers() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let web = gifshelf_testkit::bare_web_dir(dir.path()).unwrap();
    let env = ServerEnv::new(&data, &web, &gifshelf_testkit::sqlite_url(&data));
    let server = env.spawn(env!("CARGO_BIN_EXE_gifshelf"), &dir.path().join("gifshelf.log")).unwrap();
    let check = |bind: String| {
        env.clone()
            .set("GIFSHELF_BIND", bind)
            .command(env!("CARGO_BIN_EXE_gifshelf"))
            .arg("healthcheck")
            .output()
            .unwrap()
    };

    let ready = check(format!("127.0.0.1:{}", server.port()));
    assert_eq!(ready.status.code(), Some(0), "{}", String::from_utf8_lossy(&ready.stderr));
    let unspecified = check(format!("0.0.0.0:{}", server.port()));
    assert_eq!(unspecified.status.code(), Some(0), "0.0.0.0 is asked on loopback");

    let nobody = check(format!("127.0.0.1:{}", gifshelf_testkit::free_port()));
    assert_eq!(nobody.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&nobody.stderr);
    assert!(stderr.contains("not ready: nothing answers"), "{stderr}");
}
