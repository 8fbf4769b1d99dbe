//! Manners between players, in real browsers (docs/web.md, "Etiquette"):
//! asking the other person to take back a turn, declined (and not asked
//! again, after a reload too) or accepted; a game aborted before one's
//! first turn; chat between two browsers (shown as text, the other side
//! muted) and the other side seen leaving; a rematch offered, withdrawn
//! and offered again in one browser and accepted in the other (and at once
//! against the AI), both landing on the new game with colours swapped.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{Page, run};
use crate::phone::{against_ai, people};

/// Opens `side`'s private link of game `id` (the page keeps its secret).
async fn open_side(p: &Page, id: &str, side: &str, token: &Value) {
    p.goto(&format!(
        "/game/{id}#token={}&side={side}",
        token.as_str().expect("a token")
    ))
    .await;
    let says = if side == "black" {
        "You play Black"
    } else {
        "You play White"
    };
    p.contains("role", says).await;
}

/// A game between two people, with `turns` played through the API: its id
/// and each side's token.
async fn two_people(p: &Page, size: u32, turns: &[(&str, &str)]) -> (String, Value, Value) {
    crate::phone::game_played(p, people("sygo", size), turns).await
}

/// The game as the server has it.
async fn server_game(p: &Page, id: &str) -> Value {
    let (status, game) = p.api("GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(status, 200, "{game}");
    game
}

/// Whether the element is shown (there, not hidden, laid out).
fn shown(css: &str) -> String {
    format!(
        "(() => {{ const e = document.querySelector({}); return !!e && e.checkVisibility(); }})()",
        json!(css)
    )
}

/// What this browser remembers: `{id: {black, white, since}}`.
async fn remembered(p: &Page) -> Value {
    p.js("const d = JSON.parse(localStorage.getItem('sygo.games') || 'null'); return d ? d.games : {};")
        .await
}

/// Writes a line in the chat and sends it with the Send button.
async fn say(p: &Page, text: &str) {
    p.client
        .execute(
            "const i = document.getElementById('chat-input'); i.value = arguments[0]; return true;",
            vec![json!(text)],
        )
        .await
        .expect("the line written");
    p.click("#chat-send").await;
}

/// The chat's lines as the page shows them: `[[color, text, visible]]`.
async fn chat_lines(p: &Page) -> Value {
    p.js(
        "return [...document.querySelectorAll('#chat-lines li')].map(li =>
            [li.dataset.color, li.querySelector('.chat-text').textContent, li.checkVisibility()]);",
    )
    .await
}

