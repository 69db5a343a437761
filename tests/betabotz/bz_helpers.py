"""Shared helpers for the Betabotz tests: states set up by plain data edits."""

from __future__ import annotations

import random

import robotable
from robotable.core.content import read_text
from robotable.games.betabotz.content import ATTRS, BUNDLED
from robotable.games.betabotz.rules import _open_mission
from robotable.games.betabotz.state import ST_AUCTION, ST_MISSION, BetabotzState


def bundled_content_text() -> str:
    """The bundled card file's text, for tests that write a changed copy of it."""
    return read_text(BUNDLED, package="robotable.games.betabotz")[1]


def game(n: int = 3, **options):
    return robotable.load_game("betabotz", num_players=n, **options)


def fresh(n: int = 3, seed: int = 0, **options) -> BetabotzState:
    return game(n, **options).new_initial_state(seed=seed)


def kind_named(state: BetabotzState, name: str) -> int:
    return next(k.id for k in state.content.codes if k.name == name)


def card_of_kind(state: BetabotzState, name: str) -> int:
    kind = kind_named(state, name)
    return next(i for i, k in enumerate(state.content.code_card_kind) if k == kind)


def mission_named(state: BetabotzState, name: str) -> int:
    return next(m.id for m in state.content.missions if m.name == name)


def component_named(state: BetabotzState, name: str) -> int:
    return next(c.id for c in state.content.components if c.name == name)


def breach_named(state: BetabotzState, name: str) -> int:
    return next(b.id for b in state.content.breaches if b.name == name)


def give_code(state: BetabotzState, seat: int, name: str) -> int:
    """Move one Code card of that kind (from wherever it is) into `seat`'s hand."""
    kind = kind_named(state, name)
    ck = state.content.code_card_kind
    for zone in (state.code_deck, state.code_discard, *state.hand):
        for card in zone:
            if ck[card] == kind and zone is not state.hand[seat]:
                zone.remove(card)
                state.hand[seat].append(card)
                state._legal = None
                return card
    raise AssertionError(f"no free Code card {name}")


def clear_hands(state: BetabotzState) -> None:
    for h in state.hand:
        state.code_deck.extend(h)
        h.clear()
    state._legal = None


def play_first(state: BetabotzState, until) -> None:
    """Apply the first legal action until `until(state)` holds."""
    for _ in range(5000):
        if until(state):
            return
        state.apply_action(state.legal_actions()[0])
    raise AssertionError("condition never reached")


def play_random(state: BetabotzState, rng: random.Random, until) -> None:
    for _ in range(20000):
        if until(state):
            return
        state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("condition never reached")


def at_mission(n: int = 3, seed: int = 0, **options) -> BetabotzState:
    """A state at the first mission, priority open, nothing pending."""
    s = fresh(n, seed, **options)
    play_first(s, lambda st: st.stage == ST_MISSION and not st.pending)
    s.bitz = [40] * n  # tests below count Bitz changes from a known purse
    return s


def set_mission(state: BetabotzState, name: str) -> None:
    state.mission_order[state.revealed - 1] = mission_named(state, name)
    state._legal = None


def set_attrs(state: BetabotzState, seat: int, values) -> None:
    """Give `seat` these permanent values through its damage field (base + comps - damage)."""
    from robotable.games.betabotz.effects import recompute_perm

    state.damage[seat] = [0, 0, 0, 0]
    recompute_perm(state, seat)
    state.damage[seat] = [state.perm[seat][a] - values[a] for a in range(4)]
    recompute_perm(state, seat)
    state._legal = None


def by_kind(state: BetabotzState, kind: str):
    return [a for a in state.legal_actions() if a.kind == kind]


def labels(state: BetabotzState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


__all__ = [
    "ATTRS",
    "ST_AUCTION",
    "ST_MISSION",
    "_open_mission",
]
