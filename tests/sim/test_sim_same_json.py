"""The same seeds give the same JSON: small lab runs pinned by the digest of their `--json` object
(timing fields left out), taken before the lab was split into a runner and studies (issue 80).

A digest that moves means the numbers moved: a change to the games, the agents, the runner or a
study's summary. If that change is meant, say so in its commit and pin the new digest here.
"""

from __future__ import annotations

import hashlib
import json

import pytest

TIMING = {"seconds", "games_per_second", "startup_seconds", "backend", "workers"}

RUNS = {
    "stakbots": (
        ["simulate", "stakbots", "--games", "12", "--agents", "greedy,random", "--seed", "7"],
        "78ce8e351ae7409e448aebf9b2030bd7472da5561ecb00dbbd148ff65b7a69c7",
    ),
    "variants": (
        ["simulate", "stakbots", "--games", "8", "--agents", "greedy,random", "--seed", "5"]
        + ["-o", "stak_size=6,9", "--quality", "--standing"],
        "3e827d12d2223a72e22fc12a00d701669e1495f9a1df393160185d9d45da8037",
    ),
    "restrict": (
        ["simulate", "stakbots", "--games", "8", "--seed", "3", "--restrict", "Core Bot"],
        "de81eb5f4c3162f37e91f27a6e70dc5274600146da8f49929cd176b2b8f53694",
    ),
    "depth": (
        ["simulate", "breadwinner", "--games", "4", "--seed", "3", "--depth"]
        + ["--depth-iterations", "10"],
        "0e38178572706fe62e57b08d06f38186667bcb49344959010ee71c902599aa81",
    ),
    "ladder": (
        ["ladder", "stakbots", "--agents", "random,greedy", "--games", "8", "--seed", "3"]
        + ["--bootstrap", "50"],
        "d0a9a020764eff500dd3f14be6c30cb4a5d8987d91bdc253f1e143f6caf7ed14",
    ),
}


def without_timing(value):
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value


def digest(data) -> str:
    return hashlib.sha256(json.dumps(without_timing(data), sort_keys=True).encode()).hexdigest()


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_seeded_run_gives_the_json_it_gave_before_the_lab_was_split(name, invoke, tmp_path):
    args, pinned = RUNS[name]
    result = invoke(*args, "--workers", "1", "--json", "--errors-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == args[1] and data.get("errors", 0) == 0
    if name == "restrict":
        assert data["restriction"]["cards"] == ["Core Bot"] and data["restriction"]["games"] == 8
    if name == "depth":
        assert data["depth"]["search"] == "mcts:10" and data["depth"]["games"] == 4
    assert digest(data) == pinned, f"{name}: the run's numbers moved (see this module's docstring)"


def test_the_digest_leaves_out_timing_and_nothing_else():
    run = {"game": "g", "seconds": 1.0, "lengths": {"turns": {"mean": 3}, "seconds": {"mean": 2}}}
    slower = {**run, "seconds": 9.0, "lengths": {**run["lengths"], "seconds": {"mean": 7}}}
    assert digest(run) == digest(slower)
    assert digest(run) != digest({**run, "lengths": {"turns": {"mean": 4}}})
