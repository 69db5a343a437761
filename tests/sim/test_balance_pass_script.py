"""scripts/balance_pass.py in pieces: each seed's games kept in --out-dir, every row pooled."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "balance_pass.py"


@pytest.fixture(scope="module")
def balance_pass():
    spec = importlib.util.spec_from_file_location("balance_pass", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _row(output: str) -> list[str]:
    [row] = [line for line in output.splitlines() if line.startswith("| breadwinner |")]
    return [cell.strip() for cell in row.strip("|").split("|")]


def test_pieces_on_two_seeds_pool_into_one_row(balance_pass, tmp_path, capsys):
    base = ["--only", "breadwinner", "--out-dir", str(tmp_path)]
    assert balance_pass.main([*base, "--games", "4"]) == 0
    assert _row(capsys.readouterr().out)[2] == "4"
    assert balance_pass.main([*base, "--games", "3", "--seed", "1"]) == 0
    pooled = _row(capsys.readouterr().out)
    assert pooled[2] == "7"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "breadwinner-2p-self-greedy-seed0.jsonl",
        "breadwinner-2p-self-greedy-seed1.jsonl",
    ]
    # Again on seed 1: its file is complete, so nothing is played and the row is the same.
    assert balance_pass.main([*base, "--games", "3", "--seed", "1"]) == 0
    assert _row(capsys.readouterr().out) == pooled
    seed1 = tmp_path / "breadwinner-2p-self-greedy-seed1.jsonl"
    assert len(seed1.read_text().splitlines()) == 1 + 3  # the header and the same three games
    assert balance_pass.main([*base, "--no-play"]) == 0
    assert _row(capsys.readouterr().out) == pooled


def test_no_play_needs_an_out_dir_and_files_in_it(balance_pass, tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        balance_pass.main(["--only", "breadwinner", "--no-play"])
    assert stop.value.code == 2
    empty = ["--only", "breadwinner", "--out-dir", str(tmp_path), "--no-play"]
    assert balance_pass.main(empty) == 2
    assert "no results file breadwinner-2p-self-greedy-seed*.jsonl" in capsys.readouterr().err
