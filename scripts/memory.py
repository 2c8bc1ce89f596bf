"""Inspect and erase what Nadine remembers, on the data root NADINE_DATA_DIR names.

  python -m scripts.memory list
  python -m scripts.memory show USER_ID [--json]     (text for people; --json for scripts)
  python -m scripts.memory forget USER_ID [--yes] [--no-bus] [--timeout S]
  python -m scripts.memory forget-memory USER_ID {moment|explicit_memory|episode|fact} ID [--no-bus]

`forget` first asks the running processes over MQTT (nadine/memory/forget_user) so they also drop
what they hold in memory (perception's face gallery, interaction's scene index and Chroma client),
waits for the nadine/memory/user_forgotten of each process online when it asked (their retained
status; a publish while the bus reconnects waits for it), then erases on disk whatever is left
(idempotent): the user's folder, the user_ids.json entry, the Chroma collection (only when
interaction is not running: a second Chroma client on a live database is not safe), and the user's
name and id in the study logs (replaced by a pseudonym). Exit code 0 when everything answered and
was erased, 1 when a running process did not answer, 2 for a bad id or config, 3 for an id the
data root does not know (nothing is touched). Ids are checked before anything goes on the bus.
"""

from __future__ import annotations

import argparse
import json
import logging
import sqlite3
import sys
import threading
from contextlib import closing
from typing import Any

from common import topics as t
from common.bus import Bus, BusNotConnected
from common.clock import Clock
from common.config import NadineSettings
from common.messages import ForgetMemory, ForgetUser, UserForgotten
from common.store import DataLayout, InvalidUserId, ProfileStore, validate_user_id
from common.store.faces import FaceStore
from common.store.forget import forget_user_files, known_names, new_pseudonym, purge_chroma_remnants
from common.store.memory_ids import InvalidMemoryId, validate_memory_id
from scripts import inventory
from scripts.cli_settings import cli_settings

log = logging.getLogger("nadine.memory_cli")

PROCESSES = ("perception", "interaction", "control")
CLI_PROCESS = "memory-cli"


def list_users(layout: DataLayout) -> list[dict[str, Any]]:
    """Every user the data root knows, from user_ids.json and the profile folders."""
    return [{**row, "scenes": row["moments"], "profile": layout.user_info_file(row["user_id"]).is_file()}
            for row in inventory.people(layout)]


def user_is_known(settings: NadineSettings, layout: DataLayout, user_id: str) -> bool:
    """True when anything on disk belongs to this id: its user_ids.json entry, its folder, or (a
    forget interrupted after the files went) its Chroma collection."""
    if user_id in ProfileStore(layout).user_ids() or layout.user_dir(user_id).is_dir():
        return True
    from interaction.memory.chroma_store import collection_name, make_client

    name = collection_name(user_id)
    if settings.interaction.chroma.mode == "http":
        return name in {c if isinstance(c, str) else c.name for c in
                        make_client(settings.interaction.chroma, layout.chroma_dir).list_collections()}
    db = layout.chroma_dir / "chroma.sqlite3"
    if not db.is_file():
        return False
    # read-only SQLite, not a second Chroma client: interaction may have the database open
    with closing(sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)) as conn:
        return conn.execute("SELECT 1 FROM collections WHERE name = ?", (name,)).fetchone() is not None


def show_user(settings: NadineSettings, layout: DataLayout, user_id: str) -> dict[str, Any]:
    """scripts.inventory's whole record, plus the keys earlier versions printed (profile, faces, scenes)."""
    profile = ProfileStore(layout).load(user_id)
    record = inventory.person(settings, layout, user_id)
    return {
        **record,
        "profile": profile.model_dump() if profile else None,
        "faces": [p.name for p in FaceStore(layout).images(user_id)],
        "scenes": [{"scene_id": m["id"], "scene_type": m["scene_type"], "timestamp": m["date"],
                    "memorability": m["memorability"], "emotion_label": m["emotion"], "user_message": m["utterance"]}
                   for m in record["moments"]],
    }


class _Answers:
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


def ask_processes(settings: NadineSettings, request: ForgetUser | ForgetMemory, timeout: float) -> _Answers | None:
    """Publish forget_user / forget_memory to the running processes and wait for each one's
    user_forgotten (within `timeout`); None when no broker answers."""
    answers = _Answers(request.user_id, request.memory_id if isinstance(request, ForgetMemory) else None)
    bus = Bus(CLI_PROCESS, settings.common.mqtt, t.Topics(settings.common.topic_root))
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


def forget_chroma(settings: NadineSettings, layout: DataLayout, user_id: str) -> int:
    """Delete the user's collection with interaction's own code, then purge what Chroma leaves."""
    from common.embedding.chroma import NadineEmbeddingFunction
    from common.embedding.registry import offline_text_embedder
    from interaction.memory.chroma_store import episodic_client, episodic_persist_dir
    from interaction.memory.episodic import EpisodicMemory

    chroma = settings.interaction.chroma
    if chroma.mode == "embedded" and not layout.chroma_dir.is_dir():
        return 0
    client = episodic_client(settings, layout)
    episodic = EpisodicMemory(client, NadineEmbeddingFunction(offline_text_embedder()), Clock(None))
    removed = episodic.forget(user_id)
    persist_dir = episodic_persist_dir(chroma, layout.chroma_dir)
    if persist_dir is not None:
        purge_chroma_remnants(persist_dir)
    return removed


