"""Reading the board: a card's power (SB-1.2, SB-8.10) and where it sits; changes nothing
(`mark` only writes where a stak is into an event)."""

from __future__ import annotations

from .state import UP, StakBotsState

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython


@cython.locals(st=StakBotsState)
def printed(st: StakBotsState, c: int) -> int | str:
    """A card's printed power for events: a number, or "X" for a Leader Bot (SB-8.10)."""
    p = st.game.base_power[c]
    return p if p >= 0 else "X"


@cython.locals(st=StakBotsState)
def power_now(st: StakBotsState, c: int) -> int:
    """`power`, with the common case (a printed number) read without a call."""
    p = st.game.base_power[c]
    return p if p >= 0 else power(st, c)


def power(st: StakBotsState, c: int) -> int:
    """A card's current power (SB-1.2); a Leader Bot's X counted live (SB-8.10)."""
    p = st.game.base_power[c]
    if p >= 0:
        return p
    vis = st.vis
    for stak in st.staks:
        if c in stak:
            if vis[c] != UP:
                return 0
            i = stak.index(c)
            lo = i
            while lo > 0 and vis[stak[lo - 1]] == UP:
                lo -= 1
            hi = i
            top = len(stak) - 1
            while hi < top and vis[stak[hi + 1]] == UP:
                hi += 1
            return hi - lo + 1
    return 0


def stak_of(st: StakBotsState, c: int) -> int:
    for s, stak in enumerate(st.staks):
        if c in stak:
            return s
    return -1


def top_stak(st: StakBotsState, c: int) -> int:
    """The stak whose face-up top card `c` is, else -1 (SB-6.5); its owner is
    `game.owner[k]`."""
    if st.vis[c] != UP:
        return -1
    for k, stak in enumerate(st.staks):
        if stak and stak[-1] == c:
            return k
    return -1


@cython.locals(st=StakBotsState)
def mark(st: StakBotsState, event: dict, k: int, seat_key: str = "seat") -> dict:
    """Name stak k in an event: its owner under `seat_key`, and with several staks per seat
    (SB-11.12) which of them under the matching stak key ("stak", "target_stak")."""
    g = st.game
    event[seat_key] = g.owner[k]
    if g.several[k]:
        event[seat_key.replace("seat", "stak")] = g.local[k]
    return event
