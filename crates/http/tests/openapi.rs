//! The OpenAPI document: `docs/openapi.json` is what the code generates, and every route of the
//! API is in it. `GIFSHELF_UPDATE_OPENAPI=1 cargo test -p gifshelf-http --test openapi` rewrites it.

use std::path::PathBuf;

fn checked_in() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/openapi.json")
}

#[test]
fn checked_in_document_is_fresh() {
    let generated = gifshelf_http::openapi_json();
    let path = checked_in();
    if std::env::var_os("GIFSHELF_UPDATE_OPENAPI").is_some() {
        std::fs::write(&path, format!("{generated}\n")).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        stored.trim_end() == generated.trim_end(),
        "docs/openapi.json is stale: run `GIFSHELF_UPDATE_OPENAPI=1 cargo test -p gifshelf-http --test openapi`"
    );
}

#[test]
fn every_route_is_described_with_errors_and_security() {
    let doc: serde_json::Value =
        serde_json::from_str(&gifshelf_http::openapi_json()).unwrap_or_else(|e| panic!("not JSON: {e}"));
    assert!(doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.1")), "{}", doc["openapi"]);
    assert_eq!(doc["components"]["securitySchemes"]["bearer"]["scheme"], "bearer");
    // Every route macro under /api in the source has an operation in the document.
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut count = 0;
    let entries = ["routes", "chat/commands"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(source.join(dir)).unwrap_or_else(|e| panic!("{dir}: {e}")));
    for entry in entries {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        let file = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        if file == "share.rs" || file == "openapi.rs" {
            continue; // HTML share pages and the document itself
        }
        let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        for line in source.lines().map(str::trim) {
            for method in ["get", "post", "put", "delete"] {
                let Some(rest) = line.strip_prefix(&format!("#[{method}(\"")) else { continue };
                let route = rest.split('"').next().unwrap_or_default();
                let operation = &doc["paths"][format!("/api{route}")][method];
                assert!(operation.is_object(), "{method} /api{route} ({file}) is not in the OpenAPI document");
                let responses = operation["responses"].as_object().map(|r| r.len()).unwrap_or(0);
                // Every operation but the public configuration, signing out (which always
                // succeeds) and the liveness probe (the process answers) has an error answer described.
                let cannot_fail = route == "/config" || route == "/auth/logout" || route == "/health/live";
                assert!(responses >= 2 || cannot_fail, "{method} /api{route} describes {responses} response(s)");
                count += 1;
            }
        }
    }
    assert_eq!(count, 96, "routes found in the source");
    // The multipart upload is described as such.
    let upload = &doc["paths"]["/api/gifs"]["post"]["requestBody"]["content"]["multipart/form-data"];
    assert!(upload["schema"].is_object(), "{upload}");
    // Protected operations say so; public ones do not.
    assert!(doc["paths"]["/api/gifs/dtos"]["get"]["security"].is_array());
    assert!(doc["paths"]["/api/auth/login"]["post"]["security"].is_null());
}

#[test]
fn no_schema_is_a_tuple() {
    // Schemathesis (like other OpenAPI tools) refuses `prefixItems`, utoipa's spelling of a Rust
    // tuple: a tuple of strings is described as an array of strings of a fixed length instead.
    assert!(!gifshelf_http::openapi_json().contains("prefixItems"), "a tuple's schema in the OpenAPI document");
}
