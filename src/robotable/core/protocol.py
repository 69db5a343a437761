"""The game protocol every robotable game implements (see docs/protocol.md).

A game package subclasses `Game` (the rules and shared, immutable content) and `State` (plain
mutable data: whose decision, zones, pending decisions, the RNG), and declares its decisions as
frozen `Action` dataclasses. The framework parts that every game needs (legality checking with
a clear error, the legal-action cache, action JSON) live here once.
"""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from .errors import IllegalAction
from .events import Event
from .narration import Voice, generic_line, narrate_events, result_from_returns
from .options import OptionSpec, resolve_options

TERMINAL = -1
A = TypeVar("A", bound="Action")


class Action:
    """Base class of every game decision.

    Subclasses are `@dataclass(frozen=True, slots=True)` with a `kind` ClassVar naming the JSON
    "type", fields of int, str, bool or tuples of those, and a `label()` used as str(action).
    They are hashable and compare by value, so `action in state.legal_actions()` is meaningful.
    """

    __slots__ = ()
    kind: ClassVar[str] = "action"
    # The label as a template over the fields ("play {name} onto your stak"), set by @action;
    # a label that needs logic overrides label() instead.
    label_text: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.kind}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            data[f.name] = list(value) if isinstance(value, tuple) else value
        return data

    def label(self) -> str:
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # type: ignore[arg-type]
        if self.label_text:
            return self.label_text.format(**values)
        fields = ", ".join(f"{name}={value}" for name, value in values.items())
        return f"{self.kind}({fields})" if fields else self.kind

    def __str__(self) -> str:
        return self.label()


def action(kind: str, text: str = "") -> Callable[[type[A]], type[A]]:
    """Declare a game's decision in one line: `@action("recycle", "recycle {name}")` over a
    class with only its docstring and fields makes it a frozen, slotted dataclass of that JSON
    "type" whose label is `text` filled with its fields (what every game's decisions share)."""

    def declare(cls: type[A]) -> type[A]:
        cls.kind = kind
        if text:
            cls.label_text = text
        return dataclasses.dataclass(frozen=True, slots=True)(cls)

    return declare


class ActionCodec:
    """Builds actions of one game from JSON, checking the type and every field."""

    def __init__(self, game: str, classes: list[type[Action]]) -> None:
        self.game = game
        self.classes = {cls.kind: cls for cls in classes}
        # A field with a default may be left out of an action's JSON: a game that grows a field
        # (Stak Bots' play onto another seat's stak) still reads the records written before.
        self._fields = {
            cls.kind: [
                (f.name, f.type, f.default)
                for f in dataclasses.fields(cls)  # type: ignore[arg-type]
            ]
            for cls in classes
        }

    def from_json(self, data: Any) -> Action:
        if isinstance(data, Action):
            return data
        if not isinstance(data, dict):
            raise IllegalAction(f"game {self.game}: an action must be a JSON object, got {data!r}")
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in self.classes:
            known = ", ".join(sorted(self.classes))
            raise IllegalAction(
                f"game {self.game}: unknown action type {kind!r} (known types: {known})"
            )
        expected = self._fields[kind]
        extra = sorted(set(data) - {"type"} - {name for name, _, _ in expected})
        if extra:
            raise IllegalAction(f"game {self.game}, action '{kind}': unknown field '{extra[0]}'")
        values = {}
        for name, hint, default in expected:
            if name not in data:
                if default is not dataclasses.MISSING:
                    continue
                raise IllegalAction(f"game {self.game}, action '{kind}': missing field '{name}'")
            values[name] = _check_field(self.game, kind, name, str(hint), data[name])
        return self.classes[kind](**values)


def _check_field(game: str, kind: str, name: str, hint: str, value: Any) -> Any:
    where = f"game {game}, action '{kind}', field '{name}'"
    if "tuple" in hint:
        if not isinstance(value, list | tuple):
            raise IllegalAction(f"{where}: expected a list, got {value!r}")
        inner = "str" if "str" in hint.split("tuple", 1)[1] else "int"
        for item in value:
            _check_scalar(where, inner, item)
        return tuple(value)
    scalar = "bool" if "bool" in hint else "str" if "str" in hint else "int"
    if value is None and "None" in hint:
        return None
    _check_scalar(where, scalar, value)
    return value


