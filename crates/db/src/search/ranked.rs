//! Ranking every match, however many. Each searched text is looked up once in an index that
//! says in which field of which GIF it is (SQLite: `gifs_fts_fields`, a trigram row per field;
//! PostgreSQL: `gif_words.fields`, migration 000030),
//! the GIFs' scores are summed here, and only the GIFs that tie with the page's are read, for
//! the sort's tie-break.

use std::collections::HashMap;

use diesel::sql_types::BigInt;
use diesel::QueryableByName;
use gifshelf_domain::gif::GifSort;
use gifshelf_domain::RepoError;

use super::{fts_query, order_by, Sql, Term};
use crate::connection::AnyConnection;

/// The weight of a searched word found in a field, by field number (title, tags, description,
/// text in the GIF); a word only one typo away counts a sixteenth, so that the word found
/// anywhere ranks above every typo. `Sql::relevance` ranks with these weights too.
pub(super) const WEIGHTS: [i64; 4] = [128, 64, 32, 16];

/// A GIF's score for one term: the exact word's fields and the typos' fields, as bit masks.
#[derive(Clone, Copy, Default)]
struct Found {
    exact: u8,
    typo: u8,
}

impl Found {
    fn score(self) -> i64 {
        (0..4)
            .map(|f| {
                if self.exact & (1 << f) != 0 {
                    WEIGHTS[f]
                } else if self.typo & (1 << f) != 0 {
                    WEIGHTS[f] / 16
                } else {
                    0
                }
            })
            .sum()
    }
}

#[derive(QueryableByName)]
struct FieldsRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    fields: i64,
}

/// Whether the field index can rank these terms: every text has three characters or more, and
/// on PostgreSQL, whose index holds words, none is a phrase.
pub(super) fn can_rank(conn: &AnyConnection, terms: &[Term]) -> bool {
    let postgres = matches!(conn, AnyConnection::Postgresql(_));
    terms.iter().all(|t| t.indexed() && !(postgres && t.any_of.iter().any(|text| text.contains(' '))))
}

/// The fields (bit 0 title, 1 tags, 2 description, 3 text in the GIF) of each GIF holding one of
/// these texts. SQLite's field index has a row per field (rowid = id * 4 + field); PostgreSQL's
/// words carry their fields, and a text is found in the words that contain it.
fn fields_of(conn: &mut AnyConnection, texts: &[String]) -> Result<HashMap<i64, u8>, RepoError> {
    let term = Term { any_of: texts.to_vec() };
    let mut sql = Sql::new(conn);
    if !sql.postgres {
        let matched = sql.text(fts_query(&[&term]));
        let query = format!(
            "SELECT rowid >> 2 AS id, 1 << (rowid & 3) AS fields FROM gifs_fts_fields \
             WHERE gifs_fts_fields MATCH {matched}"
        );
        return Ok(collect(sql.load(conn, &query)?));
    }
    // The words first: asked in one statement with their GIFs, the planner may scan the whole
    // vocabulary instead of its trigram index.
    let likes = sql.likes("word", &term);
    let words: Vec<String> = sql
        .load::<super::WordRow>(conn, &format!("SELECT word FROM search_vocabulary WHERE {likes}"))?
        .into_iter()
        .map(|r| r.word)
        .collect();
    if words.is_empty() {
        return Ok(HashMap::new());
    }
    // Words hold no white space: a line break separates them.
    let mut sql = Sql::new(conn);
    let words = sql.text(words.join("\n"));
    let query = format!(
        "SELECT gif_id AS id, fields::bigint AS fields FROM gif_words WHERE word = ANY(string_to_array({words}, E'\\n'))"
    );
    Ok(collect(sql.load(conn, &query)?))
}

/// Each GIF's fields, from rows of some of them.
fn collect(rows: Vec<FieldsRow>) -> HashMap<i64, u8> {
    let mut fields: HashMap<i64, u8> = HashMap::with_capacity(rows.len());
    for row in rows {
        *fields.entry(row.id).or_default() |= u8::try_from(row.fields & 15).unwrap_or_default();
    }
    fields
}