#[test]
fn an_undo_request_is_declined_then_accepted_between_two_browsers() {
    run(async |env| {
        let black = env.desktop("undo black").await;
        let white = env.desktop("undo white").await;
        let (id, b, w) = two_people(&black, 9, &[]).await;
        open_side(&black, &id, "black", &b).await;
        open_side(&white, &id, "white", &w).await;
        // Nothing to take back before one's turn.
        assert_eq!(
            white
                .js(&format!("return {};", shown("#undo-request-button")))
                .await,
            json!(false)
        );
        white.point("E5").await;
        white.stone("E5", "white").await;
        black.stone("E5", "white").await;
        // White may ask; Black, who has not played since, may not.
        white
            .wait(&shown("#undo-request-button"), "Ask to take back")
            .await;
        assert_eq!(
            black
                .js(&format!("return {};", shown("#undo-request-button")))
                .await,
            json!(false)
        );

        // Asked, and declined: the turn stands.
        white.click("#undo-request-button").await;
        white
            .contains("etiquette-notice", "waiting for the answer")
            .await;
        black
            .contains(
                "etiquette-notice",
                "White asks to take back their last turn (White placed E5.)",
            )
            .await;
        black.wait(&shown("#undo-decline"), "Decline").await;
        black.screenshot("manners-undo-request.png", true).await;
        assert_eq!(
            server_game(&black, &id).await["undo_request"],
            json!({"by": "white", "turn_number": 1})
        );
        black.click("#undo-decline").await;
        white
            .contains("etiquette-notice", "Black declined: your last turn stands.")
            .await;
        black.contains("etiquette-notice", "You declined").await;
        black
            .wait(
                &format!("!{}", shown("#undo-accept")),
                "the request answered",
            )
            .await;
        white.stone("E5", "white").await;
        assert_eq!(server_game(&white, &id).await["turn_number"], json!(1));
        // Declined, the same request is not offered again, and the server
        // refuses it.
        white
            .wait(
                &format!("!{}", shown("#undo-request-button")),
                "no second request",
            )
            .await;
        let (status, refused) = white
            .api(
                "POST",
                &format!("/api/games/{id}/undo-request"),
                Some(json!({"turn_number": 1})),
                w.as_str(),
            )
            .await;
        assert_eq!(status, 409, "{refused}");
        assert_eq!(
            refused["error"]["message"],
            "Black declined to take back this turn already: it stands"
        );
        // Loaded again, White's page knows it from the game
        // (`undo_declined`): no button, and what stands said.
        white.goto(&format!("/game/{id}")).await;
        white.stone("E5", "white").await;
        white
            .contains(
                "etiquette-notice",
                "Black declined to take back your last turn: it stands.",
            )
            .await;
        assert_eq!(
            white
                .js(&format!("return {};", shown("#undo-request-button")))
                .await,
            json!(false)
        );

        // Black plays D4, White C3 and asks to take it back; accepted: C3
        // is gone on both pages, and White is to move again.
        black.point("D4").await;
        white.stone("D4", "black").await;
        white.point("C3").await;
        black.stone("C3", "white").await;
        white
            .wait(&shown("#undo-request-button"), "Ask to take back C3")
            .await;
        white.click("#undo-request-button").await;
        black.wait(&shown("#undo-accept"), "Accept").await;
        black.click("#undo-accept").await;
        for p in [&black, &white] {
            p.wait(
                r#"!document.querySelector('[data-stone="C3"]')"#,
                "C3 taken back",
            )
            .await;
            p.to_move("white").await;
        }
        white
            .contains(
                "etiquette-notice",
                "Black accepted: your last turn is taken back.",
            )
            .await;
        let game = server_game(&white, &id).await;
        assert_eq!(game["turn_number"], json!(2));
        assert_eq!(game["undo_request"], Value::Null);
        assert_eq!(game["undos"], json!(1));
        // White plays again; the game goes on.
        white.point("C3").await;
        black.stone("C3", "white").await;
        black.to_move("black").await;
        white.close().await;
        black.close().await;
    });
}

#[test]
fn a_game_is_aborted_before_ones_first_turn_on_a_phone() {
    run(async |env| {
        let p = env.phone("abort").await;
        let (id, b, w) = two_people(&p, 9, &[("white", "E5")]).await;
        // White has played: no abort for White.
        open_side(&p, &id, "white", &w).await;
        p.to_move("black").await;
        assert_eq!(
            p.js(&format!("return {};", shown("#abort-button"))).await,
            json!(false)
        );
        // Black has not: Black may abort (this browser forgets White first).
        p.js("localStorage.clear(); return true;").await;
        open_side(&p, &id, "black", &b).await;
        p.wait(&shown("#abort-button"), "Abort game").await;
        // Every control of the etiquette and the chat is 44 px tall, and
        // nothing is wider than the phone's screen.
        let sizes = p
            .js("return ['#abort-button', '#chat-input', '#chat-send', '#chat-mute-label'].map(s => {
                   const r = document.querySelector(s).getBoundingClientRect(); return [s, r.height, r.right];
                 });")
            .await;
        for s in sizes.as_array().unwrap() {
            assert!(s[1].as_f64().unwrap() >= 44.0, "{s}");
            assert!(s[2].as_f64().unwrap() <= 390.5, "{s}");
        }
        // Cancel changes nothing.
        p.click("#abort-button").await;
        p.wait(
            "document.getElementById('confirm-abort')?.open",
            "the confirmation",
        )
        .await;
        p.click("#confirm-abort-no").await;
        p.wait(
            "!document.getElementById('confirm-abort')",
            "the confirmation closed",
        )
        .await;
        assert_eq!(server_game(&p, &id).await["status"], json!("playing"));
        p.click("#abort-button").await;
        p.wait(
            "document.getElementById('confirm-abort')?.open",
            "the confirmation",
        )
        .await;
        p.click("#confirm-abort-yes").await;
        p.contains("to-move", "Game aborted: no result.").await;
        p.contains("etiquette-notice", "You aborted the game").await;
        p.contains("moves", "The game was aborted: no result.")
            .await;
        p.wait(
            "document.getElementById('controls').hidden",
            "nothing left to play",
        )
        .await;
        assert_eq!(
            p.js(&format!("return {};", shown("#abort-button"))).await,
            json!(false)
        );
        p.wait(&shown("#rematch-button"), "a rematch offered").await;
        let game = server_game(&p, &id).await;
        assert_eq!(game["status"], json!("aborted"));
        assert_eq!(game["result"], Value::Null);
        p.screenshot("manners-aborted.png", true).await;
        p.close().await;
    });
}

