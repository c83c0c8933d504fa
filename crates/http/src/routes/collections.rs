//! Collections (`/api/collections…`), the bulk edits of the gallery's "Select" mode
//! (`POST /api/gifs/bulk`). The public page of a shared collection (`/c/{shareId}`) is in `share.rs`.

use actix_web::{delete, get, post, put, web, HttpResponse};
use gifshelf_app::collections::{may_edit, BatchRequest, BatchStatus, CollectionInput};
use gifshelf_domain::collection::{Collection, CollectionId};
use gifshelf_domain::gif::GifId;

use super::gifs::Paging;
use crate::dto::{
    BulkRequest, BulkResponse, BulkResult, BulkStatus, CollectionDto, CollectionRequest, OrderRequest, PagedGifs,
    ShareRequest,
};
use crate::extract::SignedIn;
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(bulk)
        .service(list)
        .service(create)
        .service(one)
        .service(update)
        .service(remove)
        .service(add_gif)
        .service(remove_gif)
        .service(order)
        .service(list_gifs)
        .service(set_sharing);
}

fn input(body: &CollectionRequest) -> CollectionInput {
    CollectionInput {
        name: body.name.clone(),
        description: body.description.clone(),
        visibility: body.visibility.as_str().to_owned(),
    }
}

fn dto(user: &gifshelf_app::auth::Actor, collection: &Collection) -> CollectionDto {
    CollectionDto::of(collection, may_edit(user, collection))
}

