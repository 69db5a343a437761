"""One game on four engines in one run, beside OpenSpiel's C++ games: two source trees (say this
commit and the one before a change), each compiled and pure. The measurements of "Typed
extension types" in docs/performance.md.

    python scripts/engines_one_run.py NEW_SRC NEW_ENGINE OLD_SRC OLD_ENGINE [SECONDS] [GAME]

GAME (default stakbots) is played at its fewest seats and at min(its most, 4).

NEW_SRC/OLD_SRC are a tree's `src` folder, NEW_ENGINE/OLD_ENGINE what `python -m
robotable._build DIR` built from it. Medians of 3 alternating rounds go to stdout (ratios) and,
with every raw figure, to onerun.json in the working directory.
"""

import json
import os
import statistics
import subprocess
import sys

if len(sys.argv) < 5:
    raise SystemExit(__doc__)
NEW_SRC, NEW_ENGINE, OLD_SRC, OLD_ENGINE = (os.path.abspath(a) for a in sys.argv[1:5])
sys.path.insert(0, NEW_SRC)
PY = sys.executable
CONFIGS = {
    "new-compiled": {"PYTHONPATH": NEW_SRC, "ROBOTABLE_ENGINE_DIR": NEW_ENGINE},
    "new-pure": {"PYTHONPATH": NEW_SRC, "ROBOTABLE_PURE": "1"},
    "main-compiled": {"PYTHONPATH": OLD_SRC, "ROBOTABLE_ENGINE_DIR": OLD_ENGINE},
    "main-pure": {"PYTHONPATH": OLD_SRC, "ROBOTABLE_PURE": "1"},
}
SECONDS = float(sys.argv[5]) if len(sys.argv) > 5 else 3.0
GAME = sys.argv[6] if len(sys.argv) > 6 else "stakbots"
from robotable.core.registry import game_class  # noqa: E402

_cls = game_class(GAME)
SEATS = sorted({_cls.min_players, min(_cls.max_players, 4)})
ROUNDS = 3
res = {f"{k}/{n}": [] for k in CONFIGS for n in SEATS}
cpp = {}
from robotable.envs.openspiel_bench import CPP_GAMES, cpp_random_playouts  # noqa: E402

for r in range(ROUNDS):
    order = list(CONFIGS) if r % 2 == 0 else list(CONFIGS)[::-1]
    for n in SEATS:
        for k in order:
            env = {
                x: v
                for x, v in os.environ.items()
                if x not in ("ROBOTABLE_PURE", "ROBOTABLE_ENGINE_DIR", "PYTHONPATH")
            }
            env.update(CONFIGS[k])
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            out = subprocess.run(
                [
                    PY,
                    "-m",
                    "robotable.cli",
                    "bench",
                    GAME,
                    "--players",
                    str(n),
                    "--seconds",
                    str(SECONDS),
                    "--seed",
                    "1",
                    "--json",
                ],
                capture_output=True,
                text=True,
                env=env,
            )
            if out.returncode:
                print(k, out.stderr[-2000:])
                sys.exit(1)
            d = json.loads(out.stdout)
            res[f"{k}/{n}"].append(d)
            print(
                r,
                k,
                n,
                round(d["random_actions_per_s"]),
                round(d["mcts_iterations_per_s"]),
                flush=True,
            )
    for name in CPP_GAMES:
        cpp.setdefault(name, []).append(
            cpp_random_playouts(name, 2.0, 1 + r)["random_actions_per_s"]
        )
cpp_med = {k: statistics.median(v) for k, v in cpp.items()}
ref = statistics.median(cpp_med.values())
keys = ["random_actions_per_s", "mcts_iterations_per_s", "clone_us", "apply_us", "legal_us"]
med = {k: {m: statistics.median(d[m] for d in v) for m in keys} for k, v in res.items()}
print(
    json.dumps({"cpp": cpp_med, "cpp_median": ref, "medians": med, "raw": res}, indent=1),
    file=open("onerun.json", "w"),  # noqa: SIM115
)
print("OpenSpiel C++ median random actions/s:", round(ref))
for n in SEATS:
    nc, np_, mc, mp = (med[f"{k}/{n}"] for k in CONFIGS)
    print(f"--- {GAME} {n} seats")
    for m in keys:
        print(
            f"{m:24s} new-c {nc[m]:>10,.1f} new-p {np_[m]:>10,.1f} main-c {mc[m]:>10,.1f} main-p {mp[m]:>10,.1f}"
        )

    def rate(a, b, m):
        return a[m] / b[m] if not m.endswith("_us") else b[m] / a[m]

    for m in keys:
        print(
            f"{m:24s} new-c/new-p {rate(nc, np_, m):.2f}x  new-c/main-c {rate(nc, mc, m):.2f}x  main-c/main-p {rate(mc, mp, m):.2f}x  new-p/main-p {rate(np_, mp, m):.2f}x"
        )
    print(
        f"random actions/s vs C++ median: new-c {nc['random_actions_per_s'] / ref:.2f}x new-p {np_['random_actions_per_s'] / ref:.2f}x main-c {mc['random_actions_per_s'] / ref:.2f}x main-p {mp['random_actions_per_s'] / ref:.2f}x"
    )
