"""Episodic and conversation memory: one Chroma collection per user, embedded locally
with MiniLM (text memory never leaves the machine).

A saved session is its summary (memory_type "episode"), its transcript ("conversation", kept for the
reference's queries) and one "turn" document per thing the person said: the turn with a little
neighbouring context, the speaker, the session id and the time it was said. The transcript is one
embedding that MiniLM truncates after ~256 word pieces; the turns are what the retrieval core ranks
(a session ranks by its best turn). Every document carries `kind`, `occurred_at` (ISO 8601) and
`occurred_ts` (epoch seconds): when it happened, which for a replayed conversation (LoCoMo) is the
session's own date, never "now".

Forgetting one memory rewrites every saved session that holds it (forget_words): its turns and
Nadine's replies to them leave the transcript, the summary is made again from what is left, and the
turn documents whose text changed are embedded again, under new ids so that Chroma's log records of
the old ones can be blanked (common/store/forget.py purge_chroma_documents)."""

from __future__ import annotations

import json
import logging
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Literal

import numpy as np
from chromadb.api import ClientAPI
from chromadb.api.models.Collection import Collection

from common.clock import Clock
from common.embedding.chroma import NadineEmbeddingFunction
from common.store.ids import is_valid_user_id
from interaction.memory.chroma_store import collection_name, open_collection
from interaction.memory.contracts import EpisodicSave, MemoryHit, TranscriptTurn
from interaction.memory.documents import SESSION_PARTS, Deleted, forget_document
from interaction.memory.forgotten import Forgotten, forgotten_turns
from interaction.memory.said_before import quoted

log = logging.getLogger("nadine.memory.episodic")

MemoryType = Literal["episode", "conversation"]
UNKNOWN_NAMES = {"", "unknown"}
TURN_IDS = "turn_ids"  # a conversation's metadata: JSON list of each line's turn id ("" for Nadine's)
DREW_ON = "drew_on"  # and a JSON list of each line's TranscriptTurn.drew_on (empty for the person's)
Role = Literal["user", "nadine"]
SPEAKERS: dict[str, Role] = {"User": "user", "Nadine": "nadine"}
# a session's summary made again from the turns left after a forget (the dialogue's model or the
# offline summary): transcript, the person's name
Summarizer = Callable[[list[TranscriptTurn], str], EpisodicSave]
# a change to one saved session's transcript: the transcript edited, and the indices of its lines that
# stay, in order (None: the session is left as it is)
_Edit = Callable[[list[TranscriptTurn]], tuple[list[TranscriptTurn], list[int] | None]]


def is_known_user(user_id: str | None, user_name: str | None) -> bool:
    return is_valid_user_id(user_id) and (user_name or "").strip().lower() not in UNKNOWN_NAMES


def conversation_text(transcript: list[TranscriptTurn]) -> str:
    return "\n".join(f"{'User' if t.role == 'user' else 'Nadine'}: {t.text}" for t in transcript)


