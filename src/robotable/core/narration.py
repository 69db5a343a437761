"""Narration: what happened at the table, in words, for one reader.

Every front end (the terminal, the web table, replays) shows the same sentences, and they all
come from here and from each game's `narration.py`: a front end never words an event itself.
A sentence is written for one reader (a seat, or `None` for a spectator): the reader's own seat
is "you", every other seat is named ("Ada", or "Seat 2" when no name was given; seats count
from 1), and things are named by what they are (a card's name and whose it is), never by a
position in a list. Narration only ever sees the events the reader may see.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .events import Event, visible_events

# Third-person verbs whose second-person form is not "drop the s".
_IRREGULAR = {"is": "are", "has": "have", "does": "do", "was": "were", "goes": "go"}
_SIBILANT = re.compile(r"(ss|sh|ch|x|zz|o)es$")


def second_person(verb: str) -> str:
    """'draws' -> 'draw', 'has' -> 'have', 'passes' -> 'pass', 'carries' -> 'carry'."""
    head, _, rest = verb.partition(" ")
    if head in _IRREGULAR:
        base = _IRREGULAR[head]
    elif head.endswith("ies") and len(head) > 4:
        base = head[:-3] + "y"
    elif _SIBILANT.search(head):
        base = head[:-2]
    elif head.endswith("s") and not head.endswith("ss"):
        base = head[:-1]
    else:
        base = head
    return f"{base} {rest}" if rest else base


def default_names(num_players: int) -> tuple[str, ...]:
    return tuple(f"Seat {i + 1}" for i in range(num_players))


@dataclass(frozen=True, slots=True)
class Voice:
    """Who is reading, and what every seat is called."""

    viewer: int | None
    names: tuple[str, ...]

    @classmethod
    def of(
        cls, num_players: int, viewer: int | None = None, names: Sequence[str] | None = None
    ) -> Voice:
        given = [str(n).strip() for n in (names or ())][:num_players]
        fallback = default_names(num_players)
        return cls(
            viewer,
            tuple(
                given[i] if i < len(given) and given[i] else fallback[i] for i in range(num_players)
            ),
        )

    def is_you(self, seat: int | None) -> bool:
        return seat is not None and seat == self.viewer

    def name(self, seat: int) -> str:
        """The seat's name, never "you" (for lists such as a scoreboard)."""
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return "someone"

    def who(self, seat: int) -> str:
        """The seat as the subject or object of a sentence: "you" or its name."""
        return "you" if self.is_you(seat) else self.name(seat)

    def Who(self, seat: int) -> str:  # noqa: N802  (capitalised, to open a sentence)
        return "You" if self.is_you(seat) else self.name(seat)

    def whose(self, seat: int) -> str:
        """ "your" or "Ada's"."""
        return "your" if self.is_you(seat) else f"{self.name(seat)}'s"

    def Whose(self, seat: int) -> str:  # noqa: N802
        return "Your" if self.is_you(seat) else f"{self.name(seat)}'s"

    def does(self, seat: int, verb: str) -> str:
        """A sentence opening with the seat and its verb, given in the third person:
        does(0, "draws 2 cards") is "Ada draws 2 cards" or, for Ada herself, "You draw 2 cards"."""
        if self.is_you(seat):
            return f"You {second_person(verb)}"
        return f"{self.name(seat)} {verb}"

    def verb(self, seat: int, verb: str) -> str:
        """The verb alone, agreeing with the seat ("draws" / "draw")."""
        return second_person(verb) if self.is_you(seat) else verb

    def seats(self, seats: Iterable[int]) -> str:
        """ "Ada and Bo", "you, Bo and Cy"."""
        return join_words([self.who(s) for s in seats])


def join_words(words: Sequence[str]) -> str:
    words = [w for w in words if w]
    if not words:
        return "nobody"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


def plural(count: int, singular: str, many: str | None = None) -> str:
    """ "1 card", "3 cards", "2 Bread" (with many="Bread")."""
    return f"{count} {singular if count == 1 else (many or singular + 's')}"


