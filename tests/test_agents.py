"""Agents play through the protocol only; checked on the small test game."""

from __future__ import annotations

import importlib
import importlib.util
import json
import math
import os
import random
from pathlib import Path

import pytest

import robotable
from robotable.agents import make_agent, parse_agent_spec
from robotable.agents.mcts import MCTSAgent
from robotable.frontend.bench import mid_game_states
from script_modules import load_script


def play(game, agents, seed):
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].act(state))
    return state.returns()


def one_ply_value(state, action, seat: int) -> float:
    """The heuristic's value for `seat` of the position after `action` (the result if it ends)."""
    after = state.clone()
    after.apply_action(action)
    return after.returns()[seat] if after.is_terminal() else state.game.evaluate(after, seat)


def test_agent_specs_parse_positional_and_keyword_parameters() -> None:
    assert parse_agent_spec("mcts:200") == ("mcts", {"iterations": 200})
    assert parse_agent_spec("mcts:time=0.5,c=1") == (
        "mcts",
        {"time": 0.5, "c": 1.0, "iterations": None},
    )
    assert parse_agent_spec("random") == ("random", {})


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("wizard", "unknown agent"),
        ("mcts:x=1", "unknown parameter 'x'"),
        ("mcts:iterations=lots", "must be int"),
        ("random:3", "takes no parameters"),
        ("mcts:0", "must be positive"),
        ("mcts:guide=2", "'guide' must be at most 1"),
        ("mcts:turn=0", "'turn' must be positive"),
        ("mcts:leaf=9", "'leaf' must be a name"),
        ("", "expected a name"),
    ],
)
def test_bad_agent_specs_are_refused_with_a_clear_message(spec: str, needle: str) -> None:
    with pytest.raises(robotable.OptionError, match=needle):
        make_agent(spec)


def test_same_seed_same_choices() -> None:
    game = robotable.load_game("countdown")
    state = game.new_initial_state(seed=5)
    first = [make_agent("mcts:100", seed=9).act(state) for _ in range(2)]
    assert first[0] == first[1]


def test_greedy_takes_a_win_in_one() -> None:
    game = robotable.load_game("countdown", pile=3)
    state = game.new_initial_state(seed=1)
    assert make_agent("greedy").act(state).label() in ("take 3", "play boost 3")


def test_mcts_beats_random_on_the_test_game() -> None:
    game = robotable.load_game("countdown")
    score = 0.0
    for i in range(20):
        agents = [make_agent("mcts:200", seed=i), make_agent("random", seed=i)]
        if i % 2:
            agents.reverse()
        score += play(game, agents, seed=i)[i % 2]
    assert score >= 16


def test_mcts_search_never_touches_the_real_state() -> None:
    game = robotable.load_game("countdown", num_players=3)
    state = game.new_initial_state(seed=2)
    before = state.to_json()
    make_agent("mcts:300", seed=1).act(state)
    assert state.to_json() == before


def test_mcts_time_budget_stops_the_search() -> None:
    game = robotable.load_game("countdown")
    agent = make_agent("mcts:time=0.05", seed=1)
    agent.act(game.new_initial_state(seed=3))
    assert agent.last_iterations > 0


BUNDLED = robotable.core.registry.bundled_game_names()


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_every_named_strength_is_an_agent_in_every_game(level: str) -> None:
    from robotable.agents import concrete_spec

    for name in BUNDLED:
        spec = concrete_spec(level, name)
        make_agent(spec)  # the concrete agent parses
        game = robotable.load_game(name)
        state = game.new_initial_state(seed=1)
        if level in ("easy", "medium"):  # the searching levels are timed by the next test
            assert make_agent(level, seed=1).act(state) in state.legal_actions()


@pytest.mark.parametrize("level", ["easy", "medium"])
@pytest.mark.parametrize("name", BUNDLED)
def test_fixed_budget_levels_play_the_same_under_a_seed(level: str, name: str) -> None:
    game = robotable.load_game(name)

    def opening(seed: int) -> list:
        state = game.new_initial_state(seed=3)
        agents = [make_agent(level, seed=seed + s) for s in range(game.num_players)]
        moves = []
        while not state.is_terminal() and len(moves) < 40:
            action = agents[state.current_player()].act(state)
            moves.append(action)
            state.apply_action(action)
        return moves

    assert opening(11) == opening(11)


