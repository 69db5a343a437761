"""The runner: same seed, same games, whatever the worker count; failing games are recorded."""

from __future__ import annotations

import pytest

import robotable
from robotable.sim.analysis import make_variants, summarize
from robotable.sim.runner import RunSpec, Variant, _batches, plan_jobs, run

from .test_sim_game import TinyGame  # noqa: F401 - registers the "simtiny" game

TIMING_KEYS = {"seconds", "games_per_second", "backend", "workers", "startup_seconds"}


def comparable(summary: dict) -> dict:
    """A summary without wall-clock numbers, which legitimately differ between runs."""
    out = {k: v for k, v in summary.items() if k not in TIMING_KEYS}
    if "lengths" in out:
        out["lengths"] = {k: v for k, v in out["lengths"].items() if k != "seconds"}
    if "variants" in out:
        out["variants"] = [comparable(v) for v in out["variants"]]
    return out


def per_game(outcome) -> list[tuple]:
    return [
        (
            r.variant,
            r.index,
            r.seed,
            r.arrangement,
            r.returns,
            r.actions,
            r.turns,
            r.cards,
            r.extras,
        )
        for r in outcome.results
    ]


def test_plan_gives_each_game_its_seed_and_swaps_seats_halfway():
    spec = RunSpec("simtiny", 2, ("random", "greedy"), games=10, seed=4)
    jobs = plan_jobs(spec)
    assert [j.arrangement for j in jobs] == [(0, 1)] * 5 + [(1, 0)] * 5
    assert len({j.seed for j in jobs}) == 10
    assert plan_jobs(spec) == jobs


def test_games_that_take_seconds_go_to_workers_one_at_a_time():
    """A batch's games reach the results file only when the whole batch is done: quick games
    are batched (per-task overhead), slow ones go one by one so a Ctrl-C loses only the games
    in play."""
    jobs = list(range(100))
    assert {len(b) for b in _batches(jobs, 2)} == {7, 2}  # 100 games over 16 batches
    assert {len(b) for b in _batches(jobs, 2, seconds_per_game=0.001)} == {7, 2}
    assert max(len(b) for b in _batches(jobs, 2, seconds_per_game=0.5)) == 4
    slow = _batches(jobs, 2, seconds_per_game=90.0)
    assert [len(b) for b in slow] == [1] * 100 and [b[0] for b in slow] == jobs


def test_one_and_two_workers_give_identical_results(tmp_path):
    variants = make_variants({"target": [8, 12]})
    spec = RunSpec(
        "simtiny",
        3,
        ("random", "greedy"),
        games=60,
        seed=11,
        variants=variants,
        error_dir=str(tmp_path),
    )
    one = run(spec, workers=1)
    two = run(spec, workers=2)
    assert two.backend == "processes" and one.backend == "in-process"
    assert per_game(one) == per_game(two)
    assert comparable(summarize(one)) == comparable(summarize(two))
    assert len(summarize(one)["variants"]) == 2


def test_stakbots_same_result_for_one_and_two_workers(tmp_path):
    if "stakbots" not in robotable.game_names():
        pytest.skip("stakbots is not registered")
    spec = RunSpec("stakbots", 2, ("random", "greedy"), games=12, seed=3, error_dir=str(tmp_path))
    one = run(spec, workers=1)
    two = run(spec, workers=2)
    assert per_game(one) == per_game(two)
    summary = summarize(one)
    assert summary["errors"] == 0
    assert summary["cards"], "stakbots events name seats and cards"


def test_failing_games_are_recorded_counted_and_do_not_stop_the_run(tmp_path):
    spec = RunSpec(
        "simtiny",
        2,
        ("random",),
        games=40,
        seed=1,
        variants=(Variant(0, "crashy", (("crash_every", 4),)),),
        error_dir=str(tmp_path),
    )
    outcome = run(spec, workers=1)
    failed = [r for r in outcome.results if r.returns is None]
    expected = sum(1 for j in plan_jobs(spec) if j.seed % 4 == 0)
    assert expected > 0 and len(failed) == expected
    summary = summarize(outcome)
    assert summary["errors"] == expected
    assert summary["completed"] == 40 - expected
    assert sum(summary["wins"]) + summary["draws"] == 40 - expected
    record = robotable.load_record(failed[0].record_path)
    assert record["error"]["step"] == 3 and "crash on purpose" in record["error"]["message"]
    # The record reproduces the failure: the first two steps replay, the third raises again.
    game = robotable.load_game(record["game"], num_players=2, **record["options"])
    state = game.new_initial_state(seed=record["seed"])
    for data in record["actions"][:2]:
        state.apply_action(game.action_from_json(data))
    with pytest.raises(RuntimeError, match="crash on purpose"):
        state.apply_action(game.action_from_json(record["actions"][2]))


def test_a_game_that_never_ends_is_an_error(tmp_path):
    spec = RunSpec("simtiny", 2, ("random",), games=3, max_actions=2, error_dir=str(tmp_path))
    outcome = run(spec, workers=1)
    assert all(r.returns is None and "did not end" in r.error for r in outcome.results)
    assert len(list(tmp_path.iterdir())) == 3


@pytest.mark.parametrize("name", robotable.core.registry.bundled_game_names())
def test_every_bundled_game_runs_in_the_lab(name, tmp_path):
    cls = robotable.core.registry.game_class(name)
    spec = RunSpec(name, cls.min_players, ("random",), games=2, seed=2, error_dir=str(tmp_path))
    summary = summarize(run(spec, workers=1))
    assert summary["errors"] == 0, summary["error_messages"]
    assert summary["mean_actions"] > 0 and summary["extras"]


def test_the_agents_table_shows_every_agent_name_whole(tmp_path):
    """Two listed agents with one long spec differ only by the second's "#2": a narrow terminal
    folds the name rather than cutting the "#2" off, so the rows can be told apart."""
    from rich.console import Console

    from robotable.sim.text import json_safe, print_summary

    agent = "greedy:noise=0.25"
    spec = RunSpec("simtiny", 2, (agent, agent), games=4, seed=1, error_dir=str(tmp_path))
    summary = json_safe(summarize(run(spec, workers=1)))
    console = Console(record=True, width=60)
    print_summary(summary, console)
    table = console.export_text().split("agents (per seat-game)")[1].split("\n\n")[0]
    names = "".join(row.split("│")[1].strip() for row in table.splitlines() if "│" in row)
    assert names == agent + agent + "#2"
