"""The built-in players: OpenSpiel-style bots, whole turns, analysis, matches."""

from __future__ import annotations

import pytest

import sygo


def play_out(state: sygo.State, players, limit: int = 2000) -> None:
    for _ in range(limit):
        if state.is_terminal():
            return
        player = players[state.current_player()]
        action = player.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("spec", ["random", "uct:visits=200", "mcts:level=1,threads=1"])
def test_a_player_plays_whole_games_by_steps(game, spec):
    players = [sygo.Player(spec, seed=1, visits=60), sygo.Player("random", seed=2)]
    state = game.new_initial_state()
    play_out(state, players)
    assert state.result() is not None
    assert sygo.replay_turns(game, state.turns())["position"] == state.position()


def test_a_player_chooses_whole_turns():
    game = sygo.Game("sygo", 7)
    state = game.new_initial_state()
    player = sygo.Player("mcts:level=1,threads=1", seed=4, visits=80)
    assert player.spec == "mcts:level=1,threads=1" and player.seed == 4
    assert player.name()
    for _ in range(6):
        turn = player.choose_turn(state)
        state.apply_turn(turn)
    assert len(state.turns()) == 6
    state.apply_action(state.legal_actions()[0])
    if state.turn_in_progress():
        with pytest.raises(sygo.IllegalMove, match="a turn is in progress"):
            player.choose_turn(state)
        # In a turn it did not start, a player ends it.
        assert player.step(state) == game.end_action


def test_the_same_seed_gives_the_same_game():
    game = sygo.Game("hexsygo", 4)
    histories = []
    for _ in range(2):
        state = game.new_initial_state()
        play_out(state, [sygo.Player("uct:visits=100", seed=5), sygo.Player("random", seed=6)])
        histories.append(state.history())
    assert histories[0] == histories[1]


def test_analyze_gives_the_protocols_fields():
    game = sygo.Game("sygo", 7)
    state = game.new_initial_state()
    for turn in ["D4", "C3", "E5"]:
        state.apply_turn(turn)
    player = sygo.Player("mcts:level=2,threads=1", seed=3)
    analysis = player.analyze(state, visits=300)
    assert set(analysis) == {
        "to_move", "game_over", "visits", "win_rate", "score_lead", "candidates",
        "dangers", "points", "ownership",
    }
    assert analysis["to_move"] == "black" and not analysis["game_over"]
    assert analysis["visits"] > 0
    assert 0.0 <= analysis["win_rate"] <= 1.0
    assert analysis["candidates"]
    for candidate in analysis["candidates"]:
        assert set(candidate) == {"turn", "visits", "win_rate", "score_lead", "pv"}
        assert candidate["pv"][0] == candidate["turn"]
        state.clone().apply_turn(candidate["turn"])  # each is a legal turn
    assert analysis["points"] == game.points()
    assert len(analysis["ownership"]) == game.num_points()
    assert all(-1.0 <= o <= 1.0 for o in analysis["ownership"])
    for danger in analysis["dangers"]:
        assert set(danger) == {"color", "stones", "liberties", "turn", "kind", "growers", "next_turn"}


def test_a_finished_game_is_not_searched():
    game = sygo.Game("sygo", 5)
    state = game.new_initial_state()
    state.apply_turn("C3")
    state.apply_turn("pass")
    state.apply_turn("pass")
    analysis = sygo.Player("mcts:level=1,threads=1").analyze(state)
    assert analysis["game_over"] and analysis["visits"] == 0
    # Black is to move after White's pass, and White owns the board.
    assert analysis["to_move"] == "black"
    assert analysis["win_rate"] == 0.0 and analysis["score_lead"] == -25.0
    assert analysis["ownership"] == [-1.0] * 25


def test_play_games_between_two_players():
    game = sygo.Game("sygo", 5)
    games = sygo.play_games(game, 4, "mcts:level=1,threads=1", "random", seed=1, visits=50,
                            threads=2, records=True)
    assert games["games"] == 4
    assert len(games["records"]) == 4
    for i, text in enumerate(games["records"]):
        state = sygo.State.from_sgf(text)
        assert state.is_terminal()
        winner = state.winner()
        assert games["winner"][i] == (-1 if winner is None else winner)
    again = sygo.play_games(game, 4, "mcts:level=1,threads=1", "random", seed=1, visits=50,
                            records=True)
    assert again["records"] == games["records"]
    with pytest.raises(sygo.PlayerSpecError):
        sygo.play_games(game, 1, "random", "nobody")
