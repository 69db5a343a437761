"""Every robotable game as an OpenSpiel Python game, `python_robotable_<name>`.

    import pyspiel
    import robotable.envs.openspiel  # registers python_robotable_stakbots, ...
    game = pyspiel.load_game("python_robotable_stakbots", {"players": 3, "seed": 7})
    state = game.new_initial_state()

Game parameters: `players` (0 = the game's minimum), `seed` (master seed: the k-th call of
`new_initial_state()` on one game object deals with `derive_seed(seed, k)`), `options` (the
robotable options as "name=value;name=value", e.g. "stak_size=9") and `max_game_length`
(0 = the adapter's default of 5000 decisions; a game still running then ends as a draw, which
no bundled game comes near under random play).

How robotable maps onto OpenSpiel's model (docs/rl.md has the full story):

* Chance. robotable keeps chance inside the state's own RNG, so the game is declared
  SAMPLED_STOCHASTIC: there are no chance nodes, `new_initial_state()` draws a fresh seed, and
  every random event happens inside `apply_action`. Serialization carries the RNG state, so a
  deserialized state continues exactly as the original would.
* Imperfect information. Observation string = canonical JSON of `view(seat)` (without its
  `legal_actions` list, which the state API gives); observation tensor = the game's
  `encode_observation(view)`. Information-state string = the observation string plus a digest of
  everything the seat has seen so far (its visible events step by step and its own choices),
  which makes the string perfect-recall; the information-state tensor is the observation
  tensor (a fixed-size tensor cannot hold an unbounded history). Public observer (no private
  info) = the spectator view `view(None)`; the all-players observer = the full state.
* `resample_from_infostate(player, sampler)` is `determinize(player, rng)` with `rng` seeded
  from `sampler()`: it returns a state whose information state for `player` is identical. The
  other seats' recall in the sample restarts at the resampling point (their past observations
  in the sampled world are not reconstructed).
* Actions are the game's `action_index` (robotable.envs.encoding); legal actions are sorted.
* Utilities are `returns()`: 1 for a win, 0 for a loss, shared on a draw (GENERAL_SUM because a
  team game can have several winners).
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import pyspiel

from ..core.protocol import Game
from ..core.registry import game_class, game_names, load_game
from ..core.rng import derive_seed
from .encoding import Encoding

DEFAULT_MAX_GAME_LENGTH = 5000
_PREFIX = "python_robotable_"
_RESAMPLED = b"resampled"
_ROOT = b""


def spiel_name(game_name: str) -> str:
    return _PREFIX + game_name


def parse_options(text: str) -> dict[str, str]:
    """'stak_size=9;mode=short' -> {'stak_size': '9', 'mode': 'short'} (robotable coerces)."""
    options = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"OpenSpiel parameter options: expected name=value, got {part!r}")
        options[key.strip()] = value.strip()
    return options


# -- shared per configured game -----------------------------------------------------------------
@dataclass(slots=True, eq=False)
class _Adapter:
    game: Game
    encoding: Encoding
    max_length: int
    key: tuple

    def view_json(self, view: dict[str, Any]) -> str:
        return json.dumps(
            {k: v for k, v in view.items() if k != "legal_actions"},
            sort_keys=True,
            separators=(",", ":"),
        )


@cache
def _adapter(name: str, players: int, options_text: str, max_length: int) -> _Adapter:
    game = load_game(name, num_players=players, **parse_options(options_text))
    return _Adapter(game, Encoding(game), max_length, (name, players, options_text, max_length))


# -- what a seat has seen: a persistent chain of steps shared by clones --------------------------
def _visible(events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """`visible_events`, tolerant of a game whose event uses "to" for something other than the
    list of recipients (a destination square): only a list or tuple there marks a secret."""
    return [e for e in events if not isinstance(e.get("to"), list | tuple) or seat in e["to"]]


class _Step:
    __slots__ = ("parent", "events", "actor", "index", "digests")

    def __init__(self, parent, events, actor, index, digests=None) -> None:
        self.parent = parent
        self.events = events
        self.actor = actor
        self.index = index
        self.digests = digests  # per seat, filled lazily

    @staticmethod
    def root(digests: list[bytes]) -> _Step:
        return _Step(None, (), -1, -1, list(digests))

    def digest(self, seat: int, num_players: int) -> bytes:
        chain = []
        node = self
        while node.digests is None or node.digests[seat] is None:
            chain.append(node)
            node = node.parent
        value = node.digests[seat]
        for node in reversed(chain):
            h = hashlib.blake2b(value, digest_size=12)
            seen = _visible(node.events, seat)
            h.update(json.dumps(seen, sort_keys=True, separators=(",", ":"), default=str).encode())
            if node.actor == seat:
                h.update(b"|chose %d" % node.index)
            value = h.digest()
            if node.digests is None:
                node.digests = [None] * num_players
            node.digests[seat] = value
        return value


class _Box:
    """Everything a wrapped state holds, in one attribute: OpenSpiel's Clone() deep-copies each
    attribute of a Python state, and this one copies itself with the game's hand-written clone()."""

    __slots__ = ("adapter", "inner", "moves", "recall", "legal", "strings", "source")

    def __init__(self, adapter, inner, moves, recall, source=None) -> None:
        self.adapter = adapter
        self.inner = inner
        self.moves = moves
        self.recall = recall
        self.legal = None
        # Observation / information-state strings of this position, by (observer kind, player):
        # IS-MCTS asks for the same key several times per tree node. Replaced, never mutated
        # after a move, so a clone may share it.
        self.strings: dict | None = None
        self.source = source  # the OpenSpiel game that deals the seed, until dealt

    def ready(self) -> _Box:
        # Dealing is lazy so that OpenSpiel's Clone(), which builds a fresh initial state only to
        # overwrite it, neither deals a game nor consumes a seed.
        if self.inner is None:
            self.inner = self.adapter.game.new_initial_state(seed=self.source._next_seed())
            self.source = None
        return self

    def legal_table(self):
        if self.legal is None:
            self.legal = self.adapter.encoding.legal_by_index(self.inner)
        return self.legal

    def is_terminal(self) -> bool:
        return self.inner.is_terminal() or self.moves >= self.adapter.max_length

    def __deepcopy__(self, memo) -> _Box:
        self.ready()
        twin = _Box(self.adapter, self.inner.clone(), self.moves, self.recall)
        twin.legal = self.legal
        twin.strings = self.strings
        return twin

    def __getstate__(self) -> dict[str, Any]:
        self.ready()
        n = self.adapter.game.num_players
        return {
            "adapter": self.adapter.key,
            "state": self.inner.to_json(),
            "moves": self.moves,
            "recall": [self.recall.digest(p, n) for p in range(n)],
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.adapter = _adapter(*data["adapter"])
        self.inner = self.adapter.game.state_from_json(data["state"])
        self.moves = data["moves"]
        self.recall = _Step.root(data["recall"])
        self.legal = None
        self.strings = None
        self.source = None


# -- the OpenSpiel classes ----------------------------------------------------------------------
class RobotableSpielState(pyspiel.State):
    """A robotable state seen through OpenSpiel's State API."""

    def __init__(self, game: RobotableSpielGame) -> None:
        super().__init__(game)
        self._box = _Box(game.adapter, None, 0, _Step.root([_ROOT] * game.num_players()), game)

    @property
    def robotable_state(self):
        """The wrapped robotable State (read it, do not apply actions to it directly)."""
        return self._box.ready().inner

    def current_player(self) -> int:
        box = self._box.ready()
        if box.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return box.inner.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        box = self._box.ready()
        if box.is_terminal() or player != box.inner.current_player():
            return []
        return list(box.legal_table())

    def _apply_action(self, action: int) -> None:
        box = self._box.ready()
        table = box.legal_table()
        chosen = table.get(action)
        if chosen is None:
            raise ValueError(
                f"{spiel_name(box.adapter.game.name)}: action {action} is not legal "
                f"(legal: {sorted(table)})"
            )
        actor = box.inner.current_player()
        events = box.inner.apply_action(chosen)
        box.recall = _Step(box.recall, events, actor, action)
        box.moves += 1
        box.legal = None
        box.strings = None

    def _action_to_string(self, player: int, action: int) -> str:
        box = self._box.ready()
        if not box.is_terminal() and player == box.inner.current_player():
            chosen = box.legal_table().get(action)
            if chosen is not None:
                return str(chosen)
        return f"action {action}"

    def is_terminal(self) -> bool:
        return self._box.ready().is_terminal()

    def returns(self) -> list[float]:
        box = self._box.ready()
        n = box.adapter.game.num_players
        if box.inner.is_terminal():
            return [float(r) for r in box.inner.returns()]
        if box.moves >= box.adapter.max_length:
            return [1.0 / n] * n  # cut at max_game_length: a draw
        return [0.0] * n

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> RobotableSpielState:
        """A state `player_id` cannot tell from this one, hidden information resampled."""
        box = self._box.ready()
        n = box.adapter.game.num_players
        rng = random.Random(int(probability_sampler() * 2**53))
        twin = self.get_game().new_initial_state()
        twin._box = _Box(
            box.adapter,
            box.inner.determinize(player_id, rng),
            box.moves,
            _Step.root(
                [box.recall.digest(p, n) if p == player_id else _RESAMPLED for p in range(n)]
            ),
        )
        return twin

    def __str__(self) -> str:
        # The full state, exactly: OpenSpiel compares clones and deserialized states by it.
        return json.dumps(self._box.ready().inner.to_json(), sort_keys=True, separators=(",", ":"))


class _Observer:
    """OpenSpiel's PyObserver contract: `tensor`, `dict`, `set_from`, `string_from`."""

    def __init__(self, adapter: _Adapter, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"robotable observers take no parameters, got {params}")
        self.adapter = adapter
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        self.private = iig_obs_type.private_info
        self.recall = iig_obs_type.perfect_recall
        size = adapter.encoding.observation_size
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            size *= adapter.game.num_players
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def _seat(self, player: int) -> int | None:
        return None if self.private == pyspiel.PrivateInfoType.NONE else player

    def set_from(self, state: RobotableSpielState, player: int) -> None:
        inner = state._box.ready().inner
        encoding = self.adapter.encoding
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            size = encoding.observation_size
            for seat in range(self.adapter.game.num_players):
                self.tensor[seat * size : (seat + 1) * size] = encoding.observe_state(inner, seat)
        else:
            self.tensor[:] = encoding.observe_state(inner, self._seat(player))

    def string_from(self, state: RobotableSpielState, player: int) -> str:
        box = state._box.ready()
        key = (self.private, self.recall, player)
        if box.strings is None:
            box.strings = {}
        elif key in box.strings:
            return box.strings[key]
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            text = json.dumps(box.inner.to_json(), sort_keys=True, separators=(",", ":"))
        else:
            seat = self._seat(player)
            text = self.adapter.view_json(box.inner.view(seat))
            if self.recall and seat is not None:
                digest = box.recall.digest(seat, self.adapter.game.num_players)
                text += f"\nrecall {digest.hex()}"
        box.strings[key] = text
        return text


class RobotableSpielGame(pyspiel.Game):
    """A configured robotable game as an OpenSpiel game."""

    robotable_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        cls = game_class(self.robotable_name)
        players = int(params.get("players", 0)) or cls.usual_players()
        max_length = int(params.get("max_game_length", 0)) or DEFAULT_MAX_GAME_LENGTH
        options_text = str(params.get("options", ""))
        self.adapter = _adapter(self.robotable_name, players, options_text, max_length)
        self._seed = int(params.get("seed", 0))
        self._dealt = 0
        info = pyspiel.GameInfo(
            num_distinct_actions=self.adapter.encoding.num_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            max_game_length=max_length,
        )
        super().__init__(_game_type(self.robotable_name), info, params)

    def _next_seed(self) -> int:
        seed = derive_seed(self._seed, self._dealt)
        self._dealt += 1
        return seed

    def new_initial_state(self, *args: Any) -> RobotableSpielState:
        if args:
            raise ValueError(f"{spiel_name(self.robotable_name)}: no initial-state variants")
        return RobotableSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self.adapter, iig_obs_type, params)


