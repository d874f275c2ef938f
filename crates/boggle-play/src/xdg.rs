//! The program's own folders under the user's home, as the XDG base
//! directory specification places them (etcetera's XDG strategy): data
//! (the full screen's records, the server's results) under
//! `$XDG_DATA_HOME`, else `~/.local/share`; state (the network client's
//! kept seats) under `$XDG_STATE_HOME`, else `~/.local/state`; each in a
//! `boggle` folder. Limits: read from this process's environment (tests
//! give a child process its own); no home, no folder.

use std::path::PathBuf;

use etcetera::BaseStrategy;

/// Which of the user's base folders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// Files the user would keep: `$XDG_DATA_HOME`, else `~/.local/share`.
    Data,
    /// State that may outlive a run but is not worth a backup:
    /// `$XDG_STATE_HOME`, else `~/.local/state`.
    State,
}

/// The program's folder (`.../boggle`) under `base` in this process's
/// environment; `None` without a home folder.
pub fn program_dir_here(base: Base) -> Option<PathBuf> {
    let xdg = etcetera::base_strategy::Xdg::new().ok()?;
    let root = match base {
        Base::Data => Some(xdg.data_dir()),
        Base::State => xdg.state_dir(),
    }?;
    Some(root.join("boggle"))
}
