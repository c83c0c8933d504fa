//! The rules of spec §5 for GIFs and tags, renditions, filters, sorts and pages.

use gifshelf_domain::gif::*;

#[test]
fn titles() {
    let long = "t".repeat(101);
    let cases: &[(&str, Option<&str>)] = &[
        ("  Dancing cat ", None),
        ("", Some("Please enter a title for your GIF.")),
        ("   ", Some("Please enter a title for your GIF.")),
        (&long, Some("Title must be at most 100 characters")),
        ("bell\u{7}", Some("Title must not contain control characters")),
    ];
    for (input, expected) in cases {
        assert_eq!(Title::parse(input).err().map(|e| e.message).as_deref(), *expected, "{input:?}");
    }
    assert_eq!(Title::parse(&"é".repeat(100)).map(|t| t.as_str().chars().count()), Ok(100));
    assert_eq!(Title::parse(" x ").map(|t| t.as_str().to_owned()), Ok("x".into()));
}

#[test]
fn descriptions() {
    assert!(Description::parse("").is_ok());
    assert!(Description::parse(&"d".repeat(500)).is_ok());
    assert_eq!(
        Description::parse(&"d".repeat(501)).err().map(|e| e.message),
        Some("Description must be at most 500 characters".into())
    );
    assert!(Description::parse("two\nlines").is_ok());
}

#[test]
fn tag_names_are_trimmed_lower_cased_and_bounded() {
    let cases: &[(&str, Result<&str, &str>)] = &[
        ("  Funny ", Ok("funny")),
        ("CATS", Ok("cats")),
        ("", Err("Tag name must not be blank")),
        ("  ", Err("Tag name must not be blank")),
        ("x\u{0}y", Err("Tag names must not contain control characters")),
    ];
    for (input, expected) in cases {
        let got = TagName::parse(input).map(|t| t.as_str().to_owned()).map_err(|e| e.message);
        assert_eq!(got.as_ref().map(String::as_str).map_err(String::as_str), *expected, "{input:?}");
    }
    assert!(TagName::parse(&"a".repeat(50)).is_ok());
    assert!(TagName::parse(&"a".repeat(51)).is_err());
}

#[test]
fn tag_lists_drop_duplicates_and_have_a_cap() {
    let list = TagName::parse_list(&["Cat", "cat ", "dog"])
        .map(|l| l.into_iter().map(|t| t.as_str().to_owned()).collect::<Vec<_>>());
    assert_eq!(list, Ok(vec!["cat".to_owned(), "dog".to_owned()]));
    let many: Vec<String> = (0..21).map(|i| format!("t{i}")).collect();
    assert!(TagName::parse_list(&many).is_err());
    assert_eq!(TagName::parse_list(&["ok", " "]).err().map(|e| e.field), Some("tags"));
}

fn rendition(kind: RenditionKind, size: i64) -> Rendition {
    Rendition {
        kind,
        key: kind.as_str().into(),
        content_type: if kind.is_video() { "video/mp4" } else { "image/gif" }.into(),
        size,
        width: 1,
        height: 1,
        frames: 1,
        duration_ms: None,
        codec: None,
        preferred: false,
    }
}

fn preferred(set: &Renditions) -> Vec<&'static str> {
    set.iter().filter(|r| r.preferred).map(|r| r.kind.as_str()).collect()
}

#[test]
fn the_smallest_animated_file_of_each_size_is_preferred() {
    use RenditionKind::*;
    // Photo-like: the videos are far smaller.
    let photo = Renditions::new([
        rendition(Original, 1000),
        rendition(Medium, 900),
        rendition(Mp4, 120),
        rendition(Webm, 100),
        rendition(Thumbnail, 300),
        rendition(Mp4Small, 40),
        rendition(WebmSmall, 50),
        rendition(Still, 10),
        rendition(Tiny, 90),
    ]);
    assert_eq!(preferred(&photo.clone().with_preferred(true, true)), ["tiny", "mp4_small", "webm"]);
    // Transparent: videos never compete.
    assert_eq!(preferred(&photo.with_preferred(false, true)), ["thumbnail", "tiny", "medium"]);
    // Pixel art: the video is larger, the GIF stays.
    let pixel_art = Renditions::new([rendition(Original, 500), rendition(Mp4, 800), rendition(Webm, 900)]);
    assert_eq!(preferred(&pixel_art.with_preferred(true, true)), ["original"]);
    // Equal sizes: the GIF (every browser plays it), then the video, then the WebP.
    let tie = Renditions::new([rendition(Thumbnail, 100), rendition(Mp4Small, 100)]);
    assert_eq!(preferred(&tie.with_preferred(true, true)), ["thumbnail"]);
    let tie = Renditions::new([rendition(Original, 100), rendition(Mp4, 100), rendition(Webp, 100)]);
    assert_eq!(preferred(&tie.with_preferred(true, true)), ["original"]);
    let tie = Renditions::new([rendition(Original, 101), rendition(Mp4, 100), rendition(Webp, 100)]);
    assert_eq!(preferred(&tie.with_preferred(true, true)), ["mp4"]);
}

