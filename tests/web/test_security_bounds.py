"""Security: work is bounded before it is done (issue 77, "Bound work before doing it").

A black-box test found that one inline Stak Bots card with `copies = 1000000000` made the server
build the whole deck on its event loop (24 GB, then dead), that `battle_reveal_cap` and friends
took any number, that `mcts:trees=1000000000` passed the AI caps and, failing at every move,
was tried again after every restart. Each finding is a test here; none of them times anything:
"refused before building" is shown by counting calls to the constructor that would build, or by
counts no machine could build.
"""

from __future__ import annotations

import asyncio
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from typer.testing import CliRunner

from robotable import load_game
from robotable.agents import parse_agent_spec
from robotable.cli import _register_all
from robotable.cli import app as cli_app
from robotable.core.content import MAX_ENTRIES, MAX_FILE, read_toml, validate_entries
from robotable.core.errors import ContentError, OptionError
from robotable.core.options import INLINE, MAX_ITEMS, OptionSpec
from robotable.core.registry import bundled_game_names
from robotable.games.breadwinner import content as bw_content
from robotable.games.iotabots import content as ib_content
from robotable.games.rumblebots import content as rb_content
from robotable.games.stakbots import content as sb_content
from robotable.server import rooms
from robotable.server.ai import AiFailed, AiLimits, AiRunner, capped_spec, check_agent_spec
from robotable.server.app import create_app
from robotable.server.errors import Refused
from robotable.server.store import Store

from .conftest import TEST_LIMITS, SeatClient, create_table

HUMAN = {"kind": "human", "name": "Ada"}
AI = {"kind": "ai", "name": "Bo", "ai": "random"}
BILLION = 1_000_000_000

# Characters no viewer may receive from a card name or text: NUL, ESC, a bidi override.
HOSTILE = "\x00\x1b[2J\u202e"


def _stak_card(copies: int | str, name: str = "Shot Bot") -> str:
    return f'[[cards]]\nbot = "Shot"\nname = "{name}"\npower = 1\nrank = 1\ncopies = {copies}\n'


def _one_line(message: str) -> str:
    assert "\n" not in message and len(message) < 400, message
    return message


def _refused(client: TestClient, game: str, options: dict, seats: list | None = None) -> str:
    seats = seats or [HUMAN, dict(HUMAN, name="Bo")]
    body = {"game": game, "num_players": len(seats), "seats": seats, "options": options}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400, response.text
    return _one_line(response.json()["error"])


# -- 1. content is checked while it is read ---------------------------------------------------


def test_stak_bots_a_billion_copies_are_refused_before_a_card_is_built(client, monkeypatch):
    built = []
    real = sb_content.CardDef

    def counting(*args, **kwargs):
        built.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(sb_content, "CardDef", counting)
    message = _refused(client, "stakbots", {"cards": INLINE + _stak_card(BILLION)})
    assert "card 'Shot Bot #1'" in message and "1000000000 copies" in message
    assert "more than 200 cards" in message
    assert built == []
    assert client.get("/api/tables").json()["playing"] == []


@settings(max_examples=40, deadline=None)
@given(copies=st.integers(min_value=sb_content.MAX_DECK + 1, max_value=10**30))
def test_stak_bots_any_copies_over_the_deck_cap_is_one_line_naming_the_card(copies):
    with pytest.raises(ContentError) as err:
        sb_content.parse_deck("cards.toml", {"cards": [_toml_card(copies)]})
    message = _one_line(str(err.value))
    assert message.startswith("card file cards.toml, card 'Shot Bot #1': ")
    assert "copies" in message


def _toml_card(copies: int) -> dict:
    return {"bot": "Shot", "power": 1, "rank": 1, "copies": copies}


def test_stak_bots_copies_count_against_the_cards_already_read():
    # 150 + 51 = 201: the second entry is refused before its 51 copies exist.
    with pytest.raises(ContentError, match=r"card 'Core Bot #1': 51 copies make more than 200"):
        sb_content.parse_deck(
            "f", {"cards": [_toml_card(150), {"bot": "Core", "power": 1, "rank": 1, "copies": 51}]}
        )


