"""Fitting interaction/linear_text.py's model, deterministically (the memory-intent classifier and the
confirmation reader are trained with it). All on the train split unless said:
1. the lexical vocabulary: word uni/bigrams seen in at least two training sentences, and (when the
   caller offers character weights above 0) character 3-5-grams seen in at least two;
2. L2-regularised multinomial logistic regression (lbfgs, deterministic) for each C, lexical weight,
   character weight, parse weight (when the caller offers parse features) and (when the caller offers
   both) with or without clause vectors; the lowest dev log-loss wins;
3. a softmax temperature fitted on dev (minimum negative log-likelihood), so the probabilities are
   calibrated. The test split is never used to choose anything.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize_scalar
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss

from common.embedding.base import TextEmbedder
from interaction.linear_text import binary_rows, char_ngrams, lexical_tokens, sentence_vectors, softmax

C_GRID = (3.0, 10.0, 30.0, 100.0, 300.0, 1000.0)
LEXICAL_WEIGHTS = (0.0, 0.5, 1.0)


@dataclass
class Split:
    texts: list[str]
    labels: np.ndarray  # class indices


@dataclass
class Fitted:
    weights: dict[str, Any]  # the weights JSON interaction/linear_text.py loads (without model-specific keys)
    uncalibrated: dict[str, np.ndarray]  # per split: the probabilities before temperature scaling
    calibrated: dict[str, np.ndarray]  # after


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


def _bag(analyse: Callable[[list[str]], list[list[str]]], data: dict[str, Split]) -> tuple[list[str], dict[str, np.ndarray]]:
    """The vocabulary of `analyse`'s features (texts -> each text's tokens) seen in two or more
    training sentences, and each split's binary rows over it, L2-normalised."""
    tokens = {s: analyse(d.texts) for s, d in data.items()}
    counter = CountVectorizer(analyzer=list, binary=True, min_df=2)
    counter.fit(tokens["train"])
    vocabulary = sorted(counter.vocabulary_, key=counter.vocabulary_.get)
    return vocabulary, {s: binary_rows(t, {w: i for i, w in enumerate(vocabulary)}) for s, t in tokens.items()}


def _each(analyse: Callable[[str], list[str]]) -> Callable[[list[str]], list[list[str]]]:
    return lambda texts: [analyse(t) for t in texts]


def fit(embedder: TextEmbedder, data: dict[str, Split], classes: list[str],
        clause_options: tuple[bool, ...] = (False,), char_weights: tuple[float, ...] = (0.0,),
        parse_features: Callable[[list[str]], list[list[str]]] | None = None,
        parse_weights: tuple[float, ...] = (0.0,), lexical_weights: tuple[float, ...] = LEXICAL_WEIGHTS) -> Fitted:
    """`parse_features` (texts -> each text's tokens of their parse) is offered at each of
    `parse_weights` beside the words, as the character n-grams are at each of `char_weights` and the
    words at each of `lexical_weights`."""
    vocabulary, lex = _bag(_each(lexical_tokens), data)
    char_vocabulary, chars = _bag(_each(char_ngrams), data) if any(char_weights) else ([], {})
    if parse_features is None:
        parse_weights = (0.0,)
    parse_vocabulary, parses = _bag(parse_features, data) if any(parse_weights) else ([], {})
    best = None
    for clauses in clause_options:
        vectors = {s: sentence_vectors(embedder, d.texts, clauses) for s, d in data.items()}
        for weight, char_weight, parse_weight in product(lexical_weights, char_weights, parse_weights):
            feats = {s: np.hstack([vectors[s], weight * lex[s], *([char_weight * chars[s]] if char_weight else []),
                                   *([parse_weight * parses[s]] if parse_weight else [])])
                     for s in data}
            for c in C_GRID:
                model = LogisticRegression(C=c, max_iter=5000, solver="lbfgs")
                model.fit(feats["train"], data["train"].labels)
                loss = log_loss(data["dev"].labels, model.predict_proba(feats["dev"]), labels=model.classes_)
                print(f"clauses={clauses} lexical_weight={weight} char_weight={char_weight} "
                      f"parse_weight={parse_weight} C={c}: dev log-loss {loss:.4f}", file=sys.stderr)
                if best is None or loss < best[0]:
                    best = (loss, clauses, weight, char_weight, parse_weight, c, model, feats)
    assert best is not None
    _, clauses, weight, char_weight, parse_weight, c, model, feats = best
    coef, intercept = model.coef_, model.intercept_
    if coef.shape[0] == 1:  # two classes: one logit for the second; a zero logit for the first gives the same softmax
        coef, intercept = np.vstack([np.zeros_like(coef), coef]), np.concatenate([[0.0], intercept])
    logits = {s: feats[s] @ coef.T + intercept for s in data}
    found = minimize_scalar(lambda t: log_loss(data["dev"].labels, softmax(logits["dev"] / t), labels=model.classes_),
                            bounds=(0.05, 10.0), method="bounded")
    temperature = float(found.x)
    weights = {
        "embedder": embedder.name, "classes": list(classes), "vocabulary": vocabulary,
        "lexical_weight": weight, "C": c, "temperature": round(temperature, 6),
        "coef": np.round(coef, 6).tolist(), "intercept": np.round(intercept, 6).tolist(),
    }
    if clauses:
        weights["clause_vectors"] = True
    if char_weight:
        weights["char_vocabulary"], weights["char_weight"] = char_vocabulary, char_weight
    if parse_weight:
        weights["parse_vocabulary"], weights["parse_weight"] = parse_vocabulary, parse_weight
    return Fitted(weights, {s: softmax(v) for s, v in logits.items()},
                  {s: softmax(v / temperature) for s, v in logits.items()})