@pytest.mark.parametrize("name", BUNDLED)
def test_medium_beats_random_in_every_game(name: str) -> None:
    """A small strength check, seats rotated: Medium wins most of 20 games against Random."""
    game = robotable.load_game(name)
    score = 0.0
    for i in range(20):
        medium_seat = i % game.num_players
        agents = [make_agent("random", seed=i * 7 + s) for s in range(game.num_players)]
        agents[medium_seat] = make_agent("medium", seed=i)
        score += play(game, agents, seed=100 + i)[medium_seat]
    assert score >= 14, f"{name}: medium scored {score} of 20 against random"


def test_mcts_reuse_keeps_the_subtree_when_the_same_seat_decides_again() -> None:
    """With reuse=1 the agent remembers the subtree under its move for its own next decision,
    and only for the very position that move leads to; under a seed it plays the same moves."""
    game = robotable.load_game("stakbots")

    def moves(seed: int) -> tuple[list, int]:
        state = game.new_initial_state(seed=5)
        agents = [make_agent("mcts:iterations=40,reuse=1", seed=seed + s) for s in range(2)]
        played, kept = [], 0
        while not state.is_terminal() and len(played) < 30:
            seat = state.current_player()
            action = agents[seat].act(state)
            state.apply_action(action)
            played.append(action)
            remembered = agents[seat]._kept
            if remembered is not None:
                kept += 1
                assert state.current_player() == seat
                assert remembered[0] == state.to_json()
        return played, kept

    first, kept = moves(3)
    assert kept > 0
    assert moves(3)[0] == first


def test_mcts_guided_rollout_move_is_the_heuristics_best() -> None:
    """`guide` plays rollout moves by the heuristic: the move chosen is one the mover values
    highest one ply ahead, on every position of a played game."""
    from robotable.agents.mcts import _best_by_heuristic

    game = robotable.load_game("stakbots")
    state = game.new_initial_state(seed=2)
    agents = [make_agent("random", seed=s) for s in range(2)]
    rng = random.Random(0)
    checked = 0
    while not state.is_terminal() and checked < 40:
        legal = state.legal_actions()
        mover = state.current_player()
        sample = state.determinize(mover, rng)
        legal = sample.legal_actions()
        chosen = _best_by_heuristic(sample, legal, game.evaluate, rng)
        best = max(one_ply_value(sample, a, mover) for a in legal)
        assert one_ply_value(sample, chosen, mover) == pytest.approx(best)
        checked += 1
        state.apply_action(agents[mover].act(state))
    assert checked > 10


def test_mcts_widening_opens_children_best_first_and_few_at_a_time() -> None:
    """`widen=W` opens a node's children one at a time, about W * sqrt(visits) of them, the
    heuristic's favourite first; without it a wide root opens every child at once."""
    game = robotable.load_game("breadwinner")
    state = game.new_initial_state(seed=1)
    while len(state.legal_actions()) < 12:
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    wide = make_agent("mcts:iterations=24,widen=1,rollout=0", seed=0)
    root = wide.search(state)
    assert 1 < len(root.children) <= 1 + math.sqrt(24 + 1)
    assert next(iter(root.children)) == root.order[0]
    sample = state.determinize(seat, random.Random(0))
    best = max(one_ply_value(sample, a, seat) for a in sample.legal_actions())
    assert one_ply_value(sample, root.order[0], seat) == pytest.approx(best)
    plain = make_agent("mcts:iterations=24,rollout=0", seed=0).search(state)
    assert len(plain.children) == min(24, len(state.legal_actions()))


def test_mcts_turn_budget_is_shared_among_a_turns_decisions() -> None:
    """`turn=S` gives a turn S seconds: each decision gets what is left of the turn shared among
    the decisions a turn has needed on average, and a new turn starts afresh."""
    game = robotable.load_game("stakbots")
    state = game.new_initial_state(seed=0)
    agent = make_agent("mcts:turn=2", seed=0)
    assert agent._decision_budget(state) == pytest.approx(2.0)  # first decision: the whole turn
    agent._turn_spent = 0.5
    # Same turn, second decision: a turn has needed two decisions so far, this is the last.
    assert agent._decision_budget(state) == pytest.approx(1.5)
    agent._turn_spent = 2.5  # over budget: a sliver, never nothing
    assert 0 < agent._decision_budget(state) < 0.1
    later = state.clone()
    while (later.current_player(), later.turn_number()) == (
        state.current_player(),
        state.turn_number(),
    ):
        later.apply_action(later.legal_actions()[0])
    # A new turn: 4 decisions over 2 turns so far, so the turn is shared by 2 decisions.
    assert agent._decision_budget(later) == pytest.approx(1.0)
    capped = make_agent("mcts:turn=2,time=0.5", seed=0)
    assert capped._decision_budget(state) == pytest.approx(0.5)
    assert parse_agent_spec("mcts:turn=2")[1] == {"turn": 2.0, "iterations": None}


