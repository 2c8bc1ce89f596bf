"""Train the memory-intent classifier (interaction/memory_intent) and report it, deterministically.

    python -m scripts.eval.train_memory_intent [--write]

Data: interaction/memory_intent/utterances.tsv (intent, split, text); the split column is fixed
(train / dev / test by a hash of the text, written once). Steps, all on the train split unless said:
1. the lexical vocabulary: word uni/bigrams seen in at least two training utterances;
2. L2-regularised multinomial logistic regression (lbfgs, deterministic) for each C and lexical weight
   of a small grid; the pair with the lowest dev log-loss wins;
3. a softmax temperature fitted on dev (minimum negative log-likelihood), so the probabilities are
   calibrated; expected calibration error is reported before and after;
4. each non-statement intent's minimum confidence: the smallest of 0.40, 0.45, ... 0.90 at which its
   dev precision is at least PRECISION_TARGET (forgetting asks most: it deletes); recall never below
   0.5 (when unsure between recall and statement, a statement: a wrong recall is worse);
5. per-intent precision / recall on dev and on the held-out test split, printed as a table and one
   JSON line. --write stores weights.json (the test split is never used to choose anything).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize_scalar
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss, precision_recall_fscore_support

from common.embedding.registry import offline_text_embedder
from interaction.memory_intent.classifier import (
    MEMORY_INTENTS,
    STATEMENT,
    UTTERANCES,
    WEIGHTS,
    MemoryIntentClassifier,
    lexical_tokens,
)

C_GRID = (3.0, 10.0, 30.0, 100.0, 300.0, 1000.0)
LEXICAL_WEIGHTS = (0.0, 0.5, 1.0)
CONFIDENCE_GRID = tuple(round(0.40 + 0.05 * i, 2) for i in range(11))
PRECISION_TARGET = {"forget_one": 0.95, "forget_me": 0.95}  # wrong forgets cost most; others 0.90
DEFAULT_PRECISION_TARGET = 0.90
# a recall must be more likely than not: unsure between recall and statement, Nadine takes a statement
LOWEST_CONFIDENCE = {"recall": 0.5}


@dataclass
class Split:
    texts: list[str]
    labels: np.ndarray  # class indices


def load() -> dict[str, Split]:
    rows: dict[str, tuple[list[str], list[int]]] = {s: ([], []) for s in ("train", "dev", "test")}
    with UTTERANCES.open(encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            texts, labels = rows[row["split"]]
            texts.append(row["text"])
            labels.append(MEMORY_INTENTS.index(row["intent"]))
    return {s: Split(t, np.array(y)) for s, (t, y) in rows.items()}


def ece(probs: np.ndarray, labels: np.ndarray, bins: int = 10) -> float:
    """Expected calibration error of the top class (equal-width confidence bins)."""
    conf, pred = probs.max(axis=1), probs.argmax(axis=1)
    edges = np.linspace(0.0, 1.0, bins + 1)
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        inside = (conf > lo) & (conf <= hi)
        if inside.any():
            total += inside.mean() * abs((pred[inside] == labels[inside]).mean() - conf[inside].mean())
    return float(total)


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def report(name: str, predicted: np.ndarray, labels: np.ndarray) -> dict[str, dict[str, float]]:
    idx = list(range(len(MEMORY_INTENTS)))
    p, r, _, n = precision_recall_fscore_support(labels, predicted, labels=idx, zero_division=0)
    out = {c: {"precision": round(float(p[i]), 3), "recall": round(float(r[i]), 3), "n": int(n[i])}
           for i, c in enumerate(MEMORY_INTENTS)}
    out["accuracy"] = {"value": round(float((predicted == labels).mean()), 3), "n": int(len(labels))}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="store interaction/memory_intent/weights.json")
    args = parser.parse_args(argv)
    data = load()
    embedder = offline_text_embedder()
    vectors = {s: embedder.embed(d.texts) for s, d in data.items()}
    counter = CountVectorizer(analyzer=lexical_tokens, binary=True, min_df=2)
    counter.fit(data["train"].texts)
    vocabulary = sorted(counter.vocabulary_, key=counter.vocabulary_.get)

    def lexical(texts: list[str]) -> np.ndarray:
        m = counter.transform(texts).toarray().astype(np.float32)
        return m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)

    lex = {s: lexical(d.texts) for s, d in data.items()}
    best = None
    for weight in LEXICAL_WEIGHTS:
        feats = {s: np.hstack([vectors[s], weight * lex[s]]) for s in data}
        for c in C_GRID:
            model = LogisticRegression(C=c, max_iter=5000, solver="lbfgs")
            model.fit(feats["train"], data["train"].labels)
            loss = log_loss(data["dev"].labels, model.predict_proba(feats["dev"]), labels=model.classes_)
            print(f"lexical_weight={weight} C={c}: dev log-loss {loss:.4f}", file=sys.stderr)
            if best is None or loss < best[0]:
                best = (loss, weight, c, model, feats)
    assert best is not None
    _, weight, c, model, feats = best
    dev_logits = feats["dev"] @ model.coef_.T + model.intercept_
    fit = minimize_scalar(lambda t: log_loss(data["dev"].labels, softmax(dev_logits / t), labels=model.classes_),
                          bounds=(0.05, 10.0), method="bounded")
    temperature = float(fit.x)

    def probs_of(split: str) -> np.ndarray:
        return softmax((feats[split] @ model.coef_.T + model.intercept_) / temperature)

    dev_probs = probs_of("dev")
    min_confidence: dict[str, float] = {}
    for i, intent in enumerate(MEMORY_INTENTS):
        if intent == STATEMENT:
            continue
        target = PRECISION_TARGET.get(intent, DEFAULT_PRECISION_TARGET)
        for tau in (t for t in CONFIDENCE_GRID if t >= LOWEST_CONFIDENCE.get(intent, 0.0)):
            chosen = (dev_probs.argmax(axis=1) == i) & (dev_probs[:, i] >= tau)
            if not chosen.any() or (data["dev"].labels[chosen] == i).mean() >= target:
                min_confidence[intent] = tau
                break
        else:
            min_confidence[intent] = CONFIDENCE_GRID[-1]
    weights = {
        "embedder": embedder.name, "classes": list(MEMORY_INTENTS), "vocabulary": vocabulary,
        "lexical_weight": weight, "C": c, "temperature": round(temperature, 6),
        "coef": np.round(model.coef_, 6).tolist(), "intercept": np.round(model.intercept_, 6).tolist(),
        "min_confidence": min_confidence,
    }
    tmp = WEIGHTS.with_suffix(".candidate.json")
    tmp.write_text(json.dumps(weights), encoding="utf-8")
    try:
        shipped = MemoryIntentClassifier(embedder, tmp)  # evaluate exactly what inference will run
        results = {}
        for split in ("dev", "test"):
            probs = shipped.probabilities(data[split].texts)
            predicted = np.array([MEMORY_INTENTS.index(shipped.decide(p)) for p in probs])
            results[split] = report(split, predicted, data[split].labels)
            results[split]["ece_uncalibrated"] = round(ece(softmax(feats[split] @ model.coef_.T + model.intercept_),
                                                           data[split].labels), 3)
            results[split]["ece_calibrated"] = round(ece(probs, data[split].labels), 3)
        if args.write:
            tmp.replace(WEIGHTS)
    finally:
        tmp.unlink(missing_ok=True)
    print(f"chosen: lexical_weight={weight} C={c} temperature={temperature:.3f} min_confidence={min_confidence}")
    print(f"{'intent':<12}{'dev P':>8}{'dev R':>8}{'dev n':>7}{'test P':>9}{'test R':>8}{'test n':>8}")
    for intent in MEMORY_INTENTS:
        d, t = results["dev"][intent], results["test"][intent]
        print(f"{intent:<12}{d['precision']:>8.3f}{d['recall']:>8.3f}{d['n']:>7}"
              f"{t['precision']:>9.3f}{t['recall']:>8.3f}{t['n']:>8}")
    for split in ("dev", "test"):
        r = results[split]
        print(f"{split}: accuracy {r['accuracy']['value']:.3f} (n={r['accuracy']['n']}), "
              f"ECE {r['ece_uncalibrated']:.3f} -> {r['ece_calibrated']:.3f} after temperature scaling")
    print(json.dumps({"chosen": {"lexical_weight": weight, "C": c, "temperature": round(temperature, 4),
                                 "min_confidence": min_confidence}, **results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