def evaluate(path: Path, weights: dict[str, Any], load: Callable[[Path], Any], data: dict[str, Split],
             fitted: Fitted, classes: list[str], report: Callable[[np.ndarray, np.ndarray], dict],
             write: bool) -> tuple[dict[str, dict], dict[str, np.ndarray]]:
    """`report` of dev and test for exactly what inference will load: `weights` go to a candidate file
    beside `path`, `load` reads it into the shipped model (with probabilities() and decide()), and only
    `write` replaces the shipped file with it. Also the predicted class indices per split."""
    tmp = path.with_suffix(".candidate.json")
    tmp.write_text(json.dumps(weights), encoding="utf-8")
    try:
        shipped = load(tmp)
        results, predicted = {}, {}
        for split in ("dev", "test"):
            probs = shipped.probabilities(data[split].texts)
            predicted[split] = np.array([classes.index(shipped.decide(p)) for p in probs])
            results[split] = report(predicted[split], data[split].labels)
            results[split]["ece_uncalibrated"] = round(ece(fitted.uncalibrated[split], data[split].labels), 3)
            results[split]["ece_calibrated"] = round(ece(probs, data[split].labels), 3)
        if write:
            tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return results, predicted


THRESHOLD_GRID = tuple(round(0.50 + 0.01 * i, 2) for i in range(50))


def false_first_rate(p_first: np.ndarray, labels: np.ndarray, threshold: float) -> float:
    """The share of sentences labelled other than the first class whose P(first class) reaches the threshold."""
    others = labels != 0
    return float((p_first[others] >= threshold).mean()) if others.any() else 0.0


def lowest_safe_threshold(p_first: np.ndarray, labels: np.ndarray, max_false: float) -> float:
    """The smallest threshold of 0.50, 0.51, ... 0.99 at which at most `max_false` of the sentences of
    other classes read as the first (a yes that deletes, a job nobody has)."""
    return next((t for t in THRESHOLD_GRID if false_first_rate(p_first, labels, t) <= max_false), THRESHOLD_GRID[-1])


def misread(classes: list[str], split: Split, predicted: np.ndarray) -> list[str]:
    """Each row the reader got wrong, as "gold -> predicted: text"."""
    return [f"{classes[g]} -> {classes[p]}: {t}"
            for t, g, p in zip(split.texts, split.labels, predicted, strict=True) if g != p]


def print_class_table(heading: str, classes: list[str], results: dict) -> None:
    """Precision, recall and count of each class, dev beside test."""
    print(f"{heading:<13}{'dev P':>8}{'dev R':>8}{'dev n':>7}{'test P':>9}{'test R':>8}{'test n':>8}")
    for name in classes:
        d, t = results["dev"][name], results["test"][name]
        print(f"{name:<13}{d['precision']:>8.3f}{d['recall']:>8.3f}{d['n']:>7}"
              f"{t['precision']:>9.3f}{t['recall']:>8.3f}{t['n']:>8}")
