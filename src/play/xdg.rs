//! The program's own data folder under the user's home, as the XDG base
//! directory specification places it (etcetera's XDG strategy): the full
//! screen's records and the server's results under `$XDG_DATA_HOME`, else
//! `~/.local/share`, in a `boggle` folder. The network client's seats are
//! under the state folder, which `boggle-client` finds for itself. Limits:
//! read from this process's environment (tests give a child process its
//! own); no home, no folder.

use std::path::PathBuf;

use etcetera::BaseStrategy;

/// The program's data folder (`.../boggle`) in this process's environment:
/// `$XDG_DATA_HOME`, else `~/.local/share`; `None` without a home folder.
pub(crate) fn data_dir_here() -> Option<PathBuf> {
    let xdg = etcetera::base_strategy::Xdg::new().ok()?;
    Some(xdg.data_dir().join("boggle"))
}
