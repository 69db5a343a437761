"""Pooling results files: runs of one study on different seeds summarised as one run."""

from __future__ import annotations

import json

import pytest

from robotable.sim.analysis import make_variants, summarize
from robotable.sim.pool import pool_results
from robotable.sim.results_file import ResultsFileError, write_results
from robotable.sim.runner import RunSpec, run

from .test_sim_game import TinyGame  # noqa: F401 - registers the "simtiny" game
from .test_sim_resume import _spec as resume_spec


def _spec(tmp_path, **kw) -> RunSpec:
    return resume_spec(
        tmp_path, **{"games": 6, "variants": make_variants({}), "quality": False, **kw}
    )


def _file(tmp_path, name: str, **kw):
    spec = _spec(tmp_path, **kw)
    outcome = run(spec, workers=1)
    return write_results(tmp_path / name, spec, outcome.results), summarize(outcome)


def test_pooled_files_count_every_game_once_with_each_files_seeds(tmp_path):
    a, summary_a = _file(tmp_path, "a.jsonl", seed=7)
    b, summary_b = _file(tmp_path, "b.jsonl", seed=8, games=4)
    pooled = pool_results([a, b])
    results = pooled.outcome.results
    assert len(results) == 10
    assert len({r.index for r in results}) == 10  # shifted, none shared
    assert [f.seed for f in pooled.files] == [7, 8]
    summary = summarize(pooled.outcome)
    assert summary["games"] == 10
    assert summary["wins"] == [x + y for x, y in zip(summary_a["wins"], summary_b["wins"])]
    assert summary["draws"] == summary_a["draws"] + summary_b["draws"]

    def with_card(s: dict) -> dict[str, int]:
        return {r["card"]: r["seat_games_with"] for r in s["card_impact_stratified"]["rows"]}

    pooled_rows, rows_a, rows_b = with_card(summary), with_card(summary_a), with_card(summary_b)
    assert pooled_rows and pooled_rows == {
        card: rows_a.get(card, 0) + rows_b.get(card, 0) for card in pooled_rows
    }


def test_files_of_other_rules_do_not_pool_and_older_rules_are_named(tmp_path):
    from .test_sim_resume import _with_rules

    a, summary_a = _file(tmp_path, "a.jsonl", seed=7)
    b, _ = _file(tmp_path, "b.jsonl", seed=8)
    assert summary_a["rules_version"] == "1"
    _with_rules(b, lambda h: h["rules"].update(version="0"))
    with pytest.raises(ResultsFileError, match="b.jsonl: its games were played under other"):
        pool_results([a, b])
    # both of an older version: they pool, as that version's games, and the user is told
    _with_rules(a, lambda h: h["rules"].update(version="0"))
    pooled = pool_results([a, b])
    assert pooled.rules["version"] == "0" and len(pooled.outcome.results) == 12
    assert any("simtiny rules version 0 there, version 1 here" in n for n in pooled.notes)
    # a file that does not record its rules is taken as the others'
    _with_rules(a, lambda h: h.pop("rules"))
    assert pool_results([a, b]).rules["version"] == "0"
    assert pool_results([a]).rules is None


def test_runs_of_a_candidate_pool_whatever_the_default_was_when_each_was_written(tmp_path):
    """Files of a candidate (`-o target=12`), one written while the default was 8 and one while
    it was 12, pool with no note of other rules: their games were all played with 12. A file
    that played the old default is another game, and says so; one that played 12 as its day's
    default pools with them."""
    from .test_sim_resume import _with_rules

    twelve = make_variants({"target": [12]})
    a, _ = _file(tmp_path, "a.jsonl", seed=7, variants=twelve)
    b, _ = _file(tmp_path, "b.jsonl", seed=8, variants=twelve)
    _with_rules(a, lambda h: h["rules"]["defaults"].update(target=8))
    _with_rules(b, lambda h: h["rules"]["defaults"].update(target=12))
    pooled = pool_results([a, b])
    assert len(pooled.outcome.results) == 12 and not pooled.notes
    old, _ = _file(tmp_path, "c.jsonl", seed=9)
    _with_rules(old, lambda h: h["rules"]["defaults"].update(target=8))
    assert any(
        "option target's default is 8 there, 10 here" in n for n in pool_results([old]).notes
    )
    with pytest.raises(ResultsFileError, match="c.jsonl: variants is"):
        pool_results([a, old])
    # the same games written the other way round: a run of the default of its day, 12, and a
    # later one that asks for 12 by name
    _with_rules(old, lambda h: h["rules"]["defaults"].update(target=12))
    assert len(pool_results([old, a]).outcome.results) == 12


def test_a_stopped_run_pools_with_a_note(tmp_path):
    a, _ = _file(tmp_path, "a.jsonl", seed=7)
    spec = _spec(tmp_path, seed=9)
    partial = write_results(tmp_path / "b.jsonl", spec, run(spec, workers=1).results[:2])
    pooled = pool_results([a, partial])
    assert len(pooled.outcome.results) == 8
    assert any("2 of 6 planned games" in note for note in pooled.notes)


