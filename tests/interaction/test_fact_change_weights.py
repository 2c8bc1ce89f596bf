"""The fact-change models ship fitted (nothing trains at start-up): the weights belong to the committed
training rows, and fitting them again (scripts.eval.train_fact_changes) reproduces them."""

from __future__ import annotations

import json

import numpy as np

from common.embedding.registry import offline_text_embedder
from interaction.offline.fact_changes import WEIGHTS, FactChangeModel, load_examples, training_fingerprint
from scripts.eval.train_fact_changes import fit


def test_the_shipped_weights_were_fitted_on_the_committed_training_rows():
    shipped = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    assert shipped["training_fingerprint"] == training_fingerprint(load_examples()), (
        "the labelled set changed: refit with python -m scripts.eval.train_fact_changes --write")
    assert shipped["embedder"] == offline_text_embedder().name


def test_fitting_again_reproduces_the_shipped_weights():
    shipped = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    examples = load_examples()
    refit = fit(examples, offline_text_embedder())
    assert refit["tagger"]["features"] == shipped["tagger"]["features"]
    for part in ("op", "field", "tagger"):
        assert refit[part]["classes"] == shipped[part]["classes"], part
        # lbfgs is deterministic, but the int8 MiniLM features it fits on are not bit-equal across
        # CPUs (onnxruntime picks its integer kernels by instruction set): on another machine the
        # weights move by a fraction of a percent of their scale, and never change what they predict
        scale = np.abs(np.asarray(shipped[part]["coef"])).max()
        assert np.allclose(refit[part]["coef"], shipped[part]["coef"], atol=0.01 * scale), part
        assert np.allclose(refit[part]["intercept"], shipped[part]["intercept"], atol=0.01 * scale), part
    embedder = offline_text_embedder()
    a, b = FactChangeModel(shipped, embedder), FactChangeModel(refit, embedder)
    for e in (e for e in examples if e.split == "test"):
        x, y = a.predict(e.text), b.predict(e.text)
        assert (x.op, x.field, x.value) == (y.op, y.field, y.value), e.text
        assert abs(x.op_p - y.op_p) < 1e-2 and abs(x.field_p - y.field_p) < 1e-2, e.text
