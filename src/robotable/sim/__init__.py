"""Many games at once: runner, statistics, reports (the balance lab, docs/balancing.md).

    from robotable.sim.runner import RunSpec, run
    from robotable.sim.analysis import summarize, make_variants

    spec = RunSpec("stakbots", 2, ("greedy", "random"), games=200, seed=1,
                   variants=make_variants({"stak_size": [5, 9]}))
    summary = summarize(run(spec, workers=2))       # the `simulate --json` object

Modules: `runner` (job plan, one game, local processes or Ray), `analysis` (results to numbers),
`quality` (first mover, end reasons, margins, lead changes, decision point), `results_file` (the
`--out-jsonl` / `--resume` files), `stats` (Wilson, Newcombe, binomial and two-proportion tests,
Welch interval, Holm, Mantel-Haenszel, Bradley-Terry), `report` (HTML with figures), `ladder`
(agent ratings),
`impact` (card impact within strata: Mantel-Haenszel), `challenge` (`simulate --restrict` and
`--depth`: one agent against copies of another), `tune` (numeric options toward targets with
Optuna), `commands` (the `simulate`, `ladder` and `tune` commands).
"""
