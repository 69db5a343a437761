"""Many games at once: runner, statistics, reports (the balance lab, docs/balancing.md).

    from robotable.sim.runner import RunSpec, run
    from robotable.sim.analysis import summarize, make_variants

    spec = RunSpec("stakbots", 2, ("greedy", "random"), games=200, seed=1,
                   variants=make_variants({"stak_size": [5, 9]}))
    summary = summarize(run(spec, workers=2))       # the `simulate --json` object

The generic runner: `runner` (job plan, local processes or Ray), `games` (one game: the job,
its result, the game played or replayed by its moves), `results_file` (the `--out-jsonl` /
`--resume` files), `pool` (several results files as one run), `replays` (a kept game replayed).

The numbers: `analysis` (results to the summary), `quality` (first mover, end reasons, margins,
lead changes, decision point), `impact` (card impact within strata: Mantel-Haenszel), `challenge`
(one agent against copies of another: `--restrict` and `--depth`), `ladder` (Bradley-Terry
ratings), `tune` (numeric options toward targets with Optuna), `tune_weights` (a heuristic's
weights, `tune --config`), `stats` (Wilson, Newcombe, binomial and two-proportion tests, Welch
interval, Holm, Mantel-Haenszel, Bradley-Terry), `verdicts` (the answer in words).

What people read: `formatting` (rates, intervals, points, p-values and ratios, for the terminal
and the HTML alike), `text` (the terminal summary and `--json`), `report` (the HTML report) with
`figures` (its PNG figures).

The commands: `commands` (registers them; `pool`), `cli_common` (what they share), `options`
(the command line checked before the first game), and the studies in `studies/`, each with its
options, summary and text and HTML sections: `studies.simulate` (the command, and the study a
run makes), `studies.seats` (seats and first mover), `studies.cards` (stratified and restricted
play), `studies.depth`, `studies.ladder`, `studies.tuning` and `studies.balance` (the fairness
pass, `robotable balance`); `studies.restricted_play` plays a barred game beside the same game
unbarred for the runner.
"""
