//! Child processes under test: killed (SIGKILL) and reaped on drop, their output in a log file;
//! and `gifshelf serve` ready once it answers its health check on the port it bound.

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

use crate::{Memory, ServerEnv};

/// How long a server may take to answer its health check.
const READY_WITHIN: Duration = Duration::from_secs(60);

/// How often a starting server is looked at: its port, then its health check.
const PROBE_EVERY: Duration = Duration::from_millis(20);

/// Lines of the log printed when a test fails while the process runs.
const TAIL_LINES: usize = 100;

/// A child process whose output (stdout and stderr) goes to a log file; killed with SIGKILL
/// (nothing graceful) and reaped on drop, its log's end printed when the test is failing.
#[derive(Debug)]
pub struct Process {
    child: Child,
    log: PathBuf,
}

impl Process {
    /// Starts `command` (see [`ServerEnv::command`]) with its output in the file `log`.
    ///
    /// # Errors
    /// When the log file cannot be created or the program cannot be started.
    pub fn start(command: &mut Command, log: &Path) -> Result<Self, String> {
        let out = std::fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
        let err = out.try_clone().map_err(|e| format!("{}: {e}", log.display()))?;
        let child = command
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", command.get_program().to_string_lossy()))?;
        Ok(Self { child, log: log.to_owned() })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Everything it has written so far.
    pub fn log(&self) -> String {
        std::fs::read(&self.log).map(|bytes| String::from_utf8_lossy(&bytes).into_owned()).unwrap_or_default()
    }

    pub fn log_path(&self) -> &Path {
        &self.log
    }

    /// Waits until it exits (a test that expects it to die on its own).
    ///
    /// # Errors
    /// When waiting fails.
    pub fn wait(&mut self) -> std::io::Result<ExitStatus> {
        self.child.wait()
    }

    /// Its exit status if it has exited, without waiting.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Its memory now (see [`Memory::of`]).
    pub fn memory(&self) -> Memory {
        Memory::of(self.pid())
    }

    /// The last [`TAIL_LINES`] lines of its log.
    fn tail(&self) -> String {
        let log = self.log();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(TAIL_LINES)..].join("\n")
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if std::thread::panicking() {
            eprintln!("---- end of the log of pid {} ({}) ----\n{}", self.pid(), self.log.display(), self.tail());
        }
    }
}

/// A `gifshelf serve` started, not yet known to be ready: [`Starting::ready`].
#[derive(Debug)]
pub struct Starting {
    process: Process,
    /// The port it was told to bind, when not 0.
    port: Option<u16>,
}

impl Starting {
    pub(crate) fn launch(env: &ServerEnv, binary: &OsStr, log: &Path) -> Result<Self, String> {
        let bind = env.get("GIFSHELF_BIND").unwrap_or("127.0.0.1:0");
        let mut port = bind.rsplit_once(':').and_then(|(_, port)| port.parse().ok()).filter(|port| *port != 0);
        let mut env = env.clone();
        if port.is_none() && !cfg!(target_os = "linux") {
            // Without /proc the port it binds cannot be read: one free a moment ago, and a race.
            let free = crate::free_port();
            env = env.set("GIFSHELF_BIND", format!("127.0.0.1:{free}"));
            port = Some(free);
        }
        Ok(Self { process: Process::start(env.command(binary).arg("serve"), log)?, port })
    }

    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    /// Waits (at most a minute) until the server listens and answers `GET /api/health` with a
    /// 2xx. The port is the one the process itself bound (read from `/proc`), so a server of
    /// another test can never be taken for it.
    ///
    /// # Errors
    /// When it exits first or is not ready in time, with the end of its log.
    pub fn ready(mut self) -> Result<ServerProcess, String> {
        let deadline = Instant::now() + READY_WITHIN;
        loop {
            if let Some(status) = self.process.exited() {
                return Err(format!("the server exited ({status}) before it was ready:\n{}", self.process.tail()));
            }
            if let Some(port) = self.port.or_else(|| listening_ports(self.process.pid()).first().copied()) {
                self.port = Some(port);
                if answers_health(port) {
                    return Ok(ServerProcess { process: self.process, port });
                }
            }
            if Instant::now() > deadline {
                return Err(format!("the server was not ready within {READY_WITHIN:?}:\n{}", self.process.tail()));
            }
            std::thread::sleep(PROBE_EVERY);
        }
    }
}

