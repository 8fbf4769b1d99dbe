//! Notifications and conditional turns in the browser: a correspondence
//! game between two accounts in which the waiting side plans its answers on
//! the game page (clicked on the board and typed, one refused by the rules
//! with their reason), the server restarted (a long chat then shown a
//! page at a time), and the answer fired by the
//! other side's turn seen on both pages; the header's count of games waiting
//! and the tab's title, live, gone once the turn is played (and a guest's,
//! from the games its browser keeps); browser notifications asked for only
//! on a click, then shown once for each event (a game waiting, a challenge,
//! the reminders before a correspondence deadline).

use std::time::Duration;

use serde_json::{Value, json};

use crate::harness::{Device, Page, Server, run};

const PASSWORD: &str = "correct horse battery";

/// Signs up `name` through the API from the page (which then holds the
/// session's cookie); the page is left on `/games`.
async fn sign_up(p: &Page, name: &str) {
    p.goto("/games").await;
    let (status, answer) = p
        .api(
            "POST",
            "/api/account",
            Some(json!({"name": name, "password": PASSWORD})),
            None,
        )
        .await;
    assert_eq!(status, 201, "{}: {name} signed up: {answer}", p.name);
}

/// A game of Sygo 7×7 between two accounts: `white` challenges
/// `black_name` by name to play White with this clock, and `black`
/// accepts (both through the API). The game's id.
async fn game_between(white: &Page, black: &Page, black_name: &str, clock: Value) -> String {
    let challenge = challenge(white, black_name, clock).await;
    let (status, accepted) = black
        .api(
            "POST",
            &format!("/api/challenges/{challenge}/accept"),
            None,
            None,
        )
        .await;
    assert_eq!(status, 201, "{}: accepted: {accepted}", black.name);
    accepted["game"].as_str().expect("a game").to_string()
}

/// A direct challenge from `from` to `to`, not rated, `from` playing
/// White; its id.
async fn challenge(from: &Page, to: &str, clock: Value) -> String {
    let (status, c) = from
        .api(
            "POST",
            "/api/challenges",
            Some(
                json!({"variant": "sygo", "size": 7, "color": "white", "rated": false,
                        "opponent": to, "clock": clock}),
            ),
            None,
        )
        .await;
    assert_eq!(status, 201, "{}: a challenge: {c}", from.name);
    c["id"].as_str().expect("a challenge's id").to_string()
}

/// The token of the side of game `id` that the account signed in on `p`
/// holds.
async fn token_of(p: &Page, id: &str) -> Value {
    let (status, answer) = p.api("GET", "/api/account", None, None).await;
    assert_eq!(status, 200, "{}: the account: {answer}", p.name);
    answer["games"]
        .as_array()
        .and_then(|games| games.iter().find(|g| g["id"] == id))
        .map(|g| g["token"].clone())
        .unwrap_or_else(|| panic!("{}: the account holds no side of {id}", p.name))
}

/// The side's conditional turns as the server keeps them.
async fn tree_on_server(p: &Page, id: &str, token: &Value) -> Value {
    let (status, answer) = p
        .api(
            "GET",
            &format!("/api/games/{id}/conditional"),
            None,
            token.as_str(),
        )
        .await;
    assert_eq!(status, 200, "{}: the plan: {answer}", p.name);
    answer["tree"].clone()
}

/// Opens the game page as its player.
async fn open_game(p: &Page, id: &str) {
    p.goto(&format!("/game/{id}")).await;
    p.wait(
        "document.querySelector('svg.board') && document.getElementById('role')?.textContent.includes('You play')",
        "the game page, as a player",
    )
    .await;
}

/// Types `text` into the input matched by `css`, emptied first, as a
/// person does.
async fn type_into(p: &Page, css: &str, text: &str) {
    let input = p.find(css).await;
    input
        .clear()
        .await
        .unwrap_or_else(|e| panic!("{}: {css} cleared: {e}", p.name));
    if !text.is_empty() {
        input
            .send_keys(text)
            .await
            .unwrap_or_else(|e| panic!("{}: typing into {css}: {e}", p.name));
    }
    // Clearing sends no input event: the page is told, as a person's
    // deleting would.
    p.js(&format!(
        "document.querySelector({}).dispatchEvent(new Event('input', {{bubbles: true}})); return true;",
        json!(css)
    ))
    .await;
}

