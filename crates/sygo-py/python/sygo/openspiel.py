"""Sygo and Hexsygo as an OpenSpiel game (``pyspiel``), registered on import.

Importing this module registers the game ``"sygo"`` with OpenSpiel, so that
every OpenSpiel algorithm and tool can load it by name::

    import pyspiel
    import sygo.openspiel  # registers "sygo"

    game = pyspiel.load_game("sygo(variant=hexsygo,size=5)")
    state = game.new_initial_state()

The parameters are those of ``sygo.Game``: ``variant`` (``sygo`` or
``hexsygo``), ``size`` (0: the variant's default, 19 or 10),
``balance_turn``, ``komi`` and ``utility`` (``win`` or ``score``). The
actions, players, returns and observation planes are ``sygo.State``'s
(player 0 is Black, player 1 White, White moves first). The observation
tensor is flat, as OpenSpiel's are: ``sygo.State.observation_tensor()``
raveled, its shape ``Game.observation_tensor_shape()``.

Limits: it is a Python game of OpenSpiel, so OpenSpiel's C++ algorithms call
back into Python for every state (the rules themselves run in Rust);
resigning is not an action; chance, serialization of states by
``pyspiel.serialize_game_and_state`` beyond the action history, and the
struct API are not provided. Raises ``ImportError`` when OpenSpiel is not
installed (``pip install open_spiel``).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np

try:
    import pyspiel
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "sygo.openspiel needs OpenSpiel: pip install open_spiel "
        "(sygo itself works without it)"
    ) from error

import sygo

#: The parameters of the game and their defaults (size 0: the variant's own).
DEFAULT_PARAMETERS: Dict[str, Any] = {
    "variant": "sygo",
    "size": 0,
    "balance_turn": True,
    "komi": 0.0,
    "utility": "win",
}

GAME_TYPE = pyspiel.GameType(
    short_name="sygo",
    long_name="Sygo and Hexsygo",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMETERS,
)


def _sygo_game(params: Dict[str, Any]) -> sygo.Game:
    """The ``sygo.Game`` of OpenSpiel parameters."""
    full = dict(DEFAULT_PARAMETERS)
    full.update(params or {})
    return sygo.Game(
        str(full["variant"]),
        int(full["size"]) or None,
        bool(full["balance_turn"]),
        float(full["komi"]),
        str(full["utility"]),
    )


class SygoGame(pyspiel.Game):
    """The OpenSpiel game around a ``sygo.Game``."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        full = dict(DEFAULT_PARAMETERS)
        full.update(params or {})
        self.sygo_game = _sygo_game(full)
        g = self.sygo_game
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_distinct_actions(),
            max_chance_outcomes=0,
            num_players=2,
            min_utility=g.min_utility(),
            max_utility=g.max_utility(),
            utility_sum=0.0,
            max_game_length=g.max_game_length(),
        )
        super().__init__(GAME_TYPE, info, full)

    def new_initial_state(self) -> "SygoState":
        """The empty board, White (player 1) to move."""
        return SygoState(self, self.sygo_game.new_initial_state())

    def make_py_observer(self, iig_obs_type=None, params=None) -> "SygoObserver":
        """The observer of the board planes (perfect information: one view)."""
        return SygoObserver(self.sygo_game, params)

    def observation_tensor_shape(self) -> List[int]:
        return self.sygo_game.observation_tensor_shape()

    def observation_tensor_size(self) -> int:
        return self.sygo_game.observation_tensor_size()


class SygoState(pyspiel.State):
    """The OpenSpiel state around a ``sygo.State`` (``sygo_state``)."""

    def __init__(self, game: SygoGame, state: "sygo.State") -> None:
        super().__init__(game)
        self.sygo_state = state

    def current_player(self) -> int:
        player = self.sygo_state.current_player()
        return int(pyspiel.PlayerId.TERMINAL) if player == sygo.TERMINAL else player

    def _legal_actions(self, player: int) -> List[int]:
        return self.sygo_state.legal_actions(player)

    def _apply_action(self, action: int) -> None:
        self.sygo_state.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.sygo_state.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.sygo_state.is_terminal()

    def returns(self) -> List[float]:
        return self.sygo_state.returns()

    def rewards(self) -> List[float]:
        return self.sygo_state.rewards()

    def __str__(self) -> str:
        return str(self.sygo_state)

    def __deepcopy__(self, memo):
        return SygoState(self.get_game(), self.sygo_state.clone())


class SygoObserver:
    """An OpenSpiel observer: ``tensor`` (flat) and ``dict`` (its planes)."""

    def __init__(self, game: "sygo.Game", params=None) -> None:
        if params:
            raise ValueError(f"sygo's observer takes no parameters, not {params}")
        shape = tuple(game.observation_tensor_shape())
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: SygoState, player: int) -> None:
        self.tensor[:] = state.sygo_state.observation_tensor(player).ravel()

    def string_from(self, state: SygoState, player: int) -> str:
        return str(state.sygo_state)


def _register() -> None:
    """Registers ``"sygo"`` unless OpenSpiel already knows it."""
    if "sygo" not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, SygoGame)


_register()
