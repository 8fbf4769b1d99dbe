//! Playing on a desktop, with the mouse and the keyboard: both boards,
//! placements, growth turns built stone by stone, Black's balance turn,
//! captures and their preview, refusals, passes; two people online; a game
//! against the AI with a hint and an analysis; the games list, review,
//! download and upload.
//!
//! The sequences were worked out with `sygo gtp`. Positions a scenario does
//! not test are set up through the API.

use fantoccini::key::Key;
use serde_json::{Value, json};

use crate::harness::{Page, run};

/// A Sygo 9×9 game between two people started through the API, with these
/// turns played, opened on a page that holds both sides: its id.
async fn hot_seat_at(p: &Page, turns: &[(&str, &str)]) -> String {
    let (id, black, white) = p
        .create_game(json!({"variant": "sygo", "size": 9, "black": {"kind": "human"}, "white": {"kind": "human"}}))
        .await;
    let token = |color: &str| -> &Value { if color == "black" { &black } else { &white } };
    let turns: Vec<(&Value, &str)> = turns.iter().map(|(c, t)| (token(c), *t)).collect();
    p.play_api(&id, &turns).await;
    p.goto(&format!(
        "/game/{id}#black={}&white={}",
        black.as_str().unwrap(),
        white.as_str().unwrap()
    ))
    .await;
    p.wait(
        "document.querySelector('svg.board[data-board=square]')",
        "the square board",
    )
    .await;
    id
}

/// The opening the square scenarios share: White A3 and C1, Black G3 and
/// his balance turn G4 (grown), A1 (placed).
const OPENING: &[(&str, &str)] = &[
    ("white", "A3"),
    ("black", "G3"),
    ("white", "C1"),
    ("black", "G4,A1"),
];

/// After the opening, White's growth turn A2, B1 reversing A1.
const AFTER_CAPTURE: &[(&str, &str)] = &[
    ("white", "A3"),
    ("black", "G3"),
    ("white", "C1"),
    ("black", "G4,A1"),
    ("white", "A2,B1"),
];

#[test]
fn placements_and_the_balance_turn_on_sygo_9() {
    run(async |env| {
        let p = env.desktop("balance").await;
        p.new_game("sygo", 9, None, None, false).await;
        p.wait(
            "document.querySelector('svg.board[data-board=square]')",
            "the square board",
        )
        .await;
        p.wait(
            "document.querySelectorAll('[data-point]').length === 81",
            "81 points",
        )
        .await;
        p.to_move("white").await;

        // Placements are played at once.
        p.point("A3").await;
        p.stone("A3", "white").await;
        p.to_move("black").await;
        p.wait(
            "document.getElementById('balance-note').hidden",
            "no balance note while Black has no group",
        )
        .await;
        p.contains("announce", "White placed A3").await;
        p.point("G3").await;
        p.stone("G3", "black").await;
        p.point("C1").await;
        p.stone("C1", "white").await;
        p.to_move("black").await;

        // Black's balance turn: G4 grows G3, then A1 is placed.
        p.wait(
            "!document.getElementById('balance-note').hidden",
            "the balance note",
        )
        .await;
        p.point("G4").await;
        p.pending("G4", 1).await;
        // Placement squares would cover the board: the preview says it instead.
        p.hover("A1").await;
        p.wait(
            r#"document.querySelector('[data-preview="placement"]') && !document.querySelector('rect.allow.placement')"#,
            "A1 previewed as the placement, no square on every point",
        )
        .await;
        p.contains("preview", "a placement, the balance turn's last stone")
            .await;
        p.wait(
            "document.getElementById('finish-button').disabled === false",
            "Finish enabled",
        )
        .await;
        p.point("A1").await;
        p.pending("A1", 2).await;
        p.click("#finish-button").await;
        p.stone("A1", "black").await;
        p.stone("G4", "black").await;
        p.to_move("white").await;
        p.wait(
            "document.getElementById('balance-note').hidden",
            "no balance note for White",
        )
        .await;
    });
}

