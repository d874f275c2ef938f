//! The web side's places: what a connection holds from its accept until it
//! closes or upgrades, at most a cap per address and a cap in all.
//!
//! How it works. One lock holds every address's connections in the order
//! they came, each with a ticket: whether it has sent a request yet
//! (*heard*), and the bell that tells its task to close. While places are
//! left, a connection takes one if its address is under its cap. When
//! none are left, a newcomer is not turned away behind the sockets that
//! hold them: the address holding the most places (at least two more than
//! the newcomer's) gives up its oldest connection that has sent no request
//! yet, and the newcomer takes that place at once. So slow sockets that
//! never finish a head, from however many addresses, end up holding equal
//! shares, and an address holding few always gets in. A connection that
//! has been heard is never cut for another: it is a client being served.
//! A trusted proxy's address is held to no per-address cap: every browser
//! behind it comes through its connections.
//!
//! Limits: finding the heaviest address scans the addresses holding places
//! (at most the cap in all), only when every place is held. An evicted
//! connection is closed by its own task when it next runs; its place is
//! given to the newcomer at once, so for a moment more sockets are open
//! than places.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::Notify;

use super::proxy::Proxies;
use crate::limits::address_key;

/// The places of connections being served.
#[derive(Debug)]
pub(super) struct Places {
    per_address: usize,
    total: usize,
    proxies: Proxies,
    held: Mutex<Held>,
    /// Woken whenever a connection gives its place back.
    pub(super) freed: Notify,
}

/// Every place held, by address.
#[derive(Debug, Default)]
struct Held {
    used: usize,
    next: u64,
    by_address: HashMap<IpAddr, BTreeMap<u64, Arc<Ticket>>>,
}

/// One connection's standing: heard yet, and told to close.
#[derive(Debug, Default)]
pub(super) struct Ticket {
    heard: AtomicBool,
    released: AtomicBool,
    evicted: Notify,
}

impl Ticket {
    /// Marks the connection as one that sent a request: it keeps its place.
    pub(super) fn heard(&self) {
        self.heard.store(true, Ordering::Relaxed);
    }

    /// Resolves when another connection has taken this one's place.
    pub(super) async fn evicted(&self) {
        self.evicted.notified().await;
    }
}

/// A place held; dropping it gives the place back.
#[derive(Debug)]
pub(super) struct Place {
    of: Arc<Places>,
    key: IpAddr,
    id: u64,
    ticket: Arc<Ticket>,
}

impl Place {
    /// The connection's ticket, for its task to mark it heard and hear its eviction.
    pub(super) fn ticket(&self) -> Arc<Ticket> {
        Arc::clone(&self.ticket)
    }
}

