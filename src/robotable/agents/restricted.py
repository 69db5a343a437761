"""A wrapper agent that plays like another but never plays one card: `restricted:BASE,card=NAME`.

    make_agent("restricted:greedy,card=Core Bot")             # greedy, never plays a Core Bot
    make_agent("restricted:mcts:200,card=Core Bot,kind=play")  # only 'play' actions are barred

It asks BASE to choose among the legal actions that do not play the card; when every legal
action plays it (the card is the only way on), it chooses as BASE would. BASE thinks exactly as
it would alone (a searching BASE still imagines itself playing the card later in its search);
only its choices are filtered. The balance lab pits it against BASE (`simulate --restrict`): how
much worse it does is how much the card matters to that agent.

An action **plays** a card when it names it: a string field of its JSON (a card's name, as in
`{"type": "play_buzz", "card": "Hardening"}`) or its label (`play Core Bot (#3)`) names the card,
case-insensitively and as a whole word. That is the action-side twin of how the balance lab
counts a card as used (an event naming the seat and the card, sim/runner.py). Games that name a
card only by position (a slot, an index) in both JSON and label cannot be restricted this way;
`kind=` (repeatable) narrows the barred actions to those JSON types, e.g. `kind=play` so that
scrapping or targeting the card stays allowed.

The spec's BASE part is parsed as any agent spec; `parse_agent_spec` reports BASE's kind and
parameters for a restricted spec (what it thinks with), so time and iteration limits that
callers check apply to it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..core.errors import OptionError
from ..core.protocol import Action, State
from .base import Agent

PREFIX = "restricted"


def split_restricted(spec: str) -> tuple[str, tuple[str, ...], tuple[str, ...]] | None:
    """'restricted:greedy,card=Core Bot,kind=play' -> ('greedy', ('Core Bot',), ('play',)), or
    None when `spec` is not a restricted spec. A malformed one raises OptionError."""
    if not isinstance(spec, str):
        return None
    head, colon, rest = spec.strip().partition(":")
    if head.strip().lower() != PREFIX:
        return None
    if not colon or not rest.strip():
        raise OptionError(
            f"agent spec '{spec}': expected restricted:BASE,card=NAME (e.g. "
            "restricted:greedy,card=Core Bot)"
        )
    base: list[str] = []
    cards: list[str] = []
    kinds: list[str] = []
    for part in (p.strip() for p in rest.split(",")):
        if not part:
            continue
        key, eq, value = part.partition("=")
        key = key.strip().lower()
        if eq and key in ("card", "kind"):
            value = value.strip()
            if not value:
                raise OptionError(f"agent spec '{spec}': '{key}=' needs a value")
            (cards if key == "card" else kinds).append(value)
        else:
            base.append(part)
    base_spec = ",".join(base)
    if not base_spec:
        raise OptionError(f"agent spec '{spec}': no base agent (restricted:BASE,card=NAME)")
    if not cards:
        raise OptionError(f"agent spec '{spec}': give the card to restrict with card=NAME")
    if base_spec.partition(":")[0].strip().lower() == PREFIX:
        raise OptionError(f"agent spec '{spec}': a restricted agent cannot wrap another")
    return base_spec, tuple(cards), tuple(kinds)


def restricted_spec(base: str, cards: Iterable[str], kinds: Iterable[str] = ()) -> str:
    """The spec string of BASE restricted from `cards` (and only for actions of `kinds`)."""
    parts = [f"{PREFIX}:{base}", *(f"card={c}" for c in cards), *(f"kind={k}" for k in kinds)]
    return ",".join(parts)


def _patterns(cards: Iterable[str]) -> list[re.Pattern[str]]:
    return [re.compile(rf"(?<!\w){re.escape(c.strip())}(?!\w)", re.IGNORECASE) for c in cards]


def names_card(action: Action, cards: Iterable[str], kinds: Iterable[str] = ()) -> bool:
    """Whether `action` plays one of `cards`: its JSON holds one as a string field (or in a list
    field), or its label names one as a whole word; with `kinds`, only actions of those JSON
    types count."""
    return CardBar(tuple(cards), tuple(kinds)).plays(action)


class CardBar:
    """Which actions a bar on `cards` (of `kinds`) forbids, and where it changes a choice."""

    __slots__ = ("names", "kinds", "patterns")

    def __init__(self, cards: tuple[str, ...], kinds: tuple[str, ...]) -> None:
        self.names = {c.strip().lower() for c in cards}
        self.kinds = {k.strip().lower() for k in kinds}
        self.patterns = _patterns(cards)

    def plays(self, action: Action) -> bool:
        data: dict[str, Any] = action.to_json()
        if self.kinds and str(data.get("type", "")).lower() not in self.kinds:
            return False
        for key, value in data.items():
            if key == "type":
                continue
            values = value if isinstance(value, list | tuple) else (value,)
            for item in values:
                if isinstance(item, str) and item.strip().lower() in self.names:
                    return True
        label = action.label()
        return any(p.search(label) for p in self.patterns)

    def can_act(self, legal: Sequence[Action]) -> bool:
        """Some legal action plays the card and another does not: the only decisions where a
        restricted agent's choice can differ from its base's (elsewhere it asks the base with
        the same state, and so chooses what the base would)."""
        barred = sum(1 for a in legal if self.plays(a))
        return 0 < barred < len(legal)


class _Filtered:
    """The real state as BASE sees it: everything as it is, but fewer legal actions."""

    __slots__ = ("_state", "_allowed")

    def __init__(self, state: State, allowed: list[Action]) -> None:
        self._state = state
        self._allowed = allowed

    def legal_actions(self) -> list[Action]:
        return list(self._allowed)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


class RestrictedAgent(Agent):
    """Plays like `base` but never chooses an action that plays one of `cards` when another
    legal action exists."""

    def __init__(
        self, seed: int = 0, base: Agent | None = None, cards=(), kinds=(), base_spec: str = ""
    ) -> None:
        super().__init__(seed)
        if base is None:
            raise OptionError("restricted agent: no base agent")
        self.base = base
        self.cards = tuple(cards)
        self.kinds = tuple(kinds)
        self.matcher = CardBar(self.cards, self.kinds)
        self.name = restricted_spec(base_spec or base.name, self.cards, self.kinds)
        self.blocked = 0  # decisions where the card was barred (another action existed)
        self.forced = 0  # decisions where every legal action played the card

    @property
    def remembers(self) -> bool:  # type: ignore[override]
        return self.base.remembers

    def reseed(self, seed: int) -> None:
        self.base.reseed(seed)

    def act(self, state: State) -> Action:
        legal = state.legal_actions()
        allowed = [a for a in legal if not self.matcher.plays(a)]
        if len(allowed) == len(legal):
            return self.base.act(state)
        if not allowed:
            self.forced += 1
            return self.base.act(state)
        self.blocked += 1
        if len(allowed) == 1:
            return allowed[0]
        choice = self.base.act(_Filtered(state, allowed))  # type: ignore[arg-type]
        if choice not in allowed:  # a base that ignored legal_actions(): keep the promise
            return allowed[0]
        return choice
