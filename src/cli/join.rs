//! `boggle join`: the networked game's client command: on a terminal the
//! full-screen client ([`crate::net::screen`]); otherwise the line mode of
//! [`boggle_client::join`]: words from standard input, verdicts and results
//! on standard output. Both rejoin after a dropped connection for
//! [`REJOIN_FOR`].

use super::CliError;
use std::io::{self, BufWriter, IsTerminal};

use clap::Args;

use super::tui::{ColorChoice, use_colour};
use crate::net::screen::{Ended, Left};
use crate::play::player::signals::StopSignals;
use crate::tui::ui::Look;
use boggle_client::join::{JoinError, run_lines};
use boggle_client::link::{JoinOptions, REJOIN_FOR, WELCOME_WITHIN};
use boggle_client::seat::{SeatError, SeatFile};
use boggle_game::error::Error;
use boggle_protocol::ErrorCode;
use boggle_protocol::names::{check_name, check_room};

/// The port `boggle serve` listens on and `boggle join HOST` connects to
/// when none is given.
pub(crate) const DEFAULT_PORT: u16 = 4040;

/// The flags of `boggle join`.
#[derive(Debug, Args, Clone)]
pub(crate) struct JoinArgs {
    /// The server, HOST or HOST:PORT (the port `boggle serve` listens on by default when not given)
    #[arg(value_name = "HOST[:PORT]")]
    pub(crate) addr: String,
    /// Your name in the room (at most 20 printable characters)
    #[arg(long, value_name = "NAME")]
    pub(crate) name: String,
    /// The room to join
    #[arg(long, value_name = "NAME", default_value = "main")]
    pub(crate) room: String,
    /// The server's password.
    #[command(flatten)]
    pub(crate) password: super::args::PasswordArgs,
    /// The token printed when you last joined, to take your seat (and words)
    /// back from another machine (or --token-file, or BOGGLE_TOKEN); on this
    /// one the token is kept for the next run
    /// (under $XDG_STATE_HOME/boggle/seats, readable by you only)
    #[arg(long, value_name = "TOKEN")]
    pub(crate) token: Option<String>,
    /// Read the token from the first line of this file
    #[arg(long = "token-file", value_name = "PATH", conflicts_with = "token")]
    pub(crate) token_file: Option<std::path::PathBuf>,
    /// Colour on the full screen: auto (honours NO_COLOR), always, never
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = ColorChoice::Auto)]
    pub(crate) color: ColorChoice,
}

