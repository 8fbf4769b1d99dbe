"""The OpenSpiel-style API: games, states, actions, turns, returns."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import sygo
from conftest import play_random_actions


def test_a_game_has_openspiels_numbers():
    game = sygo.Game("sygo", 9)
    assert (game.variant, game.size, game.balance_turn, game.komi, game.utility) == (
        "sygo", 9, True, 0.0, "win",
    )
    assert game.num_players() == 2
    assert game.num_points() == 81
    assert game.num_distinct_actions() == 83
    assert (game.end_action, game.pass_action) == (81, 82)
    assert game.max_game_length() == 3 * 81 + 2
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.observation_tensor_shape() == [10, 9, 9]
    assert game.observation_tensor_size() == 810
    assert game.points()[:3] == ["A1", "B1", "C1"] and game.points()[9] == "A2"
    assert sygo.Game().size == 19 and sygo.Game("hexsygo").size == 10
    hexagon = sygo.Game("hexsygo", 10)
    assert hexagon.num_points() == 271 and hexagon.observation_tensor_shape() == [10, 19, 19]
    assert hexagon.get_parameters() == {
        "variant": "hexsygo", "size": 10, "balance_turn": True, "komi": 0.0, "utility": "win",
    }
    assert sygo.Game(**hexagon.get_parameters()) == hexagon
    assert pickle.loads(pickle.dumps(hexagon)) == hexagon
    assert eval(repr(hexagon), {"sygo": sygo}) == hexagon
    assert sygo.Game("sygo", 9, utility="score").max_utility() == 81


def test_load_game_reads_openspiel_strings():
    assert sygo.load_game("sygo") == sygo.Game()
    assert sygo.load_game("hexsygo(size=5,balance_turn=false)") == sygo.Game(
        "hexsygo", 5, balance_turn=False
    )
    assert sygo.load_game("sygo", {"size": 9, "komi": 0.5}) == sygo.Game("sygo", 9, komi=0.5)
    with pytest.raises(sygo.SygoError, match="not a game"):
        sygo.load_game("chess")
    with pytest.raises(sygo.SygoError, match="not a parameter"):
        sygo.load_game("sygo(board_size=9)")


def test_actions_are_points_end_and_pass():
    game = sygo.Game("hexsygo", 3)
    assert game.num_points() == 19
    state = game.new_initial_state()
    assert state.current_player() == sygo.WHITE == 1
    # The empty board: every point is a placement, and pass.
    assert state.legal_actions() == list(range(19)) + [game.pass_action]
    assert state.legal_actions(sygo.BLACK) == []
    assert state.legal_actions_mask() == [1] * 19 + [0, 1]
    for action in range(game.num_distinct_actions()):
        text = state.action_to_string(action)
        assert state.string_to_action(text) == action
        assert state.action_to_string(sygo.WHITE, action) == text
        assert game.action_to_string(action) == text
    assert state.string_to_action("end") == state.string_to_action("Finish") == game.end_action
    assert state.string_to_action(1, "pass") == game.pass_action
    assert state.string_to_action("c3") == game.points().index("C3")
    for action in range(19):
        row, column = game.action_to_cell(action)
        assert game.cell_to_action(row, column) == action


def test_a_turn_step_by_step_as_in_the_readme():
    # White D4, Black F6; White grows D4 to D5, and may not grow it again.
    state = sygo.State.from_position("sygo 9 9/9/9/5B3/9/3W5/9/9/9 w - 0")
    d5 = state.string_to_action("D5")
    state.apply_action(d5)
    assert state.current_player() == sygo.WHITE and state.turn_in_progress()
    assert state.turn_stones() == ["D5"]
    c4 = state.string_to_action("C4")
    assert c4 not in state.legal_actions()
    with pytest.raises(sygo.IllegalMove) as refused:
        state.apply_action(c4)
    assert str(refused.value) == "C4 would grow the group at D4 a second time this turn"
    assert state.legal_actions()[-1] == state.get_game().end_action
    state.apply_action(state.get_game().end_action)
    state.apply_turn("F7")
    assert state.position() == "sygo 9 9/9/5B3/5B3/3W5/3W5/9/9/9 w g 0"
    assert state.turns() == ["D5", "F7"]
    assert state.history() == [d5, state.get_game().end_action, state.string_to_action("F7"),
                               state.get_game().end_action]
    assert state.move_number() == 4


def test_a_placement_ends_the_turn_by_itself_and_black_has_the_balance_turn():
    game = sygo.Game("sygo", 7)
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("C7"))
    assert state.current_player() == sygo.BLACK and not state.turn_in_progress()
    state.apply_turn("D4")
    state.apply_turn("A2")
    assert state.balance_available()
    # Black's balance turn: grow D4 to D5, then place B2 (which ends it).
    state.apply_action(state.string_to_action("D5"))
    state.apply_action(state.string_to_action("B2"))
    assert state.current_player() == sygo.WHITE
    assert state.turns() == ["C7", "D4", "A2", "D5,B2"]
    assert not state.balance_available()


def test_clones_are_independent_and_undo_takes_back_actions():
    game = sygo.Game("sygo", 5)
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    before = (repr(state), state.history(), state.legal_actions())
    for other in (state.clone(), copy.copy(state), copy.deepcopy(state),
                  pickle.loads(pickle.dumps(state))):
        assert (repr(other), other.history(), other.legal_actions()) == before
        play_random_actions(other, random.Random(9))
        assert other.is_terminal() and not state.is_terminal()
        assert (repr(state), state.history(), state.legal_actions()) == before
    history = state.history()
    replay = game.new_initial_state()
    for action in history[:-1]:
        replay.apply_action(action)
    assert state.undo()
    assert repr(state) == repr(replay) and state.history() == history[:-1]
    last = replay.history()[-1]
    mover = replay.clone()
    mover.undo()
    replay.undo_action(mover.current_player(), last)
    assert replay.history() == history[:-2]
    with pytest.raises(sygo.SygoError):
        replay.undo_action(0, 9999)
    empty = game.new_initial_state()
    assert not empty.undo()


def test_returns_are_zero_until_the_end_then_the_winner_or_the_margin():
    rng = random.Random(4)
    for utility in ("win", "score"):
        game = sygo.Game("sygo", 5, komi=0.5, utility=utility)
        state = game.new_initial_state()
        while not state.is_terminal():
            assert state.returns() == [0.0, 0.0] == state.rewards()
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.current_player() == sygo.TERMINAL == -4
        assert state.legal_actions() == []
        black, white = state.score()
        margin = black - white - 0.5
        if utility == "win":
            expected = 1.0 if margin > 0 else -1.0
        else:
            expected = margin
        assert state.returns() == [expected, -expected] == state.rewards()
        assert state.player_return(sygo.BLACK) == expected
        assert state.winner() == (sygo.BLACK if margin > 0 else sygo.WHITE)
        assert state.result() == (f"B+{margin:g}" if margin > 0 else f"W+{-margin:g}")


def test_a_resignation_ends_the_game():
    game = sygo.Game("hexsygo", 4)
    state = game.new_initial_state()
    state.apply_turn("D4")
    state.resign()  # Black resigns.
    assert state.is_terminal() and state.result() == "W+R" and state.winner() == sygo.WHITE
    assert state.returns() == [-1.0, 1.0]
    assert state.turns() == ["D4", "resign"]
    assert "W+R" in state.to_sgf()
    assert state.undo() and not state.is_terminal()
    score_game = sygo.Game("hexsygo", 4, utility="score")
    resigned = score_game.new_initial_state()
    resigned.apply_turn("resign")  # White resigns at once.
    assert resigned.returns() == [37.0, -37.0]


def test_legal_turns_are_every_whole_turn_once():
    # Black to move with groups at B2 and D4 (growth started).
    state = sygo.State.from_position("sygo 5 5/3B1/5/1B3/5 b g 0")
    turns = state.legal_turns()
    assert turns[0] == "pass"
    # A placement on each of the 15 points that touch no Black stone; each
    # group grows at one of its 4 liberties, or not: 5 * 5 - 1 growth turns.
    assert len(turns) == 1 + 15 + 24
    assert len(set(turns)) == len(turns)
    for turn in turns[1:]:
        copy_ = state.clone()
        copy_.apply_turn(turn)
    # From a turn in progress: the turns that complete it.
    state.apply_action(state.string_to_action("B3"))
    rest = state.legal_turns()
    assert rest[0] == "B3" and all(t.startswith("B3") for t in rest) and len(rest) == 5
    with pytest.raises(sygo.SygoError, match="more than 3 whole turns"):
        sygo.State.from_position("sygo 5 5/3B1/5/1B3/5 b g 0").legal_turns(limit=3)
    # The empty board: pass and a placement on every point.
    assert len(sygo.Game("sygo", 9).new_initial_state().legal_turns()) == 82


def test_the_board_is_drawn_with_a_status_line():
    state = sygo.Game("sygo", 5).new_initial_state()
    state.apply_turn("C3")
    text = str(state)
    assert text.splitlines()[0] == "sygo 5, Black to move (the balance turn is available)"
    assert "  3 . . O . . 3" in text
    state.apply_turn("A1")
    state.apply_action(state.string_to_action("C4"))
    assert "turn in progress: C4" in str(state)
    assert " o " in str(state)
    assert repr(state) == "<sygo.State sygo 5 5/5/2W2/5/B4 w - 0 +C4>"
