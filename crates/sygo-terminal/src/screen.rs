//! What the players of a game at the terminal see: the board with its
//! heading, legend and status, the score, the end, the help, a hint, the
//! prompt. Text only: [`Session`](crate::Session) decides what happens and
//! when to show it; this file says how it reads.

use std::path::Path;

use sygo_ai::Analysis;
use sygo_rules::{
    Color, Game, Geometry, GroupStatus, Position, StepKind, Turn, Variant, format_points,
};

use crate::input::COMMANDS;
use crate::marks::{Marks, last_turn_marks, reversed};
use crate::paint::Paint;
use crate::players::{Player, thinks};
use crate::render::{Renderer, board_name, symbol};

/// How the program names who plays a colour: `human`, `random`,
/// `ai level 4`, `mcts:level=3`.
pub fn player_name(player: &Player, level: u8) -> String {
    match player {
        Player::Ai => format!("ai level {level}"),
        player => player.to_string(),
    }
}

/// `White`, or `White (random)` for a computer player.
pub fn side_name(color: Color, player: &Player, level: u8) -> String {
    if player.is_human() {
        color.name().to_string()
    } else {
        format!("{} ({})", color.name(), player_name(player, level))
    }
}

/// The first lines: the board, who plays, and, for a loaded game, the file
/// and its turns.
pub fn introduction(
    g: Geometry,
    names: [String; 2],
    paint: Paint,
    loaded: Option<(&Path, usize)>,
) -> String {
    let who = |c: Color| format!("{} ({}) {}", c, symbol(c), names[c.index()]);
    let mut text = format!(
        "{}: {}, {}. White moves first. Type help for the commands.\n",
        paint.bold(&board_name(g)),
        who(Color::White),
        who(Color::Black),
    );
    if let Some((path, n)) = loaded {
        text.push_str(&format!(
            "Loaded {}: {n} turn{} played.\n",
            path.display(),
            if n == 1 { "" } else { "s" }
        ));
    }
    text
}

/// The marks on the board now: the last turn, what it or the turn in
/// progress reversed, and the mover's groups during a turn.
fn marks(game: &Game, building: &Position) -> Marks {
    if building.turn_in_progress() {
        let last = game.turns().last();
        Marks {
            last_turn: last.map(|t| t.stones().to_vec()).unwrap_or_default(),
            reversed: reversed(&building.turn_start(), building),
            groups: building.base_groups(),
            ..Marks::default()
        }
    } else {
        last_turn_marks(game)
    }
}

/// The board before a person's turn: a heading, the board with the turn
/// being built (`building`), what its marks mean, and what the mover may do.
pub fn board(game: &Game, building: &Position, mover_is_human: bool, paint: Paint) -> String {
    let pos = game.position();
    let g = pos.geometry();
    let mover = pos.side_to_move();
    let marks = marks(game, building);
    let mut text = format!(
        "\n{}, turn {}: {} ({}) to play.  Stones: Black {}, White {}.\n",
        board_name(g),
        game.turns().len() + 1,
        mover,
        symbol(mover),
        pos.stone_count(Color::Black),
        pos.stone_count(Color::White),
    );
    text.push_str(&Renderer::new(building, &marks, paint).board());
    text.push_str(&legend(game, building, &marks));
    text.push_str(&status(building, mover_is_human));
    text
}

/// What the marks on the board mean, for the marks shown: a line on the
/// last turn, a line on the turn in progress.
fn legend(game: &Game, building: &Position, marks: &Marks) -> String {
    let g = building.geometry();
    let mut text = String::new();
    if let Some((color, turn)) = game.turns_with_colors().last()
        && !turn.stones().is_empty()
    {
        text.push_str(&format!("* {color}'s last turn ({})", turn.to_notation(&g)));
        if !marks.reversed.is_empty() && !building.turn_in_progress() {
            text.push_str("   ~ reversed by it");
        }
        text.push('\n');
    }
    if building.turn_in_progress() {
        let mover = building.side_to_move();
        let mut parts = vec![format!(
            "{} stones of this turn",
            symbol(mover).to_ascii_lowercase()
        )];
        if !marks.reversed.is_empty() {
            parts.push("~ reversed this turn".to_string());
        }
        let has = |status| marks.groups.iter().any(|group| group.status == status);
        if has(GroupStatus::Fresh) {
            parts.push("+ may still grow".to_string());
        }
        if has(GroupStatus::Grown) {
            parts.push("- has grown".to_string());
        }
        if has(GroupStatus::Frozen) {
            parts.push("# captured, may not grow".to_string());
        }
        text.push_str(&parts.join("   "));
        text.push('\n');
    }
    text
}

