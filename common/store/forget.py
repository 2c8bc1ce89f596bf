"""Forget one user on disk: their folder, their user_ids.json entry, their trace in the study logs.

Shared by the `scripts.memory forget` CLI and the processes' forget handlers (perception/forget.py,
interaction/forget.py). Every step is idempotent, so several processes may run it for the same
request and a forget interrupted by a crash is finished by running it again.

What "nothing of that user is left" takes beyond deleting files:
- study logs are kept for the study but pseudonymised: the id and the name become one random
  pseudonym (random, not a hash: YYMMDD_NNNN ids are too few to survive a dictionary attack);
- camera captures (`nadine_view/`) cannot be attributed to a person, so they all go;
- Chroma leaves a deleted collection's rows in SQLite free pages and its HNSW segment folder on
  disk (seen with chromadb 1.5): purge_chroma_remnants() vacuums and removes orphan segment folders.
  The SQLite part runs in a child process (common/store/chroma_purge.py): beside a live Chroma client
  in the same process it would rewrite the file under Chroma's transactions.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import shutil
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path

from common.store import chroma_purge
from common.store.atomic import TMP_PREFIX, atomic_write_bytes, file_lock, read_json
from common.store.faces import FaceStore
from common.store.ids import UNSCRUBBABLE_NAMES, validate_user_id
from common.store.layout import DataLayout
from common.store.profiles import ProfileStore
from common.store.scenes import SCENE_ID_RE, SceneStore

log = logging.getLogger("nadine.store.forget")

PSEUDONYM_PREFIX = "forgotten-"
_CHROMA_SQLITE = "chroma.sqlite3"


def new_pseudonym() -> str:
    return f"{PSEUDONYM_PREFIX}{secrets.token_hex(4)}"


def known_names(layout: DataLayout, user_id: str, also: Iterable[str] = ()) -> set[str]:
    """Every name the data root holds for this user (user_ids.json and user_info.json) plus `also`
    (names a process remembers, in case another process deleted the files first)."""
    names = {ProfileStore(layout).user_ids().get(user_id, ""), *also}
    info = read_json(layout.user_info_file(user_id), default={})
    if isinstance(info, dict) and isinstance(info.get("user_name"), str):
        names.add(info["user_name"])
    return {n.strip() for n in names if n and n.strip().casefold() not in UNSCRUBBABLE_NAMES}


def remove_user_folder(layout: DataLayout, user_id: str) -> dict[str, int]:
    """Delete <user_profiles>/<user_id>/ (profile, faces, scenes); counts what was there."""
    folder = layout.user_dir(user_id)
    counts = {
        "scenes": len(SceneStore(layout).metadata_files(user_id)),
        "faces": FaceStore(layout).count(user_id),
        "profile": int(layout.user_info_file(user_id).is_file()),
    }
    # rename first: a reader never sees a half-deleted user, and a crash leaves a leftover the
    # start-up sweep recognises instead of a user with some files missing
    doomed = folder.with_name(f"{TMP_PREFIX}forget-{secrets.token_hex(4)}")
    try:
        folder.rename(doomed)
    except FileNotFoundError:
        return counts
    # a writer that resolved the old path just before the rename may still drop a file in: go again
    for _ in range(3):
        shutil.rmtree(doomed, ignore_errors=True)
        if not doomed.exists():
            break
    return counts


def forget_scene(layout: DataLayout, user_id: str, scene_id: str) -> int:
    """Delete one scene: metadata first (the commit marker: readers stop seeing it at once), then its
    image and embedding. Idempotent; returns the files removed."""
    if not SCENE_ID_RE.match(scene_id):
        raise ValueError(f"invalid scene id {scene_id!r}")
    base = layout.scenes_dir(user_id)
    removed = 0
    for path in (base / "metadata" / f"{scene_id}_metadata.json", base / "images" / f"{scene_id}.jpg",
                 base / "embeddings" / f"{scene_id}_embedding.npy"):
        try:
            path.unlink()
            removed += 1
        except FileNotFoundError:
            continue
    return removed


def clear_captures(layout: DataLayout) -> int:
    """Camera captures of whoever was in view (top level of nadine_view/; samples/ stays)."""
    removed = 0
    if layout.captures_dir.is_dir():
        for path in layout.captures_dir.iterdir():
            if path.is_file():
                path.unlink(missing_ok=True)
                removed += 1
    return removed


def _scrub_patterns(user_id: str, names: set[str]) -> list[re.Pattern[bytes]]:
    """The id and each name, raw and as JSON escapes them (ensure_ascii writes é as \\u00e9)."""
    forms: set[str] = {user_id}
    for name in names:
        forms.add(name)
        forms.add(json.dumps(name)[1:-1])
    pats = []
    for form in sorted(forms, key=len, reverse=True):
        raw = re.escape(form.encode("utf-8"))
        # word-ish boundaries so "Ann" does not eat "Annual"; case-insensitive for names in free text
        pats.append(re.compile(rb"(?<![A-Za-z0-9_])" + raw + rb"(?![A-Za-z0-9_])", re.IGNORECASE))
    return pats


def _scrub(text: bytes, patterns: list[re.Pattern[bytes]], replacement: bytes) -> bytes:
    for pat in patterns:
        text = pat.sub(replacement, text)
    return text


def _pseudonymise_file(path: Path, patterns: list[re.Pattern[bytes]], replacement: bytes) -> bool:
    with file_lock(path, outside=True):  # the study logger appends under the same lock
        data = path.read_bytes()
        new = _scrub(data, patterns, replacement)
        if new != data:
            atomic_write_bytes(path, new)
    new_name = _scrub(path.name.encode("utf-8"), patterns, replacement).decode("utf-8")
    if new_name != path.name:
        path.rename(path.with_name(new_name))
    return new != data or new_name != path.name


def pseudonymise_study_logs(layout: DataLayout, user_id: str, names: set[str], pseudonym: str) -> int:
    """Replace the user's id and names by `pseudonym` in every study-log file (contents and file
    names); returns the number of files changed. Records stay, so study statistics survive.
    Safe while another process does the same (a file it renamed away is skipped)."""
    folder = layout.study_logs_dir
    if not folder.is_dir():
        return 0
    patterns = _scrub_patterns(user_id, names)
    replacement = pseudonym.encode("utf-8")
    changed = 0
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if path.name.startswith(TMP_PREFIX) or path.name.endswith(".lock"):
            continue
        try:
            changed += _pseudonymise_file(path, patterns, replacement)
        except FileNotFoundError:
            continue
    # lock files of earlier versions were named after their file, e.g. by_user/<user_id>.log.lock
    for lock in folder.rglob("*.lock"):
        if _scrub(lock.name.encode("utf-8"), patterns, replacement) != lock.name.encode("utf-8"):
            lock.unlink(missing_ok=True)
    return changed


def purge_chroma_remnants(persist_dir: Path) -> int:
    """After a collection was deleted: VACUUM the SQLite file (deleted rows linger in free pages)
    and remove HNSW segment folders no segment row refers to. Returns the folders removed."""
    db = persist_dir / _CHROMA_SQLITE
    if not db.is_file():
        return 0
    live = chroma_purge.vacuum(db)
    removed = 0
    for folder in persist_dir.iterdir():
        if folder.is_dir() and _looks_like_segment(folder.name) and folder.name not in live:
            shutil.rmtree(folder, ignore_errors=True)
            removed += 1
    return removed


def purge_chroma_documents(persist_dir: Path, collection_id: str, doc_ids: list[str], attempts: int = 5) -> int:
    """After documents were deleted from a live collection: blank their records in Chroma's log
    (embeddings_queue keeps every add, document text and vector included, until a segment flush purges
    it) and VACUUM so no free page holds them. The records stay, emptied, so the log's sequence
    numbers never repeat (a replay adds an empty vector, then the delete removes it). Returns the
    records blanked."""
    db = persist_dir / _CHROMA_SQLITE
    if not db.is_file() or not doc_ids:
        return 0
    for attempt in range(1, attempts + 1):
        try:
            return chroma_purge.blank_log_records(db, collection_id, doc_ids)
        except sqlite3.OperationalError as exc:  # Chroma's own connection is mid-transaction
            if attempt == attempts:
                log.error("could not purge forgotten documents from Chroma's log: %s", exc)
                return 0
            time.sleep(0.2 * attempt)
    return 0


_SEGMENT_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def _looks_like_segment(name: str) -> bool:
    return bool(_SEGMENT_RE.match(name))


def forget_user_files(
    layout: DataLayout, user_id: str, names: Iterable[str] = (), pseudonym: str | None = None,
) -> dict[str, int]:
    """Everything on disk outside Chroma: user folder, user_ids.json entry, captures, study logs.
    Process logs need nothing: they never held the id or a name (common/logs.py PseudonymFilter).

    Raises InvalidUserId for an id that is not a safe folder name (nothing is touched then).
    """
    validate_user_id(user_id)
    names = known_names(layout, user_id, names)
    counts = remove_user_folder(layout, user_id)
    counts["user_ids"] = int(ProfileStore(layout).remove_id(user_id))
    counts["captures"] = clear_captures(layout)
    counts["study_log_files"] = pseudonymise_study_logs(layout, user_id, names, pseudonym or new_pseudonym())
    log.info("forgot %s on disk: %s", user_id, counts)  # the log filter writes a pseudonym for the id
    return counts
