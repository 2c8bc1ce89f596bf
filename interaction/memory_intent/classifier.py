"""The offline memory-intent classifier: what a turn asks of Nadine's memory.

A calibrated linear text model (interaction/linear_text.py), its features the sentence's MiniLM vector,
its words, character n-grams and what its verbs do by spaCy's parse (verb_frames.py: "don't forget
that ..." is not "forget that ..."), trained by
scripts/eval/train_memory_intent.py on utterances.tsv (the fixed train split), its softmax temperature
fitted on the dev split. The weights ship as weights.json.

A non-statement intent is only returned when its probability reaches that intent's minimum
confidence (chosen on the dev split by the training script); below it the turn is an ordinary
statement: a wrong recall or a wrong stored fact is worse than a missed one.
"""

from __future__ import annotations

import functools
import json
import logging
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from cachetools import LRUCache

from common.embedding.base import TextEmbedder
from common.vision.base import BackendUnavailable
from interaction.linear_text import LinearTextModel
from interaction.memory_intent.verb_frames import verb_frames

log = logging.getLogger("nadine.interaction.memory_intent")

HERE = Path(__file__).parent
WEIGHTS = HERE / "weights.json"
UTTERANCES = HERE / "utterances.tsv"

# about_me ("what do you know about me?") is the classifier's own class; on the wire it is a recall
MEMORY_INTENTS = ("recall", "remember", "forget_one", "forget_me", "about_me", "statement")
STATEMENT = "statement"
# A turn's text is classified when it is understood, when it is read for a later recall after the
# reply, and again, with every earlier statement of the conversation, on each recall turn
RECENT_TEXTS = 1024


@dataclass(frozen=True)
class MemoryIntentGuess:
    intent: str
    probability: float  # of the returned intent
    probabilities: dict[str, float]


class MemoryIntentClassifier:
    def __init__(self, embedder: TextEmbedder, weights: Path = WEIGHTS) -> None:
        data = json.loads(weights.read_text(encoding="utf-8"))
        if data.get("parse_vocabulary"):
            _require_parser()
        self._model = LinearTextModel(embedder, data, "memory_intent", "run python -m scripts.eval.train_memory_intent",
                                      parse_features=verb_frames)
        self.classes = self._model.classes
        self.min_confidence: dict[str, float] = data["min_confidence"]
        self._recent: LRUCache[str, MemoryIntentGuess] = LRUCache(RECENT_TEXTS)
        self._recent_lock = threading.Lock()  # the episode save classifies on its own thread

    def probabilities(self, texts: list[str]) -> np.ndarray:
        """(len(texts), len(classes)) calibrated class probabilities."""
        return self._model.probabilities(texts)

    def texts_read(self, texts: list[str]) -> list[str]:
        """The texts whose vectors classifying `texts` takes (to embed them ahead, with others)."""
        return self._model.texts_read(texts)

    def decide(self, probs: np.ndarray) -> str:
        best = int(np.argmax(probs))
        intent = self.classes[best]
        if intent == "forget_me" and probs[best] < self.min_confidence["forget_me"]:
            # surely a forget, not surely of everything ("please delete my student ID": 0.57 all, 0.42
            # one): the one thing it names, which is asked about before anything goes
            one = self.classes.index("forget_one")
            return "forget_one" if probs[best] + probs[one] >= self.min_confidence["forget_one"] else STATEMENT
        if intent != STATEMENT and probs[best] < self.min_confidence.get(intent, 0.0):
            return STATEMENT
        return intent

    def classify(self, text: str) -> MemoryIntentGuess:
        """The text's intent (the guess is shared by every caller of the same text: read it only)."""
        with self._recent_lock:
            guess = self._recent.get(text)
        if guess is None:
            probs = self.probabilities([text])[0]
            intent = self.decide(probs)
            table = {c: round(float(p), 4) for c, p in zip(self.classes, probs, strict=True)}
            guess = MemoryIntentGuess(intent, table[intent], table)
            with self._recent_lock:
                self._recent[text] = guess
        return guess


