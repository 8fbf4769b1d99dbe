//! The lobby and the ratings in the browser: a challenge posted on one
//! home page appears live on others (a direct one as "… challenges you",
//! withdrawn live too), is accepted in another browser, and both players
//! end up on the same game playing opposite colours, the poster's page
//! going there by itself; the leaderboard and a profile's rating graph
//! after thirty rated games; the lobby on a phone.

use serde_json::{Value, json};

use crate::harness::{Page, run};

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

/// Opens the home page and waits for the lobby's first answer (the live
/// stream's first event, or its loading said otherwise).
async fn open_lobby(p: &Page) {
    p.goto("/").await;
    p.wait(
        "document.getElementById('lobby-status') && \
         !document.getElementById('lobby-status').textContent.startsWith('Loading')",
        "the lobby",
    )
    .await;
}

/// Fills the home page's "Post a challenge" form (as a person chooses:
/// each field set and told it changed): the board, the colour, the clock
/// (an option's value), rated, the rating range and the opponent.
async fn fill_challenge(p: &Page, fields: &[(&str, &str)]) {
    p.wait(
        "document.getElementById('post-challenge-button')",
        "the form to post a challenge",
    )
    .await;
    let sets: Vec<String> = fields
        .iter()
        .map(|(id, v)| format!("set({}, {});", json!(id), json!(v)))
        .collect();
    let script = format!(
        "const set = (id, v) => {{ const e = document.getElementById(id);
           if (e.type === 'checkbox') e.checked = v === 'true'; else e.value = v;
           e.dispatchEvent(new Event('input', {{bubbles: true}}));
           e.dispatchEvent(new Event('change', {{bubbles: true}})); }};
         {}
         return true;",
        sets.join(" ")
    );
    p.js(&script).await;
}

