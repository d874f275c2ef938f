//! The web side's health check and metrics while the results store cannot
//! write: a file another connection holds past the store's bound.

use super::*;

/// While the results store cannot write (another connection holds the
/// file past the store's bound), `/healthz` is 503 with the reason and
/// `/metrics` shows the store up and the oldest row's wait; once the file
/// is free, 200 again.
#[tokio::test]
#[expect(
    clippy::disallowed_methods,
    reason = "a poll: a pause between looks, in a loop bounded by a deadline"
)]
async fn health_is_503_with_the_reason_while_the_store_cannot_write() {
    use crate::store::{Store, StoreLimits};
    let dir = tempfile::tempdir().expect("temp dir");
    let limits = StoreLimits {
        stale: Duration::from_millis(100),
        ..StoreLimits::default()
    };
    let store = Store::open_dir(dir.path(), 12, limits).expect("opens");
    let mut kept = config(None, Limits::default());
    kept.store = Some(store.clone());
    let options = Options {
        monitor: Some(crate::monitor::install()),
        ..Options::default()
    };
    let (_, addr, _stop, _) = start_with(kept, options).await;
    let health = get(addr, "/healthz").await;
    assert_eq!((health.status, health.body.as_str()), (200, "serving\n"));
    let lock = rusqlite::Connection::open(dir.path().join("daily.sqlite")).expect("opens");
    lock.execute_batch("BEGIN EXCLUSIVE").expect("locks");
    let ip = std::net::IpAddr::from([127, 0, 0, 1]);
    store.begin(12, Some(&"a".repeat(32)), "ann", ip, String::new());
    let give_up = std::time::Instant::now() + Duration::from_secs(20);
    let health = loop {
        let health = get(addr, "/healthz").await;
        if health.status != 200 || std::time::Instant::now() > give_up {
            break health;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(health.status, 503);
    assert!(
        health
            .body
            .starts_with("the results store cannot write: a result has waited "),
        "{}",
        health.body
    );
    let metrics = get(addr, "/metrics").await.body;
    assert!(metrics.contains("\nboggle_store_up 1\n"), "{metrics}");
    let waited: f64 = metrics
        .lines()
        .find_map(|l| l.strip_prefix("boggle_store_oldest_wait_seconds "))
        .and_then(|v| v.parse().ok())
        .expect("the oldest row's wait");
    assert!(waited > 0.1, "{waited}");
    lock.execute_batch("ROLLBACK").expect("unlocks");
    loop {
        let health = get(addr, "/healthz").await;
        if health.status == 200 {
            assert_eq!(health.body, "serving\n");
            break;
        }
        assert!(std::time::Instant::now() < give_up, "{}", health.body);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
