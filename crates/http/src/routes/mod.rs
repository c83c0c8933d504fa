mod auth;
mod meta;
mod settings;

use actix_web::web;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/api")
            .configure(meta::configure)
            .configure(auth::configure)
            .configure(settings::configure)
            .default_service(web::to(crate::spa::api_not_found)),
    );
}
