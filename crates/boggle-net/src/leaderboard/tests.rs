//! The results file: rows kept across a reopen, a seat's first result, the
//! top read through its index, malformed rows skipped, files refused.

use super::*;

fn attempt(day: u32, seat: &str, name: &str, points: Option<u32>) -> Attempt {
    Attempt {
        day,
        seat: seat.repeat(32),
        name: name.into(),
        address: "127.0.0.1".into(),
        result: points.map(|points| DayScore {
            points,
            words: 3,
            longest: 5,
        }),
    }
}

/// The file's schema version and application id, as SQLite keeps them.
fn marks(file: &ResultsFile) -> (i64, i64) {
    file.conn()
        .query_row(
            "SELECT * FROM pragma_user_version, pragma_application_id",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
}

fn names(top: &Top) -> Vec<(String, u32)> {
    top.rows
        .iter()
        .map(|r| (r.name.clone(), r.points))
        .collect()
}

#[test]
fn a_reopened_file_keeps_its_rows_and_a_seats_first_result_stays() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("restart");
    let mut file = ResultsFile::open_dir(&dir).unwrap();
    file.put(&[attempt(7, "a", "ann", None)]).unwrap();
    file.put(&[attempt(7, "a", "ann", Some(10))]).unwrap();
    // A second result for the seat does not replace its first.
    file.put(&[attempt(7, "a", "ann", Some(99))]).unwrap();
    file.put(&[
        attempt(7, "b", "bob", Some(12)),
        attempt(8, "a", "ann", Some(1)),
    ])
    .unwrap();
    drop(file);
    let file = ResultsFile::open_dir(&dir).unwrap();
    assert_eq!(
        names(&file.top(7).unwrap()),
        [("bob".into(), 12), ("ann".into(), 10)]
    );
    let day = file.day(7).unwrap();
    assert_eq!(day.attempts.len(), 2);
    assert_eq!(day.malformed, 0);
}

#[test]
fn the_top_is_ten_long_and_read_through_the_index_without_sorting_the_day() {
    let tmp = tempfile::tempdir().unwrap();
    let mut file = ResultsFile::open_dir(tmp.path()).unwrap();
    let rows: Vec<Attempt> = (0..15)
        .map(|n| attempt(1, &format!("{:x}", n % 16), &format!("p{n}"), Some(n)))
        .collect();
    file.put(&rows).unwrap();
    // An attempt still being played is not listed.
    file.put(&[attempt(1, "f", "late", None)]).unwrap();
    let top = file.top(1).unwrap();
    assert_eq!(top.rows.len(), TOP);
    assert_eq!(top.rows[0].points, 14);
    let mut plan = file
        .conn()
        .prepare(&format!("EXPLAIN QUERY PLAN {TOP_QUERY}"))
        .unwrap();
    let steps: Vec<String> = plan
        .query_map([1], |row| row.get::<_, String>(3))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(
        steps.iter().any(|s| s.contains("USING INDEX daily_top")),
        "{steps:?}"
    );
    assert!(
        !steps.iter().any(|s| s.contains("TEMP B-TREE")),
        "{steps:?}"
    );
}

#[test]
fn two_connections_writing_at_once_lose_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("two");
    // Both open the fresh file together, as two servers started at once.
    let writers: Vec<_> = (0..2)
        .map(|w| {
            let dir = dir.clone();
            std::thread::spawn(move || {
                let mut file = ResultsFile::open_dir(&dir).unwrap();
                for n in 0..100 {
                    let seat = format!("{w}{n:031}");
                    let row = Attempt {
                        seat,
                        ..attempt(1, "", "p", Some(n))
                    };
                    // The other writer may hold the lock past BUSY: try again, as the store does.
                    while file.put(std::slice::from_ref(&row)).is_err() {}
                }
            })
        })
        .collect();
    for writer in writers {
        writer.join().unwrap();
    }
    let file = ResultsFile::open_dir(&dir).unwrap();
    assert_eq!(file.day(1).unwrap().attempts.len(), 200);
    let ok: String = file
        .conn()
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
}

