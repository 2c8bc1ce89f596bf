"""What a recall question asks about, and whether a memory is about the same thing.

spaCy's parse reads the things a text names (its mentions): every noun or name that heads a phrase,
with its compounds ("driving test"), and whose it is — the possessor ("my neighbour's cat": the cat's
possessor is the neighbour, the neighbour's is the speaker), or the speaker when a relative clause
says the speaker did it ("the trip I took"). Dates and numbers are the time window's business, not a
topic, and are left out (spaCy's entity types).

A question's mention and a memory's are compared by the MiniLM cosine of their head phrases and of
their possessors; names only agree with the same name. A cosine alone cannot tell a hypernym from a
sister word (MiniLM: "sibling"-"brother" 0.53, but "sister"-"brother" 0.65), so heads also agree
when the cross-encoder (verifier.py) finds the memory's head relevant to the question's, both read as
the speaker's ("my pet" -> "my dog" +1.6, "my sibling" -> "my brother" +0.3, against "my cat" ->
"my dog" -8.8, "my sister" -> "my brother" -6.1): relevance runs from the general to the specific,
not back. The thresholds are fitted on dev by scripts/eval/calibrate_recall. The question's mention then

- agrees with the memory when some mention of the memory has an agreeing head and a compatible
  possessor (the same one, or one the memory leaves unsaid or gives as a pronoun);
- conflicts when none agrees but the memory names something in the same frame with another head
  (the same possessor, named: "my neighbour's cat" against "my neighbour's dog"; not "my", which
  nearly everything a person tells has), or the same head with
  another possessor ("my son's tooth" against "my daughter's tooth", "my neighbour's dog" against
  "our dog", "my brother's job" against "my brother's wife got a job": without a possessor, a
  thing is the subject's that got it);
- has a rival otherwise when the memory names a sister word of its head (close in meaning, below
  agreeing: "the train" against "the bus", "my father" against "my mother"), a feature the decision
  weighs rather than a rule, since a paraphrase can land there too ("the heating" for "the boiler");
- is absent otherwise.

Parses and head-phrase vectors are kept per text: a memory is read once however often it is asked about.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from cachetools import LRUCache

log = logging.getLogger("nadine.memory.entities")

SPEAKER = "\u0001speaker"  # my / our / I / we: the person talking (never a word of the text)
_SPEAKER_WORDS = {"i", "my", "mine", "me", "we", "our", "ours", "us", "myself", "ourselves"}
_NOUNS = {"NOUN", "PROPN"}
_NOT_TOPICS = {"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY"}
_PHRASE_DEPS = {"compound"}  # "driving test", "bank job": part of what the head names


@dataclass(frozen=True)
class Mention:
    head: str  # the head phrase, lemmatised and lower-cased ("driving test"), or a name as written
    possessor: str | None  # SPEAKER, a possessor's lemma, or None (unsaid, or a pronoun of unknown referent)
    name: bool = False  # a proper name: agrees only with the same name
    owner: str | None = None  # without a possessor: the subject that got, lost or did it ("my brother's wife got a job")


@dataclass(frozen=True)
class Comparison:
    """A question's mentions against one memory's."""

    asked: int  # the question's mentions
    agreeing: int
    conflicting: int
    agreement: float  # mean over the question's mentions of the best head cosine in the memory (0: none asked)
    names_missing: int  # names of the question the memory does not contain
    rivals: int = 0  # of the absent ones, those whose head has a sister word in the memory

    @property
    def conflict(self) -> bool:
        return self.conflicting > 0

    @property
    def absent(self) -> int:
        return self.asked - self.agreeing - self.conflicting


NO_COMPARISON = Comparison(0, 0, 0, 0.0, 0)


def _possessor(token) -> str | None:
    for child in token.children:
        if child.dep_ == "poss":
            word = child.lower_
            if word in _SPEAKER_WORDS:
                return SPEAKER
            if child.pos_ in _NOUNS:
                return child.text if child.pos_ == "PROPN" else child.lemma_.lower()
            return None  # his / her / their: whose is not resolved here
        if child.dep_ == "relcl" and any(g.dep_ in ("nsubj", "nsubjpass") and g.lower_ in _SPEAKER_WORDS
                                         for g in child.children):
            return SPEAKER  # "the trip I took"
    return None


def _owner(token) -> str | None:
    """Whose a thing is when no possessor says it: the subject of the verb it is the object of."""
    if token.dep_ not in ("dobj", "attr") or token.head.pos_ not in ("VERB", "AUX"):
        return None
    for child in token.head.children:
        if child.dep_ == "nsubj":
            if child.lower_ in _SPEAKER_WORDS:
                return SPEAKER
            return child.lemma_.lower() if child.pos_ == "NOUN" else child.text if child.pos_ == "PROPN" else None
    return None


def _head_phrase(token) -> str:
    parts = [c for c in token.children if c.dep_ in _PHRASE_DEPS and c.i < token.i and c.pos_ in _NOUNS | {"VERB"}]
    words = [c.lemma_.lower() for c in parts] + [token.lemma_.lower()]
    return " ".join(words)


def read_mentions(doc) -> tuple[Mention, ...]:
    """The mentions of a parsed text, in order, each once."""
    seen: dict[tuple, Mention] = {}
    for token in doc:
        if token.pos_ not in _NOUNS or token.dep_ in _PHRASE_DEPS or token.is_stop:
            continue
        if token.ent_type_ in _NOT_TOPICS or not any(ch.isalpha() for ch in token.text):
            continue
        name = token.pos_ == "PROPN" or token.ent_type_ in ("PERSON", "GPE", "LOC", "ORG", "FAC", "NORP")
        possessor = _possessor(token)
        mention = Mention(token.text if name else _head_phrase(token), possessor, name,
                          None if possessor is not None else _owner(token))
        seen.setdefault((mention.head.casefold(), mention.possessor), mention)
    return tuple(seen.values())


@dataclass(frozen=True)
class Thresholds:
    head: float  # head phrases at least this close (MiniLM cosine) name the same thing
    possessor: float  # possessors at least this close are the same person
    relevance: float = float("inf")  # or the memory's head at least this relevant to the question's (cross-encoder logit)
    rival: float = float("inf")  # heads at least this close but not agreeing are sister words

    @classmethod
    def of(cls, calibration) -> Thresholds:
        """The thresholds a RecallCalibration was fitted with."""
        return cls(calibration.head_threshold, calibration.possessor_threshold, calibration.relevance_threshold,
                   calibration.rival_threshold)


class EntityReader:
    """Mentions of texts (spaCy, cached per text) and their comparison (MiniLM cosines, cached)."""

    def __init__(self, nlp, embed: Callable[[list[str]], np.ndarray], thresholds: Thresholds,
                 cache_size: int = 4096, relate: Callable[[str, list[str]], np.ndarray] | None = None) -> None:
        self.nlp = nlp
        self._embed = embed
        self.thresholds = thresholds
        self._relate = relate  # the cross-encoder's score(query, texts); None: cosines alone
        self._mentions: LRUCache[str, tuple[Mention, ...]] = LRUCache(cache_size)
        self._vectors: LRUCache[str, np.ndarray] = LRUCache(cache_size)
        self._relevance: LRUCache[tuple[str, str], float] = LRUCache(cache_size * 4)
        self._lock = threading.Lock()  # the episode save reads on its own thread

    def prepare(self, texts: list[str]) -> None:
        """Parse the texts not read yet in one batch (spaCy's pipe is about three times faster per
        text than one call each)."""
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._mentions))
        if not missing:
            return
        read = [read_mentions(doc) for doc in self.nlp.pipe(missing)]
        with self._lock:
            for text, found in zip(missing, read, strict=True):
                self._mentions[text] = found

    def mentions(self, text: str) -> tuple[Mention, ...]:
        with self._lock:
            found = self._mentions.get(text)
        if found is None:
            found = read_mentions(self.nlp(text))
            with self._lock:
                self._mentions[text] = found
        return found

    def _cosines(self, left: list[str], right: list[str]) -> np.ndarray:
        """(len(left), len(right)) cosine of the phrases (each embedded once per process)."""
        words = list(dict.fromkeys(left + right))
        with self._lock:
            missing = [w for w in words if w not in self._vectors]
        if missing:
            rows = self._embed(missing)
            with self._lock:
                for w, row in zip(missing, rows, strict=True):
                    self._vectors[w] = row
        with self._lock:
            vectors = {w: self._vectors.get(w) for w in words}
        if any(v is None for v in vectors.values()):  # evicted meanwhile by another thread
            rows = self._embed(words)
            vectors = dict(zip(words, rows, strict=True))
        a = np.array([vectors[w] for w in left]).reshape(len(left), -1)
        b = np.array([vectors[w] for w in right]).reshape(len(right), -1)
        return a @ b.T

    def relevance(self, asked: list[str], told: list[str]) -> np.ndarray:
        """(len(asked), len(told)) cross-encoder logits of "my <told>" for the query "my <asked>"
        (each pair scored once per process); -inf without a cross-encoder."""
        out = np.full((len(asked), len(told)), -np.inf)
        if self._relate is None or not asked or not told:
            return out
        for i, q in enumerate(asked):
            with self._lock:
                missing = list(dict.fromkeys(m for m in told if (q, m) not in self._relevance))
            if missing:
                scores = self._relate(f"my {q}", [f"my {m}" for m in missing])
                with self._lock:
                    for m, score in zip(missing, scores, strict=True):
                        self._relevance[(q, m)] = float(score)
            with self._lock:
                known = [self._relevance.get((q, m)) for m in told]
            if any(k is None for k in known):  # evicted meanwhile by another thread
                known = [float(x) for x in self._relate(f"my {q}", [f"my {m}" for m in told])]
            out[i] = known
        return out

    def head_similarity(self, question: Mention, memory: Mention) -> float:
        if question.name or memory.name:
            return float(question.head.casefold() == memory.head.casefold())
        return float(self._cosines([question.head], [memory.head])[0, 0])

    def _same_possessor(self, q: str | None, m: str | None) -> bool | None:
        """True / False when both are said; None when either is not (nothing to compare)."""
        if q is None or m is None:
            return None
        if q == m:
            return True
        if SPEAKER in (q, m):
            return False
        return bool(self._cosines([q], [m])[0, 0] >= self.thresholds.possessor)

    def compare(self, question: str, memory: str) -> Comparison:
        asked = self.mentions(question)
        if not asked:
            return NO_COMPARISON
        told = self.mentions(memory)
        if not told:
            return Comparison(len(asked), 0, 0, 0.0, sum(q.name for q in asked))
        heads = self._cosines([q.head for q in asked], [m.head for m in told])
        general = self.relevance([q.head for q in asked], [m.head for m in told]) \
            if np.isfinite(self.thresholds.relevance) else np.full(heads.shape, -np.inf)
        for i, q in enumerate(asked):
            for j, m in enumerate(told):
                if q.name or m.name:
                    heads[i, j] = float(q.head.casefold() == m.head.casefold())
                    general[i, j] = -np.inf
        agreeing = conflicting = rivals = 0
        for i, q in enumerate(asked):
            same_head = (heads[i] >= self.thresholds.head) | (general[i] >= self.thresholds.relevance)
            # an agreeing head must belong to the same person (said, or the subject that has it)
            owners = [self._same_possessor(q.possessor, m.possessor or m.owner) for m in told]
            if any(h and o is not False for h, o in zip(same_head, owners, strict=True)):
                agreeing += 1
                continue
            # the same head with another owner is a rival; another head is one only in the same
            # frame said by name ("my neighbour's ..."): nearly everything a person tells is "my" something
            named_frame = q.possessor not in (None, SPEAKER)
            if any(h and o is False for h, o in zip(same_head, owners, strict=True)) or (named_frame and any(
                    self._same_possessor(q.possessor, m.possessor) is True for m in told)):
                conflicting += 1
            elif not q.name and any(h >= self.thresholds.rival and not m.name for h, m in zip(heads[i], told, strict=True)):
                rivals += 1
        names = {m.head.casefold() for m in told if m.name}
        missing = sum(q.name and q.head.casefold() not in names for q in asked)
        return Comparison(len(asked), agreeing, conflicting, float(heads.max(axis=1).mean()), missing, rivals)


def build_reader(embed: Callable[[list[str]], np.ndarray], thresholds: Thresholds,
                 relate: Callable[[str, list[str]], np.ndarray] | None = None) -> EntityReader | None:
    """The reader on the shipped spaCy pipeline (relate: the verifier's score, for hypernyms); None
    (one log line) when it cannot load: the decision then sees no mentions in any text."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        return EntityReader(load_parser(), embed, thresholds, relate=relate)
    except ParserUnavailable as exc:
        log.error("%s; recall decides without reading what the question names", exc)
        return None
