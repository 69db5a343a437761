"""Golden playthrough: a seeded random match, rendered step by step and diffed against a file.

Regenerate with ROBOTABLE_REGEN=1 after an intended rules change, and review the diff.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import robotable

GOLDEN = Path(__file__).with_name("iotabots_playthrough.txt")
STEPS = 60


def playthrough() -> str:
    game = robotable.load_game("iotabots", deck0="hijack", deck1="beacon")
    state = game.new_initial_state(seed=2026)
    rnd = random.Random(7)
    out = [f"# iotabots golden playthrough: seed 2026, choices random.Random(7), {STEPS} steps"]
    for step in range(1, STEPS + 1):
        if state.is_terminal():
            break
        seat = state.current_player()
        legal = state.legal_actions()
        action = legal[0] if len(legal) == 1 else rnd.choice(legal)
        out.append(f"\n## step {step}: seat {seat} decides")
        out.append(game.render(state, seat))
        # the choices as the deciding seat reads them (State.describe_action)
        out.append("legal: " + " | ".join(state.describe_action(a) for a in legal))
        out.append(f"chosen: {state.describe_action(action)}")
        state.apply_action(action)
    out.append("\n## final, spectator view")
    out.append(game.render(state, None))
    return "\n".join(out) + "\n"


def test_ib_golden_playthrough():
    text = playthrough()
    if os.environ.get("ROBOTABLE_REGEN") or not GOLDEN.exists():
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text(), "playthrough changed: rerun with ROBOTABLE_REGEN=1"
