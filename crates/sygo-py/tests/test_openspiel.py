"""The OpenSpiel adapter: the game registered with pyspiel and played through
OpenSpiel's own API. Skipped where OpenSpiel is not installed (it is not one
of the package's requirements; scripts/test-python.sh installs it when
``SYGO_TEST_OPENSPIEL=1``)."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (pip install open_spiel) is not installed")

import sygo  # noqa: E402
import sygo.openspiel  # noqa: E402,F401  (registers "sygo")


def test_the_game_is_registered_with_its_parameters():
    assert "sygo" in pyspiel.registered_names()
    game = pyspiel.load_game("sygo(variant=hexsygo,size=4)")
    assert game.num_players() == 2
    assert game.num_distinct_actions() == sygo.Game("hexsygo", 4).num_distinct_actions()
    assert game.max_game_length() == sygo.Game("hexsygo", 4).max_game_length()
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    default = pyspiel.load_game("sygo")
    assert default.num_distinct_actions() == 19 * 19 + 2


@pytest.mark.parametrize("name", ["sygo(size=5)", "sygo(variant=hexsygo,size=3,balance_turn=false)"])
def test_random_games_through_pyspiel_match_sygo(name):
    game = pyspiel.load_game(name)
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state()
        mirror = state.sygo_state.get_game().new_initial_state()
        while not state.is_terminal():
            assert state.current_player() == mirror.current_player()
            actions = state.legal_actions()
            assert actions == mirror.legal_actions()
            action = rng.choice(actions)
            assert state.action_to_string(state.current_player(), action) == mirror.action_to_string(action)
            if rng.random() < 0.1:
                clone = state.clone()
                assert clone.history() == state.history()
            state.apply_action(action)
            mirror.apply_action(action)
        assert state.current_player() == pyspiel.PlayerId.TERMINAL
        assert state.returns() == mirror.returns()
        assert state.history() == mirror.history()
        tensor = state.observation_tensor(0)
        assert len(tensor) == game.observation_tensor_size()
        assert list(tensor) == list(mirror.observation_tensor(0).ravel())


def test_openspiels_algorithms_run_on_it():
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("sygo(size=4)")
    bot = mcts.MCTSBot(game, 1.4, 30, mcts.RandomRolloutEvaluator(1, random_state=None))
    state = game.new_initial_state()
    for _ in range(4):
        if state.is_terminal():
            break
        state.apply_action(bot.step(state))
    assert len(state.history()) >= 1
