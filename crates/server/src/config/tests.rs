use std::collections::HashMap;

use super::*;

fn with(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: HashMap<String, String> = vars.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    move |name| map.get(name).cloned()
}

#[test]
fn embedded_defaults() {
    let s = Settings::from_sources(None, with(&[])).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.bind, "127.0.0.1:8080");
    assert_eq!(s.database_url, "sqlite://./data/gifshelf.db");
    assert_eq!(s.storage_url, "file://./data/media");
    assert_eq!(s.max_upload_bytes(), 10 * 1024 * 1024);
    assert_eq!(s.web_dir, None, "the web app built into the binary");
    assert!(s.jwt_secret.is_none() && s.google_client_id.is_none());
}

#[test]
fn env_wins_over_file_and_paths_follow_the_data_dir() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("gifshelf.toml");
    std::fs::write(&file, "bind = \"0.0.0.0:9000\"\nmax_upload_mb = 20\ndata_dir = \"/srv/gif\"\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let s =
        Settings::from_sources(Some(&file), with(&[("GIFSHELF_MAX_UPLOAD_MB", "5")])).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((s.bind.as_str(), s.max_upload_mb), ("0.0.0.0:9000", 5));
    assert_eq!(s.database_url, "sqlite:///srv/gif/gifshelf.db");
}

#[test]
fn s3_settings_come_from_the_aws_variables() {
    use secrecy::ExposeSecret;

    let s = Settings::from_sources(None, with(&[])).unwrap_or_else(|e| panic!("{e}"));
    assert!(s.s3.endpoint.is_none() && s.s3.access_key_id.is_none() && !s.s3.force_path_style && !s.s3.allow_http);
    let s = Settings::from_sources(
        None,
        with(&[
            ("GIFSHELF_STORAGE_URL", "s3://gifs/media"),
            ("AWS_ENDPOINT_URL", "http://minio:9000"),
            ("AWS_DEFAULT_REGION", "eu-west-1"),
            ("AWS_ACCESS_KEY_ID", "id"),
            ("AWS_SECRET_ACCESS_KEY", "secret"),
            ("GIFSHELF_S3_FORCE_PATH_STYLE", "true"),
            ("GIFSHELF_S3_ALLOW_HTTP", "true"),
        ]),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.storage_url, "s3://gifs/media");
    assert_eq!((s.s3.endpoint.as_deref(), s.s3.region.as_deref()), (Some("http://minio:9000"), Some("eu-west-1")));
    assert_eq!(s.s3.secret_access_key.as_ref().map(|k| k.expose_secret().to_owned()), Some("secret".into()));
    assert!(s.s3.force_path_style && s.s3.allow_http && s.s3.session_token.is_none());
    assert!(!format!("{s:?}").contains("secret\""), "the secret stays out of debug output");
    let s = Settings::from_sources(None, with(&[("AWS_REGION", "us-west-2"), ("AWS_DEFAULT_REGION", "eu-west-1")]))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.s3.region.as_deref(), Some("us-west-2"));
    let err = Settings::from_sources(None, with(&[("GIFSHELF_S3_ALLOW_HTTP", "yes please")])).err();
    assert!(matches!(err, Some(ConfigError::Invalid { name: "GIFSHELF_S3_ALLOW_HTTP", .. })));
}

#[test]
fn bad_values_name_the_setting() {
    let err = Settings::from_sources(None, with(&[("GIFSHELF_MAX_UPLOAD_MB", "lots")])).err();
    assert!(matches!(err, Some(ConfigError::Invalid { name: "GIFSHELF_MAX_UPLOAD_MB", .. })));
    let err = Settings::from_sources(None, with(&[("GIFSHELF_BCRYPT_COST", "2")])).err();
    assert!(matches!(err, Some(ConfigError::Invalid { name: "GIFSHELF_BCRYPT_COST", .. })));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("bad.toml");
    std::fs::write(&file, "bindd = 1").unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(Settings::from_sources(Some(&file), with(&[])), Err(ConfigError::Parse { .. })));
}

#[test]
fn media_offload_modes_and_their_refusals() {
    let offload = |vars: &[(&str, &str)]| Settings::from_sources(None, with(vars)).map(|s| s.media_offload);
    assert_eq!(offload(&[]).ok(), Some(gifshelf_http::MediaOffload::Stream));
    assert_eq!(
        offload(&[("GIFSHELF_MEDIA_OFFLOAD", "x-accel-redirect")]).ok(),
        Some(gifshelf_http::MediaOffload::XAccelRedirect { prefix: "/_gifshelf_media/".into() })
    );
    assert_eq!(
        offload(&[("GIFSHELF_MEDIA_OFFLOAD", "presigned"), ("GIFSHELF_STORAGE_URL", "s3://bucket/gifs")]).ok(),
        Some(gifshelf_http::MediaOffload::Presigned { expires: std::time::Duration::from_secs(300) })
    );
    let refused = |vars: &[(&str, &str)]| match offload(vars) {
        Err(ConfigError::Invalid { name, .. }) => name,
        other => panic!("{other:?}"),
    };
    // Presigned URLs need an object store; a folder has nothing to sign.
    assert_eq!(refused(&[("GIFSHELF_MEDIA_OFFLOAD", "presigned")]), "GIFSHELF_MEDIA_OFFLOAD");
    assert_eq!(refused(&[("GIFSHELF_MEDIA_OFFLOAD", "sendfile")]), "GIFSHELF_MEDIA_OFFLOAD");
    let bad_prefix = [("GIFSHELF_MEDIA_OFFLOAD", "x-accel-redirect"), ("GIFSHELF_MEDIA_OFFLOAD_PREFIX", "media")];
    assert_eq!(refused(&bad_prefix), "GIFSHELF_MEDIA_OFFLOAD_PREFIX");
    let too_long = [
        ("GIFSHELF_MEDIA_OFFLOAD", "presigned"),
        ("GIFSHELF_STORAGE_URL", "s3://bucket"),
        ("GIFSHELF_MEDIA_PRESIGN_SECS", "9999999"),
    ];
    assert_eq!(refused(&too_long), "GIFSHELF_MEDIA_PRESIGN_SECS");
}