def conversation_lines(text: str) -> list[tuple[Role, str]]:
    """(role, text) of each turn of a conversation document (a line without a speaker continues the
    turn before it)."""
    turns: list[tuple[Role, str]] = []
    for line in text.splitlines():
        label, sep, said = line.partition(": ")
        if sep and label in SPEAKERS:
            turns.append((SPEAKERS[label], said))
        elif turns:
            turns[-1] = (turns[-1][0], f"{turns[-1][1]}\n{line}")
    return turns


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
    def __init__(
        self, client: ClientAPI, function: NadineEmbeddingFunction, clock: Clock, context_turns: int = 1
    ) -> None:
        self._client = client
        self._function = function
        self._clock = clock
        self._context_turns = context_turns
        self._lock = threading.Lock()
        self.writes = 0  # bumped on every save / forget: readers' caches compare it

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
        began = transcript[0].at if transcript else now
        base = {"user_id": user_id, "user_name": user_name, "timestamp": now.isoformat(), "session": session}
        docs = {"episode": summary.as_text(), "conversation": conversation_text(transcript) or summary.as_text()}
        ids = [f"{session}_{kind}" for kind in docs]
        texts = list(docs.values())
        metas = [{**base, **_when(began), "memory_type": kind, "kind": kind} for kind in docs]
        metas[1].update(_line_ids(transcript))
        explicit, kept_from = self._explicit(user_id)
        for i, turn in enumerate(transcript):
            if turn.role != "user" or not turn.text.strip():
                continue
            # the explicit memory stands for this turn: kept from it ("Can you remember my bike lock
            # code? It's 8462." kept as "my bike lock code is 8462"), or said again in it
            if (turn.turn_id and turn.turn_id in kept_from) or any(e in turn.text.casefold() for e in explicit):
                continue
            quote = quoted(transcript, i)
            ids.append(f"{session}_turn{i:04d}")
            texts.append(self._with_context(transcript, i, quote))
            metas.append({**base, **_when(turn.at), "memory_type": "turn", "kind": "turn", "turn_index": i,
                          "speaker": user_name, "quote": quote, "turn_id": turn.turn_id or "",
                          "answers_question": turn.answers_question, "farewell": turn.farewell})
        with self._lock:
            collection = self._collection(user_id, create=True)
            assert collection is not None
            collection.add(ids=ids, documents=texts, metadatas=metas)  # one call: never half a session
            self.writes += 1
        log.info("episode saved for %s (session %s)", user_id, session)
        return True

    def _explicit(self, user_id: str) -> tuple[list[str], set[str]]:
        """The user's explicit memories ("please remember that ..."), casefolded, and the turns they
        were kept from."""
        with self._lock:
            collection = self._collection(user_id, create=False)
            if collection is None:
                return [], set()
            got = collection.get(where={"kind": "explicit_memory"}, include=["documents", "metadatas"])
        texts = [d.casefold() for d in got["documents"] or [] if d and d.strip()]
        return texts, {str(m.get("source_turn")) for m in got["metadatas"] or [] if m and m.get("source_turn")}

    def _with_context(self, transcript: list[TranscriptTurn], i: int, quote: str) -> str:
        """The turn as quoted after the turns just before it ("Nadine: ..." then the turn): an answer
        such as "yes, last Sunday" means little without the question it answers. The person's own
        words carry no name label (the speaker is in the metadata; a replayed transcript such as
        LoCoMo's already names its speakers in the text)."""
        lines = transcript[max(0, i - self._context_turns): i]
        return "\n".join([*(t.text if t.role == "user" else f"Nadine: {t.text}" for t in lines), quote])


    def documents(self, user_id: str) -> tuple[list[str], list[str], list[dict], list] | None:
        """Every document of the user's collection with its stored embedding (the retrieval core's
        candidates); None without a collection."""
        if not is_valid_user_id(user_id):
            return None
        with self._lock:
            collection = self._collection(user_id, create=False)
            if collection is None:
                return None
            got = collection.get(include=["documents", "metadatas", "embeddings"])
        metas = [m or {} for m in (got["metadatas"] or [])]
        embeddings = got["embeddings"] if got["embeddings"] is not None else []
        return list(got["ids"]), [d or "" for d in (got["documents"] or [])], metas, list(embeddings)

    def told_turns(self, user_id: str) -> list[TranscriptTurn]:
        """What the person told in their saved sessions (not an answer to Nadine's question, nor a
        goodbye), the latest first."""
        if not is_valid_user_id(user_id):
            return []
        with self._lock:
            collection = self._collection(user_id, create=False)
            if collection is None:
                return []
            got = collection.get(where={"kind": "turn"}, include=["metadatas"])
        turns = [TranscriptTurn("user", str(m["quote"]), _datetime(m.get("occurred_at")) or self._clock.now(),
                                str(m.get("turn_id") or "") or None)
                 for m in (m or {} for m in got["metadatas"] or [])
                 if m.get("quote") and m.get("user_id") in (None, user_id)
                 and not m.get("answers_question") and not m.get("farewell")]
        return sorted(turns, key=lambda t: t.at, reverse=True)

    def count(self, user_id: str) -> int:
        """Documents in the user's collection (0 without one): with `writes`, what tells a reader's
        cache that a writer outside this object (explicit memories, another process) added some."""
        if not is_valid_user_id(user_id):
            return 0
        with self._lock:
            collection = self._collection(user_id, create=False)
            return collection.count() if collection is not None else 0

    def embed_query(self, text: str) -> np.ndarray:
        """The question in the collection's vector space."""
        return np.asarray(self._function([text])[0], dtype=np.float32)

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
            self.writes += 1
            return forget_document(self._client, user_id, doc_id)

    def forget_words(self, user_id: str, forgotten: Forgotten, summarize: Summarizer) -> Deleted | None:
        """Take a forgotten memory out of every saved session of the user that holds it (see the module
        docstring); other sessions and documents are not touched. Returns the ids replaced or deleted
        (None: nothing held it)."""
        if not forgotten:
            return None

        def without(transcript: list[TranscriptTurn]) -> list[int] | None:
            gone = forgotten_turns(transcript, forgotten)
            return [i for i in range(len(transcript)) if i not in gone] if gone else None

        deleted = self._rewrite_sessions(user_id, lambda t: (t, without(t)), summarize)
        if deleted is not None:
            log.info("a forgotten memory of %s left %d documents", user_id, len(deleted.doc_ids))
        return deleted

    def reword_turn(self, user_id: str, turn_id: str, said: str, corrected: str, old: str, new: str,
                    summarize: Summarizer) -> Deleted | None:
        """A statement of an earlier session put right ("I meant Kinsale, not Cork"): the person's turn
        `turn_id` that said `said` (the whole turn, or the part of it kept as asked: "please remember
        that ...") keeps the `corrected` words, Nadine's reply to it the new value for the old, and the
        session's summary and documents are made again from it. Returns the ids replaced (None: no
        saved session holds the turn)."""

        def reworded(transcript: list[TranscriptTurn]) -> tuple[list[TranscriptTurn], list[int] | None]:
            at = next((i for i, t in enumerate(transcript) if t.role == "user" and said in t.text
                       and (t.turn_id or "") == turn_id), None)
            if at is None:
                return transcript, None
            out = list(transcript)
            out[at] = replace(out[at], text=out[at].text.replace(said, corrected))
            if at + 1 < len(out) and out[at + 1].role == "nadine":
                out[at + 1] = replace(out[at + 1], text=out[at + 1].text.replace(old, new))
            return out, list(range(len(out)))

        return self._rewrite_sessions(user_id, reworded, summarize)

    def _rewrite_sessions(self, user_id: str, edit: _Edit, summarize: Summarizer) -> Deleted | None:
        """Every saved session of the user whose transcript `edit` changes is written again as edited."""
        if not is_valid_user_id(user_id):
            return None
        with self._lock:
            collection = self._collection(user_id, create=False)
            if collection is None:
                return None
            got = collection.get(include=["documents", "metadatas"])
            sessions: dict[str, list[_Doc]] = {}
            for doc_id, text, meta in zip(got["ids"], got["documents"] or [], got["metadatas"] or [], strict=True):
                meta = meta or {}
                kind = str(meta.get("kind") or meta.get("memory_type"))
                if meta.get("session") and kind in SESSION_PARTS and meta.get("user_id") in (None, user_id):
                    sessions.setdefault(str(meta["session"]), []).append(_Doc(doc_id, kind, text or "", meta))
            change = _Change()
            for docs in sessions.values():
                self._rewrite_session(docs, edit, summarize, change)
            if not change.old:
                return None
            if change.ids:  # added before the old ones go: a failing embedder loses nothing
                collection.add(ids=change.ids, documents=change.texts, metadatas=change.metas)
            collection.delete(ids=change.old)
            if change.renumbered:
                collection.update(ids=list(change.renumbered), metadatas=list(change.renumbered.values()))
            self.writes += 1
        return Deleted(str(collection.id), change.old, turn_ids=frozenset(change.turns))

    def _rewrite_session(self, docs: list[_Doc], edit: _Edit, summarize: Summarizer, change: _Change) -> None:
        conversation = next((d for d in docs if d.kind == "conversation"), None)
        if conversation is None:
            return
        lines = conversation_lines(conversation.text)
        turn_docs = {d.meta["turn_index"]: d for d in docs if d.kind == "turn" and isinstance(d.meta.get("turn_index"), int)}
        try:
            ids = [str(i) for i in json.loads(str(conversation.meta.get(TURN_IDS) or "[]"))]
        except ValueError:
            ids = []
        ids = ids if len(ids) == len(lines) else [""] * len(lines)
        try:
            drew = [frozenset(str(i) for i in d) for d in json.loads(str(conversation.meta.get(DREW_ON) or "[]"))]
        except (ValueError, TypeError):
            drew = []
        drew = drew if len(drew) == len(lines) else [frozenset()] * len(lines)
        at = _datetime(conversation.meta.get("occurred_at")) or self._clock.now()
        transcript = []
        for i, (role, text) in enumerate(lines):
            doc = turn_docs.get(i)
            if doc is not None:
                at = _datetime(doc.meta.get("occurred_at")) or at
                ids[i] = ids[i] or str(doc.meta.get("turn_id") or "")
            answers = doc is not None and bool(doc.meta.get("answers_question"))
            farewell = doc is not None and bool(doc.meta.get("farewell"))
            transcript.append(TranscriptTurn(role, text, at, ids[i] or None, answers_question=answers, farewell=farewell,
                                             drew_on=drew[i]))
        edited, left = edit(transcript)
        if left is None:
            return
        gone = set(range(len(transcript))) - set(left)
        kept = [edited[i] for i in left]
        change.turns.update(t.turn_id for i, t in enumerate(transcript) if i in gone and t.turn_id)
        if not any(t.role == "user" for t in kept):  # nothing else was said: the session goes whole
            change.old += [d.doc_id for d in docs]
            return
        tag = uuid.uuid4().hex[:6]
        change.replace(conversation, conversation_text(kept), {**conversation.meta, **_line_ids(kept)}, tag)
        for episode in (d for d in docs if d.kind == "episode"):
            change.replace(episode, summarize(kept, str(episode.meta.get("user_name") or "The person")).as_text(),
                           episode.meta, tag)
        for index, doc in turn_docs.items():
            if index in gone:
                change.old.append(doc.doc_id)
                continue
            now = left.index(index)
            quote = quoted(edited, index, set(left))
            meta = {**doc.meta, "turn_index": now, "quote": quote}
            text = self._with_context(kept, now, quote)
            if text != doc.text:
                change.replace(doc, text, meta, tag)
            elif now != index:
                change.renumbered[doc.doc_id] = meta

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
            self.writes += 1
        return count


