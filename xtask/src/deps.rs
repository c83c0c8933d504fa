//! The dependency rule of docs/ARCHITECTURE.md, checked from `cargo metadata`:
//! `domain` knows no framework and none of our crates; `app` knows only `domain`; adapters know
//! `domain` (and `http` also `app`) but never each other; only `server` knows everyone. The test
//! harness `testkit` knows none of them (and no framework), and only xtask has it as a normal
//! dependency: in `server` it is a dev-dependency, never part of the binary.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// Normal (non-dev) dependencies each inner crate may have, besides its allowed crates of ours.
const DOMAIN_ALLOWED: &[&str] = &["serde", "thiserror", "async-trait", "chrono", "time", "uuid", "mockall"];
const APP_EXTRA: &[&str] = &["tracing"];
/// Normal dependencies the test harness may have: std is enough.
const TESTKIT_ALLOWED: &[&str] = &[];
/// The only package with the test harness as a normal dependency.
const TESTKIT_USER: &str = "xtask";

fn ours_allowed(package: &str) -> Option<&'static [&'static str]> {
    Some(match package {
        "gifshelf-domain" => &[],
        "gifshelf-app" => &["gifshelf-domain"],
        "gifshelf-db" | "gifshelf-auth" | "gifshelf-media" | "gifshelf-storage" | "gifshelf-fetch" => {
            &["gifshelf-domain"]
        }
        "gifshelf-http" => &["gifshelf-domain", "gifshelf-app"],
        "gifshelf-testkit" => &[],
        _ => return None, // server and xtask may depend on anything (server on testkit for tests only)
    })
}

pub fn check(root: &Path) -> Result<(), String> {
    let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    if !output.status.success() {
        return Err(format!("cargo metadata failed: {}", String::from_utf8_lossy(&output.stderr)));
    }
    let metadata: Value = serde_json::from_slice(&output.stdout).map_err(|e| e.to_string())?;
    let problems = violations(&metadata);
    if problems.is_empty() {
        println!("dependency rule: ok");
        Ok(())
    } else {
        Err(format!("the dependency rule is broken:\n  {}", problems.join("\n  ")))
    }
}

fn violations(metadata: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let packages = metadata["packages"].as_array().cloned().unwrap_or_default();
    for package in &packages {
        let name = package["name"].as_str().unwrap_or_default();
        let normal = package["dependencies"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|dep| dep["kind"].is_null()) // dev- and build-dependencies are not part of the layering
            .map(|dep| dep["name"].as_str().unwrap_or_default());
        let Some(allowed_ours) = ours_allowed(name) else {
            if name != TESTKIT_USER {
                let testkit = normal.filter(|dep| *dep == "gifshelf-testkit");
                problems.extend(testkit.map(|dep| format!("{name} must not depend on {dep} (a dev-dependency only)")));
            }
            continue;
        };
        for dep_name in normal {
            let ours = dep_name.starts_with("gifshelf-");
            let ok = if ours {
                allowed_ours.contains(&dep_name)
            } else {
                match name {
                    "gifshelf-domain" => DOMAIN_ALLOWED.contains(&dep_name),
                    "gifshelf-app" => DOMAIN_ALLOWED.contains(&dep_name) || APP_EXTRA.contains(&dep_name),
                    "gifshelf-testkit" => TESTKIT_ALLOWED.contains(&dep_name),
                    _ => true,
                }
            };
            if !ok {
                problems.push(format!("{name} must not depend on {dep_name}"));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{check, violations};

    /// The rule holds for the workspace as it is: an ordinary test, so `cargo test` (and
    /// `cargo xtask test`) fails the moment an inner crate gains a framework or an adapter.
    #[test]
    fn the_workspace_keeps_the_dependency_rule() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap_or(std::path::Path::new("."));
        assert_eq!(check(root), Ok(()));
    }

    fn metadata(name: &str, deps: &[(&str, Option<&str>)]) -> serde_json::Value {
        let deps: Vec<_> = deps.iter().map(|(n, kind)| json!({"name": n, "kind": kind})).collect();
        json!({"packages": [{"name": name, "dependencies": deps}]})
    }

    #[test]
    fn flags_frameworks_inward_and_adapters_sideways() {
        assert_eq!(
            violations(&metadata("gifshelf-domain", &[("serde", None), ("diesel", None)])),
            vec!["gifshelf-domain must not depend on diesel"]
        );
        assert_eq!(
            violations(&metadata("gifshelf-app", &[("actix-web", None)])),
            vec!["gifshelf-app must not depend on actix-web"]
        );
        assert_eq!(
            violations(&metadata("gifshelf-db", &[("gifshelf-auth", None)])),
            vec!["gifshelf-db must not depend on gifshelf-auth"]
        );
        assert!(violations(&metadata("gifshelf-app", &[("gifshelf-domain", None), ("tokio", Some("dev"))])).is_empty());
        assert!(violations(&metadata("gifshelf-server", &[("gifshelf-db", None), ("actix-web", None)])).is_empty());
    }

    #[test]
    fn the_test_harness_stays_bare_and_out_of_the_binary() {
        assert_eq!(
            violations(&metadata("gifshelf-testkit", &[("actix-web", None), ("gifshelf-db", None)])),
            vec!["gifshelf-testkit must not depend on actix-web", "gifshelf-testkit must not depend on gifshelf-db"]
        );
        assert_eq!(
            violations(&metadata("gifshelf-server", &[("gifshelf-testkit", None)])),
            vec!["gifshelf-server must not depend on gifshelf-testkit (a dev-dependency only)"]
        );
        assert!(violations(&metadata("gifshelf-server", &[("gifshelf-testkit", Some("dev"))])).is_empty());
        assert!(violations(&metadata("xtask", &[("gifshelf-testkit", None)])).is_empty());
    }
}
