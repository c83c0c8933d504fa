//! Running one test alone in a process of its own, for the tests that measure their whole process.

use std::process::{Command, Stdio};

/// Set in the copy of the test binary that runs one test alone: that test's name.
const ALONE: &str = "GIFSHELF_TEST_ALONE";

/// Whether the calling test runs alone in a process of its own; call it first thing in a test that
/// measures its whole process (its memory, its children), and return when it answers `false`:
///
/// ```text
/// if !gifshelf_testkit::alone() {
///     return;
/// }
/// ```
///
/// `cargo test` runs the tests of a binary as threads of one process, so what one of them measures
/// of the process includes what the others do meanwhile. In that ordinary run this runs the calling
/// test again, by its exact name, in a fresh copy of the test binary, waits for it, fails when it
/// fails (its output is printed), and answers `false`. In that copy, where no other test runs, it
/// answers `true`.
///
/// # Panics
/// When the test failed in its own process, or cannot be run there: called elsewhere than on the
/// thread libtest names after the test (not from a spawned task), or the binary cannot start.
pub fn alone() -> bool {
    let thread = std::thread::current();
    let name = thread.name().filter(|name| *name != "main").unwrap_or_else(|| {
        panic!("alone() needs the test's own thread, which libtest names after the test: {:?}", thread.name())
    });
    if std::env::var(ALONE).is_ok_and(|alone| alone == name) {
        return true;
    }
    let binary = std::env::current_exe().unwrap_or_else(|e| panic!("the test binary: {e}"));
    let output = Command::new(&binary)
        .args([name, "--exact", "--include-ignored", "--nocapture", "--test-threads=1"])
        .env(ALONE, name)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", binary.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    print!("{stdout}");
    eprint!("{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("running 1 test"), "{name} was not found to run alone in {}", binary.display());
    assert!(output.status.success(), "{name}, alone in a process of its own, failed ({})", output.status);
    false
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Tests of this binary that ran in this process.
    static STARTED: AtomicUsize = AtomicUsize::new(0);

    #[test]
    fn a_test_runs_again_alone_and_only_there_goes_on() {
        STARTED.fetch_add(1, Ordering::SeqCst);
        if !super::alone() {
            // Here, in the ordinary run: the copy ran and passed.
            assert!(std::env::var(super::ALONE).is_err());
            return;
        }
        // In the copy: no other test of this binary started in this process.
        assert_eq!(STARTED.load(Ordering::SeqCst), 1);
        assert!(std::env::var(super::ALONE).is_ok());
    }

    #[test]
    fn a_neighbour_the_copy_does_not_run() {
        STARTED.fetch_add(1, Ordering::SeqCst);
    }
}
