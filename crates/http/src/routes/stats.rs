//! The statistics dashboard (admins only).

use actix_web::{get, web, HttpResponse};
use gifshelf_app::stats::{bytes_to_mb, round2};
use gifshelf_domain::stats::GifStat;
use serde::Deserialize;

use crate::dto::{DetailedStats, GifStatRow, OverviewStats, UserStatRow};
use crate::extract::Admin;
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(overview).service(detailed).service(by_size).service(by_tag).service(by_activity).service(by_type);
}

fn pairs(list: Vec<(String, i64)>) -> Vec<(String, String)> {
    list.into_iter().map(|(label, n)| (label, n.to_string())).collect()
}

fn mb_text(bytes: f64) -> String {
    format!("{:.2}", bytes_to_mb(bytes))
}

fn gif_rows(rows: Vec<GifStat>) -> Vec<GifStatRow> {
    rows.into_iter()
        .map(|g| GifStatRow {
            id: g.id,
            title: g.title,
            size_mb: bytes_to_mb(g.size_bytes as f64),
            views: g.views,
            content_type: g.content_type,
        })
        .collect()
}

/// `?refresh=true`, as the dashboard's Refresh Data sends it: accepted (and checked to be a
/// boolean) for the clients that send it, though every read is fresh.
#[derive(Debug, Default, Deserialize)]
struct RefreshQuery {
    #[serde(default)]
    #[allow(dead_code)]
    refresh: bool,
}

#[utoipa::path(
    get,
    path = "/api/stats",
    tag = "stats",
    summary = "Application statistics (admins)",
    description = "Exact on every read (the figures are kept with the data); `lastUpdated` is the time of the read.",
    params(("refresh" = Option<bool>, Query, description = "Accepted for the dashboard's Refresh Data; every read is fresh")),
    responses((status = 200, description = "Figures", body = crate::dto::OverviewStats), (status = 400, description = "`refresh` is not `true` or `false` (`bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/stats")]
async fn overview(
    state: web::Data<AppState>,
    _admin: Admin,
    _refresh: web::Query<RefreshQuery>,
) -> Result<HttpResponse, ApiError> {
    let o = state.stats.overview().await?;
    let f = o.figures;
    Ok(HttpResponse::Ok().json(OverviewStats {
        total_gifs: f.total_gifs,
        total_users: f.total_users,
        total_tags: f.total_tags,
        empty_tags_count: f.empty_tags,
        total_views: f.total_views,
        average_tags_per_gif: o.average_tags_per_gif,
        average_gifs_per_user: o.average_gifs_per_user,
        average_views_per_gif: o.average_views_per_gif,
        total_content_size_bytes: f.total_content_bytes,
        total_content_size_mb: round2(o.total_content_mb),
        gifs_uploaded_today: f.uploaded_today,
        gifs_uploaded_this_week: f.uploaded_this_week,
        last_updated: crate::dto::iso(o.computed_at),
        most_used_tags: pairs(f.most_used_tags),
        top_users: pairs(f.top_users),
        most_viewed_gifs: pairs(f.most_viewed),
        most_favourited_gifs: pairs(f.most_favourited),
        total_shares: f.total_shares,
        most_shared_gifs: pairs(f.most_shared),
    }))
}

#[utoipa::path(
    get,
    path = "/api/stats/detailed",
    tag = "stats",
    summary = "Detailed statistics (admins)",
    description = "Exact on every read, like the overview.",
    params(("refresh" = Option<bool>, Query, description = "Accepted for the dashboard's Refresh Data; every read is fresh")),
    responses((status = 200, description = "Distributions", body = crate::dto::DetailedStats), (status = 400, description = "`refresh` is not `true` or `false` (`bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/stats/detailed")]
async fn detailed(
    state: web::Data<AppState>,
    _admin: Admin,
    _refresh: web::Query<RefreshQuery>,
) -> Result<HttpResponse, ApiError> {
    let d = state.stats.detailed().await?;
    Ok(HttpResponse::Ok().json(DetailedStats {
        daily_uploads_last_week: d.daily_uploads.into_iter().map(|(day, n)| (day.to_string(), n.to_string())).collect(),
        tag_distribution: pairs(d.tag_distribution),
        user_activity_stats: d
            .activity
            .into_iter()
            .map(|(level, n)| (level.label().to_owned(), n.to_string()))
            .collect(),
        size_buckets: d
            .size_buckets
            .into_iter()
            .map(|(bucket, n, avg)| (bucket.label().to_owned(), n.to_string(), mb_text(avg)))
            .collect(),
        content_type_stats: d.content_types.into_iter().map(|(t, n, avg)| (t, n.to_string(), mb_text(avg))).collect(),
    }))
}

#[utoipa::path(
    get,
    path = "/api/stats/detailed/size/{range}",
    tag = "stats",
    summary = "GIFs in a size range (admins)",
    params(("range" = inline(crate::dto::SizeRange), Path, description = "A size bucket label, e.g. `0-100KB`")),
    responses((status = 200, description = "The GIFs", body = Vec<crate::dto::GifStatRow>), (status = 400, description = "Unknown range (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/stats/detailed/size/{range}")]
async fn by_size(
    state: web::Data<AppState>,
    _admin: Admin,
    range: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(gif_rows(state.stats.gifs_in_range(&range).await?)))
}

#[utoipa::path(
    get,
    path = "/api/stats/detailed/tag/{tag}",
    tag = "stats",
    summary = "GIFs with a tag (admins)",
    params(("tag" = String, Path, description = "Tag name")),
    responses((status = 400, description = "A malformed path parameter (`bad_request`, `validation`)", body = crate::dto::ApiErrorBody), (status = 200, description = "The GIFs", body = Vec<crate::dto::GifStatRow>), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such tag (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/stats/detailed/tag/{tag}")]
async fn by_tag(state: web::Data<AppState>, _admin: Admin, tag: web::Path<String>) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(gif_rows(state.stats.gifs_with_tag(&tag).await?)))
}

#[utoipa::path(
    get,
    path = "/api/stats/detailed/activity/{level}",
    tag = "stats",
    summary = "Users at an activity level (admins)",
    params(("level" = inline(crate::dto::ActivityLevel), Path, description = "`inactive`, `casual`, `active` or `power`")),
    responses((status = 200, description = "The users", body = Vec<crate::dto::UserStatRow>), (status = 400, description = "Unknown level (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/stats/detailed/activity/{level}")]
async fn by_activity(
    state: web::Data<AppState>,
    _admin: Admin,
    level: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let users = state.stats.users_at_level(&level).await?;
    let rows: Vec<UserStatRow> =
        users.into_iter().map(|u| UserStatRow { id: u.id, username: u.username, gif_count: u.gif_count }).collect();
    Ok(HttpResponse::Ok().json(rows))
}

#[derive(Debug, Deserialize)]
struct TypeQuery {
    #[serde(rename = "type", default)]
    content_type: String,
}

#[utoipa::path(
    get,
    path = "/api/stats/detailed/content-type",
    tag = "stats",
    summary = "GIFs of a content type (admins)",
    params(("type" = Option<String>, Query, description = "A content type, e.g. `image/gif` (none: no GIFs)")),
    responses((status = 200, description = "The GIFs", body = Vec<crate::dto::GifStatRow>), (status = 400, description = "Missing type (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/stats/detailed/content-type")]
async fn by_type(
    state: web::Data<AppState>,
    _admin: Admin,
    query: web::Query<TypeQuery>,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(gif_rows(state.stats.gifs_of_type(&query.content_type).await?)))
}
