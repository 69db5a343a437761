"""Bread Winner on four engines in one run: two source trees (say this commit and the one before
a change), each compiled and pure, `robotable bench breadwinner --seconds 3 --json` per engine
and tree in its own process, 3 rounds in alternating order; medians and ratios to stdout, every
raw figure to bw_onerun.json in the working directory. The measurement of Bread Winner's
paragraph in docs/performance.md, "Typed extension types".

    python scripts/breadwinner_one_run.py NEW_SRC NEW_ENGINE OLD_SRC OLD_ENGINE
"""

import json
import os
import statistics
import subprocess
import sys

if len(sys.argv) < 5:
    raise SystemExit(__doc__)
NEW_SRC, NEW_ENGINE, OLD_SRC, OLD_ENGINE = (os.path.abspath(a) for a in sys.argv[1:5])
PY = sys.executable
CONFIGS = {
    "typed-compiled": {"PYTHONPATH": NEW_SRC, "ROBOTABLE_ENGINE_DIR": NEW_ENGINE},
    "untyped-compiled": {"PYTHONPATH": OLD_SRC, "ROBOTABLE_ENGINE_DIR": OLD_ENGINE},
    "typed-pure": {"PYTHONPATH": NEW_SRC, "ROBOTABLE_PURE": "1"},
    "untyped-pure": {"PYTHONPATH": OLD_SRC, "ROBOTABLE_PURE": "1"},
}
res = {k: [] for k in CONFIGS}
for r in range(3):
    order = list(CONFIGS) if r % 2 == 0 else list(CONFIGS)[::-1]
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
                "-W",
                "error::RuntimeWarning",
                "-c",
                # Which engine ran goes to stderr; a stale compiled module fails the run.
                "import sys, robotable._engine as e; print(e.describe(), file=sys.stderr); "
                "from robotable.cli import main; main()",
                "bench",
                "breadwinner",
                "--seconds",
                "3",
                "--json",
            ],
            env=env,
            capture_output=True,
            text=True,
            cwd=os.getcwd(),
        )
        if out.returncode:
            print(k, out.stderr)
            sys.exit(1)
        d = json.loads(out.stdout)
        d["engine"] = out.stderr.strip()
        res[k].append(d)
        print(
            r,
            k,
            d["engine"],
            round(d["random_actions_per_s"]),
            round(d["mcts_iterations_per_s"]),
            flush=True,
        )
with open("bw_onerun.json", "w") as f:
    json.dump(res, f, indent=1)
med = {
    k: {
        m: statistics.median(x[m] for x in v)
        for m in (
            "random_actions_per_s",
            "mcts_iterations_per_s",
            "clone_us",
            "apply_us",
            "legal_us",
        )
    }
    for k, v in res.items()
}
for k, v in med.items():
    print(k, {m: round(x, 2) for m, x in v.items()})
tc, uc, tp, up = (med[k] for k in CONFIGS)
for m in ("random_actions_per_s", "mcts_iterations_per_s"):
    print(
        m,
        "typed/untyped compiled %.2fx" % (tc[m] / uc[m]),
        "typed compiled/pure %.2fx" % (tc[m] / tp[m]),
        "untyped compiled/pure %.2fx" % (uc[m] / up[m]),
        "typed pure/untyped pure %.2fx" % (tp[m] / up[m]),
    )
for m in ("clone_us", "apply_us", "legal_us"):
    print(m, "untyped/typed compiled time %.2fx" % (uc[m] / tc[m]))
