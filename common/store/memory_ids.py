"""Memory ids: one moment, text memory or profile fact of a person, validated before a forget request
reaches a store or the bus (the CLI, the inspector)."""

from __future__ import annotations

import re

from common.store.profile_fields import FIELDS_BY_NAME
from common.store.scenes import SCENE_ID_RE

MEMORY_KINDS = ("moment", "explicit_memory", "episode", "fact")
# a Chroma document id (explicit memory, episode) is any printable text, as long as ForgetMemory allows
DOCUMENT_ID_RE = re.compile(r"[^\x00-\x1f\x7f]{1,300}")


class InvalidMemoryId(ValueError):
    pass


def validate_memory_id(kind: str, memory_id: object) -> str:
    """Return the id if it can name a memory of this kind, else raise InvalidMemoryId: a moment is a
    scene id, a fact is FIELD:VALUE of a profile field, a text memory is its Chroma document id."""
    if kind not in MEMORY_KINDS:
        raise InvalidMemoryId(f"unknown kind of memory {kind!r}: allowed are {', '.join(MEMORY_KINDS)}")
    if not isinstance(memory_id, str) or not DOCUMENT_ID_RE.fullmatch(memory_id):
        raise InvalidMemoryId(f"invalid {kind} id {memory_id!r}: 1-300 printable characters")
    if kind == "moment" and not SCENE_ID_RE.match(memory_id):
        raise InvalidMemoryId(f"invalid scene id {memory_id!r}: scene_YYYYMMDD_HHMMSS[_xxxxxx]")
    if kind == "fact":
        field, _, value = memory_id.partition(":")
        if field not in FIELDS_BY_NAME or not value.strip():
            raise InvalidMemoryId(f"invalid fact {memory_id!r}: FIELD:VALUE, FIELD one of {', '.join(FIELDS_BY_NAME)}")
    return memory_id
