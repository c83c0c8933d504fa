//! A fake OpenID provider for tests: its own RSA keys, a discovery document and a key set served on
//! a loopback port, and ID tokens minted on demand (also over HTTP at `/mint`, for browser tests).
//! Test code only (feature `testing`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use rsa::pkcs1::EncodeRsaPrivateKey;
use rsa::traits::PublicKeyParts;
use rsa::RsaPrivateKey;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

struct SigningKey {
    kid: String,
    encoding: EncodingKey,
    jwk: Value,
}

impl SigningKey {
    fn generate(kid: &str) -> Self {
        let private = RsaPrivateKey::new(&mut rand::thread_rng(), 2048).unwrap_or_else(|e| panic!("RSA key: {e}"));
        let der = private.to_pkcs1_der().unwrap_or_else(|e| panic!("RSA key: {e}"));
        let jwk = json!({
            "kty": "RSA",
            "use": "sig",
            "alg": "RS256",
            "kid": kid,
            "n": URL_SAFE_NO_PAD.encode(private.n().to_bytes_be()),
            "e": URL_SAFE_NO_PAD.encode(private.e().to_bytes_be()),
        });
        Self { kid: kid.to_owned(), encoding: EncodingKey::from_rsa_der(der.as_bytes()), jwk }
    }
}

struct State {
    issuer: String,
    /// Published keys; the last one signs.
    keys: Mutex<Vec<SigningKey>>,
    jwks_fetches: AtomicUsize,
}

/// The provider. Dropping it stops nothing (the task ends with the test's runtime).
#[derive(Clone)]
pub struct FakeOidcProvider {
    state: Arc<State>,
}

impl FakeOidcProvider {
    /// Serves on `127.0.0.1:0`.
    pub async fn start() -> Self {
        Self::start_on(0).await
    }

    /// Serves on `127.0.0.1:{port}` (0 picks a free one).
    pub async fn start_on(port: u16) -> Self {
        let listener =
            TcpListener::bind(("127.0.0.1", port)).await.unwrap_or_else(|e| panic!("fake OIDC provider: bind: {e}"));
        let addr = listener.local_addr().unwrap_or_else(|e| panic!("fake OIDC provider: {e}"));
        let state = Arc::new(State {
            issuer: format!("http://{addr}"),
            keys: Mutex::new(vec![SigningKey::generate("key-1")]),
            jwks_fetches: AtomicUsize::new(0),
        });
        let served = Arc::clone(&state);
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let state = Arc::clone(&served);
                tokio::spawn(async move {
                    let mut buf = vec![0u8; 8192];
                    let mut len = 0;
                    while len < buf.len() {
                        match stream.read(&mut buf[len..]).await {
                            Ok(0) | Err(_) => break,
                            Ok(n) => len += n,
                        }
                        if buf[..len].windows(4).any(|w| w == b"\r\n\r\n") {
                            break;
                        }
                    }
                    let request = String::from_utf8_lossy(&buf[..len]);
                    let target = request.split_whitespace().nth(1).unwrap_or("/").to_owned();
                    let (status, body) = respond(&state, &target);
                    let response = format!(
                        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nAccess-Control-Allow-Origin: *\r\n\
                         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = stream.write_all(response.as_bytes()).await;
                    let _ = stream.shutdown().await;
                });
            }
        });
        Self { state }
    }

    /// The issuer URL (`http://127.0.0.1:PORT`), to configure as `GIFSHELF_OIDC_ISSUER`.
    pub fn issuer(&self) -> &str {
        &self.state.issuer
    }

    /// How many times the key set was fetched.
    pub fn jwks_fetches(&self) -> usize {
        self.state.jwks_fetches.load(Ordering::SeqCst)
    }

    /// Publishes a new key that signs from now on (the old ones stay published).
    pub fn rotate_key(&self) -> String {
        let mut keys = self.state.keys.lock().unwrap_or_else(PoisonError::into_inner);
        let kid = format!("key-{}", keys.len() + 1);
        keys.push(SigningKey::generate(&kid));
        kid
    }

    /// The claims of a valid ID token for `client_id`, issued now and valid for an hour.
    pub fn claims(&self, client_id: &str, subject: &str, email: &str, email_verified: bool) -> Value {
        valid_claims(&self.state.issuer, client_id, subject, email, email_verified)
    }

    /// Signs `claims` with the current key (RS256, its `kid` in the header).
    pub fn mint(&self, claims: &Value) -> String {
        mint(&self.state, claims)
    }

    /// Signs `claims` with the current key under another header (a wrong `kid`, say).
    pub fn mint_with_header(&self, header: &Header, claims: &Value) -> String {
        let keys = self.state.keys.lock().unwrap_or_else(PoisonError::into_inner);
        let key = keys.last().unwrap_or_else(|| panic!("no key"));
        jsonwebtoken::encode(header, claims, &key.encoding).unwrap_or_else(|e| panic!("mint: {e}"))
    }

    /// The current key's header: RS256 and its `kid`.
    pub fn header(&self) -> Header {
        let keys = self.state.keys.lock().unwrap_or_else(PoisonError::into_inner);
        let mut header = Header::new(Algorithm::RS256);
        header.kid = keys.last().map(|k| k.kid.clone());
        header
    }
}

