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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from common.config import NadineSettings
from common.messages import ForgetMemory
from common.store import DataLayout, ProfileStore, SceneStore
from common.store.facts import same_value
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
from interaction.memory.episodic import Summarizer
from interaction.memory.forgotten import Forgotten

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


class TextMemory(Protocol):
    """Where a person's text memories live: interaction's services, or the CLI's own EpisodicMemory."""

    def forget_document(self, user_id: str, doc_id: str) -> Deleted | None: ...

    def forget_words(self, user_id: str, forgotten: Forgotten, summarize: Summarizer) -> Deleted | None: ...


def forget_one_memory(
    layout: DataLayout, msg: ForgetMemory, now: datetime, text_memory: TextMemory | None, summarize: Summarizer,
    chroma_embedded: bool = True, said: Iterable[str] = (),
) -> tuple[dict[str, int], Forgotten]:
    """Forget one memory (nadine/memory/forget_memory, the inspector, the CLI, a confirmed spoken
    request): a scene's files, a text memory (interaction's live Chroma client, or the CLI's own when
    interaction is down), or a profile fact's records; then, for a moment or an explicit memory, its
    words (and `said`: how the dialogue named it) wherever a saved session holds them, the session's
    summary made again by `summarize`, and for all but a fact the profile facts learned in its turns. The id was validated by the caller. Returns the counts per
    kind and what marks the memory in a conversation (for the one in progress)."""
    removed: dict[str, int] = {}
    texts, turn_ids = list(said), []
    memory_ids = [msg.memory_id] if msg.kind in ("moment", "explicit_memory") else []
    if msg.kind == "moment":
        scene = SceneStore(layout).get(msg.user_id, msg.memory_id)
        removed["scene_files"] = forget_scene(layout, msg.user_id, msg.memory_id)
        if scene is not None and scene.scene_type != "first_meeting":  # the anchor is Nadine's words, not said
            texts.append(scene.user_message or "")
            turn_ids.append(scene.turn_id)
    elif msg.kind == "fact":
        field, _, value = msg.memory_id.partition(":")
        profiles = ProfileStore(layout)
        # the words that told it go too, wherever a saved session or this one holds them: a forgotten
        # "I live in Porto" must not come back as what the person once said
        profile = profiles.load(msg.user_id)
        told = [r for r in profile.history(field) if same_value(r.value, value)] if profile is not None else []
        texts += [r.clause for r in told if r.clause]
        turn_ids += [r.source.turn_id for r in told if r.source.turn_id]
        removed["facts"] = profiles.forget_fact(msg.user_id, field, value, now)
        for part_field, part in _parts_of_the_job(profile, field, told):
            removed["facts"] += profiles.forget_fact(msg.user_id, part_field, part, now)
    deleted = []
    if msg.kind in ("explicit_memory", "episode") and text_memory is not None:
        gone = text_memory.forget_document(msg.user_id, msg.memory_id)
        removed["text_memories"] = len(gone.doc_ids) if gone else 0
        if gone is not None:
            deleted.append(gone)
            turn_ids += gone.turn_ids  # an episode's turns: what they told the profile goes with them
            if gone.forgotten is not None and gone.forgotten.kind == "explicit_memory":
                texts.append(gone.forgotten.text)
                source = str(gone.forgotten.metadata.get("source_turn") or "")
                turn_ids.append(source)
                # the request to keep it may also have been kept as a moment of its own (felt news
                # asked to be remembered): the same words, so it goes with them
                scenes = SceneStore(layout)
                for scene in scenes.list(msg.user_id) if source else []:
                    if scene.scene_type == "moment" and scene.turn_id == source:
                        removed["scene_files"] = removed.get("scene_files", 0) + forget_scene(layout, msg.user_id, scene.scene_id)
    forgotten = Forgotten.of(texts, turn_ids, memory_ids)
    # a forgotten fact takes only itself: the other facts its turns told stay
    removed.update(forget_words(layout, msg.user_id, forgotten, text_memory, summarize, chroma_embedded, deleted,
                                now if msg.kind != "fact" else None))
    return removed, forgotten


def _parts_of_the_job(profile, field: str, told: list) -> list[tuple[str, str]]:  # noqa: ANN001 - a UserProfile
    """A forgotten job's employer and workplace told in the same clause ("i'm a chemist at a paint
    factory in Malmö"): parts of the job, forgotten with it, so "what's my job?" is never answered
    "You work in Malmö"; any other fact its turns told stays."""
    from interaction.profile_wording import WORK_FIELDS

    clauses = {r.clause for r in told if r.clause}
    if profile is None or field not in WORK_FIELDS or not clauses:
        return []
    return [(f, r.value) for f in (*WORK_FIELDS, "location") if f != field for r in profile.history(f)
            if r.clause in clauses and (f != "location" or r.home is False)]


