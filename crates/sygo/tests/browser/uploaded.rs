//! An uploaded record reviewed whole: the players' names, the comment at
//! each turn, the turns described as the rules played them (a balance turn,
//! a growth of two groups that reverses a stone), a variation entered,
//! stepped along and left, the AI's review with its win-rate graph (a turn
//! chosen on it, its best turn and ownership); on a desktop and by touch on
//! a phone; and a
//! hostile record (script and markup in every text) shown as text with
//! none of it run.

use serde_json::json;

use crate::harness::{Page, run};
use crate::review::{graph_done, graph_to};

/// The record of the server's tests: names, comments, a pass, Black's
/// balance turn, a growth of two groups reversing G1, and an alternative to
/// the balance turn (A7, answered by C3).
const RECORD: &str = include_str!("../../../sygo-server/tests/records/uploaded.sgf");

/// Script and markup in every text property (names, game name, event,
/// date, place, comments, a node's name).
const HOSTILE: &str = include_str!("../../../sygo-server/tests/records/hostile.sgf");

/// Uploads a record from the home page's form, as a person does, and waits
/// for its game page with its record shown.
async fn upload(p: &Page, record: &str) {
    p.paste_record(record).await;
    p.wait(
        "location.pathname.startsWith('/game/') && document.getElementById('record-comment')",
        "the uploaded game with its record",
    )
    .await;
}

