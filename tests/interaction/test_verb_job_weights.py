"""The verb-job reader ships fitted (nothing trains at start-up): its weights belong to the committed
labelled clauses, and fitting them again (scripts.eval.train_verb_jobs) decides every held-out clause
the same way."""

from __future__ import annotations

import json

from common.embedding.registry import offline_text_embedder
from interaction.offline.verb_jobs import (
    CLASSES,
    MAX_FALSE_JOB,
    WEIGHTS,
    VerbJobModel,
    load_rows,
    training_fingerprint,
)
from scripts.eval.linear_text import fit, lowest_safe_threshold
from scripts.eval.train_verb_jobs import load


def test_the_shipped_weights_were_fitted_on_the_committed_clauses():
    shipped = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    assert shipped["training_fingerprint"] == training_fingerprint(load_rows()), (
        "the labelled clauses changed: refit with python -m scripts.eval.train_verb_jobs --write")
    assert shipped["embedder"] == offline_text_embedder().name and shipped["classes"] == list(CLASSES)


def test_fitting_again_decides_the_held_out_clauses_the_same(tmp_path):
    # the int8 MiniLM features are not bit-equal across CPUs: compare decisions, not weights
    embedder = offline_text_embedder()
    data = load()
    fitted = fit(embedder, data, list(CLASSES), clause_options=(False, True))
    job_above = lowest_safe_threshold(fitted.calibrated["dev"][:, 0], data["dev"].labels, MAX_FALSE_JOB)
    refit = tmp_path / "weights.json"
    refit.write_text(json.dumps({**fitted.weights, "job_above": job_above}), encoding="utf-8")
    shipped, again = VerbJobModel(embedder), VerbJobModel(embedder, refit)
    for clause in data["test"].texts:
        assert shipped.is_job(clause) == again.is_job(clause), clause
