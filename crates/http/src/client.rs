//! What a request says about its client: the address throttling counts, and the origin links are
//! built on. Behind a trusted proxy (`GIFSHELF_TRUST_PROXY`) they come from the headers the proxy
//! adds; anything the client itself could have written is ignored or validated first.

use std::net::{IpAddr, SocketAddr};

use actix_web::http::header::{self, HeaderName};
use actix_web::HttpRequest;

use crate::HttpSettings;

const X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");
const X_FORWARDED_HOST: HeaderName = HeaderName::from_static("x-forwarded-host");
const X_FORWARDED_PROTO: HeaderName = HeaderName::from_static("x-forwarded-proto");

/// The client's address: the TCP peer, or behind a trusted proxy the `X-Forwarded-For` entry that
/// proxy added. A proxy appends the address it saw to whatever the client sent, so only entries
/// counted from the right can be trusted: with `hops` proxies in front, the `hops`-th from the
/// right. A client's own `X-Forwarded-For` entries (to the left) and its `Forwarded` header never
/// count. When the header is missing or too short, the peer is used.
pub fn client_ip(req: &HttpRequest, settings: &HttpSettings) -> Option<IpAddr> {
    let peer = req.peer_addr().map(|a| a.ip());
    if !settings.trust_forwarded_for {
        return peer;
    }
    let hops = settings.trusted_proxy_hops.max(1);
    let entries: Vec<&str> = req
        .headers()
        .get_all(X_FORWARDED_FOR)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    entries.len().checked_sub(hops).and_then(|i| parse_address(entries[i])).or(peer)
}

/// The digest a view is counted under (once a day each): the signed-in user, else the client's
/// IPv4 address or IPv6 /64 (one household or host holds a whole /64). A hash, so that no address
/// is stored.
pub fn viewer_key(user: Option<gifshelf_domain::user::UserId>, ip: Option<IpAddr>) -> String {
    use sha2::Digest;
    let ip = ip.map(|ip| match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    });
    let named = match (user, ip) {
        (Some(user), _) => format!("user:{}", user.0),
        (None, Some(IpAddr::V4(v4))) => format!("ip:{v4}"),
        (None, Some(IpAddr::V6(v6))) => {
            let [a, b, c, d, ..] = v6.segments();
            format!("net:{a:x}:{b:x}:{c:x}:{d:x}::/64")
        }
        (None, None) => "unknown".to_owned(),
    };
    hex::encode(sha2::Sha256::digest(named.as_bytes()))
}

/// An address as proxies write it: `192.0.2.1`, `2001:db8::1`, `[2001:db8::1]:443`, `192.0.2.1:80`.
fn parse_address(text: &str) -> Option<IpAddr> {
    text.parse::<IpAddr>().ok().or_else(|| text.parse::<SocketAddr>().ok().map(|a| a.ip()))
}

/// A host split into its name and port (`[::1]:8080` → `[::1]`, `8080`).
fn split_host(host: &str) -> (&str, Option<&str>) {
    match host.rsplit_once(':') {
        Some((name, port)) if !name.ends_with(':') && !port.contains(']') => (name, Some(port)),
        _ => (host, None),
    }
}

/// A host as it may appear in a link: a DNS name, an IPv4 address or a bracketed IPv6 address,
/// with an optional port; nothing that could end the URL or start a new one.
fn valid_host(host: &str) -> bool {
    let (name, port) = split_host(host);
    let name_ok = if let Some(inner) = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        inner.parse::<std::net::Ipv6Addr>().is_ok()
    } else {
        !name.is_empty()
            && name.len() <= 253
            && name.split('.').all(|label| {
                !label.is_empty()
                    && label.len() <= 63
                    && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                    && !label.starts_with('-')
            })
    };
    let port_ok = match port {
        None => true,
        Some(p) => p.parse::<u16>().is_ok_and(|n| n > 0),
    };
    name_ok && port_ok
}

/// Whether links may be built on `host`: valid, and listed in `GIFSHELF_ALLOWED_HOSTS` (an entry
/// without a port allows every port of its host; one with a port, that port only).
fn allowed_host(host: &str, settings: &HttpSettings) -> bool {
    let host = host.to_ascii_lowercase();
    let (name, _) = split_host(&host);
    valid_host(&host) && settings.allowed_hosts.iter().any(|allowed| *allowed == host || allowed == name)
}

