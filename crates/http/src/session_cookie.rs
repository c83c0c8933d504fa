//! The session cookie: the session token again, for the one kind of request that cannot send a
//! bearer header, an `<img>` or `<video>` loading media. HttpOnly (no script reads it),
//! `SameSite=Strict` (no other site's page sends it), `Secure` when the app is served over HTTPS,
//! and a browser-session lifetime (the SPA asks for it again from its stored token at start).
//! Only media reads accept it; every JSON call still needs the bearer header.

use actix_web::http::header::{self, HeaderValue};
use actix_web::HttpRequest;

use crate::{client, HttpSettings};

pub const NAME: &str = "gifshelf_session";

fn attributes(req: &HttpRequest, settings: &HttpSettings) -> &'static str {
    if client::origin(req, settings).starts_with("https://") {
        "Path=/; HttpOnly; SameSite=Strict; Secure"
    } else {
        "Path=/; HttpOnly; SameSite=Strict"
    }
}

/// `Set-Cookie` carrying `token` (a JWT: only URL-safe base64 and dots, valid in a cookie).
pub fn set(req: &HttpRequest, settings: &HttpSettings, token: &str) -> (header::HeaderName, HeaderValue) {
    let value = format!("{NAME}={token}; {}", attributes(req, settings));
    (header::SET_COOKIE, HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("")))
}

/// `Set-Cookie` that removes the cookie.
pub fn clear(req: &HttpRequest, settings: &HttpSettings) -> (header::HeaderName, HeaderValue) {
    let value = format!("{NAME}=; Max-Age=0; {}", attributes(req, settings));
    (header::SET_COOKIE, HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("")))
}

/// The token in the request's session cookie, if any.
pub fn read(req: &HttpRequest) -> Option<String> {
    req.headers()
        .get_all(header::COOKIE)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, value)| *name == NAME && !value.is_empty())
        .map(|(_, value)| value.to_owned())
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;

    use super::*;

    #[test]
    fn cookies_are_http_only_strict_and_secure_over_https() {
        let plain = HttpSettings::for_tests();
        let https = HttpSettings { public_url: Some("https://gifs.example.com".into()), ..HttpSettings::for_tests() };
        let req = TestRequest::default().to_http_request();
        assert_eq!(set(&req, &plain, "a.b.c").1, "gifshelf_session=a.b.c; Path=/; HttpOnly; SameSite=Strict");
        assert_eq!(set(&req, &https, "a.b.c").1, "gifshelf_session=a.b.c; Path=/; HttpOnly; SameSite=Strict; Secure");
        assert_eq!(clear(&req, &https).1, "gifshelf_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict; Secure");
    }

    #[test]
    fn the_token_is_read_from_among_other_cookies() {
        let req = TestRequest::default()
            .insert_header((header::COOKIE, "theme=dark; gifshelf_session=x.y.z; b=1"))
            .to_http_request();
        assert_eq!(read(&req).as_deref(), Some("x.y.z"));
        let empty = TestRequest::default().insert_header((header::COOKIE, "gifshelf_session=")).to_http_request();
        assert_eq!(read(&empty), None);
        assert_eq!(read(&TestRequest::default().to_http_request()), None);
    }
}
