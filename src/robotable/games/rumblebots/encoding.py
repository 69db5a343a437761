"""RL encodings: a fixed action index space and a flat observation built from a view.

Layouts (D = number of card designs in the loaded card file; 47 for the bundled set) are
documented in docs/rules/rumblebots.md, section "Encodings".
"""

from __future__ import annotations

from typing import Any

from robotable.core.errors import IllegalAction
from robotable.core.protocol import Action

from .content import FACTIONS, Content
from .state import PENDING_NAMES

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

    def _counts(self, cards: list[dict[str, Any] | None], out: list[float], at: int) -> None:
        for c in cards:
            if c is not None:
                out[at + self.index[c["name"]]] += 0.25

    def encode(self, view: dict[str, Any]) -> list[float]:
        d = self.d
        out = [0.0] * self.obs_size
        out[0] = view["round"] / 6
        out[1 + ("build", "battle", "over").index(view["phase"])] = 1.0
        out[4] = 1.0 if view["showdown"] else 0.0
        out[5] = 1.0 if view["direction"] == "clockwise" else 0.0
        out[6] = view["crystal_supply"] / 30
        for i, x in enumerate(view["round_spaces"][:5]):
            out[7 + i] = x / 4
        me = view["seat"] if view["seat"] is not None else 0
        seats = view["seats"]
        n = len(seats)
        at = 12
        for k in range(MAX_SEATS):
            if k < n:
                p = seats[(me + k) % n]
                cr = p["crystals"]
                battle = p.get("battle")
                fixed = [
                    1.0,
                    1.0 if p["champion"] else 0.0,
                    p["workshop_tier"] / 4,
                    p["scraps"] / 10,
                    cr["storage"] / 10,
                    cr["reactor"] / 10,
                    cr["cryo_cell"] / 10,
                    1.0 if view["current_player"] == p["seat"] else 0.0,
                    1.0 if battle and battle["active"] else 0.0,
                    (battle["deck_count"] / 20) if battle else 0.0,
                    p["hand_count"] / 10,
                ]
                out[at : at + _SEAT_FIXED] = fixed
                self._counts(
                    p["bots"] + p["contraptions"] + p["built_this_phase"], out, at + _SEAT_FIXED
                )
            at += _SEAT_FIXED + d
        for row in view["laboratory"]["rows"]:
            self._counts(row["slots"], out, at)
        at += d
        own = seats[me] if view["seat"] is not None else {}
        self._counts(own.get("hand", []), out, at)
        at += d
        b = view["battle"]
        if b is not None:
            self._counts(b["defense_gang"], out, at)
            self._counts(b["attack_gang"], out, at + d)
        at += 2 * d
        if b is not None:
            out[at : at + 4] = [
                b["attack"] / 20,
                b["defense"] / 20,
                b["crits"] / 10,
                b["crits_needed"] / 10,
            ]
        at += 4
        pending = view["pending"]
        out[at + (PENDING_NAMES.index(pending["kind"]) + 1 if pending else 0)] = 1.0
        return out


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
