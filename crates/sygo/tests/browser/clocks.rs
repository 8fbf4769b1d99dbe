//! Game clocks on the page: the home page's clock choice (presets, a custom
//! clock with its limits), both sides' clocks on the game page counting
//! down live, the tab's title with the time left on the mover's page, and a
//! loss on time arriving by live update; a player's vacation switched on
//! from the account page (on a phone) stopping the clock on the opponent's
//! page, live.

use std::time::Instant;

use serde_json::{Value, json};

use crate::harness::{Page, run};

/// Fills the home page's form: the way to play, this browser's side, the
/// board, and the clock (`clock`: the option's value; `custom`: the custom
/// clock's fields by id, set as a person types them).
async fn fill_form(
    p: &Page,
    mode: &str,
    side: &str,
    size: u32,
    clock: &str,
    custom: &[(&str, &str)],
) {
    p.goto("/").await;
    p.wait("document.getElementById('start-game')", "the home page")
        .await;
    let custom: Vec<String> = custom
        .iter()
        .map(|(id, v)| format!("set({}, {});", json!(id), json!(v)))
        .collect();
    let script = format!(
        "const set = (id, v) => {{ const e = document.getElementById(id); e.value = v;
           e.dispatchEvent(new Event('input', {{bubbles: true}}));
           e.dispatchEvent(new Event('change', {{bubbles: true}})); }};
         const check = (input) => {{ input.checked = true; input.dispatchEvent(new Event('change', {{bubbles: true}})); }};
         check(document.querySelector('input[name=variant][value=sygo]'));
         set('size', '{size}');
         check(document.getElementById('mode-{mode}'));
         if ('{mode}' !== 'hotseat') set('my-side', '{side}');
         set('clock', '{clock}');
         {}
         return true;",
        custom.join(" ")
    );
    p.js(&script).await;
}

/// The text of the element with this id.
async fn text_of(p: &Page, id: &str) -> String {
    p.text(&format!("#{id}")).await
}

