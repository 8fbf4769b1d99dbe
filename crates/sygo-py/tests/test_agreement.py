"""The Python API and the Rust library agree on random games, both ways.

- Random legal actions played through ``State.apply_action`` give whole
  turns (built here from the actions' names); the rules library replays
  those turns on its own (``sygo.replay_turns``: ``sygo_rules::Game::play``,
  none of the step code) and must reach the same position, score and result.
- The rules library's random player (``play_random_games``) gives turns;
  played stone by stone through ``State`` every stone must be a legal
  action, and the game must end in the position and score Rust reported.
- With a built ``sygo`` binary (``SYGO_BIN``), the bulk helper's totals are
  ``sygo bench``'s for the same games.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess

import pytest

import sygo
from conftest import BOARDS, board_id, play_random_actions


@pytest.mark.parametrize("seed", range(6))
def test_random_actions_replay_as_whole_turns_in_rust(game, seed):
    rng = random.Random(seed)
    state = game.new_initial_state()
    turns = play_random_actions(state, rng)
    assert state.turns() == turns
    rust = sygo.replay_turns(game, turns)
    assert rust["position"] == state.position()
    assert (rust["black"], rust["white"]) == state.score()
    assert rust["over"] and state.is_terminal()
    assert rust["result"] == state.result()
    # Part way through too: the prefixes reach the same positions.
    replay = game.new_initial_state()
    for i, turn in enumerate(turns):
        replay.apply_turn(turn)
        if i % 7 == 3:
            assert sygo.replay_turns(game, turns[: i + 1])["position"] == replay.position()
    assert replay.history() == state.history()


def test_without_the_balance_turn_black_may_not_place_after_growing():
    game = sygo.Game("sygo", 7, balance_turn=False)
    state = game.new_initial_state()
    assert not state.balance_available()
    # Placements only: no growth turn has been played.
    for turn in ["D4", "B2", "F2"]:
        state.apply_turn(turn)
    # Black grows B2 to B3; a placement may not follow.
    state.apply_action(state.string_to_action("B3"))
    assert state.string_to_action("F6") not in state.legal_actions()
    with pytest.raises(sygo.IllegalMove, match="the balance turn is gone"):
        state.apply_action(state.string_to_action("F6"))
    with_balance = sygo.Game("sygo", 7).new_initial_state()
    for turn in ["D4", "B2", "F2"]:
        with_balance.apply_turn(turn)
    with_balance.apply_action(with_balance.string_to_action("B3"))
    assert with_balance.string_to_action("F6") in with_balance.legal_actions()
    state.apply_action(game.end_action)
    rng = random.Random(5)
    turns = play_random_actions(state, rng)
    rust = sygo.replay_turns(game, ["D4", "B2", "F2", "B3"] + turns)
    assert rust["position"] == state.position()


@pytest.mark.parametrize("board", BOARDS + [("sygo", 13), ("hexsygo", 7)], ids=board_id)
def test_the_rust_random_players_games_play_through_the_actions(board):
    game = sygo.Game(*board)
    games = sygo.play_random_games(game, 8, seed=11, turns=True)
    assert games["games"] == 8
    steps = 0
    for i, turns in enumerate(games["turn_lists"]):
        state = game.new_initial_state()
        for turn in turns:
            if turn == "pass":
                assert game.pass_action in state.legal_actions()
                state.apply_action(game.pass_action)
                continue
            for stone in turn.split(","):
                action = state.string_to_action(stone)
                assert action in state.legal_actions(), (turn, stone)
                state.apply_action(action)
                steps += 1
            if state.turn_in_progress():
                assert game.end_action in state.legal_actions()
                state.apply_action(game.end_action)
        assert state.is_terminal()
        assert state.turns() == turns
        assert state.position() == games["positions"][i]
        assert state.score() == (games["black_score"][i], games["white_score"][i])
        winner = state.winner()
        assert games["winner"][i] == (-1 if winner is None else winner)
        assert games["game_turns"][i] == len(turns)
    assert games["steps"] == steps


def test_records_and_plain_games_are_the_same_games():
    game = sygo.Game("hexsygo", 4)
    plain = sygo.play_random_games(game, 30, seed=4)
    recorded = sygo.play_random_games(game, 30, seed=4, records=True)
    for key in ("steps", "turns"):
        assert plain[key] == recorded[key]
    for key in ("winner", "black_score", "white_score", "game_turns", "game_steps"):
        assert list(plain[key]) == list(recorded[key])
    for i, text in enumerate(recorded["records"]):
        state = sygo.State.from_sgf(text)
        assert state.score() == (plain["black_score"][i], plain["white_score"][i])
        assert len(state.turns()) == plain["game_turns"][i]


def sygo_binary():
    binary = os.environ.get("SYGO_BIN") or shutil.which("sygo")
    return binary if binary and os.access(binary, os.X_OK) else None


@pytest.mark.skipif(sygo_binary() is None, reason="no sygo binary (set SYGO_BIN)")
@pytest.mark.parametrize("variant,size", [("sygo", 9), ("hexsygo", 5)])
def test_the_bulk_games_are_the_benchs_games(variant, size):
    out = subprocess.run(
        [sygo_binary(), "bench", "--variant", variant, "--size", str(size), "--games", "50", "--seed", "3"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    last = dict(item.split("=") for item in out.strip().splitlines()[-1].split())
    games = sygo.play_random_games(sygo.Game(variant, size), 50, seed=3)
    assert int(last["steps"]) == games["steps"]
    assert int(last["turns"]) == games["turns"]
    assert int(last["games"]) == games["games"]
