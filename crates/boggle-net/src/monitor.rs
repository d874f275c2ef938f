//! What the person hosting the server watches: the metrics every part of
//! the server records through the `metrics` facade, exported in the
//! Prometheus text format (`GET /metrics` on the web side).
//!
//! How it works: [`install`] sets `metrics-exporter-prometheus`'s recorder
//! as the process's one global recorder (once; a second call gets the same
//! [`Monitor`]), with real buckets for the histograms (verdict latency, the store's writes:
//! 100 µs to 10 s), describes every metric the server records
//! (`NAMES`) and registers each at zero, so a scrape shows every series
//! before anything happened, the results store's too. Histogram samples
//! are gathered into their buckets by `Monitor::upkeep`, which the web
//! side runs every few seconds (without it they would pile up between
//! scrapes).
//!
//! Limits: one recorder per process, so servers in one process (tests)
//! share their metrics; the gauges each server sets (rooms, players) are
//! then the last one's.

use std::sync::OnceLock;

use metrics::Unit;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// Every histogram's buckets (all are of seconds): 100 µs to 10 s, fine
/// below 10 ms where verdicts should be.
pub(crate) const BUCKETS: [f64; 15] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    10.0,
];

/// What a metric is.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    /// Only goes up.
    Counter,
    /// Goes up and down.
    Gauge,
    /// A distribution of values.
    Histogram,
}

/// One metric the server records.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Metric {
    /// Its name in the Prometheus text.
    pub name: &'static str,
    /// What it is.
    pub kind: Kind,
    /// What it counts (the text's `# HELP`).
    pub help: &'static str,
    /// The label its series are told apart by, if any (such a metric is
    /// shown once a series of it is recorded).
    pub label: Option<&'static str>,
}

const fn metric(name: &'static str, kind: Kind, help: &'static str) -> Metric {
    Metric {
        name,
        kind,
        help,
        label: None,
    }
}

const fn labelled(
    name: &'static str,
    kind: Kind,
    label: &'static str,
    help: &'static str,
) -> Metric {
    Metric {
        name,
        kind,
        help,
        label: Some(label),
    }
}

/// Every metric the server records. The results store's are here too, so
/// they show before its first write.
pub(crate) const NAMES: [Metric; 20] = [
    metric(
        "boggle_connections",
        Kind::Gauge,
        "Players' connections open (TCP and WebSocket)",
    ),
    metric(
        "boggle_http_connections",
        Kind::Gauge,
        "Web connections holding a place: their request not yet answered or upgraded",
    ),
    metric("boggle_rooms", Kind::Gauge, "Rooms open"),
    metric("boggle_players", Kind::Gauge, "Players connected in rooms"),
    metric("boggle_rounds_playing", Kind::Gauge, "Rounds under way"),
    metric("boggle_rounds_total", Kind::Counter, "Rounds started"),
    metric(
        "boggle_verdict_seconds",
        Kind::Histogram,
        "Time from a word read to its verdict queued for the player",
    ),
    labelled(
        "boggle_refusals_total",
        Kind::Counter,
        "reason",
        "Refusals by reason: the error code sent, or the web side's http_*",
    ),
    labelled(
        "boggle_daily_attempts_total",
        Kind::Counter,
        "status",
        "Daily games opened, by what they were for the seat: scored, played (practice), capped, unkept",
    ),
    metric(
        "boggle_store_queue",
        Kind::Gauge,
        "Results and leaderboard reads waiting for the store's worker",
    ),
    metric(
        "boggle_store_writes_total",
        Kind::Counter,
        "Results written to the store",
    ),
    labelled(
        "boggle_store_failures_total",
        Kind::Counter,
        "reason",
        "Results the store gave up on (logged with their content), by reason",
    ),
    metric(
        "boggle_store_retries_total",
        Kind::Counter,
        "Writes of the store tried again (a locked file)",
    ),
    metric(
        "boggle_store_malformed_rows_total",
        Kind::Counter,
        "Rows of the results file skipped as malformed",
    ),
    metric(
        "boggle_store_up",
        Kind::Gauge,
        "1 while the store's worker runs (it writes the results file), else 0",
    ),
    metric(
        "boggle_store_oldest_wait_seconds",
        Kind::Gauge,
        "How long the oldest result not yet committed to the file has waited (0: none waits)",
    ),
    metric(
        "boggle_store_restarts_total",
        Kind::Counter,
        "Times the store's worker was started again after a panic",
    ),
    metric(
        "boggle_log_lines_lost_total",
        Kind::Counter,
        "Log lines lost: stderr could not be written (a closed pipe, a full disk) or was too slow",
    ),
    metric(
        "boggle_store_write_seconds",
        Kind::Histogram,
        "Time to write a batch of results, retries included",
    ),
    metric(
        "boggle_stopping",
        Kind::Gauge,
        "1 while the server stops (rounds under way finishing), else 0",
    ),
];

