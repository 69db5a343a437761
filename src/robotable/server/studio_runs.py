"""The studio's studies: a queue bounded per key, one study playing at a time in a thread of its
own (so the event loop never waits on it), its games in sim.runner's worker processes or on Ray,
and the answer in words and numbers once it ends.

A study is `sim.runner.run` on a RunSpec, exactly what `robotable simulate` plays: the same
seed gives the same games and numbers from the page and from the command line. Cancelling
raises KeyboardInterrupt out of the run's progress callback, which is how the runner stops on
Ctrl-C: its pool of workers is terminated and the games finished so far are kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import queue
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from ..core.errors import RobotableError
from ..sim.analysis import summarize
from ..sim.impact import stratified_card_impact
from ..sim.runner import GameResult, RunOutcome, RunSpec, Variant, plan_jobs, play_batch, run
from ..sim.stats import mean_difference, paired_cells, paired_difference
from ..sim.verdicts import judged_cards, verdicts

log = logging.getLogger("robotable.server")

QUESTIONS = {
    "fair": "Is it fair?",
    "cards": "Which cards are too strong or too weak?",
    "length": "How long is a game?",
    "compare": "Does this change help?",
}
LEVELS = {
    "random": "Random moves (fastest)",
    "easy": "Easy",
    "medium": "Medium",
    "hard": "Hard (slow)",
}
MAX_GAMES = 2000  # games of one study, both sides of a comparison together
MAX_QUEUED = 3  # studies waiting per key, besides the one playing
CARDS_SHOWN = 8  # strongest and weakest cards drawn
OPEN = ("queued", "running")  # the states of a study not yet ended
KEPT_ENDED = 50  # ended studies kept in memory besides the database (their progress sockets)


class StudyRefused(Exception):
    """A study the queue will not take, in one line for the page."""


@dataclass(slots=True)
class Study:
    id: str
    key: str  # whose queue it is in (a hash of the studio key, or "local")
    inputs: dict[str, Any]  # as stored: game, seats, question, level, games, seed, sets, options
    spec: RunSpec
    state: str = "queued"  # queued, running, done, cancelled, failed
    done: int = 0
    total: int = 0
    started: float | None = None
    result: dict[str, Any] | None = None
    error: str | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    version: int = 0
    changed: asyncio.Event | None = None

    def status(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "state": self.state,
            "done": self.done,
            "total": self.total,
            "error": self.error,
            "url": f"/studio/s/{self.id}",
        }


def build_spec(inputs: dict[str, Any], sides: list[dict[str, Any]]) -> RunSpec:
    """The run of a study: `sides` are each side's options (card set inline), one side or A
    and B, played on the same seeds."""
    compare = len(sides) > 1
    variants = tuple(
        Variant(i, ("A", "B")[i] if compare else "your set", tuple(options.items()))
        for i, options in enumerate(sides)
    )
    return RunSpec(
        game=inputs["game"],
        num_players=inputs["seats"],
        agents=(inputs["level"],),
        games=inputs["games"],
        seed=inputs["seed"],
        variants=variants,
        error_dir="robotable-errors",
        track_cards=True,
        # lead changes for the plot: the game's evaluation every decision (not for card studies)
        quality=inputs["question"] != "cards",
    )


STARTUP_SECONDS = 1.5  # starting a study's worker processes, until one has been timed


class Estimates:
    """Seconds per game by (game, seats, skill, quality), so that the page can say how long a
    study takes: measured by playing one game the first time it is asked, then taken from each
    study's own games as they finish on this server."""

    def __init__(self) -> None:
        self._per_game: dict[tuple, float] = {}
        self._startup = STARTUP_SECONDS
        self._lock = threading.Lock()  # one game timed at a time: they share the cores

    @staticmethod
    def _key(spec: RunSpec) -> tuple:
        return (spec.game, spec.num_players, spec.agents, spec.quality)

    def seconds(self, spec: RunSpec, workers: int) -> float:
        """About how long `spec` takes here (call it off the event loop: it may play a game)."""
        key = self._key(spec)
        with self._lock:
            if key not in self._per_game:
                job = plan_jobs(replace(spec, games=1, variants=spec.variants[:1]))[0]
                began = time.perf_counter()
                play_batch([job])
                self._per_game[key] = time.perf_counter() - began
            per_game = self._per_game[key]
        games = spec.games * len(spec.variants)
        return self._startup + per_game * games / max(1, min(workers, games))

    def learn(self, outcome: RunOutcome) -> None:
        """A finished study's own timing: its games' median and its workers' start."""
        seconds = sorted(r.seconds for r in outcome.results if r.returns is not None)
        if seconds:
            with self._lock:
                self._per_game[self._key(outcome.spec)] = seconds[len(seconds) // 2]
                self._startup = outcome.startup_seconds or self._startup


class StudyQueue:
    """Studies waiting and playing; `start` and `aclose` from the app's lifespan."""

    def __init__(
        self,
        save: Callable[[Study], Any],
        workers: int = 2,
        ray_address: str | None = None,
        max_games: int = MAX_GAMES,
        max_queued: int = MAX_QUEUED,
    ) -> None:
        self.save = save  # a coroutine function storing a finished study
        self.workers = workers
        self.ray_address = ray_address
        self.max_games = max_games
        self.max_queued = max_queued
        self.studies: dict[str, Study] = {}
        self.estimates = Estimates()
        # Timing a game may take a while (a hard game): in a thread of its own, so that waiting
        # estimates never fill the event loop's default pool, which the tables use.
        self._estimator = ThreadPoolExecutor(1, thread_name_prefix="robotable-studio-estimate")
        self._waiting: queue.SimpleQueue[Study | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._work, name="robotable-studio", daemon=True)
        self._thread.start()

    async def estimate(self, spec: RunSpec) -> float:
        """About how long `spec` takes here, in seconds (Estimates.seconds)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._estimator, self.estimates.seconds, spec, self.workers
        )

    async def aclose(self) -> None:
        self._estimator.shutdown(wait=False, cancel_futures=True)
        for study in self.studies.values():
            study.cancel.set()
        self._waiting.put(None)
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, 60)

    def submit(self, key: str, inputs: dict[str, Any], spec: RunSpec) -> Study:
        total = spec.games * len(spec.variants)
        if total > self.max_games:
            raise StudyRefused(
                f"{total} games is more than a study may play here (at most {self.max_games})"
            )
        mine = [s for s in self.studies.values() if s.key == key and s.state in OPEN]
        if len(mine) > self.max_queued:
            raise StudyRefused(
                f"{len(mine)} studies are already playing or waiting (at most "
                f"{self.max_queued + 1}); wait for one to finish or cancel one"
            )
        ended = [i for i, s in self.studies.items() if s.state not in OPEN]
        for study_id in ended[: max(0, len(ended) - KEPT_ENDED)]:
            del self.studies[study_id]  # stored; its link reads it from the database
        study = Study(secrets.token_urlsafe(9), key, inputs, spec, total=total)
        study.changed = asyncio.Event()
        self.studies[study.id] = study
        self._waiting.put(study)
        return study

    def cancel(self, study: Study) -> None:
        study.cancel.set()
        if study.state == "queued":
            self._set(study, state="cancelled")

    async def wait_change(self, study: Study, seen: int) -> None:
        """Returns once the study has changed since version `seen`."""
        while study.version == seen and study.changed is not None:
            event = study.changed
            await event.wait()

    # -- the worker thread --------------------------------------------------------------------
    def _set(self, study: Study, **changes: Any) -> None:
        for name, value in changes.items():
            setattr(study, name, value)
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody watches
                self._loop.call_soon_threadsafe(self._bump, study)

    @staticmethod
    def _bump(study: Study) -> None:
        study.version += 1
        old, study.changed = study.changed, asyncio.Event()
        if old is not None:
            old.set()

    def _work(self) -> None:
        while True:
            study = self._waiting.get()
            if study is None:
                return
            if study.cancel.is_set():
                continue
            self._play(study)

    def _play(self, study: Study) -> None:
        self._set(study, state="running", started=time.time())

        def progress(count: int) -> None:
            self._set(study, done=study.done + count)
            if study.cancel.is_set():
                raise KeyboardInterrupt  # the runner stops its pool, keeping finished games

        try:
            outcome = run(
                study.spec, workers=self.workers, ray_address=self.ray_address, progress=progress
            )
            result = study_result(study.spec, outcome, study.inputs["question"])
            self.estimates.learn(outcome)
        except Exception as exc:  # noqa: BLE001 - a failing study must not stop the queue
            log.warning("study %s failed", study.id, exc_info=True)
            # Our own one-line errors (Ray unreachable) are for the page; anything else may name
            # the machine's files, and stays in the server's log.
            why = str(exc).splitlines()[0] if isinstance(exc, RobotableError) and str(exc) else ""
            error = f"The study stopped: {why}" if why else "The study stopped on a server error."
            self._set(study, state="failed", error=error)
            return
        state = "cancelled" if outcome.interrupted else "done"
        study.result = result
        if self._loop is not None:
            future = asyncio.run_coroutine_threadsafe(self.save(study), self._loop)
            try:
                future.result(timeout=60)
            except Exception:  # noqa: BLE001 - the answer is still shown; only the link is lost
                log.warning("study %s was not stored", study.id, exc_info=True)
        self._set(study, state=state, done=outcome.played)


# -- the answer -------------------------------------------------------------------------------


def study_result(spec: RunSpec, outcome: RunOutcome, question: str) -> dict[str, Any]:
    """What the page shows of a finished (or cancelled) study: the verdicts in words, then the
    numbers its plots are drawn from; with two sides, the paired comparison."""
    summary = summarize(outcome)
    words = plain_words(verdicts(summary))
    if summary["errors"]:
        # Left out of every number above: say so first, in words (the records stay on the server).
        words.insert(
            0,
            f"{summary['errors']} of {summary['games']} games stopped on an error in the rules "
            "and are left out of the answer: a card of this set may do something the game "
            "cannot play.",
        )
    result: dict[str, Any] = {
        "question": question,
        "verdicts": words,
        "completed": summary["completed"],
        "games_planned": summary["games_planned"],
        "interrupted": outcome.interrupted,
        "seconds": round(outcome.seconds, 1),
        "numbers": _numbers(summary),
        "seats": _seats(summary),
        "cards": _cards(summary),
        "length": _length(summary),
        "lead_changes": (summary["quality"].get("lead_changes") or {}).get("counts"),
    }
    if len(spec.variants) == 2:
        result["compare"] = compare(spec, outcome.results, summary)
        result["verdicts"] = result["compare"]["words"] + words
    return result


def _numbers(summary: dict[str, Any]) -> dict[str, Any]:
    """The numbers the command line's `--json` carries under the same names (for comparing)."""
    return {
        k: summary[k] for k in ("games", "completed", "wins", "draws", "win_rate", "mean_turns")
    }


def _seats(summary: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"seat": s + 1, "rate": rate, "low": ci[0], "high": ci[1], "fair": row["fair_share"]}
        for s, (rate, ci, row) in enumerate(
            zip(summary["win_rate"], summary["win_rate_ci"], summary["seat_tests"])
        )
    ]


