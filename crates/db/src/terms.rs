//! `TermRepository` on diesel: searches counted per term and day, and suggestions from tag names
//! and titles.

use async_trait::async_trait;
use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use diesel::prelude::*;
use diesel::sql_types::{Text, Timestamp};
use gifshelf_domain::ports::TermRepository;
use gifshelf_domain::RepoError;

use crate::connection::{AnyConnection, Database};
use crate::error::repo_error;
use crate::schema::{gif_tags, gifs, search_terms, tags};
use crate::search::prefix_pattern;

fn midnight(day: NaiveDate) -> NaiveDateTime {
    day.and_time(NaiveTime::MIN)
}

#[async_trait]
impl TermRepository for Database {
    async fn record_search(&self, term: &str, day: NaiveDate) -> Result<(), RepoError> {
        const UPSERT: &str = "INSERT INTO search_terms (term, day, searches) VALUES ({1}, {2}, 1) \
                              ON CONFLICT (term, day) DO UPDATE SET searches = search_terms.searches + 1";
        let term = term.to_owned();
        let day = midnight(day);
        self.run(move |conn| {
            match conn {
                AnyConnection::Sqlite(c) => diesel::sql_query(UPSERT.replace("{1}", "?").replace("{2}", "?"))
                    .bind::<Text, _>(&term)
                    .bind::<Timestamp, _>(day)
                    .execute(c),
                AnyConnection::Postgresql(c) => diesel::sql_query(UPSERT.replace("{1}", "$1").replace("{2}", "$2"))
                    .bind::<Text, _>(&term)
                    .bind::<Timestamp, _>(day)
                    .execute(c),
            }
            .map(drop)
            .map_err(repo_error)
        })
        .await
    }

    async fn trending_terms(&self, since: NaiveDate, limit: i64) -> Result<Vec<String>, RepoError> {
        let since = midnight(since);
        self.run(move |conn| {
            search_terms::table
                .filter(search_terms::day.ge(since))
                .group_by(search_terms::term)
                .select(search_terms::term)
                .order((diesel::dsl::sum(search_terms::searches).desc(), search_terms::term.asc()))
                .limit(limit)
                .load(conn)
                .map_err(repo_error)
        })
        .await
    }

    async fn suggest_terms(&self, prefix: &str, limit: i64) -> Result<Vec<String>, RepoError> {
        let pattern = prefix_pattern(prefix);
        self.run(move |conn| {
            // Hidden GIFs name nothing: neither their tags' counts nor their titles.
            let mut terms: Vec<String> = tags::table
                .inner_join(gif_tags::table.inner_join(gifs::table))
                .filter(gifs::hidden_at.is_null())
                .filter(tags::name.like(&pattern).escape('\\'))
                .group_by((tags::id, tags::name))
                .select(tags::name)
                .order((diesel::dsl::count(gif_tags::gif_id).desc(), tags::name.asc()))
                .limit(limit)
                .load(conn)
                .map_err(repo_error)?;
            if i64::try_from(terms.len()).unwrap_or(i64::MAX) < limit {
                let titles: Vec<String> = gifs::table
                    .filter(gifs::hidden_at.is_null())
                    .filter(
                        diesel::dsl::sql::<diesel::sql_types::Bool>("lower(title) LIKE ")
                            .bind::<Text, _>(&pattern)
                            .sql(" ESCAPE '\\'"),
                    )
                    .select(gifs::title)
                    .order((gifs::view_count.desc(), gifs::id.desc()))
                    .limit(limit)
                    .load(conn)
                    .map_err(repo_error)?;
                for title in titles {
                    let title = title.to_lowercase();
                    if !terms.contains(&title) {
                        terms.push(title);
                    }
                }
            }
            terms.truncate(usize::try_from(limit).unwrap_or(0));
            Ok(terms)
        })
        .await
    }
}
