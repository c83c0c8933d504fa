use std::sync::Arc;

use gifshelf_domain::make::{
    Direction, MadeGifData, Make, MakeError, MakeId, MakeState, Recipe, RecipeInput, SourceInfo,
};
use gifshelf_domain::media::MediaRejection;
use gifshelf_domain::ports::{
    MockBlobStore, MockClock, MockGifMaker, MockIdGenerator, MockMakeRepository, MockUrlFetcher, MockUserRepository,
};
use gifshelf_domain::user::{Role, UserId, Username};
use gifshelf_domain::RepoError;

use super::{MakeInput, MakeService, MakeSource, MakerLimits, MakerPorts};
use crate::auth::Actor;
use crate::gifs::test_support::{now, Mocks};
use crate::gifs::{FetchLimits, UrlImport};
use crate::AppError;

struct Ports {
    makes: MockMakeRepository,
    engine: MockGifMaker,
    blobs: MockBlobStore,
}

impl Ports {
    fn new() -> Self {
        Self { makes: MockMakeRepository::new(), engine: MockGifMaker::new(), blobs: MockBlobStore::new() }
    }

    fn service(self) -> MakeService {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(now());
        let clock = Arc::new(clock);
        let mut ids = MockIdGenerator::new();
        ids.expect_blob_prefix().return_const("random".to_owned());
        let gifs = Arc::new(Mocks::new().service());
        let url_import =
            UrlImport::new(gifs.clone(), Arc::new(MockUrlFetcher::new()), 100, FetchLimits::default(), clock.clone());
        MakeService::new(
            MakerPorts {
                makes: Arc::new(self.makes),
                engine: Arc::new(self.engine),
                blobs: Arc::new(self.blobs),
                users: Arc::new(MockUserRepository::new()),
                ids: Arc::new(ids),
                clock,
                gifs,
                url_import: Arc::new(url_import),
            },
            MakerLimits { max_source_bytes: 1000, max_source_secs: 10 },
        )
    }
}

fn alice() -> Actor {
    Actor::session(UserId(1), Username::from_trusted("alice".into()), Role::User)
}

fn recipe_input() -> RecipeInput {
    RecipeInput {
        start: 0.0,
        end: 2.0,
        crop: None,
        width: 320,
        fps: 10,
        speed: 1.0,
        direction: "forward".into(),
        loops: None,
        caption: None,
    }
}

fn data() -> MadeGifData {
    MadeGifData { title: "Made".into(), description: String::new(), tags: vec![], rating: None }
}

fn input(recipe: RecipeInput) -> MakeInput {
    MakeInput { sources: vec![MakeSource::File(vec![1, 2, 3])], gif_data: data(), recipe }
}

fn video(duration_ms: u32) -> SourceInfo {
    SourceInfo { video: true, width: 320, height: 240, duration_ms }
}

fn make(owner: i64, state: MakeState) -> Make {
    Make {
        id: MakeId(7),
        owner: UserId(owner),
        state,
        progress: 0.0,
        source_key: "make/random".into(),
        source_gif: None,
        recipe: Recipe {
            start_ms: 0,
            end_ms: 2000,
            crop: None,
            width: 320,
            fps: 10,
            speed: 1.0,
            direction: Direction::Forward,
            loops: 0,
            caption: None,
        },
        gif_data: data(),
        gif: None,
        error: None,
    }
}

#[tokio::test]
async fn a_bad_recipe_or_form_is_refused_before_the_source_is_read_or_kept() {
    let mut ports = Ports::new();
    ports.engine.expect_inspect().never();
    ports.blobs.expect_put().never();
    ports.makes.expect_create().never();
    let service = ports.service();
    let err = service.submit(&alice(), input(RecipeInput { fps: 12, ..recipe_input() })).await.err();
    assert!(matches!(&err, Some(AppError::Validation(v)) if v.field == "fps"), "{err:?}");
    let two = MakeInput {
        sources: vec![MakeSource::File(vec![1]), MakeSource::Url("http://x".into())],
        ..input(recipe_input())
    };
    let err = service.submit(&alice(), two).await.err();
    assert!(matches!(&err, Some(AppError::Validation(v)) if v.field == "file"), "{err:?}");
    let untitled = MakeInput { gif_data: MadeGifData { title: " ".into(), ..data() }, ..input(recipe_input()) };
    assert!(matches!(service.submit(&alice(), untitled).await, Err(AppError::Validation(_))));
    let big = MakeInput { sources: vec![MakeSource::File(vec![0; 1001])], ..input(recipe_input()) };
    assert!(matches!(service.submit(&alice(), big).await, Err(AppError::TooLarge(_))));
}

