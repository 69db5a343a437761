"""Small, dependency-free statistics for the balance lab.

Everything here works on plain counts and lists so that it is easy to test against published
values and cheap to run on thousands of games. Intervals are two-sided at 95% unless told.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# The two-sided 95% normal quantile, written out so no dependency is needed to get it.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (Wilson 1927; Newcombe 1998, method 3).

    Preferred over the textbook Wald interval because it stays inside [0, 1] and keeps close to
    its nominal coverage for small counts and rates near 0 or 1, which card statistics hit often.
    With no trials there is no information: the interval is the whole of [0, 1].
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"wilson: need 0 <= successes <= trials, got {successes}/{trials}")
    if trials == 0:
        return (0.0, 1.0)
    n = trials
    p = successes / n
    z2 = z * z
    centre = p + z2 / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    denom = 1 + z2 / n
    low = (centre - spread) / denom
    high = (centre + spread) / denom
    # The exact ends at 0 and n (rounding would otherwise leave 1e-17 off).
    if successes == 0:
        low = 0.0
    if successes == n:
        high = 1.0
    return (max(0.0, low), min(1.0, high))


def newcombe_difference(
    k1: int, n1: int, k2: int, n2: int, z: float = Z95
) -> tuple[float, float, float]:
    """Difference p1 - p2 of two independent proportions with Newcombe's hybrid score interval.

    (Newcombe 1998, "Interval estimation for the difference between independent proportions",
    method 10.) Built from the two Wilson intervals, so it behaves well for small counts.
    Returns (difference, low, high); with an empty group the difference is undefined (nan).
    """
    if n1 == 0 or n2 == 0:
        return (math.nan, -1.0, 1.0)
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return (d, max(-1.0, low), min(1.0, high))


def paired_cells(outcomes: Iterable[tuple[bool, bool]]) -> tuple[int, int, int, int]:
    """The four cells of paired yes/no outcomes, in `paired_difference`'s order: yes in both,
    in the first only, in the second only, in neither."""
    cells = [0, 0, 0, 0]
    for first, second in outcomes:
        cells[(0 if second else 1) if first else (2 if second else 3)] += 1
    return cells[0], cells[1], cells[2], cells[3]


def paired_difference(
    both: int, first_only: int, second_only: int, neither: int, z: float = Z95
) -> tuple[float, float, float]:
    """Difference p1 - p2 of two proportions measured on the same units (paired), with
    Newcombe's hybrid score interval for paired data.

    (Newcombe 1998, "Improved confidence intervals for the difference between binomial
    proportions based on paired data", method 10.) The counts are the four cells: successes in
    both, in the first only, in the second only, in neither. Like `newcombe_difference` it is
    built from the two Wilson intervals, here joined through the correlation of the pairs, so
    pairs that mostly agree give a narrow interval. Returns (difference, low, high); no units:
    nan.
    """
    a, b, c, d = both, first_only, second_only, neither
    n = a + b + c + d
    if n == 0:
        return (math.nan, -1.0, 1.0)
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson(a + b, n, z)
    l2, u2 = wilson(a + c, n, z)
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    # The correlation of the pairs as Newcombe corrects it: a positive cross difference is
    # reduced by n/2 (and taken as none below that), a negative one is kept.
    cross = a * d - b * c
    cross = cross - n / 2 if cross > n / 2 else min(cross, 0)
    phi = cross / math.sqrt(margins) if margins else 0.0
    diff = p1 - p2
    below = (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
    above = (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2
    low = diff - math.sqrt(max(0.0, below))
    high = diff + math.sqrt(max(0.0, above))
    return (diff, max(-1.0, low), min(1.0, high))


def binomial_test(successes: int, trials: int, p: float) -> float:
    """Exact two-sided binomial test: P(outcomes no more likely than the one seen | rate p).

    The same definition as R's binom.test and scipy's binomtest (a small relative tolerance
    treats outcomes of equal probability as equal).
    """
    if trials == 0:
        return 1.0
    if not 0 < p < 1:
        return 1.0 if (p == 0 and successes == 0) or (p == 1 and successes == trials) else 0.0
    log_pmf = [_log_binom_pmf(i, trials, p) for i in range(trials + 1)]
    observed = log_pmf[successes]
    cut = observed + math.log1p(1e-7)
    total = sum(math.exp(lp) for lp in log_pmf if lp <= cut)
    return min(1.0, total)


def _log_binom_pmf(k: int, n: int, p: float) -> float:
    return (
        math.lgamma(n + 1)
        - math.lgamma(k + 1)
        - math.lgamma(n - k + 1)
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )


def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z: the two-sided p-value of a z statistic."""
    if math.isnan(z):
        return math.nan
    return math.erfc(abs(z) / math.sqrt(2.0))


def two_proportion_test(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of the pooled two-proportion z-test of p1 = p2.

    The same number as R's `prop.test(c(k1, k2), c(n1, n2), correct = FALSE)` (its chi-square
    with one degree of freedom is z squared). An empty group gives nan; two groups with the same
    all-or-nothing rate (0/n1 and 0/n2) show no difference: 1.
    """
    if n1 == 0 or n2 == 0:
        return math.nan
    pooled = (k1 + k2) / (n1 + n2)
    variance = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    diff = k1 / n1 - k2 / n2
    if variance <= 0:
        return 1.0 if diff == 0 else 0.0
    return normal_two_sided_p(diff / math.sqrt(variance))


def clustered_proportion(
    clusters: Sequence[tuple[int, int]], z: float = Z95
) -> tuple[float, float, float]:
    """A proportion whose trials come in clusters that are not independent (every seat of one
    game, read at many moments, shares that game's winner): the summed successes over the summed
    trials, with the cluster-robust (linearized) standard error of that ratio and a normal
    interval clipped to [0, 1]. `clusters` holds (successes, trials) per cluster. Returns (rate,
    low, high); no trials: (nan, 0, 1); one cluster: its rate and (0, 1), nothing to vary.
    """
    trials = sum(t for _, t in clusters)
    if trials == 0:
        return (math.nan, 0.0, 1.0)
    rate = sum(k for k, _ in clusters) / trials
    count = sum(1 for _, t in clusters if t)
    if count < 2:
        return (rate, 0.0, 1.0)
    spread = sum((k - rate * t) ** 2 for k, t in clusters)
    half = z * math.sqrt(count / (count - 1) * spread) / trials
    return (rate, max(0.0, rate - half), min(1.0, rate + half))


def mean_difference(
    mean1: float, sd1: float, n1: int, mean2: float, sd2: float, n2: int, z: float = Z95
) -> tuple[float, float, float, float]:
    """Difference of two independent means with a Welch (unpooled) normal interval and p-value.

    Returns (difference, low, high, p). The standard error is sqrt(sd1^2/n1 + sd2^2/n2), each
    group keeping its own variance (Welch); the normal quantile stands in for Student's t, which
    differs by less than 1% from 60 games per group on. Fewer than two values in a group: nan.
    """
    if n1 < 2 or n2 < 2:
        return (mean1 - mean2 if n1 and n2 else math.nan, math.nan, math.nan, math.nan)
    diff = mean1 - mean2
    se = math.sqrt(sd1 * sd1 / n1 + sd2 * sd2 / n2)
    if se == 0:
        return (diff, diff, diff, 1.0 if diff == 0 else 0.0)
    return (diff, diff - z * se, diff + z * se, normal_two_sided_p(diff / se))


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjustment of a family of p-values (Holm 1979), as R's `p.adjust(p,
    "holm")`: the i-th smallest of m is multiplied by (m - i + 1), then made non-decreasing and
    capped at 1. It keeps the chance of any false positive in the family at most the level,
    whatever the dependence between the tests. None and nan entries are not tests: they stay as
    they are and do not count in m.
    """
    tested = [i for i, p in enumerate(p_values) if p is not None and not math.isnan(p)]
    adjusted: list[float | None] = list(p_values)
    m = len(tested)
    running = 0.0
    for rank, i in enumerate(sorted(tested, key=lambda i: p_values[i])):
        value = min(1.0, (m - rank) * p_values[i])  # type: ignore[operator]
        running = max(running, value)
        adjusted[i] = running
    return adjusted


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolation quantile of already sorted values (numpy's default, 'linear')."""
    if not sorted_values:
        return math.nan
    pos = (len(sorted_values) - 1) * q
    low = math.floor(pos)
    high = math.ceil(pos)
    frac = pos - low
    return sorted_values[low] * (1 - frac) + sorted_values[high] * frac


@dataclass(frozen=True, slots=True)
class Summary:
    """The shape of a distribution: what a designer asks of game lengths."""

    count: int
    mean: float
    sd: float
    min: float
    p10: float
    p25: float
    median: float
    p75: float
    p90: float
    max: float

    def to_json(self) -> dict[str, float | int]:
        return {name: getattr(self, name) for name in self.__slots__}


def describe(values: Sequence[float]) -> Summary:
    """Count, mean, sample standard deviation and quantiles of `values`."""
    data = sorted(float(v) for v in values)
    n = len(data)
    if n == 0:
        nan = math.nan
        return Summary(0, nan, nan, nan, nan, nan, nan, nan, nan, nan)
    mean = math.fsum(data) / n
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in data) / (n - 1)) if n > 1 else 0.0
    return Summary(
        count=n,
        mean=mean,
        sd=sd,
        min=data[0],
        p10=quantile(data, 0.10),
        p25=quantile(data, 0.25),
        median=quantile(data, 0.5),
        p75=quantile(data, 0.75),
        p90=quantile(data, 0.90),
        max=data[-1],
    )


def integer_histogram(values: Sequence[int], max_bins: int = 40) -> dict[str, list[float]]:
    """Equal-width bins over integer data, edges on whole numbers (no bin straddles a value)."""
    if not values:
        return {"edges": [], "counts": []}
    low, high = min(values), max(values)
    width = max(1, math.ceil((high - low + 1) / max_bins))
    bins = (high - low) // width + 1
    counts = [0] * bins
    for v in values:
        counts[(v - low) // width] += 1
    edges = [low + i * width - 0.5 for i in range(bins + 1)]
    return {"edges": edges, "counts": counts}


# -- ratings ----------------------------------------------------------------------------------

ELO_SCALE = 400.0 / math.log(10.0)  # Elo points per natural-log unit of Bradley-Terry strength


def bradley_terry(
    wins: Sequence[Sequence[float]],
    prior: float = 0.5,
    iterations: int = 10_000,
    tol: float = 1e-10,
) -> list[float]:
    """Bradley-Terry log-strengths from a matrix wins[i][j] = games (or half games) i won over j.

    Fitted with Hunter's (2004) minorise-maximise iterations. `prior` adds that many virtual
    draws (half a win each way) between every pair that met, which keeps an agent that never lost
    (or never won) at a finite rating; 0 gives the plain maximum-likelihood fit. The result is
    centred so the strengths average to zero (ratings are only defined up to a shift).
    """
    k = len(wins)
    w = [[float(wins[i][j]) for j in range(k)] for i in range(k)]
    games = [[w[i][j] + w[j][i] for j in range(k)] for i in range(k)]
    if prior:
        for i in range(k):
            for j in range(k):
                if i != j and games[i][j] > 0:
                    w[i][j] += prior / 2
                    games[i][j] += prior
    total_wins = [sum(w[i][j] for j in range(k) if j != i) for i in range(k)]
    strength = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            denom = sum(
                games[i][j] / (strength[i] + strength[j])
                for j in range(k)
                if j != i and games[i][j] > 0
            )
            new.append(total_wins[i] / denom if denom > 0 else strength[i])
        # A zero-win agent with no prior would sit at 0 strength: keep it tiny but finite.
        new = [max(s, 1e-12) for s in new]
        geo = math.exp(sum(math.log(s) for s in new) / k)
        new = [s / geo for s in new]
        change = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, strength))
        strength = new
        if change < tol:
            break
    return [math.log(s) for s in strength]