def _check_scalar(where: str, scalar: str, value: Any) -> None:
    ok = {
        "int": isinstance(value, int) and not isinstance(value, bool),
        "str": isinstance(value, str),
        "bool": isinstance(value, bool),
    }[scalar]
    if not ok:
        raise IllegalAction(f"{where}: expected {scalar}, got {value!r}")


class Game(ABC):
    """A configured game: seat count, validated options, shared immutable content.

    Subclasses set the class attributes and implement `new_initial_state`, `state_from_json`.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    description: ClassVar[str] = ""
    # How long a game takes at the table, as the publisher gives it ("30-60"); "" when it does not.
    minutes: ClassVar[str] = ""
    # The rules version: it goes up whenever the rules or the bundled content change what a
    # recorded game does. A record and a stored web table keep the version they were made with.
    version: ClassVar[str] = "1"
    # The bundled content of each former version, kept so that a record or an unfinished table
    # made before a change replays with what it was played with:
    # {version: {option: {the option's value then: the former file in the game package}}}.
    former_content: ClassVar[dict[str, dict[str, dict[str, str]]]] = {}
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    # The seat count when none is given; 0 means min_players. (Stak Bots takes one seat for its
    # solo Drone Mode, and is still a game for two unless asked.)
    default_players: ClassVar[int] = 0
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    action_classes: ClassVar[tuple[type[Action], ...]] = ()
    # The view keys that hold only words for a person, which a game's own `observation_view`
    # leaves empty (the protocol's default returns the full view): the worded legal actions in
    # every game, and a game's own (Rumblebots' battle log).
    worded_view_keys: ClassVar[tuple[str, ...]] = ("legal_actions",)
    # The game's own modules, named once (see __init_subclass__): what every game wires the same
    # way is wired here, and a game states only what differs.
    # evaluate(state, seat), optionally evaluate_all(state) and LEAF_EVALUATIONS (below)
    heuristic: ClassVar[Any] = None
    renderer: ClassVar[Any] = None  # render(state, seat) -> the terminal board
    narration: ClassVar[Any] = None  # narrate_event(event, voice)
    encoding: ClassVar[Any] = None  # num_distinct_actions(game), action_index(game, action),
    #                                 observation_size(game), encode_observation(game, view),
    #                                 optionally encode_state(game, state, seat) (below)
    # view.py: what a seat sees and reads, which the state's protocol methods answer with (see
    # StateBase): view(state, seat, words=True), prompt(state) and stats(state). A game that
    # names none writes those methods on its state.
    views: ClassVar[Any] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Wire the modules a game names to the protocol's methods, unless the game writes a
        method itself. Done once per class, so a call costs what a hand-written one does."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__
        wiring: dict[str, Callable[[Any], Any]] = {
            "heuristic": _heuristic_methods,
            "renderer": lambda m: {"render": lambda self, state, seat: m.render(state, seat)},
            "narration": lambda m: {
                "narrate_event": lambda self, event, voice: m.narrate_event(event, voice)
            },
            "encoding": _encoding_methods,
        }
        for name, methods in wiring.items():
            module = own.get(name)
            if module is None:
                continue
            for method, function in methods(module).items():
                if method not in own:
                    setattr(cls, method, function)

    def __init__(self, num_players: int | None = None, **options: Any) -> None:
        from .errors import OptionError

        if num_players is None:
            num_players = self.usual_players()
        if (
            not isinstance(num_players, int)
            or isinstance(num_players, bool)
            or not self.min_players <= num_players <= self.max_players
        ):
            raise OptionError(
                f"game {self.name}: {num_players!r} seats is not allowed "
                f"(this game takes {self.min_players} to {self.max_players})"
            )
        self.num_players = num_players
        self.options = resolve_options(self.name, self.option_specs, num_players, options)
        self.codec = ActionCodec(self.name, list(self.action_classes))

    def teams(self) -> list[int] | None:
        """The side each seat plays on for the whole game when seats form fixed teams (a team
        wins together), else None: every seat for itself. The lab counts a team's win as a win
        for each of its seats, not as a draw."""
        return None

    @classmethod
    def usual_players(cls) -> int:
        """The seat count front ends and tools use when none is given."""
        return cls.default_players or cls.min_players

    # -- construction -------------------------------------------------------------------------
    @abstractmethod
    def new_initial_state(self, seed: int = 0) -> State: ...

    @abstractmethod
    def state_from_json(self, data: dict[str, Any]) -> State: ...

    def action_from_json(self, data: Any) -> Action:
        """An Action from its JSON form; malformed input raises IllegalAction naming the field."""
        return self.codec.from_json(data)

    # -- agents and front ends ----------------------------------------------------------------
    def evaluate(self, state: State, seat: int) -> float:
        """Heuristic value of `state` for `seat` in [0, 1] (1 = sure win). Default: returns or 1/n.

        Must use only what `seat` may know when called on a determinized state; agents rely on it.
        """
        if state.is_terminal():
            return state.returns()[seat]
        return 1.0 / self.num_players

    def evaluate_all(self, state: State) -> list[float]:
        """`[evaluate(state, seat) for every seat]`; a game may compute it in one pass (MCTS
        values every leaf for every seat). Overrides must return exactly the same numbers."""
        return [self.evaluate(state, seat) for seat in range(self.num_players)]

    @classmethod
    def leaf_evaluations(cls) -> dict[str, Callable[[State], list[float]]]:
        """Other values a search may give its leaves, every seat's at once, by name (the search
        option `leaf=NAME`). A game offers one where the numbers that pick a good move one ply
        ahead and those that best value a position deep in a search differ. None by default."""
        return {}

    def render(self, state: State, seat: int | None) -> str:
        """A text rendering of what `seat` sees (None: a spectator), for the terminal."""
        import json

        return json.dumps(state.view(seat), indent=1)

    # -- words for people (one source for the terminal, the web table and replays) --------------
    def narrate_event(self, event: Event, voice: Voice) -> str | None:
        """One event as a sentence for `voice.viewer` (None: say nothing). Games override with
        their `narration.py`; the default words the event's fields plainly."""
        return generic_line(event, voice)

    def narrate(
        self, events: list[Event], viewer: int | None = None, names: list[str] | None = None
    ) -> list[str]:
        """What `viewer` (a seat, or None for a spectator) reads for these events, in order:
        only the events that seat may see, "you" for its own seat, other seats by `names`
        (default "Seat 1", "Seat 2", ...)."""
        voice = Voice.of(self.num_players, viewer, names)
        return narrate_events(self.narrate_event, events, voice)

    def result_sentence(
        self, state: State, viewer: int | None = None, names: list[str] | None = None
    ) -> str:
        """Who won a finished game and by how much, one sentence for `viewer` ("Ada wins, 12
        loaves to 9"): the end screen of the terminal and of the web table. A game words it in
        its narration's `result_sentence(state, viewer, names)`; without one, it is said from
        the returns (who won, not by how much)."""
        words = getattr(self.narration, "result_sentence", None)
        if words is not None:
            return words(state, viewer, names)
        voice = Voice.of(self.num_players, viewer, names)
        return result_from_returns(state.returns(), voice, self.teams())

    def guide(self) -> str:
        """How to play, in Markdown: the goal, a turn, the terms (the game's `data/guide.md`)."""
        import sys
        from importlib import resources

        # The game's package: the class's own module when that is a package's __init__.
        module = type(self).__module__
        if not hasattr(sys.modules.get(module), "__path__"):
            module = module.rpartition(".")[0] or module
        package = module
        try:
            return resources.files(package).joinpath("data", "guide.md").read_text("utf-8")
        except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError, TypeError):
            # TypeError: a game defined in a plain module (a plugin, a test's toy game) has no
            # package to hold a guide; its description stands in, as for a package without one.
            return f"# {self.title or self.name}\n\n{self.description}\n"

    def glossary(self) -> dict[str, str]:
        """Term -> meaning, from the guide's "Terms" section (items "- **Term**: meaning"). A
        meaning may go on over indented continuation lines; they are joined into one line."""
        return parse_glossary(self.guide())

    def turn_plans(self, state: State) -> list[Any]:
        """Composite choices for a person at `state`'s decision (core/plans.py's `Plan`: a key,
        words, and ordinary legal actions of the deciding seat that a front end applies one by
        one). Optional: a game offers none unless it says otherwise. Agents never use them."""
        return []

    # -- research encodings (robotable.envs) --------------------------------------------------
    def num_distinct_actions(self) -> int:
        """Size of the fixed action index space (see `action_index`)."""
        raise NotImplementedError(f"game {self.name} has no fixed action encoding")

    def action_index(self, action: Action) -> int:
        """The action's index in [0, num_distinct_actions())."""
        raise NotImplementedError(f"game {self.name} has no fixed action encoding")

    def observation_size(self) -> int:
        raise NotImplementedError(f"game {self.name} has no observation encoding")

    def encode_observation(self, view: dict[str, Any]) -> list[float]:
        """A flat list of `observation_size()` numbers built only from a seat's `view`."""
        raise NotImplementedError(f"game {self.name} has no observation encoding")

    def encode_state(self, state: State, seat: int | None) -> list[float]:
        """`encode_observation(state.observation_view(seat))`, the same numbers: what the RL
        adapters call. A game's encoding module may write it reading the state directly (no view
        dicts in between, several times faster); tests/envs/test_envs_encode_state.py holds it to
        this default at every step of seeded games, so it can read nothing the view hides."""
        return self.encode_observation(state.observation_view(seat))

    def info(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "minutes": self.minutes,
            "version": self.version,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "default_players": self.usual_players(),
            "options": [
                {
                    "name": s.name,
                    "type": s.type.__name__,
                    "default": s.default,
                    # where a seat count has its own default (JSON keys are strings)
                    "default_by_players": {str(n): v for n, v in s.default_by_players.items()},
                    "help": s.help,
                    "choices": list(s.choices),
                    "minimum": s.minimum,
                    "maximum": s.maximum,
                    # a choice's words for a person ("balanced (recommended)"), and what a
                    # preset choice sets: {choice: {option: value}} (the `rules` switch)
                    "labels": {str(k): v for k, v in s.labels.items()},
                    "presets": {
                        str(k): {n: list(v) if isinstance(v, tuple) else v for n, v in p.items()}
                        for k, p in s.presets.items()
                    },
                    "content": s.content,
                    "bundled": list(s.bundled),
                }
                for s in self.option_specs
            ],
        }

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} players={self.num_players} {self.options}>"


