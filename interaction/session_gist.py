"""A session's summary said back as its gist in Nadine's words, never quoted as if the person had
said it ("you told me: 'On Monday, Rafael talked with Nadine and said: ...'").

A summary is recalled only for a question that names no topic ("what did we talk about last
time?"), and only when nothing of that session was kept one by one (retrieval/core.py). The offline
summary (interaction/agents/episode.py) quotes every turn the person took: its gist is what they
told among those quotes (interaction/memory/told.py, the test a recall candidate passes), said back
as reported speech like any remembered turn, or that they told nothing in particular. A model's
summary is Nadine's own notes in the third person, and is said as her notes.
"""

from __future__ import annotations

import re

from interaction.memory.told import is_told
from interaction.reported_speech import SaidDay, told_back

_OBSERVATION = re.compile(r"Observation:\s*(.+?)\s*(?:\nThought:|$)", re.S)
_QUOTED = re.compile(r'"([^"]+)"')
MAX_TOLD = 2  # a gist, not a reading of the session


def observation(summary: str) -> str:
    """The part of a stored summary that says what the person said and did."""
    found = _OBSERVATION.search(summary)
    return " ".join((found.group(1) if found else summary).split())


def gist(summary: str, talked: SaidDay | None = None) -> str:
    """The clause after the day: "we talked, and you told me ..." (`talked`: the day of the talk)."""
    notes = observation(summary)
    quotes = _QUOTED.findall(notes)
    if not quotes:
        return f"we talked, and my notes of it say: {notes}"
    told = [q for q in quotes if is_told(q)][:MAX_TOLD]
    if not told:
        return "we talked, but you didn't tell me anything in particular"
    return "we talked, and " + ", and ".join(told_back("turn", q, talked) for q in told)