#[utoipa::path(
    post,
    path = "/api/gifs/bulk",
    tag = "collections",
    summary = "Add tags, remove tags, add to a collection or delete up to 500 GIFs at once",
    description = "Each action is applied to every GIF the caller may change in one transaction (all or nothing); \
                   the others are reported per id: `forbidden` (not yours: tags need the uploader or an admin, \
                   delete the uploader) or `not_found`.",
    request_body = crate::dto::BulkRequest,
    responses((status = 415, description = "The body is not JSON (`unsupported_media_type`)", body = crate::dto::ApiErrorBody), (status = 200, description = "One result per distinct id", body = crate::dto::BulkResponse), (status = 400, description = "No GIF, more than 500, no action, a bad tag, or over 20 tags on a GIF (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "The collection is not yours (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such collection (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[post("/gifs/bulk")]
async fn bulk(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    body: web::Json<BulkRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let request = BatchRequest {
        ids: body.ids.into_iter().map(GifId).collect(),
        add_tags: body.add_tags,
        remove_tags: body.remove_tags,
        collection: body.collection_id.map(CollectionId),
        delete: body.delete,
    };
    let outcome = state.collections.apply_batch(&user, request).await?;
    let results = outcome
        .into_iter()
        .map(|(id, status)| BulkResult {
            id: id.0,
            status: match status {
                BatchStatus::Ok => BulkStatus::Ok,
                BatchStatus::Forbidden => BulkStatus::Forbidden,
                BatchStatus::NotFound => BulkStatus::NotFound,
            },
        })
        .collect();
    Ok(HttpResponse::Ok().json(BulkResponse { results }))
}

#[utoipa::path(
    get,
    path = "/api/collections",
    tag = "collections",
    summary = "Every team collection and your private ones, most recently changed first",
    responses((status = 200, description = "The collections", body = Vec<crate::dto::CollectionDto>), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/collections")]
async fn list(state: web::Data<AppState>, SignedIn(user): SignedIn) -> Result<HttpResponse, ApiError> {
    let all = state.collections.list(&user).await?;
    Ok(HttpResponse::Ok().json(all.iter().map(|c| dto(&user, c)).collect::<Vec<_>>()))
}

#[utoipa::path(
    post,
    path = "/api/collections",
    tag = "collections",
    summary = "Create a collection",
    request_body = crate::dto::CollectionRequest,
    responses((status = 415, description = "The body is not JSON (`unsupported_media_type`)", body = crate::dto::ApiErrorBody), (status = 201, description = "Created", body = crate::dto::CollectionDto), (status = 400, description = "Invalid input (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[post("/collections")]
async fn create(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    body: web::Json<CollectionRequest>,
) -> Result<HttpResponse, ApiError> {
    let mut collection = state.collections.create(&user, &input(&body)).await?;
    if body.sharing == Some(true) {
        collection = state.collections.share(&user, collection.id, true).await?;
    }
    Ok(HttpResponse::Created().json(dto(&user, &collection)))
}

#[utoipa::path(
    get,
    path = "/api/collections/{id}",
    tag = "collections",
    summary = "One collection",
    params(("id" = i64, Path, description = "Collection id")),
    responses((status = 200, description = "The collection", body = crate::dto::CollectionDto), (status = 400, description = "A malformed path parameter (`bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such collection, or someone else's private one (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/collections/{id}")]
async fn one(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let collection = state.collections.get(&user, CollectionId(*id)).await?;
    Ok(HttpResponse::Ok().json(dto(&user, &collection)))
}

#[utoipa::path(
    put,
    path = "/api/collections/{id}",
    tag = "collections",
    summary = "Rename, describe, change visibility or sharing (owner; admins for team collections)",
    params(("id" = i64, Path, description = "Collection id")),
    request_body = crate::dto::CollectionRequest,
    responses((status = 415, description = "The body is not JSON (`unsupported_media_type`)", body = crate::dto::ApiErrorBody), (status = 200, description = "The edited collection", body = crate::dto::CollectionDto), (status = 400, description = "Invalid input (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not yours (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such collection (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[put("/collections/{id}")]
async fn update(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    body: web::Json<CollectionRequest>,
) -> Result<HttpResponse, ApiError> {
    let collection = state.collections.update(&user, CollectionId(*id), &input(&body), body.sharing).await?;
    Ok(HttpResponse::Ok().json(dto(&user, &collection)))
}

#[utoipa::path(
    delete,
    path = "/api/collections/{id}",
    tag = "collections",
    summary = "Delete a collection (its GIFs stay)",
    params(("id" = i64, Path, description = "Collection id")),
    responses((status = 204, description = "Deleted"), (status = 400, description = "A malformed path parameter (`bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not yours (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such collection (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[delete("/collections/{id}")]
async fn remove(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    state.collections.delete(&user, CollectionId(*id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[utoipa::path(
    put,
    path = "/api/collections/{id}/gifs/{gifId}",
    tag = "collections",
    summary = "Add a GIF at the end (idempotent)",
    params(("id" = i64, Path, description = "Collection id"), ("gifId" = i64, Path, description = "GIF id")),
    responses((status = 204, description = "In the collection"), (status = 400, description = "A malformed path parameter (`bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not yours (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such collection or GIF (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[put("/collections/{id}/gifs/{gifId}")]
async fn add_gif(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    path: web::Path<(i64, i64)>,
) -> Result<HttpResponse, ApiError> {
    let (id, gif) = path.into_inner();
    state.collections.add_gif(&user, CollectionId(id), GifId(gif)).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[utoipa::path(
    delete,
    path = "/api/collections/{id}/gifs/{gifId}",
    tag = "collections",
    summary = "Take a GIF out of the collection (the GIF stays)",
    params(("id" = i64, Path, description = "Collection id"), ("gifId" = i64, Path, description = "GIF id")),
    responses((status = 204, description = "Not in the collection any more"), (status = 400, description = "A malformed path parameter (`bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not yours (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such collection (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[delete("/collections/{id}/gifs/{gifId}")]
async fn remove_gif(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    path: web::Path<(i64, i64)>,
) -> Result<HttpResponse, ApiError> {
    let (id, gif) = path.into_inner();
    state.collections.remove_gif(&user, CollectionId(id), GifId(gif)).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[utoipa::path(
    put,
    path = "/api/collections/{id}/order",
    tag = "collections",
    summary = "Put the GIFs in a new order (every GIF of the collection, once)",
    params(("id" = i64, Path, description = "Collection id")),
    request_body = crate::dto::OrderRequest,
    responses((status = 415, description = "The body is not JSON (`unsupported_media_type`)", body = crate::dto::ApiErrorBody), (status = 204, description = "Reordered"), (status = 400, description = "Not a permutation of the collection's GIFs (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not yours (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such collection (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[put("/collections/{id}/order")]
async fn order(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    body: web::Json<OrderRequest>,
) -> Result<HttpResponse, ApiError> {
    let order = body.into_inner().gif_ids.into_iter().map(GifId).collect();
    state.collections.reorder(&user, CollectionId(*id), order).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[utoipa::path(
    get,
    path = "/api/collections/{id}/gifs",
    tag = "collections",
    summary = "A page of the collection's GIFs, in its order",
    params(("id" = i64, Path, description = "Collection id"), Paging),
    responses((status = 200, description = "One page", body = crate::dto::PagedGifs), (status = 400, description = "Invalid paging (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such collection (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/collections/{id}/gifs")]
async fn list_gifs(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    paging: web::Query<Paging>,
) -> Result<HttpResponse, ApiError> {
    let page = state.collections.gifs(&user, CollectionId(*id), paging.request()?).await?;
    Ok(HttpResponse::Ok().json(PagedGifs::from(page)))
}

#[utoipa::path(
    put,
    path = "/api/collections/{id}/share",
    tag = "collections",
    summary = "Turn the public page /c/{shareId} on or off",
    params(("id" = i64, Path, description = "Collection id")),
    request_body = crate::dto::ShareRequest,
    responses((status = 415, description = "The body is not JSON (`unsupported_media_type`)", body = crate::dto::ApiErrorBody), (status = 200, description = "The collection with its share id (or none)", body = crate::dto::CollectionDto), (status = 400, description = "Invalid input (`bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not yours (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such collection (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[put("/collections/{id}/share")]
async fn set_sharing(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    body: web::Json<ShareRequest>,
) -> Result<HttpResponse, ApiError> {
    let collection = state.collections.share(&user, CollectionId(*id), body.enabled).await?;
    Ok(HttpResponse::Ok().json(dto(&user, &collection)))
}
