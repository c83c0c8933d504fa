//! `ReportRepository` on diesel: members' reports (`reports`, migration 000022) and the hidden
//! GIFs (`gifs.hidden_at`, `gifs.hidden_reason`). Hiding a GIF and closing its open reports happen
//! in one transaction.

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use gifshelf_domain::gif::{Gif, GifId, Page, PageRequest, Title};
use gifshelf_domain::ports::ReportRepository;
use gifshelf_domain::report::{
    NewReport, Report, ReportId, ReportNote, ReportReason, ReportStatus, ReportedGif, Resolution, VisibilityChange,
};
use gifshelf_domain::user::{UserId, Username};
use gifshelf_domain::RepoError;

use crate::connection::{write_tx, AnyConnection, Database};
use crate::error::repo_error;
use crate::gifs::{load_many, load_one};
use crate::schema::{gifs, reports, users};

#[derive(Queryable, Selectable)]
#[diesel(table_name = reports)]
struct ReportRow {
    id: i64,
    gif_id: i64,
    reporter_id: i64,
    reason: String,
    note: String,
    created_at: NaiveDateTime,
    resolution: Option<String>,
    resolved_by: Option<i64>,
    resolved_at: Option<NaiveDateTime>,
}

/// The reports with these ids, in this order, with their GIFs and the names of the people named
/// (three queries, whatever the number).
fn load_reports(conn: &mut AnyConnection, ids: &[i64]) -> Result<Vec<Report>, RepoError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<ReportRow> =
        reports::table.filter(reports::id.eq_any(ids)).select(ReportRow::as_select()).load(conn).map_err(repo_error)?;
    let gif_ids: Vec<i64> = rows.iter().map(|r| r.gif_id).collect();
    let found: Vec<(i64, String, i64, Option<NaiveDateTime>, String)> = gifs::table
        .inner_join(users::table)
        .filter(gifs::id.eq_any(&gif_ids))
        .select((gifs::id, gifs::title, gifs::uploader_id, gifs::hidden_at, users::username))
        .load(conn)
        .map_err(repo_error)?;
    let gifs_by_id: HashMap<i64, ReportedGif> = found
        .into_iter()
        .map(|(id, title, _, hidden_at, owner)| {
            let gif = ReportedGif {
                id: GifId(id),
                title: Title::from_trusted(title),
                owner: Username::from_trusted(owner),
                hidden: hidden_at.is_some(),
            };
            (id, gif)
        })
        .collect();
    let user_ids: Vec<i64> = rows.iter().flat_map(|r| [Some(r.reporter_id), r.resolved_by]).flatten().collect();
    let names: HashMap<i64, String> = users::table
        .filter(users::id.eq_any(&user_ids))
        .select((users::id, users::username))
        .load::<(i64, String)>(conn)
        .map_err(repo_error)?
        .into_iter()
        .collect();
    let name = |id: i64| Username::from_trusted(names.get(&id).cloned().unwrap_or_default());
    let mut by_id: HashMap<i64, Report> = rows
        .into_iter()
        .filter_map(|row| {
            let gif = gifs_by_id.get(&row.gif_id)?.clone();
            let report = Report {
                id: ReportId(row.id),
                gif,
                // A reason this version does not know (a newer version wrote it) reads as "other".
                reason: ReportReason::parse(&row.reason).unwrap_or(ReportReason::Other),
                note: ReportNote::from_trusted(row.note),
                reporter: name(row.reporter_id),
                created_at: row.created_at,
                resolution: row.resolution.as_deref().and_then(Resolution::from_stored),
                resolved_by: row.resolved_by.map(name),
                resolved_at: row.resolved_at,
            };
            Some((row.id, report))
        })
        .collect();
    Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
}

fn load_report(conn: &mut AnyConnection, id: i64) -> Result<Report, RepoError> {
    load_reports(conn, &[id])?.pop().ok_or(RepoError::NotFound)
}

/// Hides the GIF with `reason` and closes its open reports as hidden by `by`.
fn hide(conn: &mut AnyConnection, gif: i64, reason: &str, by: i64, at: NaiveDateTime) -> Result<(), RepoError> {
    let updated = diesel::update(gifs::table.find(gif))
        .set((gifs::hidden_at.eq(Some(at)), gifs::hidden_reason.eq(Some(reason))))
        .execute(conn)
        .map_err(repo_error)?;
    if updated == 0 {
        return Err(RepoError::NotFound);
    }
    diesel::update(reports::table.filter(reports::gif_id.eq(gif)).filter(reports::resolution.is_null()))
        .set((
            reports::resolution.eq(Some(Resolution::Hidden.as_str())),
            reports::resolved_by.eq(Some(by)),
            reports::resolved_at.eq(Some(at)),
        ))
        .execute(conn)
        .map_err(repo_error)?;
    Ok(())
}

