//! In CI the PostgreSQL halves must run: compiled as ignored (no GIFSHELF_TEST_POSTGRES_URL when
//! the tests were built), they would be skipped silently.

#[test]
fn the_postgres_halves_run_in_ci() {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        assert!(
            cfg!(postgres_tests),
            "CI=true, but the tests were built without GIFSHELF_TEST_POSTGRES_URL: the PostgreSQL halves would not run"
        );
    }
}