def sentence(text: str) -> str:
    """Capitalise the first letter and end with a full stop unless it has a mark already."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?:" else text + "."


_SEAT_FIELDS = ("seat", "winner", "first", "owner", "player", "by_seat")


def generic_line(event: Event, voice: Voice) -> str:
    """A plain sentence for an event that its game does not word itself: its kind and its
    fields in words (seats by name, lists as lists), never JSON."""
    kind = str(event.get("type", "event")).replace("_", " ")
    seat = event.get("seat")
    parts = []
    for key, value in event.items():
        if key in ("type", "to", "seat"):
            continue
        parts.append(f"{key.replace('_', ' ')} {_words(key, value, voice)}")
    details = f" ({', '.join(parts)})" if parts else ""
    if isinstance(seat, int) and not isinstance(seat, bool):
        return sentence(f"{voice.Who(seat)}: {kind}{details}")
    return sentence(f"{kind}{details}")


def _words(key: str, value: Any, voice: Voice) -> str:
    if key in _SEAT_FIELDS and isinstance(value, int) and not isinstance(value, bool):
        return voice.who(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_words(str(k), v, voice)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return join_words([_words(key, v, voice) for v in value]) if value else "none"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


Line = Callable[[Event, Voice], str | None]


def narrate_with(lines: Mapping[str, Line], event: Event, voice: Voice) -> str | None:
    """The sentence of `event` from a game's table of lines (a kind mapped to None is silent:
    bookkeeping a reader does not need), or the generic wording for a kind the table lacks."""
    kind = event.get("type")
    if kind in lines:
        line = lines[kind]
        return None if line is None else line(event, voice)
    return generic_line(event, voice)


def narrate_events(
    narrate: Callable[[Event, Voice], str | None], events: Iterable[Event], voice: Voice
) -> list[str]:
    """The sentences `voice.viewer` may read for `events`, in order (private events of other
    seats are dropped before any wording happens)."""
    out = []
    for event in visible_events(list(events), voice.viewer):
        text = narrate(event, voice)
        if text:
            out.append(text)
    return out


def result_by_score(
    scores: Sequence[int],
    winners: Sequence[int],
    voice: Voice,
    count: Callable[[int], str],
    tiebreak: str = "",
    how: str = "",
) -> str:
    """Who won and by how much, in one sentence, for a game scored in points: "Ada wins, 12
    loaves to 9"; "Ada wins with 45 Bitz, to Bo's 40 and Cy's 31"; "Ada and Bo draw, 7 loaves
    each"; "Ada and Bo share the win with 40 Bitz each, to Cy's 31". `count` words a score
    ("12 loaves"); `how` says how the winner won ("by a Dominance Victory"), and `tiebreak`
    how a winner level with another did ("on combined attributes")."""
    n = len(scores)
    winners = [w for w in winners if 0 <= w < n]
    rest = sorted((s for s in range(n) if s not in winners), key=lambda s: (-scores[s], s))
    others = join_words([f"{voice.whose(s)} {scores[s]}" for s in rest])
    if not winners:
        board = join_words([f"{voice.who(s)} {scores[s]}" for s in rest])
        return sentence(f"Nobody wins ({board})")
    if len(winners) == 1:
        w = winners[0]
        level = any(scores[s] == scores[w] for s in rest)
        words = " ".join(x for x in (how, tiebreak if level else "") if x)
        head = voice.does(w, "wins") + (f" {words}" if words else "")
        if n == 2:
            other = rest[0]
            if scores[w] == scores[other]:
                return sentence(f"{head}, {count(scores[w])} each")
            return sentence(f"{head}, {count(scores[w])} to {scores[other]}")
        return sentence(f"{head} with {count(scores[w])}, to {others}")
    names = voice.seats(winners)
    level = len({scores[w] for w in winners}) == 1
    if not rest:
        if level:
            verb = "draw" if n == 2 else "share the win"
            return sentence(f"{names} {verb}, {count(scores[winners[0]])} each")
        return sentence(f"{names} share the win")
    if level:
        return sentence(f"{names} share the win with {count(scores[winners[0]])} each, to {others}")
    board = join_words([f"{voice.who(s)} {scores[s]}" for s in winners])
    return sentence(f"{names} win together ({board}), to {others}")


def result_from_returns(
    returns: Sequence[float], voice: Voice, teams: Sequence[int] | None = None
) -> str:
    """Who won, from a finished game's returns alone, for a game that does not say it itself:
    "Ada wins", "Ada and Cy win together" (one team), "Ada and Bo draw"."""
    if len(returns) == 1:  # one seat against the game itself
        if returns[0] == 0.5:
            return sentence(f"{voice.does(0, 'draws')} against the game")
        return sentence(voice.does(0, "wins" if returns[0] > 0.5 else "loses"))
    best = max(returns)
    winners = [s for s, r in enumerate(returns) if r == best]
    if len(winners) == 1:
        return sentence(voice.does(winners[0], "wins"))
    if teams and len({teams[s] for s in winners}) == 1:
        return sentence(f"{voice.seats(winners)} win together")
    if len(winners) == len(returns):
        return sentence(f"{voice.seats(winners)} draw")
    return sentence(f"{voice.seats(winners)} share the win")