#[test]
fn a_first_schema_file_is_migrated_with_its_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("daily.sqlite");
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(MIGRATIONS[0]).unwrap();
        conn.execute_batch(
            "PRAGMA user_version = 1;
             INSERT INTO daily_results VALUES (3, 'ann', 4, 2, 5, 100), (3, 'bob', 6, 3, 6, 90);",
        )
        .unwrap();
    }
    let file = ResultsFile::open(&path).unwrap();
    assert_eq!(
        names(&file.top(3).unwrap()),
        [("bob".into(), 6), ("ann".into(), 4)]
    );
    assert_eq!(marks(&file), (LATEST, APPLICATION_ID));
}

/// A file as the program wrote it before rusqlite_migration ran its steps:
/// each step and its `PRAGMA user_version` in an immediate transaction of
/// its own, up to the latest, with a row played.
fn written_by_the_old_runner(path: &Path) {
    let mut conn = Connection::open(path).unwrap();
    conn.pragma_update(None, "journal_mode", "WAL").unwrap();
    for (step, sql) in MIGRATIONS.iter().enumerate() {
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .unwrap();
        tx.execute_batch(sql).unwrap();
        tx.pragma_update(None, "user_version", step as i64 + 1)
            .unwrap();
        tx.commit().unwrap();
    }
    conn.execute(
        "INSERT INTO daily_attempts VALUES (5, ?1, 'ann', '127.0.0.1', 1, 7, 3, 5, 2)",
        ["a".repeat(32)],
    )
    .unwrap();
}

#[test]
fn a_file_the_old_runner_brought_up_to_date_opens_as_it_is() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("daily.sqlite");
    written_by_the_old_runner(&path);
    let mut file = ResultsFile::open(&path).unwrap();
    assert_eq!(names(&file.top(5).unwrap()), [("ann".into(), 7)]);
    assert_eq!(marks(&file), (LATEST, APPLICATION_ID));
    // Its seat's first result stays, as in any file of the latest schema.
    file.put(&[attempt(5, "a", "ann", Some(99))]).unwrap();
    file.put(&[attempt(5, "b", "bob", Some(9))]).unwrap();
    assert_eq!(
        names(&file.top(5).unwrap()),
        [("bob".into(), 9), ("ann".into(), 7)]
    );
}

#[test]
fn malformed_rows_are_skipped_and_counted_never_the_day() {
    let tmp = tempfile::tempdir().unwrap();
    let mut file = ResultsFile::open_dir(tmp.path()).unwrap();
    file.put(&[
        attempt(5, "a", "ann", Some(5)),
        attempt(5, "e", "eve", Some(2)),
    ])
    .unwrap();
    file.conn()
        .execute_batch(&format!(
            "INSERT INTO daily_attempts VALUES
                 (5, '{b}', 'bob', '', 0, 'lots', 2, 4, 1),
                 (5, '{c}', 'cy', '', 0, -3, 2, 4, 1),
                 (5, '{d}', 'dee', '', 0, 5000000000, 2, 4, 1),
                 (5, '{f}', x'00ff', '', 0, 7, 2, 4, 1);",
            b = "b".repeat(32),
            c = "c".repeat(32),
            d = "d".repeat(32),
            f = "f".repeat(32),
        ))
        .unwrap();
    let top = file.top(5).unwrap();
    assert_eq!(names(&top), [("ann".into(), 5), ("eve".into(), 2)]);
    assert_eq!(top.skipped, 4);
    let day = file.day(5).unwrap();
    // Seats whose result cannot be read have still played; a name that is
    // not text cannot be listed at all.
    assert_eq!((day.attempts.len(), day.malformed), (5, 4));
}

