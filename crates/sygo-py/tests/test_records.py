"""SGF records and position strings, both ways."""

from __future__ import annotations

import random

import pytest

import sygo
from conftest import REPOSITORY, play_random_actions


@pytest.mark.parametrize("seed", range(4))
def test_a_game_round_trips_through_sgf(game, seed):
    state = game.new_initial_state()
    play_random_actions(state, random.Random(seed))
    text = state.to_sgf(black="Ann", white="Bob", date="2026-11-27")
    assert "PB[Ann]" in text and "PW[Bob]" in text and "DT[2026-11-27]" in text
    assert f"RE[{state.result()}]" in text
    read = sygo.State.from_sgf(text)
    assert read.get_game() == game
    assert read.turns() == state.turns()
    assert read.history() == state.history()
    assert read.position() == state.position()
    assert read.returns() == state.returns()
    assert read.to_sgf(black="Ann", white="Bob", date="2026-11-27") == text
    assert sygo.load_sgf(text, game).position() == state.position()


def test_a_game_in_progress_is_written_without_its_pending_stones():
    game = sygo.Game("sygo", 9, komi=0.5)
    state = game.new_initial_state()
    for turn in ["E5", "C3", "E6"]:
        state.apply_turn(turn)
    state.apply_action(state.string_to_action("C4"))
    text = state.to_sgf()
    assert "KM[0.5]" in text and "RE[" not in text
    read = sygo.State.from_sgf(text)
    assert read.turns() == ["E5", "C3", "E6"]
    assert read.get_game().komi == 0.5
    assert read.current_player() == sygo.BLACK and not read.turn_in_progress()


@pytest.mark.parametrize("name, result", [("sygo-9.sgf", "B+2.5"), ("hexsygo-4.sgf", None)])
def test_the_example_records_load(name, result):
    path = REPOSITORY / "docs" / "examples" / name
    if not path.exists():
        pytest.skip(f"{path} is not in this checkout")
    state = sygo.State.from_sgf(path.read_text(encoding="utf-8"))
    assert state.is_terminal()
    if result is not None:
        # README.md: `sygo score docs/examples/sygo-9.sgf` says B+2.5 (komi 0.5).
        assert state.result() == result
        assert state.score() == (12, 9)
    again = sygo.State.from_sgf(state.to_sgf())
    assert again.position() == state.position()


def test_a_set_up_start_is_kept():
    start = sygo.State.from_position("sygo 5 5/5/2W2/5/5 b - 0")
    start.apply_turn("A1")
    text = start.to_sgf()
    assert "AW[cc]" in text
    read = sygo.State.from_sgf(text)
    assert read.position() == start.position()
    assert read.turns() == ["A1"]


@pytest.mark.parametrize(
    "text, reason",
    [
        ("(;FF[4]GM[400]VR[sygo]SZ[9];W[ee];B[cg];W[ed][ec])",
         "node 3: White's turn E6,E7 is illegal: E7 touches only stones played this turn"),
        ("(;FF[4]GM[400]VR[sygo]SZ[9];W[ee]", "not an SGF file"),
        ("not sgf at all", "not an SGF file"),
        ("(;FF[4]GM[1]SZ[9];B[ee])", "node 0"),
        ("(;FF[4]GM[400]VR[sygo]SZ[9];W[ee];W[cc])", "node 2"),
        ("(;FF[4]GM[400]VR[sygo]SZ[9];W[zz])", "node 1"),
        ("(;FF[4]GM[400]VR[sygo]SZ[9])(;FF[4]GM[400]VR[sygo]SZ[9])", "games"),
    ],
)
def test_a_corrupt_record_is_a_record_error(text, reason):
    with pytest.raises(sygo.RecordError, match=reason):
        sygo.State.from_sgf(text)


def test_a_record_of_another_board_or_rules_is_refused():
    record = "(;FF[4]GM[400]VR[sygo]SZ[9];W[ee];B[cg];W[gc];B[cf][eg])"
    assert sygo.State.from_sgf(record).turns() == ["E5", "C3", "G7", "C4,E3"]
    with pytest.raises(sygo.SygoError, match="the position is sygo 9, not sygo 13"):
        sygo.Game("sygo", 13).new_initial_state_from_sgf(record)
    # Turn 4 is Black's balance turn: refused in a game without it.
    no_balance = sygo.Game("sygo", 9, balance_turn=False)
    with pytest.raises(sygo.RecordError, match=r"turn 4 \(C4,E3\) cannot be played"):
        no_balance.new_initial_state_from_sgf(record)


@pytest.mark.parametrize("seed", range(3))
def test_positions_round_trip_through_their_strings(game, seed):
    rng = random.Random(seed)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if not state.turn_in_progress():
            text = state.position()
            read = sygo.State.from_position(text, game)
            assert read.position() == text
            assert read.legal_actions() == state.legal_actions()
            assert read.current_player() == state.current_player()
            assert read.zobrist_hash() == state.zobrist_hash()
            assert (read.observation_tensor() == state.observation_tensor()).all()
            assert game.new_initial_state_from_position(text).position() == text
            checked += 1
        else:
            with pytest.raises(sygo.SygoError, match="a turn is in progress"):
                state.position()
        state.apply_action(rng.choice(state.legal_actions()))
    assert sygo.State.from_position(state.position(), game).is_terminal()
    assert checked > 3
