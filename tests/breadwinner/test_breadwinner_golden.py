"""Golden playthrough: a seeded random game's first steps, rendered from the deciding seat.

Any change of behaviour shows up as a diff. Regenerate with ROBOTABLE_REGEN=1 after an intended
change, and review the diff.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import robotable

GOLDEN = Path(__file__).with_name("golden_playthrough.txt")
STEPS = 60


def playthrough() -> str:
    game = robotable.load_game("breadwinner")
    state = game.new_initial_state(seed=2026)
    choices = random.Random(2026)
    out = []
    for step in range(STEPS):
        if state.is_terminal():
            break
        seat = state.current_player()
        legal = state.legal_actions()
        # Favour doing something over ending a step, so the sample shows the map in use.
        # Step 4 always ends the turn at once (no deactivating).
        active = [a for a in legal if a.kind not in ("end", "hold", "deactivate")]
        if not active:
            active = [a for a in legal if a.kind != "deactivate"]
        action = active[choices.randrange(len(active))]
        out.append(f"=== step {step}: seat {'AB'[seat]} decides ===")
        out.append(game.render(state, seat))
        out.append("legal:")
        out.extend(f"  [{i}] {a}" for i, a in enumerate(legal))
        out.append(f"chosen: {action}")
        events = state.apply_action(action)
        out.append("events: " + "; ".join(e["type"] for e in events))
        out.append("")
    return "\n".join(out) + "\n"


def test_bw_golden_playthrough():
    text = playthrough()
    if os.environ.get("ROBOTABLE_REGEN") or not GOLDEN.exists():
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text(), "playthrough changed: rerun with ROBOTABLE_REGEN=1"
