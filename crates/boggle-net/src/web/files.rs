//! The page's files as the web side serves them (its HTML, style, modules,
//! icon, and today's board): each one's bytes, its type and a strong ETag,
//! so a browser that holds a copy asks with `If-None-Match` and gets
//! `304 Not Modified` with no body instead of the file again.
//!
//! How it works. A file's tag is the first 8 bytes of its SHA-256 in hex,
//! quoted: the same bytes get the same tag on every build and every
//! restart. `File::answer` compares `If-None-Match` with it weakly (as RFC
//! 9110 says for that header), and also with its coded forms: a strong tag
//! names one representation, and gzip's or brotli's bytes are not the
//! plain ones, so `tag_coding` (a layer outside tower-http's compression)
//! makes a compressed response's `"TAG"` into `"TAG-gzip"` or `"TAG-br"`.
//! A `304` carries the tag the browser named.
//!
//! Limits: no `Last-Modified` (the tag is the only validator), and no
//! ranges: a file is whole or not sent.

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

/// The codings tower-http's compression gives a body here, as
/// `Content-Encoding` names them.
const CODINGS: [&str; 2] = ["br", "gzip"];

/// A file served whole, with its type and ETag.
#[derive(Clone, Debug)]
pub(crate) struct File {
    kind: &'static str,
    body: Bytes,
    /// The tag's hex, without quotes.
    tag: String,
}

impl File {
    /// The file of `body`, served as `kind`.
    pub(crate) fn new(kind: &'static str, body: impl Into<Bytes>) -> File {
        let body = body.into();
        let digest = Sha256::digest(&body);
        let tag = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        File { kind, body, tag }
    }

    /// `304` when `headers` name this file's tag (or a coded form of it) in
    /// `If-None-Match`, else `200` with the file and its tag.
    pub(crate) fn answer(&self, headers: &HeaderMap) -> Response {
        if let Some(named) = self.named_in(headers) {
            return (StatusCode::NOT_MODIFIED, [(header::ETAG, named)]).into_response();
        }
        let tag = HeaderValue::from_str(&format!("\"{}\"", self.tag));
        let mut response = (
            StatusCode::OK,
            [(header::CONTENT_TYPE, self.kind)],
            self.body.clone(),
        )
            .into_response();
        if let Ok(tag) = tag {
            response.headers_mut().insert(header::ETAG, tag);
        }
        response
    }

    /// The strong form of the tag of `If-None-Match` that names this file,
    /// if one does (`*` names any file).
    fn named_in(&self, headers: &HeaderMap) -> Option<HeaderValue> {
        let listed = headers
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(str::trim);
        for tag in listed {
            if tag == "*" {
                return HeaderValue::from_str(&format!("\"{}\"", self.tag)).ok();
            }
            let opaque = tag.strip_prefix("W/").unwrap_or(tag);
            let Some(inner) = opaque
                .strip_prefix('"')
                .and_then(|rest| rest.strip_suffix('"'))
            else {
                continue;
            };
            let ours = inner.strip_prefix(self.tag.as_str()).is_some_and(|rest| {
                rest.is_empty()
                    || rest
                        .strip_prefix('-')
                        .is_some_and(|coding| CODINGS.contains(&coding))
            });
            if ours {
                return HeaderValue::from_str(&format!("\"{inner}\"")).ok();
            }
        }
        None
    }
}

