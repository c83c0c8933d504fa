//! The job queue and the renditions made after an upload, on both databases.

use std::collections::HashSet;
use std::sync::Arc;

use chrono::Duration;
use gifshelf_db::Database;
use gifshelf_domain::gif::{GifId, NewGif, Rendition, RenditionKind};
use gifshelf_domain::job::{JobCounts, KindCounts, Task};
use gifshelf_domain::ports::{BlobKeyIndex, GifRepository, JobQueue, RenditionRepository};
use gifshelf_domain::RepoError;

use crate::gifs::{new_gif, t0, user};
use crate::on_both_backends;

fn ok<T, E: std::fmt::Display>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|e| panic!("{e}"))
}

async fn a_job_is_claimed_once_run_and_removed(db: &Database) {
    let id = ok(db.enqueue(Task::MakeRenditions(GifId(7)), t0()).await);
    // Not due before its time.
    assert_eq!(ok(db.claim("w1", t0() - Duration::seconds(1), t0() + Duration::minutes(5)).await), None);
    let job = ok(db.claim("w1", t0(), t0() + Duration::minutes(5)).await).unwrap_or_else(|| panic!("no job"));
    assert_eq!((job.id, job.kind.as_str(), job.payload.as_str(), job.attempts), (id, "make_renditions", "7", 1));
    assert_eq!(Task::decode(&job.kind, &job.payload), Ok(Task::MakeRenditions(GifId(7))));
    // Held: nobody else gets it while the lease lasts.
    assert_eq!(ok(db.claim("w2", t0() + Duration::minutes(1), t0() + Duration::minutes(6)).await), None);
    assert_eq!(ok(db.counts().await), JobCounts { queued: 0, running: 1, failed: 0 });
    assert_eq!(ok(db.pending(Task::MAKE_RENDITIONS).await), ["7"]);
    // Only its holder completes it.
    assert!(!ok(db.complete(id, "w2").await));
    assert!(ok(db.complete(id, "w1").await));
    assert_eq!(ok(db.counts().await), JobCounts::default());
    assert!(ok(db.pending(Task::MAKE_RENDITIONS).await).is_empty());
}

async fn a_job_whose_worker_died_runs_again_after_its_lease(db: &Database) {
    let id = ok(db.enqueue(Task::MakeRenditions(GifId(1)), t0()).await);
    let lease = t0() + Duration::minutes(5);
    assert!(ok(db.claim("dead", t0(), lease).await).is_some());
    // The worker died: after the lease another one takes the job, as a second attempt.
    let again = ok(db.claim("alive", lease + Duration::seconds(1), lease + Duration::minutes(5)).await)
        .unwrap_or_else(|| panic!("the expired job was not claimed again"));
    assert_eq!((again.id, again.attempts), (id, 2));
    // The dead worker's late answer changes nothing.
    assert!(!ok(db.complete(id, "dead").await));
    assert!(!ok(db.retry(id, "dead", "late", t0()).await));
    assert!(ok(db.complete(id, "alive").await));
}

async fn a_failed_attempt_waits_then_a_last_one_is_kept_with_its_error(db: &Database) {
    let id = ok(db.enqueue(Task::MakeRenditions(GifId(3)), t0()).await);
    let lease = t0() + Duration::minutes(5);
    ok(db.claim("w", t0(), lease).await);
    assert!(ok(db.retry(id, "w", "ffmpeg crashed", t0() + Duration::seconds(30)).await));
    assert_eq!(ok(db.counts().await), JobCounts { queued: 1, running: 0, failed: 0 });
    assert_eq!(ok(db.claim("w", t0() + Duration::seconds(29), lease).await), None, "it waits its back-off");
    let second = ok(db.claim("w", t0() + Duration::seconds(30), lease).await).unwrap_or_else(|| panic!("not due"));
    assert_eq!(second.attempts, 2);
    assert!(ok(db.give_up(id, "w", "ffmpeg crashed again").await));
    assert_eq!(ok(db.counts().await), JobCounts { queued: 0, running: 0, failed: 1 });
    // Failed jobs never run again by themselves, and keep their error.
    assert_eq!(ok(db.claim("w", t0() + Duration::days(1), t0() + Duration::days(2)).await), None);
    let failed = ok(db.failed(10).await);
    assert_eq!(failed.len(), 1);
    assert_eq!((failed[0].id, failed[0].attempts, failed[0].last_error.as_str()), (id, 2, "ffmpeg crashed again"));
    assert!(ok(db.pending(Task::MAKE_RENDITIONS).await).is_empty());
}

