//! `boggle join`: the networked game's client command: on a terminal the
//! full-screen client ([`crate::net::screen`]); otherwise the line mode of
//! [`crate::net::client`]: words from standard input, verdicts and results
//! on standard output.

use std::io::{self, BufWriter, IsTerminal};

use clap::Args;

use crate::error::Error;
use crate::net::client::{JoinOptions, run_lines};
use crate::net::protocol::{check_name, check_room};

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
    /// The server's password
    #[arg(long, value_name = "TEXT")]
    pub password: Option<String>,
    /// The token printed when you last joined, to take your seat (and words) back
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,
}

/// A usage error with its own explanation.
fn usage(message: String) -> Error {
    Error::Usage(super::UsageError::Explained(message))
}

/// Joins a server and plays until the room's last round or the end of input.
pub fn run(args: &JoinArgs) -> Result<(), Error> {
    // Checked here too, so a bad name is a usage error before any connection.
    if let Some(why) = check_name(&args.name) {
        return Err(usage(format!("--name: {why}")));
    }
    if let Some(why) = check_room(&args.room) {
        return Err(usage(format!("--room: {why}")));
    }
    let opts = JoinOptions {
        addr: args.addr.clone(),
        name: args.name.clone(),
        room: Some(args.room.clone()),
        password: args.password.clone(),
        token: args.token.clone(),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Io)?;
    let on_terminal = io::stdin().is_terminal() && io::stdout().is_terminal();
    runtime.block_on(async {
        if on_terminal {
            return crate::net::screen::run(&opts)
                .await
                .map_err(|e| Error::Io(io::Error::new(e.kind(), format!("{}: {e}", args.addr))));
        }
        let input = tokio::io::BufReader::new(tokio::io::stdin());
        let mut out = BufWriter::new(io::stdout().lock());
        run_lines(&opts, input, &mut out).await.map_err(|e| {
            if e.kind() == io::ErrorKind::BrokenPipe {
                Error::Output(e)
            } else {
                Error::Io(io::Error::new(e.kind(), format!("{}: {e}", args.addr)))
            }
        })
    })
}
