"""Bad input raises the right exception, with the reason, and changes nothing."""

from __future__ import annotations

import random

import pytest

import sygo


def snapshot(state: sygo.State):
    return (repr(state), state.history(), state.legal_actions(), state.turns(), str(state))


@pytest.fixture
def state() -> sygo.State:
    game = sygo.Game("sygo", 7)
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(9):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_every_error_is_a_value_error():
    for kind in (sygo.IllegalMove, sygo.ParseError, sygo.RecordError, sygo.PlayerSpecError):
        assert issubclass(kind, sygo.SygoError)
    assert issubclass(sygo.SygoError, ValueError)


@pytest.mark.parametrize("action", [-1, 51, 52, 10**6, -(2**40)])
def test_an_action_out_of_range_is_refused(state, action):
    before = snapshot(state)
    with pytest.raises(sygo.IllegalMove, match="is not an action of sygo 7"):
        state.apply_action(action)
    assert snapshot(state) == before
    assert not state.is_legal(action)


def test_illegal_actions_are_refused_with_the_rules_reason(state):
    game = state.get_game()
    stone = next(t for t in state.turns() if t != "pass").split(",")[0]
    before = snapshot(state)
    with pytest.raises(sygo.IllegalMove, match=f"{stone} is already occupied"):
        state.apply_action(state.string_to_action(stone))
    assert snapshot(state) == before
    fresh = game.new_initial_state()
    fresh.apply_turn("D4")
    with pytest.raises(sygo.IllegalMove, match="D4 is already occupied"):
        fresh.apply_action(fresh.string_to_action("D4"))
    with pytest.raises(sygo.IllegalMove, match="the turn has no stone yet"):
        fresh.apply_action(game.end_action)
    fresh.apply_turn("B2")
    fresh.apply_action(fresh.string_to_action("D5"))
    with pytest.raises(sygo.IllegalMove, match="stones of this turn are pending"):
        fresh.apply_action(game.pass_action)
    with pytest.raises(sygo.IllegalMove, match="White may not place after growing"):
        fresh.apply_action(fresh.string_to_action("G7"))
    with pytest.raises(sygo.IllegalMove, match="stones of this turn are pending"):
        fresh.resign()
    with pytest.raises(sygo.IllegalMove, match="stones of this turn are pending"):
        fresh.apply_turn("E5")


def test_a_growth_left_without_liberties_until_a_later_capture_is_an_action():
    # Black A1, C1, B3; White B1-B2 (liberties A2, C2) and A3. Black's growth
    # A1-A2 leaves {A1, A2} without liberties until C2 reverses B1-B2; C2
    # first would freeze A1's group, so A2 must come first.
    start = "sygo 5 5/5/WB3/1W3/BWB2 b g 0"
    state = sygo.State.from_position(start)
    end = state.get_game().end_action
    a2, c2 = state.string_to_action("A2"), state.string_to_action("C2")
    assert a2 in state.legal_actions() and c2 in state.legal_actions()
    assert "A2,C2" in state.legal_turns()
    state.apply_action(a2)
    # The turn may not end while {A1, A2} has no liberty.
    assert end not in state.legal_actions() and c2 in state.legal_actions()
    before = snapshot(state)
    with pytest.raises(sygo.IllegalMove, match="would leave your group at A. without liberties"):
        state.apply_action(end)
    assert snapshot(state) == before
    # Every turn that completes it holds C2 (other groups may grow too).
    rest = state.legal_turns()
    assert rest[0] == "A2,C2" and all({"A2", "C2"} <= set(t.split(",")) for t in rest)
    state.apply_action(c2)
    state.apply_action(end)
    assert state.position() == "sygo 5 5/5/WB3/BBB2/BBB2 w g 0"
    assert state.history() == [a2, c2, end]
    # The rules play the whole turn the same way.
    whole = sygo.State.from_position(start)
    whole.apply_turn("A2,C2")
    assert whole.position() == state.position() and whole.history() == state.history()
    assert sygo.replay_turns(state.get_game(), ["A2,C2"], position=start)["position"] == state.position()
    assert state.undo() and state.turn_in_progress() and state.turn_stones() == ["A2", "C2"]