#[test]
fn chat_between_two_browsers_is_text_the_other_is_muted_and_seen_leaving() {
    run(async |env| {
        let black = env.desktop("chat black").await;
        let white = env.desktop("chat white").await;
        let (id, b, w) = two_people(&black, 9, &[]).await;
        open_side(&black, &id, "black", &b).await;
        open_side(&white, &id, "white", &w).await;
        // Each page is open: each shows the other connected.
        black.contains("presence", "White is connected.").await;
        white.contains("presence", "Black is connected.").await;

        // Markup is shown as the text it is.
        let markup = "<b>hi</b> & <img src=x onerror=\"document.title='pwned'\">";
        say(&black, markup).await;
        for p in [&black, &white] {
            p.wait(
                "document.querySelectorAll('#chat-lines li').length === 1",
                "the line",
            )
            .await;
            assert_eq!(chat_lines(p).await, json!([["black", markup, true]]));
            assert_eq!(
                p.js("return document.querySelectorAll('#chat-lines b, #chat-lines img').length;")
                    .await,
                json!(0)
            );
        }
        assert_eq!(black.text("#chat-input").await, "", "the field emptied");
        assert!(black.text("#chat-lines li").await.starts_with(" You: "));
        assert!(white.text("#chat-lines li").await.starts_with(" Black: "));
        // The other side's line is read out; one's own is not.
        white
            .contains("chat-announce", "Black says: <b>hi</b>")
            .await;
        assert_eq!(black.text("#chat-announce").await, "");

        // White answers, typed and sent with Enter.
        let input = white.find("#chat-input").await;
        input
            .send_keys("good luck\u{E007}")
            .await
            .expect("typing in the chat");
        black
            .contains("chat-announce", "White says: good luck")
            .await;

        // Black mutes White: White's lines are hidden, and stay so after a
        // reload of the page.
        black.click("#chat-mute").await;
        black
            .contains("chat-muted-note", "White is muted: 1 line hidden.")
            .await;
        say(&white, "are you there?").await;
        white
            .wait(
                "document.querySelectorAll('#chat-lines li').length === 3",
                "White's own line",
            )
            .await;
        black
            .wait(
                "document.querySelectorAll('#chat-lines li').length === 3",
                "White's line, hidden",
            )
            .await;
        assert_eq!(
            chat_lines(&black).await,
            json!([
                ["black", markup, true],
                ["white", "good luck", false],
                ["white", "are you there?", false]
            ])
        );
        assert_eq!(
            black.text("#chat-announce").await,
            "White says: good luck",
            "a muted line is not read out"
        );
        black.goto(&format!("/game/{id}")).await;
        black
            .wait(
                "document.querySelectorAll('#chat-lines li').length === 3",
                "the lines again",
            )
            .await;
        assert_eq!(
            black
                .js("return document.getElementById('chat-mute').checked;")
                .await,
            json!(true)
        );
        assert_eq!(
            chat_lines(&black).await[1],
            json!(["white", "good luck", false])
        );
        assert_ne!(black.js("return document.title;").await, json!("pwned"));

        // The server's refusal is said under the field: ten lines at once
        // are the most. A side is let another line every 3 s, so on a slow
        // machine the page's line may come after one: the lines are sent
        // until one is refused, then the page's, again if it went through.
        let mut refused = false;
        for round in 0..3 {
            for i in 0..30 {
                let (status, _) = white
                    .api(
                        "POST",
                        &format!("/api/games/{id}/chat"),
                        Some(json!({"text": format!("line {round}.{i}")})),
                        w.as_str(),
                    )
                    .await;
                if status == 429 {
                    break;
                }
            }
            say(&white, "one more").await;
            let start = Instant::now();
            while !refused && start.elapsed() < Duration::from_secs(5) {
                refused = white
                    .js("return (document.getElementById('chat-error') || {}).textContent || '';")
                    .await
                    .as_str()
                    .is_some_and(|t| t.contains("chat lines"));
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            if refused {
                break;
            }
        }
        assert!(
            refused,
            "the page says the line is refused\n{}",
            white.state().await
        );

        // White's page goes away: Black's page says so at once.
        black.contains("presence", "White is connected.").await;
        white.goto("/").await;
        black
            .contains("presence", "White has left the game (disconnected).")
            .await;
        assert_eq!(
            server_game(&black, &id).await["connected"]["white"],
            json!(false)
        );
        white.close().await;
        black.close().await;
    });
}

#[test]
fn a_rematch_offered_in_one_browser_is_accepted_in_the_other_colours_swapped() {
    run(async |env| {
        let black = env.desktop("rematch black").await;
        let white = env.desktop("rematch white").await;
        let (id, b, w) = two_people(&black, 5, &[("white", "C3")]).await;
        let (status, _) = black
            .api("POST", &format!("/api/games/{id}/resign"), None, b.as_str())
            .await;
        assert_eq!(status, 200);
        open_side(&black, &id, "black", &b).await;
        open_side(&white, &id, "white", &w).await;
        black.wait(&shown("#rematch-button"), "Rematch").await;
        assert_eq!(
            black.text("#rematch-button").await,
            "Rematch (colours swapped)"
        );
        black.click("#rematch-button").await;
        black
            .contains(
                "etiquette-notice",
                "Rematch offered — waiting for White to accept.",
            )
            .await;
        white
            .contains(
                "etiquette-notice",
                "Black offers a rematch, colours swapped: you would play Black.",
            )
            .await;
        // Withdrawn, then offered again.
        black
            .wait(&shown("#rematch-withdraw"), "Withdraw the offer")
            .await;
        black.click("#rematch-withdraw").await;
        black
            .contains("etiquette-notice", "You withdrew your rematch offer.")
            .await;
        white
            .contains("etiquette-notice", "Black withdrew the rematch offer.")
            .await;
        white
            .wait(
                &format!("!{}", shown("#rematch-accept")),
                "no offer to accept",
            )
            .await;
        assert_eq!(
            server_game(&white, &id).await["rematch"],
            json!({"offered_by": null, "game": null})
        );
        black.wait(&shown("#rematch-button"), "Rematch again").await;
        black.click("#rematch-button").await;
        white
            .wait(&shown("#rematch-accept"), "the offer again")
            .await;
        white.click("#rematch-accept").await;
        // Both land on the same new game, colours swapped.
        for p in [&black, &white] {
            p.wait(
                &format!(
                    "location.pathname.startsWith('/game/') && location.pathname !== '/game/{id}' && document.getElementById('role')"
                ),
                "the rematch",
            )
            .await;
        }
        white.contains("role", "You play Black").await;
        black.contains("role", "You play White").await;
        let new_id = black.js("return location.pathname.slice(6);").await;
        assert_eq!(white.js("return location.pathname.slice(6);").await, new_id);
        let new_id = new_id.as_str().unwrap().to_string();
        let game = server_game(&black, &new_id).await;
        assert_eq!(game["rematch_of"], json!(id));
        assert_eq!(game["size"], json!(5));
        assert!(remembered(&black).await[&new_id]["white"].is_string());
        assert!(remembered(&white).await[&new_id]["black"].is_string());
        // The new White (Black before) moves first.
        black.point("C3").await;
        white.stone("C3", "white").await;
        white.to_move("black").await;
        white.close().await;
        black.close().await;
    });
}

#[test]
fn against_the_ai_a_rematch_starts_at_once() {
    run(async |env| {
        let p = env.desktop("rematch ai").await;
        let (id, b, _) = crate::phone::game_played(&p, against_ai("sygo", 5), &[]).await;
        let (status, _) = p
            .api("POST", &format!("/api/games/{id}/resign"), None, b.as_str())
            .await;
        assert_eq!(status, 200);
        open_side(&p, &id, "black", &b).await;
        // Against the AI: no presence, no chat.
        assert_eq!(
            p.js(&format!(
                "return [{}, {}];",
                shown("#presence"),
                shown("#chat")
            ))
            .await,
            json!([false, false])
        );
        p.click("#rematch-button").await;
        p.wait(
            &format!("location.pathname !== '/game/{id}' && document.getElementById('role')"),
            "the rematch",
        )
        .await;
        p.contains("role", "You play White").await;
        // The AI plays Black now: White (this page) moves first.
        p.to_move("white").await;
        p.close().await;
    });
}
