"""The recall decision: one calibrated probability that a candidate is what the person told, from
the channels together (dense cosine, BM25 coverage, verifier logit), and two thresholds on it.
No single score separates told from untold (shared/spec/retrieval-notes.md); a logistic regression
over the three, fitted on labelled pairs by scripts/eval/calibrate_recall.py, is the smallest model
that weighs them against each other."""

from __future__ import annotations

from typing import Literal

import numpy as np

from common.config.interaction_settings import RecallCalibration

Outcome = Literal["asserted", "offered", "abstained"]


def probability(cal: RecallCalibration, dense: np.ndarray, coverage: np.ndarray, verifier: np.ndarray) -> np.ndarray:
    z = cal.intercept + cal.dense * dense + cal.lexical * coverage + cal.verifier * verifier
    return 1.0 / (1.0 + np.exp(-np.asarray(z, dtype=np.float64)))


def outcome(cal: RecallCalibration, p: float) -> Outcome:
    if p >= cal.assert_above:
        return "asserted"
    return "offered" if p >= cal.abstain_below else "abstained"
