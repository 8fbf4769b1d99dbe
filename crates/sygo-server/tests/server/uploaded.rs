//! Turns described by the rules library (`kind`, `description` in a game's
//! JSON), and what an uploaded record holds beyond its main line: its
//! information and comments in the game's JSON, its tree
//! (`GET /record/tree`), the position at any node (`GET /record/node`), the
//! errors of a bad path, and a hostile record's text given back as plain
//! JSON strings. Spoken to over the socket, on a server of its own.

use crate::common;

use common::{TestServer, code};
use serde_json::{Value, json};

/// `records/uploaded.sgf`: a Sygo 7×7 record with every kind of turn, comments, names and two
/// variations: White places E1; Black places G1; White places G3; Black
/// places B6; White passes; Black's balance turn B5 then D4; White grows E1
/// to F1 and G3 to G2, reversing G1; Black grows B4. An alternative to the
/// balance turn, A7, is answered by C3.
pub const RECORD: &str = include_str!("../records/uploaded.sgf");

async fn upload(s: &TestServer, text: &str) -> Value {
    let (status, answer) = s
        .post_raw(
            "/api/records",
            Some("application/x-go-sgf"),
            text.as_bytes().to_vec(),
            None,
        )
        .await;
    assert_eq!(status, 201, "{answer}");
    answer["game"].clone()
}

/// GET as JSON: status and body.
async fn get(s: &TestServer, path: &str) -> (u16, Value) {
    s.get_json(path).await
}

/// The game as it stands.
async fn game_now(s: &TestServer, id: &str) -> Value {
    let (status, game) = s.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(status, 200, "{game}");
    game
}

