//! Who the client is behind a reverse proxy: the proxies trusted
//! (`--trusted-proxy CIDR`, [`Cidr`]) and the one header believed from them.
//!
//! How it works. A request's client is its TCP peer, unless that peer is
//! in a trusted range: then it is read from `X-Forwarded-For`, the header
//! the proxy in front (deploy/Caddyfile's Caddy) sets, walking its entries
//! from the right (the proxy appends the address it was reached from, so
//! anything left of that is the client's own say) past every address that
//! is itself a trusted proxy; the first one that is not is the client. A
//! `Forwarded` header is never read: Caddy does not set it, so one there
//! is the client's own, and believing it beside `X-Forwarded-For` would let
//! a client outbid its proxy. From a peer outside the trusted ranges both
//! headers are ignored, so a direct client cannot name another address.
//!
//! Limits: the ranges are the host's word; a range that takes in more than
//! the proxy (a whole network whose other machines can reach the port)
//! lets those machines name any address. An entry that is not an address
//! (`unknown`, a name, garbage) ends the walk: the client is then the last
//! trusted hop read, the proxy itself when it is the rightmost entry. The
//! entries read are bounded by the request head's size (`http::MAX_HEAD`).

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::str::FromStr;
use std::sync::Arc;

use axum::http::HeaderMap;

/// A range of addresses: an address and how many of its leading bits count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    /// The range's first address (its host bits cleared).
    net: IpAddr,
    /// The leading bits that name the range: up to 32 (IPv4) or 128 (IPv6).
    len: u8,
}

/// Why a range named on the command line is not one.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("not an address range: give ADDRESS/BITS, such as 127.0.0.0/8 or ::1/128")]
pub struct CidrError;

impl Cidr {
    /// The loopback ranges, `127.0.0.0/8` and `::1/128`: a proxy on the same machine.
    pub fn loopback() -> Vec<Cidr> {
        vec![
            Cidr {
                net: IpAddr::V4(Ipv4Addr::new(127, 0, 0, 0)),
                len: 8,
            },
            Cidr {
                net: IpAddr::V6(Ipv6Addr::LOCALHOST),
                len: 128,
            },
        ]
    }

    /// Whether `ip` is in the range (an IPv4-mapped IPv6 address as its IPv4 one).
    pub(crate) fn contains(&self, ip: IpAddr) -> bool {
        match (self.net, ip.to_canonical()) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => u32::from(ip) & mask32(self.len) == u32::from(net),
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                u128::from(ip) & mask128(self.len) == u128::from(net)
            }
            _ => false,
        }
    }
}

/// The leading `len` bits of an IPv4 address set (`len` at most 32).
fn mask32(len: u8) -> u32 {
    u32::MAX.checked_shl(32 - u32::from(len)).unwrap_or(0)
}

/// The leading `len` bits of an IPv6 address set (`len` at most 128).
fn mask128(len: u8) -> u128 {
    u128::MAX.checked_shl(128 - u32::from(len)).unwrap_or(0)
}

impl FromStr for Cidr {
    type Err = CidrError;

    /// `ADDRESS/BITS`, or an address alone (that one address); host bits
    /// past the length are cleared, as `ip route` does.
    fn from_str(text: &str) -> Result<Cidr, CidrError> {
        let bad = || CidrError;
        let (addr, len) = match text.split_once('/') {
            Some((addr, len)) => (addr, Some(len)),
            None => (text, None),
        };
        let ip: IpAddr = addr.parse::<IpAddr>().map_err(|_| bad())?.to_canonical();
        let max = if ip.is_ipv4() { 32 } else { 128 };
        let len = match len {
            // Digits only: `u8`'s parser would take a leading `+`.
            Some(len) if !len.is_empty() && len.bytes().all(|b| b.is_ascii_digit()) => {
                len.parse::<u8>().map_err(|_| bad())?
            }
            Some(_) => return Err(bad()),
            None => max,
        };
        if len > max {
            return Err(bad());
        }
        let net = match ip {
            IpAddr::V4(v4) => IpAddr::V4((u32::from(v4) & mask32(len)).into()),
            IpAddr::V6(v6) => IpAddr::V6((u128::from(v6) & mask128(len)).into()),
        };
        Ok(Cidr { net, len })
    }
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.net, self.len)
    }
}

/// The proxies trusted to name the client (none: every peer is its own client).
#[derive(Clone, Debug, Default)]
pub(crate) struct Proxies(Arc<[Cidr]>);

impl Proxies {
    /// Trusts the proxies in `ranges`.
    pub(crate) fn new(ranges: &[Cidr]) -> Proxies {
        Proxies(ranges.into())
    }