async fn the_same_work_is_queued_once_until_it_is_given_up(db: &Database) {
    let first = ok(db.enqueue(Task::MakeRenditions(GifId(5)), t0()).await);
    let again = ok(db.enqueue(Task::MakeRenditions(GifId(5)), t0() + Duration::seconds(1)).await);
    assert_eq!(again, first, "enqueueing the same work twice returns the waiting job");
    let other = ok(db.enqueue(Task::MakeRenditions(GifId(6)), t0()).await);
    assert_ne!(other, first);
    assert_eq!(ok(db.counts().await), JobCounts { queued: 2, running: 0, failed: 0 });
    assert_eq!(ok(db.pending(Task::MAKE_RENDITIONS).await), ["5", "6"]);
    assert!(ok(db.pending("some_other_kind").await).is_empty(), "pending is per kind");
    // Running counts as queued: a second enqueue still adds nothing.
    let job = ok(db.claim("w", t0(), t0() + Duration::minutes(5)).await).unwrap_or_else(|| panic!("no job"));
    assert_eq!(job.id, first);
    assert_eq!(ok(db.enqueue(Task::MakeRenditions(GifId(5)), t0()).await), first);
    // Once given up on, the work may be queued afresh (the failed job stays as a record).
    assert!(ok(db.give_up(first, "w", "broken").await));
    let fresh = ok(db.enqueue(Task::MakeRenditions(GifId(5)), t0()).await);
    assert_ne!(fresh, first);
    assert_eq!(ok(db.counts().await), JobCounts { queued: 2, running: 0, failed: 1 });
}

async fn a_gif_and_its_jobs_are_stored_in_one_transaction(db: &Database) {
    let uploader = user(db, "jobs").await;
    let fingerprint = gifshelf_domain::gif::Fingerprint { sha256: "ab".into(), phash: None };
    let first = NewGif {
        jobs: vec![Task::MakeRenditions],
        fingerprint: fingerprint.clone(),
        ..new_gif(uploader, 1, "A", "", &[])
    };
    let gif = ok(db.insert(first).await);
    assert_eq!(ok(db.pending(Task::MAKE_RENDITIONS).await), [gif.id.0.to_string()]);
    // The same original again: the insert fails, and leaves no job behind.
    let twin = NewGif { jobs: vec![Task::MakeRenditions], fingerprint, ..new_gif(uploader, 2, "B", "", &[]) };
    assert!(matches!(db.insert(twin).await, Err(RepoError::Conflict(gifshelf_domain::Unique::Sha256))));
    assert_eq!(ok(db.pending(Task::MAKE_RENDITIONS).await), [gif.id.0.to_string()]);
    assert_eq!(ok(db.counts().await), JobCounts { queued: 1, running: 0, failed: 0 });
}

async fn jobs_run_oldest_first(db: &Database) {
    for n in [3, 1, 2] {
        ok(db.enqueue(Task::MakeRenditions(GifId(n)), t0() + Duration::seconds(n)).await);
    }
    let mut order = Vec::new();
    while let Some(job) = ok(db.claim("w", t0() + Duration::minutes(1), t0() + Duration::minutes(9)).await) {
        order.push(job.payload.clone());
        assert!(ok(db.complete(job.id, "w").await));
    }
    assert_eq!(order, ["1", "2", "3"]);
}

/// Many claimers at once (threads with their own connections): each job is handed out once.
async fn concurrent_claims_never_share_a_job(db: &Database) {
    for n in 0..40 {
        ok(db.enqueue(Task::MakeRenditions(GifId(n)), t0()).await);
    }
    let db = Arc::new(db.clone());
    let claimers = (0..6).map(|w| {
        let db = db.clone();
        tokio::spawn(async move {
            let mut mine = Vec::new();
            let name = format!("w{w}");
            while let Some(job) = ok(db.claim(&name, t0(), t0() + Duration::minutes(5)).await) {
                mine.push(job.id);
                assert!(ok(db.complete(job.id, &name).await));
            }
            mine
        })
    });
    let mut seen = HashSet::new();
    let mut total = 0;
    for claimer in claimers {
        for id in ok(claimer.await) {
            total += 1;
            assert!(seen.insert(id), "job {id:?} was claimed twice");
        }
    }
    assert_eq!(total, 40);
}

fn video(kind: RenditionKind, size: i64, preferred: bool) -> Rendition {
    Rendition {
        kind,
        key: format!("gifs/p1/{}.mp4", kind.as_str()),
        content_type: "video/mp4".into(),
        size,
        width: 320,
        height: 240,
        frames: 5,
        duration_ms: Some(500),
        codec: Some("h264".into()),
        preferred,
    }
}

