//! The game page's own module for live updates (`web/js/game-events.js`),
//! run in the browser on a game's real stream (docs/web.md, `GET
//! /api/games/{id}/events`): the small events applied to the first game
//! give exactly the game the server gives after every action — turns of
//! each kind and a capture, turns taken back (the whole game), an undo
//! request declined and accepted, chat, presence, a turn under a clock, a
//! resignation and a rematch — and none is ever old or missing on the way.

use std::time::Instant;

use serde_json::{Value, json};

use crate::harness::{Page, WAIT, run};

/// Listens to game `id`'s events in the page, each applied by the page's
/// module to the game as it stood (`window.sygoLive`: the game, the events'
/// kinds, and the events it could not apply).
async fn listen(p: &Page, id: &str) {
    let opened = p
        .client
        .execute_async(
            "const [id, done] = arguments;
             import('/static/js/game-events.js').then(({ applyEvent }) => {
               const live = { game: null, kinds: [], problems: [] };
               window.sygoLive = live;
               const es = new EventSource(`/api/games/${id}/events`);
               for (const kind of ['game', 'turn', 'change', 'chat']) {
                 es.addEventListener(kind, (e) => {
                   const r = applyEvent(live.game, kind, JSON.parse(e.data));
                   live.kinds.push(kind);
                   if (r.game) live.game = r.game;
                   else live.problems.push({ kind, result: r, data: e.data });
                 });
               }
               es.onopen = () => done(true);
             }, (e) => done(String(e)));",
            vec![json!(id)],
        )
        .await
        .expect("the stream opened");
    assert_eq!(opened, json!(true), "{opened}");
}

/// A game without the server's time in its clock (which differs from one
/// reading to the next), every number as a float (JavaScript has one kind
/// of number: the komi `0.0` comes back as `0`).
fn steady(mut game: Value) -> Value {
    fn floats(v: &mut Value) {
        match v {
            Value::Number(n) => *v = json!(n.as_f64()),
            Value::Array(a) => a.iter_mut().for_each(floats),
            Value::Object(o) => o.values_mut().for_each(floats),
            _ => {}
        }
    }
    if let Some(clock) = game.get_mut("clock").and_then(Value::as_object_mut) {
        clock.remove("now_ms");
    }
    floats(&mut game);
    game
}