/// The text of the challenge from `name` in the page's lobby ("" for none).
async fn challenge_from(p: &Page, name: &str) -> String {
    p.js(&format!(
        "const e = document.querySelector('#challenges [data-from={}]'); return e ? e.textContent : '';",
        json!(name)
    ))
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// Waits for the challenge from `name` in the page's lobby with this
/// `extra` selector inside it (`[data-accept]`, …).
async fn wait_challenge(p: &Page, name: &str, extra: &str) {
    p.wait(
        &format!(
            "document.querySelector('#challenges li[data-from={}] {extra}')",
            json!(name)
        ),
        &format!("{name}'s challenge with {extra}"),
    )
    .await;
}

/// The game page's path on `p`, once it is a game page with its board.
async fn game_path(p: &Page) -> String {
    p.wait(
        "location.pathname.startsWith('/game/') && document.querySelector('svg.board') && document.getElementById('role')",
        "a game page",
    )
    .await;
    p.js("return location.pathname;")
        .await
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_challenge_posted_in_one_browser_is_seen_live_and_accepted_in_another() {
    run(async |env| {
        let ann = env.desktop("lobby ann").await;
        let bob = env.desktop("lobby bob").await;
        let guest = env.desktop("lobby guest").await;
        sign_up(&ann, "Ann").await;
        sign_up(&bob, "Bob").await;
        // Bob's and the guest's home pages are open before anything is posted.
        open_lobby(&bob).await;
        open_lobby(&guest).await;
        for p in [&bob, &guest] {
            p.js("window.notReloaded = true; return true;").await;
            assert_eq!(challenge_from(p, "Ann").await, "", "nothing posted yet");
        }
        open_lobby(&ann).await;

        // A direct challenge to Bob: Bob sees "Ann challenges you", the
        // guest nothing; Ann withdraws it and it goes from Bob's page.
        fill_challenge(
            &ann,
            &[("challenge-opponent", "Bob"), ("challenge-rated", "false")],
        )
        .await;
        ann.click("#post-challenge-button").await;
        ann.contains("post-challenge-done", "Your challenge to Bob is posted")
            .await;
        wait_challenge(&ann, "Ann", "[data-withdraw]").await;
        assert!(
            challenge_from(&ann, "Ann")
                .await
                .contains("Your challenge to Bob")
        );
        wait_challenge(&bob, "Ann", "[data-accept]").await;
        let direct = challenge_from(&bob, "Ann").await;
        for says in [
            "Ann challenges you",
            "Not rated",
            "No clock",
            "Colours drawn at random",
        ] {
            assert!(
                direct.contains(says),
                "Bob's direct challenge says {says:?}: {direct}"
            );
        }
        ann.click("#challenges [data-withdraw]").await;
        bob.wait(
            "!document.querySelector('#challenges li[data-from=\"Ann\"]')",
            "the withdrawn challenge gone",
        )
        .await;
        assert_eq!(
            challenge_from(&guest, "Ann").await,
            "",
            "a direct challenge is not the guest's"
        );

        // An open challenge: Ann plays White (who moves first), 10 min +
        // 10 s, rated, for ratings 1000 to 2000.
        fill_challenge(
            &ann,
            &[
                ("challenge-color", "white"),
                ("challenge-clock", "fischer-10-10"),
                ("challenge-rated", "true"),
                ("challenge-min-rating", "1000"),
                ("challenge-max-rating", "2000"),
            ],
        )
        .await;
        ann.click("#post-challenge-button").await;
        ann.contains("post-challenge-done", "Your challenge is posted")
            .await;
        wait_challenge(&ann, "Ann", "[data-withdraw]").await;

        // Seen without a reload by Bob (with Accept) and the guest (with a
        // way to sign in).
        wait_challenge(&bob, "Ann", "[data-accept]").await;
        wait_challenge(
            &guest,
            "Ann",
            "a[data-sign-in-to-accept][href=\"/account\"]",
        )
        .await;
        for p in [&bob, &guest] {
            assert_eq!(
                p.js("return window.notReloaded === true;").await,
                json!(true),
                "{}: the page was not reloaded",
                p.name
            );
        }
        let seen = challenge_from(&bob, "Ann").await;
        for says in [
            "Ann",
            "1500?",
            "Sygo 9×9",
            "Ann plays White; you play Black",
            "10 min + 10 s a turn",
            "Rated",
            "Ratings 1000 to 2000",
        ] {
            assert!(seen.contains(says), "Bob's lobby says {says:?}: {seen}");
        }
        assert!(
            challenge_from(&guest, "Ann")
                .await
                .contains("Sign in to accept"),
            "the guest is asked to sign in"
        );
        bob.screenshot("lobby-challenge.png", true).await;

        // Bob accepts: both are on the same game, Ann's page having gone
        // there by itself.
        bob.click("#challenges [data-accept]").await;
        let path = game_path(&bob).await;
        assert_eq!(game_path(&ann).await, path, "both on the same game");
        let id = path.trim_start_matches("/game/").to_string();
        ann.contains("role", "You play White.").await;
        bob.contains("role", "You play Black.").await;
        for p in [&ann, &bob] {
            p.contains("players", "White: Ann").await;
            p.contains("players", "Black: Bob").await;
            p.wait(
                "document.querySelector('#clock-white[data-running]')",
                "White's clock running",
            )
            .await;
        }
        // Ann's page keeps her side's secret, from the account.
        let kept = ann
            .js(&format!(
                "return JSON.parse(localStorage.getItem('sygo.games')).games[{}].white;",
                json!(id)
            ))
            .await;
        assert!(
            kept.as_str().is_some_and(|t| t.len() == 32),
            "Ann's token kept: {kept}"
        );

        // One move: Ann (White) places E5; Bob sees it, and it is his turn.
        ann.to_move("white").await;
        ann.point("E5").await;
        ann.stone("E5", "white").await;
        bob.stone("E5", "white").await;
        bob.to_move("black").await;
        bob.contains("to-move", "your turn").await;
        ann.screenshot("lobby-game.png", true).await;

        // The guest's lobby lists the game being played, to watch.
        guest
            .wait(
                &format!(
                    "document.querySelector('#playing-list [data-watch={}]')",
                    json!(id)
                ),
                "the game being played",
            )
            .await;
        let row = guest
            .text(&format!("#playing-list li[data-playing=\"{id}\"]"))
            .await;
        assert!(
            row.contains("Ann (White) against Bob (Black)") && row.contains("Rated"),
            "{row}"
        );
        // Each name links to the player's profile.
        let links = guest
            .js(&format!(
                "return [...document.querySelectorAll('#playing-list li[data-playing={}] a.player-link')]
                   .map(a => [a.textContent, a.getAttribute('href')]);",
                json!(id)
            ))
            .await;
        assert_eq!(
            links,
            json!([["Ann", "/player/Ann"], ["Bob", "/player/Bob"]]),
            "the players' links"
        );
        guest
            .click(&format!("#playing-list [data-watch=\"{id}\"]"))
            .await;
        assert_eq!(game_path(&guest).await, path);
        guest.contains("role", "You are watching.").await;

        // Ann's lobby says who accepted her challenge, linking to him.
        ann.goto("/").await;
        ann.wait(
            "document.querySelector('#challenges [data-term=accepted] a.player-link')",
            "who accepted the challenge",
        )
        .await;
        assert_eq!(
            ann.text("#challenges [data-term=accepted]").await,
            "Accepted by Bob"
        );
    });
}

/// Plays a rated 5×5 game that `loser` loses: `winner` posts the challenge
/// through the API, `loser` accepts it and resigns.
async fn rated_game(winner: &Page, loser: &Page) {
    let (status, c) = winner
        .api(
            "POST",
            "/api/challenges",
            Some(json!({"variant": "sygo", "size": 5, "rated": true})),
            None,
        )
        .await;
    assert_eq!(status, 201, "a challenge posted: {c}");
    let id = c["id"].as_str().expect("its id");
    let (status, a) = loser
        .api("POST", &format!("/api/challenges/{id}/accept"), None, None)
        .await;
    assert_eq!(status, 201, "the challenge accepted: {a}");
    let game = a["game"].as_str().expect("the game");
    let token = a["token"].as_str().expect("the accepter's token");
    let (status, answer) = loser
        .api(
            "POST",
            &format!("/api/games/{game}/resign"),
            Some(json!({})),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "resigned: {answer}");
}

#[test]
fn the_leaderboard_and_a_profiles_rating_graph() {
    run(async |env| {
        let ann = env.desktop("ratings ann").await;
        let bob = env.desktop("ratings bob").await;
        sign_up(&ann, "Ann").await;
        sign_up(&bob, "Bob").await;
        // Thirty rated games, Ann winning two in three: both ratings are
        // then established.
        for i in 0..30 {
            if i % 3 == 2 {
                rated_game(&bob, &ann).await;
            } else {
                rated_game(&ann, &bob).await;
            }
        }

        // The header's link to the leaderboard.
        ann.goto("/").await;
        ann.click("header nav a[href='/ratings']").await;
        ann.wait(
            "location.pathname === '/ratings' && document.querySelector('#ratings-panel[data-loaded]')",
            "the leaderboard",
        )
        .await;
        assert_eq!(
            ann.js("return document.querySelector('header nav a[href=\"/ratings\"]').getAttribute('aria-current');")
                .await,
            json!("page")
        );
        let rows = ann
            .js(
                "return [...document.querySelectorAll('#leaderboard tbody tr')].map((tr) =>
                   [...tr.querySelectorAll('td')].map((td) => td.textContent));",
            )
            .await;
        let rows = rows.as_array().expect("rows").clone();
        assert_eq!(rows.len(), 2, "two players: {rows:?}");
        assert_eq!(rows[0][0], json!("1"));
        assert_eq!(rows[0][1], json!("Ann"));
        assert_eq!(rows[1][0], json!("2"));
        assert_eq!(rows[1][1], json!("Bob"));
        let rating = |row: &Value| {
            row[2]
                .as_str()
                .unwrap()
                .parse::<i64>()
                .expect("a rating without ?")
        };
        assert!(rating(&rows[0]) > rating(&rows[1]), "{rows:?}");
        assert_eq!(rows[0][4], json!("30"), "Ann's rated games");
        assert_eq!(
            ann.js("return document.getElementById('tab-sygo').getAttribute('aria-selected');")
                .await,
            json!("true")
        );
        ann.screenshot("ratings-leaderboard.png", true).await;
        // Hexsygo: nobody yet. The tab's address opens it again.
        ann.click("#tab-hexsygo").await;
        ann.contains("ratings-panel", "No Hexsygo rating is established yet")
            .await;
        assert_eq!(
            ann.js("return location.pathname + location.search;").await,
            json!("/ratings?family=hexsygo")
        );
        ann.goto("/ratings?family=hexsygo").await;
        ann.wait(
            "document.querySelector('#tab-hexsygo[aria-selected=true]') && document.getElementById('ratings-empty')",
            "the Hexsygo tab",
        )
        .await;
        // ← goes back to Sygo, from the keyboard.
        ann.js("document.getElementById('tab-hexsygo').focus(); return true;")
            .await;
        ann.js("document.getElementById('tab-hexsygo').dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft', bubbles: true})); return true;")
            .await;
        ann.wait(
            "document.activeElement.id === 'tab-sygo' && document.querySelector('#leaderboard tbody tr')",
            "the Sygo tab from the keyboard",
        )
        .await;

        // Ann's profile: her Sygo rating, established, and its graph with a
        // point for each rated game.
        ann.click("#leaderboard a[href='/player/Ann']").await;
        ann.wait(
            "document.querySelector('[data-rating-graph=sygo]')",
            "the profile's graph",
        )
        .await;
        let value = ann.text("[data-family=sygo] .rating-value").await;
        assert_eq!(
            value,
            rating(&rows[0]).to_string(),
            "the profile's rating, as on the leaderboard"
        );
        let line = ann.text("[data-family=sygo] .rating-line").await;
        assert!(
            line.contains("30 rated games") && !line.contains("provisional"),
            "{line}"
        );
        let graph = ann
            .js(
                "const svg = document.querySelector('[data-rating-graph=sygo]');
                 return [svg.querySelectorAll('circle.rating-graph-dot').length,
                         svg.getAttribute('role'),
                         svg.querySelector('title').textContent,
                         svg.querySelector('desc').textContent.length > 0,
                         document.querySelectorAll('[data-rating-points=sygo] tbody tr').length,
                         svg.querySelectorAll('[style]').length,
                         svg.getBoundingClientRect().width > 300];",
            )
            .await;
        assert_eq!(
            graph,
            json!([
                30,
                "img",
                "Ann’s Sygo rating after each of 30 rated games",
                true,
                30,
                0,
                true
            ]),
            "the graph"
        );
        // The last point is the rating now.
        let last = ann
            .js("const d = [...document.querySelectorAll('[data-rating-graph=sygo] circle')]; return d[d.length - 1].dataset.rating;")
            .await;
        assert_eq!(last, json!(value));
        ann.contains("player-ratings", "No rated Hexsygo game yet")
            .await;
        let hex = ann.text("[data-family=hexsygo] .rating-value").await;
        assert_eq!(hex, "1500?", "a provisional rating");
        ann.screenshot("ratings-profile.png", true).await;

        // In the lobby, Ann's rating now shows without "?".
        let (status, _) = ann
            .api(
                "POST",
                "/api/challenges",
                Some(json!({"variant": "sygo", "size": 9})),
                None,
            )
            .await;
        assert_eq!(status, 201);
        open_lobby(&bob).await;
        wait_challenge(&bob, "Ann", "[data-accept]").await;
        let seen = challenge_from(&bob, "Ann").await;
        assert!(
            seen.contains(&format!("Ann {value}")) && !seen.contains('?'),
            "{seen}"
        );
    });
}

#[test]
fn the_lobby_on_a_phone() {
    run(async |env| {
        let phone = env.phone("lobby phone").await;
        let cat = env.desktop("lobby cat").await;
        let dan = env.desktop("lobby dan").await;
        // The longest name there is, for the header.
        let name = "a_rather_long_name_2";
        sign_up(&phone, name).await;
        sign_up(&cat, "Cat").await;
        sign_up(&dan, "Dan").await;
        // Two of Cat's challenges, a direct one for the phone's player; Dan
        // takes the open one: a game being played. The phone's own
        // challenge, which it may withdraw.
        for terms in [
            json!({"variant": "sygo", "size": 9, "clock": {"kind": "byoyomi", "main_ms": 600000, "periods": 5, "period_ms": 30000}}),
            json!({"variant": "hexsygo", "size": 5, "opponent": name, "min_rating": 1200, "max_rating": 1800}),
        ] {
            let (status, c) = cat.api("POST", "/api/challenges", Some(terms), None).await;
            assert_eq!(status, 201, "{c}");
        }
        let (_, lobby) = dan.api("GET", "/api/lobby", None, None).await;
        let open = lobby["challenges"][0]["id"]
            .as_str()
            .expect("Cat's open challenge")
            .to_string();
        let (status, a) = dan
            .api(
                "POST",
                &format!("/api/challenges/{open}/accept"),
                None,
                None,
            )
            .await;
        assert_eq!(status, 201, "{a}");
        let (status, c) = phone
            .api(
                "POST",
                "/api/challenges",
                Some(json!({"variant": "sygo", "size": 19, "color": "black",
                            "clock": {"kind": "correspondence", "days_per_turn": 3, "bank_days": 6}})),
                None,
            )
            .await;
        assert_eq!(status, 201, "{c}");

        open_lobby(&phone).await;
        wait_challenge(&phone, "Cat", "[data-accept]").await;
        wait_challenge(&phone, name, "[data-withdraw]").await;
        phone
            .wait(
                "document.querySelector('#playing-list [data-watch]')",
                "the game being played",
            )
            .await;
        let direct = challenge_from(&phone, "Cat").await;
        assert!(
            direct.contains("Cat challenges you") && direct.contains("Ratings 1200 to 1800"),
            "{direct}"
        );
        // The form with a custom clock's fields shown too.
        fill_challenge(
            &phone,
            &[
                ("challenge-clock", "custom"),
                ("challenge-clock-kind", "byoyomi"),
            ],
        )
        .await;
        phone.screenshot("phone-lobby.png", true).await;

        // Nothing wider than the screen; every control of the lobby, the
        // form and the games being played 44 px tall, and as wide but for a
        // link in a sentence (the Accept and Withdraw buttons the card's
        // width); the header on one line.
        let fit = phone
            .js("const out = [];
                 for (const e of document.querySelectorAll(
                   '#lobby :is(button, select, input, a), #post-challenge-card :is(button, select, input:not([type=radio]):not([type=checkbox]), a), ' +
                   '#post-challenge-card label:has(input), #playing :is(button, a)')) {
                   const r = e.getBoundingClientRect();
                   if (r.width === 0 && r.height === 0) continue;
                   const text = e.tagName === 'A' && !e.classList.contains('button') || e.tagName === 'LABEL';
                   if (r.height < 44 || (!text && r.width < 44)) out.push(`${e.tagName} ${e.id || e.textContent.trim().slice(0, 30)}: ${r.width}×${r.height}`);
                 }
                 const card = document.querySelector('#challenges li[data-from=Cat]').getBoundingClientRect();
                 const accept = document.querySelector('#challenges [data-accept]').getBoundingClientRect();
                 const header = document.querySelector('header.top').getBoundingClientRect();
                 const account = document.getElementById('account-link').getBoundingClientRect();
                 return [out, document.documentElement.scrollWidth === document.documentElement.clientWidth,
                         accept.width > card.width - 40, header.height < 70, account.right <= window.innerWidth];")
            .await;
        assert_eq!(
            fit,
            json!([[], true, true, true, true]),
            "the lobby on a phone"
        );

        // The phone's player accepts Cat's direct challenge by touch.
        phone.click("#challenges [data-accept]").await;
        let path = game_path(&phone).await;
        phone.contains("role", "You play").await;
        let id = path.trim_start_matches("/game/");
        let (_, game) = phone
            .api("GET", &format!("/api/games/{id}"), None, None)
            .await;
        assert_eq!(game["variant"], json!("hexsygo"));
    });
}
