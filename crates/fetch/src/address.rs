//! Which addresses a link may lead to: public unicast ones only.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

/// Whether the server may connect to `ip` on a user's behalf: false for every private, loopback,
/// link-local (cloud metadata), multicast, unspecified, CGNAT, documentation, benchmarking and
/// reserved range, and for IPv6 forms that embed such an IPv4 address (mapped, compatible, NAT64,
/// 6to4) or hide one (Teredo).
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    const REFUSED: [(u32, u8); 15] = [
        (0x0000_0000, 8),  // 0.0.0.0/8 "this network", unspecified
        (0x0a00_0000, 8),  // 10.0.0.0/8 private
        (0x6440_0000, 10), // 100.64.0.0/10 CGNAT (and Alibaba's metadata 100.100.100.200)
        (0x7f00_0000, 8),  // 127.0.0.0/8 loopback
        (0xa9fe_0000, 16), // 169.254.0.0/16 link-local, cloud metadata
        (0xac10_0000, 12), // 172.16.0.0/12 private
        (0xc000_0000, 24), // 192.0.0.0/24 IETF protocol assignments
        (0xc000_0200, 24), // 192.0.2.0/24 documentation
        (0xc058_6300, 24), // 192.88.99.0/24 6to4 relay anycast
        (0xc0a8_0000, 16), // 192.168.0.0/16 private
        (0xc612_0000, 15), // 198.18.0.0/15 benchmarking
        (0xc633_6400, 24), // 198.51.100.0/24 documentation
        (0xcb00_7100, 24), // 203.0.113.0/24 documentation
        (0xe000_0000, 4),  // 224.0.0.0/4 multicast
        (0xf000_0000, 4),  // 240.0.0.0/4 reserved, and 255.255.255.255 broadcast
    ];
    let bits = u32::from(ip);
    !REFUSED.iter().any(|&(net, prefix)| in_v4(bits, net, prefix))
}

fn in_v4(bits: u32, net: u32, prefix: u8) -> bool {
    let mask = if prefix == 0 { 0 } else { u32::MAX << (32 - u32::from(prefix)) };
    bits & mask == net & mask
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let bits = u128::from(ip);
    let segments = ip.segments();
    let embedded_v4 = |at: u32| Ipv4Addr::from(((bits >> at) & 0xffff_ffff) as u32);
    // ::ffff:a.b.c.d (mapped): what the IPv4 address is.
    if bits >> 32 == 0xffff {
        return is_public_v4(embedded_v4(0));
    }
    // 64:ff9b::/96 NAT64 well-known prefix: the IPv4 address in the low 32 bits.
    if bits >> 32 == 0x0064_ff9b_0000_0000_0000_0000 {
        return is_public_v4(embedded_v4(0));
    }
    // 2002::/16 6to4: the IPv4 address in bits 16..48.
    if segments[0] == 0x2002 {
        return is_public_v4(embedded_v4(80));
    }
    const REFUSED: [(u128, u8); 10] = [
        (0x0064_ff9b_0001 << 80, 48), // 64:ff9b:1::/48 local-use NAT64
        (0x0100 << 112, 64),          // 100::/64 discard
        (0x2001 << 112, 32),          // 2001::/32 Teredo (hides an IPv4 address)
        (0x2001_0002 << 96, 48),      // 2001:2::/48 benchmarking
        (0x2001_0010 << 96, 28),      // 2001:10::/28 ORCHID
        (0x2001_0db8 << 96, 32),      // 2001:db8::/32 documentation
        (0x3fff << 112, 20),          // 3fff::/20 documentation
        (0xfc00 << 112, 7),           // fc00::/7 unique local (and AWS's metadata fd00:ec2::254)
        (0xfe80 << 112, 10),          // fe80::/10 link-local (and fec0::/10 site-local below)
        (0xfec0 << 112, 10),          // fec0::/10 site-local (deprecated)
    ];
    // Only global unicast (2000::/3) is routable on the internet; multicast ff00::/8 and the rest
    // of the reserved space fall outside it.
    let global_unicast = segments[0] & 0xe000 == 0x2000;
    global_unicast && !REFUSED.iter().any(|&(net, prefix)| in_v6(bits, net, prefix))
}

