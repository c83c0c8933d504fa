//! The frontend's request and response types are generated from the DTOs. This test fails when the
//! files in `frontend/src/api/generated/` differ from what the DTOs produce: client and server
//! cannot drift apart silently. `cargo xtask gen-types` rewrites them.

use std::path::PathBuf;

#[test]
fn generated_typescript_types_are_fresh() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../frontend/src/api/generated");
    let update = std::env::var("GIFSHELF_UPDATE_TYPES").is_ok_and(|v| v == "1");
    let files = gifshelf_http::dto::typescript_files();
    let mut stale = Vec::new();
    if update {
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    }
    for (name, contents) in &files {
        let path = dir.join(name);
        if update {
            std::fs::write(&path, contents).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(contents.as_str()) {
            stale.push(name.clone());
        }
    }
    let known: Vec<&String> = files.iter().map(|(n, _)| n).collect();
    let leftovers: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".ts") && !known.contains(&n))
                .collect()
        })
        .unwrap_or_default();
    if update {
        for name in &leftovers {
            let _ = std::fs::remove_file(dir.join(name));
        }
        return;
    }
    assert!(
        stale.is_empty() && leftovers.is_empty(),
        "frontend/src/api/generated is stale (changed: {stale:?}, no longer generated: {leftovers:?}); run `cargo xtask gen-types`"
    );
}
