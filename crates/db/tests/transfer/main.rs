//! `gifshelf_db::transfer`: whole instances moved between SQLite and PostgreSQL through the export
//! file, on real databases. The PostgreSQL halves need `GIFSHELF_TEST_POSTGRES_URL` (see
//! `gifshelf_db::testing`).

use chrono::Duration;
use gifshelf_db::testing::TestDb;
use gifshelf_db::transfer::{self, Progress, Summary, TransferError};
use gifshelf_db::Database;
use gifshelf_domain::gif::{GifFilter, GifId, GifSort, PageRequest, TagName};
use gifshelf_domain::ports::{GifRepository, IntegrationRepository, StatsRepository, TagRepository, UserRepository};
use gifshelf_domain::stats::{DetailedFigures, OverviewFigures};
use gifshelf_domain::user::{Role, UserId};
use gifshelf_domain::RepoError;

mod seed;

use seed::*;

fn export(db: &Database) -> Vec<u8> {
    let mut file = Vec::new();
    ok(transfer::export(db, &mut file, chrono::Utc::now().naive_utc(), &mut |_: Progress<'_>| {}));
    file
}

fn import(db: &Database, file: &[u8]) -> Result<Summary, TransferError> {
    transfer::import(db, &mut &file[..], &mut |_: Progress<'_>| {})
}

/// The file without its header (which names the source and the export time).
fn body(file: &[u8]) -> Vec<String> {
    let text = ok(std::str::from_utf8(file));
    text.lines().skip(1).map(str::to_owned).collect()
}

fn count(summary: &Summary, table: &str) -> u64 {
    summary.counts.iter().find(|(t, _)| *t == table).map_or(0, |(_, n)| *n)
}

async fn is_empty(db: &Database) -> bool {
    let page = ok(db.list(&GifFilter::All, GifSort::Newest, PageRequest { page: 0, size: 10 }).await);
    page.total == 0
        && matches!(db.find_by_id(UserId(1)).await, Err(RepoError::NotFound))
        && ok(db.list_with_counts().await).is_empty()
}

/// The overview with its lists sorted (ties are ordered by name, which PostgreSQL's collation may
/// order unlike SQLite).
fn in_order(mut o: OverviewFigures) -> OverviewFigures {
    for list in
        [&mut o.most_used_tags, &mut o.top_users, &mut o.most_viewed, &mut o.most_favourited, &mut o.most_shared]
    {
        list.sort();
    }
    o
}

fn detailed_in_order(mut d: DetailedFigures) -> DetailedFigures {
    d.tag_distribution.sort();
    d.content_types.sort_by(|a, b| a.0.cmp(&b.0));
    d
}

/// Seeds `source`, moves it to `target`, and checks that nothing was lost or changed.
async fn move_instance(source: &Database, target: &Database) {
    let seeded = seed(source).await;
    let file = export(source);
    let lines = body(&file);
    assert!(lines.iter().any(|l| l.contains("\"password_hash\":\"$2b$12$new.hash\"")), "hashes are in the file");

    let summary = ok(import(target, &file));
    let expected = [
        ("users", 5),
        ("user_identities", 2),
        ("tags", 7),
        ("gifs", 4),
        ("gif_renditions", 16),
        ("gif_tags", 6),
        ("api_keys", 2),
        ("integrations", 2),
        ("registration_policy", 1),
        ("invites", 1),
        ("password_resets", 1),
        ("quota_defaults", 1),
        ("member_quotas", 1),
    ];
    for (table, n) in expected {
        assert_eq!(count(&summary, table), n, "{table}: {summary:?}");
    }

    // The target exports the same rows, counts, id marks and checksum.
    let again = export(target);
    assert_eq!(body(&again), lines);

    // Through the repositories, every account, identity, GIF and tag reads back the same.
    for id in &seeded.users {
        assert_eq!(ok(target.find_by_id(*id).await), ok(source.find_by_id(*id).await));
    }
    for (subject, user) in [("1098-sub", seeded.users[2]), ("2222-sub", seeded.users[1])] {
        let found = ok(target.find_by_identity("https://accounts.google.com", subject).await);
        assert_eq!(found.id, user);
    }
    for id in &seeded.gifs {
        assert_eq!(ok(target.find(*id).await), ok(source.find(*id).await));
    }
    assert_eq!(ok(target.list_with_counts().await), ok(source.list_with_counts().await));
    assert_eq!(ok(target.integrations().await), ok(source.integrations().await));
    assert!(matches!(target.find(seeded.deleted_gif).await, Err(RepoError::NotFound)));
    assert_eq!(ok(target.find_by_id(seeded.users[3]).await).role, Role::Admin);
    assert_eq!(ok(target.find_by_id(seeded.users[1]).await).credentials_changed_at, t0() + Duration::hours(3));
    assert_eq!(ok(target.find_by_id(seeded.users[1]).await).last_seen_at, Some(t0() + Duration::hours(5)));
    assert_eq!(ok(target.find_by_id(seeded.users[2]).await).disabled_at, Some(t0() + Duration::hours(4)));

    // The statistics' counters (not moved) were kept by the target's triggers as the rows went in.
    let (today, week) = (t0() + Duration::days(1), t0() - Duration::days(6));
    assert_eq!(
        in_order(ok(target.overview(today, week, 10).await)),
        in_order(ok(source.overview(today, week, 10).await))
    );
    let (moved, kept) = (ok(target.detailed(week.date(), 10).await), ok(source.detailed(week.date(), 10).await));
    assert_eq!(detailed_in_order(moved), detailed_in_order(kept));

    // Search works on the target's own index (FTS5 triggers or pg_trgm).
    let page = PageRequest { page: 0, size: 10 };
    for (term, gif) in [("zebra", 0), ("dances", 0), ("猫", 1), ("ünïcode", 1), ("facepalm edited work", 3)] {
        let found =
            ok(target.list(&GifFilter::search(term).unwrap_or_else(|e| panic!("{e}")), GifSort::Newest, page).await);
        assert_eq!(found.items.iter().map(|g| g.id).collect::<Vec<_>>(), [seeded.gifs[gif]], "search {term:?}");
    }
    let by_tag = ok(target.list(&GifFilter::Tag(ok(TagName::parse("animals"))), GifSort::Newest, page).await);
    assert_eq!(by_tag.total, 2);

    // New rows get fresh ids: past every imported id, and past the deleted GIF's id too.
    let newcomer = ok(UserRepository::create(target, new_user("newcomer", "new@example.com", 60), true).await);
    assert!(newcomer.id.0 > seeded.users.iter().map(|u| u.0).max().unwrap_or_default(), "{newcomer:?}");
    assert_eq!(newcomer.role, Role::User, "not the first account any more");
    let gif = ok(target.insert(new_gif(newcomer.id, 9, "After the move", "", &["fresh"])).await);
    assert!(gif.id.0 > seeded.deleted_gif.0, "{:?} reuses an old id (last was {:?})", gif.id, seeded.deleted_gif);
    let tag = ok(TagRepository::create(target, &ok(TagName::parse("another")), t0()).await);
    assert!(tag.id.0 > 7, "{tag:?}");
}

#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
async fn sqlite_to_postgres_keeps_every_row() {
    let source = TestDb::sqlite();
    let Some(target) = TestDb::postgres("transfer::sqlite_to_postgres_keeps_every_row") else { return };
    move_instance(&source.db, &target.db).await;
}

#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
async fn postgres_to_sqlite_keeps_every_row() {
    let Some(source) = TestDb::postgres("transfer::postgres_to_sqlite_keeps_every_row") else { return };
    let target = TestDb::sqlite();
    move_instance(&source.db, &target.db).await;
}

#[tokio::test]
async fn sqlite_to_sqlite_keeps_every_row() {
    let source = TestDb::sqlite();
    let target = TestDb::sqlite();
    move_instance(&source.db, &target.db).await;
}

#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
async fn postgres_to_postgres_keeps_every_row() {
    let Some(source) = TestDb::postgres("transfer::postgres_to_postgres_keeps_every_row") else { return };
    let Some(target) = TestDb::postgres("transfer::postgres_to_postgres_keeps_every_row") else { return };
    move_instance(&source.db, &target.db).await;
}

#[tokio::test]
async fn an_empty_instance_moves_too() {
    let source = TestDb::sqlite();
    let file = export(&source.db);
    assert_eq!(body(&file).len(), 1, "only the trailer");
    let target = TestDb::sqlite();
    let summary = ok(import(&target.db, &file));
    assert!(summary.counts.iter().all(|(_, n)| *n == 0));
    let first = ok(UserRepository::create(&target.db, new_user("first", "first@example.com", 0), true).await);
    assert_eq!((first.id, first.role), (UserId(1), Role::Admin));
}

/// A seeded SQLite instance's export.
async fn sample_file() -> Vec<u8> {
    let source = TestDb::sqlite();
    seed(&source.db).await;
    export(&source.db)
}

/// Runs `check` on a fresh SQLite database and, when configured, a fresh PostgreSQL one.
async fn on_both_targets<F, Fut>(test: &str, check: F)
where
    F: Fn(Database) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let sqlite = TestDb::sqlite();
    check(sqlite.db.clone()).await;
    if let Some(pg) = TestDb::postgres(test) {
        check(pg.db.clone()).await;
    }
}

#[tokio::test]
async fn a_non_empty_target_is_refused_and_left_alone() {
    let file = sample_file().await;
    on_both_targets("transfer::a_non_empty_target_is_refused_and_left_alone", |db| {
        let file = file.clone();
        async move {
            let owner = ok(UserRepository::create(&db, new_user("owner", "owner@example.com", 0), true).await);
            let result = import(&db, &file);
            assert!(
                matches!(&result, Err(TransferError::NotEmpty(what)) if what.contains("users: 1 row")),
                "{result:?}"
            );
            assert_eq!(ok(db.find_by_id(owner.id).await), owner);
            assert!(matches!(db.find_by_id(UserId(2)).await, Err(RepoError::NotFound)));
            assert_eq!(ok(db.list(&GifFilter::All, GifSort::Newest, PageRequest { page: 0, size: 10 }).await).total, 0);
        }
    })
    .await;
}

#[tokio::test]
async fn a_truncated_or_damaged_file_is_refused_and_leaves_the_target_empty() {
    let file = sample_file().await;
    let text = ok(String::from_utf8(file.clone()));
    let without_trailer = {
        let mut lines: Vec<&str> = text.lines().collect();
        lines.pop();
        lines.join("\n") + "\n"
    };
    let damaged = text.replacen("\"view_count\":3", "\"view_count\":4", 1);
    assert_ne!(damaged, text);
    let dropped_link = {
        let lines: Vec<&str> = text.lines().collect();
        let link =
            lines.iter().position(|l| l.starts_with("{\"table\":\"gif_tags\"")).unwrap_or_else(|| panic!("no link"));
        lines.iter().enumerate().filter(|(i, _)| *i != link).map(|(_, l)| format!("{l}\n")).collect::<String>()
    };
    let dropped_gif = {
        let lines: Vec<&str> = text.lines().collect();
        let gif_row =
            lines.iter().position(|l| l.starts_with("{\"table\":\"gifs\"")).unwrap_or_else(|| panic!("no gif"));
        lines.iter().enumerate().filter(|(i, _)| *i != gif_row).map(|(_, l)| format!("{l}\n")).collect::<String>()
    };
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("cut in the middle", file[..file.len() / 2].to_vec()),
        ("cut in the middle of a UTF-8 character", {
            let at = text.find('猫').unwrap_or_else(|| panic!("no cat")) + 1;
            file[..at].to_vec()
        }),
        ("cut before the trailer", without_trailer.into_bytes()),
        ("a changed value", damaged.into_bytes()),
        ("a row missing", dropped_link.into_bytes()),
        ("a row others refer to missing", dropped_gif.into_bytes()),
        ("data after the trailer", [&file[..], b"{\"table\":\"tags\",\"row\":{}}\n"].concat()),
    ];
    on_both_targets("transfer::a_truncated_or_damaged_file_is_refused", |db| {
        let cases = cases.clone();
        let file = file.clone();
        async move {
            for (what, bytes) in &cases {
                let result = import(&db, bytes);
                assert!(matches!(result, Err(TransferError::Corrupt { .. })), "{what}: {result:?}");
                assert!(is_empty(&db).await, "{what}: the target is not empty any more");
            }
            // Nothing was left behind: the whole file goes into the same database afterwards.
            ok(import(&db, &file));
            assert!(!is_empty(&db).await);
        }
    })
    .await;
}

#[tokio::test]
async fn a_file_that_is_not_this_export_format_is_refused() {
    let file = sample_file().await;
    let text = ok(String::from_utf8(file));
    let (header, rest) = text.split_once('\n').unwrap_or_else(|| panic!("no header"));
    let with_header = |h: String| format!("{h}\n{rest}").into_bytes();
    let target = TestDb::sqlite();
    let not_an_export = [
        Vec::new(),
        b"not json\n".to_vec(),
        with_header(header.replace("gifshelf-export", "something-else")),
        with_header(header.replace("\"version\":1", "\"version\":2")),
        with_header(r#"{"format":"gifshelf-export"}"#.to_owned()),
        rest.as_bytes().to_vec(),
    ];
    for bytes in &not_an_export {
        let result = import(&target.db, bytes);
        assert!(
            matches!(result, Err(TransferError::NotAnExport(_))),
            "{:?}: {result:?}",
            String::from_utf8_lossy(bytes)
        );
    }
    let other_schema = with_header(header.replace("\"schema\":\"", "\"schema\":\"9999-"));
    assert!(other_schema != text.as_bytes());
    let result = import(&target.db, &other_schema);
    assert!(matches!(result, Err(TransferError::SchemaMismatch { .. })), "{result:?}");
    assert!(is_empty(&target.db).await);
}

#[tokio::test]
async fn a_table_or_column_the_export_does_not_know_is_refused() {
    use diesel::connection::SimpleConnection;
    use diesel::Connection;

    let source = TestDb::sqlite();
    let path = source.url.trim_start_matches("sqlite://").to_owned();
    let mut raw = ok(diesel::sqlite::SqliteConnection::establish(&path));
    ok(raw.batch_execute("ALTER TABLE gifs ADD COLUMN mood TEXT"));
    let result =
        transfer::export(&source.db, &mut Vec::new(), chrono::Utc::now().naive_utc(), &mut |_: Progress<'_>| {});
    assert!(matches!(&result, Err(TransferError::UnknownSchema(why)) if why.contains("mood")), "{result:?}");

    let other = TestDb::sqlite();
    let path = other.url.trim_start_matches("sqlite://").to_owned();
    let mut raw = ok(diesel::sqlite::SqliteConnection::establish(&path));
    ok(raw.batch_execute("CREATE TABLE moods (user_id BIGINT, gif_id BIGINT)"));
    let result =
        transfer::export(&other.db, &mut Vec::new(), chrono::Utc::now().naive_utc(), &mut |_: Progress<'_>| {});
    assert!(matches!(&result, Err(TransferError::UnknownSchema(why)) if why.contains("moods")), "{result:?}");
}

/// Changes `test_db`'s schema behind the migrations' back.
fn alter(test_db: &TestDb, sql: &str) {
    use diesel::connection::SimpleConnection;
    use diesel::Connection;
    match test_db.url.strip_prefix("sqlite://") {
        Some(path) => ok(ok(diesel::SqliteConnection::establish(path)).batch_execute(sql)),
        None => ok(ok(diesel::PgConnection::establish(&test_db.url)).batch_execute(sql)),
    }
}

/// The one list of tables (`transfer/tables.rs`) is the live schema of a migrated database: every
/// table and column is listed, but the explicitly skipped ones (diesel's migrations, SQLite's own
/// tables and search index), and every listed table and column exists. Any difference is named.
fn the_list_of_tables_is_the_live_schema(test_db: &TestDb) {
    let schema = ok(transfer::check_schema(&test_db.db));
    let file = ok(String::from_utf8(export(&test_db.db)));
    assert!(file.lines().next().is_some_and(|header| header.contains(&format!("\"schema\":\"{schema}\""))));

    let changes = [
        ("ALTER TABLE gifs ADD COLUMN mood TEXT", "mood"),
        ("CREATE TABLE moods (user_id BIGINT, gif_id BIGINT)", "moods"),
        ("ALTER TABLE tags DROP COLUMN created_at", "created_at"),
        ("DROP TABLE gif_tags", "gif_tags is missing"),
    ];
    for (change, named) in changes {
        alter(test_db, change);
        let result = transfer::check_schema(&test_db.db);
        assert!(
            matches!(&result, Err(TransferError::UnknownSchema(why)) if why.contains(named)),
            "{change}: {result:?}"
        );
    }
}

#[test]
fn the_list_of_tables_is_the_live_schema_of_sqlite() {
    the_list_of_tables_is_the_live_schema(&TestDb::sqlite());
}

#[test]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
fn the_list_of_tables_is_the_live_schema_of_postgres() {
    if let Some(test_db) = TestDb::postgres("transfer::the_list_of_tables_is_the_live_schema_of_postgres") {
        the_list_of_tables_is_the_live_schema(&test_db);
    }
}

#[tokio::test]
async fn rows_stream_in_pages_and_progress_is_reported() {
    let source = TestDb::sqlite();
    ok(gifshelf_db::testing::seed(&source.db, 30, 1_234, 40));
    let mut seen = Vec::new();
    let mut file = Vec::new();
    let summary =
        ok(transfer::export(&source.db, &mut file, chrono::Utc::now().naive_utc(), &mut |p: Progress<'_>| {
            seen.push((p.table.to_owned(), p.rows, p.done));
        }));
    assert_eq!(count(&summary, "gifs"), 1_234);
    assert!(seen.contains(&("gifs".to_owned(), 500, false)), "{seen:?}");
    assert!(seen.contains(&("gifs".to_owned(), 1_234, true)), "{seen:?}");
    assert_eq!(seen.iter().filter(|(_, _, done)| *done).count(), transfer::TABLES.len());

    let target = TestDb::sqlite();
    let mut done = Vec::new();
    let imported = ok(transfer::import(&target.db, &mut &file[..], &mut |p: Progress<'_>| {
        if p.done {
            done.push((p.table.to_owned(), p.rows));
        }
    }));
    assert_eq!(imported.counts, summary.counts);
    let expected: Vec<(String, u64)> = summary.counts.iter().map(|(t, n)| ((*t).to_owned(), *n)).collect();
    assert_eq!(done, expected);
    assert_eq!(body(&export(&target.db)), body(&file));
    let found = ok(target
        .db
        .list(
            &GifFilter::search("1233").unwrap_or_else(|e| panic!("{e}")),
            GifSort::Newest,
            PageRequest { page: 0, size: 5 },
        )
        .await);
    assert_eq!(found.items.iter().map(|g| g.id).collect::<Vec<_>>(), [GifId(1233)]);
    // The library's counter (kept by triggers, not a moved table) counted the imported rows.
    let gallery = ok(target.db.list(&GifFilter::All, GifSort::Newest, PageRequest { page: 0, size: 5 }).await);
    assert_eq!(gallery.total, 1_234);
}
