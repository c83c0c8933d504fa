//! Search: genuinely different SQL per backend. SQLite asks its trigram FTS5 index for words of
//! three or more characters. PostgreSQL keeps each GIF's words (`gif_words`, migration 000013) and
//! a trigram index over the distinct words: a searched word finds the words containing it, then
//! their GIFs by key, so a count never rechecks the text of every match. Shorter words are matched
//! with `LIKE` on the rows the longer ones already narrowed down.
//!
//! A searched word is a word, a quoted phrase (words in order: a substring holding spaces), or a
//! word of five or more letters together with the words one typo from it that the vocabulary
//! holds (SQLite: the word index's `fts5vocab`; PostgreSQL: `search_vocabulary`), looked up as
//! the few hundred strings one edit away. Without a `sort`, the matches are ranked: the words in
//! the title weigh most, then in a tag, the description, the text in the GIF, and a typo's
//! matches come after the word's; ties newest first (the chat APIs: most viewed first). Every
//! match is ranked by the field index (`ranked.rs`); only a search with a word under three
//! letters (or, on PostgreSQL, a phrase), which that index cannot answer, is ranked in SQL here,
//! and past 2,000 matches listed in its tie-break's order.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use gifshelf_domain::gif::GifSort;
use gifshelf_domain::RepoError;

use crate::connection::AnyConnection;
use crate::error::repo_error;
use crate::gifs::listing::Shown;

mod ranked;

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

#[derive(QueryableByName)]
pub(super) struct WordRow {
    #[diesel(sql_type = Text)]
    pub(super) word: String,
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

/// One searched word as the SQL tests it: any of these texts (a word, a phrase, or a word and
/// its neighbours one typo away) must be found.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Term {
    any_of: Vec<String>,
}

impl Term {
    fn of(word: &str) -> Self {
        Self { any_of: vec![word.to_owned()] }
    }

    /// Whether the trigram index can answer it (every text has three characters or more).
    fn indexed(&self) -> bool {
        self.any_of.iter().all(|t| t.chars().count() >= 3)
    }
}

/// An FTS5 query that matches every term as a substring: `("w1" OR "w1b") AND "w2"`.
fn fts_query(terms: &[&Term]) -> String {
    let quoted = |t: &String| format!("\"{}\"", t.replace('"', "\"\""));
    terms
        .iter()
        .map(|term| match term.any_of.as_slice() {
            [one] => quoted(one),
            many => format!("({})", many.iter().map(quoted).collect::<Vec<_>>().join(" OR ")),
        })
        .collect::<Vec<_>>()
        .join(" AND ")
}

/// The `ORDER BY` of a sort, as in `gifs.rs`; relevance by its tie-break alone.
fn order_by(sort: GifSort) -> &'static str {
    match sort {
        GifSort::Newest | GifSort::Relevance => "uploaded_at DESC, id DESC",
        GifSort::Oldest => "uploaded_at ASC, id ASC",
        GifSort::Views | GifSort::RelevanceThenViews => "view_count DESC, id DESC",
        GifSort::Favourites => "favourite_count DESC, id DESC",
        GifSort::Title => "lower(title) ASC, id ASC",
    }
}

/// Raw SQL with numbered parameters (`?1` on SQLite, `$1` on PostgreSQL), so that a clause can
/// be written before the clauses it ends up after and a parameter can be used twice.
struct Sql {
    postgres: bool,
    binds: Vec<Bind>,
}

#[derive(Clone)]
enum Bind {
    Text(String),
    Int(i64),
}

impl Sql {
    fn new(conn: &AnyConnection) -> Self {
        Self { postgres: matches!(conn, AnyConnection::Postgresql(_)), binds: Vec::new() }
    }

    fn mark(&self, n: usize) -> String {
        if self.postgres {
            format!("${n}")
        } else {
            format!("?{n}")
        }
    }

    fn text(&mut self, value: String) -> String {
        self.binds.push(Bind::Text(value));
        self.mark(self.binds.len())
    }

    fn int(&mut self, value: i64) -> String {
        self.binds.push(Bind::Int(value));
        self.mark(self.binds.len())
    }

