"""Interaction's part of forgetting a user (nadine/memory/forget_user, the CLI, "forget me").

Interaction owns what only it writes or holds: the Chroma collection and the scene index (through
MemoryServices.forget_user), user_ids.json, the study logs; it also removes the user's folder in
case perception is not running. Chroma keeps a deleted collection's rows in SQLite free pages and
its HNSW folder on disk, so those are purged too.
"""

from __future__ import annotations

import logging
import re
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from common.config import NadineSettings
from common.messages import ForgetMemory
from common.store import DataLayout, ProfileStore
from common.store.forget import (
    forget_scene,
    forget_user_files,
    known_names,
    new_pseudonym,
    pseudonymise_study_logs,
    purge_chroma_documents,
    purge_chroma_remnants,
)
from interaction.confirmation import next_step, read_reply
from interaction.memory.chroma_store import episodic_persist_dir
from interaction.memory.contracts import MemoryServices
from interaction.memory.documents import Deleted

if TYPE_CHECKING:
    from interaction.agents.context import AgentDeps

log = logging.getLogger("nadine.interaction.forget")

VACUUM_ATTEMPTS = 5


def _purge_chroma(persist_dir: Path) -> int:
    for attempt in range(1, VACUUM_ATTEMPTS + 1):
        try:
            return purge_chroma_remnants(persist_dir)
        except sqlite3.OperationalError as exc:  # Chroma's own connection (or the server's) is mid-transaction
            if attempt == VACUUM_ATTEMPTS:
                log.error("could not vacuum %s (%s): deleted rows stay in free pages until the next forget",
                          persist_dir, exc)
                return 0
            time.sleep(0.2 * attempt)
    return 0


def forget_in_interaction(
    settings: NadineSettings, layout: DataLayout, services: MemoryServices | None, user_id: str,
    names: list[str] | None = None, pseudonym: str | None = None,
) -> dict[str, int]:
    """Erase the user in interaction and on disk; returns counts per kind for user_forgotten.
    `names`: what the dialogue calls them (in case user_ids.json no longer has it)."""
    all_names = known_names(layout, user_id, names or ())
    pseudonym = pseudonym or new_pseudonym()
    removed = dict(services.forget_user(user_id)) if services is not None else {}
    removed.update(forget_user_files(layout, user_id, all_names, pseudonym))
    persist_dir = episodic_persist_dir(settings.interaction.chroma, layout.chroma_dir)
    if persist_dir is not None:
        removed["chroma_folders"] = _purge_chroma(persist_dir)
    if settings.interaction.study.enabled:
        # the study record of the turn in flight ("yes, forget me") is written up to audio_timeout_s
        # later; a second pass gives it the same pseudonym as the rest
        timer = threading.Timer(settings.interaction.study.audio_timeout_s + 1.0, pseudonymise_study_logs,
                                (layout, user_id, all_names, pseudonym))
        timer.daemon = True
        timer.start()
    return removed


def forget_one_memory(
    layout: DataLayout, msg: ForgetMemory, now: datetime, forget_document: Callable[[str, str], Deleted | None] | None,
    chroma_embedded: bool = True,
) -> dict[str, int]:
    """Forget one memory (nadine/memory/forget_memory, the inspector, the CLI): a scene's files, a text
    memory through `forget_document` (interaction's live Chroma client, or the CLI's own when
    interaction is down), or a profile fact's records. The id was validated by the caller."""
    removed: dict[str, int] = {}
    if msg.kind == "moment":
        removed["scene_files"] = forget_scene(layout, msg.user_id, msg.memory_id)
    elif msg.kind == "fact":
        field, _, value = msg.memory_id.partition(":")
        removed["facts"] = ProfileStore(layout).forget_fact(msg.user_id, field, value, now)
    elif forget_document is not None:
        deleted = forget_document(msg.user_id, msg.memory_id)
        removed["text_memories"] = len(deleted.doc_ids) if deleted else 0
        if deleted and chroma_embedded:
            # Chroma keeps the added record (text included) in its log after a delete: drop it too
            removed["log_records"] = purge_chroma_documents(layout.chroma_dir, deleted.collection_id, deleted.doc_ids)
    return removed


FORGET_REQUEST = re.compile(
    r"\b(forget (?:about )?me|forget (?:everything|all) (?:you know )?about me|"
    r"(?:delete|erase|remove|wipe) (?:all )?(?:of )?my (?:data|information|info|memories|profile))\b",
    re.IGNORECASE,
)


NOTHING_STORED = "I don't know who you are yet, so I have nothing stored about you."


def forget_question(name: str | None) -> str:
    return (f"Do you want me to forget everything I know about you{', ' + name if name else ''}? "
            "This cannot be undone. Please say yes or no.")


FORGET_ASKED_AGAIN = ("Sorry, I'm not sure what you mean. Shall I erase everything I know about you? "
                      "Please answer yes or no.")
FORGET_KEPT = "All right, I will keep our memories."


@dataclass(frozen=True)
class PrivacyTurn:
    """A turn of the spoken forget flow, answered outside the dialogue graph."""

    reply: str
    intent: str  # forget_request | forget_confirmed | forget_cancelled
    forget_user_id: str | None = None


class ForgetConversation:
    """"Forget me" / "delete my data" -> a confirmation question -> only a clear yes forgets.

    An unclear answer is asked once more; a no, or a second unclear answer, keeps everything. A
    different person answering drops the question and goes on as a normal turn."""

    def __init__(self) -> None:
        self._pending: str | None = None  # the user id the question was put to
        self._asked_again = False

    def turn(self, text: str, user_id: str | None, name: str | None, deps: AgentDeps | None = None) -> PrivacyTurn | None:
        pending, self._pending = self._pending, None
        if pending is not None and pending == user_id:
            step = next_step(read_reply(deps, forget_question(name), text), self._asked_again)
            if step == "act":
                return PrivacyTurn(f"Done{', ' + name if name else ''}. I have forgotten everything I knew "
                                   "about you.", "forget_confirmed", pending)
            if step == "ask_again":
                self._pending, self._asked_again = pending, True
                return PrivacyTurn(FORGET_ASKED_AGAIN, "forget_request")
            return PrivacyTurn(FORGET_KEPT, "forget_cancelled")
        if not FORGET_REQUEST.search(text):
            return None
        return self.ask(user_id, name)

    def ask(self, user_id: str | None, name: str | None) -> PrivacyTurn:
        """Put the question (also when the turn's understanding, not the phrase above, heard "forget me")."""
        if user_id is None:
            return PrivacyTurn(NOTHING_STORED, "forget_request")
        self._pending, self._asked_again = user_id, False
        return PrivacyTurn(forget_question(name), "forget_request")
