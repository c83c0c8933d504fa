#![doc = include_str!("../README.md")]

pub mod archive;
mod capped;
mod chat;
mod client;
mod compress;
pub mod dto;
mod error;
pub mod extract;
mod headers;
pub mod metrics;
mod request_log;
mod routes;
mod session_cookie;
mod spa;
mod state;
mod zip;

use actix_web::dev::Server;
use actix_web::{web, App, HttpServer};

pub use error::ApiError;
pub use routes::openapi_json;
pub use spa::web_app_built;
pub use state::{AppState, ChatCors, HttpSettings, MediaOffload};

/// Builds the actix server on an already bound listener (tests bind port 0 and read the port).
///
/// # Errors
/// When the listener cannot be used.
pub fn serve(listener: std::net::TcpListener, state: AppState) -> std::io::Result<Server> {
    let workers = state.settings.workers;
    let index = spa::index_html(&state.settings);
    let inline_hashes = headers::inline_script_hashes(&index);
    let data = web::Data::new(state);
    let server = HttpServer::new(move || {
        App::new()
            .app_data(data.clone())
            .app_data(error::json_config())
            .app_data(error::query_config())
            .app_data(error::path_config())
            .configure(chat::configure)
            .configure(metrics::configure)
            .configure(routes::configure)
            .configure(|cfg| spa::configure(cfg, &data.settings))
            .wrap(actix_web::middleware::from_fn(compress::json))
            .wrap(headers::security_headers(&data.settings, &inline_hashes))
            .wrap(actix_web::middleware::from_fn(headers::request_id))
            .wrap(actix_web::middleware::from_fn(metrics::record))
            .wrap(tracing_actix_web::TracingLogger::<request_log::RedactingRootSpan>::new())
    })
    .workers(workers)
    .shutdown_timeout(30)
    .listen(listener)?
    .run();
    Ok(server)
}