#[async_trait]
impl ReportRepository for Database {
    async fn file_report(&self, report: NewReport) -> Result<(Report, bool), RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let open: Option<i64> = reports::table
                    .filter(reports::gif_id.eq(report.gif.0))
                    .filter(reports::reporter_id.eq(report.reporter.0))
                    .filter(reports::resolution.is_null())
                    .select(reports::id)
                    .first(conn)
                    .optional()
                    .map_err(repo_error)?;
                if let Some(id) = open {
                    return Ok((load_report(conn, id)?, false));
                }
                let id: i64 = diesel::insert_into(reports::table)
                    .values((
                        reports::gif_id.eq(report.gif.0),
                        reports::reporter_id.eq(report.reporter.0),
                        reports::reason.eq(report.reason.as_str()),
                        reports::note.eq(report.note.as_str()),
                        reports::created_at.eq(report.at),
                    ))
                    .returning(reports::id)
                    .get_result(conn)
                    .map_err(repo_error)?;
                Ok((load_report(conn, id)?, true))
            })
        })
        .await
    }

    async fn reports(&self, status: ReportStatus, page: PageRequest) -> Result<Page<Report>, RepoError> {
        self.run(move |conn| {
            let query = reports::table.select(reports::id).into_boxed();
            let (query, count) = match status {
                ReportStatus::Open => (
                    query.filter(reports::resolution.is_null()).order((reports::created_at.asc(), reports::id.asc())),
                    reports::table.filter(reports::resolution.is_null()).count().into_boxed(),
                ),
                ReportStatus::Closed => (
                    query
                        .filter(reports::resolution.is_not_null())
                        .order((reports::resolved_at.desc(), reports::id.desc())),
                    reports::table.filter(reports::resolution.is_not_null()).count().into_boxed(),
                ),
            };
            let ids: Vec<i64> =
                query.limit(i64::from(page.size)).offset(page.offset()).load(conn).map_err(repo_error)?;
            let total: i64 = count.get_result(conn).map_err(repo_error)?;
            Ok(Page { items: load_reports(conn, &ids)?, request: page, total })
        })
        .await
    }

    async fn report(&self, id: ReportId) -> Result<Report, RepoError> {
        self.run(move |conn| load_report(conn, id.0)).await
    }

    async fn resolve_report(
        &self,
        id: ReportId,
        resolution: Resolution,
        by: UserId,
        at: NaiveDateTime,
    ) -> Result<(Report, bool), RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let report = load_report(conn, id.0)?;
                if report.resolution.is_some() {
                    return Ok((report, false));
                }
                match resolution {
                    Resolution::Hidden => hide(conn, report.gif.id.0, report.reason.label(), by.0, at)?,
                    Resolution::Dismissed => {
                        diesel::update(reports::table.find(id.0))
                            .set((
                                reports::resolution.eq(Some(Resolution::Dismissed.as_str())),
                                reports::resolved_by.eq(Some(by.0)),
                                reports::resolved_at.eq(Some(at)),
                            ))
                            .execute(conn)
                            .map_err(repo_error)?;
                    }
                }
                Ok((load_report(conn, id.0)?, true))
            })
        })
        .await
    }

    async fn set_visibility(
        &self,
        gif: GifId,
        change: VisibilityChange,
        by: UserId,
        at: NaiveDateTime,
    ) -> Result<Gif, RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                match &change {
                    VisibilityChange::Hide { reason } => hide(conn, gif.0, reason, by.0, at)?,
                    VisibilityChange::Restore => {
                        let updated = diesel::update(gifs::table.find(gif.0))
                            .set((gifs::hidden_at.eq(None::<NaiveDateTime>), gifs::hidden_reason.eq(None::<String>)))
                            .execute(conn)
                            .map_err(repo_error)?;
                        if updated == 0 {
                            return Err(RepoError::NotFound);
                        }
                    }
                }
                load_one(conn, gif.0)
            })
        })
        .await
    }

    async fn hidden_gifs(&self, page: PageRequest) -> Result<Page<Gif>, RepoError> {
        self.run(move |conn| {
            let ids: Vec<i64> = gifs::table
                .filter(gifs::hidden_at.is_not_null())
                .order((gifs::hidden_at.desc(), gifs::id.desc()))
                .select(gifs::id)
                .limit(i64::from(page.size))
                .offset(page.offset())
                .load(conn)
                .map_err(repo_error)?;
            let total: i64 =
                gifs::table.filter(gifs::hidden_at.is_not_null()).count().get_result(conn).map_err(repo_error)?;
            Ok(Page { items: load_many(conn, &ids)?, request: page, total })
        })
        .await
    }
}