fn in_v6(bits: u128, net: u128, prefix: u8) -> bool {
    let mask = if prefix == 0 { 0 } else { u128::MAX << (128 - u32::from(prefix)) };
    bits & mask == net & mask
}

/// An address range (`10.1.0.0/16`, `127.0.0.1`, `fd00::/8`) that links may reach despite the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    net: IpAddr,
    prefix: u8,
}

impl Cidr {
    /// Whether `ip` is in the range; an IPv4-mapped IPv6 address counts as its IPv4 address.
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.net, canonical(ip)) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => in_v4(u32::from(ip), u32::from(net), self.prefix),
            (IpAddr::V6(net), IpAddr::V6(ip)) => in_v6(u128::from(ip), u128::from(net), self.prefix),
            _ => false,
        }
    }
}

fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

impl FromStr for Cidr {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text, None),
        };
        let net: IpAddr = address.parse().map_err(|_| format!("{text:?} is not an IP address or range"))?;
        let max = if net.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(p) => {
                p.parse::<u8>().ok().filter(|p| *p <= max).ok_or_else(|| format!("{text:?} has a bad prefix"))?
            }
            None => max,
        };
        Ok(Self { net, prefix })
    }
}

/// A comma-separated list of ranges (`GIFSHELF_URL_FETCH_ALLOW`); empty entries are skipped.
///
/// # Errors
/// The first entry that is not a range.
pub fn parse_list(text: &str) -> Result<Vec<Cidr>, String> {
    text.split(',').filter(|s| !s.trim().is_empty()).map(str::parse).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn public(text: &str) -> bool {
        is_public(text.parse().unwrap_or_else(|e| panic!("{text}: {e}")))
    }

    #[test]
    fn refuses_every_special_ipv4_range() {
        for ip in [
            "0.0.0.0",
            "0.1.2.3",
            "10.0.0.1",
            "100.64.0.1",
            "100.100.100.200",
            "127.0.0.1",
            "127.255.255.254",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.0.0.170",
            "192.0.2.1",
            "192.88.99.1",
            "192.168.1.1",
            "198.18.0.1",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
        ] {
            assert!(!public(ip), "{ip} must be refused");
        }
    }

    #[test]
    fn accepts_public_ipv4() {
        for ip in ["1.1.1.1", "8.8.8.8", "93.184.216.34", "172.32.0.1", "100.128.0.1", "192.169.0.1", "151.101.1.69"] {
            assert!(public(ip), "{ip} is public");
        }
    }

    #[test]
    fn refuses_special_ipv6_and_embedded_private_ipv4() {
        for ip in [
            "::",
            "::1",
            "::ffff:127.0.0.1",
            "::ffff:7f00:1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "::10.1.2.3",
            "64:ff9b::127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b:1::1",
            "2002:7f00:0001::1",
            "2002:c0a8:0101::",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            "2001:db8::1",
            "3fff::1",
            "fc00::1",
            "fd00:ec2::254",
            "fe80::1",
            "fec0::1",
            "ff02::1",
            "100::1",
        ] {
            assert!(!public(ip), "{ip} must be refused");
        }
    }

    #[test]
    fn accepts_public_ipv6_and_embedded_public_ipv4() {
        for ip in [
            "2606:4700:4700::1111",
            "2a00:1450:4001:80b::200e",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:0808:0808::1",
        ] {
            assert!(public(ip), "{ip} is public");
        }
    }

    #[test]
    fn ranges_parse_and_match_mapped_addresses() {
        let loopback: Cidr = "127.0.0.0/8".parse().unwrap_or_else(|e| panic!("{e}"));
        assert!(loopback.contains("127.0.0.1".parse().unwrap_or_else(|e| panic!("{e}"))));
        assert!(loopback.contains("::ffff:127.0.0.2".parse().unwrap_or_else(|e| panic!("{e}"))));
        assert!(!loopback.contains("128.0.0.1".parse().unwrap_or_else(|e| panic!("{e}"))));
        let one: Cidr = "::1".parse().unwrap_or_else(|e| panic!("{e}"));
        assert!(one.contains("::1".parse().unwrap_or_else(|e| panic!("{e}"))));
        assert_eq!(parse_list(" 10.0.0.0/8, ,fd00::/8").map(|l| l.len()), Ok(2));
        assert!(parse_list("10.0.0.0/33").is_err());
        assert!(parse_list("intranet").is_err());
    }
}