@cache
def _game_type(name: str) -> pyspiel.GameType:
    cls = game_class(name)
    return pyspiel.GameType(
        short_name=spiel_name(name),
        long_name=f"robotable {cls.title or name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 0, "seed": 0, "options": "", "max_game_length": 0},
    )


_registered: set[str] = set()
# Games whose package failed to import, with the error: one broken game must not hide the others.
registration_errors: dict[str, str] = {}


def register_games() -> list[str]:
    """Register every importable robotable game with OpenSpiel (call again after
    `register_game` adds one); returns the OpenSpiel names registered so far."""
    for name in game_names():
        if name in _registered:
            continue
        try:
            game_type = _game_type(name)
        except Exception as exc:  # an unimportable game package: report it, register the rest
            registration_errors[name] = f"{type(exc).__name__}: {exc}"
            continue
        game_cls = type(
            f"RobotableSpielGame_{name}", (RobotableSpielGame,), {"robotable_name": name}
        )
        pyspiel.register_game(game_type, game_cls)
        _registered.add(name)
        registration_errors.pop(name, None)
    return [spiel_name(name) for name in sorted(_registered)]


def load(game_name: str, num_players: int | None = None, seed: int = 0, **options: Any):
    """`pyspiel.load_game` for a robotable game, with robotable's own arguments."""
    register_games()
    if game_name in registration_errors:
        raise ImportError(f"game {game_name} could not be loaded: {registration_errors[game_name]}")
    params: dict[str, Any] = {"seed": seed, "players": num_players or 0}
    if options:
        params["options"] = ";".join(f"{k}={_option_text(v)}" for k, v in options.items())
    return pyspiel.load_game(spiel_name(game_name), params)