def elo_from_log_strengths(log_strengths: Sequence[float], anchor: float = 1500.0) -> list[float]:
    """Bradley-Terry log-strengths on the Elo scale (400 points = 10:1 odds), mean `anchor`."""
    mean = sum(log_strengths) / len(log_strengths) if log_strengths else 0.0
    return [anchor + ELO_SCALE * (s - mean) for s in log_strengths]


# -- stratified 2x2 tables ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MantelHaenszel:
    """A common odds ratio over strata of 2x2 tables, its interval and its test."""

    odds_ratio: float  # nan without information; inf when no stratum has b*c > 0
    ci: tuple[float, float]  # Robins-Breslow-Greenland; (nan, nan) when the ratio is 0 or inf
    log_se: float  # standard error of log(odds_ratio) (RBG)
    chi2: float  # the Mantel-Haenszel chi-square, 1 degree of freedom
    p_value: float  # two-sided; nan without information
    strata: int  # informative strata (both rows and both columns non-empty)
    total: int  # observations in the informative strata


def mantel_haenszel(
    tables: Sequence[tuple[int, int, int, int]], z: float = Z95, correct: bool = False
) -> MantelHaenszel:
    """Mantel-Haenszel common odds ratio of strata of 2x2 tables `(a, b, c, d)`:

                      event   no event
        exposed         a         b
        not exposed     c         d

    OR_MH = sum(a d / n) / sum(b c / n) (Mantel and Haenszel 1959). Its 95% interval is
    exp(log OR_MH +- z se) with the Robins-Breslow-Greenland (1986) variance of log OR_MH,
    which stays valid both for many small strata and for few large ones. The test is the
    Mantel-Haenszel chi-square (sum(a) - sum(E a))^2 / sum(Var a), with E a = n1 m1 / n and
    Var a = n1 n0 m1 m0 / (n^2 (n - 1)); `correct` subtracts 0.5 from |sum(a) - sum(E a)| first
    (Yates' continuity correction, R's default in `mantelhaen.test`).

    A stratum whose rows or columns are all empty (nobody exposed, or nobody had the event)
    carries no information about the odds ratio: it is left out of every sum, and `strata`
    counts the others.
    """
    r_sum = s_sum = 0.0
    pr = ps_qr = qs = 0.0
    observed = expected = variance = 0.0
    strata = total = 0
    for a, b, c, d in tables:
        if min(a, b, c, d) < 0:
            raise ValueError(f"mantel_haenszel: negative count in {(a, b, c, d)}")
        n1, n0, m1, m0 = a + b, c + d, a + c, b + d
        if not (n1 and n0 and m1 and m0):
            continue
        n = n1 + n0
        strata += 1
        total += n
        r = a * d / n
        s = b * c / n
        p = (a + d) / n
        q = (b + c) / n
        r_sum += r
        s_sum += s
        pr += p * r
        ps_qr += p * s + q * r
        qs += q * s
        observed += a
        expected += n1 * m1 / n
        variance += n1 * n0 * m1 * m0 / (n * n * (n - 1))
    nan = math.nan
    if not strata:
        return MantelHaenszel(nan, (nan, nan), nan, nan, nan, 0, 0)
    if s_sum > 0:
        ratio = r_sum / s_sum
    else:
        ratio = math.inf if r_sum > 0 else nan
    if r_sum > 0 and s_sum > 0:
        log_var = pr / (2 * r_sum**2) + ps_qr / (2 * r_sum * s_sum) + qs / (2 * s_sum**2)
        se = math.sqrt(log_var)
        centre = math.log(ratio)
        ci = (math.exp(centre - z * se), math.exp(centre + z * se))
    else:
        se, ci = nan, (nan, nan)
    gap = abs(observed - expected)
    if correct:
        gap = max(0.0, gap - 0.5)
    chi2 = gap * gap / variance if variance > 0 else nan
    p_value = math.erfc(math.sqrt(chi2 / 2)) if variance > 0 else nan
    return MantelHaenszel(ratio, ci, se, chi2, p_value, strata, total)