def test_rumblebots_copies_are_summed_before_any_copy_is_numbered(monkeypatch):
    built = []
    monkeypatch.setattr(rb_content, "build_content", lambda *a: built.append(a))
    bots = "".join(
        f'[[bots]]\nname = "Bot {i}"\ntier = 1\nfactions = ["Mech"]\ncopies = 12\n'
        for i in range(rb_content.MAX_CARDS // 12 + 1)
    )
    with pytest.raises(ContentError) as err:
        rb_content.load_content.__wrapped__(INLINE + bots)
    assert "copies add up to 408 cards, at most 400" in _one_line(str(err.value))
    assert built == []


def test_bread_winner_chip_counts_are_summed_before_chips_are_made():
    chips = "".join(f'[[chip]]\nname = "c{i}"\nvalue = 1\ncount = 10\n' for i in range(400))
    with pytest.raises(ContentError, match=r"chip counts add up to 4000, the game has 10"):
        bw_content.load_crop_values.__wrapped__(INLINE + chips)


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("1000000000 Tri Bot", "line 1: copies of 'Tri Bot' must be at most 3"),
        ("9" * 5000 + " Tri Bot", "must be at most 3"),
        ("\u00b2 Tri Bot", "line 1: expected '<copies> <card name>'"),
        ("20 Tri Bot", "20 copies of 'Tri Bot' but the a deck holds at most 3"),
    ],
)
def test_iotabots_deck_line_counts_are_checked_before_the_deck_is_built(line, fragment):
    pool = ib_content.load_pool()
    with pytest.raises(ContentError) as err:
        ib_content.parse_deck("deck.txt", line, pool)
    message = _one_line(str(err.value))
    assert message.startswith("deck file deck.txt, line 1") and fragment in message


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("a = " + "[" * 5000 + "]" * 5000, "nested too deeply"),
        ("a = " + "9" * 5000, "a number too long"),
    ],
)
def test_toml_that_would_crash_the_parser_is_one_line(text, fragment):
    with pytest.raises(ContentError) as err:
        read_toml(INLINE + text)
    assert fragment in _one_line(str(err.value))


def test_a_content_file_over_the_size_cap_is_refused_unread(tmp_path):
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * MAX_FILE + "\n")
    with pytest.raises(ContentError, match=f"over {MAX_FILE} characters"):
        read_toml(str(big))


def test_entries_over_the_cap_are_refused_before_one_is_validated(monkeypatch):
    from pydantic import BaseModel

    class Entry(BaseModel):
        name: str

    validated = []
    monkeypatch.setattr(Entry, "model_validate", classmethod(lambda cls, raw: validated.append(1)))
    entries = [{"name": str(i)} for i in range(MAX_ENTRIES + 1)]
    with pytest.raises(ContentError, match=f"at most {MAX_ENTRIES}"):
        validate_entries("f.toml", entries, Entry)
    assert validated == []


# Every content option of every bundled game, with content that would not build in a lifetime.
BOMBS = {
    "stakbots": {"cards": _stak_card(BILLION)},
    "rumblebots": {"cards": "a = " + "[" * 5000 + "]" * 5000},
    "iotabots": {
        "deck0": f"{BILLION} Tri Bot\n",
        "deck1": f"{BILLION} Tri Bot\n",
        "cards": "a = " + "9" * 5000,
        "limits": "[limits]\n" + "".join(f'"c{i}" = 1\n' for i in range(MAX_ENTRIES + 1)),
    },
    "betabotz": {
        "content": "".join(f'[[betabot]]\nname = "b{i}"\n' for i in range(MAX_ENTRIES + 1))
    },
    "breadwinner": {
        "crop_file": "".join(f'[[chip]]\nname = "c{i}"\nvalue = 1\ncount = 10\n' for i in range(99))
    },
}
CONTENT_OPTIONS = [
    (name, spec.name)
    for name in bundled_game_names()
    for spec in type(load_game(name)).option_specs
    if spec.content
]


def test_every_content_option_has_a_bomb_here():
    assert sorted(CONTENT_OPTIONS) == sorted((g, o) for g, opts in BOMBS.items() for o in opts)


@pytest.mark.parametrize(("game", "option"), CONTENT_OPTIONS)
def test_every_content_option_refuses_unbuildable_content_in_one_line(client, game, option):
    seats = [HUMAN] * load_game(game).min_players
    message = _refused(client, game, {option: INLINE + BOMBS[game][option]}, seats)
    assert "inline content" in message or "deck file" in message


# -- 5. card names and texts reach no viewer with control characters ---------------------------


def test_stak_bots_card_names_are_cleaned_at_the_loader():
    deck = sb_content.parse_deck("f", {"cards": [dict(_toml_card(1), name=f"Shot{HOSTILE}Bot")]})
    assert deck.cards[0].name == "Shot[2JBot"


def test_rumblebots_names_and_texts_are_cleaned_at_the_loader():
    model = rb_content.BotModel.model_validate(
        {"name": f"Vine{HOSTILE}", "tier": 1, "factions": ["Bio"], "text": f"Grows{HOSTILE}\nfast"}
    )
    assert model.name == "Vine[2J" and model.text == "Grows[2J\nfast"


