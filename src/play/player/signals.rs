//! What SIGINT (Ctrl-C), SIGTERM and SIGHUP (a kill, or the terminal closed)
//! do, the same way in every mode: a game in progress ends as if the input
//! had ended, so its summary is still written, then the program says it was
//! stopped by a signal and exits with status 1. A mode with nothing to save
//! (`solve`, `bench`) stops at once with that line. A mode that runs
//! unattended (`best --hunt`) is given a grace period to finish: past it,
//! the process ends whatever it is blocked on (a full pipe, a stalled
//! disk). A second signal always ends the process at once. The network
//! modes, on tokio, take the same three as its streams (`StopSignals`).

#![expect(
    clippy::disallowed_methods,
    reason = "a second signal's grace is a pause by design"
)]

#[cfg(not(unix))]
use std::io::Write;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Set by the first signal.
static STOPPED: AtomicBool = AtomicBool::new(false);

/// What the program says on its way out after a signal.
pub(crate) const STOPPED_LINE: &str = "boggle: stopped by a signal";

/// How a mode takes a signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OnSignal {
    /// The mode checks [`stopped`] and finishes what it has (a game's summary).
    Finish,
    /// The mode has nothing to save: the process ends at once.
    Exit,
    /// As [`OnSignal::Finish`], but the process ends after this long if
    /// the mode has not finished by then, whatever it is blocked on.
    FinishWithin(Duration),
}

/// Installs the handler, once per process; later calls change nothing. If the
/// system refuses a handler, a signal ends the process as it always would.
pub(crate) fn install(on_signal: OnSignal) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(move || {
            let again = STOPPED.swap(true, Ordering::SeqCst);
            match on_signal {
                _ if again => exit_stopped(),
                OnSignal::Exit => exit_stopped(),
                OnSignal::Finish => {}
                // A thread of its own, so a second signal still ends it at once.
                OnSignal::FinishWithin(grace) => {
                    std::thread::spawn(move || {
                        std::thread::sleep(grace);
                        exit_stopped();
                    });
                }
            }
        });
    });
}

/// Says the program was stopped by a signal and ends it with status 1.
/// The line is written past standard error's lock, which a thread blocked
/// on a full pipe may hold, and only if the pipe has room for it: the
/// process ends either way.
fn exit_stopped() -> ! {
    #[cfg(unix)]
    {
        use rustix::event::{PollFd, PollFlags, Timespec, poll};
        let stderr = rustix::stdio::stderr();
        let mut fds = [PollFd::new(&stderr, PollFlags::OUT)];
        let now = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        if poll(&mut fds, Some(&now)).is_ok() && fds[0].revents().contains(PollFlags::OUT) {
            let _ = rustix::io::write(stderr, format!("{STOPPED_LINE}\n").as_bytes());
        }
    }
    #[cfg(not(unix))]
    let _ = writeln!(std::io::stderr(), "{STOPPED_LINE}");
    std::process::exit(1)
}

/// Whether a signal has asked the program to stop.
pub(crate) fn stopped() -> bool {
    STOPPED.load(Ordering::SeqCst)
}

#[cfg(feature = "net")]
/// Ctrl-C (SIGINT), SIGTERM and SIGHUP: the signals every mode takes
/// (above), here as tokio's (the server and the line-mode client
/// run on tokio). They are taken over when this is made, not when it is first
/// awaited, so a signal sent as soon as the addresses are printed stops the
/// server in order instead of killing it.
pub(crate) struct StopSignals {
    #[cfg(unix)]
    streams: Option<[tokio::signal::unix::Signal; 3]>,
}

#[cfg(feature = "net")]
impl StopSignals {
    /// Takes the signals over now; needs a tokio runtime with signals enabled.
    pub(crate) fn register() -> StopSignals {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let streams = match (
                signal(SignalKind::interrupt()),
                signal(SignalKind::terminate()),
                signal(SignalKind::hangup()),
            ) {
                (Ok(int), Ok(term), Ok(hangup)) => Some([int, term, hangup]),
                _ => None,
            };
            StopSignals { streams }
        }
        #[cfg(not(unix))]
        StopSignals {}
    }

    /// Completes on the next of the signals.
    pub(crate) async fn recv(&mut self) {
        #[cfg(unix)]
        if let Some([int, term, hangup]) = &mut self.streams {
            tokio::select! {
                _ = int.recv() => {}
                _ = term.recv() => {}
                _ = hangup.recv() => {}
            }
            return;
        }
        let _ = tokio::signal::ctrl_c().await;
    }
}
