//! A tag that an edit creates while an admin deletes it: the edit never fails, whichever comes
//! first, on both backends.

use chrono::NaiveDate;
use gifshelf_db::testing::TestDb;
use gifshelf_db::Database;
use gifshelf_domain::gif::{
    Description, Fingerprint, GifEdit, GifId, NewGif, Rendition, RenditionKind, Renditions, TagName, Title,
};
use gifshelf_domain::ports::{GifRepository, TagRepository, UserRepository};
use gifshelf_domain::user::{Email, NewUser, PasswordHash, Role, Username};
use gifshelf_domain::RepoError;

async fn one_gif(db: &Database) -> GifId {
    let at = NaiveDate::from_ymd_opt(2026, 11, 24).and_then(|d| d.and_hms_opt(10, 0, 0)).unwrap_or_default();
    let user = NewUser {
        username: Username::parse("alice").unwrap_or_else(|e| panic!("{e}")),
        email: Email::parse("alice@example.com").unwrap_or_else(|e| panic!("{e}")),
        password_hash: PasswordHash("h".into()),
        role: Role::User,
        created_at: at,
    };
    let alice = UserRepository::create(db, user, false).await.unwrap_or_else(|e| panic!("{e}"));
    let original = Rendition {
        kind: RenditionKind::Original,
        key: "gifs/a/original.gif".into(),
        content_type: "image/gif".into(),
        size: 10,
        width: 1,
        height: 1,
        frames: 1,
        duration_ms: None,
        codec: None,
        preferred: true,
    };
    let gif = NewGif {
        share_id: "race".into(),
        title: Title::parse("race").unwrap_or_else(|e| panic!("{e}")),
        description: Description::default(),
        tags: vec![],
        uploader_id: alice.id,
        uploaded_at: at,
        frame_count: 1,
        rating: gifshelf_domain::gif::Rating::G,
        renditions: Renditions::new([original]),
        fingerprint: Fingerprint::default(),
        jobs: Vec::new(),
        caption_text: None,
        transparent: false,
    };
    db.insert(gif).await.unwrap_or_else(|e| panic!("{e}")).id
}

async fn edits_survive_a_concurrent_tag_delete(db: &Database) {
    let id = one_gif(db).await;
    let tag = TagName::parse("race").unwrap_or_else(|e| panic!("{e}"));
    for round in 0..60 {
        let edit = GifEdit {
            title: Title::parse(&format!("round {round}")).unwrap_or_else(|e| panic!("{e}")),
            description: Description::default(),
            tags: vec![tag.clone()],
            rating: None,
            caption_text: None,
            at: NaiveDate::from_ymd_opt(2026, 11, 24).and_then(|d| d.and_hms_opt(11, 0, 0)).unwrap_or_default(),
        };
        let delete = async {
            match db.find_by_name(&tag).await {
                Ok(found) => db.delete_tag(found.id).await,
                Err(err) => Err(err),
            }
        };
        let (edited, deleted) = tokio::join!(db.update(id, edit), delete);
        assert!(edited.is_ok(), "round {round}: the edit failed: {edited:?}");
        assert!(matches!(deleted, Ok(()) | Err(RepoError::NotFound)), "round {round}: {deleted:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite() {
    let test_db = TestDb::sqlite();
    edits_survive_a_concurrent_tag_delete(&test_db.db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
async fn postgres() {
    let Some(test_db) = TestDb::postgres("tag_race") else { return };
    edits_survive_a_concurrent_tag_delete(&test_db.db).await;
}
