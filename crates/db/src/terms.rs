//! `TermRepository` on diesel: searches counted per term and day, and suggestions from tag names,
//! titles, words of caption texts and searched terms.

use async_trait::async_trait;
use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text, Timestamp};
use gifshelf_domain::ports::TermRepository;
use gifshelf_domain::search::{Audience, Suggestion, SuggestionKind};
use gifshelf_domain::RepoError;

use crate::connection::{AnyConnection, Database};
use crate::error::repo_error;
use crate::gifs::listing::Shown;
use crate::schema::search_terms;
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

    async fn suggestions(&self, prefix: &str, audience: Audience, per_kind: i64) -> Result<Vec<Suggestion>, RepoError> {
        let prefix = prefix.to_owned();
        self.run(move |conn| {
            let shown = match audience {
                Audience::Member(user) => Shown::with_own(user.0),
                Audience::Chat(max) => Shown::rated(max),
            };
            // Nearly always nothing is left out: then no suggestion needs its GIFs checked.
            let shown = (shown.narrowed() || shown.left_out(conn)? > 0).then(|| shown.sql());
            let mut found = Vec::new();
            for kind in SuggestionKind::ALL {
                let texts = match kind {
                    SuggestionKind::Tag => tags_starting(conn, &prefix, shown.as_deref(), per_kind)?,
                    SuggestionKind::Title => titles_starting(conn, &prefix, shown.as_deref(), per_kind)?,
                    SuggestionKind::Caption => caption_words_starting(conn, &prefix, shown.as_deref(), per_kind)?,
                    SuggestionKind::Search => searches_starting(conn, &prefix, per_kind)?,
                };
                found.extend(texts.into_iter().map(|text| Suggestion { text, kind }));
            }
            Ok(found)
        })
        .await
    }
}

#[derive(QueryableByName)]
struct TextRow {
    #[diesel(sql_type = Text)]
    text: String,
}

/// Runs `sql` (its parameters written `{1}`, `{2}`, … in the order they appear, each once) with
/// these text parameters and then `limit`, answering the `text` column.
fn texts(conn: &mut AnyConnection, sql: &str, params: &[String], limit: i64) -> Result<Vec<String>, RepoError> {
    let mut numbered = sql.to_owned();
    for i in 1..=params.len() + 1 {
        let mark = match conn {
            AnyConnection::Sqlite(_) => "?".to_owned(),
            AnyConnection::Postgresql(_) => format!("${i}"),
        };
        numbered = numbered.replace(&format!("{{{i}}}"), &mark);
    }
    let rows: Vec<TextRow> = match conn {
        AnyConnection::Sqlite(c) => {
            let mut query = diesel::sql_query(numbered).into_boxed::<diesel::sqlite::Sqlite>();
            for p in params {
                query = query.bind::<Text, _>(p.clone());
            }
            query.bind::<BigInt, _>(limit).load(c)
        }
        AnyConnection::Postgresql(c) => {
            let mut query = diesel::sql_query(numbered).into_boxed::<diesel::pg::Pg>();
            for p in params {
                query = query.bind::<Text, _>(p.clone());
            }
            query.bind::<BigInt, _>(limit).load(c)
        }
    }
    .map_err(repo_error)?;
    Ok(rows.into_iter().map(|r| r.text).collect())
}

/// The first text after every text starting with `prefix` in any collation that orders letters
/// as usual (its last character's successor), so that `>= prefix AND < end` walks an index;
/// `LIKE` then keeps exactly the texts with the prefix.
fn prefix_end(prefix: &str) -> String {
    let mut chars: Vec<char> = prefix.chars().collect();
    match chars.pop().and_then(|last| char::from_u32(u32::from(last) + 1)) {
        Some(next) => chars.into_iter().chain([next]).collect(),
        None => format!("{prefix}\u{10FFFF}"),
    }
}

fn range(prefix: &str) -> Vec<String> {
    vec![prefix.to_owned(), prefix_end(prefix), prefix_pattern(prefix)]
}

/// Tags starting with `prefix` that some shown GIF carries, on most GIFs first.
fn tags_starting(
    conn: &mut AnyConnection,
    prefix: &str,
    shown: Option<&str>,
    limit: i64,
) -> Result<Vec<String>, RepoError> {
    let visible = shown.map_or_else(String::new, |shown| {
        format!(" AND EXISTS (SELECT 1 FROM gif_tags gt JOIN gifs ON gifs.id = gt.gif_id WHERE gt.tag_id = t.id AND {shown})")
    });
    let sql = format!(
        "SELECT t.name AS text FROM tags t JOIN stats_tags s ON s.tag_id = t.id \
         WHERE t.name >= {{1}} AND t.name < {{2}} AND t.name LIKE {{3}} ESCAPE '\\' AND s.gifs > 0{visible} \
         ORDER BY s.gifs DESC, t.name LIMIT {{4}}"
    );
    texts(conn, &sql, &range(prefix), limit)
}

