"""The actions reach every legal turn, and no line of actions dead-ends.

A growth step may leave its group without liberties for a moment, to be
rescued by a capture later in the same turn (docs/rules.md §7). Such a step is an
action when the turn can still be completed after it, and `end` waits for the
rescue. So the turns the actions make (`legal_turns()`, or a walk through
`legal_actions()`) are exactly the turns the rules accept (`apply_turn`),
which a brute force over every set of vacant points, in every order, finds
on small tight positions of both boards.
"""

from __future__ import annotations

import itertools
import random
from typing import FrozenSet, List, Optional, Set

import pytest

import sygo

#: Black A1, C2, E1; White A2, B2, C1, D2, E2, E5. Black's growth B1,D1
#: fills White C1's last two liberties; each stone alone leaves its own
#: group (A1-B1, D1-E1) without a liberty.
RACE = "sygo 5 4W/5/5/WWBWW/B1W1B b - 0"


def test_two_groups_filling_an_enemy_groups_last_liberties_is_made_by_actions():
    state = sygo.State.from_position(RACE)
    b1, d1 = state.string_to_action("B1"), state.string_to_action("D1")
    end = state.get_game().end_action
    assert b1 in state.legal_actions() and d1 in state.legal_actions()
    assert state.legal_actions_mask()[b1] == 1 and state.is_legal(b1)
    assert "B1,D1" in state.legal_turns()
    state.apply_action(b1)
    # A1-B1 has no liberty: the turn may not end before D1 rescues it.
    assert state.turn_in_progress() and state.current_player() == 0
    assert end not in state.legal_actions() and not state.is_legal(end)
    assert d1 in state.legal_actions()
    with pytest.raises(sygo.IllegalMove, match="would leave your group at B1 without liberties"):
        state.apply_action(end)
    # Every turn that completes it holds D1 (other groups may grow too).
    rest = state.legal_turns()
    assert rest[0] == "B1,D1" and all({"B1", "D1"} <= stones_of(t) for t in rest)
    state.apply_action(d1)
    assert end in state.legal_actions()
    state.apply_action(end)
    # White C1 is reversed; White moves.
    assert state.current_player() == 1 and not state.turn_in_progress()
    assert state.position() == "sygo 5 4W/5/5/WWBWW/BBBBB w g 0"
    assert state.turns() == ["B1,D1"]
    # The same turn in the other order, and as a whole turn.
    other = sygo.State.from_position(RACE)
    for action in (d1, b1, end):
        other.apply_action(action)
    assert other.position() == state.position()
    whole = sygo.State.from_position(RACE)
    whole.apply_turn("B1,D1")
    assert whole.history() == [b1, d1, end] and whole.position() == state.position()


def test_a_growth_that_no_capture_can_rescue_is_not_an_action():
    # With White on C2, White's group has the liberties of row 3 as well.
    state = sygo.State.from_position("sygo 5 4W/5/5/WWWWW/B1W1B b g 0")
    b1 = state.string_to_action("B1")
    assert b1 not in state.legal_actions() and not state.is_legal(b1)
    with pytest.raises(sygo.IllegalMove, match="B1 would leave a group without liberties"):
        state.apply_action(b1)
    with pytest.raises(sygo.IllegalMove):
        state.apply_turn("B1")
    assert not any(t.startswith("B1") or ",B1" in t for t in state.legal_turns())


# ------------------------------------------------------------------ property

#: The boards the property runs on, with the most vacant points of a
#: position and the number of positions. Each board has positions with a
#: legal turn that needs a stone left without a liberty for a moment.
BOARDS = [("sygo", 4, 6, 150), ("sygo", 5, 6, 150), ("hexsygo", 3, 6, 400), ("hexsygo", 5, 6, 150)]


def row_lengths(variant: str, size: int) -> List[int]:
    """The lengths of the rows of a position string, top row first."""
    if variant == "sygo":
        return [size] * size
    half = list(range(size, 2 * size - 1))
    return half + [2 * size - 1] + half[::-1]


