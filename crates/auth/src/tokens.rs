use std::sync::Arc;

use gifshelf_domain::auth::SessionClaims;
use gifshelf_domain::ports::{Clock, SignError, TokenError, TokenService};
use gifshelf_domain::user::Role;
use jsonwebtoken::{decode, encode, errors::ErrorKind, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use secrecy::{ExposeSecret, SecretSlice};

/// The claims on the wire: `sub` (username), `roles` (`ROLE_USER` or `ROLE_USER,ROLE_ADMIN`),
/// `iat`, `exp` (seconds since the epoch). Kept as the product has always signed them, so tokens
/// issued before an upgrade stay valid.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Claims {
    pub sub: String,
    pub roles: String,
    pub iat: i64,
    pub exp: i64,
}

impl From<&SessionClaims> for Claims {
    fn from(session: &SessionClaims) -> Self {
        let roles = match session.role {
            Role::User => "ROLE_USER",
            Role::Admin => "ROLE_USER,ROLE_ADMIN",
        };
        Self { sub: session.username.clone(), roles: roles.to_owned(), iat: session.issued_at, exp: session.expires_at }
    }
}

impl From<Claims> for SessionClaims {
    fn from(claims: Claims) -> Self {
        let admin = claims.roles.split(',').any(|r| r.trim() == "ROLE_ADMIN");
        Self {
            username: claims.sub,
            role: if admin { Role::Admin } else { Role::User },
            issued_at: claims.iat,
            expires_at: claims.exp,
        }
    }
}

/// Seconds of clock skew tolerated on `exp` (jsonwebtoken's default is 60).
pub const LEEWAY_SECS: u64 = 5;

/// HS256 session tokens. The algorithm is pinned: `alg: none`, RS256 and friends are refused.
/// Expiry is checked against the application's clock, not the library's own reading of the time.
pub struct JwtTokens {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    clock: Arc<dyn Clock>,
}

impl std::fmt::Debug for JwtTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JwtTokens(***)")
    }
}

impl JwtTokens {
    pub fn new(secret: &SecretSlice<u8>, clock: Arc<dyn Clock>) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        // `exp` is required and checked below, against `clock`.
        validation.validate_exp = false;
        validation.set_required_spec_claims(&["exp", "iat", "sub"]);
        Self {
            encoding: EncodingKey::from_secret(secret.expose_secret()),
            decoding: DecodingKey::from_secret(secret.expose_secret()),
            validation,
            clock,
        }
    }
}

impl JwtTokens {
    fn now(&self) -> i64 {
        self.clock.now().and_utc().timestamp()
    }
}

impl TokenService for JwtTokens {
    fn issue(&self, claims: &SessionClaims) -> Result<String, SignError> {
        encode(&Header::new(Algorithm::HS256), &Claims::from(claims), &self.encoding).map_err(|e| SignError(e.into()))
    }

    fn verify(&self, token: &str) -> Result<SessionClaims, TokenError> {
        match decode::<Claims>(token, &self.decoding, &self.validation) {
            Ok(data) if data.claims.exp.saturating_add(LEEWAY_SECS.cast_signed()) < self.now() => {
                Err(TokenError::Expired)
            }
            Ok(data) => Ok(data.claims.into()),
            Err(err) if matches!(err.kind(), ErrorKind::ExpiredSignature) => Err(TokenError::Expired),
            Err(_) => Err(TokenError::Invalid),
        }
    }
}

#[cfg(test)]
mod tests {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine;

    use super::*;

    fn tokens() -> JwtTokens {
        JwtTokens::new(&SecretSlice::from(vec![7_u8; 32]), Arc::new(crate::SystemClock))
    }

    fn claims(exp_offset: i64) -> SessionClaims {
        let now = chrono::Utc::now().timestamp();
        SessionClaims { username: "alice".into(), role: Role::User, issued_at: now, expires_at: now + exp_offset }
    }

    fn forge(header: &str, payload: &serde_json::Value) -> String {
        let h = URL_SAFE_NO_PAD.encode(header);
        let p = URL_SAFE_NO_PAD.encode(payload.to_string());
        format!("{h}.{p}.")
    }

