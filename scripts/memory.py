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
import sys
from typing import Any

from common.config import NadineSettings
from common.messages import ForgetMemory
from common.store import DataLayout, InvalidUserId, ProfileStore, validate_user_id
from common.store.faces import FaceStore
from common.store.freed_memory import run_module_with_freed_memory_overwritten
from common.store.memory_ids import InvalidMemoryId, validate_memory_id
from interaction.forget_everywhere import forget_memory, forget_person
from interaction.memory import inventory
from scripts.cli_settings import cli_settings


def list_users(layout: DataLayout) -> list[dict[str, Any]]:
    """Every user the data root knows, from user_ids.json and the profile folders."""
    return [{**row, "scenes": row["moments"], "profile": layout.user_info_file(row["user_id"]).is_file()}
            for row in inventory.people(layout)]


def show_user(settings: NadineSettings, layout: DataLayout, user_id: str) -> dict[str, Any]:
    """The inventory's whole record, plus the keys earlier versions printed (profile, faces, scenes)."""
    profile = ProfileStore(layout).load(user_id)
    record = inventory.person(settings, layout, user_id, as_they_hold=True)
    return {
        **record,
        "profile": profile.model_dump() if profile else None,
        "faces": [p.name for p in FaceStore(layout).images(user_id)],
        "scenes": [{"scene_id": m["id"], "scene_type": m["scene_type"], "timestamp": m["date"],
                    "memorability": m["memorability"], "emotion_label": m["emotion"], "user_message": m["utterance"]}
                   for m in record["moments"]],
    }


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
    if not inventory.user_is_known(settings, layout, user_id):
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
    report, complete = forget_person(settings, layout, user_id, not args.no_bus, args.timeout)
    print(json.dumps(report, indent=2))
    return 0 if complete else 1


if __name__ == "__main__":
    run_module_with_freed_memory_overwritten("scripts.memory")
    raise SystemExit(main())
