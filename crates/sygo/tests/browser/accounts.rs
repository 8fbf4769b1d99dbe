//! Accounts in the browser: a guest's games become the account's when it
//! signs up (its profile lists them); an account's game started in one
//! browser is found and played in another signed in to the same account;
//! a wrong password is refused with the server's message and leaves the
//! browser signed out; signing out; the account page on a phone.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{Page, WAIT, run};

const PASSWORD: &str = "correct horse battery";

/// Types `text` into the empty input matched by `css`, as a person does.
async fn type_into(p: &Page, css: &str, text: &str) {
    let input = p.find(css).await;
    input
        .clear()
        .await
        .unwrap_or_else(|e| panic!("{}: {css} cleared: {e}", p.name));
    input
        .send_keys(text)
        .await
        .unwrap_or_else(|e| panic!("{}: typing into {css}: {e}", p.name));
}

/// Opens /account and sends one of its forms (`sign-in` or `sign-up`)
/// with this name and password.
async fn send_form(p: &Page, form: &str, name: &str, password: &str) {
    p.goto("/account").await;
    p.wait(
        &format!("document.getElementById('{form}-form')"),
        &format!("the {form} form"),
    )
    .await;
    type_into(p, &format!("#{form}-name"), name).await;
    type_into(p, &format!("#{form}-password"), password).await;
    p.click(&format!("#{form}-button")).await;
}

/// Waits for the account page signed in as `name`, and the header's link
/// naming the account.
async fn signed_in(p: &Page, name: &str) {
    p.wait(
        &format!(
            "document.getElementById('signed-in-as')?.textContent.includes({})",
            json!(name)
        ),
        &format!("signed in as {name}"),
    )
    .await;
    p.wait(
        &format!(
            "document.getElementById('account-link').textContent.includes({}) && \
             document.getElementById('account-link').getAttribute('href') === '/account'",
            json!(name)
        ),
        "the account's name in the header",
    )
    .await;
}

/// Whether the server takes this browser to be signed in.
async fn signed_in_on_server(p: &Page) -> bool {
    let (status, answer) = p.api("GET", "/api/account", None, None).await;
    assert!(
        status == 200 || status == 401,
        "{}: GET /api/account: {status} {answer}",
        p.name
    );
    status == 200
}

