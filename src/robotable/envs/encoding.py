"""Fixed-size encodings of a game's actions and of a seat's view, shared by every adapter.

Each game should implement the research hooks on `Game` (`num_distinct_actions`,
`action_index`, `observation_size`, `encode_observation`); `Encoding` uses them and checks what
they return. A game that lacks a hook still plugs in through a documented generic fallback:

* actions: the index of an action is its position in the legal-action list sorted by the
  action's canonical JSON, bounded by `FALLBACK_NUM_ACTIONS`. The index then means "the k-th
  legal choice" rather than a fixed move, which is enough for masks, search and tabular methods
  but a poor input for a network that generalises across positions.
* observations: a feature-hashed flattening of `view(seat)` into `FALLBACK_OBSERVATION_SIZE`
  floats: every number or boolean leaf adds its value to the bucket of its key path, every
  string leaf adds 1 to the bucket of "path=value". Only the view is read, so nothing leaks.

`robotable.envs.describe(game)` reports which way each game is encoded.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.errors import RobotableError
from ..core.protocol import Action, Game, State
from .rows import write_mask, write_observation

FALLBACK_NUM_ACTIONS = 256
FALLBACK_OBSERVATION_SIZE = 512

# View keys that the mask or the adapters already carry, or that are prose for people.
_SKIPPED_VIEW_KEYS = frozenset({"legal_actions", "prompt", "game", "returns"})


def canonical_action_key(action: Action) -> str:
    """The sort key of the fallback action order: the action's JSON with sorted keys."""
    return json.dumps(action.to_json(), sort_keys=True, separators=(",", ":"))


@dataclass(slots=True)
class EncodingInfo:
    """What `describe` reports for one configured game."""

    game: str
    num_players: int
    num_actions: int
    observation_size: int
    actions_from_game: bool
    observation_from_game: bool


class Encoding:
    """Action indices, legal masks and observation arrays of one configured game."""

    __slots__ = ("game", "num_actions", "observation_size", "actions_from_game", "obs_from_game")

    def __init__(self, game: Game) -> None:
        self.game = game
        try:
            self.num_actions = int(game.num_distinct_actions())
            self.actions_from_game = True
        except NotImplementedError:
            self.num_actions = FALLBACK_NUM_ACTIONS
            self.actions_from_game = False
        try:
            self.observation_size = int(game.observation_size())
            self.obs_from_game = True
        except NotImplementedError:
            self.observation_size = FALLBACK_OBSERVATION_SIZE
            self.obs_from_game = False
        if self.num_actions <= 0 or self.observation_size <= 0:
            raise RobotableError(
                f"game {game.name}: num_distinct_actions() and observation_size() must be "
                f"positive, got {self.num_actions} and {self.observation_size}"
            )

    # -- actions --------------------------------------------------------------------------------
    def legal_by_index(self, state: State, ordered: bool = True) -> dict[int, Action]:
        """Index -> action for every legal action of `state`, in increasing index order (in the
        game's order with `ordered=False`, for callers that only look actions up)."""
        legal = state.legal_actions()
        if self.actions_from_game:
            index_of = self.game.action_index
            table = {}
            for action in legal:
                index = index_of(action)
                if not 0 <= index < self.num_actions:
                    raise RobotableError(
                        f"game {self.game.name}: action_index('{action}') = {index} is outside "
                        f"[0, {self.num_actions})"
                    )
                if index in table:
                    raise RobotableError(
                        f"game {self.game.name}: legal actions '{table[index]}' and '{action}' "
                        f"share action index {index}"
                    )
                table[index] = action
            return dict(sorted(table.items())) if ordered else table
        if len(legal) > self.num_actions:
            raise RobotableError(
                f"game {self.game.name}: {len(legal)} legal actions exceed the fallback bound "
                f"of {self.num_actions}; the game should implement action_index()"
            )
        return dict(enumerate(sorted(legal, key=canonical_action_key)))

    def mask(self, legal: dict[int, Action]) -> np.ndarray:
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if legal:
            mask[list(legal)] = 1
        return mask

    def mask_into(self, legal: dict[int, Action], out: np.ndarray, row: int) -> None:
        """Write `mask(legal)` into row `row` of the int8 array `out` (compiled: a C loop)."""
        write_mask(out, row, list(legal))

    # -- observations ---------------------------------------------------------------------------
    def observe_into(self, view: dict[str, Any], out: np.ndarray, row: int) -> None:
        """Write `observe(view)` into row `row` of the float32 array `out`, the same bytes, with
        no array in between when the game encodes (compiled: a C loop, envs/rows.py)."""
        if not self.obs_from_game:
            out[row] = self.observe(view)
            return
        self._write_values(self.game.encode_observation(view), out, row, "encode_observation")

    def observe_state(self, state: State, seat: int | None) -> np.ndarray:
        """`observe(state.observation_view(seat))`, by the game's `encode_state` (which may read
        the state directly): what every adapter encodes."""
        if not self.obs_from_game:
            return self.observe(state.observation_view(seat))
        return self._array(self.game.encode_state(state, seat), "encode_state")

    def observe_state_into(self, state: State, seat: int | None, out: np.ndarray, row: int) -> None:
        """`observe_state(state, seat)` written into row `row` of `out` in place."""
        if not self.obs_from_game:
            out[row] = self.observe(state.observation_view(seat))
            return
        self._write_values(self.game.encode_state(state, seat), out, row, "encode_state")

    def _array(self, values: Any, hook: str) -> np.ndarray:
        array = np.asarray(values, dtype=np.float32)
        if array.shape != (self.observation_size,):
            raise RobotableError(
                f"game {self.game.name}: {hook}() returned shape {array.shape}, "
                f"expected ({self.observation_size},)"
            )
        return array

    def _write_values(self, values: Any, out: np.ndarray, row: int, hook: str) -> None:
        if type(values) is not list:
            values = list(values)
        if len(values) != self.observation_size:
            raise RobotableError(
                f"game {self.game.name}: {hook}() returned {len(values)} numbers, "
                f"expected {self.observation_size}"
            )
        write_observation(out, row, values)

    def observe(self, view: dict[str, Any]) -> np.ndarray:
        """The flat float32 observation of a view (`observation_size` numbers)."""
        if self.obs_from_game:
            return self._array(self.game.encode_observation(view), "encode_observation")
        array = np.zeros(self.observation_size, dtype=np.float32)
        _hash_into(array, "", {k: v for k, v in view.items() if k not in _SKIPPED_VIEW_KEYS})
        return array

    def info(self) -> EncodingInfo:
        return EncodingInfo(
            self.game.name,
            self.game.num_players,
            self.num_actions,
            self.observation_size,
            self.actions_from_game,
            self.obs_from_game,
        )


def _bucket(text: str, size: int) -> int:
    # crc32, not hash(): Python's string hash changes per process and would break reproducibility.
    return zlib.crc32(text.encode()) % size


def _hash_into(array: np.ndarray, path: str, value: Any) -> None:
    size = array.shape[0]
    if isinstance(value, dict):
        for key, item in value.items():
            _hash_into(array, f"{path}.{key}", item)
    elif isinstance(value, list | tuple):
        array[_bucket(path + "#len", size)] += len(value)
        for i, item in enumerate(value):
            _hash_into(array, f"{path}[{i}]", item)
    elif isinstance(value, bool):
        array[_bucket(path, size)] += 1.0 if value else 0.0
    elif isinstance(value, int | float):
        array[_bucket(path, size)] += float(value)
    elif isinstance(value, str):
        array[_bucket(f"{path}={value}", size)] += 1.0
    # None carries no information.
