//! What the server has to send one client, bounded in bytes rather than in
//! messages: a queue of encoded lines that a writer task empties, with a cap
//! of its own ([`super::limits::Limits::queue_bytes`]) and a share of a cap
//! on all queues together ([`Budget`]). A line sent to a whole room is
//! encoded once and shared ([`Encoded`] is a reference), and counted once in the
//! budget. A newer lobby replaces one still waiting, so a client that reads
//! slowly gets the room as it is, not every step of it.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

use super::limits::SLOW_QUEUE;

/// The bytes of every line waiting to be sent, counted once per line however
/// many queues hold it.
#[derive(Debug)]
pub(crate) struct Budget {
    used: AtomicUsize,
    cap: usize,
}

impl Budget {
    pub(crate) fn new(cap: usize) -> Arc<Budget> {
        Arc::new(Budget {
            used: AtomicUsize::new(0),
            cap,
        })
    }

    /// Bytes held now.
    pub(crate) fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    fn over(&self) -> bool {
        self.used() > self.cap
    }
}

/// One encoded message, newline included, shared by the queues that send it.
#[derive(Clone, Debug)]
pub(crate) struct Encoded(Arc<Counted>);

#[derive(Debug)]
struct Counted {
    text: String,
    budget: Arc<Budget>,
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.budget
            .used
            .fetch_sub(self.text.len(), Ordering::Relaxed);
    }
}

impl Encoded {
    /// `text`, counted in `budget` until the last queue lets go of it.
    pub(crate) fn new(text: String, budget: &Arc<Budget>) -> Encoded {
        budget.used.fetch_add(text.len(), Ordering::Relaxed);
        Encoded(Arc::new(Counted {
            text,
            budget: Arc::clone(budget),
        }))
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.0.text
    }

    fn len(&self) -> usize {
        self.0.text.len()
    }
}

/// What kind of message a line is: a lobby replaces a lobby still queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Lobby,
    Other,
}

#[derive(Debug, Default)]
struct Queue {
    lines: VecDeque<(Encoded, Kind)>,
    bytes: usize,
    closed: bool,
}

/// One client's queue.
#[derive(Debug)]
pub(crate) struct Outbox {
    queue: Mutex<Queue>,
    wake: Notify,
    cap: usize,
    budget: Arc<Budget>,
}

impl Outbox {
    /// An empty queue of at most `cap` bytes, sharing `budget` with every other.
    pub(crate) fn new(cap: usize, budget: &Arc<Budget>) -> Outbox {
        Outbox {
            queue: Mutex::new(Queue::default()),
            wake: Notify::new(),
            cap,
            budget: Arc::clone(budget),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Queues `line`; `false` when the client is not keeping up (its queue
    /// would pass its cap, or every queue together is past theirs and this
    /// one holds more than a reading client would) or the queue is closed:
    /// the caller drops the client.
    pub(crate) fn push(&self, line: Encoded, kind: Kind) -> bool {
        let mut queue = self.lock();
        if queue.closed {
            return false;
        }
        if kind == Kind::Lobby
            && let Some(at) = queue.lines.iter().position(|(_, k)| *k == Kind::Lobby)
            && let Some((old, _)) = queue.lines.remove(at)
        {
            queue.bytes -= old.len();
        }
        let full = !queue.lines.is_empty() && queue.bytes + line.len() > self.cap;
        let slow = self.budget.over() && queue.bytes > SLOW_QUEUE;
        if full || slow {
            return false;
        }
        queue.bytes += line.len();
        queue.lines.push_back((line, kind));
        drop(queue);
        self.wake.notify_one();
        true
    }

    /// Queues a last line whatever the caps, and closes the queue: the
    /// writer sends what is left, then ends.
    pub(crate) fn close_with(&self, last: Option<Encoded>) {
        let mut queue = self.lock();
        if let Some(line) = last {
            queue.bytes += line.len();
            queue.lines.push_back((line, Kind::Other));
        }
        queue.closed = true;
        drop(queue);
        self.wake.notify_one();
    }

    /// Drops everything waiting and closes the queue (the client is gone).
    pub(crate) fn abandon(&self) {
        let mut queue = self.lock();
        queue.lines.clear();
        queue.bytes = 0;
        queue.closed = true;
        drop(queue);
        self.wake.notify_one();
    }

    /// The next line to send; `None` once the queue is closed and empty.
    pub(crate) async fn next(&self) -> Option<Encoded> {
        loop {
            {
                let mut queue = self.lock();
                if let Some((line, _)) = queue.lines.pop_front() {
                    queue.bytes -= line.len();
                    return Some(line);
                }
                if queue.closed {
                    return None;
                }
            }
            self.wake.notified().await;
        }
    }

    /// Bytes waiting.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.lock().bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(budget: &Arc<Budget>, n: usize) -> Encoded {
        Encoded::new("x".repeat(n), budget)
    }

    #[tokio::test]
    async fn a_queue_is_bounded_in_bytes_and_a_newer_lobby_replaces_a_waiting_one() {
        let budget = Budget::new(1 << 20);
        let outbox = Outbox::new(100, &budget);
        // Any one line fits an empty queue.
        assert!(outbox.push(line(&budget, 150), Kind::Other));
        assert!(!outbox.push(line(&budget, 1), Kind::Other), "past the cap");
        assert_eq!(outbox.next().await.map(|l| l.len()), Some(150));
        assert!(outbox.push(line(&budget, 30), Kind::Lobby));
        assert!(outbox.push(line(&budget, 10), Kind::Other));
        for _ in 0..1000 {
            assert!(outbox.push(line(&budget, 40), Kind::Lobby));
        }
        assert_eq!(
            outbox.bytes(),
            50,
            "one lobby waits, the newest, after the rest"
        );
        assert_eq!(budget.used(), 50, "the replaced lobbies are freed");
        assert_eq!(outbox.next().await.map(|l| l.len()), Some(10));
        assert_eq!(outbox.next().await.map(|l| l.len()), Some(40));
        outbox.close_with(Some(line(&budget, 500)));
        assert_eq!(outbox.next().await.map(|l| l.len()), Some(500));
        assert!(outbox.next().await.is_none());
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn past_the_total_a_queue_that_holds_much_is_refused_and_a_near_empty_one_is_not() {
        let budget = Budget::new(SLOW_QUEUE);
        let slow = Outbox::new(1 << 20, &budget);
        let reader = Outbox::new(1 << 20, &budget);
        let shared = line(&budget, SLOW_QUEUE / 2);
        assert!(slow.push(shared.clone(), Kind::Other));
        assert!(reader.push(shared, Kind::Other));
        assert_eq!(budget.used(), SLOW_QUEUE / 2, "a shared line counts once");
        for _ in 0..2 {
            assert!(slow.push(line(&budget, SLOW_QUEUE / 2), Kind::Other));
        }
        assert!(budget.used() > SLOW_QUEUE);
        assert!(!slow.push(line(&budget, 1), Kind::Other), "not reading");
        assert!(reader.push(line(&budget, 1), Kind::Other), "reading");
    }
}
