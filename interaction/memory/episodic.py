"""Episodic and conversation memory (reference §4.6): one Chroma collection per user, two documents
per saved session, embedded locally with MiniLM (text memory never leaves the machine)."""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from chromadb.api import ClientAPI
from chromadb.api.models.Collection import Collection

from common.clock import Clock
from common.embedding.chroma import NadineEmbeddingFunction
from common.store.ids import is_valid_user_id
from interaction.memory.chroma_store import collection_name, open_collection
from interaction.memory.contracts import EpisodicSave, MemoryHit, TranscriptTurn
from interaction.memory.documents import Deleted, forget_document

log = logging.getLogger("nadine.memory.episodic")

MemoryType = Literal["episode", "conversation"]
UNKNOWN_NAMES = {"", "unknown"}


def is_known_user(user_id: str | None, user_name: str | None) -> bool:
    return is_valid_user_id(user_id) and (user_name or "").strip().lower() not in UNKNOWN_NAMES


def conversation_text(transcript: list[TranscriptTurn]) -> str:
    return "\n".join(f"{'User' if t.role == 'user' else 'Nadine'}: {t.text}" for t in transcript)


@dataclass(frozen=True)
class StoredMemory:
    """One document of a user's collection with its cosine similarity to a query."""

    text: str
    similarity: float
    timestamp: str | None
    memory_type: MemoryType
    session: str | None  # both documents of one save share it

    def hit(self) -> MemoryHit:
        return MemoryHit(self.text, self.similarity, self.timestamp, self.memory_type)


class EpisodicMemory:
    def __init__(self, client: ClientAPI, function: NadineEmbeddingFunction, clock: Clock) -> None:
        self._client = client
        self._function = function
        self._clock = clock
        self._lock = threading.Lock()

    def _collection(self, user_id: str, create: bool) -> Collection | None:
        return open_collection(self._client, collection_name(user_id), self._function, create=create)

    @contextmanager
    def locked_collection(self, user_id: str, create: bool) -> Iterator[Collection | None]:
        """The user's collection (None: none yet, or an invalid id) under this store's lock, for the
        other kinds of document that live in it (interaction/memory/explicit_memories.py)."""
        with self._lock:
            yield self._collection(user_id, create) if is_valid_user_id(user_id) else None

    def save(
        self, user_id: str, user_name: str, transcript: list[TranscriptTurn], summary: EpisodicSave
    ) -> bool:
        if not is_known_user(user_id, user_name):
            log.info("episode not saved: user %r / %r is not identified", user_id, user_name)
            return False
        now: datetime = self._clock.now()
        session = f"{now.strftime('%Y%m%d_%H%M%S')}_{uuid.uuid4().hex[:6]}"
        base = {"user_id": user_id, "user_name": user_name, "timestamp": now.isoformat(), "session": session}
        docs = {"episode": summary.as_text(), "conversation": conversation_text(transcript) or summary.as_text()}
        with self._lock:
            collection = self._collection(user_id, create=True)
            assert collection is not None
            collection.add(
                ids=[f"{session}_{kind}" for kind in docs],
                documents=list(docs.values()),
                metadatas=[{**base, "memory_type": kind} for kind in docs],
            )
        log.info("episode saved for %s (session %s)", user_id, session)
        return True

    def query(self, user_id: str, text: str, memory_type: MemoryType, n: int = 1) -> list[StoredMemory]:
        """The n most similar documents of one type, best first ([] without a collection)."""
        if not is_valid_user_id(user_id) or not text.strip():
            return []
        with self._lock:
            collection = self._collection(user_id, create=False)
            if collection is None:
                return []
            count = collection.count()
            if count == 0:
                return []
            res = collection.query(
                query_texts=[text], n_results=min(n, count), where={"memory_type": memory_type},
                include=["documents", "metadatas", "distances"],
            )
        out = []
        for doc, meta, dist in zip(res["documents"][0], res["metadatas"][0], res["distances"][0], strict=True):
            meta = meta or {}
            if meta.get("user_id") not in (None, user_id):  # a foreign document never leaves
                log.warning("collection of %s holds a document of %s; ignored", user_id, meta.get("user_id"))
                continue
            out.append(StoredMemory(
                doc or "", 1.0 - float(dist), _str(meta.get("timestamp")), memory_type, _str(meta.get("session")),
            ))
        return out

    def best(self, user_id: str, text: str) -> tuple[MemoryHit | None, MemoryHit | None]:
        """The best episode and the best conversation for the latest message."""
        episode = self.query(user_id, text, "episode")
        conversation = self.query(user_id, text, "conversation")
        return (episode[0].hit() if episode else None, conversation[0].hit() if conversation else None)

    def session_document(self, user_id: str, session: str, memory_type: MemoryType) -> MemoryHit | None:
        """The document of one type saved in the same session (fusion pairs an episode with it)."""
        with self._lock:
            collection = self._collection(user_id, create=False)
            if collection is None:
                return None
            got = collection.get(
                where={"$and": [{"session": session}, {"memory_type": memory_type}]},
                include=["documents", "metadatas"],
            )
        if not got["ids"]:
            return None
        meta = (got["metadatas"] or [{}])[0] or {}
        return MemoryHit((got["documents"] or [""])[0] or "", 0.0, _str(meta.get("timestamp")), memory_type)

    def forget_document(self, user_id: str, doc_id: str) -> Deleted | None:
        """Delete one document (an explicit memory, an episode with its conversation)."""
        if not is_valid_user_id(user_id):
            return None
        with self._lock:
            return forget_document(self._client, user_id, doc_id)

    def forget(self, user_id: str) -> int:
        """Delete the user's collection; returns the number of documents removed."""
        if not is_valid_user_id(user_id):
            return 0
        with self._lock:
            collection = self._collection(user_id, create=False)
            if collection is None:
                return 0
            count = collection.count()
            self._client.delete_collection(collection.name)
        return count


def _str(value: object) -> str | None:
    return None if value is None else str(value)
