"""The statistics of a balance report, in plain Python (no library needed).

- ``wilson``: a proportion with its Wilson score interval (good at small counts and near 0
  or 1, where the usual normal interval is not).
- ``fisher``: Fisher's exact test of two proportions (two-sided: the probability, with the
  margins fixed, of a table at most as likely as the one seen).
- ``stratified`` and ``within``: the same test and difference within strata (each side's
  plays apart), so that a gap between the strata is not taken for a difference between the
  rows.
- ``holm``: Holm's step-down adjustment of several p-values, which keeps the chance of any
  false flag among them at the chosen level (the family-wise error rate), whatever the
  dependence between the tests.
- ``newcombe``: the difference of two proportions with Newcombe's interval (his method 10,
  built from the two Wilson intervals).
- ``detectable_difference`` and ``games_needed``: what a test of two proportions can see, its
  power (normal approximation): the smallest true difference found with the given chance, and
  the sample needed to find a given one.
"""

from __future__ import annotations

import math
from typing import List, Optional, Sequence, Tuple

Z95 = 1.959963984540054  # the standard normal quantile of a two-sided 95% interval


def z_for(level: float) -> float:
    """The two-sided normal quantile for a confidence level (0.95 -> 1.96), by bisection."""
    target = (1 + level) / 2
    lo, hi = 0.0, 10.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if 0.5 * (1 + math.erf(mid / math.sqrt(2))) < target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def quantile(p: float) -> float:
    """The standard normal quantile of ``p`` (0.975 -> 1.96), by bisection."""
    lo, hi = -10.0, 10.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if 0.5 * (1 + math.erf(mid / math.sqrt(2))) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def wilson(successes: int, trials: int, z: float = Z95) -> Tuple[float, float, float]:
    """(proportion, low, high); (nan, 0, 1) without trials."""
    if trials <= 0:
        return float("nan"), 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def newcombe(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> Tuple[float, float, float]:
    """(difference, low, high) of the proportions k1/n1 minus k2/n2, with Newcombe's hybrid score
    interval (method 10 of Newcombe 1998); (nan, -1, 1) when either has no trials."""
    if n1 <= 0 or n2 <= 0:
        return float("nan"), -1.0, 1.0
    p1, low1, high1 = wilson(k1, n1, z)
    p2, low2, high2 = wilson(k2, n2, z)
    d = p1 - p2
    return (d, max(-1.0, d - math.sqrt((p1 - low1) ** 2 + (high2 - p2) ** 2)),
            min(1.0, d + math.sqrt((high1 - p1) ** 2 + (p2 - low2) ** 2)))


def detectable_difference(n1: int, n2: int, level: float = 0.05, power: float = 0.8,
                          rate: float = 0.5) -> float:
    """The smallest true difference between two proportions near ``rate``, measured on n1 and n2
    trials, that a two-sided test at ``level`` finds with probability ``power`` (normal
    approximation); inf without trials."""
    if n1 <= 0 or n2 <= 0:
        return math.inf
    return (quantile(1 - level / 2) + quantile(power)) * math.sqrt(rate * (1 - rate) * (1 / n1 + 1 / n2))


def games_needed(difference: float, level: float = 0.05, power: float = 0.8, rate: float = 0.5) -> int:
    """Trials needed in each of two groups for ``detectable_difference`` to reach ``difference``."""
    z = quantile(1 - level / 2) + quantile(power)
    return math.ceil(2 * rate * (1 - rate) * (z / difference) ** 2)


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def fisher(a: int, b: int, c: int, d: int) -> float:
    """Two-sided p-value of Fisher's exact test for the table [[a, b], [c, d]]
    (rows: the two groups; columns: successes, failures): ``stratified`` of one table."""
    return stratified([(a, b, c, d)])


def stratified(tables: Sequence[Tuple[int, int, int, int]]) -> float:
    """Two-sided p-value of the exact test of no association in several 2x2 tables at once
    (strata: [[a, b], [c, d]] each, rows the two groups, columns successes and failures), each
    table's margins fixed, as Fisher's test for one: the statistic is the sum of the a's, whose
    distribution is the sum of independent hypergeometric counts; the p-value is the chance of
    a sum at most as likely as the one seen.  A table with a row or column of zeros says
    nothing and is left out.  Counts beyond 40 nats below a table's likeliest are dropped (their
    chance is under 1e-17); where the tables are still too large to add up exactly, the
    Cochran-Mantel-Haenszel statistic (with continuity correction) stands in."""
    distributions, seen = [], 0
    for a, b, c, d in tables:
        row1, col1, n = a + b, a + c, a + b + c + d
        if n == 0 or row1 in (0, n) or col1 in (0, n):
            continue
        low, high = max(0, col1 - (n - row1)), min(row1, col1)
        logs = {x: _log_choose(row1, x) + _log_choose(n - row1, col1 - x) - _log_choose(n, col1)
                for x in range(low, high + 1)}
        top = max(logs.values())
        distributions.append({x: math.exp(lp) for x, lp in logs.items() if lp > top - 40 or x == a})
        seen += a
    if not distributions:
        return 1.0
    if math.prod(len(found) for found in distributions) > 4_000_000:
        return _mantel_haenszel(tables)
    total: dict = {0: 1.0}
    for found in distributions:
        combined: dict = {}
        for s, p in total.items():
            for x, q in found.items():
                combined[s + x] = combined.get(s + x, 0.0) + p * q
        total = combined
    observed = total.get(seen, 0.0)
    return min(1.0, sum(p for p in total.values() if p <= observed * (1 + 1e-7)))


def _mantel_haenszel(tables: Sequence[Tuple[int, int, int, int]]) -> float:
    """The Cochran-Mantel-Haenszel test's two-sided p-value (continuity corrected)."""
    difference, variance = 0.0, 0.0
    for a, b, c, d in tables:
        row1, row2, col1, n = a + b, c + d, a + c, a + b + c + d
        if n < 2:
            continue
        difference += a - row1 * col1 / n
        variance += row1 * row2 * col1 * (n - col1) / (n * n * (n - 1))
    if variance <= 0:
        return 1.0
    statistic = max(0.0, abs(difference) - 0.5) ** 2 / variance
    return math.erfc(math.sqrt(statistic / 2))


def within(tables: Sequence[Tuple[int, int, int, int]]) -> float:
    """The Mantel-Haenszel difference of two proportions over several strata (each [[a, b], [c,
    d]]): each stratum's difference a/(a+b) - c/(c+d), weighed by (a+b)(c+d)/n; nan where no
    stratum has both rows."""
    top, weight = 0.0, 0.0
    for a, b, c, d in tables:
        row1, row2 = a + b, c + d
        n = row1 + row2
        if row1 and row2:
            top += (a * row2 - c * row1) / n
            weight += row1 * row2 / n
    return top / weight if weight else float("nan")


def holm(pvalues: Sequence[float]) -> List[float]:
    """Holm-adjusted p-values, in the order given (compare each with the level)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def histogram_mean(counts: dict) -> float:
    n = sum(counts.values())
    return sum(k * v for k, v in counts.items()) / n if n else float("nan")


def mean_difference(before: dict, after: dict, z: float = Z95) -> Optional[dict]:
    """The difference of two means given as histograms ({value: count}, keys as numbers or their
    text), after minus before, with its interval and two-sided p-value by Welch's statistic in
    the normal approximation (games are many); None when either has fewer than two values."""
    def moments(counts):
        pairs = [(float(k), v) for k, v in counts.items()]
        n = sum(v for _, v in pairs)
        if n < 2:
            return None
        mean = sum(k * v for k, v in pairs) / n
        return n, mean, sum(v * (k - mean) ** 2 for k, v in pairs) / (n - 1)
    a, b = moments(before), moments(after)
    if a is None or b is None:
        return None
    difference = b[1] - a[1]
    error = math.sqrt(a[2] / a[0] + b[2] / b[0])
    p = 1.0 if error == 0 and difference == 0 else (0.0 if error == 0 else math.erfc(abs(difference) / error / math.sqrt(2)))
    return {"before": a[1], "after": b[1], "difference": difference, "low": difference - z * error,
            "high": difference + z * error, "p": p}


def histogram_quantile(counts: dict, q: float) -> float:
    """The q-quantile of values given as {value: count} (the lower of two middle values)."""
    n = sum(counts.values())
    if not n:
        return float("nan")
    rank = q * (n - 1)
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen > rank:
            return value
    return max(counts)
