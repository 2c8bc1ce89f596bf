"""The offline memory-intent classifier: what a turn asks of Nadine's memory.

Multinomial logistic regression over the offline MiniLM sentence vector plus binary word uni/bigram
features, trained by scripts/eval/train_memory_intent.py on utterances.tsv (the fixed train split),
its softmax temperature fitted on the dev split so the probabilities are calibrated. The weights ship
as weights.json; inference is one embedding and one matrix product in numpy.

A non-statement intent is only returned when its probability reaches that intent's minimum
confidence (chosen on the dev split by the training script); below it the turn is an ordinary
statement: a wrong recall or a wrong stored fact is worse than a missed one.
"""

from __future__ import annotations

import functools
import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from common.embedding.base import TextEmbedder
from common.vision.base import BackendUnavailable

log = logging.getLogger("nadine.interaction.memory_intent")

HERE = Path(__file__).parent
WEIGHTS = HERE / "weights.json"
UTTERANCES = HERE / "utterances.tsv"

# about_me ("what do you know about me?") is the classifier's own class; on the wire it is a recall
MEMORY_INTENTS = ("recall", "remember", "forget_one", "forget_me", "about_me", "statement")
STATEMENT = "statement"
_TOKEN = re.compile(r"[a-z0-9']+")


def lexical_tokens(text: str) -> list[str]:
    """Lower-cased words and adjacent word pairs; the same function builds the training vocabulary."""
    words = _TOKEN.findall(text.lower().replace("\u2019", "'"))
    return words + [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]


@dataclass(frozen=True)
class MemoryIntentGuess:
    intent: str
    probability: float  # of the returned intent
    probabilities: dict[str, float]


class MemoryIntentClassifier:
    def __init__(self, embedder: TextEmbedder, weights: Path = WEIGHTS) -> None:
        data = json.loads(weights.read_text(encoding="utf-8"))
        if data["embedder"] != embedder.name:
            raise BackendUnavailable(
                "memory_intent", f"weights were trained on {data['embedder']}, not {embedder.name}",
                "run python -m scripts.eval.train_memory_intent",
            )
        self._embedder = embedder
        self.classes: list[str] = data["classes"]
        self._vocab: dict[str, int] = {w: i for i, w in enumerate(data["vocabulary"])}
        self._lexical_weight = float(data["lexical_weight"])
        self._coef = np.asarray(data["coef"], dtype=np.float32)
        self._intercept = np.asarray(data["intercept"], dtype=np.float32)
        self._temperature = float(data["temperature"])
        self.min_confidence: dict[str, float] = data["min_confidence"]

    def features(self, texts: list[str]) -> np.ndarray:
        lexical = np.zeros((len(texts), len(self._vocab)), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in lexical_tokens(text):
                if token in self._vocab:
                    lexical[row, self._vocab[token]] = 1.0
        norms = np.maximum(np.linalg.norm(lexical, axis=1, keepdims=True), 1e-12)
        return np.hstack([self._embedder.embed(texts), self._lexical_weight * lexical / norms])

    def probabilities(self, texts: list[str]) -> np.ndarray:
        """(len(texts), len(classes)) calibrated class probabilities."""
        logits = (self.features(texts) @ self._coef.T + self._intercept) / self._temperature
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return exp / exp.sum(axis=1, keepdims=True)

    def decide(self, probs: np.ndarray) -> str:
        best = int(np.argmax(probs))
        intent = self.classes[best]
        if intent != STATEMENT and probs[best] < self.min_confidence.get(intent, 0.0):
            return STATEMENT
        return intent

    def classify(self, text: str) -> MemoryIntentGuess:
        probs = self.probabilities([text])[0]
        intent = self.decide(probs)
        table = {c: round(float(p), 4) for c, p in zip(self.classes, probs, strict=True)}
        return MemoryIntentGuess(intent, table[intent], table)


@functools.cache
def default_classifier() -> MemoryIntentClassifier | None:
    """The shipped classifier on the offline embedder, loaded once per process; None (one log line)
    when it cannot load: every turn is then an ordinary statement, never a guessed recall."""
    from common.embedding.registry import offline_text_embedder

    try:
        return MemoryIntentClassifier(offline_text_embedder())
    except (BackendUnavailable, OSError, KeyError, ValueError) as exc:
        log.error("memory-intent classifier unavailable (%s); turns are treated as statements", exc)
        return None


def classify(text: str) -> MemoryIntentGuess:
    classifier = default_classifier()
    if classifier is None or not text.strip():
        return MemoryIntentGuess(STATEMENT, 1.0, {STATEMENT: 1.0})
    return classifier.classify(text)
