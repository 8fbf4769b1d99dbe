//! Playing on a phone by touch: a real phone's viewport (390×844 CSS px at
//! pixel ratio 3) with touch events only, no mouse (`Page::phone`). A tap
//! previews a point (a ghost stone, its effect in words), a second tap on it
//! or the Play button under the board plays it; growth turns of several
//! groups and Black's balance turn; on big boards the first tap zooms the
//! view so that a point is hit surely.
//!
//! Games against the AI show the AI answering taps; the growth and balance
//! scenarios are set up through the API on a page that plays both sides, so
//! that the position is known.

use std::time::Duration;

use serde_json::{Value, json};

use crate::harness::{Page, run};

/// A game through the API with `turns` played, opened on the page with the
/// tokens of its human sides (the browser remembers them): its id.
pub async fn game_at(p: &Page, spec: Value, turns: &[(&str, &str)]) -> String {
    game_with_tokens(p, spec, turns).await.0
}

/// A game through the API with `turns` played, not opened: its id and the
/// tokens of its sides (`Value::Null` for the AI).
pub async fn game_played(p: &Page, spec: Value, turns: &[(&str, &str)]) -> (String, Value, Value) {
    let (id, black, white) = p.create_game(spec).await;
    let token = |color: &str| -> &Value { if color == "black" { &black } else { &white } };
    let played: Vec<(&Value, &str)> = turns.iter().map(|(c, t)| (token(c), *t)).collect();
    p.play_api(&id, &played).await;
    (id, black, white)
}

/// As [`game_at`], with the tokens.
pub async fn game_with_tokens(
    p: &Page,
    spec: Value,
    turns: &[(&str, &str)],
) -> (String, Value, Value) {
    let (id, black, white) = game_played(p, spec, turns).await;
    let mut fragment = Vec::new();
    for (side, t) in [("black", &black), ("white", &white)] {
        if let Some(t) = t.as_str() {
            fragment.push(format!("{side}={t}"));
        }
    }
    p.goto(&format!("/game/{id}#{}", fragment.join("&"))).await;
    p.wait("document.querySelector('svg.board')", "the board")
        .await;
    (id, black, white)
}

pub fn people(variant: &str, size: u32) -> Value {
    json!({"variant": variant, "size": size, "black": {"kind": "human"}, "white": {"kind": "human"}})
}

pub fn against_ai(variant: &str, size: u32) -> Value {
    json!({"variant": variant, "size": size, "black": {"kind": "human"},
           "white": {"kind": "ai", "level": 1, "time_ms": 100}})
}