fn valid_claims(issuer: &str, client_id: &str, subject: &str, email: &str, email_verified: bool) -> Value {
    let now = chrono::Utc::now().timestamp();
    json!({
        "iss": issuer,
        "aud": client_id,
        "sub": subject,
        "email": email,
        "email_verified": email_verified,
        "name": "Test Person",
        "iat": now,
        "exp": now + 3600,
    })
}

fn mint(state: &State, claims: &Value) -> String {
    let keys = state.keys.lock().unwrap_or_else(PoisonError::into_inner);
    let key = keys.last().unwrap_or_else(|| panic!("no key"));
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some(key.kid.clone());
    jsonwebtoken::encode(&header, claims, &key.encoding).unwrap_or_else(|e| panic!("mint: {e}"))
}

fn respond(state: &State, target: &str) -> (&'static str, String) {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let issuer = &state.issuer;
    match path {
        "/.well-known/openid-configuration" => (
            "200 OK",
            json!({
                "issuer": issuer,
                "authorization_endpoint": format!("{issuer}/authorize"),
                "token_endpoint": format!("{issuer}/token"),
                "jwks_uri": format!("{issuer}/jwks"),
                "response_types_supported": ["id_token"],
                "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256"],
            })
            .to_string(),
        ),
        "/jwks" => {
            state.jwks_fetches.fetch_add(1, Ordering::SeqCst);
            let keys = state.keys.lock().unwrap_or_else(PoisonError::into_inner);
            ("200 OK", json!({ "keys": keys.iter().map(|k| k.jwk.clone()).collect::<Vec<_>>() }).to_string())
        }
        // `/mint?aud=CLIENT&sub=S&email=E[&email_verified=false]`: a valid token, for browser tests.
        "/mint" => {
            let params: HashMap<String, String> = query
                .split('&')
                .filter_map(|pair| pair.split_once('='))
                .map(|(k, v)| (k.to_owned(), percent_decode(v)))
                .collect();
            let get = |k: &str| params.get(k).cloned().unwrap_or_default();
            let claims =
                valid_claims(issuer, &get("aud"), &get("sub"), &get("email"), get("email_verified") != "false");
            ("200 OK", json!({ "credential": mint(state, &claims) }).to_string())
        }
        _ => ("404 Not Found", json!({ "error": "not found" }).to_string()),
    }
}

fn percent_decode(raw: &str) -> String {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => out.push(b),
                    None => out.extend_from_slice(&bytes[i..i + 3]),
                }
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
