//! The server's side of one client: its queue, and how to tell its
//! connection's task to close it, and why (another connection took its
//! seat with its token, or the server simply drops it).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Notify;

use super::End;
use crate::outbox::Outbox;
use crate::room::Refusal;
use boggle_protocol::ErrorCode;

/// The server's side of one client (cloned into its room's slot).
#[derive(Clone)]
pub(super) struct Client {
    /// What is queued for the client.
    pub(super) outbox: Arc<Outbox>,
    /// Wakes the connection's task to close it.
    pub(super) kill: Arc<Notify>,
    replaced: Arc<AtomicBool>,
}

impl Client {
    /// A client whose task `kill` wakes, its messages queued in `outbox`.
    pub(super) fn new(outbox: Arc<Outbox>, kill: Arc<Notify>) -> Client {
        Client {
            outbox,
            kill,
            replaced: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Tells the connection's task that another connection took its seat:
    /// it says so to its client (`replaced`) and closes.
    pub(super) fn replace(&self) {
        self.replaced.store(true, Ordering::Relaxed);
        self.kill.notify_one();
    }

    /// Why the connection's task was told to close.
    pub(super) fn killed(&self) -> End {
        if self.replaced.load(Ordering::Relaxed) {
            End::Fatal(Refusal::new(
                ErrorCode::Replaced,
                "another connection took this seat with its token",
            ))
        } else {
            End::Quiet
        }
    }
}
