"""A user's text memories (every document of the Chroma collection but the whole-session transcript,
whose turns are candidates themselves) as a CandidatePool, cached until the collection changes (a
write through EpisodicMemory, or a different document count: explicit memories are added beside it).

Only what the person told is a candidate: a turn that is a question, a greeting or farewell, or a
request to recall or forget (interaction/memory/told.py), or that answered a question Nadine put
(stored with answers_question: "No, actually, keep it." to "do you want me to forget ...?") is
never recalled as a memory. Each turn is
read once (kept by document id across rebuilds of the pool).

A document is ranked by its words as meant (`meant`: "apointment" as "appointment"), quoted as said;
one with a misspelt word is embedded again as meant, once per text."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

import numpy as np

from interaction.memory.episodic import EpisodicMemory
from interaction.memory.retrieval.candidates import Candidate, CandidatePool

SKIPPED_KINDS = {"conversation"}  # truncated transcript: its turns are indexed one by one
READ_KINDS = {"turn"}  # what the person said as such; summaries and explicit memories are told by nature


def _ts(meta: dict) -> float | None:
    ts = meta.get("occurred_ts")
    if isinstance(ts, int | float):
        return float(ts)
    for key in ("occurred_at", "timestamp"):  # documents saved before occurred_ts existed
        try:
            return datetime.fromisoformat(str(meta[key])).timestamp()
        except (KeyError, ValueError):
            continue
    return None


def _candidate(doc_id: str, text: str, meta: dict) -> Candidate:
    kind = str(meta.get("kind") or meta.get("memory_type") or "episode")
    return Candidate(kind=kind, memory_id=doc_id, text=text, quote=str(meta.get("quote") or text),
                     occurred_ts=_ts(meta), group=str(meta.get("session") or doc_id))


# A replayed transcript (LoCoMo's) names its speaker in the turn's text: "Melanie: We went camping."
_SPEAKER_LABEL = re.compile(r"^[A-Z][\w.'-]*(?: [A-Z][\w.'-]*)?: (?=\S)")


def _spoken(text: str) -> str:
    """The words said, without a speaker label: the label is no part of whether they tell something
    (the memory-intent classifier read "Melanie: We went camping ..." as a recall request)."""
    return _SPEAKER_LABEL.sub("", text, count=1)


class TextPools:
    def __init__(self, memory: EpisodicMemory, embedder_name: str, dim: int,
                 told: Callable[[str], bool] | None = None,
                 embed: Callable[[list[str]], np.ndarray] | None = None,
                 meant: Callable[[list[str]], list[str]] | None = None) -> None:
        self._memory = memory
        self._name = embedder_name
        self._dim = dim
        self._cache: dict[str, tuple[tuple[int, int], CandidatePool]] = {}
        self._lock = threading.Lock()
        if told is None:
            from interaction.memory.told import is_told as told
        self._told = told
        self._read: dict[str, bool] = {}  # document id -> told
        self._embed = embed
        if meant is None and embed is not None:
            from interaction.memory_intent.misspelt import memories_as_meant as meant
        self._meant = meant
        self._respelled: dict[str, tuple[str, np.ndarray | None]] = {}  # text -> (as meant, its vector if new)

    def _as_meant(self, candidates: list[Candidate], vectors: np.ndarray) -> tuple[list[Candidate], np.ndarray]:
        """`candidates` ranked by their words as meant, a respelt one embedded again."""
        if self._meant is None or self._embed is None:
            return candidates, vectors
        new = [c.text for c in candidates if c.text not in self._respelled]
        new = list(dict.fromkeys(new))
        meant = dict(zip(new, self._meant(new), strict=True))
        changed = [text for text, m in meant.items() if m != text]
        embedded = self._embed([meant[t] for t in changed]) if changed else []
        again = dict(zip(changed, embedded, strict=True))
        self._respelled.update({t: (m, again.get(t)) for t, m in meant.items()})
        vectors = vectors.copy()
        out = []
        for i, c in enumerate(candidates):
            text, vector = self._respelled[c.text]
            if vector is not None:
                vectors[i] = vector
                c = replace(c, text=text)
            out.append(c)
        return out, vectors

    def _is_told(self, doc_id: str, meta: dict, text: str) -> bool:
        if str(meta.get("kind") or meta.get("memory_type")) not in READ_KINDS:
            return True
        if meta.get("answers_question") or meta.get("farewell"):  # a yes / no to Nadine's question, a goodbye
            return False
        told = self._read.get(doc_id)
        if told is None:
            told = self._read[doc_id] = self._told(_spoken(str(meta.get("quote") or text)))
        return told

    def pool(self, user_id: str) -> CandidatePool:
        version = (self._memory.writes, self._memory.count(user_id))
        with self._lock:
            cached = self._cache.get(user_id)
            if cached is not None and cached[0] == version:
                return cached[1]
        got = self._memory.documents(user_id)
        pool = CandidatePool.empty(self._name, self._dim)
        if got is not None:
            ids, docs, metas, vectors = got
            rows = [i for i, m in enumerate(metas)
                    if str(m.get("kind") or m.get("memory_type")) not in SKIPPED_KINDS
                    and m.get("user_id") in (None, user_id)  # a foreign document never leaves
                    and self._is_told(ids[i], m, docs[i])]
            if rows:
                items, rows_vectors = self._as_meant([_candidate(ids[i], docs[i], metas[i]) for i in rows],
                                                     np.asarray([vectors[i] for i in rows], dtype=np.float32))
                pool = CandidatePool(items, rows_vectors, self._name)
        with self._lock:
            self._cache[user_id] = (version, pool)
        return pool

    def forget(self, user_id: str) -> None:
        with self._lock:
            self._cache.pop(user_id, None)