    fn load<R>(&self, conn: &mut AnyConnection, sql: &str) -> Result<Vec<R>, RepoError>
    where
        R: QueryableByName<diesel::sqlite::Sqlite> + QueryableByName<diesel::pg::Pg> + 'static,
    {
        match conn {
            AnyConnection::Sqlite(c) => {
                let mut query = diesel::sql_query(sql).into_boxed::<diesel::sqlite::Sqlite>();
                for bind in &self.binds {
                    query = match bind {
                        Bind::Text(t) => query.bind::<Text, _>(t.clone()),
                        Bind::Int(i) => query.bind::<BigInt, _>(*i),
                    };
                }
                query.load(c)
            }
            AnyConnection::Postgresql(c) => {
                let mut query = diesel::sql_query(sql).into_boxed::<diesel::pg::Pg>();
                for bind in &self.binds {
                    query = match bind {
                        Bind::Text(t) => query.bind::<Text, _>(t.clone()),
                        Bind::Int(i) => query.bind::<BigInt, _>(*i),
                    };
                }
                query.load(c)
            }
        }
        .map_err(repo_error)
    }

    fn count(&self, conn: &mut AnyConnection, sql: &str) -> Result<i64, RepoError> {
        Ok(self.load::<CountRow>(conn, sql)?.first().map_or(0, |r| r.count))
    }

    fn ids(&self, conn: &mut AnyConnection, sql: &str) -> Result<Vec<i64>, RepoError> {
        Ok(self.load::<IdRow>(conn, sql)?.into_iter().map(|r| r.id).collect())
    }

    /// `(column LIKE p1 ESCAPE '\' OR column LIKE p2 …)` for the term's texts.
    fn likes(&mut self, column: &str, term: &Term) -> String {
        let tests: Vec<String> =
            term.any_of.iter().map(|t| format!("{column} LIKE {} ESCAPE '\\'", self.text(like_pattern(t)))).collect();
        format!("({})", tests.join(" OR "))
    }

    /// How well a GIF matches, in SQL: the same scores as `ranked::WEIGHTS` give (for searches the
    /// field index cannot answer).
    fn relevance(&mut self, terms: &[Term]) -> String {
        let newline = if self.postgres { "E'\\n'" } else { "char(10)" };
        let caption = format!("lower(replace(COALESCE(caption_text, ''), {newline}, ' '))");
        let columns = ["lower(title)", "t.name", "lower(description)", caption.as_str()];
        let mut parts = Vec::new();
        for term in terms {
            let exact = Term::of(&term.any_of[0]);
            for (column, weight) in columns.into_iter().zip(ranked::WEIGHTS) {
                let mut case = format!("CASE WHEN {} THEN {weight}", self.field_has(column, &exact));
                if term.any_of.len() > 1 {
                    case.push_str(&format!(" WHEN {} THEN {}", self.field_has(column, term), weight / 16));
                }
                parts.push(format!("{case} ELSE 0 END"));
            }
        }
        format!("({})", parts.join(" + "))
    }

    /// Whether a field holds one of the term's texts; a tag is any of the GIF's tags.
    fn field_has(&mut self, column: &str, term: &Term) -> String {
        let likes = self.likes(column, term);
        if column == "t.name" {
            format!(
                "EXISTS (SELECT 1 FROM gif_tags gt JOIN tags t ON t.id = gt.tag_id WHERE gt.gif_id = gifs.id AND {likes})"
            )
        } else {
            likes
        }
    }
}

/// The order of one page: ranked (relevance) or a sort's index order.
fn ordering(sql: &mut Sql, sort: GifSort, terms: &[Term]) -> String {
    match sort {
        GifSort::Relevance | GifSort::RelevanceThenViews => {
            format!("{} DESC, {}", sql.relevance(terms), order_by(sort))
        }
        other => order_by(other).to_owned(),
    }
}

