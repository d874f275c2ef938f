//! What SIGINT (Ctrl-C), SIGTERM and SIGHUP (a kill, or the terminal closed)
//! do, the same way in every mode: a game in progress ends as if the input
//! had ended, so its summary is still written, then the program says it was
//! stopped by a signal and exits with status 1. A mode with nothing to save
//! (`solve`, `bench`) stops at once with that line. A second signal always
//! ends the process at once.

use std::io::Write;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the first signal.
static STOPPED: AtomicBool = AtomicBool::new(false);

/// What the program says on its way out after a signal.
pub const STOPPED_LINE: &str = "boggle: stopped by a signal";

/// How a mode takes a signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnSignal {
    /// The mode checks [`stopped`] and finishes what it has (a game's summary).
    Finish,
    /// The mode has nothing to save: the process ends at once.
    Exit,
}

/// Installs the handler, once per process; later calls change nothing. If the
/// system refuses a handler, a signal ends the process as it always would.
pub fn install(on_signal: OnSignal) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(move || {
            let again = STOPPED.swap(true, Ordering::SeqCst);
            if again || on_signal == OnSignal::Exit {
                let _ = writeln!(std::io::stderr().lock(), "{STOPPED_LINE}");
                std::process::exit(1);
            }
        });
    });
}

/// Whether a signal has asked the program to stop.
pub fn stopped() -> bool {
    STOPPED.load(Ordering::SeqCst)
}
