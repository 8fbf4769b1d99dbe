//! The etiquette of a game and what used to confuse, in a real browser:
//! resigning at any time (confirmed, also while the AI thinks), a pass that
//! ends the game warned with its score, taking back a turn against the AI
//! and on a page playing both sides (not offered online, and said so), the
//! page saying who is to move and with what; the early score explained, no
//! stale message, no flood of placement squares, the growth marker's shape,
//! a layout that does not jump; spectators, bad input and double clicks.

use fantoccini::actions::InputSource;
use serde_json::json;

use crate::cdp::send;
use crate::harness::{Page, run};
use crate::phone::{against_ai, game_at, game_played, game_with_tokens, people, tap_tap};

/// A double click on the point `name`: its second press told to the page
/// as a double click's (`detail` 2), as Chromium tells a person's quick
/// one, however long a loaded machine takes between the two presses (the
/// actions of WebDriver leave that to the time between them).
async fn double_click(p: &Page, name: &str) {
    let at = p
        .js(&format!(
            "const r = document.querySelector({}).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];",
            json!(format!("[data-point=\"{name}\"]"))
        ))
        .await;
    let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
    send(
        &p.client,
        "Input.dispatchMouseEvent",
        json!({"type": "mouseMoved", "x": x, "y": y}),
    )
    .await
    .expect("the mouse moved");
    for count in [1, 2] {
        for kind in ["mousePressed", "mouseReleased"] {
            send(
                &p.client,
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": count}),
            )
            .await
            .expect("a click");
        }
    }
}

/// A box on the page: left, top, width, height.
async fn rect(p: &Page, css: &str) -> Vec<f64> {
    let v = p
        .js(&format!(
            "const r = document.querySelector({}).getBoundingClientRect(); return [r.left, r.top + window.scrollY, r.width, r.height];",
            json!(css)
        ))
        .await;
    v.as_array()
        .expect("a box")
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn overlap(a: &[f64], b: &[f64]) -> bool {
    a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3]
}

#[test]
fn a_player_resigns_while_the_ai_thinks_after_a_confirmation_away_from_the_button() {
    run(async |env| {
        let p = env.phone("resign").await;
        game_at(
            &p,
            json!({"variant": "sygo", "size": 19, "black": {"kind": "human"},
                   "white": {"kind": "ai", "level": 6, "time_ms": 60000}}),
            &[],
        )
        .await;
        // The AI's longest think (resigning stops it): the steps below
        // happen while it thinks, however loaded the machine.
        p.wait("document.getElementById('ai-thinking')", "the AI thinking")
            .await;
        p.wait(
            "!document.getElementById('resign-button').disabled",
            "Resign enabled on the AI's turn",
        )
        .await;
        let button = rect(&p, "#resign-button").await;
        p.click("#resign-button").await;
        p.wait(
            "document.getElementById('confirm-resign')?.open",
            "the confirmation",
        )
        .await;
        let yes = rect(&p, "#confirm-resign-yes").await;
        assert!(
            !overlap(&button, &yes),
            "the confirmation is not where the finger was: {button:?} {yes:?}"
        );
        // Cancel changes nothing.
        p.click("#confirm-resign-no").await;
        p.wait(
            "!document.getElementById('confirm-resign')",
            "the confirmation closed",
        )
        .await;
        p.wait("document.getElementById('ai-thinking')", "the game goes on")
            .await;
        p.click("#resign-button").await;
        p.wait(
            "document.getElementById('confirm-resign')?.open",
            "the confirmation",
        )
        .await;
        p.click("#confirm-resign-yes").await;
        p.contains("to-move", "Game over: White wins by resignation")
            .await;
        assert_eq!(
            p.js("return document.querySelectorAll('[data-stone]').length;")
                .await,
            json!(0)
        );
    });
}

