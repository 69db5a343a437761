"""RL encodings (IB-12): a fixed action index space and a flat observation built from a view.

Action indices (N = number of cards in the pool):
  0-1 choose_order (second, first) | 2-3 mulligan (keep, redraw) | 4 enter_battle | 5 end_battle
  6 end_turn | 7-11 activate slot | 12-41 attack slot*6 + target (5 = Life Points)
  42-51 choose_bot seat*5 + slot | 52.. summon card, then play_buzz card, then choose_card card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import (
    Activate,
    Attack,
    ChooseBot,
    ChooseCard,
    ChooseOrder,
    EndBattle,
    EndTurn,
    EnterBattle,
    Mulligan,
    PlayBuzz,
    Summon,
)

if TYPE_CHECKING:
    from robotable.core.protocol import Action

    from . import IotabotsGame

BASE = 52
PHASES = ("order", "mulligan", "main1", "battle", "main2", "end", "over")
GLOBAL = len(PHASES) + 4
PER_PLAYER = 9
PER_SLOT = 9
PENDING = 4


def num_distinct_actions(game: IotabotsGame) -> int:
    return BASE + 3 * game.num_cards


def action_index(game: IotabotsGame, action: Action) -> int:
    n = game.num_cards
    if isinstance(action, ChooseOrder):
        return int(action.go_first)
    if isinstance(action, Mulligan):
        return 2 + int(action.redraw)
    if isinstance(action, EnterBattle):
        return 4
    if isinstance(action, EndBattle):
        return 5
    if isinstance(action, EndTurn):
        return 6
    if isinstance(action, Activate):
        return 7 + action.slot
    if isinstance(action, Attack):
        return 12 + action.slot * 6 + (5 if action.target < 0 else action.target)
    if isinstance(action, ChooseBot):
        return 42 + action.seat * 5 + action.slot
    if isinstance(action, Summon):
        return BASE + game.by_name[action.card]
    if isinstance(action, PlayBuzz):
        return BASE + n + game.by_name[action.card]
    if isinstance(action, ChooseCard):
        return BASE + 2 * n + game.by_name[action.card]
    raise ValueError(f"game iotabots: {action!r} is not an iotabots action")


def observation_size(game: IotabotsGame) -> int:
    n = game.num_cards
    return GLOBAL + 2 * PER_PLAYER + 10 * (PER_SLOT + n) + 3 * n + PENDING


def encode_observation(game: IotabotsGame, view: dict[str, Any]) -> list[float]:
    n = game.num_cards
    me = view["seat"] if view["seat"] in (0, 1) else 0
    out: list[float] = [0.0] * observation_size(game)
    out[PHASES.index(view["phase"])] = 1.0
    i = len(PHASES)
    out[i] = view["duel_turn"] / max(1, view["max_turns"])
    out[i + 1] = 1.0 if view["active"] == me else 0.0
    out[i + 2] = 1.0 if view["current_player"] == me else 0.0
    out[i + 3] = view["duel"] / 3
    i = GLOBAL
    players = view["players"]
    for s in (me, 1 - me):
        p = players[s]
        out[i : i + PER_PLAYER] = [
            p["life"] / 20,
            p["mana"] / 6,
            p["mana_max"] / 6,
            p["deck_count"] / 33,
            p["hand_count"] / 10,
            len(p["junk"]) / 33,
            p["duel_wins"] / 2,
            1.0 if p["bot_protect"] else 0.0,
            p["mulligans"] / 2,
        ]
        i += PER_PLAYER
    for s in (me, 1 - me):
        field = players[s]["field"]
        for slot in range(5):
            if slot < len(field):
                b = field[slot]
                out[i : i + PER_SLOT] = [
                    1.0,
                    b["atk"] / 10,
                    b["def"] / 10,
                    1.0 if b["token"] else 0.0,
                    1.0 if b["can_attack_now"] else 0.0,
                    1.0 if b["summoned_this_turn"] else 0.0,
                    1.0 if b["owner"] != b["controller"] else 0.0,
                    b["counters"] / 3,
                    1.0 if b["has_ignition"] and not b["ignition_used"] else 0.0,
                ]
                out[i + PER_SLOT + game.by_name[b["name"]]] = 1.0
            i += PER_SLOT + n
    hand = players[me]["hand"] or []
    for c in hand:
        out[i + game.by_name[c["name"]]] += 1 / 3
    i += n
    for s in (me, 1 - me):
        for c in players[s]["junk"]:
            out[i + game.by_name[c["name"]]] += 1 / 3
        i += n
    pending = view["pending"]
    if pending is not None:
        out[i] = 1.0
        out[i + 1 + ("bot", "hand", "junk").index(pending["kind"])] = 1.0
    return out