#[test]
fn a_growth_turn_built_stone_by_stone_reverses_a_stone() {
    run(async |env| {
        let p = env.desktop("growth").await;
        hot_seat_at(&p, OPENING).await;
        p.to_move("white").await;
        p.point("A2").await;
        p.pending("A2", 1).await;
        p.wait(
            r#"document.querySelector('[data-mark="grown"][data-at="A3"]')"#,
            "A3's group marked grown",
        )
        .await;
        p.wait(
            r#"document.querySelector('[data-mark="fresh"][data-at="C1"]')"#,
            "C1's group marked fresh",
        )
        .await;
        p.wait(
            r#"document.querySelector('path.allow.growth[data-allowed="B1"]')"#,
            "B1 offered",
        )
        .await;
        p.wait(
            "document.getElementById('finish-button').disabled === false",
            "Finish enabled",
        )
        .await;
        // Taken back by a second click, then played again.
        p.point("A2").await;
        p.wait("!document.querySelector('[data-pending]')", "A2 taken back")
            .await;
        p.point("A2").await;
        p.pending("A2", 1).await;
        p.hover("B1").await;
        p.wait(
            r#"document.querySelector('[data-would-reverse="A1"]')"#,
            "the preview marking A1",
        )
        .await;
        p.contains("preview", "reversing A1").await;
        p.screenshot("square-9-building.png", false).await;
        p.point("B1").await;
        p.pending("B1", 2).await;
        p.wait(
            r#"document.querySelector('[data-stone="A1"][data-color="white"]')"#,
            "A1 reversed while building",
        )
        .await;
        p.wait(
            r#"document.querySelector('[data-mark="frozen"][data-at="A3"]')"#,
            "the captors frozen",
        )
        .await;
        p.screenshot("square-9-capture.png", false).await;
        p.click("#finish-button").await;
        p.to_move("black").await;
        p.stone("A1", "white").await;
        p.wait(
            r#"document.querySelector('[data-mark="reversed"][data-at="A1"]')"#,
            "A1 marked reversed",
        )
        .await;
        p.contains("announce", "White grew A2 and B1, reversing A1")
            .await;
    });
}

#[test]
fn a_refused_click_says_why_and_changes_nothing() {
    run(async |env| {
        let p = env.desktop("refused").await;
        hot_seat_at(&p, AFTER_CAPTURE).await;
        p.to_move("black").await;
        p.point("G5").await;
        p.pending("G5", 1).await;
        p.point("G2").await;
        p.contains("message", "second time").await;
        p.wait(
            "!document.querySelector('[data-stone=\"G2\"]')",
            "G2 not played",
        )
        .await;
        p.click("#finish-button").await;
        p.stone("G5", "black").await;
        p.to_move("white").await;
        p.wait(
            "document.getElementById('message').textContent === ''",
            "the message cleared",
        )
        .await;
    });
}

#[test]
fn the_square_board_from_the_keyboard() {
    run(async |env| {
        let p = env.desktop("keyboard").await;
        let mut turns = AFTER_CAPTURE.to_vec();
        turns.push(("black", "G5"));
        hot_seat_at(&p, &turns).await;
        p.to_move("white").await;
        // The cursor starts at the centre, E5.
        p.keys(&[Key::Enter.into()]).await;
        p.stone("E5", "white").await;
        p.to_move("black").await;
        p.keys(&[
            Key::Right.into(),
            Key::Right.into(),
            Key::Up.into(),
            Key::Enter.into(),
        ])
        .await;
        p.pending("G6", 1).await;
        p.keys(&['f']).await;
        p.stone("G6", "black").await;
        p.to_move("white").await;
    });
}

#[test]
fn a_pass_and_the_territory_shown() {
    run(async |env| {
        let p = env.desktop("pass").await;
        let mut turns = AFTER_CAPTURE.to_vec();
        turns.extend([("black", "G5"), ("white", "E5"), ("black", "G6")]);
        hot_seat_at(&p, &turns).await;
        p.to_move("white").await;
        p.click("#pass-button").await;
        p.to_move("black").await;
        p.contains("announce", "White passed").await;
        p.click("#territory-toggle").await;
        p.wait(
            "document.getElementById('territory-toggle').checked",
            "territory shown",
        )
        .await;
        p.js("document.activeElement.blur(); return true;").await;
        p.screenshot("square-9.png", false).await;
        p.screenshot("square-9-page.png", true).await;
    });
}

