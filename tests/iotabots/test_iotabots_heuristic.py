"""The duel estimate's race terms (heuristic.py): turns of attacks to take the rival's Life
Points, and a board that takes them all this turn."""

from __future__ import annotations

import dataclasses
import math

import pytest

from robotable.games.iotabots.heuristic import (
    DEFAULT,
    damage_per_turn,
    duel_estimate,
    turns_to_win,
)

from .ib_helpers import blank, put

NO_RACE = dataclasses.replace(DEFAULT, clock=0.0, lethal=0.0)


def logit(p: float) -> float:
    return math.log(p / (1.0 - p))


@pytest.mark.parametrize(
    ("damage", "life", "turns"),
    [(0, 20, 6), (4, 20, 5), (5, 20, 4), (20, 3, 1), (4, 4, 1), (1, 20, 6), (4, 0, 0)],
)
def test_ib_heuristic_turns_to_win_rounds_up_and_stops_at_six(damage, life, turns):
    assert turns_to_win(damage, life) == turns


def test_ib_heuristic_damage_counts_attack_times_attacks():
    s = blank()
    put(s, 0, "Loaded Bot")  # ATK 4, one attack
    put(s, 0, "Cute Bot")  # attacks twice
    cute = s.game.cards[s.game.by_name["Cute Bot"]]
    assert damage_per_turn(s, 0) == 4 + 2 * cute.atk
    assert damage_per_turn(s, 1) == 0


def test_ib_heuristic_no_damage_while_the_rivals_field_forbids_direct_attacks():
    s = blank(direct_attack_requires_empty_zone=True)
    put(s, 0, "Loaded Bot")
    assert damage_per_turn(s, 0) == 4
    put(s, 1, "Tri Bot")
    assert damage_per_turn(s, 0) == 0


def test_ib_heuristic_a_board_that_takes_the_rest_is_worth_more_than_its_life_and_board():
    s = blank()
    put(s, 0, "Loaded Bot")
    s.life[1] = 4  # the Loaded Bot takes the rest in one attack
    lethal = logit(duel_estimate(s, 0)) - logit(duel_estimate(s, 0, NO_RACE))
    assert lethal == pytest.approx(DEFAULT.lethal + DEFAULT.clock * (6 - 1))
    s.life[1] = 12  # three turns off: a race lead, no lethal
    racing = logit(duel_estimate(s, 0)) - logit(duel_estimate(s, 0, NO_RACE))
    assert racing == pytest.approx(DEFAULT.clock * (6 - 3))
    # the rival's view is the mirror image
    assert duel_estimate(s, 1) == pytest.approx(1.0 - duel_estimate(s, 0))
