"""Observation tensors and the bulk helpers' NumPy arrays: shapes and contents."""

from __future__ import annotations

import random

import numpy as np
import pytest

import sygo
from conftest import parse_position_string

OWN, OPPONENT, VACANT, TURN, MAY_GROW, TO_MOVE, IS_BLACK, BALANCE, PASSED, ON_BOARD = range(10)


def test_the_planes_are_named_and_shaped():
    assert sygo.Game.observation_plane_names() == [
        "own_stones", "opponent_stones", "vacant", "turn_stones", "may_grow",
        "to_move", "is_black", "balance_available", "passed", "on_board",
    ]
    for variant, size, side, points in [("sygo", 9, 9, 81), ("sygo", 19, 19, 361),
                                        ("hexsygo", 5, 9, 61), ("hexsygo", 10, 19, 271)]:
        game = sygo.Game(variant, size)
        tensor = game.new_initial_state().observation_tensor()
        assert isinstance(tensor, np.ndarray)
        assert tensor.dtype == np.float32
        assert tensor.shape == (10, side, side) == tuple(game.observation_tensor_shape())
        assert tensor.flags.writeable and tensor.flags.c_contiguous
        assert tensor[ON_BOARD].sum() == points
        assert tensor[VACANT].sum() == points
        assert set(np.unique(tensor)) <= {0.0, 1.0}


def test_the_hexagons_corners_are_off_the_board():
    game = sygo.Game("hexsygo", 3)
    on_board = game.new_initial_state().observation_tensor()[ON_BOARD]
    expected = np.array([[1 if abs(c - r) <= 2 else 0 for c in range(5)] for r in range(5)])
    assert (on_board == expected).all()
    for action in range(game.num_points()):
        row, column = game.action_to_cell(action)
        assert on_board[row, column] == 1


@pytest.mark.parametrize("seed", range(3))
def test_the_planes_say_what_the_position_string_says(game, seed):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if not state.turn_in_progress():
            points = parse_position_string(state.position())
            for player, color in ((sygo.BLACK, "B"), (sygo.WHITE, "W")):
                other = "W" if color == "B" else "B"
                tensor = state.observation_tensor(player)
                for (row, column), cell in points.items():
                    assert tensor[OWN, row, column] == (cell == color)
                    assert tensor[OPPONENT, row, column] == (cell == other)
                    assert tensor[VACANT, row, column] == (cell == ".")
                    assert tensor[ON_BOARD, row, column] == 1
                    # Between turns every stone of the mover may grow.
                    mover = "B" if state.current_player() == sygo.BLACK else "W"
                    assert tensor[MAY_GROW, row, column] == (cell == mover)
                assert tensor[ON_BOARD].sum() == len(points)
                assert tensor[TURN].sum() == 0
                on = tensor[ON_BOARD] == 1
                assert (tensor[TO_MOVE][on] == (player == state.current_player())).all()
                assert (tensor[IS_BLACK][on] == (player == sygo.BLACK)).all()
                fields = state.position().split()
                assert (tensor[BALANCE][on] == (fields[4] == "-")).all()
                assert (tensor[PASSED][on] == (fields[5] == "1")).all()
            assert (state.observation_tensor() == state.observation_tensor(state.current_player())).all()
        state.apply_action(rng.choice(state.legal_actions()))


def test_within_a_turn_the_new_stones_and_the_groups_that_may_grow_are_marked():
    # Black to move with groups at B2 and D4; B2 grows to B3.
    state = sygo.State.from_position("sygo 5 5/3B1/5/1B3/5 b g 0")
    game = state.get_game()
    state.apply_action(state.string_to_action("B3"))
    tensor = state.observation_tensor()

    def cell(vertex):
        return game.action_to_cell(game.string_to_action(vertex))

    assert tensor[TURN][cell("B3")] == 1 and tensor[TURN].sum() == 1
    assert tensor[MAY_GROW][cell("D4")] == 1
    assert tensor[MAY_GROW][cell("B2")] == 0 and tensor[MAY_GROW][cell("B3")] == 0
    assert tensor[MAY_GROW].sum() == 1


def test_the_legal_mask_is_the_legal_actions(game):
    rng = random.Random(8)
    state = game.new_initial_state()
    while not state.is_terminal():
        mask = state.legal_actions_mask()
        assert len(mask) == game.num_distinct_actions()
        assert [a for a, m in enumerate(mask) if m] == state.legal_actions()
        assert all(state.is_legal(a) == bool(m) for a, m in enumerate(mask))
        state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.legal_actions_mask()) == 0


def test_random_positions_come_as_stacked_tensors(game):
    n = 40
    data = sygo.random_positions(game, n, seed=3)
    side = game.observation_tensor_shape()[1]
    assert data["observations"].shape == (n, 10, side, side)
    assert data["observations"].dtype == np.float32
    assert data["legal_mask"].shape == (n, game.num_distinct_actions())
    assert data["legal_mask"].dtype == np.bool_
    for key, dtype in (("actions", np.int64), ("players", np.int8), ("move_numbers", np.int32)):
        assert data[key].shape == (n,) and data[key].dtype == dtype
    assert data["returns"].shape == (n, 2)
    assert (data["returns"].sum(axis=1) == 0).all()
    for i in range(n):
        observation = data["observations"][i]
        assert data["legal_mask"][i, data["actions"][i]]
        assert observation[ON_BOARD].sum() == game.num_points()
        on = observation[ON_BOARD] == 1
        assert (observation[TO_MOVE][on] == 1).all()
        assert (observation[IS_BLACK][on] == (data["players"][i] == sygo.BLACK)).all()
    again = sygo.random_positions(game, n, seed=3)
    assert all((again[key] == data[key]).all() for key in data)


def test_the_bulk_results_are_arrays(game):
    games = sygo.play_random_games(game, 25, seed=2)
    for key in ("winner", "black_score", "white_score", "game_turns", "game_steps", "resigned"):
        assert games[key].shape == (25,)
    assert games["winner"].dtype == np.int8
    assert games["game_steps"].sum() == games["steps"]
    assert games["game_turns"].sum() == games["turns"]
    assert set(games["winner"]) <= {-1, 0, 1}
    assert games["seconds"] > 0
    assert "records" not in games
