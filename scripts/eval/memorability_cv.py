"""The paper's memorability protocol on precomputed features, in numpy only.

Inputs per image: emotion probabilities over common.emotions.FACIAL_LABELS (largest face) and a novelty score. The
score is MemScore = w_e * e + w_n * s_n with e = max_k max(0, (p_k - T_k) / (1 - T_k)) (eq. 1-2) and the
novelty salience s_n = max(0, (n - T_n) / (1 - T_n)), the same normalised activation applied to the
novelty distance (the paper only says T_n decides "sufficiently distinct"). Complexity (w_c) is left
out: no complexity model (ICNet) loads offline, and the paper found it does not help.

Evaluation: repeated stratified nested cross-validation. Outer folds (default 5) are stratified on the
human rating (sorted ratings dealt into folds block by block). For each weight configuration the
per-emotion thresholds and T_n are searched on the outer-training images by coordinate ascent over a
grid, each candidate scored by the mean Spearman over the inner folds' held-out parts (default 3);
the chosen thresholds score the outer test fold. Reported: mean and SD of the fold-level Spearman
correlations and the Fisher-combined one-sided p-value of the folds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scripts.eval.stats import fisher_combined_log10_p, spearman, spearman_p_one_sided

EMOTION_GRID = tuple(round(0.1 * i, 1) for i in range(1, 10))
NOVELTY_QUANTILES = tuple(round(0.1 * i, 1) for i in range(0, 10))
SWEEPS = 2


def burn_in_novelty(embeddings: np.ndarray, burn_in: int = 5, repeats: int = 1000, seed: int = 0) -> np.ndarray:
    """The paper's novelty: in each run the images come in a random order; the first `burn_in` are not scored;
    every later image scores its minimum cosine distance to all images before it in that run. The
    novelty of an image is its mean score over the runs in which it was scored (NaN if never)."""
    x = np.asarray(embeddings, dtype=np.float64)
    x = x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)
    n = len(x)
    dist = 1.0 - x @ x.T
    total = np.zeros(n)
    count = np.zeros(n)
    rng = np.random.default_rng(seed)
    for _ in range(repeats):
        order = rng.permutation(n)
        d = dist[np.ix_(order, order)]
        # min distance to any earlier image in the run: lower triangle, running minimum
        d = np.where(np.tril(np.ones((n, n), dtype=bool), k=-1), d, np.inf)
        mins = d.min(axis=1)
        scored = order[burn_in:]
        total[scored] += mins[burn_in:]
        count[scored] += 1
    with np.errstate(invalid="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def emotion_salience(probs: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    """e per image (eq. 1-2); probs (N, K), thresholds (K,)."""
    t = np.asarray(thresholds, dtype=float)
    s = (np.asarray(probs, dtype=float) - t) / np.maximum(1.0 - t, 1e-9)
    return np.clip(s, 0.0, None).max(axis=1)


def novelty_salience(novelty: np.ndarray, threshold: float) -> np.ndarray:
    return np.clip((np.asarray(novelty, dtype=float) - threshold) / max(1.0 - threshold, 1e-9), 0.0, None)


@dataclass(frozen=True)
class Params:
    emotion_thresholds: tuple[float, ...]
    novelty_threshold: float


def mem_score(probs: np.ndarray, novelty: np.ndarray, weights: tuple[float, float], params: Params) -> np.ndarray:
    w_e, w_n = weights
    return w_e * emotion_salience(probs, np.array(params.emotion_thresholds)) + w_n * novelty_salience(
        novelty, params.novelty_threshold
    )


def stratified_folds(ratings: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Fold index per item: items sorted by rating, each block of k consecutive items dealt to the k
    folds in random order, so every fold spans the whole rating range."""
    n = len(ratings)
    order = np.argsort(np.asarray(ratings, dtype=float) + rng.uniform(0, 1e-9, n), kind="mergesort")
    folds = np.empty(n, dtype=int)
    for start in range(0, n, k):
        block = order[start : start + k]
        folds[block] = rng.permutation(k)[: len(block)]
    return folds


def _objective(probs, novelty, ratings, weights, params, inner_folds) -> float:
    scores = mem_score(probs, novelty, weights, params)
    rhos = [spearman(scores[inner_folds == f], ratings[inner_folds == f]) for f in np.unique(inner_folds)]
    return float(np.mean(rhos))