/// Titles (lower case) of shown GIFs starting with `prefix`: of the first 200 in the title index,
/// the most viewed first (a short prefix matches many titles; the index walk stays bounded).
fn titles_starting(
    conn: &mut AnyConnection,
    prefix: &str,
    shown: Option<&str>,
    limit: i64,
) -> Result<Vec<String>, RepoError> {
    let visible = shown.map_or_else(String::new, |shown| format!(" AND {shown}"));
    let sql = format!(
        "SELECT text FROM (SELECT lower(title) AS text, view_count, id FROM gifs \
         WHERE lower(title) >= {{1}} AND lower(title) < {{2}} AND lower(title) LIKE {{3}} ESCAPE '\\'{visible} \
         ORDER BY lower(title), id LIMIT 200) candidates ORDER BY view_count DESC, id DESC LIMIT {{4}}"
    );
    let mut titles = texts(conn, &sql, &range(prefix), limit.saturating_mul(2))?;
    let mut seen = std::collections::HashSet::new();
    titles.retain(|t| seen.insert(t.clone()));
    titles.truncate(usize::try_from(limit).unwrap_or(0));
    Ok(titles)
}

/// Words of caption texts starting with `prefix` (its last word, when it has several), in most
/// GIFs first; with what came before it put back in front.
fn caption_words_starting(
    conn: &mut AnyConnection,
    prefix: &str,
    shown: Option<&str>,
    limit: i64,
) -> Result<Vec<String>, RepoError> {
    let (before, last) = match prefix.rsplit_once(' ') {
        Some((before, last)) => (format!("{before} "), last),
        None => (String::new(), prefix),
    };
    if last.chars().count() < gifshelf_domain::search::SUGGEST_MIN_CHARS {
        return Ok(Vec::new());
    }
    let words = match conn {
        AnyConnection::Sqlite(_) => {
            // The word index's vocabulary of the caption_text column: each word with its GIFs.
            let candidates = texts(
                conn,
                "SELECT term AS text FROM gifs_fts_words_vocab WHERE col = 'caption_text' \
                 AND term >= {1} AND term < {2} AND term LIKE {3} ESCAPE '\\' ORDER BY doc DESC, term LIMIT {4}",
                &range(last),
                if shown.is_some() { limit.saturating_mul(4) } else { limit },
            )?;
            match shown {
                None => candidates,
                Some(shown) => {
                    let mut kept = Vec::new();
                    for word in candidates {
                        let sql = format!(
                            "SELECT {{1}} AS text FROM gifs WHERE id IN (SELECT rowid FROM gifs_fts_words \
                             WHERE gifs_fts_words MATCH {{2}}) AND {shown} LIMIT {{3}}"
                        );
                        let matched = format!("caption_text : \"{}\"", word.replace('"', "\"\""));
                        if !texts(conn, &sql, &[word.clone(), matched], 1)?.is_empty() {
                            kept.push(word);
                        }
                    }
                    kept
                }
            }
        }
        AnyConnection::Postgresql(_) => {
            let visible = shown.map_or_else(String::new, |shown| {
                format!(" AND EXISTS (SELECT 1 FROM gifs WHERE gifs.id = c.gif_id AND {shown})")
            });
            let sql = format!(
                "SELECT word AS text FROM caption_words c WHERE word LIKE {{1}} ESCAPE '\\'{visible} \
                 GROUP BY word ORDER BY COUNT(*) DESC, word LIMIT {{2}}"
            );
            texts(conn, &sql, &[prefix_pattern(last)], limit)?
        }
    };
    let mut out: Vec<String> = words.into_iter().map(|w| format!("{before}{w}")).collect();
    out.truncate(usize::try_from(limit).unwrap_or(0));
    Ok(out)
}

/// Searched terms starting with `prefix`, searched most first.
fn searches_starting(conn: &mut AnyConnection, prefix: &str, limit: i64) -> Result<Vec<String>, RepoError> {
    texts(
        conn,
        "SELECT term AS text FROM search_terms WHERE term >= {1} AND term < {2} AND term LIKE {3} ESCAPE '\\' \
         GROUP BY term ORDER BY SUM(searches) DESC, term LIMIT {4}",
        &range(prefix),
        limit,
    )
}

#[cfg(test)]
mod tests {
    use super::prefix_end;

    #[test]
    fn a_prefix_range_ends_after_its_last_character() {
        assert_eq!(prefix_end("ha"), "hb");
        assert_eq!(prefix_end("this is"), "this it");
        assert_eq!(prefix_end("é"), "ê");
    }
}
