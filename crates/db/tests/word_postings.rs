//! PostgreSQL's posting lists (migration 000031) hold exactly the rows of `gif_words` after every
//! kind of write: the library's first fill, an edit of one GIF, tags added, removed and renamed,
//! one tag on many GIFs of one list, GIFs deleted and GIFs added after the others.

use diesel::prelude::*;
use diesel::sql_types::BigInt;
use gifshelf_db::testing::{execute, seed, TestDb};

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// The entries in one structure and not the other, both ways, and the number of entries.
fn disagreement(url: &str) -> (i64, i64, i64) {
    let mut conn = PgConnection::establish(url).unwrap_or_else(|e| panic!("{e}"));
    let mut count = |sql: &str| -> i64 {
        diesel::sql_query(sql).get_result::<Count>(&mut conn).unwrap_or_else(|e| panic!("{sql}: {e}")).n
    };
    let words = "SELECT word, gif_id * 16 + fields AS v FROM gif_words";
    // Each entry is 8 big-endian bytes.
    let posted = "SELECT word, ('x' || encode(substring(packed FROM i * 8 + 1 FOR 8), 'hex'))::bit(64)::bigint AS v \
                  FROM word_postings, generate_series(0, length(packed) / 8 - 1) AS i";
    (
        count(&format!("SELECT count(*) AS n FROM ({words} EXCEPT {posted}) x")),
        count(&format!("SELECT count(*) AS n FROM ({posted} EXCEPT {words}) x")),
        count(&format!("SELECT count(*) AS n FROM ({posted}) x")),
    )
}

fn agree(test_db: &TestDb, after: &str) {
    let (missing, extra, entries) = disagreement(&test_db.url);
    assert_eq!((missing, extra), (0, 0), "after {after}: {missing} entries missing, {extra} extra of {entries}");
}

#[test]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
fn posting_lists_follow_every_write() {
    let Some(test_db) = TestDb::postgres("word_postings") else { return };
    // Three lists of 16,384 ids and the start of a fourth.
    seed(&test_db.db, 20, 40_000, 60).unwrap_or_else(|e| panic!("{e}"));
    agree(&test_db, "the seed");
    let run = |sql: &str| execute(&test_db.db, sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    let steps = [
        ("an edited title", "UPDATE gifs SET title = 'pizza pizza zebra', search_text = 'pizza pizza zebra' WHERE id = 17000"),
        ("an edited description", "UPDATE gifs SET description = 'a zebra', search_text = search_text || E'\\na zebra' WHERE id = 5"),
        ("a tag added", "INSERT INTO gif_tags (gif_id, tag_id) SELECT 17001, 1 WHERE NOT EXISTS (SELECT 1 FROM gif_tags WHERE gif_id = 17001 AND tag_id = 1)"),
        ("a tag on 500 GIFs of one list", "INSERT INTO gif_tags (gif_id, tag_id) SELECT id, 2 FROM gifs WHERE id BETWEEN 20000 AND 20499 AND NOT EXISTS (SELECT 1 FROM gif_tags WHERE gif_id = gifs.id AND tag_id = 2)"),
        ("tags removed", "DELETE FROM gif_tags WHERE tag_id = 3"),
        ("a tag renamed", "UPDATE tags SET name = 'zebra-crossing' WHERE id = 4"),
        ("GIFs deleted", "DELETE FROM gifs WHERE id IN (1, 16384, 16385, 39999)"),
        ("GIFs deleted in bulk", "DELETE FROM gifs WHERE id BETWEEN 30000 AND 30200"),
        (
            "a GIF added after the others",
            "INSERT INTO gifs (id, share_id, title, description, uploader_id, uploaded_at, view_count, content_type, \
             content_size, frame_count, search_text) VALUES (50000, 'late', 'pizza late', 'a gif', 1, \
             '2027-01-01 00:00:00', 0, 'image/gif', 10, 1, E'pizza late\\na gif')",
        ),
        (
            "a GIF added among the others",
            "INSERT INTO gifs (id, share_id, title, description, uploader_id, uploaded_at, view_count, content_type, \
             content_size, frame_count, search_text) VALUES (30100, 'among', 'pizza among', 'a gif', 1, \
             '2027-01-01 00:00:00', 0, 'image/gif', 10, 1, E'pizza among\\na gif')",
        ),
    ];
    for (what, sql) in steps {
        run(sql);
        agree(&test_db, what);
    }
}