/// The last value of a header a proxy sets (a client-sent copy comes first when the proxy appends).
fn last_value(req: &HttpRequest, name: HeaderName) -> Option<String> {
    let joined: Vec<String> = req.headers().get_all(name).filter_map(|v| v.to_str().ok()).map(str::to_owned).collect();
    joined.last().and_then(|v| v.rsplit(',').next()).map(|v| v.trim().to_owned())
}

/// The origin links and pages are built on: the configured public URL; else, behind a trusted
/// proxy, its `X-Forwarded-Proto` (http or https only) and `X-Forwarded-Host`; else the request's
/// `Host` over http. A host must be valid and allowed (`GIFSHELF_ALLOWED_HOSTS`): anyone can send
/// any `Host`, and a share page, an oEmbed answer or a chat result built on `evil.example` would
/// send its readers there. Without an allowed host, links use the address the server listens on.
pub fn origin(req: &HttpRequest, settings: &HttpSettings) -> String {
    if let Some(url) = &settings.public_url {
        return url.clone();
    }
    let own_host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| allowed_host(h, settings))
        .map(str::to_ascii_lowercase);
    if settings.trust_forwarded_for {
        let scheme = last_value(req, X_FORWARDED_PROTO)
            .map(|s| s.to_ascii_lowercase())
            .filter(|s| s == "http" || s == "https")
            .unwrap_or_else(|| "http".to_owned());
        let host = last_value(req, X_FORWARDED_HOST)
            .filter(|h| allowed_host(h, settings))
            .map(|h| h.to_ascii_lowercase())
            .or(own_host);
        return host.map_or_else(|| settings.fallback_origin.clone(), |host| format!("{scheme}://{host}"));
    }
    own_host.map_or_else(|| settings.fallback_origin.clone(), |host| format!("http://{host}"))
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;

    use super::*;

    fn settings(trust: bool, hops: usize) -> HttpSettings {
        let allowed_hosts = ["gifs.example.com", "10.0.0.2:8080", "localhost"].map(str::to_owned).to_vec();
        HttpSettings {
            trust_forwarded_for: trust,
            trusted_proxy_hops: hops,
            allowed_hosts,
            ..HttpSettings::for_tests()
        }
    }

    fn request(headers: &[(&str, &str)]) -> HttpRequest {
        let mut req = TestRequest::default().peer_addr("10.0.0.9:5000".parse().unwrap_or_else(|e| panic!("{e}")));
        for (name, value) in headers {
            req = req.append_header((*name, *value));
        }
        req.to_http_request()
    }

    fn ip(text: &str) -> Option<IpAddr> {
        text.parse().ok()
    }

    #[test]
    fn without_trust_the_peer_is_the_client() {
        let req = request(&[("x-forwarded-for", "203.0.113.7"), ("forwarded", "for=198.51.100.1")]);
        assert_eq!(client_ip(&req, &settings(false, 1)), ip("10.0.0.9"));
    }

    #[test]
    fn behind_a_proxy_the_entry_it_added_counts_and_the_clients_own_do_not() {
        type Headers<'a> = &'a [(&'a str, &'a str)];
        let cases: &[(Headers, usize, &str)] = &[
            (&[("x-forwarded-for", "203.0.113.7")], 1, "203.0.113.7"),
            // The client sent its own header; the proxy appended the real address.
            (&[("x-forwarded-for", "1.2.3.4, 203.0.113.7")], 1, "203.0.113.7"),
            (&[("x-forwarded-for", "1.2.3.4"), ("x-forwarded-for", "203.0.113.7")], 1, "203.0.113.7"),
            // Two proxies: a CDN then the load balancer.
            (&[("x-forwarded-for", "1.2.3.4, 203.0.113.7, 192.0.2.10")], 2, "203.0.113.7"),
            (&[("x-forwarded-for", "[2001:db8::1]:443")], 1, "2001:db8::1"),
            // Missing, too short or garbage: the peer.
            (&[], 1, "10.0.0.9"),
            (&[("x-forwarded-for", "203.0.113.7")], 2, "10.0.0.9"),
            (&[("x-forwarded-for", "1.2.3.4, not-an-address")], 1, "10.0.0.9"),
            (&[("forwarded", "for=198.51.100.1")], 1, "10.0.0.9"),
        ];
        for (headers, hops, expected) in cases {
            assert_eq!(client_ip(&request(headers), &settings(true, *hops)), ip(expected), "{headers:?} hops {hops}");
        }
    }

    #[test]
    fn views_are_counted_per_user_address_or_ipv6_64() {
        let key = |user: Option<i64>, ip: &str| viewer_key(user.map(gifshelf_domain::user::UserId), ip.parse().ok());
        assert_eq!(key(None, "2001:db8:1:2::1"), key(None, "2001:db8:1:2:ffff::9"), "one /64");
        assert_ne!(key(None, "2001:db8:1:2::1"), key(None, "2001:db8:1:3::1"));
        assert_eq!(key(None, "203.0.113.7"), key(None, "::ffff:203.0.113.7"));
        assert_ne!(key(None, "203.0.113.7"), key(None, "203.0.113.8"));
        assert_eq!(key(Some(4), "203.0.113.7"), key(Some(4), "198.51.100.1"), "a user anywhere");
        assert!(!key(None, "203.0.113.7").contains("203"), "no address in the digest");
    }

    #[test]
    fn hosts_are_validated_before_they_reach_a_link() {
        for good in
            ["gifs.example.com", "gifs.example.com:8443", "127.0.0.1:8080", "[::1]:8080", "[2001:db8::1]", "localhost"]
        {
            assert!(valid_host(good), "{good}");
        }
        for bad in [
            "",
            "evil.com/x",
            "evil.com\"><script>",
            "a b",
            "evil.com:0",
            "evil.com:99999",
            "[zz]",
            "-x.com",
            "x..com",
            "evil.com@good.com",
        ] {
            assert!(!valid_host(bad), "{bad}");
        }
    }

    #[test]
    fn origins() {
        let public = HttpSettings { public_url: Some("https://gifs.example.com".into()), ..settings(true, 1) };
        let forwarded =
            [("host", "10.0.0.2:8080"), ("x-forwarded-host", "gifs.example.com"), ("x-forwarded-proto", "https")];
        assert_eq!(origin(&request(&forwarded), &public), "https://gifs.example.com");
        assert_eq!(origin(&request(&forwarded), &settings(true, 1)), "https://gifs.example.com");
        assert_eq!(origin(&request(&forwarded), &settings(false, 1)), "http://10.0.0.2:8080", "not trusted: own host");
        let hostile =
            [("host", "gifs.example.com"), ("x-forwarded-host", "evil.com/\"><x"), ("x-forwarded-proto", "javascript")];
        assert_eq!(origin(&request(&hostile), &settings(true, 1)), "http://gifs.example.com");
        assert_eq!(origin(&request(&[("host", "a b")]), &settings(false, 1)), "http://localhost");
        let spoofed = [("host", "gifs.example.com"), ("forwarded", "host=evil.com;proto=https")];
        assert_eq!(origin(&request(&spoofed), &settings(true, 1)), "http://gifs.example.com");
    }

    #[test]
    fn only_allowed_hosts_reach_a_link() {
        for trust in [false, true] {
            let evil = [("host", "evil.example")];
            assert_eq!(origin(&request(&evil), &settings(trust, 1)), "http://localhost", "trust {trust}");
            // An entry with a port allows that port only; one without, every port.
            assert_eq!(origin(&request(&[("host", "10.0.0.2:9999")]), &settings(trust, 1)), "http://localhost");
            assert_eq!(
                origin(&request(&[("host", "GIFS.example.com:8443")]), &settings(trust, 1)),
                "http://gifs.example.com:8443"
            );
        }
        // Behind a proxy the forwarded host passes the same list; the own host is next.
        let forwarded =
            [("host", "gifs.example.com"), ("x-forwarded-host", "evil.example"), ("x-forwarded-proto", "https")];
        assert_eq!(origin(&request(&forwarded), &settings(true, 1)), "https://gifs.example.com");
        let neither = [("host", "evil.example"), ("x-forwarded-host", "evil.example")];
        assert_eq!(origin(&request(&neither), &settings(true, 1)), "http://localhost");
    }
}
