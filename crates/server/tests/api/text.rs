//! The text in GIFs ("Find it by what it says"): `captionText` kept, edited and searched; the
//! search box's suggestions; relevance; and, with the real Tesseract (the job workers read each
//! upload), captions found by a word, a phrase and a typo, a GIF without text, an owner's edit
//! that a later reading leaves alone, Tenor's `hascaption` and GIPHY's `translate`.

use std::time::{Duration, Instant};

use gifshelf_db::Database;
use gifshelf_domain::gif::GifId;
use gifshelf_domain::job::Task;
use gifshelf_domain::ports::{CaptionRepository, JobQueue};
use gifshelf_http::dto::{CreatedApiKeyDto, GifDto, PagedGifs, SuggestionDto};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{dto_of, error_of, json_of, Backend, Client};
use crate::{app, on_both_backends};

async fn edit_text(client: &Client, gif: &GifDto, text: Option<&str>) -> reqwest::Response {
    let mut body = json!({"title": gif.title, "description": gif.description,
        "tags": gif.tags.iter().map(|t| t.name.clone()).collect::<Vec<_>>()});
    if let Some(text) = text {
        body["captionText"] = json!(text);
    }
    client.put_json(&format!("/api/gifs/{}", gif.id), &body).await
}

async fn titles_found(client: &Client, q: &str) -> Vec<String> {
    let path = format!("/api/gifs/dtos/search?q={}&size=20", urlencode(q));
    let page: PagedGifs = client.read(&path).await;
    page.content.into_iter().map(|g| g.title).collect()
}

fn urlencode(q: &str) -> String {
    serde_urlencoded::to_string([("q", q)]).unwrap_or_default().trim_start_matches("q=").to_owned()
}

async fn suggested(client: &Client, q: &str) -> Vec<String> {
    let found: Vec<SuggestionDto> = client.read(&format!("/api/search/suggestions?q={}", urlencode(q))).await;
    found.into_iter().map(|s| format!("{} ({})", s.text, s.kind)).collect()
}

async fn the_text_is_edited_by_its_owner_and_admins_and_searched(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    let gif = alice.upload_gif("Office dog", "", &["dog"]).await;
    assert_eq!(gif.caption_text, None, "not read yet: no job worker runs here");

    let edited: GifDto = dto_of(edit_text(&alice, &gif, Some("  THIS IS\nFINE ")).await, StatusCode::OK).await;
    assert_eq!(edited.caption_text.as_deref(), Some("THIS IS\nFINE"));
    assert_eq!(alice.gif(gif.id).await.caption_text.as_deref(), Some("THIS IS\nFINE"));
    // Absent: the text stays. Found by its words, and by a phrase running across its lines.
    let kept: GifDto = dto_of(edit_text(&alice, &gif, None).await, StatusCode::OK).await;
    assert_eq!(kept.caption_text.as_deref(), Some("THIS IS\nFINE"));
    assert_eq!(titles_found(&bob, "fine").await, ["Office dog"]);
    assert_eq!(titles_found(&bob, "\"is fine\"").await, ["Office dog"]);
    assert!(titles_found(&bob, "\"fine is\"").await.is_empty(), "a phrase keeps its order");

    // Others may not; too long or control characters are refused; nothing changes.
    error_of(edit_text(&bob, &gif, Some("mine")).await, StatusCode::FORBIDDEN, "forbidden").await;
    let long = "x".repeat(501);
    let refused = error_of(edit_text(&alice, &gif, Some(&long)).await, StatusCode::BAD_REQUEST, "validation").await;
    assert!(refused.contains("500"), "{refused}");
    error_of(edit_text(&alice, &gif, Some("bell\u{7}")).await, StatusCode::BAD_REQUEST, "validation").await;
    assert_eq!(alice.gif(gif.id).await.caption_text.as_deref(), Some("THIS IS\nFINE"));
    let by_admin: GifDto = dto_of(edit_text(&admin, &gif, Some(&"é".repeat(500))).await, StatusCode::OK).await;
    assert_eq!(by_admin.caption_text.map(|t| t.chars().count()), Some(500));

    // "" clears it, and the search forgets it.
    let cleared: GifDto = dto_of(edit_text(&alice, &gif, Some("")).await, StatusCode::OK).await;
    assert_eq!(cleared.caption_text, None);
    assert!(titles_found(&bob, "fine").await.is_empty());
    assert_eq!(titles_found(&bob, "office").await, ["Office dog"]);
}

