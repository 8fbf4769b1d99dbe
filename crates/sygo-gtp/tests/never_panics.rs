//! Property tests of the engine as a whole: whatever lines arrive, each gets
//! one well-formed answer (or none, for a blank line or a comment), nothing
//! panics, and a failure changes nothing. The engine plays with the random
//! player, so that no line runs a search (and `analyze` is refused).

use proptest::prelude::*;
use sygo_gtp::{Engine, EngineOptions, commands::COMMANDS};
use sygo_rules::{Color, Variant};

/// One word of a command line: mostly words the engine knows, so that games
/// get played, mixed with near misses and garbage.
fn word() -> impl Strategy<Value = String> {
    let names: Vec<String> = COMMANDS.iter().map(|c| c.name.to_string()).collect();
    let vertex = "[A-Za-z][0-9]{1,2}";
    prop_oneof![
        4 => prop::sample::select(names),
        4 => prop::sample::select(vec!["b", "w", "black", "WHITE", "x"]).prop_map(String::from),
        4 => vertex,
        3 => prop::collection::vec(vertex, 1..5).prop_map(|v| v.join(",")),
        1 => "[A-E][1-5](,[A-E][1-5]){0,3},?|,[A-E][1-5]|[A-E][1-5],,[A-E][1-5]",
        1 => prop::sample::select(vec![
            "pass", "resign", "true", "false", "sygo", "hexsygo", "0", "2", "3", "5", "13",
            "-1", "6.5", "nan", "inf", "1e400", "99999999999999999999", "0x10", "",
        ])
        .prop_map(String::from),
        1 => "\\PC{0,12}",
    ]
}

/// A command that is often well-formed, so that games get played: its name
/// and arguments of the right kinds.
fn plausible() -> impl Strategy<Value = String> {
    let color = prop::sample::select(vec!["b", "w"]);
    let stones = "[A-F][1-6](,[A-F][1-6]){0,3}";
    prop_oneof![
        6 => (color.clone(), stones).prop_map(|(c, m)| format!("play {c} {m}")),
        6 => color.clone().prop_map(|c| format!("genmove {c}")),
        2 => (color.clone(), prop::option::of(stones))
            .prop_map(|(c, p)| format!("legal_steps {c} {}", p.unwrap_or_default())),
        1 => (color.clone(), prop::sample::select(vec!["pass", "resign"]))
            .prop_map(|(c, m)| format!("play {c} {m}")),
        1 => Just("undo".to_string()),
        1 => (color.clone(), stones).prop_map(|(c, l)| format!("setup {c} {l}")),
        1 => color.prop_map(|c| format!("set_turn {c}")),
        1 => any::<bool>().prop_map(|b| format!("set_growth_started {b}")),
    ]
}

/// A line: an optional id, then words.
fn line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        12 => plausible().prop_map(String::into_bytes),
        8 => (prop::option::of("[0-9]{1,25}"), prop::collection::vec(word(), 0..5)).prop_map(
            |(id, words)| {
                let mut line = id.map(|id| format!("{id} ")).unwrap_or_default();
                line.push_str(&words.join(" "));
                line.into_bytes()
            }
        ),
        1 => prop::collection::vec(any::<u8>(), 0..40),
    ]
}

/// Everything a command could change.
fn state(engine: &Engine) -> String {
    format!(
        "{:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        engine.game().start(),
        engine.game().turns(),
        engine.position(),
        engine.komi(),
        engine.time_settings(),
        engine.time_left(Color::Black),
        engine.time_left(Color::White),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn every_line_gets_a_well_formed_answer_and_failures_change_nothing(
        board in prop::sample::select(vec![
            (Variant::Sygo, 3), (Variant::Sygo, 5), (Variant::Hexsygo, 2), (Variant::Hexsygo, 3),
        ]),
        seed in any::<u64>(),
        lines in prop::collection::vec(line(), 1..80),
    ) {
        let (variant, size) = board;
        let mut engine = Engine::new(EngineOptions::random(variant, size, seed)).unwrap();
        for line in &lines {
            let before = state(&engine);
            let Some(answer) = engine.handle_bytes(line) else {
                // Only a line with no command goes unanswered.
                let text = String::from_utf8_lossy(line);
                let code = text.split(['\n', '#']).next().unwrap_or_default();
                prop_assert!(code.chars().all(|c| c == ' ' || c == '\t' || c.is_ascii_control()));
                continue;
            };
            prop_assert!(answer.ends_with("\n\n"), "{answer:?}");
            let body = &answer[..answer.len() - 2];
            prop_assert!(!body.contains("\n\n"), "{answer:?}");
            prop_assert!(answer.starts_with('=') || answer.starts_with('?'), "{answer:?}");
            if answer.starts_with('?') {
                prop_assert!(!body.contains('\n'), "one-line failures: {answer:?}");
                prop_assert_eq!(state(&engine), before, "{:?} changed the state", line);
            }
        }
    }
}
