//! Search: genuinely different SQL per backend. SQLite asks its trigram FTS5 index for words of
//! three or more characters; PostgreSQL's pg_trgm GIN index serves `LIKE '%word%'`. Shorter words
//! are matched with `LIKE` on the rows the index already narrowed down.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use gifshelf_domain::gif::GifSort;
use gifshelf_domain::RepoError;

use crate::connection::AnyConnection;
use crate::error::repo_error;

#[derive(QueryableByName)]
pub(crate) struct IdRow {
    #[diesel(sql_type = BigInt)]
    pub(crate) id: i64,
}

#[derive(QueryableByName)]
struct CountRow {
    #[diesel(sql_type = BigInt)]
    count: i64,
}

/// `%word%` with LIKE's wildcards escaped (`\` is the escape character).
fn like_pattern(word: &str) -> String {
    format!("%{}", prefix_pattern(word))
}

/// A `LIKE … ESCAPE '\\'` pattern for text that starts with `prefix` taken literally.
pub(crate) fn prefix_pattern(prefix: &str) -> String {
    let mut pattern = String::with_capacity(prefix.len() + 1);
    for c in prefix.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

/// An FTS5 query that matches every word as a substring: `"w1" AND "w2"`.
fn fts_query(words: &[&String]) -> String {
    words.iter().map(|w| format!("\"{}\"", w.replace('"', "\"\""))).collect::<Vec<_>>().join(" AND ")
}

/// The `ORDER BY` of a sort, as in `gifs.rs`.
fn order_by(sort: GifSort) -> &'static str {
    match sort {
        GifSort::Newest => "uploaded_at DESC, id DESC",
        GifSort::Oldest => "uploaded_at ASC, id ASC",
        GifSort::Views => "view_count DESC, id DESC",
        GifSort::Favourites => "favourite_count DESC, id DESC",
        GifSort::Title => "lower(title) ASC, id ASC",
    }
}

pub(crate) fn page(
    conn: &mut AnyConnection,
    words: &[String],
    sort: GifSort,
    limit: i64,
    offset: i64,
) -> Result<(Vec<i64>, i64), RepoError> {
    match conn {
        AnyConnection::Sqlite(conn) => {
            let (long, short): (Vec<&String>, Vec<&String>) = words.iter().partition(|w| w.chars().count() >= 3);
            let mut clauses = Vec::new();
            if !long.is_empty() {
                clauses.push("id IN (SELECT rowid FROM gifs_fts WHERE gifs_fts MATCH ?)".to_owned());
            }
            clauses.extend(short.iter().map(|_| "search_text LIKE ? ESCAPE '\\'".to_owned()));
            let condition = clauses.join(" AND ");
            let bind_all = |sql: String| {
                let mut query = diesel::sql_query(sql).into_boxed::<diesel::sqlite::Sqlite>();
                if !long.is_empty() {
                    query = query.bind::<Text, _>(fts_query(&long));
                }
                for word in &short {
                    query = query.bind::<Text, _>(like_pattern(word));
                }
                query
            };
            let ids: Vec<IdRow> =
                bind_all(format!("SELECT id FROM gifs WHERE {condition} ORDER BY {} LIMIT ? OFFSET ?", order_by(sort)))
                    .bind::<BigInt, _>(limit)
                    .bind::<BigInt, _>(offset)
                    .load(conn)
                    .map_err(repo_error)?;
            // The index holds exactly one row per GIF: when it alone decides, count it there
            // without touching the table.
            let count_sql = if short.is_empty() {
                "SELECT COUNT(*) AS count FROM gifs_fts WHERE gifs_fts MATCH ?".to_owned()
            } else {
                format!("SELECT COUNT(*) AS count FROM gifs WHERE {condition}")
            };
            let total: CountRow = bind_all(count_sql).get_result(conn).map_err(repo_error)?;
            Ok((ids.into_iter().map(|r| r.id).collect(), total.count))
        }
        AnyConnection::Postgresql(conn) => {
            let condition = (1..=words.len())
                .map(|i| format!("search_text LIKE ${i} ESCAPE '\\'"))
                .collect::<Vec<_>>()
                .join(" AND ");
            let n = words.len();
            let bind_all = |sql: String| {
                let mut query = diesel::sql_query(sql).into_boxed::<diesel::pg::Pg>();
                for word in words {
                    query = query.bind::<Text, _>(like_pattern(word));
                }
                query
            };
            let ids: Vec<IdRow> = bind_all(format!(
                "SELECT id FROM gifs WHERE {condition} ORDER BY {} LIMIT ${} OFFSET ${}",
                order_by(sort),
                n + 1,
                n + 2
            ))
            .bind::<BigInt, _>(limit)
            .bind::<BigInt, _>(offset)
            .load(conn)
            .map_err(repo_error)?;
            let total: CountRow = bind_all(format!("SELECT COUNT(*) AS count FROM gifs WHERE {condition}"))
                .get_result(conn)
                .map_err(repo_error)?;
            Ok((ids.into_iter().map(|r| r.id).collect(), total.count))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_wildcards_are_escaped() {
        assert_eq!(like_pattern("50%_off\\"), "%50\\%\\_off\\\\%");
    }

    #[test]
    fn fts_words_are_quoted() {
        let words = ["cat".to_owned(), "say \"hi\"".to_owned()];
        assert_eq!(fts_query(&words.iter().collect::<Vec<_>>()), "\"cat\" AND \"say \"\"hi\"\"\"");
    }
}
