"""RL encodings: a fixed action index space and a flat observation of what a seat sees.

Layouts (D = number of card designs in the loaded card file; 47 for the bundled set) are
documented in docs/rules/rumblebots.md, section "Encodings". The observation is read from a view
(`encode`) or, several times faster, from the state itself (`encode_state`), field by field as
view.py shows it to the seat; both fill the layout through `_fill`, and
tests/envs/test_envs_encode_state.py holds the two to the same floats.
"""

from __future__ import annotations

from typing import Any

from robotable.core.errors import IllegalAction
from robotable.core.protocol import Action

from .content import FACTIONS, Content
from .effects import clash_numbers
from .state import BATTLE, PENDING_NAMES, SHOWDOWN, RumblebotsState

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

MAX_SEATS = 4
_FIXED = {"end_turn": 0, "upgrade": 1, "energize_scrap": 2, "energize_cryo": 3}
_SCAN = 4  # + tier - 1
_LAB = 8  # + (tier - 1) * 4 + slot
_PASS = 24
_FACTION = 25  # + faction index
_BLOCKS = 31  # then four blocks of D: build_scanned, recycle, use_contraption, choose_target
_BLOCK_KINDS = ("build_scanned", "recycle", "use_contraption", "choose_target")
_SEAT_FIXED = 11


class Encoding:
    def __init__(self, content: Content) -> None:
        designs = content.designs
        self.d = len(designs)
        self.index = {d.name: d.index for d in designs}
        self.design = [self.index[c.name] for c in content.cards]  # by physical card id
        self.num_actions = _BLOCKS + 4 * self.d
        self.obs_size = 12 + MAX_SEATS * (_SEAT_FIXED + self.d) + 4 * self.d + 4 + 6

    def action_index(self, action: Action) -> int:
        kind = action.kind
        if kind in _FIXED:
            return _FIXED[kind]
        if kind == "energize_scan":
            return _SCAN + action.tier - 1  # type: ignore[attr-defined]
        if kind == "build_lab":
            return _LAB + (action.tier - 1) * 4 + action.slot  # type: ignore[attr-defined]
        if kind == "pass_contraption":
            return _PASS
        if kind == "choose_faction":
            return _FACTION + FACTIONS.index(action.faction)  # type: ignore[attr-defined]
        if kind in _BLOCK_KINDS:
            name = action.name  # type: ignore[attr-defined]
            if name not in self.index:
                raise IllegalAction(f"game rumblebots: no card named {name!r} to encode")
            return _BLOCKS + _BLOCK_KINDS.index(kind) * self.d + self.index[name]
        raise IllegalAction(f"game rumblebots: cannot encode {action!r}")

    @cython.locals(d=cython.Py_ssize_t, at=cython.Py_ssize_t, out=list)
    def _fill(
        self,
        round_no: int,
        phase: int,
        showdown: bool,
        clockwise: bool,
        supply: int,
        spaces: list[int],
        seats: list[tuple[list[float], list[int]]],
        lab: list[int],
        hand: list[int],
        battle: tuple[list[int], list[int], tuple[int, int, int, int]] | None,
        pending: int,
    ) -> list[float]:
        """The observation: the round and its phase (0 build, 1 battle, 2 over), then per seat
        from the viewer's on its _SEAT_FIXED numbers and the designs it owns, the Laboratory's
        designs, the viewer's hand, the battle (the defense and attack gangs' designs, the
        clash's attack, defense, crits and crits needed), and the pending decision (0 none, else its kind + 1). Designs are
        counted a quarter each."""
        d = self.d
        out = [0.0] * self.obs_size
        out[0] = round_no / 6
        out[1 + phase] = 1.0
        out[4] = 1.0 if showdown else 0.0
        out[5] = 1.0 if clockwise else 0.0
        out[6] = supply / 30
        for i, x in enumerate(spaces[:5]):
            out[7 + i] = x / 4
        at = 12
        for fixed, owned in seats:
            out[at : at + _SEAT_FIXED] = fixed
            _count(owned, out, at + _SEAT_FIXED)
            at += _SEAT_FIXED + d
        at = 12 + MAX_SEATS * (_SEAT_FIXED + d)
        _count(lab, out, at)
        at += d
        _count(hand, out, at)
        at += d
        if battle is not None:
            defense, attack, (atk, dfn, crits, needed) = battle
            _count(defense, out, at)
            _count(attack, out, at + d)
            out[at + 2 * d : at + 2 * d + 4] = [atk / 20, dfn / 20, crits / 10, needed / 10]
        at += 2 * d + 4
        out[at + pending] = 1.0
        return out

    def encode(self, view: dict[str, Any]) -> list[float]:
        index = self.index
        me = view["seat"] if view["seat"] is not None else 0
        all_seats = view["seats"]
        n = len(all_seats)
        seats = []
        for k in range(min(n, MAX_SEATS)):
            p = all_seats[(me + k) % n]
            cr = p["crystals"]
            battle = p.get("battle")
            fixed = _seat_numbers(
                p["champion"],
                p["workshop_tier"],
                p["scraps"],
                (cr["storage"], cr["reactor"], cr["cryo_cell"]),
                view["current_player"] == p["seat"],
                (battle["active"], battle["deck_count"]) if battle else None,
                p["hand_count"],
            )
            owned = p["bots"] + p["contraptions"] + p["built_this_phase"]
            seats.append((fixed, [index[c["name"]] for c in owned]))
        lab = [index[c["name"]] for row in view["laboratory"]["rows"] for c in row["slots"] if c]
        own = all_seats[me].get("hand", []) if view["seat"] is not None else []
        b = view["battle"]
        battle = None
        if b is not None:
            clash = (b["attack"], b["defense"], b["crits"], b["crits_needed"])
            gangs = [
                [index[c["name"]] for c in b[gang]] for gang in ("defense_gang", "attack_gang")
            ]
            battle = (gangs[0], gangs[1], clash)
        pending = view["pending"]
        return self._fill(
            view["round"],
            ("build", "battle", "over").index(view["phase"]),
            view["showdown"],
            view["direction"] == "clockwise",
            view["crystal_supply"],
            view["round_spaces"],
            seats,
            lab,
            [index[c["name"]] for c in own],
            battle,
            PENDING_NAMES.index(pending["kind"]) + 1 if pending else 0,
        )

    @cython.locals(
        s=RumblebotsState,
        design=list,
        n=cython.long,
        me=cython.long,
        k=cython.long,
        p=cython.long,
        t=cython.long,
        c=cython.long,
    )
    def encode_state(self, s: RumblebotsState, seat: int | None) -> list[float]:
        """`encode(s.observation_view(seat))` read from the state: each value is the one view.py
        shows `seat` (a scanned hand only to its holder, a battle deck by its size)."""
        design = self.design
        n = s.game.num_players
        me = seat if seat is not None else 0
        player = s.current_player()
        in_battle = s.phase == BATTLE
        seats = []
        for k in range(min(n, MAX_SEATS)):
            p = (me + k) % n
            fixed = _seat_numbers(
                p == s.champion,
                s.tier[p],
                s.scraps[p],
                (s.storage[p], s.reactor[p], s.cryo[p]),
                player == p,
                (s.active[p], len(s.bdeck[p])) if in_battle else None,
                len(s.hand[p]),
            )
            seats.append((fixed, [design[c] for c in s.collection[p] + s.fresh[p]]))
        lab = [design[c] for t in range(1, 5) if s.lab_open[t] for c in s.lab[t] if c >= 0]
        battle = None
        if in_battle:
            atk, crit, dfn, _, needed = clash_numbers(s)
            battle = (
                [design[c] for c in s.defense],
                [design[c] for c in s.attack],
                (atk, dfn, crit, needed),
            )
        return self._fill(
            s.round,
            s.phase,
            s.round == SHOWDOWN,
            s.direction == 1,
            s.supply,
            s.spaces,
            seats,
            lab,
            [design[c] for c in s.hand[seat]] if seat is not None else [],
            battle,
            s.pending[-1][0] + 1 if s.pending else 0,
        )