def _asking_nothing_back(classifier: MemoryIntentClassifier, guess: MemoryIntentGuess) -> MemoryIntentGuess:
    """The guess for a request to keep something to do: it asks for nothing to be told back, so the
    intents that ask (recall, about_me) have no part in it; the rest, in proportion, is decided again
    ("will you remember to ask me whether I got the job?" was near a recall question by its words)."""
    kept = np.array([0.0 if c in ("recall", "about_me") else guess.probabilities[c] for c in classifier.classes])
    if kept.sum() <= 0.0:
        return MemoryIntentGuess(STATEMENT, 0.0, guess.probabilities)
    kept /= kept.sum()
    intent = classifier.decide(kept)
    table = {c: round(float(p), 4) for c, p in zip(classifier.classes, kept, strict=True)}
    return MemoryIntentGuess(intent, table[intent], table)


def _require_parser() -> None:
    """spaCy's pipeline loads now, not at the first turn's features: without it the classifier is
    unavailable (every turn a statement), never a crash in the middle of a turn."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        load_parser()
    except ParserUnavailable as exc:
        raise BackendUnavailable("memory_intent", str(exc), "./scripts/bootstrap.sh") from exc


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


def texts_read(text: str) -> list[str]:
    """The texts whose vectors classify(text) takes: the turn's, and its words as meant when they differ."""
    from interaction.memory_intent.misspelt import as_meant

    classifier = default_classifier()
    if classifier is None or not text.strip():
        return []
    return classifier.texts_read(list(dict.fromkeys([text, as_meant(text)])))


def classify(text: str) -> MemoryIntentGuess:
    """What `text` asks of memory; a turn with misspelt words read again with them as meant
    (misspelt.py): "forgt the due date thing" asks to forget. A request whose form the parse does not
    show (form.py: "yes please", "guess what, my son got engaged!") is a statement, and a request to
    keep something to do (to_do.py: "remind me next time to bring the photos") asks nothing back."""
    from interaction.memory_intent.form import has_form
    from interaction.memory_intent.misspelt import as_meant
    from interaction.memory_intent.to_do import to_do

    classifier = default_classifier()
    if classifier is None or not text.strip():
        return MemoryIntentGuess(STATEMENT, 1.0, {STATEMENT: 1.0})
    guess = classifier.classify(text)
    if (meant := as_meant(text)) != text:
        # the words as meant ask something, or ask more surely ("forgt what i said" is half a recall as typed)
        again = classifier.classify(meant)
        if again.intent != STATEMENT and (guess.intent == STATEMENT or again.probability > guess.probability):
            guess = again
    if to_do(text) is not None:
        guess = _asking_nothing_back(classifier, guess)
    if guess.intent == STATEMENT:
        guess = _request_beside_what_it_keeps(classifier, text, guess) or guess
    if has_form(guess.intent, text):
        return guess
    return MemoryIntentGuess(STATEMENT, guess.probabilities[STATEMENT], guess.probabilities)


def _request_beside_what_it_keeps(classifier: MemoryIntentClassifier, text: str,
                                  whole: MemoryIntentGuess) -> MemoryIntentGuess | None:
    """A turn read whole as news, one of whose sentences or clauses asks to keep what another one
    tells, naming nothing of its own to keep ("Could you keep a number for me? The code for my door is 4471.", "my PIN is 6021, keep
    it for me"), or that opens by bidding her forget a thing it names and then says why ("please forget
    the wifi password, they changed it anyway"): the request's guess. Its news outweighs a short request
    in the whole turn's words."""
    from interaction import cues
    from interaction.memory_intent.form import FORGETS, has_form
    from interaction.memory_intent.phrasing import (
        a_clause_of_its_own,
        keeps_what_is_said_beside,
        opening_bidding,
        stretches,
    )

    parts = stretches(text)
    if len(parts) < 2:
        return None
    # ... when the whole turn (`whole`, its guess) leans to forgetting over keeping ("please keep my
    # apartment number, it is 1207": its bidding alone reads as a forget)
    leans = whole.probabilities
    if (bidding := opening_bidding(text)) is not None and sum(leans[i] for i in FORGETS) > leans["remember"]:
        guess = classifier.classify(bidding)
        if guess.intent in FORGETS and has_form(guess.intent, bidding):
            return guess
    for i, part in enumerate(parts):
        # the parse first, the classifier's vectors only for a part that may be such a request
        if not keeps_what_is_said_beside(part) or not any(
                a_clause_of_its_own(p) and not cues.is_question(p) for p in parts[:i] + parts[i + 1:]):
            continue
        guess = classifier.classify(part)
        if guess.intent == "remember" and has_form(guess.intent, part):
            return guess
    return None
