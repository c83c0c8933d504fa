//! The one way tests, benches and xtask run a gifshelf server: the isolated environment every
//! server under test gets ([`base_vars`], [`ServerEnv`]), a `gifshelf serve` child process started
//! on a port of its own choosing and probed until `/api/health` answers ([`ServerEnv::spawn`],
//! [`ServerProcess`]), its log in a file, SIGKILL and reaping on drop; and, for the tests that
//! measure a whole process, its memory ([`Memory`]) and a way to run a test alone in a process of
//! its own ([`alone`]).
//!
//! The in-process API tests and benches build the server with `Application::build` from the same
//! [`base_vars`]. Only std: nothing of the server is compiled in, so xtask uses it too.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Stdio};

mod alone;
mod memory;
mod process;

pub use alone::alone;
pub use memory::Memory;
pub use process::{Process, ServerProcess, Starting};

/// The session-signing secret of every server under test (`GIFSHELF_JWT_SECRET`).
pub const SECRET: &str = "testkit-secret-testkit-secret-testkit-secret-0123456789";

/// `GIFSHELF_FFMPEG` of every server under test: the `ffmpeg` found when the tests were built (the
/// cfg `ffmpeg_tests` of the crates that test videos), else `off`, so what the tests expect of
/// videos is fixed at build time.
pub const FFMPEG: &str = match option_env!("GIFSHELF_TEST_FFMPEG") {
    Some(path) => path,
    None => "off",
};

/// `GIFSHELF_TESSERACT` of every server under test: the `tesseract` with its English model found
/// when the tests were built (the cfg `tesseract_tests`), else `off`.
pub const TESSERACT: &str = match option_env!("GIFSHELF_TEST_TESSERACT") {
    Some(path) => path,
    None => "off",
};

/// The settings every server under test starts from, in-process or a child process: port 0 on
/// loopback, its data and web folders, its database, [`SECRET`], cheap password hashes, two HTTP
/// workers, no job workers (a test that wants renditions made asks for them), the [`FFMPEG`] and
/// [`TESSERACT`] of the tests, and logs without colour codes.
pub fn base_vars(data: &Path, web: &Path, db_url: &str) -> Vec<(String, String)> {
    [
        ("GIFSHELF_BIND", "127.0.0.1:0".to_owned()),
        ("GIFSHELF_DATA_DIR", data.display().to_string()),
        ("GIFSHELF_WEB_DIR", web.display().to_string()),
        ("GIFSHELF_DATABASE_URL", db_url.to_owned()),
        ("GIFSHELF_JWT_SECRET", SECRET.to_owned()),
        ("GIFSHELF_BCRYPT_COST", "4".to_owned()),
        ("GIFSHELF_HTTP_WORKERS", "2".to_owned()),
        ("GIFSHELF_WORKERS", "0".to_owned()),
        ("GIFSHELF_FFMPEG", FFMPEG.to_owned()),
        ("GIFSHELF_TESSERACT", TESSERACT.to_owned()),
        ("NO_COLOR", "1".to_owned()),
    ]
    .into_iter()
    .map(|(key, value)| (key.to_owned(), value))
    .collect()
}

/// The database URL the server uses when given none: a SQLite file in `data`.
pub fn sqlite_url(data: &Path) -> String {
    format!("sqlite://{}", data.join("gifshelf.db").display())
}

/// A web folder under `dir` with a bare `index.html`, for servers whose web app is not under test.
///
/// # Errors
/// When the folder or the file cannot be written.
pub fn bare_web_dir(dir: &Path) -> std::io::Result<std::path::PathBuf> {
    let web = dir.join("web");
    std::fs::create_dir_all(&web)?;
    std::fs::write(web.join("index.html"), "<!doctype html><title>gifshelf</title><div id=\"root\"></div>")?;
    Ok(web)
}

/// A loopback port free at the moment of asking (and no promise after): for an address nobody
/// should answer on, or a server of another kind that cannot say which port it took. A gifshelf
/// server picks its own ([`ServerEnv::spawn`]).
///
/// # Panics
/// When no loopback port can be bound (a broken test machine).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .unwrap_or_else(|e| panic!("no free loopback port: {e}"))
}

