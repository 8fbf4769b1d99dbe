"""Replays the Rust random player's games through ``State.apply_action``, for
instruction counts (docs/python.md, "Figures"):

    valgrind --tool=callgrind python crates/sygo-py/benches/replay.py sygo 19
    callgrind_annotate --inclusive=yes callgrind.out.* | grep -E 'pymethod_apply_action|Core::apply_action'

Five games (``play_random_games``, seed 1) turned into actions, then each
replayed four times on a clone of the empty board.
"""

import sys

import sygo

variant, size = sys.argv[1], int(sys.argv[2])
game = sygo.Game(variant, size)
games = []
for turns in sygo.play_random_games(game, 5, seed=1, turns=True)["turn_lists"]:
    state = game.new_initial_state()
    for turn in turns:
        state.apply_turn(turn)
    games.append(state.history())
start = game.new_initial_state()
for _ in range(4):
    for actions in games:
        state = start.clone()
        apply = state.apply_action
        for action in actions:
            apply(action)
print(sum(map(len, games)) * 4, "calls")
