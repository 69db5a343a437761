"""The lab's verdict in words (sim/verdicts.py): sentences for constructed results, the warning
for agents too weak to judge cards, the same sentences in the terminal, the report and the JSON."""

from __future__ import annotations

import html
import json
import math
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from robotable.sim.analysis import summarize
from robotable.sim.runner import RunSpec, run
from robotable.sim.text import json_safe
from robotable.sim.verdicts import card_points, verdicts


def _first_mover(advantage: float, ci: tuple[float, float], p: float, fair: float = 0.5):
    return {
        "games": 200,
        "wins": round(200 * (fair + advantage)),
        "win_rate": fair + advantage,
        "ci": [fair + ci[0], fair + ci[1]],
        "fair_share": fair,
        "advantage": advantage,
        "advantage_ci": list(ci),
        "p_value": p,
        "p_adjusted": p,
        "by_seat": {"0": 200},
        "positions": [],
    }


def _card(name: str, odds_ratio: float | None, ci, p_adjusted: float | None, ranked=True):
    return {
        "card": name,
        "odds_ratio": odds_ratio if ranked else None,
        "ci": list(ci) if ranked else None,
        "p_adjusted": p_adjusted if ranked else None,
        "ranked": ranked,
        "significant_adjusted": ranked and p_adjusted is not None and p_adjusted < 0.05,
    }


def _summary(first=None, cards=(), agents=("greedy",), completed=200, **extra):
    """The keys of a `simulate --json` object that the verdicts read."""
    return {
        "game": "stakbots",
        "num_players": 2,
        "games": completed,
        "games_planned": completed,
        "completed": completed,
        "errors": 0,
        "draws": 0,
        "agents": list(agents),
        "first_mover": first or _first_mover(0.0, (-0.05, 0.05), 1.0),
        "first_seat": {"fair_share": 0.5},
        "lengths": {"turns": {"median": 9.5, "p25": 7.0, "p75": 13.0}},
        "quality": {"end_reason": {"counts": {"win": completed, "turn_cap": 0, "draw": 0}}},
        "card_impact_stratified": {"rows": list(cards)},
        "variants": [{"label": "all games"}],
        **extra,
    }


def test_a_first_mover_edge_the_test_is_sure_of_is_likely_real():
    lines = verdicts(_summary(_first_mover(0.17, (0.04, 0.28), 0.01, fair=0.48)))
    assert lines[0] == (
        "Moving first is worth +17 points (seat 1 always moves first and wins 65%; a fair share "
        "is 48%): likely real."
    )


def test_a_small_first_mover_edge_with_a_narrow_interval_is_fair_within_10_points():
    lines = verdicts(_summary(_first_mover(0.01, (-0.05, 0.07), 0.7)))
    assert lines[0] == (
        "Moving first is worth +1 point (seat 1 always moves first and wins 51%; a fair share is "
        "50%): could be chance; fair within 10 points."
    )


def test_a_wide_interval_is_not_enough_games_to_tell_and_a_small_run_says_so():
    lines = verdicts(_summary(_first_mover(0.1, (-0.2, 0.35), 0.4), completed=12))
    assert lines[0].startswith("Only 12 games finished: not enough games to tell much")
    assert lines[1].endswith("): not enough games to tell.")
    assert verdicts(_summary(completed=0)) == ["No game finished: there is nothing to judge yet."]


def test_an_interrupted_run_says_how_many_games_its_verdict_rests_on():
    lines = verdicts(_summary(interrupted=True, games_planned=400))
    assert lines[0] == "Interrupted: this verdict rests on 200 finished games of 400 planned."


def test_a_first_mover_who_changes_is_named_the_first_mover():
    first = {**_first_mover(-0.06, (-0.12, 0.01), 0.09), "by_seat": {"0": 100, "1": 100}}
    assert verdicts(_summary(first))[0].startswith(
        "Moving first is worth -6 points (the first mover wins 44%;"
    )


def test_cards_the_test_is_sure_of_are_named_strong_and_weak_in_points():
    cards = [
        _card("Core Bot", 2.0, (1.4, 2.9), 0.001),
        _card("Bash Bot", 1.05, (0.8, 1.3), 1.0),
        _card("Trip Bot", 0.5, (0.35, 0.7), 0.002),
        _card("Zap Bot", None, None, None, ranked=False),
    ]
    lines = verdicts(_summary(cards=cards))
    # An odds ratio of 2 moves an even 50% to 67%: +17 points.
    assert "Core Bot is strong: +17 points to its seat's chance of winning (likely real)." in lines
    assert "Trip Bot is weak: -17 points to its seat's chance of winning (likely real)." in lines
    assert not any("Bash Bot" in line for line in lines)
    assert "1 card came up too rarely to judge: not enough games to tell." in lines