/// Waits until the account signed in in `p` holds a side of game `id`;
/// the side's colour and token.
async fn held_by_account(p: &Page, id: &str) -> (String, String) {
    let start = Instant::now();
    loop {
        let (status, answer) = p.api("GET", "/api/account", None, None).await;
        assert_eq!(status, 200, "{}: the account: {answer}", p.name);
        let games = answer["games"].as_array().cloned().unwrap_or_default();
        if let Some(g) = games.iter().find(|g| g["id"] == json!(id)) {
            let color = g["color"].as_str().expect("a colour").to_string();
            let token = g["token"].as_str().expect("a token").to_string();
            return (color, token);
        }
        assert!(
            start.elapsed() < WAIT,
            "{}: the account never held game {id}: {answer}",
            p.name
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What this browser keeps of its games: `{id: {black, white, since}}`.
async fn remembered(p: &Page) -> Value {
    p.js("const d = JSON.parse(localStorage.getItem('sygo.games') || 'null'); return d ? d.games : {};")
        .await
}

/// A point of the 9×9 board with no stone, among a few far apart.
async fn vacant(p: &Page) -> String {
    let v = p
        .js("return ['A9','J1','A1','J9','E5','C7'].find(q => !document.querySelector(`[data-stone=\"${q}\"]`));")
        .await;
    v.as_str().expect("a vacant point").to_string()
}

#[test]
fn a_guests_game_becomes_the_accounts_at_sign_up() {
    run(async |env| {
        let p = env.desktop("guest signs up").await;
        // A guest plays against the AI.
        let id = p.new_game("sygo", 9, None, Some((1, 200)), false).await;
        assert_eq!(p.text("#account-link").await, "Sign in");
        p.wait(
            "document.querySelectorAll('[data-color=white]').length >= 1",
            "the AI's first turn",
        )
        .await;
        p.to_move("black").await;
        let point = vacant(&p).await;
        p.point(&point).await;
        p.stone(&point, "black").await;
        let token = remembered(&p).await[&id]["black"].clone();
        assert!(token.is_string(), "Black's secret kept");

        // Signing up gives the account the games this browser keeps.
        p.goto("/account").await;
        p.contains(
            "kept-games",
            "The game this browser keeps becomes the account’s",
        )
        .await;
        send_form(&p, "sign-up", "Ann_1", PASSWORD).await;
        signed_in(&p, "Ann_1").await;
        p.contains(
            "account-notice",
            "1 game of this browser is now the account’s",
        )
        .await;
        let focused = p.js("return document.activeElement.id;").await;
        assert_eq!(
            focused,
            json!("account-title"),
            "the focus on the page's title"
        );
        // The account holds Black; its pages get a token of their session's
        // (the game's own is given to no one again), which this browser
        // keeps from now on and plays with.
        let (color, held) = held_by_account(&p, &id).await;
        assert_eq!(color, "black");
        let side = p
            .api("GET", &format!("/api/games/{id}/side"), None, Some(&held))
            .await;
        assert_eq!(side, (200, json!({"side": "black"})), "the session's token");
        assert_ne!(json!(held), token);

        // The profile lists the game.
        p.click("#profile-link").await;
        p.wait(
            "location.pathname === '/player/Ann_1'",
            "the profile's address",
        )
        .await;
        let row = format!(r#"#player-games tr[data-game="{id}"]"#);
        p.wait(
            &format!("document.querySelector('{row}')"),
            "the game on the profile",
        )
        .await;
        p.contains("player-name", "Ann_1").await;
        p.contains("member-since", "Member since").await;
        let text = p.text(&row).await;
        for says in ["Sygo 9×9", "Black", "the AI (level 1)", "Playing"] {
            assert!(
                text.contains(says),
                "the profile's row says {says:?}: {text}"
            );
        }
        let href = p
            .js(&format!(
                "return document.querySelector('{row} a[href]').getAttribute('href');"
            ))
            .await;
        assert_eq!(href, json!(format!("/game/{id}")));
        assert_eq!(
            p.text("#ai-record [data-record=playing] dd").await,
            "1",
            "one game playing against the AI"
        );
        p.screenshot("account-profile.png", true).await;

        // A name no account has.
        p.goto("/player/nobody_here").await;
        p.wait(
            "document.getElementById('no-player')",
            "the page for no such player",
        )
        .await;
        assert!(p.text("main").await.contains("No such player"));
    });
}

#[test]
fn an_accounts_game_is_played_from_a_second_browser() {
    run(async |env| {
        let a = env.desktop("first browser").await;
        send_form(&a, "sign-up", "bea", PASSWORD).await;
        signed_in(&a, "bea").await;
        // Signed in, a game started is the account's.
        let id = a.new_game("sygo", 9, None, Some((1, 200)), false).await;
        let (color, token) = held_by_account(&a, &id).await;
        assert_eq!(color, "black");
        assert_eq!(remembered(&a).await[&id]["black"], json!(token));
        a.wait(
            "document.querySelectorAll('[data-color=white]').length >= 1",
            "the AI's first turn",
        )
        .await;
        a.to_move("black").await;

        // Another browser, nothing kept, signs in to the same account.
        let b = env.desktop("second browser").await;
        b.goto("/").await;
        b.wait(
            "document.getElementById('start-game') && document.getElementById('your-games').hidden",
            "no games yet",
        )
        .await;
        assert_eq!(remembered(&b).await, json!({}));
        send_form(&b, "sign-in", "bea", PASSWORD).await;
        signed_in(&b, "bea").await;
        let kept = remembered(&b).await[&id]["black"].clone();
        assert!(kept.is_string(), "the account's side kept");
        assert_ne!(kept, json!(token), "with this browser's session's token");
        b.goto("/").await;
        let card = format!(r#"#my-games li[data-game="{id}"]"#);
        b.wait(
            &format!(r#"document.querySelector('{card}[data-status="your-turn"]')"#),
            "the game in your games, your turn",
        )
        .await;
        let text = b.text(&card).await;
        assert!(
            text.contains("You play Black against the AI (level 1)"),
            "{text}"
        );
        b.contains("games-kept-by", "Your account, bea, keeps these games")
            .await;
        b.screenshot("account-second-browser-home.png", true).await;

        // It plays a turn there; the first browser sees it.
        b.click(&format!(r#"{card} a[data-open="{id}"]"#)).await;
        b.contains("role", "You play Black").await;
        assert_eq!(
            b.js("return location.href;").await,
            json!(format!("{}/game/{id}", b.base)),
            "no secret in the address"
        );
        let point = vacant(&b).await;
        b.point(&point).await;
        b.stone(&point, "black").await;
        a.stone(&point, "black").await;
        b.wait(
            "document.querySelectorAll('#moves li[data-turn]').length >= 3",
            "the AI's answer",
        )
        .await;
        b.to_move("black").await;

        // Signed out with its games forgotten (a computer others use), the
        // second browser no longer plays the game; the account keeps it.
        b.goto("/account").await;
        signed_in(&b, "bea").await;
        b.click("#sign-out-forget").await;
        b.contains("account-notice", "You are signed out").await;
        assert_eq!(remembered(&b).await, json!({}));
        b.goto("/").await;
        b.wait(
            "document.getElementById('start-game') && document.getElementById('your-games').hidden",
            "no games of yours",
        )
        .await;
        assert_eq!(held_by_account(&a, &id).await.1, token);
    });
}

#[test]
fn a_wrong_password_is_refused_and_signing_out_works() {
    run(async |env| {
        let p = env.desktop("sign in and out").await;
        p.goto("/account").await;
        p.wait("document.getElementById('sign-up-form')", "the forms")
            .await;
        // The fields say what they are to password managers, and the rules
        // are next to them.
        let fields = p
            .js("const a = (id) => document.getElementById(id).getAttribute('autocomplete');
                 const rule = (id) => document.getElementById(document.getElementById(id).getAttribute('aria-describedby')).textContent;
                 return [a('sign-in-name'), a('sign-in-password'), a('sign-up-name'), a('sign-up-password'),
                         rule('sign-up-name').includes('3 to 20'), rule('sign-up-password').includes('8 to 128')];")
            .await;
        assert_eq!(
            fields,
            json!([
                "username",
                "current-password",
                "username",
                "new-password",
                true,
                true
            ])
        );
        send_form(&p, "sign-up", "cal", PASSWORD).await;
        signed_in(&p, "cal").await;

        // Sign out.
        p.click("#sign-out").await;
        p.contains("account-notice", "You are signed out").await;
        p.wait(
            "document.getElementById('sign-in-form') && \
             document.getElementById('account-link').textContent === 'Sign in'",
            "the forms again, and Sign in in the header",
        )
        .await;
        assert!(!signed_in_on_server(&p).await, "the session ended");

        // A wrong password: the server's message, and still signed out.
        let (status, refusal) = p
            .api(
                "POST",
                "/api/session",
                Some(json!({"name": "cal", "password": "not the password"})),
                None,
            )
            .await;
        assert_eq!(status, 401, "{refusal}");
        let said = refusal["error"]["message"]
            .as_str()
            .expect("a message")
            .to_string();
        p.goto("/account").await;
        p.wait("document.getElementById('sign-in-button')", "the form")
            .await;
        // The button is disabled while the request runs.
        p.js("const b = document.getElementById('sign-in-button');
              window.wasDisabled = false;
              new MutationObserver(() => { if (b.disabled) window.wasDisabled = true; })
                .observe(b, {attributes: true});
              return true;")
            .await;
        type_into(&p, "#sign-in-name", "cal").await;
        type_into(&p, "#sign-in-password", "not the password").await;
        p.click("#sign-in-button").await;
        p.contains("sign-in-message", &said).await;
        let after = p
            .js("return [window.wasDisabled, document.getElementById('sign-in-button').disabled,
                         document.activeElement.id, document.getElementById('account-link').textContent];")
            .await;
        assert_eq!(
            after,
            json!([true, false, "sign-in-password", "Sign in"]),
            "disabled while it ran, then the password field focused, and signed out"
        );
        assert!(!signed_in_on_server(&p).await, "still signed out");
        p.screenshot("account-wrong-password.png", true).await;

        // The right password signs in; a reload knows it.
        type_into(&p, "#sign-in-password", PASSWORD).await;
        p.click("#sign-in-button").await;
        signed_in(&p, "cal").await;
        p.contains("account-notice", "Welcome back").await;
        assert!(signed_in_on_server(&p).await);
        p.goto("/games").await;
        p.wait(
            "document.getElementById('account-link').textContent.includes('cal')",
            "the header knowing the account on another page",
        )
        .await;
        // The password changed: the old one no longer signs in, the new one does.
        p.goto("/account").await;
        signed_in(&p, "cal").await;
        type_into(&p, "#current-password", PASSWORD).await;
        type_into(&p, "#new-password", "a new pass phrase").await;
        p.click("#password-button").await;
        p.contains("password-done", "Your password is changed")
            .await;
        p.click("#sign-out").await;
        p.contains("account-notice", "You are signed out").await;
        assert!(!signed_in_on_server(&p).await);
        send_form(&p, "sign-in", "cal", PASSWORD).await;
        p.contains("sign-in-message", &said).await;
        type_into(&p, "#sign-in-password", "a new pass phrase").await;
        p.click("#sign-in-button").await;
        signed_in(&p, "cal").await;
    });
}

/// The controls of the page under 44 CSS px tall (none on a phone).
async fn small_controls(p: &Page) -> Value {
    p.js("const out = [];
          for (const e of document.querySelectorAll('main button, main input:not([type=hidden]):not([hidden]), main a')) {
            const r = e.getBoundingClientRect();
            if (r.width === 0 && r.height === 0) continue;
            if (r.height < 44) out.push(`${e.tagName} ${e.id || e.textContent.trim().slice(0, 30)}: ${r.height}`);
          }
          return out;")
        .await
}

/// The page's width, the screen's, the header's height, and whether the
/// header's account link is all on the screen.
async fn fits(p: &Page) -> Value {
    p.js(
        "const l = document.getElementById('account-link').getBoundingClientRect();
          return [document.documentElement.scrollWidth === window.innerWidth,
                  document.querySelector('header.top').getBoundingClientRect().height < 70,
                  l.right <= window.innerWidth && l.width > 0];",
    )
    .await
}

#[test]
fn the_account_page_on_a_phone() {
    run(async |env| {
        let p = env.phone("phone account").await;
        p.goto("/account").await;
        p.wait("document.getElementById('sign-up-form')", "the forms")
            .await;
        p.screenshot("phone-account.png", true).await;
        assert_eq!(small_controls(&p).await, json!([]), "signed out");
        assert_eq!(fits(&p).await, json!([true, true, true]), "signed out");
        // The forms one above the other, each the screen's width.
        let stacked = p
            .js(
                "const a = document.getElementById('sign-in-form').getBoundingClientRect();
                 const b = document.getElementById('sign-up-form').getBoundingClientRect();
                 return b.top >= a.bottom && a.width > 300;",
            )
            .await;
        assert_eq!(stacked, json!(true));

        // Signing up by touch; the longest name fits the header.
        let name = "a_rather_long_name_1";
        send_form(&p, "sign-up", name, PASSWORD).await;
        signed_in(&p, name).await;
        p.screenshot("phone-account-signed-in.png", true).await;
        assert_eq!(small_controls(&p).await, json!([]), "signed in");
        assert_eq!(fits(&p).await, json!([true, true, true]), "signed in");
        p.goto(&format!("/player/{name}")).await;
        p.wait("document.getElementById('ai-record')", "the profile")
            .await;
        assert_eq!(fits(&p).await, json!([true, true, true]), "the profile");
    });
}
