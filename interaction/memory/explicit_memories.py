"""Explicit memories: facts a person asked Nadine to remember ("please remember that ...").

Each one is a document of kind "explicit_memory" in the person's own episodic Chroma collection
(common contract: metadata kind, occurred_at ISO 8601, occurred_ts epoch seconds, source_turn), so
the retrieval core finds it like any other candidate, forgetting the person removes it with the
collection, and forgetting just it is interaction/forget.forget_one_memory (the document, then its words
in the saved sessions). `search` is the one
place this module is queried by meaning; the retrieval core can take its place without touching the
dialogue.
"""

from __future__ import annotations

import logging
import uuid

from common.clock import Clock
from common.store.ids import is_valid_user_id
from interaction.memory.contracts import ExplicitMemory
from interaction.memory.episodic import EpisodicMemory

log = logging.getLogger("nadine.memory.explicit")

KIND = "explicit_memory"


class ExplicitMemories:
    """Explicit memories in the collections of an EpisodicMemory, under its lock."""

    def __init__(self, episodic: EpisodicMemory, clock: Clock) -> None:
        self._episodic = episodic
        self._clock = clock

    def add(self, user_id: str, user_name: str, text: str, source_turn: str | None) -> ExplicitMemory | None:
        """Store one fact for a known user (None for an unknown user or an empty fact)."""
        text = " ".join(text.split())
        if not is_valid_user_id(user_id) or not text:
            return None
        now = self._clock.now()
        memory_id = f"explicit_{now.strftime('%Y%m%d_%H%M%S')}_{uuid.uuid4().hex[:6]}"
        meta = {
            "user_id": user_id, "user_name": user_name, "kind": KIND, "memory_type": KIND,
            "occurred_at": now.isoformat(), "occurred_ts": now.timestamp(), "timestamp": now.isoformat(),
            "source_turn": source_turn or "",
        }
        with self._episodic.locked_collection(user_id, create=True) as collection:
            assert collection is not None
            collection.add(ids=[memory_id], documents=[text], metadatas=[meta])
        log.info("explicit memory %s stored for %s", memory_id, user_id)
        return ExplicitMemory(memory_id, text, meta["occurred_at"], source_turn)

    def list(self, user_id: str) -> list[ExplicitMemory]:
        """The user's explicit memories, oldest first."""
        with self._episodic.locked_collection(user_id, create=False) as collection:
            if collection is None:
                return []
            got = collection.get(where={"kind": KIND}, include=["documents", "metadatas"])
        rows = [_memory(i, d, m, 0.0) for i, d, m in zip(got["ids"], got["documents"] or [], got["metadatas"] or [],
                                                          strict=True) if (m or {}).get("user_id") == user_id]
        return sorted(rows, key=lambda m: m.occurred_at)

    def search(self, user_id: str, query: str, n: int = 3) -> list[ExplicitMemory]:
        """The n explicit memories most similar to the query, best first."""
        if not query.strip():
            return []
        with self._episodic.locked_collection(user_id, create=False) as collection:
            if collection is None:
                return []
            count = len(collection.get(where={"kind": KIND}, include=[])["ids"])
            if count == 0:
                return []
            res = collection.query(query_texts=[query], n_results=min(n, count), where={"kind": KIND},
                                   include=["documents", "metadatas", "distances"])
        out = []
        for i, d, m, dist in zip(res["ids"][0], res["documents"][0], res["metadatas"][0], res["distances"][0],
                                 strict=True):
            if (m or {}).get("user_id") == user_id:  # a foreign document never leaves
                out.append(_memory(i, d, m, 1.0 - float(dist)))
        return out


def _memory(memory_id: str, doc: str | None, meta: dict | None, similarity: float) -> ExplicitMemory:
    meta = meta or {}
    return ExplicitMemory(memory_id, doc or "", str(meta.get("occurred_at") or ""),
                          str(meta.get("source_turn") or "") or None, similarity)