/// Every GIF matching every term, with its score.
fn scored(conn: &mut AnyConnection, terms: &[Term]) -> Result<HashMap<i64, i64>, RepoError> {
    let mut scores: Option<HashMap<i64, i64>> = None;
    for term in terms {
        let mut found: HashMap<i64, Found> = HashMap::new();
        for (gif, exact) in fields_of(conn, &term.any_of[..1])? {
            found.entry(gif).or_default().exact = exact;
        }
        if term.any_of.len() > 1 {
            for (gif, typo) in fields_of(conn, &term.any_of[1..])? {
                found.entry(gif).or_default().typo = typo;
            }
        }
        scores = Some(match scores {
            None => found.into_iter().map(|(gif, f)| (gif, f.score())).collect(),
            Some(mut so_far) => {
                so_far.retain(|gif, score| match found.get(gif) {
                    Some(f) => {
                        *score += f.score();
                        true
                    }
                    None => false,
                });
                so_far
            }
        });
    }
    Ok(scores.unwrap_or_default())
}

/// The ids of the GIFs left out of this list (`left_out` is their condition).
fn left_out_ids(conn: &mut AnyConnection, left_out: &str) -> Result<Vec<i64>, RepoError> {
    Sql::new(conn).ids(conn, &format!("SELECT id FROM gifs WHERE {left_out}"))
}

/// These GIFs in the sort's tie-break order.
fn in_order(conn: &mut AnyConnection, ids: &[i64], sort: GifSort) -> Result<Vec<i64>, RepoError> {
    if ids.len() < 2 {
        return Ok(ids.to_vec());
    }
    let mut sql = Sql::new(conn);
    let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    let within = if sql.postgres {
        format!("id = ANY(string_to_array({}, ',')::bigint[])", sql.text(list))
    } else {
        format!("id IN (SELECT value FROM json_each({}))", sql.text(format!("[{list}]")))
    };
    sql.ids(conn, &format!("SELECT id FROM gifs WHERE {within} ORDER BY {}", order_by(sort)))
}

/// A ranked page and the number of matches: the scores order the matches; within a score, the
/// GIFs that tie with the page's are read in the sort's tie-break order.
pub(super) fn page(
    conn: &mut AnyConnection,
    terms: &[Term],
    sort: GifSort,
    limit: i64,
    offset: i64,
    left_out: Option<&str>,
) -> Result<(Vec<i64>, i64), RepoError> {
    let mut scores = scored(conn, terms)?;
    if let Some(left_out) = left_out {
        for id in left_out_ids(conn, left_out)? {
            scores.remove(&id);
        }
    }
    let total = i64::try_from(scores.len()).unwrap_or(i64::MAX);
    let (Ok(start), Ok(limit)) = (usize::try_from(offset), usize::try_from(limit)) else {
        return Ok((Vec::new(), total));
    };
    if start >= scores.len() || limit == 0 {
        return Ok((Vec::new(), total));
    }
    let end = scores.len().min(start.saturating_add(limit));
    let mut ranked: Vec<(i64, i64)> = scores.into_iter().map(|(id, score)| (score, id)).collect();
    ranked.sort_unstable_by(|a, b| b.cmp(a));
    // The scores of the first and last GIF of the page bound the groups to order by tie-break.
    let (high, low) = (ranked[start].0, ranked[end - 1].0);
    let first = ranked.partition_point(|(score, _)| *score > high);
    let mut ordered = Vec::with_capacity(end - first);
    let mut at = first;
    while at < ranked.len() && ranked[at].0 >= low {
        let score = ranked[at].0;
        let group_end = at + ranked[at..].partition_point(|(s, _)| *s == score);
        let ids: Vec<i64> = ranked[at..group_end].iter().map(|(_, id)| *id).collect();
        ordered.extend(in_order(conn, &ids, sort)?);
        at = group_end;
    }
    Ok((ordered.into_iter().skip(start - first).take(end - start).collect(), total))
}
