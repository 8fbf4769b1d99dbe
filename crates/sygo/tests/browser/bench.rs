//! The phone page's figures (`docs/performance.md`), measured, not asserted:
//! an ignored test, run on request with
//!
//! ```text
//! cargo test -p sygo --test browser -- --ignored bench --nocapture
//! ```
//!
//! A phone session (390×844 at pixel ratio 3, touch only) with Chromium's
//! CPU slowed four times (`Emulation.setCPUThrottlingRate`, sent through
//! chromedriver): the first render of a 19×19 game page (navigation start
//! to the board drawn with its stones, the page's own `sygo:board-drawn`
//! mark), the time from a tap (the finger lifted) to its preview drawn (the
//! next frame after the ghost stone is in the page), and the JavaScript the
//! page loads.

use std::time::Duration;

use serde_json::json;

use crate::cdp::cdp;
use crate::harness::run;
use crate::phone::{game_at, people};

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

#[test]
#[ignore = "a benchmark: run with --ignored bench --nocapture"]
fn bench_phone_page_figures() {
    run(async |env| {
        let p = env.phone("bench").await;
        let turns = [
            ("white", "D4"),
            ("black", "Q16"),
            ("white", "D16"),
            ("black", "Q4"),
            ("white", "K10"),
            ("black", "C3"),
            ("white", "R17"),
            ("black", "F6"),
        ];
        let id = game_at(&p, people("sygo", 19), &turns).await;
        let path = p.js("return location.pathname + location.hash;").await;
        let path = path.as_str().unwrap().to_string();
        cdp(&p, "Emulation.setCPUThrottlingRate", json!({"rate": 4})).await;

        // First render, five loads (the files cached, as a player returning).
        let mut renders = Vec::new();
        for _ in 0..5 {
            p.goto("/games").await;
            p.goto(&path).await;
            p.wait(
                "performance.getEntriesByName('sygo:board-drawn').length > 0",
                "the board drawn",
            )
            .await;
            let t = p
                .js("return performance.getEntriesByName('sygo:board-drawn')[0].startTime;")
                .await;
            renders.push(t.as_f64().unwrap());
        }
        let js = p
            .js("return performance.getEntriesByType('resource').filter(r => r.name.endsWith('.js'))
                   .map(r => [r.name.split('/').pop(), r.decodedBodySize]);")
            .await;
        let files = js.as_array().unwrap().len();
        let bytes: f64 = js
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f[1].as_f64().unwrap())
            .sum();

        // A tap to its preview: the finger lifted to the frame after the
        // ghost stone appeared.
        p.js("window.__taps = [];
              let up = 0;
              document.addEventListener('pointerup', (e) => { up = e.timeStamp; }, true);
              // The click bubbles to the document after the board handled it.
              window.__handled = [];
              document.addEventListener('click', () => { if (up) window.__handled.push(performance.now() - up); });
              new MutationObserver(() => {
                if (!up || !document.querySelector('[data-armed]')) return;
                const start = up; up = 0;
                requestAnimationFrame(() => window.__taps.push(performance.now() - start));
              }).observe(document.querySelector('svg.board'), {subtree: true, childList: true});
              return true;")
            .await;
        let points = [
            "C16", "O10", "H3", "S8", "E12", "M17", "J6", "B2", "T19", "G14", "N5", "P12", "E7",
            "L18", "R2",
        ];
        for point in points {
            p.click("#whole-button").await;
            tokio::time::sleep(Duration::from_millis(200)).await;
            p.point(point).await;
            p.wait(
                &format!(r#"document.querySelector('[data-armed="{point}"]')"#),
                "the preview",
            )
            .await;
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let handled = p.js("return window.__handled;").await;
        let handled: Vec<f64> = handled
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        let taps = p.js("return window.__taps;").await;
        let taps: Vec<f64> = taps
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        cdp(&p, "Emulation.setCPUThrottlingRate", json!({"rate": 1})).await;
        eprintln!("phone page, CPU throttled x4, Sygo 19x19 game {id}:");
        eprintln!(
            "  first render of the game page: median {:.0} ms (of {renders:.0?})",
            median(renders.clone())
        );
        eprintln!(
            "  tap to preview: median {:.1} ms, max {:.1} ms (of {} taps)",
            median(taps.clone()),
            taps.iter().cloned().fold(0.0, f64::max),
            taps.len()
        );
        eprintln!(
            "  of which the page's handling (the finger lifted to the tap handled): median {:.1} ms, max {:.1} ms",
            median(handled.clone()),
            handled.iter().cloned().fold(0.0, f64::max)
        );
        eprintln!(
            "  JavaScript loaded: {files} files, {:.1} kB",
            bytes / 1000.0
        );
    });
}