/// Names a compressed response's coding in its strong ETag: `"TAG"` under
/// `Content-Encoding: br` becomes `"TAG-br"`. Anything else passes as it is.
pub(crate) async fn tag_coding<B>(response: Response<B>) -> Response<B> {
    let mut response = response;
    let headers = response.headers();
    let coding = headers
        .get(header::CONTENT_ENCODING)
        .and_then(|value| value.to_str().ok())
        .filter(|coding| CODINGS.contains(coding));
    let tag = headers
        .get(header::ETAG)
        .and_then(|value| value.to_str().ok())
        .and_then(|tag| tag.strip_prefix('"'))
        .and_then(|tag| tag.strip_suffix('"'));
    let coded = match (tag, coding) {
        (Some(tag), Some(coding)) => HeaderValue::from_str(&format!("\"{tag}-{coding}\"")).ok(),
        _ => None,
    };
    if let Some(coded) = coded {
        response.headers_mut().insert(header::ETAG, coded);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asking(tags: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for tag in tags {
            headers.append(
                header::IF_NONE_MATCH,
                HeaderValue::from_str(tag).expect("a header value"),
            );
        }
        headers
    }

    fn tag_of(response: &Response) -> &str {
        response
            .headers()
            .get(header::ETAG)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    #[test]
    fn a_files_tag_is_its_contents_and_a_match_is_304_naming_it() {
        let file = File::new("text/plain", "hello");
        // SHA-256("hello") begins 2cf24dba5fb0a30e.
        let fresh = file.answer(&HeaderMap::new());
        assert_eq!(fresh.status(), StatusCode::OK);
        assert_eq!(tag_of(&fresh), "\"2cf24dba5fb0a30e\"");
        assert_eq!(
            fresh
                .headers()
                .get(header::CONTENT_TYPE)
                .map(|v| v.as_bytes()),
            Some(&b"text/plain"[..])
        );
        for (asked, named) in [
            (vec!["\"2cf24dba5fb0a30e\""], "\"2cf24dba5fb0a30e\""),
            (vec!["W/\"2cf24dba5fb0a30e\""], "\"2cf24dba5fb0a30e\""),
            (vec!["\"2cf24dba5fb0a30e-br\""], "\"2cf24dba5fb0a30e-br\""),
            (
                vec!["\"old\", \"2cf24dba5fb0a30e-gzip\""],
                "\"2cf24dba5fb0a30e-gzip\"",
            ),
            (
                vec!["\"old\"", "\"2cf24dba5fb0a30e\""],
                "\"2cf24dba5fb0a30e\"",
            ),
            (vec!["*"], "\"2cf24dba5fb0a30e\""),
        ] {
            let answer = file.answer(&asking(&asked));
            assert_eq!(answer.status(), StatusCode::NOT_MODIFIED, "{asked:?}");
            assert_eq!(tag_of(&answer), named, "{asked:?}");
        }
        for asked in [
            "\"2cf24dba5fb0a30f\"",
            "\"2cf24dba5fb0a30e-zstd\"",
            "\"2cf24dba5fb0a30e-\"",
            "2cf24dba5fb0a30e",
            "\"2cf24dba\"",
            "",
        ] {
            let answer = file.answer(&asking(&[asked]));
            assert_eq!(answer.status(), StatusCode::OK, "{asked:?}");
        }
        let other = File::new("text/plain", "hello!");
        assert_ne!(tag_of(&other.answer(&HeaderMap::new())), tag_of(&fresh));
    }

    #[tokio::test]
    async fn a_compressed_responses_tag_names_its_coding() {
        let response = |coding: Option<&str>, tag: Option<&str>| {
            let mut response = Response::new(());
            if let Some(coding) = coding {
                response.headers_mut().insert(
                    header::CONTENT_ENCODING,
                    HeaderValue::from_str(coding).expect("a value"),
                );
            }
            if let Some(tag) = tag {
                response
                    .headers_mut()
                    .insert(header::ETAG, HeaderValue::from_str(tag).expect("a value"));
            }
            response
        };
        let etag = |r: &Response<()>| {
            r.headers()
                .get(header::ETAG)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        for (coding, tag, want) in [
            (Some("br"), Some("\"abc\""), Some("\"abc-br\"")),
            (Some("gzip"), Some("\"abc\""), Some("\"abc-gzip\"")),
            (None, Some("\"abc\""), Some("\"abc\"")),
            (Some("zstd"), Some("\"abc\""), Some("\"abc\"")),
            (Some("br"), Some("W/\"abc\""), Some("W/\"abc\"")),
            (Some("br"), None, None),
        ] {
            let tagged = tag_coding(response(coding, tag)).await;
            assert_eq!(etag(&tagged).as_deref(), want, "{coding:?} {tag:?}");
        }
    }
}
