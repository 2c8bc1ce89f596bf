"""Forget a person, or one of their memories, everywhere: ask the running processes over MQTT
(nadine/memory/forget_user or forget_memory) so they also drop what they hold in memory (perception's
face gallery, interaction's scene index and Chroma client), wait for the nadine/memory/user_forgotten
of each process that was online when asked (their retained status), then erase on disk whatever is
left. Every step is idempotent. Used by `python -m scripts.memory forget` and the memory inspector.

Chroma is erased here only when interaction is not running: a second Chroma client on a live
database is not safe, and the running interaction erases it itself.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from common import topics as t
from common.bus import Bus, BusNotConnected
from common.clock import Clock
from common.config import NadineSettings
from common.messages import ForgetMemory, ForgetUser, UserForgotten
from common.store import DataLayout
from common.store.forget import forget_user_files, known_names, new_pseudonym, purge_chroma_remnants
from common.topics import PROCESSES

log = logging.getLogger("nadine.forget_everywhere")

ASKER = "memory-cli"  # the bus client name the request goes out under

class Answers:
    """Who is online (retained status), who was asked and who answered the forget request."""

    def __init__(self, user_id: str, memory_id: str | None = None) -> None:
        self.user_id = user_id
        self.memory_id = memory_id  # None: the whole person
        self.online: set[str] = set()
        self.asked: set[str] = set()  # online when the request went out: a process started later never got it
        self.answers: dict[str, dict[str, int]] = {}
        self._cond = threading.Condition()

    def on_status(self, spec: t.TopicSpec, msg: Any) -> None:
        process = spec.suffix.split("/", 1)[1]
        with self._cond:
            (self.online.add if msg.value == "online" else self.online.discard)(process)
            self._cond.notify_all()

    def ask(self) -> None:
        with self._cond:
            self.asked = {p for p in self.online if p in PROCESSES}

    @property
    def missing(self) -> set[str]:
        """Asked, still online (a process that stopped since does not hold the person any more) and
        silent."""
        with self._cond:
            return (self.asked & self.online) - set(self.answers)

    def on_forgotten(self, msg: UserForgotten) -> None:
        if msg.user_id == self.user_id and msg.memory_id == self.memory_id:
            with self._cond:
                self.answers[msg.process] = msg.removed
                self._cond.notify_all()

    def wait(self, timeout: float) -> set[str]:
        """Wait until every process asked answered (or went offline); returns the ones that did not."""
        with self._cond:
            self._cond.wait_for(lambda: not self.missing, timeout)
            return self.missing


def ask_processes(settings: NadineSettings, request: ForgetUser | ForgetMemory, timeout: float) -> Answers | None:
    """Publish forget_user / forget_memory to the running processes and wait for each one's
    user_forgotten (within `timeout`); None when no broker answers."""
    answers = Answers(request.user_id, request.memory_id if isinstance(request, ForgetMemory) else None)
    bus = Bus(ASKER, settings.common.mqtt, t.Topics(settings.common.topic_root))
    bus.subscribe_tree("status/+", answers.on_status)
    bus.subscribe(t.USER_FORGOTTEN, answers.on_forgotten)
    try:
        if not bus.start(wait_s=min(3.0, timeout)):
            log.warning("no broker answers: erasing on disk only (running processes keep what they hold in memory)")
            return None
        if not bus.sync(timeout):  # the retained statuses: who is online
            log.warning("the broker did not deliver the process statuses within %.0f s", timeout)
        answers.ask()
        spec = t.FORGET_MEMORY if isinstance(request, ForgetMemory) else t.FORGET_USER
        try:
            bus.publish(spec, request, wait_s=timeout)
        except BusNotConnected as exc:  # the broker went away: every process asked stays missing
            log.error("%s", exc)
            return answers
        missing = answers.wait(timeout)
        if missing:
            log.error("no answer from %s within %.0f s", ", ".join(sorted(missing)), timeout)
        return answers
    finally:
        bus.stop()


def _episodic(settings: NadineSettings, layout: DataLayout):
    """Interaction's episodic memory on its own Chroma client (only while interaction is down)."""
    from common.embedding.chroma import NadineEmbeddingFunction
    from common.embedding.registry import offline_text_embedder
    from interaction.memory.chroma_store import episodic_client
    from interaction.memory.episodic import EpisodicMemory

    recall = settings.interaction.retrieval.recall
    return EpisodicMemory(episodic_client(settings, layout), NadineEmbeddingFunction(offline_text_embedder()),
                          Clock(layout.runtime_dir), context_turns=recall.context_turns)


def forget_chroma(settings: NadineSettings, layout: DataLayout, user_id: str) -> int:
    """Delete the user's collection with interaction's own code, then purge what Chroma leaves."""
    from interaction.memory.chroma_store import episodic_persist_dir

    chroma = settings.interaction.chroma
    if chroma.mode == "embedded" and not layout.chroma_dir.is_dir():
        return 0
    removed = _episodic(settings, layout).forget(user_id)
    persist_dir = episodic_persist_dir(chroma, layout.chroma_dir)
    if persist_dir is not None:
        purge_chroma_remnants(persist_dir)
    return removed


def _add_answers(report: dict[str, Any], answers: Answers | None) -> None:
    """What the processes said: `broker` False when none was asked (no broker, or --no-bus)."""
    report["broker"] = answers is not None
    if answers is not None:
        report["processes"] = answers.answers
        report["missing"] = sorted(answers.missing)


def forget_person(settings: NadineSettings, layout: DataLayout, user_id: str, use_bus: bool,
                  timeout: float) -> tuple[dict, bool]:
    """Forget the whole person: the running processes first, then the files, and Chroma when
    interaction is not running. Returns the report and whether every process asked answered."""
    names = known_names(layout, user_id)  # before any process deletes the files that hold them
    report: dict[str, Any] = {"user_id": user_id, "processes": {}, "missing": []}
    pseudonym = new_pseudonym()  # one for every process, so a study's records still link up
    answers = ask_processes(settings, ForgetUser(user_id=user_id, pseudonym=pseudonym), timeout) if use_bus else None
    _add_answers(report, answers)
    interaction_live = answers is not None and "interaction" in answers.online
    local = forget_user_files(layout, user_id, names, pseudonym)
    if not interaction_live:
        local["text_memories"] = forget_chroma(settings, layout, user_id)
    report["local"] = local
    return report, not report["missing"]


def forget_memory(settings: NadineSettings, layout: DataLayout, request: ForgetMemory, use_bus: bool,
                  timeout: float) -> tuple[dict, bool]:
    """Forget one memory: the running processes first; on disk here when interaction is not running
    (a second Chroma client on a live database is not safe)."""
    from interaction.agents.episode import offline_summary
    from interaction.forget import forget_one_memory

    report: dict[str, Any] = {"user_id": request.user_id, "kind": request.kind, "memory_id": request.memory_id,
                              "processes": {}, "missing": []}
    answers = ask_processes(settings, request, timeout) if use_bus else None
    _add_answers(report, answers)
    if answers is None or "interaction" not in answers.online:
        embedded = settings.interaction.chroma.mode == "embedded"
        episodic = _episodic(settings, layout) if not embedded or layout.chroma_dir.is_dir() else None
        # interaction's model is not loaded here: a session that held the memory is summarised offline
        report["local"], _ = forget_one_memory(layout, request, Clock(layout.runtime_dir).now(), episodic,
                                               offline_summary, embedded)
    return report, not report["missing"]