#[test]
fn a_pass_that_ends_the_game_is_warned_with_the_score_it_ends_with() {
    run(async |env| {
        let p = env.desktop("pass").await;
        game_at(
            &p,
            people("sygo", 9),
            &[("white", "E5"), ("black", "C3"), ("white", "pass")],
        )
        .await;
        p.to_move("black").await;
        p.click("#pass-button").await;
        p.wait(
            "document.getElementById('confirm-pass')?.open",
            "the warning",
        )
        .await;
        let text = p.text("#confirm-pass").await;
        assert!(
            text.contains("White has just passed: a pass now ends the game"),
            "{text}"
        );
        assert!(
            text.contains("Black 1, White 1") && text.contains("a draw"),
            "the score it ends with: {text}"
        );
        p.click("#confirm-pass-no").await;
        p.to_move("black").await;
        p.click("#pass-button").await;
        p.wait(
            "document.getElementById('confirm-pass')?.open",
            "the warning",
        )
        .await;
        p.click("#confirm-pass-yes").await;
        p.contains("to-move", "Game over").await;
    });
}

#[test]
fn take_back_against_the_ai_removes_the_turn_and_its_answer() {
    run(async |env| {
        let p = env.desktop("undo ai").await;
        game_at(&p, against_ai("sygo", 9), &[]).await;
        p.wait(
            "document.querySelectorAll('[data-color=white]').length === 1",
            "the AI's first turn",
        )
        .await;
        p.to_move("black").await;
        p.wait(
            "document.getElementById('takeback-button').disabled",
            "nothing of Black's to take back",
        )
        .await;
        let point = p
            .js("return ['E5','C3','G7'].find(q => !document.querySelector(`[data-stone=\"${q}\"]`));")
            .await;
        let point = point.as_str().unwrap().to_string();
        p.point(&point).await;
        p.wait(
            "document.querySelectorAll('#moves li[data-turn]').length === 3",
            "the AI's answer",
        )
        .await;
        p.wait(
            "!document.getElementById('takeback-button').disabled",
            "Take back enabled",
        )
        .await;
        p.click("#takeback-button").await;
        p.wait(
            "document.querySelectorAll('#moves li[data-turn]').length === 1",
            "two turns taken back",
        )
        .await;
        p.wait(
            &format!(r#"!document.querySelector('[data-stone="{point}"]')"#),
            "the stone gone",
        )
        .await;
        p.to_move("black").await;
        // Black plays on from there.
        p.point(&point).await;
        p.stone(&point, "black").await;
    });
}

#[test]
fn take_back_on_a_page_playing_both_sides_and_not_offered_online() {
    run(async |env| {
        let p = env.desktop("undo hot seat").await;
        let (id, black, _) =
            game_with_tokens(&p, people("sygo", 9), &[("white", "E5"), ("black", "C3")]).await;
        p.click("#takeback-button").await;
        p.wait(
            r#"!document.querySelector('[data-stone="C3"]')"#,
            "C3 taken back",
        )
        .await;
        p.to_move("black").await;
        let (_, game) = p.api("GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(game["turn_number"], json!(1));
        // Black's own link in a browser of its own, online: no undo, and the
        // page says so.
        let p = env.desktop("black online").await;
        p.goto(&format!(
            "/game/{id}#token={}&side=black",
            black.as_str().unwrap()
        ))
        .await;
        p.to_move("black").await;
        p.wait(
            "document.getElementById('takeback-button').hidden",
            "no Take back online",
        )
        .await;
        p.contains(
            "undo-note",
            "Undo is not offered in a game between two people online",
        )
        .await;
    });
}

#[test]
fn the_page_says_who_is_to_move_and_with_what_at_every_moment() {
    run(async |env| {
        let p = env.desktop("to move").await;
        game_at(
            &p,
            people("sygo", 9),
            &[("white", "A3"), ("black", "G3"), ("white", "C1")],
        )
        .await;
        p.contains("to-move", "Black to move").await;
        p.contains("move-options", "Black may place one stone")
            .await;
        p.contains("move-options", "or grow any or all of your groups")
            .await;
        p.contains("move-options", "Balance turn available").await;
        p.point("G4").await;
        p.pending("G4", 1).await;
        p.contains("move-options", "Growth turn: 1 stone pending")
            .await;
        p.contains(
            "move-options",
            "add a placement, the balance turn's last stone",
        )
        .await;
        p.point("A1").await;
        p.contains("move-options", "grown and placed").await;
        p.click("#finish-button").await;
        p.contains("to-move", "White to move").await;
        p.contains("move-options", "White may place one stone")
            .await;
    });
}

#[test]
fn the_early_score_says_it_is_an_area_count_so_far() {
    run(async |env| {
        let p = env.desktop("score").await;
        game_at(&p, people("sygo", 9), &[("white", "E5")]).await;
        p.contains("scores", "White: 81").await;
        p.contains("scores", "1 stone + 80 surrounded points").await;
        p.contains(
            "score-title",
            "Area count so far: stones plus the vacant points each side surrounds",
        )
        .await;
    });
}

#[test]
fn a_message_goes_when_the_next_action_succeeds_and_is_never_shown_twice() {
    run(async |env| {
        let p = env.desktop("messages").await;
        game_at(&p, people("sygo", 9), &[("white", "E5")]).await;
        p.point("E5").await;
        p.contains("message", "E5 is occupied").await;
        let twice = p
            .js("const m = document.getElementById('message').textContent;
                 return [...document.querySelectorAll('.board-bar p, .panel p')].filter(e => e.textContent.includes(m)).length;")
            .await;
        assert_eq!(twice, json!(0), "the message is said once");
        p.point("C3").await;
        p.stone("C3", "black").await;
        p.wait(
            "document.getElementById('message').textContent === ''",
            "the message gone",
        )
        .await;
    });
}

#[test]
fn a_balance_turn_on_sygo_19_does_not_cover_the_board_with_placement_squares() {
    run(async |env| {
        let p = env.desktop("balance 19").await;
        game_at(
            &p,
            people("sygo", 19),
            &[("white", "A3"), ("black", "K10"), ("white", "C1")],
        )
        .await;
        p.point("K11").await;
        p.pending("K11", 1).await;
        p.contains(
            "move-options",
            "add a placement, the balance turn's last stone",
        )
        .await;
        assert_eq!(
            p.js("return document.querySelectorAll('.allow.placement').length;")
                .await,
            json!(0)
        );
        // The placement is still shown where the pointer is.
        p.hover("R3").await;
        p.wait(
            r#"document.querySelector('[data-preview="placement"]')"#,
            "R3 previewed as a placement",
        )
        .await;
        p.contains("preview", "R3: a placement, the balance turn's last stone")
            .await;
    });
}

#[test]
fn the_growth_marker_is_a_plus_not_a_dot_like_a_star_point() {
    run(async |env| {
        let p = env.desktop("growth marker").await;
        let turns = [
            ("white", "C3"),
            ("black", "E5"),
            ("white", "G3"),
            ("black", "E7"),
        ];
        game_at(&p, people("sygo", 9), &turns).await;
        p.point("C4").await;
        p.pending("C4", 1).await;
        p.wait(
            r#"document.querySelector('.allow.growth[data-allowed="G4"]')"#,
            "G4 offered",
        )
        .await;
        let shapes = p
            .js("return [document.querySelector('.allow.growth').tagName, document.querySelector('.star').tagName];")
            .await;
        assert_eq!(
            shapes,
            json!(["path", "circle"]),
            "growth marker and star point"
        );
    });
}

#[test]
fn the_board_and_the_buttons_do_not_move_when_messages_come_and_go() {
    run(async |env| {
        let p = env.phone("no jumps").await;
        game_at(&p, people("sygo", 9), &[("white", "E5")]).await;
        p.to_move("black").await;
        let board = rect(&p, "svg.board").await;
        let play = rect(&p, "#play-button").await;
        p.point("E5").await; // occupied: a message
        p.contains("message", "occupied").await;
        assert_eq!(rect(&p, "svg.board").await, board);
        assert_eq!(rect(&p, "#play-button").await, play);
        tap_tap(&p, "C3").await;
        p.stone("C3", "black").await;
        p.to_move("white").await;
        assert_eq!(rect(&p, "svg.board").await, board);
        assert_eq!(rect(&p, "#play-button").await, play);
    });
}

#[test]
fn a_spectator_link_cannot_move() {
    run(async |env| {
        let p = env.phone("spectator").await;
        // Started through the API: this browser never had a side's secret.
        let (id, _, _) = game_played(&p, people("sygo", 9), &[("white", "E5")]).await;
        p.goto(&format!("/game/{id}")).await;
        p.to_move("black").await;
        p.point("C3").await;
        p.contains("message", "You are watching").await;
        // The greyed Hint says why, as text a finger can see.
        p.wait(
            "document.getElementById('hint-button')?.disabled === true",
            "Hint greyed for a spectator",
        )
        .await;
        p.contains("ai-reason", "Hint is for the players only")
            .await;
        let (_, game) = p.api("GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(game["turn_number"], json!(1));
        assert_eq!(
            p.js("return document.getElementById('controls').hidden;")
                .await,
            json!(true)
        );
    });
}

#[test]
fn a_turn_after_the_game_ended_gets_one_message_and_changes_nothing() {
    run(async |env| {
        let p = env.desktop("after the end").await;
        let id = game_at(
            &p,
            people("sygo", 9),
            &[("white", "E5"), ("black", "resign")],
        )
        .await;
        p.contains("to-move", "Game over").await;
        p.point("C3").await;
        p.contains("message", "The game is over").await;
        let (_, game) = p.api("GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(game["turn_number"], json!(2));
    });
}

#[test]
fn a_double_click_plays_once() {
    run(async |env| {
        let p = env.desktop("double click").await;
        let id = game_at(&p, people("sygo", 9), &[("white", "E5"), ("black", "C3")]).await;
        // A double click on a growth point: one pending stone, not taken back.
        double_click(&p, "E6").await;
        p.pending("E6", 1).await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        p.pending("E6", 1).await;
        p.click("#finish-button").await;
        p.stone("E6", "white").await;
        // A double click on a placement: one turn.
        double_click(&p, "G7").await;
        p.stone("G7", "black").await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let (_, game) = p.api("GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(game["turn_number"], json!(4), "{}", game["turns"]);
        p.wait(
            "document.getElementById('message').textContent === ''",
            "no message",
        )
        .await;
    });
}

#[test]
fn a_stale_page_submitting_a_turn_gets_one_message_and_changes_nothing() {
    run(async |env| {
        let p = env.desktop("stale").await;
        // The page's live updates are blocked: it does not see the next turn.
        crate::cdp::cdp(&p, "Network.enable", json!({})).await;
        crate::cdp::cdp(&p, "Network.setBlockedURLs", json!({"urls": ["*/events"]})).await;
        let (id, black, _) = game_with_tokens(&p, people("sygo", 9), &[("white", "E5")]).await;
        p.to_move("black").await;
        // Black's turn played elsewhere (another tab).
        let (status, _) = p
            .api(
                "POST",
                &format!("/api/games/{id}/turns"),
                Some(json!({"turn": "C3", "turn_number": 1})),
                black.as_str(),
            )
            .await;
        assert_eq!(status, 200);
        // This page still shows Black to move and plays G7.
        p.point("G7").await;
        p.contains("message", "Not played: the game had moved on")
            .await;
        p.stone("C3", "black").await;
        p.to_move("white").await;
        let (_, game) = p.api("GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(game["turn_number"], json!(2));
        assert!(game["stones"].get("G7").is_none());
    });
}

#[test]
fn the_keyboard_focus_stays_on_a_button_when_the_page_is_redrawn() {
    run(async |env| {
        let p = env.desktop("focus").await;
        game_at(
            &p,
            people("sygo", 9),
            &[("white", "E5"), ("black", "C3"), ("white", "G7")],
        )
        .await;
        p.js("document.querySelector('[data-review=previous]').focus(); return true;")
            .await;
        let enter = fantoccini::actions::KeyActions::new("keyboard".into())
            .then(fantoccini::actions::KeyAction::Down {
                value: fantoccini::key::Key::Enter.into(),
            })
            .then(fantoccini::actions::KeyAction::Up {
                value: fantoccini::key::Key::Enter.into(),
            });
        p.client
            .perform_actions(enter.clone())
            .await
            .expect("Enter");
        p.contains("shown-turn", "Turn 2 of 3").await;
        p.client.perform_actions(enter).await.expect("Enter again");
        p.contains("shown-turn", "Turn 1 of 3").await;
        let focused = p
            .js("return document.activeElement.dataset.review || document.activeElement.tagName;")
            .await;
        assert_eq!(
            focused,
            json!("previous"),
            "the focus stays on the button pressed"
        );
        // The controls too: Pass keeps the focus while the game changes.
        p.click("[data-review=last]").await;
        p.js("document.getElementById('takeback-button').focus(); return true;")
            .await;
        p.client
            .perform_actions(
                fantoccini::actions::KeyActions::new("keyboard2".into())
                    .then(fantoccini::actions::KeyAction::Down {
                        value: fantoccini::key::Key::Enter.into(),
                    })
                    .then(fantoccini::actions::KeyAction::Up {
                        value: fantoccini::key::Key::Enter.into(),
                    }),
            )
            .await
            .expect("Enter");
        p.wait(
            r#"!document.querySelector('[data-stone="G7"]')"#,
            "G7 taken back",
        )
        .await;
        let focused = p.js("return document.activeElement.id;").await;
        assert_eq!(focused, json!("takeback-button"));
    });
}

/// Whether the page shows anything of the AI's hint or analysis: its words
/// under the AI's buttons, ghost stones or ownership on the board.
async fn ai_output(p: &Page) -> serde_json::Value {
    p.js("return [document.getElementById('ai-out').textContent,
                  document.querySelectorAll('[data-hint]').length,
                  document.querySelectorAll('[data-own]').length];")
        .await
}

#[test]
fn a_hint_goes_when_the_next_turn_arrives() {
    run(async |env| {
        let p = env.desktop("stale hint").await;
        game_at(&p, people("sygo", 9), &[("white", "E5")]).await;
        p.to_move("black").await;
        p.click("#hint-button").await;
        p.contains("ai-out", "Hint for Black").await;
        p.wait("document.querySelector('[data-hint]')", "the hint's stones")
            .await;
        p.point("C3").await;
        p.stone("C3", "black").await;
        p.to_move("white").await;
        assert_eq!(ai_output(&p).await, json!(["", 0, 0]), "no stale hint");
    });
}

#[test]
fn an_analysis_after_a_hint_leaves_no_ghost_stones_of_the_hint() {
    run(async |env| {
        let p = env.desktop("hint then analysis").await;
        game_at(&p, people("sygo", 9), &[("white", "E5")]).await;
        p.to_move("black").await;
        p.click("#hint-button").await;
        p.wait("document.querySelector('[data-hint]')", "the hint's stones")
            .await;
        p.click("#analyse-button").await;
        p.wait(
            "document.querySelector('.analysis-summary') && document.querySelector('[data-own]')",
            "the analysis with its ownership",
        )
        .await;
        let out = ai_output(&p).await;
        assert_eq!(out[1], json!(0), "the hint's ghost stones are gone");
        assert!(
            !out[0].as_str().unwrap().contains("Hint for"),
            "the hint's words are gone: {out}"
        );
    });
}

#[test]
fn resigning_clears_the_analysis_of_the_game_in_progress() {
    run(async |env| {
        let p = env.desktop("analysis then resign").await;
        game_at(&p, people("sygo", 9), &[("white", "E5")]).await;
        p.to_move("black").await;
        p.click("#analyse-button").await;
        p.wait(
            "document.querySelector('.analysis-summary')",
            "the analysis",
        )
        .await;
        p.click("#resign-button").await;
        p.wait(
            "document.getElementById('confirm-resign')?.open",
            "the question",
        )
        .await;
        p.click("#confirm-resign-yes").await;
        p.contains("to-move", "Game over").await;
        assert_eq!(ai_output(&p).await, json!(["", 0, 0]), "no stale analysis");
    });
}

#[test]
fn a_finished_game_hides_its_play_controls_and_the_board_stays() {
    run(async |env| {
        let p = env.phone("over hides controls").await;
        game_at(&p, people("sygo", 9), &[("white", "E5")]).await;
        p.to_move("black").await;
        let board = rect(&p, "svg.board").await;
        p.click("#resign-button").await;
        p.wait(
            "document.getElementById('confirm-resign')?.open",
            "the question",
        )
        .await;
        p.click("#confirm-resign-yes").await;
        p.contains("to-move", "Game over").await;
        let shown = p
            .js("return [...document.querySelectorAll('#controls button')].filter((b) => b.getClientRects().length).map((b) => b.id);")
            .await;
        assert_eq!(shown, json!([]), "no play control left");
        assert_eq!(rect(&p, "svg.board").await, board, "the board stays");
    });
}