#[test]
fn chat_command_secrets_are_read_checked_and_never_shown() {
    use secrecy::ExposeSecret;

    let s = Settings::from_sources(None, with(&[])).unwrap_or_else(|e| panic!("{e}"));
    assert!(s.chat_commands.slack_signing_secret.is_none());
    assert!(s.chat_commands.mattermost_tokens.is_empty() && s.chat_commands.zulip_tokens.is_empty());
    let s = Settings::from_sources(
        None,
        with(&[
            ("GIFSHELF_SLACK_SIGNING_SECRET", " 8f742231b10e8888abcd99yyyzzz85a5 "),
            ("GIFSHELF_MATTERMOST_TOKENS", "pbte7m9wbbfbmjk1f4mhsibbzc, qtuf8n0xccgcnkl2g5nitjccad,"),
            ("GIFSHELF_ZULIP_TOKENS", "xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ0"),
        ]),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let exposed = |secrets: &[SecretString]| secrets.iter().map(|t| t.expose_secret().to_owned()).collect::<Vec<_>>();
    assert_eq!(
        s.chat_commands.slack_signing_secret.as_ref().map(|k| k.expose_secret().to_owned()),
        Some("8f742231b10e8888abcd99yyyzzz85a5".into())
    );
    assert_eq!(
        exposed(&s.chat_commands.mattermost_tokens),
        ["pbte7m9wbbfbmjk1f4mhsibbzc", "qtuf8n0xccgcnkl2g5nitjccad"]
    );
    assert_eq!(exposed(&s.chat_commands.zulip_tokens), ["xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ0"]);
    let debug = format!("{s:?}");
    assert!(!debug.contains("8f742231") && !debug.contains("pbte7m9w") && !debug.contains("xvOzfur"), "{debug}");

    for (name, value) in [
        ("GIFSHELF_SLACK_SIGNING_SECRET", "short"),
        ("GIFSHELF_SLACK_SIGNING_SECRET", "two secrets-with-a-space"),
        ("GIFSHELF_MATTERMOST_TOKENS", "pbte7m9wbbfbmjk1f4mhsibbzc,tiny"),
        ("GIFSHELF_ZULIP_TOKENS", &"z".repeat(201)),
    ] {
        match Settings::from_sources(None, with(&[(name, value)])) {
            Err(err @ ConfigError::Invalid { name: named, .. }) => {
                assert_eq!(named, name);
                assert!(!err.to_string().contains(value), "{err}");
            }
            other => panic!("{name}={value}: {other:?}"),
        }
    }
}

#[test]
fn the_link_fetch_allow_list_is_parsed_or_named() {
    let s = Settings::from_sources(None, with(&[])).unwrap_or_else(|e| panic!("{e}"));
    assert!(s.url_fetch_allow.is_empty());
    assert_eq!(s.url_fetch_timeout_secs, 10);
    let s = Settings::from_sources(None, with(&[("GIFSHELF_URL_FETCH_ALLOW", "127.0.0.0/8, ::1")]))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.url_fetch_allow.len(), 2);
    let err = Settings::from_sources(None, with(&[("GIFSHELF_URL_FETCH_ALLOW", "intranet")])).err();
    assert!(matches!(err, Some(ConfigError::Invalid { name: "GIFSHELF_URL_FETCH_ALLOW", .. })));
}

#[test]
fn link_fetch_limits_have_defaults_and_refuse_zero() {
    let s = Settings::from_sources(None, with(&[])).unwrap_or_else(|e| panic!("{e}"));
    let l = s.url_fetch_limits;
    assert_eq!((l.concurrent, l.per_user_concurrent, l.per_user_per_hour), (4, 2, 30));
    let s = Settings::from_sources(None, with(&[("GIFSHELF_URL_FETCH_CONCURRENCY", "8")]))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.url_fetch_limits.concurrent, 8);
    for name in ["GIFSHELF_URL_FETCH_CONCURRENCY", "GIFSHELF_URL_FETCH_PER_USER", "GIFSHELF_URL_FETCH_PER_HOUR"] {
        let err = Settings::from_sources(None, with(&[(name, "0")])).err();
        assert!(matches!(err, Some(ConfigError::Invalid { name: n, .. }) if n == name), "{name}: {err:?}");
    }
}

#[test]
fn default_rating_is_g_unless_configured_and_refuses_other_values() {
    use gifshelf_domain::gif::Rating;

    let rating = |vars: &[(&str, &str)]| Settings::from_sources(None, with(vars)).map(|s| s.default_rating);
    assert_eq!(rating(&[]).ok(), Some(Rating::G));
    assert_eq!(rating(&[("GIFSHELF_DEFAULT_RATING", "pg-13")]).ok(), Some(Rating::Pg13));
    for bad in ["PG", "x", "nc-17"] {
        assert!(
            matches!(
                rating(&[("GIFSHELF_DEFAULT_RATING", bad)]),
                Err(ConfigError::Invalid { name: "GIFSHELF_DEFAULT_RATING", .. })
            ),
            "{bad}"
        );
    }
}
