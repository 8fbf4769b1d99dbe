"""Sygo and Hexsygo for Python, with an OpenSpiel-style API.

Sygo and Hexsygo are the Go variants by Christian Freeling in which captured
groups are reversed, not removed, and a turn either places one stone or grows
any or all of the mover's groups by one stone each. This package is the sygo
project's rules library, records and players, in Rust, behind the API of
OpenSpiel games::

    import sygo

    game = sygo.Game("sygo", 9)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns(), state.result())

- ``Game``: the board and the rules' options; ``State``: a game played one
  action (a stone, ``end``, ``pass``) or one whole turn at a time;
  ``Player``: the built-in players (``random``, ``uct``, ``mcts:level=3``).
- Bulk helpers in Rust: ``play_random_games``, ``play_games``,
  ``random_positions``; ``replay_turns`` replays whole turns by the rules.
- Errors are ``SygoError`` (a ``ValueError``) and its kinds ``IllegalMove``,
  ``ParseError``, ``RecordError``, ``PlayerSpecError``, with the rules' reason.
- ``sygo.openspiel`` registers the game with OpenSpiel when ``pyspiel`` is
  installed.

Player 0 is Black, player 1 White; White moves first. The whole API, the
observation planes and the figures are in the project's ``docs/python.md``.
"""

from __future__ import annotations

import re as _re
from typing import Any, Dict, Optional, Union

from ._sygo import (
    BLACK,
    MAX_LEVEL,
    TERMINAL,
    WHITE,
    Game,
    IllegalMove,
    ParseError,
    Player,
    PlayerSpecError,
    RecordError,
    State,
    SygoError,
    __version__,
    play_games,
    play_random_games,
    random_positions,
    replay_turns,
)

__all__ = [
    "BLACK",
    "MAX_LEVEL",
    "TERMINAL",
    "WHITE",
    "Game",
    "IllegalMove",
    "ParseError",
    "Player",
    "PlayerSpecError",
    "RecordError",
    "State",
    "SygoError",
    "__version__",
    "load_game",
    "load_sgf",
    "play_games",
    "play_random_games",
    "random_positions",
    "replay_turns",
]

_GAME_STRING = _re.compile(r"^\s*(sygo|hexsygo)\s*(?:\((.*)\))?\s*$", _re.IGNORECASE)


def _parameter(text: str) -> Union[bool, int, float, str]:
    """One parameter's value as OpenSpiel writes them: a bool, a number or text."""
    lower = text.strip().lower()
    if lower in ("true", "false"):
        return lower == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def load_game(name: str, params: Optional[Dict[str, Any]] = None) -> Game:
    """A game by name, as ``pyspiel.load_game`` takes it.

    ``load_game("sygo")``, ``load_game("hexsygo(size=5,balance_turn=false)")``,
    or ``load_game("sygo", {"size": 9, "komi": 0.5})``. The parameters are
    those of ``Game``: ``size``, ``balance_turn``, ``komi``, ``utility``.
    Raises ``SygoError`` for a name or parameter that is not one.
    """
    match = _GAME_STRING.match(name)
    if match is None:
        raise SygoError(f"{name!r} is not a game: write sygo or hexsygo, like sygo(size=9)")
    variant, inside = match.group(1).lower(), match.group(2)
    parameters: Dict[str, Any] = {}
    if inside and inside.strip():
        for item in inside.split(","):
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                raise SygoError(f"{item.strip()!r} is not a parameter: write KEY=VALUE")
            parameters[key.strip()] = _parameter(value)
    parameters.update(params or {})
    parameters.pop("variant", None)
    known = {"size", "balance_turn", "komi", "utility"}
    unknown = sorted(set(parameters) - known)
    if unknown:
        raise SygoError(
            f"{', '.join(unknown)}: not a parameter of {variant}; "
            "write size, balance_turn, komi or utility"
        )
    return Game(variant, **parameters)


def load_sgf(sgf: str, game: Optional[Game] = None) -> State:
    """A state from an SGF record (its main line played): ``State.from_sgf``."""
    return State.from_sgf(sgf, game)
