"""Memory this process frees is overwritten before anything else can be handed it: an HNSW segment
file, which Chroma writes whole with its unused slots, never carries bytes the process held before
(a forgotten person's vectors among them)."""

from __future__ import annotations

import ctypes
import platform

import pytest

from common.store.freed_memory import overwrite_freed_memory

# the options are glibc's; the machines Nadine ships for (Debian, Ubuntu) and CI run it
pytestmark = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the C library is not glibc")


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    return libc


@pytest.mark.parametrize("size", [24, 400, 4096])  # small ones come from glibc's per-thread cache
def test_a_freed_chunk_handed_out_again_holds_none_of_its_old_bytes(size):
    """Run by scripts/test.sh, which starts the tests as the launchers start Nadine."""
    assert overwrite_freed_memory() is True  # glibc accepted the option
    libc = _libc()
    held = libc.malloc(size)
    ctypes.memset(held, 0x3F, size)  # what a person's float32 vector could look like: 0.74...
    libc.free(held)
    again = libc.malloc(size)  # glibc hands back the chunk just freed for the same size
    try:
        assert b"\x3f\x3f\x3f\x3f" not in ctypes.string_at(again, size), \
            "freed bytes came back: start the tests with scripts/test.sh (it sources scripts/freed_memory.sh)"
    finally:
        libc.free(again)


def test_opening_chroma_turns_it_on(tmp_path):
    from common.config.interaction_settings import ChromaSettings
    from interaction.memory.chroma_store import make_client

    overwrite_freed_memory.cache_clear()
    make_client(ChromaSettings(), tmp_path / "chroma")
    assert overwrite_freed_memory.cache_info().currsize == 1