def test_a_registered_agent_kind_is_a_spec_with_typed_parameters() -> None:
    """`register_agent` makes a researcher's agent a spec name (in this process); a strength's
    name cannot be taken."""
    from robotable.agents import AGENT_KINDS, RandomAgent, agent_params, register_agent

    class Patient(RandomAgent):
        def __init__(self, seed: int = 0, waits: int = 1) -> None:
            super().__init__(seed)
            self.waits = waits

    try:
        register_agent("patient", Patient, {"waits": int})
        # what a script builds a kind like mcts's from (scripts/ai_bound.py's peeking search)
        assert agent_params("patient") == {"waits": int}
        agent_params("patient")["speed"] = float  # a copy: the kind's parameters stay
        assert agent_params("mcts")["c"] is float and "speed" not in agent_params("patient")
        with pytest.raises(robotable.OptionError, match="agent kind 'patience': unknown"):
            agent_params("patience")
        agent = make_agent("patient:waits=3", seed=1)
        assert isinstance(agent, Patient) and agent.waits == 3
        with pytest.raises(robotable.OptionError, match="unknown parameter 'speed'"):
            make_agent("patient:speed=2")
    finally:
        AGENT_KINDS.pop("patient", None)
    with pytest.raises(robotable.OptionError, match="taken by a strength"):
        register_agent("hard", Patient, {})


def _breadwinner_with_a_choice():
    """A seeded Bread Winner game at its first decision of six moves or more."""
    game = robotable.load_game("breadwinner")
    state = game.new_initial_state(seed=3)
    while len(state.legal_actions()) < 6:
        state.apply_action(state.legal_actions()[0])
    return game, state


def _squeezed(game):
    """The game's values squeezed into 0.98-0.995: every move all but won, as in a game well won,
    where rescaling changes the search."""
    return lambda st: [0.98 + 0.015 * v for v in game.evaluate_all(st)]


def _agent_valuing(spec, evaluate_all):
    """The agent of `spec` (seed 0) valuing its leaves with `evaluate_all` (None: the game's)."""
    agent = make_agent(spec, seed=0)
    agent.evaluate_all = evaluate_all
    return agent


def _root_visits(agent, state):
    """The visits of the root's children after one search, most first."""
    root = agent.search(state)
    return sorted((e.visits for e in root.children.values()), reverse=True)


def test_mcts_norm_ranks_moves_by_value_whatever_the_values_scale() -> None:
    """`norm=1` compares each seat's values rescaled to the range they span in the tree, so a
    squeezed evaluation (a game well won: every move within a hundredth of 1.0) is searched as
    the full-range one is; without it the squeezed search spreads its visits almost evenly."""
    game, state = _breadwinner_with_a_choice()
    squeezed = _squeezed(game)

    def visits(spec, evaluate_all=None):
        return _root_visits(_agent_valuing(spec, evaluate_all), state)

    full = visits("mcts:iterations=300,rollout=0,norm=1")
    assert visits("mcts:iterations=300,rollout=0,norm=1", squeezed) == full
    plain = visits("mcts:iterations=300,rollout=0", squeezed)
    assert plain[0] - plain[-1] <= 2  # every move about as many visits: no ranking at all
    assert full[0] >= 2 * plain[0]  # with norm the favourite is searched far more


def test_mcts_press_rescales_only_a_position_all_but_decided() -> None:
    """`press=P` searches as `norm=1` where the deciding seat's value is at least P or at most
    1 - P, and as the plain search in a contested position (same visits, same seeds)."""
    game, state = _breadwinner_with_a_choice()
    decided = _squeezed(game)  # the seat to move all but won, whatever it does

    def contested(st):
        return [0.4 + 0.2 * v for v in game.evaluate_all(st)]

    def visits(spec, evaluate_all):
        agent = _agent_valuing(spec, evaluate_all)
        if not agent.press:
            # the same draws as press's one sample of the root, so the searches match seed for seed
            agent._decided(state, state.current_player(), evaluate_all)
        return _root_visits(agent, state)

    def visits_press(evaluate_all):
        return visits("mcts:iterations=300,rollout=0,press=0.9", evaluate_all)

    assert make_agent("mcts:200,press=0.9").name == "mcts:iterations=200,press=0.9"
    pressed = visits_press(decided)
    assert pressed == visits("mcts:iterations=300,rollout=0,norm=1", decided)
    assert pressed != visits("mcts:iterations=300,rollout=0", decided)
    assert visits_press(contested) == visits("mcts:iterations=300,rollout=0", contested)
    with pytest.raises(robotable.OptionError, match="'press' must be at most 1"):
        make_agent("mcts:200,press=2")


