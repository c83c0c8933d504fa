//! The sandbox every child program runs in (`ffmpeg`, `ffprobe`, `tesseract`): an address-space
//! limit, the last of its error output kept, and a watchdog that kills it past its deadline.

use std::io::Read;
use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Sets the child's address-space limit between `fork` and `exec`.
#[allow(unsafe_code)] // pre_exec and setrlimit(2) have no safe wrapper
pub(crate) fn limit_memory(cmd: &mut Command, bytes: u64) {
    use std::os::unix::process::CommandExt;
    let limit = libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
    // SAFETY: the closure runs in the forked child before exec; it only calls setrlimit(2),
    // which is async-signal-safe, and allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
}

/// Keeps the last `KEEP` bytes of what the child writes on stderr (its error, if any).
pub(crate) fn drain_stderr(mut from: impl Read + Send + 'static) -> JoinHandle<String> {
    const KEEP: usize = 4096;
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n) = from.read(&mut buf) {
            if n == 0 {
                break;
            }
            kept.extend_from_slice(&buf[..n]);
            if kept.len() > KEEP {
                kept.drain(..kept.len() - KEEP);
            }
        }
        String::from_utf8_lossy(&kept).trim().to_owned()
    })
}

/// Waits for the child, killing it when `deadline` passes or `abort` is set; always reaps it.
/// Returns its status and whether it was killed for the deadline. How long `program` ran, and how
/// it ended, goes to `/metrics` (`gifshelf_program_run_seconds`).
pub(crate) fn watch(
    program: &'static str,
    child: Arc<Mutex<Child>>,
    deadline: Instant,
    abort: Arc<AtomicBool>,
) -> JoinHandle<(Option<ExitStatus>, bool)> {
    let started = Instant::now();
    let observed = move |outcome: &'static str| {
        let seconds = started.elapsed().as_secs_f64();
        metrics::histogram!("gifshelf_program_run_seconds", "program" => program, "outcome" => outcome).record(seconds);
    };
    std::thread::spawn(move || loop {
        let Ok(mut child) = child.lock() else {
            return (None, false);
        };
        if let Ok(Some(status)) = child.try_wait() {
            observed(if status.success() { "ok" } else { "failed" });
            return (Some(status), false);
        }
        let late = Instant::now() >= deadline;
        if late || abort.load(Ordering::Relaxed) {
            // Kill, then reap: no zombie is left behind.
            let _ = child.kill();
            observed(if late { "timed_out" } else { "stopped" });
            return (child.wait().ok(), late);
        }
        drop(child);
        std::thread::sleep(Duration::from_millis(20));
    })
}