/// The installed exporter: renders what was recorded.
#[derive(Clone, Debug)]
pub struct Monitor {
    handle: PrometheusHandle,
}

static INSTALLED: OnceLock<Monitor> = OnceLock::new();

/// What counts the log lines lost, set by whoever writes the log.
type LostLines = Box<dyn Fn() -> u64 + Send + Sync>;

static LOG_LOST: OnceLock<LostLines> = OnceLock::new();

/// Tells the monitor how many log lines the process has lost so far (the
/// binary's log writer knows; this crate only logs through `tracing`):
/// each render sets `boggle_log_lines_lost_total` to it. The first call wins.
pub fn count_lost_log_lines(lost: impl Fn() -> u64 + Send + Sync + 'static) {
    let _ = LOG_LOST.set(Box::new(lost));
}

/// Installs the Prometheus exporter as the process's metrics recorder
/// (once), describes every metric the server records and registers it at zero.
pub fn install() -> Monitor {
    INSTALLED
        .get_or_init(|| {
            let builder = PrometheusBuilder::new();
            // The name is fixed and the buckets are not empty: this cannot fail.
            let builder = builder
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &BUCKETS)
                .unwrap_or_else(|_| PrometheusBuilder::new());
            let recorder = builder.build_recorder();
            let handle = recorder.handle();
            if metrics::set_global_recorder(recorder).is_err() {
                tracing::warn!(
                    "another metrics recorder was installed first: /metrics shows nothing"
                );
            }
            register();
            Monitor { handle }
        })
        .clone()
}

/// Describes each metric and registers it at zero (those with a label
/// show once a series of theirs is recorded).
fn register() {
    for Metric {
        name,
        kind,
        help,
        label,
    } in NAMES
    {
        match kind {
            Kind::Counter => {
                metrics::describe_counter!(name, help);
                if label.is_none() {
                    metrics::counter!(name).increment(0);
                }
            }
            Kind::Gauge => {
                metrics::describe_gauge!(name, help);
                metrics::gauge!(name).increment(0.0);
            }
            Kind::Histogram => {
                metrics::describe_histogram!(name, Unit::Seconds, help);
                // Registered: shown with empty buckets until the first value.
                let _ = metrics::histogram!(name);
            }
        }
    }
}

impl Monitor {
    /// The metrics in the Prometheus text format.
    pub(crate) fn render(&self) -> String {
        if let Some(lost) = LOG_LOST.get() {
            metrics::counter!("boggle_log_lines_lost_total").absolute(lost());
        }
        self.handle.render()
    }

    /// Gathers the histograms' samples into their buckets (every few seconds).
    pub(crate) fn upkeep(&self) {
        self.handle.run_upkeep();
    }
}

/// The handles of the metrics the server records on every message or
/// connection, looked up once (their names and help are above).
pub(crate) struct Handles {
    /// Connections open.
    pub(crate) connections: metrics::Gauge,
    /// Rooms open.
    pub(crate) rooms: metrics::Gauge,
    /// Players seated.
    pub(crate) players: metrics::Gauge,
    /// Rounds being played.
    pub(crate) rounds_playing: metrics::Gauge,
    /// Time from a word's arrival to its verdict.
    pub(crate) verdicts: metrics::Histogram,
}

impl Handles {
    /// Looks the handles up in the installed recorder (no-ops without one).
    pub(crate) fn new() -> Handles {
        Handles {
            connections: metrics::gauge!("boggle_connections"),
            rooms: metrics::gauge!("boggle_rooms"),
            players: metrics::gauge!("boggle_players"),
            rounds_playing: metrics::gauge!("boggle_rounds_playing"),
            verdicts: metrics::histogram!("boggle_verdict_seconds"),
        }
    }
}