/// What the mover may do now, when it is worth saying.
fn status(building: &Position, mover_is_human: bool) -> String {
    let pos = building;
    let g = pos.geometry();
    if pos.turn_in_progress() {
        let stones = format_points(&pos.turn_stones(), &g);
        let mut text = format!("Turn in progress: {stones}.");
        if let Err(e) = pos.check_finish() {
            text.push_str(&format!(" It cannot end here: {e}."));
        }
        text.push_str(&format!(" Next: {}.\n", next_steps(pos)));
        text
    } else if pos.balance_available() && mover_is_human {
        "Black may make the balance turn: grow any or all groups, then place one stone.\n"
            .to_string()
    } else if pos.passes() == 1 {
        format!(
            "{} passed: a pass now ends the game.\n",
            pos.side_to_move().opponent()
        )
    } else {
        String::new()
    }
}

/// What may follow in the turn in progress (`building`): `grow a group
/// marked +, done, or back`.
pub fn next_steps(building: &Position) -> String {
    let mut can_grow = false;
    let mut can_place = false;
    building.for_each_allowed_step(|_, kind| match kind {
        StepKind::Growth => can_grow = true,
        StepKind::Placement => can_place = true,
    });
    let mut options = Vec::new();
    if can_grow {
        options.push("grow a group marked +");
    }
    if can_place {
        options.push("place one stone (the balance turn)");
    }
    if building.check_finish().is_ok() {
        options.push("done");
    }
    options.push("back");
    let last = options.pop().expect("back is always an option");
    if options.is_empty() {
        last.to_string()
    } else {
        format!("{}, or {last}", options.join(", "))
    }
}

/// The prompt: `White> `, or `game over> `.
pub fn prompt(pos: &Position) -> String {
    if pos.is_over() {
        "game over> ".to_string()
    } else {
        format!("{}> ", pos.side_to_move())
    }
}

/// The score of `pos`, with the territory board.
pub fn score(pos: &Position, paint: Paint) -> String {
    let territory = pos.territory();
    let marks = Marks {
        territory: Some(territory.clone()),
        ..Marks::default()
    };
    let mut text = Renderer::new(pos, &marks, paint).board();
    text.push_str("x o: territory of Black, of White (vacant points only their stones border)\n");
    for color in Color::BOTH {
        let stones = territory.stones[color.index()];
        let area = territory.area(color);
        text.push_str(&format!(
            "{color} ({}): {stones} stones + {area} territory = {}\n",
            symbol(color),
            stones + area
        ));
    }
    text
}

/// The end of a game that is over: how it ended, the score, the result, and
/// what may still be done if a person plays; `None` if it is not over.
pub fn end(pos: &Position, paint: Paint, a_person_plays: bool) -> Option<String> {
    let outcome = pos.outcome()?;
    let how = match pos.resigned() {
        Some(color) => format!("{color} resigned"),
        None => "both players passed".to_string(),
    };
    let result = match (outcome.winner(), pos.resigned()) {
        (Some(winner), Some(_)) => format!("{winner} wins by resignation"),
        (Some(winner), None) => {
            let score = pos.score();
            let margin = score.of(winner) - score.of(winner.opponent());
            format!("{winner} wins by {margin}")
        }
        (None, _) => "a draw".to_string(),
    };
    let mut text = format!("\nGame over: {how}.\n");
    text.push_str(&score(pos, paint));
    text.push_str(&format!(
        "Result: {}\n",
        paint.bold(&format!("{outcome}, {result}."))
    ));
    if a_person_plays {
        text.push_str("You may undo, score, save FILE, or quit.\n");
    }
    Some(text)
}