def test_with_no_card_clearly_apart_the_highest_and_lowest_are_given_with_how_sure():
    cards = [
        _card("Spike Bot", 1.9, (0.4, 4.5), 0.4),
        _card("Bash Bot", 1.05, (0.9, 1.2), 1.0),
        _card("Fatal Bot", 0.9, (0.8, 1.01), 0.3),
    ]
    lines = verdicts(_summary(cards=cards))
    assert (
        "No card is clearly strong or weak yet: the highest is Spike Bot, +16 points (not enough "
        "games to tell), the lowest Fatal Bot, -3 points (could be chance); four times the games "
        "halve the doubt: `--games 800`." in lines
    )


def test_random_agents_are_warned_about_and_get_no_card_verdict():
    cards = [_card("Trip Bot", 0.2, (0.1, 0.5), 0.001), _card("Core Bot", 0.5, (0.3, 0.8), 0.01)]
    lines = verdicts(_summary(cards=cards, agents=("random",)))
    assert lines[0].startswith("Warning: the agents (random) play at random or nearly")
    assert "use greedy or stronger: `-a greedy`" in lines[0]
    assert not any("Trip Bot" in line for line in lines)
    # `easy` is greedy with noise 0.5: near random too; greedy with less noise is not.
    assert verdicts(_summary(agents=("easy",)))[0].startswith("Warning: the agents (easy)")
    assert not any(
        line.startswith("Warning") for line in verdicts(_summary(agents=("greedy:noise=0.3",)))
    )


def test_one_random_agent_among_others_is_named_and_the_cards_still_judged():
    cards = [_card("Core Bot", 2.0, (1.4, 2.9), 0.001)]
    lines = verdicts(_summary(cards=cards, agents=("random", "greedy")))
    assert lines[0].startswith("Warning: random plays at random or nearly")
    assert any(line.startswith("Core Bot is strong") for line in lines)


def test_every_card_leaning_one_way_is_a_warning_about_the_games():
    cards = [_card(f"Bot {i}", 0.6 + 0.05 * i, (0.3, 1.2), 0.5) for i in range(5)]
    lines = verdicts(_summary(cards=cards))
    assert lines[0].startswith("Warning: all 5 cards judged come out weak")


def test_stalls_and_draws_are_counted():
    quality = {"end_reason": {"counts": {"win": 180, "turn_cap": 15, "draw": 5}}}
    lines = verdicts(_summary(quality=quality))
    assert "A game lasts about 10 turns (half of them between 7 and 13 turns)." in lines
    assert (
        "15 of 200 games (8%) stopped at the turn cap without a winner: games can stall." in lines
    )
    assert "5 of 200 games (2%) ended in a draw." in lines
    rare = {"end_reason": {"counts": {"win": 998, "turn_cap": 1, "draw": 1}}}
    lines = verdicts(_summary(quality=rare, completed=1000))
    assert "1 of 1000 games (under 1%) stopped at the turn cap without a winner: games can " in (
        " ".join(lines)
    )
    assert not any("draw" in line for line in lines)


def test_each_variant_gets_its_own_first_mover_and_length_under_its_label():
    capped = {"end_reason": {"counts": {"win": 10, "turn_cap": 30, "draw": 0}}}
    variants = [
        {**_summary(_first_mover(0.17, (0.04, 0.28), 0.01), completed=40), "label": "rules=a"},
        {**_summary(quality=capped, completed=40), "label": "rules=b"},
    ]
    lines = verdicts(_summary(completed=80, variants=variants))
    assert lines[0].startswith("With rules=a: moving first is worth +17 points")
    assert lines[1].startswith("With rules=b: moving first is worth 0 points")
    assert (
        "With rules=b: 30 of 40 games (75%) stopped at the turn cap without a winner: games can "
        "stall." in lines
    )
    assert not any(line.startswith("With rules=a: 30 of") for line in lines)