#[test]
fn a_transparent_animation_plays_its_webp_when_that_is_smaller() {
    use RenditionKind::*;
    let sticker = Renditions::new([
        rendition(Original, 1000),
        rendition(Medium, 700),
        rendition(Mp4, 100),
        rendition(Webp, 330),
        rendition(Thumbnail, 200),
        rendition(FixedHeight, 150),
        rendition(WebpFixedHeight, 60),
    ]);
    // Transparent: the WebPs (with alpha) beat the GIFs; the videos (flattened) never compete.
    assert_eq!(preferred(&sticker.clone().with_preferred(false, true)), ["thumbnail", "webp", "webp_fixed_height"]);
    // Opaque: the smallest of all, a video here.
    assert_eq!(preferred(&sticker.clone().with_preferred(true, true)), ["thumbnail", "mp4", "webp_fixed_height"]);
    // A still image: its WebPs and videos are one-second loops of one picture, never preferred.
    assert_eq!(preferred(&sticker.with_preferred(true, false)), ["thumbnail", "fixed_height", "medium"]);
}

#[test]
fn medium_is_for_animations_and_optional_and_stills_get_videos_too() {
    assert!(RenditionKind::Mp4.expected_for(2));
    assert!(RenditionKind::Mp4.expected_for(1), "a still image gets a one-second loop");
    assert!(RenditionKind::WebpTiny.expected_for(1));
    assert!(RenditionKind::Tiny.expected_for(1));
    assert!(!RenditionKind::Medium.expected_for(30));
    assert!(RenditionKind::Medium.made_for(30));
    assert!(!RenditionKind::Medium.made_for(1));
    assert_eq!(RenditionKind::WebmSmall.size(), RenditionSize::Small);
}

#[test]
fn renditions_keep_one_per_kind_in_kind_order() {
    let r = |kind, key: &str| Rendition { key: key.into(), ..rendition(kind, 1) };
    let set = Renditions::new([
        r(RenditionKind::Still, "s"),
        r(RenditionKind::Original, "o1"),
        r(RenditionKind::Original, "o2"),
    ]);
    assert_eq!(set.iter().map(|x| x.key.as_str()).collect::<Vec<_>>(), ["o2", "s"]);
    assert_eq!(set.get(RenditionKind::Thumbnail), None);
    for kind in RenditionKind::ALL {
        assert_eq!(RenditionKind::parse(kind.as_str()), Some(kind));
    }
    assert_eq!(RenditionKind::parse("static"), None);
}

#[test]
fn extensions_follow_the_stored_type() {
    let cases = [
        ("image/gif", Some("gif")),
        ("image/png", Some("png")),
        ("image/jpeg", Some("jpg")),
        ("image/webp", Some("webp")),
        ("text/html", None),
    ];
    for (content_type, expected) in cases {
        assert_eq!(extension_for(content_type), expected, "{content_type}");
    }
}

#[test]
fn search_terms() {
    assert_eq!(GifFilter::search("  "), Ok(GifFilter::All));
    assert_eq!(GifFilter::search(" Happy  CAT "), Ok(GifFilter::Search(vec!["happy".into(), "cat".into()])));
    // A quoted phrase is one word holding its words in order; an unclosed quote runs to the end.
    let phrases: [(&str, &[&str]); 5] = [
        ("\"This  is FINE\" dog", &["this is fine", "dog"]),
        ("ship \"it\"", &["ship", "it"]),
        ("\"\" cat \"  \"", &["cat"]),
        ("say \"hello there", &["say", "hello there"]),
        ("a\"b c\"d", &["a", "b c", "d"]),
    ];
    for (term, words) in phrases {
        let expected = GifFilter::Search(words.iter().map(|w| (*w).to_owned()).collect());
        assert_eq!(GifFilter::search(term), Ok(expected), "{term}");
    }
    assert_eq!(GifFilter::search("\" \""), Ok(GifFilter::All));
    let many = (0..20).map(|i| format!("w{i}")).collect::<Vec<_>>().join(" ");
    assert!(matches!(GifFilter::search(&many), Ok(GifFilter::Search(w)) if w.len() == 16));
    assert!(GifFilter::search(&"x".repeat(200)).is_ok());
    assert_eq!(
        GifFilter::search(&"x".repeat(201)).err().map(|e| e.message),
        Some("The search term is too long (at most 200 characters).".into())
    );
}

#[test]
fn sorts_parse_their_own_names_only() {
    for sort in GifSort::ALL {
        assert_eq!(GifSort::parse(sort.as_str()), Ok(sort));
    }
    assert_eq!(GifSort::default(), GifSort::Newest);
    for bad in ["", "Newest", "random", "views desc"] {
        assert_eq!(GifSort::parse(bad).err().map(|e| e.field), Some("sort"), "{bad:?}");
    }
}

#[test]
fn paging() {
    assert_eq!(PageRequest::new(None, None), Ok(PageRequest { page: 0, size: 6 }));
    assert!(PageRequest::new(Some(0), Some(0)).is_err());
    assert!(PageRequest::new(Some(0), Some(101)).is_err());
    let page = |p, total| Page::<()> { items: vec![], request: PageRequest { page: p, size: 12 }, total };
    assert_eq!((page(0, 0).total_pages(), page(0, 0).has_next(), page(0, 0).has_previous()), (0, false, false));
    assert_eq!((page(0, 13).total_pages(), page(0, 13).has_next()), (2, true));
    assert_eq!((page(1, 13).has_next(), page(1, 13).has_previous()), (false, true));
    assert_eq!(page(0, 12).total_pages(), 1);
}