    #[test]
    fn round_trip() {
        let t = tokens();
        let token = t.issue(&claims(3600)).unwrap_or_default();
        assert_eq!(t.verify(&token).map(|c| c.username), Ok("alice".to_owned()));
        let admin = SessionClaims { role: Role::Admin, ..claims(3600) };
        let token = t.issue(&admin).unwrap_or_default();
        assert_eq!(t.verify(&token), Ok(admin));
    }

    #[test]
    fn the_wire_claims_are_the_ones_the_product_always_signed() {
        let session = SessionClaims { username: "bob".into(), role: Role::Admin, issued_at: 10, expires_at: 20 };
        let wire = serde_json::to_value(Claims::from(&session)).unwrap_or_default();
        assert_eq!(wire, serde_json::json!({"sub": "bob", "roles": "ROLE_USER,ROLE_ADMIN", "iat": 10, "exp": 20}));
    }

    #[test]
    fn expiry_honours_only_a_small_leeway() {
        let t = tokens();
        let within = t.issue(&claims(-2)).unwrap_or_default();
        assert!(t.verify(&within).is_ok(), "2 s past exp is inside the leeway");
        let past = t.issue(&claims(-30)).unwrap_or_default();
        assert_eq!(t.verify(&past), Err(TokenError::Expired));
    }

    #[test]
    fn expiry_follows_the_application_clock() {
        let clock = crate::ManualClock::new();
        let t = JwtTokens::new(&SecretSlice::from(vec![7_u8; 32]), Arc::new(clock.clone()));
        let now = clock.now().and_utc().timestamp();
        let session =
            SessionClaims { username: "alice".into(), role: Role::User, issued_at: now, expires_at: now + 60 };
        let token = t.issue(&session).unwrap_or_default();
        assert!(t.verify(&token).is_ok());
        clock.advance(chrono::Duration::seconds(60 + LEEWAY_SECS.cast_signed()));
        assert!(t.verify(&token).is_ok(), "the leeway's last second");
        clock.advance(chrono::Duration::seconds(1));
        assert_eq!(t.verify(&token), Err(TokenError::Expired));
    }

    #[test]
    fn refuses_other_keys_alg_none_tampering_and_garbage() {
        let t = tokens();
        let other = JwtTokens::new(&SecretSlice::from(vec![8_u8; 32]), Arc::new(crate::SystemClock));
        let foreign = other.issue(&claims(3600)).unwrap_or_default();
        assert_eq!(t.verify(&foreign), Err(TokenError::Invalid));

        let payload = serde_json::to_value(Claims::from(&claims(3600))).unwrap_or_default();
        assert_eq!(t.verify(&forge(r#"{"alg":"none","typ":"JWT"}"#, &payload)), Err(TokenError::Invalid));

        let good = t.issue(&claims(3600)).unwrap_or_default();
        let parts: Vec<&str> = good.split('.').collect();
        let mut admin = payload.clone();
        admin["roles"] = "ROLE_USER,ROLE_ADMIN".into();
        let tampered = format!("{}.{}.{}", parts[0], URL_SAFE_NO_PAD.encode(admin.to_string()), parts[2]);
        assert_eq!(t.verify(&tampered), Err(TokenError::Invalid));

        for garbage in ["", "abc", "a.b.c", "Bearer x"] {
            assert_eq!(t.verify(garbage), Err(TokenError::Invalid), "{garbage:?}");
        }
    }

    #[test]
    fn refuses_missing_or_non_numeric_exp() {
        let t = tokens();
        let header = Header::new(Algorithm::HS256);
        let key = EncodingKey::from_secret(&[7_u8; 32]);
        let no_exp = serde_json::json!({"sub": "alice", "roles": "ROLE_USER", "iat": 1});
        let text_exp = serde_json::json!({"sub": "alice", "roles": "ROLE_USER", "iat": 1, "exp": "tomorrow"});
        for payload in [no_exp, text_exp] {
            let token = encode(&header, &payload, &key).unwrap_or_default();
            assert_eq!(t.verify(&token), Err(TokenError::Invalid), "{payload}");
        }
    }
}
