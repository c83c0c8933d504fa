//! `gifshelf healthcheck`: one `GET /api/health/ready` to the server on the configured bind
//! address, with std only (a container image has no curl). An unspecified bind address (`0.0.0.0`,
//! `[::]`) is asked on loopback.

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

/// Asks the server listening on `bind` whether it is ready.
///
/// # Errors
/// When it cannot be reached in `timeout` or answers anything but 200, with what it answered.
pub fn probe(bind: &str, timeout: Duration) -> Result<(), String> {
    let address = target(bind)?;
    let mut stream = TcpStream::connect_timeout(&address, timeout)
        .map_err(|e| format!("not ready: nothing answers on {address}: {e}"))?;
    stream.set_read_timeout(Some(timeout)).map_err(|e| e.to_string())?;
    stream.set_write_timeout(Some(timeout)).map_err(|e| e.to_string())?;
    let request = format!(
        "GET /api/health/ready HTTP/1.1\r\nHost: {address}\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).map_err(|e| format!("not ready: {address}: {e}"))?;
    let mut answer = Vec::new();
    // A server that closes late still sent its status line: read what arrives within the timeout.
    let _ = stream.take(64 * 1024).read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    let status = text.lines().next().unwrap_or_default();
    if status.split(' ').nth(1) == Some("200") {
        Ok(())
    } else {
        let body = text.split("\r\n\r\n").nth(1).unwrap_or_default().trim();
        Err(format!("not ready: {address} answered {status:?} {body}"))
    }
}

/// Where the server listening on `bind` can be reached from this host.
fn target(bind: &str) -> Result<SocketAddr, String> {
    let address = bind
        .to_socket_addrs()
        .map_err(|e| format!("GIFSHELF_BIND {bind:?} is no address: {e}"))?
        .next()
        .ok_or_else(|| format!("GIFSHELF_BIND {bind:?} names no address"))?;
    Ok(match address.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), address.port()),
        IpAddr::V6(ip) if ip.is_unspecified() => SocketAddr::new(IpAddr::V6(Ipv6Addr::LOCALHOST), address.port()),
        _ => address,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unspecified_addresses_are_asked_on_loopback() {
        assert_eq!(target("0.0.0.0:8080").ok(), "127.0.0.1:8080".parse().ok());
        assert_eq!(target("[::]:8080").ok(), "[::1]:8080".parse().ok());
        assert_eq!(target("10.0.0.5:80").ok(), "10.0.0.5:80".parse().ok());
        assert!(target("nonsense").is_err());
    }
}