def test_an_experiment_is_answered_first_in_points():
    restriction = {
        "cards": ["Core Bot"],
        "base": "greedy",
        "restricted_win_rate": 0.33,
        "fair_share": 0.5,
        "importance": 0.17,
        "importance_ci": [0.04, 0.30],
        "p_value": 0.01,
    }
    lines = verdicts(_summary(restriction=restriction))
    assert lines[0] == (
        "Core Bot is worth +17 points to greedy (barred from it, greedy wins 33%; a fair share "
        "is 50%): likely real."
    )
    together = {**restriction, "cards": ["Core Bot", "Shot Bot"], "p_value": 0.3}
    assert verdicts(_summary(restriction=together))[0].startswith(
        "Core Bot and Shot Bot together are worth +17 points to greedy (barred from them,"
    )
    depth = {
        "search": "mcts:1000",
        "baseline": "greedy",
        "win_rate": 0.45,
        "fair_share": 0.5,
        "advantage": -0.05,
        "advantage_ci": [-0.2, 0.12],
        "p_value": 0.5,
    }
    assert verdicts(_summary(depth=depth))[0] == (
        "Playing mcts:1000 instead of greedy is worth -5 points (it wins 45%; a fair share is "
        "50%): not enough games to tell."
    )


def test_the_verdicts_of_a_real_run_read_alike_from_the_summary_and_its_json(tmp_path):
    spec = RunSpec("stakbots", 2, ("greedy",), games=24, error_dir=str(tmp_path))
    summary = summarize(run(spec, workers=1))
    assert verdicts(summary) == verdicts(json_safe(summary))
    assert verdicts(summary)


def test_text_report_and_json_carry_the_same_sentences(invoke, tmp_path):
    out, report = tmp_path / "s.json", tmp_path / "r.html"
    args = ["simulate", "stakbots", "--games", "16", "--agents", "random", "--workers", "1"]
    result = invoke(*args, "--seed", "3", "--json-out", str(out), "--report", str(report))
    assert result.exit_code == 0, result.output
    lines = json.loads(out.read_text())["verdicts"]
    assert lines[0].startswith("Only 16 games finished")
    assert any(line.startswith("Warning: the agents (random)") for line in lines)
    text, page = result.output, report.read_text()
    # The verdict opens both, before the numbers behind it.
    assert (
        text.index("Verdict:") < text.index("The numbers behind it:") < text.index("first mover (")
    )
    assert page.index("<h2>Verdict</h2>") < page.index("<h2>The numbers behind it</h2>")
    for line in lines:
        assert f"- {line}\n" in text
        assert f">{html.escape(line)}</li>" in re.sub("</?code>", "`", page)
    as_json = invoke(*args, "--seed", "3", "--json")
    assert json.loads(as_json.stdout)["verdicts"] == lines


_ratios = st.floats(0.05, 20, allow_nan=False)


@st.composite
def _cards(draw):
    cards = []
    for i in range(draw(st.integers(0, 6))):
        ratio = draw(_ratios)
        low, high = sorted((ratio / draw(st.floats(1, 4)), ratio * draw(st.floats(1, 4))))
        p = draw(st.floats(0, 1))
        cards.append(_card(f"Card {i + 1}", ratio, (low, high), p, ranked=draw(st.booleans())))
    return cards


@settings(max_examples=150, deadline=None)
@given(
    advantage=st.floats(-0.45, 0.45, allow_nan=False),
    spread=st.floats(0.0, 0.3),
    p=st.floats(0, 1),
    cards=_cards(),
    agents=st.sampled_from([("greedy",), ("random",), ("random", "hard")]),
    completed=st.integers(0, 400),
)
def test_verdicts_are_one_line_without_p_values_and_their_signs_agree(
    advantage, spread, p, cards, agents, completed
):
    first = _first_mover(advantage, (advantage - spread, advantage + spread), p)
    summary = _summary(first, cards, agents, completed)
    lines = verdicts(summary)
    for line in lines:
        assert "\n" not in line and line.strip() == line
        assert "p =" not in line and "p-value" not in line and "odds ratio" not in line
    if not completed:
        return
    moving = [line for line in lines if line.startswith("Moving first is worth")]
    assert len(moving) == 1
    number = int(re.search(r"worth ([+-]?\d+) point", moving[0]).group(1))
    assert number == round(100 * advantage)
    assert number == 0 or math.copysign(1, number) == math.copysign(1, advantage)
    ratios = {c["card"]: c["odds_ratio"] for c in cards}
    for line in lines:
        named = re.match(
            r"(Card \d+) is (slightly )?(strong|weak|about even): ([+-]?\d+) point", line
        )
        if not named:
            continue
        card, word, points = named.group(1), named.group(3), int(named.group(4))
        assert (word == "strong") == (points > 0) and (word == "weak") == (points < 0)
        assert points == round(card_points(ratios[card], 0.5))
        assert points == 0 or (points > 0) == (ratios[card] > 1)
