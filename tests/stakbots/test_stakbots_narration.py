"""Narration: a whole greedy game in words (golden file), every event kind worded by hand-built
events, and the choices as the deciding seat reads them.

Regenerate the golden file after an intended wording change with ROBOTABLE_REGEN=1 and read it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import robotable
from robotable.agents import make_agent
from robotable.core.narration import Voice
from robotable.games.stakbots import narration

from .sbkit import do, game, play, position

GOLDEN = Path(__file__).with_name("stakbots_narration.txt")
SEED = 45
NAMES = ["Ada", "Bo"]
READER_STEPS = 30


def greedy_game() -> tuple[robotable.Game, list[tuple[int, str, list[dict]]]]:
    """Seat, the choice in its own words, events: one entry per step of a seeded greedy game."""
    g = game(2)
    st = g.new_initial_state(SEED)
    agents = [make_agent("greedy", seed=1), make_agent("greedy", seed=2)]
    steps = []
    while not st.is_terminal():
        seat = st.current_player()
        action = agents[seat].act(st)
        label = st.describe_action(action)
        steps.append((seat, label, st.apply_action(action)))
    return g, steps


def transcript() -> str:
    g, steps = greedy_game()
    out = [
        f"# Stak Bots, 2 seats (Ada and Bo, greedy agents), game seed {SEED}",
        "",
        "## The whole game, as a spectator reads it",
        "",
    ]
    for number, (seat, _label, events) in enumerate(steps, start=1):
        out.append(f"{number}. {NAMES[seat]}")
        out += [f"   {line}" for line in g.narrate(events, None, NAMES)]
    out += [
        "",
        f"## The first {READER_STEPS} steps, as Ada reads them (her choices in her words)",
        "",
    ]
    for number, (seat, label, events) in enumerate(steps[:READER_STEPS], start=1):
        out.append(f"{number}. You: {label}" if seat == 0 else f"{number}. {NAMES[seat]}")
        out += [f"   {line}" for line in g.narrate(events, 0, NAMES)]
    return "\n".join(out) + "\n"


def test_golden_narration() -> None:
    text = transcript()
    if os.environ.get("ROBOTABLE_REGEN") or not GOLDEN.exists():
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()


def test_every_step_says_what_its_seat_did() -> None:
    g, steps = greedy_game()
    for seat, _label, events in steps:
        public = g.narrate(events, None, NAMES)
        assert public and NAMES[seat] in public[0], (NAMES[seat], public)


def test_lines_cover_every_event_the_engine_emits() -> None:
    source = "".join(
        (Path(narration.__file__).with_name(name)).read_text()
        for name in ("rules.py", "effects.py")
    )
    emitted = set(re.findall(r'"type": "(\w+)"', source))
    assert emitted == set(narration.LINES)
    assert all(line is not None for line in narration.LINES.values())


SPECTATOR = Voice.of(2, None, NAMES)
ADA = Voice.of(2, 0, NAMES)
BO = Voice.of(2, 1, NAMES)

# (event, what a spectator reads, what Ada reads)
CASES = [
    (
        {"type": "turn_started", "seat": 1, "turn": 4},
        "Turn 4: Bo's turn.",
        "Turn 4: Bo's turn.",
    ),
    (
        {"type": "turn_ended", "seat": 0, "turn": 3, "repaired": 2, "out": False},
        "Ada ends the turn; all 2 damaged cards are repaired.",
        "You end the turn; all 2 damaged cards are repaired.",
    ),
    (
        {"type": "turn_ended", "seat": 0, "turn": 3, "repaired": 0, "out": True},
        "Ada's turn ends, as Ada is out.",
        "Your turn ends, as you are out.",
    ),
    (
        {"type": "drew", "seat": 0, "hand_size": 3},
        "Ada draws a card and now holds 3 cards.",
        "You now hold 3 cards.",
    ),
    (
        {"type": "draw_skipped", "seat": 1},
        "Bo draws nothing: the supply and the scrapheap are both empty.",
        "Bo draws nothing: the supply and the scrapheap are both empty.",
    ),
    (
        {"type": "reshuffled", "cards": 12},
        "The supply is empty: the scrapheap's 12 cards are shuffled into a new supply.",
        "The supply is empty: the scrapheap's 12 cards are shuffled into a new supply.",
    ),
    (
        {"type": "played", "seat": 0, "card": "Shot Bot", "id": 3, "power": 0},
        "Ada plays Shot Bot (power 0) onto their stak.",
        "You play Shot Bot (power 0) onto your stak.",
    ),
    (
        {
            "type": "scrapped",
            "seat": 1,
            "card": "Core Bot",
            "id": 5,
            "power": 4,
            "from": "stak",
            "reason": "combat",
            "top_card": "Shot Bot",
            "top_power": 0,
        },
        "Bo's Core Bot (power 4) is scrapped; Bo's Shot Bot (power 0) is on top now.",
        "Bo's Core Bot (power 4) is scrapped; Bo's Shot Bot (power 0) is on top now.",
    ),
    (
        {
            "type": "scrapped",
            "seat": 0,
            "card": "Pit Bot",
            "id": 5,
            "power": 1,
            "from": "stak_face_down",
            "reason": "Clumsy Bot",
        },
        "The bottom card of Ada's stak, a face-down Pit Bot (power 1), is scrapped.",
        "The bottom card of your stak, a face-down Pit Bot (power 1), is scrapped.",
    ),
    (
        {
            "type": "scrapped",
            "seat": 0,
            "card": "Core Bot",
            "id": 5,
            "power": 7,
            "from": "hand",
            "reason": "scrap",
        },
        "Ada scraps Core Bot (power 7) from their hand.",
        "You scrap Core Bot (power 7) from your hand.",
    ),
    (
        {
            "type": "scrapped",
            "seat": 1,
            "card": "Leader Bot",
            "id": 5,
            "power": 3,
            "from": "stak",
            "reason": "damage",
        },
        "Bo's Leader Bot (power 3) is scrapped: its damage reached its power.",
        "Bo's Leader Bot (power 3) is scrapped: its damage reached its power.",
    ),
    (
        {"type": "returned", "seat": 1, "card": "Core Bot", "id": 2, "power": 5},
        "Core Bot (power 5) goes back to Bo's hand, seen by everyone.",
        "Core Bot (power 5) goes back to Bo's hand, seen by everyone.",
    ),
    (
        {
            "type": "reset",
            "seat": 0,
            "card": "Core Bot",
            "id": 2,
            "power": 5,
            "damage": 2,
            "top": True,
            "by_seat": 1,
            "by_card": "Tranq Bot",
        },
        "Bo's Tranq Bot resets Ada's Core Bot (power 5, 2 damage): it turns face-down and its "
        "damage is cleared.",
        "Bo's Tranq Bot resets your Core Bot (power 5, 2 damage): it turns face-down and its "
        "damage is cleared.",
    ),
    (
        {"type": "flipped", "seat": 1, "card": "Trip Bot", "id": 9, "power": 0},
        "Bo's top card turns face-up: Trip Bot (power 0).",
        "Bo's top card turns face-up: Trip Bot (power 0).",
    ),
    (
        {"type": "entry_effect", "seat": 0, "card": "Shot Bot", "id": 3, "bot": "Shot"},
        "Entry effect of Ada's Shot Bot: Ada chooses a top card to take 4 damage.",
        "Entry effect of your Shot Bot: you choose a top card to take 4 damage.",
    ),
    (
        {
            "type": "ability",
            "seat": 0,
            "card": "Spike Bot",
            "ability": "spike",
            "target_seat": 1,
            "target_card": "Trip Bot",
            "hit_card": "Core Bot",
        },
        "Ada's Spike Bot damaged Bo's Core Bot, so the card beneath it will be scrapped.",
        "Your Spike Bot damaged Bo's Core Bot, so the card beneath it will be scrapped.",
    ),
    (
        {
            "type": "attack",
            "seat": 1,
            "card": "Stomp Bot",
            "id": 1,
            "target": 0,
            "target_card": "Core Bot",
            "target_id": 2,
            "power": 3,
            "target_power": 5,
            "forced": True,
            "again": True,
            "damage": 5,
            "target_damage": 6,
        },
        "Bo's Stomp Bot (power 3) keeps attacking Ada's Core Bot (power 5): it deals 3 damage "
        "(6 in all) and takes 5.",
        "Bo's Stomp Bot (power 3) keeps attacking your Core Bot (power 5): it deals 3 damage "
        "(6 in all) and takes 5.",
    ),
    (
        {
            "type": "shot",
            "seat": 0,
            "card": "Shot Bot",
            "target_seat": 0,
            "target_card": "Shot Bot",
            "target_power": 0,
            "damage": 4,
            "target_damage": 4,
        },
        "Ada's Shot Bot shoots itself: 4 damage.",
        "Your Shot Bot shoots itself: 4 damage.",
    ),
    (
        {
            "type": "reaped",
            "seat": 1,
            "card": "Reaper Bot",
            "target_seat": 0,
            "target_card": "Fatal Bot",
            "target_power": 2,
        },
        "Bo's Reaper Bot reaps Ada's Fatal Bot (power 2).",
        "Bo's Reaper Bot reaps your Fatal Bot (power 2).",
    ),
    (
        {
            "type": "begone",
            "seat": 0,
            "card": "Begone Bot",
            "target_seat": 1,
            "target_card": "Core Bot",
            "target_power": 6,
        },
        "Ada's Begone Bot sends away Bo's Core Bot (power 6).",
        "Your Begone Bot sends away Bo's Core Bot (power 6).",
    ),
    (
        {
            "type": "tripped",
            "seat": 0,
            "card": "Trip Bot",
            "target_seat": 1,
            "target_card": "Core Bot",
            "target_power": 6,
            "alone": True,
        },
        "Ada's Trip Bot trips Bo's Core Bot (power 6): it is alone in its stak, so nothing moves.",
        "Your Trip Bot trips Bo's Core Bot (power 6): it is alone in its stak, so nothing moves.",
    ),
    (
        {
            "type": "pitted",
            "seat": 1,
            "card": "Pit Bot",
            "target_seat": 0,
            "target_card": "Bash Bot",
            "target_power": 2,
            "alone": False,
        },
        "Bo's Pit Bot pits Ada's Bash Bot (power 2): it goes face-up to the bottom of Ada's stak.",
        "Bo's Pit Bot pits your Bash Bot (power 2): it goes face-up to the bottom of your stak.",
    ),
    (
        {
            "type": "moved",
            "seat": 0,
            "card": "Sidekick Bot",
            "position": "second from top",
            "top_card": "Fatal Bot",
            "top_power": 2,
        },
        "Ada's Sidekick Bot drops one place; Ada's Fatal Bot (power 2) is on top now.",
        "Your Sidekick Bot drops one place; your Fatal Bot (power 2) is on top now.",
    ),
    (
        {"type": "expel", "seat": 1, "card": "Expel Bot", "target_seat": 0, "hand_size": 2},
        "Bo's Expel Bot expels Ada: Ada has to scrap one of their 2 hand cards.",
        "Bo's Expel Bot expels you: you have to scrap one of your 2 hand cards.",
    ),
    (
        {
            "type": "effect_fizzled",
            "seat": 1,
            "card": "Expel Bot",
            "bot": "Expel",
            "why": "empty_hand",
            "target_seat": 0,
        },
        "Ada has no card in hand, so nothing is scrapped.",
        "You have no card in hand, so nothing is scrapped.",
    ),
    (
        {
            "type": "effect_fizzled",
            "seat": 0,
            "card": "Reaper Bot",
            "bot": "Reaper",
            "why": "no_target",
        },
        "The entry effect of Ada's Reaper Bot does nothing: there is no other top card.",
        "The entry effect of your Reaper Bot does nothing: there is no other top card.",
    ),
    (
        {
            "type": "effect_lapsed",
            "card": "Shot Bot",
            "id": 3,
            "why": "not on top",
            "seat": 1,
            "where": "stak",
        },
        "The waiting entry effect of Bo's Shot Bot is lost: it is no longer a top card.",
        "The waiting entry effect of Bo's Shot Bot is lost: it is no longer a top card.",
    ),
    (
        {"type": "effect_lapsed", "card": "Shot Bot", "id": 3, "why": "not on top"},
        "The waiting entry effect of Shot Bot is lost: it left its stak.",
        "The waiting entry effect of Shot Bot is lost: it left its stak.",
    ),
    (
        {"type": "seat_out", "seat": 1, "hand_size": 2},
        "Bo is out of the game: Bo's stak is empty, and Bo's hand goes to the scrapheap.",
        "Bo is out of the game: Bo's stak is empty, and Bo's hand goes to the scrapheap.",
    ),
    (
        {
            "type": "game_over",
            "reason": "last_stak",
            "returns": [1.0, 0.0],
            "winners": [0],
            "turn": 9,
        },
        "Ada wins: the last player with cards in their stak.",
        "You win: the last player with cards in your stak.",
    ),
    (
        {
            "type": "game_over",
            "reason": "turn_cap",
            "returns": [0.5, 0.5],
            "winners": [0, 1],
            "turn": 200,
        },
        "Turn 200 was the last one allowed: the game is a draw between Ada and Bo, the players "
        "still in.",
        "Turn 200 was the last one allowed: the game is a draw between you and Bo, the players "
        "still in.",
    ),
    (
        {
            "type": "game_over",
            "reason": "wipe_out_draw",
            "returns": [0.5, 0.5],
            "winners": [0, 1],
            "turn": 7,
        },
        "The game is a draw between Ada and Bo: their last staks emptied together.",
        "The game is a draw between you and Bo: their last staks emptied together.",
    ),
]


@pytest.mark.parametrize(("event", "spectator", "ada"), CASES, ids=[c[0]["type"] for c in CASES])
def test_each_event_kind_in_words(event: dict, spectator: str, ada: str) -> None:
    assert narration.narrate_event(event, SPECTATOR) == spectator
    assert narration.narrate_event(event, ADA) == ada


def test_a_drawn_card_is_named_only_to_its_drawer() -> None:
    g = game(2)
    drawn = {"type": "card_drawn", "seat": 1, "card": "Reaper Bot", "id": 4, "power": 1, "to": [1]}
    assert g.narrate([drawn], 1, NAMES) == ["You draw Reaper Bot (power 1)."]
    assert g.narrate([drawn], 0, NAMES) == [] and g.narrate([drawn], None, NAMES) == []
    assert narration.narrate_event(drawn, BO) == "You draw Reaper Bot (power 1)."


def test_choices_name_cards_and_players_for_the_deciding_seat() -> None:
    st = position([["?Core:2", "Core:5", "Core:4"], ["Core:6", "Core:3"]], hands=[["Shot"], []])
    words = [st.describe_action(a) for a in st.legal_actions()]
    assert words == [
        "play Shot Bot (power 0) onto your stak (entry effect: choose a top card: it takes"
        " 4 damage)",
        "scrap your top card, Core Bot (power 4)",
        "scrap Shot Bot (power 0) from your hand (entry effect: choose a top card: it takes"
        " 4 damage)",
        "attack your opponent's Core Bot (power 3) with your Core Bot (power 4)",
    ]
    do(st, "attack", target=1)
    play(st, "shot")
    words = [st.describe_action(a) for a in st.legal_actions()]
    assert words == [
        "shoot your Shot Bot itself for 4 damage",
        "shoot your opponent's Core Bot (power 6) for 4 damage",
    ]


def test_choices_with_more_seats_name_players_by_turn_order() -> None:
    st = position([["Core:5"], ["Core:3"], ["Core:4"], ["Core:2"]], hands=[["Expel"], [], [], []])
    play(st, "expel")
    words = [st.describe_action(a) for a in st.legal_actions()]
    assert words == [
        "expel yourself: scrap a card from your hand (you hold no card)",
        "expel the next player, who scraps a card from their hand (they hold none: nothing "
        "happens)",
        "expel the opposite player, who scraps a card from their hand (they hold none: nothing "
        "happens)",
        "expel the previous player, who scraps a card from their hand (they hold none: nothing "
        "happens)",
    ]


def test_the_guide_explains_what_the_table_prints() -> None:
    g = game(2)
    terms = g.glossary()
    for term in ("Stak", "Scrapheap", "Supply", "Entry effect", "Power", "P", "r", "dmg", "X"):
        assert term in terms, term
    for bot in ("Core", "Shot", "Leader", "Tranq", "Pit"):
        assert f"{bot} Bot" in terms