def _option_text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ",".join(map(str, value))
    return str(value)


register_games()

__all__ = ["RobotableSpielGame", "RobotableSpielState", "load", "register_games", "spiel_name"]


class HeuristicEvaluator:
    """An OpenSpiel MCTS/IS-MCTS evaluator that values a leaf with the game's own heuristic
    (`Game.evaluate`, the one robotable's agents use) instead of a random rollout to the end.

    It follows open_spiel.python.algorithms.mcts.Evaluator: `evaluate(state)` gives one value
    per seat, `prior(state)` a uniform prior over the legal actions.
    """

    def evaluate(self, state: RobotableSpielState) -> np.ndarray:
        box = state._box.ready()
        if box.is_terminal():
            return np.asarray(state.returns(), dtype=float)
        inner = box.inner
        game = box.adapter.game
        return np.asarray([game.evaluate(inner, seat) for seat in range(game.num_players)])

    def prior(self, state: RobotableSpielState) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


def action_to_index(state: RobotableSpielState, action: Any) -> int:
    """The OpenSpiel action id of a robotable Action that is legal in `state`."""
    box = state._box.ready()
    for index, legal in box.legal_table().items():
        if legal == action:
            return index
    raise ValueError(f"{spiel_name(box.adapter.game.name)}: '{action}' is not legal here")
