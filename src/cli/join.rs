//! `boggle join`: the networked game's client command: on a terminal the
//! full-screen client ([`crate::net::screen`]); otherwise the line mode of
//! [`crate::net::client`]: words from standard input, verdicts and results
//! on standard output. Both rejoin after a dropped connection for
//! [`REJOIN_FOR`].

use super::CliError;
use std::io::{self, BufWriter, IsTerminal};

use clap::Args;

use super::tui::{ColorChoice, use_colour};
use crate::net::client::{JoinError, JoinOptions, REJOIN_FOR, WELCOME_WITHIN, run_lines};
use crate::tui::terminal::TerminalError;
use crate::tui::ui::Look;
use boggle_game::error::Error;
use boggle_net::protocol::{check_name, check_room};

/// The flags of `boggle join`.
#[derive(Debug, Args, Clone)]
pub struct JoinArgs {
    /// The server, ADDR:PORT
    #[arg(value_name = "ADDR:PORT")]
    pub addr: String,
    /// Your name in the room (at most 20 printable characters)
    #[arg(long, value_name = "NAME")]
    pub name: String,
    /// The room to join
    #[arg(long, value_name = "NAME", default_value = "main")]
    pub room: String,
    /// The server's password (or --password-file, or BOGGLE_PASSWORD: any
    /// local user can read a command line)
    #[arg(long, value_name = "TEXT")]
    pub password: Option<String>,
    /// Read the password from the first line of this file
    #[arg(
        long = "password-file",
        value_name = "PATH",
        conflicts_with = "password"
    )]
    pub password_file: Option<std::path::PathBuf>,
    /// The token printed when you last joined, to take your seat (and words)
    /// back (or --token-file, or BOGGLE_TOKEN)
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,
    /// Read the token from the first line of this file
    #[arg(long = "token-file", value_name = "PATH", conflicts_with = "token")]
    pub token_file: Option<std::path::PathBuf>,
    /// Colour on the full screen: auto (honours NO_COLOR), always, never
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// Joins a server and plays until the room's last round or the end of input.
pub fn run(args: &JoinArgs) -> Result<(), CliError> {
    // Checked here too, so a bad name is a usage error before any connection.
    if let Err(why) = check_name(&args.name) {
        return Err(super::UsageError::Label {
            flag: "--name",
            reason: why.to_string(),
        }
        .into());
    }
    if let Err(why) = check_room(&args.room) {
        return Err(super::UsageError::Label {
            flag: "--room",
            reason: why.to_string(),
        }
        .into());
    }
    let opts = JoinOptions {
        addr: args.addr.clone(),
        name: args.name.clone(),
        room: Some(args.room.clone()),
        password: super::args::secret(
            args.password.as_deref(),
            args.password_file.as_deref(),
            "BOGGLE_PASSWORD",
        )?,
        token: super::args::secret(
            args.token.as_deref(),
            args.token_file.as_deref(),
            "BOGGLE_TOKEN",
        )?,
        rejoin_for: REJOIN_FOR,
        welcome_within: WELCOME_WITHIN,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Io)?;
    let on_terminal = io::stdin().is_terminal() && io::stdout().is_terminal();
    // Network errors name the server; the terminal's own (hung up, a signal)
    // do not, and a closed standard output is no failure.
    let at_server = |e: JoinError| -> CliError {
        match e {
            JoinError::Terminal(e @ (TerminalError::Signalled | TerminalError::HungUp)) => {
                Error::Io(e.into()).into()
            }
            JoinError::Output(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                Error::Output(e).into()
            }
            source => CliError::Join {
                addr: args.addr.clone(),
                source,
            },
        }
    };
    let played = runtime.block_on(async {
        if on_terminal {
            let look = Look {
                colour: use_colour(args.color, std::env::var_os("NO_COLOR")),
            };
            return crate::net::screen::run(&opts, look)
                .await
                .map_err(at_server);
        }
        let input = tokio::io::BufReader::new(tokio::io::stdin());
        let mut out = BufWriter::new(io::stdout().lock());
        // SIGINT, SIGTERM and SIGHUP end it as every mode ends: the shared line, exit 1.
        tokio::select! {
            played = run_lines(&opts, input, &mut out) => played.map_err(at_server),
            () = super::serve::stop_signal() => Err(Error::Stopped.into()),
        }
    });
    // tokio reads standard input on a blocking thread that a still-open pipe
    // keeps waiting: do not wait for it on the way out.
    runtime.shutdown_background();
    played
}
