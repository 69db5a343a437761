"""Ray: the same job on a local Ray instance gives the same games as local processes."""

from __future__ import annotations

import pytest

import robotable
from robotable.sim.analysis import summarize
from robotable.sim.runner import RunSpec, run

from .test_sim_game import TinyGame  # noqa: F401 - registers the "simtiny" game
from .test_sim_runner import comparable, per_game

ray = pytest.importorskip("ray")


def test_ray_local_matches_local_processes(tmp_path):
    specs = [RunSpec("simtiny", 2, ("random", "greedy"), games=30, seed=5, error_dir=str(tmp_path))]
    if "stakbots" in robotable.game_names():
        specs.append(
            RunSpec("stakbots", 2, ("random", "greedy"), games=8, seed=5, error_dir=str(tmp_path))
        )
    # One Ray start for both runs (it is the slow part); run() leaves a Ray it did not start.
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        for spec in specs:
            local = run(spec, workers=1)
            on_ray = run(spec, workers=2, ray_address="local")
            assert on_ray.backend == "ray-local"
            assert per_game(on_ray) == per_game(local), spec.game
            assert comparable(summarize(on_ray)) == comparable(summarize(local))
        assert ray.is_initialized()
    finally:
        ray.shutdown()


def test_ray_started_for_a_run_is_shut_down_after_it(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(ray, "init", lambda **kw: calls.append(kw))
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "cluster_resources", lambda: (_ for _ in ()).throw(RuntimeError("x")))
    monkeypatch.setattr(ray, "shutdown", lambda: calls.append("shutdown"))
    spec = RunSpec("simtiny", 2, ("random",), games=2, error_dir=str(tmp_path))
    with pytest.raises(RuntimeError):
        run(spec, workers=2, ray_address="local")
    assert calls[0]["num_cpus"] == 2 and calls[-1] == "shutdown"


def test_tune_on_ray_matches_tune_on_local_processes(tmp_path):
    """A tuning run's trials are the same games on Ray as on local processes."""
    from robotable.sim.tune import parse_param, parse_target, tune

    from . import test_sim_tune  # noqa: F401 - registers the "simedge" game

    def search(**where):
        return tune(
            "simedge",
            2,
            ["random"],
            [parse_param("edge=0:1", "simedge", 2)],
            [parse_target("first_mover=0.5")],
            trials=3,
            games=30,
            seed=5,
            error_dir=str(tmp_path),
            **where,
        )

    local = search(workers=1)
    on_ray = search(workers=2, ray_address="local")
    assert [t["params"] for t in on_ray["trials"]] == [t["params"] for t in local["trials"]]
    assert [t["objective"] for t in on_ray["trials"]] == [t["objective"] for t in local["trials"]]