/// Saves a screenshot of the screen with the plan in sight into
/// target/screenshots/.
async fn plan_screenshot(p: &Page, file: &str) {
    p.js("document.getElementById('plan').scrollIntoView({block: 'start'}); return true;")
        .await;
    let png = p.client.screenshot().await.expect("a screenshot");
    let dir = crate::harness::root().join("target/screenshots");
    std::fs::create_dir_all(&dir).expect("target/screenshots");
    std::fs::write(dir.join(file), png).expect("the screenshot written");
}

/// Whether the plan's editor is shown (the other side to move).
const EDITING: &str =
    "!document.getElementById('plan').hidden && !document.getElementById('plan-editor').hidden";

#[test]
fn a_correspondence_game_across_a_server_restart_with_a_conditional_turn_that_fires() {
    run(async |env| {
        // A server of this test's own, to restart on the same port.
        let server = Server::start();
        let ann = env.page_at(&server.url, "plan ann", Device::Desktop).await;
        let bob = env.page_at(&server.url, "plan bob", Device::Desktop).await;
        sign_up(&ann, "Ann").await;
        sign_up(&bob, "Bob").await;
        let corr = json!({"kind": "correspondence", "days_per_turn": 3, "bank_days": 6});
        let id = game_between(&ann, &bob, "Bob", corr).await;
        open_game(&ann, &id).await;
        open_game(&bob, &id).await;
        ann.contains("role", "You play White").await;
        bob.contains("role", "You play Black").await;

        // White D4, Black C3, each clicked on its board.
        ann.to_move("white").await;
        ann.point("D4").await;
        bob.stone("D4", "white").await;
        bob.to_move("black").await;
        bob.point("C3").await;
        ann.stone("C3", "black").await;
        ann.to_move("white").await;

        // Ann's turn: her page offers only a word on planning; Bob's the
        // plan's editor, empty.
        ann.wait(
            "!document.getElementById('plan').hidden && document.getElementById('plan-editor').hidden",
            "Ann's page saying she plays her turn",
        )
        .await;
        ann.contains("plan-intro", "It is your turn").await;
        bob.wait(EDITING, "Bob's plan").await;
        bob.contains("plan-saved", "No answers planned.").await;
        // A click on the board says whose turn it is, as ever; once a field
        // of the plan is used, the board writes into it: White's turn, B2.
        bob.point("E4").await;
        bob.contains("message", "wait for your opponent").await;
        bob.contains("plan-target", "press Add an answer").await;
        bob.click("#plan-add").await;
        bob.wait(
            "document.activeElement?.id === 'plan-if-0'",
            "the focus on the new line",
        )
        .await;
        bob.contains("plan-target", "writes into line 1, White's turn")
            .await;
        bob.point("B2").await;
        bob.wait(
            "document.getElementById('plan-if-0')?.value === 'B2'",
            "B2 written as White's turn",
        )
        .await;
        bob.contains("plan-said", "B2 written in line 1, White's turn: B2.")
            .await;
        assert_eq!(bob.text("#message").await, "", "nothing refused");
        let (_, game) = bob
            .api("GET", &format!("/api/games/{id}"), None, None)
            .await;
        assert_eq!(game["turn_number"], 2, "nothing played by the click");
        // An answer the rules refuse, typed: D4 is White's stone. The
        // server's reason is shown, the focus on the answer, nothing saved.
        type_into(&bob, "#plan-then-0", "d4").await;
        bob.contains("plan-unsaved", "Unsaved changes").await;
        bob.click("#plan-save").await;
        bob.contains("plan-message", "Not saved: if B2 then D4: your answer")
            .await;
        bob.wait(
            "document.activeElement?.id === 'plan-then-0'",
            "the focus on the refused answer",
        )
        .await;
        let black = token_of(&bob, &id).await;
        assert_eq!(tree_on_server(&bob, &id, &black).await, json!([]));
        plan_screenshot(&bob, "plan-refused.png").await;

        // The answer clicked instead: C2 into the field last used.
        type_into(&bob, "#plan-then-0", "").await;
        bob.contains("plan-target", "writes into line 1, your answer")
            .await;
        bob.point("C2").await;
        bob.wait(
            "document.getElementById('plan-then-0').value === 'C2'",
            "C2 written as the answer",
        )
        .await;
        // A follow-up, typed: if White then plays E5, Black answers F6.
        bob.click("[data-plan-follow='0']").await;
        bob.wait(
            "document.activeElement?.id === 'plan-if-0-0'",
            "the focus on the follow-up",
        )
        .await;
        type_into(&bob, "#plan-if-0-0", "E5").await;
        type_into(&bob, "#plan-then-0-0", "f6").await;
        // A second line, to be dropped: a line half written is said.
        bob.click("#plan-add").await;
        type_into(&bob, "#plan-if-1", "F2").await;
        bob.click("#plan-save").await;
        bob.contains("plan-message", "Line 2: write your answer too.")
            .await;
        bob.click("[data-plan-remove='1']").await;
        bob.click("#plan-save").await;
        bob.contains(
            "plan-saved",
            "If White plays B2, you answer C2; then if White plays E5, you answer F6.",
        )
        .await;
        bob.contains("plan-saved", "Saved plan (2 answers)").await;
        bob.contains("plan-unsaved", "Your plan is saved: 2 answers.")
            .await;
        let planned = json!([{"if": "B2", "then": "C2", "next": [{"if": "E5", "then": "F6"}]}]);
        assert_eq!(tree_on_server(&bob, &id, &black).await, planned);
        let white = token_of(&ann, &id).await;
        assert_eq!(
            tree_on_server(&ann, &id, &white).await,
            json!([]),
            "secret to White"
        );
        plan_screenshot(&bob, "plan-saved.png").await;

        // The server restarted (the same database and port). Bob's page,
        // loaded again, shows the plan kept; Ann's, open from before,
        // plays on.
        ann.js("window.notReloaded = true; return true;").await;
        // A long chat, written into the database (the server reads it as
        // it starts again).
        {
            let conn = rusqlite::Connection::open(server.dir.0.join("sygo.db"))
                .expect("the server's database");
            conn.busy_timeout(Duration::from_secs(30))
                .expect("a busy timeout");
            for n in 1..=130_i64 {
                conn.execute(
                    "INSERT INTO chat (game_id, number, color, text, at) VALUES (?1, ?2, ?3, ?4, ?5)",
                    rusqlite::params![
                        id,
                        n,
                        if n % 2 == 0 { "black" } else { "white" },
                        format!("line {n}"),
                        1_750_000_000_000_i64 + n * 1000
                    ],
                )
                .expect("a chat line");
            }
        }
        let server = server.restart();
        open_game(&bob, &id).await;
        bob.wait(EDITING, "Bob's plan after the restart").await;
        bob.contains("plan-saved", "If White plays B2, you answer C2")
            .await;
        // The game brings the chat's last 100 lines; "Earlier lines" the
        // 30 before, above them.
        bob.wait(
            "document.querySelectorAll('#chat-lines li').length === 100",
            "the chat's last 100 lines",
        )
        .await;
        assert_eq!(bob.text("#chat-earlier").await, "Earlier lines (30 more)");
        bob.click("#chat-earlier").await;
        bob.contains("chat-earlier-note", "30 earlier lines shown.")
            .await;
        let numbers = bob
            .js("return [...document.querySelectorAll('#chat-lines li')].map(li => Number(li.dataset.chat));")
            .await;
        assert_eq!(numbers, json!((1..=130).collect::<Vec<_>>()));
        assert_eq!(
            bob.js("return document.getElementById('chat-earlier').hidden && document.activeElement?.dataset.chat === '1';")
                .await,
            json!(true),
            "the button gone, the focus on the first line"
        );

        // White plays B2: Black's C2 is played at once, on both pages.
        ann.point("B2").await;
        ann.stone("B2", "white").await;
        ann.stone("C2", "black").await;
        ann.to_move("white").await;
        bob.stone("B2", "white").await;
        bob.stone("C2", "black").await;
        // Bob's plan: what is left of it.
        bob.contains("plan-saved", "Saved plan (1 answer)").await;
        bob.contains("plan-saved", "If White plays E5, you answer F6.")
            .await;
        plan_screenshot(&bob, "plan-fired.png").await;
        assert_eq!(
            tree_on_server(&bob, &id, &black).await,
            json!([{"if": "E5", "then": "F6"}])
        );
        // E5 then: F6 answers; the plan is spent.
        ann.point("E5").await;
        ann.stone("F6", "black").await;
        bob.stone("F6", "black").await;
        bob.contains("plan-saved", "No answers planned.").await;
        // A turn Bob did not plan for: his turn, his page says so, and
        // Ann's page (open across the restart) sees his turn live.
        ann.point("G7").await;
        bob.to_move("black").await;
        bob.contains("plan-intro", "It is your turn").await;
        bob.point("A1").await;
        ann.stone("A1", "black").await;
        assert_eq!(
            ann.js("return window.notReloaded === true;").await,
            json!(true),
            "Ann's page was not loaded again"
        );
        let (_, game) = bob
            .api("GET", &format!("/api/games/{id}"), None, None)
            .await;
        let turns: Vec<(&str, &str)> = game["turns"]
            .as_array()
            .expect("the turns")
            .iter()
            .map(|t| (t["color"].as_str().unwrap(), t["turn"].as_str().unwrap()))
            .collect();
        assert_eq!(
            turns,
            [
                ("white", "D4"),
                ("black", "C3"),
                ("white", "B2"),
                ("black", "C2"),
                ("white", "E5"),
                ("black", "F6"),
                ("white", "G7"),
                ("black", "A1")
            ]
        );
        drop(server);
    });
}

