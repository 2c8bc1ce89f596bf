"""Evaluates a turn's `expect` keys against what the suite did (docs/conversation-script.md).

The memory keys (recall_outcome, recalled_text, not_recalled_text, memory_intent, reply_has,
reply_lacks, same_user_as, new_user) are judged on an `Observed` turn, built either from the live
TurnResult (the runner) or from the runner's JSON record (scripts/eval/memory_metrics.py), so the
runner and the benchmark judge them with this one code. A turn result without `recall` or
`memory_intent` (a suite that does not report them) meets no key that reads them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from common.messages import RecallReport, SceneStored, TurnResult
from scripts.runner.script import Expect

# Outcomes that put a memory in front of the person (asserted as told, or offered as a question).
SHOWN_OUTCOMES = ("asserted", "offered")
# Words shorter than this carry little of a moment's content ("the", "my", "was").
_MIN_CONTENT_CHARS = 4
# A memory text this short is too generic to count as containing an expected text.
_MIN_CONTAINED_WORDS = 4


def same_text(a: str | None, b: str | None) -> bool:
    """Utterances and names compare as _plain text (case, apostrophes and whitespace normalised)."""
    return _plain(a) == _plain(b)


def injected_utterance(retrieved: Mapping[str, Any] | None) -> str | None:
    """The utterance of the scene Nadine actually used in her reply (injected), else None. Takes the
    `retrieved` of a TurnResult (dumped) or of a runner record, so live checks and offline metrics
    judge the same thing."""
    if not retrieved or not retrieved.get("injected"):
        return None
    return retrieved.get("user_message") or retrieved.get("description") or ""


def scene_of_met(wanted: str | None, injected: str | None) -> bool:
    """`scene_of: <utterance>` wants exactly that scene injected; `scene_of: null` wants none."""
    return injected is None if wanted is None else (injected is not None and same_text(injected, wanted))


def user_name_met(wanted: str | None, believed: str | None) -> bool:
    """`user_name: null` wants a stranger (no name or "Unknown")."""
    return believed in (None, "Unknown") if wanted is None else same_text(believed, wanted)


def stored_met(wanted: str | None, kinds: set[str]) -> bool:
    return not kinds if wanted == "none" else wanted in kinds


def _plain(text: str | None) -> str:
    """Case, typographic apostrophes and whitespace normalised: what reply_has / reply_lacks compare."""
    return " ".join((text or "").replace("\u2019", "'").replace("\u2018", "'").split()).casefold()


def _words(text: str | None) -> list[str]:
    return re.findall(r"[^\W_]+(?:'[^\W_]+)*", _plain(text))

def texts_match(expected: str, memory_text: str) -> bool:
    """Normalised (case, punctuation, spacing): the memory holds the expected text, or a memory of at
    least a few words is part of it (a turn document may carry its speaker or neighbouring turns)."""
    want, have = " ".join(_words(expected)), " ".join(_words(memory_text))
    if not want or not have:
        return False
    return f" {want} " in f" {have} " or (len(have.split()) >= _MIN_CONTAINED_WORDS and f" {have} " in f" {want} ")


def distinctive_words(text: str, question: str) -> set[str]:
    """The content of `text` that the question itself did not name: its words of 4+ characters."""
    asked = set(_words(question))
    return {w for w in _words(text) if len(w) >= _MIN_CONTENT_CHARS and w not in asked}


def reply_shows(text: str, question: str, reply: str | None) -> bool:
    """The reply carries the distinctive content of `text`: at least half of its distinctive words
    (and at least two of them, when it has two or more)."""
    own = distinctive_words(text, question)
    if not own:
        return False
    hits = len(own & set(_words(reply)))
    return hits >= min(len(own), max(2, math.ceil(len(own) / 2)))


@dataclass(frozen=True)
class SeenUsers:
    """Who Nadine believed she talked to in the sessions played before this turn's session."""

    by_session: dict[int, list[str]] = field(default_factory=dict)  # session -> user ids, turn order

    def of_session(self, session: int) -> str | None:
        """A session's user: the last id Nadine held in it (an unknown visitor may be enrolled mid-way)."""
        ids = self.by_session.get(session) or []
        return ids[-1] if ids else None

    def earlier(self) -> set[str]:
        return {uid for ids in self.by_session.values() for uid in ids}


@dataclass(frozen=True)
class Observed:
    """What a turn did, as far as the memory keys look."""

    say: str
    reply: str | None
    user_id: str | None
    recall: RecallReport | None
    memory_intent: str | None
    injected: str | None  # the legacy RetrievedScene's utterance when it was injected

    @classmethod
    def from_result(cls, say: str, result: TurnResult) -> Observed:
        retrieved = result.retrieved.model_dump() if result.retrieved is not None else None
        return cls(say, result.reply, result.user_id, result.recall, result.memory_intent,
                   injected_utterance(retrieved))

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Observed:
        """From the runner's JSON line; a malformed `recall` counts as no report."""
        try:
            report = RecallReport.model_validate(record["recall"]) if record.get("recall") else None
        except ValidationError:
            report = None
        return cls(record.get("say") or "", record.get("reply"), record.get("user_id"), report,
                   record.get("memory_intent"), injected_utterance(record.get("retrieved")))

    def shown_texts(self) -> list[str]:
        """Memories put in front of the person on this turn (asserted or offered)."""
        if self.recall is None or self.recall.outcome not in SHOWN_OUTCOMES:
            return []
        return [m.text for m in self.recall.memories]

    def asserted_texts(self) -> list[str]:
        if self.recall is None or self.recall.outcome != "asserted":
            return []
        return [m.text for m in self.recall.memories] + ([self.injected] if self.injected else [])


