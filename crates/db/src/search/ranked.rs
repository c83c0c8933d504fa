//! Ranking every match, however many. Each searched text is looked up once in an index that
//! says in which field of which GIF it is (SQLite: `gifs_fts_fields`, a trigram row per field;
//! PostgreSQL: `gif_words.fields`, migration 000030, read through the words' posting lists,
//! migration 000031),
//! the GIFs' scores are summed here, and only the GIFs of the page's scores are put in the
//! sort's tie-break order.

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashSet};

use diesel::sql_types::{BigInt, Binary, Text};
use diesel::QueryableByName;
use diesel::RunQueryDsl;
use gifshelf_domain::gif::GifSort;
use gifshelf_domain::RepoError;

use super::{fts_query, order_by, Sql, Term};
use crate::connection::AnyConnection;
use crate::error::repo_error;
use crate::gifs::listing::library_size;

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
/// these texts. SQLite's field index has a row per field (rowid = id * 4 + field); on PostgreSQL
/// a text is found in the words that contain it, whose posting lists carry each GIF's fields.
fn fields_of(conn: &mut AnyConnection, texts: &[String]) -> Result<Fields, RepoError> {
    let term = Term { any_of: texts.to_vec() };
    let mut sql = Sql::new(conn);
    if !sql.postgres {
        let matched = sql.text(fts_query(&[&term]));
        let query = format!(
            "SELECT rowid >> 2 AS id, 1 << (rowid & 3) AS fields FROM gifs_fts_fields \
             WHERE gifs_fts_fields MATCH {matched}"
        );
        let rows: Vec<FieldsRow> = sql.load(conn, &query)?;
        return Ok(merged(rows.into_iter().map(|r| r.id * 16 + (r.fields & 15)).collect()));
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
        return Ok(Vec::new());
    }
    // Words hold no white space: a line break separates them. A common word is in a six-figure
    // number of GIFs: they are read from its posting lists (migration 000031), a row per 16,384
    // ids, not from as many rows of gif_words.
    let AnyConnection::Postgresql(pg) = conn else { return Ok(Vec::new()) };
    let lists: Vec<PackedRow> =
        diesel::sql_query("SELECT packed FROM word_postings WHERE word = ANY(string_to_array($1, E'\\n'))")
            .bind::<Text, _>(words.join("\n"))
            .load(pg)
            .map_err(repo_error)?;
    // Each entry is 8 big-endian bytes.
    let mut packed = Vec::with_capacity(lists.iter().map(|l| l.packed.len() / 8).sum());
    for list in &lists {
        packed.extend(
            list.packed.chunks_exact(8).map(|b| i64::from_be_bytes(<[u8; 8]>::try_from(b).unwrap_or_default())),
        );
    }
    Ok(merged(packed))
}

#[derive(QueryableByName)]
#[diesel(check_for_backend(diesel::pg::Pg))]
struct PackedRow {
    #[diesel(sql_type = Binary)]
    packed: Vec<u8>,
}

/// GIFs with the bit mask of their fields, one entry per GIF, by ascending id.
type Fields = Vec<(i64, u8)>;

/// Entries of `id * 16 + fields`, in any order and repeated (a GIF in several words or fields),
/// as one entry per GIF: sorted, then merged in one pass (a common word's 173,000 entries take a
/// few milliseconds, where a hash map took several times that).
fn merged(mut packed: Vec<i64>) -> Fields {
    packed.sort_unstable();
    let mut fields: Fields = Vec::with_capacity(packed.len());
    for value in packed {
        let (id, mask) = (value >> 4, u8::try_from(value & 15).unwrap_or_default());
        match fields.last_mut() {
            Some((last, so_far)) if *last == id => *so_far |= mask,
            _ => fields.push((id, mask)),
        }
    }
    fields
}

/// Each GIF found by the word or by a typo, with its score for this term, by ascending id.
fn term_scores(exact: &[(i64, u8)], typo: &[(i64, u8)]) -> Vec<(i64, i64)> {
    let mut scores = Vec::with_capacity(exact.len() + typo.len());
    let (mut e, mut t) = (0, 0);
    while e < exact.len() || t < typo.len() {
        let found = match (exact.get(e), typo.get(t)) {
            (Some(&(a, x)), Some(&(b, y))) if a == b => {
                (e, t) = (e + 1, t + 1);
                (a, Found { exact: x, typo: y })
            }
            (Some(&(a, x)), next) if next.is_none_or(|&(b, _)| a < b) => {
                e += 1;
                (a, Found { exact: x, typo: 0 })
            }
            (_, Some(&(b, y))) => {
                t += 1;
                (b, Found { exact: 0, typo: y })
            }
            // Both lists read (the guard above takes a word's GIF with no typo list left).
            _ => break,
        };
        scores.push((found.0, found.1.score()));
    }
    scores
}

/// The GIFs in both lists (by ascending id), their scores summed.
fn both(a: &[(i64, i64)], b: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let mut kept = Vec::with_capacity(a.len().min(b.len()));
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                kept.push((a[i].0, a[i].1 + b[j].1));
                (i, j) = (i + 1, j + 1);
            }
        }
    }
    kept
}

