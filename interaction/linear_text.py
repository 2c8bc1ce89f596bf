"""A calibrated linear classifier of one sentence, with weights shipped as JSON.

Multinomial logistic regression over the offline MiniLM sentence vector, optionally the vectors of its
first and last clause (where a correction such as "yes - no, wait" turns), plus binary word uni/bigram
features (L2-normalised, scaled by a fitted lexical weight) and, when the weights carry them, binary
character 3-5-grams within words (L2-normalised, scaled by a fitted weight: a misspelt "remeber" or
"rember" still shares most of its character n-grams with "remember", where its word feature is
unknown), and, for a model whose owner passes them, binary features of the sentence's parse
(L2-normalised, scaled by a fitted weight), its softmax temperature fitted on a dev split so the probabilities are calibrated. Inference is one embedding and one matrix product in numpy.
The memory-intent classifier and the confirmation reader are both this model, each trained on its own
labelled sentences by a script under scripts/eval/ (scripts/eval/linear_text.py fits it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from common.embedding.base import TextEmbedder
from common.vision.base import BackendUnavailable

_TOKEN = re.compile(r"[a-z0-9']+")
# a clause ends at a comma, semicolon, colon, ! or ?, an ellipsis, a sentence's full stop or a spaced dash
_CLAUSE_END = re.compile(r"\s*(?:[,;:!?]|\.\.\.|…|\.\s|\s[-–—]\s)\s*")


def lexical_tokens(text: str) -> list[str]:
    """Lower-cased words and adjacent word pairs; the same function builds the training vocabulary."""
    words = _TOKEN.findall(text.lower().replace("\u2019", "'"))
    return words + [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]


CHAR_NGRAMS = (3, 5)  # the shortest and longest character n-gram


def char_ngrams(text: str) -> list[str]:
    """The character 3-5-grams of each lower-cased word padded with a space on both sides (so a
    word's start and end are n-grams of their own), as scikit-learn's "char_wb" analyser reads them;
    the same function builds the training vocabulary."""
    grams: list[str] = []
    for word in _TOKEN.findall(text.lower().replace("\u2019", "'")):
        padded = f" {word} "
        for n in range(CHAR_NGRAMS[0], CHAR_NGRAMS[1] + 1):
            grams.extend(padded[i:i + n] for i in range(len(padded) - n + 1))
    return grams


def binary_rows(token_lists: list[list[str]], vocab: dict[str, int]) -> np.ndarray:
    """Binary bag-of-features rows, L2-normalised (an empty row stays zero)."""
    rows = np.zeros((len(token_lists), len(vocab)), dtype=np.float32)
    for row, tokens in enumerate(token_lists):
        for token in tokens:
            if token in vocab:
                rows[row, vocab[token]] = 1.0
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)


def clauses(text: str) -> list[str]:
    """The text's clauses, in order, without the punctuation that ends them."""
    return [p for p in _CLAUSE_END.split(text.strip()) if p.strip(" .")]


def first_and_last_clause(text: str) -> tuple[str, str]:
    parts = clauses(text)
    return (parts[0], parts[-1]) if parts else (text, text)


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def embedded_texts(texts: list[str], clauses: bool) -> list[str]:
    """What sentence_vectors() embeds: the texts, with `clauses` then their first and their last clauses."""
    if not clauses:
        return list(texts)
    ends = [first_and_last_clause(t) for t in texts]
    return [*texts, *(f for f, _ in ends), *(last for _, last in ends)]


def sentence_vectors(embedder: TextEmbedder, texts: list[str], clauses: bool) -> np.ndarray:
    """Each text's vector, followed with `clauses` by its first and its last clause's (one model run)."""
    vectors = embedder.embed(embedded_texts(texts, clauses))
    if not clauses:
        return vectors
    n = len(texts)
    return np.hstack([vectors[:n], vectors[n:2 * n], vectors[2 * n:]])


class LinearTextModel:
    """The model stored in `data` (the weights JSON): "embedder", "classes", "vocabulary",
    "lexical_weight", "coef", "intercept", "temperature", "clause_vectors" (absent = false) and
    "char_vocabulary" with "char_weight" (absent = no character n-grams) and "parse_vocabulary" with
    "parse_weight" (absent = no parse features; present, `parse_features` reads them: texts -> each
    text's feature tokens). `component` and `retrain` name the model and its training command when the
    weights belong to another embedder."""

    def __init__(self, embedder: TextEmbedder, data: dict[str, Any], component: str, retrain: str,
                 parse_features: Callable[[list[str]], list[list[str]]] | None = None) -> None:
        if data["embedder"] != embedder.name:
            raise BackendUnavailable(component, f"weights were trained on {data['embedder']}, not {embedder.name}",
                                     retrain)
        self._embedder = embedder
        self.classes: list[str] = data["classes"]
        self._vocab: dict[str, int] = {w: i for i, w in enumerate(data["vocabulary"])}
        self._lexical_weight = float(data["lexical_weight"])
        self._coef = np.asarray(data["coef"], dtype=np.float32)
        self._intercept = np.asarray(data["intercept"], dtype=np.float32)
        self._temperature = float(data["temperature"])
        self._clauses = bool(data.get("clause_vectors", False))
        self._char_vocab: dict[str, int] = {g: i for i, g in enumerate(data.get("char_vocabulary", []))}
        self._char_weight = float(data.get("char_weight", 0.0))
        self._parse_vocab: dict[str, int] = {g: i for i, g in enumerate(data.get("parse_vocabulary", []))}
        self._parse_weight = float(data.get("parse_weight", 0.0))
        if self._parse_vocab and parse_features is None:
            raise ValueError(f"{component} weights use parse features, but none were given to read them")
        self._parse_features = parse_features

    def features(self, texts: list[str]) -> np.ndarray:
        parts = [sentence_vectors(self._embedder, texts, self._clauses),
                 self._lexical_weight * binary_rows([lexical_tokens(t) for t in texts], self._vocab)]
        if self._char_vocab:
            parts.append(self._char_weight * binary_rows([char_ngrams(t) for t in texts], self._char_vocab))
        if self._parse_vocab and self._parse_features is not None:
            parts.append(self._parse_weight * binary_rows(self._parse_features(texts), self._parse_vocab))
        return np.hstack(parts)

    def texts_read(self, texts: list[str]) -> list[str]:
        """The texts whose vectors reading `texts` takes (to embed them ahead, with others)."""
        return embedded_texts(texts, self._clauses)

    def probabilities(self, texts: list[str]) -> np.ndarray:
        """(len(texts), len(classes)) calibrated class probabilities."""
        return softmax((self.features(texts) @ self._coef.T + self._intercept) / self._temperature)


class FirstClassModel:
    """A two-class clause model read for its first class ("job", "pastime"): the class is said once its
    calibrated probability reaches the threshold stored beside the weights as `threshold_key`, chosen
    on the dev split for a stated false rate (scripts/eval/first_class_training.py)."""

    def __init__(self, embedder: TextEmbedder, weights: Path, classes: tuple[str, str], threshold_key: str,
                 component: str, retrain: str) -> None:
        data = json.loads(weights.read_text(encoding="utf-8"))
        self._model = LinearTextModel(embedder, data, component, retrain)
        if tuple(self._model.classes) != classes:
            raise ValueError(f"{component} weights have classes {self._model.classes}, expected {list(classes)}")
        self.classes = classes
        self.above = float(data[threshold_key])

    def probabilities(self, clauses: list[str]) -> np.ndarray:
        """(len(clauses), 2) calibrated probabilities of the first class and the other."""
        return self._model.probabilities(clauses)

    def texts_read(self, clauses: list[str]) -> list[str]:
        """The texts whose vectors deciding `clauses` takes."""
        return self._model.texts_read(clauses)

    def decide(self, probs: np.ndarray) -> str:
        return self.classes[0] if probs[0] >= self.above else self.classes[1]

    def reads_as_first(self, clause: str) -> bool:
        return bool(clause.strip()) and self.decide(self.probabilities([clause])[0]) == self.classes[0]

