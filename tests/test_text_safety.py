"""Text strangers write (names, chat, card names) is cleaned before anyone sees it, and the
terminal never reads markup out of it (issue 77)."""

from __future__ import annotations

import json
import unicodedata

from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

import robotable
from robotable.cli import _register_all, app
from robotable.core.text import BIDI_CONTROLS, clean_block, clean_text, printable
from robotable.frontend.play import Table, build_agents, run_table

_register_all()

HIDDEN = "\x00\x1b\x07\x7f\x9b\u202e\u202d\u2066\u2067\u2068\u2069\u200f\u061c"
# Words without spaces: letters, marks, numbers, punctuation and symbols of any script.
WORD = st.text(
    st.characters(categories=["L", "M", "N", "P", "S"]),  # type: ignore[arg-type]
    min_size=1,
    max_size=12,
).filter(lambda w: not any(c in BIDI_CONTROLS for c in w))


def _hidden(text: str) -> list[str]:
    return [c for c in text if unicodedata.category(c) in ("Cc", "Cs") or c in BIDI_CONTROLS]


@given(st.text(), st.integers(min_value=1, max_value=300))
def test_clean_text_leaves_no_control_or_bidi_character_and_keeps_to_its_length(text, cap):
    cleaned = clean_text(text, cap)
    assert _hidden(cleaned) == []
    assert len(cleaned) <= cap
    assert cleaned == cleaned.strip() and "  " not in cleaned


@given(st.text(st.sampled_from(list(HIDDEN) + list("ab \t\n"))), st.integers(1, 50))
def test_clean_text_is_idempotent(text, cap):
    once = clean_text(text, cap)
    assert clean_text(once, cap) == once
    block = clean_block(text, cap)
    assert clean_block(block, cap) == block and _hidden(block.replace("\n", "")) == []


@given(st.lists(WORD, min_size=1, max_size=6))
def test_ordinary_text_in_any_script_passes_unchanged(words):
    text = " ".join(words)
    assert clean_text(text, len(text)) == text


def test_a_name_made_to_lie_is_cut_down_to_what_it_shows():
    assert clean_text("Ada\u202eevil\x00\x1b[2J", 40) == "Adaevil[2J"
    assert clean_text("\u202e\x00\x1b", 40) == ""
    assert clean_text("x" * 100, 40) == "x" * 40
    assert printable("a\x1b[31m\n  b\u202e\tc") == "a[31m\n  b\tc"  # the layout stays


def test_the_terminal_prints_markup_in_a_name_literally(tmp_path) -> None:
    the_game = robotable.load_game("countdown", num_players=2)
    console = Console(record=True, width=400, force_terminal=False)
    names = ["[bold]x[/bold]", "[red]Bo\x1b[2J\u202e"]
    seats = ["human", "random"]
    table = Table(the_game, 2, seats, build_agents(seats, 2), tmp_path / "g.json", console, names)
    run_table(table, lambda prompt: "1" if len(table.actions) < 2 else "quit")
    out = console.export_text()
    assert "[bold]x[/bold] to decide" in out  # the rule, read as text
    assert "1. You" in out and "2. [red]Bo[2J" in out  # the log heads
    assert "\x1b" not in out and "\u202e" not in out
    assert json.loads((tmp_path / "g.json").read_text())["names"][1] == "[red]Bo[2J"


def test_replay_prints_a_records_names_as_text(tmp_path) -> None:
    runner = CliRunner()
    path = tmp_path / "g.json"
    args = ["play", "countdown", "--seats", "random,random", "--seed", "4", "--delay", "0"]
    assert runner.invoke(app, [*args, "--record", str(path)]).exit_code == 0
    record = json.loads(path.read_text())
    record["names"] = ["[link=https://example.org]Ada[/link]", "Bo\x1b]8;;x\x07\u202e"]
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "   1. [link=https://example.org]Ada[/link]" in result.stdout
    assert "   2. Bo]8;;x" in result.stdout
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