/// The list of commands and a few words on the turns, for `help`.
pub fn help(variant: Variant) -> String {
    let mut text = String::from("Commands (case does not matter):\n");
    for (command, what) in COMMANDS {
        text.push_str(&format!("  {command:<10} {what}\n"));
    }
    text.push_str(
        "A placement (a stone touching none of yours) ends the turn by itself. A growth \
         turn grows any or all of your groups by one stone each: type its stones one by \
         one, then done. Black, before any growth turn, may grow and then place one stone \
         (the balance turn). The rules in a page: quit, then run sygo rules.\n",
    );
    if variant == Variant::Hexsygo {
        text.push_str(
            "On the hexagon, a column runs up and to the left: its letter is below its \
             lowest cell or above its highest.\n",
        );
    }
    text
}

/// The hint line: the AI's turn for the side to move in `pos`, whether a
/// lone growth stone then needs `done`, and what the AI thinks.
pub fn hint(
    pos: &Position,
    turn: &Turn,
    analysis: Option<&Analysis>,
    in_progress: bool,
    level: u8,
) -> String {
    let g = pos.geometry();
    let from = if in_progress {
        " for the whole turn, from its start"
    } else {
        ""
    };
    // A lone growth stone leaves the turn open: say how to end it.
    let then_done = match turn.stones() {
        &[p] => {
            let mut after = pos.clone();
            after.play_step(p) == Ok(StepKind::Growth) && !after.allowed_steps().is_empty()
        }
        _ => false,
    };
    let view = match analysis {
        Some(analysis) => format!(": {} {}", pos.side_to_move(), thinks(analysis)),
        None => String::new(),
    };
    format!(
        "Hint{from}: {}{} (the AI at level {level}{view}).\n",
        turn.to_notation(&g),
        if then_done { ", then done" } else { "" },
    )
}

/// A turn just played, in words: the rules' own account
/// ([`sygo_rules::TurnSummary`]) in the player's name (`who`).
pub fn played(before: &Position, turn: &Turn, who: &str) -> String {
    let color = before.side_to_move();
    match sygo_rules::TurnSummary::of(before, color, turn) {
        Ok(summary) => format!("{}\n", summary.sentence(who)),
        Err(_) => format!("{who} played {}.\n", turn.to_notation(&before.geometry())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain() -> Paint {
        Paint { color: false }
    }

    #[test]
    fn the_board_shows_the_turn_in_progress_and_what_may_follow() {
        let mut game = Game::new(Position::new(Geometry::sygo(5).unwrap()));
        let g = game.position().geometry();
        game.play_as(Color::White, Turn::parse("C3", &g).unwrap())
            .unwrap();
        game.play_as(Color::Black, Turn::parse("A1", &g).unwrap())
            .unwrap();
        let mut building = game.position().clone();
        building.play_step(g.parse_point("C4").unwrap()).unwrap();
        let text = board(&game, &building, true, plain());
        assert!(
            text.starts_with("\nSygo 5x5, turn 3: White (O) to play.  Stones: Black 1, White 1.\n"),
            "{text}"
        );
        assert!(
            text.contains("  4 . . o . .  4\n  3 . . O-. .  3\n"),
            "{text}"
        );
        assert!(text.contains("* Black's last turn (A1)\n"), "{text}");
        assert!(
            text.contains("o stones of this turn   - has grown\n"),
            "{text}"
        );
        assert!(
            text.ends_with("Turn in progress: C4. Next: done, or back.\n"),
            "{text}"
        );
    }

    #[test]
    fn the_end_says_how_and_who_won() {
        let mut pos = Position::new(Geometry::sygo(3).unwrap());
        assert_eq!(end(&pos, plain(), true), None);
        let g = pos.geometry();
        pos.play_turn(&Turn::parse("B2", &g).unwrap()).unwrap();
        pos.play_turn(&Turn::Pass).unwrap();
        pos.play_turn(&Turn::Pass).unwrap();
        let text = end(&pos, plain(), false).unwrap();
        assert!(text.starts_with("\nGame over: both players passed.\n"));
        assert!(
            text.contains("White (O): 1 stones + 8 territory = 9\n"),
            "{text}"
        );
        assert!(text.ends_with("Result: W+9, White wins by 9.\n"), "{text}");
    }

    #[test]
    fn help_explains_the_hexagon_only_on_the_hexagon() {
        assert!(!help(Variant::Sygo).contains("hexagon"));
        assert!(help(Variant::Hexsygo).contains("On the hexagon"));
        assert!(help(Variant::Sygo).contains("  save FILE  save the game as a record (SGF)\n"));
    }
}
