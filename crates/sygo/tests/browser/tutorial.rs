//! The rules tutorial (`/learn`): the whole of it completed on a phone by
//! touch, every step played as its lesson says (`lessons.json`), with every
//! try the lesson expects to be refused (the page must show the rules'
//! reason, word for word), a try that misses the goal (the lesson's hint)
//! and the answer; the buttons large enough for a finger; on a desktop, a
//! step played from the keyboard, the progress kept over a reload, and the
//! links to the tutorial.

use fantoccini::key::Key;
use serde_json::Value;

use crate::harness::{Page, root, run};

/// The lessons, as the page fetches them.
fn lessons() -> Vec<Value> {
    let path = root().join("crates/sygo-server/web/js/tutorial/lessons.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let data: Value = serde_json::from_str(&text).expect("lessons.json is JSON");
    data["lessons"].as_array().expect("lessons").clone()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(|s| s.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

/// Waits until the page has answered (not busy) and is in `state`.
async fn settled(p: &Page, state: &str, what: &str) {
    p.wait(
        &format!("document.querySelector('.learn[data-state=\"{state}\"][data-busy=\"false\"]')"),
        what,
    )
    .await;
}

/// Waits until `#id`'s text is exactly `text`.
async fn says(p: &Page, id: &str, text: &str, what: &str) {
    p.wait(
        &format!(
            "(document.getElementById('{id}') || {{}}).textContent === {}",
            serde_json::json!(text)
        ),
        &format!("{what}: #{id} saying {text:?}"),
    )
    .await;
}

/// Taps `stones` in order, each becoming a stone of the turn; the last one
/// may end the turn (a placement is played at once).
async fn play_stones(p: &Page, stones: &[String]) {
    for (i, stone) in stones.iter().enumerate() {
        p.point(stone).await;
        let last = i + 1 == stones.len();
        let pending = format!("document.querySelector('[data-stone=\"{stone}\"][data-pending]')");
        let expr = if last {
            format!(
                "document.querySelector('.learn[data-busy=\"false\"]') && ({pending} || \
                 document.querySelector('.learn:not([data-state=\"playing\"])'))"
            )
        } else {
            format!("document.querySelector('.learn[data-busy=\"false\"]') && {pending}")
        };
        p.wait(&expr, &format!("{stone} played")).await;
    }
}

/// Plays a whole try: its stones then Finish turn, or Pass.
async fn play_turn(p: &Page, stones: &[String]) {
    if stones == ["pass"] {
        p.click("#learn-pass").await;
        return;
    }
    play_stones(p, stones).await;
    let playing = p
        .js("return document.querySelector('.learn').dataset.state === 'playing';")
        .await;
    if playing == Value::Bool(true) {
        p.click("#learn-finish").await;
    }
}

/// One step, played as its lesson says.
async fn play_step(p: &Page, name: &str, step: &Value) {
    settled(p, "playing", &format!("{name} ready")).await;
    for refused in step["refused"].as_array().into_iter().flatten() {
        let stones = strings(&refused["stones"]);
        let reason = refused["reason"].as_str().unwrap();
        if refused["finish"] == Value::Bool(true) {
            play_stones(p, &stones).await;
            p.click("#learn-finish").await;
        } else {
            let (last, before) = stones.split_last().unwrap();
            play_stones(p, before).await;
            p.point(last).await;
        }
        says(
            p,
            "lesson-refusal",
            reason,
            &format!("{name}: {stones:?} refused"),
        )
        .await;
        // Refused: the stone is not on the board, the step goes on.
        if refused["finish"] != Value::Bool(true) {
            let last = stones.last().unwrap();
            let drawn = p
                .js(&format!(
                    "return !!document.querySelector('[data-stone=\"{last}\"][data-pending]');"
                ))
                .await;
            assert_eq!(drawn, Value::Bool(false), "{name}: {last} not played");
        }
        settled(p, "playing", name).await;
        p.click("#learn-again").await;
        settled(p, "playing", name).await;
        p.wait(
            &format!(
                "document.querySelectorAll('[data-pending]').length === {}",
                step["pending"].as_array().map_or(0, Vec::len)
            ),
            &format!("{name} started again"),
        )
        .await;
    }
    if let Some(miss) = step["misses"].as_array().and_then(|m| m.first()) {
        play_turn(p, &strings(&miss["stones"])).await;
        settled(p, "missed", &format!("{name}: a miss")).await;
        says(p, "lesson-feedback", miss["hint"].as_str().unwrap(), name).await;
        p.click("#learn-again").await;
        settled(p, "playing", name).await;
    }
    play_turn(p, &strings(&step["answer"])).await;
    settled(p, "done", &format!("{name}: the answer")).await;
    says(
        p,
        "lesson-feedback",
        step["success"].as_str().unwrap(),
        name,
    )
    .await;
}

#[test]
fn the_whole_tutorial_is_completed_by_touch_on_a_phone() {
    run(async |env| {
        let p = env.phone("tutorial").await;
        p.goto("/learn").await;
        settled(&p, "playing", "the first step").await;
        says(&p, "lesson-title", "Placing a stone", "the first lesson").await;

        // Every control a finger uses is at least 44 CSS px each way.
        let small = p
            .js(
                "return [...document.querySelectorAll('.learn button, .learn summary')]
                   .filter(b => b.offsetParent !== null)
                   .map(b => b.getBoundingClientRect())
                   .filter(r => r.width < 44 || r.height < 44).length;",
            )
            .await;
        assert_eq!(small, Value::from(0), "controls smaller than 44 px");
        // The board fits the screen's width.
        let width = p
            .js("return document.querySelector('svg.board').getBoundingClientRect().right <= window.innerWidth;")
            .await;
        assert_eq!(width, Value::Bool(true));

        let lessons = lessons();
        for (li, lesson) in lessons.iter().enumerate() {
            let steps = lesson["steps"].as_array().unwrap();
            for (si, step) in steps.iter().enumerate() {
                let name = format!("{} step {}", lesson["id"].as_str().unwrap(), si + 1);
                says(&p, "lesson-title", lesson["title"].as_str().unwrap(), &name).await;
                play_step(&p, &name, step).await;
                if li == 0 && si == 0 {
                    p.screenshot("tutorial-phone-done.png", true).await;
                }
                if lesson["id"] == "hexsygo" {
                    p.screenshot("tutorial-hexsygo.png", false).await;
                }
                p.click("#learn-next").await;
            }
        }
        p.wait(
            "document.querySelector('.learn[data-state=\"end\"]') && !document.getElementById('learn-end').hidden",
            "the end of the tutorial",
        )
        .await;
        p.contains("learn-end", "You know the rules").await;
        p.contains(
            "lesson-list",
            &format!("{} of {} done", lessons.len(), lessons.len()),
        )
        .await;
    });
}

#[test]
fn a_step_from_the_keyboard_and_progress_kept_over_a_reload() {
    run(async |env| {
        let p = env.desktop("tutorial-keys").await;
        // The header and the home page lead to the tutorial.
        p.goto("/").await;
        p.wait("document.getElementById('learn-link')", "the home page")
            .await;
        p.click("#learn-link").await;
        p.wait("location.pathname === '/learn'", "the tutorial")
            .await;
        p.wait(
            "document.querySelector('header nav a[href=\"/learn\"][aria-current=page]')",
            "the header's link, current",
        )
        .await;
        settled(&p, "playing", "the first step").await;

        // The cursor starts at the centre (C3 on 5×5): Enter places there.
        p.keys(&[Key::Enter.into()]).await;
        settled(&p, "done", "C3 placed from the keyboard").await;
        p.stone("C3", "white").await;
        p.click("#learn-next").await;
        settled(&p, "playing", "step 2").await;
        p.contains("lesson-where", "step 2 of 2").await;

        // A mouse hover previews a refusal with its sign; a click says why.
        p.hover("C2").await;
        p.wait(
            "document.querySelector('[data-preview]')",
            "the preview of C2",
        )
        .await;
        p.point("D4").await;
        says(&p, "lesson-refusal", "D4 is already occupied", "D4").await;

        // Reloaded, the page comes back to the same step, the first one done.
        p.goto("/learn").await;
        settled(&p, "playing", "the page reloaded").await;
        p.contains("lesson-where", "step 2 of 2").await;
        let stored = p
            .js("return JSON.parse(localStorage.getItem('sygo.learn')).done.placement;")
            .await;
        assert_eq!(stored, Value::from(1));

        // A lesson chosen from the list; then progress forgotten.
        p.click("#lesson-list summary").await;
        p.click("[data-lesson=\"seki\"]").await;
        says(&p, "lesson-title", "Seki", "the seki lesson").await;
        settled(&p, "playing", "the seki lesson").await;
        p.wait("location.hash === '#seki'", "the lesson in the address")
            .await;
        p.goto("/learn#capture").await;
        says(
            &p,
            "lesson-title",
            "Capture: stones turn over",
            "a lesson's own address",
        )
        .await;
        p.click("#lesson-list summary").await;
        p.click("#learn-reset").await;
        says(
            &p,
            "lesson-title",
            "Placing a stone",
            "the first lesson again",
        )
        .await;
        let stored = p
            .js("return JSON.parse(localStorage.getItem('sygo.learn')).done;")
            .await;
        assert_eq!(stored, serde_json::json!({}));
    });
}

/// The server's answers of status `status` so far, as the page's resource
/// timings record them.
async fn answers_of_status(p: &Page, status: u16) -> Value {
    p.js(&format!(
        "return performance.getEntriesByType('resource')
           .filter(e => e.responseStatus === {status}).map(e => e.name);"
    ))
    .await
}

#[test]
fn a_tap_after_a_wrong_try_starts_the_step_again_with_that_tap() {
    run(async |env| {
        let p = env.phone("tutorial-retry").await;
        p.goto("/learn#placement").await;
        settled(&p, "playing", "the first step").await;
        p.point("C3").await;
        settled(&p, "done", "step 1").await;
        p.click("#learn-next").await;
        settled(&p, "playing", "step 2").await;
        p.contains("lesson-where", "step 2 of 2").await;

        // C4 grows the group at C3: a legal turn that misses the goal.
        p.point("C4").await;
        p.pending("C4", 1).await;
        p.click("#learn-finish").await;
        settled(&p, "missed", "C4 played").await;
        p.contains("lesson-turn", "Tap a point to try again").await;
        p.screenshot("tutorial-missed.png", true).await;

        // A tap on the board, without Try again: the step starts again and
        // the tap is its first stone (E1, a placement, is played at once).
        p.point("E1").await;
        settled(&p, "done", "E1 after the wrong try").await;
        p.stone("E1", "white").await;
        let c4 = p
            .js("return !!document.querySelector('[data-stone=\"C4\"]');")
            .await;
        assert_eq!(c4, Value::Bool(false), "the wrong try is gone");
        p.contains("lesson-turn", "You played E1.").await;
        p.screenshot("tutorial-retry-by-tap.png", true).await;
        assert_eq!(
            answers_of_status(&p, 422).await,
            serde_json::json!([]),
            "no refused request"
        );
    });
}
