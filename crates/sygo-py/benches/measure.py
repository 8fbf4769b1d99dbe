"""The Python package's figures (docs/python.md, "Figures").

    python crates/sygo-py/benches/measure.py [--sygo PATH] [--repeat N]

1. The cost of one ``State.apply_action`` call seen from Python: a whole
   random game's actions replayed on a clone of the empty board, timed with
   ``timeit`` (best of ``--repeat``), less the clone; beside it, a call that
   does nothing in Rust (``current_player``) and a plain Python loop, for
   scale.
2. The bulk random games (``sygo.play_random_games``) in steps per second,
   the call timed from Python, against ``sygo bench`` on the same games
   (``--sygo``: the binary), run alternately, best of ``--repeat``.

Build the package with ``maturin build --release`` (or ``pip install
./crates/sygo-py``) and the binary with ``cargo build --release`` first: the
figures are for optimised builds.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import time
import timeit

import sygo


def a_random_game(game: sygo.Game, seed: int):
    state = game.new_initial_state()
    rng = random.Random(seed)
    actions = []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        actions.append(action)
        state.apply_action(action)
    return actions


def apply_action_cost(game: sygo.Game, repeat: int) -> None:
    actions = [a for seed in range(5) for a in a_random_game(game, seed)]
    games = [a_random_game(game, seed) for seed in range(5)]
    start = game.new_initial_state()
    n = sum(len(g) for g in games)

    def replay():
        for actions in games:
            state = start.clone()
            apply = state.apply_action
            for action in actions:
                apply(action)

    def clones():
        for _ in games:
            start.clone()

    def no_op_calls():
        call = start.current_player
        for _ in actions:
            call()

    def loop_only():
        for action in actions:
            pass

    best = {name: min(timeit.repeat(f, number=20, repeat=repeat)) / 20
            for name, f in [("replay", replay), ("clones", clones),
                            ("no_op", no_op_calls), ("loop", loop_only)]}
    per_call = (best["replay"] - best["clones"]) / n
    print(f"{game}: {n} actions in 5 random games")
    print(f"  apply_action: {per_call * 1e9:.0f} ns per call (the step in Rust included)")
    print(f"  current_player: {best['no_op'] / n * 1e9:.0f} ns per call; "
          f"the bare loop {best['loop'] / n * 1e9:.0f} ns per item")
    print(f"  clone: {best['clones'] / len(games) * 1e9:.0f} ns")
    state = start.clone()
    for action in games[0][: len(games[0]) // 2]:
        state.apply_action(action)
    t = min(timeit.repeat(state.legal_actions, number=2000, repeat=repeat)) / 2000
    o = min(timeit.repeat(state.observation_tensor, number=2000, repeat=repeat)) / 2000
    print(f"  mid-game: legal_actions {t * 1e6:.2f} µs, observation_tensor {o * 1e6:.2f} µs")


def bulk_against_bench(variant: str, size: int, games: int, sygo_bin: str, repeat: int) -> None:
    game = sygo.Game(variant, size)
    python, rust = [], []
    for _ in range(repeat):
        t = time.perf_counter()
        result = sygo.play_random_games(game, games, seed=1)
        python.append(result["steps"] / (time.perf_counter() - t))
        if sygo_bin:
            out = subprocess.run(
                [sygo_bin, "bench", "--variant", variant, "--size", str(size),
                 "--games", str(games), "--seed", "1"],
                check=True, capture_output=True, text=True,
            ).stdout.strip().splitlines()[-1]
            fields = dict(item.split("=") for item in out.split())
            assert int(fields["steps"]) == result["steps"], "not the same games"
            rust.append(float(fields["steps_per_second"]))
    line = f"{game}: play_random_games({games}) best {max(python) / 1e6:.2f} M steps/s"
    if rust:
        line += (f"; sygo bench best {max(rust) / 1e6:.2f} M steps/s"
                 f" ({max(python) / max(rust):.0%})")
    print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sygo", default="", help="the sygo binary, for sygo bench")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    for variant, size in [("sygo", 9), ("sygo", 19), ("hexsygo", 10)]:
        apply_action_cost(sygo.Game(variant, size), args.repeat)
    for variant, size in [("sygo", 19), ("hexsygo", 10), ("sygo", 9)]:
        bulk_against_bench(variant, size, 2000, args.sygo, args.repeat)


if __name__ == "__main__":
    main()
