//! `boggle serve`: the networked game's server command. Resolves the rules,
//! dictionary and board once, installs the metrics exporter (`/metrics`),
//! prints `listening on ADDR:PORT` (and, with `--web`, `web page on
//! http://ADDR:PORT/`), and runs [`boggle_net::Server`] (and
//! [`boggle_net::web`] beside it, into the same rooms) until SIGINT, SIGTERM
//! or SIGHUP, then stops as the server does (rounds under way finish within
//! `--stop-grace`; a second signal ends them at once), or until the web
//! listener fails (then it exits with the reason). The server's log (binds, rooms opened
//! and closed, refusals, fatal client errors) goes to stderr, filtered by
//! `RUST_LOG` (warnings only without it; `RUST_LOG=info` shows every event),
//! through a non-blocking writer: a stderr that cannot be written loses log
//! lines (counted in `/metrics`), never a game.

use super::CliError;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use clap::Args;

use super::UsageError;
use super::join::DEFAULT_PORT;
use crate::play::player::signals::StopSignals;
use boggle_game::error::Error;
use boggle_game::game_board::GameBoard;
use boggle_game::rules::Preset;
use boggle_game::word_find::WordFind;
use boggle_net::web::{Options, Web};
use boggle_net::{Hurry, Limits, RoomConfig, Server, ServerConfig, Store, StoreLimits};
use boggle_protocol::{Duplicates, MAX_PLAYERS};

/// Where `--web` without a value serves the page: loopback, as `--listen`.
pub(crate) const DEFAULT_WEB: &str = "127.0.0.1:8040";

/// The least `--idle`: the page's ping interval (60 s, `connection.js`)
/// and half as much again, for a timer a busy or background tab runs late
/// and a slow network; the terminal clients ping every 30 s
/// (`boggle_client::link::PING_EVERY`).
pub(crate) const MIN_IDLE: u64 = 90;

/// The flags of `boggle serve`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("preset", |arg| super::args::rules_arg(arg, Preset::Classic, &super::args::DICTIONARY_PRESETS)))]
pub(crate) struct ServeArgs {
    /// Address to listen on (0.0.0.0:PORT for every interface)
    #[arg(long, value_name = "ADDR:PORT", default_value_t = format!("127.0.0.1:{DEFAULT_PORT}"))]
    pub(crate) listen: String,
    /// Also serve the game to browsers: the page at http://ADDR:PORT/ and
    /// its WebSocket at /ws, into the same rooms (127.0.0.1:8040 without a value)
    #[arg(long, value_name = "ADDR:PORT", num_args = 0..=1, default_missing_value = DEFAULT_WEB)]
    pub(crate) web: Option<String>,
    /// A host name the page may be asked for besides its address (a
    /// reverse proxy's public name; requests naming any other are refused)
    #[arg(long = "web-host", value_name = "NAME")]
    pub(crate) web_host: Vec<String>,
    /// Take each browser's address from the X-Forwarded-For header a
    /// reverse proxy in front sets, believed only from the --trusted-proxy
    /// addresses (Forwarded is never read)
    #[arg(long = "trust-proxy")]
    pub(crate) trust_proxy: bool,
    /// The reverse proxy's addresses, ADDRESS/BITS, repeatable; implies
    /// --trust-proxy (default with it: 127.0.0.0/8 and ::1/128, a proxy on
    /// this machine). Other peers' forwarded headers are ignored
    #[arg(long = "trusted-proxy", value_name = "CIDR")]
    pub(crate) trusted_proxy: Vec<boggle_net::web::Cidr>,
    /// With --web, keep the day's results (today's board's leaderboard) in
    /// DIR/daily.sqlite (default: $XDG_DATA_HOME/boggle or ~/.local/share/boggle)
    #[arg(long, value_name = "DIR")]
    pub(crate) data: Option<std::path::PathBuf>,
    /// The word list.
    #[command(flatten)]
    pub(crate) dict: super::args::DictArgs,
    /// Play every round on this board (row-major letters; Q is Qu where the rules say so)
    #[arg(long, value_name = "LETTERS")]
    pub(crate) board: Option<String>,
    /// Seed for repeatable boards (every room rolls the same sequence)
    #[arg(long, value_name = "N")]
    pub(crate) seed: Option<u64>,
    /// Seconds a round lasts, 1 to 86400
    #[arg(long, value_name = "SECONDS", default_value_t = 180, value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(1..=super::args::MAX_SECONDS))]
    pub(crate) time: u64,
    /// Rounds each room plays (default: no limit)
    #[arg(long, value_name = "N")]
    pub(crate) rounds: Option<u32>,
    /// Players a room needs before a round starts
    #[arg(long = "min-players", value_name = "N", default_value_t = 2)]
    pub(crate) min_players: usize,
    /// Words found by two or more players: cancel (the board game's rule) or count
    #[arg(long, value_name = "RULE", value_enum, default_value = "cancel")]
    pub(crate) duplicates: Duplicates,
    /// The password every player must give.
    #[command(flatten)]
    pub(crate) password: super::args::PasswordArgs,
    /// Most connections at once
    #[arg(long = "max-connections", value_name = "N", default_value_t = 1000)]
    pub(crate) max_connections: usize,
    /// Most rooms at once
    #[arg(long = "max-rooms", value_name = "N", default_value_t = 200)]
    pub(crate) max_rooms: usize,
    /// Most connections open at once from one address
    #[arg(
        long = "max-address-connections",
        value_name = "N",
        default_value_t = 50
    )]
    pub(crate) max_address_connections: usize,
    /// Most open rooms made from one address
    #[arg(long = "max-address-rooms", value_name = "N", default_value_t = 10)]
    pub(crate) max_address_rooms: usize,
    /// Most players in one room, 1 to 1000
    #[arg(long = "max-players", value_name = "N", default_value_t = 50, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_PLAYERS as u64))]
    pub(crate) max_players: usize,
    /// Seconds a joined player may send nothing before the server drops
    /// them, 90 to 86400 (the page pings every 60 s, `boggle join` and the
    /// full screen every 30 s)
    #[arg(long, value_name = "SECONDS", default_value_t = 300, value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(1..=super::args::MAX_SECONDS))]
    pub(crate) idle: u64,
    /// On SIGTERM, seconds the rounds under way may go on before they end
    /// early (their results are given and stored either way), 0 to 3600;
    /// a second SIGTERM ends them at once
    #[arg(long = "stop-grace", value_name = "SECONDS", default_value_t = 60, value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(0..=3600))]
    pub(crate) stop_grace: u64,
    /// New connections a second from one address (bursts of 4 times as many)
    #[arg(long = "address-rate", value_name = "N", default_value_t = 10, value_parser = clap::builder::RangedU64ValueParser::<u32>::new().range(1..=100_000))]
    pub(crate) address_rate: u32,
    /// The rules to play by.
    #[command(flatten)]
    pub(crate) rules: super::args::RulesArgs,
}