#[test]
fn hexsygo_balance_turn_keyboard_and_a_three_stone_growth_turn() {
    run(async |env| {
        let p = env.desktop("hex").await;
        p.new_game("hexsygo", 5, None, None, false).await;
        p.wait(
            "document.querySelector('svg.board[data-board=hex]')",
            "the hexagonal board",
        )
        .await;
        p.wait(
            "document.querySelectorAll('[data-point]').length === 61",
            "61 cells",
        )
        .await;
        p.point("A3").await;
        p.stone("A3", "white").await;
        p.point("E5").await;
        p.stone("E5", "black").await;
        p.point("C1").await;
        p.stone("C1", "white").await;
        // The balance turn.
        p.wait(
            "!document.getElementById('balance-note').hidden",
            "the balance note",
        )
        .await;
        p.point("E6").await;
        p.pending("E6", 1).await;
        p.point("A1").await;
        p.pending("A1", 2).await;
        p.click("#finish-button").await;
        p.stone("A1", "black").await;
        p.to_move("white").await;
        // The keyboard on the hexagon: Z twice goes down-left from E5 to C3.
        p.keys(&['z', 'z']).await;
        p.wait(
            r#"document.querySelector('[data-cursor="C3"]')"#,
            "the cursor on C3",
        )
        .await;
        p.keys(&[Key::Enter.into()]).await;
        p.stone("C3", "white").await;
        p.to_move("black").await;
        p.click("#pass-button").await;
        p.to_move("white").await;
        // Three stones, three groups grown, the corner reversed.
        p.point("A2").await;
        p.pending("A2", 1).await;
        p.point("B1").await;
        p.pending("B1", 2).await;
        p.hover("B2").await;
        p.wait(
            r#"document.querySelector('[data-would-reverse="A1"]')"#,
            "the preview marking A1",
        )
        .await;
        p.screenshot("hex-5-building.png", false).await;
        p.point("B2").await;
        p.pending("B2", 3).await;
        p.click("#finish-button").await;
        p.to_move("black").await;
        p.stone("A1", "white").await;
        p.wait(
            r#"document.querySelector('[data-mark="reversed"][data-at="A1"]')"#,
            "A1 marked reversed",
        )
        .await;
        p.contains("announce", "White grew A2, B1 and B2, reversing A1")
            .await;
        p.js("document.activeElement.blur(); return true;").await;
        p.screenshot("hex-5.png", false).await;
        p.screenshot("hex-5-page.png", true).await;
    });
}

#[test]
fn two_people_online_see_each_others_turns() {
    run(async |env| {
        let p1 = env.desktop("online black").await;
        let p2 = env.desktop("online white").await;
        p1.new_game("sygo", 9, None, None, true).await;
        p1.screenshot("home-online-links.png", true).await;
        let black = p1.text("#link-black").await;
        let white = p1.text("#link-white").await;
        assert!(
            black.contains("#token="),
            "Black's link carries a token: {black}"
        );
        p1.goto(&black).await;
        p2.goto(&white).await;
        p1.contains("role", "You play Black").await;
        p2.contains("role", "You play White").await;
        p2.point("E5").await;
        p2.stone("E5", "white").await;
        // On Black's page without a reload.
        p1.stone("E5", "white").await;
        p1.to_move("black").await;
        p1.contains("announce", "White placed E5").await;
        p1.point("C3").await;
        p2.stone("C3", "black").await;
        p2.to_move("white").await;
        // Not Black's turn now.
        p1.point("D4").await;
        p1.contains("message", "wait for your opponent").await;
        // After a reload the page is live again.
        p1.client.refresh().await.expect("a reload");
        p1.stone("C3", "black").await;
        p1.stone("E5", "white").await;
        p2.point("E6").await;
        p2.pending("E6", 1).await;
        p2.click("#finish-button").await;
        p1.stone("E6", "white").await;
        p1.to_move("black").await;
        p2.close().await;
        p1.close().await;
    });
}

