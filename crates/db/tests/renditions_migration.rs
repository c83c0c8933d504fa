//! The migration that turned the three rendition column groups of `gifs` into `gif_renditions`
//! rows, run on a database made by the schema before it, on both backends: every GIF keeps its
//! original, thumbnail and still, with their keys, types, sizes and dimensions.

use diesel::connection::SimpleConnection;
use diesel::{Connection, PgConnection, SqliteConnection};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};
use gifshelf_db::testing::TestDb;
use gifshelf_domain::gif::{GifId, RenditionKind};
use gifshelf_domain::ports::{BlobKeyIndex, GifRepository};

const SQLITE: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");
const POSTGRES: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");

/// Two GIFs as the previous schema stored them.
const OLD_ROWS: &str = "
INSERT INTO users (id, username, username_key, email, password_hash, role, created_at, credentials_changed_at)
    VALUES (1, 'alice', 'alice', 'alice@example.com', 'h', 'USER', '2026-11-01 10:00:00', '2026-11-01 10:00:00');
INSERT INTO gifs (id, share_id, title, description, uploader_id, uploaded_at, view_count, content_type, content_key,
    content_size, content_width, content_height, frame_count, thumbnail_type, thumbnail_key, thumbnail_size,
    thumbnail_width, thumbnail_height, static_type, static_key, static_size, static_width, static_height, search_text)
VALUES
    (1, 'share-one', 'One', '', 1, '2026-11-02 10:00:00', 3, 'image/gif', 'gifs/a/original.gif', 123456, 640, 480, 12,
     'image/gif', 'gifs/a/thumbnail.gif', 23456, 320, 240, 'image/png', 'gifs/a/static.png', 3456, 320, 240, 'one'),
    (2, 'share-two', 'Two', '', 1, '2026-11-03 10:00:00', 0, 'image/jpeg', 'gifs/b/original.jpg', 99, 100, 50, 1,
     'image/jpeg', 'gifs/b/thumbnail.jpg', 88, 100, 50, 'image/jpeg', 'gifs/b/static.jpg', 77, 100, 50, 'two');
";

/// Reverts the migrations from the newest back to and including the renditions one, so the
/// database has the schema before it; returns how many were reverted.
fn revert_to_before_renditions<C: MigrationHarness<B>, B: diesel::backend::Backend>(
    conn: &mut C,
    migrations: impl Fn() -> EmbeddedMigrations,
) -> usize {
    let mut reverted = 0;
    loop {
        let version = conn.revert_last_migration(migrations()).unwrap_or_else(|e| panic!("{e}"));
        reverted += 1;
        if version.to_string().contains("000004") {
            return reverted;
        }
    }
}

async fn check(test_db: &TestDb, reverted: usize) {
    let db = &test_db.db;
    let applied = db.migrate().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(applied.len(), reverted, "the renditions migration and those after it ran again: {applied:?}");
    let one = db.find(GifId(1)).await.unwrap_or_else(|e| panic!("{e}"));
    let facts = |kind| one.rendition(kind).map(|r| (r.key.clone(), r.content_type.clone(), r.size, r.width, r.height));
    assert_eq!(
        facts(RenditionKind::Original),
        Some(("gifs/a/original.gif".into(), "image/gif".into(), 123_456, 640, 480))
    );
    assert_eq!(
        facts(RenditionKind::Thumbnail),
        Some(("gifs/a/thumbnail.gif".into(), "image/gif".into(), 23_456, 320, 240))
    );
    assert_eq!(facts(RenditionKind::Still), Some(("gifs/a/static.png".into(), "image/png".into(), 3456, 320, 240)));
    assert_eq!((one.frame_count, one.view_count), (12, 3));
    let two = db.find(GifId(2)).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        two.blob_keys().collect::<Vec<_>>(),
        ["gifs/b/original.jpg", "gifs/b/thumbnail.jpg", "gifs/b/static.jpg"]
    );
    let mut keys = db.all_blob_keys().await.unwrap_or_else(|e| panic!("{e}"));
    keys.sort();
    assert_eq!(keys.len(), 6, "{keys:?}");
    // Deleting takes every rendition row with it.
    db.delete(GifId(2)).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(db.all_blob_keys().await.map(|k| k.len()).ok(), Some(3));
}

#[tokio::test]
async fn sqlite_rows_of_the_previous_schema_get_their_renditions() {
    let test_db = TestDb::sqlite();
    let path = test_db.url.trim_start_matches("sqlite://").to_owned();
    let reverted;
    {
        let mut conn = SqliteConnection::establish(&path).unwrap_or_else(|e| panic!("{e}"));
        reverted = revert_to_before_renditions(&mut conn, || SQLITE);
        conn.batch_execute(OLD_ROWS).unwrap_or_else(|e| panic!("{e}"));
    }
    check(&test_db, reverted).await;
}

#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
async fn postgres_rows_of_the_previous_schema_get_their_renditions() {
    let Some(test_db) = TestDb::postgres("renditions_migration") else { return };
    let reverted;
    {
        let mut conn = PgConnection::establish(&test_db.url).unwrap_or_else(|e| panic!("{e}"));
        reverted = revert_to_before_renditions(&mut conn, || POSTGRES);
        conn.batch_execute(OLD_ROWS).unwrap_or_else(|e| panic!("{e}"));
        conn.batch_execute("SELECT setval('gifs_id_seq', 2); SELECT setval('users_id_seq', 1);")
            .unwrap_or_else(|e| panic!("{e}"));
    }
    check(&test_db, reverted).await;
}
