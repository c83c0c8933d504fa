//! The image or video an HTML page names for link previews (`<meta property="og:image"
//! content="...">`, `og:video`).

/// The `content` of the page's first `og:image` (or `og:image:url`, `og:image:secure_url`,
/// `twitter:image`) meta tag, entities decoded; `None` when there is none.
pub fn image(html: &str) -> Option<String> {
    let metas = metas(html);
    let first = |keys: &[&str]| metas.iter().find(|(key, _)| keys.contains(&key.as_str())).map(|(_, c)| c.clone());
    first(&["og:image", "og:image:url", "og:image:secure_url"])
        .or_else(|| first(&["twitter:image", "twitter:image:src"]))
}

/// The videos the page names for link previews: `og:video`, `og:video:url` and
/// `og:video:secure_url` in the page's order, then `twitter:player:stream`; each once, entities
/// decoded. (`twitter:player` itself is a page to embed, never a video file.)
pub fn videos(html: &str) -> Vec<String> {
    let metas = metas(html);
    let mut out: Vec<String> = Vec::new();
    for keys in [&["og:video:secure_url", "og:video:url", "og:video"][..], &["twitter:player:stream"][..]] {
        for (_, content) in metas.iter().filter(|(key, _)| keys.contains(&key.as_str())) {
            if !out.contains(content) {
                out.push(content.clone());
            }
        }
    }
    out
}

/// Every `<meta>` of the page with a `property` (or `name`) and a non-blank `content`: the key
/// lower-cased, the content trimmed and decoded.
fn metas(html: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let lower = html.to_ascii_lowercase();
    let mut at = 0;
    while let Some(found) = lower[at..].find("<meta") {
        let start = at + found + "<meta".len();
        let end = lower[start..].find('>').map_or(lower.len(), |e| start + e);
        let attributes = attributes(&html[start..end]);
        let key = attributes
            .iter()
            .find(|(name, _)| name == "property" || name == "name")
            .map(|(_, value)| value.to_ascii_lowercase());
        let content = attributes.iter().find(|(name, _)| name == "content").map(|(_, value)| decode(value));
        if let (Some(key), Some(content)) = (key, content) {
            let content = content.trim().to_owned();
            if !content.is_empty() {
                out.push((key, content));
            }
        }
        at = end;
    }
    out
}

/// The attributes of a tag's inside, names lower-cased; values quoted with `"` or `'`, or bare.
fn attributes(tag: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = tag;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
        let name_end = rest.find(|c: char| c == '=' || c.is_whitespace() || c == '/').unwrap_or(rest.len());
        if name_end == 0 {
            return out;
        }
        let name = rest[..name_end].to_ascii_lowercase();
        rest = rest[name_end..].trim_start();
        let Some(after) = rest.strip_prefix('=') else {
            out.push((name, String::new()));
            continue;
        };
        rest = after.trim_start();
        let (value, next) = match rest.chars().next() {
            Some(quote @ ('"' | '\'')) => {
                let inner = &rest[1..];
                let close = inner.find(quote).unwrap_or(inner.len());
                (&inner[..close], inner.get(close + 1..).unwrap_or(""))
            }
            _ => {
                let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                (&rest[..end], &rest[end..])
            }
        };
        out.push((name, value.to_owned()));
        rest = next;
    }
}

fn decode(value: &str) -> String {
    value
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x2F;", "/")
        .replace("&#47;", "/")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::{image, videos};

    #[test]
    fn finds_the_og_image_of_real_looking_pages() {
        let giphy = r#"<html><head><meta name="twitter:image:src" content="https://media.giphy.com/t.gif"/>
            <meta property="og:image" content="https://media.giphy.com/media/abc/giphy.gif?a=1&amp;b=2" /></head></html>"#;
        assert_eq!(image(giphy).as_deref(), Some("https://media.giphy.com/media/abc/giphy.gif?a=1&b=2"));
        let tenor = "<META content='https://media.tenor.com/x.gif' PROPERTY='og:image'>";
        assert_eq!(image(tenor).as_deref(), Some("https://media.tenor.com/x.gif"));
        let twitter_only = r#"<meta name="twitter:image" content="/t.gif">"#;
        assert_eq!(image(twitter_only).as_deref(), Some("/t.gif"));
        assert_eq!(image("<html><meta property=og:title content=Hi><p>no image</p></html>"), None);
        assert_eq!(image("<meta property=\"og:image\" content=\"  \">"), None);
    }

    #[test]
    fn finds_the_videos_a_page_names_best_first() {
        let page = r#"<head><meta property="og:image" content="/poster.jpg">
            <meta property="og:video" content="https://cdn.example/clip.mp4?a=1&amp;b=2">
            <meta property="og:video:type" content="video/mp4">
            <meta property="og:video:secure_url" content="https://cdn.example/clip.mp4?a=1&amp;b=2">
            <meta name="twitter:player" content="https://example.com/embed/1">
            <meta name="twitter:player:stream" content="/stream.mp4"></head>"#;
        assert_eq!(videos(page), ["https://cdn.example/clip.mp4?a=1&b=2", "/stream.mp4"]);
        let url_only = "<meta property='og:video:url' content='/v.webm'><meta property='og:video' content='/w.webm'>";
        assert_eq!(videos(url_only), ["/v.webm", "/w.webm"]);
        assert!(videos("<meta property=og:image content=/a.gif><meta name=twitter:player content=/embed>").is_empty());
        assert!(videos("<meta property=\"og:video\" content=\" \">").is_empty());
    }
}
