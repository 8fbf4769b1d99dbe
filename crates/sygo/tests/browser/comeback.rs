//! Coming back to a game: the browser remembers the games it plays in (the
//! side's secret in its own storage, never in the address), the home page
//! shows them with whose turn it is and leads back in as the player; the
//! three ways to play are on the home page from the start; Start clicked
//! twice makes one game; a spectator's page cannot move.

use std::time::Duration;

use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use serde_json::{Value, json};

use crate::harness::{Page, run};

/// What this browser remembers: `{id: {black, white, since}}`.
async fn remembered(p: &Page) -> Value {
    p.js("const d = JSON.parse(localStorage.getItem('sygo.games') || 'null'); return d ? d.games : {};")
        .await
}

/// Closes the tab and opens the site in a new one, as a player who left and
/// comes back.
async fn close_tab_and_come_back(p: &Page) {
    let tab = p.client.new_window(true).await.expect("a new tab");
    p.client.close_window().await.expect("the old tab closed");
    p.client
        .switch_to_window(tab.handle)
        .await
        .expect("in the new tab");
    p.goto("/").await;
}

/// The number of games on the server.
async fn games_on_server(p: &Page) -> usize {
    let (status, list) = p.api("GET", "/api/games", None, None).await;
    assert_eq!(status, 200);
    list["games"].as_array().expect("a list").len()
}

/// A point of the board with no stone, among a few far apart.
async fn vacant(p: &Page) -> String {
    let v = p
        .js("return ['A9','J1','A1','J9','E5','C7'].find(q => !document.querySelector(`[data-stone=\"${q}\"]`));")
        .await;
    v.as_str().expect("a vacant point").to_string()
}

#[test]
fn the_home_page_shows_the_three_ways_to_play() {
    run(async |env| {
        let p = env.desktop("ways").await;
        p.goto("/").await;
        p.wait("document.getElementById('start-game')", "the home page")
            .await;
        // Visible at once, with nothing chosen first.
        for (mode, says) in [
            ("ai", "Against the AI"),
            ("hotseat", "Two people on this device"),
            ("online", "Online with a friend"),
        ] {
            let shown = p
                .js(&format!(
                    "const i = document.getElementById('mode-{mode}');
                     const l = i && i.closest('label');
                     return !!l && l.checkVisibility() && i.checkVisibility() ? l.textContent : null;"
                ))
                .await;
            let shown = shown
                .as_str()
                .unwrap_or_else(|| panic!("{mode} is not shown"));
            assert!(shown.contains(says), "{mode}: {shown}");
        }
        // A new browser has no games to come back to.
        p.wait(
            "document.getElementById('your-games').hidden",
            "no games of yours",
        )
        .await;
        p.screenshot("home.png", true).await;
        p.close().await;
    });
}

