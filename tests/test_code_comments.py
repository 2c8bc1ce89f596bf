"""Comments and docstrings say what the code does and why in the code's own terms: a pointer to an
issue number, a reference section (§4.5) or a source tag ([P], [L]) tells a reader nothing without
documents they may not have, and goes stale when those change."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("common", "interaction", "perception", "control", "scripts")
POINTER = re.compile(r"issue [0-9]+|\[P\]|\[L\]|§[0-9]")


def test_no_comment_points_at_an_issue_or_a_reference_section():
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             for number, line in enumerate(path.read_text().splitlines(), 1) if POINTER.search(line)]
    assert not found, "say the why instead:\n" + "\n".join(found)
