mod accounts;
mod audit;
mod auth;
mod collections;
mod gifs;
mod intake;
mod integrations;
mod join;
mod keys;
mod make;
pub(crate) mod media;
mod members;
mod meta;
mod moderation;
mod openapi;
mod settings;
pub(crate) mod share;
mod stats;
mod tags;

use actix_web::web;

pub use openapi::openapi_json;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/api")
            .configure(meta::configure)
            .configure(openapi::configure)
            .configure(auth::configure)
            .configure(settings::configure)
            .configure(keys::configure)
            .configure(join::configure)
            .configure(integrations::configure)
            .configure(members::configure)
            .configure(accounts::configure)
            .configure(moderation::configure)
            .configure(crate::chat::commands::configure)
            .configure(media::configure)
            .configure(collections::configure)
            .configure(intake::configure)
            .configure(make::configure)
            .configure(gifs::configure)
            .configure(tags::configure)
            .configure(stats::configure)
            .configure(audit::configure)
            .default_service(web::to(crate::spa::api_not_found)),
    )
    .configure(share::configure);
}
