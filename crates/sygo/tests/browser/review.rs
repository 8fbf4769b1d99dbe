//! The AI's review of a game in a real browser: the "Review with the AI"
//! button, the graph with one point per position, a click (a tap on a
//! phone) or the keyboard on it going to that turn, the best turn's star
//! and the ownership at a past turn, the record with the review to
//! download; the Analyse button disabled where no analysis can run.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{Page, root, run};

/// The example record of the docs: a finished 9×9 game of 19 turns.
fn example() -> String {
    std::fs::read_to_string(root().join("docs/examples/sygo-9.sgf")).expect("the example record")
}

/// Uploads a record from the page (it must be on the app); the game's id.
async fn upload(p: &Page, text: &str) -> String {
    p.goto("/games").await;
    let v = p
        .client
        .execute_async(
            "const [text, done] = arguments;
             fetch('/api/records', {method: 'POST', headers: {'Content-Type': 'application/x-go-sgf'}, body: text})
               .then(async r => done([r.status, await r.text()]), e => done([0, String(e)]));",
            vec![json!(text)],
        )
        .await
        .expect("the record uploaded");
    assert_eq!(v[0], json!(201), "{}: upload: {}", p.name, v[1]);
    let answer: Value = serde_json::from_str(v[1].as_str().unwrap()).unwrap();
    answer["game"]["id"].as_str().unwrap().to_string()
}

/// Uploads the example record and opens its page; the game's id.
async fn open_example(p: &Page) -> String {
    let id = upload(p, &example()).await;
    p.goto(&format!("/game/{id}")).await;
    p.wait(
        "document.getElementById('review-button')",
        "the review button",
    )
    .await;
    id
}

/// The longest a review of the example may take (20 positions of 3,000
/// visits: a few seconds alone, more with other tests running).
const REVIEW_WAIT: Duration = Duration::from_secs(120);

