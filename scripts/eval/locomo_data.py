"""LoCoMo (locomo10.json) reader: sessions with parsed dates, questions with resolved evidence.

The file stays in ../shared/data/locomo/ (CC BY-NC 4.0, held out: nothing is tuned on it).
Quirks handled (locomo/README.md): iterate session_<n> lists, not date keys (conv-26 has 35 date keys
and 19 sessions); evidence strings such as "D8:6; D9:17", "D:11:26", "D30:05" or "D" are split and
normalised, and references to turns that do not exist are counted, not fatal.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

DATE_FORMAT = "%I:%M %p on %d %B, %Y"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
_SESSION_KEY = re.compile(r"^session_(\d+)$")
_EVIDENCE = re.compile(r"D:?(\d+):0*(\d+)")


@dataclass(frozen=True)
class Turn:
    speaker: str
    dia_id: str
    text: str
    blip_caption: str | None = None

    @property
    def spoken(self) -> str:
        """The turn as the robot would have heard it; a shared photo is described by its caption."""
        if self.blip_caption:
            return f"{self.text} [shares a photo: {self.blip_caption}]"
        return self.text


@dataclass(frozen=True)
class Session:
    number: int
    when: datetime
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Question:
    question: str
    category: int
    evidence_raw: tuple[str, ...]
    evidence: tuple[str, ...]  # normalised dia_ids that exist in the conversation
    sessions: frozenset[int]  # the sessions holding that evidence
    unresolved: tuple[str, ...] = ()


@dataclass
class Conversation:
    sample_id: str
    speaker_a: str
    speaker_b: str
    sessions: list[Session]
    questions: list[Question] = field(default_factory=list)


def parse_date(text: str) -> datetime:
    return datetime.strptime(text.strip(), DATE_FORMAT)


def split_evidence(raw: str) -> tuple[list[str], list[str]]:
    """Normalised dia_ids found in one evidence string, and the parts that are not dia_ids."""
    found, junk = [], []
    for part in re.split(r"[;,\s]+", raw.strip()):
        if not part:
            continue
        m = _EVIDENCE.fullmatch(part)
        if m:
            found.append(f"D{int(m.group(1))}:{int(m.group(2))}")
        else:
            junk.append(part)
    return found, junk


def _session_turns(raw: list) -> tuple[Turn, ...]:
    return tuple(
        Turn(
            speaker=str(t["speaker"]),
            dia_id=str(t["dia_id"]),
            text=str(t.get("text", "")),
            blip_caption=t.get("blip_caption") or None,
        )
        for t in raw
    )


def _conversation(obj: dict) -> Conversation:
    conv = obj["conversation"]
    sessions = []
    for key, value in conv.items():
        m = _SESSION_KEY.match(key)
        if not m or not isinstance(value, list) or not value:
            continue
        n = int(m.group(1))
        sessions.append(Session(number=n, when=parse_date(conv[f"session_{n}_date_time"]), turns=_session_turns(value)))
    sessions.sort(key=lambda s: s.number)
    turn_session = {t.dia_id: s.number for s in sessions for t in s.turns}
    questions = []
    for qa in obj.get("qa", []):
        raw = tuple(str(e) for e in qa.get("evidence", []))
        ids: list[str] = []
        unresolved: list[str] = []
        for e in raw:
            found, junk = split_evidence(e)
            unresolved.extend(junk)
            for dia in found:
                (ids if dia in turn_session else unresolved).append(dia)
        questions.append(
            Question(
                question=str(qa["question"]),
                category=int(qa["category"]),
                evidence_raw=raw,
                evidence=tuple(ids),
                sessions=frozenset(turn_session[d] for d in ids),
                unresolved=tuple(unresolved),
            )
        )
    return Conversation(
        sample_id=str(obj["sample_id"]),
        speaker_a=str(conv["speaker_a"]),
        speaker_b=str(conv["speaker_b"]),
        sessions=sessions,
        questions=questions,
    )


def load(path: Path) -> list[Conversation]:
    return [_conversation(obj) for obj in json.loads(Path(path).read_text(encoding="utf-8"))]
