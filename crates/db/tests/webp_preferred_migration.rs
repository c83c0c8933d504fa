//! The migration that lets the animated WebPs compete for `preferred` on the GIFs stored before,
//! run again over rows marked by the rule before it, on both backends: a transparent animation
//! plays its WebP where that is its smallest file, an opaque one its smallest (a video here), a
//! still image or a GIF whose transparency is not known yet keeps its flags.

use diesel::{Connection, PgConnection, SqliteConnection};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};
use gifshelf_db::testing::{execute, seed, TestDb};
use gifshelf_domain::gif::GifId;
use gifshelf_domain::ports::GifRepository;

const SQLITE: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");
const POSTGRES: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");

/// Reverts the latest migrations, down to and including the one whose version names `version`.
fn revert_to_before<DB: diesel::backend::Backend>(
    conn: &mut impl MigrationHarness<DB>,
    migrations: impl Fn() -> EmbeddedMigrations,
    version: &str,
) {
    loop {
        let reverted = conn.revert_last_migration(migrations()).unwrap_or_else(|e| panic!("{e}"));
        if reverted.to_string().contains(version) {
            return;
        }
    }
}

/// Four GIFs as the rule before marked them (the GIFs preferred, WebPs never): 1 a transparent
/// animation, 2 an opaque one, 3 a transparent still image, 4 an animation not yet looked at.
fn stale_rows() -> String {
    let mut sql = String::from(
        "UPDATE gifs SET frame_count = 24, transparent = TRUE WHERE id = 1;
         UPDATE gifs SET frame_count = 24, transparent = FALSE WHERE id = 2;
         UPDATE gifs SET frame_count = 1, transparent = TRUE WHERE id = 3;
         UPDATE gifs SET frame_count = 24, transparent = NULL WHERE id = 4;
         DELETE FROM gif_renditions;",
    );
    for gif in 1..=4 {
        // (kind, bytes, preferred by the old rule)
        let rows: [(&str, i64, bool); 8] = [
            ("original", 400_000, false),
            ("medium", 300_000, true),
            ("thumbnail", 90_000, true),
            ("still", 9_000, false),
            ("fixed_height", 60_000, true),
            ("mp4", if gif == 2 { 40_000 } else { 500_000 }, false),
            ("webp", 130_000, false),
            ("webp_fixed_height", 20_000, false),
        ];
        for (kind, size, preferred) in rows {
            sql.push_str(&format!(
                "INSERT INTO gif_renditions (gif_id, kind, blob_key, content_type, size, width, height, frames, \
                 duration_ms, codec, preferred) VALUES ({gif}, '{kind}', 'gifs/{gif}/{kind}', 'image/gif', {size}, \
                 512, 512, 24, 2400, NULL, {preferred});"
            ));
        }
    }
    // The old rule let the opaque animation's smaller video play already.
    sql.push_str(
        "UPDATE gif_renditions SET preferred = (kind IN ('mp4', 'thumbnail', 'fixed_height')) WHERE gif_id = 2;",
    );
    sql
}

async fn preferred(test_db: &TestDb, id: i64) -> Vec<&'static str> {
    let gif = test_db.db.find(GifId(id)).await.unwrap_or_else(|e| panic!("{e}"));
    gif.renditions.iter().filter(|r| r.preferred).map(|r| r.kind.as_str()).collect()
}

async fn check(test_db: &TestDb) {
    let applied = test_db.db.migrate().unwrap_or_else(|e| panic!("{e}"));
    assert!(applied.first().is_some_and(|m| m.contains("000028")), "{applied:?}");
    assert_eq!(preferred(test_db, 1).await, ["thumbnail", "webp", "webp_fixed_height"]);
    assert_eq!(preferred(test_db, 2).await, ["thumbnail", "mp4", "webp_fixed_height"]);
    assert_eq!(preferred(test_db, 3).await, ["thumbnail", "fixed_height", "medium"], "a still keeps its GIFs");
    assert_eq!(preferred(test_db, 4).await, ["thumbnail", "fixed_height", "medium"], "not looked at yet");
}

#[tokio::test]
async fn sqlite_webps_compete_for_preferred_on_gifs_stored_before() {
    let test_db = TestDb::sqlite();
    seed(&test_db.db, 1, 4, 0).unwrap_or_else(|e| panic!("{e}"));
    execute(&test_db.db, &stale_rows()).unwrap_or_else(|e| panic!("{e}"));
    let path = test_db.url.trim_start_matches("sqlite://").to_owned();
    {
        let mut conn = SqliteConnection::establish(&path).unwrap_or_else(|e| panic!("{e}"));
        revert_to_before(&mut conn, || SQLITE, "000028");
    }
    check(&test_db).await;
}

#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
async fn postgres_webps_compete_for_preferred_on_gifs_stored_before() {
    let Some(test_db) = TestDb::postgres("webp_preferred_migration") else { return };
    seed(&test_db.db, 1, 4, 0).unwrap_or_else(|e| panic!("{e}"));
    execute(&test_db.db, &stale_rows()).unwrap_or_else(|e| panic!("{e}"));
    {
        let mut conn = PgConnection::establish(&test_db.url).unwrap_or_else(|e| panic!("{e}"));
        revert_to_before(&mut conn, || POSTGRES, "000028");
    }
    check(&test_db).await;
}