fn descriptions(game: &Value) -> Vec<(String, String)> {
    game["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["kind"].as_str().unwrap().to_string(),
                t["description"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uploaded_games_turns_are_described_by_the_rules() {
    let s = TestServer::start("uploaded-descriptions").await;
    let game = upload(&s, RECORD).await;
    let expected = [
        ("placement", "White placed E1."),
        ("placement", "Black placed G1."),
        ("placement", "White placed G3."),
        ("placement", "Black placed B6."),
        ("pass", "White passed."),
        ("balance", "Black's balance turn: grew B5 and placed D4."),
        ("growth", "White grew F1 and G2, reversing G1."),
        ("growth", "Black grew B4."),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(k, d)| (k.to_string(), d.to_string()))
        .collect();
    assert_eq!(descriptions(&game), expected);
    assert_eq!(
        game["last_turn"],
        json!({"color": "black", "turn": "B4", "stones": ["B4"], "reversed": [],
               "kind": "growth", "description": "Black grew B4."})
    );
    // At any turn of the review.
    let id = game["id"].as_str().unwrap();
    let (status, at7) = get(&s, &format!("/api/games/{id}?turn=7")).await;
    assert_eq!(status, 200, "{at7}");
    assert_eq!(
        at7["last_turn"],
        json!({"color": "white", "turn": "F1,G2", "stones": ["F1", "G2"], "reversed": ["G1"],
               "kind": "growth", "description": "White grew F1 and G2, reversing G1."})
    );
    let (_, at5) = get(&s, &format!("/api/games/{id}?turn=5")).await;
    assert_eq!(at5["last_turn"]["description"], "White passed.");
    // The same after a restart (the summaries made again from the turns).
    let s = s.restart().await;
    assert_eq!(descriptions(&game_now(&s, id).await), expected);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_played_games_descriptions_follow_its_turns_and_undos() {
    let s = TestServer::start("played-descriptions").await;
    let (id, black, white) = s.new_game("hexsygo", 3).await;
    s.play(&id, &white, "C3", 0).await;
    s.play(&id, &black, "A1", 1).await;
    s.play(&id, &white, "E5", 2).await;
    let game = s.play(&id, &black, "B1,E3", 3).await;
    assert_eq!(game["last_turn"]["kind"], "balance");
    assert_eq!(
        game["last_turn"]["description"],
        "Black's balance turn: grew B1 and placed E3."
    );
    assert_eq!(
        game["turns"][0],
        json!({"number": 1, "color": "white", "turn": "C3", "kind": "placement",
               "description": "White placed C3."})
    );
    // Taken back on the page that plays both sides: the summaries follow.
    let (status, game) = s
        .post(
            &format!("/api/games/{id}/undo"),
            &json!({"turn_number": 4, "other_token": white}),
            Some(&black),
        )
        .await;
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["turns"].as_array().unwrap().len(), 3);
    assert_eq!(game["last_turn"]["description"], "White placed E5.");
    let game = s.play(&id, &black, "pass", 3).await;
    assert_eq!(
        (
            &game["last_turn"]["kind"],
            &game["last_turn"]["description"]
        ),
        (&json!("pass"), &json!("Black passed."))
    );
    let before = game_now(&s, &id).await;
    let s = s.restart().await;
    assert_eq!(game_now(&s, &id).await["turns"], before["turns"]);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uploaded_records_names_comments_and_variations() {
    let s = TestServer::start("uploaded-record").await;
    let game = upload(&s, RECORD).await;
    assert_eq!(game["black"], json!({"kind": "human", "name": "Ann"}));
    assert_eq!(game["white"], json!({"kind": "human", "name": "Bob"}));
    let record = &game["record"];
    assert_eq!(record["black"], "Ann");
    assert_eq!(record["game_name"], "Test game");
    assert_eq!(record["event"], "Club night");
    assert_eq!(record["date"], Value::Null);
    assert_eq!(
        record["comments"],
        json!([{"turn": 0, "comment": "Root comment"}, {"turn": 1, "comment": "White opens"},
               {"turn": 6, "comment": "The balance turn"}])
    );
    assert_eq!(record["variations"], json!([6]));
    assert_eq!(record["nodes"], 11);
    // A game played here has none of it.
    let (id_played, _, _) = s.new_game("sygo", 5).await;
    assert_eq!(game_now(&s, &id_played).await.get("record"), None);
    let (status, answer) = get(&s, &format!("/api/games/{id_played}/record/tree")).await;
    assert_eq!((status, code(&answer)), (404, "not_found"), "{answer}");

    let id = game["id"].as_str().unwrap();
    let (status, tree) = get(&s, &format!("/api/games/{id}/record/tree")).await;
    assert_eq!(status, 200, "{tree}");
    let nodes = tree["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 11);
    assert_eq!((&tree["total"], &tree["next"]), (&json!(11), &Value::Null));
    assert_eq!(nodes[0]["comment"], "Root comment");
    assert_eq!(nodes[0]["turn"], Value::Null);
    assert_eq!(nodes[5]["children"], json!([6, 9]));
    // A node's path is its parents' `child` from the root: 0.0.0.0.0.0.
    assert_eq!(
        (&nodes[6]["parent"], &nodes[6]["child"]),
        (&json!(5), &json!(0))
    );
    assert_eq!(
        nodes[6]["turn"]["description"],
        "Black's balance turn: grew B5 and placed D4."
    );
    assert_eq!(
        (&nodes[9]["parent"], &nodes[9]["child"]),
        (&json!(5), &json!(1))
    );
    assert_eq!(nodes[9]["main_line"], false);
    assert_eq!(nodes[9]["name"], "Other idea");
    assert_eq!(nodes[9]["turn_number"], 6);
    assert_eq!(nodes[9]["turn"]["description"], "Black placed A7.");
    assert_eq!(nodes[10]["turn"]["description"], "White placed C3.");
    assert_eq!(nodes[10]["parent"], 9);

    // The position at a node of the variation.
    let node = |path: &str| format!("/api/games/{id}/record/node?path={path}");
    let (status, at) = get(&s, &node("0.0.0.0.0.1.0")).await;
    assert_eq!(status, 200, "{at}");
    assert_eq!(at["turn_number"], 7);
    assert_eq!(at["main_line"], false);
    assert_eq!(at["parent"], "0.0.0.0.0.1");
    assert_eq!(at["stones"]["A7"], "black");
    assert_eq!(at["stones"]["C3"], "white");
    assert_eq!(at["stones"].get("D4"), None);
    assert_eq!(at["last_turn"]["description"], "White placed C3.");
    assert_eq!(at["to_move"], "black");
    assert_eq!(at["children"], json!([]));
    // The node before the fork lists both turns there, the main line first.
    let (_, fork) = get(&s, &node("0.0.0.0.0")).await;
    assert_eq!(fork["last_turn"]["description"], "White passed.");
    let children = fork["children"].as_array().unwrap();
    assert_eq!(children.len(), 2);
    assert_eq!(children[0]["main_line"], true);
    assert_eq!(children[1]["node"], 9);
    assert_eq!(children[1]["turn"]["description"], "Black placed A7.");
    // The same node by its number, and the parts of the tree.
    let (status, by_number) = get(&s, &format!("/api/games/{id}/record/node?node=10")).await;
    assert_eq!(status, 200, "{by_number}");
    assert_eq!(by_number, at);
    assert_eq!((&at["node"], &at["parent_node"]), (&json!(10), &json!(9)));
    let (status, part) = get(&s, &format!("/api/games/{id}/record/tree?from=9")).await;
    assert_eq!(status, 200, "{part}");
    assert_eq!(part["nodes"].as_array().unwrap().len(), 2);
    assert_eq!(part["nodes"][0], nodes[9]);
    for bad in ["from=11", "from=-1", "from=x"] {
        let (status, answer) = get(&s, &format!("/api/games/{id}/record/tree?{bad}")).await;
        assert_eq!(
            (status, code(&answer)),
            (400, "bad_request"),
            "{bad}: {answer}"
        );
    }
    for (query, status_) in [("node=11", 404), ("node=1&path=0", 400), ("node=x", 400)] {
        let (status, answer) = get(&s, &format!("/api/games/{id}/record/node?{query}")).await;
        assert_eq!(status, status_, "{query}: {answer}");
    }
    // The root, with its comment and no turn.
    let (status, root) = get(&s, &format!("/api/games/{id}/record/node")).await;
    assert_eq!(status, 200, "{root}");
    assert_eq!(
        (&root["comment"], &root["last_turn"], &root["parent"]),
        (&json!("Root comment"), &Value::Null, &Value::Null)
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_path_is_a_clear_error_and_changes_nothing() {
    let s = TestServer::start("uploaded-bad-path").await;
    let game = upload(&s, RECORD).await;
    let id = game["id"].as_str().unwrap();
    let before = game_now(&s, id).await;
    for (path, status, code_) in [
        ("0.0.x", 400, "bad_request"),
        ("0..0", 400, "bad_request"),
        ("-1", 400, "bad_request"),
        ("0.2", 404, "not_found"),
        ("0.0.0.0.0.0.0.0.0", 404, "not_found"),
        ("99999999999999999999999999", 400, "bad_request"),
    ] {
        let (got, answer) = get(&s, &format!("/api/games/{id}/record/node?path={path}")).await;
        assert_eq!((got, code(&answer)), (status, code_), "{path}: {answer}");
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with(&format!("path \"{path}\"")),
            "{answer}"
        );
    }
    let (status, answer) = get(&s, "/api/games/00000000/record/tree").await;
    assert_eq!((status, code(&answer)), (404, "not_found"));
    assert_eq!(game_now(&s, id).await, before);
    s.stop().await;
}

/// `records/hostile.sgf`: a record whose every text holds markup and script: the API gives each
/// back as the JSON string it is, nothing added or taken away.
pub const HOSTILE: &str = include_str!("../records/hostile.sgf");

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_records_texts_come_back_as_plain_strings() {
    let s = TestServer::start("uploaded-hostile").await;
    let game = upload(&s, HOSTILE).await;
    assert_eq!(game["black"]["name"], "<script>window.__pwned=1</script>");
    assert_eq!(
        game["white"]["name"],
        "<img src=x onerror=\"window.__pwned=2\">"
    );
    let record = &game["record"];
    assert_eq!(record["game_name"], "javascript:window.__pwned=3");
    assert_eq!(record["event"], "'quotes\" & <b>angle</b> brackets");
    assert_eq!(record["date"], "<svg onload=window.__pwned=4>");
    assert_eq!(record["place"], "</textarea><script>alert(1)</script>");
    assert_eq!(
        record["comments"][0]["comment"],
        "<script>window.__pwned=5</script> root"
    );
    assert_eq!(
        record["comments"][1]["comment"],
        "<img src=x onerror=alert(1)>"
    );
    let id = game["id"].as_str().unwrap();
    let (_, tree) = get(&s, &format!("/api/games/{id}/record/tree")).await;
    assert_eq!(
        tree["nodes"][1]["name"],
        "<a href=\"javascript:alert(1)\">name</a>"
    );
    assert_eq!(
        tree["nodes"][3]["comment"],
        "<iframe src=\"javascript:alert(1)\"></iframe>"
    );
    s.stop().await;
}
