//! The OpenAPI 3.1 description of the API, generated from the handlers and DTOs (utoipa), served at
//! `/api/openapi.json`, with an interactive reference at `/api/docs`. `docs/openapi.json` holds a
//! copy; a test fails when the two drift (`GIFSHELF_UPDATE_OPENAPI=1` rewrites it).

use std::sync::OnceLock;

use actix_web::{get, web, HttpResponse};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "gifshelf API",
        description = "The HTTP API of gifshelf, a self-hostable GIF library. Every error is JSON \
                       `{\"error\": \"<sentence>\", \"code\": \"<machine code>\"}`. JSON endpoints need a \
                       bearer token from `POST /api/auth/login` (or `/api/auth/google`) except the auth, \
                       health and config endpoints; media endpoints take the bearer token or the session cookie sign-in sets, \
                       and public bytes exist only under unguessable share ids (`/s/{shareId}`).",
        license(name = "AGPL-3.0-or-later", identifier = "AGPL-3.0-or-later")
    ),
    paths(
        super::meta::health,
        super::meta::live,
        super::meta::ready,
        crate::metrics::metrics,
        super::meta::config,
        super::auth::register,
        super::auth::login,
        super::auth::google,
        super::auth::session,
        super::auth::logout,
        super::settings::get_profile,
        super::settings::update_profile,
        super::settings::change_password,
        super::settings::list_identities,
        super::settings::link_identity,
        super::settings::unlink_identity,
        super::settings::export_zip,
        super::gifs::list_all,
        super::gifs::list_by_tag,
        super::gifs::list_by_user,
        super::gifs::search,
        super::gifs::suggestions,
        super::gifs::list_favourites,
        super::gifs::random,
        super::gifs::add_favourite,
        super::gifs::remove_favourite,
        super::gifs::detail,
        super::gifs::upload,
        super::gifs::looks_like,
        super::gifs::duplicate_groups,
        super::gifs::update,
        super::gifs::remove,
        super::collections::bulk,
        super::collections::list,
        super::collections::create,
        super::collections::one,
        super::collections::update,
        super::collections::remove,
        super::collections::add_gif,
        super::collections::remove_gif,
        super::collections::order,
        super::collections::list_gifs,
        super::collections::set_sharing,
        super::intake::from_url,
        super::intake::oembed,
        super::make::start,
        super::make::status,
        super::media::content,
        super::media::thumbnail,
        super::media::static_thumbnail,
        super::media::rendition_file,
        super::keys::create,
        super::keys::list,
        super::keys::revoke,
        super::join::get_policy,
        super::join::set_policy,
        super::join::create,
        super::join::list,
        super::join::revoke,
        super::integrations::list,
        super::integrations::create,
        super::integrations::update,
        super::integrations::remove,
        super::members::list,
        super::members::update,
        super::accounts::remove,
        super::accounts::reset_link,
        super::accounts::reset_password,
        super::accounts::default_quota,
        super::accounts::set_default_quota,
        super::accounts::member_quota,
        super::accounts::set_member_quota,
        super::accounts::usage,
        super::moderation::file_report,
        super::moderation::queue,
        super::moderation::resolve,
        super::moderation::hidden_list,
        super::moderation::visibility,
        crate::chat::commands::command,
        crate::chat::commands::discord::interaction,
        crate::chat::commands::telegram::update,
        crate::chat::commands::teams::outgoing,
        crate::chat::commands::rocketchat::outgoing,
        super::media::renditions,
        super::tags::list,
        super::tags::one,
        super::tags::create,
        super::tags::rename,
        super::tags::remove,
        super::tags::delete_empty,
        super::stats::overview,
        super::stats::detailed,
        super::stats::by_size,
        super::stats::by_tag,
        super::stats::by_activity,
        super::stats::by_type,
        super::audit::events,
    ),
    modifiers(&BearerAuth),
    tags(
        (name = "auth", description = "Accounts and sessions"),
        (name = "settings", description = "Your profile and password"),
        (name = "join", description = "Who may join: the registration policy and invitations"),
        (name = "keys", description = "Your API keys for the chat-compatible APIs"),
        (name = "integrations", description = "Slash commands from Slack, Mattermost and Zulip, and the secrets they are checked with (admins)"),
        (name = "members", description = "The accounts of the server: roles, disabling (admins)"),
        (name = "moderation", description = "Reports of GIFs, the admins' queue, hidden GIFs"),
        (name = "gifs", description = "Browse, search, upload, edit and delete GIFs"),
        (name = "collections", description = "Collections a team curates, and bulk edits of GIFs"),
        (name = "media", description = "Image bytes for signed-in people (public only under share ids, /s/…)"),
        (name = "tags", description = "Tags and their curation"),
        (name = "stats", description = "Statistics for admins"),
        (name = "admin", description = "Members, invitations, moderation and the audit log (admins)"),
        (name = "meta", description = "Health and public configuration"),
    )
)]
struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let scheme = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .bearer_format("JWT")
            .description(Some("A session token from POST /api/auth/login or /api/auth/google"))
            .build();
        openapi
            .components
            .get_or_insert_with(Default::default)
            .add_security_scheme("bearer", SecurityScheme::Http(scheme));
        let cookie =
            utoipa::openapi::security::ApiKey::Cookie(utoipa::openapi::security::ApiKeyValue::with_description(
                "gifshelf_session",
                "The session cookie sign-in sets (HttpOnly, SameSite=Strict); media reads only",
            ));
        openapi
            .components
            .get_or_insert_with(Default::default)
            .add_security_scheme("session_cookie", SecurityScheme::ApiKey(cookie));
    }
}

/// The document as pretty JSON (what `docs/openapi.json` holds).
pub fn openapi_json() -> String {
    ApiDoc::openapi().to_pretty_json().unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

fn cached() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(openapi_json)
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(document).service(reference).service(reference_script);
}

#[get("/openapi.json")]
async fn document() -> HttpResponse {
    HttpResponse::Ok().content_type("application/json").body(cached())
}

/// The interactive reference: Swagger UI from the SPA's build (`/api-docs/`), no third-party origin.
#[get("/docs")]
async fn reference() -> HttpResponse {
    HttpResponse::Ok().content_type("text/html; charset=utf-8").insert_header(("Cache-Control", "no-cache")).body(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>gifshelf API reference</title>\n<link rel=\"stylesheet\" href=\"/api-docs/swagger-ui.css\">\n\
         </head>\n<body>\n<div id=\"swagger-ui\"></div>\n<script src=\"/api-docs/swagger-ui-bundle.js\"></script>\n\
         <script src=\"/api/docs/init.js\"></script>\n</body>\n</html>\n",
    )
}

#[get("/docs/init.js")]
async fn reference_script() -> HttpResponse {
    HttpResponse::Ok().content_type("text/javascript; charset=utf-8").insert_header(("Cache-Control", "no-cache")).body(
        "window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui', deepLinking: true, \
         persistAuthorization: false, tryItOutEnabled: false });\n",
    )
}