def test_a_name_with_nothing_visible_is_refused():
    with pytest.raises(ContentError, match=r"card #1: name: a name needs a visible"):
        validate_entries("f.toml", [{"name": "\x00\u202e", "tier": 1}], rb_content.BotModel)


def test_iotabots_and_betabotz_and_bread_winner_clean_names_and_texts():
    from robotable.games.betabotz.content import CodeModel

    card = ib_content._CardModel.model_validate(
        {"name": f"Tri{HOSTILE}Bot", "type": "bot", "mana": 1, "text": f"x{HOSTILE}"}
    )
    assert (card.name, card.text) == ("Tri[2JBot", "x[2J")
    code = CodeModel.model_validate(
        {
            "name": f"Hack{HOSTILE}",
            "count": 1,
            "op": "shield",
            "attribute": "none",
            "text": "\x1bok",
        }
    )
    assert (code.name, code.text) == ("Hack[2J", "ok")
    chip = bw_content._ChipEntry.model_validate({"name": f"c{HOSTILE}", "value": 1, "count": 1})
    assert chip.name == "c[2J"


def test_a_hostile_card_name_never_reaches_a_seat(client):
    # TOML takes control characters only escaped, as a stranger would send them.
    escaped = r"\u0000\u001b[2J\u202e"
    cards = INLINE + _stak_card(20, name=f"Evil{escaped}One") + _stak_card(20, name="Two")
    table = create_table(
        client, "stakbots", [HUMAN, dict(HUMAN, name="Bo")], options={"cards": cards}
    )
    seat = SeatClient(client, table["id"], table["seats"][0]["token"])
    try:
        text = str(seat.state)
        assert "Evil" in text
        for char in HOSTILE.replace("[2J", ""):
            assert char not in text
    finally:
        seat.close()


# -- 2. every number option is bounded ---------------------------------------------------------

NUMBER_OPTIONS = [
    (name, spec)
    for name in bundled_game_names()
    for spec in type(load_game(name)).option_specs
    if spec.type in (int, float)
]


@pytest.mark.parametrize(("game", "spec"), NUMBER_OPTIONS, ids=lambda x: getattr(x, "name", x))
def test_every_number_option_has_a_range(game, spec):
    assert spec.minimum is not None and spec.maximum is not None, f"{game} {spec.name}"
    with pytest.raises(OptionError) as err:
        spec.coerce(game, spec.maximum + 1)
    assert _one_line(str(err.value)).startswith(f"game {game}, option '{spec.name}': must be <=")


@pytest.mark.parametrize(
    ("game", "option", "seats"),
    [
        ("rumblebots", "total_crystals", 2),
        ("rumblebots", "battle_reveal_cap", 2),
        ("iotabots", "max_turns", 2),
    ],
)
def test_the_options_found_unbounded_are_refused_by_the_server(client, game, option, seats):
    message = _refused(client, game, {option: BILLION}, [HUMAN] * seats)
    assert message.startswith(f"game {game}, option '{option}': must be <=")


def test_a_list_option_of_a_million_values_is_refused_before_it_is_split():
    (spec,) = [s for s in type(load_game("breadwinner")).option_specs if s.name == "crop_values"]
    for value in ("1," * 10**6, [1] * (MAX_ITEMS + 1)):
        with pytest.raises(OptionError, match=f"at most {MAX_ITEMS} values"):
            spec.coerce("breadwinner", value)


@pytest.mark.parametrize("value", ["nan", "inf", float("nan"), float("-inf")])
def test_a_float_option_must_be_finite(value):
    spec = OptionSpec("speed", float, 1.0, "a float option", minimum=0.0, maximum=10.0)
    with pytest.raises(OptionError, match="must be a finite number"):
        spec.coerce("toy", value)


# -- 3. AI specs are bounded in every parameter -------------------------------------------------

MCTS_PARAMS = ["iterations", "time", "turn", "c", "rollout", "prior", "reuse", "guide"]
MCTS_PARAMS += ["widen", "norm", "press", "late", "horizon", "trees", "worlds"]


def test_the_reported_spec_is_refused_by_the_parser_the_cli_and_the_server(client):
    spec = "mcts:iterations=20000,trees=1000000000"
    with pytest.raises(OptionError, match="parameter 'trees' must be at most 64"):
        parse_agent_spec(spec)
    _register_all()
    # `play --seats` separates seats with commas, so the command line gets the one parameter.
    seats = "random,mcts:trees=1000000000"
    result = CliRunner().invoke(cli_app, ["play", "stakbots", "--seats", seats])
    assert result.exit_code != 0 and "'trees' must be at most 64" in result.output
    message = _refused(client, "stakbots", {}, [HUMAN, dict(AI, ai=spec)])
    assert "'trees' must be at most 64" in message