def _heuristic_methods(h: Any) -> dict[str, Any]:
    methods: dict[str, Any] = {"evaluate": lambda self, state, seat: h.evaluate(state, seat)}
    if hasattr(h, "evaluate_all"):
        methods["evaluate_all"] = lambda self, state: h.evaluate_all(state)
    if hasattr(h, "LEAF_EVALUATIONS"):
        methods["leaf_evaluations"] = classmethod(lambda cls: dict(h.LEAF_EVALUATIONS))
    return methods


def _encoding_methods(e: Any) -> dict[str, Any]:
    return {
        "num_distinct_actions": lambda self: e.num_distinct_actions(self),
        "action_index": lambda self, action: e.action_index(self, action),
        "observation_size": lambda self: e.observation_size(self),
        "encode_observation": lambda self, view: e.encode_observation(self, view),
        **(
            {"encode_state": lambda self, state, seat: e.encode_state(self, state, seat)}
            if hasattr(e, "encode_state")
            else {}
        ),
    }


class StateBase:
    """What the protocol provides every state (the legal-action cache, the legality check, the
    defaults), without the abstract hooks: see `State`, which every game and user subclasses.

    The compiled engine makes this an extension type (protocol.pxd), so that a game may make its
    own state an extension type with C fields too (Stak Bots does, state.pxd); an extension type
    cannot inherit the ABC `State`, so such a state derives from `StateBase` and is registered
    as a virtual subclass of `State` (`State.register`): `isinstance(state, State)` holds either
    way. `StateBase` declares only the two fields of the rules' entry points (below): `game` and
    `_legal` stay wherever a subclass keeps them (its `__slots__`, its `__dict__`, or its C
    fields), read by attribute.
    """

    # The hooks `legal_actions` and `apply_action` call, which `State` declares abstract. Here so
    # that the compiled engine can declare them `cpdef` on this extension type (protocol.pxd):
    # a compiled game's state then answers them through its C method table, not by a lookup in
    # its type's attributes and a Python call at every step. A built-in game's state answers
    # them with its rules: it takes `rules.legal_actions` and `rules.apply_action` from its Game
    # (`game.rules`) when it is built, into the two fields below (C fields when compiled), and
    # its clone passes them on; its state.py cannot import rules.py, which imports it. A user's
    # `State` overrides the hooks instead. Slots, so that plain Python keeps them beside the
    # game's own slots rather than in a `__dict__` made for every clone.
    __slots__ = ("rules_legal_actions", "rules_apply_action")

    def _legal_actions(self) -> list[Action]:
        return self.rules_legal_actions(self)

    def _apply(self, action: Action) -> list[Event]:
        return self.rules_apply_action(self, action)

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def turn_number(self) -> int:
        """How many turns have begun (for statistics); games override."""
        return 0

    # -- what a seat sees and reads: the game's view.py, named once as its Game's `views` -------
    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may know (None: a spectator), JSON-safe: `views.view(state, seat)`. A game
        whose Game names no `views` module writes this method on its state."""
        views = self.game.views
        if views is None:
            raise NotImplementedError(
                f"game {self.game.name}: its Game names no views module (views = view) "
                "and its state writes no view(seat)"
            )
        return views.view(self, seat)

    def observation_view(self, seat: int | None) -> dict[str, Any]:
        """`view(seat)` for a learner's encoder rather than a person: the same keys and values,
        except that the keys of `game.worded_view_keys` (`"legal_actions"`, and a game's own
        worded keys) hold empty lists. Wording every legal action is most of what a view costs
        (several times an engine step), and no encoder reads the words: the RL adapters encode
        this. A game's `views.view(state, seat, False)` leaves them empty; a game without a
        `views` module gets its full view."""
        views = self.game.views
        if views is None:
            return self.view(seat)
        return views.view(self, seat, False)

    def prompt(self) -> str:
        """Why the deciding seat is deciding, in words ("Shot Bot entered: choose a top card"):
        `views.prompt(state)`, or who acts when the game names no `views` module."""
        views = self.game.views
        if views is not None:
            return views.prompt(self)
        return "" if self.is_terminal() else f"Seat {self.current_player() + 1} to act"

    def stats(self) -> dict[str, Any]:
        """Per-game extras for the balance lab at the end of a game (e.g. why it ended):
        `views.stats(state)`, or none when the game names no `views` module."""
        views = self.game.views
        return {} if views is None else views.stats(self)

    def opening_events(self) -> list[Event]:
        """What happened while the table was set, before the first decision (a first roll):
        front ends show it ahead of the first move. Only a fresh state from
        `new_initial_state` has them; default none."""
        return []

    def describe_action(self, action: Action) -> str:
        """The choice in words for the seat deciding now, naming things by what they are
        ("attack Bo's Core Bot with your Shot Bot"), never by position. Games override where
        an action holds a position; the default is the action's own label."""
        return action.label()

    def legal_action_entries(self, seat: int | None) -> list[dict[str, Any]]:
        """The view's "legal_actions": `{"index", "label", "action"}` per legal action when
        `seat` decides now, else empty (nobody sees another seat's choices)."""
        if seat is None or seat != self.current_player():
            return []
        return [
            {"index": i, "label": self.describe_action(a), "action": a.to_json()}
            for i, a in enumerate(self.legal_actions())
        ]

    def silence(self) -> Any:
        """This state, made quiet, returned: from now on `apply_action` may skip building its
        events and return an empty list, and its clones and determinizations are quiet too.
        What the state becomes is the same, move for move. For copies no person reads: a
        search's samples, a one-move lookahead, a learner's environment. (Building the events
        is about a fifth of a random step, and a search discards them.) A game supports it with a
        `quiet` field that its rules test before building an event; the default, for a game that
        does not, changes nothing."""
        return self

    # -- provided -----------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = [] if self.is_terminal() else self._legal_actions()
        return list(legal)

    def apply_action(self, action: Action) -> list[Event]:
        """Apply `action` for the deciding seat; raise IllegalAction (state untouched) otherwise."""
        legal = self._legal
        if legal is None:
            legal = self._legal = [] if self.is_terminal() else self._legal_actions()
        # An action taken from legal_actions() (every agent's, the search's) is one of these very
        # objects: find it by identity, a pointer comparison per entry, before comparing by value,
        # which calls the action dataclass's Python __eq__ once per entry it passes. An equal
        # action built elsewhere (a record, the web table, a user's code) is still found.
        for known in legal:
            if known is action:
                break
        else:
            if action not in legal:
                raise IllegalAction(self._why_illegal(action, legal))
        self._legal = None
        return self._apply(action)

    def _why_illegal(self, action: Any, legal: list[Action]) -> str:
        name = self.game.name
        if self.is_terminal():
            return f"game {name}: the game is over; no action is legal (got {action})"
        if not isinstance(action, Action) or action.kind not in self.game.codec.classes:
            return f"game {name}: {action!r} is not an action of this game"
        same_kind = [a for a in legal if a.kind == action.kind]
        seat = self.current_player()
        why = self.prompt()
        if not same_kind:
            kinds = ", ".join(sorted({a.kind for a in legal}))
            return (
                f"game {name}: '{action}' is not legal now: seat {seat} must choose "
                f"one of [{kinds}] ({why})"
            )
        return (
            f"game {name}: '{action}' is not legal now for seat {seat} ({why}); "
            f"{len(same_kind)} '{action.kind}' actions are legal, e.g. '{same_kind[0]}'"
        )

    def __str__(self) -> str:
        return self.game.render(self, None)


