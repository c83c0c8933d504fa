#![doc = include_str!("../README.md")]

pub mod address;
mod og;

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use async_trait::async_trait;
use gifshelf_domain::ports::{FetchError, UrlFetcher};
use reqwest::header::{HeaderValue, ACCEPT, CONTENT_TYPE, LOCATION};
use reqwest::{Client, StatusCode, Url};

pub use address::{is_public, parse_list, Cidr};

/// Redirects followed per link (each one checked again).
pub const MAX_REDIRECTS: usize = 3;

/// How the fetcher behaves.
#[derive(Debug, Clone)]
pub struct FetchOptions {
    /// Ranges allowed despite the address rules (tests, intranets).
    pub allow: Vec<Cidr>,
    /// The time limit of connecting, of each read, and of the whole fetch (redirects and the
    /// hops to the media a page names included, as four times this).
    pub timeout: Duration,
}

/// Fetches images and videos named by links, never from private addresses; see the crate's README.
#[derive(Debug, Clone)]
pub struct LinkFetcher {
    options: FetchOptions,
}

/// One answer, read whole under the cap.
struct Body {
    url: Url,
    content_type: String,
    bytes: Vec<u8>,
}

impl LinkFetcher {
    pub fn new(options: FetchOptions) -> Self {
        Self { options }
    }

