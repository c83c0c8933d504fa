//! Search: genuinely different SQL per backend. SQLite asks its trigram FTS5 index for words of
//! three or more characters. PostgreSQL keeps each GIF's words (`gif_words`, migration 000013) and
//! a trigram index over the distinct words: a searched word finds the words containing it, then
//! their GIFs by key, so a count never rechecks the text of every match. Shorter words are matched
//! with `LIKE` on the rows the longer ones already narrowed down.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use gifshelf_domain::gif::GifSort;
use gifshelf_domain::RepoError;

use crate::connection::AnyConnection;
use crate::error::repo_error;
use crate::gifs::listing::Shown;

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
pub(crate) fn like_pattern(word: &str) -> String {
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

/// A page of the GIFs with every word, and their number. While no GIF is left out by `shown`
/// (nearly always: hidden GIFs are few), the indexes alone count; otherwise the condition joins
/// every query and the table counts.
pub(crate) fn page(
    conn: &mut AnyConnection,
    words: &[String],
    sort: GifSort,
    limit: i64,
    offset: i64,
    shown: Shown,
) -> Result<(Vec<i64>, i64), RepoError> {
    let shown = (shown.by_rating() || shown.left_out(conn)? > 0).then(|| shown.sql());
    match conn {
        AnyConnection::Sqlite(conn) => {
            let (long, short): (Vec<&String>, Vec<&String>) = words.iter().partition(|w| w.chars().count() >= 3);
            let mut clauses = Vec::new();
            if !long.is_empty() {
                clauses.push("id IN (SELECT rowid FROM gifs_fts WHERE gifs_fts MATCH ?)".to_owned());
            }
            clauses.extend(short.iter().map(|_| "search_text LIKE ? ESCAPE '\\'".to_owned()));
            clauses.extend(shown.clone());
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
            // The index holds exactly one row per GIF: when it alone decides, count it there
            // without touching the table.
            let count_sql = if short.is_empty() && shown.is_none() {
                "SELECT COUNT(*) AS count FROM gifs_fts WHERE gifs_fts MATCH ?".to_owned()
            } else {
                format!("SELECT COUNT(*) AS count FROM gifs WHERE {condition}")
            };
            let total: CountRow = bind_all(count_sql).get_result(conn).map_err(repo_error)?;
            if total.count == 0 || offset >= total.count {
                return Ok((Vec::new(), total.count));
            }
            let rows: Vec<IdRow> = if total.count <= SORT_BY_ID_MAX {
                bind_all(format!("SELECT id FROM gifs WHERE {condition} ORDER BY {} LIMIT ? OFFSET ?", order_by(sort)))
                    .bind::<BigInt, _>(limit)
                    .bind::<BigInt, _>(offset)
                    .load(conn)
                    .map_err(repo_error)?
            } else {
                // Many matches: walk the sort's index testing each text, instead of sorting them all.
                let mut tests: Vec<String> =
                    words.iter().map(|_| "search_text LIKE ? ESCAPE '\\'".to_owned()).collect();
                tests.extend(shown);
                let mut query = diesel::sql_query(format!(
                    "SELECT id FROM gifs WHERE {} ORDER BY {} LIMIT ? OFFSET ?",
                    tests.join(" AND "),
                    order_by(sort)
                ))
                .into_boxed::<diesel::sqlite::Sqlite>();
                for word in words {
                    query = query.bind::<Text, _>(like_pattern(word));
                }
                query.bind::<BigInt, _>(limit).bind::<BigInt, _>(offset).load(conn).map_err(repo_error)?
            };
            Ok((rows.into_iter().map(|r| r.id).collect(), total.count))
        }
        AnyConnection::Postgresql(conn) => postgres_page(conn, words, sort, limit, offset, shown.as_deref()),
    }
}

/// At most this many matches are read by id and sorted; more are found by walking the sort's index
/// and testing each GIF's text, which stops after the page.
const SORT_BY_ID_MAX: i64 = 2_000;

fn postgres_page(
    conn: &mut diesel::PgConnection,
    words: &[String],
    sort: GifSort,
    limit: i64,
    offset: i64,
    shown: Option<&str>,
) -> Result<(Vec<i64>, i64), RepoError> {
    let (long, short): (Vec<&String>, Vec<&String>) = words.iter().partition(|w| w.chars().count() >= 3);
    // Parameters: the long words' patterns first, then the short ones', then limit and offset.
    let patterns: Vec<String> = long.iter().chain(short.iter()).map(|w| like_pattern(w)).collect();
    let likes = |from: usize, to: usize| {
        let mut tests: Vec<String> = (from..to).map(|i| format!("search_text LIKE ${} ESCAPE '\\'", i + 1)).collect();
        tests.extend(shown.map(str::to_owned));
        tests
    };
    let bind_all = |sql: String| {
        let mut query = diesel::sql_query(sql).into_boxed::<diesel::pg::Pg>();
        for pattern in &patterns {
            query = query.bind::<Text, _>(pattern.clone());
        }
        query
    };
    let (n, all) = (long.len(), patterns.len());
    let walk = |conn: &mut diesel::PgConnection, condition: String| -> Result<Vec<i64>, RepoError> {
        let rows: Vec<IdRow> = bind_all(format!(
            "SELECT id FROM gifs WHERE {condition} ORDER BY {} LIMIT ${} OFFSET ${}",
            order_by(sort),
            all + 1,
            all + 2
        ))
        .bind::<BigInt, _>(limit)
        .bind::<BigInt, _>(offset)
        .load(conn)
        .map_err(repo_error)?;
        Ok(rows.into_iter().map(|r| r.id).collect())
    };
    if n == 0 {
        // Only short words: no index helps; the text of every GIF is tested.
        let condition = likes(0, all).join(" AND ");
        let ids = walk(conn, condition.clone())?;
        let total: CountRow = bind_all(format!("SELECT COUNT(*) AS count FROM gifs WHERE {condition}"))
            .get_result(conn)
            .map_err(repo_error)?;
        return Ok((ids, total.count));
    }
    // The GIFs having, for every long word, one of the words that contain it.
    let with_word = |i: usize| {
        format!(
            "SELECT gif_id FROM gif_words WHERE word IN \
             (SELECT word FROM search_vocabulary WHERE word LIKE ${} ESCAPE '\\')",
            i + 1
        )
    };
    let matches = if n == 1 {
        format!("SELECT DISTINCT gif_id FROM ({}) w", with_word(0))
    } else {
        (0..n).map(with_word).collect::<Vec<_>>().join(" INTERSECT ")
    };
    let short_condition: Vec<String> = likes(n, all);
    let count_sql = if short_condition.is_empty() && shown.is_none() {
        format!("SELECT COUNT(*) AS count FROM ({matches}) m")
    } else {
        format!("SELECT COUNT(*) AS count FROM gifs WHERE id IN ({matches}) AND {}", short_condition.join(" AND "))
    };
    let total: CountRow = bind_all(count_sql).get_result(conn).map_err(repo_error)?;
    if total.count == 0 || offset >= total.count {
        return Ok((Vec::new(), total.count));
    }
    let ids = if total.count <= SORT_BY_ID_MAX {
        let mut condition = vec![format!("id IN ({matches})")];
        condition.extend(short_condition);
        walk(conn, condition.join(" AND "))?
    } else {
        walk(conn, likes(0, all).join(" AND "))?
    };
    Ok((ids, total.count))
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