class State(StateBase, ABC):
    """A game position. Subclasses implement the underscored hooks and the public methods marked
    abstract; `legal_actions` and `apply_action` are provided (by `StateBase`) so every game
    caches and checks the same way. What a seat sees and reads (`view`, `prompt`, `stats`) comes
    from the module the Game names as `views` (its view.py), or from methods the state writes.

    Subclasses must keep `_legal` (cache of legal actions, None when stale) in their `__slots__`
    or `__dict__` and reset it to None in `clone()` copies only when they differ.
    """

    game: Game
    _legal: list[Action] | None

    # -- hooks a game implements --------------------------------------------------------------
    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """The legal actions of the deciding seat; never empty unless terminal."""

    @abstractmethod
    def _apply(self, action: Action) -> list[Event]:
        """Apply an action already known to be legal; return the events."""

    @abstractmethod
    def current_player(self) -> int: ...

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]: ...

    @abstractmethod
    def clone(self) -> State: ...

    @abstractmethod
    def to_json(self) -> dict[str, Any]: ...

    @abstractmethod
    def determinize(self, seat: int, rng: random.Random | Any) -> State: ...


def parse_glossary(guide: str) -> dict[str, str]:
    """The "Terms" section of a guide in Markdown as term -> meaning. An item is
    "- **Term**: meaning"; the lines after it that are indented (or otherwise not a new item,
    a heading or a blank line) continue its meaning, and are joined with single spaces."""
    terms: dict[str, str] = {}
    in_terms = False
    current = ""
    for line in guide.splitlines():
        if line.startswith("#"):
            in_terms = line.lstrip("#").strip().lower() == "terms"
            current = ""
            continue
        if not in_terms:
            continue
        if line.startswith("- **") and "**:" in line:
            term, _, meaning = line[4:].partition("**:")
            current = term.strip()
            terms[current] = meaning.strip()
        elif not line.strip() or line.lstrip().startswith(("- ", "* ")):
            current = ""  # a blank line or another kind of item ends the meaning
        elif current:
            terms[current] = f"{terms[current]} {line.strip()}".strip()
    return terms
