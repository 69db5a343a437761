"""Narration: a seeded greedy-agent duel as the table reads it (golden file), and the wording of
the events and choices that name Bots (by name, owner and stats, never by slot).

Regenerate the golden file with ROBOTABLE_REGEN=1 after an intended wording change, and read it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import robotable
from robotable.agents import make_agent
from robotable.games.iotabots.actions import LIFE_POINTS, Activate, Attack, ChooseBot, PlayBuzz

from .ib_helpers import blank, give, put

GOLDEN = Path(__file__).with_name("iotabots_narration.txt")
NAMES = ["Ada", "Bo"]
SEED = 13
DECKS = ("hijack", "beacon")
MAX_STEPS = 200
SEAT_STEPS = 30


def _play(max_steps: int) -> tuple[object, list[tuple[int, str, list[dict]]]]:
    """The first duel (or `max_steps` steps) of a seeded match between greedy agents:
    (acting seat, its choice in words, the events) per step."""
    game = robotable.load_game("iotabots", deck0=DECKS[0], deck1=DECKS[1])
    state = game.new_initial_state(seed=SEED)
    agents = [make_agent("greedy", seed=SEED), make_agent("greedy", seed=SEED + 1)]
    steps = []
    while not state.is_terminal() and len(steps) < max_steps:
        seat = state.current_player()
        action = agents[seat].act(state)
        label = state.describe_action(action)
        events = state.apply_action(action)
        steps.append((seat, label, events))
        if any(e["type"] == "duel_end" for e in events):
            break
    return game, steps


def narration() -> str:
    game, steps = _play(MAX_STEPS)
    out = [
        f"# iotabots narration: seed {SEED}, decks {DECKS[0]} (Ada) and {DECKS[1]} (Bo), "
        f"greedy agents (seeds {SEED} and {SEED + 1}), the first duel",
        "",
        "## As a spectator reads it",
    ]
    for number, (seat, _label, events) in enumerate(steps, 1):
        out.append(f"{number}. {NAMES[seat]}")
        out.extend(f"    {line}" for line in game.narrate(events, None, NAMES))
    out += ["", f"## As Ada (seat 1) reads the first {SEAT_STEPS} steps, with her choices"]
    for number, (seat, label, events) in enumerate(steps[:SEAT_STEPS], 1):
        out.append(f"{number}. {NAMES[seat]}" + (f": {label}" if seat == 0 else ""))
        out.extend(f"    {line}" for line in game.narrate(events, 0, NAMES))
    return "\n".join(out) + "\n"


def test_ib_golden_narration():
    text = narration()
    if os.environ.get("ROBOTABLE_REGEN") or not GOLDEN.exists():
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text(), "narration changed: rerun with ROBOTABLE_REGEN=1"


def test_ib_narration_spectator_never_reads_your_and_seat_reads_its_draws():
    game, steps = _play(60)
    for _seat, _label, events in steps:
        for line in game.narrate(events, None, NAMES):
            assert not re.search(r"\byou(r)?\b", line, flags=re.IGNORECASE), line
    ada = [line for _s, _l, events in steps for line in game.narrate(events, 0, NAMES)]
    assert any(line.startswith("Your new card") for line in ada)
    bo = [line for _s, _l, events in steps for line in game.narrate(events, 1, NAMES)]
    assert not any("Ada's new card" in line for line in bo)


def test_ib_narration_names_the_bots_of_a_battle():
    s = blank()
    put(s, 0, "Range Bot")
    put(s, 1, "Loaded Bot")
    events = s.apply_action(s.game.action_from_json({"type": "enter_battle"}))
    events = s.apply_action(Attack(0, 0))
    lines = s.game.narrate(events, None, NAMES)
    assert lines[0] == (
        "Ada's Range Bot (ATK 3, DEF 1) attacks Bo's Loaded Bot (ATK 4, DEF 2): "
        "Bo's Loaded Bot is destroyed and Bo loses 1 Life Point (19 left); "
        "Ada's Range Bot is destroyed and Ada loses 3 Life Points (17 left)."
    )
    assert s.game.narrate(events, 1, NAMES)[0].startswith(
        "Ada's Range Bot (ATK 3, DEF 1) attacks your Loaded Bot (ATK 4, DEF 2): "
        "your Loaded Bot is destroyed and you lose 1 Life Point (19 left)"
    )


def test_ib_narration_direct_attack_and_buzz_effect():
    s = blank()
    put(s, 0, "Tri Bot")
    s.apply_action(s.game.action_from_json({"type": "enter_battle"}))
    events = s.apply_action(Attack(0, LIFE_POINTS))
    assert s.game.narrate(events, None, NAMES) == [
        "Ada's Tri Bot (ATK 2) attacks Bo directly: Bo loses 2 Life Points (18 left)."
    ]
    s = blank()
    put(s, 0, "Loaded Bot")
    give(s, 0, "Hardening")
    events = s.apply_action(PlayBuzz("Hardening"))
    assert s.game.narrate(events, None, NAMES) == [
        "Ada activates the Buzz card Hardening for 1 mana.",
        "Hardening: Ada's Loaded Bot (now ATK 4, DEF 4) gets DEF +2 until the end of the turn.",
    ]


def test_ib_choices_name_bots_and_tell_copies_apart():
    s = blank()
    put(s, 0, "Range Bot")
    put(s, 0, "Drone Bot")
    put(s, 0, "Drone Bot")
    put(s, 1, "Loaded Bot")
    s.apply_action(s.game.action_from_json({"type": "enter_battle"}))
    labels = {a: s.describe_action(a) for a in s.legal_actions()}
    assert labels[Attack(0, 0)] == (
        "attack your opponent's Loaded Bot (ATK 4, DEF 2) with your Range Bot (ATK 3, DEF 1): "
        "their Bot is destroyed and your opponent loses 1 Life Point; "
        "your Bot is destroyed and you lose 3 Life Points"
    )
    assert labels[Attack(0, LIFE_POINTS)] == (
        "attack your opponent directly with your Range Bot (ATK 3, DEF 1): "
        "3 damage to their Life Points"
    )
    assert "your first Drone Bot" in labels[Attack(1, 0)]
    assert "your second Drone Bot" in labels[Attack(2, 0)]
    assert len(set(labels.values())) == len(labels)


def test_ib_choices_of_an_effect_say_what_the_choice_does():
    s = blank()
    put(s, 0, "Siphon Bot")
    put(s, 0, "Drone Bot")
    put(s, 0, "Tri Bot")
    give(s, 0, "Short Circuit")
    s.apply_action(Activate(0))
    labels = [s.describe_action(a) for a in s.legal_actions()]
    assert labels == [
        "tribute your Drone Bot (ATK 1, DEF 1) to pay for Siphon Bot",
        "tribute your Tri Bot (ATK 2, DEF 1) to pay for Siphon Bot",
    ]
    events = s.apply_action(ChooseBot(0, 1))
    lines = s.game.narrate(events, None, NAMES)
    assert lines[0] == "Ada tributes Drone Bot to pay for Siphon Bot."
    assert lines[1] == "Siphon Bot: Ada gains 3 Life Points (now 23)."
    assert lines[2] == "Ada draws a card (Siphon Bot)."