def test_runs_of_another_study_or_the_same_seed_are_refused(tmp_path):
    a, _ = _file(tmp_path, "a.jsonl", seed=7)
    other_agents, _ = _file(tmp_path, "b.jsonl", seed=8, agents=("random",))
    with pytest.raises(ResultsFileError, match="b.jsonl: agents is random there but"):
        pool_results([a, other_agents])
    other_target, _ = _file(tmp_path, "c.jsonl", seed=8, variants=make_variants({"target": [8]}))
    with pytest.raises(ResultsFileError, match="c.jsonl: variants is"):
        pool_results([a, other_target])
    same_seed, _ = _file(tmp_path, "d.jsonl", seed=7, games=3)
    with pytest.raises(ResultsFileError, match="seed 7 again"):
        pool_results([a, same_seed])


def test_runs_with_and_without_decision_streams_pool_as_one_study(tmp_path):
    """Decision streams give other games of the same agents: seeds of both kinds pool."""
    a, summary_a = _file(tmp_path, "a.jsonl", seed=7)
    b, summary_b = _file(tmp_path, "b.jsonl", seed=8, decision_streams=True)
    assert '"decision_streams":true' in b.read_text().splitlines()[0]
    pooled = summarize(pool_results([a, b]).outcome)
    assert pooled["games"] == summary_a["games"] + summary_b["games"]


def test_an_option_given_at_its_default_value_pools_with_no_option(tmp_path):
    a, _ = _file(tmp_path, "a.jsonl", seed=7)
    explicit, _ = _file(tmp_path, "b.jsonl", seed=8, variants=make_variants({"target": [10]}))
    assert len(pool_results([a, explicit]).outcome.results) == 12


# -- the command -------------------------------------------------------------------------------


def test_cli_pool_prints_one_summary_of_all_files(invoke, tmp_path):
    a, _ = _file(tmp_path, "a.jsonl", seed=7)
    b, _ = _file(tmp_path, "b.jsonl", seed=8)
    as_json = invoke("pool", str(a), str(b), "--json")
    assert as_json.exit_code == 0, as_json.output
    summary = json.loads(as_json.stdout)
    assert summary["games"] == 12 and [f["seed"] for f in summary["pooled"]] == [7, 8]
    assert summary["rules_version"] == "1"
    tables = invoke("pool", str(a), str(b))
    assert tables.exit_code == 0, tables.output
    assert "pooled from 2 results files: seed 7 (6 games), seed 8 (6 games)" in tables.stdout
    assert "12 games read from 2 results files" in tables.stdout
    assert "simtiny: 12 games, 2 seats, rules version 1, agents random, greedy" in tables.stdout


def test_cli_pool_bad_files_are_one_line_and_exit_code_2(invoke, tmp_path):
    a, _ = _file(tmp_path, "a.jsonl", seed=7)
    missing = invoke("pool", str(a), str(tmp_path / "none.jsonl"))
    assert missing.exit_code == 2 and missing.stdout == ""
    assert "none.jsonl: no such file" in missing.stderr
    garbled = tmp_path / "g.jsonl"
    lines = a.read_text().splitlines()
    header = json.loads(lines[0])
    header["seed"] = 99
    garbled.write_text(json.dumps(header) + "\n" + lines[1] + "\n{not json\n")
    refused = invoke("pool", str(a), str(garbled))
    assert refused.exit_code == 2 and refused.stdout == ""
    assert len(refused.stderr.strip().splitlines()) == 1
    assert "g.jsonl, line 2" in refused.stderr  # game 0 of seed 99 is not that game
    header["game"] = "nosuchgame"
    unknown = tmp_path / "u.jsonl"
    unknown.write_text(json.dumps(header) + "\n")
    refused = invoke("pool", str(unknown))
    assert refused.exit_code == 2 and "u.jsonl: unknown game 'nosuchgame'" in refused.stderr
    del header["agents"]
    unknown.write_text(json.dumps(header) + "\n")
    refused = invoke("pool", str(unknown))
    assert refused.exit_code == 2 and "u.jsonl: the run header has no 'agents'" in refused.stderr
    folder = invoke("pool", str(tmp_path))
    assert folder.exit_code == 2 and "a folder, not a results file" in folder.stderr
    not_text = tmp_path / "bin.jsonl"
    not_text.write_bytes(b"\xff\xfe\x00")
    binary = invoke("pool", str(not_text))
    assert binary.exit_code == 2 and "bin.jsonl: not a results file" in binary.stderr
    cut = tmp_path / "cut.jsonl"
    cut.write_text(lines[0][:40])
    refused = invoke("pool", str(cut))
    assert refused.exit_code == 2 and "cut.jsonl: the run header was cut short" in refused.stderr
    cut.write_text("")
    refused = invoke("pool", str(cut))
    assert refused.exit_code == 2 and "cut.jsonl: the file is empty" in refused.stderr