async fn renditions_made_later_join_the_gif_and_flags_move(db: &Database) {
    let alice = user(db, "alice").await;
    let gif = ok(db.insert(new_gif(alice, 1, "Cat", "", &[])).await);
    let second = ok(db.insert(new_gif(alice, 2, "Dog", "", &[])).await);
    let mut original = gif.rendition(RenditionKind::Original).cloned().unwrap_or_else(|| panic!("no original"));
    original.preferred = false;
    let saved = ok(db
        .save_renditions(
            gif.id,
            vec![original, video(RenditionKind::Mp4, 80, true), video(RenditionKind::Mp4Small, 40, true)],
            true,
        )
        .await);
    let mp4 = saved.rendition(RenditionKind::Mp4).cloned().unwrap_or_else(|| panic!("no mp4"));
    assert_eq!((mp4.frames, mp4.duration_ms, mp4.codec.as_deref(), mp4.preferred), (5, Some(500), Some("h264"), true));
    assert!(saved.rendition(RenditionKind::Original).is_some_and(|r| !r.preferred));
    assert_eq!(saved.renditions.len(), 5);
    // Read back the same through every path, and known to fsck.
    assert_eq!(ok(db.find(gif.id).await).renditions, saved.renditions);
    assert!(ok(db.all_blob_keys().await).contains(&"gifs/p1/mp4_small.mp4".to_owned()));
    // The backfill's view: frames and kinds per GIF, by id.
    let kinds = ok(db.rendition_kinds_after(GifId(0), 10).await);
    assert_eq!(kinds.len(), 2);
    assert_eq!((kinds[0].id, kinds[0].frames), (gif.id, 5));
    assert!(kinds[0].kinds.contains(&RenditionKind::Mp4Small) && !kinds[1].kinds.contains(&RenditionKind::Mp4));
    // The job recorded the first as transparent; the second keeps what its upload said.
    assert_eq!((kinds[0].transparent, kinds[1].transparent), (Some(true), Some(false)));
    assert_eq!(ok(db.find(gif.id).await).transparent, Some(true));
    assert_eq!(ok(db.rendition_kinds_after(gif.id, 10).await).len(), 1);
    assert_eq!(ok(db.gif_count().await), 2);
    // A GIF deleted meanwhile: NotFound, nothing stored.
    ok(db.delete(second.id).await);
    let gone = db.save_renditions(second.id, vec![video(RenditionKind::Mp4, 1, true)], false).await;
    assert!(matches!(gone, Err(RepoError::NotFound)), "{gone:?}");
    // Deleting the GIF takes its video rows along.
    let deleted = ok(db.delete(gif.id).await);
    assert!(deleted.rendition(RenditionKind::Mp4Small).is_some());
    assert!(!ok(db.all_blob_keys().await).iter().any(|k| k.contains("mp4")));
}

async fn counts_by_kind_say_how_long_the_oldest_job_waits(db: &Database) {
    assert!(ok(db.counts_by_kind().await).is_empty(), "no jobs, no kinds");
    ok(db.enqueue(Task::MakeRenditions(GifId(1)), t0()).await);
    ok(db.enqueue(Task::MakeRenditions(GifId(2)), t0() + Duration::seconds(10)).await);
    ok(db.enqueue(Task::MakeRenditions(GifId(3)), t0() + Duration::seconds(20)).await);
    // The oldest one is claimed: the queue's age is now the second one's.
    let claimed = ok(db.claim("w", t0() + Duration::seconds(30), t0() + Duration::minutes(5)).await);
    assert_eq!(claimed.map(|j| j.payload), Some("1".to_owned()));
    let kinds = ok(db.counts_by_kind().await);
    let expected = KindCounts {
        kind: Task::MAKE_RENDITIONS.to_owned(),
        counts: JobCounts { queued: 2, running: 1, failed: 0 },
        oldest_queued: Some(t0() + Duration::seconds(10)),
    };
    assert_eq!(kinds, [expected]);
}

on_both_backends!(
    counts_by_kind_say_how_long_the_oldest_job_waits,
    a_job_is_claimed_once_run_and_removed,
    the_same_work_is_queued_once_until_it_is_given_up,
    a_gif_and_its_jobs_are_stored_in_one_transaction,
    a_job_whose_worker_died_runs_again_after_its_lease,
    a_failed_attempt_waits_then_a_last_one_is_kept_with_its_error,
    jobs_run_oldest_first,
    concurrent_claims_never_share_a_job,
    renditions_made_later_join_the_gif_and_flags_move,
);
