"""Fixed-size encodings for the RL adapters (layout in docs/rules/stakbots.md, "Decisions,
views and encodings").

Action indices, with N = cards in the deck and P = seats:
  0                      end_turn
  1 .. N                 play card id
  N+1 .. 2N              scrap card id (top card or hand card: one card is never both)
  2N+1 .. 2N+P           attack seat
  2N+P+1 .. 2N+P+P*N     target (seat, depth)
  .. + P                 choose_player seat
  .. + N                 discard card id
  .. + N                 recycle card id (SB-11.4)
  .. + N                 react with card id (SB-11.5)
  .. + 1                 let the attack through (SB-11.5)
  .. + P*N               play card id onto seat's stak (SB-11.6, SB-11.8)
The SB-11 actions come last, so the base game's indices are those of earlier versions; with
several staks per seat (SB-11.12) the actions on staks after the first follow (`_multi_index`).
Observation: built from a view only, seats relative to the viewer (slot 0 = the viewer).
"""

from __future__ import annotations

from typing import Any

from .actions import (
    Attack,
    ChoosePlayer,
    Discard,
    EndTurn,
    LetThrough,
    Play,
    React,
    Recycle,
    Scrap,
    Target,
)
from .content import Bot

SLOTS = 4
BOTS = len(Bot)
BOT_INDEX = {b.title: int(b) for b in Bot}
PER_SEAT = 4 + 4 + (BOTS + 3) + BOTS + BOTS
DECISIONS = {None: 0, "top": 1, "face_up": 2, "player": 3, "discard": 4, "react": 5}
GLOBAL = (BOTS + 1) + (BOTS + 1) + 1 + (len(DECISIONS) + BOTS) + (3 + SLOTS) + 3


def _per(game: Any) -> int:
    """Staks per side in the layout: a seat's (SB-11.12) or the Drone's (SB-11.14)."""
    return max(game.options["staks"], game.drones)


def _base_size(n: int, p: int) -> int:
    """The one-stak-per-seat layout's size (every block up to the plays onto seats' staks)."""
    return 2 + 5 * n + 2 * p + 2 * p * n


def num_distinct_actions(game: Any) -> int:
    n = len(game.deck)
    p = game.num_players + (1 if game.drones else 0)  # the Drone as a seat (SB-11.14)
    extra = _per(game) - 1  # SB-11.12: the blocks for staks after the first
    if not extra:
        return _base_size(n, p)
    per = extra + 1
    return _base_size(n, p) + extra * n + p * extra * n + p * per * per + p * extra * n + extra * n


def action_index(game: Any, action: Any) -> int:
    n = len(game.deck)
    p = game.num_players + (1 if game.drones else 0)  # the Drone as a seat (SB-11.14)
    cls = type(action)
    stak = getattr(action, "stak", 0)
    if cls is Attack and (action.target_stak or action.own_stak):
        stak = 1  # any attack but first stak against first stak is in the several-staks block
    if stak:
        return _multi_index(game, action, n, p)
    if cls is EndTurn:
        return 0
    if cls is Play:
        if action.seat >= 0:
            return 1 + 5 * n + 2 * p + p * n + 1 + action.seat * n + action.card
        return 1 + action.card
    if cls is Scrap:
        return 1 + n + action.card
    if cls is Attack:
        return 1 + 2 * n + action.target
    if cls is Target:
        return 1 + 2 * n + p + action.seat * n + action.depth
    if cls is ChoosePlayer:
        return 1 + 2 * n + p + p * n + action.seat
    if cls is Discard:
        return 1 + 2 * n + 2 * p + p * n + action.card
    if cls is Recycle:
        return 1 + 3 * n + 2 * p + p * n + action.card
    if cls is React:
        return 1 + 4 * n + 2 * p + p * n + action.card
    if cls is LetThrough:
        return 1 + 5 * n + 2 * p + p * n
    raise ValueError(f"game stakbots: {action!r} is not a Stak Bots action")


