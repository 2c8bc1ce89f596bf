"""Freed memory is overwritten, so a forgotten person's vectors cannot reach another person's file.

Chroma's HNSW index (hnswlib, inside chromadb's native bindings) allocates a segment's whole capacity
with malloc and writes all of it to data_level0.bin, the slots no vector uses yet included. Those
bytes are whatever the process freed before: in interaction, the embeddings of any person it talked
to, a person forgotten since among them (seen: after a forget, a byte scan found the forgotten
person's vectors in the unused slots of another person's segment). glibc's perturb option fills
every chunk with a fixed byte when it is freed and when it is handed out again, except the small
chunks its per-thread cache hands straight back: those are covered only when the process starts
without that cache (scripts/freed_memory.sh, which the launchers source, sets both).
"""

from __future__ import annotations

import ctypes
import functools
import logging
import os
import sys

log = logging.getLogger("nadine.store.freed_memory")

_M_PERTURB = -6  # glibc malloc.h
_FILL_BYTE = 0xA5  # freed chunks hold 0xA5, new ones 0x5A: neither is a plausible float32 pattern
# what scripts/freed_memory.sh exports, for a command run without a launcher
_TUNABLES = "glibc.malloc.tcache_count=0:glibc.malloc.perturb=165"


@functools.cache
def overwrite_freed_memory() -> bool:
    """Ask glibc to overwrite memory on free and on allocation for the rest of this process's life.
    False where the C library has no such option (not glibc): there, unused index slots may still
    hold earlier bytes of this process."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        log.warning("this C library has no mallopt: unused Chroma index slots may hold freed bytes")
        return False
    if "tcache_count=0" not in os.environ.get("GLIBC_TUNABLES", ""):
        log.warning("started without scripts/freed_memory.sh: small freed chunks keep their bytes and may "
                    "reach an index file (start with start_nadine.sh, or source that file first)")
    return bool(mallopt(_M_PERTURB, _FILL_BYTE))


def run_module_with_freed_memory_overwritten(module: str) -> None:
    """A command people run by hand (python -m scripts.memory) starts itself again with the tunables
    the launchers export, which only take effect at a process's start; it returns at once when they
    are set already."""
    tunables = os.environ.get("GLIBC_TUNABLES", "")
    if "tcache_count=0" in tunables:
        return
    env = {**os.environ, "GLIBC_TUNABLES": f"{tunables}:{_TUNABLES}" if tunables else _TUNABLES}
    os.execve(sys.executable, [sys.executable, "-m", module, *sys.argv[1:]], env)
