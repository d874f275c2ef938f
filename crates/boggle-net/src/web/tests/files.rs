//! The page's files over a real loopback socket, spoken by hand as the
//! other web tests speak: keep-alive, ETags and `304`, gzip and brotli.

use super::*;
use std::io::Read;

/// One connection carries request after request (keep-alive); a file
/// asked again with its ETag is `304` with no body, under the security
/// headers; a request that accepts gzip or brotli gets the file so coded,
/// its ETag naming the coding, and that tag revalidates too.
#[tokio::test]
async fn files_come_over_one_connection_revalidated_and_compressed() {
    let (_, addr, _stop) = start(config(None, Limits::default())).await;
    let stream = TcpStream::connect(addr).await.expect("connects");
    let mut conn = BufReader::new(stream);
    let ask =
        |path: &str, extra: &str| format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}\r\n");
    let revalidate = |path: &str, tag: &str| ask(path, &format!("If-None-Match: {tag}\r\n"));

    let style = exchange(&mut conn, &ask("/favicon.svg", "")).await;
    assert_eq!(style.status, 200);
    assert_eq!(style.body, FAVICON);
    assert_eq!(style.header("connection"), None, "kept alive");
    let tag = style.header("etag").expect("an ETag").to_string();
    assert!(tag.starts_with('"') && tag.len() == 18, "{tag}");

    let again = exchange(&mut conn, &revalidate("/favicon.svg", &tag)).await;
    assert_eq!(again.status, 304);
    assert_eq!(again.header("etag"), Some(tag.as_str()));
    assert_eq!(again.bytes, b"", "no body");
    assert_eq!(again.header("content-security-policy"), Some(CSP));
    assert_eq!(again.header("cache-control"), Some("no-cache"));

    let (name, script) = MODULES[0];
    let gzip = exchange(
        &mut conn,
        &ask(&format!("/js/{name}"), "Accept-Encoding: gzip\r\n"),
    )
    .await;
    assert_eq!(gzip.status, 200);
    assert_eq!(gzip.header("content-encoding"), Some("gzip"));
    assert_eq!(gzip.header("vary"), Some("accept-encoding"));
    assert_eq!(gzip.header("content-security-policy"), Some(CSP));
    let gzip_tag = gzip.header("etag").expect("an ETag").to_string();
    assert!(gzip_tag.ends_with("-gzip\""), "{gzip_tag}");
    let mut plain = String::new();
    flate2::read::GzDecoder::new(gzip.bytes.as_slice())
        .read_to_string(&mut plain)
        .expect("gzip");
    assert_eq!(plain, script);
    assert!(gzip.bytes.len() < script.len(), "smaller");

    let br = exchange(
        &mut conn,
        &ask(&format!("/js/{name}"), "Accept-Encoding: br, gzip\r\n"),
    )
    .await;
    assert_eq!(br.header("content-encoding"), Some("br"));
    let br_tag = br.header("etag").expect("an ETag").to_string();
    assert_eq!(br_tag, gzip_tag.replace("-gzip", "-br"));
    assert!(br.bytes.len() < script.len(), "smaller");
    let br_again = exchange(
        &mut conn,
        &ask(
            &format!("/js/{name}"),
            &format!("Accept-Encoding: br\r\nIf-None-Match: {br_tag}\r\n"),
        ),
    )
    .await;
    assert_eq!(br_again.status, 304);
    assert_eq!(br_again.header("etag"), Some(br_tag.as_str()));

    // Another file's tag is not this one's.
    let page = exchange(&mut conn, &revalidate("/", &tag)).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<html"));
    // The page, its style and script inline, revalidates like any file.
    let page_tag = page.header("etag").expect("an ETag").to_string();
    let page_again = exchange(&mut conn, &revalidate("/", &page_tag)).await;
    assert_eq!(page_again.status, 304);
    assert_eq!(page_again.bytes, b"", "no body");
    // The day's board, asked on every visit, revalidates like a file.
    let day = exchange(&mut conn, &ask("/daily", "")).await;
    let day_tag = day.header("etag").expect("an ETag").to_string();
    let day_again = exchange(&mut conn, &revalidate("/daily", &day_tag)).await;
    assert_eq!(day_again.status, 304);
}
