"""Interaction's part of forgetting a user (nadine/memory/forget_user, the CLI, "forget me").

Interaction owns what only it writes or holds: the Chroma collection and the scene index (through
MemoryServices.forget_user), user_ids.json, the study logs; it also removes the user's folder in
case perception is not running. Chroma keeps a deleted collection's rows in SQLite free pages and
its HNSW folder on disk, so those are purged too.
"""

from __future__ import annotations

import logging
import sqlite3
import time

from common.config import NadineSettings
from common.store import DataLayout
from common.store.forget import forget_user_files, purge_chroma_remnants
from interaction.memory.api import MemoryServices

log = logging.getLogger("nadine.interaction.forget")

VACUUM_ATTEMPTS = 5


def _purge_chroma(layout: DataLayout) -> int:
    for attempt in range(1, VACUUM_ATTEMPTS + 1):
        try:
            return purge_chroma_remnants(layout.chroma_dir)
        except sqlite3.OperationalError as exc:  # Chroma's own connection is mid-transaction
            if attempt == VACUUM_ATTEMPTS:
                log.error("could not vacuum %s (%s): deleted rows stay in free pages until the next forget",
                          layout.chroma_dir, exc)
                return 0
            time.sleep(0.2 * attempt)
    return 0


def forget_in_interaction(
    settings: NadineSettings, layout: DataLayout, services: MemoryServices | None, user_id: str,
    names: list[str] | None = None,
) -> dict[str, int]:
    """Erase the user in interaction and on disk; returns counts per kind for user_forgotten.
    `names`: what the dialogue calls them (in case user_ids.json no longer has it)."""
    removed = dict(services.forget_user(user_id)) if services is not None else {}
    removed.update(forget_user_files(layout, user_id, names or ()))
    if settings.interaction.chroma.mode == "embedded":
        removed["chroma_folders"] = _purge_chroma(layout)
    return removed
