"""Byte-level search of a data root for anything of one user (the forget tests' oracle).

Every file is read whole, SQLite databases included, so rows left in free pages count as found.
Names are matched case-insensitively (SQLite FTS stores lower-cased tokens); vectors are matched as
raw float32/float64 bytes, plain and unit-normalised (HNSW stores cosine vectors normalised).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

import numpy as np

_WINDOW_FLOATS = 4  # 16 bytes of float32: no accidental match in a few MB of unrelated data
_IMAGE_WINDOW = 64
TEXT_LABELS = ("name:", "id:", "words:")  # needles matched case-insensitively, in paths too
ID_LABEL = "id:"


def name_needles(name: str) -> list[bytes]:
    forms = {name, json.dumps(name)[1:-1]}
    return [f.lower().encode("utf-8") for f in forms] + [name.lower().encode("utf-16-le")]


def text_needles(*words: str) -> dict[str, list[bytes]]:
    """A memory's distinctive words, matched case-insensitively like names."""
    return {f"words:{w}": name_needles(w) for w in words}


def vector_needles(vec: np.ndarray) -> list[bytes]:
    v = np.asarray(vec, dtype=np.float64).ravel()
    norm = np.linalg.norm(v)
    out = []
    for cand in (v, v / norm if norm > 0 else v):
        mid = len(cand) // 2
        for window in (cand[:_WINDOW_FLOATS], cand[mid:mid + _WINDOW_FLOATS]):
            out.append(window.astype(np.float32).tobytes())
            out.append(window.astype(np.float64).tobytes())
    return out


def image_needles(data: bytes) -> list[bytes]:
    mid = len(data) // 2
    return [data[mid:mid + _IMAGE_WINDOW], data[-_IMAGE_WINDOW - 2:-2]]


def find_traces(root: Path, needles: dict[str, Iterable[bytes]]) -> list[tuple[str, str]]:
    """(relative path, needle label) for every file under root holding any needle."""
    flat = [(label, n) for label, ns in needles.items() for n in ns if n]
    hits = []
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        for label, needle in flat:
            if label.startswith(TEXT_LABELS) and _holds(rel.lower().encode("utf-8"), label, needle):
                hits.append((rel, f"{label} in path"))
        if not path.is_file():
            continue
        data = path.read_bytes()
        lowered = data.lower()
        # HNSW segment files (*.bin) hold only float vectors and graph links, which the vector needles
        # cover; a 3-5 letter name matched case-insensitively turns up in megabytes of another user's
        # random float bytes by chance (seen: "maya" in a kept user's data_level0.bin)
        text_can_hide_here = path.suffix != ".bin"
        for label, needle in flat:
            is_text = label.startswith(TEXT_LABELS)
            if is_text and not text_can_hide_here:
                continue
            if _holds(lowered if is_text else data, label, needle):
                hits.append((rel, label))
    return hits


def _holds(data: bytes, label: str, needle: bytes) -> bool:
    """An id (YYMMDD_NNNN) counts only as a whole number: a timestamp minted in the minute 00:01 of
    the same day (20261205_000106) holds 261205_0001 inside a longer run of digits."""
    if not label.startswith(ID_LABEL):
        return needle in data
    return re.search(rb"(?<![0-9])" + re.escape(needle) + rb"(?![0-9])", data) is not None
