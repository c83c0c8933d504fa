//! Tidy checks, run as ordinary tests (so `cargo test` runs them) and by `cargo xtask tidy`:
//!
//! - no Rust or TypeScript source file over [`MAX_FILE_LINES`] lines (inline test modules count);
//! - no Rust function over [`MAX_FN_LINES`] lines, from its `fn` line to its closing brace (the
//!   frontend's functions are held to the same limit by ESLint's `max-lines-per-function`);
//! - docs/ARCHITECTURE.md names every crate, every port of `domain` and every job task, and keeps
//!   its recipes.
//!
//! Like rust-analyzer's tidy test: the rule lives next to the code it guards, and a failure names
//! the file, the line and the limit.

use std::path::{Path, PathBuf};

pub const MAX_FILE_LINES: usize = 600;
pub const MAX_FN_LINES: usize = 80;

/// The recipes docs/ARCHITECTURE.md keeps, each a `### ` heading under `## Recipes`.
pub const RECIPES: [&str; 6] =
    ["Add an endpoint", "Add a rendition kind", "Add a job task", "Add a chat API", "Add a setting", "Add a table"];

/// Folders never walked: build output, dependencies, generated code.
const SKIPPED: [&str; 6] = ["target", "node_modules", ".git", "generated", "dist", "artifacts"];

/// Every finding of the three checks, one line each.
pub fn problems(root: &Path) -> Vec<String> {
    let mut found = long_files(root);
    found.extend(long_functions(root));
    found.extend(architecture_gaps(root));
    found
}

/// `cargo xtask tidy`.
pub fn check(root: &Path) -> Result<(), String> {
    let found = problems(root);
    if found.is_empty() {
        println!("tidy: ok");
        Ok(())
    } else {
        Err(format!("{} tidy problem(s):\n{}", found.len(), found.join("\n")))
    }
}

/// The source files of the project with one of `extensions`, under its code folders.
fn sources(root: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack: Vec<PathBuf> =
        ["crates", "xtask", "fuzz", "frontend/src", "frontend/e2e"].iter().map(|d| root.join(d)).collect();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if !SKIPPED.contains(&name.as_str()) {
                    stack.push(path);
                }
            } else if extensions.iter().any(|ext| name.ends_with(ext)) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn shown(root: &Path, path: &Path) -> String {
    path.strip_prefix(root).unwrap_or(path).display().to_string()
}

fn long_files(root: &Path) -> Vec<String> {
    sources(root, &[".rs", ".ts", ".tsx"])
        .into_iter()
        .filter_map(|path| {
            let lines = std::fs::read_to_string(&path).ok()?.lines().count();
            (lines > MAX_FILE_LINES)
                .then(|| format!("{}: {lines} lines (at most {MAX_FILE_LINES})", shown(root, &path)))
        })
        .collect()
}

fn long_functions(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for path in sources(root, &[".rs"]) {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        for f in rust_functions(&text) {
            if f.lines > MAX_FN_LINES {
                found.push(format!(
                    "{}:{}: fn {} is {} lines (at most {MAX_FN_LINES})",
                    shown(root, &path),
                    f.line,
                    f.name,
                    f.lines
                ));
            }
        }
    }
    found
}

/// A function of a Rust file: its name, the line of its `fn` (1-based) and its length in lines.
#[derive(Debug, PartialEq, Eq)]
pub struct RustFn {
    pub name: String,
    pub line: usize,
    pub lines: usize,
}

