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

Memory keys (issues 12-14; judged by scripts/runner/expect.py on the record's `recall`,
`memory_intent`, `reply` and `user_id`; a record without `recall` / `memory_intent` meets nothing
that reads them, so on a suite that does not report them these rates show the miss):
* untold questions: turns whose `recall_outcome` does not accept "asserted", outside impostor
  sessions. False-recall rate: the share on which anything was asserted (or no report came); abstain
  and offer rates: the shares abstained / offered;
* recalled-text hit rate: turns with `recalled_text` on which that memory was asserted or offered;
* window accuracy: turns of `time_window` scripts with `recalled_text` or `not_recalled_text` on
  which every memory key was met (the right moment, none of the others);
* intent accuracy: turns with `memory_intent` on which the intent was one of those given;
* impostor leak rate: turns with expectations in an impostor session (one with a `new_user: true`
  turn) on which a memory was asserted or offered, a scene injected, `reply_lacks` or
  `not_recalled_text` missed, or (on a turn with a recall key) no recall report came; impostor separated: `new_user` met;
  returning person recognised: `same_user_as` met;
* fact-change accuracy: turns with expectations in `changing_facts` scripts with every one met;
* recall-report coverage: turns with a key that reads the report on which the report was present.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from common.store.scenes import FIRST_MEETING_ANCHOR
from scripts.runner.expect import (
    Observed,
    SeenUsers,
    check_memory_keys,
    injected_utterance,
    scene_of_met,
    stored_met,
    user_name_met,
)
from scripts.runner.script import Expect, Script

WINDOW_CATEGORY = "time_window"
FACT_CHANGE_CATEGORY = "changing_facts"
_REPORT_KEYS = ("recall_outcome", "recalled_text", "not_recalled_text")

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
    "recognition_accuracy", "recall_detection_accuracy", "false_recall_rate", "abstain_rate", "offer_rate",
    "recalled_text_hit_rate", "window_accuracy", "intent_accuracy", "impostor_leak_rate", "impostor_separated",
    "same_person_recognised", "fact_change_accuracy", "recall_report_coverage", "expectations_met",
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


@dataclass(frozen=True)
class TurnContext:
    """What scoring a turn needs beyond its own expectation and record."""

    seen: SeenUsers = field(default_factory=SeenUsers)
    impostor_session: bool = False
    category: str | None = None


def score_memory_keys(expect: Expect, record: dict[str, Any], ctx: TurnContext, tally: Tally, where: str) -> None:
    r = tally.ratios
    given = set(expect.keys())
    obs = Observed.from_record(record)
    met = check_memory_keys(expect, obs, ctx.seen)

    def fail(metric: str, detail: str) -> None:
        tally.failures.append(f"{where} [{metric}] {record.get('say')!r}: {detail}")

    def count(metric: str, value: bool, missed: bool, detail: str) -> None:
        r[metric].add(value)
        if missed:
            fail(metric, detail)

    outcome = obs.recall.outcome if obs.recall is not None else None
    shown = f"outcome {outcome}, memories {obs.shown_texts()}"
    if given & set(_REPORT_KEYS):
        r["recall_report_coverage"].add(obs.recall is not None)
    if "recall_outcome" in given and "asserted" not in (expect.recall_outcome or []) and not ctx.impostor_session:
        asserted = outcome in (None, "asserted")
        count("false_recall_rate", asserted, asserted, f"untold; {shown}")
        r["abstain_rate"].add(outcome == "abstained")
        r["offer_rate"].add(outcome == "offered")
    if "recalled_text" in given:
        count("recalled_text_hit_rate", met["recalled_text"], not met["recalled_text"],
              f"expected {expect.recalled_text!r}; {shown}")
    if ctx.category == WINDOW_CATEGORY and given & {"recalled_text", "not_recalled_text"}:
        ok = all(met.values())
        window = obs.recall.window_expression if obs.recall else None
        count("window_accuracy", ok, not ok, f"window {window!r}; missed {[k for k, v in met.items() if not v]}")
    if "memory_intent" in given:
        count("intent_accuracy", met["memory_intent"], not met["memory_intent"],
              f"expected {expect.memory_intent}, got {obs.memory_intent}")
    if ctx.impostor_session:
        # A missing report is a miss only where the turn asks about recall (a greeting need not carry one).
        unreported = outcome is None and bool(given & set(_REPORT_KEYS))
        leaked = (unreported or outcome in ("asserted", "offered") or obs.injected is not None
                  or not met.get("reply_lacks", True) or not met.get("not_recalled_text", True))
        count("impostor_leak_rate", leaked, leaked, f"{shown}, injected {obs.injected!r}, reply {obs.reply!r}")
    if "new_user" in given:
        count("impostor_separated", met["new_user"], not met["new_user"],
              f"user id {obs.user_id} is an earlier session's")
    if "same_user_as" in given:
        count("same_person_recognised", met["same_user_as"], not met["same_user_as"],
              f"user id {obs.user_id}, session {expect.same_user_as} had "
              f"{ctx.seen.of_session(expect.same_user_as or 0)}")
    for key in ("reply_has", "reply_lacks", "not_recalled_text"):
        if key in met and not met[key]:
            fail(key, f"reply {obs.reply!r}")


def score_turn(expect: Expect, record: dict[str, Any], tally: Tally, where: str,
               ctx: TurnContext | None = None) -> None:
    ctx = ctx or TurnContext()
    score_memory_keys(expect, record, ctx, tally, where)
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
    if given == {"profile_lacks"} and record.get("expect_ok") is False:
        fail("profile_lacks", f"profile still holds one of {expect.profile_lacks}")
    if ctx.category == FACT_CHANGE_CATEGORY:
        r["fact_change_accuracy"].add(bool(record.get("expect_ok")))
        if not record.get("expect_ok"):
            fail("fact_change_accuracy", f"reply {record.get('reply')!r}")
    if record.get("expect_ok") is not None:
        r["expectations_met"].add(bool(record["expect_ok"]))


def seen_before(records: dict[tuple[Any, Any], dict[str, Any]], session: int) -> SeenUsers:
    """User ids Nadine held in the sessions before `session`, from the records (as the runner saw them)."""
    by_session: dict[int, list[str]] = {}
    for (s, _turn), rec in sorted(records.items(), key=lambda kv: kv[0]):
        if isinstance(s, int) and s < session and rec.get("user_id"):
            by_session.setdefault(s, []).append(rec["user_id"])
    return SeenUsers(by_session)


def score_script(script: Script, records: list[dict[str, Any]], name: str, category: str | None = None) -> Tally:
    """Joins turns and records by (session, turn); a turn without a record fails all it expects."""
    tally = Tally()
    by_position = {(rec.get("session"), rec.get("turn")): rec for rec in records
                   if isinstance(rec.get("session"), int) and isinstance(rec.get("turn"), int)}
    for s, session in enumerate(script.sessions, 1):
        impostor = any(turn.expect is not None and turn.expect.new_user for turn in session.turns)
        ctx = TurnContext(seen_before(by_position, s), impostor, category)
        for t, turn in enumerate(session.turns, 1):
            if turn.expect is None:
                continue
            record = by_position.get((s, t)) or {"say": turn.say, "expect_ok": False}
            score_turn(turn.expect, record, tally, f"{name} s{s}t{t}", ctx)
    return tally