/// A page of the GIFs with every word, and their number. While no GIF is left out by `shown`
/// (nearly always: hidden GIFs are few), the indexes alone count; otherwise the condition joins
/// every query and the table counts. A word of five letters or more also finds the words one typo
/// from it that the vocabulary holds (ranked below the word itself).
pub(crate) fn page(
    conn: &mut AnyConnection,
    words: &[String],
    sort: GifSort,
    limit: i64,
    offset: i64,
    shown: Shown,
) -> Result<(Vec<i64>, i64), RepoError> {
    let leaves_out = shown.narrowed() || shown.left_out(conn)? > 0;
    let mut terms = Vec::with_capacity(words.len());
    for word in words {
        terms.push(forgiving(conn, word)?);
    }
    let ranks = matches!(sort, GifSort::Relevance | GifSort::RelevanceThenViews);
    if ranks && limit > 0 && ranked::can_rank(conn, &terms) {
        let left_out = leaves_out.then(|| shown.left_out_sql());
        return ranked::page(conn, &terms, sort, limit, offset, left_out.as_deref());
    }
    page_of_terms(conn, &terms, sort, limit, offset, leaves_out.then(|| shown.sql()).as_deref())
}

/// The term of a searched word: a phrase or a word under five letters as it is; a longer word
/// with its neighbours one typo away that the vocabulary holds, less those that hold the word
/// (the word's own matches find them already).
fn forgiving(conn: &mut AnyConnection, word: &str) -> Result<Term, RepoError> {
    let mut term = Term::of(word);
    if word.contains(' ') || word.chars().filter(|c| c.is_alphabetic()).count() < 5 {
        return Ok(term);
    }
    term.any_of.extend(neighbours_in_vocabulary(conn, word)?.into_iter().filter(|near| !near.contains(word)));
    Ok(term)
}

/// At most this many matches are read by id and sorted (or ranked in SQL); more are found by
/// walking the sort's index and testing each GIF's text, which stops after the page (the few
/// ranked searches the field index cannot answer are listed in their tie-break's order).
const SORT_BY_ID_MAX: i64 = 2_000;

fn page_of_terms(
    conn: &mut AnyConnection,
    terms: &[Term],
    sort: GifSort,
    limit: i64,
    offset: i64,
    shown: Option<&str>,
) -> Result<(Vec<i64>, i64), RepoError> {
    match conn {
        AnyConnection::Sqlite(_) => sqlite_page(conn, terms, sort, limit, offset, shown),
        AnyConnection::Postgresql(_) => postgres_page(conn, terms, sort, limit, offset, shown),
    }
}

/// The ids of a page with `condition`, or none when `limit` is 0 (only the count was wanted).
fn page_where(
    conn: &mut AnyConnection,
    mut sql: Sql,
    condition: &str,
    order: &str,
    limit: i64,
    offset: i64,
) -> Result<Vec<i64>, RepoError> {
    if limit == 0 {
        return Ok(Vec::new());
    }
    let (l, o) = (sql.int(limit), sql.int(offset));
    sql.ids(conn, &format!("SELECT id FROM gifs WHERE {condition} ORDER BY {order} LIMIT {l} OFFSET {o}"))
}

/// Walks the sort's index testing each GIF's text for every term (many matches).
fn walk(
    conn: &mut AnyConnection,
    terms: &[Term],
    sort: GifSort,
    limit: i64,
    offset: i64,
    shown: Option<&str>,
) -> Result<Vec<i64>, RepoError> {
    let mut sql = Sql::new(conn);
    let mut tests: Vec<String> = terms.iter().map(|t| sql.likes("search_text", t)).collect();
    tests.extend(shown.map(str::to_owned));
    page_where(conn, sql, &tests.join(" AND "), order_by(sort), limit, offset)
}

fn sqlite_page(
    conn: &mut AnyConnection,
    terms: &[Term],
    sort: GifSort,
    limit: i64,
    offset: i64,
    shown: Option<&str>,
) -> Result<(Vec<i64>, i64), RepoError> {
    let (long, short): (Vec<&Term>, Vec<&Term>) = terms.iter().partition(|t| t.indexed());
    let mut sql = Sql::new(conn);
    let mut clauses = Vec::new();
    let fts = (!long.is_empty()).then(|| sql.text(fts_query(&long)));
    if let Some(fts) = &fts {
        clauses.push(format!("id IN (SELECT rowid FROM gifs_fts WHERE gifs_fts MATCH {fts})"));
    }
    for term in &short {
        clauses.push(sql.likes("search_text", term));
    }
    clauses.extend(shown.map(str::to_owned));
    let condition = clauses.join(" AND ");
    // The index holds exactly one row per GIF: when it alone decides, count it there without
    // touching the table.
    let total = match (&fts, short.is_empty() && shown.is_none()) {
        (Some(fts), true) => {
            sql.count(conn, &format!("SELECT COUNT(*) AS count FROM gifs_fts WHERE gifs_fts MATCH {fts}"))?
        }
        _ => sql.count(conn, &format!("SELECT COUNT(*) AS count FROM gifs WHERE {condition}"))?,
    };
    if total == 0 || offset >= total || limit == 0 {
        return Ok((Vec::new(), total));
    }
    let ids = if total <= SORT_BY_ID_MAX {
        let order = ordering(&mut sql, sort, terms);
        page_where(conn, sql, &condition, &order, limit, offset)?
    } else {
        walk(conn, terms, sort, limit, offset, shown)?
    };
    Ok((ids, total))
}

