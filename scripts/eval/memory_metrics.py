"""Memory benchmark metrics from a script's expectations and the runner's per-turn JSON records.

Each turn's `expect` (conversation-script.md) says what should happen; the runner's record says what
did (`stored`, `retrieved`, `is_recall`, `user_name`, `expect_ok`); each expectation is judged by the
runner's own rules (scripts/runner/expect.py), so live checks and these metrics cannot disagree. Definitions:
* recall hit rate: turns that expect a specific scene (`scene_of: <utterance>`) on which exactly that
  scene was injected;
* wrong-scene rate: of those turns, the share on which another scene was injected, plus recall turns
  that expect nothing (`recall: true, scene_of: null`) on which something was injected;
* false-injection rate: ordinary turns (`recall: false, scene_of: null`) on which a scene was injected;
* first-meeting precision: of the turns on which the first-meeting scene was injected, the share that
  asked for it; first-meeting recall: of the turns that asked for it, the share that got it;
* profile-fact accuracy: turns with a `profile` expectation whose facts were in the profile (read from
  the runner's expect_ok; benchmark scripts give `profile` alone on its turn so that it is exact);
* storage precision / recall: turns with a `stored` expectation; precision = stored the expected kind
  among turns where something was stored, recall = stored among turns that expect a scene;
* recognition accuracy (`user_name`) and recall-detection accuracy (`recall`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from common.store.scenes import FIRST_MEETING_ANCHOR
from scripts.runner.expect import injected_utterance, scene_of_met, stored_met, user_name_met
from scripts.runner.script import Expect, Script

_FIRST_MEETING = re.compile(
    "^" + re.escape(FIRST_MEETING_ANCHOR).replace(re.escape("{user_name}"), ".+") + "$", re.IGNORECASE
)


def is_first_meeting(text: str | None) -> bool:
    return bool(text) and bool(_FIRST_MEETING.match(" ".join(text.split())))


@dataclass
class Ratio:
    num: int = 0
    den: int = 0

    def add(self, ok: bool) -> None:
        self.num += int(ok)
        self.den += 1

    @property
    def value(self) -> float | None:
        return self.num / self.den if self.den else None

    def __str__(self) -> str:
        return "-" if self.den == 0 else f"{100 * self.num / self.den:.1f}% ({self.num}/{self.den})"


METRICS = (
    "recall_hit_rate", "wrong_scene_rate", "false_injection_rate", "first_meeting_precision",
    "first_meeting_recall", "profile_accuracy", "storage_precision", "storage_recall",
    "recognition_accuracy", "recall_detection_accuracy", "expectations_met",
)


@dataclass
class Tally:
    ratios: dict[str, Ratio] = field(default_factory=lambda: {name: Ratio() for name in METRICS})
    failures: list[str] = field(default_factory=list)

    def merge(self, other: Tally) -> None:
        for name, r in other.ratios.items():
            self.ratios[name].num += r.num
            self.ratios[name].den += r.den
        self.failures += other.failures

    def as_dict(self) -> dict[str, Any]:
        return {name: {"value": r.value, "n": r.den} for name, r in self.ratios.items()}


def score_turn(expect: Expect, record: dict[str, Any], tally: Tally, where: str) -> None:
    r = tally.ratios
    given = set(expect.keys())
    got = injected_utterance(record.get("retrieved"))

    def fail(metric: str, detail: str) -> None:
        tally.failures.append(f"{where} [{metric}] {record.get('say')!r}: {detail}")

    if "scene_of" in given:
        wanted = expect.scene_of
        if wanted is not None:
            hit = scene_of_met(wanted, got)
            wrong = got is not None and not hit
            r["recall_hit_rate"].add(hit)
            r["wrong_scene_rate"].add(wrong)
            if not hit:
                fail("recall_hit_rate", f"expected {wanted!r}, injected {got!r}")
            if is_first_meeting(wanted):
                r["first_meeting_recall"].add(hit)
        elif expect.recall:
            r["wrong_scene_rate"].add(got is not None)
            if got is not None:
                fail("wrong_scene_rate", f"nothing to recall, injected {got!r}")
        elif expect.recall is False:
            r["false_injection_rate"].add(got is not None)
            if got is not None:
                fail("false_injection_rate", f"ordinary turn, injected {got!r}")
        if is_first_meeting(got):
            ok = wanted is not None and is_first_meeting(wanted)
            r["first_meeting_precision"].add(ok)
            if not ok:
                fail("first_meeting_precision", "first-meeting scene injected unasked")
    if "recall" in given:
        ok = record.get("is_recall") == expect.recall
        r["recall_detection_accuracy"].add(ok)
        if not ok:
            fail("recall_detection_accuracy", f"is_recall={record.get('is_recall')}")
    if "user_name" in given:
        name = record.get("user_name")
        ok = user_name_met(expect.user_name, name)
        r["recognition_accuracy"].add(ok)
        if not ok:
            fail("recognition_accuracy", f"expected {expect.user_name!r}, believed {name!r}")
    if "stored" in given:
        stored = (record.get("stored") or {}).get("scene_type")
        if stored is not None:
            ok = expect.stored == stored
            r["storage_precision"].add(ok)
            if not ok:
                fail("storage_precision", f"stored {stored}, expected {expect.stored}")
        if expect.stored != "none":
            got_stored = stored_met(expect.stored, {stored} if stored else set())
            r["storage_recall"].add(got_stored)
            if not got_stored:
                fail("storage_recall", f"expected {expect.stored}, stored {stored}")
    if "profile" in given:
        if given == {"profile"} and record.get("expect_ok") is not None:
            r["profile_accuracy"].add(bool(record["expect_ok"]))
            if not record["expect_ok"]:
                fail("profile_accuracy", f"profile lacks {expect.profile}")
    if record.get("expect_ok") is not None:
        r["expectations_met"].add(bool(record["expect_ok"]))


def score_script(script: Script, records: list[dict[str, Any]], name: str) -> Tally:
    """Joins turns and records by (session, turn); a turn without a record fails all it expects."""
    tally = Tally()
    by_position = {(rec.get("session"), rec.get("turn")): rec for rec in records if "session" in rec}
    for s, session in enumerate(script.sessions, 1):
        for t, turn in enumerate(session.turns, 1):
            if turn.expect is None:
                continue
            record = by_position.get((s, t)) or {"say": turn.say, "expect_ok": False}
            score_turn(turn.expect, record, tally, f"{name} s{s}t{t}")
    return tally
