"""Small statistics used by the evaluations (no scipy on the offline machine)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def rankdata(values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Ranks starting at 1; ties get their average rank (as scipy's default)."""
    x = np.asarray(values, dtype=float)
    order = np.argsort(x, kind="mergesort")
    ranks = np.empty(len(x), dtype=float)
    sorted_x = x[order]
    i = 0
    while i < len(x):
        j = i
        while j + 1 < len(x) and sorted_x[j + 1] == sorted_x[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2.0 + 1.0
        i = j + 1
    return ranks


def spearman(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float:
    """Spearman's rho; 0.0 when either side is constant (no ranking information at all)."""
    ra, rb = rankdata(a), rankdata(b)
    if len(ra) < 2 or ra.std() == 0 or rb.std() == 0:
        return 0.0
    return float(np.corrcoef(ra, rb)[0, 1])


PERMUTATIONS = 10_000
EXACT_ENOUGH_N = 30


def spearman_p_one_sided(rho: float, n: int, a=None, b=None) -> float:
    """P(rho' >= rho) under no association; one-sided because only agreement with humans counts.
    For n < 30 with the data given: a permutation test (10,000 shuffles, fixed seed; the normal
    approximation claims p ~ 1e-12 for a perfect 4-item fold whose exact p is 1/24). Otherwise
    Fisher's z with the Fieller-Hartley-Pearson variance 1.06 / (n - 3)."""
    if n <= 3:
        return 1.0
    if n < EXACT_ENOUGH_N and a is not None and b is not None:
        ra, rb = rankdata(a), rankdata(b)
        if ra.std() == 0 or rb.std() == 0:
            return 1.0
        rng = np.random.default_rng(n)
        shuffled = np.argsort(rng.random((PERMUTATIONS, n)), axis=1)
        perm = rb[shuffled]
        za = (ra - ra.mean()) / ra.std()
        zp = (perm - rb.mean()) / rb.std()
        null = (zp * za).mean(axis=1)
        return float((1 + (null >= rho - 1e-12).sum()) / (PERMUTATIONS + 1))
    rho = max(min(rho, 0.999999), -0.999999)
    z = math.atanh(rho) * math.sqrt((n - 3) / 1.06)
    return 0.5 * math.erfc(z / math.sqrt(2))


def fisher_combined_log10_p(pvalues: Sequence[float]) -> float:
    """log10 of Fisher's combined p: X = -2 sum ln p ~ chi2 with 2k df, whose survival function has a
    closed form for even df, exp(-h) * sum_{i<k} h^i / i! with h = X / 2. Summed in log space so that
    p far below 1e-300 (the paper reports p < 1e-100) still comes out as a number."""
    k = len(pvalues)
    half_x = -sum(math.log(max(p, 1e-300)) for p in pvalues)
    if k == 0 or half_x <= 0:
        return 0.0
    log_terms = [i * math.log(half_x) - math.lgamma(i + 1) for i in range(k)]
    top = max(log_terms)
    log_sf = -half_x + top + math.log(sum(math.exp(t - top) for t in log_terms))
    return min(0.0, log_sf / math.log(10))


def percentile(values: Sequence[float], q: float) -> float | None:
    """Linear-interpolated percentile (numpy's default); None for no values."""
    if not values:
        return None
    return float(np.percentile(np.asarray(values, dtype=float), q))


def ratio(num: int, den: int) -> float | None:
    return num / den if den else None
