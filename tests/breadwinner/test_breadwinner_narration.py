"""Golden narration: a seeded game between greedy agents, as the game log tells it.

The spectator's log of the opening and of the end (a greedy game runs to some 260 steps), each
step headed by the seat that acted, then the opening as Ada (seat 1) reads it, with her own
choices as she read them. Any change of wording shows up as a diff. Regenerate with
ROBOTABLE_REGEN=1 after an intended change, and read the file: it must read like a game host.
"""

from __future__ import annotations

import os
from pathlib import Path

import robotable
from robotable.agents import make_agent
from robotable.core.protocol import Game
from robotable.games.breadwinner.narration import LINES

GOLDEN = Path(__file__).with_name("breadwinner_narration.txt")
NAMES = ["Ada", "Bo"]
SEED = 27
OPENING = 120  # spectator: the first steps ...
ENDING = 30  # ... and the last ones
AS_ADA = 30  # Ada's own log: the first steps


def play() -> tuple[Game, list[tuple[int, str, list[dict]]]]:
    """(seat, the choice as the seat read it, events) for every step of the game."""
    game = robotable.load_game("breadwinner")
    state = game.new_initial_state(seed=SEED)
    agents = [make_agent("greedy", seed=SEED), make_agent("greedy", seed=SEED + 1)]
    steps = []
    while not state.is_terminal():
        seat = state.current_player()
        action = agents[seat].act(state)
        label = state.describe_action(action)
        steps.append((seat, label, state.apply_action(action)))
    return game, steps


def narration() -> str:
    game, steps = play()
    out = [
        f"Bread Winner, seed {SEED}: greedy agents, Ada and Bo, {len(steps)} steps.",
        "",
        "As a spectator reads it:",
    ]

    def spectator(index: int) -> None:
        seat, _, events = steps[index]
        out.append(f"-- {NAMES[seat]}")
        out.extend(f"   {line}" for line in game.narrate(events, None, NAMES))

    for index in range(min(OPENING, len(steps))):
        spectator(index)
    tail = max(OPENING, len(steps) - ENDING)
    if tail > OPENING:
        out.append(f"   ... {tail - OPENING} steps later ...")
    for index in range(tail, len(steps)):
        spectator(index)
    out += ["", "As Ada reads it (her own choices as she read them):"]
    for seat, label, events in steps[:AS_ADA]:
        out.append(f"-- {'You' if seat == 0 else NAMES[seat]}")
        if seat == 0:
            out.append(f"   (your choice: {label})")
        out.extend(f"   {line}" for line in game.narrate(events, 0, NAMES))
    return "\n".join(out) + "\n"


def test_bw_golden_narration():
    text = narration()
    if os.environ.get("ROBOTABLE_REGEN") or not GOLDEN.exists():
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text(), "narration changed: rerun with ROBOTABLE_REGEN=1"


def test_bw_every_step_says_what_its_seat_did():
    game, steps = play()
    for seat, _, events in steps:
        lines = game.narrate(events, None, NAMES)
        assert lines and lines[0].startswith(NAMES[seat]), (NAMES[seat], lines)
        assert all("you" not in line.lower().split() for line in lines)


def test_bw_lines_cover_every_event_and_read_for_each_reader():
    """Hand-made positions reach the rare events: each is worded, for a spectator and a seat."""
    from .bw_setup import play as play_label
    from .bw_setup import position

    cases = [
        (
            position(bots=[("A1", "Harvester", "L1a"), ("B1", "Harvester", "L1a", 3)]),
            "Harvester A1 on L1a: steal the harvest of Harvester B1",
            "Ada's Harvester steals the 3-loaf crop chip from Bo's Harvester on Land tile L1a.",
        ),
        (
            position(bots=[("A1", "Locust", "L1a"), ("B1", "Harvester", "L1a", 2)]),
            "Locust A1 on L1a: meltdown Harvester B1",
            "Ada's Locust melts down Bo's Harvester on Land tile L1a and its harvest "
            "(the 2-loaf crop chip goes to the Discarded Harvest): both bots go back to their "
            "dice piles.",
        ),
        (
            position(bots=[("A1", "Drone", "L1a")], poison=("L1a",)),
            "Drone A1 on L1a: restore the soil",
            "Ada's Drone restores the soil of Land tile L1a (the poison chip goes back to the "
            "supply) and goes back to Ada's dice pile.",
        ),
        (
            position(bots=[("A1", "Harvester", "D_A", 2)], loaves=(3, 9)),
            "Harvester A1 on D_A (home): unload the harvest",
            "Ada's Harvester unloads the 2-loaf crop chip on Ada's Delivery tile: Ada takes "
            "2 loaves from Bo and holds 5 loaves, 7 short of all 12.",
        ),
    ]
    for st, label, spectator in cases:
        events = play_label(st, label)
        assert st.game.narrate(events, None, NAMES)[0] == spectator
        mine = st.game.narrate(events, 0, NAMES)[0]
        assert mine.startswith("Your ") and "Ada" not in mine
        theirs = st.game.narrate(events, 1, NAMES)[0]
        assert "Bo" not in theirs
    assert set(LINES) >= {"steal", "meltdown", "restore", "unload", "bot_held", "step_done"}