/// The server's settings from the flags, with the dictionary loaded and the board checked.
/// The proxies whose `X-Forwarded-For` is believed: those named, else
/// loopback under `--trust-proxy`, else none.
fn trusted_proxies(args: &ServeArgs) -> Vec<boggle_net::web::Cidr> {
    if !args.trusted_proxy.is_empty() {
        args.trusted_proxy.clone()
    } else if args.trust_proxy {
        boggle_net::web::Cidr::loopback()
    } else {
        Vec::new()
    }
}

pub(crate) fn config(args: &ServeArgs) -> Result<ServerConfig, CliError> {
    let rules = args
        .rules
        .resolve_with_dictionary(Preset::Classic, "serve")?;
    let caps = [
        args.min_players,
        args.max_players,
        args.max_rooms,
        args.max_connections,
        args.max_address_connections,
        args.max_address_rooms,
    ];
    if caps.contains(&0) {
        return Err(UsageError::TooSmall {
            flags: "--min-players, --max-players, --max-rooms, --max-connections, \
                    --max-address-connections and --max-address-rooms",
            least: "1",
        }
        .into());
    }
    if args.idle < MIN_IDLE {
        return Err(UsageError::TooSmall {
            flags: "--idle",
            least: "90 seconds: the page pings every 60 s and `boggle join` every 30 s, \
                    and a player who only waits would be dropped",
        }
        .into());
    }
    if args.min_players > args.max_players {
        return Err(UsageError::MinAboveMax {
            min: "--min-players",
            max: "--max-players",
        }
        .into());
    }
    if args.rounds == Some(0) {
        return Err(UsageError::TooSmall {
            flags: "--rounds",
            least: "1",
        }
        .into());
    }
    let board = match &args.board {
        Some(letters) => Some(
            GameBoard::from_letters(letters, rules.rows, rules.cols, rules.q).map_err(
                |source| UsageError::Board {
                    rows: rules.rows,
                    cols: rules.cols,
                    source,
                },
            )?,
        ),
        None => None,
    };
    let dictionary = args.dict.load(&rules)?;
    let word_find = WordFind::with_rules(Arc::new(dictionary), rules);
    Ok(ServerConfig {
        room: Arc::new(RoomConfig {
            word_find: Arc::new(word_find),
            board,
            time: Duration::from_secs(args.time),
            rounds: args.rounds,
            min_players: args.min_players,
            duplicates: args.duplicates,
            max_players: args.max_players,
            computer: None,
            daily: None,
        }),
        password: args.password.read()?,
        seed: args.seed,
        store: store(args)?,
        limits: Limits {
            max_connections: args.max_connections,
            max_rooms: args.max_rooms,
            connections_per_address: args.max_address_connections,
            rooms_per_address: args.max_address_rooms,
            connects_per_sec: f64::from(args.address_rate),
            idle_timeout: Duration::from_secs(args.idle),
            stop_grace: Duration::from_secs(args.stop_grace),
            ..Limits::default()
        },
    })
}

