"""The recall decision's fit: a regression on standardised features whose weights, given back on the
raw features, are what the decision (interaction/memory/retrieval/decision.py) reads."""

from __future__ import annotations

import numpy as np
import pytest

from interaction.memory.retrieval import decision
from interaction.memory.retrieval.candidates import Candidate
from interaction.memory.retrieval.core import Judged
from interaction.memory.retrieval.entities import Thresholds
from scripts.eval.calibrate_recall import fit_weights
from scripts.eval.recall_questions import Asked, rows

pytest.importorskip("sklearn")


def _asked(seed: int) -> list[Asked]:
    """Questions whose told memory stands out by a small dense margin and a large verifier logit."""
    rng = np.random.default_rng(seed)
    out = []
    for q in range(40):
        judged = []
        for i in range(4):
            told = i == 0 and q % 3 != 0
            j = Judged(Candidate("turn", f"m{i}", "t", "t", None, "g"), dense=float(rng.normal(0.3, 0.05)),
                       lexical=0.0, coverage=float(rng.uniform(0, 0.05)), fused=0.0,
                       verifier=float(rng.normal(3.0 if told else -6.0, 2.0)))
            j.dense_margin = float(rng.normal(0.2 if told else -0.1, 0.05))
            judged.append(j)
        out.append(Asked("p", f"q{q}", frozenset(["m0"] if q % 3 != 0 else []), judged))
    return out


def test_the_weights_are_given_back_on_the_raw_features():
    """Fitted on standardised features, the calibration's raw weights give the model's own
    probabilities, and a feature spanning a tenth of another's range still gets its weight."""
    from sklearn.linear_model import LogisticRegression

    from scripts.eval.recall_questions import labels

    asked = _asked(0)
    features = ("dense", "verifier", "dense_margin")
    cal = fit_weights(asked, Thresholds(0.7, 0.7), features, c=0.1)
    x = rows(asked)[:, [decision.FEATURES.index(f) for f in features]]
    mean, scale = x.mean(axis=0), x.std(axis=0)
    model = LogisticRegression(class_weight="balanced", C=0.1, max_iter=2000).fit((x - mean) / scale, labels(asked))
    expected = model.predict_proba((x - mean) / scale)[:, 1]
    assert np.allclose(decision.probability(cal, rows(asked)), expected, atol=1e-6)
    assert cal.dense_margin > 1.0 and cal.verifier > 0.0
    assert cal.margin == 0.0 and cal.agreement == 0.0  # features outside the set weigh nothing
