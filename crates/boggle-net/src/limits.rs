//! What the server allows, kept apart from any one transport so that every
//! way in (TCP lines, a browser's WebSocket) is held to the same caps:
//! [`Limits`] (sizes, rates, times, queues), measured with the protocol's
//! token [`Bucket`] (the client paces itself with one too), the password
//! compared in constant time ([`constant_time_eq`]), and the
//! `AddressLimiter`, which counts by address what an attacker could
//! otherwise repeat without end over fresh connections: new connections (each
//! join is one, since a second `hello` on a connection is refused) and failed
//! passwords and tokens.
//!
//! `Shares` divides a whole (the server's connections, its rooms) among
//! addresses and their networks: an address holds at most its cap, a
//! network prefix (`prefix_key`: a /24 of IPv4, a /48 of IPv6) at most
//! a tenth of the whole, and the last tenth of the whole is kept for
//! networks that hold less than a newcomer needs (4 connections, 2 rooms), so that
//! while a few networks fill the server a newcomer from another still
//! gets a connection and a room. Its limit: an attacker with more networks
//! than the reserve has newcomers' places can take the reserve too.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use boggle_protocol::Bucket;

/// What the server allows each client and in all.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Connections open at once.
    pub max_connections: usize,
    /// Rooms at once.
    pub max_rooms: usize,
    /// Time to send `hello` after connecting, whatever comes before it.
    pub hello_timeout: Duration,
    /// Time without a message from a joined client before it is dropped.
    pub idle_timeout: Duration,
    /// Messages a client may send per second, on average.
    pub rate_per_sec: f64,
    /// Messages a client may send in a burst.
    pub burst: f64,
    /// Messages refused for rate before the client is dropped.
    pub max_rate_strikes: u32,
    /// New connections a second from one address, on average (bursts of
    /// 4 times as many).
    pub connects_per_sec: f64,
    /// Failed passwords and tokens a second from one address, on average,
    /// after a first few (5).
    pub failures_per_sec: f64,
    /// Bytes waiting for one client before it counts as not reading (a
    /// message is always taken into an empty queue, whatever its size).
    pub queue_bytes: usize,
    /// Bytes waiting for all clients together; past it, a client with more
    /// than 32 KiB waiting is dropped.
    pub queued_total: usize,
    /// Time to write one line to a client.
    pub write_timeout: Duration,
    /// Connections open at once from one address (its network may hold a
    /// tenth of [`Limits::max_connections`], at least this).
    pub connections_per_address: usize,
    /// Rooms one address may have made that are still open (its network
    /// may hold a tenth of [`Limits::max_rooms`], at least this).
    pub rooms_per_address: usize,
    /// On a stop (SIGTERM), how long rounds under way may go on before
    /// they end early; the server closes once none is left.
    pub stop_grace: Duration,
}

impl Limits {
    /// How the connections are shared among addresses and their networks.
    pub(crate) fn connection_shares(&self) -> ShareCaps {
        ShareCaps::new(
            self.max_connections,
            self.connections_per_address,
            NEWCOMER_CONNECTIONS,
        )
    }

    /// How the rooms are shared among the addresses and networks that make them.
    pub(crate) fn room_shares(&self) -> ShareCaps {
        ShareCaps::new(self.max_rooms, self.rooms_per_address, NEWCOMER_ROOMS)
    }
}

/// A connection burst from one address may be this many seconds' worth.
pub(crate) const CONNECT_BURST: f64 = 4.0;
/// Failed passwords or tokens from one address before the throttle starts.
pub(crate) const FAILURE_BURST: f64 = 5.0;
/// Past [`Limits::queued_total`], a client with more than this waiting is
/// taken for one that does not read (a reading client's queue is near empty).
pub(crate) const SLOW_QUEUE: usize = 32 << 10;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 1000,
            max_rooms: 200,
            hello_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(300),
            rate_per_sec: 20.0,
            burst: 40.0,
            max_rate_strikes: 100,
            connects_per_sec: 10.0,
            failures_per_sec: 0.5,
            queue_bytes: 2 << 20,
            queued_total: 32 << 20,
            write_timeout: Duration::from_secs(10),
            connections_per_address: 50,
            rooms_per_address: 10,
            stop_grace: Duration::from_secs(60),
        }
    }
}