@settings(max_examples=60, deadline=None)
@given(key=st.sampled_from(MCTS_PARAMS), excess=st.floats(min_value=1, max_value=1e12))
def test_any_mcts_parameter_past_its_range_is_one_line_naming_it(key, excess):
    from robotable.agents import _RANGES

    high = _RANGES[key][1]
    value = (
        math.floor(high + excess)
        if key in ("iterations", "rollout", "reuse", "norm", "late", "horizon", "trees", "worlds")
        else high + excess
    )
    with pytest.raises(OptionError) as err:
        parse_agent_spec(f"mcts:{key}={value}")
    assert f"parameter '{key}' must be at most" in _one_line(str(err.value))


def test_every_mcts_parameter_has_a_range():
    from robotable.agents import _PARAMS, _RANGES

    assert set(_PARAMS["mcts"]) - {"leaf"} <= set(_RANGES)
    assert set(MCTS_PARAMS) == set(_PARAMS["mcts"]) - {"leaf"}


@pytest.mark.parametrize(
    ("spec", "key"), [("mcts:200,trees=20", "trees"), ("mcts:rollout=500", "rollout")]
)
def test_the_server_caps_trees_and_rollout_further(spec, key):
    with pytest.raises(Refused, match=f"{key}=.* over this server's limit"):
        check_agent_spec(spec, "stakbots", AiLimits())


def test_a_stored_spec_past_the_server_caps_is_capped_when_it_plays():
    capped = capped_spec("mcts:200,trees=20,rollout=500", "stakbots", AiLimits())
    assert "trees=8" in capped and "rollout=50" in capped


def test_an_ai_seat_that_fails_stops_and_stays_stopped_after_a_restart(tmp_path, monkeypatch):
    calls = []

    async def overrun(self, game, state, spec, seed):
        calls.append(spec)
        raise AiFailed("the AI took too long and was stopped")

    monkeypatch.setattr(AiRunner, "choose", overrun)
    db = tmp_path / "t.sqlite3"
    seats = [dict(AI, name="Bo"), HUMAN]  # the AI seat decides first
    with TestClient(create_app(db, ai_delay=0, synchronous="NORMAL", limits=TEST_LIMITS)) as c:
        table = create_table(c, "stakbots", seats)
        seat = SeatClient(c, table["id"], table["seats"][1]["token"])
        try:
            frame = seat.until(lambda f: _ai_error(f))
        finally:
            seat.close()
    said = _ai_error(frame)
    assert said.startswith("Bo (AI) could not choose a move (the AI took too long")
    assert "undo" in said
    assert len(calls) == 1
    store = Store(db)
    try:
        assert store.ai_error(table["id"]) == said
    finally:
        store.close()
    app = create_app(db, ai_delay=0, synchronous="NORMAL", limits=TEST_LIMITS)
    with TestClient(app) as c:
        live = app.state.tables.live[table["id"]]
        assert live.ai_error == said and live.ai_task is None
        seat = SeatClient(c, table["id"], table["seats"][1]["token"])
        try:
            assert _ai_error(seat.state) == said
        finally:
            seat.close()
    assert len(calls) == 1


def _ai_error(frame: dict) -> str | None:
    return (frame.get("table") or {}).get("ai_error")


# -- 4. table creation runs off the event loop, within a deadline -------------------------------


def test_a_table_is_built_off_the_event_loop(client, monkeypatch):
    on_loop = []

    def watching(build):
        def run(*args):
            try:
                asyncio.get_running_loop()  # succeeds only on the event loop's own thread
                on_loop.append(True)
            except RuntimeError:
                on_loop.append(False)
            return build(*args)

        return run

    monkeypatch.setattr(rooms, "load_table_game", watching(rooms.load_table_game))
    monkeypatch.setattr(rooms, "_first_position", watching(rooms._first_position))
    create_table(client, "stakbots", [HUMAN, AI])
    assert on_loop == [False, False]


def test_a_table_that_overruns_its_build_deadline_is_one_line_503(client):
    client.app.state.tables.build_seconds = 0  # already past: the answer never waits on the build
    body = {"game": "stakbots", "num_players": 2, "seats": [HUMAN, AI]}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 503
    assert _one_line(response.json()["error"]).startswith("setting up the table took over 0 s")
    assert client.get("/api/tables").json()["playing"] == []