def test_mcts_late_rescales_from_its_turn_of_the_game_on() -> None:
    """`late=T` searches as `norm=1` from the game's turn T on and as the plain search before
    it, draw for draw (same visits, same seeds)."""
    game, state = _breadwinner_with_a_choice()
    turn = state.turn_number()

    def visits(spec):
        return _root_visits(_agent_valuing(spec, _squeezed(game)), state)

    assert make_agent("mcts:200,late=80").name == "mcts:iterations=200,late=80"
    rescaled = visits("mcts:iterations=300,rollout=0,norm=1")
    plain = visits("mcts:iterations=300,rollout=0")
    assert rescaled != plain
    assert visits(f"mcts:iterations=300,rollout=0,late={turn}") == rescaled
    assert visits(f"mcts:iterations=300,rollout=0,late={turn + 1}") == plain
    with pytest.raises(robotable.OptionError, match="'late' must be int"):
        make_agent("mcts:200,late=1.5")


def test_mcts_horizon_keeps_the_tree_within_the_turns_it_names() -> None:
    """`horizon=H` grows no edge for a decision past the root's turn and the H - 1 after it: the
    positions it values lie at most H turns on (the first position of the next turn, reached by
    ending the last), where the plain search's tree reaches further."""
    game, state = _breadwinner_with_a_choice()
    turn = state.turn_number()

    def valued_turns(spec):
        seen = set()

        def recording(st):
            seen.add(st.turn_number())
            return game.evaluate_all(st)

        _agent_valuing(spec, recording).search(state)
        return seen

    assert make_agent("mcts:200,horizon=1").name == "mcts:iterations=200,horizon=1"
    assert max(valued_turns("mcts:iterations=300,rollout=0")) > turn + 1
    assert max(valued_turns("mcts:iterations=300,rollout=0,horizon=1")) == turn + 1
    assert max(valued_turns("mcts:iterations=300,rollout=0,horizon=2")) == turn + 2
    with pytest.raises(robotable.OptionError, match="'horizon' must be int"):
        make_agent("mcts:200,horizon=1.5")


def test_mcts_trees_pool_independent_searches_of_a_share_of_the_budget() -> None:
    """`trees=K` runs K searches of 1/K the iterations one after the other on the agent's own
    random stream and pools their root statistics: the same numbers as K separate searches."""
    game, state = _breadwinner_with_a_choice()
    forest = make_agent("mcts:iterations=300,rollout=0,trees=3", seed=5)
    assert forest.name == "mcts:iterations=300,rollout=0,trees=3"
    pooled = forest.search(state)
    assert forest.last_iterations == 300 and pooled.visits == 300
    single = make_agent("mcts:iterations=100,rollout=0", seed=5)
    expected: dict = {}
    for _ in range(3):
        for action, edge in single.search(state).children.items():
            visits, total = expected.get(action, (0, 0.0))
            expected[action] = (visits + edge.visits, total + edge.total)
    got = {a: (e.visits, e.total) for a, e in pooled.children.items()}
    assert got.keys() == expected.keys()
    for action, (visits, total) in expected.items():
        assert got[action][0] == visits and math.isclose(got[action][1], total)
    assert forest.act(state) in state.legal_actions()
    with pytest.raises(robotable.OptionError, match="'trees' must be positive"):
        make_agent("mcts:200,trees=0")


class _CountingDeterminizations:
    """A state that counts the determinizations drawn from it (and from its copies)."""

    def __init__(self, state, drawn: list) -> None:
        self._state, self._drawn = state, drawn

    def __getattr__(self, name: str):
        return getattr(self._state, name)

    def clone(self):
        return _CountingDeterminizations(self._state.clone(), self._drawn)

    def silence(self):
        self._state.silence()
        return self

    def determinize(self, seat: int, rng):
        sample = self._state.determinize(seat, rng)
        self._drawn.append(sample.to_json())
        return sample