def not_recalled(text: str, obs: Observed) -> bool:
    """Not asserted as something told, and its distinctive content not in the reply. Offering it ("do
    you mean when you told me about ...?") is allowed: that asks instead of claiming."""
    if obs.recall is None:
        return False
    if obs.injected and texts_match(text, obs.injected):
        return False
    if any(texts_match(text, t) for t in obs.asserted_texts()):
        return False
    return obs.recall.outcome == "offered" or not reply_shows(text, obs.say, obs.reply)


def check_memory_keys(expect: Expect, obs: Observed, seen: SeenUsers) -> dict[str, bool]:
    """The memory keys given on `expect` -> met."""
    given = set(expect.keys())
    out: dict[str, bool] = {}
    if "recall_outcome" in given:
        out["recall_outcome"] = obs.recall is not None and obs.recall.outcome in (expect.recall_outcome or [])
    if "recalled_text" in given and expect.recalled_text:
        out["recalled_text"] = any(texts_match(expect.recalled_text, t) for t in obs.shown_texts())
    if "not_recalled_text" in given and expect.not_recalled_text:
        out["not_recalled_text"] = not_recalled(expect.not_recalled_text, obs)
    if "memory_intent" in given:
        out["memory_intent"] = obs.memory_intent in (expect.memory_intent or [])
    if "reply_has" in given:
        reply = _plain(obs.reply)
        out["reply_has"] = obs.reply is not None and all(_plain(s) in reply for s in expect.reply_has or [])
    if "reply_lacks" in given:
        reply = _plain(obs.reply)
        out["reply_lacks"] = obs.reply is not None and not any(_plain(s) in reply for s in expect.reply_lacks or [])
    if "same_user_as" in given and expect.same_user_as is not None:
        wanted = seen.of_session(expect.same_user_as)
        out["same_user_as"] = wanted is not None and obs.user_id == wanted
    if "new_user" in given and expect.new_user is not None:
        # No id at all (nobody enrolled) is not any earlier person either.
        differs = obs.user_id is None or obs.user_id not in seen.earlier()
        out["new_user"] = differs if expect.new_user else not differs
    return out


def stored_types(scenes: list[SceneStored]) -> set[str]:
    return {s.scene_type or "moment" for s in scenes}


def _profile_has(have: Any, value: Any) -> bool:
    """Whether the profile field currently holds the value (list fields: all given items)."""
    if isinstance(have, list):
        wanted_items = value if isinstance(value, list) else [value]
        return all(any(same_text(str(w), str(x)) for x in have) for w in wanted_items)
    if isinstance(value, str) or isinstance(have, str):
        return same_text(None if have is None else str(have), None if value is None else str(value))
    return have == value


def profile_matches(profile: dict[str, Any] | None, wanted: dict[str, Any]) -> bool:
    if profile is None:
        return False
    return all(_profile_has(profile.get(key), value) for key, value in wanted.items())


def profile_lacks(profile: dict[str, Any] | None, unwanted: dict[str, Any]) -> bool:
    """No given value is current any more (list fields: none of the given items is held)."""
    if profile is None:
        return False
    for key, value in unwanted.items():
        for item in value if isinstance(value, list) else [value]:
            if _profile_has(profile.get(key), item):
                return False
    return True


def memory_counts(person: Mapping[str, Any]) -> dict[str, int]:
    """A person's memories by the kinds the `memories` key names, from interaction.memory.inventory.person."""
    counts = {"explicit": len(person.get("explicit_memories") or []), "moment": 0, "first_meeting": 0, "observation": 0}
    for moment in person.get("moments") or []:
        kind = moment.get("scene_type") or "moment"
        counts[kind] = counts.get(kind, 0) + 1
    return counts


def memories_met(counts: Mapping[str, int] | None, wanted: Mapping[str, int]) -> bool:
    return counts is not None and all(counts.get(kind, 0) == n for kind, n in wanted.items())


def check(
    expect: Expect, result: TurnResult | None, scenes: list[SceneStored], profile: dict[str, Any] | None,
    seen: SeenUsers | None = None, say: str = "", counts: Mapping[str, int] | None = None,
) -> dict[str, bool]:
    """expect key -> met. A turn without a result meets nothing."""
    if result is None:
        return {key: False for key in expect.keys()}
    out = check_memory_keys(expect, Observed.from_result(say or result.text, result), seen or SeenUsers())
    for key in expect.keys():
        if key == "stored":
            out[key] = stored_met(expect.stored, stored_types(scenes))
        elif key == "recall":
            out[key] = result.is_recall == expect.recall
        elif key == "scene_of":
            retrieved = result.retrieved.model_dump() if result.retrieved is not None else None
            out[key] = scene_of_met(expect.scene_of, injected_utterance(retrieved))
        elif key == "profile":
            out[key] = profile_matches(profile, expect.profile or {})
        elif key == "profile_lacks":
            out[key] = profile_lacks(profile, expect.profile_lacks or {})
        elif key == "memories":
            out[key] = memories_met(counts, expect.memories or {})
        elif key == "user_name":
            out[key] = user_name_met(expect.user_name, result.user_name)
    return dict(sorted(out.items()))