def _cards(summary: dict[str, Any]) -> list[dict[str, Any]]:
    cards = judged_cards(summary)
    if len(cards) > 2 * CARDS_SHOWN:
        cards = cards[:CARDS_SHOWN] + cards[-CARDS_SHOWN:]
    return cards


def _length(summary: dict[str, Any]) -> dict[str, Any]:
    turns = summary["lengths"]["turns"]
    return {k: turns.get(k) for k in ("median", "p25", "p75", "mean", "hist")}


def plain_words(lines: list[str]) -> list[str]:
    """The lab's verdicts as the studio's page says them: its command-line hints put in the
    page's own words."""
    out = []
    for line in lines:
        line = line.replace("run `--games 200` or more", "run 200 games or more")
        line = line.replace(
            "use greedy or stronger: `-a greedy`, or `-a hard` for stronger play (slower)",
            "choose the medium or hard level",
        )
        if "`--games " in line:
            line = (
                line.split("; four times the games")[0] + "; four times the games halve the doubt"
            )
        out.append(line.replace("`", ""))
    return out


def compare(spec: RunSpec, results: list[GameResult], summary: dict[str, Any]) -> dict[str, Any]:
    """A against B on the same deals: the first mover's win rate (paired difference), the
    length (Welch interval) and each card's points on both sides."""
    by_side: list[dict[int, GameResult]] = [{}, {}]
    for r in results:
        if r.returns is not None:
            by_side[r.variant][r.index] = r
    pairs = [
        (b.won(b.first_mover), a.won(a.first_mover))
        for index, a in by_side[0].items()
        if (b := by_side[1].get(index)) is not None
        and a.first_mover is not None
        and b.first_mover is not None
    ]
    diff, low, high = paired_difference(*paired_cells(pairs))
    sides = summary["variants"]
    first = {
        "a": sides[0]["first_mover"]["win_rate"],
        "b": sides[1]["first_mover"]["win_rate"],
        "a_ci": sides[0]["first_mover"]["ci"],
        "b_ci": sides[1]["first_mover"]["ci"],
        "difference": diff,
        "low": low,
        "high": high,
        "pairs": len(pairs),
    }
    ta, tb = sides[0]["lengths"]["turns"], sides[1]["lengths"]["turns"]
    d, lo, hi, _ = mean_difference(
        tb["mean"], tb["sd"], tb["count"], ta["mean"], ta["sd"], ta["count"]
    )
    length = {"a": ta["mean"], "b": tb["mean"], "difference": d, "low": lo, "high": hi}
    cards = _card_moves(spec, results, sides)
    words = _compare_words(first, length, cards)
    return {"first_mover": first, "length": length, "cards": cards, "words": words}