@pytest.mark.parametrize("name", ["betabotz", "iotabots"])
def test_mcts_worlds_searches_k_determinizations_taken_in_turn(name: str) -> None:
    """`worlds=K` draws K determinizations (the first K iterations) and no more, every iteration
    playing a copy of one; without it every iteration draws its own. Both are reproducible."""
    state = mid_game_states(robotable.load_game(name), 1, seed=11)[0]
    drawn: list = []
    agent = make_agent("mcts:iterations=120,worlds=8", seed=2)
    assert agent.name == "mcts:iterations=120,worlds=8"
    root = agent.search(_CountingDeterminizations(state, drawn))
    assert root.visits == 120 and len(drawn) == 8
    assert len({json.dumps(world, sort_keys=True) for world in drawn}) > 1  # fresh guesses
    again = make_agent("mcts:iterations=120,worlds=8", seed=2).search(state)
    assert {a: e.visits for a, e in again.children.items()} == {
        a: e.visits for a, e in root.children.items()
    }
    drawn.clear()
    make_agent("mcts:iterations=120", seed=2).search(_CountingDeterminizations(state, drawn))
    assert len(drawn) == 120
    with pytest.raises(robotable.OptionError, match="'worlds'"):
        make_agent("mcts:200,worlds=-1")


def test_mcts_leaf_values_the_leaves_with_the_games_named_evaluation() -> None:
    """`leaf=NAME` is the search with `Game.leaf_evaluations()[NAME]` as its `evaluate_all`: the
    same tree as a search given that function, on the agent's own random stream. A game that
    does not offer the name refuses the spec before any game starts, naming what it offers."""
    from robotable.agents import check_for_game

    game, state = _breadwinner_with_a_choice()
    named = make_agent("mcts:iterations=200,rollout=0,leaf=fitted", seed=5)
    assert named.name == "mcts:iterations=200,rollout=0,leaf=fitted"
    fitted = game.leaf_evaluations()["fitted"]
    given = MCTSAgent(seed=5, iterations=200, rollout=0, evaluate_all=fitted)
    plain = make_agent("mcts:iterations=200,rollout=0", seed=5)
    visits = {a: e.visits for a, e in named.search(state).children.items()}
    assert visits == {a: e.visits for a, e in given.search(state).children.items()}
    assert visits != {a: e.visits for a, e in plain.search(state).children.items()}
    later = state.clone()
    pick = random.Random(1)
    while game.evaluate_all(later)[0] == 0.5:
        later.apply_action(pick.choice(later.legal_actions()))
    assert fitted(later) != game.evaluate_all(later)  # other numbers, the same features
    assert all(0.0 <= v <= 1.0 for v in fitted(later))
    check_for_game("mcts:leaf=fitted", "breadwinner")
    for name in ("iotabots", "rumblebots"):
        assert set(robotable.load_game(name).leaf_evaluations()) == {"fitted"}
    for name in ("stakbots", "betabotz"):
        assert robotable.load_game(name).leaf_evaluations() == {}
    with pytest.raises(robotable.OptionError, match="stakbots has no leaf evaluation 'fitted'"):
        check_for_game("mcts:200,leaf=fitted", "stakbots")
    with pytest.raises(robotable.OptionError, match="it offers: fitted"):
        make_agent("mcts:20,leaf=nope").act(state)


@pytest.mark.parametrize("name", ["iotabots", "rumblebots"])
def test_leaf_fitted_is_the_heuristic_with_the_fitted_numbers(name: str) -> None:
    """Iotabots and Rumblebots offer `leaf=fitted`: the search values its leaves with the
    heuristic's FITTED numbers, which differ from the shipped ones in a game under way."""
    heuristic = importlib.import_module(f"robotable.games.{name}.heuristic")
    game = robotable.load_game(name)
    state = mid_game_states(game, 1, seed=11)[0]
    fitted = game.leaf_evaluations()["fitted"]
    assert fitted(state) == heuristic.evaluate_all(state, heuristic.FITTED)
    assert fitted(state) != game.evaluate_all(state)
    named = make_agent("mcts:iterations=200,leaf=fitted", seed=5).search(state)
    given = MCTSAgent(seed=5, iterations=200, evaluate_all=fitted).search(state)
    assert {a: e.visits for a, e in named.children.items()} == {
        a: e.visits for a, e in given.children.items()
    }


