"""Ray: the same job on a local Ray instance gives the same games as local processes."""

from __future__ import annotations

import pytest

from robotable.sim.analysis import summarize
from robotable.sim.runner import RunSpec, run

from .test_sim_game import TinyGame  # noqa: F401 - registers the "simtiny" game
from .test_sim_runner import comparable, per_game

ray = pytest.importorskip("ray")


def test_ray_local_matches_local_processes(tmp_path):
    spec = RunSpec("simtiny", 2, ("random", "greedy"), games=30, seed=5, error_dir=str(tmp_path))
    local = run(spec, workers=1)
    on_ray = run(spec, workers=2, ray_address="local")
    assert on_ray.backend == "ray-local"
    assert per_game(on_ray) == per_game(local)
    assert comparable(summarize(on_ray)) == comparable(summarize(local))
    assert not ray.is_initialized()  # a Ray started for the run is shut down after it
