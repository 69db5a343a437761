"""`robotable bench --compare-pure`: both engines' figures side by side (formatting only; no timing)."""

from __future__ import annotations

from robotable.frontend.bench import _speedup, format_comparison


def test_speedup_reads_rates_up_and_costs_down() -> None:
    assert _speedup("random_actions_per_s", 300.0, 100.0) == 3.0
    assert _speedup("clone_us", 2.0, 6.0) == 3.0
    assert _speedup("state_bytes", 100, 100) == 1.0
    assert _speedup("clone_us", 0.0, 6.0) is None


def test_the_comparison_names_both_engines_per_figure() -> None:
    figures = {"num_players": 2, "random_actions_per_s": 200.0, "clone_us": 4.0}
    result = {
        "game": "stakbots",
        "num_players": 2,
        "rounds": 3,
        "compiled_engine": "compiled engine: 37 of 37 modules by Cython 3.3.1",
        "figures": {"compiled": figures, "pure": {**figures, "random_actions_per_s": 100.0}},
        "speedup": {"num_players": 1.0, "random_actions_per_s": 2.0, "clone_us": 1.0},
    }
    text = format_comparison(result)
    assert "stakbots (2 seats)" in text and "Cython" in text
    line = next(x for x in text.splitlines() if x.startswith("random_actions_per_s"))
    assert "200.0" in line and "100.0" in line and "2.00x" in line
    assert not any(x.startswith("num_players") for x in text.splitlines())
