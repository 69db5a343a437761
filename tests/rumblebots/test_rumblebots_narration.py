"""Golden narration: a seeded game of greedy agents as the table reads it, and the words of
events and choices (docs/rules/rumblebots.md, "Words: narration, choices and the guide").

The spectator reads every step (at most STEPS), each headed by the acting seat's name; then the
first SEAT_STEPS steps as Ada (the first seat) reads them, her own steps headed by the choice as
she read it. Regenerate with ROBOTABLE_REGEN=1 and read the file: it must read like a game host.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

from robotable.agents import make_agent
from robotable.games.rumblebots import rules
from robotable.games.rumblebots.actions import ChooseTarget, UseContraption
from robotable.games.rumblebots.narration import LINES
from robotable.games.rumblebots.state import RumblebotsState

from .rb_helpers import battle, game, ids_of

GOLDEN = Path(__file__).with_name("rumblebots_narration.txt")
NAMES = ["Ada", "Bo"]
SEED = 22
STEPS = 200
SEAT_STEPS = 30


def _steps(seed: int = SEED, num_players: int = 2, cap: int = STEPS):
    g = game(num_players)
    s = g.new_initial_state(seed=seed)
    agents = [make_agent("greedy", seed=10 * seed + seat) for seat in range(num_players)]
    steps = []
    while not s.is_terminal() and len(steps) < cap:
        seat = s.current_player()
        action = agents[seat].act(s)
        label = s.describe_action(action)
        steps.append((seat, label, s.apply_action(action)))
    return g, steps


def _narration() -> str:
    g, steps = _steps()
    out = [f"== Rumblebots, 2 seats, seed {SEED}: the table as a spectator reads it =="]
    for number, (seat, _, events) in enumerate(steps, 1):
        out.append(f"{number}. {NAMES[seat]}")
        out.extend(f"    {line}" for line in g.narrate(events, None, NAMES))
    out.append("")
    out.append(f"== The first {SEAT_STEPS} steps as Ada reads them ==")
    for number, (seat, label, events) in enumerate(steps[:SEAT_STEPS], 1):
        out.append(f"{number}. You: {label}" if seat == 0 else f"{number}. {NAMES[seat]}")
        out.extend(f"    {line}" for line in g.narrate(events, 0, NAMES))
    return "\n".join(out) + "\n"


def test_rb_golden_narration():
    text = _narration()
    if os.environ.get("ROBOTABLE_REGEN") or not GOLDEN.exists():
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text(), "narration changed: regenerate with ROBOTABLE_REGEN=1"


def test_rb_every_step_says_what_its_seat_did():
    """Each decision yields at least one line for the spectator naming the acting seat, and its
    seat reads "you" in at least one line."""
    for seed, n in ((SEED, 2), (5, 4)):
        g, steps = _steps(seed, n)
        names = ["Ada", "Bo", "Cy", "Dee"][:n]
        for seat, label, events in steps:
            public = g.narrate(events, None, names)
            assert any(names[seat] in line for line in public), (seat, label, public)
            own = g.narrate(events, seat, names)
            assert any(re.search(r"\byou", line, re.IGNORECASE) for line in own), own


def test_rb_choices_name_bots_with_their_numbers_and_no_position():
    g = game(2)
    s = g.new_initial_state(seed=7)
    labels = [e["label"] for e in s.legal_action_entries(s.current_player())]
    assert labels[-1] == "end your Build Phase, losing your 1 unspent scrap"
    rng = random.Random(7)
    while not s.is_terminal():
        entries = s.legal_action_entries(s.current_player())
        labels = [e["label"] for e in entries]
        assert len(set(labels)) == len(labels), labels
        for e in entries:
            assert not re.search(r"\[|\bslot\b|\bseat \d", e["label"]), e["label"]
            if e["action"]["type"] == "build_lab":
                a = e["action"]
                d = g.content.by_name[a["name"]]
                assert e["label"].startswith(f"build {'the Contraption ' * d.contraption}")
                assert f"for {d.cost} scrap" in e["label"]
                assert f"tier {a['tier']} Laboratory row" in e["label"]
        s.apply_action(rng.choice(s.legal_actions()))


def test_rb_target_and_contraption_choices_and_their_lines():
    g = game(2)
    s, _ = battle(
        g,
        [["Fridge Fortress"], ["Bulby", "Mechchicken"]],
        champion=0,
        contraptions=[[], ["Overclocker"]],
    )
    labels = [e["label"] for e in s.legal_action_entries(1)]
    assert labels == [
        "use your Overclocker: your attacking gang gets +2 attack this clash",
        "use no Contraption now",
    ]
    events = s.apply_action(UseContraption("Overclocker"))
    lines = g.narrate(events, None, NAMES)
    assert lines[:3] == [
        "Bo uses the Contraption Overclocker.",
        "The Overclocker: Bo's attacking gang gets +2 attack this clash.",
        "Bo's attack 4 against Ada's defense 7: not enough yet.",
    ]
    assert g.narrate(events, 1, NAMES)[0] == "You use the Contraption Overclocker."
    # a defending bot to defeat, chosen by the Enter bot's owner
    t = _defeat_choice(g)
    labels = [e["label"] for e in t.legal_action_entries(t.current_player())]
    assert labels == [
        "defeat the Champion's defending Rust Rooster (defense 2)",
        "defeat the Champion's defending Mechchicken (defense 1)",
    ]
    lines = g.narrate(t.apply_action(ChooseTarget("Rust Rooster")), None, NAMES)
    assert lines[0] == (
        "Bo's Thunder Stag defeats Ada's defending Rust Rooster, which goes to the discard pile."
    )


def _defeat_choice(g) -> RumblebotsState:
    s = g.new_initial_state(seed=0)
    s.phase = rules.BATTLE
    s.champion, s.challenger = 0, 1
    s.collection = [ids_of(g, "Bulby", "Rust Rooster", "Mechchicken"), ids_of(g, "Thunder Stag")]
    s.defense = s.collection[0][1:]
    s.bdeck = [s.collection[0][:1], list(s.collection[1])]
    s.active = [True, True]
    s.bstep = rules.BS_REVEAL
    rules.advance_battle(s, [])
    s._legal = None
    assert s.pending and s.current_player() == 1
    return s


def test_rb_every_event_kind_has_its_line():
    """The kinds the rules emit (read from the source) are all worded."""
    src = Path(rules.__file__).parent
    emitted = set()
    for path in src.glob("*.py"):
        emitted |= set(re.findall(r'"type": "([a-z_]+)"', path.read_text()))
    assert emitted <= set(LINES), sorted(emitted - set(LINES))
    assert all(line is not None for line in LINES.values())


def test_rb_guide_explains_what_the_table_prints():
    terms = " ".join(game(2).glossary()).lower()
    for word in ("atk", "def", "crit", "bar", "cost", "workshop", "laboratory", "champion",
                 "challenger", "clash", "gang", "contraption", "reactor", "cryo-cell", "storage",
                 "scan", "showdown", "dominance", "tier", "faction", "underdog"):  # fmt: skip
        assert word in terms, word