/// Every GIF matching every term, with its score, by ascending id.
fn scored(conn: &mut AnyConnection, terms: &[Term]) -> Result<Vec<(i64, i64)>, RepoError> {
    let mut scores: Option<Vec<(i64, i64)>> = None;
    for term in terms {
        let exact = fields_of(conn, &term.any_of[..1])?;
        let typo = if term.any_of.len() > 1 { fields_of(conn, &term.any_of[1..])? } else { Vec::new() };
        let found = term_scores(&exact, &typo);
        scores = Some(match scores {
            None => found,
            Some(so_far) => both(&so_far, &found),
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

/// At most this many GIFs of one score are put in order by reading them by id; a larger group
/// is ordered by walking the sort's index from its start, which stops at the page's end.
const ORDER_BY_ID_MAX: usize = 2_000;

/// Walking the sort's index reads a row for far less than reading a GIF by id: a group is walked
/// while the walk reads at most this many rows for each of its GIFs.
const WALK_PER_ID: usize = 4;

/// A ranked page and the number of matches: the scores order the matches; within a score, the
/// GIFs of the page are found in the sort's tie-break order.
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
        let left_out: HashSet<i64> = left_out_ids(conn, left_out)?.into_iter().collect();
        scores.retain(|(id, _)| !left_out.contains(id));
    }
    let total = i64::try_from(scores.len()).unwrap_or(i64::MAX);
    let (Ok(start), Ok(limit)) = (usize::try_from(offset), usize::try_from(limit)) else {
        return Ok((Vec::new(), total));
    };
    if start >= scores.len() || limit == 0 {
        return Ok((Vec::new(), total));
    }
    let end = scores.len().min(start.saturating_add(limit));
    // The GIFs of each score, highest first; only the groups the page overlaps are ordered.
    let mut groups: BTreeMap<Reverse<i64>, Vec<i64>> = BTreeMap::new();
    for (id, score) in scores {
        groups.entry(Reverse(score)).or_default().push(id);
    }
    let mut page = Vec::with_capacity(end - start);
    let mut before = 0;
    for ids in groups.into_values() {
        if before >= end {
            break;
        }
        let count = ids.len();
        if before + count > start {
            let (from, to) = (start.saturating_sub(before), count.min(end - before));
            page.extend(part_in_order(conn, &ids, from, to, sort)?);
        }
        before += count;
    }
    Ok((page, total))
}

/// The GIFs at positions `from..to` of `ids` in the sort's tie-break order.
fn part_in_order(
    conn: &mut AnyConnection,
    ids: &[i64],
    from: usize,
    to: usize,
    sort: GifSort,
) -> Result<Vec<i64>, RepoError> {
    if ids.len() > ORDER_BY_ID_MAX {
        // These GIFs are spread over the library: finding `to` of them reads about
        // `to * library / ids.len()` rows of the sort's index.
        let library = usize::try_from(library_size(conn)?).unwrap_or(usize::MAX).max(ids.len());
        let walk = to.saturating_mul(library) / ids.len();
        if walk <= ids.len().saturating_mul(WALK_PER_ID) {
            return walked(conn, ids, from, to, sort, walk);
        }
    }
    Ok(in_order(conn, ids, sort)?.into_iter().skip(from).take(to - from).collect())
}

/// The GIFs at positions `from..to` of `ids`, found by walking the sort's index from its start;
/// `expected` is about how many rows that takes. A walk that finds too few goes further.
fn walked(
    conn: &mut AnyConnection,
    ids: &[i64],
    from: usize,
    to: usize,
    sort: GifSort,
    expected: usize,
) -> Result<Vec<i64>, RepoError> {
    let wanted: HashSet<i64> = ids.iter().copied().collect();
    let mut rows = expected.saturating_add(expected / 2).saturating_add(256);
    loop {
        let mut sql = Sql::new(conn);
        let limit = sql.int(i64::try_from(rows).unwrap_or(i64::MAX));
        let order = order_by(sort);
        let read = sql.ids(conn, &format!("SELECT id FROM gifs ORDER BY {order} LIMIT {limit}"))?;
        let found: Vec<i64> = read.iter().copied().filter(|id| wanted.contains(id)).take(to).collect();
        // The whole index read and still short: GIFs deleted since they were scored.
        if found.len() == to || read.len() < rows {
            return Ok(found.into_iter().skip(from).collect());
        }
        rows = rows.saturating_mul(4);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_become_one_per_gif_with_every_field() {
        // GIF 7 in the title (1) through one word and a tag (2) through another; GIF 3 once.
        assert_eq!(merged(vec![7 * 16 + 1, 3 * 16 + 4, 7 * 16 + 2, 7 * 16 + 1]), vec![(3, 4), (7, 3)]);
        assert!(merged(Vec::new()).is_empty());
    }

    #[test]
    fn a_typo_counts_a_sixteenth_and_never_outweighs_the_word() {
        let exact = [(1, 0b0100), (5, 0b0001)];
        let typo = [(1, 0b0001), (9, 0b1111)];
        // 1: description 32, title by typo 8; 5: title 128; 9: every field by typo 15.
        assert_eq!(term_scores(&exact, &typo), vec![(1, 40), (5, 128), (9, 15)]);
        assert_eq!(term_scores(&[], &typo), vec![(1, 8), (9, 15)]);
    }

    #[test]
    fn every_term_must_match_and_the_scores_add_up() {
        let a = [(1, 128), (2, 32), (4, 16)];
        let b = [(2, 64), (3, 64), (4, 8)];
        assert_eq!(both(&a, &b), vec![(2, 96), (4, 24)]);
        assert!(both(&a, &[]).is_empty());
    }
}
