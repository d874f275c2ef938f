//! The program's own folders under the user's home, as the XDG base
//! directory specification places them: data (the full screen's records,
//! the server's results) under `$XDG_DATA_HOME`, else `~/.local/share`;
//! state (the network client's kept seats) under `$XDG_STATE_HOME`, else
//! `~/.local/state`; each in a `boggle` folder. Relative values are ignored,
//! as the specification says. The environment is read through a function so
//! tests give their own.

use std::ffi::OsString;
use std::path::PathBuf;

/// Which of the user's base folders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// Files the user would keep: `$XDG_DATA_HOME`, else `~/.local/share`.
    Data,
    /// State that may outlive a run but is not worth a backup:
    /// `$XDG_STATE_HOME`, else `~/.local/state`.
    State,
}

/// The program's folder (`.../boggle`) under `base`, with the environment
/// looked up through `var`; `None` when neither variable is set to an absolute path.
pub fn program_dir(base: Base, var: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let (xdg, under_home) = match base {
        Base::Data => ("XDG_DATA_HOME", ".local/share"),
        Base::State => ("XDG_STATE_HOME", ".local/state"),
    };
    let absolute = |name: &str| var(name).map(PathBuf::from).filter(|p| p.is_absolute());
    let root = absolute(xdg).or_else(|| absolute("HOME").map(|home| home.join(under_home)))?;
    Some(root.join("boggle"))
}

/// The program's folder under `base` in this process's environment.
pub fn program_dir_here(base: Base) -> Option<PathBuf> {
    program_dir(base, |name| std::env::var_os(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn each_base_follows_its_variable_then_home() {
        let both = env(&[
            ("XDG_DATA_HOME", "/x/data"),
            ("XDG_STATE_HOME", "/x/state"),
            ("HOME", "/home/p"),
        ]);
        assert_eq!(
            program_dir(Base::Data, &both),
            Some(PathBuf::from("/x/data/boggle"))
        );
        assert_eq!(
            program_dir(Base::State, &both),
            Some(PathBuf::from("/x/state/boggle"))
        );
        let home = env(&[("XDG_DATA_HOME", "relative"), ("HOME", "/home/p")]);
        assert_eq!(
            program_dir(Base::Data, &home),
            Some(PathBuf::from("/home/p/.local/share/boggle"))
        );
        assert_eq!(
            program_dir(Base::State, &home),
            Some(PathBuf::from("/home/p/.local/state/boggle"))
        );
        assert_eq!(program_dir(Base::Data, env(&[("HOME", "rel")])), None);
    }
}
