"""A person's Chroma documents listed and removed one by one, without an embedding function (so the
CLI and the inspector read them without loading a model, and a collection is never rebuilt here).

Every document carries metadata `kind` (episode, conversation, turn, explicit_memory, ...;
older saves call it memory_type) and `occurred_at` / `timestamp`. An episode, its conversation and
its turns share a `session`: forgetting the episode or the conversation forgets them all, since each
holds what the others say.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from chromadb.api import ClientAPI
from chromadb.errors import NotFoundError

from common.store.ids import validate_user_id
from interaction.memory.chroma_store import collection_name

log = logging.getLogger("nadine.memory.documents")

SESSION_KINDS = ("episode", "conversation")
SESSION_PARTS = (*SESSION_KINDS, "turn")


@dataclass(frozen=True)
class StoredDocument:
    doc_id: str
    kind: str
    text: str
    occurred_at: str | None
    metadata: dict[str, Any]


def _collection(client: ClientAPI, user_id: str):
    try:
        return client.get_collection(collection_name(validate_user_id(user_id)), embedding_function=None)
    except (NotFoundError, ValueError):
        return None


def _kind(meta: dict[str, Any]) -> str:
    return str(meta.get("kind") or meta.get("memory_type") or "unknown")


def list_documents(client: ClientAPI, user_id: str) -> list[StoredDocument]:
    """Every document of the person's collection, oldest first ([] without a collection)."""
    collection = _collection(client, user_id)
    if collection is None:
        return []
    got = collection.get(include=["documents", "metadatas"])
    docs = []
    for doc_id, text, meta in zip(got["ids"], got["documents"] or [], got["metadatas"] or [], strict=False):
        meta = dict(meta or {})
        if meta.get("user_id") not in (None, user_id):  # a foreign document is never shown
            continue
        when = meta.get("occurred_at") or meta.get("timestamp")
        docs.append(StoredDocument(doc_id, _kind(meta), text or "", str(when) if when else None, meta))
    return sorted(docs, key=lambda d: d.occurred_at or "")


@dataclass(frozen=True)
class Deleted:
    collection_id: str
    doc_ids: list[str]
    forgotten: StoredDocument | None = None  # the document asked for (its words go from the other documents)
    turn_ids: frozenset[str] = frozenset()  # the person's turns taken out of saved sessions (their ids)


def forget_document(client: ClientAPI, user_id: str, doc_id: str) -> Deleted | None:
    """Delete one document (with the rest of its session for an episode / conversation); None when
    the person has no such document."""
    collection = _collection(client, user_id)
    if collection is None:
        return None
    got = collection.get(ids=[doc_id], include=["documents", "metadatas"])
    if not got["ids"]:
        return None
    meta = (got["metadatas"] or [{}])[0] or {}
    ids, metas = [doc_id], [meta]
    if _kind(meta) in SESSION_KINDS and meta.get("session"):
        partners = collection.get(where={"session": str(meta["session"])}, include=["metadatas"])
        parts = [(i, m or {}) for i, m in zip(partners["ids"], partners["metadatas"] or [], strict=False)
                 if i != doc_id and _kind(m or {}) in SESSION_PARTS]
        ids += [i for i, _ in parts]
        metas += [m for _, m in parts]
    collection.delete(ids=ids)
    when = meta.get("occurred_at") or meta.get("timestamp")
    asked = StoredDocument(doc_id, _kind(meta), (got["documents"] or [""])[0] or "", str(when) if when else None, meta)
    # the person's turns that went with it: the profile facts learned in them go too
    turns = frozenset(str(m["turn_id"]) for m in metas if _kind(m) == "turn" and m.get("turn_id"))
    return Deleted(str(collection.id), ids, asked, turns)