#[tokio::test]
async fn what_the_source_cannot_give_is_refused_and_nothing_is_kept() {
    let cases: [(SourceInfo, RecipeInput, &str); 3] = [
        (video(11_000), recipe_input(), "file"),
        (video(2_000), RecipeInput { start: 2.0, end: 3.0, ..recipe_input() }, "start"),
        (
            video(5_000),
            RecipeInput {
                crop: Some(gifshelf_domain::make::Crop { x: 310, y: 0, width: 16, height: 16 }),
                ..recipe_input()
            },
            "crop",
        ),
    ];
    for (info, recipe, field) in cases {
        let mut ports = Ports::new();
        ports.engine.expect_inspect().returning(move |_| Ok(info));
        ports.blobs.expect_put().never();
        ports.makes.expect_create().never();
        let err = ports.service().submit(&alice(), input(recipe)).await.err();
        assert!(matches!(&err, Some(AppError::Validation(v)) if v.field == field), "{field}: {err:?}");
    }
    let mut ports = Ports::new();
    ports.engine.expect_inspect().returning(|_| Err(MediaRejection::unsupported()));
    ports.blobs.expect_put().never();
    let err = ports.service().submit(&alice(), input(recipe_input())).await.err();
    assert!(matches!(err, Some(AppError::BadMedia(MediaRejection::UnsupportedType(_)))), "{err:?}");
}

#[tokio::test]
async fn a_make_that_cannot_be_queued_removes_its_source() {
    let mut ports = Ports::new();
    ports.engine.expect_inspect().returning(|_| Ok(video(5_000)));
    ports.blobs.expect_put().withf(|key, _, _| key == "make/random").times(1).returning(|_, _, _| Ok(()));
    ports.makes.expect_create().times(1).returning(|_| Err(RepoError::other("database down")));
    ports.blobs.expect_delete().withf(|key| key == "make/random").times(1).returning(|_| Ok(()));
    let err = ports.service().submit(&alice(), input(recipe_input())).await.err();
    assert!(matches!(err, Some(AppError::Internal(_))), "{err:?}");
}

#[tokio::test]
async fn only_its_maker_and_admins_see_a_make() {
    let mut ports = Ports::new();
    ports.makes.expect_find().returning(|_| Ok(make(2, MakeState::Running)));
    let service = ports.service();
    assert!(matches!(service.status(&alice(), MakeId(7)).await, Err(AppError::NotFound(_))));
    let bob = Actor::session(UserId(2), Username::from_trusted("bob".into()), Role::User);
    assert!(service.status(&bob, MakeId(7)).await.is_ok());
    let admin = Actor::session(UserId(3), Username::from_trusted("root".into()), Role::Admin);
    assert!(service.status(&admin, MakeId(7)).await.is_ok());
}

#[tokio::test]
async fn an_engine_refusal_fails_the_make_at_once_and_a_fault_is_left_to_the_retries() {
    let mut ports = Ports::new();
    ports.makes.expect_find().returning(|_| Ok(make(1, MakeState::Queued)));
    ports.makes.expect_progress().returning(|_, _, _| Ok(()));
    ports.blobs.expect_get().returning(|_| Ok(vec![1, 2, 3]));
    ports.engine.expect_make().returning(|_, _, _| Err(MediaRejection::invalid("The video could not be read.")));
    ports
        .makes
        .expect_fail()
        .withf(|id, error, _| {
            *id == MakeId(7)
                && *error == MakeError { code: "invalid_image".into(), message: "The video could not be read.".into() }
        })
        .times(1)
        .returning(|_, _, _| Ok(()));
    ports.blobs.expect_delete().withf(|key| key == "make/random").times(1).returning(|_| Ok(()));
    assert!(ports.service().run(MakeId(7)).await.is_ok(), "settled: not retried");

    let mut ports = Ports::new();
    ports.makes.expect_find().returning(|_| Ok(make(1, MakeState::Running)));
    ports.makes.expect_progress().returning(|_, _, _| Ok(()));
    ports.blobs.expect_get().returning(|_| Ok(vec![1, 2, 3]));
    ports.engine.expect_make().returning(|_, _, _| Err(MediaRejection::internal("ffmpeg was killed")));
    ports.makes.expect_fail().never();
    ports.blobs.expect_delete().never();
    let err = ports.service().run(MakeId(7)).await.err();
    assert!(matches!(err, Some(AppError::Internal(_))), "{err:?}");
}

#[tokio::test]
async fn a_make_given_up_fails_with_a_sentence_and_loses_its_source() {
    let mut ports = Ports::new();
    ports.makes.expect_find().returning(|_| Ok(make(1, MakeState::Running)));
    ports
        .makes
        .expect_fail()
        .withf(|_, error, _| error.code == "internal" && error.message == super::job::MAKE_GAVE_UP)
        .times(1)
        .returning(|_, _, _| Ok(()));
    ports.blobs.expect_delete().times(1).returning(|_| Ok(()));
    assert!(ports.service().give_up(MakeId(7), "gave up after 5 attempts").await.is_ok());
}
