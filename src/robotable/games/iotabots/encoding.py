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
from .content import TYPE_TOKEN
from .effects import stats as bot_stats
from .rules import can_attack
from .state import BATTLE, OVER, Bot, IotabotsState

if TYPE_CHECKING:
    from robotable.core.protocol import Action

    from . import IotabotsGame

BASE = 52
PHASES = ("order", "mulligan", "main1", "battle", "main2", "end", "over")
GLOBAL = len(PHASES) + 4
PER_PLAYER = 9
PER_SLOT = 9
PENDING = 4
PENDING_KINDS = ("bot", "hand", "junk")  # a pending choice's kind, by its Choice value


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


# Both encoders fill the one layout (`_layout`) from the same few numbers: `encode_observation`
# reads them from a view's dicts, `encode_state` from the state (the RL adapters' path, no dicts
# built), reading only what that seat's view shows: its own hand, never the rival's nor a deck.


def _layout(
    game: IotabotsGame,
    me: int,
    header: tuple,
    players: list,
    fields: list,
    hand: list,
    junks: list,
    pending: int,
) -> list[float]:
    """`header`: (phase index, duel turn, max turns, active seat, deciding seat, duel number);
    per seat, mine first: `players` (life, mana, mana max, deck count, hand count, junk count,
    duel wins, protected, mulligans), `fields` each Bot's (card, ATK, DEF, token, can attack now,
    summoned this turn, controlled by a rival, counters, ignition ready) and `junks` its cards;
    `hand` my hand's cards; `pending` the kind of the effect choice pending (a Choice), or -1."""
    n = game.num_cards
    out: list[float] = [0.0] * observation_size(game)
    phase, duel_turn, max_turns, active, deciding, duel = header
    out[phase] = 1.0
    i = len(PHASES)
    out[i] = duel_turn / max(1, max_turns)
    out[i + 1] = 1.0 if active == me else 0.0
    out[i + 2] = 1.0 if deciding == me else 0.0
    out[i + 3] = duel / 3
    i = GLOBAL
    for life, mana, mana_max, deck, hand_count, junk, wins, protect, mulligans in players:
        out[i : i + PER_PLAYER] = [
            life / 20,
            mana / 6,
            mana_max / 6,
            deck / 33,
            hand_count / 10,
            junk / 33,
            wins / 2,
            1.0 if protect else 0.0,
            mulligans / 2,
        ]
        i += PER_PLAYER
    for field in fields:
        for slot in range(5):
            if slot < len(field):
                card, atk, dfn, token, ready, summoned, borrowed, counters, ignition = field[slot]
                out[i : i + PER_SLOT] = [
                    1.0,
                    atk / 10,
                    dfn / 10,
                    1.0 if token else 0.0,
                    1.0 if ready else 0.0,
                    1.0 if summoned else 0.0,
                    1.0 if borrowed else 0.0,
                    counters / 3,
                    1.0 if ignition else 0.0,
                ]
                out[i + PER_SLOT + card] = 1.0
            i += PER_SLOT + n
    for card in hand:
        out[i + card] += 1 / 3
    i += n
    for junk in junks:
        for card in junk:
            out[i + card] += 1 / 3
        i += n
    if pending >= 0:
        out[i] = 1.0
        out[i + 1 + pending] = 1.0
    return out


def encode_observation(game: IotabotsGame, view: dict[str, Any]) -> list[float]:
    me = view["seat"] if view["seat"] in (0, 1) else 0
    by_name = game.by_name
    seats = [view["players"][me], view["players"][1 - me]]
    header = (
        PHASES.index(view["phase"]),
        view["duel_turn"],
        view["max_turns"],
        view["active"],
        view["current_player"],
        view["duel"],
    )
    players = [
        (
            p["life"],
            p["mana"],
            p["mana_max"],
            p["deck_count"],
            p["hand_count"],
            len(p["junk"]),
            p["duel_wins"],
            p["bot_protect"],
            p["mulligans"],
        )
        for p in seats
    ]
    fields = [
        [
            (
                by_name[b["name"]],
                b["atk"],
                b["def"],
                b["token"],
                b["can_attack_now"],
                b["summoned_this_turn"],
                b["owner"] != b["controller"],
                b["counters"],
                b["has_ignition"] and not b["ignition_used"],
            )
            for b in p["field"]
        ]
        for p in seats
    ]
    hand = [by_name[c["name"]] for c in seats[0]["hand"] or []]
    junks = [[by_name[c["name"]] for c in p["junk"]] for p in seats]
    pending = view["pending"]
    kind = -1 if pending is None else PENDING_KINDS.index(pending["kind"])
    return _layout(game, me, header, players, fields, hand, junks, kind)


def encode_state(game: IotabotsGame, state: IotabotsState, seat: Any) -> list[float]:
    """`encode_observation(game, state.observation_view(seat))`, read from the state: a card is
    its index in the pool (`by_name` of its name), a hand is read only for its own seat."""
    me = seat if seat in (0, 1) else 0
    over = state.phase == OVER
    header = (
        int(state.phase),
        state.turn,
        game.options["max_turns"],
        state.active,
        state.current_player(),
        len(state.results) + (0 if over else 1),
    )
    players = []
    fields = []
    for s in (me, 1 - me):
        players.append(
            (
                state.life[s],
                state.mana[s],
                state.mana_max[s],
                len(state.deck[s]),
                len(state.hand[s]),
                len(state.junk[s]),
                state.results.count(s),
                state.protect[s],
                state.mulligans[s],
            )
        )
        fields.append([_bot(game, state, s, bot) for bot in state.field[s]])
    hand = state.hand[me] if seat == me else []  # a spectator sees as seat 0, without its hand
    junks = [state.junk[me], state.junk[1 - me]]
    kind = -1 if state.choice is None else state.choice[0]
    return _layout(game, me, header, players, fields, hand, junks, kind)


def _bot(game: IotabotsGame, state: IotabotsState, seat: int, bot: Bot) -> tuple:
    """A Bot's numbers for `_layout`, as view.bot_view has them."""
    atk, dfn = bot_stats(state, seat, bot)
    return (
        bot.card,
        atk,
        dfn,
        game.cards[bot.card].type == TYPE_TOKEN,
        seat == state.active and state.phase == BATTLE and can_attack(state, bot),
        bot.entered >= state.turn and not bot.may_attack,
        bot.owner != seat,
        bot.counters,
        game.ignition[bot.card] >= 0 and not bot.used,
    )