/// A file made by another connection with `sql`, refused on open and left
/// byte for byte, with nothing made beside it.
fn refused_and_kept(sql: &str) -> StoreError {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("daily.sqlite");
    Connection::open(&path).unwrap().execute_batch(sql).unwrap();
    let before = std::fs::read(&path).unwrap();
    let err = ResultsFile::open(&path).unwrap_err();
    assert!(!err.to_string().contains('\n'), "{err}");
    assert!(std::fs::read(&path).unwrap() == before, "{sql}: changed");
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1, "{sql}");
    err
}

#[test]
fn another_programs_or_an_unknown_database_is_refused_and_left_as_it_was() {
    for sql in [
        "CREATE TABLE grades (pupil TEXT);",
        "CREATE TABLE daily_results (day); CREATE TABLE notes (x);",
        "CREATE TABLE daily_results (day);",
        "PRAGMA application_id = 7; CREATE TABLE daily_attempts (day);",
        "CREATE TABLE daily_results (day); PRAGMA user_version = -5;",
        "PRAGMA user_version = 1;",
    ] {
        let err = refused_and_kept(sql);
        assert!(matches!(err, StoreError::Foreign { .. }), "{sql}: {err:?}");
        assert!(!err.to_string().contains("newer"), "{sql}: {err}");
    }
    let err = refused_and_kept("CREATE TABLE daily_results (day); PRAGMA user_version = 99;");
    assert!(
        matches!(err, StoreError::Newer { found: 99, .. }),
        "{err:?}"
    );
}

/// A trigger or a view beside our tables is another program's work: a
/// trigger that rewrites a played row is refused before it can run, and
/// the row stays as it was.
#[test]
fn a_trigger_or_a_view_among_our_tables_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let mut file = ResultsFile::open_dir(tmp.path()).unwrap();
    file.put(&[attempt(1, "a", "ann", Some(5))]).unwrap();
    drop(file);
    let path = tmp.path().join("daily.sqlite");
    for (sql, named) in [
        (
            "CREATE TRIGGER cheat AFTER UPDATE ON daily_attempts BEGIN \
             UPDATE daily_attempts SET points = 999 WHERE name = 'eve'; END;",
            "trigger cheat",
        ),
        (
            "CREATE TRIGGER daily_top AFTER INSERT ON daily_attempts BEGIN \
             UPDATE daily_attempts SET points = 0 WHERE name = 'ann'; END;",
            "trigger daily_top",
        ),
        (
            "CREATE VIEW daily_results AS SELECT * FROM daily_attempts;",
            "view daily_results",
        ),
    ] {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(sql).unwrap();
        drop(conn);
        let err = ResultsFile::open(&path).unwrap_err();
        assert!(matches!(err, StoreError::Foreign { .. }), "{sql}: {err:?}");
        let said = err.to_string();
        assert!(said.contains(named) && !said.contains('\n'), "{said}");
        let conn = Connection::open(&path).unwrap();
        let kind = named.split(' ').next().unwrap().to_uppercase();
        let name = named.split(' ').nth(1).unwrap();
        conn.execute_batch(&format!("DROP {kind} {name};")).unwrap();
    }
    // With the work of others gone, the file opens, its row as it was.
    let file = ResultsFile::open(&path).unwrap();
    assert_eq!(names(&file.top(1).unwrap()), [("ann".to_string(), 5)]);
}

#[test]
fn a_file_that_is_not_a_database_is_refused_and_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("daily.sqlite");
    let text = "these are my notes, not a database\n".repeat(200);
    std::fs::write(&path, &text).unwrap();
    let err = ResultsFile::open(&path).unwrap_err();
    assert!(matches!(err, StoreError::NotADatabase { .. }), "{err:?}");
    assert!(!err.to_string().contains('\n'));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn an_empty_file_is_a_new_database() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("daily.sqlite");
    std::fs::write(&path, "").unwrap();
    let mut file = ResultsFile::open(&path).unwrap();
    file.put(&[attempt(1, "a", "ann", Some(1))]).unwrap();
}