/// Shows turn `n` from the move list.
async fn show_turn(p: &Page, n: usize) {
    p.click(&format!(r#"#moves li[data-turn="{n}"] button"#))
        .await;
    p.contains("shown-turn", &format!("Turn {n} of 8")).await;
}

/// One step back along the variation, with `button`: from C3 to A7, its
/// first turn.
async fn back_to_a7(p: &Page, button: &str) {
    p.click(button).await;
    p.contains("variation-where", "turn 6: Black placed A7.")
        .await;
    p.wait(
        r#"!document.querySelector('[data-stone="C3"]')"#,
        "C3 gone one step back",
    )
    .await;
}

/// The review of the whole record on a device: names, comments, the turns'
/// descriptions, a variation in and out.
async fn review(p: &Page) {
    upload(p, RECORD).await;
    p.contains("names", "Ann").await;
    p.contains("names", "Bob").await;
    p.contains("game-info", "Test game · Club night").await;
    // At the end: the last turn in words.
    p.contains("last-turn", "Black grew B4.").await;
    // The move list says what each turn did.
    assert_eq!(
        p.text(r#"#moves li[data-turn="6"] button"#).await,
        "6. Black's balance turn: grew B5 and placed D4."
    );
    assert_eq!(
        p.text(r#"#moves li[data-turn="5"] button"#).await,
        "5. White passed."
    );
    // The start, with the root's comment.
    p.click(r#"[data-review="first"]"#).await;
    p.contains("record-comment", "Root comment").await;
    p.click(r#"[data-review="next"]"#).await;
    p.contains("record-comment", "White opens").await;
    p.contains("last-turn", "White placed E1.").await;
    // The growth of two groups that reverses G1.
    show_turn(p, 7).await;
    p.contains("last-turn", "White grew F1 and G2, reversing G1.")
        .await;
    p.stone("G1", "white").await;
    p.contains("record-comment", "No comment here.").await;
    // The balance turn, with its comment.
    show_turn(p, 6).await;
    p.contains("last-turn", "Black's balance turn: grew B5 and placed D4.")
        .await;
    p.contains("record-comment", "The balance turn").await;
    // After the pass the record has two turns: the main line and A7.
    show_turn(p, 5).await;
    p.contains(
        "variation-list",
        "Black's balance turn: grew B5 and placed D4. (main line)",
    )
    .await;
    p.contains("variation-list", "Black placed A7.").await;
    p.screenshot(&format!("uploaded-{}-fork.png", p.name), true)
        .await;
    p.click(r#"[data-node="9"]"#).await;
    p.contains("record-comment", "An alternative").await;
    p.contains("variation-where", "Black placed A7. (Other idea)")
        .await;
    p.stone("A7", "black").await;
    p.contains("last-turn", "Black placed A7.").await;
    // One step along it, one back, and the main line again.
    p.click(r#"[data-variation="next"]"#).await;
    p.stone("C3", "white").await;
    p.contains("variation-where", "turn 7: White placed C3.")
        .await;
    p.screenshot(&format!("uploaded-{}-variation.png", p.name), true)
        .await;
    back_to_a7(p, r#"[data-variation="back"]"#).await;
    p.click(r#"[data-variation="main"]"#).await;
    p.contains("shown-turn", "Turn 5 of 8").await;
    p.wait(
        r#"!document.querySelector('[data-stone="A7"]') && !document.getElementById('variation-where')"#,
        "the main line at turn 5",
    )
    .await;
    p.contains("last-turn", "White passed.").await;
}

#[test]
fn an_uploaded_record_is_reviewed_whole_on_a_desktop() {
    run(async |env| {
        let p = env.desktop("uploaded-desktop").await;
        review(&p).await;
        // The AI's review of the record: its graph, a turn chosen on it,
        // and there the turn as the record has it, the AI's best turn and
        // who owns what.
        let id = p.js("return location.pathname.split('/').pop();").await;
        let id = id.as_str().expect("the game's id").to_string();
        p.click("#review-button").await;
        let positions = graph_done(&p, &id).await;
        assert_eq!(positions, 9, "the main line's 8 turns and the start");
        graph_to(&p, &id, 6, 8).await;
        p.contains("last-turn", "Black's balance turn: grew B5 and placed D4.")
            .await;
        p.contains("record-comment", "The balance turn").await;
        graph_to(&p, &id, 5, 8).await;
        // From the keyboard: into the variation with Enter, along it with
        // the review keys, out with its button.
        p.find(r#"[data-node="9"]"#)
            .await
            .send_keys("\u{E007}")
            .await
            .expect("Enter on the variation");
        p.contains("record-comment", "An alternative").await;
        p.keys(&['.']).await;
        p.stone("C3", "white").await;
        p.keys(&[',']).await;
        p.contains("variation-where", "turn 6: Black placed A7.")
            .await;
        p.close().await;
    });
}

#[test]
fn an_uploaded_record_is_reviewed_whole_on_a_phone_by_touch() {
    run(async |env| {
        let p = env.phone("uploaded-phone").await;
        review(&p).await;
        // Back at the fork: every variation control is a finger's size.
        let small = p
            .js("return [...document.querySelectorAll('#record button')]
                   .map(b => b.getBoundingClientRect())
                   .filter(r => r.height < 44 || r.width < 44).length;")
            .await;
        assert_eq!(small, json!(0), "variation buttons under 44 CSS px");
        p.close().await;
    });
}

#[test]
fn a_hostile_record_is_shown_as_text_and_runs_nothing() {
    run(async |env| {
        let p = env.desktop("uploaded-hostile").await;
        upload(&p, HOSTILE).await;
        p.contains("names", "<script>window.__pwned=1</script>")
            .await;
        p.contains("names", "<img src=x onerror=\"window.__pwned=2\">")
            .await;
        p.contains("game-info", "javascript:window.__pwned=3").await;
        p.contains("record-comment", "javascript:alert('main')")
            .await;
        p.click(r#"[data-review="first"]"#).await;
        p.contains("record-comment", "<script>window.__pwned=5</script> root")
            .await;
        p.click(r#"[data-review="next"]"#).await;
        p.contains("record-comment", "<img src=x onerror=alert(1)>")
            .await;
        // Into each variation, whose comments are script too.
        p.click(r#"[data-node="3"]"#).await;
        p.contains(
            "record-comment",
            "<iframe src=\"javascript:alert(1)\"></iframe>",
        )
        .await;
        p.screenshot("uploaded-hostile.png", true).await;
        // Nothing ran: no global set, no alert open (a script would fail
        // with one open), no element made from the record's text.
        assert!(p.client.get_alert_text().await.is_err(), "an alert is open");
        let state = p
            .js("return [typeof window.__pwned,
                   document.querySelectorAll('#app script, #app img, #app iframe, #app svg a, \
                    #record-players b, #record a').length,
                   document.body.innerText.includes('<script>')];")
            .await;
        assert_eq!(state, json!(["undefined", 0, true]));
        p.close().await;
    });
}

#[test]
fn an_uploaded_record_says_it_is_stepped_through_not_played() {
    run(async |env| {
        let p = env.phone("uploaded words").await;
        upload(&p, RECORD).await;
        p.contains(
            "move-options",
            "An uploaded record: step through it, or ask the AI to review it.",
        )
        .await;
        let words = p.text("#move-options").await;
        assert!(!words.contains("watching"), "{words}");
        p.point("A1").await;
        p.contains("message", "An uploaded record: step through it")
            .await;
    });
}

#[test]
fn in_a_variation_the_review_line_and_its_arrows_follow_the_variation() {
    run(async |env| {
        let p = env.desktop("uploaded variation arrows").await;
        upload(&p, RECORD).await;
        show_turn(&p, 5).await;
        p.click(r#"[data-node="9"]"#).await;
        p.stone("A7", "black").await;
        // The line says a variation is shown, and no main-line turn is marked.
        p.contains("shown-turn", "In a variation, turn 6").await;
        let text = p.text("#shown-turn").await;
        assert!(!text.contains("of 8"), "{text}");
        let marked = p
            .js("return document.querySelectorAll('#moves li.current, #moves [aria-current]').length;")
            .await;
        assert_eq!(marked, json!(0), "a main-line turn marked in a variation");
        // ▶ goes along the variation (C3), not to the main line's turn 6.
        p.click(r#"[data-review="next"]"#).await;
        p.stone("C3", "white").await;
        p.contains("variation-where", "turn 7: White placed C3.")
            .await;
        p.contains("shown-turn", "In a variation, turn 7").await;
        p.screenshot("uploaded-variation-arrows.png", true).await;
        let end = p
            .js(r#"return document.querySelector('[data-review="next"]').disabled;"#)
            .await;
        assert_eq!(end, json!(true), "▶ at the variation's end");
        // ◀ steps back along it, then to the fork on the main line.
        back_to_a7(&p, r#"[data-review="previous"]"#).await;
        p.click(r#"[data-review="previous"]"#).await;
        p.contains("shown-turn", "Turn 5 of 8").await;
        p.wait(
            r#"document.querySelector('#moves li.current[data-turn="5"]') && !document.getElementById('variation-where')"#,
            "the main line at turn 5, marked",
        )
        .await;
    });
}