/// The environment of a gifshelf process under test: [`base_vars`] plus whatever a test adds or
/// overrides, and nothing from the environment of the test but `PATH`.
#[derive(Clone, Debug)]
pub struct ServerEnv {
    vars: Vec<(String, String)>,
    /// The working directory of its commands; the test's own when `None`.
    dir: Option<std::path::PathBuf>,
}

impl ServerEnv {
    /// [`base_vars`] of `data`, `web` and the database at `db_url`.
    pub fn new(data: &Path, web: &Path, db_url: &str) -> Self {
        Self { vars: base_vars(data, web, db_url), dir: None }
    }

    /// Runs its commands in `dir` (a server must find nothing it needs in its working directory).
    #[must_use]
    pub fn in_dir(mut self, dir: &Path) -> Self {
        self.dir = Some(dir.to_path_buf());
        self
    }

    /// Sets `key` to `value`, adding it or replacing the value it had.
    #[must_use]
    pub fn set(mut self, key: &str, value: impl Into<String>) -> Self {
        let value = value.into();
        match self.vars.iter_mut().find(|(k, _)| k == key) {
            Some((_, old)) => *old = value,
            None => self.vars.push((key.to_owned(), value)),
        }
        self
    }

    /// Leaves `key` unset: the server's default (or its absence) applies.
    #[must_use]
    pub fn unset(mut self, key: &str) -> Self {
        self.vars.retain(|(k, _)| k != key);
        self
    }

    /// The value of `key`, if set.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.vars.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Every variable, in the order set.
    pub fn vars(&self) -> &[(String, String)] {
        &self.vars
    }

    /// `binary` (a gifshelf build) with these variables and `PATH` only, and no input: add the
    /// subcommand and its arguments, then run it (`output()`) or hand it to [`Process::start`].
    pub fn command(&self, binary: impl AsRef<OsStr>) -> Command {
        let mut command = Command::new(binary);
        command
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .envs(self.vars.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null());
        if let Some(dir) = &self.dir {
            command.current_dir(dir);
        }
        command
    }

    /// Starts `binary serve` with its output in the file `log`, returning at once: see
    /// [`Starting::ready`]. For servers that must start together; else [`Self::spawn`].
    ///
    /// # Errors
    /// When the log file cannot be written or the binary cannot be started.
    pub fn start(&self, binary: impl AsRef<OsStr>, log: &Path) -> Result<Starting, String> {
        Starting::launch(self, binary.as_ref(), log)
    }

    /// Starts `binary serve` with its output in the file `log` and waits (at most a minute) until
    /// it answers `GET /api/health` with a 2xx on the port it bound.
    ///
    /// # Errors
    /// When it cannot be started, exits or is not ready in time; with the end of its log.
    pub fn spawn(&self, binary: impl AsRef<OsStr>, log: &Path) -> Result<ServerProcess, String> {
        self.start(binary, log)?.ready()
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{ServerEnv, SECRET};

    #[test]
    fn set_replaces_or_adds_and_unset_removes() {
        let env = ServerEnv::new(Path::new("/d"), Path::new("/w"), "sqlite:///d/x.db")
            .set("GIFSHELF_WORKERS", "1")
            .set("GIFSHELF_LOG", "warn")
            .unset("GIFSHELF_JWT_SECRET");
        assert_eq!(env.get("GIFSHELF_WORKERS"), Some("1"));
        assert_eq!(env.get("GIFSHELF_LOG"), Some("warn"));
        assert_eq!(env.get("GIFSHELF_JWT_SECRET"), None);
        assert_eq!(env.vars().iter().filter(|(k, _)| k == "GIFSHELF_WORKERS").count(), 1);
        assert_eq!(env.get("GIFSHELF_DATABASE_URL"), Some("sqlite:///d/x.db"));
        assert!(SECRET.len() >= 32, "a secret the server accepts");
    }

    #[test]
    fn a_command_sees_only_path_and_its_variables() {
        let env = ServerEnv::new(Path::new("/d"), Path::new("/w"), "sqlite:///d/x.db");
        let command = env.command("gifshelf");
        let names: Vec<String> =
            command.get_envs().filter(|(_, v)| v.is_some()).map(|(k, _)| k.to_string_lossy().into_owned()).collect();
        assert!(names.contains(&"PATH".to_owned()) && names.contains(&"GIFSHELF_DATA_DIR".to_owned()));
        assert_eq!(names.len(), env.vars().len() + 1, "{names:?}");
    }
}