async fn suggestions_propose_tags_searches_titles_and_caption_words(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    let party = alice.upload_gif("Party parrot", "", &["parrot", "party"]).await;
    let fine = alice.upload_gif("Office dog", "", &[]).await;
    dto_of::<GifDto>(edit_text(&alice, &fine, Some("Parting is such sweet sorrow")).await, StatusCode::OK).await;
    // The web app's first-page searches with results are counted.
    assert_eq!(titles_found(&bob, "party").await, ["Party parrot"]);
    assert!(titles_found(&bob, "partyzzz").await.is_empty(), "no results: not counted");

    // Kinds take turns: a tag, a search, a title, a caption word; each text once, lower case.
    assert_eq!(
        suggested(&bob, "PAR").await,
        ["parrot (tag)", "party (search)", "party parrot (title)", "parting (caption)"]
    );
    assert_eq!(suggested(&bob, "party").await, ["party (tag)", "party parrot (title)"]);
    assert_eq!(suggested(&bob, "is su").await, ["is such (caption)"]);
    // Fewer than two characters, or nothing starting so: nothing.
    assert!(suggested(&bob, "p").await.is_empty());
    assert!(suggested(&bob, "").await.is_empty());
    assert!(suggested(&bob, "zz").await.is_empty());
    let long = "x".repeat(300);
    assert!(suggested(&bob, &long).await.is_empty());
    error_of(app.anonymous().get("/api/search/suggestions?q=pa").await, StatusCode::UNAUTHORIZED, "unauthorized").await;

    // A hidden GIF lends nothing to others' suggestions.
    let hide = admin.put_json(&format!("/api/admin/gifs/{}/visibility", party.id), &json!({"hidden": true})).await;
    assert!(hide.status().is_success(), "{}", hide.status());
    // (What people searched for is no GIF's: it stays.)
    assert_eq!(suggested(&bob, "par").await, ["party (search)", "parting (caption)"]);
    assert_eq!(
        suggested(&alice, "par").await,
        ["parrot (tag)", "party (search)", "party parrot (title)", "parting (caption)"],
        "the owner still sees hers"
    );
}

async fn a_search_without_sort_ranks_title_then_tags_then_description_then_text(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let in_text = alice.upload_gif("Zero", "", &[]).await;
    dto_of::<GifDto>(edit_text(&alice, &in_text, Some("banana")).await, StatusCode::OK).await;
    alice.upload_gif("One", "a banana here", &[]).await;
    alice.upload_gif("Banana title", "", &[]).await;
    alice.upload_gif("Two", "", &["banana"]).await;
    alice.upload_gif("Three", "", &[]).await;
    assert_eq!(titles_found(&alice, "banana").await, ["Banana title", "Two", "One", "Zero"]);
    // With a sort, that order.
    let page: PagedGifs = alice.read("/api/gifs/dtos/search?q=banana&sort=oldest").await;
    assert_eq!(
        page.content.iter().map(|g| g.title.as_str()).collect::<Vec<_>>(),
        ["Zero", "One", "Banana title", "Two"]
    );
    // One typo in a word of five letters or more; never for shorter words.
    assert_eq!(titles_found(&alice, "bananna").await.len(), 4);
    // The typo may be the GIF's: found by the word as typed right, below every GIF that has it.
    alice.upload_gif("Bannana split", "", &[]).await;
    assert_eq!(titles_found(&alice, "banana").await, ["Banana title", "Two", "One", "Zero", "Bannana split"]);
    assert_eq!(titles_found(&alice, "bannana").await[0], "Bannana split", "its own word first");
    assert_eq!(titles_found(&alice, "bnana").await.len(), 4);
    assert!(titles_found(&alice, "bananxxa").await.is_empty(), "two typos");
    assert!(titles_found(&alice, "canana").await.is_empty(), "a first letter changed is not taken for a typo");
    assert_eq!(titles_found(&alice, "abnana").await.len(), 4, "the first two letters swapped are");
    assert_eq!(titles_found(&alice, "thre").await, ["Three"], "a part of a word still matches");
    assert!(titles_found(&alice, "tw0").await.is_empty(), "short words are not forgiven");
}

on_both_backends!(
    the_text_is_edited_by_its_owner_and_admins_and_searched,
    suggestions_propose_tags_searches_titles_and_caption_words,
    a_search_without_sort_ranks_title_then_tags_then_description_then_text
);

/// With the real Tesseract: workers read every upload.
#[cfg(tesseract_tests)]
mod read {
    use super::*;
    use gifshelf_media::caption::{Caption, CaptionPlace, CaptionSize};
    use gifshelf_media::testing::captioned_gif;

    const WITH_WORKERS: &[(&str, &str)] = &[("GIFSHELF_WORKERS", "1"), ("GIFSHELF_JOB_POLL_MS", "50")];

    fn captioned(text: Option<&str>, w: u16, h: u16) -> Vec<u8> {
        let caption = text.map(|t| Caption { text: t.into(), place: CaptionPlace::Bottom, size: CaptionSize::Large });
        captioned_gif(w, h, 8, caption.as_ref(), false)
    }

