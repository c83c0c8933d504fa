//! The tests' fake OpenID provider as a process, for the browser end-to-end tests:
//! `gifshelf-fake-oidc [PORT]` prints its issuer URL on the first line and serves until killed.

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let port = std::env::args().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0);
    let provider = gifshelf_auth::testing::FakeOidcProvider::start_on(port).await;
    println!("{}", provider.issuer());
    std::future::pending::<()>().await;
}
