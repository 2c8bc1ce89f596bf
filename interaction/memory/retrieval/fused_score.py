"""Fusion of the dense and lexical channels over one pool of candidates.

zscore: w_d * z(dense) + w_l * z(lexical), each standardised over the pool (the channels live on
different scales); rrf: reciprocal rank fusion, sum of w / (60 + rank); weighted: the same weights
over min-max normalised scores. Which one ranks best is measured on LoCoMo's dev conversations
(scripts/eval/locomo.py --fusion), not assumed.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from interaction.memory.fusion import zscore

FusionMethod = Literal["zscore", "rrf", "weighted"]
RRF_K = 60.0  # the constant of Cormack et al. (2009)
EPS = 1e-9  # a channel that scores every candidate alike adds nothing


def _ranks(x: np.ndarray) -> np.ndarray:
    order = np.argsort(-x, kind="stable")
    ranks = np.empty(len(x), dtype=np.float64)
    ranks[order] = np.arange(1, len(x) + 1)
    return ranks


def _minmax(x: np.ndarray) -> np.ndarray:
    span = float(x.max() - x.min())
    return (x - x.min()) / span if span > 1e-9 else np.zeros_like(x)


def fuse(dense: np.ndarray, lexical: np.ndarray, method: FusionMethod = "zscore",
         dense_weight: float = 1.0, lexical_weight: float = 1.0) -> np.ndarray:
    dense = np.asarray(dense, np.float64)
    lexical = np.asarray(lexical, np.float64)
    if not len(dense):
        return np.zeros(0)
    if method == "zscore":
        return dense_weight * zscore(dense, EPS) + lexical_weight * zscore(lexical, EPS)
    if method == "rrf":
        return dense_weight / (RRF_K + _ranks(dense)) + lexical_weight / (RRF_K + _ranks(lexical))
    return dense_weight * _minmax(dense) + lexical_weight * _minmax(lexical)
