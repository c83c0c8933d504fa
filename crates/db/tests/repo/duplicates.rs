use gifshelf_db::Database;
use gifshelf_domain::gif::{Fingerprint, GifId, PerceptualHash};
use gifshelf_domain::ports::{FingerprintRepository, GifRepository};
use gifshelf_domain::user::UserId;
use gifshelf_domain::{RepoError, Unique};

use crate::gifs::{new_gif, user};
use crate::on_both_backends;

fn fingerprint(sha: &str, phash: Option<u64>) -> Fingerprint {
    Fingerprint { sha256: sha.repeat(64 / sha.len()), phash: phash.map(PerceptualHash) }
}

async fn insert(db: &Database, alice: UserId, n: i64, title: &str, fp: Fingerprint) -> GifId {
    let mut gif = new_gif(alice, n, title, "", &[]);
    gif.fingerprint = fp;
    db.insert(gif).await.unwrap_or_else(|e| panic!("{e}")).id
}

async fn the_same_original_twice_is_a_conflict_and_old_rows_without_one_are_not(db: &Database) {
    let alice = user(db, "alice").await;
    let first = insert(db, alice, 1, "first", fingerprint("ab", Some(1))).await;
    assert_eq!(db.find_by_sha256(&"ab".repeat(32)).await.ok(), Some(Some(first)));
    assert_eq!(db.find_by_sha256(&"cd".repeat(32)).await.ok(), Some(None));
    let mut again = new_gif(alice, 2, "again", "", &[]);
    again.fingerprint = fingerprint("ab", None);
    assert!(matches!(db.insert(again).await, Err(RepoError::Conflict(Unique::Sha256))));
    // Rows stored before fingerprints (NULL) never clash with each other.
    insert(db, alice, 3, "old one", Fingerprint::default()).await;
    insert(db, alice, 4, "old two", Fingerprint::default()).await;
    let missing = db.without_fingerprint(GifId(0), 10).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(missing.len(), 2);
    assert_eq!(missing[0].1, "gifs/p3/original.gif");
    db.set_fingerprint(missing[0].0, &fingerprint("ef", Some(7))).await.unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(
        db.set_fingerprint(missing[1].0, &fingerprint("ab", None)).await,
        Err(RepoError::Conflict(Unique::Sha256))
    ));
    assert_eq!(db.without_fingerprint(GifId(0), 10).await.map(|m| m.len()).ok(), Some(1));
    assert_eq!(db.without_fingerprint(missing[1].0, 10).await.map(|m| m.len()).ok(), Some(0));
}

async fn near_hashes_are_found_through_the_bands_and_far_ones_are_not(db: &Database) {
    let alice = user(db, "alice").await;
    let base: u64 = 0x0123_4567_89AB_CDEF;
    let cat = insert(db, alice, 1, "cat", fingerprint("a1", Some(base))).await;
    // 4 bits away, in every band but the first.
    let resized = insert(
        db,
        alice,
        2,
        "cat resized",
        fingerprint("a2", Some(base ^ 0b1_0000_0000_0000_0001_0000_0000_0001_0001)),
    )
    .await;
    // One whole band equal, but 20 bits away: a candidate, then dropped.
    let other = insert(db, alice, 3, "dog", fingerprint("a3", Some(base ^ 0x0000_0000_000F_FFFF))).await;
    let _flat = insert(db, alice, 4, "flat", fingerprint("a4", None)).await;
    let similar = db.similar(PerceptualHash(base), None, 5).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(similar.iter().map(|s| s.id).collect::<Vec<_>>(), [cat, resized]);
    let like_cat = db.similar(PerceptualHash(base), Some(cat), 5).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(like_cat.iter().map(|s| (s.id, s.title.as_str())).collect::<Vec<_>>(), [(resized, "cat resized")]);
    assert_eq!(db.phash_of(other).await.ok(), Some(Some(PerceptualHash(base ^ 0x0000_0000_000F_FFFF))));
    let groups = db.near_duplicate_groups().await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        groups.iter().map(|g| g.iter().map(|s| s.id).collect::<Vec<_>>()).collect::<Vec<_>>(),
        [vec![cat, resized]]
    );
    assert!(matches!(db.phash_of(GifId(999)).await, Err(RepoError::NotFound)));
}

async fn the_hash_keeps_all_64_bits_on_both_backends(db: &Database) {
    let alice = user(db, "alice").await;
    let high = insert(db, alice, 1, "high bit", fingerprint("b1", Some(u64::MAX - 1))).await;
    assert_eq!(db.phash_of(high).await.ok(), Some(Some(PerceptualHash(u64::MAX - 1))));
}

on_both_backends!(
    the_same_original_twice_is_a_conflict_and_old_rows_without_one_are_not,
    near_hashes_are_found_through_the_bands_and_far_ones_are_not,
    the_hash_keeps_all_64_bits_on_both_backends
);