def test_bad_turns_and_points_are_parse_errors(state):
    before = snapshot(state)
    for text in ["Z99", "D4,,E5", "", "I3", "hello"]:
        with pytest.raises(sygo.ParseError):
            state.apply_turn(text)
    for text in ["Q0", "I1", "A8", "", "finished"]:
        with pytest.raises(sygo.ParseError):
            state.string_to_action(text)
    with pytest.raises(sygo.ParseError, match="not an action"):
        state.action_to_string(53)
    assert snapshot(state) == before


def test_a_refused_whole_turn_changes_nothing():
    game = sygo.Game("sygo", 9)
    state = game.new_initial_state()
    for turn in ["E5", "C3", "E6"]:
        state.apply_turn(turn)
    before = snapshot(state)
    with pytest.raises(sygo.IllegalMove) as refused:
        state.apply_turn("C4,C5")
    assert str(refused.value) == (
        "C5 touches only stones played this turn (such as C4): "
        "a growth stone must touch a group you had when the turn began"
    )
    assert snapshot(state) == before


def test_after_the_end_nothing_more_is_played(state):
    game = state.get_game()
    state = game.new_initial_state()
    state.apply_action(game.pass_action)
    state.apply_action(game.pass_action)
    assert state.is_terminal()
    before = snapshot(state)
    for action in (0, game.end_action, game.pass_action):
        with pytest.raises(sygo.IllegalMove, match="the game is over"):
            state.apply_action(action)
    with pytest.raises(sygo.IllegalMove, match="the game is over"):
        state.resign()
    assert snapshot(state) == before


@pytest.mark.parametrize(
    "text, reason",
    [
        ("sygo 9 9/9/9 w - 0", "board"),
        ("chess 9 9/9/9/9/9/9/9/9/9 w - 0", "not a variant"),
        ("sygo 30 9/9/9/9/9/9/9/9/9 w - 0", "not a size"),
        ("sygo 5 5/5/5/5/5 x - 0", "not a side to move"),
        ("sygo 5 5/5/5/5/5 w - 3", "not a number of passes"),
        ("sygo 5 5/5/5/5/5 w -", "fields"),
        ("sygo 5 5/5/5/5/4X w - 0", "board row 5"),
        ("sygo 5 5/5/5/5/5 w - 0 B+3", "not a result"),
        ("sygo 3 3/BWB/WBW w g 0", "no liberties"),
    ],
)
def test_a_malformed_position_string_is_a_parse_error(text, reason):
    with pytest.raises(sygo.ParseError, match=reason):
        sygo.State.from_position(text)


def test_a_position_of_another_board_is_refused():
    with pytest.raises(sygo.SygoError, match="the position is sygo 5, not sygo 9"):
        sygo.Game("sygo", 9).new_initial_state_from_position("sygo 5 5/5/5/5/5 w - 0")


@pytest.mark.parametrize(
    "kwargs, reason",
    [
        ({"variant": "chess"}, "not a variant"),
        ({"variant": "sygo", "size": 2}, "not a size of sygo: write 3 to 25"),
        ({"variant": "hexsygo", "size": 14}, "not a size of hexsygo: write 2 to 13"),
        ({"utility": "elo"}, "not a utility"),
        ({"komi": float("nan")}, "komi"),
    ],
)
def test_bad_game_options_are_refused(kwargs, reason):
    with pytest.raises(sygo.SygoError, match=reason):
        sygo.Game(**kwargs)


def test_bad_player_specifications_are_refused():
    with pytest.raises(sygo.PlayerSpecError, match="not a player"):
        sygo.Player("alphago")
    with pytest.raises(sygo.PlayerSpecError, match="from 1 to 256"):
        sygo.Player("mcts:threads=200000")
    with pytest.raises(sygo.PlayerSpecError, match="external engine"):
        sygo.Player("cmd:sygo gtp")
    with pytest.raises(sygo.SygoError, match="time="):
        sygo.Player("random", time=-1)
    with pytest.raises(sygo.SygoError, match="cannot analyze"):
        sygo.Player("random").analyze(sygo.Game("sygo", 5).new_initial_state())