def _add_answers(report: dict[str, Any], answers: _Answers | None) -> None:
    """What the processes said: `broker` False when none was asked (no broker, or --no-bus)."""
    report["broker"] = answers is not None
    if answers is not None:
        report["processes"] = answers.answers
        report["missing"] = sorted(answers.missing)


def forget(settings: NadineSettings, layout: DataLayout, user_id: str, use_bus: bool, timeout: float) -> tuple[dict, bool]:
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
    from interaction.forget import forget_one_memory
    from interaction.memory.chroma_store import episodic_client
    from interaction.memory.documents import forget_document

    report: dict[str, Any] = {"user_id": request.user_id, "kind": request.kind, "memory_id": request.memory_id,
                              "processes": {}, "missing": []}
    answers = ask_processes(settings, request, timeout) if use_bus else None
    _add_answers(report, answers)
    if answers is None or "interaction" not in answers.online:
        embedded = settings.interaction.chroma.mode == "embedded"
        client = episodic_client(settings, layout) \
            if not embedded or layout.chroma_dir.is_dir() else None
        report["local"] = forget_one_memory(
            layout, request, Clock(layout.runtime_dir).now(),
            (lambda uid, doc: forget_document(client, uid, doc)) if client is not None else None, embedded)
    return report, not report["missing"]


def _confirm(layout: DataLayout, user_id: str) -> bool:
    name = ProfileStore(layout).user_ids().get(user_id, "unknown name")
    print(f"Forget everything about {user_id} ({name})? This cannot be undone.", file=sys.stderr)
    try:
        typed = input("Type the user id to confirm: ")
    except EOFError:
        return False
    return typed.strip() == user_id


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.memory", description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", help="data root (default: NADINE_DATA_DIR / common.data_dir)")
    parser.add_argument("--config-override", action="append", default=[], metavar="KEY=VALUE")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="every known user with counts")
    show = sub.add_parser("show", help="everything held about one user: facts with history, explicit memories, "
                                       "moments, episodes, face images")
    show.add_argument("user_id")
    show.add_argument("--json", action="store_true", help="JSON for scripts (default: text for people)")
    fg = sub.add_parser("forget", help="erase one user everywhere")
    fg.add_argument("user_id")
    fg.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    fg.add_argument("--no-bus", action="store_true", help="do not ask running processes (disk only)")
    fg.add_argument("--timeout", type=float, default=15.0, help="seconds to wait for each process's answer")
    fm = sub.add_parser("forget-memory", help="erase one memory of a user everywhere")
    fm.add_argument("user_id")
    fm.add_argument("kind", choices=["moment", "explicit_memory", "episode", "fact"])
    fm.add_argument("memory_id", help="scene id, Chroma document id, or FIELD:VALUE for a fact")
    fm.add_argument("--no-bus", action="store_true", help="do not ask running processes (disk only)")
    fm.add_argument("--timeout", type=float, default=15.0, help="seconds to wait for each process's answer")
    args = parser.parse_args(argv)
    settings = cli_settings(args, "memory")
    if settings is None:
        return 2
    layout = DataLayout(settings.common.data_dir, settings.common.robot_id)
    if args.command == "list":
        rows = list_users(layout)
        print(f"{'user_id':<16} {'name':<24} {'scenes':>6} {'faces':>5} profile")
        for r in rows:
            print(f"{r['user_id']:<16} {(r['user_name'] or '-'):<24} {r['scenes']:>6} {r['faces']:>5} "
                  f"{'yes' if r['profile'] else 'no'}")
        return 0
    try:
        user_id = validate_user_id(args.user_id)
        if args.command == "forget-memory":
            validate_memory_id(args.kind, args.memory_id)
    except (InvalidUserId, InvalidMemoryId) as exc:
        print(f"memory: {exc}", file=sys.stderr)
        return 2
    if not user_is_known(settings, layout, user_id):
        print(f"memory: no user {user_id} in {layout.root} (`list` shows the known ids); nothing changed",
              file=sys.stderr)
        return 3
    if args.command == "show":
        record = show_user(settings, layout, user_id)
        print(json.dumps(record, indent=2, ensure_ascii=False) if args.json else inventory.as_text(record))
        return 0
    if args.command == "forget-memory":
        request = ForgetMemory(user_id=user_id, kind=args.kind, memory_id=args.memory_id)
        report, complete = forget_memory(settings, layout, request, not args.no_bus, args.timeout)
        print(json.dumps(report, indent=2))
        return 0 if complete else 1
    if not args.yes and not _confirm(layout, user_id):
        print("memory: not confirmed; nothing erased", file=sys.stderr)
        return 1
    report, complete = forget(settings, layout, user_id, not args.no_bus, args.timeout)
    print(json.dumps(report, indent=2))
    return 0 if complete else 1


if __name__ == "__main__":
    raise SystemExit(main())