def search_params(
    probs: np.ndarray, novelty: np.ndarray, ratings: np.ndarray, weights: tuple[float, float],
    inner_folds: np.ndarray,
) -> Params:
    """Coordinate ascent over the per-emotion thresholds and T_n (a full grid over 9 thresholds would
    be 10^9 candidates); a parameter whose weight is 0 is not searched."""
    n_emotions = probs.shape[1]
    finite = novelty[np.isfinite(novelty)]
    novelty_grid = tuple(float(np.quantile(finite, q)) for q in NOVELTY_QUANTILES) if len(finite) else (0.0,)
    params = Params(tuple([0.5] * n_emotions), novelty_grid[len(novelty_grid) // 2])
    best = _objective(probs, novelty, ratings, weights, params, inner_folds)
    for _ in range(SWEEPS):
        improved = False
        slots = (list(range(n_emotions)) if weights[0] else []) + (["novelty"] if weights[1] else [])
        for slot in slots:
            grid = novelty_grid if slot == "novelty" else EMOTION_GRID
            for value in grid:
                if slot == "novelty":
                    candidate = Params(params.emotion_thresholds, value)
                else:
                    t = list(params.emotion_thresholds)
                    t[slot] = value
                    candidate = Params(tuple(t), params.novelty_threshold)
                score = _objective(probs, novelty, ratings, weights, candidate, inner_folds)
                if score > best + 1e-12:
                    best, params, improved = score, candidate, True
        if not improved:
            break
    return params


@dataclass
class CvResult:
    name: str
    rhos: list[float]
    pvalues: list[float]

    @property
    def mean(self) -> float:
        return float(np.mean(self.rhos)) if self.rhos else float("nan")

    @property
    def std(self) -> float:
        return float(np.std(self.rhos, ddof=1)) if len(self.rhos) > 1 else 0.0

    @property
    def log10_p_fisher(self) -> float:
        return fisher_combined_log10_p(self.pvalues)


def _record(result: CvResult, scores: np.ndarray, ratings: np.ndarray) -> None:
    rho = spearman(scores, ratings)
    result.rhos.append(rho)
    result.pvalues.append(spearman_p_one_sided(rho, len(ratings), scores, ratings))


def nested_cv(
    probs: np.ndarray, novelty: np.ndarray, ratings: np.ndarray,
    weight_configs: Sequence[tuple[float, float]], outer: int = 5, inner: int = 3, repeats: int = 20,
    seed: int = 0, with_random_baseline: bool = True,
) -> list[CvResult]:
    probs = np.asarray(probs, dtype=float)
    ratings = np.asarray(ratings, dtype=float)
    # an image never scored for novelty (fewer images than the burn-in) counts as not novel
    novelty = np.nan_to_num(np.asarray(novelty, dtype=float), nan=0.0)
    if len(ratings) < outer * 2:
        raise ValueError(f"{len(ratings)} images are too few for {outer} outer folds")
    results = {w: CvResult(f"({w[0]:.1f}, {w[1]:.1f})", [], []) for w in weight_configs}
    random_result = CvResult("random", [], [])
    rng = np.random.default_rng(seed)
    for _ in range(repeats):
        outer_folds = stratified_folds(ratings, outer, rng)
        for f in range(outer):
            test, train = outer_folds == f, outer_folds != f
            inner_folds = stratified_folds(ratings[train], inner, rng)
            for w in weight_configs:
                params = search_params(probs[train], novelty[train], ratings[train], w, inner_folds)
                _record(results[w], mem_score(probs[test], novelty[test], w, params), ratings[test])
            if with_random_baseline:
                _record(random_result, rng.uniform(size=int(test.sum())), ratings[test])
    out = list(results.values())
    return out + [random_result] if with_random_baseline else out


def human_consistency(ratings_by_rater: dict[str, dict[str, float]]) -> float | None:
    """Mean Spearman between each rater and the mean of all other raters (the paper's human
    consistency), over the images both have; None with fewer than two raters."""
    raters = list(ratings_by_rater)
    if len(raters) < 2:
        return None
    rhos = []
    for r in raters:
        images = [i for i in ratings_by_rater[r] if any(i in ratings_by_rater[o] for o in raters if o != r)]
        if len(images) < 3:
            continue
        others = [
            np.mean([ratings_by_rater[o][i] for o in raters if o != r and i in ratings_by_rater[o]]) for i in images
        ]
        rhos.append(spearman([ratings_by_rater[r][i] for i in images], others))
    return float(np.mean(rhos)) if rhos else None
