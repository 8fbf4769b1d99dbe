//! Requests from other sites (CSRF): a request that changes something (any
//! method but `GET`, `HEAD` and `OPTIONS`) is refused with 403
//! `cross_site` when the browser says it was sent by another site —
//! `Sec-Fetch-Site` other than `same-origin` or `none` (a sibling
//! subdomain's `same-site` too), or an `Origin` other than this server's.
//! With the session cookie's `SameSite=Lax` this keeps another site from
//! acting for a signed-in player. Programs that send neither header are
//! not browsers acting for someone, and pass.

use axum::extract::Request;
use axum::http::header::{HOST, ORIGIN};
use axum::http::{HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// Whether the headers say the request came from another site.
pub(crate) fn from_another_site(headers: &HeaderMap) -> bool {
    // `same-origin` is this server's page, `none` the user (a bookmark, the
    // address bar); `same-site` is a sibling subdomain, another site for
    // this server, and `cross-site` another site altogether.
    if let Some(fetch) = headers.get("sec-fetch-site") {
        let fetch = fetch.as_bytes();
        if !(fetch.eq_ignore_ascii_case(b"same-origin") || fetch.eq_ignore_ascii_case(b"none")) {
            return true;
        }
    }
    let Some(origin) = headers.get(ORIGIN) else {
        return false;
    };
    let host = headers.get(HOST).and_then(|h| h.to_str().ok());
    let origin_host = origin.to_str().ok().and_then(|o| {
        o.strip_prefix("http://")
            .or_else(|| o.strip_prefix("https://"))
    });
    match (origin_host, host) {
        (Some(o), Some(h)) => !o.eq_ignore_ascii_case(h),
        // "null" (a sandboxed page, a file), or no Host to compare with.
        _ => true,
    }
}

/// The middleware: refuses a changing request from another site.
pub(crate) async fn only_this_site(request: Request, next: Next) -> Response {
    let changes = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if changes && from_another_site(request.headers()) {
        return ApiError::CrossSite(
            "this request came from another site: it is refused, and nothing changed".to_string(),
        )
        .into_response();
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn another_sites_requests_are_told_apart() {
        let host = ("host", "play.example:8080");
        assert!(!from_another_site(&headers(&[host])), "curl");
        assert!(!from_another_site(&headers(&[
            host,
            ("origin", "https://play.example:8080")
        ])));
        assert!(!from_another_site(&headers(&[
            host,
            ("origin", "http://play.example:8080"),
            ("sec-fetch-site", "same-origin")
        ])));
        assert!(from_another_site(&headers(&[
            host,
            ("origin", "https://evil.example")
        ])));
        assert!(from_another_site(&headers(&[
            host,
            ("origin", "https://play.example:8080.evil.example")
        ])));
        assert!(from_another_site(&headers(&[host, ("origin", "null")])));
        assert!(from_another_site(&headers(&[
            host,
            ("sec-fetch-site", "cross-site")
        ])));
        // A sibling subdomain is another site.
        assert!(from_another_site(&headers(&[
            host,
            ("sec-fetch-site", "same-site")
        ])));
        assert!(!from_another_site(&headers(&[
            host,
            ("sec-fetch-site", "none")
        ])));
    }
}
