//! The built single-page app, with a history fallback: any non-API path that is not a file gets
//! `index.html`, and the client's router takes over. Unknown `/api` paths get a JSON 404.
//! Its files go out compressed when the browser accepts it (scripts and styles shrink to about a
//! quarter), and the hashed build files under `/assets/` may be cached for a year.
//! The files come from the binary itself (`embedded`, what `build.rs` found in `frontend/dist`),
//! or from a folder when `GIFSHELF_WEB_DIR` names one (development). A detail page's `index.html`
//! names the GIF's poster for the browser to fetch at once (`preload`).

mod embedded;
mod preload;

pub use embedded::web_app_built;

use actix_files::{Files, NamedFile};
use actix_web::body::MessageBody;
use actix_web::dev::{fn_service, ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, CacheControl, CacheDirective, HeaderValue};
use actix_web::middleware::{from_fn, Compress, Next};
use actix_web::{web, HttpResponse, ResponseError};

use crate::{ApiError, HttpSettings};

pub fn configure(cfg: &mut web::ServiceConfig, settings: &HttpSettings) {
    let Some(web_dir) = &settings.web_dir else {
        let app = web::scope("")
            .wrap(from_fn(immutable_assets))
            .wrap(from_fn(preload::preload_poster))
            .wrap(Compress::default())
            .default_service(web::to(embedded::serve));
        cfg.service(app);
        return;
    };
    let index = web_dir.join("index.html");
    let root_index = index.clone();
    let app = web::scope("")
        .wrap(from_fn(immutable_assets))
        .wrap(from_fn(preload::preload_poster))
        .wrap(Compress::default())
        .route(
            "/",
            web::get().to(move |req: actix_web::HttpRequest| {
                let index = root_index.clone();
                async move { index_response(&index, &req).await }
            }),
        );
    let files = Files::new("/", web_dir).use_etag(true).use_last_modified(true).prefer_utf8(true).default_handler(
        fn_service(move |req: ServiceRequest| {
            let index = index.clone();
            async move {
                let (req, _) = req.into_parts();
                let path = req.path();
                if path == "/api" || path.starts_with("/api/") {
                    let response = ApiError::not_found(format!("No API endpoint at {path}")).error_response();
                    return Ok(ServiceResponse::new(req, response));
                }
                let response = index_response(&index, &req).await;
                Ok(ServiceResponse::new(req, response))
            }
        }),
    );
    cfg.service(app.service(files));
}

/// The build names every file under `/assets/` after a hash of its content (webpack's
/// `[contenthash]`): a name never changes content, so browsers may keep it for a year.
async fn immutable_assets(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let hashed = req.path().starts_with("/assets/");
    let mut response = next.call(req).await?;
    // A missing build file gets the history fallback's `index.html`, which says `no-cache` itself.
    if hashed && response.status().is_success() && !response.headers().contains_key(header::CACHE_CONTROL) {
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=31536000, immutable"));
    }
    Ok(response)
}

/// `index.html`, never cached (its asset names change with every build).
async fn index_response(index: &std::path::Path, req: &actix_web::HttpRequest) -> HttpResponse {
    match NamedFile::open_async(index).await {
        Ok(file) => {
            let mut response = file.use_etag(false).use_last_modified(false).into_response(req);
            if let Ok(value) = CacheControl(vec![CacheDirective::NoCache]).to_string().parse() {
                response.headers_mut().insert(actix_web::http::header::CACHE_CONTROL, value);
            }
            response
        }
        Err(_) => HttpResponse::NotFound()
            .content_type("text/plain; charset=utf-8")
            .body("The web app is not built. Run `cargo xtask run`, which builds it."),
    }
}

/// The `index.html` the server sends (its inline scripts get CSP hashes).
pub fn index_html(settings: &HttpSettings) -> String {
    match &settings.web_dir {
        Some(dir) => std::fs::read_to_string(dir.join("index.html")).unwrap_or_default(),
        None => embedded::index_html().to_owned(),
    }
}

/// Any `/api/...` path no route matched.
pub async fn api_not_found(req: actix_web::HttpRequest) -> HttpResponse {
    ApiError::not_found(format!("No API endpoint at {}", req.path())).error_response()
}
