#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed step should stop the test loudly
//! The `MediaProcessor` port as the server uses it: refusals map to clear rejections and a full
//! house answers "busy".

mod common;

use std::sync::Arc;
use std::time::Duration;

use gifshelf_domain::gif::RenditionKind;
use gifshelf_domain::media::MediaRejection;
use gifshelf_domain::ports::MediaProcessor;
use gifshelf_media::{Limits, MediaService};

#[tokio::test]
async fn accepts_a_gif_and_refuses_bad_bytes_clearly() {
    let service = MediaService::new(Limits::default(), 2, Duration::from_secs(5));
    let gif = common::solid_gif(64, 48, 3);
    // The renditions come back in the order asked for, each kind once.
    let asked = [RenditionKind::Still, RenditionKind::Original, RenditionKind::Thumbnail];
    let processed = service.process(Arc::new(gif.clone()), &asked).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((processed.content_type.as_str(), processed.extension.as_str()), ("image/gif", "gif"));
    assert_eq!((processed.width, processed.height, processed.frames), (64, 48, 3));
    let kinds: Vec<RenditionKind> = processed.renditions.iter().map(|(k, _)| *k).collect();
    assert_eq!(kinds, asked);
    let types: Vec<&str> = processed.renditions.iter().map(|(_, r)| r.content_type.as_str()).collect();
    assert_eq!(types, ["image/png", "image/gif", "image/gif"]);
    assert_eq!(processed.renditions[1].1.bytes, gif, "a GIF without metadata is stored as uploaded");
    let twice = service.process(Arc::new(gif), &[RenditionKind::Still, RenditionKind::Still]).await;
    assert!(matches!(twice, Err(MediaRejection::Internal(_))), "{twice:?}");

    let html = service.process(Arc::new(b"<html><script>alert(1)</script></html>".to_vec()), &RenditionKind::ALL).await;
    assert!(matches!(html, Err(MediaRejection::UnsupportedType(_))), "{html:?}");
    let mut bomb = b"GIF89a".to_vec();
    bomb.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0, 0, 0]);
    bomb.extend_from_slice(&[0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3b]);
    assert!(matches!(
        service.process(Arc::new(bomb), &RenditionKind::ALL).await,
        Err(MediaRejection::ImageTooLarge(_))
    ));
}

#[tokio::test]
async fn a_full_house_is_busy_not_queued_forever() {
    let service = MediaService::new(Limits::default(), 1, Duration::from_millis(50));
    let big = Arc::new(common::solid_gif(1600, 1200, 40));
    let first = {
        let service = service.clone();
        let big = big.clone();
        tokio::spawn(async move { service.process(big, &RenditionKind::AT_UPLOAD).await })
    };
    // The first holds the only slot before the second asks.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while service.free_slots() > 0 {
        assert!(std::time::Instant::now() < deadline, "the first job never started");
        tokio::task::yield_now().await;
    }
    let second = service.process(big, &RenditionKind::AT_UPLOAD).await;
    assert!(matches!(second, Err(MediaRejection::Busy)), "{second:?}");
    assert!(first.await.map(|r| r.is_ok()).unwrap_or(false));
}
