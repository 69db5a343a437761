"""scripts/card_worth.py: a card's takers beside the same seats of the same deals without it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from robotable.sim.analysis import make_variants
from robotable.sim.results_file import ResultsFileError, write_results
from robotable.sim.runner import GameResult, run
from script_modules import load_script

from .test_sim_game import TinyGame  # noqa: F401 - registers the "simtiny" game
from .test_sim_resume import _spec as resume_spec


@pytest.fixture(scope="module")
def card_worth():
    return load_script("card_worth")


def _game(index: int, winner: int, cards, seed: int | None = None, moments=()) -> GameResult:
    returns = tuple(1.0 if seat == winner else 0.0 for seat in range(2))
    return GameResult(
        0,
        index,
        index if seed is None else seed,
        (0, 0),
        returns,
        2,
        2,
        0.0,
        cards=cards,
        first_mover=0,
        turn_order=(0, 1),
        moments=moments,
    )


def test_each_taker_is_set_beside_its_own_seat_on_the_same_deal(card_worth):
    took, bid = (("took", "Cog"),), (("bid", "Cog"),)
    with_card = [
        _game(0, 0, (took, ())),  # won with it and without it
        _game(1, 1, ((), took)),  # won only with it
        _game(2, 0, (took, bid)),  # won only with it; seat 1 only bid
        _game(3, 1, (took, ())),  # won only without it
        _game(4, 1, (took, ())),  # lost both
    ]
    without = [
        _game(0, 0, ((), ())),
        _game(1, 0, ((), ())),
        _game(2, 1, ((), took)),
        _game(3, 0, ((), ())),
        _game(4, 1, ((), ())),
    ]
    pairs = card_worth.same_deals(with_card, without, ("a", "b"))
    worth = card_worth.card_worth(pairs, "cog", ["took"])
    assert worth["card"] == "Cog"  # the name as the games spell it
    assert worth["seat_games"] == 5
    assert (worth["wins_with"], worth["wins_without"]) == (3, 2)
    assert worth["changed"] == {"lost": 2, "gained": 1}
    assert worth["worth"] == pytest.approx(0.2)
    low, high = worth["worth_ci"]
    assert low < 0.2 < high
    assert worth["taken_in_second"] == {"seat_games": 1, "wins": 1}
    assert worth["same_winner"] == 2 and worth["alike"] is None  # no moments recorded
    # Every event naming the card counts when no type is given: seat 1's bid in game 2 as well.
    assert card_worth.card_worth(pairs, "Cog", [])["seat_games"] == 6


def test_only_games_still_alike_when_the_card_was_taken_count_as_alike(card_worth):
    pip, cog = ("took", "Pip", 1, (1, 2)), ("took", "Cog", 0, (1, 2))
    other = ("took", "Pip", 0, (1, 2))  # the second game's first moment differs: it parted
    took = (("took", "Cog"),)
    with_card = [
        _game(0, 0, (took, ()), moments=(pip, cog)),  # followed until Cog: alike, won only with
        _game(1, 0, (took, ()), moments=(pip, cog)),  # parted before: not alike
        _game(2, 1, (took, ()), moments=(cog,)),  # taken first: alike, lost both
    ]
    without = [
        _game(0, 1, ((), ()), moments=(pip, ("took", "Dud", 1, (1, 2)))),
        _game(1, 1, ((), ()), moments=(other, cog)),
        _game(2, 1, ((), ()), moments=()),
    ]
    worth = card_worth.card_worth(card_worth.same_deals(with_card, without, ("a", "b")), "Cog", [])
    assert worth["alike"] is None  # one game of the second run holds no moments
    without[2] = _game(2, 1, ((), ()), moments=(("took", "Ace", 0, (1, 2)),))
    worth = card_worth.card_worth(card_worth.same_deals(with_card, without, ("a", "b")), "Cog", [])
    assert worth["seat_games"] == 3 and worth["changed"] == {"lost": 2, "gained": 0}
    alike = worth["alike"]
    assert alike["seat_games"] == 2 and alike["changed"] == {"lost": 1, "gained": 0}
    assert (alike["wins_with"], alike["wins_without"]) == (1, 0)
    text = "\n".join(card_worth.describe(worth, ("a", "b")))
    assert "In 2 of those 3 seat-games the second game was still the first" in text
    assert "Cog is worth +50.0 points" in text  # the two alike seat-games: one win lost


def test_a_game_that_is_not_the_same_deal_is_refused(card_worth):
    first = [_game(0, 0, ((), ())), _game(1, 0, ((), ()))]
    second = [_game(0, 0, ((), ())), _game(1, 0, ((), ()), seed=99)]
    with pytest.raises(ResultsFileError, match="game 1 is not the same deal in a and b"):
        card_worth.same_deals(first, second, ("a", "b"))
    # A game missing from the second file (a run stopped early) is left out, not an error.
    assert len(card_worth.same_deals(first, second[:1], ("a", "b"))) == 1


def _results(tmp_path, name: str, **kw) -> Path:
    spec = resume_spec(
        tmp_path,
        **{
            "agents": ("greedy",),
            "games": 40,
            "variants": make_variants({}),
            "quality": False,
            **kw,
        },
    )
    return write_results(tmp_path / name, spec, run(spec, workers=1).results)


def test_a_card_nulled_on_the_same_deals_reads_as_worth_points(card_worth, tmp_path, capsys):
    nulled = tmp_path / "nulled.toml"
    # The bundled deck with Cog (3 points) worth nothing: the same cards, so the same deals.
    nulled.write_text(
        "".join(
            f'[[card]]\nname = "{n}"\nvalue = {0 if n == "Cog" else v}\n'
            for n, v in (("Ace", 1), ("Bolt", 2), ("Cog", 3), ("Dud", 0))
        )
    )
    bundled = _results(tmp_path, "bundled.jsonl")
    without = _results(tmp_path, "without.jsonl", variants=make_variants({"cards": [str(nulled)]}))
    args = [str(bundled), str(without), "--card", "Cog", "--events", "play", "--json"]
    assert card_worth.main(args) == 0
    worth = json.loads(capsys.readouterr().out)
    assert worth["deals"] == 40 and worth["seat_games"] > 0
    assert worth["changed"]["lost"] > worth["changed"]["gained"]
    assert worth["worth"] > 0
    # The same file on both sides: every taker's result is the same, the card worth nothing.
    assert card_worth.main([str(bundled), str(bundled), "--card", "Cog", "--events", "play"]) == 0
    out = capsys.readouterr().out
    assert "Cog is worth +0.0 points" in out and "0 of those seat-games won only with it" in out


def test_runs_of_other_deals_or_games_get_one_line(card_worth, tmp_path, capsys):
    bundled = _results(tmp_path, "bundled.jsonl", games=4)
    other_seed = _results(tmp_path, "other.jsonl", games=4, seed=8)
    assert card_worth.main([str(bundled), str(other_seed), "--card", "Cog"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("card_worth: game 0 is not the same deal in ") and err.count("\n") == 1
    three = _results(tmp_path, "three.jsonl", games=3, num_players=3)
    assert card_worth.main([str(bundled), str(three), "--card", "Cog"]) == 2
    assert "simtiny at 3 seats" in capsys.readouterr().err
    assert card_worth.main([str(tmp_path / "none.jsonl"), str(bundled), "--card", "Cog"]) == 2
    assert "none.jsonl" in capsys.readouterr().err
    # A run stopped before its first game: nothing to set side by side, said in one line.
    empty = tmp_path / "empty.jsonl"
    empty.write_text(bundled.read_text().splitlines()[0] + "\n")
    assert card_worth.main([str(bundled), str(empty), "--card", "Cog"]) == 2
    assert (
        capsys.readouterr().err
        == f"card_worth: no deal is finished in both {bundled} and {empty}\n"
    )