def forget_words(
    layout: DataLayout, user_id: str, forgotten: Forgotten, text_memory: TextMemory | None, summarize: Summarizer,
    chroma_embedded: bool, deleted: Sequence[Deleted] = (), now: datetime | None = None,
) -> dict[str, int]:
    """Take what was forgotten out of the saved sessions that hold it and the profile facts learned
    in its turns, then blank the log records of every document deleted or replaced (`deleted`: those
    already gone): Chroma keeps an added record, text included, in its log after a delete."""
    removed: dict[str, int] = {}
    rewritten = text_memory.forget_words(user_id, forgotten, summarize) if text_memory and forgotten else None
    if rewritten is not None:
        removed["session_documents"] = len(rewritten.doc_ids)
    turns = forgotten.turn_ids | (rewritten.turn_ids if rewritten else frozenset())
    if turns and now is not None:
        removed["fact_records"] = ProfileStore(layout).forget_turns(user_id, turns, now)
    ids = [i for d in [*deleted, rewritten] if d is not None for i in d.doc_ids]
    if ids and chroma_embedded:
        collection_id = next(d.collection_id for d in [*deleted, rewritten] if d is not None)
        removed["log_records"] = purge_chroma_documents(layout.chroma_dir, collection_id, ids)
    return removed


FORGET_REQUEST = re.compile(
    r"\b(forget (?:about )?me|forget (?:everything|all) (?:you know )?about me|"
    r"(?:delete|erase|remove|wipe) (?:all )?(?:of )?my (?:data|information|info|memories|profile))\b",
    re.IGNORECASE,
)


# the prepositions of exclusion (a closed class of English grammar): "everything except my name"
_EXCLUDING = {("except",), ("excepting",), ("besides",), ("apart", "from"), ("aside", "from"), ("other", "than"),
              ("save", "for")}
_EVERYTHING = {"everything", "all", "anything"}


def excepted(text: str) -> str | None:
    """What a request to forget keeps out of it ("forget everything except my gate code" -> "your gate
    code"), read from the parse: the object of a preposition of exclusion, or what "but" joins to
    "everything" ("everything but my name"); None when it keeps nothing out, or without the parser."""
    from interaction.offline.self_description import ParserUnavailable, load_parser
    from interaction.reported_speech import second_person

    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return None
    for t in doc:
        two = tuple(w.lower_ for w in doc[t.i:t.i + 2])
        width = 1 if two[:1] in _EXCLUDING or (t.lower_ == "but" and t.i > 0 and doc[t.i - 1].lower_ in _EVERYTHING) \
            else 2 if two in _EXCLUDING else 0
        start = t.i + width
        # the phrase kept out: the first word after the preposition that hangs on a word before it
        root = next((w for w in doc[start:] if w.head.i < start and w.pos_ in ("NOUN", "PROPN", "PRON")), None)
        if width and root is not None:
            return second_person(" ".join(w.text for w in root.subtree if w.i >= start))
    return None


def forget_narrowed(kept: str, name: str | None) -> str:
    """The answer to a request to forget all but something: one request forgets everything or one
    thing, so nothing is asked and nothing goes until they say which."""
    return (f"I can't forget everything but {kept}{', ' + name if name else ''}: I can forget everything I know "
            "about you, or one thing you name. Which would you like me to forget?")


# who is not known may still have memories under a name not said yet: "nothing stored" would be untrue
WHOSE_UNKNOWN = "I don't know who you are yet, so I can't tell which memories are yours."
NOTHING_STORED = (f"{WHOSE_UNKNOWN} I won't keep anything you've told me in this conversation. Tell me your "
                  "name, then ask me again, and I'll forget what you told me before as well.")


def forget_question(name: str | None) -> str:
    return (f"Do you want me to forget everything I know about you{', ' + name if name else ''}? "
            "This cannot be undone. Please say yes or no.")


# the answer may have asked to keep a part ("yes but keep my mum's birthday"): say what can be done
FORGET_ASKED_AGAIN = ("Sorry, I'm not sure what you mean. I can erase everything I know about you, or one "
                      "thing you name. Shall I erase everything? Please answer yes or no.")
FORGET_KEPT = "All right, I will keep our memories."


@dataclass(frozen=True)
class PrivacyTurn:
    """A turn of the spoken forget flow, answered outside the dialogue graph."""

    reply: str
    intent: str  # forget_request | forget_confirmed | forget_cancelled | forget_nobody_known | forget_narrowed
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
            step = next_step(read_reply(deps, forget_question(name), text), self._asked_again, text, forgetting=True)
            if step == "moved_on":  # kept, and the question they asked instead is answered as any turn
                return None
            if step == "act":
                return PrivacyTurn(f"Done{', ' + name if name else ''}. I have forgotten everything I knew "
                                   "about you.", "forget_confirmed", pending)
            if step == "ask_again":
                self._pending, self._asked_again = pending, True
                return PrivacyTurn(FORGET_ASKED_AGAIN, "forget_request")
            return PrivacyTurn(FORGET_KEPT, "forget_cancelled")
        if not FORGET_REQUEST.search(text):
            return None
        if user_id is not None and (kept := excepted(text)) is not None:
            return PrivacyTurn(forget_narrowed(kept, name), "forget_narrowed")
        return self.ask(user_id, name)

    def waiting_for(self, user_id: str | None) -> bool:
        """The question was put to this person and is not answered yet."""
        return self._pending is not None and self._pending == user_id

    def withdraw(self) -> None:
        """The conversation the question was put in is over: no later words answer it."""
        self._pending = None

    def ask(self, user_id: str | None, name: str | None) -> PrivacyTurn:
        """Put the question (also when the turn's understanding, not the phrase above, heard "forget me")."""
        if user_id is None:
            return PrivacyTurn(NOTHING_STORED, "forget_nobody_known")
        self._pending, self._asked_again = user_id, False
        return PrivacyTurn(forget_question(name), "forget_request")