/// Waits for the graph with every position of the review.
pub(crate) async fn graph_done(p: &Page, id: &str) -> u64 {
    let start = Instant::now();
    loop {
        let status = p
            .js("return document.getElementById('review-status')?.textContent || '';")
            .await;
        let status = status.as_str().unwrap_or_default().to_string();
        if status.starts_with("Reviewed") {
            break;
        }
        assert!(
            start.elapsed() < REVIEW_WAIT,
            "{}: the review not done after {REVIEW_WAIT:?}: {status}",
            p.name
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let (_, review) = p
        .api("GET", &format!("/api/games/{id}/review"), None, None)
        .await;
    let total = review["positions_total"].as_u64().unwrap();
    assert_eq!(review["positions_done"].as_u64(), Some(total), "{review}");
    p.wait(
        &format!("document.querySelectorAll('[data-graph-turn]').length === {total}"),
        "one point of the graph per position",
    )
    .await;
    total
}

/// Where on the graph (from its centre, CSS px) a turn is: the drawing
/// spans its width less a margin of 1% each side (js/graph.js).
async fn graph_offset(p: &Page, turn: u64, last: u64) -> f64 {
    let width = p
        .js("return document.querySelector('#review-graph svg').getBoundingClientRect().width;")
        .await
        .as_f64()
        .unwrap();
    let x = width * (0.01 + 0.98 * turn as f64 / last as f64);
    x - width / 2.0
}

/// Saves a screenshot of the review's part of the page into
/// target/screenshots/.
async fn review_screenshot(p: &Page, file: &str) {
    let section = p.find("#ai-review").await;
    let png = section
        .screenshot()
        .await
        .expect("a screenshot of the review");
    let dir = root().join("target/screenshots");
    std::fs::create_dir_all(&dir).expect("target/screenshots");
    std::fs::write(dir.join(file), png).expect("the screenshot written");
}

/// The number of stones after `turn` turns, by the API.
async fn stones_after(p: &Page, id: &str, turn: u64) -> usize {
    let (_, game) = p
        .api("GET", &format!("/api/games/{id}?turn={turn}"), None, None)
        .await;
    game["stones"].as_object().unwrap().len()
}

/// The page shows the position after `turn` turns of `last`.
async fn shows_turn(p: &Page, id: &str, turn: u64, last: u64) {
    p.wait(
        &format!(
            "document.getElementById('shown-turn')?.textContent.startsWith('Turn {turn} of {last}')"
        ),
        &format!("turn {turn} shown"),
    )
    .await;
    p.wait(
        &format!("document.querySelector('[data-graph-shown]')?.getAttribute('data-graph-shown') === '{turn}'"),
        "the graph marks the turn shown",
    )
    .await;
    let stones = stones_after(p, id, turn).await;
    p.wait(
        &format!("document.querySelectorAll('[data-stone]').length === {stones}"),
        &format!("the board after turn {turn}"),
    )
    .await;
}

/// A click (a tap on a phone) on the graph at `turn`: the page shows that
/// position, with the AI's best turn and its ownership on the board.
pub(crate) async fn graph_to(p: &Page, id: &str, turn: u64, last: u64) {
    let dx = graph_offset(p, turn, last).await;
    p.click_at("#review-graph svg", dx, 0.0).await;
    shows_turn(p, id, turn, last).await;
    p.wait(
        "document.querySelector('[data-best]')",
        "the best turn's star",
    )
    .await;
    p.wait("document.querySelector('[data-own]')", "the ownership")
        .await;
}

#[test]
fn a_reviewed_game_has_a_graph_that_goes_to_the_turn_clicked() {
    run(async |env| {
        let p = env.desktop("review graph").await;
        let id = open_example(&p).await;
        p.click("#review-button").await;
        let total = graph_done(&p, &id).await;
        let last = total - 1;
        // The last position is the game's end: no best turn there.
        p.wait(
            "!document.querySelector('[data-best]')",
            "no star at the end",
        )
        .await;
        graph_to(&p, &id, 5, last).await;
        let (_, review) = p
            .api("GET", &format!("/api/games/{id}/review?from=5"), None, None)
            .await;
        let best = review["positions"][0]["best"].as_str().unwrap().to_string();
        let starred = p
            .js("return [...document.querySelectorAll('[data-best]')].map(e => e.dataset.best).join(',');")
            .await;
        assert_eq!(starred.as_str(), Some(best.as_str()));
        p.contains("legend", "star: the AI's best turn").await;
        p.contains("review-at-turn", "At turn 5: Black's win probability")
            .await;
        // The ownership is a toggle.
        p.click("#review-ownership").await;
        p.wait(
            "!document.querySelector('[data-own]')",
            "the ownership hidden",
        )
        .await;
        p.click("#review-ownership").await;
        p.wait(
            "document.querySelector('[data-own]')",
            "the ownership again",
        )
        .await;
        p.screenshot("review-desktop.png", true).await;
        review_screenshot(&p, "review-desktop-panel.png").await;
        // The keyboard: the graph is a slider.
        let slider = p.find("#review-graph-slider").await;
        slider.send_keys("\u{E014}").await.expect("→ on the graph");
        shows_turn(&p, &id, 6, last).await;
        p.wait(
            "document.activeElement?.id === 'review-graph-slider'",
            "the focus kept on the graph",
        )
        .await;
        let label = p
            .js("return document.getElementById('review-graph-slider').getAttribute('aria-valuetext');")
            .await;
        assert!(
            label
                .as_str()
                .unwrap()
                .starts_with("Turn 6: Black's win probability"),
            "{label}"
        );
        let href = p
            .js("return document.getElementById('review-download').getAttribute('href');")
            .await;
        assert_eq!(href, json!(format!("/api/games/{id}/record?analysis=1")));
        p.close().await;
    });
}

#[test]
fn on_a_phone_a_tap_on_the_full_width_graph_goes_to_that_turn() {
    run(async |env| {
        let p = env.phone("review phone").await;
        let id = upload(&p, &example()).await;
        let (status, _) = p
            .api("POST", &format!("/api/games/{id}/review"), None, None)
            .await;
        assert_eq!(status, 202);
        p.goto(&format!("/game/{id}")).await;
        let total = graph_done(&p, &id).await;
        let last = total - 1;
        let widths = p
            .js("return [document.querySelector('#review-graph svg').getBoundingClientRect().width, window.innerWidth];")
            .await;
        let (graph, window) = (widths[0].as_f64().unwrap(), widths[1].as_f64().unwrap());
        assert!(
            graph > 0.8 * window,
            "the graph spans the phone: {graph} of {window}"
        );
        graph_to(&p, &id, 3, last).await;
        let button = p
            .js("const r = document.getElementById('review-button').getBoundingClientRect(); return [r.width, r.height];")
            .await;
        assert!(
            button[1].as_f64().unwrap() >= 44.0,
            "a tap target: {button}"
        );
        // What a person sees of the review on the phone.
        review_screenshot(&p, "review-phone.png").await;
        p.screenshot("review-phone-board.png", false).await;
        p.close().await;
    });
}

#[test]
fn the_analyse_button_is_disabled_at_the_end_of_a_finished_game() {
    run(async |env| {
        let p = env.desktop("analyse finished").await;
        open_example(&p).await;
        p.wait(
            "document.getElementById('analyse-button')?.disabled === true",
            "Analyse disabled at the end",
        )
        .await;
        let title = p
            .js("return document.getElementById('analyse-button').title;")
            .await;
        assert!(title.as_str().unwrap().contains("game is over"), "{title}");
        // An earlier position can be analysed.
        p.click("[data-review='previous']").await;
        p.wait(
            "document.getElementById('analyse-button')?.disabled === false",
            "Analyse enabled before the end",
        )
        .await;
        p.close().await;
    });
}

#[test]
fn on_a_phone_a_greyed_analyse_says_why_in_visible_text() {
    run(async |env| {
        let p = env.phone("analyse reason").await;
        open_example(&p).await;
        p.wait(
            "document.getElementById('analyse-button')?.disabled === true",
            "Analyse disabled at the end",
        )
        .await;
        // Not only in the title, which a finger never sees: in a line shown
        // under the buttons.
        p.contains("ai-reason", "The game is over in this position")
            .await;
        let shown = p
            .js("const e = document.getElementById('ai-reason'); return e.offsetParent !== null && e.getBoundingClientRect().height > 0;")
            .await;
        assert_eq!(shown, json!(true), "the reason is visible");
        p.js(
            "document.getElementById('ai-reason').scrollIntoView({block: 'center'}); return true;",
        )
        .await;
        let png = p.client.screenshot().await.expect("a screenshot");
        let dir = root().join("target/screenshots");
        std::fs::create_dir_all(&dir).expect("target/screenshots");
        std::fs::write(dir.join("analyse-reason-phone.png"), png).expect("written");
        // Before the end the analysis can run: no reason is left.
        p.click("[data-review='previous']").await;
        p.wait(
            "document.getElementById('analyse-button')?.disabled === false",
            "Analyse enabled before the end",
        )
        .await;
        let text = p.text("#ai-reason").await;
        assert!(!text.contains("Analys"), "{text}");
    });
}

#[test]
fn review_with_the_ai_is_said_once_on_the_button_not_also_as_its_heading() {
    run(async |env| {
        let p = env.phone("review said once").await;
        open_example(&p).await;
        p.contains("ai-review", "The AI's review").await;
        let times = p
            .js("return document.getElementById('ai-review').textContent.split('Review with the AI').length - 1;")
            .await;
        assert_eq!(times, json!(1), "said once");
        assert_eq!(p.text("#review-button").await, "Review with the AI");
    });
}
