use gifshelf_domain::auth::Claims;
use gifshelf_domain::ports::{SignError, TokenError, TokenService};
use jsonwebtoken::{decode, encode, errors::ErrorKind, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use secrecy::{ExposeSecret, SecretSlice};

/// Seconds of clock skew tolerated on `exp` (jsonwebtoken's default is 60).
pub const LEEWAY_SECS: u64 = 5;

/// HS256 session tokens. The algorithm is pinned: `alg: none`, RS256 and friends are refused.
pub struct JwtTokens {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

impl std::fmt::Debug for JwtTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JwtTokens(***)")
    }
}

impl JwtTokens {
    pub fn new(secret: &SecretSlice<u8>) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = LEEWAY_SECS;
        validation.validate_exp = true;
        validation.set_required_spec_claims(&["exp", "iat", "sub"]);
        Self {
            encoding: EncodingKey::from_secret(secret.expose_secret()),
            decoding: DecodingKey::from_secret(secret.expose_secret()),
            validation,
        }
    }
}

impl TokenService for JwtTokens {
    fn issue(&self, claims: &Claims) -> Result<String, SignError> {
        encode(&Header::new(Algorithm::HS256), claims, &self.encoding).map_err(|e| SignError(e.into()))
    }

    fn verify(&self, token: &str) -> Result<Claims, TokenError> {
        match decode::<Claims>(token, &self.decoding, &self.validation) {
            Ok(data) => Ok(data.claims),
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
        JwtTokens::new(&SecretSlice::from(vec![7_u8; 32]))
    }

    fn claims(exp_offset: i64) -> Claims {
        let now = chrono::Utc::now().timestamp();
        Claims { sub: "alice".into(), roles: "ROLE_USER".into(), iat: now, exp: now + exp_offset }
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
        assert_eq!(t.verify(&token).map(|c| c.sub), Ok("alice".to_owned()));
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
    fn refuses_other_keys_alg_none_tampering_and_garbage() {
        let t = tokens();
        let other = JwtTokens::new(&SecretSlice::from(vec![8_u8; 32]));
        let foreign = other.issue(&claims(3600)).unwrap_or_default();
        assert_eq!(t.verify(&foreign), Err(TokenError::Invalid));

        let payload = serde_json::to_value(claims(3600)).unwrap_or_default();
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
