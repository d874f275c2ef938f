//! The hosting files, checked against the real tools and the real binary:
//! `deploy/boggle.service` is hardened as docs/HOSTING.md says, clean under
//! `systemd-analyze verify` (with its program pointed at the binary built),
//! and its command line starts a server that answers `/healthz` for its
//! public name through the proxy's headers, then stops on SIGTERM with exit
//! 0; `deploy/Caddyfile` fronts that name and address, and `caddy validate`
//! takes it. Without systemd-analyze or caddy those checks skip with a
//! reason, unless `CI=true`, where they fail.

use std::io::{BufRead, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::{self, cannot_run, exit_code};

const UNIT: &str = "deploy/boggle.service";
const CADDYFILE: &str = "deploy/Caddyfile";

fn read(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The unit's `ExecStart` as words, its continued lines joined.
fn exec_start(unit: &str) -> Vec<String> {
    let joined = unit.replace("\\\n", " ");
    let line = joined
        .lines()
        .find_map(|line| line.strip_prefix("ExecStart="))
        .expect("an ExecStart line");
    line.split_whitespace().map(str::to_string).collect()
}

/// The value after `flag` in `words`.
fn flag<'a>(words: &'a [String], flag: &str) -> &'a str {
    let at = words
        .iter()
        .position(|w| w == flag)
        .unwrap_or_else(|| panic!("{flag} in {words:?}"));
    &words[at + 1]
}

/// A `Key=value` setting of the unit.
fn setting<'a>(unit: &'a str, key: &str) -> Option<&'a str> {
    unit.lines()
        .find_map(|line| line.strip_prefix(key)?.strip_prefix('='))
}

#[test]
fn the_unit_is_hardened_and_systemd_takes_it() {
    let unit = read(UNIT);
    for (key, value) in [
        ("DynamicUser", "yes"),
        ("StateDirectory", "boggle"),
        ("ProtectSystem", "strict"),
        ("NoNewPrivileges", "yes"),
        ("ProtectHome", "yes"),
        ("PrivateTmp", "yes"),
        ("CapabilityBoundingSet", ""),
        ("KillSignal", "SIGTERM"),
    ] {
        assert_eq!(setting(&unit, key), Some(value), "{key}");
    }
    let words = exec_start(&unit);
    assert_eq!(words[..2], ["/usr/local/bin/boggle", "serve"]);
    assert_eq!(
        flag(&words, "--data"),
        "/var/lib/boggle",
        "the StateDirectory"
    );
    assert!(words.iter().any(|w| w == "--trust-proxy"));
    // The stop's grace, the goodbyes (5 s) and the store's last writes
    // (10 s) fit in the time systemd gives before it kills.
    let grace: u64 = flag(&words, "--stop-grace").parse().expect("seconds");
    let timeout: u64 = setting(&unit, "TimeoutStopSec")
        .and_then(|t| t.parse().ok())
        .expect("TimeoutStopSec in seconds");
    assert!(
        timeout > grace + 15,
        "TimeoutStopSec={timeout}, --stop-grace {grace}"
    );

    if !common::found("systemd-analyze") {
        return cannot_run("no systemd-analyze (apt-get install systemd)");
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let copy = dir.path().join("boggle.service");
    let here = unit.replace("/usr/local/bin/boggle", common::BOGGLE);
    std::fs::write(&copy, here).expect("written");
    let verify = Command::new("systemd-analyze")
        .arg("verify")
        .arg(&copy)
        .output()
        .expect("systemd-analyze runs");
    let said = String::from_utf8_lossy(&verify.stderr);
    assert!(verify.status.success() && said.trim().is_empty(), "{said}");
}

/// The unit's own command line (on free ports, its data in a temporary
/// folder) serves `/healthz` to its public name as Caddy forwards it, and
/// stops on SIGTERM with exit 0.
#[cfg(unix)]
#[test]
fn the_units_command_line_serves_its_name_and_stops_on_sigterm() {
    let words = exec_start(&read(UNIT));
    let host = flag(&words, "--web-host").to_string();
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().to_str().expect("a UTF-8 path");
    let args: Vec<&str> = words[1..]
        .iter()
        .map(|w| match w.as_str() {
            "127.0.0.1:4040" | "127.0.0.1:8040" => "127.0.0.1:0",
            "/var/lib/boggle" => data,
            other => other,
        })
        .collect();
    let mut server = common::Killed(
        common::boggle(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts"),
    );
    let mut out = std::io::BufReader::new(server.stdout.take().expect("stdout"));
    let web = loop {
        let mut line = String::new();
        assert!(
            out.read_line(&mut line).expect("reads") > 0,
            "no web address"
        );
        if let Some(rest) = line.strip_prefix("web page on http://") {
            break rest.trim().trim_end_matches('/').to_string();
        }
    };
    let mut stream = std::net::TcpStream::connect(&web).expect("connects");
    write!(
        stream,
        "GET /healthz HTTP/1.1\r\nHost: {host}\r\nX-Forwarded-For: 203.0.113.7\r\nConnection: close\r\n\r\n"
    )
    .expect("sent");
    let mut reply = String::new();
    stream.read_to_string(&mut reply).expect("a reply");
    assert!(reply.starts_with("HTTP/1.1 200 "), "{reply}");
    assert!(reply.ends_with("\r\n\r\nserving\n"), "{reply}");
    common::signal(server.id(), "TERM");
    assert_eq!(exit_code(&mut server, "boggle serve"), Some(0));
}

#[test]
fn the_caddyfile_fronts_the_units_name_and_address() {
    let words = exec_start(&read(UNIT));
    let caddyfile = read(CADDYFILE);
    let site = format!("\n{} {{\n", flag(&words, "--web-host"));
    assert!(
        caddyfile.contains(&site),
        "the site is the unit's --web-host"
    );
    let proxy = format!("reverse_proxy {} {{", flag(&words, "--web"));
    assert!(
        caddyfile.contains(&proxy),
        "the proxy goes to the unit's --web"
    );
    if !common::found("caddy") {
        return cannot_run("no caddy (apt-get install caddy)");
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(CADDYFILE);
    let validate = Command::new("caddy")
        .args(["validate", "--adapter", "caddyfile", "--config"])
        .arg(&path)
        .output()
        .expect("caddy runs");
    common::assert_clean(&validate, "caddy validate");
}
