"""Accuracy of the shipped fact-change models (interaction/offline/fact_changes.py) on the labelled set's splits.

    python -m scripts.eval.fact_changes [--json]

Loads the shipped weights (fitted on the train split by scripts.eval.train_fact_changes) and reports per
split: operation accuracy (set / supersede / close / none), field accuracy and exact value-span accuracy
on the sentences that change a fact, and how many "none" sentences (questions, other people, plans,
memories) would have changed a fact at MIN_CONFIDENCE. The dev split chose the features and C; the test
split was not looked at while choosing.
"""

from __future__ import annotations

import argparse
import json

from common.embedding.registry import offline_text_embedder
from interaction.offline.fact_changes import (
    MIN_CONFIDENCE,
    MIN_FIELD_CONFIDENCE,
    Example,
    FactChangeModel,
    load_examples,
)
from scripts.eval.stats import ratio


def evaluate(model: FactChangeModel, examples: list[Example]) -> dict:
    preds = [model.predict(e.text) for e in examples]
    about = [(p, e) for p, e in zip(preds, examples, strict=True) if e.op != "none"]
    valued = [(p, e) for p, e in about if e.value]
    nones = [p for p, e in zip(preds, examples, strict=True) if e.op == "none"]
    return {
        "n": len(examples),
        "op_accuracy": ratio(sum(p.op == e.op for p, e in zip(preds, examples, strict=True)), len(examples)),
        "field_accuracy": ratio(sum(p.field == e.field for p, e in about), len(about)),
        "value_exact": ratio(sum((p.value or "").casefold() == (e.value or "").casefold() for p, e in valued), len(valued)),
        "none_acted_on": ratio(sum(p.op != "none" and p.op_p >= MIN_CONFIDENCE for p in nones), len(nones)),
        # a new value filed under a field: right and wrong, at both confidences
        "set_filed": _filed(preds, examples),
    }


def _filed(preds: list, examples: list[Example]) -> dict[str, int]:
    filed = [(p, e) for p, e in zip(preds, examples, strict=True) if p.op in ("set", "supersede")
             and p.op_p >= MIN_CONFIDENCE and p.field_p >= MIN_FIELD_CONFIDENCE]
    right = sum(e.op != "none" and p.field == e.field for p, e in filed)
    return {"right_field": right, "wrong_field": len(filed) - right}


def report(model: FactChangeModel, examples: list[Example]) -> dict[str, dict]:
    return {split: evaluate(model, [e for e in examples if e.split == split]) for split in ("train", "dev", "test")}


def print_table(results: dict[str, dict]) -> None:
    print(f"{'split':<7}{'n':>5}{'operation':>11}{'field':>8}{'value':>8}{'none acted on':>15}{'filed right / wrong':>21}")
    for split, r in results.items():
        print(f"{split:<7}{r['n']:>5}" + "".join(f"{100 * (r[k] or 0):>{w}.1f}%" for k, w in (
            ("op_accuracy", 10), ("field_accuracy", 7), ("value_exact", 7), ("none_acted_on", 14)))
            + f"{r['set_filed']['right_field']:>14} / {r['set_filed']['wrong_field']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.fact_changes", description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="one JSON line instead of a table")
    args = parser.parse_args(argv)
    results = report(FactChangeModel.load(offline_text_embedder()), load_examples())
    if args.json:
        print(json.dumps(results))
    else:
        print_table(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
