//! What the server allows, kept apart from any one transport so that every
//! way in (TCP lines, a browser's WebSocket) is held to the same caps:
//! [`Limits`] (sizes, rates, times, queues), measured with the protocol's
//! token [`Bucket`] (the client paces itself with one too), the password
//! compared in constant time ([`constant_time_eq`]), and the
//! `AddressLimiter`, which counts by address what an attacker could
//! otherwise repeat without end over fresh connections: new connections (each
//! join is one, since a second `hello` on a connection is refused) and failed
//! passwords and tokens. `PerAddress` counts what an address holds at
//! once (open connections, rooms it made, unanswered HTTP connections),
//! each place held by a `Place` that gives it back when dropped.

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
    /// [`CONNECT_BURST`] times as many).
    pub connects_per_sec: f64,
    /// Failed passwords and tokens a second from one address, on average,
    /// after a first few ([`FAILURE_BURST`]).
    pub failures_per_sec: f64,
    /// Bytes waiting for one client before it counts as not reading (a
    /// message is always taken into an empty queue, whatever its size).
    pub queue_bytes: usize,
    /// Bytes waiting for all clients together; past it, a client with more
    /// than [`SLOW_QUEUE`] bytes waiting is dropped.
    pub queued_total: usize,
    /// Time to write one line to a client.
    pub write_timeout: Duration,
    /// Connections open at once from one address.
    pub connections_per_address: usize,
    /// Rooms one address may have made that are still open.
    pub rooms_per_address: usize,
    /// On a stop (SIGTERM), how long rounds under way may go on before
    /// they end early; the server closes once none is left.
    pub stop_grace: Duration,
}

/// A connection burst from one address may be this many seconds' worth.
pub const CONNECT_BURST: f64 = 4.0;
/// Failed passwords or tokens from one address before the throttle starts.
pub const FAILURE_BURST: f64 = 5.0;
/// Past [`Limits::queued_total`], a client with more than this waiting is
/// taken for one that does not read (a reading client's queue is near empty).
pub const SLOW_QUEUE: usize = 32 << 10;

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

/// What addresses are counted by: an IPv4 address (a mapped one as
/// itself), or an IPv6 address's /64, the block one machine is usually
/// given, so a client cannot dodge a count by changing addresses within it.
pub(crate) fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        },
        v4 => v4,
    }
}

/// Places held at once by each address ([`address_key`]), at most `cap` each.
#[derive(Debug)]
pub(crate) struct PerAddress {
    cap: usize,
    held: Mutex<HashMap<IpAddr, usize>>,
}

/// One place taken from a [`PerAddress`]; dropping it gives the place back.
#[derive(Debug)]
pub(crate) struct Place {
    of: Arc<PerAddress>,
    key: IpAddr,
}

impl PerAddress {
    pub(crate) fn new(cap: usize) -> Arc<PerAddress> {
        Arc::new(PerAddress {
            cap,
            held: Mutex::new(HashMap::new()),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        self.held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A place for `ip`, or `None` if it holds its cap already.
    pub(crate) fn take(self: &Arc<Self>, ip: IpAddr) -> Option<Place> {
        let key = address_key(ip);
        let mut held = self.lock();
        let count = held.entry(key).or_insert(0);
        if *count >= self.cap {
            return None;
        }
        *count += 1;
        Some(Place {
            of: Arc::clone(self),
            key,
        })
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut held = self.of.lock();
        if let Some(count) = held.get_mut(&self.key) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.key);
            }
        }
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
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
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

    #[test]
    fn an_address_holds_at_most_its_cap_of_places_and_gets_them_back() {
        let places = PerAddress::new(2);
        let one: IpAddr = "127.0.0.1".parse().expect("address");
        let v6a: IpAddr = "2001:db8::1".parse().expect("address");
        let v6b: IpAddr = "2001:db8::2".parse().expect("address");
        let first = places.take(one);
        let second = places.take(one);
        assert!(first.is_some() && second.is_some());
        assert!(places.take(one).is_none(), "past the cap");
        drop(first);
        assert!(
            places.take(one).is_some(),
            "a place given back is free again"
        );
        let _a = places.take(v6a);
        let _b = places.take(v6a);
        assert!(places.take(v6b).is_none(), "one /64 is one address");
        assert!(places.take("127.0.0.2".parse().expect("address")).is_some());
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