/// The header's count of games waiting (0 when hidden).
async fn waiting(p: &Page) -> u64 {
    p.js(
        "const l = document.getElementById('turns-link');
         return l && !l.hidden && !document.getElementById('notices').hidden ? Number(l.querySelector('.notice-count').textContent) : 0;",
    )
    .await
    .as_u64()
    .unwrap_or(0)
}

/// Waits for the header to count `n` games waiting, and `c` challenges.
async fn counts(p: &Page, n: u64, c: u64) {
    let shown = |link: &str, n: u64| {
        if n == 0 {
            format!(
                "(!document.getElementById('{link}') || document.getElementById('{link}').hidden)"
            )
        } else {
            format!(
                "document.getElementById('{link}') && !document.getElementById('{link}').hidden && \
                 document.querySelector('#{link} .notice-count').textContent === '{n}'"
            )
        }
    };
    p.wait(
        &format!(
            "document.getElementById('notices') && {} && {}",
            shown("turns-link", n),
            shown("challenges-link", c)
        ),
        &format!("the header counting {n} games waiting and {c} challenges"),
    )
    .await;
}

async fn title(p: &Page) -> String {
    p.js("return document.title;")
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn the_count_of_games_waiting_and_the_title_follow_the_turns_live() {
    run(async |env| {
        let ann = env.desktop("count ann").await;
        let bob = env.desktop("count bob").await;
        sign_up(&ann, "Ann").await;
        sign_up(&bob, "Bob").await;
        bob.goto("/games").await;
        counts(&bob, 0, 0).await;
        assert_eq!(title(&bob).await, "Sygo games");
        bob.js("window.notReloaded = true; return true;").await;

        // A direct challenge to Bob: counted live, linking to the lobby.
        let corr = json!({"kind": "correspondence", "days_per_turn": 3, "bank_days": 6});
        let first = challenge(&ann, "Bob", corr.clone()).await;
        counts(&bob, 0, 1).await;
        let link = bob
            .js("const l = document.getElementById('challenges-link'); return [l.getAttribute('href'), l.getAttribute('aria-label'), l.textContent];")
            .await;
        assert_eq!(
            link,
            json!(["/#lobby", "A challenge to you", "1 challenge"])
        );
        // Accepted: no challenge left, and the game waits for Ann (White).
        let (status, accepted) = bob
            .api(
                "POST",
                &format!("/api/challenges/{first}/accept"),
                None,
                None,
            )
            .await;
        assert_eq!(status, 201, "{accepted}");
        let id = accepted["game"].as_str().unwrap().to_string();
        counts(&bob, 0, 0).await;
        assert_eq!(title(&bob).await, "Sygo games");

        // Ann plays: the game waits for Bob, whose page counts it at once,
        // titled "(1) …", the favicon with its badge.
        let white = token_of(&ann, &id).await;
        ann.play_api(&id, &[(&white, "D4")]).await;
        counts(&bob, 1, 0).await;
        bob.wait(
            "document.title === '(1) Sygo games'",
            "the title counting the game",
        )
        .await;
        let favicon = bob
            .js("return document.querySelector('link[rel=icon]').getAttribute('href');")
            .await;
        assert_eq!(favicon, json!("/static/favicon-turn.svg"));
        let link = bob
            .js("const l = document.getElementById('turns-link'); return [l.getAttribute('href'), l.getAttribute('aria-label'), l.textContent, l.title];")
            .await;
        assert_eq!(
            link,
            json!([
                "/#your-games",
                "A game waits for your turn",
                "1 your turn",
                "Your turn against Ann (Sygo 7×7, turn 2)"
            ])
        );
        assert_eq!(
            bob.js("return window.notReloaded === true;").await,
            json!(true)
        );
        bob.screenshot("count-waiting.png", true).await;

        // The count opens "Your games", and the game from there.
        bob.click("#turns-link").await;
        bob.wait(
            &format!("location.pathname === '/' && document.querySelector('#my-games [data-open=\"{id}\"]')"),
            "your games on the home page",
        )
        .await;
        bob.wait(
            "document.title === '(1) Sygo'",
            "the home page's title counting the game",
        )
        .await;
        bob.click(&format!("#my-games [data-open=\"{id}\"]")).await;
        open_game(&bob, &id).await;
        // The game page's title is the clock's: no count before it.
        bob.to_move("black").await;
        counts(&bob, 1, 0).await;
        bob.wait("document.title.includes('Your turn')", "the clock's title")
            .await;
        assert!(
            !title(&bob).await.starts_with("(1) "),
            "{}",
            title(&bob).await
        );
        // Bob plays: the count goes, live, on the game page.
        bob.point("C3").await;
        bob.stone("C3", "black").await;
        counts(&bob, 0, 0).await;
        bob.wait(
            "document.querySelector('link[rel=icon]').getAttribute('href') === '/static/favicon.svg'",
            "the favicon without its badge",
        )
        .await;
        bob.goto("/games").await;
        counts(&bob, 0, 0).await;
        assert_eq!(title(&bob).await, "Sygo games");

        // A guest: the games its browser keeps. White's side of a game
        // between two people, kept from its link, waits for it.
        let guest = env.desktop("count guest").await;
        let (game, _, guest_white) = guest
            .create_game(
                json!({"variant": "sygo", "size": 5, "black": {"kind": "human"},
                                "white": {"kind": "human"}}),
            )
            .await;
        guest
            .goto(&format!(
                "/game/{game}#white={}",
                guest_white.as_str().unwrap()
            ))
            .await;
        guest
            .wait(
                "document.getElementById('role')?.textContent.includes('You play White')",
                "the guest's side kept",
            )
            .await;
        guest.goto("/games").await;
        counts(&guest, 1, 0).await;
        guest
            .wait(
                "document.title === '(1) Sygo games'",
                "the guest's title counting the game",
            )
            .await;
        guest.play_api(&game, &[(&guest_white, "C3")]).await;
        guest.goto("/games").await;
        counts(&guest, 0, 0).await;
        assert_eq!(title(&guest).await, "Sygo games");
        assert_eq!(waiting(&guest).await, 0);
    });
}

/// Stands in for the browser's `Notification` before any script of a page
/// runs: the permission asked (counted) and granted, each notification
/// recorded, all in localStorage so that they outlive a page; and the
/// page's clock moved on by `test.offset` ms (a deadline hours away, seen
/// as near).
const FAKE_NOTIFICATIONS: &str = "(() => {
  let store;
  try { store = window.localStorage; store.getItem('x'); } catch (e) { return; }
  const get = (k, d) => JSON.parse(store.getItem(k) || JSON.stringify(d));
  const offset = Number(store.getItem('test.offset') || 0);
  if (offset) { const now = Date.now.bind(Date); Date.now = () => now() + offset; }
  class FakeNotification {
    constructor(title, options) {
      const notes = get('test.notes', []);
      notes.push({title, body: (options || {}).body, tag: (options || {}).tag});
      store.setItem('test.notes', JSON.stringify(notes));
    }
    close() {}
    static get permission() { return store.getItem('test.permission') || 'default'; }
    static requestPermission() {
      store.setItem('test.asked', String(Number(store.getItem('test.asked') || 0) + 1));
      store.setItem('test.permission', 'granted');
      return Promise.resolve('granted');
    }
  }
  window.Notification = FakeNotification;
})();";