#[test]
fn against_the_ai_with_a_hint_and_an_analysis() {
    run(async |env| {
        let p = env.desktop("ai").await;
        p.new_game("sygo", 9, None, Some((1, 200)), false).await;
        // White (the AI) moves first.
        p.wait(
            "document.querySelectorAll('[data-color=white]').length >= 1",
            "the AI's first turn",
        )
        .await;
        p.to_move("black").await;
        let vacant = p
            .js("return ['A9','J1','A1','J9','E5'].find(q => !document.querySelector(`[data-stone=\"${q}\"]`));")
            .await;
        let vacant = vacant.as_str().expect("a vacant point").to_string();
        p.point(&vacant).await;
        p.stone(&vacant, "black").await;
        p.wait(
            "document.querySelectorAll('#moves li[data-turn]').length >= 3",
            "the AI's answer",
        )
        .await;
        p.to_move("black").await;
        p.click("#hint-button").await;
        p.contains("ai-out", "Hint for Black").await;
        p.wait(
            "document.querySelector('[data-hint]')",
            "the hint on the board",
        )
        .await;
        p.click("#analyse-button").await;
        p.contains("ai-out", "win probability").await;
        p.wait(
            "document.querySelector('[data-own]')",
            "ownership on the board",
        )
        .await;
        p.screenshot("square-9-analysis.png", false).await;
    });
}

#[test]
fn the_games_list_review_download_and_upload() {
    run(async |env| {
        let p = env.desktop("review").await;
        let mut turns = AFTER_CAPTURE.to_vec();
        turns.extend([("black", "G5"), ("white", "E5"), ("black", "G6")]);
        let id = hot_seat_at(&p, &turns).await;
        p.goto("/games").await;
        p.wait(
            &format!(r#"document.querySelector('a[href="/game/{id}"]')"#),
            "the game in the list",
        )
        .await;
        p.click(&format!(r#"a[href="/game/{id}"]"#)).await;
        p.wait(
            "document.querySelector('[data-review=first]')",
            "the review controls",
        )
        .await;
        let stones = p
            .js("return document.querySelectorAll('[data-stone]').length;")
            .await;
        p.click("[data-review=first]").await;
        p.wait(
            "document.querySelectorAll('[data-stone]').length === 0",
            "the empty board",
        )
        .await;
        p.contains("shown-turn", "Turn 0 of").await;
        p.click("[data-review=next]").await;
        p.stone("A3", "white").await;
        p.wait(
            "document.querySelectorAll('[data-stone]').length === 1",
            "one stone after turn 1",
        )
        .await;
        p.keys(&['.']).await;
        p.stone("G3", "black").await;
        p.contains("shown-turn", "Turn 2 of").await;
        p.keys(&[Key::End.into()]).await;
        p.wait(
            &format!("document.querySelectorAll('[data-stone]').length === {stones}"),
            "the last position",
        )
        .await;
        let record = p
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 fetch(document.querySelector('a.download').href).then(r => r.text()).then(done, e => done('ERROR ' + e));",
                vec![],
            )
            .await
            .expect("the record downloaded");
        let record = record.as_str().expect("text").to_string();
        assert!(
            record.contains("GM[400]") && record.contains("VR[sygo]"),
            "the record: {record}"
        );
        // A broken record is refused with its reason; the record itself is
        // uploaded again for review.
        p.paste_record("(;GM[400]SZ[9];W[zz])").await;
        p.wait(
            "document.getElementById('upload-message').textContent.length > 0",
            "the upload refused",
        )
        .await;
        p.paste_record(&record).await;
        p.wait(
            "location.pathname.startsWith('/game/') && document.querySelector('svg.board')",
            "the uploaded game",
        )
        .await;
        p.contains("role", "uploaded").await;
        p.screenshot("review-uploaded.png", true).await;
        p.wait(
            &format!("document.querySelectorAll('[data-stone]').length === {stones}"),
            "the uploaded position",
        )
        .await;
        p.stone("A1", "white").await;
    });
}
