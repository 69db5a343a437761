"""`robotable tune --config`: the bundled tuning configurations (sim/tune_configs/) load, a bad
one is one line naming the file and the key, and a weights search is seeded and starts from the
shipped weights."""

from __future__ import annotations

import json

import pytest

from robotable.sim.options import UsageProblem
from robotable.sim.studies.tuning import CONFIGS, load_config


def test_every_bundled_config_loads_for_its_game():
    names = sorted(p.stem for p in CONFIGS.glob("*.toml"))
    assert names == ["breadwinner-weights", "iotabots-weights", "stakbots-length"]
    for name in names:
        game = name.split("-")[0]
        config = load_config(name, game)
        assert config.name == name and config.trials and config.games_per_trial
    iotabots = load_config("iotabots-weights", "iotabots").weights
    assert iotabots is not None and iotabots.objective == ("points",)
    assert ("life", 0.04, 0.3) in iotabots.ranges
    breadwinner = load_config("breadwinner-weights", "breadwinner").weights
    assert breadwinner.objective == ("ends", "points") and breadwinner.end_reason == "all_loaves"
    stakbots = load_config("stakbots-length", "stakbots")
    assert stakbots.weights is None and stakbots.params == ("stak_size=5:12",)


@pytest.mark.parametrize(
    "text, message",
    [
        ('search = "weights"\n[weights]\nlif = [0, 1]\n', "[weights] 'lif' is not a weight of"),
        ('search = "weights"\n[weights]\nlife = [1, 0]\n', "life: the range 1.0..0.0 is backwards"),
        ('search = "weights"\n[weights]\nlife = "wide"\n', "life must be [LOW, HIGH]"),
        ('search = "weights"\n', "needs a [weights] table"),
        ('search = "weights"\nobjective = ["fun"]\n[weights]\nlife = [0, 1]\n', "'fun'"),
        ('search = "everything"\n', "search must be 'options' or 'weights'"),
        ('game = "stakbots"\n', "the config is for stakbots, not iotabots"),
        ("trials = 2.5\n", "trials must be a whole number"),
        ("tirals = 2\n", "unknown key 'tirals'"),
        ("trials = \n", "not readable as TOML"),
    ],
)
def test_a_bad_config_is_one_line_naming_the_file(tmp_path, text, message):
    path = tmp_path / "mine.toml"
    path.write_text(text)
    with pytest.raises(UsageProblem) as problem:
        load_config(str(path), "iotabots")
    assert str(problem.value).startswith("tune config mine.toml: ")
    assert message in str(problem.value) and "\n" not in str(problem.value)


def test_an_unknown_config_name_lists_the_bundled_ones(invoke):
    result = invoke("tune", "stakbots", "--config", "nope")
    assert result.exit_code == 2
    assert "--config nope: no bundled config of that name (breadwinner-weights" in result.stderr
    result = invoke("tune", "stakbots")
    assert result.exit_code == 2 and "give --param and --target, or --config" in result.stderr


def test_a_weights_search_starts_from_the_shipped_weights_and_repeats(invoke):
    from robotable.games.iotabots.heuristic import DEFAULT

    args = ("tune", "iotabots", "--config", "iotabots-weights", "--trials", "2")
    args += ("--games-per-trial", "1", "--workers", "1", "--seed", "3", "--json")
    first = invoke(*args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert data["config"] == "iotabots-weights" and data["search"] == "weights"
    shipped, *others = data["trials"]
    assert shipped["weights"] == {name: getattr(DEFAULT, name) for name in data["ranges"]}
    assert len(others) == 1 and others[0]["weights"] != shipped["weights"]
    assert all(0 <= t["points"] <= 1 and t["objective"] == t["points"] for t in data["trials"])
    again = json.loads(invoke(*args).stdout)
    assert [t["weights"] for t in again["trials"]] == [t["weights"] for t in data["trials"]]
    assert [t["points"] for t in again["trials"]] == [t["points"] for t in data["trials"]]


def test_an_options_config_runs_as_its_params_and_targets(invoke, tmp_path):
    args = ("tune", "stakbots", "--config", "stakbots-length", "--trials", "2")
    args += ("--games-per-trial", "4", "--workers", "1", "--json")
    result = invoke(*args, "--errors-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [p["name"] for p in data["params"]] == ["stak_size"]
    assert [t["metric"] for t in data["targets"]] == ["median_turns", "first_mover"]
    assert len(data["trials"]) == 2 and data["games_per_trial"] == 4


def test_compare_measures_the_weights_given_against_a_reference_file(invoke, tmp_path):
    """`compare` measures weights without a search; `reference`, a heuristic file of one's own
    (an earlier heuristic.py), plays in place of the shipped weights. The shipped weights
    against themselves through a reference file that is the shipped heuristic take what the
    shipped weights take against the shipped weights: the same games."""
    from robotable.games.iotabots import heuristic

    copy, mark = tmp_path / "old_heuristic.py", tmp_path / "called"
    copy.write_text(
        "import pathlib\n"
        "from robotable.games.iotabots.heuristic import DEFAULT, evaluate as _evaluate\n\n\n"
        "def evaluate(state, seat):\n"
        f"    pathlib.Path({str(mark)!r}).touch()\n"
        "    return _evaluate(state, seat, DEFAULT)\n"
    )
    base = 'search = "weights"\ngame = "iotabots"\n'
    (tmp_path / "plain.toml").write_text(base + "compare = {}\n")
    (tmp_path / "ref.toml").write_text(base + 'reference = "old_heuristic.py"\ncompare = {}\n')
    (tmp_path / "given.toml").write_text(base + "compare = {clock = 0, lethal = 0}\n")
    args = ("--games-per-trial", "2", "--workers", "1", "--seed", "4", "--json")
    runs = {}
    for name in ("plain", "ref", "given"):
        result = invoke("tune", "iotabots", "--config", str(tmp_path / f"{name}.toml"), *args)
        assert result.exit_code == 0, result.output
        runs[name] = json.loads(result.stdout)
    assert runs["ref"]["reference"] == str(copy) and runs["plain"]["reference"] is None
    assert mark.exists()  # the reference file's evaluate played
    assert (
        runs["ref"]["measured"]
        == runs["plain"]["measured"]
        == {
            "points": 0.5,
            "objective": 0.5,
            "deals": 2,
        }
    )
    given = runs["given"]["compare"]
    assert given == {"clock": 0.0, "lethal": 0.0} and runs["given"]["shipped"] == {
        "clock": heuristic.DEFAULT.clock,
        "lethal": heuristic.DEFAULT.lethal,
    }
    assert "trials" not in runs["given"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("compare = {lif = 1}\n", "[compare] 'lif' is not a weight of"),
        ('compare = {life = "high"}\n', "compare life must be a number"),
        ('compare = {}\nreference = "missing.py"\n', "missing.py: does not load"),
    ],
)
def test_a_bad_compare_or_reference_is_one_line(tmp_path, text, message):
    path = tmp_path / "mine.toml"
    path.write_text('search = "weights"\n' + text)
    with pytest.raises(UsageProblem) as problem:
        load_config(str(path), "iotabots")
    assert message in str(problem.value) and "\n" not in str(problem.value)
