//! Chromium's own DevTools commands sent through chromedriver
//! (`POST /session/{id}/goog/cdp/execute`): what WebDriver has no command
//! for, such as slowing the CPU, turning the phone on its side, or blocking
//! a URL.

use std::sync::atomic::Ordering;

use fantoccini::Client;
use fantoccini::error::CmdError;
use fantoccini::wd::WebDriverCompatibleCommand;
use serde_json::{Value, json};

use crate::harness::Page;

#[derive(Debug)]
struct Cdp {
    cmd: &'static str,
    params: Value,
}

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/goog/cdp/execute",
            session.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({"cmd": self.cmd, "params": self.params}).to_string()),
        )
    }
}

/// Sends `cmd` with `params` to the page's Chromium; its answer. The
/// session is then not given to another test (the command may have changed
/// the browser: a blocked URL, the screen's size, the CPU's speed).
pub async fn cdp(p: &Page, cmd: &'static str, params: Value) -> Value {
    p.changed.store(true, Ordering::Relaxed);
    send(&p.client, cmd, params)
        .await
        .unwrap_or_else(|e| panic!("{}: {cmd}: {e}", p.name))
}

/// Sends `cmd` with `params` to the session's Chromium.
pub async fn send(client: &Client, cmd: &'static str, params: Value) -> Result<Value, CmdError> {
    client.issue_cmd(Cdp { cmd, params }).await
}
