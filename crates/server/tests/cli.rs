//! The library commands of the binary, run as an operator runs them: `gifshelf import-folder` on a
//! tree with nested folders, a copy of a file, a broken image, a text file and a symbolic link (counts, tags from
//! folders, a dry run, a re-run that imports nothing twice), then `gifshelf export-media` writing
//! every original and a manifest to a ZIP. SQLite; the PostgreSQL path of the same use cases is
//! covered by the API suite.

use std::path::Path;
use std::process::Output;

use chrono::NaiveDate;
use gifshelf_db::testing::TestDb;
use gifshelf_domain::gif::{GifFilter, GifSort, PageRequest};
use gifshelf_domain::ports::{GifRepository, UserRepository};
use gifshelf_domain::user::{Email, NewUser, PasswordHash, Role, UserId, Username};
use gifshelf_media::testing::animated_gif;
use gifshelf_testkit::ServerEnv;

fn ok<T, E: std::fmt::Display>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|e| panic!("{e}"))
}

/// Runs the binary with the settings of a server under test on `db_url` and `data`: nothing from
/// the developer's shell.
fn run(db_url: &str, data: &Path, args: &[&str]) -> Output {
    ok(ServerEnv::new(data, data, db_url).command(env!("CARGO_BIN_EXE_gifshelf")).args(args).output())
}

/// [`run`], which must succeed.
fn gifshelf(db_url: &str, data: &Path, args: &[&str]) -> Output {
    let output = run(db_url, data, args);
    assert!(
        output.status.success(),
        "gifshelf {args:?} failed: {}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `animated_gif(64, 48, 3)` with its last palette colour set from `n`: a different file each.
fn gif(n: u8) -> Vec<u8> {
    let mut bytes = animated_gif(64, 48, 3);
    bytes[13 + 765..13 + 768].copy_from_slice(&[n, 0, n]);
    bytes
}

async fn owner(db: &gifshelf_db::Database) -> UserId {
    let at = NaiveDate::from_ymd_opt(2026, 11, 1).and_then(|d| d.and_hms_opt(8, 0, 0)).unwrap_or_default();
    let new = NewUser {
        username: ok(Username::parse("importer")),
        email: ok(Email::parse("importer@example.com")),
        password_hash: PasswordHash("h".into()),
        role: Role::User,
        created_at: at,
    };
    ok(UserRepository::create(db, new, false).await).id
}

#[tokio::test]
async fn import_folder_counts_every_kind_of_file_and_a_rerun_imports_nothing_twice() {
    let test_db = TestDb::sqlite();
    owner(&test_db.db).await;
    let work = ok(tempfile::tempdir());
    let data = work.path().join("data");
    let tree = work.path().join("old-gifs");
    ok(std::fs::create_dir_all(tree.join("Cats/Funny")));
    ok(std::fs::write(tree.join("Cats/Funny/happy_dance.gif"), gif(1)));
    ok(std::fs::write(tree.join("Cats/sleepy-cat.gif"), gif(2)));
    ok(std::fs::write(tree.join("copy of sleepy cat.gif"), gif(2)));
    let mut broken = gif(3);
    broken.truncate(40);
    ok(std::fs::write(tree.join("Cats/broken.gif"), broken));
    ok(std::fs::write(tree.join("notes.txt"), "not a GIF"));
    // A link to a file outside the folder (one swapped in after the listing alike) is never followed.
    ok(std::fs::write(work.path().join("private.gif"), gif(9)));
    ok(std::os::unix::fs::symlink(work.path().join("private.gif"), tree.join("outside.gif")));
    let dir = tree.display().to_string();
    let url = test_db.url.clone();

    // A dry run counts what would happen and stores nothing, copies within the folder included.
    let dry = stdout(&gifshelf(&url, &data, &["import-folder", &dir, "--user", "importer", "--dry-run"]));
    assert!(dry.contains("Would import 2 GIF(s)"), "{dry}");
    assert!(dry.contains("1 already in the library, 2 refused, 1 not images."), "{dry}");
    let all = || async {
        let page = ok(PageRequest::new(Some(0), Some(50)));
        ok(test_db.db.list(&GifFilter::All, GifSort::Title, page).await)
    };
    assert_eq!(all().await.total, 0);

    let first = stdout(&gifshelf(&url, &data, &["import-folder", &dir, "--user", "importer", "--tags-from-folders"]));
    assert!(first.contains("Imported 2 GIF(s)"), "{first}");
    assert!(first.contains("1 already in the library, 2 refused, 1 not images."), "{first}");
    assert!(first.contains("refused Cats/broken.gif"), "the refused file is named: {first}");
    assert!(first.contains("refused outside.gif: a symbolic link, not followed"), "{first}");
    let stored = all().await;
    let found: Vec<(String, Vec<String>)> = stored
        .items
        .iter()
        .map(|g| (g.title.as_str().to_owned(), g.tags.iter().map(|t| t.name.as_str().to_owned()).collect()))
        .collect();
    assert_eq!(
        found,
        [
            ("happy dance".to_owned(), vec!["cats".to_owned(), "funny".to_owned()]),
            ("sleepy-cat".to_owned(), vec!["cats".to_owned()])
        ]
    );

    // Interrupted or not, running it again imports nothing twice.
    let again = stdout(&gifshelf(&url, &data, &["import-folder", &dir, "--user", "importer"]));
    assert!(again.contains("Imported 0 GIF(s)"), "{again}");
    assert!(again.contains("3 already in the library, 2 refused, 1 not images."), "{again}");
    assert_eq!(all().await.total, 2);

    // export-media: both originals, byte for byte, and the manifest.
    let zip = work.path().join("library.zip");
    let zip_arg = zip.display().to_string();
    let wrote = stdout(&gifshelf(&url, &data, &["export-media", "--to", &zip_arg]));
    assert!(wrote.contains("2/2 GIFs written") && wrote.contains("Wrote "), "{wrote}");
    let archive = ok(std::fs::read(&zip));
    let end = archive.len() - 22;
    assert_eq!(archive[end..end + 4], [0x50, 0x4b, 0x05, 0x06], "end of central directory");
    assert_eq!(u16::from_le_bytes([archive[end + 10], archive[end + 11]]), 3, "two originals and the manifest");
    let holds = |needle: &[u8]| archive.windows(needle.len()).any(|w| w == needle);
    assert!(holds(&gif(1)) && holds(&gif(2)), "the originals are in the archive as stored");
    assert!(holds(b"manifest.json") && holds(b"\"happy dance\""));
    // It never overwrites a file.
    let refused = run(&url, &data, &["export-media", "--to", &zip_arg]);
    assert!(!refused.status.success());
}