def random_position(rng: random.Random, variant: str, size: int, vacant: int) -> Optional[str]:
    """A tight random position with `vacant` vacant points, or None when
    it leaves a group without a liberty."""
    lengths = row_lengths(variant, size)
    cells = ["B" if rng.random() < 0.5 else "W" for _ in range(sum(lengths))]
    for i in rng.sample(range(len(cells)), vacant):
        cells[i] = "."
    rows = []
    at = 0
    for length in lengths:
        text = ""
        run = 0
        for cell in cells[at : at + length]:
            if cell == ".":
                run += 1
                continue
            if run:
                text += str(run)
                run = 0
            text += cell
        if run:
            text += str(run)
        rows.append(text)
        at += length
    side = rng.choice("bw")
    growth = "-" if rng.random() < 1 / 3 else "g"
    return f"{variant} {size} {'/'.join(rows)} {side} {growth} 0"


def stones_of(turn: str) -> FrozenSet[str]:
    return frozenset(turn.split(","))


def accepted_turns(state: sygo.State) -> Set[FrozenSet[str]]:
    """Every turn the rules accept, by brute force: every set of vacant
    points, tried in every order with `apply_turn` until one is accepted."""
    vacant = vacant_points(state)
    turns: Set[FrozenSet[str]] = set()
    scratch = state.clone()
    for k in range(1, len(vacant) + 1):
        for subset in itertools.combinations(vacant, k):
            for order in itertools.permutations(subset):
                try:
                    scratch.apply_turn(",".join(order))
                except sygo.IllegalMove:
                    continue
                turns.add(frozenset(subset))
                scratch = state.clone()
                break
    return turns


def vacant_points(state: sygo.State) -> List[str]:
    """The vacant points, read from the position string."""
    variant, size, board = state.position().split()[:3]
    lengths = row_lengths(variant, int(size))
    cells: List[str] = []
    for row in board.split("/"):
        number = ""
        for ch in row:
            if ch.isdigit():
                number += ch
                continue
            if number:
                cells += ["."] * int(number)
                number = ""
            cells.append(ch)
        if number:
            cells += ["."] * int(number)
    # Actions number the points row by row from row 1 (the bottom row),
    # each row from the left: the position string's rows reversed.
    rows = []
    at = 0
    for length in lengths:
        rows.append(cells[at : at + length])
        at += length
    flat = [c for row in reversed(rows) for c in row]
    return [state.action_to_string(a) for a, c in enumerate(flat) if c == "."]


def walked_turns(state: sygo.State) -> Set[FrozenSet[str]]:
    """Every turn a walk through `legal_actions()` makes, checking on the
    way that no state with a turn in progress is a dead end, that `end` is
    offered exactly where the turn may end, and that `is_legal` agrees."""
    game = state.get_game()
    mover = state.current_player()
    turns: Set[FrozenSet[str]] = set()
    seen = set()
    stack = [state]
    while stack:
        here = stack.pop()
        actions = here.legal_actions()
        if here.turn_in_progress():
            assert actions, f"a dead end after {here.turn_stones()} in {state.position()}"
        for a in range(game.num_distinct_actions()):
            assert here.is_legal(a) == (a in actions), (a, here.turn_stones(), state.position())
        for a in actions:
            if a == game.pass_action:
                continue
            nxt = here.clone()
            nxt.apply_action(a)
            if a == game.end_action or nxt.current_player() != mover:
                turns.add(frozenset(nxt.turns()[-1].split(",")))
                continue
            key = tuple(sorted(nxt.turn_stones()))
            if key not in seen:
                seen.add(key)
                stack.append(nxt)
    return turns


@pytest.mark.parametrize("variant,size,vacant,count", BOARDS, ids=lambda v: str(v))
def test_the_actions_make_exactly_the_turns_the_rules_accept(variant, size, vacant, count):
    rng = random.Random(f"{variant}{size}")
    positions = 0
    for _ in range(1000 * count):
        if positions >= count:
            break
        text = random_position(rng, variant, size, rng.randint(2, vacant))
        try:
            state = sygo.State.from_position(text)
        except sygo.ParseError:
            continue
        if state.is_terminal():
            continue
        positions += 1
        accepted = accepted_turns(state)
        listed = state.legal_turns()
        assert listed[0] == "pass"
        listed_sets = [stones_of(t) for t in listed[1:]]
        assert set(listed_sets) == accepted, text
        assert walked_turns(state) == accepted, text
    assert positions == count, positions