def _seat_numbers(
    champion: bool,
    tier: int,
    scraps: int,
    crystals: tuple[int, int, int],
    deciding: bool,
    battle: tuple[bool, int] | None,
    hand_count: int,
) -> list[float]:
    """A seat's _SEAT_FIXED numbers: crystals in Storage, Reactor and Cryo-cell; `battle` its
    (still in the battle, battle deck size) during a battle."""
    storage, reactor, cryo = crystals
    return [
        1.0,
        1.0 if champion else 0.0,
        tier / 4,
        scraps / 10,
        storage / 10,
        reactor / 10,
        cryo / 10,
        1.0 if deciding else 0.0,
        1.0 if battle and battle[0] else 0.0,
        (battle[1] / 20) if battle else 0.0,
        hand_count / 10,
    ]


@cython.locals(out=list, at=cython.Py_ssize_t, i=cython.Py_ssize_t)
def _count(designs: list[int], out: list[float], at: int) -> None:
    for i in designs:
        out[at + i] += 0.25


# The protocol's entry points (core.protocol.Game.encoding): the game builds its Encoding once
# from its content (`game.encoder`).
def num_distinct_actions(game: Any) -> int:
    return game.encoder.num_actions


def action_index(game: Any, action: Any) -> int:
    return game.encoder.action_index(action)


def observation_size(game: Any) -> int:
    return game.encoder.obs_size


def encode_observation(game: Any, view: dict[str, Any]) -> list[float]:
    return game.encoder.encode(view)


def encode_state(game: Any, state: Any, seat: int | None) -> list[float]:
    return game.encoder.encode_state(state, seat)
