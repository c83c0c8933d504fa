use std::path::PathBuf;
use std::sync::Arc;

use gifshelf_app::auth::AuthService;
use gifshelf_app::gifs::GifService;
use gifshelf_app::stats::StatsService;
use gifshelf_domain::ports::UserRepository;

/// What the HTTP layer needs from configuration.
#[derive(Debug, Clone)]
pub struct HttpSettings {
    /// The built SPA (`index.html` and assets).
    pub web_dir: PathBuf,
    /// Enables "Continue with Google" and widens the CSP to Google's sign-in origin.
    pub google_client_id: Option<String>,
    pub max_upload_bytes: u64,
    pub version: String,
    /// Take the client address from `X-Forwarded-For`/`Forwarded` (only behind a trusted proxy).
    pub trust_forwarded_for: bool,
    /// The public origin for share links (`https://gifs.example.com`); else taken from the request.
    pub public_url: Option<String>,
    pub workers: usize,
}

/// Everything a handler may reach: use cases and the few ports handlers call directly.
#[derive(Clone)]
pub struct AppState {
    pub auth: Arc<AuthService>,
    pub gifs: Arc<GifService>,
    pub stats: Arc<StatsService>,
    pub users: Arc<dyn UserRepository>,
    pub settings: HttpSettings,
}