/// How many times the page asked for the permission.
async fn asked(p: &Page) -> u64 {
    p.js("return Number(localStorage.getItem('test.asked') || 0);")
        .await
        .as_u64()
        .unwrap()
}

/// The notifications shown so far: `[{title, body, tag}]`.
async fn notes(p: &Page) -> Vec<Value> {
    p.js("return JSON.parse(localStorage.getItem('test.notes') || '[]');")
        .await
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Waits for the `n`th notification; it.
async fn nth_note(p: &Page, n: usize) -> Value {
    p.wait(
        &format!("JSON.parse(localStorage.getItem('test.notes') || '[]').length >= {n}"),
        &format!("notification {n}"),
    )
    .await;
    notes(p).await[n - 1].clone()
}

#[test]
fn notifications_are_asked_for_on_a_click_only_then_shown_once_for_each_event() {
    run(async |env| {
        let ann = env.desktop("notify ann").await;
        let bob = env.desktop("notify bob").await;
        crate::cdp::cdp(
            &bob,
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": FAKE_NOTIFICATIONS}),
        )
        .await;
        sign_up(&ann, "Ann").await;
        sign_up(&bob, "Bob").await;
        // A correspondence game of a day a turn, waiting for Ann.
        let day = json!({"kind": "correspondence", "days_per_turn": 1, "bank_days": 2});
        let id = game_between(&ann, &bob, "Bob", day.clone()).await;

        // No page asks for the permission by itself.
        for path in [
            "/",
            "/games",
            &format!("/game/{id}"),
            "/ratings",
            "/account",
        ] {
            bob.goto(path).await;
            bob.wait("document.getElementById('notices')", "the header's counts")
                .await;
            assert_eq!(asked(&bob).await, 0, "{path} asked for the permission");
        }
        bob.wait(
            "document.getElementById('notify-button')",
            "the account page's button",
        )
        .await;
        assert_eq!(bob.text("#notify-button").await, "Notify me of my turns");
        assert_eq!(bob.text("#notify-status").await, "Notifications are off.");

        // The click asks; granted, notifications are on.
        bob.click("#notify-button").await;
        bob.contains("notify-status", "Notifications are on.").await;
        assert_eq!(asked(&bob).await, 1);
        assert_eq!(bob.text("#notify-button").await, "Stop notifications");
        assert!(notes(&bob).await.is_empty(), "nothing new to notify");

        // A direct challenge, then Ann's turn played: one notification each.
        challenge(&ann, "Bob", day).await;
        let note = nth_note(&bob, 1).await;
        assert_eq!(note["title"], "A challenge for you", "{note}");
        let white = token_of(&ann, &id).await;
        ann.play_api(&id, &[(&white, "D4")]).await;
        let note = nth_note(&bob, 2).await;
        assert_eq!(note["title"], "Your turn in Sygo", "{note}");
        assert_eq!(
            note["body"], "Your turn against Ann (Sygo 7×7, turn 2).",
            "the game said as what it is: {note}"
        );
        // Loaded again, the page knows what was notified.
        bob.goto("/games").await;
        counts(&bob, 1, 1).await;
        tokio::time::sleep(Duration::from_millis(2500)).await;
        assert_eq!(notes(&bob).await.len(), 2, "{:?}", notes(&bob).await);

        // Bob's deadline is a day away: seen 13 hours later, less than 12
        // hours are left (once), then 23 h 30 min later, less than an hour.
        bob.js(&format!(
            "localStorage.setItem('test.offset', '{}'); return true;",
            13 * 3600 * 1000
        ))
        .await;
        bob.goto("/games").await;
        let note = nth_note(&bob, 3).await;
        assert_eq!(note["title"], "Your time is running out", "{note}");
        assert_eq!(
            note["body"],
            "You have less than 12 hours to play your turn against Ann (Sygo 7×7, turn 2).",
            "{note}"
        );
        bob.goto("/").await;
        counts(&bob, 1, 1).await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(notes(&bob).await.len(), 3, "{:?}", notes(&bob).await);
        bob.js(&format!(
            "localStorage.setItem('test.offset', '{}'); return true;",
            (23 * 3600 + 1800) * 1000
        ))
        .await;
        bob.goto("/games").await;
        let note = nth_note(&bob, 4).await;
        assert!(
            note["body"].as_str().unwrap().contains("less than an hour"),
            "{note}"
        );
        let tags: Vec<Value> = notes(&bob).await.iter().map(|n| n["tag"].clone()).collect();
        assert_eq!(
            tags,
            [
                json!("sygo-challenge"),
                json!(format!("sygo-turn-{id}")),
                json!(format!("sygo-remind-{id}-12h")),
                json!(format!("sygo-remind-{id}-1h")),
            ]
        );

        // Signed out, Bob is a guest, with no notice stream: his games'
        // deadlines come from the list of the games this browser keeps, and
        // he is notified and reminded as an account is. A new
        // correspondence game of a day a turn, Black kept from its link;
        // White plays: his turn, named; seen 13 hours later, less than 12
        // hours are left.
        let (status, _) = bob.api("DELETE", "/api/session", None, None).await;
        assert_eq!(status, 204);
        let (guest_game, guest_black, guest_white) = bob
            .create_game(json!({"variant": "sygo", "size": 5, "black": {"kind": "human"},
                                "white": {"kind": "human"},
                                "clock": {"kind": "correspondence", "days_per_turn": 1, "bank_days": 2}}))
            .await;
        bob.goto(&format!(
            "/game/{guest_game}#black={}",
            guest_black.as_str().unwrap()
        ))
        .await;
        bob.wait(
            "document.getElementById('role')?.textContent.includes('You play Black')",
            "the guest's side kept",
        )
        .await;
        bob.play_api(&guest_game, &[(&guest_white, "C3")]).await;
        bob.js(&format!(
            "localStorage.setItem('test.offset', '{}'); return true;",
            13 * 3600 * 1000
        ))
        .await;
        bob.goto("/games").await;
        let note = nth_note(&bob, 5).await;
        assert_eq!(
            (
                note["title"].clone(),
                note["body"].clone(),
                note["tag"].clone()
            ),
            (
                json!("Your turn in Sygo"),
                json!("Your turn against your opponent (Sygo 5×5, turn 2)."),
                json!(format!("sygo-turn-{guest_game}"))
            )
        );
        let note = nth_note(&bob, 6).await;
        assert_eq!(
            (
                note["title"].clone(),
                note["body"].clone(),
                note["tag"].clone()
            ),
            (
                json!("Your time is running out"),
                json!(
                    "You have less than 12 hours to play your turn against your opponent (Sygo 5×5, turn 2)."
                ),
                json!(format!("sygo-remind-{guest_game}-12h"))
            )
        );
        bob.goto("/").await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(notes(&bob).await.len(), 6, "once: {:?}", notes(&bob).await);

        // Turned off again, without asking.
        bob.goto("/account").await;
        bob.wait(
            "document.getElementById('notify-button')",
            "the account page's button",
        )
        .await;
        assert_eq!(bob.text("#notify-button").await, "Stop notifications");
        bob.click("#notify-button").await;
        bob.contains("notify-status", "Notifications are off.")
            .await;
        assert_eq!(bob.text("#notify-button").await, "Notify me of my turns");
        assert_eq!(asked(&bob).await, 1);
    });
}

#[test]
fn a_phone_plans_an_answer_by_tapping_the_board_with_the_counts_in_its_header() {
    run(async |env| {
        let ann = env.desktop("phone plan ann").await;
        let phone = env.phone("phone plan").await;
        // The longest name there is, for the header.
        let name = "a_rather_long_name_2";
        sign_up(&ann, "Ann").await;
        sign_up(&phone, name).await;
        let corr = json!({"kind": "correspondence", "days_per_turn": 3, "bank_days": 6});
        // A game waiting for Ann, one waiting for the phone, and a
        // challenge to the phone.
        let id = game_between(&ann, &phone, name, corr.clone()).await;
        let other = game_between(&ann, &phone, name, corr.clone()).await;
        challenge(&ann, name, corr).await;
        let white = token_of(&ann, &id).await;
        let black = token_of(&phone, &id).await;
        // Each plays from its own browser: an account's token holds with
        // its session's cookie.
        ann.play_api(&id, &[(&white, "D4")]).await;
        phone.play_api(&id, &[(&black, "C3")]).await;
        let other_white = token_of(&ann, &other).await;
        ann.play_api(&other, &[(&other_white, "D4")]).await;

        open_game(&phone, &id).await;
        counts(&phone, 1, 1).await;
        phone.wait(EDITING, "the phone's plan").await;
        phone.contains("plan-help", "tap the board").await;
        phone.click("#plan-add").await;
        phone
            .wait(
                "document.activeElement?.id === 'plan-if-0'",
                "the focus on the new line",
            )
            .await;
        phone.point("B2").await;
        phone
            .wait(
                "document.getElementById('plan-if-0').value === 'B2'",
                "B2 tapped into White's turn",
            )
            .await;
        phone.click("#plan-then-0").await;
        phone
            .contains(
                "plan-target",
                "Tapping the board writes into line 1, your answer",
            )
            .await;
        phone.point("C2").await;
        phone
            .wait(
                "document.getElementById('plan-then-0').value === 'C2'",
                "C2 tapped into the answer",
            )
            .await;
        phone.click("#plan-save").await;
        phone
            .contains("plan-saved", "If White plays B2, you answer C2.")
            .await;
        assert_eq!(
            tree_on_server(&phone, &id, &black).await,
            json!([{"if": "B2", "then": "C2"}])
        );
        plan_screenshot(&phone, "phone-plan.png").await;

        // Every control of the plan 44 px tall (and wide); nothing wider
        // than the screen; the header on one line with both counts and the
        // account's name.
        let fit = phone
            .js("const out = [];
                 for (const e of document.querySelectorAll('#plan :is(button, input)')) {
                   const r = e.getBoundingClientRect();
                   if (r.width === 0 && r.height === 0) continue;
                   if (r.height < 44 || r.width < 44) out.push(`${e.tagName} ${e.id || e.textContent.trim()}: ${r.width}×${r.height}`);
                 }
                 const header = document.querySelector('header.top').getBoundingClientRect();
                 const account = document.getElementById('account-link').getBoundingClientRect();
                 const counts = [...document.querySelectorAll('.notice-link')].filter((l) => !l.hidden)
                   .map((l) => l.getBoundingClientRect()).every((r) => r.height >= 44 && r.width >= 44 && r.right <= window.innerWidth);
                 return [out, document.documentElement.scrollWidth === document.documentElement.clientWidth,
                         header.height < 70, account.right <= window.innerWidth, counts];")
            .await;
        assert_eq!(
            fit,
            json!([[], true, true, true, true]),
            "the plan and the header on a phone"
        );
        phone.screenshot("phone-counts.png", true).await;
    });
}