/// Joins a server and plays until the room's last round or the end of input.
pub(crate) fn run(args: &JoinArgs) -> Result<(), CliError> {
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
    let addr = with_default_port(&args.addr);
    // One seat, one client: the seat's lock is held while this runs, and a
    // second `boggle join` of the same seat is told at once.
    let (seat, _lock) = match SeatFile::for_seat(&addr, &args.room, &args.name) {
        Some(seat) => match seat.lock() {
            Ok(lock) => (Some(seat), Some(lock)),
            Err(e @ SeatError::InUse { .. }) => {
                return Err(at_server(JoinError::SeatInUse(e).into(), &addr));
            }
            Err(e) => (unusable(&e), None),
        },
        None => (None, None),
    };
    let mut opts = JoinOptions {
        addr: addr.clone(),
        name: args.name.clone(),
        room: Some(args.room.clone()),
        password: args.password.read()?,
        token: super::args::secret(
            args.token.as_deref(),
            args.token_file.as_deref(),
            "--token-file",
            "BOGGLE_TOKEN",
        )?,
        rejoin_for: REJOIN_FOR,
        welcome_within: WELCOME_WITHIN,
        seat,
    };
    // No token given: the one kept by the last run here, if it was killed.
    let kept = opts.token.is_none();
    if kept && let Some(seat) = &opts.seat {
        match seat.load() {
            Ok(token) => opts.token = token,
            // Refused (a FIFO, a link, too large): not read, and not written over.
            Err(e) => opts.seat = unusable(&e),
        }
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(CliError::Runtime)?;
    let mut played = runtime.block_on(play(&opts, args.color));
    let stale = |played: &Option<Result<Left, Ended>>| {
        matches!(
            played,
            Some(Err(Ended::Join(JoinError::Refused {
                code: ErrorCode::BadToken,
                ..
            })))
        )
    };
    if kept && opts.token.is_some() && stale(&played) {
        // The kept token's seat is gone (the server restarted, or held it
        // long enough): join afresh under the same name.
        opts.token = None;
        forget(opts.seat.as_ref());
        played = runtime.block_on(play(&opts, args.color));
    }
    // Left on purpose between rounds (or the room is over): nothing to take
    // back next time. Left during a round, the seat file takes it back.
    if matches!(played, Some(Ok(Left::ForGood))) {
        forget(opts.seat.as_ref());
    }
    let played = match played {
        Some(played) => played.map(|_| ()).map_err(|e| at_server(e, &addr)),
        None => Err(Error::Stopped.into()),
    };
    // tokio reads standard input on a blocking thread that a still-open pipe
    // keeps waiting: do not wait for it on the way out.
    runtime.shutdown_background();
    played
}

/// Plays once: full-screen on a terminal, else in line mode; `None` when
/// a signal stopped the line mode (the full screen says so itself).
async fn play(opts: &JoinOptions, color: ColorChoice) -> Option<Result<Left, Ended>> {
    if io::stdin().is_terminal() && io::stdout().is_terminal() {
        let look = Look {
            colour: use_colour(color, std::env::var_os("NO_COLOR")),
        };
        return Some(crate::net::screen::run(opts, look).await);
    }
    let input = tokio::io::BufReader::new(tokio::io::stdin());
    let mut out = BufWriter::new(io::stdout().lock());
    // SIGINT, SIGTERM and SIGHUP end it as every mode ends: the shared line, exit 1.
    let mut signals = StopSignals::register();
    tokio::select! {
        played = run_lines(opts, input, &mut out) => {
            Some(played.map(|()| Left::ForGood).map_err(Ended::Join))
        }
        () = signals.recv() => None,
    }
}

/// Says in one line that the seat's file cannot be used and why; the game
/// goes on without keeping the seat (`None`).
fn unusable(e: &SeatError) -> Option<SeatFile> {
    super::report(&format!(
        "{}; the seat is not kept for the next run",
        super::chain(e)
    ));
    None
}

/// Removes the kept token; a file that cannot be removed is said, not fatal.
fn forget(seat: Option<&SeatFile>) {
    if let Some(seat) = seat
        && let Err(e) = seat.forget()
    {
        super::report(&format!(
            "cannot remove the seat's token {}: {e}",
            seat.path().display()
        ));
    }
}

/// `HOST:PORT` as given, or `HOST` with the server's default port.
fn with_default_port(addr: &str) -> String {
    let has_port = match addr.rsplit_once(':') {
        // `[::1]:4040`, or `host:4040`; a bare IPv6 address has colons but no port.
        Some((host, port)) => {
            port.parse::<u16>().is_ok() && (!host.contains(':') || host.ends_with(']'))
        }
        None => false,
    };
    if has_port {
        addr.to_string()
    } else if addr.contains(':') && !addr.starts_with('[') {
        format!("[{addr}]:{DEFAULT_PORT}")
    } else {
        format!("{addr}:{DEFAULT_PORT}")
    }
}

/// Network errors name the server; the terminal's own (hung up, a signal,
/// drawing failed) do not, and a closed standard output is no failure.
fn at_server(e: Ended, addr: &str) -> CliError {
    match e {
        Ended::Terminal(e) => CliError::Terminal(e),
        Ended::Join(JoinError::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            Error::Output(e).into()
        }
        Ended::Join(source) => CliError::Join {
            addr: addr.to_string(),
            source,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server named without its port is at the default port.
    #[test]
    fn a_server_without_a_port_is_at_the_default_port() {
        let port = DEFAULT_PORT;
        assert_eq!(
            with_default_port("example.org"),
            format!("example.org:{port}")
        );
        assert_eq!(with_default_port("10.0.0.2:5000"), "10.0.0.2:5000");
        assert_eq!(with_default_port("::1"), format!("[::1]:{port}"));
        assert_eq!(with_default_port("[::1]:5000"), "[::1]:5000");
        assert_eq!(with_default_port("[::1]"), format!("[::1]:{port}"));
        // The port `boggle serve` listens on unless told.
        use clap::Parser;
        let cli = crate::cli::Cli::try_parse_from(["boggle", "serve"]).expect("valid");
        let Some(crate::cli::Command::Serve(serve)) = cli.command else {
            panic!("serve parses as the serve command");
        };
        assert!(
            serve.listen.ends_with(&format!(":{port}")),
            "{}",
            serve.listen
        );
    }
}
