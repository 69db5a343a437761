"""Dice Race's events in words, for one reader (the same sentences in the terminal and the web
table): "Ada rolls a 4 and moves to square 9."."""

from __future__ import annotations

from typing import Any

from robotable.core.narration import Voice, join_words, narrate_with, result_from_returns


def _rolled(event: dict[str, Any], voice: Voice) -> str:
    seat = event["seat"]
    if event["wasted"]:
        return (
            f"{voice.does(seat, 'rolls')} a {event['die']}: too far, "
            f"{voice.who(seat)} {voice.verb(seat, 'stays')} on square {event['square']}."
        )
    return f"{voice.does(seat, 'rolls')} a {event['die']} and {voice.verb(seat, 'moves')} to square {event['square']}."


def _boosted(event: dict[str, Any], voice: Voice) -> str:
    seat = event["seat"]
    return (
        f"{voice.does(seat, 'plays')} boost card {event['value']} and "
        f"{voice.verb(seat, 'moves')} to square {event['square']}."
    )


def _drew(event: dict[str, Any], voice: Voice) -> str:
    return f"{voice.does(event['seat'], 'draws')} boost card {event['card']}."


def _finished(event: dict[str, Any], voice: Voice) -> str:
    return f"{voice.does(event['seat'], 'reaches')} the finish and {voice.verb(event['seat'], 'wins')}!"


def _time_up(event: dict[str, Any], voice: Voice) -> str:
    return (
        f"Out of turns: {voice.seats(event['leaders'])} went furthest (square {event['square']})."
    )


LINES = {
    "rolled": _rolled,
    "boosted": _boosted,
    "drew": _drew,
    "finished": _finished,
    "time_up": _time_up,
}


def narrate_event(event: dict[str, Any], voice: Voice) -> str | None:
    return narrate_with(LINES, event, voice)


def result_sentence(state: Any, viewer: int | None, names: list[str] | None) -> str:
    voice = Voice.of(state.game.num_players, viewer, names)
    if len(state.winners) == 1 and state.squares[state.winners[0]] == state.game.options["length"]:
        return f"{voice.Who(state.winners[0])} won the race."
    if state.winners:
        return f"{join_words([voice.who(s) for s in state.winners])} went furthest when the turns ran out."
    return result_from_returns(state.returns(), voice, None)