fn postgres_page(
    conn: &mut AnyConnection,
    terms: &[Term],
    sort: GifSort,
    limit: i64,
    offset: i64,
    shown: Option<&str>,
) -> Result<(Vec<i64>, i64), RepoError> {
    let mut sql = Sql::new(conn);
    // The GIFs having, for each indexed group, one of the words that contain one of its texts.
    let mut groups: Vec<String> = Vec::new();
    let mut residual: Vec<String> = Vec::new();
    for term in terms {
        match term.any_of.as_slice() {
            [phrase] if phrase.contains(' ') => {
                for word in phrase.split(' ').filter(|w| w.chars().count() >= 3) {
                    groups.push(sql.likes("word", &Term::of(word)));
                }
                residual.push(sql.likes("search_text", term));
            }
            _ if term.indexed() => groups.push(sql.likes("word", term)),
            _ => residual.push(sql.likes("search_text", term)),
        }
    }
    residual.extend(shown.map(str::to_owned));
    if groups.is_empty() {
        // Only short words: no index helps; the text of every GIF is tested.
        let condition = residual.join(" AND ");
        let total = sql.count(conn, &format!("SELECT COUNT(*) AS count FROM gifs WHERE {condition}"))?;
        if total == 0 || offset >= total || limit == 0 {
            return Ok((Vec::new(), total));
        }
        let order = ordering(&mut sql, sort, terms);
        return Ok((page_where(conn, sql, &condition, &order, limit, offset)?, total));
    }
    let with_word = |likes: &String| {
        format!("SELECT gif_id FROM gif_words WHERE word IN (SELECT word FROM search_vocabulary WHERE {likes})")
    };
    let matches = match groups.as_slice() {
        [one] => format!("SELECT DISTINCT gif_id FROM ({}) w", with_word(one)),
        many => many.iter().map(with_word).collect::<Vec<_>>().join(" INTERSECT "),
    };
    let total = if residual.is_empty() {
        sql.count(conn, &format!("SELECT COUNT(*) AS count FROM ({matches}) m"))?
    } else {
        sql.count(
            conn,
            &format!("SELECT COUNT(*) AS count FROM gifs WHERE id IN ({matches}) AND {}", residual.join(" AND ")),
        )?
    };
    if total == 0 || offset >= total || limit == 0 {
        return Ok((Vec::new(), total));
    }
    let ids = if total <= SORT_BY_ID_MAX {
        let mut condition = vec![format!("id IN ({matches})")];
        condition.extend(residual);
        let order = ordering(&mut sql, sort, terms);
        page_where(conn, sql, &condition.join(" AND "), &order, limit, offset)?
    } else {
        walk(conn, terms, sort, limit, offset, shown)?
    };
    Ok((ids, total))
}

/// Every string one edit (a letter left out, added, changed, or two swapped) from `word`,
/// itself left out; letters added or changed are a–z, 0–9 and the word's own.
fn one_edit_away(word: &str) -> Vec<String> {
    let chars: Vec<char> = word.chars().collect();
    let mut alphabet: Vec<char> = ('a'..='z').chain('0'..='9').collect();
    for c in &chars {
        if !alphabet.contains(c) {
            alphabet.push(*c);
        }
    }
    let mut out = std::collections::BTreeSet::new();
    let text = |v: &[char]| v.iter().collect::<String>();
    for i in 0..chars.len() {
        let mut v = chars.clone();
        v.remove(i);
        out.insert(text(&v));
        if i + 1 < chars.len() {
            let mut v = chars.clone();
            v.swap(i, i + 1);
            out.insert(text(&v));
        }
        for c in &alphabet {
            let mut v = chars.clone();
            v[i] = *c;
            out.insert(text(&v));
        }
    }
    for i in 0..=chars.len() {
        for c in &alphabet {
            let mut v = chars.clone();
            v.insert(i, *c);
            out.insert(text(&v));
        }
    }
    out.remove(word);
    out.into_iter().collect()
}

