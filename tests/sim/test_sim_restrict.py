"""Restricted play and depth on a synthetic game with a known strong card.

`simstrong`: each seat holds a Star and a Pip and plays one; its total is a hidden die (0-5)
plus 3 for a Star; the higher total wins, equal totals draw. A Star against a Pip wins 30 of
36 die pairs, draws 3 and loses 3: the seat barred from the Star wins 3 of the 33 decided games
it would otherwise win 30 of, so the card's importance is 30/33 - 1/2 = 0.409. The `mislead`
option turns the heuristic around (it then prefers the Pip), which a one-ply greedy agent follows
and a search that plays the game out does not. The `moon` option adds a Moon, worth 3 like the
Star: barred from one of the two, a seat plays the other and loses nothing; barred from both, it
loses what a seat barred from the Star alone loses without the Moon.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

import robotable
from robotable.agents import concrete_spec, make_agent, parse_agent_spec
from robotable.agents.restricted import RestrictedAgent, names_card, split_restricted
from robotable.core.options import OptionSpec
from robotable.core.protocol import TERMINAL, Action, Game, State
from robotable.core.registry import register_game
from robotable.core.rng import GameRng

TRUE_IMPORTANCE = 30 / 33 - 0.5


@dataclass(frozen=True, slots=True)
class Play(Action):
    kind: ClassVar[str] = "play"
    card: str

    def label(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    kind: ClassVar[str] = "reveal"

    def label(self) -> str:
        return "reveal the dice"


class StrongState(State):
    def __init__(self, game: StrongGame, seed: int) -> None:
        self.game = game
        self._legal = None
        rng = GameRng(seed)
        self.rolls = [rng.below(6), rng.below(6)]
        self.played: list[str] = []
        self.revealed = False

    def _legal_actions(self) -> list[Action]:
        if len(self.played) < 2:
            moon = [Play("Moon")] if self.game.options["moon"] else []
            return [Play("Pip"), Play("Star"), *moon]
        return [Reveal()]  # a last forced step, so both choices are judged by the heuristic

    def _apply(self, action: Action) -> list[dict]:
        if isinstance(action, Reveal):
            self.revealed = True
            return []
        seat = len(self.played)
        self.played.append(action.card)
        return [{"type": "played", "seat": seat, "card": action.card}]

    def current_player(self) -> int:
        if self.revealed:
            return TERMINAL
        return len(self.played) % 2

    def is_terminal(self) -> bool:
        return self.revealed

    def totals(self) -> list[int]:
        return [roll + (0 if card == "Pip" else 3) for roll, card in zip(self.rolls, self.played)]

    def returns(self) -> list[float]:
        if not self.revealed:
            return [0.0, 0.0]
        a, b = self.totals()
        return [0.5, 0.5] if a == b else [float(a > b), float(b > a)]

    def turn_number(self) -> int:
        return len(self.played) + 1

    def clone(self) -> StrongState:
        twin = StrongState.__new__(StrongState)
        twin.game, twin._legal = self.game, self._legal
        twin.rolls, twin.played, twin.revealed = list(self.rolls), list(self.played), self.revealed
        return twin

    def view(self, seat):
        return {"played": list(self.played), "roll": self.rolls[seat] if seat is not None else None}

    def to_json(self):
        return {"played": list(self.played), "rolls": list(self.rolls)}

    def determinize(self, seat, rng):
        twin = self.clone()
        twin.rolls[1 - seat] = rng.randrange(6)  # the other seat's die is hidden
        return twin


class StrongGame(Game):
    name = "simstrong"
    option_specs = (
        OptionSpec("mislead", bool, False, "the heuristic prefers the Pip"),
        OptionSpec("moon", bool, False, "a third card, the Moon, as strong as the Star"),
    )
    action_classes = (Play, Reveal)

    def new_initial_state(self, seed: int = 0) -> StrongState:
        return StrongState(self, seed)

    def state_from_json(self, data):
        raise NotImplementedError

    def evaluate(self, state: State, seat: int) -> float:
        if state.is_terminal():
            return state.returns()[seat]
        played = state.played  # type: ignore[attr-defined]
        if seat >= len(played):
            return 0.5
        star = played[seat] != "Pip"
        return 0.5 + (0.1 if star != self.options["mislead"] else -0.1)


register_game(StrongGame)


# -- the agent ---------------------------------------------------------------------------------


def test_restricted_spec_parses_and_reports_its_base():
    spec = "restricted:mcts:iterations=50,c=1,card=Star,kind=play"
    assert split_restricted(spec) == ("mcts:iterations=50,c=1", ("Star",), ("play",))
    assert parse_agent_spec(spec) == ("mcts", {"iterations": 50, "c": 1.0})  # budget checks
    assert split_restricted("greedy") is None
    agent = make_agent("restricted:greedy,card=Star", seed=1)
    assert isinstance(agent, RestrictedAgent) and agent.name == "restricted:greedy,card=Star"
    assert concrete_spec("restricted:medium,card=Star", "simstrong") == (
        "restricted:greedy,card=Star"
    )


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("restricted:greedy", "card=NAME"),
        ("restricted:card=Star", "no base agent"),
        ("restricted:wizard,card=Star", "unknown agent 'wizard'"),
        ("restricted:restricted:greedy,card=A,card=B", "cannot wrap another"),
        ("restricted:", "restricted:BASE,card=NAME"),
    ],
)
def test_bad_restricted_specs_are_refused(spec, needle):
    with pytest.raises(robotable.OptionError, match=needle):
        make_agent(spec)


def test_an_action_plays_a_card_when_its_json_or_label_names_it():
    assert names_card(Play("Star"), ["star"])
    assert not names_card(Play("Starling"), ["Star"])  # whole names only
    assert not names_card(Reveal(), ["Star"])
    assert not names_card(Play("Star"), ["Star"], kinds=["scrap"])

    @dataclass(frozen=True, slots=True)
    class BySlot(Action):
        kind: ClassVar[str] = "summon"
        slot: int

        def label(self) -> str:
            return "summon Core Bot from slot 2"

    assert names_card(BySlot(2), ["Core Bot"])  # the label names it


@pytest.mark.parametrize("base", ["random", "greedy", "mcts:20", "medium"])
def test_the_restricted_agent_never_plays_the_card_unless_forced(base):
    game = robotable.load_game("simstrong")
    agent = make_agent(f"restricted:{base},card=Star", seed=3)
    for seed in range(15):
        state = game.new_initial_state(seed=seed)
        assert agent.act(state) == Play("Pip")
    only = make_agent("restricted:greedy,card=Pip,card=Star", seed=1)
    assert only.act(game.new_initial_state(seed=1)) in (Play("Pip"), Play("Star"))
    assert only.forced == 1


# -- the experiments -----------------------------------------------------------------------------


def _json(invoke, tmp_path, *args: str) -> dict[str, Any]:
    result = invoke(
        "simulate", "simstrong", "--workers", "1", "--errors-dir", str(tmp_path), "--json", *args
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_restrict_measures_the_importance_of_a_strong_card(invoke, tmp_path):
    data = _json(invoke, tmp_path, "--restrict", "Star", "--agents", "greedy", "--games", "80")
    r = data["restriction"]
    assert r["restricted"] == "restricted:greedy,card=Star" and r["base"] == "greedy"
    assert data["agents"] == ["restricted:greedy,card=Star", "greedy"]
    # Seats rotated: the restricted agent sat in both seats equally often.
    assert data["agent_stats"]["greedy"]["seats"] == {"0": 40, "1": 40}
    low, high = r["importance_ci"]
    assert low < TRUE_IMPORTANCE < high and low > 0.25
    assert r["unrestricted_win_rate"] == pytest.approx(0.5 + r["importance"])
    assert r["p_value"] < 1e-6
    assert r["card_use"]["restricted"]["used"] == 0
    assert r["card_use"]["unrestricted"]["rate"] == 1.0


def test_restricting_a_card_the_agent_never_plays_changes_nothing(invoke, tmp_path):
    data = _json(invoke, tmp_path, "--restrict", "Pip", "--agents", "greedy", "--games", "40")
    r = data["restriction"]
    assert r["importance_ci"][0] < 0 < r["importance_ci"][1]
    assert r["card_use"]["unrestricted"]["used"] == 0
    assert any("no event named Pip for greedy" in w for w in data["warnings"])


def test_cards_barred_together_bound_each_one_and_catch_what_substitutes_hide(invoke, tmp_path):
    """The Moon is as strong as the Star: barred from either alone a seat plays the other and
    loses nothing, so each looks unimportant; barred from both it loses the Star's importance.
    The group's importance is at least each card's, and the words say so."""
    moon = ("--option", "moon=true", "--agents", "greedy", "--games", "60")
    star_alone = _json(invoke, tmp_path, "--restrict", "Star", *moon)["restriction"]
    alone = star_alone["paired"]
    assert alone["bar_could_act"] == 60 and alone["wins_lost"] == alone["wins_gained"] == 0
    assert "by_card" not in star_alone["card_use"]  # one card: its use is the whole count
    out = tmp_path / "group.jsonl"
    both = _json(invoke, tmp_path, "--restrict", "Star; Moon", *moon, "--out-jsonl", str(out))
    r = both["restriction"]
    assert r["cards"] == ["Star", "Moon"] and r["card"] == "Star, Moon"
    assert both["agents"] == ["restricted:greedy,card=Star,card=Moon", "greedy"]
    assert r["card_use"]["restricted"]["used"] == 0
    by_card = r["card_use"]["by_card"]
    assert [by_card[c]["restricted"]["used"] for c in ("Star", "Moon")] == [0, 0]
    assert (
        by_card["Star"]["unrestricted"]["used"] + by_card["Moon"]["unrestricted"]["used"]
        == (
            r["card_use"]["unrestricted"]["used"]  # a seat plays one card a game
        )
    )
    p = r["paired"]
    assert p["wins_gained"] == 0 and p["importance_ci"][0] > 0.1 > alone["importance_ci"][1]
    words = invoke("pool", str(out))
    assert words.exit_code == 0, words.output
    text = " ".join(words.stdout.split())
    assert "Importance of Star and Moon, barred together: greedy wins" in text
    assert "against itself barred from playing any of them" in text
    assert "the barred seat was offered Star or Moon beside another move in 60 of 60" in text
    top = f"{100 * p['importance_ci'][1]:.1f}"
    assert f"none of these cards is worth more than {top} points to this agent" in text
    assert "and the group is worth more than 10 points: bar them one at a time" in text
    star = 100 * by_card["Star"]["unrestricted"]["rate"]
    assert f"restricted seat's: Star {star:.1f}%, 0.0%; Moon" in text


@pytest.mark.parametrize(
    ("top", "needle"),
    [
        (0.08, "worth more than 8.0 points to this agent (the top of the group's 95% interval), "
         "inside the 10 points"),
        (0.10, "worth more than 10.0 points to this agent (the top of the group's 95% interval), "
         "inside the 10 points"),
        (0.121, "worth more than 12.1 points to this agent (the top of the group's 95% interval), "
         "not yet inside the 10 points of the fairness pass: at its point (+2.0 points) about 8 "
         "more games would take the whole interval to one side of them, or bar them one at a "
         "time"),
        (-0.02, "the seat did no worse without the group"),
    ],
)  # fmt: skip
def test_a_group_bar_says_how_far_it_clears_each_card(top, needle):
    from robotable.sim.report import challenge_sentences

    paired = {
        "games": 50, "bar_could_act": 20, "changed": 3, "wins_lost": 2, "wins_gained": 1,
        "unbarred_wins": 14, "barred_wins": 13, "unbarred_win_rate": 0.28,
        "barred_win_rate": 0.26, "importance": 0.02, "importance_ci": [-0.05, top],
        "p_value": 1.0,
    }  # fmt: skip
    restriction = {
        "card": "A, B", "cards": ["A", "B"], "base": "greedy", "seats": 4, "decided": 50,
        "restricted_win_rate": 0.26, "restricted_ci": [0.16, 0.4], "fair_share": 0.25,
        "importance": -0.01, "importance_ci": [-0.15, 0.09], "p_value": 1.0, "draws": 0,
        "paired": paired,
        "card_use": {"restricted": {"used": 0, "rate": 0.0}, "unrestricted": {"used": 9, "rate": 0.1}},
    }  # fmt: skip
    lines = challenge_sentences({"restriction": restriction})
    bound = [line for line in lines if line.startswith("Barred together")]
    assert len(bound) == 1 and needle in bound[0]


def test_depth_is_zero_when_the_heuristic_already_knows_and_large_when_it_misleads(
    invoke, tmp_path
):
    honest = _json(invoke, tmp_path, "--depth", "--depth-iterations", "40", "--games", "40")
    d = honest["depth"]
    assert d["search"] == "mcts:40" and d["baseline"] == "greedy"
    assert d["advantage_ci"][0] < 0 < d["advantage_ci"][1]
    misled = _json(
        invoke,
        tmp_path,
        "--depth",
        "--depth-iterations",
        "40",
        "--games",
        "40",
        "--option",
        "mislead=true",
    )["depth"]
    assert misled["advantage"] > 0.25 and misled["advantage_ci"][0] > 0 and misled["p_value"] < 0.01


def test_the_text_summary_leads_with_the_experiment(invoke, tmp_path):
    result = invoke(
        "simulate",
        "simstrong",
        "--restrict",
        "Star",
        "--games",
        "20",
        "--workers",
        "1",
        "--errors-dir",
        str(tmp_path),
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    # The verdict in words leads with the experiment's answer, and its table leads the numbers.
    assert lines[1] == "Verdict:" and lines[2].startswith("- Star is worth ")
    numbers = lines.index("The numbers behind it:")
    assert "card importance: restricted:greedy,card=Star against greedy" in lines[numbers + 1]
    assert "Importance of Star: greedy wins" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--restrict", "Star", "--agents", "greedy,random"), "give a single agent"),
        (("--restrict", "Star", "--depth"), "one at a time"),
        (("--restrict", "Star", "--fixed-seats"), "drop --fixed-seats"),
        (("--restrict-kind", "play"), "needs --restrict"),
        (("--depth", "--depth-iterations", "0"), "--depth-iterations"),
        (("--restrict", "Star;;Moon"), "no empty names"),
        (("--restrict", "Star;star"), "a card is named twice"),
    ],
)
def test_bad_experiment_input_is_one_line(invoke, args, message):
    result = invoke("simulate", "simstrong", *args)
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_a_flagged_card_comes_with_the_run_that_tells_its_cause(invoke, tmp_path):
    """A designer reading a flag gets the command that measures the card itself, and that
    command, run, shows the card's importance."""
    result = invoke(
        "simulate", "simstrong", "--agents", "random", "--games", "200", "--workers", "1",
        "--errors-dir", str(tmp_path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    command = "robotable simulate simstrong --restrict Star --agents random --players 2 --games 200"
    assert command in text
    barred = _json(invoke, tmp_path, *command.split()[3:-1], "60")["restriction"]
    assert barred["importance_ci"][0] > 0


def test_no_next_step_is_offered_when_the_games_mixed_agents() -> None:
    from robotable.sim.text import causal_next_step

    summary = {
        "game": "simstrong",
        "num_players": 2,
        "agents": ["random", "greedy"],
        "card_impact_stratified": {"past_10_points": ["Star"]},
    }
    assert causal_next_step(summary) is None
    assert causal_next_step({**summary, "agents": ["random"]}).endswith("--games 200")
    summary["card_impact_stratified"] = {"past_10_points": []}
    assert causal_next_step({**summary, "agents": ["random"]}) is None


def test_several_cards_flagged_above_come_with_one_run_that_bars_them_together() -> None:
    from robotable.sim.text import causal_next_step

    rows = [
        {"card": "Evasion", "odds_ratio": 3.1},
        {"card": "Overclock", "odds_ratio": 0.3},
        {"card": "Titan Hull", "odds_ratio": 2.2},
    ]
    summary = {
        "game": "betabotz",
        "num_players": 6,
        "agents": ["mcts:1000"],
        "card_impact_stratified": {
            "past_10_points": ["Evasion", "Overclock", "Titan Hull"],
            "rows": rows,
        },
    }
    assert "--restrict 'Evasion;Titan Hull' --agents mcts:1000 --players 6" in causal_next_step(
        summary
    )
    summary["card_impact_stratified"]["past_10_points"] = ["Overclock", "Evasion"]
    assert "--restrict Overclock --agents" in causal_next_step(summary)  # one above: no group


# -- paired runs: each barred game beside the same game unbarred --------------------------------


def _paired_jobs(card: str, games: int) -> list:
    from robotable.sim.challenge import restrict_agents
    from robotable.sim.runner import RunSpec, plan_jobs

    spec = RunSpec(
        game="stakbots",
        num_players=2,
        agents=tuple(restrict_agents("mcts:30", [card], [], 2)),
        games=games,
        seed=0,
        paired=True,
    )
    return plan_jobs(spec)


def test_a_paired_game_is_the_barred_game_and_skips_only_games_the_bar_cannot_touch():
    from dataclasses import replace

    from robotable.sim.runner import play_game, play_job

    could = []
    for job in _paired_jobs("Spike Bot", 12):
        paired = play_job(job)
        alone = play_game(job.with_bars(paired=False))
        unbarred = play_game(
            replace(
                job.with_bars(paired=False), seat_agents=tuple("mcts:30" for _ in job.seat_agents)
            )
        )
        # The barred game is the one the restricted agent plays without a partner...
        assert (paired.returns, paired.actions, paired.cards) == (
            alone.returns,
            alone.actions,
            alone.cards,
        )
        # ...and its partner is the same deal with the base agent in the barred seat.
        assert paired.paired and paired.placebo_returns == unbarred.returns
        could.append(paired.bar_could_act[0])
        if not paired.bar_could_act[0]:
            assert (unbarred.returns, unbarred.actions) == (alone.returns, alone.actions)
    assert True in could and False in could  # both kinds of game were checked


def test_with_decision_streams_a_barred_game_starts_where_its_bar_first_acts():
    """With each decision's randomness drawn from its seat's seed and the move's number, a
    paired game's barred game starts from the unbarred game's moves up to the bar's first offer
    and goes on as the barred game played from the first move: the same game, move for move."""
    from dataclasses import replace

    from robotable.sim.runner import play_game, play_job
    from robotable.sim.studies.restricted_play import first_offer

    started_late = 0
    for job in _paired_jobs("Spike Bot", 12):
        job = replace(job, decision_streams=True, record=replace(job.record, keep_moves=True))
        paired = play_job(job)
        alone = play_game(job.with_bars(paired=False))  # no opening: every move chosen
        assert (paired.returns, paired.moves, paired.cards) == (
            alone.returns,
            alone.moves,
            alone.cards,
        )
        if paired.bar_could_act[0]:
            seat = job.arrangement.index(0)
            watch = job.with_bars(watch=((("Spike Bot",), ()),))
            offer = first_offer(watch, paired.unbarred_moves, seat)
            assert offer < len(paired.unbarred_moves)
            assert paired.moves[:offer] == paired.unbarred_moves[:offer]
            started_late += offer > 0
    assert started_late > 0


def test_an_opening_is_played_only_for_agents_that_keep_nothing_between_decisions():
    """An opening's moves are played as given, so a wrong one would show: given, the game
    starts with it; for agents that remember (a kept tree) or without decision streams, the
    agents choose every move."""
    from dataclasses import replace

    from robotable.sim.runner import play_game

    first = _paired_jobs("Spike Bot", 1)[0]
    job = replace(first.with_bars(paired=False), record=replace(first.record, keep_moves=True))
    streams = replace(job, decision_streams=True)
    chosen = play_game(streams).moves[0]
    other = 1 - chosen if chosen < 2 else 0  # the opening seat has several moves
    assert play_game(streams.with_bars(opening=(other,))).moves[0] == other
    assert play_game(job.with_bars(opening=(other,))).moves[0] == play_game(job).moves[0]
    remembering = replace(
        streams.with_bars(opening=(other,)),
        seat_agents=tuple(
            a.replace("mcts:30", "mcts:iterations=30,reuse=1") for a in job.seat_agents
        ),
    )
    without = remembering.with_bars(opening=())
    kept_tree = play_game(remembering)
    assert kept_tree.returns is not None and kept_tree.moves == play_game(without).moves


def test_the_paired_comparison_counts_the_wins_the_bar_moved(invoke, tmp_path):
    data = _json(invoke, tmp_path, "--restrict", "Star", "--agents", "greedy", "--games", "40")
    p = data["restriction"]["paired"]
    # Every game offers the Star beside the Pip, and barring it turns wins into losses only:
    # unbarred the seat wins 15 of 36 die pairs (Star against Star), barred 3 (Pip against
    # Star), so the true paired importance is 12/36.
    assert p["games"] == 40 and p["bar_could_act"] == 40
    assert p["wins_gained"] == 0 and p["wins_lost"] > 6
    assert p["unbarred_wins"] - p["barred_wins"] == p["wins_lost"]
    assert p["importance"] == pytest.approx(p["wins_lost"] / 40)
    low, high = p["importance_ci"]
    assert low < 12 / 36 < high and low > 0.1 and p["p_value"] < 0.01
    never = _json(invoke, tmp_path, "--restrict", "Nothing", "--agents", "greedy", "--games", "8")
    q = never["restriction"]["paired"]
    assert (q["bar_could_act"], q["changed"], q["wins_lost"], q["wins_gained"]) == (0, 0, 0, 0)
    assert q["importance"] == 0 and q["p_value"] == 1.0


def test_a_paired_run_resumes_and_says_its_pairs_in_words(invoke, tmp_path):
    out = tmp_path / "star.jsonl"
    args = ("simulate", "simstrong", "--workers", "1", "--errors-dir", str(tmp_path))
    first = invoke(*args, "--restrict", "Star", "--games", "10", "--out-jsonl", str(out))
    assert first.exit_code == 0, first.output
    whole = invoke(*args, "--restrict", "Star", "--games", "10", "--json")
    resumed = invoke(*args, "--restrict", "Star", "--games", "10", "--resume", str(out), "--json")
    assert resumed.exit_code == 0, resumed.output
    assert (
        json.loads(resumed.stdout)["restriction"]["paired"]
        == json.loads(whole.stdout)["restriction"]["paired"]
    )
    assert "Paired with the same games unbarred: the barred seat was offered Star" in first.output
    assert "the same games unbarred, game by game" in first.output  # the table above it
    # The file alone holds the bar: pooled, it reads as the run did, in words and in JSON.
    pooled = invoke("pool", str(out), "--json")
    assert pooled.exit_code == 0, pooled.output
    restriction = json.loads(pooled.stdout)["restriction"]
    assert restriction["paired"] == json.loads(whole.stdout)["restriction"]["paired"]
    assert (restriction["card"], restriction["base"]) == ("Star", "greedy")
    words = invoke("pool", str(out))
    assert "Paired with the same games unbarred: the barred seat was offered Star" in words.output


@pytest.mark.parametrize(("lost", "words"), [(1, "1 game only unbarred"), (6, "6 games only")])
def test_the_paired_sentence_counts_one_game_as_one(lost, words):
    from robotable.sim.studies.cards import paired_sentence as _paired_sentence

    figures = {
        "games": 100, "bar_could_act": 9, "changed": lost, "wins_lost": lost, "wins_gained": 0,
        "unbarred_wins": 18, "unbarred_win_rate": 0.18, "barred_wins": 18 - lost,
        "barred_win_rate": (18 - lost) / 100, "importance": lost / 100,
        "importance_ci": (-0.025, 0.047), "p_value": 1.0,
    }  # fmt: skip
    sentence = _paired_sentence(["Overkill"], figures)
    assert f"barred, {words}" in sentence and "1 games" not in sentence


@pytest.mark.parametrize(
    ("importance", "ci", "games", "more"),
    [
        (0.09, (0.021, 0.167), 78, 4100),  # the four-seat Betabotz group of 30 Nov 2026
        (0.02, (-0.05, 0.121), 50, 8),
        (0.20, (0.05, 0.35), 40, 50),  # past at its point: games until the bottom clears
        (0.02, (-0.01, 0.05), 100, 0),  # already settled
        (0.10, (0.02, 0.18), 100, None),  # on the 10 points: no number of games settles it
    ],
)
def test_games_to_settle_projects_the_interval_onto_the_10_points(importance, ci, games, more):
    from robotable.sim.challenge import games_to_settle

    assert games_to_settle(importance, ci, games) == more
