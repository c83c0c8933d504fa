//! Security headers on every response, and the request id on every response.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::{DefaultHeaders, Next};
use actix_web::HttpMessage;

use crate::HttpSettings;

const GOOGLE: &str = "https://accounts.google.com";

/// The SPA's Content-Security-Policy: scripts only from this origin (plus Google's sign-in script
/// when third-party sign-in is configured); nothing user-supplied is ever HTML.
pub fn content_security_policy(google: bool, inline_hashes: &[String]) -> String {
    let (script, frame, connect, style) = if google {
        (
            format!(" {GOOGLE}/gsi/client"),
            format!("frame-src {GOOGLE}/gsi/; "),
            format!(" {GOOGLE}/gsi/"),
            format!(" {GOOGLE}/gsi/style"),
        )
    } else {
        Default::default()
    };
    let hashes: String = inline_hashes.iter().map(|h| format!(" '{h}'")).collect();
    format!(
        "default-src 'self'; script-src 'self'{hashes}{script}; style-src 'self' 'unsafe-inline'{style}; \
         img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'{connect}; font-src 'self'; \
         {frame}object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// Added to every response unless a handler set its own (media responses set a sandbox CSP).
pub fn security_headers(settings: &HttpSettings, inline_hashes: &[String]) -> DefaultHeaders {
    DefaultHeaders::new()
        .add(("Content-Security-Policy", content_security_policy(settings.google_client_id.is_some(), inline_hashes)))
        .add(("X-Content-Type-Options", "nosniff"))
        .add(("Referrer-Policy", "strict-origin-when-cross-origin"))
        .add(("X-Frame-Options", "DENY"))
        .add(("Cross-Origin-Opener-Policy", "same-origin-allow-popups"))
        // The maker records the camera and the screen from this origin only (never a frame).
        .add(("Permissions-Policy", "camera=(self), display-capture=(self), microphone=(), geolocation=(), payment=()"))
}

/// Copies the request id that `TracingLogger` gave the request into `X-Request-Id`, so that a
/// client reporting an error can quote the id found in the server's log.
pub async fn request_id(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = req.extensions().get::<tracing_actix_web::RequestId>().map(ToString::to_string);
    let mut response = next.call(req).await?;
    if let Some(value) = id.and_then(|id| HeaderValue::from_str(&id).ok()) {
        response.headers_mut().insert(HeaderName::from_static("x-request-id"), value);
    }
    if response.status().is_server_error() {
        tracing::error!(status = response.status().as_u16(), "request failed");
    }
    Ok(response)
}

/// `sha256-…` sources for the inline scripts of the SPA's `index.html` (the theme is applied before
/// the first paint by one), so the CSP can allow exactly those and no other inline script.
pub fn inline_script_hashes(index_html: &str) -> Vec<String> {
    use base64::Engine;
    use sha2::Digest;
    let mut hashes = Vec::new();
    let mut rest = index_html;
    while let Some(start) = rest.find("<script") {
        let after = &rest[start..];
        let Some(open_end) = after.find('>') else {
            break;
        };
        let tag = &after[..open_end];
        let body_and_rest = &after[open_end + 1..];
        let Some(close) = body_and_rest.find("</script>") else {
            break;
        };
        if !tag.contains(" src=") {
            let digest = sha2::Sha256::digest(&body_and_rest.as_bytes()[..close]);
            hashes.push(format!("sha256-{}", base64::engine::general_purpose::STANDARD.encode(digest)));
        }
        rest = &body_and_rest[close..];
    }
    hashes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_only_inline_scripts() {
        let html = "<head><script>alert(1)</script><script defer src=\"/a.js\"></script></head>";
        // echo -n 'alert(1)' | openssl dgst -sha256 -binary | base64
        assert_eq!(inline_script_hashes(html), vec!["sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=".to_owned()]);
    }

    #[test]
    fn csp_widens_for_google_only_when_configured() {
        assert!(!content_security_policy(false, &[]).contains("google"));
        let with = content_security_policy(true, &["sha256-x".into()]);
        assert!(with.contains("script-src 'self' 'sha256-x' https://accounts.google.com/gsi/client;"), "{with}");
        assert!(with.contains("frame-ancestors 'none'") && with.contains("object-src 'none'"));
    }
}
