"""Fit the fact-change models (interaction/offline/fact_changes.py) and report them, deterministically.

    python -m scripts.eval.train_fact_changes [--write]

On the train split of interaction/offline/data/fact_changes.jsonl: L2-regularised logistic regressions
(lbfgs, C chosen earlier on the dev split) for the operation and the field over the sentence's MiniLM
embedding, and a per-token tagger for the value's span over the words around each token. The weights are
written as JSON (rounded to 6 decimals) with the embedder's name and the fingerprint of the training rows;
the report (scripts.eval.fact_changes) is computed on exactly what inference will load. --write replaces
interaction/offline/data/fact_changes_weights.json.
"""

from __future__ import annotations

import argparse
import json

import numpy as np
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression

from common.embedding.base import TextEmbedder
from common.embedding.registry import offline_text_embedder
from interaction.offline.fact_changes import (
    WEIGHTS,
    Example,
    FactChangeModel,
    load_examples,
    token_features,
    tokens,
    training_fingerprint,
)
from scripts.eval.fact_changes import print_table, report

C = 100.0  # chosen on the dev split
DECIMALS = 6


def _params(model: LogisticRegression) -> dict:
    return {"classes": [c.item() for c in model.classes_],
            "coef": np.round(model.coef_, DECIMALS).tolist(),
            "intercept": np.round(model.intercept_, DECIMALS).tolist()}


def fit(examples: list[Example], embedder: TextEmbedder, c: float = C) -> dict:
    """The weights file's content, fitted on the train split of `examples`."""
    train = [e for e in examples if e.split == "train"]
    vectors = embedder.embed([e.text for e in train])
    op_model = LogisticRegression(C=c, max_iter=3000).fit(vectors, [e.op for e in train])
    about = [i for i, e in enumerate(train) if e.op != "none"]
    field_model = LogisticRegression(C=c, max_iter=3000).fit(vectors[about], [train[i].field for i in about])
    rows, labels = [], []
    for e in (train[i] for i in about):
        start = e.text.find(e.value) if e.value else -1
        toks = tokens(e.text)
        for i, (_, a, b) in enumerate(toks):
            rows.append(token_features(toks, i))
            labels.append(int(start >= 0 and a >= start and b <= start + len(e.value or "")))
    tag_vec = DictVectorizer()
    tagger = LogisticRegression(C=c, max_iter=2000).fit(tag_vec.fit_transform(rows), labels)
    return {
        "embedder": embedder.name, "training_fingerprint": training_fingerprint(examples), "C": c,
        "op": _params(op_model), "field": _params(field_model),
        "tagger": {**_params(tagger), "features": list(tag_vec.feature_names_)},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.train_fact_changes",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help=f"replace {WEIGHTS.name}")
    args = parser.parse_args(argv)
    examples = load_examples()
    embedder = offline_text_embedder()
    weights = fit(examples, embedder)
    print_table(report(FactChangeModel(weights, embedder), examples))
    if args.write:
        WEIGHTS.write_text(json.dumps(weights, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {WEIGHTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