/// The addresses counted at most (past it, those with nothing counted are forgotten).
const MAX_ADDRESSES: usize = 16_384;

/// The well-known NAT64 prefix, `64:ff9b::/96` (RFC 6052): an address in it
/// is an IPv4 client's, its last 32 bits.
const NAT64: u128 = 0x0064_ff9b << 96;

/// What addresses are counted by: an IPv4 address (a mapped one, or one
/// behind the well-known NAT64 prefix, as itself), or an IPv6 address's
/// /64, the block one machine is usually given, so a client cannot dodge a
/// count by changing addresses within it.
pub(crate) fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6);
            if let Some(v4) = v6.to_ipv4_mapped() {
                IpAddr::V4(v4)
            } else if bits >> 32 == NAT64 >> 32 {
                // The low 32 bits are the address, so the cast keeps all of it.
                IpAddr::V4((bits as u32).into())
            } else {
                IpAddr::V6((bits & !((1u128 << 64) - 1)).into())
            }
        }
        v4 => v4,
    }
}

/// The network an address belongs to, for the shares: a /24 of IPv4, the
/// smallest block routed between networks on the internet, so an attacker's
/// many addresses in one place share one; a /48 of IPv6, the most a
/// registry gives one site (a home gets a /56 or a /64 out of it), so a
/// single customer's addresses, however many /64s, share one.
pub(crate) fn prefix_key(ip: IpAddr) -> IpAddr {
    match address_key(ip) {
        IpAddr::V4(v4) => IpAddr::V4((u32::from(v4) & 0xffff_ff00).into()),
        IpAddr::V6(v6) => IpAddr::V6((u128::from(v6) & !((1u128 << 80) - 1)).into()),
    }
}

/// A prefix holds at most this fraction of a whole (1 / `PREFIX_SHARE`),
/// never less than one address's cap.
const PREFIX_SHARE: usize = 10;
/// The last 1 / `RESERVE_SHARE` of a whole goes only to prefixes that hold
/// less than a newcomer's need.
const RESERVE_SHARE: usize = 10;
/// What a newcomer's network needs of the connections: a few players, or
/// tabs, each one connection.
pub(crate) const NEWCOMER_CONNECTIONS: usize = 4;
/// What a newcomer's network needs of the rooms: a room of its own and a
/// room of one for today's board.
pub(crate) const NEWCOMER_ROOMS: usize = 2;

/// How a whole is shared: its size, each address's cap, each prefix's cap,
/// the reserve at its top, and what a prefix may hold and still take from
/// the reserve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ShareCaps {
    pub(crate) whole: usize,
    pub(crate) address: usize,
    pub(crate) prefix: usize,
    pub(crate) reserve: usize,
    pub(crate) newcomer: usize,
}

impl ShareCaps {
    /// The shares of `whole` with `address` the cap of one address and
    /// `newcomer` what a newcomer's network needs.
    pub(crate) fn new(whole: usize, address: usize, newcomer: usize) -> ShareCaps {
        ShareCaps {
            whole,
            address,
            prefix: address.max(whole / PREFIX_SHARE),
            reserve: whole / RESERVE_SHARE,
            newcomer,
        }
    }
}

impl ShareCaps {
    /// What a client refused a share is told: why, in `noun`s
    /// ("connections", "rooms"), then what to do (`then`).
    pub(crate) fn why_short(&self, short: Short, noun: &str, then: &str) -> String {
        match short {
            Short::Address => format!("your address holds {} {noun} already; {then}", self.address),
            Short::Prefix => format!(
                "your network holds {} {noun} already, its share of the server's {}; {then}",
                self.prefix, self.whole
            ),
            Short::Reserved => format!(
                "the server's last {} {noun} are kept for networks holding fewer than {}, \
                 and yours holds more; {then}",
                self.reserve, self.newcomer
            ),
            Short::Whole => format!(
                "the server has its maximum of {} {noun}; {then}",
                self.whole
            ),
        }
    }
}

