//! The PostgreSQL halves of the tests run only when a server is configured, the video checks
//! only where `ffmpeg` and `ffprobe` are found (see `../media/build_ffmpeg.rs`), the text checks
//! only where Tesseract is (see `../media/build_tesseract.rs`); otherwise they are
//! compiled as ignored, so test runners report them as skipped, never as passed.

#[path = "../media/build_ffmpeg.rs"]
mod ffmpeg;
#[path = "../media/build_tesseract.rs"]
mod tesseract;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(postgres_tests)");
    println!("cargo::rerun-if-env-changed=GIFSHELF_TEST_POSTGRES_URL");
    if std::env::var("GIFSHELF_TEST_POSTGRES_URL").is_ok_and(|url| !url.is_empty()) {
        println!("cargo::rustc-cfg=postgres_tests");
    }
    ffmpeg::emit();
    tesseract::emit();
}