/// A `gifshelf serve` child process that answered its health check; a [`Process`] with a port.
#[derive(Debug)]
pub struct ServerProcess {
    process: Process,
    port: u16,
}

impl ServerProcess {
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    /// Everything it has logged so far.
    pub fn log(&self) -> String {
        self.process.log()
    }

    pub fn log_path(&self) -> &Path {
        self.process.log_path()
    }

    /// Waits until it exits (a test that expects it to die on its own).
    ///
    /// # Errors
    /// When waiting fails.
    pub fn wait(&mut self) -> std::io::Result<ExitStatus> {
        self.process.wait()
    }

    /// Its exit status if it has exited, without waiting.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.process.exited()
    }

    /// Its memory now (see [`Memory::of`]).
    pub fn memory(&self) -> Memory {
        self.process.memory()
    }
}

/// The ports process `pid` listens on over TCP: its open files that are sockets, looked up in the
/// kernel's TCP tables (state `0A`, listening).
#[cfg(target_os = "linux")]
fn listening_ports(pid: u32) -> Vec<u16> {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else { return Vec::new() };
    let sockets: Vec<String> = fds
        .flatten()
        .filter_map(|fd| std::fs::read_link(fd.path()).ok())
        .filter_map(|target| Some(target.to_str()?.strip_prefix("socket:[")?.strip_suffix(']')?.to_owned()))
        .collect();
    let mut ports = Vec::new();
    for table in ["tcp", "tcp6"] {
        let text = std::fs::read_to_string(format!("/proc/{pid}/net/{table}")).unwrap_or_default();
        // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
        ports.extend(text.lines().skip(1).filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (local, state, inode) = (fields.get(1)?, fields.get(3)?, fields.get(9)?);
            if *state != "0A" || !sockets.iter().any(|socket| socket == inode) {
                return None;
            }
            u16::from_str_radix(local.rsplit_once(':')?.1, 16).ok()
        }));
    }
    ports
}

#[cfg(not(target_os = "linux"))]
fn listening_ports(_pid: u32) -> Vec<u16> {
    Vec::new()
}

/// `GET /api/health` on loopback answers 2xx.
fn answers_health(port: u16) -> bool {
    let address = SocketAddr::from(([127, 0, 0, 1], port));
    let Ok(mut stream) = TcpStream::connect_timeout(&address, Duration::from_secs(2)) else { return false };
    let request = format!("GET /api/health HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    let mut status = [0; 10];
    stream.set_read_timeout(Some(Duration::from_secs(10))).is_ok()
        && stream.write_all(request.as_bytes()).is_ok()
        && stream.read_exact(&mut status).is_ok()
        && status.starts_with(b"HTTP/1.1 2")
}

#[cfg(test)]
mod tests {
    #[cfg(target_os = "linux")]
    #[test]
    fn the_port_a_process_listens_on_is_read_from_proc() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}"));
        let port = listener.local_addr().unwrap_or_else(|e| panic!("{e}")).port();
        assert!(super::listening_ports(std::process::id()).contains(&port));
    }

    #[cfg(unix)]
    #[test]
    fn a_server_that_exits_is_reported_with_its_log() {
        let dir = std::env::temp_dir().join(format!("gifshelf-testkit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let env = crate::ServerEnv::new(&dir, &dir, "sqlite://nowhere");
        // `sh serve`: no such script, so it complains and exits.
        let error = env.spawn("sh", &dir.join("sh.log")).err().unwrap_or_default();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(error.starts_with("the server exited") && error.contains("serve"), "{error}");
    }
}
