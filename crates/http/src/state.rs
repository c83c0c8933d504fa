use std::path::PathBuf;
use std::sync::Arc;

use gifshelf_app::auth::AuthService;
use gifshelf_app::collections::CollectionService;
use gifshelf_app::gifs::{GifService, UrlImport};
use gifshelf_app::stats::StatsService;
use gifshelf_domain::ports::{Clock, UserRepository};

/// What the HTTP layer needs from configuration.
#[derive(Debug, Clone)]
pub struct HttpSettings {
    /// A folder holding the built SPA (`index.html` and assets); `None` serves the copy built into
    /// the binary.
    pub web_dir: Option<PathBuf>,
    /// Enables "Continue with Google" and widens the CSP to Google's sign-in origin.
    pub google_client_id: Option<String>,
    pub max_upload_bytes: u64,
    pub version: String,
    /// Behind a trusted proxy: take the client address from the `X-Forwarded-For` entry it added,
    /// and the origin of links from its `X-Forwarded-Proto`/`-Host` (see `client.rs`).
    pub trust_forwarded_for: bool,
    /// How many trusted proxies stand in front (the client address is that many entries from the
    /// right of `X-Forwarded-For`); 1 by default.
    pub trusted_proxy_hops: usize,
    /// The public origin for share links (`https://gifs.example.com`); else taken from the request.
    pub public_url: Option<String>,
    /// Without a public URL: the hosts (lower-case; with a port, only that port) a request's `Host`
    /// (or trusted `X-Forwarded-Host`) may name for links to be built on it.
    pub allowed_hosts: Vec<String>,
    /// Without a public URL: the origin of links when the request names no allowed host (the
    /// address the server listens on).
    pub fallback_origin: String,
    pub workers: usize,
    /// Who sends the bytes of an allowed media request (see [`MediaOffload`]).
    pub media_offload: MediaOffload,
    /// Which web pages may read the chat APIs' answers (CORS).
    pub chat_cors: ChatCors,
}

/// Which pages of other sites may read the chat APIs' answers (`Access-Control-Allow-Origin`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ChatCors {
    /// Any page (`*`): the APIs need a key, which the page must hold.
    #[default]
    AnyOrigin,
    /// Only pages of these origins (lower-case `scheme://host[:port]`): the APIs answer
    /// anonymously, so any page a member opens could otherwise read an intranet library.
    Origins(Vec<String>),
}

/// Who sends the bytes of a media request once gifshelf has checked who may see them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum MediaOffload {
    /// gifshelf streams them from the store.
    #[default]
    Stream,
    /// A reverse proxy (nginx) sends the file: the answer carries `X-Accel-Redirect:
    /// {prefix}{key}`, an internal location of the proxy that maps onto the media folder.
    XAccelRedirect { prefix: String },
    /// The client is redirected to a presigned URL of the object store, valid this long.
    Presigned { expires: std::time::Duration },
}

#[cfg(test)]
impl HttpSettings {
    pub(crate) fn for_tests() -> Self {
        Self {
            web_dir: None,
            google_client_id: None,
            max_upload_bytes: 10 * 1024 * 1024,
            version: "test".into(),
            trust_forwarded_for: false,
            trusted_proxy_hops: 1,
            public_url: None,
            allowed_hosts: vec!["localhost".into(), "127.0.0.1".into()],
            fallback_origin: "http://localhost".into(),
            workers: 1,
            media_offload: MediaOffload::Stream,
            chat_cors: ChatCors::AnyOrigin,
        }
    }
}

/// Everything a handler may reach: use cases and the few ports handlers call directly.
#[derive(Clone)]
pub struct AppState {
    pub auth: Arc<AuthService>,
    pub gifs: Arc<GifService>,
    pub collections: Arc<CollectionService>,
    /// "From a link": the image fetched by the server, then uploaded.
    pub url_import: Arc<UrlImport>,
    /// The GIF maker: makes queued, and their state.
    pub maker: Arc<gifshelf_app::make::MakeService>,
    pub stats: Arc<StatsService>,
    /// `GET /metrics`, when on.
    pub metrics: Option<crate::metrics::MetricsEndpoint>,
    /// The readiness checks of `/api/health/ready`.
    pub health: Arc<gifshelf_app::health::HealthService>,
    /// API keys for the chat-compatible APIs.
    pub keys: Arc<gifshelf_app::keys::ApiKeyService>,
    /// What the chat-compatible APIs answer, and who they let in.
    pub chat: Arc<gifshelf_app::chat::ChatService>,
    pub chat_gate: Arc<gifshelf_app::keys::ChatGate>,
    /// Slash commands from Slack, Mattermost and Zulip.
    pub commands: Arc<gifshelf_app::commands::CommandService>,
    /// The chat integrations admins keep (the secrets slash commands prove themselves with).
    pub integrations: Arc<gifshelf_app::integrations::IntegrationService>,
    /// The audit log of admin and security events.
    pub audit: gifshelf_app::audit::Audit,
    /// Who may join: the registration policy and invitations.
    pub join: Arc<gifshelf_app::join::JoinService>,
    /// Members: the accounts admins manage.
    pub members: Arc<gifshelf_app::members::MemberService>,
    /// Removing accounts, reset links, quotas and usage.
    pub accounts: Arc<gifshelf_app::accounts::AccountService>,
    /// Reports and hidden GIFs.
    pub moderation: Arc<gifshelf_app::moderation::ModerationService>,
    pub users: Arc<dyn UserRepository>,
    pub settings: HttpSettings,
    /// The one clock of the application: what handlers stamp and check times with.
    pub clock: Arc<dyn Clock>,
}
