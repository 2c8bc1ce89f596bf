""""what do i study in evening?" got "That's a good question" in the afternoon, and the right memory in
the morning: "study" is a verb of knowing to WordNet, so its time was read as when something was told,
and "in evening" became a window of this afternoon that held nothing (tester63 s19, replayed at 12:30).
Only the listener's knowing recalls ("what do you remember from last week?")."""

from __future__ import annotations

from datetime import datetime

import pytest

from interaction.memory.retrieval import windows

AFTERNOON = datetime(2026, 12, 8, 12, 30)


@pytest.mark.parametrize("asked", ["what do i study in evening?", "what do I learn in the mornings?"])
def test_the_speakers_own_knowing_names_no_window_of_telling(asked):
    assert windows.resolve(asked, AFTERNOON, []) is None


@pytest.mark.parametrize(("asked", "expression"), [
    ("what do you remember from last week?", "from last week"), ("what did I tell you on Tuesday?", "on Tuesday"),
])
def test_the_listeners_remembering_and_telling_still_name_one(asked, expression):
    found = windows.resolve(asked, AFTERNOON, [])
    assert found is not None and found.expression == expression and not found.happened
