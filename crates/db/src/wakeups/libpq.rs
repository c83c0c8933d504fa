//! One libpq connection that LISTENs and blocks on its socket until something arrives. diesel's
//! `PgConnection` can read notifications but not wait for one (it does not expose its socket), so
//! this talks to libpq directly: the same library the pool's connections use, so the database URL
//! means the same here (TLS, `PG*` variables, `.pgpass`, Unix sockets).
//!
//! The connection lives and dies on the one thread that made it (`NonNull` keeps it `!Send`).

// libpq's C API and poll(2) have no safe wrapper; every call is on a connection this type owns.
#![allow(unsafe_code)]

use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr::NonNull;
use std::time::Duration;

use pq_sys as pq;

/// An open connection that listens on one channel; closed on drop.
pub(super) struct Listener {
    conn: NonNull<pq::PGconn>,
}

/// Keeps libpq from printing the server's notices on stderr (its default); a broken connection's
/// reason is read from `PQerrorMessage` instead.
unsafe extern "C" fn ignore_notice(_arg: *mut c_void, _message: *const c_char) {}

impl Listener {
    /// Connects to `url` (a libpq URL or connection string) and runs `LISTEN channel`.
    pub(super) fn connect(url: &str, channel: &str) -> Result<Self, String> {
        let conninfo = CString::new(url).map_err(|_| "the database URL contains a NUL byte".to_owned())?;
        // SAFETY: `conninfo` is a NUL-terminated string that outlives the call. libpq returns a
        // connection object that is ours to finish (done on drop), or NULL when out of memory.
        let raw = unsafe { pq::PQconnectdb(conninfo.as_ptr()) };
        let listener = Self { conn: NonNull::new(raw).ok_or("libpq could not allocate a connection")? };
        // SAFETY: a live connection object; the processor ignores its arguments.
        unsafe { pq::PQsetNoticeProcessor(listener.conn.as_ptr(), Some(ignore_notice), std::ptr::null_mut()) };
        // SAFETY: a live connection object.
        if unsafe { pq::PQstatus(listener.conn.as_ptr()) } != pq::ConnStatusType::CONNECTION_OK {
            return Err(listener.error());
        }
        listener.exec(&format!("LISTEN {channel}"))?;
        Ok(listener)
    }

    /// Waits at most `timeout` for the server to send something, reads it, and answers how many
    /// notifications came (0 on a timeout). `Err` when the connection broke.
    pub(super) fn wait(&mut self, timeout: Duration) -> Result<usize, String> {
        // SAFETY: a live connection object.
        let fd = unsafe { pq::PQsocket(self.conn.as_ptr()) };
        if fd < 0 {
            return Err(self.error());
        }
        let mut socket = libc::pollfd { fd, events: libc::POLLIN, revents: 0 };
        let millis = libc::c_int::try_from(timeout.as_millis()).unwrap_or(libc::c_int::MAX);
        // SAFETY: one valid `pollfd`, borrowed for the call; `fd` stays open while `self` lives.
        let ready = unsafe { libc::poll(&mut socket, 1, millis) };
        if ready < 0 {
            let err = std::io::Error::last_os_error();
            return if err.kind() == std::io::ErrorKind::Interrupted { Ok(0) } else { Err(err.to_string()) };
        }
        if ready == 0 {
            return Ok(0);
        }
        // SAFETY: a live connection object. 0 means the read failed (the server went away).
        if unsafe { pq::PQconsumeInput(self.conn.as_ptr()) } == 0 {
            return Err(self.error());
        }
        Ok(self.drain())
    }

    /// Runs `SELECT 1`, so that the connection never looks idle to a firewall and a dead one is
    /// found; answers the notifications read meanwhile.
    pub(super) fn probe(&mut self) -> Result<usize, String> {
        self.exec("SELECT 1")?;
        Ok(self.drain())
    }

    fn exec(&self, sql: &str) -> Result<(), String> {
        let sql = CString::new(sql).map_err(|_| "a statement contains a NUL byte".to_owned())?;
        // SAFETY: a live connection object and a NUL-terminated statement that outlives the call;
        // the result, when not NULL, is ours to clear (done below, once).
        let result = unsafe { pq::PQexec(self.conn.as_ptr(), sql.as_ptr()) };
        if result.is_null() {
            return Err(self.error());
        }
        // SAFETY: `result` is a live result object.
        let status = unsafe { pq::PQresultStatus(result) };
        let outcome = match status {
            pq::ExecStatusType::PGRES_COMMAND_OK | pq::ExecStatusType::PGRES_TUPLES_OK => Ok(()),
            // SAFETY: `result` is live; its message is copied before the result is cleared.
            _ => Err(unsafe { text(pq::PQresultErrorMessage(result)) }),
        };
        // SAFETY: `result` is live and cleared only here.
        unsafe { pq::PQclear(result) };
        outcome
    }

    /// Frees the notifications read so far; how many there were.
    fn drain(&mut self) -> usize {
        let mut count = 0;
        loop {
            // SAFETY: a live connection object. A notification returned is ours to free, once.
            let notification = unsafe { pq::PQnotifies(self.conn.as_ptr()) };
            if notification.is_null() {
                return count;
            }
            // SAFETY: `notification` came from `PQnotifies` and is freed only here.
            unsafe { pq::PQfreemem(notification.cast()) };
            count += 1;
        }
    }

    /// libpq's message for the connection's last failure.
    fn error(&self) -> String {
        // SAFETY: a live connection object; its message is copied before any other call on it.
        let message = unsafe { text(pq::PQerrorMessage(self.conn.as_ptr())) };
        if message.is_empty() {
            "the connection failed".to_owned()
        } else {
            message
        }
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        // SAFETY: the connection object is live and finished only here; `self` is gone after.
        unsafe { pq::PQfinish(self.conn.as_ptr()) };
    }
}

/// A copy of a C string libpq owns, trimmed ("" for NULL).
///
/// # Safety
/// `message` is NULL or a NUL-terminated string valid for the call.
unsafe fn text(message: *const c_char) -> String {
    if message.is_null() {
        return String::new();
    }
    // SAFETY: the caller's promise.
    unsafe { CStr::from_ptr(message) }.to_string_lossy().trim().to_owned()
}