    async fn upload(client: &Client, bytes: Vec<u8>, title: &str) -> GifDto {
        dto_of(client.upload("x.gif", bytes, title, "", &[]).await, StatusCode::CREATED).await
    }

    /// Until no text is waiting to be read (at most a minute).
    async fn texts_read(db: &Database) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let waiting = db.pending(Task::READ_TEXT).await.unwrap_or_else(|e| panic!("{e}"));
            if waiting.is_empty() {
                return;
            }
            assert!(Instant::now() < deadline, "texts still unread: {waiting:?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn captions_are_read_found_and_kept_over_later_readings(backend: Backend) {
        let app = app!(backend, WITH_WORKERS);
        let alice = app.user("alice").await;
        let key: CreatedApiKeyDto =
            dto_of(alice.post_json("/api/keys", &json!({"name": "chat"})).await, StatusCode::CREATED).await;
        let fine = upload(&alice, captioned(Some("this is fine"), 400, 225), "Dog in a room").await;
        // A description, so that the chat APIs' descriptions are seen to be the title.
        let ship = alice.upload("x.gif", captioned(Some("ship it"), 320, 180), "Squirrel", "At a desk", &[]).await;
        let ship: GifDto = dto_of(ship, StatusCode::CREATED).await;
        let friday = upload(&alice, captioned(Some("deploy friday"), 400, 225), "Calendar").await;
        let plain = upload(&alice, captioned(None, 320, 180), "Quiet").await;
        texts_read(app.database()).await;

        let text_of = |gif: GifDto| gif.caption_text.map(|t| t.to_lowercase());
        assert_eq!(text_of(alice.gif(fine.id).await).as_deref(), Some("this is fine"));
        assert_eq!(text_of(alice.gif(ship.id).await).as_deref(), Some("ship it"));
        assert_eq!(alice.gif(plain.id).await.caption_text, None, "a GIF without text has none");
        assert_eq!(titles_found(&alice, "fine").await, ["Dog in a room"]);
        assert_eq!(titles_found(&alice, "\"this is fine\"").await, ["Dog in a room"]);
        assert_eq!(text_of(alice.gif(friday.id).await).as_deref(), Some("deploy friday"));
        assert_eq!(titles_found(&alice, "fridya").await, ["Calendar"], "one typo");
        assert_eq!(titles_found(&alice, "\"deploy friday\" calendar").await, ["Calendar"]);

        // Tenor's hascaption follows the text; GIPHY's translate answers the best match or nothing.
        let tenor: Value =
            json_of(app.anonymous().get(&format!("/api/tenor/v2/search?q=ship&key={}", key.key)).await, StatusCode::OK)
                .await;
        assert_eq!(tenor["results"][0]["hascaption"], json!(true), "{tenor}");
        assert_eq!(tenor["results"][0]["content_description"], json!("Squirrel"));
        let tenor: Value = json_of(
            app.anonymous().get(&format!("/api/tenor/v2/search?q=quiet&key={}", key.key)).await,
            StatusCode::OK,
        )
        .await;
        assert_eq!(tenor["results"][0]["hascaption"], json!(false), "{tenor}");
        let giphy = |s: &str| format!("/api/giphy/v1/gifs/translate?s={}&api_key={}", urlencode(s), key.key);
        let best: Value = json_of(app.anonymous().get(&giphy("ship it")).await, StatusCode::OK).await;
        assert_eq!(best["data"]["id"], json!(ship.share_id), "{best}");
        assert_eq!(best["data"]["alt_text"], json!("Squirrel"));
        assert!(best["meta"]["response_id"].as_str().is_some_and(|r| !r.is_empty()));
        let none: Value = json_of(app.anonymous().get(&giphy("nothing like this")).await, StatusCode::OK).await;
        assert_eq!(none["data"], json!([]), "{none}");
        assert_eq!(none["meta"]["status"], json!(200));
        let rated: Value =
            json_of(app.anonymous().get(&format!("{}&rating=y", giphy("ship"))).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(rated["data"], json!([]));

        // The owner's edit stays: a backfill does not queue the GIF, and a reading does not replace it.
        dto_of::<GifDto>(edit_text(&alice, &ship, Some("ship it on monday")).await, StatusCode::OK).await;
        let db = app.database();
        assert!(!db.unread_after(GifId(0), 100).await.unwrap_or_default().contains(&GifId(ship.id)));
        db.enqueue(Task::ReadText(GifId(ship.id)), chrono::Utc::now().naive_utc())
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        texts_read(db).await;
        assert_eq!(alice.gif(ship.id).await.caption_text.as_deref(), Some("ship it on monday"));
        assert_eq!(titles_found(&alice, "monday").await, ["Squirrel"]);
    }

    on_both_backends!(captions_are_read_found_and_kept_over_later_readings);
}