/// Why a [`Shares`] gave no place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Short {
    /// The address holds its cap.
    Address,
    /// The address's network holds its share.
    Prefix,
    /// Only the reserve is left, and the network holds a newcomer's need already.
    Reserved,
    /// The whole is taken.
    Whole,
}

/// What is held of a whole, in all, by address and by prefix (only those
/// holding something are kept, so each map has at most `whole` entries).
#[derive(Debug, Default)]
struct Held {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
    by_prefix: HashMap<IpAddr, usize>,
}

/// A whole shared among addresses and prefixes ([`ShareCaps`]).
#[derive(Debug)]
pub(crate) struct Shares {
    caps: ShareCaps,
    held: Mutex<Held>,
}

/// One place taken from [`Shares`]; dropping it gives the place back.
#[derive(Debug)]
pub(crate) struct Share {
    of: Arc<Shares>,
    address: IpAddr,
    prefix: IpAddr,
}

impl Shares {
    pub(crate) fn new(caps: ShareCaps) -> Arc<Shares> {
        Arc::new(Shares {
            caps,
            held: Mutex::new(Held::default()),
        })
    }

    /// The caps it holds to.
    pub(crate) fn caps(&self) -> ShareCaps {
        self.caps
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A place for `ip`, or why not.
    pub(crate) fn take(self: &Arc<Self>, ip: IpAddr) -> Result<Share, Short> {
        let (address, prefix) = (address_key(ip), prefix_key(ip));
        let caps = &self.caps;
        let mut held = self.lock();
        let of_address = held.by_address.get(&address).copied().unwrap_or(0);
        let of_prefix = held.by_prefix.get(&prefix).copied().unwrap_or(0);
        if held.total >= caps.whole {
            return Err(Short::Whole);
        }
        if of_address >= caps.address {
            return Err(Short::Address);
        }
        if of_prefix >= caps.prefix {
            return Err(Short::Prefix);
        }
        if held.total >= caps.whole - caps.reserve && of_prefix >= caps.newcomer {
            return Err(Short::Reserved);
        }
        held.total += 1;
        *held.by_address.entry(address).or_insert(0) += 1;
        *held.by_prefix.entry(prefix).or_insert(0) += 1;
        Ok(Share {
            of: Arc::clone(self),
            address,
            prefix,
        })
    }
}

/// Takes one from `key`'s count, forgetting it at zero.
fn give_back(counts: &mut HashMap<IpAddr, usize>, key: IpAddr) {
    if let Some(count) = counts.get_mut(&key) {
        *count -= 1;
        if *count == 0 {
            counts.remove(&key);
        }
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        let mut held = self.of.lock();
        held.total = held.total.saturating_sub(1);
        give_back(&mut held.by_address, self.address);
        give_back(&mut held.by_prefix, self.prefix);
    }
}

/// Rates counted by address. An IPv6 address counts by its /64, the block
/// one machine is usually given, so a client cannot dodge the count by
/// changing addresses within it.
#[derive(Debug)]
pub(crate) struct AddressLimiter {
    limits: Limits,
    by_address: Mutex<HashMap<IpAddr, Counted>>,
}

#[derive(Debug)]
struct Counted {
    connects: Bucket,
    failures: Bucket,
}

/// Why an address is turned away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Throttled {
    /// More new connections than [`Limits::connects_per_sec`].
    Connecting,
    /// More failed passwords or tokens than [`Limits::failures_per_sec`]; try after this.
    Guessing(Duration),
}

impl AddressLimiter {
    pub(crate) fn new(limits: &Limits) -> AddressLimiter {
        AddressLimiter {
            limits: limits.clone(),
            by_address: Mutex::new(HashMap::new()),
        }
    }

