//! In CI the PostgreSQL halves must run: compiled as ignored (no GIFSHELF_TEST_POSTGRES_URL when
//! the tests were built), they would be skipped silently.

#[test]
fn the_postgres_halves_run_in_ci() {
    let in_ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let built_with_postgres = cfg!(postgres_tests);
    assert!(
        !in_ci || built_with_postgres,
        "CI=true, but the tests were built without GIFSHELF_TEST_POSTGRES_URL: the PostgreSQL halves would not run"
    );
}
