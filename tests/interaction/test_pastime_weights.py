"""The pastime reader ships fitted: fitting it again (scripts.eval.train_pastimes) decides every
held-out clause the same way, and it tells a pastime from a chore in clauses of its own."""

from __future__ import annotations

import json

from common.embedding.registry import offline_text_embedder
from interaction.offline.pastimes import CLASSES, MAX_FALSE_PASTIME, PastimeModel, default_model
from scripts.eval.linear_text import fit, lowest_safe_threshold
from scripts.eval.train_pastimes import load


def test_fitting_again_decides_the_held_out_clauses_the_same(tmp_path):
    embedder = offline_text_embedder()
    data = load()
    fitted = fit(embedder, data, list(CLASSES), clause_options=(False, True))
    above = lowest_safe_threshold(fitted.calibrated["dev"][:, 0], data["dev"].labels, MAX_FALSE_PASTIME)
    refit = tmp_path / "weights.json"
    refit.write_text(json.dumps({**fitted.weights, "pastime_above": above}), encoding="utf-8")
    shipped, again = PastimeModel(embedder), PastimeModel(embedder, refit)
    for clause in data["test"].texts:
        assert shipped.is_pastime(clause) == again.is_pastime(clause), clause


def test_a_pastime_reads_as_one_and_an_errand_does_not():
    model = default_model()
    assert model is not None
    assert model.is_pastime("I play the trumpet in a brass band.")
    assert not model.is_pastime("I renew my bus pass every month.")
