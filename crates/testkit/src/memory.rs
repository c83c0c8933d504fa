//! The memory of a process, as the kernel counts it.

/// Resident memory of a process, from `/proc/PID/status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Memory {
    /// `VmRSS`: resident now, in KiB.
    pub resident_kib: u64,
    /// `VmHWM`: the most it has been resident since it started, in KiB.
    pub peak_kib: u64,
}

impl Memory {
    /// The memory of process `pid`. A check must measure only what it tests: a server started
    /// with [`crate::ServerEnv::spawn`], or this process when the test runs [`crate::alone`].
    ///
    /// # Panics
    /// When `/proc/PID/status` cannot be read or lacks the figures: the memory checks run on
    /// Linux, and a check that cannot measure must fail, not pass.
    pub fn of(pid: u32) -> Self {
        let path = format!("/proc/{pid}/status");
        let status = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{path}: {e} (the memory checks need Linux's /proc)"));
        let kib = |field: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(field))
                .and_then(|value| value.trim().strip_suffix("kB"))
                .and_then(|value| value.trim().parse().ok())
                .unwrap_or_else(|| panic!("{path} has no {field} in kB:\n{status}"))
        };
        Self { resident_kib: kib("VmRSS:"), peak_kib: kib("VmHWM:") }
    }

    /// The memory of this process.
    pub fn of_this_process() -> Self {
        Self::of(std::process::id())
    }
}

#[cfg(test)]
mod tests {
    use super::Memory;

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_is_resident_and_its_peak_is_at_least_what_it_holds() {
        let memory = Memory::of_this_process();
        assert!(memory.resident_kib > 0 && memory.peak_kib >= memory.resident_kib, "{memory:?}");
    }

    #[test]
    #[should_panic(expected = "/proc/")]
    fn a_process_that_cannot_be_measured_fails_loudly() {
        // Beyond the kernel's pid_max: never a process.
        let _ = Memory::of(u32::MAX);
    }
}