def _multi_index(game: Any, action: Any, n: int, p: int) -> int:
    """SB-11.12's blocks, after the base layout: plays onto your own staks 2.., plays onto a
    seat's staks 2.., attacks (target seat, its stak, your stak), choices on staks 2..,
    recycling with staks 2..."""
    per = _per(game)
    extra = per - 1
    base = _base_size(n, p)
    cls = type(action)
    if cls is Play and action.seat < 0:
        return base + (action.stak - 1) * n + action.card
    base += extra * n
    if cls is Play:
        return base + (action.seat * extra + action.stak - 1) * n + action.card
    base += p * extra * n
    if cls is Attack:
        return base + (action.target * per + action.target_stak) * per + action.own_stak
    base += p * per * per
    if cls is Target:
        return base + (action.seat * extra + action.stak - 1) * n + action.depth
    base += p * extra * n
    if cls is Recycle:
        return base + (action.stak - 1) * n + action.card
    raise ValueError(f"game stakbots: {action!r} is not a Stak Bots action")


def observation_size(game: Any) -> int:
    return SLOTS * PER_SEAT + GLOBAL


def _bot_counts(cards: list[dict[str, Any]]) -> list[float]:
    out = [0.0] * BOTS
    for c in cards:
        out[BOT_INDEX[c["bot"]]] += 0.25
    return out


def _one_hot(index: int | None, size: int) -> list[float]:
    out = [0.0] * size
    if index is not None and 0 <= index < size:
        out[index] = 1.0
    return out


def encode_observation(game: Any, view: dict[str, Any]) -> list[float]:
    sides = list(view["seats"])
    drone = view.get("drone")
    if drone:  # SB-11.14: the Drone fills the slot after the seats, with no hand
        sides.append({**drone, "hand_size": 0, "known_hand": []})
    p = len(sides)
    me = view["seat"] if view["seat"] is not None else 0
    obs: list[float] = []
    for k in range(SLOTS):
        if k >= p:
            obs.extend([0.0] * PER_SEAT)
            continue
        sv = sides[(me + k) % p]
        # Several staks per seat (SB-11.12) read as one: their cards together, the top of the
        # first stak still in play.
        stak = [c for k in sv["staks"] for c in k["cards"]]
        up = [c for c in stak if c["face_up"]]
        obs += [
            1.0,
            float(sv["in_game"]),
            float(view["active"] == sv["seat"]),
            float(view["current_player"] == sv["seat"]),
            len(stak) / 20,
            sv["hand_size"] / 10,
            len(up) / 20,
            (len(stak) - len(up)) / 20,
        ]
        top = next((k["top"] for k in sv["staks"] if k["top"]), None)
        if top and top["face_up"]:
            obs += _one_hot(BOT_INDEX[top["bot"]], BOTS)
            obs += [top["current_power"] / 8, top["damage"] / 8, top["rank"] / 6]
        else:
            obs += [0.0] * (BOTS + 3)
        obs += _bot_counts(up)
        obs += _bot_counts(sv["known_hand"])
    own = view["seats"][me]["hand"] if view["seat"] is not None else None
    own = own or []
    obs += _bot_counts(own)
    obs.append(sum(c["power"] for c in own if c["power"] != "X") / 20)
    obs += _bot_counts(view["scrapheap"])
    obs.append(len(view["scrapheap"]) / 60)
    obs.append(view["supply_size"] / 60)
    d = view["decision"]
    obs += _one_hot(DECISIONS[d["kind"] if d else None], len(DECISIONS))
    obs += _one_hot(BOT_INDEX[d["card"]["bot"]] if d else None, BOTS)
    stomp = view["stomp_target"]
    obs += [
        float(view["attacked_this_turn"]),
        float(view["attacker_stopped"]),
        float(view["scrapheap_fed"]),
    ]
    obs += _one_hot((stomp - me) % p if stomp is not None else None, SLOTS)
    obs += [
        view["turn"] / view["options"]["max_turns"],
        view["actions_this_turn"] / 60,
        float(view["terminal"]),
    ]
    return obs