#[test]
fn a_double_clicked_start_creates_one_game() {
    run(async |env| {
        let p = env.desktop("double click").await;
        p.goto("/").await;
        p.wait("document.getElementById('start-game')", "the home page")
            .await;
        p.js("document.getElementById('mode-hotseat').click(); return true;")
            .await;
        let button = p.find("#start-game").await;
        let double = MouseActions::new("mouse".into())
            .then(PointerAction::MoveToElement {
                element: button,
                duration: None,
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Down {
                button: fantoccini::actions::MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Up {
                button: fantoccini::actions::MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Down {
                button: fantoccini::actions::MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Up {
                button: fantoccini::actions::MOUSE_BUTTON_LEFT,
            });
        p.client
            .perform_actions(double)
            .await
            .expect("a double click");
        p.wait(
            "location.pathname.startsWith('/game/') && document.querySelector('svg.board')",
            "the game page",
        )
        .await;
        // Enough time for a second request to have been answered.
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(games_on_server(&p).await, 1, "one game for a double click");
        // Submitting the form twice in one go (Enter pressed twice) is one
        // game too.
        p.goto("/").await;
        p.wait("document.getElementById('start-game')", "the home page")
            .await;
        p.js("const f = document.getElementById('new-game');
              document.getElementById('mode-hotseat').click();
              f.requestSubmit(); f.requestSubmit(); return true;")
            .await;
        p.wait(
            "location.pathname.startsWith('/game/') && document.querySelector('svg.board')",
            "the second game's page",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(games_on_server(&p).await, 2);
        p.close().await;
    });
}

#[test]
fn against_the_ai_the_tab_closed_and_the_player_back_from_the_home_page() {
    run(async |env| {
        let p = env.desktop("ai comeback").await;
        let id = p.new_game("sygo", 9, None, Some((1, 200)), false).await;
        // No secret in the address, ever: the home page keeps it in the
        // browser and opens the game without one.
        assert_eq!(
            p.js("return location.href;").await,
            json!(format!("{}/game/{id}", p.base))
        );
        let mine = remembered(&p).await;
        assert!(
            mine[&id]["black"].is_string(),
            "Black's secret kept: {mine}"
        );
        assert!(mine[&id]["white"].is_null(), "no secret for the AI: {mine}");
        p.wait(
            "document.querySelectorAll('[data-color=white]').length >= 1",
            "the AI's first turn",
        )
        .await;
        p.to_move("black").await;

        close_tab_and_come_back(&p).await;
        let card = format!(r#"#my-games li[data-game="{id}"]"#);
        p.wait(
            &format!(r#"document.querySelector('{card}[data-status="your-turn"]')"#),
            "the game in your games, your turn",
        )
        .await;
        let text = p.text(&card).await;
        assert!(text.contains("Your turn"), "{text}");
        assert!(text.contains("against the AI (level 1)"), "{text}");
        p.wait(
            &format!("document.querySelector('{card} svg.thumb [data-thumb-stone=white]')"),
            "the small board with the AI's stone",
        )
        .await;
        p.contains("continue", "It is your turn").await;
        p.screenshot("home-your-games.png", true).await;
        p.click("#continue-link").await;
        p.wait(
            &format!("location.pathname === '/game/{id}' && document.querySelector('svg.board')"),
            "the game page",
        )
        .await;
        p.contains("role", "You play Black").await;
        let point = vacant(&p).await;
        p.point(&point).await;
        p.stone(&point, "black").await;
        p.wait(
            "document.querySelectorAll('#moves li[data-turn]').length >= 3",
            "the AI's answer",
        )
        .await;
        p.to_move("black").await;
        p.close().await;
    });
}

#[test]
fn online_each_browser_keeps_only_its_own_side_and_comes_back() {
    run(async |env| {
        let p1 = env.desktop("online black").await;
        let p2 = env.desktop("online white").await;
        let id = p1.new_game("sygo", 9, None, None, true).await;
        let link = p1.text("#link-white").await;
        assert!(link.contains("#token="), "the friend's link: {link}");
        let mine = remembered(&p1).await;
        assert!(
            mine[&id]["black"].is_string() && mine[&id]["white"].is_null(),
            "{mine}"
        );

        // The friend opens the link: the secret is kept, and taken out of
        // the address bar.
        p2.goto(&link).await;
        p2.contains("role", "You play White").await;
        let href = p2.js("return location.href;").await;
        assert_eq!(href, json!(format!("{}/game/{id}", p2.base)));
        let theirs = remembered(&p2).await;
        assert!(
            theirs[&id]["white"].is_string() && theirs[&id]["black"].is_null(),
            "{theirs}"
        );
        let token = link
            .split("#token=")
            .nth(1)
            .unwrap()
            .split('&')
            .next()
            .unwrap();
        assert_eq!(theirs[&id]["white"], json!(token));

        // Both close their tabs and come back from the home page.
        close_tab_and_come_back(&p2).await;
        p2.wait(
            &format!(r#"document.querySelector('#my-games li[data-game="{id}"][data-status="your-turn"]')"#),
            "White's turn in White's list",
        )
        .await;
        p2.click("#continue-link").await;
        // The game page loads before its board takes a click.
        p2.contains("role", "You play White").await;
        p2.point("E5").await;
        p2.stone("E5", "white").await;
        // White's browser cannot move for Black.
        p2.point("D4").await;
        p2.contains("message", "wait for your opponent").await;

        close_tab_and_come_back(&p1).await;
        let card = format!(r#"#my-games li[data-game="{id}"]"#);
        p1.wait(
            &format!(r#"document.querySelector('{card}[data-status="your-turn"]')"#),
            "Black's turn in Black's list",
        )
        .await;
        let text = p1.text(&card).await;
        assert!(
            text.contains("You play Black against a person online"),
            "{text}"
        );
        p1.click(&format!(r#"{card} a[data-open="{id}"]"#)).await;
        p1.contains("role", "You play Black").await;
        p1.point("C3").await;
        p1.stone("C3", "black").await;
        p2.stone("C3", "black").await;
        p2.to_move("white").await;
        // Now White's list says it is White's turn, Black's that it waits.
        p1.goto("/").await;
        p1.wait(
            &format!(r#"document.querySelector('{card}[data-status="waiting"]')"#),
            "Black waiting",
        )
        .await;
        p2.close().await;
        p1.close().await;
    });
}

#[test]
fn a_link_with_a_secret_leaves_no_trace_in_the_address() {
    run(async |env| {
        let p = env.desktop("fragment").await;
        let (id, black, white) = p
            .create_game(json!({"variant": "sygo", "size": 5, "black": {"kind": "human"}, "white": {"kind": "human"}}))
            .await;
        let (black, white) = (black.as_str().unwrap(), white.as_str().unwrap());
        // The server's own link names no side: the page asks the server.
        p.goto(&format!("/game/{id}#token={white}")).await;
        p.contains("role", "You play White").await;
        let (href, hash) = (
            p.js("return location.href;").await,
            p.js("return location.hash;").await,
        );
        assert_eq!(href, json!(format!("{}/game/{id}", p.base)));
        assert_eq!(hash, json!(""));
        assert_eq!(remembered(&p).await[&id]["white"], json!(white));
        // The history keeps the game without the secret: back, then
        // forward again, lands on the bare address.
        p.js("history.back(); return true;").await;
        p.wait("location.pathname === '/games'", "the page before")
            .await;
        p.js("history.forward(); return true;").await;
        p.wait(
            &format!("location.pathname === '/game/{id}' && document.querySelector('svg.board')"),
            "the game again",
        )
        .await;
        assert_eq!(p.js("return location.hash;").await, json!(""));
        // A reload (the address has no secret now) still plays White.
        p.client.refresh().await.expect("a reload");
        p.contains("role", "You play White").await;
        p.point("C3").await;
        p.stone("C3", "white").await;
        // A secret that is no side's is not kept: the page watches.
        p.goto(&format!("/game/{id}#black={}", "0".repeat(32)))
            .await;
        p.contains("message", "not one of this game").await;
        assert_eq!(p.js("return location.hash;").await, json!(""));
        assert!(remembered(&p).await[&id]["black"].is_null());
        // The hot-seat form, both sides.
        p.goto(&format!("/game/{id}#black={black}&white={white}"))
            .await;
        p.contains("role", "Both sides are played on this page")
            .await;
        assert_eq!(p.js("return location.hash;").await, json!(""));
        p.close().await;
    });
}

#[test]
fn a_spectator_cannot_move() {
    run(async |env| {
        let p = env.desktop("spectator").await;
        let (id, _, white) = p
            .create_game(json!({"variant": "sygo", "size": 5, "black": {"kind": "human"}, "white": {"kind": "human"}}))
            .await;
        // The spectators' link, opened in a browser that plays neither side.
        p.goto(&format!("/game/{id}")).await;
        p.contains("role", "You are watching").await;
        p.to_move("white").await;
        p.point("C3").await;
        p.contains("message", "You are watching").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let stones = p
            .js("return document.querySelectorAll('[data-stone]').length;")
            .await;
        assert_eq!(stones, json!(0));
        let (_, game) = p.api("GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(game["turn_number"], 0);
        assert!(remembered(&p).await.get(&id).is_none());
        // The server refuses a turn without the side's secret, and takes it
        // with it.
        let turn = json!({"turn": "C3", "turn_number": 0});
        let path = format!("/api/games/{id}/turns");
        let (status, _) = p.api("POST", &path, Some(turn.clone()), None).await;
        assert_eq!(status, 401);
        let (status, _) = p.api("POST", &path, Some(turn), white.as_str()).await;
        assert_eq!(status, 200);
        p.stone("C3", "white").await;
        p.close().await;
    });
}

#[test]
fn a_finished_game_is_forgotten_from_your_games() {
    run(async |env| {
        let p = env.desktop("forget").await;
        let playing = p.new_game("sygo", 5, None, None, false).await;
        let finished = p.new_game("sygo", 5, None, None, false).await;
        let white = remembered(&p).await[&finished]["white"].clone();
        p.play_api(&finished, &[(&white, "resign")]).await;
        p.goto("/").await;
        let card = |id: &str| format!(r#"#my-games li[data-game="{id}"]"#);
        p.wait(
            &format!(
                r#"document.querySelector('{}[data-status="over"]')"#,
                card(&finished)
            ),
            "the finished game",
        )
        .await;
        assert!(
            p.text(&card(&finished))
                .await
                .contains("Black wins by resignation")
        );
        // Only a finished game can be forgotten.
        let forget = |id: &str| format!(r#"document.querySelector('button[data-forget="{id}"]')"#);
        assert_eq!(
            p.js(&format!("return !!{};", forget(&playing))).await,
            json!(false)
        );
        p.click(&format!(r#"button[data-forget="{finished}"]"#))
            .await;
        p.wait(
            &format!("!document.querySelector('{}')", card(&finished)),
            "the game gone from the list",
        )
        .await;
        let mine = remembered(&p).await;
        assert!(mine.get(&finished).is_none(), "{mine}");
        assert!(mine[&playing]["black"].is_string(), "{mine}");
        p.close().await;
    });
}
