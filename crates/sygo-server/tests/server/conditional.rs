//! Conditional turns over the socket (`docs/web.md`, "Conditional turns"):
//! a correspondence game across a server restart in which the waiting
//! side's answers, several levels deep, fire as the other side plays;
//! secret to the other side; trees the rules refuse, the line at fault
//! named as data.

use crate::common;

use common::{TestServer, code, message};
use serde_json::{Value, json};

async fn set_tree(s: &TestServer, id: &str, token: Option<&str>, tree: Value) -> (u16, Value) {
    let mut req = s
        .client
        .put(s.url(&format!("/api/games/{id}/conditional")))
        .json(&json!({"tree": tree}));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let r = req.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

async fn get_tree(s: &TestServer, id: &str, token: &str) -> Value {
    let r = s
        .client
        .get(s.url(&format!("/api/games/{id}/conditional")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    r.json::<Value>().await.unwrap()["tree"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_games_conditional_turns_fire_across_a_restart() {
    let s = TestServer::start("conditional-fire").await;
    let clock = json!({"kind": "correspondence", "days_per_turn": 3, "bank_days": 6});
    let (status, body) = s
        .post(
            "/api/games",
            &json!({"variant": "sygo", "size": 7, "black": {"kind": "human"},
                    "white": {"kind": "human"}, "clock": clock}),
            None,
        )
        .await;
    assert_eq!(status, 201);
    let id = body["game"]["id"].as_str().unwrap().to_string();
    let black = body["tokens"]["black"].as_str().unwrap().to_string();
    let white = body["tokens"]["white"].as_str().unwrap().to_string();
    s.play(&id, &white, "D4", 0).await;
    s.play(&id, &black, "C3", 1).await;
    // Black, waiting, answers in advance, two levels deep.
    let tree = json!([
        {"if": "B2", "then": "C2", "next": [{"if": "E5", "then": "F6"}]},
        {"if": "F2", "then": "E3"},
    ]);
    let (status, set) = set_tree(&s, &id, Some(&black), tree.clone()).await;
    assert_eq!(status, 200, "{set}");
    assert_eq!(get_tree(&s, &id, &black).await, tree);
    assert_eq!(
        get_tree(&s, &id, &white).await,
        json!([]),
        "secret to White"
    );
    let (_, game) = s.get_json(&format!("/api/games/{id}")).await;
    let text = game.to_string();
    assert!(
        !text.contains("\"then\"") && !text.contains("conditional"),
        "not in the game's JSON"
    );

    // White plays B2: Black's C2 is played at once.
    let game = s.play(&id, &white, "B2", 2).await;
    assert_eq!(game["turn_number"], 4, "{game}");
    assert_eq!(game["turns"][3]["turn"], "C2");
    assert_eq!(game["turns"][3]["color"], "black");
    assert_eq!(game["to_move"], "white");
    assert_eq!(
        get_tree(&s, &id, &black).await,
        json!([{"if": "E5", "then": "F6"}])
    );

    // Across a restart, the next level still answers.
    let s = s.restart().await;
    let game = s.play(&id, &white, "E5", 4).await;
    assert_eq!(game["turn_number"], 6);
    assert_eq!(game["turns"][5]["turn"], "F6");
    assert_eq!(get_tree(&s, &id, &black).await, json!([]));

    // A turn the tree did not foresee clears it and waits for Black.
    set_tree(&s, &id, Some(&black), json!([{"if": "A1", "then": "A2"}])).await;
    let game = s.play(&id, &white, "G7", 6).await;
    assert_eq!(game["turn_number"], 7);
    assert_eq!(game["to_move"], "black");
    assert_eq!(get_tree(&s, &id, &black).await, json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trees_the_rules_refuse_change_nothing() {
    let s = TestServer::start("conditional-bad").await;
    let (id, black, white) = s.new_game("sygo", 5).await;
    s.play(&id, &white, "C3", 0).await;
    // Black is to move: its answers wait for White's turns, not its own.
    let (status, e) = set_tree(&s, &id, Some(&black), json!([{"if": "B2", "then": "D4"}])).await;
    assert_eq!((status, code(&e)), (409, "conflict"), "{e}");
    s.play(&id, &black, "D4", 1).await;
    for (tree, words) in [
        (json!([{"if": "C3", "then": "B2"}]), "their turn"),
        (json!([{"if": "B2", "then": "D4"}]), "your answer"),
        (json!([{"if": "B2", "then": "resign"}]), "resignation"),
        (
            json!([{"if": "B2", "then": "E5"}, {"if": "B2", "then": "E4"}]),
            "same turn",
        ),
        (json!([{"if": "Z9", "then": "E5"}]), "Z9"),
    ] {
        let (status, e) = set_tree(&s, &id, Some(&black), tree.clone()).await;
        assert_eq!((status, code(&e)), (422, "illegal"), "{tree}: {e}");
        assert!(message(&e).contains(words), "{tree}: {e}");
    }
    // The refusal names the branch as data besides the message: the turns
    // from the root to it, its index at each level, the turn at fault and
    // the rules' reason alone.
    let tree = json!([
        {"if": "B2", "then": "E5"},
        {"if": "E4", "then": "A1", "next": [
            {"if": "A2", "then": "E5"},
            {"if": " C1", "then": " D4 "},
        ]},
    ]);
    let (status, e) = set_tree(&s, &id, Some(&black), tree).await;
    assert_eq!((status, code(&e)), (422, "illegal"), "{e}");
    let error = &e["error"];
    assert_eq!(error["line"], json!(["E4", "A1", "C1", "D4"]), "{e}");
    assert_eq!(error["branch"], json!([1, 1]));
    assert_eq!(error["field"], "then");
    let reason = error["reason"].as_str().unwrap();
    assert!(reason.contains("D4"), "{e}");
    assert_eq!(
        message(&e),
        format!("if E4 then A1, if C1 then D4: your answer: {reason}")
    );
    let (_, e) = set_tree(&s, &id, Some(&black), json!([{"if": "Z9", "then": "E5"}])).await;
    assert_eq!(
        (e["error"]["branch"].clone(), e["error"]["field"].clone()),
        (json!([0]), json!("if")),
        "{e}"
    );
    let deep = (0..12).fold(
        json!([]),
        |next, _| json!([{"if": "pass", "then": "pass", "next": next}]),
    );
    let (status, e) = set_tree(&s, &id, Some(&black), deep).await;
    assert_eq!(status, 422, "{e}");
    assert!(e["error"]["branch"].is_array(), "{e}");
    let (status, _) = set_tree(&s, &id, None, json!([])).await;
    assert_eq!(status, 401);
    assert_eq!(get_tree(&s, &id, &black).await, json!([]), "nothing set");
}
