//! The composition root: concrete adapters in, a running server out.

use std::net::TcpListener;
use std::sync::Arc;

use gifshelf_app::accounts::{AccountPorts, AccountService, QuotaGate};
use gifshelf_app::audit::Audit;
use gifshelf_app::auth::{AuthConfig, AuthService, ThrottleConfig};
use gifshelf_app::collections::CollectionService;
use gifshelf_app::commands::CommandService;
use gifshelf_app::gifs::{GifPorts, GifService, UrlImport};
use gifshelf_app::health::HealthService;
use gifshelf_app::integrations::IntegrationService;
use gifshelf_app::jobs::{RenditionMaker, TextPorts, TextReading};
use gifshelf_app::stats::StatsService;
use gifshelf_auth::secret::{self, SecretSource};
use gifshelf_auth::{BcryptHasher, JwtTokens, OidcVerifier, RandomIds, SystemClock};
use gifshelf_db::{Database, DbConfig};
use gifshelf_domain::ports::{BlobStore, Clock};
use gifshelf_http::{AppState, HttpSettings};

use crate::chat_secrets::{configured_commands, secret_keeping};
use crate::programs::{text_reader, video_maker};
use crate::Settings;

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error(transparent)]
    Db(#[from] gifshelf_db::DbError),
    #[error(transparent)]
    Secret(#[from] secret::SecretError),
    #[error("cannot listen on {addr}: {source}")]
    Bind { addr: String, source: std::io::Error },
    #[error("{0}")]
    Other(String),
}

/// Opens and migrates the database the settings name.
///
/// # Errors
/// When it cannot be opened or migrated.
pub fn open_database(settings: &Settings) -> Result<Database, StartupError> {
    let mut config = DbConfig::new(&settings.database_url);
    config.max_connections = settings.db_max_connections;
    let db = Database::connect(&config)?;
    let applied = db.migrate()?;
    if !applied.is_empty() {
        tracing::info!(?applied, "database migrated");
    }
    Ok(db)
}

/// The media pipeline with `workers` jobs at once (each waiting at most `wait` for its slot), and
/// video renditions when `ffmpeg` is given.
pub fn media_service(
    workers: usize,
    wait: std::time::Duration,
    ffmpeg: Option<gifshelf_media::Ffmpeg>,
) -> Arc<gifshelf_media::MediaService> {
    let media = gifshelf_media::MediaService::new(gifshelf_media::Limits::default(), workers, wait);
    Arc::new(media.with_video(ffmpeg))
}

/// The GIF use cases and the renditions made after an upload, on the configured database, blob
/// store and media pipeline.
pub struct Library {
    pub gifs: Arc<GifService>,
    pub renditions: Arc<RenditionMaker>,
    /// "From a link", shared by uploads and the maker (one set of fetch slots).
    pub url_import: Arc<UrlImport>,
    /// The GIF maker (its jobs run on the background media slots).
    pub maker: Arc<gifshelf_app::make::MakeService>,
    /// Reading the text in GIFs (on the background media slots), when tesseract is usable.
    pub text: Option<Arc<TextReading>>,
}

impl Library {
    /// What job workers run: renditions, the maker's GIFs and, when tesseract is usable, text.
    pub fn runners(&self) -> crate::workers::Runners {
        crate::workers::Runners {
            renditions: self.renditions.clone(),
            maker: Some(self.maker.clone()),
            text: self.text.clone(),
        }
    }
}

/// The configured blob store, its failures counted for `/metrics`.
fn blob_store(settings: &Settings) -> Result<Arc<dyn BlobStore>, StartupError> {
    let storage = gifshelf_storage::StorageOptions { s3: settings.s3.clone() };
    let store = gifshelf_storage::open(&settings.storage_url, &storage).map_err(StartupError::Other)?;
    Ok(Arc::new(crate::metered_store::MeteredStore(store)))
}

/// The quotas every new GIF is checked against (the configured ones until an admin sets others).
fn quota_gate(settings: &Settings, db: &Arc<Database>, clock: &Arc<dyn Clock>) -> Arc<QuotaGate> {
    Arc::new(QuotaGate::new(db.clone(), clock.clone(), settings.quota))
}

/// Removing accounts, reset links, quotas and usage.
fn account_service(
    settings: &Settings,
    db: &Arc<Database>,
    gifs: &Arc<GifService>,
    clock: &Arc<dyn Clock>,
    audit: &Audit,
) -> Result<AccountService, StartupError> {
    let hasher = BcryptHasher::new(settings.bcrypt_cost).map_err(StartupError::Other)?;
    Ok(AccountService::new(AccountPorts {
        accounts: db.clone(),
        gifs: gifs.clone(),
        minter: Arc::new(RandomIds),
        hasher: Arc::new(hasher),
        clock: clock.clone(),
        quotas: quota_gate(settings, db, clock),
    })
    .with_audit(audit.clone()))
}

/// # Errors
/// When the storage URL (`file://` or `s3://`) is unsupported or unusable.
pub fn library(settings: &Settings, db: &Database, clock: &Arc<dyn Clock>) -> Result<Library, StartupError> {
    let blobs = blob_store(settings)?;
    // Uploads and background jobs have their own slots: a slow video never holds up an upload.
    let ffmpeg = video_maker(settings);
    let media = media_service(settings.media_workers, std::time::Duration::from_secs(10), ffmpeg.clone());
    let job_wait = std::time::Duration::from_secs(settings.video_timeout_secs.saturating_mul(2));
    let tesseract = text_reader(settings);
    let job_media = media_service(settings.job_media_workers, job_wait, ffmpeg);
    let text_media: Option<Arc<dyn gifshelf_domain::ports::TextReader>> = tesseract.map(|tesseract| {
        let media =
            gifshelf_media::MediaService::new(gifshelf_media::Limits::default(), settings.job_media_workers, job_wait);
        Arc::new(media.with_text(Some(tesseract))) as Arc<dyn gifshelf_domain::ports::TextReader>
    });
    let db = Arc::new(db.clone());
    let engine = job_media.clone();
    let gifs = GifService::new(GifPorts {
        gifs: db.clone(),
        fingerprints: db.clone(),
        blob_keys: db.clone(),
        tags: db.clone(),
        favourites: db.clone(),
        blobs: blobs.clone(),
        media: media.clone(),
        ids: Arc::new(RandomIds),
        clock: clock.clone(),
        terms: db.clone(),
    })
    .with_default_rating(settings.default_rating)
    .with_quotas(quota_gate(settings, &db, clock))
    .with_text_reading(text_media.is_some());
    let gifs = Arc::new(gifs);
    let url_import = Arc::new(url_import(settings, &gifs, clock));
    let maker = gifshelf_app::make::MakeService::new(
        gifshelf_app::make::MakerPorts {
            makes: db.clone(),
            engine,
            blobs: blobs.clone(),
            users: db.clone(),
            ids: Arc::new(RandomIds),
            clock: clock.clone(),
            gifs: gifs.clone(),
            url_import: url_import.clone(),
        },
        settings.maker,
    );
    let text = text_media.map(|reader| {
        Arc::new(TextReading::new(TextPorts {
            gifs: db.clone(),
            captions: db.clone(),
            jobs: db.clone(),
            blobs: blobs.clone(),
            reader,
            clock: clock.clone(),
        }))
    });
    let renditions = RenditionMaker::new(db.clone(), db.clone(), db, blobs, job_media, clock.clone());
    Ok(Library { gifs, renditions: Arc::new(renditions), url_import, maker: Arc::new(maker), text })
}

/// The GIF use cases on the configured database and blob store.
///
/// # Errors
/// When the storage URL (`file://` or `s3://`) is unsupported or unusable.
pub fn gif_service(
    settings: &Settings,
    db: &Database,
    clock: &Arc<dyn Clock>,
) -> Result<Arc<GifService>, StartupError> {
    library(settings, db, clock).map(|library| library.gifs)
}

/// The collection use cases on the configured database and blob store.
///
/// # Errors
/// When the storage URL is unsupported or unusable.
pub fn collection_service(
    settings: &Settings,
    db: &Database,
    clock: &Arc<dyn Clock>,
) -> Result<CollectionService, StartupError> {
    let blobs = blob_store(settings)?;
    let db = Arc::new(db.clone());
    Ok(CollectionService::new(db.clone(), db, blobs, Arc::new(RandomIds), clock.clone()))
}

/// The readiness checks: the database and its migrations, the store, the job backlog.
fn health_service(settings: &Settings, db: &Database) -> Result<Arc<HealthService>, StartupError> {
    let blobs = blob_store(settings)?;
    let db = Arc::new(db.clone());
    Ok(Arc::new(HealthService::new(db.clone(), db.clone(), blobs, db, Arc::new(RandomIds), settings.ready_max_backlog)))
}

/// Reads or makes the token signing secret, and says where it came from.
fn signing_secret(settings: &Settings, db: &Database) -> Result<secrecy::SecretSlice<u8>, StartupError> {
    let configured = settings.jwt_secret.as_ref().map(|s| secrecy::ExposeSecret::expose_secret(s).to_owned());
    let (secret, source) = secret::load_or_create(configured.as_deref(), &settings.data_dir)?;
    match source {
        // PostgreSQL or object storage suggests several instances; each would sign with its
        // own secret, so a token from one would be refused by the others.
        SecretSource::Generated | SecretSource::Loaded
            if db.backend() == gifshelf_db::Backend::Postgres || settings.storage_url.starts_with("s3://") =>
        {
            tracing::warn!(
                data_dir = %settings.data_dir.display(),
                "GIFSHELF_JWT_SECRET is not set: this instance signs sessions with the secret in its own data \
                 folder. With PostgreSQL or S3 storage several instances may run; give every instance the same \
                 GIFSHELF_JWT_SECRET, or a session signed in on one is refused by the others"
            );
        }
        SecretSource::Generated => tracing::info!(
            "generated a token signing secret in the data folder; set GIFSHELF_JWT_SECRET when several instances run"
        ),
        SecretSource::Loaded => tracing::info!("using the token signing secret kept in the data folder"),
        SecretSource::Configured => tracing::info!("using the configured token signing secret"),
    }
    Ok(secret)
}

/// Where limits are counted so that every instance shares them: PostgreSQL. One instance on
/// SQLite counts in its own memory (no database write per chat call or failed login).
fn shared_counters(db: &Arc<Database>) -> Option<Arc<dyn gifshelf_domain::ports::SharedCounters>> {
    (db.backend() == gifshelf_db::Backend::Postgres)
        .then(|| db.clone() as Arc<dyn gifshelf_domain::ports::SharedCounters>)
}

/// Accounts, sessions and sign-in throttles, with third-party sign-in when a client id is set.
fn auth_service(
    settings: &Settings,
    users: &Arc<Database>,
    secret: &secrecy::SecretSlice<u8>,
    clock: &Arc<dyn Clock>,
) -> Result<AuthService, StartupError> {
    let hasher = BcryptHasher::new(settings.bcrypt_cost).map_err(StartupError::Other)?;
    let auth = AuthService::new(
        users.clone(),
        Arc::new(hasher),
        Arc::new(JwtTokens::new(secret, clock.clone())),
        clock.clone(),
        AuthConfig {
            token_ttl: chrono::Duration::hours(settings.token_ttl_hours),
            first_user_is_admin: true,
            throttle: ThrottleConfig {
                account_max_failures: settings.login_max_failures,
                account_lockout: chrono::Duration::seconds(settings.login_lockout_secs),
                account_lockout_max: chrono::Duration::minutes(15)
                    .max(chrono::Duration::seconds(settings.login_lockout_secs)),
                ip_max_failures: settings.login_ip_max_failures,
                ip_window: chrono::Duration::seconds(settings.login_ip_window_secs),
            },
            registrations_per_address: settings.register_max_per_address,
            registration_window: chrono::Duration::seconds(settings.register_window_secs),
            external_signup: settings.oidc_signup,
        },
    );
    let auth = match shared_counters(users) {
        Some(counters) => auth.with_shared_limits(counters),
        None => auth,
    };
    let auth = auth.with_session_cache(Arc::new(users.account_changes()));
    Ok(match &settings.google_client_id {
        Some(client_id) => {
            let verifier =
                OidcVerifier::new(&settings.oidc_issuer, client_id, clock.clone()).map_err(StartupError::Other)?;
            tracing::info!(issuer = %settings.oidc_issuer, "third-party sign-in enabled");
            auth.with_identity_verifier(Arc::new(verifier))
        }
        None => auth,
    })
}

fn log_media_offload(offload: &gifshelf_http::MediaOffload) {
    match offload {
        gifshelf_http::MediaOffload::Stream => {}
        gifshelf_http::MediaOffload::XAccelRedirect { prefix } => {
            tracing::info!(%prefix, "media offload: the reverse proxy sends allowed files (X-Accel-Redirect)");
        }
        gifshelf_http::MediaOffload::Presigned { expires } => {
            tracing::info!(secs = expires.as_secs(), "media offload: allowed files are presigned S3 redirects");
        }
    }
}

/// "From a link": the fetcher with its allowed ranges, then the upload.
fn url_import(settings: &Settings, gifs: &Arc<GifService>, clock: &Arc<dyn Clock>) -> UrlImport {
    let fetcher = gifshelf_fetch::LinkFetcher::new(gifshelf_fetch::FetchOptions {
        allow: settings.url_fetch_allow.clone(),
        timeout: std::time::Duration::from_secs(settings.url_fetch_timeout_secs),
    });
    if !settings.url_fetch_allow.is_empty() {
        tracing::warn!(allow = ?settings.url_fetch_allow, "links may reach these address ranges despite the rules");
    }
    UrlImport::new(
        gifs.clone(),
        Arc::new(fetcher),
        settings.max_upload_bytes(),
        settings.url_fetch_limits,
        clock.clone(),
    )
}

/// The chat APIs, their keys and gate, slash commands and the integrations admins keep.
struct ChatParts {
    keys: Arc<gifshelf_app::keys::ApiKeyService>,
    chat: Arc<gifshelf_app::chat::ChatService>,
    gate: Arc<gifshelf_app::keys::ChatGate>,
    commands: Arc<CommandService>,
    integrations: Arc<IntegrationService>,
}

impl ChatParts {
    fn new(settings: &Settings, users: &Arc<Database>, clock: &Arc<dyn Clock>, audit: &Audit) -> Self {
        let keeping = secret_keeping(settings);
        let keys = Arc::new(
            gifshelf_app::keys::ApiKeyService::new(users.clone(), users.clone(), Arc::new(RandomIds), clock.clone())
                .with_audit(audit.clone()),
        );
        if settings.chat_api_anonymous {
            tracing::warn!(
                "GIFSHELF_CHAT_API_ANONYMOUS is on: the chat APIs answer anyone without a key (searches and share-id media \
                 URLs of the whole library)"
            );
        }
        Self {
            keys: keys.clone(),
            chat: Arc::new(
                gifshelf_app::chat::ChatService::new(
                    users.clone(),
                    users.clone(),
                    users.clone(),
                    users.clone(),
                    clock.clone(),
                )
                .with_default_rating(settings.default_rating),
            ),
            gate: Arc::new({
                let gate = gifshelf_app::keys::ChatGate::new(
                    keys,
                    settings.chat_api_rate_limit,
                    settings.chat_api_anonymous,
                    clock.clone(),
                );
                match shared_counters(users) {
                    Some(counters) => gate.shared_in(counters),
                    None => gate,
                }
            }),
            commands: Arc::new(
                CommandService::new(
                    users.clone(),
                    users.clone(),
                    users.clone(),
                    configured_commands(settings),
                    keeping.clone(),
                )
                .with_rate_limit(settings.chat_api_rate_limit, shared_counters(users)),
            ),
            integrations: Arc::new(
                IntegrationService::new(users.clone(), clock.clone(), keeping, audit.clone())
                    .with_default_rating(settings.default_rating),
            ),
        }
    }
}

/// The statistics, read exact from the counters the database keeps; an old refresh period is
/// accepted and ignored.
fn stats_service(settings: &Settings, users: &Arc<Database>, clock: &Arc<dyn Clock>) -> Arc<StatsService> {
    if let Some(secs) = settings.stats_refresh_secs {
        tracing::info!(
            secs,
            "GIFSHELF_STATS_REFRESH_SECS is ignored: the statistics are exact on every read, with no snapshot to refresh"
        );
    }
    Arc::new(StatsService::new(users.clone(), clock.clone()))
}

/// What the HTTP layer needs, for a server listening on `listening`.
fn http_settings(settings: &Settings, listening: std::net::SocketAddr) -> HttpSettings {
    // An unspecified address (0.0.0.0, ::) is no host a link could name.
    let fallback_origin = if listening.ip().is_unspecified() {
        format!("http://localhost:{}", listening.port())
    } else {
        format!("http://{listening}")
    };
    HttpSettings {
        web_dir: settings.web_dir.clone(),
        google_client_id: settings.google_client_id.clone(),
        max_upload_bytes: settings.max_upload_bytes(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        trust_forwarded_for: settings.trust_proxy,
        trusted_proxy_hops: settings.trusted_proxy_hops,
        public_url: settings.public_url.clone(),
        allowed_hosts: settings.allowed_hosts.clone(),
        fallback_origin,
        workers: settings.http_workers,
        media_offload: settings.media_offload.clone(),
        chat_cors: if settings.chat_api_anonymous {
            gifshelf_http::ChatCors::Origins(settings.chat_api_cors_origins.clone())
        } else {
            gifshelf_http::ChatCors::AnyOrigin
        },
    }
}

/// A built, bound server that has not started yet.
pub struct Application {
    port: u16,
    server: actix_web::dev::Server,
    gifs: Arc<GifService>,
    sweep_every: std::time::Duration,
    /// The job workers' queue and what they run.
    queue: Arc<Database>,
    runners: crate::workers::Runners,
    job_workers: usize,
    jobs: gifshelf_app::jobs::RunnerSettings,
    job_poll: std::time::Duration,
    clock: Arc<dyn Clock>,
    integrations: Arc<IntegrationService>,
}

impl Application {
    /// Wires everything and binds the listener (`GIFSHELF_BIND`; port 0 picks a free port).
    ///
    /// # Errors
    /// When the database, the secret or the listener cannot be set up.
    pub fn build(settings: &Settings) -> Result<Self, StartupError> {
        Self::build_with_clock(settings, Arc::new(SystemClock))
    }

    /// [`Self::build`] with the clock everything reads the time from (tests move a manual one).
    ///
    /// # Errors
    /// When the database, the secret or the listener cannot be set up.
    pub fn build_with_clock(settings: &Settings, clock: Arc<dyn Clock>) -> Result<Self, StartupError> {
        std::fs::create_dir_all(&settings.data_dir).map_err(|e| {
            StartupError::Other(format!("cannot create the data folder {}: {e}", settings.data_dir.display()))
        })?;
        let db = open_database(settings)?;
        let secret = signing_secret(settings, &db)?;
        let library = library(settings, &db, &clock)?;
        let runners = library.runners();
        let Library { gifs, url_import, maker, .. } = library;
        let queue = Arc::new(db.clone());
        let health = health_service(settings, &db)?;
        let metrics = crate::metrics::endpoint(settings, &db)?;
        let collections = Arc::new(collection_service(settings, &db, &clock)?);
        let users = Arc::new(db);
        let audit = Audit::new(users.clone(), clock.clone());
        let join = Arc::new(
            gifshelf_app::join::JoinService::new(users.clone(), Arc::new(RandomIds), clock.clone())
                .with_seed(settings.registration.clone())
                .with_audit(audit.clone()),
        );
        let auth = auth_service(settings, &users, &secret, &clock)?.with_join(join.clone()).with_audit(audit.clone());
        log_media_offload(&settings.media_offload);
        let stats = stats_service(settings, &users, &clock);
        let chat = ChatParts::new(settings, &users, &clock, &audit);
        let listener = TcpListener::bind(&settings.bind)
            .map_err(|source| StartupError::Bind { addr: settings.bind.clone(), source })?;
        let listening = listener.local_addr().map_err(|e| StartupError::Other(e.to_string()))?;
        let port = listening.port();
        let state = AppState {
            auth: Arc::new(auth),
            gifs: gifs.clone(),
            collections,
            url_import,
            maker: maker.clone(),
            stats,
            health,
            metrics: Some(metrics),
            keys: chat.keys,
            chat: chat.chat,
            chat_gate: chat.gate,
            commands: chat.commands,
            integrations: chat.integrations.clone(),
            join,
            members: Arc::new(
                gifshelf_app::members::MemberService::new(users.clone(), clock.clone()).with_audit(audit.clone()),
            ),
            accounts: Arc::new(account_service(settings, &users, &gifs, &clock, &audit)?),
            moderation: Arc::new(
                gifshelf_app::moderation::ModerationService::new(users.clone(), users.clone(), clock.clone())
                    .with_audit(audit.clone()),
            ),
            audit,
            users,
            settings: http_settings(settings, listening),
            clock: clock.clone(),
        };

        let server = gifshelf_http::serve(listener, state).map_err(|e| StartupError::Other(e.to_string()))?;
        Ok(Self {
            port,
            server,
            gifs,
            sweep_every: std::time::Duration::from_secs(settings.sweep_interval_secs),
            queue,
            runners,
            job_workers: settings.job_workers,
            jobs: settings.jobs,
            job_poll: settings.job_poll,
            clock,
            integrations: chat.integrations,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Serves until SIGINT or SIGTERM; in-flight requests finish first.
    ///
    /// # Errors
    /// When the server fails.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        // Secrets an earlier version stored in clear are protected before the first request.
        match self.integrations.protect_stored().await {
            Ok(0) => {}
            Ok(changed) => tracing::info!(changed, "integration secrets stored in clear were converted"),
            Err(err) => tracing::error!(error = %err, "could not protect the integration secrets stored in clear"),
        }
        // Sweeps at startup and then every `sweep_every`: leftovers of uploads interrupted by a crash
        // or a lost connection (never young blobs, which may belong to an upload in progress on
        // this or another instance).
        // Shared rate-limit counters are forgotten two days after their last count (a streak
        // lives a day).
        let gifs = self.gifs.clone();
        let every = self.sweep_every;
        let counters = shared_counters(&self.queue);
        let clock = self.clock.clone();
        let sweeper = tokio::spawn(async move {
            loop {
                if let Err(err) = gifs.fsck(false).await {
                    tracing::warn!(error = %err, "consistency sweep failed");
                }
                if let Some(counters) = &counters {
                    if let Err(err) = counters.forget_older(clock.now() - chrono::Duration::days(2)).await {
                        tracing::warn!(error = %err, "could not forget old rate-limit counters");
                    }
                }
                tokio::time::sleep(every).await;
            }
        });
        let workers = crate::workers::Workers::start(
            self.job_workers,
            self.queue,
            self.runners,
            self.jobs,
            self.job_poll,
            self.clock,
        );
        let served = self.server.await;
        sweeper.abort();
        workers.stop().await;
        served
    }
}
