//! The pages and their security headers, through the application called
//! in-process (`sygo_server::app` with `tower::ServiceExt::oneshot`).

use crate::common;

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use sygo_server::{AppState, Config, app};
use tower::ServiceExt;

#[tokio::test]
async fn every_answer_has_a_content_security_policy_that_the_page_needs_nothing_beyond() {
    let config = Config::new("127.0.0.1:0".parse().unwrap(), common::temp_db("pages"));
    let (state, _shutdown) = AppState::open(&config).await.unwrap();
    let router = app(state);
    for path in [
        "/",
        "/game/ab12cd34",
        "/static/js/main.js",
        "/api/games",
        "/api/nothing",
    ] {
        let request = Request::get(path).body(Body::empty()).unwrap();
        let response = router.clone().oneshot(request).await.unwrap();
        let headers = response.headers();
        let csp = headers
            .get("content-security-policy")
            .unwrap_or_else(|| panic!("{path}: no Content-Security-Policy"))
            .to_str()
            .unwrap();
        for part in [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "object-src 'none'",
            "frame-ancestors 'none'",
        ] {
            assert!(csp.contains(part), "{path}: {csp}");
        }
        assert!(!csp.contains("unsafe"), "{path}: {csp}");
        assert_eq!(headers.get("x-content-type-options").unwrap(), "nosniff");
        if path == "/" {
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            let html = String::from_utf8_lossy(&bytes).to_lowercase();
            // The policy refuses inline scripts, styles and handlers: the page has none.
            for tag in html.split("<script").skip(1) {
                let open = &tag[..tag.find('>').unwrap()];
                assert!(open.contains("src="), "an inline script: <script{open}>");
            }
            assert!(
                !html.contains("<style") && !html.contains(" style="),
                "inline style"
            );
            assert!(
                !html.contains(" onclick=") && !html.contains(" onload="),
                "inline handler"
            );
        }
    }
}