/// The day's results when the page is served, in `--data`, else the
/// program's data directory (where the terminal game keeps its records).
fn store(args: &ServeArgs) -> Result<Option<Store>, CliError> {
    if args.web.is_none() {
        return Ok(None);
    }
    let dir = match &args.data {
        Some(dir) => dir.clone(),
        // The program's data folder, records.tsv's: $XDG_DATA_HOME/boggle or ~/.local/share/boggle.
        None => crate::play::xdg::data_dir_here().ok_or(CliError::NoDataDir)?,
    };
    let today = boggle_game::daily::Daily::today().map_or(0, |day| day.number);
    let store = Store::open_dir(&dir, today, StoreLimits::default()).map_err(CliError::Results)?;
    Ok(Some(store))
}

/// Sends the server's log to stderr, filtered by `RUST_LOG` (warnings
/// without it), through tracing-appender's non-blocking writer: a thread of
/// its own writes the lines, so a stderr that blocks, is closed (a log
/// shipper that died) or full (`/dev/full`, a full disk) costs log lines
/// only, never a room's task or the store's thread. Lines lost (dropped
/// when its queue is full, or failed to write) are counted in `/metrics`;
/// the subscriber's own reports of write errors, which would panic on a
/// broken stderr, are off. Keep the guard until the end: dropping it
/// writes what is queued.
fn log_to_stderr() -> tracing_appender::non_blocking::WorkerGuard {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let failed = Arc::new(AtomicU64::new(0));
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .lossy(true)
        .thread_name("boggle-log")
        .finish(Stderr(Arc::clone(&failed)));
    let dropped = writer.error_counter();
    boggle_net::monitor::count_lost_log_lines(move || {
        failed.load(Ordering::Relaxed) + dropped.dropped_lines() as u64
    });
    // Only fails if a subscriber is set already (a second run in one process).
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(false)
        .log_internal_errors(false)
        .try_init();
    guard
}

/// Stderr for the log's writer thread: a line it cannot write is counted
/// as lost, never an error (the writer would only drop it too).
struct Stderr(Arc<AtomicU64>);

impl Write for Stderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.write_all(buf).map(|()| buf.len())
    }

    fn write_all(&mut self, line: &[u8]) -> std::io::Result<()> {
        if std::io::stderr().lock().write_all(line).is_err() {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let _ = std::io::stderr().flush();
        Ok(())
    }
}

/// Runs the server until SIGINT, SIGTERM or SIGHUP, or the web listener fails.
pub(crate) fn run(args: &ServeArgs) -> Result<(), CliError> {
    // First: opening the results file may already have something to say,
    // and count it.
    let _log = log_to_stderr();
    let monitor = boggle_net::monitor::install();
    let config = config(args)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(CliError::Runtime)?;
    runtime.block_on(async {
        let server =
            Server::bind(&args.listen, config)
                .await
                .map_err(|source| CliError::Listen {
                    addr: args.listen.clone(),
                    source,
                })?;
        let addr = server.local_addr().map_err(CliError::Server)?;
        let web = match &args.web {
            Some(web_addr) => {
                let options = Options {
                    hosts: args.web_host.clone(),
                    trusted_proxies: trusted_proxies(args),
                    monitor: Some(monitor.clone()),
                    places: None,
                };
                let web = Web::bind_with(web_addr, server.entrance(), options);
                Some(web.await.map_err(|source| CliError::ListenWeb {
                    addr: web_addr.clone(),
                    source,
                })?)
            }
            None => None,
        };
        let signals = StopSignals::register();
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on {addr}").map_err(Error::Output)?;
        tracing::info!(%addr, "listening");
        if let Some(web) = &web {
            let web_addr = web.local_addr().map_err(CliError::Server)?;
            writeln!(out, "web page on http://{web_addr}/").map_err(Error::Output)?;
            tracing::info!(addr = %web_addr, "web page served");
        }
        out.flush().map_err(Error::Output)?;
        drop(out);
        let stop = stopping(signals, server.hurry());
        match web {
            Some(web) => server.run_beside(web.run(), stop).await,
            None => server.run(stop).await,
        }
        .map_err(CliError::Serving)
    })?;
    Ok(())
}

/// Completes on the first stop signal, when the server starts its stop
/// (rounds under way finish within `--stop-grace`); a second signal then
/// ends those rounds at once.
async fn stopping(mut signals: StopSignals, hurry: Hurry) {
    signals.recv().await;
    // Said whatever RUST_LOG filters; a closed stderr is no reason to stop otherwise.
    let _ = writeln!(
        std::io::stderr().lock(),
        "stopping: no new games; rounds under way finish (a second signal ends them now)"
    );
    tokio::spawn(async move {
        signals.recv().await;
        hurry.now();
    });
}