    /// Whether `ip` is a trusted proxy's.
    pub(crate) fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|range| range.contains(ip))
    }

    /// The client of a request that came from `peer` with `headers`: the
    /// peer, or behind trusted proxies the rightmost `X-Forwarded-For`
    /// entry that is not a trusted proxy's.
    pub(crate) fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        // Several header lines are one list, in order (RFC 9110, 5.3).
        let lines: Vec<&[u8]> = headers
            .get_all("x-forwarded-for")
            .iter()
            .map(|v| v.as_bytes())
            .collect();
        let mut client = peer;
        for line in lines.iter().rev() {
            for entry in line.rsplit(|&b| b == b',') {
                let Some(ip) = entry_address(entry) else {
                    return client;
                };
                client = ip;
                if !self.trusts(ip) {
                    return ip;
                }
            }
        }
        client
    }
}

/// One `X-Forwarded-For` entry's address: `1.2.3.4`, `2001:db8::1`, or
/// either with a port (`1.2.3.4:5`, `[2001:db8::1]:5`) or in brackets.
fn entry_address(entry: &[u8]) -> Option<IpAddr> {
    let text = std::str::from_utf8(entry).ok()?.trim();
    let ip = text
        .parse::<IpAddr>()
        .ok()
        .or_else(|| text.parse::<SocketAddr>().ok().map(|a| a.ip()))
        .or_else(|| {
            text.strip_prefix('[')
                .and_then(|t| t.strip_suffix(']'))
                .and_then(|t| t.parse().ok())
        })?;
    Some(ip.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn cidr(text: &str) -> Cidr {
        text.parse().expect("a range")
    }

    fn headers(xff: &[&str], forwarded: Option<&str>) -> HeaderMap {
        let mut map = HeaderMap::new();
        for line in xff {
            map.append(
                "x-forwarded-for",
                HeaderValue::from_str(line).expect("a value"),
            );
        }
        if let Some(f) = forwarded {
            map.append("forwarded", HeaderValue::from_str(f).expect("a value"));
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn ranges_parse_and_contain() {
        assert!(cidr("127.0.0.0/8").contains(ip("127.9.9.9")));
        assert!(!cidr("127.0.0.0/8").contains(ip("128.0.0.1")));
        assert!(cidr("10.1.2.3/16").contains(ip("10.1.200.1")));
        assert_eq!(cidr("10.1.2.3/16").to_string(), "10.1.0.0/16");
        assert!(cidr("::1/128").contains(ip("::1")));
        assert!(!cidr("::1/128").contains(ip("::2")));
        assert!(cidr("0.0.0.0/0").contains(ip("203.0.113.9")));
        assert!(!cidr("0.0.0.0/0").contains(ip("2001:db8::1")));
        assert!(cidr("2001:db8::/32").contains(ip("2001:db8:ffff::1")));
        assert!(cidr("192.0.2.7").contains(ip("::ffff:192.0.2.7")));
        assert!(!cidr("192.0.2.7").contains(ip("192.0.2.8")));
        for bad in [
            "",
            "/8",
            "10.0.0.0/",
            "10.0.0.0/33",
            "::/129",
            "10.0.0/8",
            "10.0.0.0/+8",
            "10.0.0.0/8/8",
            "host/8",
            "10.0.0.0/ 8",
        ] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_peer_outside_the_ranges_is_its_own_client() {
        let proxies = Proxies::new(&[cidr("10.0.0.1/32")]);
        let spoofed = headers(&["192.0.2.1"], Some("for=192.0.2.2"));
        assert_eq!(proxies.client(ip("10.0.0.9"), &spoofed), ip("10.0.0.9"));
        let none = Proxies::default();
        assert_eq!(none.client(ip("10.0.0.1"), &spoofed), ip("10.0.0.1"));
    }

    #[test]
    fn the_rightmost_untrusted_entry_is_the_client() {
        let proxies = Proxies::new(&[cidr("10.0.0.0/24"), cidr("::1/128")]);
        let from = ip("10.0.0.1");
        // The client's own entries sit left of what the proxies appended.
        let h = headers(&["198.51.100.1, 203.0.113.5"], None);
        assert_eq!(proxies.client(from, &h), ip("203.0.113.5"));
        let h = headers(&["198.51.100.1", "203.0.113.5, 10.0.0.7"], None);
        assert_eq!(proxies.client(from, &h), ip("203.0.113.5"));
        let h = headers(&["[2001:db8::5]:443 , 10.0.0.2:80"], None);
        assert_eq!(proxies.client(from, &h), ip("2001:db8::5"));
        // A Forwarded header is the client's own: never read.
        let h = headers(&["203.0.113.5"], Some("for=198.51.100.1"));
        assert_eq!(proxies.client(from, &h), ip("203.0.113.5"));
        let h = headers(&[], Some("for=198.51.100.1"));
        assert_eq!(proxies.client(from, &h), from);
        // Every entry a proxy's: the farthest one read.
        let h = headers(&["10.0.0.8, 10.0.0.9"], None);
        assert_eq!(proxies.client(from, &h), ip("10.0.0.8"));
        // Garbage ends the walk at the last trusted hop.
        let h = headers(&["203.0.113.5, unknown"], None);
        assert_eq!(proxies.client(from, &h), from);
        let h = headers(&["unknown, 10.0.0.9"], None);
        assert_eq!(proxies.client(from, &h), ip("10.0.0.9"));
    }
}