    fn with<T>(&self, ip: IpAddr, now: Instant, f: impl FnOnce(&mut Counted) -> T) -> T {
        let key = address_key(ip);
        let mut map = self
            .by_address
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if map.len() >= MAX_ADDRESSES && !map.contains_key(&key) {
            map.retain(|_, c| !(c.connects.is_full(now) && c.failures.is_full(now)));
        }
        let limits = &self.limits;
        let counted = map.entry(key).or_insert_with(|| Counted {
            connects: Bucket::new(
                limits.connects_per_sec,
                (limits.connects_per_sec * CONNECT_BURST).max(1.0),
                now,
            ),
            failures: Bucket::new(limits.failures_per_sec, FAILURE_BURST, now),
        });
        f(counted)
    }

    /// Counts a new connection from `ip`; `Err` if it comes too fast.
    pub(crate) fn connect(&self, ip: IpAddr, now: Instant) -> Result<(), Throttled> {
        if self.with(ip, now, |c| c.connects.take(now)) {
            Ok(())
        } else {
            Err(Throttled::Connecting)
        }
    }

    /// Whether `ip` may try a password or a token now.
    pub(crate) fn may_try(&self, ip: IpAddr, now: Instant) -> Result<(), Throttled> {
        self.with(ip, now, |c| {
            if c.failures.has(now) {
                Ok(())
            } else {
                Err(Throttled::Guessing(c.failures.wait(now)))
            }
        })
    }

    /// Counts a wrong password or token from `ip`.
    pub(crate) fn failed(&self, ip: IpAddr, now: Instant) {
        self.with(ip, now, |c| c.failures.take(now));
    }
}