/// The words of the vocabulary one typo from `word` that keep its first letter, or lose it, or
/// swap it with the second (a first letter changed, or one added before it, is not looked for, as
/// search engines' fuzzy `prefix_length` does: it keeps the lookup to the words of one letter),
/// most common first on SQLite (at most 20). SQLite reads the word index's vocabulary over that
/// letter's range and looks the other two up by key (its `IN` would scan all of it); PostgreSQL
/// looks each candidate up by key.
fn neighbours_in_vocabulary(conn: &mut AnyConnection, word: &str) -> Result<Vec<String>, RepoError> {
    let chars: Vec<char> = word.chars().collect();
    let [first, second, ..] = chars[..] else { return Ok(Vec::new()) };
    let rest: String = chars[1..].iter().collect();
    let swapped: String = [second, first].into_iter().chain(chars[2..].iter().copied()).collect();
    let candidates: std::collections::BTreeSet<String> =
        one_edit_away(word).into_iter().filter(|c| c.starts_with(first) || *c == rest || *c == swapped).collect();
    let mut sql = Sql::new(conn);
    if sql.postgres {
        let marks: Vec<String> = candidates.into_iter().map(|c| sql.text(c)).collect();
        let query =
            format!("SELECT word FROM search_vocabulary WHERE word IN ({}) ORDER BY word LIMIT 20", marks.join(", "));
        return Ok(sql.load::<WordRow>(conn, &query)?.into_iter().map(|r| r.word).collect());
    }
    let after = char::from_u32(u32::from(first) + 1).map_or_else(|| char::MAX.to_string(), String::from);
    let length = i64::try_from(word.chars().count()).unwrap_or(i64::MAX);
    let (from, to) = (sql.text(first.to_string()), sql.text(after));
    let (shortest, longest) = (sql.int(length - 1), sql.int(length + 1));
    let (rest, swapped) = (sql.text(rest), sql.text(swapped));
    let query = format!(
        "SELECT term AS word, doc FROM gifs_fts_words_vocab WHERE col = 'search_text' AND term >= {from} \
         AND term < {to} AND length(term) BETWEEN {shortest} AND {longest} \
         UNION ALL SELECT term, doc FROM gifs_fts_words_vocab WHERE col = 'search_text' AND term = {rest} \
         UNION ALL SELECT term, doc FROM gifs_fts_words_vocab WHERE col = 'search_text' AND term = {swapped} \
         ORDER BY doc DESC, word"
    );
    let words = sql.load::<WordRow>(conn, &query)?.into_iter().map(|r| r.word);
    Ok(words.filter(|w| candidates.contains(w)).take(20).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_wildcards_are_escaped() {
        assert_eq!(like_pattern("50%_off\\"), "%50\\%\\_off\\\\%");
    }

    #[test]
    fn fts_words_are_quoted_and_alternatives_grouped() {
        let terms = [Term::of("cat"), Term::of("say \"hi\""), Term { any_of: vec!["fine".into(), "fire".into()] }];
        assert_eq!(
            fts_query(&terms.iter().collect::<Vec<_>>()),
            "\"cat\" AND \"say \"\"hi\"\"\" AND (\"fine\" OR \"fire\")"
        );
    }

    #[test]
    fn one_edit_reaches_every_kind_of_typo_and_not_two() {
        let near = one_edit_away("friday");
        for typo_of in ["fridya", "frday", "friiday", "fruday", "fridays"] {
            assert!(near.contains(&typo_of.to_owned()), "{typo_of}");
        }
        assert!(!near.contains(&"friday".to_owned()));
        assert!(!near.contains(&"frdiya".to_owned()));
        assert!(one_edit_away("été").contains(&"ét".to_owned()));
    }
}
