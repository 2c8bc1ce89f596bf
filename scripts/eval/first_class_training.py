"""Training shared by the readers that tell one kind of clause from the rest (a job said with a verb,
a pastime said by its doing): load the labelled rows into seeded-hash splits, fit as linear_text.py
says (with and without first / last clause vectors), choose the threshold on P(first class) at which
at most `max_false` of the dev rows labelled otherwise read as the first class, and print dev and
held-out test figures, the rows read wrong and one JSON line."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from common.embedding.registry import offline_text_embedder
from scripts.eval.linear_text import Split, evaluate, fit, lowest_safe_threshold

SPLITS = ("train", "dev", "test")


@dataclass(frozen=True)
class FirstClassReader:
    """What one reader's training needs: its rows as (label, text), each text's split, its classes
    (the first is the one read for), the false rate allowed on dev, where its weights go and how they
    load, the name of its threshold in the weights and the word its report calls the first class."""

    rows: list[tuple[str, str]]
    split_of: Callable[[str], str]
    classes: tuple[str, ...]
    max_false: float
    weights: Path
    load_model: Callable[[Any, Path], Any]  # (embedder, weights path) -> the shipped model
    threshold_key: str  # "job_above", "pastime_above"
    plural: str  # "jobs", "pastimes"
    extra_weights: dict[str, Any] | None = None


def load(reader: FirstClassReader) -> dict[str, Split]:
    rows: dict[str, tuple[list[str], list[int]]] = {s: ([], []) for s in SPLITS}
    for label, text in reader.rows:
        texts, labels = rows[reader.split_of(text)]
        texts.append(text)
        labels.append(reader.classes.index(label))
    return {s: Split(t, np.array(y)) for s, (t, y) in rows.items()}


def report(predicted: np.ndarray, labels: np.ndarray, plural: str) -> dict:
    first, said = labels == 0, predicted == 0
    right = int((first & said).sum())
    return {"n": int(len(labels)), plural: int(first.sum()), "accuracy": round(float((predicted == labels).mean()), 3),
            "precision": round(right / max(int(said.sum()), 1), 3), "recall": round(right / max(int(first.sum()), 1), 3),
            f"false_{plural[:-1]}": int((said & ~first).sum())}


def train(reader: FirstClassReader, write: bool) -> int:
    data = load(reader)
    embedder = offline_text_embedder()
    classes = list(reader.classes)
    fitted = fit(embedder, data, classes, clause_options=(False, True))
    above = lowest_safe_threshold(fitted.calibrated["dev"][:, 0], data["dev"].labels, reader.max_false)
    weights = {**fitted.weights, reader.threshold_key: above, **(reader.extra_weights or {})}
    results, predicted = evaluate(reader.weights, weights, lambda path: reader.load_model(embedder, path), data,
                                  fitted, classes, lambda p, y: report(p, y, reader.plural), write)
    w, one = fitted.weights, reader.plural[:-1]
    print(f"sentences per split { {s: len(d.texts) for s, d in data.items()} }; chosen: "
          f"clause_vectors={w.get('clause_vectors', False)} lexical_weight={w['lexical_weight']} C={w['C']} "
          f"temperature={w['temperature']:.3f} {reader.threshold_key}={above}")
    for split in ("dev", "test"):
        r = results[split]
        print(f"{split:<5} n={r['n']:>3} ({reader.plural} {r[reader.plural]})  accuracy {r['accuracy']:.3f}  {one} "
              f"precision {r['precision']:.3f} recall {r['recall']:.3f}  other read as a {one} {r[f'false_{one}']}  "
              f"ECE {r['ece_uncalibrated']:.3f} -> {r['ece_calibrated']:.3f}")
        for text, gold, got in zip(data[split].texts, data[split].labels, predicted[split], strict=True):
            if gold != got:
                print(f"  {split} misread {classes[gold]} -> {classes[got]}: {text}")
    if write:
        print(f"wrote {reader.weights}")
    print(json.dumps({"chosen": {"clause_vectors": w.get("clause_vectors", False), "lexical_weight": w["lexical_weight"],
                                 "C": w["C"], "temperature": w["temperature"], reader.threshold_key: above}, **results}))
    return 0