@dataclass(frozen=True)
class _Doc:
    doc_id: str
    kind: str
    text: str
    meta: dict


@dataclass
class _Change:
    """What a forget does to a collection: ids deleted, documents added in their place, turn
    documents that only move up in their session (metadata updated)."""

    old: list[str] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    metas: list[dict] = field(default_factory=list)
    renumbered: dict[str, dict] = field(default_factory=dict)
    turns: set[str] = field(default_factory=set)  # ids of the person's turns taken out

    def replace(self, doc: _Doc, text: str, meta: dict, tag: str) -> None:
        self.old.append(doc.doc_id)
        self.ids.append(f"{doc.doc_id.split('~')[0]}~{tag}")
        self.texts.append(text)
        self.metas.append(meta)


def _line_ids(transcript: list[TranscriptTurn]) -> dict[str, str]:
    """A conversation document's metadata naming each line: the person's turn ids, what Nadine's said back."""
    return {TURN_IDS: json.dumps([t.turn_id or "" for t in transcript]),
            DREW_ON: json.dumps([sorted(t.drew_on) for t in transcript])}


def _datetime(value: object) -> datetime | None:
    try:
        return datetime.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


def _when(at: datetime) -> dict:
    return {"occurred_at": at.isoformat(), "occurred_ts": at.timestamp()}


def _str(value: object) -> str | None:
    return None if value is None else str(value)
