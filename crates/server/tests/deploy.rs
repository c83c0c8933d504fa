//! The deployment files users copy: `compose.yaml` and `deploy/gifshelf.service`. Their images
//! cannot be pulled here, so the compose file is parsed and checked against what gifshelf reads; the
//! container image itself is built and run by `cargo xtask test` (xtask/src/image_check.rs).

use std::path::{Path, PathBuf};

use yaml_rust2::{Yaml, YamlLoader};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The source of the server crate, every file.
fn server_source(dir: &Path) -> String {
    let mut text = String::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten() {
        let path = entry.path();
        if path.is_dir() {
            text += &server_source(&path);
        } else if path.extension().is_some_and(|e| e == "rs") {
            text += &std::fs::read_to_string(&path).unwrap_or_default();
        }
    }
    text
}

/// The variables docs/configuration.md documents (and the server reads).
fn documented(name: &str) -> bool {
    let docs = read("docs/configuration.md");
    let code = server_source(&repo().join("crates/server/src"));
    docs.contains(&format!("`{name}`")) && code.contains(name)
}

fn compose() -> Yaml {
    let docs = YamlLoader::load_from_str(&read("compose.yaml")).unwrap_or_else(|e| panic!("compose.yaml: {e}"));
    docs.into_iter().next().unwrap_or_else(|| panic!("compose.yaml is empty"))
}

#[test]
fn compose_runs_gifshelfs_image_with_postgres_and_s3() {
    let compose = compose();
    let services = &compose["services"];
    let gifshelf = &services["gifshelf"];
    assert_eq!(gifshelf["image"].as_str(), Some("localhost/gifshelf:latest"), "the name `cargo xtask image` gives");
    for other in ["postgres", "minio", "bucket"] {
        assert!(!services[other].is_badvalue(), "service {other}");
    }
    let env = gifshelf["environment"].as_hash().unwrap_or_else(|| panic!("gifshelf has no environment map"));
    let names: Vec<&str> = env.keys().filter_map(Yaml::as_str).collect();
    for name in names.iter().filter(|n| n.starts_with("GIFSHELF_")) {
        assert!(documented(name), "{name} is not a documented setting of gifshelf");
    }
    let value = |name: &str| env.get(&Yaml::String(name.into())).and_then(Yaml::as_str).unwrap_or_default();
    assert!(value("GIFSHELF_DATABASE_URL").starts_with("postgres://"), "PostgreSQL");
    assert!(value("GIFSHELF_DATABASE_URL").contains("@postgres:5432/"), "the compose service");
    assert!(value("GIFSHELF_STORAGE_URL").starts_with("s3://"), "S3");
    assert_eq!(value("AWS_ENDPOINT_URL"), "http://minio:9000");
    assert_eq!(value("GIFSHELF_DATA_DIR"), "/data");
    for secret in ["GIFSHELF_JWT_SECRET", "GIFSHELF_SECRETS_KEY"] {
        assert!(value(secret).contains(":?"), "{secret} must come from .env and be required");
    }
    let volumes: Vec<&str> = gifshelf["volumes"].as_vec().into_iter().flatten().filter_map(Yaml::as_str).collect();
    assert!(volumes.iter().any(|v| v.ends_with(":/data")), "the data folder is a volume: {volumes:?}");
    let health: Vec<&str> =
        gifshelf["healthcheck"]["test"].as_vec().into_iter().flatten().filter_map(Yaml::as_str).collect();
    assert_eq!(health, ["CMD", "/usr/local/bin/gifshelf", "healthcheck"]);
    let waits = &gifshelf["depends_on"]["postgres"]["condition"];
    assert_eq!(waits.as_str(), Some("service_healthy"), "gifshelf starts once PostgreSQL is ready");
    for name in ["gifshelf-data", "postgres-data", "minio-data"] {
        assert!(compose["volumes"].as_hash().is_some_and(|v| v.contains_key(&Yaml::String(name.into()))), "{name}");
    }
}

#[test]
fn the_systemd_unit_is_hardened_and_names_real_settings() {
    let unit = read("deploy/gifshelf.service");
    for line in [
        "ExecStart=/usr/local/bin/gifshelf serve",
        "DynamicUser=yes",
        "StateDirectory=gifshelf",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "ProtectHome=yes",
        "PrivateTmp=yes",
        "CapabilityBoundingSet=",
        "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
        "SystemCallFilter=@system-service",
    ] {
        assert!(unit.lines().any(|l| l == line), "{line} missing");
    }
    for name in unit.lines().filter_map(|l| l.strip_prefix("Environment=")).filter_map(|e| e.split('=').next()) {
        assert!(documented(name), "{name} is not a documented setting of gifshelf");
    }
    assert!(unit.contains("GIFSHELF_DATA_DIR=/var/lib/gifshelf"), "data in the state directory");

    // systemd's own check, with a program that exists standing in for the binary.
    let Ok(output) = std::process::Command::new("systemd-analyze").arg("--version").output() else {
        eprintln!("systemd-analyze is not installed: the unit's keys were not checked by systemd");
        return;
    };
    assert!(output.status.success());
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let copy = dir.path().join("gifshelf.service");
    std::fs::write(&copy, unit.replace("/usr/local/bin/gifshelf", "/bin/true")).unwrap_or_else(|e| panic!("{e}"));
    let verify = std::process::Command::new("systemd-analyze")
        .arg("verify")
        .arg(&copy)
        .output()
        .unwrap_or_else(|e| panic!("systemd-analyze: {e}"));
    let said = String::from_utf8_lossy(&verify.stderr);
    let complaints: Vec<&str> = said.lines().filter(|l| l.contains("gifshelf.service")).collect();
    assert!(verify.status.success() && complaints.is_empty(), "systemd-analyze verify: {said}");
}
