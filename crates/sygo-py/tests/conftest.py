"""Shared helpers of the Python tests of the sygo package.

The tests run against the package as installed (scripts/test-python.sh builds
it into a fresh virtual environment). Files of the repository they read
(the example records) are found from this file's place.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

import sygo

#: The repository's root (crates/sygo-py/tests/ is three levels down).
REPOSITORY = Path(__file__).resolve().parents[3]

#: Boards every agreement test runs on: both variants, small and mid-sized.
BOARDS: List[Tuple[str, int]] = [("sygo", 5), ("sygo", 9), ("hexsygo", 3), ("hexsygo", 5)]


def board_id(board: Tuple[str, int]) -> str:
    return f"{board[0]}{board[1]}"


@pytest.fixture(params=BOARDS, ids=board_id)
def game(request) -> sygo.Game:
    variant, size = request.param
    return sygo.Game(variant, size)


def play_random_actions(state: sygo.State, rng: random.Random, limit: int = 100_000) -> List[str]:
    """Plays uniformly random legal actions to the end; returns the whole
    turns played as written, built here from the actions' names alone."""
    turns: List[str] = []
    stones: List[str] = []
    for _ in range(limit):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        assert actions == sorted(actions)
        assert len(set(actions)) == len(actions)
        action = rng.choice(actions)
        name = state.action_to_string(action)
        mover = state.current_player()
        state.apply_action(action)
        if name == "pass":
            turns.append("pass")
        elif name == "end":
            turns.append(",".join(stones))
            stones = []
        else:
            stones.append(name)
            if state.current_player() != mover or not state.turn_in_progress():
                # A placement ends its turn by itself.
                turns.append(",".join(stones))
                stones = []
    assert state.is_terminal()
    return turns


def parse_position_string(text: str) -> Dict[Tuple[int, int], str]:
    """The stones of a position string, read here in Python from its
    grammar (docs/position-string.md): {(row, column): "B" or "W" or "."},
    0-based, row 0 at the bottom, for every point of the board."""
    fields = text.split()
    variant, size, board = fields[0].lower(), int(fields[1]), fields[2]
    rows = board.split("/")
    side = size if variant == "sygo" else 2 * size - 1
    assert len(rows) == side
    points: Dict[Tuple[int, int], str] = {}
    for top_index, row_text in enumerate(rows):
        r = side - 1 - top_index
        if variant == "sygo":
            columns = list(range(side))
        else:
            columns = [c for c in range(side) if abs(c - r) <= size - 1]
        cells: List[str] = []
        number = ""
        for ch in row_text + "$":
            if ch.isdigit():
                number += ch
                continue
            if number:
                cells.extend("." * int(number))
                number = ""
            if ch in "BW":
                cells.append(ch)
        assert len(cells) == len(columns), (row_text, columns)
        for c, cell in zip(columns, cells):
            points[(r, c)] = cell
    return points