/// The tab's title.
async fn title(p: &Page) -> String {
    p.js("return document.title;")
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Waits until `color`'s clock on the page shows `time`.
async fn shows(p: &Page, color: &str, time: &str) {
    p.wait(
        &format!(
            "document.getElementById('clock-{color}-time')?.textContent === {}",
            json!(time)
        ),
        &format!("{color}'s clock at {time}"),
    )
    .await;
}

#[test]
fn two_players_online_with_a_live_clock_through_to_a_loss_on_time() {
    run(async |env| {
        let a = env.desktop("clock white").await;
        let b = env.desktop("clock black").await;
        // B has the site open already: the link then opens the game at once.
        b.goto("/games").await;
        // A quick loss on time: no main time, one byo-yomi period of 20 s
        // (time enough for both pages to open the game on a loaded
        // machine). A plays White, who moves first.
        fill_form(
            &a,
            "online",
            "white",
            9,
            "custom",
            &[
                ("clock-kind", "byoyomi"),
                ("clock-main", "0"),
                ("clock-periods", "1"),
                ("clock-period", "20"),
            ],
        )
        .await;
        // Each figure states its limits.
        let limits = text_of(&a, "custom-clock").await;
        for says in ["0 to 180", "1 to 30", "5 to 600"] {
            assert!(limits.contains(says), "the limits: {limits}");
        }
        a.click("#start-game").await;
        a.wait(
            "!document.getElementById('links').hidden",
            "the private links",
        )
        .await;
        let created = Instant::now();
        let started = text_of(&a, "clock-started").await;
        assert!(
            started.contains("Byo-yomi: 1 × 20 s") && started.contains("The clock runs from now"),
            "{started}"
        );
        let link = a.text("#link-black").await;

        // Both open the game at once (White's 20 s run from now).
        tokio::join!(a.click("#go-to-game"), b.goto(&link));
        for p in [&a, &b] {
            p.wait(
                "document.querySelector('#clock-white[data-running]') && document.querySelector('#clock-black')",
                "both clocks, White's running",
            )
            .await;
            // A live update, not a reload, will bring the end.
            p.js("window.sygoNotReloaded = true; return true;").await;
        }
        // The mover's tab says the time left first; the other's does not.
        let white_title = title(&a).await;
        assert!(
            white_title.starts_with("(0:") && white_title.contains(") Your turn — Sygo, 9×9"),
            "White's title: {white_title}"
        );
        let black_title = title(&b).await;
        assert!(
            black_title.starts_with("White to move"),
            "Black's title: {black_title}"
        );
        assert_eq!(
            text_of(&b, "clock-black-extra").await,
            "byo-yomi: last period"
        );

        // White plays in time.
        a.point("E5").await;
        a.wait(
            "document.querySelector('[data-stone=\"E5\"][data-color=white]') || document.getElementById('to-move').dataset.status === 'over'",
            "White's turn played",
        )
        .await;
        assert_eq!(
            a.js("return document.getElementById('to-move').dataset.status || null;")
                .await,
            Value::Null,
            "White ran out of time before playing, {:?} after the game was made: {}",
            created.elapsed(),
            a.state().await
        );
        eprintln!(
            "clocks: White played {:?} after the game was made",
            created.elapsed()
        );

        // Black's clock now runs on both pages, ticking down, marked as
        // running and (under 10 s) low in words, not colour alone; White's
        // stands, whole again. All of it is read in the moment Black's
        // clock turns low (9 s before the end), so that a loaded machine's
        // slow round trips cannot take the test past the loss on time.
        b.stone("E5", "white").await;
        let low = "const c = document.getElementById('clock-black');
            if (!c || !c.hasAttribute('data-low')) return null;
            const w = document.getElementById('clock-white');
            const t = (id) => document.getElementById(id).textContent;
            return {running: c.hasAttribute('data-running'), text: c.textContent,
                    time: t('clock-black-time'), white: t('clock-white-time'),
                    white_running: w.hasAttribute('data-running'), title: document.title,
                    announce: t('clock-announce'),
                    role: document.getElementById('clock-black-time').getAttribute('role')};";
        for p in [&a, &b] {
            let seen = p.value_when(low, "Black's clock low").await;
            let time = seen["time"].as_str().unwrap().to_string();
            assert_eq!(seen["running"], json!(true), "{}: {seen}", p.name);
            assert!(
                time == "0:10" || time.starts_with("0:0"),
                "{}: {seen}",
                p.name
            );
            assert!(
                seen["text"].as_str().unwrap().contains("Low time"),
                "{}: {seen}",
                p.name
            );
            assert_eq!(seen["white"], "0:20", "{}: {seen}", p.name);
            assert_eq!(seen["white_running"], json!(false), "{}: {seen}", p.name);
            let title = seen["title"].as_str().unwrap();
            if p.name == b.name {
                assert!(
                    (title.starts_with("(0:0") || title.starts_with("(0:10)"))
                        && title.contains(") Your turn — "),
                    "Black's title: {title}"
                );
                assert_eq!(seen["role"], "timer", "{seen}");
            } else {
                assert!(title.starts_with("Black to move"), "White's title: {title}");
            }
            // And it ticks on.
            p.wait(
                &format!(
                    "document.getElementById('clock-black-time').textContent !== {}",
                    json!(time)
                ),
                "Black's clock ticking down",
            )
            .await;
        }
        // The clock is not read out each second: only at thresholds (10 s
        // left here; 20 s was already behind when it started).
        assert_eq!(
            text_of(&b, "clock-announce").await,
            "You have 10 seconds left."
        );
        b.screenshot("clock-running.png", true).await;

        // Black does not move: both pages show the loss on time, live.
        for p in [&a, &b] {
            p.wait(
                "document.getElementById('to-move').dataset.status === 'over'",
                "the game over",
            )
            .await;
            let over = text_of(p, "to-move").await;
            assert_eq!(over, "Game over: White wins on time.", "{}", p.name);
            assert_eq!(
                p.js("return window.sygoNotReloaded === true;").await,
                json!(true)
            );
            assert_eq!(text_of(p, "clock-black-time").await, "0:00");
            assert!(
                text_of(p, "clock-black-state")
                    .await
                    .contains("Out of time")
            );
            assert!(
                text_of(p, "last-turn")
                    .await
                    .contains("Black ran out of time.")
            );
            assert!(title(p).await.starts_with("Game over"), "{}", p.name);
        }
        eprintln!(
            "clocks: the loss on time shown {:?} after the game was made",
            created.elapsed()
        );
        b.screenshot("clock-timeout.png", true).await;

        // Black's board takes no more turns: the buttons are gone, a click
        // says why and plays nothing.
        assert_eq!(
            b.js("return document.getElementById('controls').hidden;")
                .await,
            json!(true)
        );
        b.point("C3").await;
        b.contains("message", "The game is over: White wins on time.")
            .await;
        assert_eq!(
            b.js("return !!document.querySelector('[data-stone=\"C3\"]');")
                .await,
            json!(false)
        );
        let id = link
            .split("/game/")
            .nth(1)
            .and_then(|s| s.split('#').next())
            .unwrap()
            .to_string();
        let (_, game) = b.api("GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(game["result"], json!("W+T"));
        assert_eq!(game["turns"].as_array().map(|t| t.len()), Some(2));
        b.close().await;
        a.close().await;
    });
}

#[test]
fn the_home_page_offers_clocks_and_states_a_custom_clocks_limits() {
    run(async |env| {
        let p = env.desktop("clock choice").await;
        // A figure out of its limits is refused on the page, with the limit
        // in words and the focus on the field; no game is made.
        fill_form(
            &p,
            "hotseat",
            "black",
            9,
            "custom",
            &[("clock-kind", "fischer"), ("clock-main", "0.1")],
        )
        .await;
        p.click("#start-game").await;
        p.contains("message", "Main time: from 10 seconds").await;
        assert_eq!(
            p.js("return document.activeElement.id;").await,
            json!("clock-main")
        );
        let (_, list) = p.api("GET", "/api/games", None, None).await;
        assert_eq!(list["games"].as_array().map(Vec::len), Some(0));

        // A preset: two people here, 10 min + 10 s a turn.
        fill_form(&p, "hotseat", "black", 9, "fischer-10-10", &[]).await;
        assert!(
            text_of(&p, "clock-note")
                .await
                .contains("10 min + 10 s a turn")
        );
        p.click("#start-game").await;
        p.wait(
            "location.pathname.startsWith('/game/') && document.querySelector('#clock-white[data-running]')",
            "the game with White's clock running",
        )
        .await;
        shows(&p, "black", "10:00").await;
        assert_eq!(text_of(&p, "clock-black-extra").await, "+ 0:10 a turn");
        assert_eq!(text_of(&p, "clock-control").await, "10 min + 10 s a turn");
        // Both sides are this page's: the title names the side to move.
        let t = title(&p).await;
        assert!(t.starts_with("(9:") || t.starts_with("(10:00)"), "{t}");
        assert!(t.contains(") White to move — Sygo, 9×9"), "{t}");
        // No take-back with a clock, and the page says so.
        assert_eq!(
            p.js("return document.getElementById('takeback-button').hidden;")
                .await,
            json!(true)
        );
        p.contains("undo-note", "a game with a clock").await;

        // A correspondence clock counts in days.
        fill_form(&p, "hotseat", "black", 9, "days-3", &[]).await;
        p.click("#start-game").await;
        p.wait(
            "location.pathname.startsWith('/game/') && document.querySelector('#clock-white[data-running]')",
            "the correspondence game",
        )
        .await;
        shows(&p, "black", "3 days").await;
        assert!(
            text_of(&p, "clock-white-time")
                .await
                .starts_with("2 days 23 h")
        );
        p.close().await;
    });
}

#[test]
fn on_a_phone_the_clock_choice_and_the_clocks_fit() {
    run(async |env| {
        let p = env.phone("clock phone").await;
        fill_form(
            &p,
            "hotseat",
            "black",
            9,
            "custom",
            &[("clock-kind", "byoyomi")],
        )
        .await;
        p.screenshot("phone-clock-choice.png", true).await;
        // Every control of the form 44 px tall, the limits in words, and
        // nothing wider than the screen.
        let small = p
            .js("const out = [];
                 for (const e of document.querySelectorAll('#new-game select, #new-game input:not([type=radio]), #new-game button')) {
                   const r = e.getBoundingClientRect();
                   if (r.width === 0 && r.height === 0) continue;
                   if (r.height < 44) out.push(`${e.id}: ${r.height}`);
                 }
                 return out;")
            .await;
        assert_eq!(small, json!([]), "controls under 44 px");
        let widths = p
            .js("return [document.documentElement.scrollWidth, window.innerWidth];")
            .await;
        assert_eq!(widths[0], widths[1], "the form fits the screen's width");
        assert!(
            text_of(&p, "clock-period-limits")
                .await
                .contains("5 to 600")
        );

        // Byo-yomi: 10 min, then 5 × 30 s, two people on this phone.
        fill_form(&p, "hotseat", "black", 9, "byoyomi-10-5x30", &[]).await;
        p.click("#start-game").await;
        p.wait(
            "location.pathname.startsWith('/game/') && document.querySelector('#clock-white[data-running]')",
            "the game with White's clock running",
        )
        .await;
        shows(&p, "black", "10:00").await;
        assert_eq!(text_of(&p, "clock-black-extra").await, "+ 5 × 0:30");
        p.screenshot("phone-clocks.png", true).await;
        // Both clocks side by side, under the board, within the screen.
        let fit = p
            .js("const [b, w] = ['black', 'white'].map((c) => document.getElementById(`clock-${c}`).getBoundingClientRect());
                 const board = document.querySelector('svg.board').getBoundingClientRect();
                 return [Math.abs(b.top - w.top) < 1, b.right <= w.left, w.right <= window.innerWidth, b.top >= board.bottom,
                         document.documentElement.scrollWidth === window.innerWidth];")
            .await;
        assert_eq!(
            fit,
            json!([true, true, true, true, true]),
            "the clocks' places"
        );
    });
}

/// Signs up `name` through the API from the page (which then holds the
/// session's cookie).
async fn sign_up(p: &Page, name: &str) {
    p.goto("/games").await;
    let (status, answer) = p
        .api(
            "POST",
            "/api/account",
            Some(json!({"name": name, "password": "correct horse battery"})),
            None,
        )
        .await;
    assert_eq!(status, 201, "{}: {name} signed up: {answer}", p.name);
}

/// Gives the side whose token it is to the account signed in on `p`.
async fn claim(p: &Page, id: &str, token: &Value) {
    let (status, answer) = p
        .api(
            "POST",
            "/api/account/claims",
            Some(json!({"claims": [{"game": id, "token": token}]})),
            None,
        )
        .await;
    assert_eq!(status, 200, "{}: a claim: {answer}", p.name);
}

#[test]
fn a_vacation_switched_on_from_the_account_page_stops_the_clock_on_the_opponents_page() {
    run(async |env| {
        let ann = env.phone("vacation ann").await;
        let bob = env.desktop("vacation bob").await;
        sign_up(&ann, "Ann").await;
        sign_up(&bob, "Bob").await;
        // A correspondence game: Ann White (to move first), Bob Black.
        let (id, black, white) = ann
            .create_game(json!({"variant": "sygo", "size": 7,
                "black": {"kind": "human"}, "white": {"kind": "human"},
                "clock": {"kind": "correspondence", "days_per_turn": 3, "bank_days": 6}}))
            .await;
        claim(&ann, &id, &white).await;
        claim(&bob, &id, &black).await;
        bob.goto(&format!("/game/{id}")).await;
        bob.wait(
            "document.getElementById('role')?.textContent.includes('You play Black') && document.querySelector('#clock-white[data-running]')",
            "Bob's game page, White's clock running",
        )
        .await;
        assert_eq!(text_of(&bob, "clock-white-state").await, "▶ Running");

        // Ann, on her phone, goes on vacation from her account page.
        ann.goto("/account").await;
        ann.wait(
            "document.getElementById('vacation-button')?.textContent === 'Go on vacation'",
            "the vacation's switch",
        )
        .await;
        ann.contains("vacation-status", "You are not on vacation.")
            .await;
        ann.contains("vacation-left", "30 days of vacation left")
            .await;
        let fit = ann
            .js(
                "const b = document.getElementById('vacation-button').getBoundingClientRect();
                 return [b.height >= 44, b.right <= window.innerWidth,
                         document.documentElement.scrollWidth === window.innerWidth];",
            )
            .await;
        assert_eq!(fit, json!([true, true, true]), "the switch on a phone");
        ann.click("#vacation-button").await;
        ann.contains("vacation-status", "You are on vacation since")
            .await;
        ann.contains("vacation-left", "It ends by itself on").await;
        assert_eq!(text_of(&ann, "vacation-button").await, "End vacation");
        let (_, me) = ann.api("GET", "/api/account", None, None).await;
        assert_eq!(me["vacation"]["on"], true, "{me}");
        ann.screenshot("phone-vacation.png", true).await;

        // Bob's page, without a reload: White's clock stopped, on vacation,
        // not running (not counted down), the figure the time left frozen.
        bob.wait(
            "document.querySelector('#clock-white[data-paused]') && !document.querySelector('#clock-white[data-running]')",
            "White's clock stopped on Bob's page",
        )
        .await;
        assert_eq!(text_of(&bob, "clock-white-state").await, "‖ On vacation");
        // Until when, at the latest: by White's clock.
        let extra = text_of(&bob, "clock-white-extra").await;
        assert!(extra.starts_with("clock stopped until "), "{extra}");
        assert_eq!(text_of(&bob, "clock-white-time").await, "2 days 23 h");
        assert_eq!(text_of(&bob, "clock-black-state").await, "");
        let (_, game) = bob
            .api("GET", &format!("/api/games/{id}"), None, None)
            .await;
        assert_eq!(game["clock"]["paused"], true, "{game}");
        assert_eq!(game["clock"]["deadline_ms"], Value::Null);
        bob.screenshot("vacation-opponent.png", true).await;

        // Back from vacation: the clock runs again on Bob's page.
        ann.click("#vacation-button").await;
        ann.contains("vacation-status", "You are not on vacation.")
            .await;
        bob.wait(
            "document.querySelector('#clock-white[data-running]') && !document.querySelector('#clock-white[data-paused]')",
            "White's clock running again on Bob's page",
        )
        .await;
        assert_eq!(text_of(&bob, "clock-white-state").await, "▶ Running");
    });
}