    /// Checks a link: scheme, credentials, and every address its host resolves to. Returns the
    /// address to connect to.
    async fn check(&self, url: &Url) -> Result<SocketAddr, FetchError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(FetchError::Refused("Only http and https links can be fetched.".into()));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(FetchError::Refused("Links with a user name or password are not fetched.".into()));
        }
        let port = url.port_or_known_default().unwrap_or(80);
        let addresses: Vec<IpAddr> = match url.host() {
            Some(url::Host::Ipv4(ip)) => vec![IpAddr::V4(ip)],
            Some(url::Host::Ipv6(ip)) => vec![IpAddr::V6(ip)],
            Some(url::Host::Domain(name)) => {
                let lookup = tokio::net::lookup_host((name, port));
                match tokio::time::timeout(self.options.timeout, lookup).await {
                    Ok(Ok(found)) => found.map(|a| a.ip()).collect(),
                    Ok(Err(_)) | Err(_) => {
                        return Err(FetchError::Failed(format!("The host {name} could not be found.")))
                    }
                }
            }
            None => return Err(FetchError::Refused("The link has no host.".into())),
        };
        let first = *addresses.first().ok_or_else(|| FetchError::Failed("The host has no address.".into()))?;
        if let Some(private) = addresses.iter().find(|ip| !self.allowed(**ip)) {
            tracing::info!(%url, %private, "link to a non-public address refused");
            return Err(FetchError::Refused(
                "The link leads to a private or reserved address, which the server does not fetch.".into(),
            ));
        }
        Ok(SocketAddr::new(first, port))
    }

    fn allowed(&self, ip: IpAddr) -> bool {
        is_public(ip) || self.options.allow.iter().any(|range| range.contains(ip))
    }

    /// A client that connects to `to` whatever the host name (no second lookup), with no
    /// redirects, proxies or cookies.
    fn client(&self, url: &Url, to: SocketAddr) -> Result<Client, FetchError> {
        let mut builder = Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .connect_timeout(self.options.timeout)
            .read_timeout(self.options.timeout)
            .user_agent(concat!("gifshelf/", env!("CARGO_PKG_VERSION"), " (link import)"));
        if let Some(name) = url.domain() {
            builder = builder.resolve(name, to);
        }
        builder.build().map_err(|e| FetchError::Failed(format!("The link could not be fetched: {e}")))
    }

    /// Follows a link and at most `MAX_REDIRECTS` redirects, each checked, and reads the final
    /// answer under the cap.
    async fn get(&self, link: &str, max_bytes: u64) -> Result<Body, FetchError> {
        let mut url = Url::parse(link).map_err(|_| FetchError::Refused("That is not a valid link.".into()))?;
        let mut redirects = 0;
        loop {
            let to = self.check(&url).await?;
            let response = self
                .client(&url, to)?
                .get(url.clone())
                .header(ACCEPT, HeaderValue::from_static("image/*, text/html;q=0.8, */*;q=0.5"))
                .send()
                .await
                .map_err(request_error)?;
            let status = response.status();
            if status.is_redirection() {
                let location = response.headers().get(LOCATION).and_then(|v| v.to_str().ok());
                let next = location
                    .and_then(|l| url.join(l).ok())
                    .ok_or_else(|| FetchError::Failed("The link redirects nowhere.".into()))?;
                redirects += 1;
                if redirects > MAX_REDIRECTS {
                    return Err(FetchError::Failed(format!("The link redirects more than {MAX_REDIRECTS} times.")));
                }
                url = next;
                continue;
            }
            if status != StatusCode::OK {
                return Err(FetchError::Failed(format!("The link answered {status}.")));
            }
            let too_large = || {
                FetchError::TooLarge(format!(
                    "The file at the link is larger than the limit of {} MB.",
                    max_bytes / (1024 * 1024)
                ))
            };
            if response.content_length().is_some_and(|len| len > max_bytes) {
                return Err(too_large());
            }
            let content_type = response
                .headers()
                .get(CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_ascii_lowercase();
            let mut response = response;
            let mut bytes = Vec::new();
            while let Some(chunk) = response.chunk().await.map_err(request_error)? {
                if (bytes.len() + chunk.len()) as u64 > max_bytes {
                    return Err(too_large());
                }
                bytes.extend_from_slice(&chunk);
            }
            return Ok(Body { url, content_type, bytes });
        }
    }

    /// The bytes at `link`; for an HTML page, those of the media it names (`wanted`), each
    /// fetched under the same rules.
    async fn fetch(&self, link: &str, max_bytes: u64, wanted: Wanted) -> Result<Vec<u8>, FetchError> {
        let body = self.get(link, max_bytes).await?;
        if !is_page(&body.content_type) {
            return Ok(body.bytes);
        }
        let page = String::from_utf8_lossy(&body.bytes);
        let mut named: Vec<String> = match wanted {
            Wanted::Image => Vec::new(),
            Wanted::Video => og::videos(&page).into_iter().take(MAX_VIDEOS_TRIED).collect(),
        };
        // A page without a video may still show an animation as its image (a GIF is a source too).
        named.extend(og::image(&page));
        let links: Vec<Url> = named.iter().filter_map(|found| body.url.join(found).ok()).collect();
        if links.is_empty() {
            return Err(FetchError::NoImage(match wanted {
                Wanted::Image => "The page does not name an image (og:image).".into(),
                Wanted::Video => "The page names no video (og:video) or image (og:image).".into(),
            }));
        }
        for link in &links {
            tracing::info!(page = %body.url, %link, "following the media the page names");
            let media = self.get(link.as_str(), max_bytes).await?;
            // An `og:video` may be a player page rather than the file: the next one is tried.
            if !is_page(&media.content_type) {
                return Ok(media.bytes);
            }
        }
        Err(FetchError::NoImage(match wanted {
            Wanted::Image => "The page's og:image is not an image.".into(),
            Wanted::Video => "The video the page names is a page, not a video file.".into(),
        }))
    }

    async fn fetch_within(&self, url: &str, max_bytes: u64, wanted: Wanted) -> Result<Vec<u8>, FetchError> {
        let whole = self.options.timeout * 4;
        match tokio::time::timeout(whole, self.fetch(url, max_bytes, wanted)).await {
            Ok(result) => result,
            Err(_) => Err(FetchError::Failed("The link took too long to answer.".into())),
        }
    }
}

/// What a page is followed for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wanted {
    Image,
    Video,
}

/// At most this many of the videos a page names are tried (a player page in `og:video` is
/// skipped for the next).
const MAX_VIDEOS_TRIED: usize = 2;

fn is_page(content_type: &str) -> bool {
    content_type.starts_with("text/html") || content_type.starts_with("application/xhtml")
}

fn request_error(err: reqwest::Error) -> FetchError {
    if err.is_timeout() {
        FetchError::Failed("The link took too long to answer.".into())
    } else if err.is_connect() {
        FetchError::Failed("The link's server could not be reached.".into())
    } else {
        FetchError::Failed("The link could not be fetched.".into())
    }
}

#[async_trait]
impl UrlFetcher for LinkFetcher {
    async fn fetch_image(&self, url: &str, max_bytes: u64) -> Result<Vec<u8>, FetchError> {
        self.fetch_within(url, max_bytes, Wanted::Image).await
    }

    async fn fetch_video(&self, url: &str, max_bytes: u64) -> Result<Vec<u8>, FetchError> {
        self.fetch_within(url, max_bytes, Wanted::Video).await
    }
}