/// Waits until the page's game, made of the events, is the game the server
/// gives now; the kinds of the events since the last call.
async fn agrees(p: &Page, id: &str, what: &str, seen: &mut usize) -> Vec<String> {
    let (status, fetched) = p.api("GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(status, 200, "{fetched}");
    let want = steady(fetched);
    let start = Instant::now();
    loop {
        let live = p.js("return window.sygoLive;").await;
        assert_eq!(live["problems"], json!([]), "{what}: events not applied");
        if steady(live["game"].clone()) == want {
            let kinds: Vec<String> = live["kinds"]
                .as_array()
                .expect("kinds")
                .iter()
                .skip(*seen)
                .map(|k| k.as_str().unwrap_or_default().to_string())
                .collect();
            *seen += kinds.len();
            return kinds;
        }
        assert!(
            start.elapsed() < WAIT,
            "{what}: the page's game is not the server's\npage: {}\nserver: {want}",
            live["game"]
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// A request that must succeed (200, or what `want` says).
async fn call(p: &Page, path: &str, body: Value, token: &Value, want: u16) -> Value {
    let (status, answer) = p.api("POST", path, Some(body), token.as_str()).await;
    assert_eq!(status, want, "{path}: {answer}");
    answer
}

#[test]
fn the_pages_module_applies_small_events_to_exactly_the_servers_game() {
    run(async |env| {
        let p = env.desktop("live events").await;
        let (id, black, white) = p
            .create_game(json!({"variant": "sygo", "size": 9,
                                "black": {"kind": "human"}, "white": {"kind": "human"}}))
            .await;
        listen(&p, &id).await;
        let mut seen = 0;
        assert_eq!(agrees(&p, &id, "the start", &mut seen).await, ["game"]);
        let turns = format!("/api/games/{id}/turns");
        // Placements, Black's balance turn, White's growth reversing A1.
        for (n, (token, turn)) in [
            (&white, "A3"),
            (&black, "G3"),
            (&white, "C1"),
            (&black, "G4,A1"),
            (&white, "A2,B1"),
        ]
        .into_iter()
        .enumerate()
        {
            call(
                &p,
                &turns,
                json!({"turn": turn, "turn_number": n}),
                token,
                200,
            )
            .await;
            assert_eq!(agrees(&p, &id, turn, &mut seen).await, ["turn"], "{turn}");
        }
        let game = p.js("return window.sygoLive.game;").await;
        assert_eq!(game["stones"]["A1"], "white");
        assert_eq!(game["last_turn"]["reversed"], json!(["A1"]));

        // Taken back by a page playing both sides: the whole game.
        let undo = format!("/api/games/{id}/undo");
        call(
            &p,
            &undo,
            json!({"turn_number": 5, "other_token": black}),
            &white,
            200,
        )
        .await;
        assert_eq!(agrees(&p, &id, "undo", &mut seen).await, ["game"]);
        call(
            &p,
            &turns,
            json!({"turn": "A2,B1", "turn_number": 4}),
            &white,
            200,
        )
        .await;
        agrees(&p, &id, "A2,B1 again", &mut seen).await;

        // An undo request declined, then accepted.
        call(
            &p,
            &turns,
            json!({"turn": "E5", "turn_number": 5}),
            &black,
            200,
        )
        .await;
        agrees(&p, &id, "E5", &mut seen).await;
        let request = format!("/api/games/{id}/undo-request");
        let answer = format!("/api/games/{id}/undo-answer");
        call(&p, &request, json!({"turn_number": 6}), &black, 200).await;
        assert_eq!(agrees(&p, &id, "asked", &mut seen).await, ["change"]);
        call(&p, &answer, json!({"accept": false}), &white, 200).await;
        assert_eq!(agrees(&p, &id, "declined", &mut seen).await, ["change"]);
        call(&p, &request, json!({"turn_number": 6}), &black, 409).await;
        call(
            &p,
            &turns,
            json!({"turn": "J9", "turn_number": 6}),
            &white,
            200,
        )
        .await;
        call(
            &p,
            &turns,
            json!({"turn": "E6", "turn_number": 7}),
            &black,
            200,
        )
        .await;
        assert_eq!(agrees(&p, &id, "J9, E6", &mut seen).await, ["turn", "turn"]);
        call(&p, &request, json!({"turn_number": 8}), &black, 200).await;
        agrees(&p, &id, "asked again", &mut seen).await;
        call(&p, &answer, json!({"accept": true}), &white, 200).await;
        assert_eq!(agrees(&p, &id, "accepted", &mut seen).await, ["game"]);

        // Chat (markup and a line break, as text) and presence.
        let chat = format!("/api/games/{id}/chat");
        call(&p, &chat, json!({"text": "<b>hi</b>\nthere"}), &white, 200).await;
        assert_eq!(agrees(&p, &id, "chat", &mut seen).await, ["chat"]);
        let presence = format!("/api/games/{id}/presence");
        call(&p, &presence, json!({"present": true}), &black, 204).await;
        assert_eq!(agrees(&p, &id, "presence", &mut seen).await, ["change"]);

        // A resignation, a rematch offered and accepted.
        call(
            &p,
            &format!("/api/games/{id}/resign"),
            json!({}),
            &white,
            200,
        )
        .await;
        assert_eq!(agrees(&p, &id, "resign", &mut seen).await, ["turn"]);
        let rematch = format!("/api/games/{id}/rematch");
        call(&p, &rematch, json!({}), &black, 200).await;
        assert_eq!(agrees(&p, &id, "offered", &mut seen).await, ["change"]);
        call(&p, &rematch, json!({}), &white, 201).await;
        assert_eq!(agrees(&p, &id, "rematch", &mut seen).await, ["change"]);

        // Turns under a clock on the hexagonal board.
        let (id, black, white) = p
            .create_game(json!({"variant": "hexsygo", "size": 4,
                                "clock": {"kind": "fischer", "main_ms": 600000, "increment_ms": 5000},
                                "black": {"kind": "human"}, "white": {"kind": "human"}}))
            .await;
        listen(&p, &id).await;
        let mut seen = 0;
        agrees(&p, &id, "the start", &mut seen).await;
        let turns = format!("/api/games/{id}/turns");
        for (n, (token, turn)) in [(&white, "D4"), (&black, "A1")].into_iter().enumerate() {
            call(
                &p,
                &turns,
                json!({"turn": turn, "turn_number": n}),
                token,
                200,
            )
            .await;
            assert_eq!(agrees(&p, &id, turn, &mut seen).await, ["turn"], "{turn}");
        }
    });
}