def _card_moves(
    spec: RunSpec, results: list[GameResult], sides: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    judged = []
    for variant, side in zip(spec.variants, sides):
        mine = [r for r in results if r.variant == variant.index]
        impact = stratified_card_impact(replace(spec, variants=(variant,)), mine)
        view = {"card_impact_stratified": impact, "first_seat": side["first_seat"]}
        view["num_players"] = spec.num_players
        judged.append({c["card"]: c for c in judged_cards(view)})
    both = sorted(set(judged[0]) & set(judged[1]))
    moves = [{"card": card, "a": judged[0][card], "b": judged[1][card]} for card in both]
    moves.sort(key=lambda m: -abs(m["b"]["points"] - m["a"]["points"]))
    return moves[:CARDS_SHOWN]


def _percent(x: float) -> str:
    return "?" if x is None or not math.isfinite(x) else f"{100 * x:.0f}%"


def _points(x: float) -> str:
    whole = round(x)
    return f"{whole:+d}" if whole else "0"


def _compare_words(
    first: dict[str, Any], length: dict[str, Any], cards: list[dict[str, Any]]
) -> list[str]:
    lines = []
    if first["pairs"]:
        text = (
            f"The change moved the first mover from {_percent(first['a'])} to "
            f"{_percent(first['b'])} wins"
        )
        if math.isfinite(first["difference"]):
            text += (
                f" ({_points(100 * first['difference'])} points, between "
                f"{_points(100 * first['low'])} and {_points(100 * first['high'])} on the same "
                f"{first['pairs']} deals)"
            )
        lines.append(text + ".")
    if all(math.isfinite(length[k]) for k in ("a", "b")):
        text = (
            f"A game lasts {length['a']:.1f} turns on average with A and {length['b']:.1f} with B"
        )
        if math.isfinite(length["low"]) and math.isfinite(length["high"]):
            text += f" (a change between {length['low']:+.1f} and {length['high']:+.1f} turns)"
        lines.append(text + ".")
    if cards:
        moved = ", ".join(
            f"{m['card']} from {_points(m['a']['points'])} to {_points(m['b']['points'])} points"
            for m in cards[:3]
        )
        lines.append(f"The cards that moved most: {moved}.")
    return lines