/// A first tap on a point: previewed (armed), nothing played yet.
pub async fn tap_preview(p: &Page, point: &str) {
    p.point(point).await;
    p.wait(
        &format!(r#"document.querySelector('[data-armed="{point}"]')"#),
        &format!("{point} previewed after one tap"),
    )
    .await;
    // The second tap of a person comes later than a jitter.
    tokio::time::sleep(Duration::from_millis(300)).await;
}

/// Tap, then tap again: the point is played (or added to the turn).
pub async fn tap_tap(p: &Page, point: &str) {
    tap_preview(p, point).await;
    p.point(point).await;
}

/// A vacant point of `candidates` on the page's board.
async fn vacant(p: &Page, candidates: &[&str]) -> String {
    let v = p
        .js(&format!(
            "return {}.find(q => !document.querySelector(`[data-stone=\"${{q}}\"]`));",
            json!(candidates)
        ))
        .await;
    v.as_str().expect("a vacant point").to_string()
}

#[test]
fn a_phone_plays_placements_against_the_ai_on_sygo_9_by_tap_and_tap_again() {
    run(async |env| {
        let p = env.phone("phone placements").await;
        game_at(&p, against_ai("sygo", 9), &[]).await;
        p.wait(
            "document.querySelectorAll('[data-color=white]').length === 1",
            "the AI's first turn",
        )
        .await;
        p.to_move("black").await;
        // One tap: a ghost stone and its effect in words, nothing played.
        let first = vacant(&p, &["E5", "C3", "G7"]).await;
        tap_preview(&p, &first).await;
        p.contains("preview", "Tap").await;
        assert_eq!(
            p.js("return document.querySelectorAll('[data-color=black]').length;")
                .await,
            json!(0)
        );
        // The second tap plays it; the AI answers.
        p.point(&first).await;
        p.stone(&first, "black").await;
        p.wait(
            "document.querySelectorAll('#moves li[data-turn]').length === 3",
            "the AI's answer",
        )
        .await;
        p.to_move("black").await;
        // A tap, then the Play button under the board.
        let second = vacant(&p, &["C7", "G3", "A1"]).await;
        tap_preview(&p, &second).await;
        p.contains("play-button", &format!("Play {second}")).await;
        p.click("#play-button").await;
        p.stone(&second, "black").await;
        p.screenshot("phone-sygo-9.png", true).await;
    });
}

#[test]
fn a_phone_grows_two_groups_in_one_turn_and_finishes_it() {
    run(async |env| {
        let p = env.phone("phone growth").await;
        // Anything the Content-Security-Policy refuses is recorded (and
        // would be missing from the page).
        crate::cdp::cdp(
            &p,
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": "window.__refused = []; document.addEventListener('securitypolicyviolation', \
                   (e) => window.__refused.push(e.violatedDirective + ' ' + e.blockedURI));"}),
        )
        .await;
        // White's A3 and C1 each grow: A2 and B1, which reverses A1.
        game_at(
            &p,
            people("sygo", 9),
            &[
                ("white", "A3"),
                ("black", "G3"),
                ("white", "C1"),
                ("black", "G4,A1"),
            ],
        )
        .await;
        p.to_move("white").await;
        tap_tap(&p, "A2").await;
        p.pending("A2", 1).await;
        p.contains("move-options", "Growth turn: 1 stone pending")
            .await;
        tap_preview(&p, "B1").await;
        p.wait(
            r#"document.querySelector('[data-would-reverse="A1"]')"#,
            "the capture previewed",
        )
        .await;
        p.point("B1").await;
        p.pending("B1", 2).await;
        p.contains("finish-button", "Finish turn (2 stones)").await;
        p.click("#finish-button").await;
        p.to_move("black").await;
        p.stone("A1", "white").await;
        p.stone("B1", "white").await;
        // A1 turned over meanwhile (its animation's delay set through the
        // CSSOM, which the policy allows; a style attribute it refuses).
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(
            p.js("return window.__refused;").await,
            json!([]),
            "nothing refused by the CSP"
        );
    });
}

#[test]
fn a_phone_plays_blacks_balance_turn_on_hexsygo() {
    run(async |env| {
        let p = env.phone("phone balance").await;
        game_at(
            &p,
            people("hexsygo", 5),
            &[("white", "A3"), ("black", "E5"), ("white", "C1")],
        )
        .await;
        p.to_move("black").await;
        p.contains("move-options", "Balance turn available").await;
        tap_tap(&p, "E6").await;
        p.pending("E6", 1).await;
        tap_tap(&p, "A1").await;
        p.pending("A1", 2).await;
        p.contains("move-options", "grown and placed").await;
        p.click("#finish-button").await;
        p.stone("A1", "black").await;
        p.stone("E6", "black").await;
        p.to_move("white").await;
        p.screenshot("phone-hexsygo-5.png", true).await;
    });
}

#[test]
fn a_phone_plays_against_the_ai_on_hexsygo() {
    run(async |env| {
        let p = env.phone("phone hex ai").await;
        game_at(&p, against_ai("hexsygo", 4), &[]).await;
        p.wait(
            "document.querySelectorAll('[data-color=white]').length === 1",
            "the AI's first turn",
        )
        .await;
        p.to_move("black").await;
        let point = vacant(&p, &["D4", "B2", "F6"]).await;
        tap_tap(&p, &point).await;
        p.stone(&point, "black").await;
        p.wait(
            "document.querySelectorAll('#moves li[data-turn]').length === 3",
            "the AI's answer",
        )
        .await;
    });
}

/// The size on screen of one point of the board, in CSS px.
async fn point_size(p: &Page, point: &str) -> f64 {
    p.js(&format!(
        r#"const r = document.querySelector('[data-point="{point}"]').getBoundingClientRect(); return Math.min(r.width, r.height);"#
    ))
    .await
    .as_f64()
    .expect("a size")
}

#[test]
fn on_sygo_19_the_first_tap_zooms_so_that_the_point_tapped_is_hit() {
    run(async |env| {
        let p = env.phone("phone 19").await;
        game_at(&p, people("sygo", 19), &[]).await;
        p.to_move("white").await;
        let small = point_size(&p, "K10").await;
        assert!(
            small < 25.0,
            "a point of the whole 19×19 board is small on a phone: {small} px"
        );
        // The first tap zooms onto that part of the board and previews K10.
        tap_preview(&p, "K10").await;
        p.wait(
            "document.querySelector('svg.board[data-zoomed]')",
            "the zoomed view",
        )
        .await;
        let big = point_size(&p, "K10").await;
        assert!(
            big >= 40.0,
            "a point of the zoomed view is big enough for a finger: {big} px"
        );
        // A tap off the centre of a neighbour (a third of a point away)
        // hits that neighbour, not K10.
        p.tap_at(r#"[data-point="L10"]"#, big / 3.0, -big / 3.0)
            .await;
        p.wait(
            r#"document.querySelector('[data-armed="L10"]')"#,
            "L10 previewed",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        p.point("L10").await;
        p.stone("L10", "white").await;
        // The turn played, the whole board again.
        p.wait(
            "!document.querySelector('svg.board[data-zoomed]')",
            "the whole board",
        )
        .await;
        p.to_move("black").await;
        // Whole board also on request.
        tap_preview(&p, "C3").await;
        p.wait("document.querySelector('svg.board[data-zoomed]')", "zoomed")
            .await;
        p.click("#whole-button").await;
        p.wait(
            "!document.querySelector('svg.board[data-zoomed]')",
            "the whole board",
        )
        .await;
        // A tap on the whole board, even on the point previewed, only zooms.
        p.point("C3").await;
        p.wait(
            "document.querySelector('svg.board[data-zoomed]')",
            "zoomed again",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(
            p.js("return document.querySelectorAll('[data-stone]').length;")
                .await,
            json!(1)
        );
        p.screenshot("phone-sygo-19.png", true).await;
    });
}

#[test]
fn on_hexsygo_10_a_tap_zooms_and_the_second_plays() {
    run(async |env| {
        let p = env.phone("phone hex 10").await;
        game_at(&p, people("hexsygo", 10), &[]).await;
        p.to_move("white").await;
        tap_preview(&p, "J10").await;
        p.wait(
            "document.querySelector('svg.board[data-zoomed]')",
            "the zoomed view",
        )
        .await;
        let big = point_size(&p, "J10").await;
        assert!(
            big >= 35.0,
            "a cell of the zoomed hexagon is big enough for a finger: {big} px"
        );
        p.point("J10").await;
        p.stone("J10", "white").await;
    });
}

#[test]
fn every_control_of_the_game_page_is_at_least_44_px_on_a_phone() {
    run(async |env| {
        let p = env.phone("phone sizes").await;
        game_at(&p, against_ai("sygo", 9), &[]).await;
        p.to_move("black").await;
        let small = p
            .js(
                "const out = [];
                 for (const e of document.querySelectorAll('button, select, summary, input[type=text], label.check, a')) {
                   const r = e.getBoundingClientRect();
                   // Not shown: hidden, or off the screen (the skip link until focused).
                   if ((r.width === 0 && r.height === 0) || r.right <= 0) continue;
                   if (r.width < 44 || r.height < 44) out.push(`${e.tagName} ${e.id || e.textContent.trim().slice(0, 20)}: ${r.width}x${r.height}`);
                 }
                 return out;",
            )
            .await;
        assert_eq!(small, json!([]), "controls smaller than 44 CSS px");
        // The board fills the width of the screen in portrait.
        let width = p
            .js("return [document.querySelector('svg.board').getBoundingClientRect().width, window.innerWidth];")
            .await;
        let (board, screen) = (width[0].as_f64().unwrap(), width[1].as_f64().unwrap());
        assert!(
            board >= screen - 16.0,
            "the board is {board} px wide on a {screen} px screen"
        );
    });
}

#[test]
fn on_a_phone_on_its_side_the_board_fits_the_height_with_the_buttons_beside_it() {
    run(async |env| {
        let p = env.phone("landscape").await;
        game_at(&p, people("sygo", 19), &[]).await;
        p.to_move("white").await;
        // Turned on its side (after the page loaded: chromedriver sets the
        // phone's metrics again on every navigation).
        crate::cdp::cdp(
            &p,
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 844, "height": 390, "deviceScaleFactor": 3, "mobile": true,
                   "screenOrientation": {"type": "landscapePrimary", "angle": 90}}),
        )
        .await;
        p.wait(
            "window.innerWidth === 844 && window.innerHeight === 390",
            "the phone on its side",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        p.screenshot("phone-landscape-19.png", true).await;
        let boxes = p
            .js(
                "const b = document.querySelector('svg.board').getBoundingClientRect();
                 const c = document.getElementById('play-button').getBoundingClientRect();
                 return [b.top, b.bottom, b.right, c.left, c.bottom, window.innerHeight];",
            )
            .await;
        let v: Vec<f64> = boxes
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        let (top, bottom, right, play_left, play_bottom, height) =
            (v[0], v[1], v[2], v[3], v[4], v[5]);
        assert!(
            top >= 0.0 && bottom <= height,
            "the board fits the height: {top}..{bottom} of {height}"
        );
        assert!(
            play_left >= right,
            "the buttons are beside the board: {play_left} >= {right}"
        );
        assert!(
            play_bottom <= height,
            "Play is on the screen: {play_bottom} <= {height}"
        );
        p.screenshot("phone-landscape-19.png", true).await;
    });
}

/// Where every button of the turn's controls is (shown or hidden), in the
/// page's coordinates: `id left top width height`, one a line.
async fn control_boxes(p: &Page) -> String {
    p.js(
        "return [...document.querySelectorAll('#controls button')].map((b) => {
            const r = b.getBoundingClientRect();
            return `${b.id} ${r.left} ${r.top + window.scrollY} ${r.width} ${r.height}`;
          }).join('\\n');",
    )
    .await
    .as_str()
    .expect("the boxes")
    .to_string()
}

/// Black's G3 grows to G4 (a pending stone of the balance turn), then C6 is
/// previewed (its placement: "Play C6"): no control moves or changes its
/// size.
async fn controls_stay_put(p: &Page, size: u32) {
    game_at(
        p,
        people("sygo", size),
        &[("white", "A3"), ("black", "G3"), ("white", "C1")],
    )
    .await;
    p.to_move("black").await;
    let before = control_boxes(p).await;
    tap_tap(p, "G4").await;
    p.pending("G4", 1).await;
    p.contains("finish-button", "Finish turn (1 stone)").await;
    assert_eq!(control_boxes(p).await, before, "after a stone put down");
    tap_preview(p, "C6").await;
    p.contains("play-button", "Play C6").await;
    p.wait(
        "!document.getElementById('play-button').disabled",
        "Play enabled",
    )
    .await;
    assert_eq!(control_boxes(p).await, before, "after a preview");
    p.screenshot(&format!("phone-controls-{size}.png"), true)
        .await;
}

#[test]
fn on_sygo_9_no_control_moves_when_a_stone_is_put_down_and_previewed() {
    run(async |env| {
        let p = env.phone("controls 9").await;
        controls_stay_put(&p, 9).await;
    });
}

#[test]
fn on_sygo_19_no_control_moves_when_a_stone_is_put_down_and_previewed() {
    run(async |env| {
        let p = env.phone("controls 19").await;
        controls_stay_put(&p, 19).await;
    });
}

/// Twelve placements on sygo 9, White first.
const TWELVE: [(&str, &str); 12] = [
    ("white", "A1"),
    ("black", "J9"),
    ("white", "A3"),
    ("black", "J7"),
    ("white", "A5"),
    ("black", "J5"),
    ("white", "A7"),
    ("black", "J3"),
    ("white", "A9"),
    ("black", "J1"),
    ("white", "C1"),
    ("black", "G9"),
];

#[test]
fn the_review_line_keeps_its_height_when_it_says_reviewing() {
    run(async |env| {
        let p = env.phone("review line").await;
        game_at(&p, people("sygo", 9), &TWELVE).await;
        p.contains("shown-turn", "Turn 12 of 12").await;
        let height =
            "return document.querySelector('.review-buttons').getBoundingClientRect().height;";
        let before = p.js(height).await;
        p.click("[data-review=previous]").await;
        p.contains("shown-turn", "Turn 11 of 12 (reviewing)").await;
        assert_eq!(p.js(height).await, before, "the review line's height");
    });
}

#[test]
fn a_turn_tapped_in_the_move_list_far_down_shows_the_board_in_sight() {
    run(async |env| {
        let p = env.phone("board in sight").await;
        game_at(&p, people("sygo", 9), &TWELVE).await;
        p.contains("shown-turn", "Turn 12 of 12").await;
        p.click(r#"#moves [data-turn="3"] button"#).await;
        p.contains("shown-turn", "Turn 3 of 12 (reviewing)").await;
        p.wait(
            "!document.querySelector('[data-stone=\"J5\"]')",
            "turn 3's position",
        )
        .await;
        let v = p
            .js(
                "const b = document.querySelector('svg.board').getBoundingClientRect();
                 const m = document.querySelector('#moves').getBoundingClientRect();
                 return [b.top, b.bottom, window.innerHeight, window.scrollY, m.top];",
            )
            .await;
        let v: Vec<f64> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert!(
            v[3] > 300.0,
            "the page was scrolled down to the list: {v:?}"
        );
        assert!(
            v[0] >= 0.0 && v[1] <= v[2],
            "the board is within the screen: {v:?}"
        );
        assert!(v[4] >= v[1], "the list is not under the board: {v:?}");
        p.js("return true;").await;
        let png = p.client.screenshot().await.expect("a screenshot");
        let dir = crate::harness::root().join("target/screenshots");
        std::fs::create_dir_all(&dir).expect("target/screenshots");
        std::fs::write(dir.join("phone-board-in-sight.png"), png).expect("written");
    });
}

/// The ids of the primary (solid blue) buttons shown.
async fn primary(p: &Page) -> Value {
    p.js(
        "return [...document.querySelectorAll('#controls button.primary')]
            .filter((b) => !b.hidden).map((b) => b.id);",
    )
    .await
}

#[test]
fn the_balance_turn_shows_one_next_action_at_a_time() {
    run(async |env| {
        let p = env.phone("one next action").await;
        game_at(
            &p,
            people("sygo", 9),
            &[("white", "A3"), ("black", "G3"), ("white", "C1")],
        )
        .await;
        p.to_move("black").await;
        tap_tap(&p, "G4").await;
        p.pending("G4", 1).await;
        assert_eq!(primary(&p).await, json!(["finish-button"]));
        // The placement previewed: Play is the next action, and the words say
        // it is the turn's last stone, played by Finish turn.
        tap_preview(&p, "C6").await;
        p.contains("preview", "the balance turn's last stone").await;
        p.contains("preview", "Then press Finish turn").await;
        assert_eq!(primary(&p).await, json!(["play-button"]));
        p.click("#play-button").await;
        p.pending("C6", 2).await;
        p.contains("move-options", "Press Finish turn to play it")
            .await;
        assert_eq!(primary(&p).await, json!(["finish-button"]));
        p.click("#finish-button").await;
        p.stone("C6", "black").await;
        p.to_move("white").await;
    });
}

/// The controls of the page (buttons, selects, inputs, links; a radio
/// button or a check box by its label) shown less than 44 CSS px tall.
async fn small_controls(p: &Page) -> Value {
    p.js("const out = [];
          const controls = document.querySelectorAll(
            'main button, main select, main input:not([type=radio]):not([type=checkbox]), main a, main label:has(input[type=radio])');
          for (const e of controls) {
            const r = e.getBoundingClientRect();
            if (r.width === 0 && r.height === 0) continue;
            if (r.height < 44) out.push(`${e.tagName} ${e.id || e.textContent.trim().slice(0, 30)}: ${r.height}`);
          }
          return out;")
        .await
}

#[test]
fn every_control_of_the_home_page_and_the_games_list_is_44_px_tall_on_a_phone() {
    run(async |env| {
        let p = env.phone("home sizes").await;
        p.paste_record(include_str!(
            "../../../sygo-server/tests/records/uploaded.sgf"
        ))
        .await;
        p.wait(
            "location.pathname.startsWith('/game/')",
            "the uploaded record",
        )
        .await;
        game_at(&p, people("sygo", 9), &[("white", "E5")]).await;
        p.goto("/").await;
        p.wait("document.getElementById('ai-time')", "the home page")
            .await;
        p.screenshot("phone-home.png", true).await;
        assert_eq!(small_controls(&p).await, json!([]), "on the home page");
        // Each label beside its select; no radio button squeezed.
        let v = p
            .js("const l = document.querySelector('label[for=size]').getBoundingClientRect();
                 const s = document.getElementById('size').getBoundingClientRect();
                 const r = document.getElementById('mode-online').getBoundingClientRect();
                 return [l.right <= s.left + 1, Math.abs(l.top + l.height / 2 - (s.top + s.height / 2)) < 4, r.width];")
            .await;
        assert_eq!(
            v,
            json!([true, true, 22]),
            "the size's label, the online radio"
        );
        p.goto("/games").await;
        p.wait(
            "document.querySelector('.games tbody tr')",
            "the games list",
        )
        .await;
        p.screenshot("phone-games.png", true).await;
        assert_eq!(small_controls(&p).await, json!([]), "on /games");
        let widths = p
            .js("return [document.documentElement.scrollWidth, window.innerWidth];")
            .await;
        assert_eq!(widths[0], widths[1], "the list fits the screen's width");
        let names = p
            .js("return [...document.querySelectorAll('[data-player]')].map((e) => e.textContent).join(' ');")
            .await;
        // The games played here: the uploaded record is reached by its link,
        // not listed.
        assert_eq!(
            names,
            json!("person person"),
            "the game of two people alone"
        );
    });
}

#[test]
fn a_phone_is_told_to_tap_and_shown_no_keyboard_help() {
    run(async |env| {
        let p = env.phone("tap words").await;
        game_at(&p, people("sygo", 9), &[("white", "A3"), ("black", "G3")]).await;
        p.to_move("white").await;
        tap_tap(&p, "A4").await;
        p.pending("A4", 1).await;
        p.contains("legend", "tap it to take it back").await;
        let keys = p
            .js("return document.querySelector('.keys-box').getClientRects().length;")
            .await;
        assert_eq!(keys, json!(0), "no help for a keyboard");
        p.click("[data-review=previous]").await;
        p.contains("move-options", "tap ▶| to return to the game")
            .await;
    });
}