def test_mcts_norm_chooses_where_another_seat_credited_the_edges() -> None:
    """In Stak Bots the seat deciding after the same moves can differ between samples (hidden
    cards decide who targets), so a node's edges may hold another seat's values; rescaled by
    the deciding seat's range their scores fall far below zero. A seeded game where that
    happened (its 52nd decision once found no move) plays past that point."""
    from robotable.core.rng import derive_seed

    game = robotable.load_game("stakbots")
    seed = 4782154076979642453
    state = game.new_initial_state(seed=seed)
    specs = ("mcts:200,norm=1", "mcts:200")
    agents = [make_agent(spec, seed=derive_seed(seed, 1 + s)) for s, spec in enumerate(specs)]
    for _ in range(60):
        if state.is_terminal():
            break
        state.apply_action(agents[state.current_player()].act(state))


SEARCH_GOLDEN = Path(__file__).with_name("golden_search.json")


def search_visits(name: str) -> list[list]:
    """A game's search from one seeded mid-game state: every root choice in words with its
    visit count after 200 iterations."""
    game = robotable.load_game(name)
    state = mid_game_states(game, 1, seed=11)[0]
    root = MCTSAgent(seed=3, iterations=200).search(state)
    return sorted([str(a), int(edge.visits)] for a, edge in root.children.items())


@pytest.mark.parametrize("name", BUNDLED)
def test_mcts_search_is_pinned_on_both_engines(name: str) -> None:
    """A faster engine must search the same tree: the root's visit counts are pinned, and the
    suite runs this on the compiled and the pure engine alike. Regenerate with
    ROBOTABLE_REGEN=1 only after an intended change to the games, the heuristics or the search
    (it writes the record of every bundled game that lacks one, too)."""
    golden = json.loads(SEARCH_GOLDEN.read_text()) if SEARCH_GOLDEN.exists() else {}
    visits = search_visits(name)
    if os.environ.get("ROBOTABLE_REGEN"):
        golden[name] = visits
        SEARCH_GOLDEN.write_text(json.dumps(dict(sorted(golden.items())), indent=1) + "\n")
    if name not in golden:
        pytest.skip(
            f"no golden search record for game {name}: write one with ROBOTABLE_REGEN=1 "
            f"python -m pytest tests/test_agents.py -k 'search_is_pinned and {name}'"
        )
    assert visits == golden[name]


def test_every_golden_search_is_a_bundled_game() -> None:
    assert set(json.loads(SEARCH_GOLDEN.read_text())) <= set(BUNDLED)


def test_the_peeking_search_samples_the_true_state() -> None:
    # The search samples from `state.clone().silence()`: the bound is only a bound if that copy
    # still shows every hidden card and the order of every pile.
    ai_bound = load_script("ai_bound")
    game = robotable.load_game("stakbots")
    state = mid_game_states(game, 1, 4)[0]
    seat = state.current_player()
    fair = state.clone().silence().determinize(seat, random.Random(1))
    assert fair.to_json() != state.to_json()  # the fair search does not see them
    opened = ai_bound._Open(state).clone().silence()
    for sample_seed in range(3):
        sample = opened.determinize(seat, random.Random(sample_seed))
        assert sample.to_json() == state.to_json()
    agent = ai_bound.PeekingMCTS(seed=1, iterations=50)
    assert agent.act(state) in state.legal_actions()


def test_the_hand_peeking_search_sees_the_hands_and_not_the_draws() -> None:
    # The measure of what reading the rival's hand could be worth: each sample must hold the
    # true hands and field, and the decks' cards in another order with another dice stream.
    ai_bound = load_script("ai_bound")
    game = robotable.load_game("iotabots")
    state = mid_game_states(game, 1, 4)[0]
    seat = state.current_player()
    opened = ai_bound._HandsOpen(state).clone().silence()
    truth = state.to_json()
    orders = set()
    for sample_seed in range(3):
        sample = opened.determinize(seat, random.Random(sample_seed)).to_json()
        assert sample["hand"] == truth["hand"] and sample["field"] == truth["field"]
        assert [sorted(d) for d in sample["deck"]] == [sorted(d) for d in truth["deck"]]
        assert sample["rng"] != truth["rng"]
        orders.add(str(sample["deck"]))
    assert len(orders) == 3 and str(truth["deck"]) not in orders
    agent = ai_bound.HandPeekingMCTS(seed=1, iterations=50)
    assert agent.act(state) in state.legal_actions()