impl Places {
    /// Room for `total` connections, at most `per_address` from one
    /// address that is not one of the trusted `proxies`.
    pub(super) fn new(per_address: usize, total: usize, proxies: Proxies) -> Arc<Places> {
        metrics::gauge!("boggle_http_connections").set(0.0);
        Arc::new(Places {
            per_address,
            total,
            proxies,
            held: Mutex::new(Held::default()),
            freed: Notify::new(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A place for `ip` now: a free one, or one an address holding at
    /// least two more gives up; `None` if its address holds its cap, or
    /// no address may give one up.
    pub(super) fn take_now(self: &Arc<Self>, ip: IpAddr) -> Option<Place> {
        let key = address_key(ip);
        let mut held = self.lock();
        let mine = held.by_address.get(&key).map_or(0, BTreeMap::len);
        if mine >= self.per_address && !self.proxies.trusts(ip) {
            return None;
        }
        if held.used >= self.total {
            let evicted = held.evict_for(mine)?;
            evicted.evicted.notify_one();
        }
        held.used += 1;
        held.next += 1;
        let id = held.next;
        let ticket = Arc::new(Ticket::default());
        held.by_address
            .entry(key)
            .or_default()
            .insert(id, Arc::clone(&ticket));
        metrics::gauge!("boggle_http_connections").increment(1.0);
        Some(Place {
            of: Arc::clone(self),
            key,
            id,
            ticket,
        })
    }

    /// A place for `ip`, as soon as one is free. A place is looked for
    /// after the wake-up is armed, so a connection leaving in between is
    /// not missed.
    pub(super) async fn take(self: &Arc<Self>, ip: IpAddr) -> Place {
        loop {
            let freed = self.freed.notified();
            tokio::pin!(freed);
            freed.as_mut().enable();
            if let Some(place) = self.take_now(ip) {
                return place;
            }
            freed.await;
        }
    }
}

impl Held {
    /// Takes the place of the oldest unheard connection of the address
    /// holding the most, if it holds at least two more than `mine`.
    fn evict_for(&mut self, mine: usize) -> Option<Arc<Ticket>> {
        let (&key, &id) = self
            .by_address
            .iter()
            .filter(|(_, tickets)| tickets.len() >= mine + 2)
            .filter_map(|(key, tickets)| {
                let (id, _) = tickets
                    .iter()
                    .find(|(_, t)| !t.heard.load(Ordering::Relaxed))?;
                Some((key, id, tickets.len()))
            })
            .max_by_key(|&(_, _, held)| held)
            .map(|(key, id, _)| (key, id))?;
        self.release(key, id)
    }

    /// Gives back the place `id` of `key`, once, and counts it out of the gauge.
    fn release(&mut self, key: IpAddr, id: u64) -> Option<Arc<Ticket>> {
        let tickets = self.by_address.get_mut(&key)?;
        let ticket = tickets.remove(&id)?;
        if tickets.is_empty() {
            self.by_address.remove(&key);
        }
        ticket.released.store(true, Ordering::Relaxed);
        self.used -= 1;
        metrics::gauge!("boggle_http_connections").decrement(1.0);
        Some(ticket)
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        if self.ticket.released.load(Ordering::Relaxed) {
            return;
        }
        self.of.lock().release(self.key, self.id);
        self.of.freed.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    #[test]
    fn an_address_holds_its_cap_and_the_whole_its_total() {
        let places = Places::new(2, 3, Proxies::default());
        let a1 = places.take_now(ip(1));
        let a2 = places.take_now(ip(1));
        assert!(a1.is_some() && a2.is_some());
        assert!(places.take_now(ip(1)).is_none(), "past its cap");
        let b1 = places.take_now(ip(2));
        assert!(b1.is_some());
        // Full, with 2 and 1 held: the address holding 1 may not take from
        // the one holding 2 (that would only move the place).
        assert!(places.take_now(ip(2)).is_none());
        drop(a2);
        assert!(
            places.take_now(ip(2)).is_some(),
            "a place given back is free"
        );
        let v6 = Places::new(2, 10, Proxies::default());
        let _a = v6.take_now("2001:db8::1".parse().unwrap());
        let _b = v6.take_now("2001:db8::2".parse().unwrap());
        assert!(
            v6.take_now("2001:db8::3".parse().unwrap()).is_none(),
            "one /64 is one address"
        );
    }

    #[test]
    fn when_full_the_heaviest_address_gives_up_its_oldest_unheard_connection() {
        let places = Places::new(10, 4, Proxies::default());
        let slow: Vec<Place> = (0..3).map(|_| places.take_now(ip(1)).unwrap()).collect();
        slow[0].ticket().heard();
        let _other = places.take_now(ip(2)).unwrap();
        // Full. A newcomer (0 held) takes the place of ip(1)'s oldest
        // unheard connection (the second: the first was heard).
        let newcomer = places.take_now(ip(3));
        assert!(newcomer.is_some());
        assert!(slow[1].ticket.released.load(Ordering::Relaxed));
        assert!(!slow[0].ticket.released.load(Ordering::Relaxed));
        assert_eq!(places.lock().used, 4);
        // ip(1) now holds 2, the newcomer 1: no one may take from anyone.
        assert!(places.take_now(ip(3)).is_none());
        assert!(places.take_now(ip(1)).is_none());
        // The evicted connection's place, given back when its task ends,
        // is not given back twice.
        drop(slow);
        assert_eq!(places.lock().used, 2);
    }

    #[test]
    fn heard_connections_are_never_taken() {
        let places = Places::new(10, 2, Proxies::default());
        let served: Vec<Place> = (0..2).map(|_| places.take_now(ip(1)).unwrap()).collect();
        for place in &served {
            place.ticket().heard();
        }
        assert!(places.take_now(ip(2)).is_none());
    }

    #[tokio::test]
    async fn an_evicted_connection_hears_it() {
        let places = Places::new(10, 2, Proxies::default());
        let slow: Vec<Place> = (0..2).map(|_| places.take_now(ip(1)).unwrap()).collect();
        let ticket = slow[0].ticket();
        let told = tokio::spawn(async move { ticket.evicted().await });
        let _newcomer = places.take_now(ip(2)).unwrap();
        assert!(told.await.is_ok());
    }

    /// Every peer but a trusted proxy holds at most its cap of places,
    /// whatever it forwards; the proxy's connections carry everyone behind it.
    #[test]
    fn places_per_address_bind_every_peer_but_a_trusted_proxy() {
        let proxy: super::super::Cidr = "10.0.0.2/32".parse().unwrap();
        let places = Places::new(3, 100, Proxies::new(&[proxy]));
        let held: Vec<Place> = (0..3).map(|_| places.take_now(ip(3)).unwrap()).collect();
        assert!(places.take_now(ip(3)).is_none(), "past the cap");
        let carried: Vec<Place> = (0..6).map(|_| places.take_now(ip(2)).unwrap()).collect();
        assert_eq!(held.len() + carried.len(), 9);
    }
}
