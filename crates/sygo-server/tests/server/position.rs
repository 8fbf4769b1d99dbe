//! The position endpoints of `docs/web.md` over a real socket:
//! `POST /api/position`, `/api/position/steps` (the same answer as a game's
//! `/steps` for the same position) and `/api/position/turns`, every error of
//! the table they can give, and nothing stored by any of them.

use crate::common;

use common::{TestServer, code, message, random_turn, replay};
use serde_json::{Value, json};

/// The error's status and code.
fn error(status: u16, body: &Value) -> (u16, &str) {
    (status, code(body))
}

/// Nothing was stored: no game exists.
async fn no_games(s: &TestServer) {
    let (status, list) = s.get_json("/api/games").await;
    assert_eq!(status, 200);
    assert_eq!(list["games"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_position_is_described() {
    let s = TestServer::start("position-show").await;
    // Upper case and extra spaces are read; the answer writes it canonically.
    let (status, view) = s
        .post(
            "/api/position",
            &json!({"position": " sygo 5  5/1BW2/2W2/5/5 B - 0 "}),
            None,
        )
        .await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["position"], "sygo 5 5/1BW2/2W2/5/5 b - 0");
    assert_eq!(view["variant"], "sygo");
    assert_eq!(view["size"], 5);
    assert_eq!(view["to_move"], "black");
    assert_eq!(view["status"], "playing");
    assert_eq!(view["result"], Value::Null);
    assert_eq!(view["balance_available"], true);
    assert_eq!(view["points"].as_array().unwrap().len(), 25);
    assert_eq!(view["points"][0], json!({"name": "A1", "col": 0, "row": 0}));
    assert_eq!(
        view["stones"],
        json!({"B4": "black", "C4": "white", "C3": "white"})
    );
    assert_eq!(view["score"]["black"], 1);
    assert_eq!(view["score"]["white"], 2);
    assert_eq!(view["score"]["territory"], json!({}));

    // The hexagon, and a game ended by a resignation.
    let (status, hex) = s
        .post(
            "/api/position",
            &json!({"position": "hexsygo 2 B1/1W1/2 b g 1"}),
            None,
        )
        .await;
    assert_eq!(status, 200, "{hex}");
    assert_eq!(hex["points"].as_array().unwrap().len(), 7);
    assert_eq!(hex["balance_available"], false);
    let (status, over) = s
        .post(
            "/api/position",
            &json!({"position": "sygo 9 9/9/9/9/4W4/9/9/9/9 b - 0 W+R"}),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        (&over["status"], &over["result"]),
        (&json!("over"), &json!("W+R"))
    );
    assert_eq!(over["balance_available"], false);
    no_games(&s).await;
    s.stop().await;
}

/// For the position of a game, `/api/position/steps` answers exactly what
/// the game's `/steps` answers, for every turn in progress tried: empty,
/// growth stones, a refused stone, a bad stone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steps_on_a_position_answer_as_a_games_steps() {
    let s = TestServer::start("position-steps").await;
    for (variant, size) in [("sygo", 5), ("hexsygo", 3)] {
        let (id, black, white) = s.new_game(variant, size).await;
        let game_steps = format!("/api/games/{id}/steps");
        for n in 0..12 {
            let (_, game) = s.get_json(&format!("/api/games/{id}")).await;
            if game["status"] == "over" {
                break;
            }
            let replayed = replay(&game);
            let position = replayed.position().to_position_string();
            let turn = random_turn(&replayed, n);
            let stones: Vec<&str> = if turn == "pass" {
                Vec::new()
            } else {
                turn.split(',').collect()
            };
            let mut tries: Vec<Vec<&str>> =
                (0..=stones.len()).map(|k| stones[..k].to_vec()).collect();
            // A refused stone (occupied, or a placement after the turn
            // ended) and a stone off the board.
            if let Some((p, _)) = game["stones"].as_object().unwrap().iter().next() {
                tries.push([stones.clone(), vec![p.as_str()]].concat());
            }
            tries.push(vec!["Z25"]);
            for stones in tries {
                let (a, by_game) = s.post(&game_steps, &json!({"stones": stones}), None).await;
                let (b, by_position) = s
                    .post(
                        "/api/position/steps",
                        &json!({"position": position, "stones": stones}),
                        None,
                    )
                    .await;
                assert_eq!((a, &by_game), (b, &by_position), "{position} {stones:?}");
            }
            let token = if game["to_move"] == "black" {
                &black
            } else {
                &white
            };
            s.play(&id, token, &turn, n as usize).await;
        }
    }
    s.stop().await;
}

/// A capture by placement, refused turns with the rules' reasons, the end by
/// two passes, and a resignation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn turns_are_played_on_a_position() {
    let s = TestServer::start("position-turns").await;
    // White C3 alone in a cross of black stones but for C2.
    let start = "sygo 5 5/2B2/1BWB1/5/5 b g 0";
    let (status, played) = s
        .post(
            "/api/position/turns",
            &json!({"position": start, "turn": "c2"}),
            None,
        )
        .await;
    assert_eq!(status, 200, "{played}");
    assert_eq!(played["turn"], "C2");
    assert_eq!(played["color"], "black");
    assert_eq!(played["stones"], json!(["C2"]));
    assert_eq!(played["reversed"], json!(["C3"]));
    assert_eq!(
        played["position"]["position"],
        "sygo 5 5/2B2/1BBB1/2B2/5 w g 0"
    );
    assert_eq!(played["position"]["to_move"], "white");
    assert_eq!(played["position"]["stones"]["C3"], "black");

    // A growth turn of two stones of one group: the rules' reason, without
    // a step number.
    let (status, refused) = s
        .post(
            "/api/position/turns",
            &json!({"position": start, "turn": "B2,A3"}),
            None,
        )
        .await;
    assert_eq!(error(status, &refused), (422, "illegal"));
    assert_eq!(
        message(&refused),
        "A3 would grow the group at B3 a second time this turn"
    );
    // A turn that cannot end: suicide, judged at the end of the turn.
    let (status, refused) = s
        .post(
            "/api/position/turns",
            &json!({"position": "sygo 5 5/5/5/BB3/1WB2 w g 0", "turn": "A1"}),
            None,
        )
        .await;
    assert_eq!(error(status, &refused), (422, "illegal"));
    assert_eq!(
        message(&refused),
        "this turn would leave your group at A1 without liberties"
    );

    // Two passes end the game; the result is the score.
    let (status, one) = s
        .post(
            "/api/position/turns",
            &json!({"position": start, "turn": "pass"}),
            None,
        )
        .await;
    assert_eq!(status, 200, "{one}");
    assert_eq!(one["turn"], "pass");
    assert_eq!(one["stones"], json!([]));
    let after_one = one["position"]["position"].as_str().unwrap();
    assert_eq!(after_one, "sygo 5 5/2B2/1BWB1/5/5 w g 1");
    let (status, two) = s
        .post(
            "/api/position/turns",
            &json!({"position": after_one, "turn": "pass"}),
            None,
        )
        .await;
    assert_eq!(status, 200, "{two}");
    assert_eq!(two["position"]["status"], "over");
    assert_eq!(two["position"]["result"], "B+2");
    assert_eq!(
        (
            &two["position"]["score"]["black"],
            &two["position"]["score"]["white"]
        ),
        (&json!(3), &json!(1))
    );

    let (status, resigned) = s
        .post(
            "/api/position/turns",
            &json!({"position": start, "turn": "resign"}),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(resigned["position"]["result"], "W+R");
    assert_eq!(
        resigned["position"]["position"],
        "sygo 5 5/2B2/1BWB1/5/5 b g 0 W+R"
    );
    no_games(&s).await;
    s.stop().await;
}

/// Every error the position endpoints can give, with its status and code
/// from the table, and a message that says what is wrong.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_positions_stones_and_turns_are_refused() {
    let s = TestServer::start("position-errors").await;
    let good = "sygo 5 5/5/2W2/5/5 b - 0";
    let over = "sygo 5 5/5/2W2/5/5 b - 2";
    // Bad position strings, for each endpoint, each naming what is wrong.
    let bad_positions = [
        ("", "6 or 7 fields"),
        ("chess 5 5/5/5/5/5 w - 0", "not a variant"),
        ("sygo 2 2/2 w - 0", "not a size"),
        ("sygo 5 5/5/5/5 w - 0", "board"),
        ("sygo 5 5/5/2Q2/5/5 w - 0", "board row 3"),
        ("sygo 5 5/5/5/5/5 x - 0", "not a side"),
        ("sygo 5 5/5/5/5/5 w - 7", "passes"),
        // A stone without liberties is no position.
        ("sygo 3 1B1/BWB/1B1 w g 0", "liberties"),
    ];
    for (position, words) in bad_positions {
        for (path, extra) in [
            ("/api/position", json!({})),
            ("/api/position/steps", json!({"stones": []})),
            ("/api/position/turns", json!({"turn": "pass"})),
        ] {
            let mut body = extra.clone();
            body["position"] = json!(position);
            let (status, answer) = s.post(path, &body, None).await;
            assert_eq!(
                error(status, &answer),
                (400, "bad_request"),
                "{path} {position:?}"
            );
            assert!(
                message(&answer).contains(words),
                "{path} {position:?}: {}",
                message(&answer)
            );
        }
    }

    // Bad stones and refused stones of a turn in progress.
    let steps = |stones: Value| json!({"position": good, "stones": stones});
    let (status, answer) = s
        .post("/api/position/steps", &steps(json!(["B2", "Q9"])), None)
        .await;
    assert_eq!(error(status, &answer), (400, "bad_request"));
    assert!(message(&answer).starts_with("stone 2: "), "{answer}");
    let (status, answer) = s
        .post("/api/position/steps", &steps(json!(["B2", "??"])), None)
        .await;
    assert_eq!(error(status, &answer), (400, "bad_request"));
    let many: Vec<String> = (0..26).map(|_| "A1".to_string()).collect();
    let (status, answer) = s
        .post("/api/position/steps", &steps(json!(many)), None)
        .await;
    assert_eq!(error(status, &answer), (400, "bad_request"));
    assert_eq!(message(&answer), "26 stones: the board has 25 points");
    let (status, answer) = s
        .post("/api/position/steps", &steps(json!(["C3"])), None)
        .await;
    assert_eq!(error(status, &answer), (422, "illegal"));
    assert_eq!(message(&answer), "step 1 (C3): C3 is already occupied");
    let (status, answer) = s
        .post("/api/position/steps", &steps(json!("B2")), None)
        .await;
    assert_eq!(error(status, &answer), (400, "bad_request"));
    let (status, answer) = s
        .post("/api/position/steps", &json!({"position": good}), None)
        .await;
    assert_eq!(
        error(status, &answer),
        (400, "bad_request"),
        "stones missing"
    );

    // Bad turns.
    for (turn, expected) in [
        (json!("Z99"), (400, "bad_request")),
        (json!("C3,,D4"), (400, "bad_request")),
        (json!(""), (400, "bad_request")),
        (json!(7), (400, "bad_request")),
        (json!("C3"), (422, "illegal")),
        (json!("B2,A1"), (422, "illegal")),
    ] {
        let (status, answer) = s
            .post(
                "/api/position/turns",
                &json!({"position": good, "turn": turn}),
                None,
            )
            .await;
        assert_eq!(error(status, &answer), expected, "{turn}: {answer}");
        assert!(!message(&answer).is_empty());
    }

    // A finished position takes no steps and no turns.
    let (status, answer) = s
        .post(
            "/api/position/steps",
            &json!({"position": over, "stones": []}),
            None,
        )
        .await;
    assert_eq!(error(status, &answer), (409, "conflict"));
    let (status, answer) = s
        .post(
            "/api/position/turns",
            &json!({"position": over, "turn": "pass"}),
            None,
        )
        .await;
    assert_eq!(error(status, &answer), (409, "conflict"));
    assert_eq!(message(&answer), "the game is over");

    // The body: JSON only, within the limit; POST only.
    let (status, answer) = s
        .post_raw(
            "/api/position/steps",
            Some("text/plain"),
            b"{}".to_vec(),
            None,
        )
        .await;
    assert_eq!(error(status, &answer), (415, "unsupported_media_type"));
    let (status, answer) = s
        .post_raw(
            "/api/position/turns",
            Some("application/json"),
            b"{\"position\":".to_vec(),
            None,
        )
        .await;
    assert_eq!(error(status, &answer), (400, "bad_request"));
    let huge = format!("{{\"position\": \"{}\"}}", "9".repeat(300 * 1024));
    let (status, answer) = s
        .post_raw(
            "/api/position",
            Some("application/json"),
            huge.into_bytes(),
            None,
        )
        .await;
    assert_eq!(error(status, &answer), (413, "too_large"));
    let (status, answer) = s.get_json("/api/position/steps").await;
    assert_eq!(error(status, &answer), (405, "method_not_allowed"));
    no_games(&s).await;
    s.stop().await;
}

/// The tutorial's page and its files are served: the page at `/learn`, the
/// lessons and the modules under `/static/`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_learn_page_and_its_lessons_are_served() {
    let s = TestServer::start("learn").await;
    let r = s.client.get(s.url("/learn")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.headers()["content-type"], "text/html; charset=utf-8");
    assert!(r.text().await.unwrap().contains("href=\"/learn\""));
    let r = s
        .client
        .get(s.url("/static/js/tutorial/lessons.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.headers()["content-type"], "application/json");
    let lessons: Value = r.json().await.unwrap();
    assert!(lessons["lessons"].as_array().unwrap().len() >= 8);
    for module in ["learn.js", "goal.js", "progress.js"] {
        let r = s
            .client
            .get(s.url(&format!("/static/js/tutorial/{module}")))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200, "{module}");
        assert_eq!(
            r.headers()["content-type"],
            "text/javascript; charset=utf-8"
        );
    }
    s.stop().await;
}