/// The functions with a body in `text`, found by their `fn` keyword and the brace that closes the
/// body (strings, characters and comments skipped; lifetimes told from characters).
pub fn rust_functions(text: &str) -> Vec<RustFn> {
    let code = blank_out_literals(text);
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    let mut at = 0;
    while let Some(offset) = code[at..].find("fn ") {
        let start = at + offset;
        at = start + 3;
        let before_ok = start == 0 || !(bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_');
        let name: String = code[at..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if !before_ok || name.is_empty() {
            continue;
        }
        if let Some(end) = body_end(bytes, at + name.len()) {
            let line = code[..start].matches('\n').count() + 1;
            let last = code[..end].matches('\n').count() + 1;
            found.push(RustFn { name, line, lines: last - line + 1 });
        }
    }
    found
}

/// Where the body that follows a signature closes: `None` for a declaration without a body.
fn body_end(code: &[u8], from: usize) -> Option<usize> {
    let (mut parens, mut i) = (0i32, from);
    while i < code.len() {
        match code[i] {
            b'(' | b'[' => parens += 1,
            b')' | b']' => parens -= 1,
            b';' if parens == 0 => return None,
            b'{' if parens == 0 => break,
            _ => {}
        }
        i += 1;
    }
    let mut depth = 0usize;
    while i < code.len() {
        match code[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// `text` with the insides of comments, strings and character literals replaced by spaces (line
/// breaks kept), so braces and `fn` in them are not seen.
fn blank_out_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let prev_ident = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if (c == 'r' || (c == 'b' && next == Some('r'))) && !prev_ident && raw_string_hashes(&chars, i).is_some()
        {
            let open = if c == 'b' { i + 1 } else { i };
            let hashes = raw_string_hashes(&chars, i).unwrap_or(0);
            let closing: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let body_start = open + 1 + hashes + 1;
            let rest: String = chars[body_start..].iter().collect();
            let len = rest.find(&closing).map_or(rest.chars().count(), |b| rest[..b].chars().count());
            out.extend(std::iter::repeat_n(' ', body_start - i));
            out.extend(chars[body_start..body_start + len].iter().map(|&c| blank(c)));
            out.extend(std::iter::repeat_n(' ', closing.len()));
            i = body_start + len + closing.len();
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                let step = if chars[i] == '\\' { 2 } else { 1 };
                for k in 0..step {
                    if let Some(&ch) = chars.get(i + k) {
                        out.push(blank(ch));
                    }
                }
                i += step;
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '\n', '\u{7f}'); a lifetime ('a) has no closing quote.
            let end = (i + 2..chars.len()).find(|&k| chars[k] == '\'').unwrap_or(chars.len() - 1);
            out.extend(std::iter::repeat_n(' ', end - i + 1));
            i = end + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The number of `#` of a raw string literal starting at `i` (`r"`, `r#"`, `br##"`), if it is one.
fn raw_string_hashes(chars: &[char], i: usize) -> Option<usize> {
    let mut k = if chars[i] == 'b' { i + 2 } else { i + 1 };
    let mut hashes = 0;
    while chars.get(k) == Some(&'#') {
        hashes += 1;
        k += 1;
    }
    (chars.get(k) == Some(&'"')).then_some(hashes)
}

/// What docs/ARCHITECTURE.md must name: every crate folder, every port trait of `domain`, every job
/// task, and every recipe heading.
fn architecture_gaps(root: &Path) -> Vec<String> {
    let doc = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).unwrap_or_default();
    let mut gaps = Vec::new();
    let mut require = |what: &str, name: String, needle: String| {
        if !doc.contains(&needle) {
            gaps.push(format!("docs/ARCHITECTURE.md does not name the {what} {name} (looked for {needle:?})"));
        }
    };
    for krate in names_in(&root.join("crates"), |p| p.is_dir()) {
        require("crate", krate.clone(), format!("crates/{krate}"));
    }
    for port in port_traits(root) {
        require("port", port.clone(), format!("`{port}`"));
    }
    for task in job_tasks(root) {
        require("job task", task.clone(), format!("`{task}`"));
    }
    let recipes = doc.split("\n## Recipes").nth(1).unwrap_or_default();
    for recipe in RECIPES {
        if !recipes.contains(&format!("### {recipe}")) {
            gaps.push(format!("docs/ARCHITECTURE.md has no recipe \"### {recipe}\" under \"## Recipes\""));
        }
    }
    gaps
}

fn names_in(dir: &Path, keep: impl Fn(&Path) -> bool) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| keep(&e.path()))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// `pub trait Name` in `crates/domain/src/ports.rs` or `crates/domain/src/ports/*.rs`.
fn port_traits(root: &Path) -> Vec<String> {
    let domain = root.join("crates/domain/src");
    let mut files = vec![domain.join("ports.rs")];
    files.extend(names_in(&domain.join("ports"), |p| p.is_file()).iter().map(|n| domain.join("ports").join(n)));
    let mut traits = Vec::new();
    for text in files.iter().filter_map(|f| std::fs::read_to_string(f).ok()) {
        for line in text.lines() {
            if let Some(rest) = line.trim_start().strip_prefix("pub trait ") {
                let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                traits.push(name);
            }
        }
    }
    traits.sort();
    traits
}

/// The variants of `domain`'s `pub enum Task`.
fn job_tasks(root: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(root.join("crates/domain/src/job.rs")).unwrap_or_default();
    let Some(body) = text.split("pub enum Task {").nth(1).and_then(|rest| rest.split("\n}").next()) else {
        return vec!["Task (no `pub enum Task` found in crates/domain/src/job.rs)".into()];
    };
    body.lines()
        .map(str::trim)
        .filter(|l| l.chars().next().is_some_and(char::is_uppercase))
        .map(|l| l.chars().take_while(|c| c.is_alphanumeric()).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        crate::root()
    }

    #[test]
    fn every_source_file_stays_under_the_line_limit() {
        let found = long_files(&root());
        assert!(found.is_empty(), "split these files:\n{}", found.join("\n"));
    }

    #[test]
    fn every_rust_function_stays_under_the_line_limit() {
        let found = long_functions(&root());
        assert!(found.is_empty(), "split these functions:\n{}", found.join("\n"));
    }

    #[test]
    fn the_architecture_doc_names_every_crate_port_and_job_task_and_keeps_its_recipes() {
        let gaps = architecture_gaps(&root());
        assert!(gaps.is_empty(), "{}", gaps.join("\n"));
    }

    #[test]
    fn the_function_finder_measures_bodies_and_skips_literals() {
        let text = "fn a() {\n    let s = \"fn b() { }\";\n    let c = '{';\n}\n\n/// fn doc() {\npub async fn long<'a>(x: &'a str) -> Vec<u8>\nwhere\n    u8: Copy,\n{\n    let r = r#\"}\"#;\n    // }\n    vec![]\n}\ntrait T { fn decl(&self); }\n";
        let found = rust_functions(text);
        assert_eq!(
            found,
            vec![RustFn { name: "a".into(), line: 1, lines: 4 }, RustFn { name: "long".into(), line: 7, lines: 8 }]
        );
    }

    #[test]
    fn the_checks_see_what_they_guard() {
        // The walk reaches the code (a check that sees nothing passes for the wrong reason).
        assert!(sources(&root(), &[".rs"]).iter().any(|p| p.ends_with("crates/domain/src/lib.rs")));
        assert!(sources(&root(), &[".tsx"]).len() > 10);
        assert!(port_traits(&root()).contains(&"Clock".to_string()));
        assert!(!job_tasks(&root()).is_empty());
    }
}