/// Compares two secrets in time that depends only on their lengths, so a
/// guesser learns nothing from how fast a wrong password is refused.
pub(crate) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let len = a.len().max(b.len());
    let mut diff = u8::from(a.len() != b.len());
    for i in 0..len {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0);
        diff |= x ^ y;
    }
    // black_box keeps the optimiser from turning the loop into an early exit.
    std::hint::black_box(diff) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_compare_whole() {
        assert!(constant_time_eq(b"secret", b"secret"));
        assert!(!constant_time_eq(b"secret", b"secreT"));
        assert!(!constant_time_eq(b"secret", b"secret2"));
        assert!(!constant_time_eq(b"", b"x"));
        assert!(constant_time_eq(b"", b""));
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("address")
    }

    #[test]
    fn nat64_clients_count_as_their_ipv4_addresses_and_networks_by_prefix() {
        assert_eq!(address_key(ip("64:ff9b::c000:201")), ip("192.0.2.1"));
        assert_eq!(address_key(ip("::ffff:192.0.2.1")), ip("192.0.2.1"));
        assert_eq!(address_key(ip("64:ff9c::c000:201")), ip("64:ff9c::"));
        assert_eq!(address_key(ip("2001:db8:1:2:3::4")), ip("2001:db8:1:2::"));
        assert_eq!(prefix_key(ip("192.0.2.77")), ip("192.0.2.0"));
        assert_eq!(prefix_key(ip("64:ff9b::c000:277")), ip("192.0.2.0"));
        assert_eq!(prefix_key(ip("2001:db8:1:2:3::4")), ip("2001:db8:1::"));
    }

    #[test]
    fn a_network_holds_its_share_and_the_reserve_is_for_newcomers() {
        // 100 places: 5 an address, 10 a network, the last 10 kept for
        // networks holding fewer than 2.
        let shares = Shares::new(ShareCaps::new(100, 5, 2));
        let mut held = Vec::new();
        // Twenty addresses of one /24 hold its share, 10, between them.
        for host in 1..=20 {
            while let Ok(share) = shares.take(ip(&format!("10.0.0.{host}"))) {
                held.push(share);
            }
        }
        assert_eq!(held.len(), 10);
        assert_eq!(shares.take(ip("10.0.0.99")).err(), Some(Short::Prefix));
        // An IPv6 site's /48 is one network, however many /64s it uses.
        for subnet in 0..20 {
            if let Ok(share) = shares.take(ip(&format!("2001:db8:0:{subnet:x}::1"))) {
                held.push(share);
            }
        }
        assert_eq!(held.len(), 20);
        // Networks of one address each fill the first 90.
        for net in 1..=14 {
            while let Ok(share) = shares.take(ip(&format!("10.{net}.0.1"))) {
                held.push(share);
            }
        }
        assert_eq!(held.len(), 90);
        assert_eq!(shares.take(ip("10.14.0.2")).err(), Some(Short::Reserved));
        assert_eq!(shares.take(ip("10.1.0.1")).err(), Some(Short::Address));
        // Five newcomers' networks take 2 each of the last 10.
        for net in 20..25 {
            for _ in 0..2 {
                held.push(shares.take(ip(&format!("10.{net}.0.1"))).expect("kept"));
            }
            let after = if net < 24 {
                Short::Reserved
            } else {
                Short::Whole
            };
            assert_eq!(shares.take(ip(&format!("10.{net}.0.2"))).err(), Some(after));
        }
        assert_eq!(shares.take(ip("10.30.0.1")).err(), Some(Short::Whole));
        // What is given back is free again, to whoever may take it.
        held.truncate(80);
        assert!(shares.take(ip("10.14.0.2")).is_ok());
    }

    /// What a client refused a share reads, for each reason.
    #[test]
    fn a_refused_share_says_why() {
        let caps = Limits::default().connection_shares();
        let said = |short| caps.why_short(short, "connections", "try later");
        assert_eq!(
            said(Short::Address),
            "your address holds 50 connections already; try later"
        );
        assert_eq!(
            said(Short::Prefix),
            "your network holds 100 connections already, its share of the server's 1000; try later"
        );
        assert_eq!(
            said(Short::Reserved),
            "the server's last 100 connections are kept for networks holding fewer than 4, \
             and yours holds more; try later"
        );
        assert_eq!(
            said(Short::Whole),
            "the server has its maximum of 1000 connections; try later"
        );
        let rooms = Limits::default().room_shares();
        assert_eq!(
            (rooms.address, rooms.prefix, rooms.reserve, rooms.newcomer),
            (10, 20, 20, 2)
        );
    }

    #[test]
    #[expect(
        clippy::disallowed_methods,
        reason = "an Instant cannot be made but from the clock: the test reads it once and counts on from it"
    )]
    fn an_address_is_counted_for_connections_and_failures_and_others_are_not() {
        let limits = Limits {
            connects_per_sec: 10.0,
            failures_per_sec: 0.5,
            ..Limits::default()
        };
        let limiter = AddressLimiter::new(&limits);
        let t0 = Instant::now();
        let one: IpAddr = "127.0.0.1".parse().expect("address");
        let other: IpAddr = "127.0.0.2".parse().expect("address");
        let taken = (0..1000)
            .filter(|_| limiter.connect(one, t0).is_ok())
            .count();
        assert_eq!(taken, 40, "a burst of 4 s worth");
        assert!(limiter.connect(other, t0).is_ok());
        assert!(
            limiter
                .connect(one, t0 + Duration::from_millis(100))
                .is_ok()
        );
        for _ in 0..5 {
            assert!(limiter.may_try(one, t0).is_ok());
            limiter.failed(one, t0);
        }
        assert_eq!(
            limiter.may_try(one, t0),
            Err(Throttled::Guessing(Duration::from_secs(2)))
        );
        assert!(limiter.may_try(other, t0).is_ok());
        assert!(limiter.may_try(one, t0 + Duration::from_secs(2)).is_ok());
        // One machine's IPv6 block is one address.
        let a: IpAddr = "2001:db8::1".parse().expect("address");
        let b: IpAddr = "2001:db8::2:3".parse().expect("address");
        for _ in 0..5 {
            limiter.failed(a, t0);
        }
        assert!(limiter.may_try(b, t0).is_err());
    }
}
